/* test_step_cred.c — step credentials against a private munged: every way
 * a credential can be bad first (garbage, changed node list, changed job,
 * replayed signature, expired, other node), then a good one. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>
#include <time.h>

#include "munge_fixture.h"
#include "slurm_key_fixture.h"

#include "common/auth.h"
#include "common/step_cred.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

static step_cred_t base = {
	.job_id = 12, .step_id = 3, .uid = 1001, .gid = 1001,
	.user_name = "u1", .node_list = "n[1-2]", .cpus_per_node = "2,2",
	.job_node_list = "n[1-4]",
};

/* payload + one signature for it */
static char *signed_payload(const step_cred_t *c, char **sig)
{
	char *p = step_cred_encode(c);

	assert_int_equal(step_cred_sign(p, sig), SLURM_SUCCESS);
	return p;
}

static int verify(const char *p, const char *sig, const char *node,
		  step_cred_t **out)
{
	const char *why = NULL;
	int rc = step_cred_verify(p, sig, 64030, node, time(NULL), out, &why);

	if (rc)
		assert_non_null(why);
	return rc;
}

static void test_garbage(void **state)
{
	step_cred_t *c = NULL;
	static const char *bad[] = { "", "0", "zz", "abc", "00", "ffffffff",
				     "0000000000000000000000000000000000" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_null(step_cred_decode(bad[i]));
	assert_null(step_cred_decode(NULL));
	NEED_MUNGE();
	assert_int_equal(verify("00", "MUNGE:junk", "n1", &c),
			 ESLURMD_INVALID_JOB_CREDENTIAL);
	assert_null(c);
	assert_int_equal(verify(NULL, NULL, "n1", &c),
			 ESLURMD_INVALID_JOB_CREDENTIAL);
}

static void test_changed_node_list_refused(void **state)
{
	step_cred_t other = base, *c = NULL;
	char *sig, *p, *p2;

	NEED_MUNGE();
	p = signed_payload(&base, &sig);
	other.node_list = "n[1-3]";
	p2 = step_cred_encode(&other);
	/* the signature covers the payload: a new node list breaks it */
	assert_int_equal(verify(p2, sig, "n3", &c),
			 ESLURMD_INVALID_JOB_CREDENTIAL);
	assert_null(c);
	/* one flipped hex digit anywhere, too */
	p2[strlen(p2) / 2] = p2[strlen(p2) / 2] == '0' ? '1' : '0';
	xfree(sig);
	xfree(p);
	p = signed_payload(&base, &sig);
	assert_int_equal(verify(p2, sig, "n1", &c),
			 ESLURMD_INVALID_JOB_CREDENTIAL);
	xfree(sig);
	xfree(p);
	xfree(p2);
}

static void test_replayed_signature_refused(void **state)
{
	step_cred_t *c = NULL;
	char *sig, *p = signed_payload(&base, &sig);

	NEED_MUNGE();
	assert_int_equal(verify(p, sig, "n1", &c), SLURM_SUCCESS);
	step_cred_free(c);
	c = NULL;
	assert_int_equal(verify(p, sig, "n1", &c), ESLURMD_CREDENTIAL_REPLAYED);
	assert_null(c);
	xfree(sig);
	xfree(p);
}

static void test_expired_refused(void **state)
{
	step_cred_t old = base, *c = NULL;
	char *sig, *p;

	NEED_MUNGE();
	old.expiry = time(NULL) - 1;
	p = signed_payload(&old, &sig);
	assert_int_equal(verify(p, sig, "n1", &c), ESLURMD_CREDENTIAL_EXPIRED);
	xfree(sig);
	xfree(p);
}

static void test_other_node_refused(void **state)
{
	step_cred_t *c = NULL;
	char *sig, *p;

	NEED_MUNGE();
	base.expiry = time(NULL) + STEP_CRED_TTL;
	p = signed_payload(&base, &sig);
	assert_int_equal(verify(p, sig, "n3", &c),
			 ESLURMD_INVALID_JOB_CREDENTIAL);
	xfree(sig);
	xfree(p);
}

static void test_good(void **state)
{
	step_cred_t *c = NULL;
	char *sig, *p;

	NEED_MUNGE();
	base.expiry = time(NULL) + STEP_CRED_TTL;
	p = signed_payload(&base, &sig);
	assert_int_equal(verify(p, sig, "n2", &c), SLURM_SUCCESS);
	assert_non_null(c);
	assert_int_equal(c->job_id, 12);
	assert_int_equal(c->step_id, 3);
	assert_int_equal(c->uid, 1001);
	assert_string_equal(c->node_list, "n[1-2]");
	assert_string_equal(c->cpus_per_node, "2,2");
	assert_string_equal(c->job_node_list, "n[1-4]");
	step_cred_free(c);
	xfree(sig);
	xfree(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_changed_node_list_refused),
		cmocka_unit_test(test_replayed_signature_refused),
		cmocka_unit_test(test_expired_refused),
		cmocka_unit_test(test_other_node_refused),
		cmocka_unit_test(test_good),
	};

	base.expiry = time(NULL) + STEP_CRED_TTL;
	int rc = cmocka_run_group_tests_name("auth/munge", tests,
					     munge_auth_setup,
					     munge_auth_teardown);

	/* the same tests, every one, with auth/slurm's tokens */
	return rc | cmocka_run_group_tests_name("auth/slurm", tests,
						slurm_auth_setup,
						slurm_auth_teardown);
}
