/* test_cli_needs.c — squeue asks the controller for the job fields its
 * columns read (cli_job_field_needs).  For every row of cli_job_fields
 * whose fields are listed, each of many varied jobs must print the same
 * from its full record as from a record that went through the wire with
 * only the listed fields (fields_pack_sel / fields_unpack_sel): a getter
 * that reads a member its list leaves out prints differently here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cli/cli_fields.h"
#include "common/fields.h"
#include "common/job_info.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define NOW 1795351559

/* Every member set to a value of its own (strings "m<i>", numbers from
 * the seed), so that any member a getter reads changes its text. */
static void fill(job_info_t *j, unsigned seed)
{
	memset(j, 0, sizeof(*j));
	for (size_t i = 0; job_info_fields[i].name; i++) {
		const field_desc_t *f = &job_info_fields[i];
		char *p = (char *)j + f->offset;
		uint64_t v = seed * 131u + i + 1;

		switch (f->type) {
		case FT_U8: *(uint8_t *)p = (uint8_t)v; break;
		case FT_U16: *(uint16_t *)p = (uint16_t)v; break;
		case FT_U32: *(uint32_t *)p = (uint32_t)v; break;
		case FT_U64: *(uint64_t *)p = v * 1000; break;
		case FT_BOOL: *(bool *)p = (v & 1) != 0; break;
		case FT_DOUBLE: *(double *)p = (double)v / 3; break;
		case FT_TIME: *(time_t *)p = NOW - 5000 + (time_t)(v * 7 % 4000); break;
		case FT_STR: *(char **)p = xstrdup_printf("m%zu_%u", i, seed); break;
		default: break;
		}
	}
}

/* Jobs in the states and shapes the getters branch on. */
static void variant(job_info_t *j, unsigned k)
{
	static const uint32_t states[] = {
		JOB_PENDING, JOB_RUNNING, JOB_SUSPENDED, JOB_COMPLETE,
		JOB_FAILED, JOB_RUNNING | JOB_COMPLETING, JOB_CANCELLED,
		JOB_PENDING | JOB_REQUEUE, JOB_TIMEOUT,
	};

	fill(j, k);
	j->job_state = states[k % (sizeof(states) / sizeof(states[0]))];
	if (k % 2)
		xfree(j->state_desc);
	if (k % 3 == 0)
		xfree(j->nodes);
	if (k % 4 == 1) {
		j->array_job_id = 0;
	} else if (k % 4 == 2) {
		j->array_task_id = NO_VAL32;
		xfree(j->array_task_str);
		j->array_task_str = xstrdup("1-9%2");
	}
	if (k % 5 == 0)
		j->time_limit = NO_VAL32;
	else if (k % 5 == 1)
		j->time_limit = INFINITE32;
	else
		j->time_limit = 30 + k;
	if (k % 3 == 1)
		xfree(j->user_name);
	if (k % 6 == 2)
		j->start_time = 0;
	if (k % 7 == 3)
		j->suspend_time = 0;
	if (k % 4 == 3)
		j->end_time = 0;
	if (k % 2 == 0)
		j->state_reason = WAIT_PRIORITY + k % 5;
	j->nice = k % 2 ? NO_VAL32 : NICE_OFFSET + k;
	j->num_tasks = k % 3 ? j->num_tasks : NO_VAL32;
	j->cpus_per_task = k % 3 == 2 ? NO_VAL16 : j->cpus_per_task;
	j->exit_code = k % 2 ? 0x0100 * k : (k & 0x7f);
}

static job_info_t through_wire(const job_info_t *full, const fields_sel_t *sel)
{
	buf_t *b = buf_create(1024);
	job_info_t out;

	memset(&out, 0, sizeof(out));
	fields_pack_sel(b, job_info_fields, full, sel);
	buf_set_offset(b, 0);
	assert_int_equal(fields_unpack_sel(b, job_info_fields, &out, sel), 0);
	buf_destroy(b);
	return out;
}

static void test_listed_rows_read_only_their_fields(void **state)
{
	cli_ctx_t ctx = { .now = NOW };
	size_t listed = 0;

	(void) state;
	for (const cli_field_t *f = cli_job_fields; f->text || f->json; f++) {
		fields_sel_t sel = { { 0 } };

		if (!f->text || cli_job_field_needs(f, &sel) < 0)
			continue;
		listed++;
		for (unsigned k = 0; k < 60; k++) {
			job_info_t full, part;
			char *a, *b;

			variant(&full, k);
			if (fields_sel_is_all(&sel)) {
				/* reads nothing: a zeroed record prints alike */
				memset(&part, 0, sizeof(part));
			} else {
				part = through_wire(&full, &sel);
			}
			a = cli_field_text(f, &full, &ctx);
			b = cli_field_text(f, &part, &ctx);
			if (strcmp(a, b))
				fail_msg("row %c/%s: \"%s\" from the whole job, "
					 "\"%s\" from its listed fields",
					 f->letter ? f->letter : '-',
					 f->name ? f->name : f->show_key, a, b);
			xfree(a);
			xfree(b);
			job_info_free_members(&full);
			job_info_free_members(&part);
		}
	}
	/* the default formats' columns are among them */
	assert_true(listed >= 40);
}

static void test_default_format_is_selective(void **state)
{
	static const char letters[] = "iPjutMDRTlSYQpr";
	fields_sel_t sel = { { 0 } };
	size_t n = 0;

	(void) state;
	for (const char *l = letters; *l; l++) {
		const cli_field_t *f = cli_field_by_letter(cli_job_fields, *l);

		assert_non_null(f);
		assert_int_equal(cli_job_field_needs(f, &sel), 0);
	}
	for (int w = 0; w < FIELDS_SEL_WORDS; w++)
		n += (size_t)__builtin_popcountll(sel.w[w]);
	assert_true(n > 5 && n < 30);
}

static void test_sel_names_and_wire(void **state)
{
	fields_sel_t sel = { { 0 } }, back = { { 0 } };
	size_t cnt = 0;
	buf_t *b = buf_create(64);

	(void) state;
	for (; job_info_fields[cnt].name; cnt++)
		;
	/* the selection covers the whole table */
	assert_true(cnt <= FIELDS_SEL_MAX);
	assert_true(fields_sel_is_all(&sel));
	assert_int_equal(fields_sel_add(&sel, job_info_fields, "no_such"), -1);
	assert_int_equal(fields_sel_add_list(&sel, job_info_fields,
					     "job_id,,name"), 0);
	assert_int_equal(fields_sel_add_list(&sel, job_info_fields,
					     "job_id,bogus"), -1);
	assert_false(fields_sel_is_all(&sel));
	fields_sel_pack(b, &sel);
	buf_set_offset(b, 0);
	assert_int_equal(fields_sel_unpack(b, &back), 0);
	assert_memory_equal(&sel, &back, sizeof(sel));
	/* a short buffer is an error, not a read past its end */
	buf_set_offset(b, 12);
	assert_int_equal(fields_sel_unpack(b, &back), -1);
	buf_destroy(b);
}

/* A selected unpack that fails half-way frees what it set and leaves
 * the buffer where it was. */
static void test_truncated_selected_record(void **state)
{
	fields_sel_t sel = { { 0 } };
	job_info_t full, out;
	buf_t *b = buf_create(256), *cut;

	(void) state;
	fill(&full, 3);
	assert_int_equal(fields_sel_add_list(&sel, job_info_fields,
					     "job_id,name,partition,nodes"), 0);
	fields_pack_sel(b, job_info_fields, &full, &sel);
	for (size_t len = 0; len < buf_len(b); len++) {
		cut = buf_view(buf_data(b), len);
		memset(&out, 0, sizeof(out));
		assert_int_equal(fields_unpack_sel(cut, job_info_fields, &out,
						   &sel), -1);
		assert_int_equal(buf_offset(cut), 0);
		assert_null(out.name);
		assert_null(out.partition);
		buf_destroy(cut);
	}
	job_info_free_members(&full);
	buf_destroy(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_listed_rows_read_only_their_fields),
		cmocka_unit_test(test_default_format_is_selective),
		cmocka_unit_test(test_sel_names_and_wire),
		cmocka_unit_test(test_truncated_selected_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
