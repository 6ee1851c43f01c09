/* cli_sacct_json.c — sacct --json / --yaml and slurmrestd's
 * /slurmdb/.../jobs: a job and its steps in Slurm 25.05's data_parser
 * v0.0.43 layout (openapi_slurmdbd_jobs_resp), by walking sacct's field
 * table (cli_sacct.h); the builders here make the values its rows name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_fields.h"
#include "cli/cli_sacct.h"
#include "cli/cli_sacct_json.h"
#include "common/array_spec.h"
#include "common/bitmap.h"
#include "common/hostlist.h"
#include "common/job_info.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define JADD(o, k, v) json_object_object_add(o, k, v)
#define JOB(r)  ((r)->job)
#define STEP(r) ((r)->step)

static json_object *jstr(const char *s)
{
	return json_object_new_string(s ? s : "");
}

static json_object *jint(int64_t v)
{
	return json_object_new_int64(v);
}

static json_object *secs_usecs(uint64_t usec)
{
	json_object *o = json_object_new_object();

	JADD(o, "seconds", jint((int64_t)(usec / 1000000)));
	JADD(o, "microseconds", jint((int64_t)(usec % 1000000)));
	return o;
}

/* Slurm shows the pending tasks of an array as a hex bitmap. */
static json_object *task_hex(const char *spec)
{
	char err[128], *hex = NULL;
	uint32_t throttle;
	bitmap_t *b;
	size_t top;
	json_object *o;

	if (!spec)
		return NULL;
	b = array_spec_parse(spec, ARRAY_SPEC_MAX_SIZE, &throttle, err,
			     sizeof(err));
	if (!b)
		return jstr(spec);
	for (top = bitmap_size(b); top && !bitmap_test(b, top - 1); top--)
		;
	xstrcat(&hex, "0x");
	for (size_t nib = (top + 3) / 4; nib > 0; nib--) {
		unsigned v = 0;

		for (int k = 3; k >= 0; k--) {
			size_t bit = (nib - 1) * 4 + (size_t)k;

			v = v << 1 | (bit < top && bitmap_test(b, bit));
		}
		xstrcatc(&hex, "0123456789ABCDEF"[v]);
	}
	bitmap_destroy(b);
	o = jstr(hex);
	xfree(hex);
	return o;
}

static json_object *empty_usage(void)
{
	json_object *o = json_object_new_object();

	JADD(o, "max", json_object_new_array());
	JADD(o, "min", json_object_new_array());
	JADD(o, "average", json_object_new_array());
	JADD(o, "total", json_object_new_array());
	return o;
}

static json_object *usage_item(int id, const char *type, uint64_t count)
{
	json_object *t = json_object_new_object();

	JADD(t, "type", jstr(type));
	JADD(t, "name", jstr(""));
	JADD(t, "id", jint(id));
	JADD(t, "count", jint((int64_t)count));
	return t;
}

/* MaxRSS / MaxVMSize (and their averages) as Slurm reports them: bytes
 * in tres.requested.max / .average. */
static json_object *step_usage(const acct_step_rec_t *s)
{
	json_object *o = empty_usage();
	const char *keys[] = { "max", "average" };

	for (int k = 0; k < 2; k++) {
		json_object *a;

		json_object_object_get_ex(o, keys[k], &a);
		if (s->max_rss_kb)
			json_object_array_add(a, usage_item(2, "mem",
				(k ? s->ave_rss_kb : s->max_rss_kb) * 1024));
		if (s->max_vsize_kb)
			json_object_array_add(a, usage_item(7, "vmem",
				(k ? s->ave_vsize_kb : s->max_vsize_kb) * 1024));
	}
	return o;
}

/* ---- the builders the table names ---- */

json_object *sj_empty_str(const sacct_row_t *r)
{
	(void)r;
	return jstr("");
}

/* The batch script when it was asked for and kept; no member otherwise
 * (as Slurm's, whose job record has it only then). */
json_object *sj_script(const sacct_row_t *r)
{
	return r->script && r->script->script ? jstr(r->script->script) : NULL;
}

json_object *sj_empty_list(const sacct_row_t *r)
{
	(void)r;
	return json_object_new_array();
}

/* wckey: the name, and ASSIGNED_DEFAULT when the controller gave the
 * user's default ("*name"). */
json_object *sj_wckey(const sacct_row_t *r)
{
	const char *w = r->job->wckey ? r->job->wckey : "";

	return jstr(*w == '*' ? w + 1 : w);
}

json_object *sj_wckey_flags(const sacct_row_t *r)
{
	json_object *a = json_object_new_array();

	if (r->job->wckey && r->job->wckey[0] == '*')
		json_object_array_add(a, jstr("ASSIGNED_DEFAULT"));
	return a;
}

json_object *sj_zero(const sacct_row_t *r)
{
	(void)r;
	return jint(0);
}

json_object *sj_unset(const sacct_row_t *r)
{
	(void)r;
	return cli_json_num32(NO_VAL32);
}

json_object *sj_jobid(const sacct_row_t *r)
{
	char *s = NULL;
	json_object *o;
	int32_t id;

	if (!STEP(r))
		return jint(JOB(r)->job_id);
	/* a step's id: "123.batch", "123.extern", "123.0" */
	id = (int32_t)STEP(r)->step_id;
	if (id == ACCT_STEP_BATCH)
		s = xstrdup_printf("%u.batch", JOB(r)->job_id);
	else if (id == ACCT_STEP_EXTERN)
		s = xstrdup_printf("%u.extern", JOB(r)->job_id);
	else
		s = xstrdup_printf("%u.%d", JOB(r)->job_id, id);
	o = jstr(s);
	xfree(s);
	return o;
}

json_object *sj_state(const sacct_row_t *r)
{
	uint32_t st = STEP(r) ? STEP(r)->state : JOB(r)->state;
	json_object *a = json_object_new_array();

	json_object_array_add(a, jstr(job_state_string(st & JOB_STATE_BASE)));
	return a;
}

json_object *sj_exit(const sacct_row_t *r)
{
	return cli_json_exit(STEP(r) ? STEP(r)->exit_code : JOB(r)->exit_code);
}

json_object *sj_derived(const sacct_row_t *r)
{
	return cli_json_exit(JOB(r)->derived_ec);
}

json_object *sj_nnodes(const sacct_row_t *r)
{
	return jint(STEP(r) ? STEP(r)->num_nodes : JOB(r)->num_nodes);
}

json_object *sj_ntasks(const sacct_row_t *r)
{
	return jint(STEP(r) ? STEP(r)->ntasks : 0);
}

json_object *sj_reqcpus(const sacct_row_t *r)
{
	return jint(JOB(r)->req_cpus);
}

json_object *sj_priority(const sacct_row_t *r)
{
	return cli_json_num32(JOB(r)->priority);
}

json_object *sj_restarts(const sacct_row_t *r)
{
	return jint(JOB(r)->restart_cnt);
}

json_object *sj_hold(const sacct_row_t *r)
{
	return json_object_new_boolean((JOB(r)->state & JOB_STATE_BASE) ==
				       JOB_PENDING && !JOB(r)->priority);
}

json_object *sj_energy(const sacct_row_t *r)
{
	return cli_json_num64(STEP(r) ? STEP(r)->consumed_energy :
			      r->steps_energy);
}

/* ---- times ---- */

static time_t start_of(const sacct_row_t *r)
{
	return STEP(r) ? STEP(r)->start : JOB(r)->start;
}

static time_t end_of(const sacct_row_t *r)
{
	return STEP(r) ? STEP(r)->end : JOB(r)->end;
}

json_object *sj_suspended(const sacct_row_t *r)
{
	return jint(STEP(r) ? 0 : JOB(r)->time_suspended);
}

json_object *sj_elapsed(const sacct_row_t *r)
{
	time_t start = start_of(r), end = end_of(r) ? end_of(r) : r->now;

	if (!STEP(r))
		end -= JOB(r)->time_suspended;

	return jint(start && end > start ? end - start : 0);
}

/* A job's times are plain numbers, a step's {set, infinite, number}. */
static json_object *when(const sacct_row_t *r, time_t t)
{
	return STEP(r) ? cli_json_num64(t ? (uint64_t)t : NO_VAL64) : jint(t);
}

json_object *sj_start(const sacct_row_t *r)
{
	return when(r, start_of(r));
}

json_object *sj_end(const sacct_row_t *r)
{
	return when(r, end_of(r));
}

json_object *sj_eligible(const sacct_row_t *r)
{
	return jint(JOB(r)->eligible);
}

json_object *sj_submit(const sacct_row_t *r)
{
	return jint(JOB(r)->submit);
}

json_object *sj_limit(const sacct_row_t *r)
{
	return cli_json_num32(STEP(r) ? NO_VAL32 : JOB(r)->time_limit);
}

static uint64_t usec_of(const sacct_row_t *r, bool user, bool sys)
{
	uint64_t t = 0;

	if (STEP(r))
		return (user ? STEP(r)->user_usec : 0) +
		       (sys ? STEP(r)->sys_usec : 0);
	for (uint32_t i = 0; i < r->nsteps; i++)
		t += (user ? r->steps[i].user_usec : 0) +
		     (sys ? r->steps[i].sys_usec : 0);
	return t;
}

json_object *sj_user(const sacct_row_t *r)
{
	return secs_usecs(usec_of(r, true, false));
}

json_object *sj_sys(const sacct_row_t *r)
{
	return secs_usecs(usec_of(r, false, true));
}

json_object *sj_total(const sacct_row_t *r)
{
	return secs_usecs(STEP(r) ? usec_of(r, true, true) : r->steps_cpu_usec);
}

/* ---- composite members ---- */

json_object *sj_tres_alloc(const sacct_row_t *r)
{
	return cli_json_tres(STEP(r) ? STEP(r)->tres_alloc : JOB(r)->tres_alloc);
}

json_object *sj_tres_req(const sacct_row_t *r)
{
	return cli_json_tres(JOB(r)->tres_req);
}

json_object *sj_mem_cpu(const sacct_row_t *r)
{
	const acct_job_rec_t *j = JOB(r);

	return cli_json_num64(j->mem_per_cpu ? j->req_mem : NO_VAL64);
}

json_object *sj_mem_node(const sacct_row_t *r)
{
	const acct_job_rec_t *j = JOB(r);

	return cli_json_num64(j->mem_per_cpu ? NO_VAL64 : j->req_mem);
}

json_object *sj_killer(const sacct_row_t *r)
{
	uint32_t uid = STEP(r) ? STEP(r)->requid : JOB(r)->requid;
	char *name = NULL;
	json_object *o;

	if (uid == NO_VAL32)
		return jstr("");
	cli_fmt_uid(&name, uid);
	o = jstr(name);
	xfree(name);
	return o;
}

json_object *sj_array(const sacct_row_t *r)
{
	const acct_job_rec_t *j = JOB(r);
	json_object *o = json_object_new_object(), *x, *y;
	bool meta = j->array_task_str && j->array_task_id == NO_VAL32;

	JADD(o, "job_id", jint(j->array_job_id ? j->array_job_id :
			       meta ? j->job_id : 0));
	x = json_object_new_object();
	JADD(x, "tasks", jint(0));
	y = json_object_new_object();
	JADD(y, "running", x);
	x = json_object_new_object();
	JADD(x, "max", y);
	JADD(o, "limits", x);
	JADD(o, "task", meta ? task_hex(j->array_task_str) : jstr(""));
	JADD(o, "task_id", cli_json_num32(j->array_job_id ?
					  j->array_task_id : NO_VAL32));
	return o;
}

json_object *sj_assoc(const sacct_row_t *r)
{
	const acct_job_rec_t *j = JOB(r);
	json_object *o = json_object_new_object();
	char *user = NULL;

	cli_fmt_uid(&user, j->uid);
	JADD(o, "account", jstr(j->account));
	JADD(o, "cluster", jstr(j->cluster));
	JADD(o, "partition", jstr(""));
	JADD(o, "user", jstr(user));
	xfree(user);
	return o;
}

json_object *sj_het(const sacct_row_t *r)
{
	json_object *o = json_object_new_object();

	JADD(o, "job_id", jint(JOB(r)->het_job_id));
	JADD(o, "job_offset", cli_json_num32(JOB(r)->het_job_id ?
					     JOB(r)->het_job_offset : NO_VAL32));
	return o;
}

json_object *sj_resv(const sacct_row_t *r)
{
	json_object *o = json_object_new_object();

	(void)r;
	JADD(o, "id", jint(0));
	JADD(o, "name", jstr(""));
	JADD(o, "requested", jstr(""));
	return o;
}

json_object *sj_nodelist(const sacct_row_t *r)
{
	const char *nodes = STEP(r) ? STEP(r)->nodes : JOB(r)->nodes;
	json_object *a = json_object_new_array();
	char err[128];
	hostlist_t *hl = nodes && *nodes ?
		hostlist_parse(nodes, err, sizeof(err)) : NULL;

	for (size_t i = 0; hl && i < hostlist_count(hl); i++)
		json_object_array_add(a, jstr(hostlist_nth(hl, i)));
	if (hl)
		hostlist_destroy(hl);
	return a;
}

json_object *sj_step_usage(const sacct_row_t *r)
{
	return STEP(r) ? step_usage(STEP(r)) : empty_usage();
}

json_object *sj_step_consumed(const sacct_row_t *r)
{
	(void)r;
	return empty_usage();
}

json_object *sj_steps(const sacct_row_t *r)
{
	json_object *a = json_object_new_array();

	for (uint32_t i = 0; i < r->nsteps; i++) {
		sacct_row_t s = { .job = r->job, .step = &r->steps[i],
				  .now = r->now };

		json_object_array_add(a, sacct_json_row(&s));
	}
	return a;
}

/* ---- the walk ---- */

/* The object at path "a/b/c" minus its last element; creates parents. */
static json_object *parent_of(json_object *root, const char *path,
			      const char **leaf)
{
	const char *slash;
	json_object *cur = root;

	while ((slash = strchr(path, '/'))) {
		char part[64];
		json_object *next;
		size_t n = (size_t)(slash - path);

		snprintf(part, sizeof(part), "%.*s", (int)n, path);
		if (!json_object_object_get_ex(cur, part, &next)) {
			next = json_object_new_object();
			json_object_object_add(cur, part, next);
		}
		cur = next;
		path = slash + 1;
	}
	*leaf = path;
	return cur;
}

json_object *sacct_json_row(const sacct_row_t *r)
{
	json_object *o = json_object_new_object();

	for (const sacct_field_t *f = sacct_fields; f->f.text || f->json; f++) {
		const char *key = STEP(r) ? f->step_key : f->job_key;
		const char *leaf = NULL;
		json_object *parent, *v;

		if (!key)
			continue;
		if (f->json) {
			v = f->json(r);
			if (!v)         /* a member this record lacks */
				continue;
		} else {
			char *s = cli_table_text(&f->f, r, NULL);

			v = jstr(s);
			xfree(s);
		}
		parent = parent_of(o, key, &leaf);
		json_object_object_add(parent, leaf, v);
	}
	return o;
}
