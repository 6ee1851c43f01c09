/* test_acct_limits.c — acct_limits.h: strings one byte over each limit
 * first (refused with Slurm's error, in every request that carries
 * them), then strings exactly at the limit, then the column types. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "common/acct_limits.h"
#include "common/job_info.h"
#include "common/msg_types.h"
#include "common/resv_info.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

static char *str_of(size_t n)
{
	char *s = xmalloc(n + 1);

	memset(s, 'a', n);
	s[n] = '\0';
	return s;
}

static void test_over_each_limit(void **state)
{
	(void)state;
	for (int f = 0; f < ACCT_LIM_CNT; f++) {
		uint32_t max = acct_limit_max(f);
		char *over = str_of(max + 1), *at = str_of(max);

		assert_true(max > 0);
		assert_int_equal(acct_limit_check(f, over),
				 ESLURM_PATHNAME_TOO_LONG);
		assert_int_equal(acct_limit_check(f, at), 0);
		assert_int_equal(acct_limit_check(f, NULL), 0);
		xfree(over);
		xfree(at);
	}
	assert_int_equal(acct_limit_check(ACCT_LIM_CNT, "a"), SLURM_ERROR);
}

/* Every string of a submit, one at a time one byte too long. */
static void test_job_desc(void **state)
{
	static const struct { size_t off; acct_limit_t lim; } f[] = {
		{ offsetof(job_desc_t, account), ACCT_LIM_ACCOUNT },
		{ offsetof(job_desc_t, name), ACCT_LIM_JOB_NAME },
		{ offsetof(job_desc_t, comment), ACCT_LIM_COMMENT },
		{ offsetof(job_desc_t, work_dir), ACCT_LIM_PATH },
		{ offsetof(job_desc_t, std_out), ACCT_LIM_PATH },
		{ offsetof(job_desc_t, submit_line), ACCT_LIM_SUBMIT_LINE },
		{ offsetof(job_desc_t, partition), ACCT_LIM_PARTITION },
		{ offsetof(job_desc_t, qos), ACCT_LIM_QOS },
		{ offsetof(job_desc_t, wckey), ACCT_LIM_WCKEY },
		{ offsetof(job_desc_t, features), ACCT_LIM_CONSTRAINTS },
		{ offsetof(job_desc_t, dependency), ACCT_LIM_OTHER },
	};
	static const uint16_t types[] = {
		REQUEST_SUBMIT_BATCH_JOB, REQUEST_RESOURCE_ALLOCATION,
		REQUEST_JOB_WILL_RUN,
	};
	char *why;

	(void)state;
	for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++)
		for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
			job_desc_t d = { 0 };
			char **p = (char **)((char *)&d + f[i].off);
			uint32_t max = acct_limit_max(f[i].lim);

			*p = str_of(max + 1);
			assert_int_equal(acct_limits_msg(types[t], &d, &why),
					 ESLURM_PATHNAME_TOO_LONG);
			assert_non_null(why);
			xfree(why);
			xfree(*p);
			*p = str_of(max);
			assert_int_equal(acct_limits_msg(types[t], &d, &why),
					 0);
			assert_null(why);
			xfree(*p);
		}
}

/* No --job-name: the command names the job. */
static void test_job_command(void **state)
{
	char *argv[2] = { str_of(65536), NULL };
	job_desc_t d = { .argv = argv };
	char *why;

	(void)state;
	assert_int_equal(acct_limits_msg(REQUEST_SUBMIT_BATCH_JOB, &d, &why),
			 ESLURM_PATHNAME_TOO_LONG);
	assert_non_null(strstr(why, "command"));
	xfree(why);
	xfree(argv[0]);
}

static void test_other_requests(void **state)
{
	job_update_msg_t u = { 0 };
	job_step_create_request_msg_t st = { 0 };
	resv_desc_t r = { 0 };
	node_update_msg_t n = { 0 };
	char *why;

	(void)state;
	u.account = str_of(65);
	assert_int_equal(acct_limits_msg(REQUEST_UPDATE_JOB, &u, &why),
			 ESLURM_PATHNAME_TOO_LONG);
	assert_non_null(strstr(why, "account is 65 bytes"));
	xfree(why);
	xfree(u.account);
	u.comment = str_of(65535);
	assert_int_equal(acct_limits_msg(REQUEST_UPDATE_JOB, &u, &why), 0);
	xfree(u.comment);

	st.name = str_of(65536);
	assert_int_equal(acct_limits_msg(REQUEST_JOB_STEP_CREATE, &st, &why),
			 ESLURM_PATHNAME_TOO_LONG);
	xfree(why);
	xfree(st.name);

	r.accounts = str_of(65536);
	assert_int_equal(acct_limits_msg(REQUEST_CREATE_RESERVATION, &r,
					 &why), ESLURM_PATHNAME_TOO_LONG);
	xfree(why);
	assert_int_equal(acct_limits_msg(REQUEST_UPDATE_RESERVATION, &r,
					 &why), ESLURM_PATHNAME_TOO_LONG);
	xfree(why);
	xfree(r.accounts);

	n.reason = str_of(65536);
	assert_int_equal(acct_limits_msg(REQUEST_UPDATE_NODE, &n, &why),
			 ESLURM_PATHNAME_TOO_LONG);
	xfree(why);
	xfree(n.reason);

	/* types without strings to check */
	assert_int_equal(acct_limits_msg(REQUEST_PING, &u, &why), 0);
	assert_int_equal(acct_limits_msg(REQUEST_UPDATE_JOB, NULL, &why), 0);
}

/* sacctmgr: names added, name-like values (each of a list), text. */
static void test_dbd_acct(void **state)
{
	char *long_name = str_of(65), *ok_name = str_of(64);
	char *names[] = { ok_name, long_name, NULL };
	char *set_long[] = { NULL, NULL };
	dbd_acct_msg_t m = { .op = DBD_OP_ADD, .entity = DBD_ENT_ACCOUNT,
			     .names = names };
	char *why;

	(void)state;
	assert_int_equal(acct_limits_msg(REQUEST_DBD_ACCT, &m, &why),
			 ESLURM_PATHNAME_TOO_LONG);
	xfree(why);
	names[1] = NULL;
	assert_int_equal(acct_limits_msg(REQUEST_DBD_ACCT, &m, &why), 0);

	set_long[0] = xstrdup_printf("parent=root,%s", long_name);
	m.set = set_long;
	assert_int_equal(acct_limits_msg(REQUEST_DBD_ACCT, &m, &why),
			 ESLURM_PATHNAME_TOO_LONG);
	xfree(why);
	xfree(set_long[0]);

	xfree(long_name);
	long_name = str_of(65536);
	set_long[0] = xstrdup_printf("description=%s", long_name);
	xfree(long_name);
	long_name = str_of(65);
	m.op = DBD_OP_MODIFY;
	m.names = NULL;
	assert_int_equal(acct_limits_msg(REQUEST_DBD_ACCT, &m, &why),
			 ESLURM_PATHNAME_TOO_LONG);
	xfree(why);
	/* a list stores nothing */
	m.op = DBD_OP_LIST;
	assert_int_equal(acct_limits_msg(REQUEST_DBD_ACCT, &m, &why), 0);
	xfree(set_long[0]);

	names[0] = long_name;
	m = (dbd_acct_msg_t){ .op = DBD_OP_ADD, .entity = DBD_ENT_USER,
			      .names = names };
	assert_int_equal(acct_limits_msg(REQUEST_DBD_ACCT, &m, &why),
			 ESLURM_PATHNAME_TOO_LONG);
	xfree(why);
	xfree(long_name);
	xfree(ok_name);
}

static void test_sql_types(void **state)
{
	(void)state;
	assert_string_equal(acct_limit_sql_type(ACCT_LIM_ACCOUNT),
			    "VARCHAR(64)");
	assert_string_equal(acct_limit_sql_type(ACCT_LIM_CLUSTER),
			    "VARCHAR(64)");
	assert_string_equal(acct_limit_sql_type(ACCT_LIM_JOB_NAME), "TEXT");
	assert_string_equal(acct_limit_sql_type(ACCT_LIM_PATH), "TEXT");
	assert_string_equal(acct_limit_sql_type(ACCT_LIM_SUBMIT_LINE),
			    "MEDIUMTEXT");
	assert_int_equal(acct_limit_max(ACCT_LIM_SUBMIT_LINE), 1048576);
	assert_int_equal(acct_limit_max(ACCT_LIM_ACCOUNT), 64);
	assert_int_equal(acct_limit_max(ACCT_LIM_COMMENT), 65535);
	assert_int_equal(acct_limit_max(ACCT_LIM_PATH), 4096);
	assert_string_equal(acct_limit_name(ACCT_LIM_ACCOUNT), "account");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_over_each_limit),
		cmocka_unit_test(test_job_desc),
		cmocka_unit_test(test_job_command),
		cmocka_unit_test(test_other_requests),
		cmocka_unit_test(test_dbd_acct),
		cmocka_unit_test(test_sql_types),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
