/* part_mgr.c — partitions built from slurm.conf (part_mgr.h). */
#include <string.h>
#include <strings.h>

#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/acct_storage.h"
#include "ctld/assoc_mgr.h"
#include "ctld/node_mgr.h"
#include "ctld/part_mgr.h"
#include "slurm/slurm_errno.h"

static struct {
	part_record_t **parts;
	size_t          cnt;
	part_record_t  *dflt;
	const char     *preempt_mode; /* global PreemptMode while loading */
} pm;

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

static part_record_t *_new_part(const conf_part_t *cp, char *err,
				size_t errlen)
{
	part_record_t *p = xmalloc(sizeof(*p));
	char *bad = NULL;

	_fill_info(&p->info, cp);
	if (billing_parse(cp->tres_billing_weights, &p->billing, err,
			  errlen) < 0) {
		char why[256];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "PartitionName=%s: %s", cp->name, why);
		part_info_free_members(&p->info);
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
			xfree(p);
			return NULL;
		}
	} else {
		p->node_bitmap = bitmap_create(node_mgr_count() ?
					       node_mgr_count() : 1);
	}
	return p;
}

static void _free_all(part_record_t **parts, size_t cnt)
{
	size_t i;

	for (i = 0; i < cnt; i++) {
		part_info_free_members(&parts[i]->info);
		bitmap_destroy(parts[i]->node_bitmap);
		xfree(parts[i]);
	}
	xfree(parts);
}

int part_mgr_init(const slurm_conf_t *conf, char *err, size_t errlen)
{
	part_record_t **parts = xcalloc(conf->part_cnt + 1, sizeof(*parts));
	part_record_t *dflt = NULL;
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
	_free_all(pm.parts, pm.cnt);
	pm.parts = parts;
	pm.cnt = conf->part_cnt;
	pm.dflt = dflt;
	part_mgr_refresh_totals();
	return 0;
}

void part_mgr_fini(void)
{
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
