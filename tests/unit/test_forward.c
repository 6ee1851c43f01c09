/* test_forward.c — REQUEST_FORWARD as a slurmd judges it before acting
 * (slurmd/forward_req.c's _check): who may send what, malformed lists;
 * and the packed (hex) request round trip and subtree timeouts
 * (common/forward.c). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../src/slurmd/forward_req.c"

/* slurmd's dispatcher (req.c) is not linked here */
void req_handle(net_conn_t *conn, slurm_msg_t *msg, void *arg)
{
	(void) msg; (void) arg;
	net_reply_rc(conn, SLURM_SUCCESS);
}

#define SLURM_UID 64030
#define USER_UID  1001

static slurm_conf_t conf = { .slurm_user_id = SLURM_UID };
static conf_node_t me = { .name = "n1" };
static slurmd_t sd = { .conf = &conf, .node = &me };

static char *names3[] = { "n1", "n2", "n3", NULL };

static char *launch_hex(uint32_t uid)
{
	char *argv[] = { "/bin/true", NULL };
	launch_tasks_request_msg_t l = { .job_id = 7, .step_id = 0,
					 .uid = uid, .node_list = "n[1-3]",
					 .gtids = "0", .argv = argv,
					 .srun_host = "127.0.0.1",
					 .srun_port = 4000, .io_key = "k" };

	return fwd_pack_hex(REQUEST_LAUNCH_TASKS, &l, 0);
}

static char *term_hex(void)
{
	node_signal_msg_t s = { .job_id = 7, .signal = 9, .nodes = "n[1-3]" };

	return fwd_pack_hex(REQUEST_TERMINATE_JOB, &s, 0);
}

static int check(uid_t sender, forward_msg_t *m)
{
	slurm_msg_t msg = { .type = REQUEST_FORWARD, .auth_uid = sender,
			    .data = m };
	uint32_t cnt = 0;

	while (m->names && m->names[cnt])
		cnt++;
	return _check(&sd, &msg, m, cnt);
}

static void test_privileged_any_request(void **state)
{
	forward_msg_t m = { .type = REQUEST_TERMINATE_JOB, .tree_width = 2,
			    .timeout_ms = 1000, .names = names3 };

	m.body = term_hex();
	assert_int_equal(check(0, &m), 0);
	assert_int_equal(check(SLURM_UID, &m), 0);
	/* a user may not make slurmd send a terminate (signed as root) */
	assert_int_equal(check(USER_UID, &m), ESLURM_ACCESS_DENIED);
	xfree(m.body);
}

static void test_user_launch_only_as_self(void **state)
{
	char *mine = launch_hex(USER_UID), *other = launch_hex(USER_UID + 1);
	char *bodies[] = { mine, mine, mine, NULL };
	forward_msg_t m = { .type = REQUEST_LAUNCH_TASKS, .tree_width = 2,
			    .timeout_ms = 1000, .names = names3,
			    .bodies = bodies };

	assert_int_equal(check(USER_UID, &m), 0);
	/* one copy for someone else's step: all refused */
	bodies[2] = other;
	assert_int_equal(check(USER_UID, &m), ESLURM_ACCESS_DENIED);
	/* root's launch for the user passes (the credential decides) */
	assert_int_equal(check(0, &m), 0);
	/* a shared body naming another user */
	m.bodies = NULL;
	m.body = other;
	assert_int_equal(check(USER_UID, &m), ESLURM_ACCESS_DENIED);
	/* a body that does not unpack */
	m.body = "00zz";
	assert_int_equal(check(USER_UID, &m), SLURM_UNEXPECTED_MSG_ERROR);
	m.body = "0001";
	assert_int_equal(check(USER_UID, &m), SLURM_UNEXPECTED_MSG_ERROR);
	xfree(mine);
	xfree(other);
}

static void test_malformed(void **state)
{
	char *t = term_hex();
	char *two[] = { t, t, NULL };
	char *others[] = { "n2", "n1", NULL };
	char *none[] = { NULL };
	forward_msg_t m = { .type = REQUEST_TERMINATE_JOB, .tree_width = 2,
			    .timeout_ms = 1000, .names = names3, .body = t };

	/* not addressed to this node first */
	m.names = others;
	assert_int_equal(check(0, &m), SLURM_UNEXPECTED_MSG_ERROR);
	m.names = none;
	assert_int_equal(check(0, &m), SLURM_UNEXPECTED_MSG_ERROR);
	m.names = names3;
	/* bodies for two of three names */
	m.body = NULL;
	m.bodies = two;
	assert_int_equal(check(0, &m), SLURM_UNEXPECTED_MSG_ERROR);
	/* no request at all */
	m.bodies = NULL;
	assert_int_equal(check(0, &m), SLURM_UNEXPECTED_MSG_ERROR);
	m.body = t;
	/* nested forward, unknown type, no timeout */
	m.type = REQUEST_FORWARD;
	assert_int_equal(check(0, &m), SLURM_UNEXPECTED_MSG_ERROR);
	m.type = 65000;
	assert_int_equal(check(0, &m), SLURM_UNEXPECTED_MSG_ERROR);
	m.type = REQUEST_TERMINATE_JOB;
	m.timeout_ms = 0;
	assert_int_equal(check(0, &m), SLURM_UNEXPECTED_MSG_ERROR);
	xfree(t);
}

static void test_hex_round_trip(void **state)
{
	char *h = term_hex(), *again;
	node_signal_msg_t *s = NULL;

	assert_int_equal(fwd_unpack_hex(REQUEST_TERMINATE_JOB, h, 0,
					(void **) &s), 0);
	assert_int_equal(s->job_id, 7);
	assert_string_equal(s->nodes, "n[1-3]");
	again = fwd_pack_hex(REQUEST_TERMINATE_JOB, s, 0);
	assert_string_equal(again, h);
	msg_body_free(REQUEST_TERMINATE_JOB, s);
	/* odd length, bad digits, trailing bytes, empty */
	h[strlen(h) - 1] = '\0';
	assert_int_equal(fwd_unpack_hex(REQUEST_TERMINATE_JOB, h, 0,
					(void **) &s), -1);
	assert_null(s);
	assert_int_equal(fwd_unpack_hex(REQUEST_TERMINATE_JOB, "0g", 0,
					(void **) &s), -1);
	xstrcat(&again, "00");
	assert_int_equal(fwd_unpack_hex(REQUEST_TERMINATE_JOB, again, 0,
					(void **) &s), -1);
	assert_int_equal(fwd_unpack_hex(REQUEST_TERMINATE_JOB, "", 0,
					(void **) &s), -1);
	xfree(h);
	xfree(again);
}

/* A request without a body (REQUEST_PING) travels the tree as "". */
static void test_hex_bodiless(void **state)
{
	char *h = fwd_pack_hex(REQUEST_PING, NULL, 0);
	void *d = (void *) h;

	assert_non_null(h);
	assert_string_equal(h, "");
	assert_int_equal(fwd_unpack_hex(REQUEST_PING, h, 0, &d), 0);
	assert_null(d);
	assert_int_equal(fwd_unpack_hex(REQUEST_PING, "00", 0, &d), -1);
	assert_int_equal(fwd_unpack_hex(REQUEST_PING, NULL, 0, &d), -1);
	/* a request with a body still needs one */
	assert_null(fwd_pack_hex(REQUEST_TERMINATE_JOB, NULL, 0));
	xfree(h);
}

static void test_subtree_timeout(void **state)
{
	/* hops: 1 node = 1; 32 nodes width 4: 32 -> 8 -> 2 -> 1 */
	assert_int_equal(fwd_subtree_timeout(1, 4, 1000), 2000);
	assert_int_equal(fwd_subtree_timeout(8, 4, 1000), 6000);
	assert_int_equal(fwd_subtree_timeout(32, 4, 1000), 8000);
	assert_int_equal(fwd_subtree_timeout(5, 50, 1000), 4000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_privileged_any_request),
		cmocka_unit_test(test_user_launch_only_as_self),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_hex_round_trip),
		cmocka_unit_test(test_hex_bodiless),
		cmocka_unit_test(test_subtree_timeout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
