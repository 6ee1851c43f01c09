/* test_msg_crontab.c — scrontab's message bodies (msg_crontab.c): bad
 * bodies first (counts past the bytes or the cap, a text past its cap,
 * a cut entry), then round trips of an update with its entries, its
 * answer, and the crontab request and answer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/job_info.h"
#include "common/msg_types.h"
#include "common/pack.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"

static void expect_refused(uint16_t type, buf_t *b)
{
	buf_t *r = buf_view(buf_data(b), buf_len(b));
	void *data = (void *) 1;

	assert_int_equal(msg_body_unpack(type, r, &data), -1);
	assert_null(data);
	buf_destroy(r);
}

static void test_bad_bodies(void **state)
{
	buf_t *b;
	char *big;

	(void) state;
	/* update: a count far past the bytes, and past the cap */
	b = buf_create(64);
	pack32(b, 1001); pack32(b, 1001); packstr(b, "* * * * * x\n");
	pack32(b, 5);
	expect_refused(REQUEST_UPDATE_CRONTAB, b);
	buf_destroy(b);
	b = buf_create(64);
	pack32(b, 1001); pack32(b, 1001); packstr(b, NULL);
	pack32(b, CRONTAB_MAX_ENTRIES + 1);
	for (int i = 0; i < 200000; i++)
		pack32(b, 0);
	expect_refused(REQUEST_UPDATE_CRONTAB, b);
	buf_destroy(b);
	/* a text past CRONTAB_MAX_BYTES */
	big = xmalloc(CRONTAB_MAX_BYTES + 2);
	memset(big, '#', CRONTAB_MAX_BYTES + 1);
	b = buf_create(64);
	pack32(b, 1001); pack32(b, 1001); packstr(b, big);
	pack32(b, 0);
	expect_refused(REQUEST_UPDATE_CRONTAB, b);
	buf_destroy(b);
	xfree(big);
	/* an entry cut short: a job request, then nothing */
	{
		job_desc_t d;
		uint8_t pad[128] = { 0 };

		job_desc_init(&d);
		b = buf_create(64);
		pack32(b, 1001); pack32(b, 1001); packstr(b, "x");
		pack32(b, 1);
		fields_pack(b, job_desc_fields, &d);
		expect_refused(REQUEST_UPDATE_CRONTAB, b);
		/* and a cronspec length running past the end */
		pack32(b, 1000);
		packmem(b, pad, sizeof(pad));
		expect_refused(REQUEST_UPDATE_CRONTAB, b);
		buf_destroy(b);
	}
	/* the answer: job id count past the bytes */
	b = buf_create(64);
	pack32(b, 0); packstr(b, NULL); packstr(b, NULL); pack32(b, 3);
	pack32(b, 7);
	expect_refused(RESPONSE_UPDATE_CRONTAB, b);
	buf_destroy(b);
}

static void test_update_round_trip(void **state)
{
	crontab_entry_t e[2];
	crontab_update_msg_t m = { .user_id = 1001, .group_id = 1002,
				   .crontab = "#SCRON -t 5\n*/5 * * * * a\n"
					      "@daily b\n",
				   .entry_cnt = 2, .entries = e }, *o = NULL;
	crontab_update_resp_msg_t r = { .rc = 0, .job_cnt = 2 }, *ro = NULL;
	uint32_t ids[2] = { 41, 42 };
	buf_t *b = buf_create(64), *v;

	(void) state;
	memset(e, 0, sizeof(e));
	job_desc_init(&e[0].desc);
	job_desc_init(&e[1].desc);
	e[0].desc.time_limit = 5;
	e[0].desc.script = "#!/bin/sh\na\n";
	e[0].desc.bitflags = JOB_CRON;
	e[0].cronspec = "*/5 * * * *";
	e[0].line_start = 1;
	e[0].line_end = 2;
	e[1].cronspec = "@daily";
	e[1].line_start = e[1].line_end = 3;
	assert_int_equal(msg_body_pack(REQUEST_UPDATE_CRONTAB, &m, b), 0);
	v = buf_view(buf_data(b), buf_len(b));
	assert_int_equal(msg_body_unpack(REQUEST_UPDATE_CRONTAB, v,
					 (void **) &o), 0);
	assert_int_equal(buf_remaining(v), 0);
	buf_destroy(v);
	assert_int_equal(o->user_id, 1001);
	assert_int_equal(o->group_id, 1002);
	assert_string_equal(o->crontab, m.crontab);
	assert_int_equal(o->entry_cnt, 2);
	assert_int_equal(o->entries[0].desc.time_limit, 5);
	assert_int_equal(o->entries[0].desc.bitflags, JOB_CRON);
	assert_string_equal(o->entries[0].desc.script, "#!/bin/sh\na\n");
	assert_string_equal(o->entries[0].cronspec, "*/5 * * * *");
	assert_int_equal(o->entries[0].line_end, 2);
	assert_int_equal(o->entries[1].desc.time_limit, NO_VAL32);
	assert_string_equal(o->entries[1].cronspec, "@daily");
	assert_int_equal(o->entries[1].line_start, 3);
	msg_body_free(REQUEST_UPDATE_CRONTAB, o);
	buf_destroy(b);

	/* remove: no text, no entries */
	m.crontab = NULL;
	m.entry_cnt = 0;
	b = buf_create(64);
	assert_int_equal(msg_body_pack(REQUEST_UPDATE_CRONTAB, &m, b), 0);
	v = buf_view(buf_data(b), buf_len(b));
	assert_int_equal(msg_body_unpack(REQUEST_UPDATE_CRONTAB, v,
					 (void **) &o), 0);
	assert_null(o->crontab);
	assert_int_equal(o->entry_cnt, 0);
	msg_body_free(REQUEST_UPDATE_CRONTAB, o);
	buf_destroy(v);
	buf_destroy(b);

	r.job_ids = ids;
	r.failed_lines = "2-3";
	b = buf_create(64);
	assert_int_equal(msg_body_pack(RESPONSE_UPDATE_CRONTAB, &r, b), 0);
	v = buf_view(buf_data(b), buf_len(b));
	assert_int_equal(msg_body_unpack(RESPONSE_UPDATE_CRONTAB, v,
					 (void **) &ro), 0);
	assert_int_equal(ro->job_cnt, 2);
	assert_int_equal(ro->job_ids[1], 42);
	assert_string_equal(ro->failed_lines, "2-3");
	assert_null(ro->err_msg);
	msg_body_free(RESPONSE_UPDATE_CRONTAB, ro);
	buf_destroy(v);
	buf_destroy(b);
}

static void test_get_round_trip(void **state)
{
	crontab_request_msg_t q = { .user_id = 1003 }, *qo = NULL;
	crontab_resp_msg_t a = { .crontab = "0 1 * * * x\n",
				 .disabled_lines = "1" }, *ao = NULL;
	buf_t *b = buf_create(16), *v;

	(void) state;
	assert_int_equal(msg_body_pack(REQUEST_CRONTAB, &q, b), 0);
	v = buf_view(buf_data(b), buf_len(b));
	assert_int_equal(msg_body_unpack(REQUEST_CRONTAB, v, (void **) &qo), 0);
	assert_int_equal(qo->user_id, 1003);
	msg_body_free(REQUEST_CRONTAB, qo);
	buf_destroy(v);
	buf_destroy(b);
	b = buf_create(16);
	assert_int_equal(msg_body_pack(RESPONSE_CRONTAB, &a, b), 0);
	v = buf_view(buf_data(b), buf_len(b));
	assert_int_equal(msg_body_unpack(RESPONSE_CRONTAB, v, (void **) &ao), 0);
	assert_string_equal(ao->crontab, "0 1 * * * x\n");
	assert_string_equal(ao->disabled_lines, "1");
	msg_body_free(RESPONSE_CRONTAB, ao);
	buf_destroy(v);
	buf_destroy(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_update_round_trip),
		cmocka_unit_test(test_get_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
