/* job_mgr.c — the job table: records by id and in the order added, job
 * ids, the journal's changed and purged lists (job_mgr.h).  The lists
 * are job_queue.c, allocation and end job_alloc.c, the once-a-second
 * checks job_tick.c. */
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <utlist.h>

#include "common/debug_flags.h"
#include "common/conf_params.h"
#include "common/fields.h"
#include "common/hash_reserve.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/trigger.h"
#include "ctld/acct_job.h"
#include "ctld/agent.h"
#include "ctld/assoc_mgr.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/job_array.h"
#include "ctld/job_depend.h"
#include "ctld/job_mail.h"
#include "ctld/job_files.h"
#include "ctld/job_ckpt.h"
#include "ctld/job_inactive.h"
#include "ctld/crontab.h"
#include "ctld/gang.h"
#include "ctld/het_job.h"
#include "ctld/job_mgr.h"
#include "ctld/lic_mgr.h"
#include "ctld/job_prolog.h"
#include "ctld/job_res.h"
#include "ctld/jobcomp.h"
#include "ctld/preempt.h"
#include "ctld/sched.h"
#include "ctld/state_save.h"
#include "ctld/stats.h"
#include "ctld/step_mgr.h"
#include "slurm/slurm_errno.h"

static struct {
	job_record_t *by_id;
	/* Every record, in the order added, NULL where one was purged: what
	 * a whole-queue answer walks.  Following the hash's own chain would
	 * wait on memory at every record (one dependent load after another,
	 * 50,000 of them); from an array the CPU fetches several at once. */
	job_record_t **all;
	uint32_t      all_cnt, all_cap, all_holes;
	uint32_t      all_held;     /* job_mgr_all_hold: no compaction */
	uint32_t      cnt;
	uint32_t      next_id;
	uint32_t     *dirty;       /* ids changed since the last commit */
	size_t        dirty_cnt, dirty_cap;
	uint32_t     *purged;      /* ids purged since the last commit */
	size_t        purged_cnt, purged_cap;
	time_t        last_change; /* of any job a client sees */
	uint32_t      reserve;     /* job_mgr_reserve: buckets for so many */
} jm;

int job_mgr_init(void)
{
	jm.next_id = ctld_conf()->first_job_id ? ctld_conf()->first_job_id : 1;
	return 0;
}

static void _push_id(uint32_t **arr, size_t *cnt, size_t *cap, uint32_t id)
{
	if (*cnt == *cap) {
		size_t ncap = *cap ? *cap * 2 : 256;

		*arr = xrealloc_sz(*arr, *cap * sizeof(uint32_t),
				   ncap * sizeof(uint32_t));
		*cap = ncap;
	}
	(*arr)[(*cnt)++] = id;
}

static void _free_job(job_record_t *j)
{
	job_array_release(j);
	step_mgr_job_free(j);
	lic_mgr_job_forget(j);
	job_info_free_members(&j->info);
	job_depend_free(j);
	xstrarray_free(j->argv);
	xfree(j->ckpt_why);
	if (j->node_bitmap)
		bitmap_destroy(j->node_bitmap);
	if (j->comp_bitmap)
		bitmap_destroy(j->comp_bitmap);
	if (j->req_bitmap)
		bitmap_destroy(j->req_bitmap);
	if (j->exc_bitmap)
		bitmap_destroy(j->exc_bitmap);
	xfree(j->node_cpus);
	xfree(j->node_tasks);
	job_res_free(j);
	xfree(j->node_mem);
	xfree(j);
}

void job_mgr_changed(void)
{
	jm.last_change = time(NULL);
}

time_t job_mgr_last_change(void)
{
	return jm.last_change;
}

void job_mgr_touch(job_record_t *j)
{
	jm.last_change = time(NULL);
	if (j->jdirty)
		return;
	j->jdirty = true;
	_push_id(&jm.dirty, &jm.dirty_cnt, &jm.dirty_cap, j->info.job_id);
}

void job_mgr_free_job(job_record_t *j)
{
	_free_job(j);
}

/* The journal takes the ids changed and purged since the last call. */
void job_mgr_take_changes(uint32_t **dirty, size_t *dirty_cnt,
			  uint32_t **purged, size_t *purged_cnt)
{
	*dirty = jm.dirty;
	*dirty_cnt = jm.dirty_cnt;
	*purged = jm.purged;
	*purged_cnt = jm.purged_cnt;
	jm.dirty = jm.purged = NULL;
	jm.dirty_cnt = jm.dirty_cap = jm.purged_cnt = jm.purged_cap = 0;
}

void job_mgr_fini(void)
{
	job_record_t *j, *tmp;

	HASH_ITER(hh, jm.by_id, j, tmp) {
		HASH_DEL(jm.by_id, j);
		_free_job(j);
	}
	job_mgr_lists_reset();
	jm.cnt = 0;
	xfree(jm.all);
	jm.all_cnt = jm.all_cap = jm.all_holes = 0;
	jm.reserve = 0;
	xfree(jm.dirty);
	xfree(jm.purged);
	jm.dirty_cnt = jm.dirty_cap = jm.purged_cnt = jm.purged_cap = 0;
}

job_record_t *job_mgr_find(uint32_t job_id)
{
	job_record_t *j = NULL;

	HASH_FIND(hh, jm.by_id, &job_id, sizeof(uint32_t), j);
	return j;
}

job_record_t *job_mgr_find_str(const char *id)
{
	uint32_t v;

	if (!id || parse_u32(id, &v) < 0)
		return NULL;
	return job_mgr_find(v);
}

job_record_t *job_mgr_find_for(const char *id, uid_t uid)
{
	job_array_sel_t sel;
	job_record_t *j = NULL;

	if (id && strchr(id, '+'))        /* "123+1": a hetjob component */
		return het_job_find_str(id);
	if (!id || !strchr(id, '_'))
		return job_mgr_find_str(id);
	if (job_array_select(id, &sel))
		return NULL;
	if (sel.cnt == 1 && !sel.tasks)
		j = sel.recs[0];
	else if (!sel.cnt && bitmap_count(sel.tasks) == 1 &&
		 (sel.meta->info.user_id == uid || ctld_is_operator(uid)))
		j = job_array_split(sel.meta,
				    (uint32_t)bitmap_first_set(sel.tasks));
	else if (!sel.cnt)
		j = sel.meta;          /* the caller refuses on the owner */
	job_array_sel_free(&sel);
	return j;
}

job_record_t *const *job_mgr_all(uint32_t *cnt)
{
	*cnt = jm.all_cnt;
	return jm.all;
}

uint32_t job_mgr_count(void)
{
	return jm.cnt;
}

uint32_t job_mgr_next_id(void)
{
	return jm.next_id;
}

void job_mgr_set_next_id(uint32_t id)
{
	if (id)
		jm.next_id = id;
}

job_record_t *job_mgr_create(uint32_t job_id)
{
	job_record_t *j = xmalloc(sizeof(*j));

	j->info.job_id = job_id;
	j->info.array_task_id = NO_VAL32;
	j->info.nice = NICE_OFFSET;
	j->acct_requid = NO_VAL32;
	return j;
}

/* Close the holes purges left once they are half of jm.all. */
static void _all_compact(void)
{
	uint32_t n = 0;

	if (jm.all_held || jm.all_holes < 1024 ||
	    jm.all_holes < jm.all_cnt / 2)
		return;
	for (uint32_t i = 0; i < jm.all_cnt; i++) {
		if (!jm.all[i])
			continue;
		jm.all[i]->all_idx = n;
		jm.all[n++] = jm.all[i];
	}
	jm.all_cnt = n;
	jm.all_holes = 0;
}

void job_mgr_all_hold(bool hold)
{
	if (hold)
		jm.all_held++;
	else if (jm.all_held && !--jm.all_held)
		_all_compact();
}

static void _all_remove(job_record_t *j)
{
	jm.all[j->all_idx] = NULL;
	jm.all_holes++;
	_all_compact();
}

/* Recovery is about to add n records: room for them in jm.all, and the
 * hash's buckets sized at the first add (growing them one doubling at a
 * time rehashes every record held, each a cache miss). */
void job_mgr_reserve(uint32_t n)
{
	if (jm.all_cnt + (uint64_t) n > jm.all_cap) {
		uint32_t ncap = jm.all_cnt + n;

		jm.all = xrealloc_sz(jm.all, jm.all_cap * sizeof(*jm.all),
				     ncap * sizeof(*jm.all));
		jm.all_cap = ncap;
	}
	jm.reserve = jm.cnt + n;
	if (jm.by_id) {
		HASH_RESERVE(hh, jm.by_id, jm.reserve);
		jm.reserve = 0;
	}
}

void job_mgr_add(job_record_t *j)
{
	if (jm.all_cnt == jm.all_cap) {
		uint32_t ncap = jm.all_cap ? jm.all_cap * 2 : 1024;

		jm.all = xrealloc_sz(jm.all, jm.all_cap * sizeof(*jm.all),
				     ncap * sizeof(*jm.all));
		jm.all_cap = ncap;
	}
	j->all_idx = jm.all_cnt;
	jm.all[jm.all_cnt++] = j;
	HASH_ADD(hh, jm.by_id, info.job_id, sizeof(uint32_t), j);
	if (jm.reserve) {
		HASH_RESERVE(hh, jm.by_id, jm.reserve);
		jm.reserve = 0;
	}
	jm.cnt++;
	j->jdirty = false;
	job_mgr_touch(j);
	if (j->info.job_id >= jm.next_id) {
		jm.next_id = j->info.job_id + 1;
		if (jm.next_id > ctld_conf()->max_job_id)
			jm.next_id = ctld_conf()->first_job_id;
	}
}

/* Drop a finished job from the table for good (MinJobAge over). */
void job_mgr_remove(job_record_t *j)
{
	job_mgr_finished_del(j);
	HASH_DEL(jm.by_id, j);
	_all_remove(j);
	jm.cnt--;
	if (job_array_last_ref(j))
		job_files_remove(ctld_conf()->state_save_location,
				 job_array_files_id(j));
	debug2("Purging old records of JobId=%u", j->info.job_id);
	_push_id(&jm.purged, &jm.purged_cnt, &jm.purged_cap, j->info.job_id);
	_free_job(j);
	jm.last_change = time(NULL);
}

void job_mgr_reattach_parts(void)
{
	job_record_t *j, *tmp;

	HASH_ITER(hh, jm.by_id, j, tmp) {
		job_res_attach_parts(j);
		/* a partition's QOS may have changed at the same address */
		j->assoc_cache.gen = UINT64_MAX;
	}
}

bool job_mgr_part_in_use(const part_record_t *p)
{
	job_record_t *j, *tmp;

	HASH_ITER(hh, jm.by_id, j, tmp) {
		if (job_state_is_finished(j->info.job_state))
			continue;
		for (uint32_t k = 0; k < j->part_cnt; k++)
			if (j->part_list[k] == p)
				return true;
		if (j->part == p)
			return true;
	}
	return false;
}
