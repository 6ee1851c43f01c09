/* stats.c — controller statistics for sdiag (stats.h). */
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <uthash.h>

#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/acct_job.h"
#include "ctld/acct_send.h"
#include "ctld/agent.h"
#include "ctld/controller.h"
#include "ctld/job_mgr.h"
#include "ctld/sched.h"
#include "ctld/stats.h"
#include "slurm/slurm_errno.h"

typedef struct {
	uint32_t       key;          /* message type or uid */
	uint32_t       count;
	uint64_t       total_usec;
	UT_hash_handle hh;
} stats_row_t;

static struct {
	time_t       since;
	stats_row_t *types, *users;
	stats_info_response_msg_t s;   /* counters; lists unused */
} st;

uint64_t stats_now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void _st_free_rows(stats_row_t **h)
{
	stats_row_t *r, *tmp;

	HASH_ITER(hh, *h, r, tmp) {
		HASH_DEL(*h, r);
		xfree(r);
	}
}

static void _st_reset(time_t now)
{
	bool active = st.s.bf_active;
	uint32_t bf_total = st.s.bf_backfilled_jobs;

	_st_free_rows(&st.types);
	_st_free_rows(&st.users);
	memset(&st.s, 0, sizeof(st.s));
	st.since = now;
	st.s.bf_active = active;
	/* "since last slurm start" survives a reset */
	st.s.bf_backfilled_jobs = bf_total;
}

void stats_init(time_t now)
{
	_st_reset(now);
	st.s.bf_backfilled_jobs = 0;
}

void stats_fini(void)
{
	_st_free_rows(&st.types);
	_st_free_rows(&st.users);
}

static void _st_add(stats_row_t **h, uint32_t key, uint64_t usec)
{
	stats_row_t *r;

	HASH_FIND(hh, *h, &key, sizeof(key), r);
	if (!r) {
		r = xmalloc(sizeof(*r));
		r->key = key;
		HASH_ADD(hh, *h, key, sizeof(key), r);
	}
	r->count++;
	r->total_usec += usec;
}

void stats_rpc(uint16_t type, uint32_t uid, uint64_t usec)
{
	_st_add(&st.types, type, usec);
	_st_add(&st.users, uid, usec);
}

void stats_job(enum stats_job_event ev)
{
	switch (ev) {
	case STATS_JOB_SUBMITTED: st.s.jobs_submitted++; break;
	case STATS_JOB_STARTED:   st.s.jobs_started++; break;
	case STATS_JOB_COMPLETED: st.s.jobs_completed++; break;
	case STATS_JOB_CANCELED:  st.s.jobs_canceled++; break;
	case STATS_JOB_FAILED:    st.s.jobs_failed++; break;
	}
}

void stats_main_cycle(uint64_t usec, uint32_t depth, uint32_t queue_len)
{
	uint32_t u = usec > UINT32_MAX ? UINT32_MAX : (uint32_t) usec;

	st.s.schedule_cycle_last = u;
	if (u > st.s.schedule_cycle_max)
		st.s.schedule_cycle_max = u;
	st.s.schedule_cycle_counter++;
	st.s.schedule_cycle_sum += usec;
	st.s.schedule_cycle_depth += depth;
	st.s.schedule_queue_len = queue_len;
}

void stats_bf_cycle(uint64_t usec, uint32_t depth, uint32_t depth_try,
		    uint32_t queue_len, uint32_t table_size, uint32_t started)
{
	uint32_t u = usec > UINT32_MAX ? UINT32_MAX : (uint32_t) usec;

	st.s.bf_cycle_last = u;
	if (u > st.s.bf_cycle_max)
		st.s.bf_cycle_max = u;
	st.s.bf_cycle_counter++;
	st.s.bf_cycle_sum += usec;
	st.s.bf_last_depth = depth;
	st.s.bf_last_depth_try = depth_try;
	st.s.bf_depth_sum += depth;
	st.s.bf_depth_try_sum += depth_try;
	st.s.bf_queue_len = queue_len;
	st.s.bf_queue_len_sum += queue_len;
	st.s.bf_table_size = table_size;
	st.s.bf_table_size_sum += table_size;
	st.s.bf_when_last_cycle = time(NULL);
	st.s.bf_backfilled_jobs += started;
	st.s.bf_last_backfilled_jobs += started;
}

void stats_bf_active(int active)
{
	st.s.bf_active = active;
}

static int _st_row_cmp(const void *a, const void *b)
{
	const stats_rpc_row_t *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->id < y->id ? -1 : (x->id > y->id);
}

static stats_rpc_row_t *_st_rows(stats_row_t *h, bool users, uint32_t *cnt)
{
	stats_rpc_row_t *out = xcalloc(HASH_COUNT(h) + 1, sizeof(*out));
	stats_row_t *r, *tmp;
	uint32_t n = 0;

	HASH_ITER(hh, h, r, tmp) {
		stats_rpc_row_t *o = &out[n++];
		struct passwd *pw;

		o->id = r->key;
		o->count = r->count;
		o->total_usec = r->total_usec;
		if (!users)
			o->name = xstrdup(msg_type_name(r->key));
		else if ((pw = getpwuid(r->key)))
			o->name = xstrdup(pw->pw_name);
		else
			o->name = xstrdup_printf("%u", r->key);
	}
	qsort(out, n, sizeof(*out), _st_row_cmp);
	*cnt = n;
	return out;
}

static void _st_counts(stats_info_response_msg_t *r)
{
	job_record_t *j;

	r->job_states_ts = time(NULL);
	for (j = job_mgr_pending_first(); j; j = j->pend_next)
		r->jobs_pending++;
	for (j = job_mgr_running_first(); j; j = j->run_next)
		if ((j->info.job_state & JOB_STATE_BASE) == JOB_RUNNING)
			r->jobs_running++;
}

void stats_rpc_info(net_conn_t *c, slurm_msg_t *m)
{
	stats_info_request_msg_t *q = m->data;
	stats_info_response_msg_t r;
	acct_send_stats_t as;

	if (q && q->command_id == 1) {
		if (!ctld_is_operator(m->auth_uid)) {
			error("Security violation, STATS_INFO reset RPC from uid=%u",
			      (unsigned) m->auth_uid);
			net_reply_rc(c, ESLURM_ACCESS_DENIED);
			return;
		}
		info("_slurm_rpc_reset_stats: uid=%u", (unsigned) m->auth_uid);
		_st_reset(time(NULL));
		net_reply_rc(c, SLURM_SUCCESS);
		return;
	}
	r = st.s;
	r.req_time = time(NULL);
	r.req_time_start = st.since;
	r.server_thread_count = 1;
	r.agent_queue_size = agent_pending();
	r.dbd_agent_queue_size = acct_queue_depth();
	acct_send_stats(&as);
	r.dbd_set_aside = as.set_aside;
	r.agent_thread_count = 0;
	r.backfill = sched_params()->backfill;
	_st_counts(&r);
	r.rpc_types = _st_rows(st.types, false, &r.rpc_type_cnt);
	r.rpc_users = _st_rows(st.users, true, &r.rpc_user_cnt);
	net_reply(c, RESPONSE_STATS_INFO, &r);
	for (uint32_t i = 0; i < r.rpc_type_cnt; i++)
		xfree(r.rpc_types[i].name);
	for (uint32_t i = 0; i < r.rpc_user_cnt; i++)
		xfree(r.rpc_users[i].name);
	xfree(r.rpc_types);
	xfree(r.rpc_users);
}
