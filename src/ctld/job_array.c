/* job_array.c — job arrays in the controller (job_array.h). */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include <uthash.h>

#include "common/array_spec.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/job_array.h"
#include "ctld/job_res.h"
#include "slurm/slurm_errno.h"

struct job_array {
	uint32_t       array_job_id;
	bitmap_t      *pending;      /* tasks not started (in meta) */
	job_record_t  *meta;         /* record holding them, NULL once gone */
	array_spec_stats_t st;       /* of the whole array, at submit */
	uint32_t       refs;         /* records of this array */
	bool           str_stale;    /* meta's array_task_str */
	/* mail for the array as a whole (job_mail.c) */
	bool           mail_began;
	bool           mail_mixed;   /* tasks ended in different states */
	uint32_t       mail_state;   /* base state of the tasks that ended */
	int            exit_min, exit_max;
	uint32_t       mail_ended;   /* tasks ended so far */
	UT_hash_handle hh;
};

static job_array_t *arrays;    /* by array_job_id */

static job_array_t *_ja_get(uint32_t id, bool create)
{
	job_array_t *a = NULL;

	HASH_FIND(hh, arrays, &id, sizeof(uint32_t), a);
	if (a || !create)
		return a;
	a = xmalloc(sizeof(*a));
	a->array_job_id = id;
	HASH_ADD(hh, arrays, array_job_id, sizeof(uint32_t), a);
	return a;
}

int job_array_check(const char *spec)
{
	char err[256];
	uint32_t thr;
	bitmap_t *b = array_spec_parse(spec, ctld_conf()->max_array_size,
				       &thr, err, sizeof(err));

	if (!b) {
		info("_slurm_rpc_submit_batch_job: %s", err);
		return ESLURM_INVALID_ARRAY;
	}
	bitmap_destroy(b);
	return 0;
}

void job_array_create(job_record_t *j, const char *spec)
{
	char err[256];
	uint32_t thr = 0;
	bitmap_t *b = array_spec_parse(spec, ctld_conf()->max_array_size,
				       &thr, err, sizeof(err));
	job_array_t *a;

	if (!b)
		return;        /* job_array_check() said yes before */
	a = _ja_get(j->info.job_id, true);
	a->pending = b;
	a->meta = j;
	a->refs++;
	array_spec_stats(b, &a->st);
	a->str_stale = true;
	j->array = a;
	j->info.array_job_id = j->info.job_id;
	j->info.array_task_id = NO_VAL32;
	j->info.array_max_tasks = thr;
	job_array_sync(j);
	job_mgr_touch(j);
}

void job_array_sync(job_record_t *j)
{
	job_array_t *a = j->array;

	if (!a || a->meta != j || !a->str_stale)
		return;
	xfree(j->info.array_task_str);
	j->info.array_task_str = array_spec_format(a->pending,
						   j->info.array_max_tasks);
	a->str_stale = false;
}

static bool _ja_is_meta(const job_record_t *j)
{
	return j->array && j->array->meta == j && j->array->pending;
}

/* ---- splitting ---- */

static uint32_t _ja_free_id(void)
{
	uint32_t id = job_mgr_next_id();

	while (job_mgr_find(id)) {
		id = id + 1 > ctld_conf()->max_job_id ?
			ctld_conf()->first_job_id : id + 1;
		job_mgr_set_next_id(id);
	}
	return id;
}

/* A new record for task t of meta m: the request is the meta's.
 * New request fields of job_record_t must be copied here too (cached
 * ones -- feature bitmap, parsed GPUs -- are rebuilt on demand). */
static job_record_t *_ja_copy(job_record_t *m, uint32_t t)
{
	job_record_t *j = job_mgr_create(_ja_free_id());
	uint32_t id = j->info.job_id;

	memset(&j->info, 0, sizeof(j->info));
	fields_copy(job_info_fields, &j->info, &m->info);
	j->info.job_id = id;
	j->info.array_task_id = t;
	xfree(j->info.array_task_str);
	job_res_attach_parts(j);
	j->part = m->part;
	j->argv = xstrarray_dup(m->argv);
	j->prio_saved = m->prio_saved;
	j->exclusive = m->exclusive;
	j->ntasks_given = m->ntasks_given;
	j->cpt_given = m->cpt_given;
	j->open_mode = m->open_mode;
	j->begin_time = m->begin_time;
	j->array = m->array;
	j->array->refs++;
	job_mgr_add(j);
	job_mgr_touch(j);
	return j;
}

/* Task t leaves the meta record m: a record of its own, or m itself
 * when it was the last one. */
static job_record_t *_ja_take(job_record_t *m, uint32_t t)
{
	job_array_t *a = m->array;

	bitmap_clear(a->pending, t);
	a->str_stale = true;
	job_mgr_touch(m);
	if (bitmap_first_set(a->pending) >= 0) {
		job_record_t *j = _ja_copy(m, t);

		debug("split JobId=%u_%u (JobId=%u) off its array", a->array_job_id,
		      t, j->info.job_id);
		return j;
	}
	bitmap_destroy(a->pending);
	a->pending = NULL;
	a->meta = NULL;
	m->info.array_task_id = t;
	xfree(m->info.array_task_str);
	return m;
}

job_record_t *job_array_take_task(job_record_t *j)
{
	long t;

	if (!_ja_is_meta(j) || (t = bitmap_first_set(j->array->pending)) < 0)
		return j;
	return _ja_take(j, (uint32_t)t);
}

long job_array_next_task(const job_record_t *j)
{
	return _ja_is_meta(j) ? bitmap_first_set(j->array->pending) : -1;
}

job_record_t *job_array_split(job_record_t *meta, uint32_t task)
{
	job_record_t *j;

	if (!_ja_is_meta(meta) || task >= bitmap_size(meta->array->pending) ||
	    !bitmap_test(meta->array->pending, task))
		return NULL;
	j = _ja_take(meta, task);
	if (j != meta)
		job_mgr_pending_add(j);
	commit_dirty();
	return j;
}

void job_array_drop(job_record_t *meta, const bitmap_t *tasks)
{
	job_array_t *a = meta->array;

	if (!_ja_is_meta(meta))
		return;
	for (long t = bitmap_first_set(tasks); t >= 0;
	     t = bitmap_next_set(tasks, (size_t)t + 1))
		if ((size_t)t < bitmap_size(a->pending))
			bitmap_clear(a->pending, (size_t)t);
	a->str_stale = true;
	job_mgr_touch(meta);
	commit_dirty();
}

/* ---- throttle ---- */

bool job_array_throttled(const job_record_t *j)
{
	uint32_t max = j->info.array_max_tasks, run = 0;

	if (!_ja_is_meta(j) || !max)
		return false;
	for (job_record_t *r = job_mgr_running_first(); r; r = r->run_next) {
		uint32_t base = r->info.job_state & JOB_STATE_BASE;

		if (r->array == j->array && !(r->info.job_state & JOB_COMPLETING) &&
		    (base == JOB_RUNNING || base == JOB_SUSPENDED) && ++run >= max)
			return true;
	}
	return false;
}

/* Every record of j's array. */
static void _ja_each(job_array_t *a, void (*fn)(job_record_t *, void *),
		  void *arg)
{
	job_record_t *lists[3] = { job_mgr_pending_first(),
				   job_mgr_running_first(),
				   job_mgr_finished_first() };

	for (int l = 0; l < 3; l++) {
		job_record_t *r = lists[l], *next;

		for (; r; r = next) {
			next = l ? r->run_next : r->pend_next;
			if (r->array == a)
				fn(r, arg);
		}
	}
}

static void _ja_set_max(job_record_t *r, void *arg)
{
	r->info.array_max_tasks = *(uint32_t *)arg;
	job_mgr_touch(r);
}

void job_array_set_throttle(job_record_t *j, uint32_t max_tasks)
{
	if (!j->array)
		return;
	_ja_each(j->array, _ja_set_max, &max_tasks);
	j->array->str_stale = true;
	info("_update_job: set max_run_tasks to %u for array JobId=%u",
	     max_tasks, j->array->array_job_id);
}

/* ---- launch and purge ---- */

char **job_array_env(const job_record_t *j, char **env)
{
	const array_spec_stats_t *st;
	char kv[64];

	if (!j->array)
		return env;
	st = &j->array->st;
	snprintf(kv, sizeof(kv), "SLURM_ARRAY_TASK_COUNT=%u", st->count);
	env = xstrarray_append(env, kv);
	snprintf(kv, sizeof(kv), "SLURM_ARRAY_TASK_MAX=%u", st->max);
	env = xstrarray_append(env, kv);
	snprintf(kv, sizeof(kv), "SLURM_ARRAY_TASK_MIN=%u", st->min);
	env = xstrarray_append(env, kv);
	snprintf(kv, sizeof(kv), "SLURM_ARRAY_TASK_STEP=%u", st->step);
	return xstrarray_append(env, kv);
}

uint32_t job_array_files_id(const job_record_t *j)
{
	return j->array ? j->array->array_job_id : j->info.job_id;
}

bool job_array_last_ref(const job_record_t *j)
{
	return !j->array || j->array->refs <= 1;
}

void job_array_release(job_record_t *j)
{
	job_array_t *a = j->array;

	if (!a)
		return;
	j->array = NULL;
	if (a->meta == j)
		a->meta = NULL;
	if (--a->refs)
		return;
	HASH_DEL(arrays, a);
	if (a->pending)
		bitmap_destroy(a->pending);
	xfree(a);
}

/* ---- ids ---- */

typedef struct {
	job_array_sel_t *sel;
	uint32_t         task;      /* NO_VAL32: every record */
	const bitmap_t  *tasks;     /* or these, if set */
} collect_t;

static void _ja_sel_add(job_array_sel_t *sel, job_record_t *r)
{
	sel->recs = xrealloc_sz(sel->recs, sel->cnt * sizeof(*sel->recs),
				(sel->cnt + 1) * sizeof(*sel->recs));
	sel->recs[sel->cnt++] = r;
}

static void _ja_collect(job_record_t *r, void *arg)
{
	collect_t *c = arg;
	uint32_t t = r->info.array_task_id;

	if (c->tasks ? (t != NO_VAL32 && t < bitmap_size(c->tasks) &&
			bitmap_test(c->tasks, t))
		     : (c->task == NO_VAL32 || t == c->task))
		_ja_sel_add(c->sel, r);
}

/* Pending tasks of the meta record named by tasks. */
static void _ja_sel_pending(job_array_sel_t *sel, job_array_t *a,
			 const bitmap_t *tasks)
{
	bitmap_t *hit;

	if (!a->meta || !a->pending)
		return;
	hit = bitmap_create(bitmap_size(a->pending));
	for (long t = bitmap_first_set(tasks); t >= 0;
	     t = bitmap_next_set(tasks, (size_t)t + 1)) {
		if ((size_t)t >= bitmap_size(a->pending))
			break;
		if (bitmap_test(a->pending, (size_t)t))
			bitmap_set(hit, (size_t)t);
	}
	if (bitmap_first_set(hit) < 0) {
		bitmap_destroy(hit);
		return;
	}
	sel->meta = a->meta;
	sel->tasks = hit;
}

/* "4" or "[1-3,7]" after the '_'. */
static bitmap_t *_ja_task_set(const char *s)
{
	char err[128], *spec;
	uint32_t thr;
	bitmap_t *b;
	size_t n = strlen(s);

	if (s[0] == '[') {
		if (n < 3 || s[n - 1] != ']')
			return NULL;
		spec = xstrndup(s + 1, n - 2);
	} else {
		spec = xstrdup(s);
	}
	b = strchr(spec, '%') ? NULL :
		array_spec_parse(spec, ARRAY_SPEC_MAX_SIZE, &thr, err, sizeof(err));
	xfree(spec);
	return b;
}

int job_array_select(const char *id, job_array_sel_t *sel)
{
	const char *us = id ? strchr(id, '_') : NULL;
	char *head = us ? xstrndup(id, (size_t)(us - id)) : xstrdup(id);
	job_record_t *j = NULL;
	job_array_t *a;
	uint32_t v;
	collect_t c = { .sel = sel, .task = NO_VAL32 };

	memset(sel, 0, sizeof(*sel));
	if (head && parse_u32(head, &v) == 0)
		j = job_mgr_find(v);
	xfree(head);
	if (!us) {
		if (j && j->array && j->info.job_id == j->array->array_job_id)
			_ja_each(j->array, _ja_collect, &c);
		else if (j)
			_ja_sel_add(sel, j);
		return sel->cnt ? 0 : ESLURM_INVALID_JOB_ID;
	}
	a = j ? _ja_get(v, false) : NULL;
	if (a) {
		bitmap_t *tasks = _ja_task_set(us + 1);

		if (tasks) {
			c.tasks = tasks;
			_ja_each(a, _ja_collect, &c);
			_ja_sel_pending(sel, a, tasks);
			bitmap_destroy(tasks);
		}
	}
	return (sel->cnt || sel->tasks) ? 0 : ESLURM_INVALID_JOB_ID;
}

void job_array_sel_free(job_array_sel_t *sel)
{
	xfree(sel->recs);
	if (sel->tasks)
		bitmap_destroy(sel->tasks);
	memset(sel, 0, sizeof(*sel));
}

bool job_array_sel_all_pending(const job_array_sel_t *sel)
{
	const bitmap_t *p;

	if (!sel->meta || !sel->tasks || !_ja_is_meta(sel->meta))
		return false;
	p = sel->meta->array->pending;
	return bitmap_count(p) == bitmap_count(sel->tasks);
}

/* ---- mail for the array as a whole ---- */

bool job_array_mail_first_start(job_record_t *j)
{
	job_array_t *a = j->array;

	if (!a || a->mail_began)
		return false;
	a->mail_began = true;
	return true;
}

bool job_array_mail_last_end(job_record_t *j, uint32_t *state, bool *mixed,
			     int *exit_min, int *exit_max)
{
	job_array_t *a = j->array;
	uint32_t base = j->info.job_state & JOB_STATE_BASE;
	int ec = WIFSIGNALED(j->info.exit_code) ? 0 :
		WEXITSTATUS(j->info.exit_code);
	job_record_t *r;

	if (!a)
		return false;
	if (!a->mail_ended++) {
		a->mail_state = base;
		a->exit_min = a->exit_max = ec;
	} else {
		a->mail_mixed |= a->mail_state != base;
		if (ec < a->exit_min)
			a->exit_min = ec;
		if (ec > a->exit_max)
			a->exit_max = ec;
	}
	*state = a->mail_state;
	*mixed = a->mail_mixed;
	*exit_min = a->exit_min;
	*exit_max = a->exit_max;
	if (a->meta && a->meta != j && a->pending && bitmap_count(a->pending))
		return false;
	for (r = job_mgr_running_first(); r; r = r->run_next)
		if (r != j && r->array == a &&
		    (r->info.job_state & JOB_STATE_BASE) < JOB_COMPLETE)
			return false;
	for (r = job_mgr_pending_first(); r; r = r->pend_next)
		if (r != j && r->array == a)
			return false;
	return true;
}

/* ---- snapshot ---- */

int job_array_unpack(buf_t *b, job_record_t *j)
{
	array_spec_stats_t st;
	bitmap_t *pending = NULL;
	bool has, meta = false;

	if (unpackbool(b, &has) < 0)
		return -1;
	if (!has)
		return 0;
	if (unpack32(b, &st.count) < 0 || unpack32(b, &st.min) < 0 ||
	    unpack32(b, &st.max) < 0 || unpack32(b, &st.step) < 0 ||
	    unpackbool(b, &meta) < 0 ||
	    (meta && unpack_bitmap(b, &pending) < 0))
		return -1;
	return job_array_restore(j, &st, meta, pending);
}

void job_array_saved(const job_record_t *j, array_spec_stats_t *st,
		     bool *meta, const bitmap_t **pending)
{
	const job_array_t *a = j->array;

	*st = a->st;
	*meta = a->meta == j;
	*pending = *meta ? a->pending : NULL;
}

int job_array_restore(job_record_t *j, const array_spec_stats_t *st,
		      bool meta, bitmap_t *pending)
{
	job_array_t *a;

	if (!j->info.array_job_id) {
		if (pending)
			bitmap_destroy(pending);
		return -1;
	}
	a = _ja_get(j->info.array_job_id, true);
	a->st = *st;
	a->refs++;
	j->array = a;
	if (meta) {
		if (a->pending)
			bitmap_destroy(a->pending);
		a->pending = pending;
		a->meta = j;
		a->str_stale = true;
		job_array_sync(j);
	} else if (pending) {
		bitmap_destroy(pending);
	}
	return 0;
}
