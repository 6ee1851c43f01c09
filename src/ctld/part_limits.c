/* part_limits.c — see part_limits.h. */
#include "ctld/part_limits.h"

#include "common/job_info.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "ctld/part_mgr.h"

static bool _any_exclusive_user(void)
{
	for (size_t i = 0; i < part_mgr_count(); i++)
		if (part_mgr_at(i)->info.exclusive_user)
			return true;
	return false;
}

/* ExclusiveUser: no node that runs another user's job when either job
 * is from an ExclusiveUser partition. */
static void _exclusive_user(const job_record_t *j, const part_record_t *part,
			    bitmap_t *avail)
{
	job_record_t *r;

	if (!_any_exclusive_user())
		return;
	for (r = job_mgr_running_first(); r; r = r->run_next) {
		if (r == j || r->info.user_id == j->info.user_id ||
		    !r->node_bitmap)
			continue;
		if (part->info.exclusive_user ||
		    (r->part && r->part->info.exclusive_user))
			bitmap_and_not(avail, r->node_bitmap);
	}
}

static uint32_t *_max_cpus(const job_record_t *j, const part_record_t *part,
			   size_t node_cnt, bitmap_t *avail, bool ignore_alloc)
{
	uint32_t lim = part->info.max_cpus_per_node, *cap;
	job_record_t *r;

	if (!lim || lim == INFINITE32)
		return NULL;
	cap = xcalloc(node_cnt + 1, sizeof(uint32_t));
	for (size_t i = 0; i < node_cnt; i++)
		cap[i] = lim;
	for (r = job_mgr_running_first(); r && !ignore_alloc; r = r->run_next) {
		uint32_t k = 0;

		if (r == j || r->part != part || !r->node_bitmap ||
		    !r->node_cpus)
			continue;
		for (long b = bitmap_first_set(r->node_bitmap); b >= 0;
		     b = bitmap_next_set(r->node_bitmap, b + 1), k++) {
			if ((size_t) b >= node_cnt || k >= r->alloc_cnt)
				break;
			cap[b] = cap[b] > r->node_cpus[k] ?
				 cap[b] - r->node_cpus[k] : 0;
		}
	}
	for (size_t i = 0; i < node_cnt; i++)
		if (!cap[i])
			bitmap_clear(avail, (long) i);
	return cap;
}

uint32_t *part_limits_apply(const job_record_t *j, const part_record_t *part,
			    size_t node_cnt, bitmap_t *avail,
			    bool ignore_alloc)
{
	if (!ignore_alloc)
		_exclusive_user(j, part, avail);
	return _max_cpus(j, part, node_cnt, avail, ignore_alloc);
}
