/* job_submit.c — REQUEST_SUBMIT_BATCH_JOB: validate a job_desc_t, create
 * the record, save its script, answer once the state is on disk; plus the
 * request-derived helpers the scheduler uses (job_mgr.h). */
#include <inttypes.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <string.h>
#include <sys/time.h>

#include "common/features.h"
#include "common/log.h"
#include "common/net.h"
#include "common/msg_types.h"
#include "common/conf_params.h"
#include "common/oci_conf.h"
#include "common/parse_util.h"
#include "common/profile.h"
#include "common/uid_cache.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/acct_job.h"
#include "ctld/assoc_mgr.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/job_array.h"
#include "ctld/job_depend.h"
#include "ctld/job_files.h"
#include "ctld/job_mgr.h"
#include "ctld/lic_mgr.h"
#include "ctld/job_res.h"
#include "ctld/job_submit_plugin.h"
#include "ctld/priority.h"
#include "ctld/resv_mgr.h"
#include "ctld/site_factor.h"
#include "ctld/sched.h"
#include "ctld/select_plugin.h"
#include "ctld/state_save.h"
#include "ctld/stats.h"
#include "ctld/topo_mgr.h"
#include "slurm/slurm_errno.h"

#define PRIO_TOP 4294901759u

static uint32_t next_prio = PRIO_TOP;

uint32_t job_mgr_new_priority(void)
{
	return next_prio > 1 ? next_prio-- : 1;
}

void job_mgr_restore_priorities(void)
{
	job_record_t *j;
	uint32_t low = PRIO_TOP + 1;

	for (j = job_mgr_pending_first(); j; j = j->pend_next) {
		if (j->info.priority && j->info.priority < low)
			low = j->info.priority;
		if (j->prio_saved && j->prio_saved < low)
			low = j->prio_saved;
	}
	for (j = job_mgr_running_first(); j; j = j->run_next)
		if (j->info.priority && j->info.priority < low)
			low = j->info.priority;
	next_prio = low - 1;
}

typedef struct {
	uid_t          uid;
	gid_t          gid;
	part_record_t *part;
	uint32_t       min_nodes;
	uint32_t       max_nodes;     /* 0 = no limit */
	uint32_t       num_tasks;
	uint16_t       cpt;
	uint16_t       ntpn;          /* 0 = none */
	uint64_t       mem;           /* MB, 0 = none */
	bool           mem_per_cpu;
	bool           exclusive;
	uint32_t       time_limit;
	char          *msg;           /* text for the user */
	char          *parts;         /* usable partitions of -p, "a,b" */
	uint16_t       gpn, gpt;      /* GPUs per node, per task */
	uint32_t       gpj;           /* GPUs per job */
	char          *gpu_type;
	gres_spec_t   *gres;          /* --gres names other than gpu */
	size_t         gres_cnt;
	bool           fixed_prio;    /* an operator's --priority */
	bool           overcommit;    /* -O: sized as a task per node */
} submit_t;

/* The tasks a job's CPUs are counted for: with -O one per node, -c
 * CPUs each, as Slurm; its tasks share them. */
static uint32_t _alloc_tasks(const submit_t *s)
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
	r->num_tasks = _alloc_tasks(s);
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
}

/* Partition limits the job exceeds (time, node counts): 0 or the error
 * a submit gets when EnforcePartLimits says so; *reason is the wait. */
/* The fewest CPUs a submitted job can run on. */
static uint64_t _submit_cpus(const submit_t *s)
{
	uint64_t cpus = (uint64_t) _alloc_tasks(s) * s->cpt;

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
static int _check_container(const char *bundle)
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

static char *_user_name(uid_t uid);

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
	user = _user_name(uid);
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

static int _validate(const job_desc_t *d, const slurm_msg_t *m, submit_t *s,
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
	    (rc = _check_container(d->container)))
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

/* Cached a minute (uid_cache.h): a submit asked NSS for both, reading
 * /etc/passwd and /etc/group on the controller's loop every time. */
static char *_user_name(uid_t uid)
{
	char name[256];

	if (uid_cache_name(uid, name, sizeof(name)) == 0)
		return xstrdup(name);
	return xstrdup_printf("%u", (unsigned) uid);
}

static char *_group_name(gid_t gid)
{
	char name[256];

	if (gid_cache_name(gid, name, sizeof(name)) == 0)
		return xstrdup(name);
	return xstrdup_printf("%u", (unsigned) gid);
}

static char *_default_name(const job_desc_t *d)
{
	const char *slash;

	if (d->name && *d->name)
		return xstrdup(d->name);
	if (d->argv && d->argv[0]) {
		slash = strrchr(d->argv[0], '/');
		return xstrdup(slash ? slash + 1 : d->argv[0]);
	}
	return xstrdup("sbatch");
}

static void _tres_req(job_record_t *j, const submit_t *s)
{
	job_info_t *i = &j->info;
	uint64_t mem = s->mem_per_cpu ? s->mem * i->num_cpus :
		s->mem * s->min_nodes;
	long first = bitmap_first_set(s->part->node_bitmap);
	char m[32];

	/* No memory asked: Slurm counts whole nodes' memory in ReqTRES. */
	if (!s->mem && first >= 0)
		mem = node_mgr_at(first)->info.real_memory * s->min_nodes;

	i->tres_req_str = xstrdup_printf("cpu=%u", i->num_cpus);
	if (mem) {
		fmt_mem_mb(mem, m, sizeof(m));
		xstrfmtcat(&i->tres_req_str, ",mem=%s", m);
	}
	xstrfmtcat(&i->tres_req_str, ",node=%u,billing=%" PRIu64,
		   s->min_nodes,
		   billing_of(&s->part->billing, i->num_cpus, mem,
			      s->min_nodes, (uint64_t) s->gpn * s->min_nodes +
			      (uint64_t) s->gpt * s->num_tasks + s->gpj));
	if (s->gpn || s->gpt || s->gpj)
		xstrfmtcat(&i->tres_req_str, ",gres/gpu=%u",
			   s->gpn * s->min_nodes + s->gpt * s->num_tasks + s->gpj);
}

static void _copy_strings(job_info_t *i, const job_desc_t *d)
{
	i->account = xstrdup(d->account);
	i->qos = xstrdup(d->qos);
	i->comment = xstrdup(d->comment);
	i->work_dir = xstrdup(d->work_dir);
	i->std_out = xstrdup(d->std_out);
	i->std_err = xstrdup(d->std_err);
	i->std_in = xstrdup(d->std_in);
	i->command = xstrdup(d->argv && d->argv[0] ? d->argv[0] : NULL);
	i->submit_line = xstrdup(d->submit_line);
	i->alloc_node = xstrdup(d->submit_host);
	i->req_nodes = xstrdup(d->req_nodes);
	i->exc_nodes = xstrdup(d->exc_nodes);
	i->features = xstrdup(d->features);
	i->gres = job_res_tres_spec(d->gres);
	i->tres_per_task = job_res_tres_spec(d->tres_per_task);
	i->tres_per_job = job_res_tres_spec(d->tres_per_job);
	i->cpus_per_tres = job_res_tres_spec(d->cpus_per_tres);
	i->mem_per_tres = job_res_tres_spec(d->mem_per_tres);
	i->bitflags = d->bitflags;
	i->profile = d->profile;
	i->acctg_freq = xstrdup(d->acctg_freq);
	i->req_switch = d->req_switch;
	/* as Slurm: the wait is capped by max_switch_wait when submitted */
	i->wait4switch = d->wait4switch < sched_params()->max_switch_wait ?
		d->wait4switch : sched_params()->max_switch_wait;
	i->segment_size = d->segment_size;
#ifdef SLUICE_PROTO_NEXT
	i->proto_next = d->proto_next;
#endif
	if (d->licenses && *d->licenses &&
	    lic_mgr_validate(d->licenses, &i->licenses))
		i->licenses = NULL;           /* checked by _validate */
	i->reservation = xstrdup(d->reservation);
	i->wckey = xstrdup(d->wckey);
	i->mail_type = xstrdup(d->mail_type);
	i->mail_user = xstrdup(d->mail_user);
	i->container = xstrdup(d->container);
	i->cluster = xstrdup(ctld_conf()->cluster_name);
}

static void _set_priority(job_record_t *j, const job_desc_t *d,
			  const submit_t *s, time_t now)
{
	job_info_t *i = &j->info;
	uint32_t prio = s->fixed_prio ? d->priority : priority_new_job(j, now);

	j->prio_fixed = s->fixed_prio;

	if (d->nice != NO_VAL32) {
		int64_t p = (int64_t) prio - ((int64_t) d->nice - NICE_OFFSET);

		i->nice = d->nice;
		prio = p < 1 ? 1 : p > PRIO_TOP ? PRIO_TOP : (uint32_t) p;
	}
	i->priority = prio;
	j->prio_saved = prio;
	if (d->hold || prio == 0) {
		i->priority = 0;
		i->state_reason = d->hold ? WAIT_HELD_USER : WAIT_HELD;
		i->held_by_user = d->hold;
		return;
	}
	if (j->begin_time > now) {
		i->state_reason = WAIT_TIME;
		i->eligible_time = j->begin_time;
	} else {
		i->eligible_time = now;
	}
	i->accrue_time = i->eligible_time;
}

static job_record_t *_create(const job_desc_t *d, const submit_t *s)
{
	job_record_t *j = job_mgr_create(job_mgr_next_id());
	job_info_t *i = &j->info;
	time_t now = time(NULL);

	i->name = _default_name(d);
	i->user_id = s->uid;
	i->user_name = _user_name(s->uid);
	i->group_id = s->gid;
	i->group_name = _group_name(s->gid);
	i->partition = xstrdup(s->parts ? s->parts : s->part->info.name);
	job_res_attach_parts(j);
	_copy_strings(i, d);
	/* MailDomain qualifies the user's name when --mail-user was not
	 * given (MailUser shows it); later changes leave old jobs be */
	if ((!i->mail_user || !*i->mail_user) && ctld_conf()->mail_domain &&
	    i->user_name) {
		xfree(i->mail_user);
		i->mail_user = xstrdup_printf("%s@%s", i->user_name,
					      ctld_conf()->mail_domain);
	}
	i->job_state = JOB_PENDING;
	i->num_nodes = s->min_nodes;
	i->max_nodes = s->max_nodes;
	i->num_tasks = s->num_tasks;
	i->cpus_per_task = s->cpt;
	i->ntasks_per_node = s->ntpn;
	i->num_cpus = _alloc_tasks(s) * s->cpt;
	i->min_cpus_node = s->cpt;
	i->pn_min_memory = s->mem;
	i->mem_per_cpu = s->mem_per_cpu;
	i->time_limit = s->time_limit;
	i->time_min = d->time_min;
	i->submit_time = now;
	i->shared = d->shared;
	i->contiguous = d->contiguous == NO_VAL16 ? 0 : d->contiguous;
	i->requeue = d->requeue != NO_VAL16 ? d->requeue :
		(ctld_conf()->job_requeue ? 1 : 0);
	i->batch_flag = d->script != NULL;
	i->deadline = d->deadline;
	i->kill_inv_dep = d->kill_inv_dep == NO_VAL16 ? 0 :
		d->kill_inv_dep ? 1 : 2;
	if (d->warn_signal != NO_VAL16 && d->warn_signal) {
		i->warn_signal = d->warn_signal;
		i->warn_time = d->warn_time == NO_VAL16 ? 60 : d->warn_time;
		i->warn_flags = d->warn_flags;
	}
	j->argv = xstrarray_dup(d->argv);
	j->exclusive = s->exclusive;
	j->ntasks_given = d->num_tasks != NO_VAL32;
	j->cpt_given = d->cpus_per_task != NO_VAL16;
	j->open_mode = d->open_mode;
	j->begin_time = d->begin_time;
	site_factor_set(j);
	_set_priority(j, d, s, now);
	_tres_req(j, s);
	return j;
}

static void _free_submit_resp(void *data)
{
	msg_body_free(RESPONSE_SUBMIT_BATCH_JOB, data);
}

static void _reply_error(net_conn_t *c, int rc, const char *msg)
{
	return_code_msg_t r = { .rc = rc, .msg = (char *) msg };

	net_reply(c, RESPONSE_SLURM_RC, &r);
}

job_record_t *job_mgr_trial(job_desc_t *d, const slurm_msg_t *m, int *rc,
			    char **msg)
{
	submit_t s = { 0 };
	job_record_t *j;

	*msg = NULL;
	*rc = d ? job_submit_plugin_submit(d, m->auth_uid, &s.msg) :
		ESLURM_JOB_SCRIPT_MISSING;
	if (!*rc) {
		xfree(s.msg);
		/* sbatch's request has a script to check, srun's none */
		*rc = _validate(d, m, &s, d->script != NULL);
	}
	if (*rc) {
		*msg = s.msg;
		xfree(s.parts);
		xfree(s.gpu_type);
		gres_specs_free(s.gres, s.gres_cnt);
		return NULL;
	}
	j = _create(d, &s);
	xfree(s.parts);
	xfree(s.gpu_type);
	gres_specs_free(s.gres, s.gres_cnt);
	xfree(s.msg);
	if ((*rc = job_depend_check(j, d->dependency))) {
		job_mgr_trial_free(j);
		return NULL;
	}
	return j;
}

void job_mgr_trial_add(job_record_t *j, const job_desc_t *d)
{
	j->info.job_id = job_mgr_next_id();
	job_depend_set(j, d->dependency);
	if (d->script)          /* in the journal now, in its file soon */
		job_files_save(ctld_conf()->state_save_location,
			       j->info.job_id, d->script, d->environment);
	job_mgr_add(j);
	job_mgr_pending_add(j);
	acct_job_changed(j);
	if (d->script)
		acct_job_script(j, d->script, d->environment);
	info("%s: JobId=%u InitPrio=%u", __func__, j->info.job_id,
	     j->info.priority);
	stats_job(STATS_JOB_SUBMITTED);
	sched_trigger_new(j);
}

void job_mgr_trial_free(job_record_t *j)
{
	if (!j)
		return;
	job_res_free(j);
	job_info_free_members(&j->info);
	xstrarray_free(j->argv);
	xfree(j);
}

/* An allocation its partition cannot run as asked (time, CPUs, nodes;
 * it pends with that reason): Slurm tells srun and salloc so in the
 * answer, "Requested partition configuration not available now", and
 * they give up at once with --immediate. */
static int32_t _alloc_part_error(job_record_t *j)
{
	switch (job_mgr_part_reason(j, time(NULL))) {
	case WAIT_PART_CONFIG:
	case WAIT_PART_NODE_LIMIT:
	case WAIT_PART_TIME_LIMIT:
		return ESLURM_REQUESTED_PART_CONFIG_UNAVAILABLE;
	default:
		return 0;
	}
}

static void _submit(net_conn_t *c, slurm_msg_t *m, bool batch)
{
	job_desc_t *d = m->data;
	const char *rpc = batch ? "_slurm_rpc_submit_batch_job" :
		"_slurm_rpc_allocate_resources";
	submit_t s = { 0 };
	submit_response_msg_t *resp;
	struct timeval t0, t1;
	job_record_t *j;
	int rc;

	gettimeofday(&t0, NULL);
	if (d && !batch)
		xfree(d->script);
	rc = d ? job_submit_plugin_submit(d, m->auth_uid, &s.msg) :
		 ESLURM_JOB_SCRIPT_MISSING;
	if (!rc) {
		char *plugin_msg = s.msg;

		s.msg = NULL;
		rc = _validate(d, m, &s, batch);
		if (!s.msg)
			s.msg = plugin_msg;
		else
			xfree(plugin_msg);
	}
	if (rc) {
		info("%s: uid=%u: %s", rpc, m->auth_uid, slurm_strerror(rc));
		_reply_error(c, rc, s.msg);
		xfree(s.msg);
		xfree(s.parts);
		xfree(s.gpu_type);
		gres_specs_free(s.gres, s.gres_cnt);
		return;
	}
	j = _create(d, &s);
	if (!batch && d->alloc_resp_port &&
	    (j->info.resp_host = net_peer_host(m->peer)))
		j->info.alloc_resp_port = d->alloc_resp_port;
	xfree(s.parts);
	xfree(s.gpu_type);
	gres_specs_free(s.gres, s.gres_cnt);
	if ((rc = job_depend_check(j, d->dependency))) {
		info("%s: uid=%u: %s", rpc, m->auth_uid,
		     slurm_strerror(rc));
		_reply_error(c, rc, NULL);
		job_res_free(j);
		job_info_free_members(&j->info);
		xstrarray_free(j->argv);
		xfree(j);
		xfree(s.msg);
		return;
	}
	job_depend_set(j, d->dependency);
	if (batch)              /* in the journal now, in its file soon */
		job_files_save(ctld_conf()->state_save_location,
			       j->info.job_id, d->script, d->environment);
	job_mgr_add(j);
	if (d->array_inx && *d->array_inx)
		job_array_create(j, d->array_inx);
	job_mgr_pending_add(j);
	acct_job_changed(j);
	if (batch)
		acct_job_script(j, d->script, d->environment);
	resp = xmalloc(sizeof(*resp));
	resp->job_id = j->info.job_id;
	resp->step_id = NO_VAL32;
	resp->job_submit_user_msg = s.msg;     /* from a job_submit plugin */
	s.msg = NULL;
	if (!batch)
		resp->error_code = _alloc_part_error(j);
	gettimeofday(&t1, NULL);
	info("%s: JobId=%u InitPrio=%u usec=%ld", rpc,
	     j->info.job_id, j->info.priority,
	     (long) ((t1.tv_sec - t0.tv_sec) * 1000000 +
		     (t1.tv_usec - t0.tv_usec)));
	commit_reply(c, batch ? RESPONSE_SUBMIT_BATCH_JOB :
		     RESPONSE_RESOURCE_ALLOCATION, resp, _free_submit_resp);
	stats_job(STATS_JOB_SUBMITTED);
	sched_trigger_new(j);
}

void job_mgr_rpc_submit(net_conn_t *c, slurm_msg_t *m)
{
	_submit(c, m, true);
}

void job_mgr_rpc_allocate(net_conn_t *c, slurm_msg_t *m)
{
	_submit(c, m, false);
}

/* ---- what the scheduler asks of a pending job ---- */

static void _refresh_bitmaps(job_record_t *j)
{
	if (j->bitmap_gen == node_mgr_generation() && j->bitmap_gen)
		return;
	if (j->req_bitmap)
		bitmap_destroy(j->req_bitmap);
	if (j->exc_bitmap)
		bitmap_destroy(j->exc_bitmap);
	j->req_bitmap = j->exc_bitmap = NULL;
	if (j->info.req_nodes && *j->info.req_nodes)
		j->req_bitmap = node_mgr_bitmap(j->info.req_nodes, NULL);
	if (j->info.exc_nodes && *j->info.exc_nodes)
		j->exc_bitmap = node_mgr_bitmap(j->info.exc_nodes, NULL);
	j->bitmap_gen = node_mgr_generation();
}

const bitmap_t *job_mgr_req_nodes(job_record_t *j)
{
	_refresh_bitmaps(j);
	return j->req_bitmap;
}

const bitmap_t *job_mgr_exc_nodes(job_record_t *j)
{
	_refresh_bitmaps(j);
	return j->exc_bitmap;
}

void job_mgr_select_req(job_record_t *j, select_req_t *r)
{
	const job_info_t *i = &j->info;

	memset(r, 0, sizeof(*r));
	r->min_nodes = i->num_nodes ? i->num_nodes : 1;
	r->max_nodes = i->max_nodes ? i->max_nodes : UINT32_MAX;
	r->num_tasks = i->num_tasks ? i->num_tasks : 1;
	r->cpus_per_task = i->cpus_per_task ? i->cpus_per_task : 1;
	r->ntasks_per_node = i->ntasks_per_node == NO_VAL16 ? 0 :
		i->ntasks_per_node;
	if (i->bitflags & JOB_OVERCOMMIT) {
		r->num_tasks = r->min_nodes;     /* a task per node (-O) */
		r->ntasks_per_node = 0;
	}
	if (i->pn_min_memory && i->pn_min_memory != NO_VAL64) {
		if (i->mem_per_cpu)
			r->mem_per_cpu = i->pn_min_memory;
		else
			r->mem_per_node = i->pn_min_memory;
	}
	r->exclusive = j->exclusive;
	r->required = job_mgr_req_nodes(j);
	job_res_fill_req(j, r);
}

/* The fewest CPUs the job can run on: a CPU per node, per task (times
 * -c) and its --mincpus. */
static uint64_t _cpus_wanted(const job_info_t *i)
{
	uint64_t cpus = i->num_nodes;
	uint32_t tasks = (i->bitflags & JOB_OVERCOMMIT) ? i->num_nodes :
			 i->num_tasks;
	uint64_t per_task = (uint64_t) (tasks ? tasks : 1) *
			    (i->cpus_per_task ? i->cpus_per_task : 1);

	if (per_task > cpus)
		cpus = per_task;
	if (i->num_cpus != NO_VAL32 && i->num_cpus > cpus)
		cpus = i->num_cpus;
	return cpus;
}

uint32_t job_mgr_part_reason_in(job_record_t *j, const part_record_t *part,
				time_t now)
{
	const part_info_t *p;

	if (!part)
		return WAIT_PART_CONFIG;
	p = &part->info;
	if (p->state_up == PARTITION_DOWN)
		return WAIT_PART_DOWN;
	if (p->state_up == PARTITION_INACTIVE)
		return WAIT_PART_INACTIVE;
	if (part_mgr_time_exceeds(part, j->info.time_limit))
		return WAIT_PART_TIME_LIMIT;
	/* as Slurm: more CPUs than the partition has is its configuration,
	 * more nodes than it has (with CPUs enough) its node limit */
	if (_cpus_wanted(&j->info) > p->total_cpus)
		return WAIT_PART_CONFIG;
	if ((p->max_nodes != INFINITE32 && j->info.num_nodes > p->max_nodes) ||
	    j->info.num_nodes < p->min_nodes ||
	    j->info.num_nodes > p->total_nodes)
		return WAIT_PART_NODE_LIMIT;
	return WAIT_NO_REASON;
}

/* -p a,b: no reason if one of them may run the job, else the first's. */
uint32_t job_mgr_part_reason(job_record_t *j, time_t now)
{
	uint32_t first = WAIT_NO_REASON, r;

	if (j->part_cnt <= 1)
		return job_mgr_part_reason_in(j, j->part, now);
	for (uint32_t k = 0; k < j->part_cnt; k++) {
		r = job_mgr_part_reason_in(j, j->part_list[k], now);
		if (r == WAIT_NO_REASON)
			return r;
		if (!k)
			first = r;
	}
	return first;
}
