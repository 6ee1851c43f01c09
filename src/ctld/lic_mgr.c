/* lic_mgr.c — the controller's licenses (lic_mgr.h). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/license.h"
#include "common/debug_flags.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/assoc_mgr.h"
#include "ctld/job_mgr.h"
#include "ctld/lic_mgr.h"
#include "slurm/slurm_errno.h"

#define LIC_NONE UINT32_MAX      /* a name the table does not have */

typedef struct {
	char     *name;
	uint32_t  total;
	uint32_t  used;
	bool      tres;              /* AccountingStorageTRES=license/name */
	bool      remote;            /* from accounting (sacctmgr resource) */
} lic_t;

/* A job's -L against the current table. */
struct job_lic {
	uint64_t  gen;               /* table it was resolved against */
	char     *spec;              /* the text it was resolved from */
	size_t    cnt;
	bool      any;
	uint32_t *idx;               /* [cnt], LIC_NONE if unknown now */
	uint32_t *count;             /* [cnt] */
	size_t    prefer;            /* item of an '|' to take, if free */
};

static struct {
	lic_t     *lics;
	size_t     cnt;
	uint64_t   gen;
	time_t     last_update;
	lic_list_t conf;             /* slurm.conf Licenses= */
	char     **tres;             /* AccountingStorageTRES words */
	lic_list_t remote;           /* name@server: this cluster's share */
} lm;

static uint32_t _lm_find(const char *name)
{
	for (size_t i = 0; i < lm.cnt; i++)
		if (!strcmp(lm.lics[i].name, name))
			return (uint32_t) i;
	return LIC_NONE;
}

static void _lm_free_table(lic_t *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		xfree(t[i].name);
	xfree(t);
}

/* What running jobs hold of name (a license new to the table: a remote
 * one pulled after the jobs were recovered). */
static uint32_t _lm_held(const char *name)
{
	uint32_t cnt = 0, n = 0;
	job_record_t *const *all = job_mgr_all(&cnt);

	for (uint32_t i = 0; i < cnt; i++) {
		lic_list_t l;
		const lic_item_t *it;
		char e[128];

		if (!all[i] || !all[i]->lic_held ||
		    lic_req_parse(all[i]->info.licenses_alloc, &l, e,
				  sizeof(e)) < 0)
			continue;
		if ((it = lic_list_find(&l, name)))
			n += it->count;
		lic_list_free(&l);
	}
	return n;
}

static void _lm_add(lic_t *t, const lic_item_t *it, bool remote)
{
	uint32_t old = _lm_find(it->name);

	t->name = xstrdup(it->name);
	t->total = it->count;
	t->remote = remote;
	t->used = old == LIC_NONE ? _lm_held(it->name) : lm.lics[old].used;
	for (size_t w = 0; lm.tres && lm.tres[w]; w++)
		if (!strncasecmp(lm.tres[w], "license/", 8) &&
		    !strcmp(lm.tres[w] + 8, t->name))
			t->tres = true;
	if (t->used > t->total)
		info("license %s: %u in use, more than its %stotal %u",
		     t->name, t->used, remote ? "remote " : "new ", t->total);
}

/* The table from the config's licenses and the remote ones (a name in
 * both: the config's), keeping what is in use by name. */
static void _lm_rebuild(void)
{
	lic_t *t = xcalloc(lm.conf.cnt + lm.remote.cnt + 1, sizeof(*t));
	size_t n = 0;

	for (size_t i = 0; i < lm.conf.cnt; i++)
		_lm_add(&t[n++], &lm.conf.items[i], false);
	for (size_t i = 0; i < lm.remote.cnt; i++)
		if (!lic_list_find(&lm.conf, lm.remote.items[i].name))
			_lm_add(&t[n++], &lm.remote.items[i], true);
	for (size_t i = 0; i < lm.cnt; i++) {
		bool kept = false;

		for (size_t k = 0; k < n && !kept; k++)
			kept = !strcmp(t[k].name, lm.lics[i].name);
		if (!kept && lm.lics[i].used)
			error("license %s removed with %u in use",
			      lm.lics[i].name, lm.lics[i].used);
	}
	_lm_free_table(lm.lics, lm.cnt);
	lm.lics = t;
	lm.cnt = n;
	lm.gen++;
	lm.last_update = time(NULL);
}

int lic_mgr_init(const slurm_conf_t *c, char *err, size_t errlen)
{
	const char *tres = conf_get_set(c, "AccountingStorageTRES");
	lic_list_t l;
	char e[128] = "";

	if (lic_conf_parse(conf_get_set(c, "Licenses"), &l, e, sizeof(e)) < 0) {
		snprintf(err, errlen, "Licenses: %s", e);
		return -1;
	}
	lic_list_free(&lm.conf);
	lm.conf = l;
	xstrarray_free(lm.tres);
	lm.tres = xstrsplit(tres ? tres : "", ",", NULL);
	_lm_rebuild();
	return 0;
}

void lic_mgr_remote_reloaded(void *arg)
{
	size_t cnt = 0;
	const assoc_remote_lic_t *r = assoc_mgr_remote_licenses(&cnt);
	bool same = cnt == lm.remote.cnt;
	lic_list_t l = { .items = xcalloc(cnt + 1, sizeof(lic_item_t)),
			 .cnt = cnt };

	(void) arg;
	for (size_t i = 0; i < cnt; i++) {
		l.items[i].name = xstrdup(r[i].name);
		l.items[i].count = r[i].count;
		same = same && !strcmp(r[i].name, lm.remote.items[i].name) &&
		       r[i].count == lm.remote.items[i].count;
	}
	if (same) {
		lic_list_free(&l);
		return;
	}
	lic_list_free(&lm.remote);
	lm.remote = l;
	_lm_rebuild();
	log_flag(LICENSE, "%s: %zu remote licenses", __func__, cnt);
}

void lic_mgr_fini(void)
{
	_lm_free_table(lm.lics, lm.cnt);
	lic_list_free(&lm.conf);
	lic_list_free(&lm.remote);
	xstrarray_free(lm.tres);
	memset(&lm, 0, sizeof(lm));
}

size_t lic_mgr_count(void)
{
	return lm.cnt;
}

int lic_mgr_validate(const char *spec, char **norm)
{
	lic_list_t l;
	char e[128];

	*norm = NULL;
	if (lic_req_parse(spec, &l, e, sizeof(e)) < 0) {
		debug("license specification \"%s\": %s", spec, e);
		return ESLURM_INVALID_LICENSES;
	}
	for (size_t i = 0; i < l.cnt; i++) {
		uint32_t k = _lm_find(l.items[i].name);

		if (k == LIC_NONE || l.items[i].count > lm.lics[k].total) {
			debug("license %s:%u: %s", l.items[i].name,
			      l.items[i].count, k == LIC_NONE ?
			      "no such license" : "more than configured");
			lic_list_free(&l);
			return ESLURM_INVALID_LICENSES;
		}
	}
	*norm = lic_list_string(&l);
	lic_list_free(&l);
	return 0;
}

void lic_mgr_job_forget(job_record_t *j)
{
	if (!j->lic)
		return;
	xfree(j->lic->spec);
	xfree(j->lic->idx);
	xfree(j->lic->count);
	xfree(j->lic);
}

/* j's request resolved against the table now; NULL if it has none. */
static struct job_lic *_lm_req(job_record_t *j)
{
	const char *spec = j->info.licenses;
	struct job_lic *r = j->lic;
	lic_list_t l;
	char e[128];

	if (!spec || !*spec) {
		lic_mgr_job_forget(j);
		return NULL;
	}
	if (r && r->gen == lm.gen && !strcmp(r->spec, spec))
		return r;
	lic_mgr_job_forget(j);
	r = j->lic = xmalloc(sizeof(*r));
	r->gen = lm.gen;
	r->spec = xstrdup(spec);
	if (lic_req_parse(spec, &l, e, sizeof(e)) < 0) {
		/* saved by an older config: never satisfiable */
		r->cnt = 1;
		r->idx = xcalloc(1, sizeof(uint32_t));
		r->count = xcalloc(1, sizeof(uint32_t));
		r->idx[0] = LIC_NONE;
		return r;
	}
	r->cnt = l.cnt;
	r->any = l.any;
	r->idx = xcalloc(l.cnt + 1, sizeof(uint32_t));
	r->count = xcalloc(l.cnt + 1, sizeof(uint32_t));
	for (size_t i = 0; i < l.cnt; i++) {
		r->idx[i] = _lm_find(l.items[i].name);
		r->count[i] = l.items[i].count;
	}
	lic_list_free(&l);
	return r;
}

static bool _lm_free(uint32_t k, uint32_t count)
{
	return k != LIC_NONE && lm.lics[k].used <= lm.lics[k].total &&
	       lm.lics[k].total - lm.lics[k].used >= count;
}

/* The item of an '|' request to take now (its preferred one first), or
 * -1; for ',' 0 if every item is free, else -1. */
static long _lm_pick(const struct job_lic *r)
{
	if (!r->any) {
		for (size_t i = 0; i < r->cnt; i++)
			if (!_lm_free(r->idx[i], r->count[i]))
				return -1;
		return 0;
	}
	if (r->prefer < r->cnt && _lm_free(r->idx[r->prefer],
					r->count[r->prefer]))
		return (long) r->prefer;
	for (size_t i = 0; i < r->cnt; i++)
		if (_lm_free(r->idx[i], r->count[i]))
			return (long) i;
	return -1;
}

bool lic_mgr_job_test(job_record_t *j)
{
	struct job_lic *r = _lm_req(j);

	if (!r || _lm_pick(r) >= 0)
		return true;
	log_flag(LICENSE, "%s: JobId=%u waits for licenses %s", __func__,
		 j->info.job_id, j->info.licenses);
	return false;
}

/* Count held: "a:2,b:1" as licenses_alloc says, +1 or -1. */
static void _lm_apply(const char *held, int sign)
{
	lic_list_t l;
	char e[128];

	if (!held || !*held || lic_req_parse(held, &l, e, sizeof(e)) < 0)
		return;
	for (size_t i = 0; i < l.cnt; i++) {
		uint32_t k = _lm_find(l.items[i].name);

		if (k == LIC_NONE)
			continue;          /* removed from the config */
		if (sign > 0)
			lm.lics[k].used += l.items[i].count;
		else if (lm.lics[k].used >= l.items[i].count)
			lm.lics[k].used -= l.items[i].count;
		else
			lm.lics[k].used = 0;
	}
	lic_list_free(&l);
	lm.last_update = time(NULL);
}

void lic_mgr_job_get(job_record_t *j)
{
	struct job_lic *r = _lm_req(j);
	long pick;

	if (!r || j->lic_held)
		return;
	pick = _lm_pick(r);
	if (pick < 0) {
		/* the scheduler tested first: only a reconfigure between */
		error("JobId=%u started without its licenses %s",
		      j->info.job_id, j->info.licenses);
		return;
	}
	xfree(j->info.licenses_alloc);
	for (size_t i = 0; i < r->cnt; i++) {
		if (r->any && i != (size_t) pick)
			continue;
		xstrfmtcat(&j->info.licenses_alloc, "%s%s:%u",
			   j->info.licenses_alloc ? "," : "",
			   lm.lics[r->idx[i]].name, r->count[i]);
	}
	_lm_apply(j->info.licenses_alloc, 1);
	j->lic_held = true;
	r->prefer = 0;
	log_flag(LICENSE, "%s: JobId=%u took licenses %s (asked %s)",
		 __func__, j->info.job_id, j->info.licenses_alloc,
		 j->info.licenses);
}

void lic_mgr_job_return(job_record_t *j)
{
	if (!j->lic_held)
		return;
	_lm_apply(j->info.licenses_alloc, -1);
	j->lic_held = false;
	log_flag(LICENSE, "%s: JobId=%u returned licenses %s", __func__,
		 j->info.job_id, j->info.licenses_alloc);
}

void lic_mgr_job_recover(job_record_t *j)
{
	if (j->lic_held || !j->info.licenses_alloc)
		return;
	_lm_apply(j->info.licenses_alloc, 1);
	j->lic_held = true;
}

void lic_mgr_job_prefer(job_record_t *j, size_t choice)
{
	struct job_lic *r = _lm_req(j);

	if (r)
		r->prefer = choice;
}

bf_lic_t *lic_mgr_bf_create(time_t now, uint32_t resolution, uint32_t window)
{
	uint32_t *free_now = xcalloc(lm.cnt + 1, sizeof(uint32_t));
	bf_lic_t *m;

	for (size_t i = 0; i < lm.cnt; i++)
		free_now[i] = lm.lics[i].used >= lm.lics[i].total ? 0 :
			lm.lics[i].total - lm.lics[i].used;
	m = bf_lic_create(free_now, lm.cnt, now, resolution, window);
	xfree(free_now);
	for (job_record_t *j = job_mgr_running_first(); j; j = j->run_next) {
		time_t end = j->info.end_time;
		lic_list_t l;
		char e[128];

		if (!j->lic_held || !end)
			continue;          /* no time limit: held for ever */
		if (lic_req_parse(j->info.licenses_alloc, &l, e,
				  sizeof(e)) < 0)
			continue;
		for (size_t i = 0; i < l.cnt; i++) {
			uint32_t k = _lm_find(l.items[i].name);

			if (k != LIC_NONE)
				bf_lic_release(m, k, end, l.items[i].count);
		}
		lic_list_free(&l);
	}
	return m;
}

bool lic_mgr_bf_req(job_record_t *j, bf_lic_req_t *out)
{
	struct job_lic *r = _lm_req(j);

	if (!r)
		return false;
	out->lic = r->idx;
	out->count = r->count;
	out->cnt = r->cnt;
	out->any = r->any;
	return true;
}

void lic_mgr_tres(const job_record_t *j, char **tres)
{
	lic_list_t l;
	char e[128];

	if (!j->lic_held || lic_req_parse(j->info.licenses_alloc, &l, e,
					  sizeof(e)) < 0)
		return;
	for (size_t i = 0; i < l.cnt; i++) {
		uint32_t k = _lm_find(l.items[i].name);

		if (k != LIC_NONE && lm.lics[k].tres)
			xstrfmtcat(tres, ",license/%s=%u", l.items[i].name,
				   l.items[i].count);
	}
	lic_list_free(&l);
}

void lic_mgr_cluster_tres(char **tres)
{
	for (size_t i = 0; i < lm.cnt; i++)
		if (lm.lics[i].tres)
			xstrfmtcat(tres, ",license/%s=%u", lm.lics[i].name,
				   lm.lics[i].total);
}

void lic_mgr_rpc_info(net_conn_t *c, slurm_msg_t *m)
{
	info_request_msg_t *req = m->data;
	license_info_msg_t resp = { .last_update = lm.last_update };

	resp.lics = xcalloc(lm.cnt + 1, sizeof(*resp.lics));
	for (size_t i = 0; i < lm.cnt; i++) {
		license_info_t *o;

		if (req && req->name && *req->name &&
		    strcmp(req->name, lm.lics[i].name))
			continue;
		o = &resp.lics[resp.cnt++];
		o->name = lm.lics[i].name;      /* not freed: packed only */
		o->total = lm.lics[i].total;
		o->in_use = lm.lics[i].used;
		o->remote = lm.lics[i].remote;
	}
	net_reply(c, RESPONSE_LICENSE_INFO, &resp);
	xfree(resp.lics);
}
