/* part_mgr.c — partitions built from slurm.conf (part_mgr.h). */
#include <string.h>
#include <strings.h>
#include <sys/types.h>

#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/acct_storage.h"
#include "ctld/assoc_mgr.h"
#include "ctld/commit.h"
#include "ctld/job_mgr.h"
#include "ctld/node_mgr.h"
#include "ctld/part_mgr.h"
#include "ctld/sched.h"
#include "slurm/slurm_errno.h"

/* A run-time change (scontrol create/update/delete PartitionName) kept
 * over slurm.conf's partitions: the controller state holds these, and a
 * restart applies them to what slurm.conf defines. */
enum {
	PART_CHANGE_CREATED = 1,  /* the whole definition: words */
	PART_CHANGE_UPDATED,      /* slurm.conf's, with words over it */
	PART_CHANGE_DELETED,
};

typedef struct {
	char     *name;
	uint16_t  kind;
	char    **words;          /* "Key=Value", NULL-terminated */
} part_change_t;

static struct {
	part_record_t **parts;
	size_t          cnt;
	part_record_t  *dflt;
	const char     *preempt_mode; /* global PreemptMode while loading */
	const slurm_conf_t *conf;     /* the partitions were built from */
	part_change_t  *changes;
	size_t          change_cnt;
	bool            dirty;        /* changes not journaled yet */
	bool            replaying;    /* part_mgr_unpack_state rebuilding */
} pm;

static void part_changes_free(void);
static void _change_free(part_change_t *c);
static void _note_change(const char *name, uint16_t kind, char *const *words);
static int  _apply_change(const part_change_t *c, int *rc, char *err,
			  size_t errlen);

size_t part_mgr_count(void)
{
	return pm.cnt;
}

part_record_t *part_mgr_at(size_t i)
{
	return i < pm.cnt ? pm.parts[i] : NULL;
}

bool part_mgr_time_exceeds(const part_record_t *part, uint32_t limit)
{
	uint32_t max = part->info.max_time;

	return time_limit_over(limit, max == INFINITE32 ? INFINITE64 : max);
}

part_record_t *part_mgr_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < pm.cnt; i++)
		if (!strcmp(pm.parts[i]->info.name, name))
			return pm.parts[i];
	return NULL;
}

part_record_t *part_mgr_default(void)
{
	return pm.dflt;
}

static uint32_t _state(const char *s)
{
	if (!s || !strcasecmp(s, "UP"))
		return PARTITION_UP;
	if (!strcasecmp(s, "DOWN"))
		return PARTITION_DOWN;
	if (!strcasecmp(s, "DRAIN"))
		return PARTITION_DRAIN;
	if (!strcasecmp(s, "INACTIVE"))
		return PARTITION_INACTIVE;
	return PARTITION_UP;
}

static void _fill_info(part_info_t *i, const conf_part_t *cp)
{
	i->name = xstrdup(cp->name);
	i->state_up = _state(cp->state);
	i->is_default = cp->is_default;
	i->hidden = cp->hidden;
	i->root_only = cp->root_only;
	i->exclusive_user = cp->exclusive_user;
	i->lln = cp->lln;
	i->req_resv = cp->req_resv;
	i->disable_root_jobs = cp->disable_root_jobs;
	i->max_time = cp->max_time;
	i->default_time = cp->default_time;
	i->max_nodes = cp->max_nodes;
	i->min_nodes = cp->min_nodes;
	i->allow_groups = xstrdup(cp->allow_groups);
	i->allow_accounts = xstrdup(cp->allow_accounts);
	i->deny_accounts = xstrdup(cp->deny_accounts);
	i->allow_qos = xstrdup(cp->allow_qos);
	i->deny_qos = xstrdup(cp->deny_qos);
	i->qos_char = xstrdup(cp->qos);
	i->alternate = xstrdup(cp->alternate);
	i->priority_job_factor = cp->priority_job_factor;
	i->priority_tier = cp->priority_tier;
	i->oversubscribe = xstrdup(cp->oversubscribe ? cp->oversubscribe : "NO");
	i->grace_time = cp->grace_time;
	i->def_mem_per_cpu = cp->def_mem_per_cpu;
	i->def_mem_per_node = cp->def_mem_per_node;
	i->max_mem_per_cpu = cp->max_mem_per_cpu;
	i->max_mem_per_node = cp->max_mem_per_node;
	i->max_cpus_per_node = cp->max_cpus_per_node;
	i->over_time_limit = cp->over_time_limit;
	/* unset: the global PreemptMode, as Slurm shows it */
	i->preempt_mode = xstrdup(cp->preempt_mode ? cp->preempt_mode :
				  pm.preempt_mode ? pm.preempt_mode : "OFF");
	i->billing_weights_str = xstrdup(cp->tres_billing_weights);
}

/* Does the partition take a node added at run time (Nodes=ALL, or a
 * NodeSet by one of its features)? */
static bool _part_takes(const part_record_t *p, const node_record_t *n)
{
	char **pf, **nf;
	bool hit = false;

	if (p->conf.nodes_all)
		return true;
	if (!p->conf.nodeset_features || !n->info.features)
		return false;
	pf = xstrsplit(p->conf.nodeset_features, ",", NULL);
	nf = xstrsplit(n->info.features, ",", NULL);
	for (size_t i = 0; pf[i] && !hit; i++)
		for (size_t j = 0; nf[j] && !hit; j++)
			hit = !strcmp(pf[i], nf[j]);
	xstrarray_free(pf);
	xstrarray_free(nf);
	return hit;
}

/* The dynamic nodes p takes, into its bitmap. */
static void _part_add_dynamic(part_record_t *p)
{
	for (size_t i = 0; i < node_mgr_count(); i++) {
		const node_record_t *n = node_mgr_at(i);

		if (n->dyn_line && _part_takes(p, n))
			bitmap_set(p->node_bitmap, i);
	}
}

void part_mgr_node_added(const node_record_t *n)
{
	for (size_t i = 0; i < pm.cnt; i++)
		if (_part_takes(pm.parts[i], n))
			bitmap_set(pm.parts[i]->node_bitmap, n->index);
	part_mgr_refresh_totals();
}

void part_mgr_node_removed(const node_record_t *n)
{
	for (size_t i = 0; i < pm.cnt; i++)
		bitmap_clear(pm.parts[i]->node_bitmap, n->index);
	part_mgr_refresh_totals();
}

static part_record_t *_new_part(const conf_part_t *cp, char *err,
				size_t errlen)
{
	part_record_t *p = xmalloc(sizeof(*p));
	char *bad = NULL;

	conf_part_copy(&p->conf, cp);
	_fill_info(&p->info, cp);
	if (billing_parse(cp->tres_billing_weights, &p->billing, err,
			  errlen) < 0) {
		char why[256];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "PartitionName=%s: %s", cp->name, why);
		part_info_free_members(&p->info);
		conf_part_free(&p->conf);
		xfree(p);
		return NULL;
	}
	if (cp->nodes && *cp->nodes) {
		p->node_bitmap = node_mgr_bitmap(cp->nodes, &bad);
		if (!p->node_bitmap) {
			snprintf(err, errlen, "Invalid node name %s in "
				 "PartitionName=%s Nodes=%s", bad ? bad : "",
				 cp->name, cp->nodes);
			xfree(bad);
			part_info_free_members(&p->info);
			conf_part_free(&p->conf);
			xfree(p);
			return NULL;
		}
	} else {
		p->node_bitmap = bitmap_create(node_mgr_count() ?
					       node_mgr_count() : 1);
	}
	_part_add_dynamic(p);
	return p;
}

static void _free_part(part_record_t *p)
{
	part_info_free_members(&p->info);
	conf_part_free(&p->conf);
	bitmap_destroy(p->node_bitmap);
	xfree(p);
}

static void _free_all(part_record_t **parts, size_t cnt)
{
	size_t i;

	for (i = 0; i < cnt; i++)
		_free_part(parts[i]);
	xfree(parts);
}

/* ReconfigFlags has word (KeepPartInfo, KeepPartState)? */
static bool _reconfig_flag(const slurm_conf_t *conf, const char *word)
{
	const char *v = conf_get(conf, "ReconfigFlags");
	char **w = xstrsplit(v ? v : "", ",", NULL);
	bool found = false;

	for (size_t i = 0; w[i] && !found; i++)
		found = !strcasecmp(w[i], word);
	xstrarray_free(w);
	return found;
}

/* KeepPartState (without KeepPartInfo): "State=X" of each partition of
 * the table being replaced, by name; NULL otherwise. */
static part_change_t *_keep_states(const slurm_conf_t *conf)
{
	part_change_t *keep;

	if (!pm.conf || pm.replaying || _reconfig_flag(conf, "KeepPartInfo") ||
	    !_reconfig_flag(conf, "KeepPartState"))
		return NULL;
	keep = xcalloc(pm.cnt + 1, sizeof(*keep));
	for (size_t i = 0; i < pm.cnt; i++) {
		keep[i].name = xstrdup(pm.parts[i]->info.name);
		keep[i].kind = PART_CHANGE_UPDATED;
		keep[i].words = xstrarray_append(NULL, "State=");
		xfree(keep[i].words[0]);
		keep[i].words[0] = xstrdup_printf("State=%s",
						  pm.parts[i]->conf.state ?
						  pm.parts[i]->conf.state : "UP");
	}
	return keep;
}

/* After slurm.conf's partitions are in: as Slurm's reconfigure, no
 * run-time change is kept, unless ReconfigFlags=KeepPartInfo (all of
 * them are applied again) or KeepPartState (the State of each partition
 * slurm.conf still has). */
static void _reconfig_changes(const slurm_conf_t *conf, part_change_t *keep)
{
	char err[512];
	int rc;

	if (pm.replaying)
		return;
	if (pm.change_cnt && _reconfig_flag(conf, "KeepPartInfo")) {
		for (size_t i = 0; i < pm.change_cnt; i++)
			if (_apply_change(&pm.changes[i], &rc, err,
					  sizeof(err)) < 0)
				error("Partition %s: run-time change not kept: "
				      "%s", pm.changes[i].name, err);
		info("Partitions rebuilt from %s; %zu run-time partition "
		     "change(s) kept (ReconfigFlags=KeepPartInfo)",
		     conf->path ? conf->path : "slurm.conf", pm.change_cnt);
		return;
	}
	if (pm.change_cnt)
		info("Partitions rebuilt from %s: %zu run-time partition "
		     "change(s) dropped", conf->path ? conf->path : "slurm.conf",
		     pm.change_cnt);
	if (pm.change_cnt || keep)
		pm.dirty = true;
	part_changes_free();
	for (size_t i = 0; keep && keep[i].name; i++) {
		const conf_part_t *cp = conf_find_part(conf, keep[i].name);

		if (cp && !xstrcasecmp(cp->state ? cp->state : "UP",
				       keep[i].words[0] + 6))
			continue;       /* as slurm.conf has it */
		if (cp && _apply_change(&keep[i], &rc, err, sizeof(err)) == 0)
			_note_change(keep[i].name, PART_CHANGE_UPDATED,
				     keep[i].words);
	}
	for (size_t i = 0; keep && keep[i].name; i++)
		_change_free(&keep[i]);
	xfree(keep);
}

int part_mgr_init(const slurm_conf_t *conf, char *err, size_t errlen)
{
	part_record_t **parts = xcalloc(conf->part_cnt + 1, sizeof(*parts));
	part_record_t *dflt = NULL;
	part_change_t *keep;
	size_t i;

	pm.preempt_mode = conf_get(conf, "PreemptMode");
	for (i = 0; i < conf->part_cnt; i++) {
		parts[i] = _new_part(&conf->parts[i], err, errlen);
		if (!parts[i]) {
			_free_all(parts, i);
			return -1;
		}
		if (parts[i]->info.is_default)
			dflt = parts[i];
	}
	keep = _keep_states(conf);
	_free_all(pm.parts, pm.cnt);
	pm.parts = parts;
	pm.cnt = conf->part_cnt;
	pm.dflt = dflt;
	pm.conf = conf;
	_reconfig_changes(conf, keep);
	part_mgr_refresh_totals();
	return 0;
}

void part_mgr_fini(void)
{
	part_changes_free();
	_free_all(pm.parts, pm.cnt);
	pm.parts = NULL;
	pm.cnt = 0;
	pm.dflt = NULL;
}

static void _totals(part_record_t *p)
{
	part_info_t *i = &p->info;
	uint64_t billing = 0;
	char mem[32];
	long b;

	i->total_nodes = i->total_cpus = 0;
	i->total_mem = 0;
	for (b = bitmap_first_set(p->node_bitmap); b >= 0;
	     b = bitmap_next_set(p->node_bitmap, b + 1)) {
		node_record_t *n = node_mgr_at(b);

		i->total_nodes++;
		i->total_cpus += n->info.cpus;
		i->total_mem += n->info.real_memory;
	}
	billing = billing_of(&p->billing, i->total_cpus, i->total_mem,
			     i->total_nodes, 0);
	xfree(i->nodes);
	i->nodes = node_mgr_names(p->node_bitmap);
	fmt_mem_mb(i->total_mem, mem, sizeof(mem));
	xfree(i->tres_fmt_str);
	i->tres_fmt_str = xstrdup_printf("cpu=%u,mem=%s,node=%u,billing=%lu",
					 i->total_cpus, mem, i->total_nodes,
					 (unsigned long) billing);
}

void part_mgr_refresh_totals(void)
{
	size_t i, n;

	for (n = 0; n < node_mgr_count(); n++)
		xfree(node_mgr_at(n)->info.partitions);
	for (i = 0; i < pm.cnt; i++) {
		part_record_t *p = pm.parts[i];
		long b;

		_totals(p);
		for (b = bitmap_first_set(p->node_bitmap); b >= 0;
		     b = bitmap_next_set(p->node_bitmap, b + 1)) {
			node_info_t *ni = &node_mgr_at(b)->info;

			if (ni->partitions)
				xstrcatc(&ni->partitions, ',');
			xstrcat(&ni->partitions, p->info.name);
		}
	}
}

void part_mgr_rpc_info(net_conn_t *c, slurm_msg_t *m)
{
	info_request_msg_t *r = m->data;
	part_info_msg_t resp = { .last_update = time(NULL) };
	bool all = r && (r->show_flags & SHOW_ALL);
	size_t i;

	resp.parts = xcalloc(pm.cnt + 1, sizeof(part_info_t));
	for (i = 0; i < pm.cnt; i++) {
		part_record_t *p = pm.parts[i];

		if (r && r->name && *r->name) {
			if (strcmp(p->info.name, r->name))
				continue;
		} else if (p->info.hidden && !all) {
			continue;
		}
		resp.parts[resp.cnt++] = p->info;
	}
	if (r && r->name && *r->name && !resp.cnt)
		net_reply_rc(c, ESLURM_INVALID_PARTITION_NAME);
	else
		net_reply(c, RESPONSE_PARTITION_INFO, &resp);
	xfree(resp.parts);
}

/* ---- QOS= (a partition QOS; its limits: assoc_limits.c) ---- */

static bool _qos_known(const char *name)
{
	char *lower = xstrtolower(xstrdup(name));
	bool found = assoc_mgr_qos(lower) != NULL;

	xfree(lower);
	return found;
}

int part_mgr_check_qos(const slurm_conf_t *c, char *err, size_t errlen)
{
	for (size_t i = 0; i < c->part_cnt; i++) {
		const conf_part_t *cp = &c->parts[i];

		if (!cp->qos || !*cp->qos)
			continue;
		if (!acct_storage_dbd_assocs()) {
			info("PartitionName=%s QOS=%s has no effect without "
			     "AccountingStorageType=accounting_storage/slurmdbd",
			     cp->name, cp->qos);
			continue;
		}
		/* as Slurm: refused where a valid QOS is enforced (else
		 * part_mgr_qos_reloaded logs it) */
		if ((assoc_mgr_enforce() & ACCT_ENFORCE_QOS) &&
		    assoc_mgr_loaded() && !_qos_known(cp->qos)) {
			snprintf(err, errlen, "Partition %s has an invalid "
				 "qos (%s), please check your configuration",
				 cp->name, cp->qos);
			return -1;
		}
	}
	return 0;
}

void part_mgr_qos_reloaded(void *arg)
{
	(void)arg;
	if (!assoc_mgr_loaded())
		return;
	for (size_t i = 0; i < pm.cnt; i++) {
		part_record_t *p = pm.parts[i];
		bool missing = p->info.qos_char && *p->info.qos_char &&
			!assoc_mgr_part_qos(p);

		if (missing && !p->qos_missing)
			error("Partition %s has an invalid qos (%s), please "
			      "check your configuration; its limits are not "
			      "in force", p->info.name, p->info.qos_char);
		else if (!missing && p->qos_missing)
			info("Partition %s: qos %s found, its limits are in "
			     "force", p->info.name, p->info.qos_char);
		p->qos_missing = missing;
	}
}

/* ---- run-time changes: scontrol create/update/delete PartitionName ---- */

static void _change_free(part_change_t *c)
{
	xfree(c->name);
	xstrarray_free(c->words);
}

static void part_changes_free(void)
{
	for (size_t i = 0; i < pm.change_cnt; i++)
		_change_free(&pm.changes[i]);
	xfree(pm.changes);
	pm.change_cnt = 0;
}

static part_change_t *_change_find(const char *name)
{
	for (size_t i = 0; i < pm.change_cnt; i++)
		if (!strcmp(pm.changes[i].name, name))
			return &pm.changes[i];
	return NULL;
}

static part_change_t *_change_add(const char *name)
{
	part_change_t *c;

	pm.changes = xrealloc(pm.changes,
			      (pm.change_cnt + 1) * sizeof(*pm.changes));
	c = &pm.changes[pm.change_cnt++];
	memset(c, 0, sizeof(*c));
	c->name = xstrdup(name);
	return c;
}

/* Later words of a key replace earlier ones. */
static void _words_merge(char ***into, char *const *words)
{
	for (size_t i = 0; words && words[i]; i++) {
		const char *eq = strchr(words[i], '=');
		size_t klen = eq ? (size_t)(eq - words[i]) : strlen(words[i]);
		char **w = *into;
		size_t j;

		for (j = 0; w && w[j]; j++)
			if (!strncasecmp(w[j], words[i], klen) &&
			    w[j][klen] == '=')
				break;
		if (w && w[j]) {
			xfree(w[j]);
			w[j] = xstrdup(words[i]);
		} else {
			*into = xstrarray_append(*into, words[i]);
		}
	}
}

static void _note_change(const char *name, uint16_t kind, char *const *words)
{
	part_change_t *c = _change_find(name);

	if (!c) {
		c = _change_add(name);
		c->kind = kind;
	} else if (kind == PART_CHANGE_DELETED) {
		if (c->kind == PART_CHANGE_CREATED &&
		    !conf_find_part(pm.conf, name)) {
			_change_free(c);
			*c = pm.changes[--pm.change_cnt];
			pm.dirty = true;
			commit_dirty();
			return;
		}
		xstrarray_free(c->words);
		c->words = NULL;
		c->kind = kind;
	} else if (kind == PART_CHANGE_CREATED) {
		xstrarray_free(c->words);
		c->words = NULL;
		c->kind = kind;
	}
	if (kind != PART_CHANGE_DELETED)
		_words_merge(&c->words, words);
	pm.dirty = true;
	commit_dirty();
}

/* A partition record from a definition; Nodes=ALL is every node. */
static part_record_t *_build(conf_part_t *cp, int *rc, char *err,
			     size_t errlen)
{
	part_record_t *p;

	if (cp->nodes && !strcasecmp(cp->nodes, "ALL")) {
		bitmap_t *all = node_mgr_all();

		cp->nodes_all = true;
		xfree(cp->nodes);
		cp->nodes = node_mgr_names(all);
		bitmap_destroy(all);
	}
	p = _new_part(cp, err, errlen);
	if (!p)
		*rc = cp->nodes && strstr(err, "Invalid node name") ?
		      ESLURM_INVALID_NODE_NAME : ESLURM_INVALID_TRES_BILLING_WEIGHTS;
	return p;
}

static ssize_t _index_of(const char *name)
{
	for (size_t i = 0; i < pm.cnt; i++)
		if (!strcmp(pm.parts[i]->info.name, name))
			return (ssize_t) i;
	return -1;
}

/* Put p in the table: in place of the one of its name (the record keeps
 * its address: jobs point to it), else at the end. */
static part_record_t *_put_part(part_record_t *p)
{
	ssize_t i = _index_of(p->info.name);
	part_record_t *at;

	if (i >= 0) {
		part_record_t old = *pm.parts[i];

		at = pm.parts[i];
		*at = *p;
		at->qos_missing = old.qos_missing;
		part_info_free_members(&old.info);
		conf_part_free(&old.conf);
		bitmap_destroy(old.node_bitmap);
		xfree(p);
	} else {
		pm.parts = xrealloc(pm.parts, (pm.cnt + 2) * sizeof(*pm.parts));
		pm.parts[pm.cnt++] = p;
		at = p;
	}
	if (at->info.is_default) {
		for (size_t k = 0; k < pm.cnt; k++)
			if (pm.parts[k] != at) {
				pm.parts[k]->info.is_default = false;
				pm.parts[k]->conf.is_default = false;
			}
		pm.dflt = at;
	} else if (pm.dflt == at) {
		pm.dflt = NULL;
	}
	return at;
}

static void _remove(size_t i)
{
	part_record_t *p = pm.parts[i];

	memmove(&pm.parts[i], &pm.parts[i + 1],
		(pm.cnt - i - 1) * sizeof(*pm.parts));
	pm.cnt--;
	if (pm.dflt == p)
		pm.dflt = NULL;
	job_mgr_reattach_parts();       /* no job points to p after this */
	_free_part(p);
}

/* Apply one change to the table; 0, or -1 with err (rc: the code). */
static int _apply_change(const part_change_t *c, int *rc, char *err,
			 size_t errlen)
{
	part_record_t *p = part_mgr_find(c->name);
	conf_part_t cp;
	ssize_t i;

	if (c->kind == PART_CHANGE_DELETED) {
		if ((i = _index_of(c->name)) >= 0)
			_remove((size_t) i);
		return 0;
	}
	if (c->kind == PART_CHANGE_UPDATED && !p) {
		*rc = ESLURM_INVALID_PARTITION_NAME;
		snprintf(err, errlen, "no partition %s in slurm.conf", c->name);
		return -1;
	}
	if (c->kind == PART_CHANGE_CREATED)
		conf_part_init_named(&cp, c->name);
	else
		conf_part_copy(&cp, &p->conf);
	if (conf_part_apply(&cp, c->words, NULL, err, errlen)) {
		*rc = SLURM_ERROR;
		conf_part_free(&cp);
		return -1;
	}
	p = _build(&cp, rc, err, errlen);
	conf_part_free(&cp);
	if (!p)
		return -1;
	_put_part(p);
	return 0;
}

/* After the table changed: totals, the jobs' partitions, the schedulers. */
static void _changed(void)
{
	part_mgr_refresh_totals();
	job_mgr_reattach_parts();
	part_mgr_qos_reloaded(NULL);
	sched_trigger();
}

static const char *_msg_name(const part_update_msg_t *u)
{
	return u && u->name ? u->name : "";
}

static void _rpc_change(net_conn_t *c, slurm_msg_t *m, uint16_t kind)
{
	const part_update_msg_t *u = m->data;
	const char *name = _msg_name(u);
	part_change_t ch = { .name = (char *) name, .kind = kind,
			     .words = u ? u->words : NULL };
	char err[512] = "";
	int rc = SLURM_SUCCESS;

	if (!*name || strchr(name, ',') ||
	    (kind == PART_CHANGE_CREATED && part_mgr_find(name)) ||
	    (kind != PART_CHANGE_CREATED && !part_mgr_find(name))) {
		net_reply_rc(c, ESLURM_INVALID_PARTITION_NAME);
		return;
	}
	if (kind == PART_CHANGE_UPDATED) {
		/* as the whole definition, so _apply_change keeps it */
		ch.kind = PART_CHANGE_UPDATED;
	}
	if (_apply_change(&ch, &rc, err, sizeof(err)) < 0) {
		info("%s partition %s refused: %s", kind == PART_CHANGE_CREATED ?
		     "Create" : "Update", name, err);
		if (rc == ESLURM_INVALID_NODE_NAME)
			net_reply_rc(c, rc);     /* Slurm's words alone */
		else
			net_reply_rcf(c, rc, "%s", err);
		return;
	}
	_note_change(name, kind, ch.words);
	info("%s partition %s by uid=%u", kind == PART_CHANGE_CREATED ?
	     "Created" : "Updated", name, (unsigned) m->auth_uid);
	_changed();
	commit_reply_rc(c, SLURM_SUCCESS, NULL);
}

void part_mgr_rpc_create(net_conn_t *c, slurm_msg_t *m)
{
	_rpc_change(c, m, PART_CHANGE_CREATED);
}

void part_mgr_rpc_update(net_conn_t *c, slurm_msg_t *m)
{
	_rpc_change(c, m, PART_CHANGE_UPDATED);
}

void part_mgr_rpc_delete(net_conn_t *c, slurm_msg_t *m)
{
	const char *name = _msg_name(m->data);
	ssize_t i = *name ? _index_of(name) : -1;

	if (i < 0) {
		net_reply_rc(c, ESLURM_INVALID_PARTITION_NAME);
		return;
	}
	if (job_mgr_part_in_use(pm.parts[i])) {
		net_reply_rc(c, ESLURM_PARTITION_IN_USE);
		return;
	}
	_remove((size_t) i);
	_note_change(name, PART_CHANGE_DELETED, NULL);
	info("Deleted partition %s by uid=%u", name, (unsigned) m->auth_uid);
	_changed();
	commit_reply_rc(c, SLURM_SUCCESS, NULL);
}

/* ---- state ---- */

void part_mgr_pack_state(buf_t *b)
{
	pack32(b, (uint32_t) pm.change_cnt);
	for (size_t i = 0; i < pm.change_cnt; i++) {
		const part_change_t *c = &pm.changes[i];
		uint32_t n = (uint32_t) xstrarray_len(c->words);

		packstr(b, c->name);
		pack16(b, c->kind);
		pack32(b, n);
		for (uint32_t k = 0; k < n; k++)
			packstr(b, c->words[k]);
	}
}

int part_mgr_unpack_state(buf_t *b, uint16_t version)
{
	part_change_t *list = NULL;
	uint32_t cnt, i = 0;
	char err[512];
	int rc;

	if (version != PART_STATE_VERSION || unpack32(b, &cnt) < 0 ||
	    cnt > 65536)
		return -1;
	list = xcalloc(cnt + 1, sizeof(*list));
	for (i = 0; i < cnt; i++) {
		part_change_t *c = &list[i];
		uint32_t n;

		if (unpackstr(b, &c->name) < 0 || !c->name ||
		    unpack16(b, &c->kind) < 0 ||
		    c->kind < PART_CHANGE_CREATED ||
		    c->kind > PART_CHANGE_DELETED ||
		    unpack32(b, &n) < 0 || n > 1024)
			goto bad;
		c->words = xcalloc(n + 1, sizeof(char *));
		for (uint32_t k = 0; k < n; k++)
			if (unpackstr(b, &c->words[k]) < 0 || !c->words[k])
				goto bad;
	}
	/* slurm.conf's partitions, then the changes over them */
	part_changes_free();
	pm.replaying = true;
	rc = part_mgr_init(pm.conf, err, sizeof(err));
	pm.replaying = false;
	if (rc < 0) {
		error("Partitions: %s", err);
		goto bad;
	}
	pm.changes = list;
	pm.change_cnt = cnt;
	for (i = 0; i < cnt; i++) {
		if (_apply_change(&list[i], &rc, err, sizeof(err)) < 0)
			error("Partition %s: run-time change not restored: %s",
			      list[i].name, err);
		else
			debug("Partition %s: run-time change restored",
			      list[i].name);
	}
	pm.dirty = false;
	part_mgr_refresh_totals();
	return 0;
bad:
	for (uint32_t k = 0; k <= i && k < cnt; k++)
		_change_free(&list[k]);
	xfree(list);
	return -1;
}

bool part_mgr_take_dirty(void)
{
	bool d = pm.dirty;

	pm.dirty = false;
	return d;
}
