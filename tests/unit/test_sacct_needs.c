/* test_sacct_needs.c — sacct asks slurmdbd for the job and step record
 * members its columns read (sacct_field_needs, the lists in
 * cli_sacct_fields.c).  For every field, each of many varied jobs and
 * their steps must print the same from the full records as from records
 * that went through the wire with only the listed members: a getter that
 * reads a member its list leaves out prints differently here.  Then the
 * RESPONSE_DBD_JOBS / REQUEST_DBD_JOBS bodies with a selection. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "cli/cli_sacct.h"
#include "common/acct_rec.h"
#include "common/fields.h"
#include "common/job_info.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define NOW   1795351559
#define STEPS 4

/* Every member of a record of table f set to a value of its own, so that
 * any member a getter reads changes its text. */
static void fill(const field_desc_t *f, void *rec, size_t size,
		 unsigned seed)
{
	memset(rec, 0, size);
	for (size_t i = 0; f[i].name; i++) {
		char *p = (char *)rec + f[i].offset;
		uint64_t v = seed * 131u + i + 1;

		switch (f[i].type) {
		case FT_U32: *(uint32_t *)p = (uint32_t)v; break;
		case FT_U64: *(uint64_t *)p = v * 1000003; break;
		case FT_BOOL: *(bool *)p = (v & 1) != 0; break;
		case FT_TIME: *(time_t *)p = NOW - 90000 + (time_t)(v * 977 % 80000); break;
		case FT_STR: *(char **)p = xstrdup_printf("m%zu_%u", i, seed); break;
		default: break;
		}
	}
}

/* A job in the shapes the getters branch on. */
static void job_variant(acct_job_rec_t *j, unsigned k)
{
	static const uint32_t states[] = {
		JOB_PENDING, JOB_RUNNING, JOB_COMPLETE, JOB_FAILED,
		JOB_CANCELLED, JOB_TIMEOUT, JOB_NODE_FAIL, JOB_OOM,
	};

	fill(acct_job_rec_fields, j, sizeof(*j), k);
	j->state = states[k % (sizeof(states) / sizeof(states[0]))];
	j->requid = k % 3 ? NO_VAL32 : k;
	j->reason = k % 7;
	j->exit_code = k % 2 ? (k & 0x7f) : (k % 250) << 8;
	j->derived_ec = k % 3 ? (k % 250) << 8 : 9;
	if (k % 4 == 1) {
		j->array_job_id = 0;
		j->array_task_id = NO_VAL32;
		xfree(j->array_task_str);
	} else if (k % 4 == 2) {
		j->array_task_id = NO_VAL32;
		xfree(j->array_task_str);
		j->array_task_str = xstrdup("1-9%2");
	} else if (k % 4 == 3) {
		j->array_job_id = j->job_id;
		j->array_task_id = NO_VAL32;
	}
	if (k % 5 == 0)
		j->time_limit = NO_VAL32;
	else if (k % 5 == 1)
		j->time_limit = INFINITE32;
	else
		j->time_limit = 30 + k;
	if (k % 6 == 2)
		j->start = 0;
	if (k % 4 == 3)
		j->end = 0;
	if (k % 3 == 0)
		xfree(j->nodes);
	xfree(j->tres_req);
	j->tres_req = k % 2 ? xstrdup_printf("cpu=%u,mem=%uM,node=1", k, k) :
		      xstrdup("cpu=1,node=1");
	j->uid = k % 2 ? 0 : 4000000 + k;
	j->gid = k % 3 ? 0 : 4000000 + k;
}

static void step_variant(acct_step_rec_t *s, unsigned k, unsigned i)
{
	static const int32_t ids[] = { ACCT_STEP_BATCH, ACCT_STEP_EXTERN, 0, 7 };

	fill(acct_step_rec_fields, s, sizeof(*s), k * 7 + i);
	s->step_id = (uint32_t)ids[i % 4];
	s->state = i % 2 ? JOB_COMPLETE : JOB_CANCELLED;
	s->requid = (k + i) % 2 ? NO_VAL32 : 1000;
	s->exit_code = i % 2 ? 0x0f : 0x0200;
	s->ntasks = (k + i) % 3;
	s->max_rss_kb = (k % 3) ? 1024 * (k + 1) : 1000 + i;
	if ((k + i) % 4 == 0)
		s->end = 0;
	if (k % 5 == 4)
		xfree(s->nodes);
}

/* rec as it arrives when only sel's members are sent (sel none: a zeroed
 * record, what a field that reads nothing must print alike from). */
static void through_wire(const field_desc_t *f, size_t size, const void *full,
			 const fields_sel_t *sel, void *out)
{
	buf_t *b;

	memset(out, 0, size);
	if (fields_sel_is_all(sel))
		return;
	b = buf_create(1024);
	fields_pack_sel(b, f, full, sel);
	buf_set_offset(b, 0);
	assert_int_equal(fields_unpack_sel(b, f, out, sel), 0);
	buf_destroy(b);
}

typedef struct {
	acct_job_rec_t  job;
	acct_step_rec_t steps[STEPS];
} jobset_t;

static void jobset_free(jobset_t *s, const fields_sel_t *js,
			const fields_sel_t *ss)
{
	fields_free_sel(acct_job_rec_fields, &s->job, js);
	for (int i = 0; i < STEPS; i++)
		fields_free_sel(acct_step_rec_fields, &s->steps[i], ss);
}

/* As sacct's print_all: a job row carries its steps' CPU and energy. */
static sacct_row_t job_row(const jobset_t *s)
{
	sacct_row_t r = { .job = &s->job, .now = NOW };

	for (int i = 0; i < STEPS; i++) {
		r.steps_cpu_usec += s->steps[i].user_usec + s->steps[i].sys_usec;
		r.steps_energy += s->steps[i].consumed_energy;
	}
	return r;
}

static void same_text(const sacct_field_t *f, const sacct_row_t *a,
		      const sacct_row_t *b, unsigned k, int step)
{
	char *ta = cli_table_text(&f->f, a, NULL);
	char *tb = cli_table_text(&f->f, b, NULL);
	char row[32];

	if (step < 0)
		snprintf(row, sizeof(row), "its own row");
	else
		snprintf(row, sizeof(row), "step row %d", step);
	if (strcmp(ta, tb))
		fail_msg("%s, job %u, %s: \"%s\" from the whole records, "
			 "\"%s\" from the listed members", f->f.name, k, row,
			 ta, tb);
	xfree(ta);
	xfree(tb);
}

static void test_every_field_reads_only_its_members(void **state)
{
	size_t fields = 0;

	(void) state;
	for (const sacct_field_t *f = sacct_fields; f->f.name; f++) {
		fields_sel_t js = { { 0 } }, ss = { { 0 } };

		assert_int_equal(sacct_field_needs(f, &js, &ss), 0);
		fields++;
		for (unsigned k = 0; k < 48; k++) {
			jobset_t full, part;
			sacct_row_t a, b;

			job_variant(&full.job, k);
			for (int i = 0; i < STEPS; i++)
				step_variant(&full.steps[i], k, (unsigned)i);
			through_wire(acct_job_rec_fields, sizeof(full.job),
				     &full.job, &js, &part.job);
			for (int i = 0; i < STEPS; i++)
				through_wire(acct_step_rec_fields,
					     sizeof(full.steps[i]),
					     &full.steps[i], &ss,
					     &part.steps[i]);
			a = job_row(&full);
			b = job_row(&part);
			same_text(f, &a, &b, k, -1);
			for (int i = 0; i < STEPS; i++) {
				a.step = &full.steps[i];
				b.step = &part.steps[i];
				same_text(f, &a, &b, k, i);
			}
			jobset_free(&full, NULL, NULL);
			jobset_free(&part, &js, &ss);
		}
	}
	assert_true(fields > 90);
}

/* The default format reads a few members only. */
static void test_default_format_is_selective(void **state)
{
	cli_table_t t;
	size_t bits = 0;
	char *bad;
	fields_sel_t js = { { 0 } }, ss = { { 0 } };

	(void) state;
	assert_int_equal(cli_table_parse(&t, CLI_TABLE(sacct_fields), NULL,
					 "JobID,JobName,Partition,Account,"
					 "AllocCPUS,State,ExitCode", &bad), 0);
	assert_int_equal(t.cnt, 7);
	for (size_t i = 0; i < t.cnt; i++)
		assert_int_equal(sacct_field_needs(
				sacct_field_of(t.cols[i].field), &js, &ss), 0);
	for (int w = 0; w < FIELDS_SEL_WORDS; w++)
		bits += (size_t)__builtin_popcountll(js.w[w]);
	assert_true(bits >= 8 && bits <= 14);   /* JobID: array and hetjob ids */
	assert_false(fields_sel_is_all(&ss));
	cli_table_free(&t);
}

/* A request with a selection and an answer that carries only it, through
 * the message table; a request naming none gets every member back. */
static void test_dbd_jobs_bodies(void **state)
{
	dbd_job_cond_msg_t cond = { .start = 5, .flags = DBD_JOBS_NO_STEPS };
	dbd_job_cond_msg_t *cond2;
	dbd_jobs_msg_t resp = { 0 }, *back;
	buf_t *b = buf_create(4096), *cut;
	size_t len;

	(void) state;
	assert_int_equal(fields_sel_add_list(&cond.job_fields,
					     acct_job_rec_fields,
					     "job_id,name,state"), 0);
	assert_int_equal(msg_body_pack(REQUEST_DBD_JOBS, &cond, b), 0);
	buf_set_offset(b, 0);
	assert_int_equal(msg_body_unpack(REQUEST_DBD_JOBS, b, (void **)&cond2),
			 0);
	assert_memory_equal(&cond2->job_fields, &cond.job_fields,
			    sizeof(cond.job_fields));
	assert_true(fields_sel_is_all(&cond2->step_fields));
	assert_int_equal(cond2->flags, DBD_JOBS_NO_STEPS);
	msg_body_free(REQUEST_DBD_JOBS, cond2);

	resp.job_fields = cond.job_fields;
	resp.job_cnt = 3;
	resp.jobs = xcalloc(3, sizeof(acct_job_rec_t));
	for (unsigned k = 0; k < 3; k++)
		job_variant(&resp.jobs[k], k);
	resp.steps = xcalloc(1, sizeof(acct_step_rec_t));
	buf_destroy(b);
	b = buf_create(4096);
	assert_int_equal(msg_body_pack(RESPONSE_DBD_JOBS, &resp, b), 0);
	len = buf_offset(b);
	buf_set_offset(b, 0);
	assert_int_equal(msg_body_unpack(RESPONSE_DBD_JOBS, b, (void **)&back),
			 0);
	assert_int_equal(back->job_cnt, 3);
	for (unsigned k = 0; k < 3; k++) {
		assert_int_equal(back->jobs[k].job_id, resp.jobs[k].job_id);
		assert_string_equal(back->jobs[k].name, resp.jobs[k].name);
		assert_int_equal(back->jobs[k].state, resp.jobs[k].state);
		assert_null(back->jobs[k].account);     /* not chosen */
		assert_int_equal(back->jobs[k].submit, 0);
	}
	msg_body_free(RESPONSE_DBD_JOBS, back);
	/* every cut short is an error, never a read past the end */
	for (size_t l = 0; l < len; l++) {
		cut = buf_view(buf_data(b), l);
		assert_int_equal(msg_body_unpack(RESPONSE_DBD_JOBS, cut,
						 (void **)&back), -1);
		buf_destroy(cut);
	}
	for (unsigned k = 0; k < 3; k++)
		fields_free(acct_job_rec_fields, &resp.jobs[k]);
	xfree(resp.jobs);
	xfree(resp.steps);
	buf_destroy(b);
}

/* A count larger than the records left could hold is refused before
 * anything is allocated for it. */
static void test_count_cap(void **state)
{
	fields_sel_t sel = { { 0 } };
	dbd_jobs_msg_t *back;
	buf_t *b = buf_create(256);

	(void) state;
	assert_int_equal(fields_sel_add(&sel, acct_job_rec_fields, "job_id"), 0);
	pack32(b, 0);
	fields_sel_pack(b, &sel);
	pack32(b, 5);           /* five jobs of 4 bytes ... */
	for (int i = 0; i < 4; i++)
		pack32(b, (uint32_t)i);  /* ... but four there */
	fields_sel_pack(b, NULL);
	pack32(b, 0);
	buf_set_offset(b, 0);
	assert_int_equal(msg_body_unpack(RESPONSE_DBD_JOBS, b, (void **)&back),
			 -1);
	buf_destroy(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_field_reads_only_its_members),
		cmocka_unit_test(test_default_format_is_selective),
		cmocka_unit_test(test_dbd_jobs_bodies),
		cmocka_unit_test(test_count_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
