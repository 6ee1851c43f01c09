/* gang_slice.c — slice rotation (gang_slice.h). */
#include <string.h>

#include "common/xmalloc.h"
#include "ctld/gang_slice.h"

struct gang_row {
	const uint16_t *node_cpus;
	size_t          node_cnt;
	uint32_t       *used;     /* CPUs held per node */
	bitmap_t      **ids;      /* CPU ids held per node, made on demand */
};

gang_row_t *gang_row_create(const uint16_t *node_cpus, size_t node_cnt)
{
	gang_row_t *r = xcalloc(1, sizeof(*r));

	r->node_cpus = node_cpus;
	r->node_cnt = node_cnt;
	r->used = xcalloc(node_cnt + 1, sizeof(*r->used));
	r->ids = xcalloc(node_cnt + 1, sizeof(*r->ids));
	return r;
}

void gang_row_destroy(gang_row_t *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->node_cnt; i++)
		if (r->ids[i])
			bitmap_destroy(r->ids[i]);
	xfree(r->ids);
	xfree(r->used);
	xfree(r);
}

bool gang_row_fits(const gang_row_t *r, const gang_job_t *j)
{
	for (uint32_t k = 0; k < j->node_cnt; k++) {
		uint32_t i = j->node[k];
		const bitmap_t *mine = j->ids ? j->ids[k] : NULL;

		if (i >= r->node_cnt)
			return false;
		if (r->used[i] + j->cpus[k] > r->node_cpus[i])
			return false;
		if (mine && r->ids[i] &&
		    bitmap_size(mine) == bitmap_size(r->ids[i]) &&
		    bitmap_overlaps(mine, r->ids[i]))
			return false;
	}
	return true;
}

void gang_row_add(gang_row_t *r, const gang_job_t *j)
{
	for (uint32_t k = 0; k < j->node_cnt; k++) {
		uint32_t i = j->node[k];
		const bitmap_t *mine = j->ids ? j->ids[k] : NULL;

		if (i >= r->node_cnt)
			continue;
		r->used[i] += j->cpus[k];
		if (!mine)
			continue;
		if (!r->ids[i])
			r->ids[i] = bitmap_create(bitmap_size(mine));
		if (bitmap_size(mine) == bitmap_size(r->ids[i]))
			bitmap_or(r->ids[i], mine);
	}
}

/* The active jobs to the back, keeping both groups' order. */
static void _gsl_to_back(gang_job_t *jobs, size_t n)
{
	gang_job_t *tmp = xcalloc(n + 1, sizeof(*tmp));
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!jobs[i].active)
			tmp[k++] = jobs[i];
	for (size_t i = 0; i < n; i++)
		if (jobs[i].active)
			tmp[k++] = jobs[i];
	memcpy(jobs, tmp, n * sizeof(*jobs));
	xfree(tmp);
}

size_t gang_slice(gang_job_t *jobs, size_t n, const uint16_t *node_cpus,
		  size_t node_cnt, bool rotate)
{
	gang_row_t *r = gang_row_create(node_cpus, node_cnt);
	bool *was = xcalloc(n + 1, sizeof(*was));
	size_t cnt = 0, i;

	if (rotate)
		_gsl_to_back(jobs, n);
	for (i = 0; i < n; i++) {
		was[i] = jobs[i].active;
		jobs[i].active = false;
	}
	/* pinned jobs run, but take no turn from the others: once their
	 * launch is confirmed a fill sorts them out */
	for (i = 0; i < n; i++)
		if (jobs[i].pinned)
			jobs[i].active = true;
	/* a fill keeps the running jobs that fit, in queue order */
	for (i = 0; i < n && !rotate; i++) {
		if (jobs[i].pinned || !was[i] || !gang_row_fits(r, &jobs[i]))
			continue;
		gang_row_add(r, &jobs[i]);
		jobs[i].active = true;
	}
	for (i = 0; i < n; i++) {
		if (jobs[i].pinned || (!rotate && was[i]))
			continue;
		if (!gang_row_fits(r, &jobs[i]))
			continue;
		gang_row_add(r, &jobs[i]);
		jobs[i].active = true;
	}
	for (i = 0; i < n; i++)
		cnt += jobs[i].active;
	xfree(was);
	gang_row_destroy(r);
	return cnt;
}
