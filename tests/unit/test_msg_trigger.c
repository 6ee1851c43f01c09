/* test_msg_trigger.c — the strigger messages' body (msg_trigger.c) and
 * spawn_wait_as (spawn.c), which runs a trigger's program: bad bodies
 * first, then a round trip; a program killed at its timeout. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/pack.h"
#include "common/spawn.h"
#include "common/xmalloc.h"

static const uint16_t types[] = {
	REQUEST_TRIGGER_SET, REQUEST_TRIGGER_GET, REQUEST_TRIGGER_CLEAR,
	RESPONSE_TRIGGER_GET,
};

static void test_bad_bodies(void **state)
{
	/* a count far past the bytes that follow; a truncated trigger */
	static const uint8_t huge[] = { 0x00, 0x0f, 0xff, 0xff, 0, 0, 0, 0 };
	static const uint8_t cut[] = { 0, 0, 0, 1, 0, 0, 0, 7, 0, 1 };
	static const uint8_t over[] = { 0xff, 0xff, 0xff, 0xff };

	(void) state;
	for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		const uint8_t *const in[] = { huge, cut, over };
		const size_t len[] = { sizeof(huge), sizeof(cut), sizeof(over) };

		for (size_t i = 0; i < 3; i++) {
			buf_t *b = buf_from_copy(in[i], len[i]);
			void *data = (void *) 1;

			assert_int_equal(msg_body_unpack(types[t], b, &data), -1);
			assert_null(data);
			buf_destroy(b);
		}
	}
}

static void test_round_trip(void **state)
{
	trigger_info_t t[2] = {
		{ .trig_id = 7, .res_type = TRIGGER_RES_TYPE_NODE,
		  .res_id = "n[1-4]", .trig_type = TRIGGER_TYPE_DOWN,
		  .offset = -30, .user_id = 1001, .group_id = 1002,
		  .flags = TRIGGER_FLAG_PERM, .program = "/bin/x a b" },
		{ .trig_id = 8, .res_type = TRIGGER_RES_TYPE_JOB,
		  .trig_type = TRIGGER_TYPE_FINI, .user_id = NO_VAL32 },
	};
	trigger_info_msg_t m = { 2, t }, *o = NULL;
	buf_t *b = buf_create(64), *r;

	(void) state;
	assert_int_equal(msg_body_pack(RESPONSE_TRIGGER_GET, &m, b), 0);
	r = buf_view(buf_data(b), buf_len(b));
	assert_int_equal(msg_body_unpack(RESPONSE_TRIGGER_GET, r, (void **) &o),
			 0);
	assert_int_equal(buf_remaining(r), 0);
	buf_destroy(r);
	assert_int_equal(o->cnt, 2);
	assert_int_equal(o->triggers[0].offset, -30);
	assert_string_equal(o->triggers[0].res_id, "n[1-4]");
	assert_string_equal(o->triggers[0].program, "/bin/x a b");
	assert_int_equal(o->triggers[0].flags, TRIGGER_FLAG_PERM);
	assert_int_equal(o->triggers[0].group_id, 1002);
	assert_null(o->triggers[1].res_id);
	assert_int_equal(o->triggers[1].user_id, NO_VAL32);
	msg_body_free(RESPONSE_TRIGGER_GET, o);
	buf_destroy(b);
}

static void test_spawn_timeout(void **state)
{
	char *const argv[] = { "/bin/sleep", "30", NULL };
	char *const env[] = { NULL };
	time_t t0 = time(NULL);
	int err = 0, st;

	(void) state;
	st = spawn_wait_as("/bin/sleep", argv, env, getuid(), getgid(), 1,
			   &err);
	assert_true(st >= 0);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	assert_true(time(NULL) - t0 < 10);
	st = spawn_wait_as("/nonexistent/prog", NULL, env, getuid(), getgid(),
			   5, &err);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 127);
	st = spawn_wait_as("/bin/true", NULL, env, getuid(), getgid(), 0, &err);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_spawn_timeout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
