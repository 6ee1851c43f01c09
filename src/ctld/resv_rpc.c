/* resv_rpc.c — scontrol create/update/delete/show reservation in the
 * controller (resv_mgr.h).
 *
 * A create or update builds the whole new record first and checks it
 * (times, partition, users, accounts, nodes, overlaps, busy nodes); the
 * table changes only when everything is right, so a refused request
 * changes nothing.
 */
#include <pwd.h>
#include <string.h>
#include <strings.h>

#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/assoc_mgr.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/job_mgr.h"
#include "ctld/node_mgr.h"
#include "ctld/part_mgr.h"
#include "ctld/resv_mgr_int.h"
#include "ctld/rpc.h"
#include "slurm/slurm_errno.h"

/* Every name of a comma list passes ok (a leading '-' = deny), and the
 * list does not mix allow and deny. */
static bool _rv_list_ok(const char *list, bool (*ok)(const char *))
{
	char *copy = xstrdup(list), *tok, *save = NULL;
	int plus = 0, minus = 0;
	bool good = true;

	for (tok = strtok_r(copy, ",", &save); tok && good;
	     tok = strtok_r(NULL, ",", &save)) {
		if (*tok == '-') {
			minus++;
			tok++;
		} else {
			plus++;
		}
		good = *tok && ok(tok);
	}
	xfree(copy);
	return good && (plus + minus) && !(plus && minus);
}

static bool _rv_user_ok(const char *name)
{
	struct passwd pw, *res = NULL;
	char buf[4096];

	return getpwnam_r(name, &pw, buf, sizeof(buf), &res) == 0 && res;
}

static bool _rv_acct_ok(const char *name)
{
	return !assoc_mgr_loaded() || assoc_mgr_find_acct(name);
}

/* First name of a list without its '-' (the default reservation name). */
static char *_rv_first(const char *list)
{
	size_t n;

	if (*list == '-')
		list++;
	n = strcspn(list, ",");
	return xstrndup(list, n);
}

/* Is node set nodes busy with running jobs at or after start? */
static bool _rv_busy(const bitmap_t *nodes, time_t start)
{
	for (job_record_t *j = job_mgr_running_first(); j; j = j->run_next) {
		if (!j->node_bitmap || (j->info.job_state & JOB_COMPLETING))
			continue;
		if (j->info.end_time && j->info.end_time <= start)
			continue;
		if (bitmap_overlaps(j->node_bitmap, nodes))
			return true;
	}
	return false;
}

/* Nodes of other reservations whose time overlaps n's (those flagged
 * MAINT or OVERLAP, or n itself so flagged, do not count). */
static bitmap_t *_rv_taken(const resv_info_t *n, const resv_t *self)
{
	bitmap_t *t = bitmap_create(node_mgr_count() ? node_mgr_count() : 1);

	if (n->flags & (RESV_OVERLAP | RESV_MAINT))
		return t;
	for (size_t i = 0; i < resv_cnt(); i++) {
		resv_t *r = resv_at(i);

		if (r == self || (r->info.flags & (RESV_OVERLAP | RESV_MAINT)))
			continue;
		if (resv_pair_overlaps(n->start_time, n->end_time, n->flags,
				       r->info.start_time, r->info.end_time,
				       r->info.flags))
			bitmap_or(t, resv_nodes(r));
	}
	return t;
}

static uint32_t _rv_cores(const node_record_t *nd)
{
	uint32_t c = (uint32_t) nd->info.sockets * nd->info.cores;

	return c ? c : nd->info.cpus;
}

/* NodeCnt= / CoreCnt=: the first nodes of the partition (lowest weight
 * first, then table order) that are up, in no other reservation then,
 * and free of jobs that would still run (unless IGNORE_JOBS). */
static int _rv_pick(resv_info_t *n, const part_record_t *part, uint32_t nodes,
		 uint32_t cores, const resv_t *self, bitmap_t **out)
{
	bitmap_t *taken = _rv_taken(n, self), *pick, *one;
	size_t cnt = node_mgr_count();
	uint32_t got_n = 0, got_c = 0;

	pick = bitmap_create(cnt ? cnt : 1);
	one = bitmap_create(cnt ? cnt : 1);
	for (uint32_t w = 0; ; ) {
		uint32_t next_w = UINT32_MAX;

		for (size_t i = 0; i < cnt; i++) {
			node_record_t *nd = node_mgr_at(i);

			if (!bitmap_test(part->node_bitmap, i) ||
			    bitmap_test(taken, i) || bitmap_test(pick, i) ||
			    !node_mgr_usable(nd))
				continue;
			if (nd->info.weight != w) {
				if (nd->info.weight > w &&
				    nd->info.weight < next_w)
					next_w = nd->info.weight;
				continue;
			}
			bitmap_clear_all(one);
			bitmap_set(one, i);
			if (!(n->flags & RESV_IGNORE_JOBS) &&
			    _rv_busy(one, n->start_time))
				continue;
			bitmap_set(pick, i);
			got_n++;
			got_c += _rv_cores(nd);
			if ((nodes != NO_VAL32 && got_n >= nodes) ||
			    (nodes == NO_VAL32 && got_c >= cores))
				goto done;
		}
		if (next_w == UINT32_MAX)
			break;
		w = next_w;
	}
	bitmap_destroy(taken);
	bitmap_destroy(pick);
	bitmap_destroy(one);
	return ESLURM_NODES_BUSY;
done:
	bitmap_destroy(taken);
	bitmap_destroy(one);
	*out = pick;
	return 0;
}

static int _rv_times(resv_info_t *n, const resv_desc_t *d, const resv_t *old,
		  time_t now)
{
	time_t start = n->start_time, end = n->end_time;
	time_t dur = old && end ? end - start : -1;   /* -1: forever/none */

	if (d->start_time) {
		if (!old && d->start_time < now - 60)
			return ESLURM_INVALID_TIME_VALUE;
		start = d->start_time < now ? now : d->start_time;
		if (old && old->info.end_time)
			end = start + dur;
	}
	if (d->end_time) {
		end = d->end_time;
	} else if (d->duration == INFINITE32) {
		end = start + 365 * 86400;   /* 22.05's "UNLIMITED" */
	} else if (d->duration == 0) {
		return ESLURM_INVALID_TIME_VALUE;
	} else if (d->duration != NO_VAL32) {
		end = start + (time_t) d->duration * 60;
	} else if (!old) {
		return ESLURM_INVALID_TIME_VALUE;
	}
	if (end && end <= start)
		return ESLURM_INVALID_TIME_VALUE;
	if (end && end <= now)
		return ESLURM_INVALID_TIME_VALUE;
	n->start_time = start;
	n->end_time = end;
	return 0;
}

static int _rv_nodes(resv_info_t *n, const resv_desc_t *d, const resv_t *old,
		  part_record_t *part, bitmap_t **out)
{
	bitmap_t *b = NULL, *taken;
	char *bad = NULL;
	int rc;

	if (d->node_list && *d->node_list) {
		if (!xstrcasecmp(d->node_list, "ALL")) {
			b = bitmap_create(node_mgr_count() ?
					  node_mgr_count() : 1);
			if (part && d->partition) {
				bitmap_or(b, part->node_bitmap);
				n->flags |= RESV_PART_NODES;
			} else {        /* every node, no vacant slot */
				bitmap_destroy(b);
				b = node_mgr_all();
			}
		} else if (!(b = node_mgr_bitmap(d->node_list, &bad))) {
			xfree(bad);
			return ESLURM_INVALID_NODE_NAME;
		}
		if ((n->flags & RESV_PART_NODES) &&
		    (!part || !bitmap_equal(b, part->node_bitmap))) {
			bitmap_destroy(b);
			return ESLURM_INVALID_NODE_NAME;
		}
		n->flags |= RESV_SPEC_NODES;
	} else if (d->node_cnt != NO_VAL32 || d->core_cnt != NO_VAL32) {
		if (!part || (d->node_cnt != NO_VAL32 && !d->node_cnt))
			return ESLURM_INVALID_NODE_NAME;
		n->flags &= ~(RESV_SPEC_NODES | RESV_PART_NODES);
		if ((rc = _rv_pick(n, part, d->node_cnt, d->core_cnt, old, &b)))
			return rc;
		xfree(n->partition);
		n->partition = xstrdup(part->info.name);
	} else if (old) {
		b = bitmap_copy(resv_nodes((resv_t *) old));
	} else {
		return ESLURM_INVALID_NODE_NAME;
	}
	if (!bitmap_count(b)) {
		bitmap_destroy(b);
		return ESLURM_INVALID_NODE_NAME;
	}
	taken = _rv_taken(n, old);
	rc = bitmap_overlaps(taken, b) ? ESLURM_RESERVATION_OVERLAP : 0;
	bitmap_destroy(taken);
	if (!rc && !old && !(n->flags & RESV_IGNORE_JOBS) &&
	    d->node_list && _rv_busy(b, n->start_time))
		rc = ESLURM_NODES_BUSY;
	if (rc) {
		bitmap_destroy(b);
		return rc;
	}
	*out = b;
	return 0;
}

/* Node list, counts and TRES from the chosen nodes. */
static void _rv_describe(resv_info_t *n, const bitmap_t *b, uint32_t core_req)
{
	uint64_t cpus = 0;
	uint32_t cores = 0;

	for (long i = bitmap_first_set(b); i >= 0;
	     i = bitmap_next_set(b, i + 1)) {
		node_record_t *nd = node_mgr_at(i);

		cpus += nd->info.cpus;
		cores += _rv_cores(nd);
	}
	xfree(n->node_list);
	n->node_list = node_mgr_names(b);
	n->node_cnt = (uint32_t) bitmap_count(b);
	n->core_cnt = core_req != NO_VAL32 && core_req < cores ? core_req :
		cores;
	if (core_req != NO_VAL32 && core_req < cores)
		cpus = cpus * core_req / (cores ? cores : 1);
	xfree(n->tres_str);
	n->tres_str = xstrdup_printf("cpu=%llu", (unsigned long long) cpus);
}

/* Build the record a request asks for into n (a copy of old's for an
 * update).  0 or an error code; n is then the caller's to free. */
static int _rv_build(resv_info_t *n, const resv_desc_t *d, const resv_t *old,
		  time_t now)
{
	part_record_t *part = NULL;
	bitmap_t *b = NULL;
	int rc;

	n->flags = (n->flags | d->flags) & ~d->flags_clear;
	if (d->flags & RESV_PURGE_COMP)
		n->purge_comp_time = d->purge_comp_time;
	if (!(n->flags & RESV_PURGE_COMP))
		n->purge_comp_time = 0;
	if ((n->flags & RESV_TIME_FLOAT) || d->features || d->groups)
		return ESLURM_NOT_SUPPORTED;
	if ((rc = _rv_times(n, d, old, now)))
		return rc;
	if (d->partition) {
		if (!(part = part_mgr_find(d->partition)))
			return ESLURM_INVALID_PARTITION_NAME;
		xfree(n->partition);
		n->partition = xstrdup(d->partition);
	} else if (n->partition) {
		part = part_mgr_find(n->partition);
	} else if (!d->node_list) {
		part = part_mgr_default();
	}
	if (d->users) {
		if (*d->users && !_rv_list_ok(d->users, _rv_user_ok))
			return ESLURM_USER_ID_MISSING;
		xfree(n->users);
		n->users = *d->users ? xstrdup(d->users) : NULL;
	}
	if (d->accounts) {
		if (*d->accounts && !_rv_list_ok(d->accounts, _rv_acct_ok))
			return ESLURM_INVALID_ACCOUNT;
		xfree(n->accounts);
		n->accounts = *d->accounts ? xstrdup(d->accounts) : NULL;
	}
	if (!n->users && !n->accounts)
		return ESLURM_RESERVATION_EMPTY;
	if ((rc = _rv_nodes(n, d, old, part, &b)))
		return rc;
	_rv_describe(n, b, d->core_cnt != NO_VAL32 ? d->core_cnt :
		  old ? old->info.core_cnt : NO_VAL32);
	bitmap_destroy(b);
	return 0;
}

static char *_rv_default_name(const resv_info_t *n, uint32_t id)
{
	char *who = _rv_first(n->users ? n->users : n->accounts);
	char *name = xstrdup_printf("%s_%u", who, id);

	xfree(who);
	return name;
}

static void _rv_log(const char *what, const resv_info_t *n, uid_t uid)
{
	char s[32], e[32];

	fmt_time(n->start_time, s, sizeof(s));
	fmt_time(n->end_time, e, sizeof(e));
	info("sched: %s reservation=%s users=%s accounts=%s nodes=%s "
	     "cores=%u start=%s end=%s by uid=%u", what, n->name,
	     n->users ? n->users : "(null)",
	     n->accounts ? n->accounts : "(null)", n->node_list, n->core_cnt,
	     s, n->end_time ? e : "Unknown", (unsigned) uid);
}

static void _rv_name_free(void *p)
{
	resv_name_msg_t *m = p;

	xfree(m->name);
	xfree(m);
}

void resv_mgr_rpc_create(net_conn_t *c, slurm_msg_t *m)
{
	const resv_desc_t *d = m->data;
	time_t now = time(NULL);
	resv_info_t n = { 0 };
	resv_name_msg_t *resp;
	resv_t *r;
	int rc;

	if (!d) {
		net_reply_rc(c, ESLURM_RESERVATION_INVALID);
		return;
	}
	if (d->name && *d->name && resv_find(d->name)) {
		net_reply_rc(c, ESLURM_RESERVATION_NAME_DUP);
		return;
	}
	if (d->name && (!*d->name || strpbrk(d->name, " ,=\t\n"))) {
		net_reply_rc(c, ESLURM_RESERVATION_INVALID);
		return;
	}
	if ((rc = _rv_build(&n, d, NULL, now))) {
		info("sched: reservation request from uid=%u denied: %s",
		     (unsigned) m->auth_uid, slurm_strerror(rc));
		resv_info_free_members(&n);
		net_reply_rc(c, rc);
		return;
	}
	n.resv_id = resv_next_id();
	n.created = now;
	n.name = d->name ? xstrdup(d->name) : _rv_default_name(&n, n.resv_id);
	if (resv_find(n.name)) {
		resv_info_free_members(&n);
		net_reply_rc(c, ESLURM_RESERVATION_NAME_DUP);
		return;
	}
	r = resv_add(&n);
	r->active = resv_is_active(r, now);
	_rv_log("Created", &r->info, m->auth_uid);
	resv_acct(r, false, 0, now);
	resv_changed();
	resp = xmalloc(sizeof(*resp));
	resp->name = xstrdup(r->info.name);
	commit_reply(c, RESPONSE_CREATE_RESERVATION, resp, _rv_name_free);
}

void resv_mgr_rpc_update(net_conn_t *c, slurm_msg_t *m)
{
	const resv_desc_t *d = m->data;
	time_t now = time(NULL), prev;
	resv_info_t n = { 0 };
	resv_t *r;
	int rc;

	if (!d || !(r = resv_find(d->name))) {
		net_reply_rc(c, ESLURM_RESERVATION_INVALID);
		return;
	}
	fields_copy(resv_info_fields, &n, &r->info);
	if ((rc = _rv_build(&n, d, r, now))) {
		info("sched: reservation update of %s from uid=%u denied: %s",
		     r->info.name, (unsigned) m->auth_uid, slurm_strerror(rc));
		resv_info_free_members(&n);
		net_reply_rc(c, rc);
		return;
	}
	prev = r->info.start_time;
	resv_info_free_members(&r->info);
	r->info = n;
	r->gen = UINT32_MAX;     /* node list may have changed */
	_rv_log("Updated", &r->info, m->auth_uid);
	resv_acct(r, false, prev != r->info.start_time ? prev : 0, now);
	resv_changed();
	commit_reply_rc(c, SLURM_SUCCESS, NULL);
}

void resv_mgr_rpc_delete(net_conn_t *c, slurm_msg_t *m)
{
	const resv_name_msg_t *d = m->data;
	time_t now = time(NULL);

	for (size_t i = 0; d && i < resv_cnt(); i++) {
		resv_t *r = resv_at(i);

		if (xstrcmp(r->info.name, d->name))
			continue;
		if (resv_running_jobs(r)) {
			net_reply_rc(c, ESLURM_RESERVATION_BUSY);
			return;
		}
		info("sched: Deleted reservation=%s by uid=%u", r->info.name,
		     (unsigned) m->auth_uid);
		resv_acct(r, true, 0, now);
		resv_remove(i, now);
		resv_changed();
		commit_reply_rc(c, SLURM_SUCCESS, NULL);
		return;
	}
	net_reply_rc(c, ESLURM_RESERVATION_INVALID);
}

/* PrivateData=reservations: as Slurm 22.05, a user who is not an
 * operator sees only the reservations they may use: Users= admits them,
 * and Accounts= names an account they have an association in (a list of
 * excluded accounts is judged by their default account). */
static bool resv_user_sees(const resv_t *v, uid_t uid)
{
	const char *list = v->info.accounts;
	assoc_user_t *u;
	char **accts;
	bool seen = false;

	if (!list || !*list)
		return resv_admits(v, uid, NULL);
	if (*list == '-') {
		u = assoc_mgr_user(uid);
		return resv_admits(v, uid, u ? u->default_acct : NULL);
	}
	accts = xstrsplit(list, ",", NULL);
	for (size_t i = 0; accts && accts[i] && !seen; i++)
		seen = assoc_mgr_find(uid, accts[i], NULL) &&
		       resv_admits(v, uid, accts[i]);
	xstrarray_free(accts);
	return seen;
}

void resv_mgr_rpc_info(net_conn_t *c, slurm_msg_t *m)
{
	const info_request_msg_t *r = m->data;
	resv_info_msg_t resp = { .last_update = time(NULL) };
	bool filter = rpc_viewer(m).hide;     /* PrivateData=reservations */

	resp.resvs = xcalloc(resv_cnt() + 1, sizeof(resv_info_t));
	for (size_t i = 0; i < resv_cnt(); i++) {
		resv_t *v = resv_at(i);

		if (r && r->name && *r->name && strcmp(r->name, v->info.name))
			continue;
		if (filter && !resv_user_sees(v, m->auth_uid))
			continue;
		resp.resvs[resp.cnt++] = v->info;   /* packed now: shallow */
	}
	net_reply(c, RESPONSE_RESERVATION_INFO, &resp);
	xfree(resp.resvs);
}
