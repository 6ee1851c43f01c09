/* test_dbd_acct.c — slurmdbd's request helpers without a database: the
 * where clause turned into SQL (every value quoted, unknown keys refused
 * first), set values, AdminLevel words, and who may change what.
 *
 * dbd_acct.c is compiled in directly; the database calls it makes are
 * replaced by the stubs below (quote escapes like MariaDB does, select
 * answers from a canned table). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "dbd/dbd_acct.c"
#include "dbd/dbd_private.c"
#include "dbd/dbd_acct_ext.c"

/* ---- database stubs ---- */

static const char *canned_level = "1";     /* admin_level select answer */
static const char *canned_coord;           /* the account uid coordinates */
static int selects;

void dbd_db_quote(dbd_db_t *db, char **sql, const char *value)
{
	if (!value) {
		xstrcat(sql, "NULL");
		return;
	}
	xstrcatc(sql, '\'');
	for (const char *p = value; *p; p++) {
		if (*p == '\'' || *p == '\\')
			xstrcatc(sql, '\\');
		xstrcatc(sql, *p);
	}
	xstrcatc(sql, '\'');
}

int dbd_db_select(dbd_db_t *db, const char *sql, dbd_rows_t *out)
{
	selects++;
	memset(out, 0, sizeof(*out));
	if (strstr(sql, "coord_table") && !canned_coord)
		return 0;                  /* nobody coordinates anything */
	if (strstr(sql, "coord_table") || strstr(sql, "parent_acct=")) {
		/* the coordinated account; "phys" below it */
		const char *v = strstr(sql, "coord_table") ? canned_coord :
			strstr(sql, "parent_acct='phys'") ? NULL : "phys";

		if (!v)
			return 0;
		out->rows = out->cols = 1;
		out->cells = xcalloc(2, sizeof(char *));
		out->cells[0] = xstrdup(v);
		return 0;
	}
	out->rows = 1;
	out->cols = 1;
	out->cells = xcalloc(2, sizeof(char *));
	out->cells[0] = xstrdup(canned_level);
	return 0;
}

void dbd_rows_free(dbd_rows_t *r)
{
	for (size_t i = 0; r->cells && i < (size_t)r->rows * r->cols; i++)
		xfree(r->cells[i]);
	xfree(r->cells);
}

const char *dbd_rows_get(const dbd_rows_t *r, uint32_t row, uint32_t col)
{
	return row < r->rows && col < r->cols ?
		r->cells[row * r->cols + col] : "";
}

static int begun, committed, rolled_back;   /* transactions */

int dbd_db_begin(dbd_db_t *db) { begun++; return 0; }
int dbd_db_commit(dbd_db_t *db) { committed++; return 0; }
void dbd_db_rollback(dbd_db_t *db) { rolled_back++; }

static int changes;
static char *last_exec;                     /* the last statement run */

int dbd_db_exec(dbd_db_t *db, const char *sql)
{
	xfree(last_exec);
	last_exec = xstrdup(sql);
	return 0;
}

uint64_t dbd_db_affected(dbd_db_t *db) { return 1; }
int dbd_rollup_reset(dbd_db_t *db, const char *cluster, time_t t)
{
	return 0;
}

int dbd_acct_list(dbd_req_t *r) { return 0; }
int dbd_acct_add(dbd_req_t *r) { changes++; return 0; }
int dbd_acct_modify(dbd_req_t *r) { changes++; return 0; }
int dbd_acct_delete(dbd_req_t *r) { changes++; return 0; }

/* ---- helpers ---- */

static dbd_conf_t conf = { .slurm_user_id = 4242 };
static dbd_acct_ctx_t ctx = { .uid = 0, .conf = &conf, .peer = "test" };

static void req_init(dbd_req_t *r, dbd_acct_msg_t *m,
		     dbd_acct_resp_msg_t *resp)
{
	memset(r, 0, sizeof(*r));
	memset(resp, 0, sizeof(*resp));
	r->ctx = &ctx;
	r->req = m;
	r->resp = resp;
}

static void resp_clear(dbd_acct_resp_msg_t *resp)
{
	xfree(resp->msg);
	xstrarray_free(resp->cols);
	xstrarray_free(resp->cells);
	memset(resp, 0, sizeof(*resp));
}

/* ---- tests: bad input first ---- */

static void test_where_unknown_key(void **state)
{
	static const char *bad[] = { "color=blue", "names=x", "=x", "name",
				     "parent=a" };   /* not a QOS condition */
	dbd_acct_resp_msg_t resp;
	dbd_acct_msg_t m = { .op = DBD_OP_LIST, .entity = DBD_ENT_QOS };
	dbd_req_t r;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *where[] = { (char *)bad[i], NULL };
		char *sql = NULL;
		char *want = xstrdup_printf(" Unknown condition: %s", bad[i]);

		m.where = where;
		req_init(&r, &m, &resp);
		assert_int_equal(dbd_req_where_sql(&r, dbd_entity_find(m.entity),
						   &sql), -1);
		assert_int_equal(resp.rc, SLURM_ERROR);
		assert_string_equal(resp.msg, want);
		xfree(want);
		xfree(sql);
		resp_clear(&resp);
	}
}

static void test_where_values_quoted(void **state)
{
	char *where[] = { "name=Ph'ys,x\\' OR 1=1 --", "cluster=c1", NULL };
	dbd_acct_msg_t m = { .op = DBD_OP_LIST, .entity = DBD_ENT_ACCOUNT,
			     .where = where };
	dbd_acct_resp_msg_t resp;
	dbd_req_t r;
	char *sql = NULL;

	req_init(&r, &m, &resp);
	assert_int_equal(dbd_req_where_sql(&r, dbd_entity_find(m.entity),
					   &sql), 0);
	/* lower-cased, split on commas, every quote and backslash escaped */
	assert_non_null(strstr(sql, " AND t.name IN ('ph\\'ys','x\\\\\\' or "
			       "1=1 --')"));
	assert_non_null(strstr(sql, "cluster IN ('c1')"));
	xfree(sql);
	resp_clear(&resp);
}

static void test_set_values(void **state)
{
	static const struct {
		const char *key, *val, *want;   /* want NULL = refused */
	} cases[] = {
		{ "maxjobs", "abc", NULL },
		{ "maxjobs", "-2", NULL },
		{ "maxwall", "soon", NULL },
		{ "adminlevel", "god", NULL },
		{ "maxjobs", "10", "10" },
		{ "maxjobs", "-1", "NULL" },
		{ "fairshare", "-1", "1" },
		{ "maxwall", "1-00:00:00", "1440" },
		{ "maxwall", "UNLIMITED", "NULL" },
		{ "adminlevel", "operator", "2" },
		{ "adminlevel", "Admin", "3" },
		{ "description", "it's", "'it\\'s'" },
		{ "defaultaccount", "PhYs", "'phys'" },
	};
	const dbd_entity_desc_t *e = dbd_entity_find(DBD_ENT_USER);
	const dbd_entity_desc_t *a = dbd_entity_find(DBD_ENT_ACCOUNT);
	dbd_acct_msg_t m = { .op = DBD_OP_MODIFY, .entity = DBD_ENT_USER };
	dbd_acct_resp_msg_t resp;
	dbd_req_t r;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const dbd_setting_t *s = NULL;
		char *sql = NULL;
		int rc;

		for (const dbd_entity_desc_t *d = e; !s && d; d = d == e ? a : NULL)
			for (const dbd_setting_t *x = d->sets; x->key; x++)
				if (!strcmp(x->key, cases[i].key))
					s = x;
		assert_non_null(s);
		req_init(&r, &m, &resp);
		rc = dbd_req_set_value(&r, s, cases[i].val, &sql);
		if (!cases[i].want) {
			if (rc != -1 || resp.rc == 0)
				fail_msg("case %zu accepted", i);
		} else if (rc != 0 || xstrcmp(sql, cases[i].want)) {
			fail_msg("case %zu: got %s", i, sql);
		}
		xfree(sql);
		resp_clear(&resp);
	}
}

static void test_admin_words(void **state)
{
	assert_int_equal(dbd_acct_admin_parse("bogus"), -1);
	assert_int_equal(dbd_acct_admin_parse("none"), DBD_ADMIN_NONE);
	assert_int_equal(dbd_acct_admin_parse("OPERATOR"), DBD_ADMIN_OPERATOR);
	assert_int_equal(dbd_acct_admin_parse("administrator"),
			 DBD_ADMIN_SUPER);
	assert_string_equal(dbd_acct_admin_name(DBD_ADMIN_SUPER),
			    "Administrator");
	assert_string_equal(dbd_acct_admin_name(0), "None");
}

static void test_kv(void **state)
{
	char *kvs[] = { "account=A,b", "name=x", "account=C,d", "acc=z", NULL };
	char **l;

	assert_null(dbd_kv_get(kvs, "user"));
	assert_null(dbd_kv_get(kvs, "ac"));
	assert_string_equal(dbd_kv_get(kvs, "account"), "C,d");  /* last */
	l = dbd_kv_list(kvs, "account");
	assert_int_equal(xstrarray_len(l), 2);
	assert_string_equal(l[0], "c");
	xstrarray_free(l);
	assert_null(dbd_kv_list(kvs, "cluster"));
}

/* Who may change: root and SlurmUser always; others by AdminLevel. */
static void test_permissions(void **state)
{
	static const struct {
		uid_t       uid;
		const char *level;
		const char *set;     /* a setting in the request, or NULL */
		bool        allowed;
	} cases[] = {
		{ 1, "1", NULL, false },            /* None */
		{ 1, "", NULL, false },             /* no such user */
		{ 1, "2", NULL, true },             /* Operator */
		{ 1, "2", "adminlevel=admin", false },
		{ 1, "3", "adminlevel=admin", true },
		{ 0, "1", "adminlevel=admin", true },
		{ 4242, "1", "adminlevel=admin", true },   /* SlurmUser */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *set[] = { (char *)cases[i].set, NULL };
		char *names[] = { "x", NULL };
		dbd_acct_msg_t m = { .op = DBD_OP_ADD, .entity = DBD_ENT_ACCOUNT,
				     .names = names,
				     .set = cases[i].set ? set : NULL,
				     .flags = DBD_ACCT_COMMIT };
		dbd_acct_resp_msg_t resp = { 0 };

		ctx.uid = cases[i].uid;
		canned_level = cases[i].level;
		changes = committed = rolled_back = 0;
		dbd_acct_handle(NULL, &ctx, &m, &resp);
		/* a refused add is still tried, to show what it would do */
		if (changes != 1 || cases[i].allowed != (committed == 1))
			fail_msg("case %zu: changes %d committed %d rc %d", i,
				 changes, committed, resp.rc);
		if (!cases[i].allowed) {
			assert_int_equal(resp.rc, ESLURM_ACCESS_DENIED);
			assert_int_equal(rolled_back, 1);
		}
		resp_clear(&resp);
	}
	ctx.uid = 1;
	canned_level = "1";
	{
		char *where[] = { "name=x", NULL };
		char *set[] = { "fairshare=2", NULL };
		dbd_acct_msg_t m = { .op = DBD_OP_MODIFY,
				     .entity = DBD_ENT_ACCOUNT, .where = where,
				     .set = set, .flags = DBD_ACCT_COMMIT };
		dbd_acct_resp_msg_t resp = { 0 };

		changes = 0;
		dbd_acct_handle(NULL, &ctx, &m, &resp);
		assert_int_equal(changes, 0);
		assert_int_equal(resp.rc, ESLURM_ACCESS_DENIED);
		resp_clear(&resp);
	}
	ctx.uid = 0;
}

/* A coordinator (AdminLevel None) may change association settings of
 * users/accounts/associations (slurmdbd then checks every association
 * changed is below its accounts), not AdminLevel, DefaultAccount or an
 * account's description; a user who coordinates nothing may not. */
static void test_coordinator_modify(void **state)
{
	static const struct {
		uint16_t entity;
		const char *set;
		bool allowed;
	} cases[] = {
		{ DBD_ENT_USER, "maxjobs=3", true },
		{ DBD_ENT_USER, "grptresmins=cpu=5", true },
		{ DBD_ENT_ACCOUNT, "fairshare=2", true },
		{ DBD_ENT_ASSOC, "maxwall=10", true },
		{ DBD_ENT_USER, "adminlevel=Operator", false },
		{ DBD_ENT_USER, "defaultaccount=phys", false },
		{ DBD_ENT_ACCOUNT, "description=x", false },
		{ DBD_ENT_ACCOUNT, "parent=phys", false },
		{ DBD_ENT_QOS, "priority=5", false },
	};

	ctx.uid = 1;
	canned_level = "1";
	for (int coord = 0; coord < 2; coord++) {
		canned_coord = coord ? "top" : NULL;
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			char *where[] = { "name=x", NULL };
			char *set[] = { (char *)cases[i].set, NULL };
			dbd_acct_msg_t m = { .op = DBD_OP_MODIFY,
					     .entity = cases[i].entity,
					     .where = where, .set = set,
					     .flags = DBD_ACCT_COMMIT };
			dbd_acct_resp_msg_t resp = { 0 };
			bool want = coord && cases[i].allowed;

			changes = committed = 0;
			dbd_acct_handle(NULL, &ctx, &m, &resp);
			if ((changes == 1) != want ||
			    (committed == 1) != want ||
			    (!want && resp.rc != ESLURM_ACCESS_DENIED))
				fail_msg("coord %d case %zu: changes %d rc %d",
					 coord, i, changes, resp.rc);
			resp_clear(&resp);
		}
	}
	canned_coord = NULL;
	ctx.uid = 0;
}

/* A change without DBD_ACCT_COMMIT is rolled back; a list needs no
 * transaction and no permission. */
static void test_dry_run_and_list(void **state)
{
	char *names[] = { "x", NULL };
	dbd_acct_msg_t m = { .op = DBD_OP_ADD, .entity = DBD_ENT_ACCOUNT,
			     .names = names };
	dbd_acct_resp_msg_t resp = { 0 };

	begun = committed = rolled_back = 0;
	dbd_acct_handle(NULL, &ctx, &m, &resp);
	assert_int_equal(begun, 1);
	assert_int_equal(committed, 0);
	assert_int_equal(rolled_back, 1);
	resp_clear(&resp);
	m.flags = DBD_ACCT_COMMIT;
	dbd_acct_handle(NULL, &ctx, &m, &resp);
	assert_int_equal(committed, 1);
	resp_clear(&resp);

	ctx.uid = 1;
	canned_level = "1";
	m.op = DBD_OP_LIST;
	begun = 0;
	dbd_acct_handle(NULL, &ctx, &m, &resp);
	assert_int_equal(resp.rc, 0);
	assert_int_equal(begun, 0);
	resp_clear(&resp);
	m.entity = 99;
	dbd_acct_handle(NULL, &ctx, &m, &resp);
	assert_int_equal(resp.rc, SLURM_ERROR);
	resp_clear(&resp);
	ctx.uid = 0;
}

/* A committed change is recorded: action, actor, where and what it
 * set, every value quoted. */
static void test_txn_record(void **state)
{
	char *where[] = { "name=lic1", "server=o'srv", NULL };
	char *set[] = { "count=5", NULL };
	dbd_acct_msg_t m = { .op = DBD_OP_MODIFY, .entity = DBD_ENT_RESOURCE,
			     .where = where, .set = set };
	dbd_acct_resp_msg_t resp;
	dbd_req_t r;

	req_init(&r, &m, &resp);
	r.now = 1000;
	assert_int_equal(dbd_acct_txn_record(&r), 0);
	assert_non_null(strstr(last_exec, "INSERT INTO txn_table"));
	assert_non_null(strstr(last_exec, "'Modify Resources'"));
	assert_non_null(strstr(last_exec, "'root'"));
	/* the quote inside a value is escaped by the quoting */
	assert_non_null(strstr(last_exec, "'name=\\'lic1\\' && "
			       "server=\\'o\\'srv\\''"));
	assert_non_null(strstr(last_exec, "'count=\\'5\\''"));
	xfree(last_exec);
	resp_clear(&resp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_where_unknown_key),
		cmocka_unit_test(test_where_values_quoted),
		cmocka_unit_test(test_set_values),
		cmocka_unit_test(test_admin_words),
		cmocka_unit_test(test_kv),
		cmocka_unit_test(test_permissions),
		cmocka_unit_test(test_coordinator_modify),
		cmocka_unit_test(test_dry_run_and_list),
		cmocka_unit_test(test_txn_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
