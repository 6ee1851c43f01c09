/* job_res.c — a job's resources in detail (job_res.h). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/debug_flags.h"
#include "common/features.h"
#include "common/gres.h"
#include "common/hostlist.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/controller.h"
#include "ctld/job_res.h"
#include "ctld/part_limits.h"
#include "ctld/select_plugin.h"
#include "ctld/topo_mgr.h"

uint8_t job_res_cr(void)
{
	return select_plugin_cr();
}

/* GPUs of one TRES string; -1 bad.  Other names are refused unless
 * others (the per-node --gres, where they are placed by gres_sel). */
static int _gpus_of(const char *spec, uint64_t *out, char **type,
		    bool others)
{
	return gres_specs_gpus(spec, others, UINT32_MAX, out, type, NULL,
			       NULL);
}

int job_res_parse_gpus(const char *per_node, const char *per_task,
		       const char *per_job, uint16_t *gpn, uint16_t *gpt,
		       uint32_t *gpj, char **type)
{
	uint64_t n, t, j;

	*type = NULL;
	if (_gpus_of(per_node, &n, type, true) < 0 ||
	    _gpus_of(per_task, &t, type, false) < 0 ||
	    _gpus_of(per_job, &j, type, false) < 0 || n > SELECT_MAX_GPUS ||
	    t > SELECT_MAX_GPUS || j > UINT16_MAX) {
		xfree(*type);
		return -1;
	}
	*gpn = (uint16_t) n;
	*gpt = (uint16_t) t;
	*gpj = (uint32_t) j;
	return 0;
}

bool job_res_gres_listed(const char *name)
{
	const char *types = conf_get(ctld_conf(), "GresTypes");
	char **w = xstrsplit(types ? types : "", ",", NULL);
	bool yes = false;

	for (size_t k = 0; w[k] && !yes; k++)
		yes = !strcmp(xstrtrim(w[k]), name);
	xstrarray_free(w);
	return yes;
}

bool job_res_gres_known(const char *spec)
{
	char err[128];
	size_t cnt = 0;
	gres_spec_t *v = gres_specs_parse(spec, &cnt, err, sizeof(err));
	bool ok = v != NULL;

	for (size_t i = 0; ok && i < cnt; i++)
		ok = job_res_gres_listed(v[i].name) &&
		     node_mgr_has_gres(v[i].name, v[i].type);
	gres_specs_free(v, cnt);
	return ok;
}

gres_spec_t *job_res_parse_other(const char *gres, size_t *cnt)
{
	char err[128];
	size_t n = 0, k = 0;
	gres_spec_t *v = gres_specs_parse(gres, &n, err, sizeof(err));

	*cnt = 0;
	if (!v)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(v[i].name, "gpu")) {
			xfree(v[i].name);
			xfree(v[i].type);
			continue;
		}
		v[k++] = v[i];
	}
	if (!k) {
		xfree(v);
		return NULL;
	}
	*cnt = k;
	return v;
}

int job_res_parse_per_gpu(const char *spec, uint64_t *v)
{
	return gres_parse_per_gpu(spec, v);
}

char *job_res_tres_spec(const char *spec)
{
	char **items;
	char *out = NULL;

	if (!spec || !*spec)
		return NULL;
	items = xstrsplit(spec, ",", NULL);
	for (size_t i = 0; items[i]; i++) {
		const char *s = items[i];

		if (!strncmp(s, "gres/", 5) || !strncmp(s, "gres:", 5))
			s += 5;
		xstrfmtcat(&out, "%sgres/%s", out ? "," : "", s);
	}
	xstrarray_free(items);
	return out;
}

bitmap_t *job_res_feature_nodes(const char *expr)
{
	size_t cnt = node_mgr_count();
	bitmap_t *b = bitmap_create(cnt ? cnt : 1);

	for (size_t i = 0; i < cnt; i++)
		if (features_match(expr, node_mgr_at(i)->info.features_act))
			bitmap_set(b, i);
	return b;
}

static void _parse_gpus(job_record_t *j)
{
	const job_info_t *i = &j->info;
	uint64_t v;

	if (j->gpus_parsed)
		return;
	xfree(j->gpu_type);
	if (job_res_parse_gpus(i->gres, i->tres_per_task, i->tres_per_job,
			       &j->gpus_per_node, &j->gpus_per_task,
			       &j->gpus_per_job, &j->gpu_type) < 0) {
		error("JobId=%u: unusable GRES request", i->job_id);
		j->gpus_per_node = j->gpus_per_task = 0;
		j->gpus_per_job = 0;
	}
	gres_specs_free(j->gres_req, j->gres_req_cnt);
	j->gres_req = job_res_parse_other(i->gres, &j->gres_req_cnt);
	if (job_res_parse_per_gpu(i->cpus_per_tres, &v) < 0 || v > UINT16_MAX)
		v = 0;
	j->cpus_per_gpu = (uint16_t) v;
	if (job_res_parse_per_gpu(i->mem_per_tres, &v) < 0)
		v = 0;
	j->mem_per_gpu = v;
	j->gpus_parsed = true;
	if (j->gpus_per_node || j->gpus_per_task || j->gpus_per_job)
		log_flag(GRES, "%s: JobId=%u gres/gpu%s%s per_node:%llu "
			 "per_task:%llu per_job:%llu cpus_per_gpu:%u "
			 "mem_per_gpu:%llu", __func__, i->job_id,
			 j->gpu_type ? ":" : "", j->gpu_type ? j->gpu_type : "",
			 (unsigned long long) j->gpus_per_node,
			 (unsigned long long) j->gpus_per_task,
			 (unsigned long long) j->gpus_per_job,
			 (unsigned) j->cpus_per_gpu,
			 (unsigned long long) j->mem_per_gpu);
}

/* --cpus-per-gpu / --mem-per-gpu: the CPUs and memory a node needs for
 * the GPUs the job takes there (the tasks get at least those CPUs; the
 * memory applies when no --mem/--mem-per-cpu was given). */
static void _per_gpu(const job_record_t *j, select_req_t *r)
{
	uint32_t tpn, gpn, cpt;

	if ((!j->cpus_per_gpu && !j->mem_per_gpu) ||
	    !(r->gpus_per_node || r->gpus_per_task || r->gpus_per_job))
		return;
	tpn = r->ntasks_per_node ? r->ntasks_per_node :
		(r->num_tasks + r->min_nodes - 1) / r->min_nodes;
	if (!tpn)
		tpn = 1;
	gpn = r->gpus_per_node + r->gpus_per_task * tpn +
	      (r->gpus_per_job + r->min_nodes - 1) / r->min_nodes;
	if (j->cpus_per_gpu) {
		cpt = (gpn * j->cpus_per_gpu + tpn - 1) / tpn;
		if (r->gpus_per_task && !r->gpus_per_node && !r->gpus_per_job)
			cpt = r->gpus_per_task * j->cpus_per_gpu;
		if (cpt > r->cpus_per_task)
			r->cpus_per_task = cpt > UINT16_MAX ? UINT16_MAX :
				(uint16_t) cpt;
	}
	if (j->mem_per_gpu && !r->mem_per_node && !r->mem_per_cpu)
		r->mem_per_node = (uint64_t) gpn * j->mem_per_gpu;
}

void job_res_fill_req(job_record_t *j, select_req_t *r)
{
	const job_info_t *i = &j->info;

	_parse_gpus(j);
	r->cr = job_res_cr();
	if (j->part && j->part->info.lln)
		r->cr |= SELECT_LLN;
	r->gpus_per_node = j->gpus_per_node;
	r->gpus_per_task = j->gpus_per_task;
	r->gpus_per_job = j->gpus_per_job;
	r->gpu_type = j->gpu_type;
	r->gres = j->gres_req;
	r->gres_cnt = j->gres_req_cnt;
	_per_gpu(j, r);
	r->contiguous = i->contiguous && i->contiguous != NO_VAL16;
	r->spread = i->bitflags & JOB_SPREAD;
	r->gres_bind = i->bitflags & JOB_GRES_ENFORCE_BIND;
	if (i->features && *i->features) {
		if (!j->feat_bitmap || j->feat_gen != node_mgr_generation()) {
			if (j->feat_bitmap)
				bitmap_destroy(j->feat_bitmap);
			j->feat_bitmap = job_res_feature_nodes(i->features);
			j->feat_gen = node_mgr_generation();
		}
		r->feature_nodes = j->feat_bitmap;
	}
}

/* ---- partitions ---- */

void job_res_attach_parts(job_record_t *j)
{
	const char *pn = j->info.partition ? j->info.partition : "";
	char **names;
	size_t n;

	xfree(j->part_list);
	if (!strchr(pn, ',')) {         /* one partition: no split (recovery
					 * attaches a million jobs) */
		part_record_t *p = *pn ? part_mgr_find(pn) : NULL;

		j->part_list = xcalloc(2, sizeof(*j->part_list));
		j->part_cnt = 0;
		if (p)
			j->part_list[j->part_cnt++] = p;
		j->part = p;
		return;
	}
	names = xstrsplit(pn, ",", NULL);
	n = xstrarray_len(names);
	j->part_cnt = 0;
	j->part_list = xcalloc(n + 1, sizeof(*j->part_list));
	for (size_t k = 0; k < n; k++) {
		part_record_t *p = part_mgr_find(names[k]);

		if (p)
			j->part_list[j->part_cnt++] = p;
	}
	j->part = j->part_cnt ? j->part_list[0] : NULL;
	xstrarray_free(names);
}

void job_res_set_part(job_record_t *j, part_record_t *part)
{
	j->part = part;
	xfree(j->part_list);
	j->part_list = xcalloc(2, sizeof(*j->part_list));
	j->part_list[0] = part;
	j->part_cnt = 1;
	if (xstrcmp(j->info.partition, part->info.name)) {
		xfree(j->info.partition);
		j->info.partition = xstrdup(part->info.name);
		job_mgr_touch(j);
	}
}

uint16_t job_res_share_max(const job_record_t *j, const part_record_t *part)
{
	const char *o = part ? part->info.oversubscribe : NULL;
	const char *colon = o ? strchr(o, ':') : NULL;
	unsigned long n;

	if (!colon || j->info.shared == JOB_SHARED_NONE ||
	    j->info.shared == JOB_SHARED_USER)
		return 1;
	if (!strncasecmp(o, "YES:", 4) && j->info.shared != JOB_SHARED_OK)
		return 1;
	if (strncasecmp(o, "YES:", 4) && strncasecmp(o, "FORCE:", 6))
		return 1;
	n = strtoul(colon + 1, NULL, 10);
	return n > 1 ? (uint16_t) (n > UINT16_MAX ? UINT16_MAX : n) : 1;
}

/* The view as a job sharing CPUs max ways sees it: CPUs only other
 * sharing jobs hold, fewer than max of them, are free (nodes of part
 * only; the others as they are).  *ids: the bitmaps to free. */
static select_node_t *_share_view(const select_node_t *view, size_t node_cnt,
				  const part_record_t *part, uint16_t max,
				  bitmap_t ***ids)
{
	select_node_t *v = xcalloc(node_cnt + 1, sizeof(*v));

	memcpy(v, view, node_cnt * sizeof(*v));
	*ids = xcalloc(node_cnt + 1, sizeof(**ids));
	for (long i = bitmap_first_set(part->node_bitmap);
	     i >= 0 && (size_t) i < node_cnt;
	     i = bitmap_next_set(part->node_bitmap, i + 1)) {
		if (!v[i].cpu_used)
			continue;
		(*ids)[i] = bitmap_create(bitmap_size(v[i].cpu_used));
		node_mgr_share_blocked(node_mgr_at(i), v[i].cpu_used, max,
				       (*ids)[i]);
		v[i].cpu_used = (*ids)[i];
		v[i].alloc_cpus = (uint16_t) bitmap_count((*ids)[i]);
	}
	return v;
}

static int _select_in(job_record_t *j, part_record_t *part,
		      const select_node_t *view, size_t node_cnt,
		      const bitmap_t *usable, bool ignore_alloc,
		      select_result_t *res)
{
	const bitmap_t *exc = job_mgr_exc_nodes(j);
	bitmap_t *avail = bitmap_copy(usable);
	uint16_t share = ignore_alloc ? 1 : job_res_share_max(j, part);
	select_node_t *sv = NULL;
	bitmap_t **sids = NULL;
	select_req_t req;
	uint32_t *max_cpus;
	int rc;

	bitmap_and(avail, part->node_bitmap);
	if (exc)
		bitmap_and_not(avail, exc);
	job_mgr_select_req(j, &req);
	req.exclusive = j->info.shared == JOB_SHARED_NONE ||
		!xstrcasecmp(part->info.oversubscribe, "EXCLUSIVE");
	/* ExclusiveUser, MaxCPUsPerNode */
	max_cpus = part_limits_apply(j, part, node_cnt, avail, ignore_alloc);
	req.max_cpus = max_cpus;
	if (share > 1)   /* OverSubscribe=FORCE:N, YES:N */
		view = sv = _share_view(view, node_cnt, part, share, &sids);
	rc = topo_mgr_job_test(j, view, node_cnt, avail, &req, ignore_alloc,
			       res);
	if (sv) {
		for (size_t i = 0; i < node_cnt; i++)
			if (sids[i])
				bitmap_destroy(sids[i]);
		xfree(sids);
		xfree(sv);
	}
	xfree(max_cpus);
	bitmap_destroy(avail);
	return rc;
}

int job_res_select(job_record_t *j, const select_node_t *view,
		   size_t node_cnt, const bitmap_t *usable, bool ignore_alloc,
		   select_result_t *res)
{
	part_record_t *first = j->part;
	int rc = SELECT_NEVER, r;

	if (!j->part_cnt)
		job_res_attach_parts(j);
	if (!j->part_cnt && first) {
		j->part = first;
		return _select_in(j, first, view, node_cnt, usable,
				  ignore_alloc, res);
	}
	for (uint32_t k = 0; k < j->part_cnt; k++) {
		part_record_t *p = j->part_list[k];

		j->part = p;
		if (j->part_cnt > 1 &&
		    job_mgr_part_reason_in(j, p, time(NULL)) != WAIT_NO_REASON)
			continue;
		r = _select_in(j, p, view, node_cnt, usable, ignore_alloc, res);
		log_flag(SELECT_TYPE, "%s: JobId=%u partition %s: %s%s", __func__,
			 j->info.job_id, p->info.name,
			 r == SELECT_OK ? "fits" : "does not fit",
			 ignore_alloc ? " (ignoring allocations)" : "");
		if (r == SELECT_OK) {
			if (j->part_cnt > 1 && !ignore_alloc)
				job_res_set_part(j, p);
			else if (ignore_alloc)
				j->part = first;
			return SELECT_OK;
		}
		if (r < rc)
			rc = r;
	}
	j->part = first;
	return rc;
}

/* ---- held resources ---- */

void job_res_start(job_record_t *j, const select_result_t *res)
{
	long i;
	uint32_t k = 0;

	if (j->part && (j->part_cnt > 1 ||
			xstrcmp(j->info.partition, j->part->info.name)))
		job_res_set_part(j, j->part);   /* -p a,b: the one it runs in */
	j->share = job_res_share_max(j, j->part) > 1;
	j->node_gpus = xcalloc(res->node_cnt + 1, sizeof(uint64_t));
	memcpy(j->node_gpus, res->gpus, res->node_cnt * sizeof(uint64_t));
	if (res->gres_alloc) {
		j->node_gres = xcalloc(res->node_cnt + 1, sizeof(char *));
		for (k = 0; k < res->node_cnt; k++)
			j->node_gres[k] = xstrdup(res->gres_alloc[k]);
	}
	if (res->cpu_ids) {
		j->node_cpu_ids = xcalloc(res->node_cnt + 1, sizeof(bitmap_t *));
		for (k = 0; k < res->node_cnt; k++)
			if (res->cpu_ids[k])
				j->node_cpu_ids[k] = bitmap_copy(res->cpu_ids[k]);
	}
	k = 0;
	for (i = bitmap_first_set(j->node_bitmap); i >= 0;
	     i = bitmap_next_set(j->node_bitmap, i + 1), k++) {
		job_res_hold_node(j, k, node_mgr_at(i), true);
		if (res->gpus[k])
			log_flag(GRES, "%s: JobId=%u node %s gres/gpu "
				 "IDX:%#llx", __func__, j->info.job_id,
				 node_mgr_at(i)->info.name,
				 (unsigned long long) res->gpus[k]);
		if (j->node_gres && j->node_gres[k])
			log_flag(GRES, "%s: JobId=%u node %s gres %s",
				 __func__, j->info.job_id,
				 node_mgr_at(i)->info.name, j->node_gres[k]);
	}
	job_res_describe(j);
}

void job_res_hold_node(job_record_t *j, uint32_t k, node_record_t *n, bool on)
{
	if (k >= j->alloc_cnt)
		return;
	node_mgr_hold(n, j->node_cpu_ids ? j->node_cpu_ids[k] : NULL,
		      j->node_gpus ? j->node_gpus[k] : 0,
		      j->node_gres ? j->node_gres[k] : NULL, on);
	if (j->share)
		node_mgr_share(n, j->node_cpu_ids ? j->node_cpu_ids[k] : NULL,
			       on);
}

static char *_gpu_str(const job_record_t *j, uint32_t cnt)
{
	return xstrdup_printf("gpu%s%s:%u", j->gpu_type ? ":" : "",
			      j->gpu_type ? j->gpu_type : "", cnt);
}

/* "Nodes=n[1-2] CPU_IDs=0-1 Mem=100 GRES=gpu:1(IDX:0)" per run of nodes
 * with the same layout. */
static char *_node_line(const job_record_t *j, uint32_t k,
			const node_record_t *n)
{
	char *cpus = j->node_cpu_ids && j->node_cpu_ids[k] ?
		bitmap_to_str(j->node_cpu_ids[k]) : NULL;
	uint64_t g = j->node_gpus ? j->node_gpus[k] : 0;
	char *line, *gres = gres_gpu_detail(n->gres, g, j->gpu_type);
	char *other = j->node_gres ? gres_alloc_detail(j->node_gres[k]) :
		NULL;

	if (other) {
		xstrfmtcat(&gres, "%s%s", gres ? "," : "", other);
		xfree(other);
	}
	if (cpus)
		line = xstrdup_printf("CPU_IDs=%s Mem=%llu GRES=%s", cpus,
				      (unsigned long long) j->node_mem[k],
				      gres ? gres : "");
	else
		line = xstrdup_printf("CPUs=%u Mem=%llu GRES=%s", j->node_cpus[k],
				      (unsigned long long) j->node_mem[k],
				      gres ? gres : "");
	xfree(cpus);
	xfree(gres);
	return line;
}

static void _flush_run(char **out, hostlist_t *hl, const char *line)
{
	char *names = hostlist_ranged(hl);

	xstrfmtcat(out, "%s     Nodes=%s %s", *out ? "\n" : "", names, line);
	xfree(names);
}

static char *_detail(const job_record_t *j)
{
	hostlist_t *hl = NULL;
	char *out = NULL, *prev = NULL;
	long i;
	uint32_t k = 0;

	for (i = bitmap_first_set(j->node_bitmap); i >= 0 && k < j->alloc_cnt;
	     i = bitmap_next_set(j->node_bitmap, i + 1), k++) {
		char *line = _node_line(j, k, node_mgr_at(i));

		if (prev && strcmp(prev, line)) {
			_flush_run(&out, hl, prev);
			hostlist_destroy(hl);
			hl = NULL;
		}
		if (!hl)
			hl = hostlist_create();
		hostlist_push_host(hl, node_mgr_at(i)->info.name);
		xfree(prev);
		prev = line;
	}
	if (hl) {
		_flush_run(&out, hl, prev);
		hostlist_destroy(hl);
	}
	xfree(prev);
	return out;
}

/* Is gres/<key> in AccountingStorageTRES (typed GPUs and other GRES are
 * recorded only when listed there, as Slurm does)? */
bool job_res_tres_tracked(const char *key)
{
	const char *tres = conf_get(ctld_conf(), "AccountingStorageTRES");
	char **w = xstrsplit(tres ? tres : "", ",", NULL);
	bool yes = false;

	for (size_t k = 0; w[k] && !yes; k++)
		yes = !strncasecmp(w[k], "gres/", 5) &&
			!strcmp(w[k] + 5, key);
	xstrarray_free(w);
	return yes;
}

/* The GRES beyond gres/gpu in the job's TRES and in its GRES= list. */
static void _describe_other(job_record_t *j)
{
	job_info_t *i = &j->info;
	gres_tally_t t = { .cnt = 0 };
	long n;
	uint32_t k = 0;

	for (n = bitmap_first_set(j->node_bitmap); n >= 0 && k < j->alloc_cnt;
	     n = bitmap_next_set(j->node_bitmap, n + 1), k++)
		gres_tally_node(&t, node_mgr_at(n)->gres,
				j->node_gpus ? j->node_gpus[k] : 0,
				j->node_gres ? j->node_gres[k] : NULL);
	for (size_t x = 0; x < t.cnt; x++) {
		if (i->tres_alloc_str && job_res_tres_tracked(t.key[x]))
			xstrfmtcat(&i->tres_alloc_str, ",gres/%s=%llu",
				   t.key[x], (unsigned long long) t.n[x]);
		if (strncmp(t.key[x], "gpu:", 4) && !strchr(t.key[x], ':'))
			xstrfmtcat(&i->gres_alloc, "%s%s:%llu",
				   i->gres_alloc ? "," : "", t.key[x],
				   (unsigned long long) t.n[x]);
	}
}

void job_res_describe(job_record_t *j)
{
	job_info_t *i = &j->info;
	uint32_t gpus = 0;

	_parse_gpus(j);
	for (uint32_t k = 0; j->node_gpus && k < j->alloc_cnt; k++)
		gpus += (uint32_t) __builtin_popcountll(j->node_gpus[k]);
	if (gpus && i->tres_alloc_str)
		xstrfmtcat(&i->tres_alloc_str, ",gres/gpu=%u", gpus);
	xfree(i->gres_alloc);
	if (gpus)
		i->gres_alloc = _gpu_str(j, gpus);
	if (j->node_bitmap)
		_describe_other(j);
	xfree(i->alloc_detail);
	if (j->node_bitmap)
		i->alloc_detail = _detail(j);
	job_mgr_touch(j);
}

uint32_t job_res_gpus_requested(job_record_t *j)
{
	const job_info_t *i = &j->info;

	_parse_gpus(j);
	return j->gpus_per_node * (i->num_nodes ? i->num_nodes : 1) +
	       j->gpus_per_task * (i->num_tasks ? i->num_tasks : 1) +
	       j->gpus_per_job;
}

void job_res_free(job_record_t *j)
{
	for (uint32_t k = 0; j->node_cpu_ids && k < j->alloc_cnt; k++)
		if (j->node_cpu_ids[k])
			bitmap_destroy(j->node_cpu_ids[k]);
	xfree(j->node_cpu_ids);
	xfree(j->node_gpus);
	for (uint32_t k = 0; j->node_gres && k < j->alloc_cnt; k++)
		xfree(j->node_gres[k]);
	xfree(j->node_gres);
	gres_specs_free(j->gres_req, j->gres_req_cnt);
	j->gres_req = NULL;
	j->gres_req_cnt = 0;
	xfree(j->part_list);
	j->part_cnt = 0;
	if (j->feat_bitmap)
		bitmap_destroy(j->feat_bitmap);
	j->feat_bitmap = NULL;
	xfree(j->gpu_type);
	j->gpus_parsed = false;
}

/* ---- snapshot ---- */

void job_res_saved_node(const job_record_t *j, uint32_t k, char **ids,
			uint64_t *gpus, char **gres)
{
	*gres = j->node_gres && j->node_gres[k] ? xstrdup(j->node_gres[k]) :
		NULL;
	*ids = j->node_cpu_ids && j->node_cpu_ids[k] ?
		bitmap_to_str(j->node_cpu_ids[k]) : NULL;
	*gpus = j->node_gpus ? j->node_gpus[k] : 0;
}

void job_res_restore_node(job_record_t *j, uint32_t cnt, uint32_t k,
			  const node_record_t *n, const char *ids,
			  uint64_t gpus, const char *gres)
{
	if (!j->node_gpus)
		j->node_gpus = xcalloc(cnt + 1, sizeof(uint64_t));
	if (!n || k >= cnt)
		return;
	j->node_gpus[k] = gpus;
	if (gres && *gres) {
		if (!j->node_gres)
			j->node_gres = xcalloc(cnt + 1, sizeof(char *));
		xfree(j->node_gres[k]);
		j->node_gres[k] = xstrdup(gres);
	}
	if (ids && *ids) {
		if (!j->node_cpu_ids)
			j->node_cpu_ids = xcalloc(cnt + 1, sizeof(bitmap_t *));
		if (j->node_cpu_ids[k])
			bitmap_destroy(j->node_cpu_ids[k]);
		j->node_cpu_ids[k] = bitmap_from_str(ids,
						     bitmap_size(n->cpu_used));
	}
}
