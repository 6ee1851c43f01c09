/* select.c — node and CPU selection (see select.h).
 *
 * Candidates are the required nodes first, then the other usable nodes by
 * lowest Weight, then lowest index.  The first min_nodes candidates that
 * can hold a task are taken, each gets one task, then tasks fill the chosen
 * nodes in order (block distribution) and more nodes are added up to
 * max_nodes while tasks remain.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/select.h"

typedef struct {
	const select_node_t *nodes;
	const select_req_t  *req;
	bool                 ignore_alloc;
	uint32_t            *order;     /* candidate indices */
	size_t               order_cnt;
	uint32_t            *tasks;     /* per node index */
} sel_ctx_t;

static int _cmp_weight(const void *a, const void *b, void *arg)
{
	const select_node_t *nodes = arg;
	uint32_t ia = *(const uint32_t *) a, ib = *(const uint32_t *) b;
	uint32_t wa = nodes[ia].weight, wb = nodes[ib].weight;

	if (wa != wb)
		return wa < wb ? -1 : 1;
	return ia < ib ? -1 : (ia > ib);
}

/* How many tasks of req node n could take now (or when empty). */
static uint32_t _node_cap(const sel_ctx_t *s, const select_node_t *n)
{
	const select_req_t *r = s->req;
	uint64_t free_cpus = n->cpus, free_mem = n->real_memory, t;

	if (!s->ignore_alloc) {
		if (r->exclusive && (n->alloc_cpus || n->alloc_memory))
			return 0;
		free_cpus = n->alloc_cpus >= n->cpus ? 0 : n->cpus - n->alloc_cpus;
		free_mem = n->alloc_memory >= n->real_memory ?
			0 : n->real_memory - n->alloc_memory;
	}
	if (r->exclusive)
		free_cpus = n->cpus;
	t = free_cpus / r->cpus_per_task;
	if (r->ntasks_per_node && t > r->ntasks_per_node)
		t = r->ntasks_per_node;
	if (r->mem_per_node) {
		if (free_mem < r->mem_per_node)
			return 0;
	} else if (r->mem_per_cpu) {
		if (r->exclusive) {
			if ((uint64_t) n->cpus * r->mem_per_cpu > free_mem)
				return 0;
		} else if (t > free_mem / (r->mem_per_cpu * r->cpus_per_task)) {
			t = free_mem / (r->mem_per_cpu * r->cpus_per_task);
		}
	}
	return t > UINT32_MAX ? UINT32_MAX : (uint32_t) t;
}

/* Candidate order: required nodes (index order), then the rest of avail. */
static int _build_order(sel_ctx_t *s, const bitmap_t *avail, size_t node_cnt)
{
	const bitmap_t *reqd = s->req->required;
	size_t nreq = 0, first_other;
	bool uniform = true;
	long i;

	s->order = xcalloc(node_cnt ? node_cnt : 1, sizeof(uint32_t));
	if (reqd) {
		for (i = bitmap_first_set(reqd); i >= 0;
		     i = bitmap_next_set(reqd, i + 1)) {
			if (!bitmap_test(avail, i) && !s->ignore_alloc)
				return -1;
			s->order[nreq++] = i;
		}
	}
	first_other = nreq;
	for (i = bitmap_first_set(avail); i >= 0;
	     i = bitmap_next_set(avail, i + 1)) {
		if (reqd && bitmap_test(reqd, i))
			continue;
		if (s->order_cnt + nreq > first_other &&
		    s->nodes[i].weight != s->nodes[s->order[first_other]].weight)
			uniform = false;
		s->order[first_other + s->order_cnt++] = i;
	}
	if (!uniform)
		qsort_r(s->order + first_other, s->order_cnt, sizeof(uint32_t),
			_cmp_weight, (void *) s->nodes);
	s->order_cnt += nreq;
	return (int) nreq;
}

/* Distribute tasks; returns 0 when all tasks found a place. */
static int _distribute(sel_ctx_t *s, size_t nreq)
{
	const select_req_t *r = s->req;
	uint32_t *cap = xcalloc(s->order_cnt + 1, sizeof(uint32_t));
	uint32_t chosen = 0, tasks_left, add;
	size_t k, next = 0;
	int rc = -1;

	for (k = 0; k < s->order_cnt; k++)
		cap[k] = _node_cap(s, &s->nodes[s->order[k]]);
	for (k = 0; k < nreq; k++) {
		if (!cap[k])
			goto out;
		s->tasks[s->order[k]] = 1;
		chosen++;
	}
	for (next = nreq; next < s->order_cnt && chosen < r->min_nodes; next++) {
		if (!cap[next])
			continue;
		s->tasks[s->order[next]] = 1;
		chosen++;
	}
	if (chosen < r->min_nodes || chosen > r->max_nodes)
		goto out;
	tasks_left = r->num_tasks > chosen ? r->num_tasks - chosen : 0;
	for (k = 0; k < next && tasks_left; k++) {
		uint32_t *t = &s->tasks[s->order[k]];

		if (!*t)
			continue;
		add = cap[k] - *t < tasks_left ? cap[k] - *t : tasks_left;
		*t += add;
		tasks_left -= add;
	}
	for (; next < s->order_cnt && tasks_left && chosen < r->max_nodes; next++) {
		if (!cap[next])
			continue;
		add = cap[next] < tasks_left ? cap[next] : tasks_left;
		s->tasks[s->order[next]] = add;
		tasks_left -= add;
		chosen++;
	}
	rc = tasks_left ? -1 : 0;
out:
	xfree(cap);
	return rc;
}

static void _fill_result(const sel_ctx_t *s, size_t node_cnt,
			 select_result_t *res)
{
	const select_req_t *r = s->req;
	uint32_t j = 0;
	size_t i;

	memset(res, 0, sizeof(*res));
	res->nodes = bitmap_create(node_cnt);
	for (i = 0; i < node_cnt; i++)
		if (s->tasks[i])
			res->node_cnt++;
	res->cpus = xcalloc(res->node_cnt + 1, sizeof(uint16_t));
	res->tasks = xcalloc(res->node_cnt + 1, sizeof(uint16_t));
	res->mem = xcalloc(res->node_cnt + 1, sizeof(uint64_t));
	for (i = 0; i < node_cnt; i++) {
		uint32_t cpus;

		if (!s->tasks[i])
			continue;
		bitmap_set(res->nodes, i);
		cpus = r->exclusive ? s->nodes[i].cpus :
			s->tasks[i] * r->cpus_per_task;
		res->cpus[j] = cpus;
		res->tasks[j] = s->tasks[i];
		if (r->mem_per_node)
			res->mem[j] = r->mem_per_node;
		else if (r->mem_per_cpu)
			res->mem[j] = r->mem_per_cpu * cpus;
		res->cpu_cnt += cpus;
		j++;
	}
}

int select_job_test(const select_node_t *nodes, size_t node_cnt,
		    const bitmap_t *avail, const select_req_t *req,
		    bool ignore_alloc, select_result_t *res)
{
	sel_ctx_t s = { .nodes = nodes, .req = req,
			.ignore_alloc = ignore_alloc };
	int nreq, rc = ignore_alloc ? SELECT_NEVER : SELECT_BUSY;

	if (!req->cpus_per_task || !req->min_nodes ||
	    req->min_nodes > req->max_nodes)
		return SELECT_NEVER;
	nreq = _build_order(&s, avail, node_cnt);
	if (nreq < 0)
		goto out;
	s.tasks = xcalloc(node_cnt ? node_cnt : 1, sizeof(uint32_t));
	if ((uint32_t) nreq > req->max_nodes || _distribute(&s, nreq) < 0)
		goto out;
	_fill_result(&s, node_cnt, res);
	rc = SELECT_OK;
out:
	xfree(s.order);
	xfree(s.tasks);
	return rc;
}

void select_result_free(select_result_t *res)
{
	if (!res)
		return;
	if (res->nodes)
		bitmap_destroy(res->nodes);
	xfree(res->cpus);
	xfree(res->tasks);
	xfree(res->mem);
	memset(res, 0, sizeof(*res));
}

char *select_compress_counts(const uint16_t *vals, size_t n)
{
	char *out = NULL;
	size_t i = 0, run;

	while (i < n) {
		for (run = 1; i + run < n && vals[i + run] == vals[i]; run++)
			;
		if (out)
			xstrcatc(&out, ',');
		if (run > 1)
			xstrfmtcat(&out, "%u(x%zu)", vals[i], run);
		else
			xstrfmtcat(&out, "%u", vals[i]);
		i += run;
	}
	return out ? out : xstrdup("");
}
