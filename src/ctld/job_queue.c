/* job_queue.c — the pending (scheduling order), running and finished
 * (end order, for purge) lists of job records (job_queue.h). */
#include <utlist.h>
#include <stdlib.h>

#include "common/xmalloc.h"
#include "ctld/assoc_mgr.h"
#include "ctld/job_mgr.h"

static struct {
	job_record_t *pending;     /* scheduling order */
	uint64_t      pend_gen;    /* changes to the pending list */
	size_t        pend_cnt;
	job_record_t *running;     /* holding nodes */
	job_record_t *finished;    /* by end time, for purge */
	bool          bulk;        /* recovery: append now, sort once */
} q;

/* The table is emptied (job_mgr_fini): forget the lists. */
void job_mgr_lists_reset(void)
{
	q.pending = q.running = q.finished = NULL;
	q.pend_cnt = 0;
	q.pend_gen++;
}

/* Partition PriorityTier first, then priority, then job id. */
static int _prio_cmp(const job_record_t *a, const job_record_t *b)
{
	uint16_t ta = a->part ? a->part->info.priority_tier : 0;
	uint16_t tb = b->part ? b->part->info.priority_tier : 0;

	if (ta != tb)
		return ta > tb ? -1 : 1;
	if (a->info.priority != b->info.priority)
		return a->info.priority > b->info.priority ? -1 : 1;
	return a->info.job_id < b->info.job_id ? -1 : 1;
}

job_record_t *job_mgr_pending_first(void)
{
	return q.pending;
}

int job_mgr_pending_cmp(const job_record_t *a, const job_record_t *b)
{
	return a == b ? 0 : _prio_cmp(a, b);
}

uint64_t job_mgr_pending_gen(void)
{
	return q.pend_gen;
}

/* Insert in order, searching from the tail: new jobs have the lowest
 * priority of all, so a submit costs O(1). */
void job_mgr_pending_add(job_record_t *j)
{
	job_record_t *pos = q.pending ? q.pending->pend_prev : NULL;

	if (j->on_pend)
		return;
	while (pos && !q.bulk && _prio_cmp(j, pos) < 0)
		pos = pos == q.pending ? NULL : pos->pend_prev;
	if (!pos) {
		DL_PREPEND2(q.pending, j, pend_prev, pend_next);
	} else if (!pos->pend_next) {
		DL_APPEND2(q.pending, j, pend_prev, pend_next);
	} else {
		j->pend_next = pos->pend_next;
		j->pend_prev = pos;
		pos->pend_next->pend_prev = j;
		pos->pend_next = j;
	}
	j->on_pend = true;
	q.pend_cnt++;
	q.pend_gen++;
	assoc_mgr_job_pending(j, 1);
}

void job_mgr_pending_del(job_record_t *j)
{
	if (!j->on_pend)
		return;
	DL_DELETE2(q.pending, j, pend_prev, pend_next);
	j->on_pend = false;
	q.pend_cnt--;
	q.pend_gen++;
	assoc_mgr_job_pending(j, -1);
}

void job_mgr_pending_resort(job_record_t *j)
{
	job_mgr_touch(j);
	job_mgr_pending_del(j);
	job_mgr_pending_add(j);
}

/* What the order compares, copied out of the records once: sorting a
 * million pointers by _prio_cmp reads two records (and their partitions)
 * per comparison, twenty times a record, each read a cache miss in a
 * table of gigabytes.  The keys sort in a few tens of MB. */
typedef struct {
	uint64_t rank;          /* PriorityTier, priority: lower first */
	uint32_t job_id;
	uint32_t idx;           /* in the order collected */
} prio_key_t;

static int _key_cmp(const void *a, const void *b)
{
	const prio_key_t *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->job_id < y->job_id ? -1 : x->job_id > y->job_id;
}

static void _key(prio_key_t *v, uint32_t idx, const job_record_t *j)
{
	uint16_t tier = j->part ? j->part->info.priority_tier : 0;

	v->rank = (uint64_t) (UINT16_MAX - tier) << 32 |
		  (UINT32_MAX - j->info.priority);
	v->job_id = j->info.job_id;
	v->idx = idx;
}

/* The records are collected from the table's array when they are most of
 * it (recovery): following the list's links waits on memory at each of
 * them, the array's loads overlap.  And the links are written in that
 * order too, from the sorted keys' neighbours: writing them in priority
 * order is a cache miss per record again. */
void job_mgr_pending_sort(void)
{
	size_t n = q.pend_cnt, m = 0, r;
	job_record_t **rec, **prv, **nxt, *j;
	prio_key_t *v;

	if (n < 2)
		return;
	v = xcalloc(n, sizeof(*v));
	rec = xcalloc(n, sizeof(*rec));
	if (n * 2 >= job_mgr_count()) {
		uint32_t cnt, k;
		job_record_t *const *all = job_mgr_all(&cnt);

		for (k = 0; k < cnt && m < n; k++)
			if (all[k] && all[k]->on_pend) {
				_key(&v[m], (uint32_t) m, all[k]);
				rec[m++] = all[k];
			}
	}
	if (m != n)      /* not from the array (or jobs on the list only) */
		for (j = q.pending, m = 0; j && m < n; j = j->pend_next) {
			_key(&v[m], (uint32_t) m, j);
			rec[m++] = j;
		}
	n = m;
	qsort(v, n, sizeof(*v), _key_cmp);
	prv = xcalloc(n, sizeof(*prv));
	nxt = xcalloc(n, sizeof(*nxt));
	for (r = 0; r < n; r++) {   /* the DL list: head's prev is the tail */
		prv[v[r].idx] = rec[v[r ? r - 1 : n - 1].idx];
		nxt[v[r].idx] = r + 1 < n ? rec[v[r + 1].idx] : NULL;
	}
	for (r = 0; r < n; r++) {
		rec[r]->pend_prev = prv[r];
		rec[r]->pend_next = nxt[r];
	}
	q.pending = rec[v[0].idx];
	q.pend_gen++;
	xfree(v);
	xfree(rec);
	xfree(prv);
	xfree(nxt);
}

void job_mgr_running_add(job_record_t *j)
{
	if (j->on_run)
		return;
	DL_APPEND2(q.running, j, run_prev, run_next);
	j->on_run = true;
	assoc_mgr_job_running(j, 1);
}

void job_mgr_running_del(job_record_t *j)
{
	if (!j->on_run)
		return;
	DL_DELETE2(q.running, j, run_prev, run_next);
	j->on_run = false;
	assoc_mgr_job_running(j, -1);
}

job_record_t *job_mgr_running_first(void)
{
	return q.running;
}

job_record_t *job_mgr_finished_first(void)
{
	return q.finished;
}

/* The finished list reuses the run links: a job is on one or the other. */
void job_mgr_finished_add(job_record_t *j)
{
	job_mgr_running_del(j);
	job_mgr_pending_del(j);
	if (j->on_fin)
		return;
	DL_APPEND2(q.finished, j, run_prev, run_next);
	j->on_fin = true;
}

void job_mgr_finished_del(job_record_t *j)
{
	if (!j->on_fin)
		return;
	DL_DELETE2(q.finished, j, run_prev, run_next);
	j->on_fin = false;
}

/* Recovery adds every pending job at once, in job id order, each with
 * the priority it was saved with: inserting each in order from the tail
 * walks the list (quadratic where priorities do not fall with the id, as
 * multifactor's do not).  Between on and off they are appended; off
 * sorts the list once. */
void job_mgr_pending_bulk(bool on)
{
	q.bulk = on;
	if (!on)
		job_mgr_pending_sort();
}

