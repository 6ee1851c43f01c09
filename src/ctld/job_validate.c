/* job_validate.c — see job_validate.h. */
#include "ctld/job_validate.h"

#include <errno.h>
#include <grp.h>
#include <inttypes.h>
#include <pwd.h>
#include <string.h>

#include "common/conf_params.h"
#include "common/features.h"
#include "common/log.h"
#include "common/oci_conf.h"
#include "common/parse_util.h"
#include "common/profile.h"
#include "common/uid_cache.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/assoc_mgr.h"
#include "ctld/controller.h"
#include "ctld/job_array.h"
#include "ctld/job_mgr.h"
#include "ctld/job_res.h"
#include "ctld/lic_mgr.h"
#include "ctld/resv_mgr.h"
#include "ctld/select_plugin.h"
#include "ctld/topo_mgr.h"
#include "slurm/slurm_errno.h"

/* The tasks a job's CPUs are counted for: with -O one per node, -c
 * CPUs each, as Slurm; its tasks share them. */
uint32_t job_validate_alloc_tasks(const submit_t *s)
{
	return s->overcommit ? s->min_nodes : s->num_tasks;
}

static bool _enforce(void)
{
	const char *e = ctld_conf()->enforce_part_limits;

	return e && xstrcasecmp(e, "NO");
}

static bool _in_list(const char *list, const char *name)
{
	char **v;
	bool found = false;

	if (!list || !name)
		return false;
	v = xstrsplit(list, ",", NULL);
	for (size_t i = 0; v[i] && !found; i++)
		found = !strcasecmp(v[i], name);
	xstrarray_free(v);
	return found;
}

/* Is one of uid's groups in AllowGroups? */
static bool _group_ok(const part_info_t *p, uid_t uid, gid_t gid)
{
	struct passwd pw, *res = NULL;
	char buf[4096];
	gid_t groups[256];
	int n = 256;

	if (!p->allow_groups || uid == 0 || uid == ctld_conf()->slurm_user_id)
		return true;
	if (getpwuid_r(uid, &pw, buf, sizeof(buf), &res) || !res)
		return false;
	if (getgrouplist(res->pw_name, gid, groups, &n) < 0)
		n = 256;
	for (int i = 0; i < n; i++) {
		struct group gr, *g = NULL;
		char gbuf[4096];

		if (!getgrgid_r(groups[i], &gr, gbuf, sizeof(gbuf), &g) && g &&
		    _in_list(p->allow_groups, g->gr_name))
			return true;
	}
	return false;
}

/* May this job use partition p at all?  0 or a Slurm error. */
static int _part_access(const part_info_t *p, const job_desc_t *d,
			uid_t uid, gid_t gid)
{
	if (p->root_only && uid != 0)
		return ESLURM_ACCESS_DENIED;
	if (!_group_ok(p, uid, gid))
		return ESLURM_JOB_MISSING_REQUIRED_PARTITION_GROUP;
	if (p->allow_accounts && !_in_list(p->allow_accounts, d->account))
		return ESLURM_INVALID_ACCOUNT;
	if (p->deny_accounts && _in_list(p->deny_accounts, d->account))
		return ESLURM_INVALID_ACCOUNT;
	return 0;
}

/* "-p a,b": every name must exist; the job keeps the ones it may use
 * (taking submissions, access allowed) and runs in whichever can start it
 * first. */
static int _pick_partition(const job_desc_t *d, submit_t *s)
{
	char **names;
	int rc = ESLURM_PARTITION_NOT_AVAIL, arc = 0;

	if (!d->partition || !*d->partition) {
		s->part = part_mgr_default();
		if (!s->part)
			return ESLURM_DEFAULT_PARTITION_NOT_SET;
		if ((rc = _part_access(&s->part->info, d, s->uid, s->gid)))
			return rc;
		s->parts = xstrdup(s->part->info.name);
		return 0;
	}
	names = xstrsplit(d->partition, ",", NULL);
	if (!names[0])
		rc = ESLURM_INVALID_PARTITION_NAME;
	for (size_t i = 0; names[i]; i++) {
		part_record_t *p = part_mgr_find(names[i]);

		if (!p) {
			s->msg = xstrdup_printf("invalid partition specified: %s",
						names[i]);
			s->part = NULL;
			xfree(s->parts);
			rc = ESLURM_INVALID_PARTITION_NAME;
			break;
		}
		if (p->info.state_up == PARTITION_DRAIN ||
		    p->info.state_up == PARTITION_INACTIVE ||
		    _in_list(s->parts, p->info.name))
			continue;
		if ((arc = _part_access(&p->info, d, s->uid, s->gid))) {
			if (rc == ESLURM_PARTITION_NOT_AVAIL)
				rc = arc;
			continue;
		}
		if (!s->part)
			s->part = p;
		xstrfmtcat(&s->parts, "%s%s", s->parts ? "," : "",
			   p->info.name);
		rc = 0;
	}
	xstrarray_free(names);
	return rc;
}

static int _sizes(const job_desc_t *d, submit_t *s)
{
	s->min_nodes = d->min_nodes == NO_VAL32 ? 1 : d->min_nodes;
	if (!s->min_nodes)
		s->min_nodes = 1;
	if (d->max_nodes != NO_VAL32 && d->max_nodes)
		s->max_nodes = d->max_nodes;
	else if (d->min_nodes != NO_VAL32)
		s->max_nodes = s->min_nodes;
	if (s->max_nodes && s->max_nodes < s->min_nodes)
		return ESLURM_INVALID_NODE_COUNT;
	s->cpt = (d->cpus_per_task == NO_VAL16 || !d->cpus_per_task) ?
		1 : d->cpus_per_task;
	s->overcommit = d->bitflags & JOB_OVERCOMMIT;
	s->ntpn = (d->ntasks_per_node == NO_VAL16) ? 0 : d->ntasks_per_node;
	if (d->num_tasks == 0)
		return ESLURM_BAD_TASK_COUNT;
	if (d->num_tasks != NO_VAL32)
		s->num_tasks = d->num_tasks;
	else if (s->ntpn)
		s->num_tasks = s->min_nodes * s->ntpn;
	else
		s->num_tasks = s->min_nodes;
	if (d->min_cpus != NO_VAL32 && d->min_cpus > s->num_tasks * s->cpt &&
	    d->num_tasks == NO_VAL32)
		s->num_tasks = (d->min_cpus + s->cpt - 1) / s->cpt;
	return 0;
}

static void _memory(const job_desc_t *d, submit_t *s)
{
	const part_info_t *p = &s->part->info;
	const slurm_conf_t *c = ctld_conf();

	if (d->pn_min_memory != NO_VAL64) {
		s->mem = d->pn_min_memory;
		s->mem_per_cpu = d->mem_per_cpu;
	} else if (p->def_mem_per_cpu || (!p->def_mem_per_node && c->def_mem_per_cpu)) {
		s->mem = p->def_mem_per_cpu ? p->def_mem_per_cpu : c->def_mem_per_cpu;
		s->mem_per_cpu = true;
	} else if (p->def_mem_per_node || c->def_mem_per_node) {
		s->mem = p->def_mem_per_node ? p->def_mem_per_node :
			c->def_mem_per_node;
	}
}

static int _check_nodes(const job_desc_t *d, submit_t *s)
{
	bitmap_t *b;

	if (d->req_nodes && *d->req_nodes) {
		b = node_mgr_bitmap(d->req_nodes, NULL);
		if (!b)
			return ESLURM_INVALID_NODE_NAME;
		if (!bitmap_is_subset(b, s->part->node_bitmap)) {
			bitmap_destroy(b);
			return ESLURM_REQUESTED_NODES_NOT_IN_PARTITION;
		}
		if (bitmap_count(b) > s->min_nodes && !s->max_nodes)
			s->min_nodes = bitmap_count(b);
		bitmap_destroy(b);
	}
	if (d->exc_nodes && *d->exc_nodes) {
		b = node_mgr_bitmap(d->exc_nodes, NULL);
		if (!b)
			return ESLURM_INVALID_NODE_NAME;
		bitmap_destroy(b);
	}
	return 0;
}

static void _select_req_from(const job_desc_t *d, const submit_t *s,
			     const part_record_t *part, select_req_t *r)
{
	memset(r, 0, sizeof(*r));
	r->min_nodes = s->min_nodes;
	r->max_nodes = s->max_nodes ? s->max_nodes : UINT32_MAX;
	r->num_tasks = job_validate_alloc_tasks(s);
	r->cpus_per_task = s->cpt;
	r->ntasks_per_node = s->overcommit ? 0 : s->ntpn;
	if (s->mem_per_cpu)
		r->mem_per_cpu = s->mem;
	else
		r->mem_per_node = s->mem;
	r->exclusive = d->shared == JOB_SHARED_NONE ||
		!xstrcasecmp(part->info.oversubscribe, "EXCLUSIVE");
	r->cr = job_res_cr();
	r->gpus_per_node = s->gpn;
	r->gpus_per_task = s->gpt;
	r->gpus_per_job = s->gpj;
	r->gpu_type = s->gpu_type;
	r->gres = s->gres;
	r->gres_cnt = s->gres_cnt;
	r->contiguous = d->contiguous && d->contiguous != NO_VAL16;
	r->spread = d->bitflags & JOB_SPREAD;
	r->gres_bind = d->bitflags & JOB_GRES_ENFORCE_BIND;
}

/* Partition limits the job exceeds (time, node counts): 0 or the error
 * a submit gets when EnforcePartLimits says so; *reason is the wait. */
/* The fewest CPUs a submitted job can run on. */
static uint64_t _submit_cpus(const submit_t *s)
{
	uint64_t cpus = (uint64_t) job_validate_alloc_tasks(s) * s->cpt;

	return cpus > s->min_nodes ? cpus : s->min_nodes;
}

static int _part_limits(const submit_t *s, const part_record_t *part)
{
	const part_info_t *p = &part->info;

	if (_submit_cpus(s) > p->total_cpus)     /* CPUs first, as Slurm */
		return ESLURM_TOO_MANY_REQUESTED_CPUS;
	if (part_mgr_time_exceeds(part, s->time_limit))
		return ESLURM_INVALID_TIME_LIMIT;
	if ((p->max_nodes != INFINITE32 && s->min_nodes > p->max_nodes) ||
	    (s->max_nodes && s->max_nodes < p->min_nodes) ||
	    s->min_nodes > p->total_nodes)
		return ESLURM_INVALID_NODE_COUNT;
	return 0;
}

/* Could the job ever run in part (on empty nodes)?  Node or CPU counts
 * beyond the partition only make it wait (PartitionNodeLimit,
 * PartitionConfig). */
static bool _fits_part(const job_desc_t *d, const submit_t *s,
		       const part_record_t *part, const select_node_t *view,
		       size_t cnt)
{
	const part_info_t *p = &part->info;
	select_result_t res = { 0 };
	select_req_t r;
	bitmap_t *avail, *reqd = NULL, *feat = NULL;
	int rc;

	if (s->min_nodes > p->total_nodes || _submit_cpus(s) > p->total_cpus ||
	    (p->max_nodes != INFINITE32 && s->min_nodes > p->max_nodes) ||
	    s->min_nodes < p->min_nodes)
		return true;
	avail = bitmap_copy(part->node_bitmap);
	if (d->exc_nodes && *d->exc_nodes) {
		bitmap_t *x = node_mgr_bitmap(d->exc_nodes, NULL);

		bitmap_and_not(avail, x);
		bitmap_destroy(x);
	}
	_select_req_from(d, s, part, &r);
	if (d->req_nodes && *d->req_nodes)
		r.required = reqd = node_mgr_bitmap(d->req_nodes, NULL);
	if (d->features && *d->features)
		r.feature_nodes = feat = job_res_feature_nodes(d->features);
	rc = select_plugin_job_test(view, cnt, avail, &r, true, &res);
	if (rc == SELECT_OK)
		select_result_free(&res);
	if (reqd)
		bitmap_destroy(reqd);
	if (feat)
		bitmap_destroy(feat);
	bitmap_destroy(avail);
	return rc == SELECT_OK;
}

/* Does some node of part have the memory one node of the job needs (its
 * --mem, or --mem-per-cpu for one task's CPUs)?  Checked whatever
 * SelectTypeParameters says, as Slurm. */
static bool _mem_fits(const submit_t *s, const part_record_t *part)
{
	uint64_t need = s->mem_per_cpu ? s->mem * s->cpt : s->mem;

	if (!s->mem)
		return true;
	for (size_t i = 0; i < node_mgr_count(); i++)
		if (bitmap_test(part->node_bitmap, i) &&
		    node_mgr_at(i)->info.real_memory >= need)
			return true;
	return false;
}

/* --time-min within the time limit (after the partition's default);
 * a --deadline still ahead, with room for the --time-min run. */
static int _check_times(const job_desc_t *d, const submit_t *s)
{
	uint32_t tmin = d->time_min;
	time_t now = time(NULL), start;

	if (tmin == NO_VAL32 || !tmin)
		tmin = 0;
	else if (tmin > s->time_limit)       /* INFINITE32 is the largest */
		return ESLURM_INVALID_TIME_MIN_LIMIT;
	if (!d->deadline)
		return 0;
	if (d->deadline < now)
		return ESLURM_INVALID_TIME_LIMIT;
	start = d->begin_time > now ? d->begin_time : now;
	if (tmin && tmin != INFINITE32 &&
	    start + (time_t) tmin * 60 > d->deadline)
		return ESLURM_INVALID_TIME_MIN_LIMIT;
	return 0;
}

static int _can_ever_run(const job_desc_t *d, submit_t *s)
{
	size_t cnt = node_mgr_count();
	select_node_t *view = xcalloc(cnt + 1, sizeof(*view));
	char **names = xstrsplit(s->parts, ",", NULL);
	bool any = false, mem_short = false;
	int rc = 0, first = 0;

	node_mgr_select_view(view);
	for (size_t i = 0; names[i]; i++) {
		part_record_t *p = part_mgr_find(names[i]);
		int lim;

		if (!p)
			continue;
		lim = _enforce() ? _part_limits(s, p) : 0;
		if (!lim && !_mem_fits(s, p)) {
			lim = ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE;
			mem_short = true;
		}
		if (!lim && !_fits_part(d, s, p, view, cnt))
			lim = ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE;
		if (!lim)
			any = true;
		else if (!first)
			first = lim;
	}
	if (!any)
		rc = first ? first : ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE;
	if (!any && mem_short && !s->msg)
		s->msg = xstrdup("Memory specification can not be satisfied");
	else if (first && xstrcasecmp(ctld_conf()->enforce_part_limits, "ANY"))
		rc = first;       /* ALL (YES): every listed partition */
	xstrarray_free(names);
	xfree(view);
	return rc;
}

static bool _feature_known(const char *name, void *arg)
{
	for (size_t i = 0; i < node_mgr_count(); i++) {
		const char *f = node_mgr_at(i)->info.features;
		char **v;
		bool hit = false;

		if (!f)
			continue;
		v = xstrsplit(f, ",", NULL);
		for (size_t k = 0; v[k] && !hit; k++)
			hit = !strcmp(v[k], name);
		xstrarray_free(v);
		if (hit)
			return true;
	}
	return false;
}

/* --threads-per-core, --ntasks-per-core (and --hint, which sets them):
 * Sluice allocates and binds by CPU (one thread each), which is what they
 * ask only where no node of the partition has more threads per core than
 * they allow.  Elsewhere they are refused, never quietly ignored. */
static int _check_threads(const job_desc_t *d, submit_t *s)
{
	uint16_t tpc = d->threads_per_core;
	uint32_t npc = d->ntasks_per_core;
	uint32_t most = 1;

	if ((tpc == NO_VAL16 || !tpc) && (npc == NO_VAL32 || !npc))
		return 0;
	for (long b = bitmap_first_set(s->part->node_bitmap); b >= 0;
	     b = bitmap_next_set(s->part->node_bitmap, (size_t)b + 1))
		if (node_mgr_at((size_t)b)->info.threads > most)
			most = node_mgr_at((size_t)b)->info.threads;
	if ((tpc == NO_VAL16 || !tpc || tpc >= most) &&
	    (npc == NO_VAL32 || !npc || npc >= most))
		return 0;
	xfree(s->msg);
	s->msg = xstrdup_printf("--threads-per-core, --ntasks-per-core and "
			       "--hint: Sluice does not place tasks by core on "
			       "nodes with %u threads per core (partition %s)",
			       most, s->part->info.name);
	return ESLURM_NOT_SUPPORTED;
}

/* -C and the GPU requests: well formed and known to the cluster. */
static int _check_requests(const job_desc_t *d, submit_t *s)
{
	if (d->features && *d->features &&
	    (!features_valid(d->features, NULL, 0) ||
	     !features_each(d->features, _feature_known, NULL)))
		return ESLURM_INVALID_FEATURE;
	if (job_res_parse_gpus(d->gres, d->tres_per_task, d->tres_per_job,
			       &s->gpn, &s->gpt, &s->gpj, &s->gpu_type) < 0)
		return ESLURM_INVALID_GRES;
	if ((s->gpn || s->gpt || s->gpj) && !job_res_gres_listed("gpu"))
		return ESLURM_INVALID_GRES;
	if (!job_res_gres_known(d->gres) ||
	    !job_res_gres_known(d->tres_per_task) ||
	    !job_res_gres_known(d->tres_per_job))
		return ESLURM_INVALID_GRES;
	gres_specs_free(s->gres, s->gres_cnt);
	s->gres = job_res_parse_other(d->gres, &s->gres_cnt);
	if (job_res_parse_per_gpu(d->cpus_per_tres, NULL) < 0 ||
	    job_res_parse_per_gpu(d->mem_per_tres, NULL) < 0)
		return ESLURM_INVALID_GRES;
	return 0;
}

/* MaxMemPerNode / MaxMemPerCPU of the partition, else the cluster's. */
static int _check_memory(const submit_t *s)
{
	const part_info_t *p = &s->part->info;
	const slurm_conf_t *c = ctld_conf();
	uint64_t max_node = p->max_mem_per_node ? p->max_mem_per_node :
		c->max_mem_per_node;
	uint64_t max_cpu = p->max_mem_per_cpu ? p->max_mem_per_cpu :
		c->max_mem_per_cpu;
	uint64_t per_node = s->mem_per_cpu ?
		s->mem * s->cpt * (s->ntpn ? s->ntpn : 1) : s->mem;

	if (!s->mem)
		return 0;
	if (s->mem_per_cpu && max_cpu && s->mem > max_cpu)
		return ESLURM_INVALID_TASK_MEMORY;
	if (max_node && per_node > max_node)
		return ESLURM_INVALID_TASK_MEMORY;
	return 0;
}

/* PrologFlags=X11 */
static bool _x11_on(void)
{
	uint32_t flags = 0;

	return conf_parse_prolog_flags(ctld_conf()->prolog_flags, &flags,
				       NULL, 0) == 0 &&
	       (flags & PROLOG_FLAG_X11);
}

/* --container=BUNDLE: ESLURMD_CONTAINER_RUNTIME_INVALID ("Container
 * runtime not configured or invalid") without oci.conf beside slurm.conf,
 * EINVAL for a path that is not absolute or has "..". */
int job_validate_container(const char *bundle)
{
	char *oci = conf_sibling_path(ctld_conf(), "oci.conf"), why[128];
	bool present = oci_conf_present(oci);

	xfree(oci);
	if (!present)
		return ESLURMD_CONTAINER_RUNTIME_INVALID;
	if (oci_bundle_path_check(bundle, why, sizeof(why)) < 0) {
		debug("%s: container %s: %s", __func__, bundle, why);
		return EINVAL;
	}
	return 0;
}

/* --profile and --acctg-freq (profile.h): the commands check both;
 * this is for REST and libslurm requests.  Samples asked for where
 * AcctGatherProfileType keeps none: said once, in the submit answer. */
static int _check_topo(const job_desc_t *d, submit_t *s)
{
	char why[256] = "";
	int rc = topo_mgr_check_req(d->req_switch, d->segment_size,
				    d->min_nodes, why, sizeof(why));

	if (rc) {
		xfree(s->msg);
		s->msg = xstrdup(why);
	} else if (d->req_switch && !s->msg && why[0]) {
		s->msg = xstrdup(why);         /* no effect: said once */
	}
	return rc;
}

static int _check_profile(const job_desc_t *d, submit_t *s)
{
	const char *type = ctld_conf()->acct_gather_profile_type;
	char why[256];

	if (d->profile & ~(PROFILE_ALL | PROFILE_NONE)) {
		xfree(s->msg);
		s->msg = xstrdup("--profile: only none, energy, task and all "
				 "are supported");
		return ESLURM_NOT_SUPPORTED;
	}
	if (d->acctg_freq && acctg_freq_check(d->acctg_freq, why,
					      sizeof(why)) < 0) {
		xfree(s->msg);
		s->msg = xstrdup(why);
		return ESLURM_NOT_SUPPORTED;
	}
	if ((d->profile & PROFILE_ALL) && !(d->profile & PROFILE_NONE) &&
	    xstrcmp(type, PROFILE_TYPE_DBD) && !s->msg)
		s->msg = xstrdup_printf("--profile=%s has no effect: "
					"AcctGatherProfileType is %s",
					profile_str(d->profile),
					type ? type : PROFILE_TYPE_NONE);
	return 0;
}

/* Cached a minute (uid_cache.h), as the record's UserId. */
static char *_wckey_user(uid_t uid)
{
	char name[256];

	if (uid_cache_name(uid, name, sizeof(name)) == 0)
		return xstrdup(name);
	return xstrdup_printf("%u", (unsigned) uid);
}

/* TrackWCKey: a job without --wckey takes the user's default wckey
 * marked with a leading '*' (just "*" if the user has none), as Slurm
 * does; with AccountingStorageEnforce=wckeys a wckey the user does not
 * have on this cluster, or none and no default, is refused. */
static int _check_wckey(job_desc_t *d, uid_t uid)
{
	bool enforce = assoc_mgr_enforce() & ACCT_ENFORCE_WCKEYS;
	const char *def;
	char *user;
	int rc = 0;

	if (!ctld_conf()->track_wckey)
		return 0;
	user = _wckey_user(uid);
	if (d->wckey && *d->wckey) {
		if (enforce && !assoc_mgr_wckey_id(user, d->wckey)) {
			info("%s: invalid wckey '%s' for user %u", __func__,
			     d->wckey, (unsigned) uid);
			rc = ESLURM_INVALID_WCKEY;
		}
	} else if ((def = assoc_mgr_wckey_default(user))) {
		xfree(d->wckey);
		d->wckey = xstrdup_printf("*%s", def);
	} else if (!enforce) {
		xfree(d->wckey);
		d->wckey = xstrdup("*");
	} else {
		info("%s: job of user %u names no wckey and the user has no "
		     "default", __func__, (unsigned) uid);
		rc = ESLURM_INVALID_WCKEY;
	}
	xfree(user);
	return rc;
}

int job_validate(const job_desc_t *d, const slurm_msg_t *m, submit_t *s,
		 bool batch)
{
	bool op = ctld_is_operator(m->auth_uid);
	int rc;

	s->uid = (op && d->user_id != NO_VAL32) ? d->user_id : m->auth_uid;
	s->gid = (op && d->group_id != NO_VAL32) ? d->group_id : m->auth_gid;
	if ((rc = _pick_partition(d, s)))
		return rc;
	if (batch && (!d->script || !*d->script))
		return ESLURM_JOB_SCRIPT_MISSING;
	if (batch && strncmp(d->script, "#!", 2))
		return ESLURM_JOB_SCRIPT_MISSING;
	/* --checkpoint: only a batch job can be requeued (job_ckpt.h) */
	if ((d->bitflags & JOB_CHECKPOINT) && !batch)
		return ESLURM_BATCH_ONLY;
	/* srun/salloc --x11: only where the site turned X11 on */
	if ((d->bitflags & JOB_X11) && (batch || !_x11_on()))
		return ESLURM_X11_NOT_AVAIL;
	if ((rc = _sizes(d, s)) || (rc = _check_nodes(d, s)) ||
	    (rc = _check_requests(d, s)) || (rc = _check_threads(d, s)))
		return rc;
	/* -L: configured names, each within its total (lic_mgr.c) */
	if (d->licenses && *d->licenses) {
		char *norm;

		if ((rc = lic_mgr_validate(d->licenses, &norm)))
			return rc;
		xfree(norm);
	}
	/* --container: oci.conf beside slurm.conf turns it on (the nodes
	 * read it); a bundle path with ".." is refused */
	if (d->container && *d->container &&
	    (rc = job_validate_container(d->container)))
		return rc;
	if (d->array_inx && *d->array_inx &&
	    (rc = job_array_check(d->array_inx)))
		return rc;
	if ((rc = _check_profile(d, s)))
		return rc;
	if ((rc = _check_topo(d, s)))
		return rc;
	if (job_mgr_count() >= ctld_conf()->max_job_count)
		return EAGAIN;
	/* As 22.05: a user's --priority is ignored (the job gets the
	 * computed priority), a negative --nice is refused. */
	s->fixed_prio = op && d->priority != NO_VAL32;
	if (!op && d->priority != NO_VAL32)
		debug("%s: uid %u may not set --priority=%u, ignored", __func__,
		      (unsigned) m->auth_uid, (unsigned) d->priority);
	if (!op && d->nice != NO_VAL32 && d->nice < NICE_OFFSET)
		return ESLURM_INVALID_NICE;
	_memory(d, s);
	if ((rc = _check_memory(s)))
		return rc;
	s->exclusive = d->shared == JOB_SHARED_NONE ||
		!xstrcasecmp(s->part->info.oversubscribe, "EXCLUSIVE");
	s->time_limit = d->time_limit;
	if (s->time_limit == NO_VAL32)
		s->time_limit = s->part->info.default_time != NO_VAL32 ?
			s->part->info.default_time : s->part->info.max_time;
	if ((rc = _can_ever_run(d, s)) || (rc = _check_times(d, s)))
		return rc;
	/* fills the default account and QOS in the request */
	if ((rc = assoc_mgr_submit_check((job_desc_t *)d, s->uid, s->part,
					 &s->time_limit, &s->msg)))
		return rc;
	if ((rc = _check_wckey((job_desc_t *)d, s->uid)))
		return rc;
	/* --reservation: it exists and admits the user/account */
	return resv_mgr_job_check(d->reservation, s->uid, d->account);
}

void job_validate_free(submit_t *s)
{
	xfree(s->parts);
	xfree(s->gpu_type);
	gres_specs_free(s->gres, s->gres_cnt);
	s->parts = s->gpu_type = NULL;
	s->gres = NULL;
	s->gres_cnt = 0;
}
