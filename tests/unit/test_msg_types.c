/* test_msg_types.c — every message body survives pack/unpack, and every
 * truncation or trailing garbage is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

/* Fill a field-described struct with distinct non-zero values. */
static void fill_fields(const field_desc_t *f, void *rec)
{
	for (int i = 0; f[i].name; i++) {
		char *p = (char *)rec + f[i].offset;

		switch (f[i].type) {
		case FT_U8: *(uint8_t *)p = (uint8_t)(i + 1); break;
		case FT_U16: *(uint16_t *)p = (uint16_t)(1000 + i); break;
		case FT_U32: *(uint32_t *)p = 100000u + i; break;
		case FT_U64: *(uint64_t *)p = 10000000000ull + i; break;
		case FT_BOOL: *(bool *)p = true; break;
		case FT_DOUBLE: *(double *)p = 1.5 + i; break;
		case FT_TIME: *(time_t *)p = 1700000000 + i; break;
		case FT_STR: *(char **)p = xstrdup_printf("%s-%d", f[i].name, i); break;
		case FT_STRLIST: {
			char **l = NULL;
			l = xstrarray_append(l, "A=1");
			l = xstrarray_append(l, "");
			l = xstrarray_append(l, "C=x y");
			*(char ***)p = l;
			break;
		}
		case FT_BITMAP: {
			bitmap_t *b = bitmap_create(130);
			bitmap_set(b, 3);
			bitmap_set(b, 129);
			*(bitmap_t **)p = b;
			break;
		}
		}
	}
}

/* A sample body for each type (NULL for bodyless types). */
static void *sample(const msg_desc_t *d)
{
	void *body;

	if (!d->size)
		return NULL;
	body = xmalloc(d->size);
	if (d->fields) {
		fill_fields(d->fields, body);
		return body;
	}
	switch (d->type) {
	case MESSAGE_NODE_REGISTRATION: {
		node_registration_msg_t *m = body;
		m->node_name = xstrdup("n1");
		m->cpus = 2;
		m->job_cnt = 2;
		m->job_ids = xcalloc(2, sizeof(uint32_t));
		m->job_ids[0] = 7;
		m->job_ids[1] = 9;
		break;
	}
	case RESPONSE_BUILD_INFO: {
		config_info_msg_t *m = body;
		m->keys = xstrarray_append(m->keys, "ClusterName");
		m->values = xstrarray_append(m->values, "c1");
		m->cnt = 1;
		break;
	}
	case REQUEST_JOB_INFO: {
		job_info_request_msg_t *m = body;
		m->job_id_cnt = 1;
		m->job_ids = xcalloc(1, sizeof(uint32_t));
		m->job_ids[0] = 42;
		m->user_id = 1000;
		break;
	}
	case RESPONSE_JOB_INFO: {
		job_info_msg_t *m = body;
		m->cnt = 2;
		m->jobs = xcalloc(2, sizeof(job_info_t));
		fill_fields(job_info_fields, &m->jobs[0]);
		fill_fields(job_info_fields, &m->jobs[1]);
		break;
	}
	case RESPONSE_NODE_INFO: {
		node_info_msg_t *m = body;
		m->cnt = 1;
		m->nodes = xcalloc(1, sizeof(node_info_t));
		fill_fields(node_info_fields, &m->nodes[0]);
		break;
	}
	case RESPONSE_PARTITION_INFO: {
		part_info_msg_t *m = body;
		m->cnt = 1;
		m->parts = xcalloc(1, sizeof(part_info_t));
		fill_fields(part_info_fields, &m->parts[0]);
		break;
	}
	case RESPONSE_RESERVATION_INFO: {
		resv_info_msg_t *m = body;
		m->cnt = 2;
		m->resvs = xcalloc(2, sizeof(resv_info_t));
		fill_fields(resv_info_fields, &m->resvs[0]);
		fill_fields(resv_info_fields, &m->resvs[1]);
		break;
	}
	case RESPONSE_KILL_JOBS: {
		kill_jobs_resp_msg_t *m = body;
		m->cnt = 2;
		m->jobs = xcalloc(2, sizeof(kill_jobs_resp_job_t));
		m->jobs[0].job_id_str = xstrdup("17");
		m->jobs[0].error_code = ESLURM_ACCESS_DENIED;
		m->jobs[0].error_msg = xstrdup("Access/permission denied");
		m->jobs[1].job_id_str = xstrdup("18_3");
		break;
	}
	case RESPONSE_JOB_OUTPUT: {
		job_output_msg_t *m = body;
		m->job_id = 12;
		m->stream = JOB_OUTPUT_STDERR;
		m->path = xstrdup("/home/u/slurm-12.out");
		m->node_name = xstrdup("n3");
		m->file_size = 5000000000ull;
		m->offset = 4999999995ull;
		m->len = 5;
		m->data = xmalloc(6);
		memcpy(m->data, "a\0b\xff" "c", 5);
		break;
	}
	default:
		fail_msg("no sample for %s", d->name);
	}
	return body;
}

static const uint16_t all_types[] = {
	MESSAGE_NODE_REGISTRATION, REQUEST_RECONFIGURE, REQUEST_SHUTDOWN,
	REQUEST_PING, REQUEST_NODE_REGISTRATION_STATUS, REQUEST_BUILD_INFO,
	RESPONSE_BUILD_INFO, REQUEST_JOB_INFO, RESPONSE_JOB_INFO,
	REQUEST_NODE_INFO, RESPONSE_NODE_INFO, REQUEST_PARTITION_INFO,
	RESPONSE_PARTITION_INFO, REQUEST_UPDATE_JOB, REQUEST_UPDATE_NODE,
	REQUEST_SUBMIT_BATCH_JOB, RESPONSE_SUBMIT_BATCH_JOB,
	REQUEST_BATCH_JOB_LAUNCH, REQUEST_CANCEL_JOB,
	REQUEST_COMPLETE_BATCH_SCRIPT, REQUEST_JOB_HOLD, REQUEST_SIGNAL_JOB,
	REQUEST_TERMINATE_JOB, MESSAGE_EPILOG_COMPLETE, RESPONSE_SLURM_RC,
	REQUEST_KILL_JOBS, RESPONSE_KILL_JOBS, REQUEST_SUSPEND,
	REQUEST_JOB_REQUEUE, REQUEST_TOP_JOB, REQUEST_RESERVATION_INFO,
	RESPONSE_RESERVATION_INFO, REQUEST_CREATE_RESERVATION,
	RESPONSE_CREATE_RESERVATION, REQUEST_UPDATE_RESERVATION,
	REQUEST_DELETE_RESERVATION, REQUEST_AUTH_TOKEN, RESPONSE_AUTH_TOKEN,
	REQUEST_JOB_OUTPUT, RESPONSE_JOB_OUTPUT, REQUEST_JOB_OUTPUT_READ,
};
#define N_TYPES (sizeof(all_types) / sizeof(all_types[0]))

/* Two names with one number (an enum entry without its "= N" in the
 * wrong place) would hide a row: every row must be found by its type. */
static void test_every_row_has_its_own_type(void **state)
{
	size_t found = 0;

	for (uint32_t t = 0; t <= UINT16_MAX; t++)
		if (msg_desc_find((uint16_t)t))
			found++;
	assert_int_equal(found, msg_desc_count());
	assert_int_equal(REQUEST_PRIORITY_FACTORS, 2026);
	assert_int_equal(REQUEST_RESERVATION_INFO, 2024);
	assert_string_equal(msg_type_name(2023), "RESPONSE_SHARE_INFO");
}

static void test_unknown_type_refused(void **state)
{
	buf_t *b = buf_create(16);
	void *data = (void *)1;

	assert_null(msg_desc_find(4242));
	assert_string_equal(msg_type_name(4242), "unknown");
	assert_int_equal(msg_body_pack(4242, NULL, b), -1);
	assert_int_equal(msg_body_unpack(4242, b, &data), -1);
	assert_null(data);
	buf_destroy(b);
}

static void test_truncated_and_trailing_refused(void **state)
{
	for (size_t t = 0; t < N_TYPES; t++) {
		const msg_desc_t *d = msg_desc_find(all_types[t]);
		void *body = sample(d);
		buf_t *b = buf_create(64);

		assert_int_equal(msg_body_pack(d->type, body, b), 0);
		/* Every strict prefix must fail to unpack. */
		for (size_t cut = 0; cut < buf_len(b); cut++) {
			buf_t *r = buf_view(buf_data(b), cut);
			void *out = NULL;

			assert_int_equal(msg_body_unpack(d->type, r, &out), -1);
			assert_null(out);
			buf_destroy(r);
		}
		/* One byte too many fails too. */
		{
			buf_t *big = buf_create(buf_len(b) + 1);
			buf_t *r;
			void *out = NULL;

			packbuf(big, b);
			pack8(big, 0);
			r = buf_view(buf_data(big), buf_len(big));
			assert_int_equal(msg_body_unpack(d->type, r, &out), -1);
			buf_destroy(r);
			buf_destroy(big);
		}
		msg_body_free(d->type, body);
		buf_destroy(b);
	}
}

static void test_round_trip_every_type(void **state)
{
	for (size_t t = 0; t < N_TYPES; t++) {
		const msg_desc_t *d = msg_desc_find(all_types[t]);
		void *body, *out = NULL;
		buf_t *b1 = buf_create(64), *b2 = buf_create(64), *r;

		assert_non_null(d);
		body = sample(d);
		assert_int_equal(msg_body_pack(d->type, body, b1), 0);
		r = buf_view(buf_data(b1), buf_len(b1));
		assert_int_equal(msg_body_unpack(d->type, r, &out), 0);
		if (d->size)
			assert_non_null(out);
		/* Re-packing what was unpacked gives the same bytes. */
		assert_int_equal(msg_body_pack(d->type, out, b2), 0);
		assert_int_equal(buf_len(b1), buf_len(b2));
		assert_memory_equal(buf_data(b1), buf_data(b2), buf_len(b1));
		msg_body_free(d->type, body);
		msg_body_free(d->type, out);
		buf_destroy(r);
		buf_destroy(b1);
		buf_destroy(b2);
	}
}

static void test_job_info_list_values(void **state)
{
	job_info_msg_t m = { .last_update = 5, .cnt = 1 };
	job_info_msg_t *out = NULL;
	buf_t *b = buf_create(64), *r;

	m.jobs = xcalloc(1, sizeof(job_info_t));
	m.jobs[0].job_id = 77;
	m.jobs[0].name = xstrdup("wrap");
	m.jobs[0].job_state = JOB_RUNNING | JOB_COMPLETING;
	assert_int_equal(msg_body_pack(RESPONSE_JOB_INFO, &m, b), 0);
	r = buf_view(buf_data(b), buf_len(b));
	assert_int_equal(msg_body_unpack(RESPONSE_JOB_INFO, r, (void **)&out), 0);
	assert_int_equal(out->cnt, 1);
	assert_int_equal(out->jobs[0].job_id, 77);
	assert_string_equal(out->jobs[0].name, "wrap");
	assert_null(out->jobs[0].partition);
	assert_string_equal(job_state_string(out->jobs[0].job_state), "COMPLETING");
	msg_body_free(RESPONSE_JOB_INFO, out);
	job_info_free_members(&m.jobs[0]);
	xfree(m.jobs);
	buf_destroy(r);
	buf_destroy(b);
}

/* scancel's bulk request: unset filters stay NULL, lists keep their
 * order; the reply keeps each job's id, code and text. */
static void test_kill_jobs_values(void **state)
{
	char *ids[] = { "12", "13_2", NULL };
	char *users[] = { "alice", "1001", NULL };
	kill_jobs_msg_t req = { .job_ids = ids, .signal = 0, .cancel = true,
				.users = users, .nodelist = "n[1-2]" };
	kill_jobs_resp_job_t e = { "13_2", ESLURM_ACCESS_DENIED, "denied" };
	kill_jobs_resp_msg_t rep = { .cnt = 1, .jobs = &e };
	kill_jobs_msg_t *k = NULL;
	kill_jobs_resp_msg_t *o = NULL;
	buf_t *b = buf_create(64), *r;

	assert_int_equal(msg_body_pack(REQUEST_KILL_JOBS, &req, b), 0);
	r = buf_view(buf_data(b), buf_len(b));
	assert_int_equal(msg_body_unpack(REQUEST_KILL_JOBS, r, (void **)&k), 0);
	assert_string_equal(k->job_ids[1], "13_2");
	assert_null(k->job_ids[2]);
	assert_string_equal(k->users[0], "alice");
	assert_string_equal(k->nodelist, "n[1-2]");
	assert_true(k->cancel);
	assert_false(k->verbose);
	assert_true(!k->names || !k->names[0]);
	assert_true(!k->partitions || !k->partitions[0]);
	msg_body_free(REQUEST_KILL_JOBS, k);
	buf_destroy(r);
	buf_destroy(b);

	b = buf_create(64);
	assert_int_equal(msg_body_pack(RESPONSE_KILL_JOBS, &rep, b), 0);
	r = buf_view(buf_data(b), buf_len(b));
	assert_int_equal(msg_body_unpack(RESPONSE_KILL_JOBS, r, (void **)&o), 0);
	assert_int_equal(o->cnt, 1);
	assert_string_equal(o->jobs[0].job_id_str, "13_2");
	assert_int_equal(o->jobs[0].error_code, ESLURM_ACCESS_DENIED);
	assert_string_equal(o->jobs[0].error_msg, "denied");
	msg_body_free(RESPONSE_KILL_JOBS, o);
	buf_destroy(r);
	buf_destroy(b);
}

static void test_kill_jobs_resp_absurd_count_refused(void **state)
{
	buf_t *b = buf_create(16), *r;
	void *out = (void *)1;

	pack32(b, 0x7fffffffu);         /* promises far more than follows */
	packstr(b, "1");
	pack32(b, 0);
	packstr(b, NULL);
	r = buf_view(buf_data(b), buf_len(b));
	assert_int_equal(msg_body_unpack(RESPONSE_KILL_JOBS, r, &out), -1);
	assert_null(out);
	buf_destroy(r);
	buf_destroy(b);
}

/* scontrol listpids' rows: the six columns come back as sent; columns
 * of different lengths, or more rows than STEP_PIDS_MAX, are refused. */
static void test_step_pids_values_and_bad_columns(void **state)
{
	uint32_t job[2] = { 7, 7 }, step[2] = { 0xfffffffbu, 0 };
	uint32_t pid[2] = { 0, 4242 }, lid[2] = { 0xfffffffeu, 0 };
	uint32_t gtid[2] = { 0xfffffffeu, 3 }, uid[2] = { 1001, 1001 };
	step_pids_msg_t m = { 2, job, step, pid, lid, gtid, uid };
	step_pids_msg_t *got = NULL;
	buf_t *b = buf_create(64), *r;
	void *out = (void *)1;

	(void) state;
	assert_int_equal(msg_body_pack(RESPONSE_STEP_PIDS, &m, b), 0);
	r = buf_view(buf_data(b), buf_len(b));
	assert_int_equal(msg_body_unpack(RESPONSE_STEP_PIDS, r, (void **) &got),
			 0);
	assert_int_equal(got->cnt, 2);
	assert_int_equal(got->pids[1], 4242);
	assert_int_equal(got->gtids[1], 3);
	assert_int_equal(got->step_ids[0], 0xfffffffbu);
	msg_body_free(RESPONSE_STEP_PIDS, got);
	buf_destroy(r);
	buf_destroy(b);

	b = buf_create(64);             /* the second column one short */
	pack32_array(b, job, 2);
	pack32_array(b, step, 1);
	for (int i = 0; i < 4; i++)
		pack32_array(b, job, 2);
	r = buf_view(buf_data(b), buf_len(b));
	assert_int_equal(msg_body_unpack(RESPONSE_STEP_PIDS, r, &out), -1);
	buf_destroy(r);
	buf_destroy(b);

	b = buf_create(16);             /* more rows than allowed */
	pack32(b, STEP_PIDS_MAX + 1);
	r = buf_view(buf_data(b), buf_len(b));
	assert_int_equal(msg_body_unpack(RESPONSE_STEP_PIDS, r, &out), -1);
	buf_destroy(r);
	buf_destroy(b);
}

/* The output's bytes come back as sent (NUL and non-UTF-8 bytes too),
 * with a NUL after them; more than JOB_OUTPUT_MAX is refused before
 * anything is allocated. */
static void test_job_output_values(void **state)
{
	job_output_msg_t m = { .job_id = 7, .stream = JOB_OUTPUT_STDOUT,
			       .path = "/tmp/o", .node_name = "n1",
			       .file_size = 9, .offset = 4, .len = 5,
			       .data = "x\0y\xfez" };
	job_output_msg_t *o = NULL;
	buf_t *b = buf_create(64), *r;

	assert_int_equal(REQUEST_JOB_OUTPUT, 5080);
	assert_int_equal(RESPONSE_JOB_OUTPUT, 5081);
	assert_int_equal(REQUEST_JOB_OUTPUT_READ, 6080);
	assert_int_equal(msg_body_pack(RESPONSE_JOB_OUTPUT, &m, b), 0);
	r = buf_view(buf_data(b), buf_len(b));
	assert_int_equal(msg_body_unpack(RESPONSE_JOB_OUTPUT, r, (void **)&o), 0);
	assert_int_equal(o->job_id, 7);
	assert_int_equal(o->file_size, 9);
	assert_int_equal(o->offset, 4);
	assert_int_equal(o->len, 5);
	assert_memory_equal(o->data, "x\0y\xfez", 6);
	assert_string_equal(o->path, "/tmp/o");
	assert_string_equal(o->node_name, "n1");
	msg_body_free(RESPONSE_JOB_OUTPUT, o);
	buf_destroy(r);
	buf_destroy(b);

	/* an empty read: data is "" */
	m.len = 0;
	m.data = NULL;
	b = buf_create(64);
	assert_int_equal(msg_body_pack(RESPONSE_JOB_OUTPUT, &m, b), 0);
	r = buf_view(buf_data(b), buf_len(b));
	o = NULL;
	assert_int_equal(msg_body_unpack(RESPONSE_JOB_OUTPUT, r, (void **)&o), 0);
	assert_int_equal(o->len, 0);
	assert_string_equal(o->data, "");
	msg_body_free(RESPONSE_JOB_OUTPUT, o);
	buf_destroy(r);
	buf_destroy(b);
}

static void test_job_output_too_big_refused(void **state)
{
	size_t n = JOB_OUTPUT_MAX + 1;
	char *big = xmalloc(n);
	buf_t *b = buf_create(n + 64), *r;
	void *out = (void *)1;

	pack32(b, 7);
	pack16(b, JOB_OUTPUT_STDOUT);
	packstr(b, "/tmp/o");
	packstr(b, "n1");
	pack64(b, n);
	pack64(b, 0);
	packmem(b, big, (uint32_t)n);
	r = buf_view(buf_data(b), buf_len(b));
	assert_int_equal(msg_body_unpack(RESPONSE_JOB_OUTPUT, r, &out), -1);
	assert_null(out);
	buf_destroy(r);
	buf_destroy(b);
	xfree(big);
}

static void test_state_names(void **state)
{
	uint32_t s;
	const char *l[8];

	assert_string_equal(job_state_string(JOB_PENDING), "PENDING");
	assert_string_equal(job_state_string_compact(JOB_COMPLETE), "CD");
	assert_string_equal(job_state_string_compact(JOB_RUNNING | JOB_COMPLETING), "CG");
	assert_int_equal(job_state_strings(JOB_CANCELLED | JOB_COMPLETING, l), 2);
	assert_string_equal(l[0], "CANCELLED");
	assert_string_equal(l[1], "COMPLETING");
	assert_int_equal(job_state_from_string("pd", &s), 0);
	assert_int_equal(s, JOB_PENDING);
	assert_int_equal(job_state_from_string("bogus", &s), -1);
	assert_string_equal(job_reason_string(WAIT_HELD_USER), "JobHeldUser");
	assert_int_equal(job_reason_from_string("Resources"), WAIT_RESOURCES);
	assert_int_equal(job_reason_from_string("nope"), -1);
	assert_string_equal(job_reason_string(9999), "?");
}

static void test_node_state_names(void **state)
{
	char *s;

	s = node_state_string_long(NODE_STATE_IDLE | NODE_STATE_DRAIN);
	assert_string_equal(s, "IDLE+DRAIN");
	xfree(s);
	s = node_state_string_sinfo(NODE_STATE_IDLE | NODE_STATE_DRAIN, true);
	assert_string_equal(s, "drain");
	xfree(s);
	s = node_state_string_sinfo(NODE_STATE_MIXED | NODE_STATE_DRAIN, false);
	assert_string_equal(s, "draining");
	xfree(s);
	s = node_state_string_sinfo(NODE_STATE_DOWN | NODE_STATE_NO_RESPOND, true);
	assert_string_equal(s, "down*");
	xfree(s);
	s = node_state_string_sinfo(NODE_STATE_ALLOCATED, true);
	assert_string_equal(s, "alloc");
	xfree(s);
	/* scontrol reboot: "@" while it waits, reboot^ once sent */
	s = node_state_string_sinfo(NODE_STATE_MIXED |
				    NODE_STATE_REBOOT_REQUESTED, true);
	assert_string_equal(s, "mix@");
	xfree(s);
	s = node_state_string_sinfo(NODE_STATE_MIXED | NODE_STATE_DRAIN |
				    NODE_STATE_REBOOT_REQUESTED, false);
	assert_string_equal(s, "draining@");
	xfree(s);
	s = node_state_string_sinfo(NODE_STATE_DOWN | NODE_STATE_DRAIN |
				    NODE_STATE_REBOOT_ISSUED, true);
	assert_string_equal(s, "boot^");
	xfree(s);
	s = node_state_string_sinfo(NODE_STATE_DOWN |
				    NODE_STATE_REBOOT_ISSUED, false);
	assert_string_equal(s, "reboot^");
	xfree(s);
	s = node_state_string_long(NODE_STATE_DOWN | NODE_STATE_DRAIN |
				   NODE_STATE_REBOOT_ISSUED);
	assert_string_equal(s, "DOWN+DRAIN+REBOOT_ISSUED");
	xfree(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_row_has_its_own_type),
		cmocka_unit_test(test_unknown_type_refused),
		cmocka_unit_test(test_truncated_and_trailing_refused),
		cmocka_unit_test(test_round_trip_every_type),
		cmocka_unit_test(test_job_info_list_values),
		cmocka_unit_test(test_kill_jobs_resp_absurd_count_refused),
		cmocka_unit_test(test_kill_jobs_values),
		cmocka_unit_test(test_step_pids_values_and_bad_columns),
		cmocka_unit_test(test_job_output_values),
		cmocka_unit_test(test_job_output_too_big_refused),
		cmocka_unit_test(test_state_names),
		cmocka_unit_test(test_node_state_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
