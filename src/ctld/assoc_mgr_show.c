/* assoc_mgr_show.c — REQUEST_ASSOC_MGR_INFO: the association manager's
 * cache (users, associations, QOS) with its limits and counters, as
 * `scontrol show assoc_mgr` prints it in Slurm.
 *
 * A limit prints as "limit(used)", "N" for no limit; TRES lists carry
 * Slurm's eight default TRES (energy, fs/disk, vmem and pages are never
 * limited nor used here; billing is the CPU count).  Filters: accounts
 * and users keep the associations (an account's own association passes
 * the user filter) and the users, qos the QOS.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/assoc_mgr.h"
#include "ctld/assoc_mgr_int.h"
#include "ctld/controller.h"
#include "ctld/fairshare.h"

/* ---- values ---- */

static void lim(char **o, uint64_t limit)
{
	if (limit == ASSOC_NO_LIMIT)
		xstrcat(o, "N");
	else
		xstrfmtcat(o, "%" PRIu64, limit);
}

/* "L(U)" */
static void lim_used(char **o, const char *key, uint64_t limit, uint64_t used)
{
	xstrfmtcat(o, "%s=", key);
	lim(o, limit);
	xstrfmtcat(o, "(%" PRIu64 ")", used);
}

/* A Max limit with usage: "L(U)", or nothing when not set. */
static void max_used(char **o, const char *key, uint64_t limit, uint64_t used)
{
	xstrfmtcat(o, "%s=", key);
	if (limit != ASSOC_NO_LIMIT)
		xstrfmtcat(o, "%" PRIu64 "(%" PRIu64 ")", limit, used);
}

/* Slurm's TRES in id order, and where ours are among them. */
static const struct {
	const char *name;
	int         k;      /* ASSOC_TRES_*, -1 = not kept */
} tres_tab[] = {
	{ "cpu", ASSOC_TRES_CPU }, { "mem", ASSOC_TRES_MEM },
	{ "energy", -1 }, { "node", ASSOC_TRES_NODE },
	{ "billing", ASSOC_TRES_CPU }, { "fs/disk", -1 }, { "vmem", -1 },
	{ "pages", -1 },
};
#define N_TRES (sizeof(tres_tab) / sizeof(tres_tab[0]))

/* "cpu=L(U),mem=...": every TRES; used NULL = all 0.  billing has no
 * limit of its own here. */
static void tres_used(char **o, const char *key, const assoc_tres_t *l,
		      const uint64_t used[ASSOC_TRES_CNT])
{
	xstrfmtcat(o, "%s=", key);
	for (size_t i = 0; i < N_TRES; i++) {
		int k = tres_tab[i].k;
		bool own = k >= 0 && strcmp(tres_tab[i].name, "billing");

		xstrfmtcat(o, "%s%s=", i ? "," : "", tres_tab[i].name);
		lim(o, own ? l->v[k] : ASSOC_NO_LIMIT);
		xstrfmtcat(o, "(%" PRIu64 ")", k >= 0 && used ? used[k] : 0);
	}
}

/* "cpu=4,node=1": the set limits only. */
static void tres_set(char **o, const char *key, const assoc_tres_t *l)
{
	bool first = true;

	xstrfmtcat(o, "%s=", key);
	for (size_t i = 0; i < N_TRES; i++) {
		int k = tres_tab[i].k;

		if (k < 0 || !strcmp(tres_tab[i].name, "billing") ||
		    l->v[k] == ASSOC_NO_LIMIT)
			continue;
		xstrfmtcat(o, "%s%s=%" PRIu64, first ? "" : ",",
			   tres_tab[i].name, l->v[k]);
		first = false;
	}
}

static void minutes_of(const assoc_time_usage_t *t,
		       uint64_t used_mins[ASSOC_TRES_CNT],
		       uint64_t run_mins[ASSOC_TRES_CNT])
{
	/* remaining minutes rounded up, as the GrpTRESRunMins check
	 * counts them (Slurm: an unlimited job stays at 4294967295) */
	for (int k = 0; k < ASSOC_TRES_CNT; k++) {
		used_mins[k] = 0;
		run_mins[k] = t->run_secs[k] / 60 + (t->run_secs[k] % 60 != 0);
	}
	used_mins[ASSOC_TRES_CPU] = (uint64_t)(t->used_cpu_secs / 60.0);
}

/* ---- filters ---- */

static bool in_list(char **list, const char *name)
{
	if (!list)
		return true;
	for (size_t i = 0; list[i]; i++)
		if (!strcasecmp(list[i], name))
			return true;
	return false;
}

/* ---- users ---- */

static const char *admin_name(assoc_admin_t l)
{
	return l == ASSOC_ADMIN_SUPER ? "Administrator"
	       : l == ASSOC_ADMIN_OPERATOR ? "Operator" : "None";
}

static uint32_t uid_num(uid_t uid)
{
	return uid == (uid_t)-1 ? 4294967294u : (uint32_t)uid;
}

static int by_user_name(const void *x, const void *y)
{
	const assoc_user_t *a = *(assoc_user_t *const *)x;
	const assoc_user_t *b = *(assoc_user_t *const *)y;

	return strcmp(a->name, b->name);
}

static void show_users(char **o, am_snap_t *s,
		       const assoc_mgr_info_request_msg_t *r)
{
	assoc_user_t **v = xcalloc(s->user_cnt + 1, sizeof(*v));
	size_t n = 0;

	for (size_t i = 0; i < s->user_cnt; i++)
		if (in_list(r->users, s->users[i]->name))
			v[n++] = s->users[i];
	qsort(v, n, sizeof(*v), by_user_name);
	if (!n)
		xstrcat(o, "\nNo users currently cached in Slurm.\n\n");
	else
		xstrcat(o, "\nUser Records\n\n");
	for (size_t i = 0; i < n; i++) {
		const char *w = assoc_mgr_wckey_default(v[i]->name);

		xstrfmtcat(o, "UserName=%s(%u) DefAccount=%s DefWckey=%s "
			   "AdminLevel=%s\n", v[i]->name, uid_num(v[i]->uid),
			   v[i]->default_acct ? v[i]->default_acct : "",
			   w ? w : "", admin_name(v[i]->admin_level));
	}
	xfree(v);
}

/* ---- associations ---- */

static int by_id(const void *x, const void *y)
{
	const assoc_rec_t *a = *(assoc_rec_t *const *)x;
	const assoc_rec_t *b = *(assoc_rec_t *const *)y;

	return a->id < b->id ? -1 : a->id > b->id;
}

static int by_id_desc(const void *x, const void *y)
{
	return -by_id(x, y);
}

/* Slurm's nested-set "Lft": a preorder count where each association
 * takes one number on the way down and one on the way up, the newest
 * child first (slurmdbd puts a new child right after its parent). */
static uint32_t lft_walk(am_snap_t *s, const assoc_rec_t *a, uint32_t next,
			 uint32_t *lft, int depth)
{
	assoc_rec_t **kids = xcalloc(s->assoc_cnt + 1, sizeof(*kids));
	size_t n = 0;

	for (size_t i = 0; i < s->assoc_cnt; i++)
		if (s->assocs[i] == a)
			lft[i] = next;
	next++;
	for (size_t i = 0; depth < 64 && i < s->assoc_cnt; i++)
		if (s->assocs[i]->parent == a)
			kids[n++] = s->assocs[i];
	qsort(kids, n, sizeof(*kids), by_id_desc);
	for (size_t i = 0; i < n; i++)
		next = lft_walk(s, kids[i], next, lft, depth + 1);
	xfree(kids);
	return next + 1;
}

static bool is_def_assoc(am_snap_t *s, const assoc_rec_t *a)
{
	assoc_user_t *u;

	if (!a->user[0])
		return false;
	for (size_t i = 0; i < s->user_cnt; i++) {
		u = s->users[i];
		if (!strcmp(u->name, a->user))
			return u->default_acct &&
			       !strcmp(u->default_acct, a->acct) &&
			       !a->partition[0];
	}
	return false;
}

/* Shares at a's level: its siblings' and its own. */
static uint64_t level_shares(am_snap_t *s, const assoc_rec_t *a)
{
	uint64_t sum = 0;

	if (!a->parent)
		return a->shares;
	for (size_t i = 0; i < s->assoc_cnt; i++)
		if (s->assocs[i]->parent == a->parent)
			sum += s->assocs[i]->shares;
	return sum;
}

static void show_shares(char **o, am_snap_t *s, const assoc_rec_t *a)
{
	fairshare_assoc_t f;

	if (!fairshare_assoc(a, &f)) {
		/* Slurm without priority/multifactor computes none */
		xstrfmtcat(o, "    SharesRaw/Norm/Level/Factor=%u/"
			   "18446744073709551616.00/1/0.00\n", a->shares);
		xstrcat(o, "    UsageRaw/Norm/Efctv=0.00/1.00/0.00\n");
		return;
	}
	xstrfmtcat(o, "    SharesRaw/Norm/Level/Factor=%u/%.2f/%" PRIu64
		   "/%.2f\n", a->shares, f.norm_shares, level_shares(s, a),
		   f.factor);
	xstrfmtcat(o, "    UsageRaw/Norm/Efctv=%.2f/%.2f/%.2f\n", f.raw_usage,
		   f.norm_usage, f.eff_usage);
}

static void show_assoc(char **o, am_snap_t *s, const assoc_rec_t *a,
		       uint32_t lft, const char *cluster)
{
	uint64_t used_mins[ASSOC_TRES_CNT], run_mins[ASSOC_TRES_CNT];

	xstrfmtcat(o, "ClusterName=%s Account=%s UserName=", cluster, a->acct);
	if (a->user[0])
		xstrfmtcat(o, "%s(%u)", a->user, uid_num(a->uid));
	xstrfmtcat(o, " Partition=%s Priority=0 ID=%u\n", a->partition, a->id);
	show_shares(o, s, a);
	xstrcat(o, "    ParentAccount=");
	if (!a->user[0] && a->parent)
		xstrfmtcat(o, "%s(%u)", a->parent->acct, a->parent->id);
	xstrfmtcat(o, " Lft=%u DefAssoc=%s\n", lft,
		   is_def_assoc(s, a) ? "Yes" : "No");
	minutes_of(&a->tusage, used_mins, run_mins);
	xstrcat(o, "    ");
	lim_used(o, "GrpJobs", a->grp_jobs, a->usage.run_jobs);
	xstrcat(o, " GrpJobsAccrue=N(0)\n    ");
	lim_used(o, "GrpSubmitJobs", a->grp_submit, a->usage.submit_jobs);
	xstrcat(o, " GrpWall=");
	lim(o, a->grp_wall);
	xstrfmtcat(o, "(%.2f)\n    ", a->tusage.used_wall_secs / 60.0);
	tres_used(o, "GrpTRES", &a->grp_tres, a->usage.run_tres);
	xstrcat(o, "\n    ");
	tres_used(o, "GrpTRESMins", &a->grp_tres_mins, used_mins);
	xstrcat(o, "\n    ");
	tres_used(o, "GrpTRESRunMins", &a->grp_tres_run_mins, run_mins);
	xstrcat(o, "\n    ");
	max_used(o, "MaxJobs", a->eff_max_jobs, a->usage.run_jobs);
	xstrcat(o, " MaxJobsAccrue= ");
	max_used(o, "MaxSubmitJobs", a->eff_max_submit, a->usage.submit_jobs);
	xstrcat(o, " MaxWallPJ=");
	if (a->eff_max_wall != ASSOC_NO_LIMIT)
		xstrfmtcat(o, "%" PRIu64, a->eff_max_wall);
	xstrcat(o, "\n    ");
	tres_set(o, "MaxTRESPJ", &a->eff_max_tres);
	xstrcat(o, "\n    ");
	tres_set(o, "MaxTRESPN", &a->eff_max_tres_pn);
	xstrcat(o, "\n    ");
	tres_set(o, "MaxTRESMinsPJ", &a->eff_max_tres_mins);
	xstrcat(o, "\n    MinPrioThresh=\n");
}

static void show_assocs(char **o, am_snap_t *s,
			const assoc_mgr_info_request_msg_t *r)
{
	const slurm_conf_t *conf = ctld_conf();
	uint32_t *lft = xcalloc(s->assoc_cnt + 1, sizeof(*lft));
	assoc_rec_t **v = xcalloc(s->assoc_cnt + 1, sizeof(*v));
	size_t n = 0;
	uint32_t next = 1;

	for (size_t i = 0; i < s->assoc_cnt; i++)
		if (!s->assocs[i]->parent)
			next = lft_walk(s, s->assocs[i], next, lft, 0);
	for (size_t i = 0; i < s->assoc_cnt; i++) {
		assoc_rec_t *a = s->assocs[i];

		if (in_list(r->accounts, a->acct) &&
		    (!a->user[0] || in_list(r->users, a->user)))
			v[n++] = a;
	}
	if (!n)
		xstrcat(o, "\nNo associations currently cached in Slurm.\n\n");
	else
		xstrcat(o, "\nAssociation Records\n\n");
	qsort(v, n, sizeof(*v), by_id);
	for (size_t i = 0; i < n; i++) {
		uint32_t l = 0;

		for (size_t k = 0; k < s->assoc_cnt; k++)
			if (s->assocs[k] == v[i])
				l = lft[k];
		show_assoc(o, s, v[i], l, conf && conf->cluster_name
			   ? conf->cluster_name : "");
	}
	xfree(v);
	xfree(lft);
}

/* ---- QOS ---- */

/* Per user or account usage of one QOS, summed by key. */
typedef struct {
	uint32_t      uid;
	char         *name;
	assoc_usage_t u;
} qos_use_t;

typedef struct {
	qos_use_t *v;
	size_t     n;
} qos_uses_t;

static void add_use(uint32_t uid, const char *name, const assoc_usage_t *u,
		    void *arg)
{
	qos_uses_t *l = arg;
	qos_use_t *e = NULL;

	for (size_t i = 0; i < l->n && !e; i++)
		if (name ? l->v[i].name && !strcmp(l->v[i].name, name)
			 : !l->v[i].name && l->v[i].uid == uid)
			e = &l->v[i];
	if (!e) {
		l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
		e = &l->v[l->n++];
		*e = (qos_use_t){ .uid = uid, .name = xstrdup(name) };
	}
	e->u.submit_jobs += u->submit_jobs;
	e->u.run_jobs += u->run_jobs;
	for (int k = 0; k < ASSOC_TRES_CNT; k++)
		e->u.run_tres[k] += u->run_tres[k];
}

static int by_use_key(const void *x, const void *y)
{
	const qos_use_t *a = x, *b = y;

	if (a->name && b->name)
		return strcmp(a->name, b->name);
	return a->uid < b->uid ? -1 : a->uid > b->uid;
}

static void show_uses(char **o, qos_uses_t *l, const assoc_qos_t *q,
		      bool user)
{
	static const assoc_tres_t none = { { ASSOC_NO_LIMIT, ASSOC_NO_LIMIT,
					     ASSOC_NO_LIMIT } };
	const char *sfx = user ? "PU" : "PA";
	char key[32];

	xstrcat(o, user ? "    User Limits\n" : "    Account Limits\n");
	if (!l->n)
		xstrcat(o, user ? "        No Users\n" : "        No Accounts\n");
	qsort(l->v, l->n, sizeof(*l->v), by_use_key);
	for (size_t i = 0; i < l->n; i++) {
		const assoc_usage_t *u = &l->v[i].u;

		if (user)
			xstrfmtcat(o, "      %u\n        ", l->v[i].uid);
		else
			xstrfmtcat(o, "      %s\n        ", l->v[i].name);
		snprintf(key, sizeof(key), "MaxJobs%s", sfx);
		lim_used(o, key, user ? q->max_jobs_pu : ASSOC_NO_LIMIT,
			 u->run_jobs);
		xstrfmtcat(o, " MaxJobsAccrue%s=N(0) ", sfx);
		snprintf(key, sizeof(key), "MaxSubmitJobs%s", sfx);
		lim_used(o, key, user ? q->max_submit_pu : ASSOC_NO_LIMIT,
			 u->submit_jobs);
		xstrcat(o, "\n        ");
		snprintf(key, sizeof(key), "MaxTRES%s", sfx);
		tres_used(o, key, user ? &q->max_tres_pu : &none, u->run_tres);
		xstrcat(o, "\n");
		xfree(l->v[i].name);
	}
	xfree(l->v);
}

static void show_qos(char **o, am_snap_t *s, const assoc_qos_t *q)
{
	uint64_t used_mins[ASSOC_TRES_CNT], run_mins[ASSOC_TRES_CNT];
	qos_uses_t accts = { 0 }, users = { 0 };

	minutes_of(&q->tusage, used_mins, run_mins);
	xstrfmtcat(o, "QOS=%s(%u)\n    UsageRaw=%f\n    ", q->name, q->id,
		   q->tusage.used_cpu_secs);
	lim_used(o, "GrpJobs", q->grp_jobs, q->usage.run_jobs);
	xstrcat(o, " GrpJobsAccrue=N(0) ");
	lim_used(o, "GrpSubmitJobs", q->grp_submit, q->usage.submit_jobs);
	xstrcat(o, " GrpWall=");
	lim(o, q->grp_wall);
	xstrfmtcat(o, "(%.2f)\n    ", q->tusage.used_wall_secs / 60.0);
	tres_used(o, "GrpTRES", &q->grp_tres, q->usage.run_tres);
	xstrcat(o, "\n    ");
	tres_used(o, "GrpTRESMins", &q->grp_tres_mins, used_mins);
	xstrcat(o, "\n    ");
	tres_used(o, "GrpTRESRunMins", &q->grp_tres_run_mins, run_mins);
	xstrcat(o, "\n    MaxWallPJ=");
	if (q->max_wall != ASSOC_NO_LIMIT)
		xstrfmtcat(o, "%" PRIu64, q->max_wall);
	xstrcat(o, "\n    ");
	tres_set(o, "MaxTRESPJ", &q->max_tres);
	xstrcat(o, "\n    MaxTRESPN=\n    ");
	tres_set(o, "MaxTRESMinsPJ", &q->max_tres_mins);
	/* Slurm prints MinPrioThresh's value with a space after it */
	xstrfmtcat(o, "\n    MinPrioThresh= \n    MinTRESPJ=\n"
		   "    PreemptMode=OFF\n    Priority=%u\n", q->priority);
	am_qos_acct_usage(q, add_use, &accts);
	show_uses(o, &accts, q, false);
	am_qos_user_usage(s, q, add_use, &users);
	show_uses(o, &users, q, true);
}

static int by_qos_id(const void *x, const void *y)
{
	const assoc_qos_t *a = *(assoc_qos_t *const *)x;
	const assoc_qos_t *b = *(assoc_qos_t *const *)y;

	return a->id < b->id ? -1 : a->id > b->id;
}

static void show_qoses(char **o, am_snap_t *s,
		       const assoc_mgr_info_request_msg_t *r)
{
	assoc_qos_t **v = xcalloc(s->qos_cnt + 1, sizeof(*v));
	size_t n = 0;

	for (size_t i = 0; i < s->qos_cnt; i++)
		if (in_list(r->qos, s->qos[i]->name))
			v[n++] = s->qos[i];
	if (!n)
		xstrcat(o, "\nNo QOS currently cached in Slurm.\n\n");
	else
		xstrcat(o, "\nQOS Records\n\n");
	qsort(v, n, sizeof(*v), by_qos_id);
	for (size_t i = 0; i < n; i++)
		show_qos(o, s, v[i]);
	xfree(v);
}

/* ---- the RPC ---- */

void assoc_mgr_rpc_show(net_conn_t *c, slurm_msg_t *m)
{
	const assoc_mgr_info_request_msg_t *r = m->data;
	static const am_snap_t empty;
	am_snap_t *s = am_snap();
	uint16_t flags = r->flags ? r->flags
			 : ASSOC_MGR_INFO_ASSOC | ASSOC_MGR_INFO_USERS |
			   ASSOC_MGR_INFO_QOS;
	table_resp_msg_t resp = { 0 };
	char *o = xstrdup("Current Association Manager state\n");

	if (s)
		am_tusage_now(s, time(NULL));
	else
		s = (am_snap_t *)&empty;
	if (flags & ASSOC_MGR_INFO_USERS)
		show_users(&o, s, r);
	if (flags & ASSOC_MGR_INFO_ASSOC)
		show_assocs(&o, s, r);
	if (flags & ASSOC_MGR_INFO_QOS)
		show_qoses(&o, s, r);
	resp.msg = o;
	resp.cols = xcalloc(1, sizeof(char *));
	resp.cells = xcalloc(1, sizeof(char *));
	net_reply(c, RESPONSE_ASSOC_MGR_INFO, &resp);
	xfree(resp.cols);
	xfree(resp.cells);
	xfree(o);
}
