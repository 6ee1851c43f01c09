/* resv_mgr.c — the reservation table, its life cycle, what it means for
 * scheduling, and its state (resv_mgr.h).  The RPCs are in resv_rpc.c.
 */
#include <pwd.h>
#include <string.h>

#include "common/debug_flags.h"
#include "common/log.h"
#include "common/node_info.h"
#include "common/parse_util.h"
#include "common/tagrec.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/acct_job.h"
#include "ctld/acct_outbox.h"
#include "ctld/bf_map.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/job_mgr.h"
#include "ctld/node_mgr.h"
#include "ctld/resv_mgr_int.h"
#include "ctld/sched.h"
#include "slurm/slurm_errno.h"

#define RESV_MAGIC 0x52455356u   /* "RESV" */

static struct {
	resv_t   **v;
	size_t     cnt, cap;
	uint32_t   next_id;         /* ids given so far (saved) */
	bool       dirty;
} rvm;

static tagrec_table_t resv_tab = TAGREC_TABLE(resv_info_fields);

/* ---- the table ---- */

size_t resv_cnt(void)
{
	return rvm.cnt;
}

size_t resv_mgr_count(void)
{
	return rvm.cnt;
}

resv_t *resv_at(size_t i)
{
	return i < rvm.cnt ? rvm.v[i] : NULL;
}

resv_t *resv_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < rvm.cnt; i++)
		if (!strcmp(rvm.v[i]->info.name, name))
			return rvm.v[i];
	return NULL;
}

uint32_t resv_mgr_id(const char *name)
{
	resv_t *r = name && *name ? resv_find(name) : NULL;

	return r ? r->info.resv_id : 0;
}

resv_t *resv_add(const resv_info_t *info)
{
	resv_t *r = xmalloc(sizeof(*r));

	r->info = *info;
	if (rvm.cnt == rvm.cap) {
		rvm.cap = rvm.cap ? 2 * rvm.cap : 8;
		rvm.v = xrealloc(rvm.v, rvm.cap * sizeof(*rvm.v));
	}
	rvm.v[rvm.cnt++] = r;
	if (r->info.resv_id > rvm.next_id)
		rvm.next_id = r->info.resv_id;
	return r;
}

static void _rv_free(resv_t *r)
{
	resv_info_free_members(&r->info);
	if (r->nodes)
		bitmap_destroy(r->nodes);
	xfree(r);
}

uint32_t resv_next_id(void)
{
	return ++rvm.next_id;
}

void resv_changed(void)
{
	rvm.dirty = true;
	commit_dirty();
	sched_trigger();
}

bool resv_mgr_take_dirty(void)
{
	bool d = rvm.dirty;

	rvm.dirty = false;
	return d;
}

const bitmap_t *resv_nodes(resv_t *r)
{
	uint32_t gen = node_mgr_generation();

	if (r->nodes && r->gen == gen)
		return r->nodes;
	if (r->nodes)
		bitmap_destroy(r->nodes);
	r->nodes = r->info.node_list && *r->info.node_list ?
		node_mgr_bitmap(r->info.node_list, NULL) : NULL;
	if (!r->nodes)         /* nodes gone from the config */
		r->nodes = bitmap_create(node_mgr_count() ? node_mgr_count() :
					 1);
	r->gen = gen;
	return r->nodes;
}

bool resv_is_active(const resv_t *r, time_t now)
{
	return r->info.start_time <= now &&
	       (!r->info.end_time || now < r->info.end_time);
}

uint32_t resv_running_jobs(const resv_t *r)
{
	uint32_t n = 0;

	for (job_record_t *j = job_mgr_running_first(); j; j = j->run_next)
		if (!xstrcmp(j->info.reservation, r->info.name))
			n++;
	return n;
}

/* Pending jobs of a reservation that goes: held with ReservationDeleted
 * (22.05), or just out of it with NO_HOLD_JOBS_AFTER_END. */
static void _rv_release_pending(const resv_t *r)
{
	job_record_t **held = NULL, *j;
	size_t n = 0, cap = 0;

	for (j = job_mgr_pending_first(); j; j = j->pend_next) {
		job_info_t *i = &j->info;

		if (xstrcmp(i->reservation, r->info.name))
			continue;
		xfree(i->reservation);
		job_mgr_touch(j);
		if ((r->info.flags & RESV_NO_HOLD_JOBS) || !i->priority)
			continue;
		j->prio_saved = i->priority;
		i->priority = 0;
		i->state_reason = WAIT_RESV_DELETED;
		xfree(i->state_desc);
		info("JobId=%u held: reservation %s is gone", i->job_id,
		     r->info.name);
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			held = xrealloc(held, cap * sizeof(*held));
		}
		held[n++] = j;
	}
	/* their place in the queue changes: not while walking it */
	for (size_t k = 0; k < n; k++)
		job_mgr_pending_resort(held[k]);
	xfree(held);
}

void resv_remove(size_t i, time_t now)
{
	resv_t *r = rvm.v[i];

	_rv_release_pending(r);
	memmove(&rvm.v[i], &rvm.v[i + 1], (rvm.cnt - i - 1) * sizeof(*rvm.v));
	rvm.cnt--;
	_rv_free(r);
}

void resv_mgr_fini(void)
{
	for (size_t i = 0; i < rvm.cnt; i++)
		_rv_free(rvm.v[i]);
	xfree(rvm.v);
	memset(&rvm, 0, sizeof(rvm));
}

/* ---- accounting ---- */

void resv_acct(const resv_t *r, bool deleted, time_t prev_start, time_t now)
{
	acct_resv_rec_t a = {
		.resv_id = r->info.resv_id, .name = r->info.name,
		.time_start = r->info.start_time,
		.time_end = deleted ? now : r->info.end_time,
		.nodes = r->info.node_list, .tres = r->info.tres_str,
		.flags = r->info.flags, .users = r->info.users,
		.accounts = r->info.accounts, .deleted = deleted,
		.time_start_prev = prev_start,
	};

	if (!acct_enabled())
		return;
	acct_record(ACCT_REC_RESV, &a);
}

/* ---- life cycle ---- */

/* r's occurrence ended: its running jobs end now (TIMEOUT, as 22.05),
 * or ResvOverRun minutes after the end (their end time moves there). */
static void _rv_end_jobs(const resv_t *r)
{
	uint16_t over = ctld_conf()->resv_over_run;
	time_t until = r->info.end_time + (over == INFINITE16 ? 0 :
					   (time_t) over * 60);
	job_record_t *j, *next;

	if (over == INFINITE16)
		return;
	for (j = job_mgr_running_first(); j; j = next) {
		job_info_t *i = &j->info;

		next = j->run_next;
		if (xstrcmp(i->reservation, r->info.name) ||
		    i->job_state != JOB_RUNNING)
			continue;
		if (!over) {
			info("JobId=%u: reservation %s ended", i->job_id,
			     r->info.name);
			job_mgr_end(j, JOB_TIMEOUT, FAIL_TIMEOUT, 0);
		} else if (!i->end_time || i->end_time > until) {
			i->end_time = until;
			job_mgr_touch(j);
		}
	}
}

void resv_mgr_tick(time_t now)
{
	size_t i = rvm.cnt;

	while (i-- > 0) {
		resv_t *r = rvm.v[i];
		bool act;

		if (r->info.end_time && r->info.end_time <= now) {
			_rv_end_jobs(r);
			if (!(r->info.flags & RESV_RECURRING)) {
				info("Reservation %s has ended",
				     r->info.name);
				resv_remove(i, now);
				resv_changed();
				continue;
			}
			resv_roll_forward(&r->info.start_time,
					  &r->info.end_time, r->info.flags,
					  now);
			{
				char a[32], b[32];

				fmt_time(r->info.start_time, a, sizeof(a));
				fmt_time(r->info.end_time, b, sizeof(b));
				info("Reservation %s: next occurrence %s to %s",
				     r->info.name, a, b);
			}
			resv_acct(r, false, 0, now);
			resv_changed();
		}
		act = resv_is_active(r, now);
		if (act != r->active) {
			r->active = act;
			log_flag(RESERVATION, "%s: reservation %s is now %s",
				 __func__, r->info.name,
				 act ? "active" : "inactive");
			if (act)
				info("Reservation %s has started",
				     r->info.name);
			sched_trigger();
		}
	}
}

/* ---- submit and scheduling ---- */

static bool _rv_in_list(const char *list, const char *name, bool *deny)
{
	char *copy, *tok, *save = NULL;
	bool found = false;

	*deny = false;
	if (!list || !name)
		return false;
	copy = xstrdup(list);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (*tok == '-') {
			*deny = true;
			tok++;
		}
		if (!strcmp(tok, name))
			found = true;
	}
	xfree(copy);
	return found;
}

static char *_rv_user_name(uid_t uid)
{
	struct passwd pw, *res = NULL;
	char buf[4096];

	if (getpwuid_r(uid, &pw, buf, sizeof(buf), &res) == 0 && res)
		return xstrdup(pw.pw_name);
	return xstrdup_printf("%u", (unsigned) uid);
}

/* Users= and Accounts= both apply when both are given. */
static bool _rv_admits(const resv_t *r, uid_t uid, const char *account)
{
	bool deny, in;

	if (r->info.users) {
		char *user = _rv_user_name(uid);

		in = _rv_in_list(r->info.users, user, &deny);
		xfree(user);
		if (in == deny)
			return false;
	}
	if (r->info.accounts) {
		in = _rv_in_list(r->info.accounts, account, &deny);
		if (in == deny)
			return false;
	}
	return true;
}

bool resv_admits(const resv_t *r, uid_t uid, const char *account)
{
	return _rv_admits(r, uid, account);
}

int resv_mgr_job_check(const char *name, uid_t uid, const char *account)
{
	resv_t *r;

	if (!name || !*name)
		return 0;
	if (!(r = resv_find(name)))
		return ESLURM_RESERVATION_INVALID;
	if (_rv_admits(r, uid, account))
		return 0;
	log_flag(RESERVATION, "%s: uid=%u account=%s may not use "
		 "reservation %s", __func__, (unsigned) uid,
		 account ? account : "", name);
	return ESLURM_RESERVATION_ACCESS;
}

static time_t _rv_job_end(const job_record_t *j, time_t now)
{
	uint32_t l = j->info.time_limit;

	return l == INFINITE32 || l == NO_VAL32 ? 0 : now + (time_t) l * 60;
}

uint32_t resv_mgr_job_nodes(job_record_t *j, const bitmap_t *usable,
			    time_t now, bitmap_t **out, uint32_t *removed)
{
	const char *name = j->info.reservation;
	time_t end = _rv_job_end(j, now);
	bitmap_t *o = NULL;

	*out = NULL;
	*removed = 0;
	if (!rvm.cnt)
		return WAIT_NO_REASON;
	if (name && *name) {
		resv_t *r = resv_find(name);

		if (!r)
			return WAIT_RESV_DELETED;
		if (!resv_is_active(r, now))
			return WAIT_RESERVATION;   /* StartTime stays Unknown */
		o = bitmap_copy(usable);
		if (!(r->info.flags & RESV_FLEX)) {
			bitmap_and(o, resv_nodes(r));
			*out = o;
			log_flag(RESERVATION, "%s: JobId=%u may use only the "
				 "nodes of reservation %s", __func__,
				 j->info.job_id, name);
			return WAIT_NO_REASON;
		}
	}
	for (size_t i = 0; i < rvm.cnt; i++) {
		resv_t *r = rvm.v[i];
		const bitmap_t *nodes;

		if (name && !xstrcmp(name, r->info.name))
			continue;
		if (!resv_time_overlaps(r->info.start_time, r->info.end_time,
					r->info.flags, now, end))
			continue;
		nodes = resv_nodes(r);
		if (!bitmap_overlaps(nodes, o ? o : usable))
			continue;
		if (!o)
			o = bitmap_copy(usable);
		bitmap_and_not(o, nodes);
		(*removed)++;
		log_flag(RESERVATION, "%s: JobId=%u may not use the nodes of "
			 "reservation %s", __func__, j->info.job_id,
			 r->info.name);
	}
	*out = o;
	return WAIT_NO_REASON;
}

void resv_mgr_bf_plan(struct bf_map *m, time_t now, uint32_t resolution,
		      uint32_t window)
{
	time_t horizon = now + window;

	if (!resolution)
		resolution = 1;
	for (size_t i = 0; i < rvm.cnt; i++) {
		resv_t *r = rvm.v[i];
		const bitmap_t *nodes = resv_nodes(r);
		time_t s = r->info.start_time, e = r->info.end_time;
		size_t cnt = bitmap_count(nodes);

		for (int k = 0; cnt && s < horizon && k < 1000; k++) {
			/* the slot it starts in is taken whole: round the
			 * start down (the map rounds starts up) */
			time_t from = s <= now ? now :
				now + (s - now) / resolution * resolution;
			bf_req_t req = {
				.node_cnt = (uint32_t) cnt, .exclusive = true,
				.duration = e ? (uint32_t) (e - from) :
					UINT32_MAX,
			};

			bf_map_reserve(m, nodes, &req, from);
			if (!e || !(r->info.flags & RESV_RECURRING))
				break;
			s = resv_time_advance(s, r->info.flags);
			e = resv_time_advance(e, r->info.flags);
		}
	}
}

uint32_t resv_mgr_node_flags(size_t n, time_t now)
{
	uint32_t f = 0;

	for (size_t i = 0; i < rvm.cnt; i++) {
		resv_t *r = rvm.v[i];

		if (!resv_is_active(r, now) || !bitmap_test(resv_nodes(r), n))
			continue;
		f |= NODE_STATE_RES;
		if (r->info.flags & RESV_MAINT)
			f |= NODE_STATE_MAINT;
	}
	return f;
}

/* ---- state ---- */

void resv_mgr_pack_state(buf_t *b)
{
	pack32(b, rvm.next_id);
	pack32(b, (uint32_t) rvm.cnt);
	for (size_t i = 0; i < rvm.cnt; i++) {
		size_t at = tagrec_begin(b, RESV_MAGIC);

		tagrec_pack(b, &resv_tab, &rvm.v[i]->info);
		tagrec_end(b, at);
	}
}

int resv_mgr_unpack_state(buf_t *b, uint16_t version)
{
	resv_info_t *recs = NULL;
	uint32_t next, cnt, k;

	if (version != RESV_STATE_VERSION || unpack32(b, &next) < 0 ||
	    unpack32(b, &cnt) < 0 || cnt > buf_remaining(b) / 8)
		return -1;
	recs = xcalloc(cnt + 1, sizeof(*recs));
	for (k = 0; k < cnt; k++) {
		if (tagrec_unpack(b, RESV_MAGIC, &resv_tab, &recs[k], NULL,
				  NULL) < 0 || !recs[k].name ||
		    !*recs[k].name) {
			k++;
			goto bad;
		}
	}
	resv_mgr_fini();
	rvm.next_id = next;
	for (k = 0; k < cnt; k++)
		resv_add(&recs[k]);
	xfree(recs);
	return 0;
bad:
	while (k-- > 0)
		resv_info_free_members(&recs[k]);
	xfree(recs);
	return -1;
}
