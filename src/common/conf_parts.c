/* conf_parts.c — PartitionName lines of slurm.conf.
 *
 * A line is merged over PartitionName=DEFAULT, checked and turned into a
 * conf_part_t at once; its Nodes= is checked against the node list only
 * once the whole file is read (nodes may be defined after partitions).
 */
#include "common/conf.h"
#include "common/conf_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hostlist.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static const char *const part_keys[] = {
	"PartitionName", "AllocNodes", "AllowAccounts", "AllowGroups",
	"AllowQos", "Alternate", "CpuBind", "DefCpuPerGPU", "DefMemPerCPU",
	"DefMemPerGPU", "DefMemPerNode", "Default", "DefaultTime",
	"DenyAccounts", "DenyQos", "DisableRootJobs", "ExclusiveTopo",
	"ExclusiveUser", "GraceTime", "Hidden", "LLN", "MaxCPUsPerNode",
	"MaxCPUsPerSocket", "MaxMemPerCPU", "MaxMemPerNode", "MaxNodes",
	"MaxTime", "MinNodes", "Nodes", "OverSubscribe", "OverTimeLimit",
	"PowerDownOnIdle", "PreemptMode", "Priority", "PriorityJobFactor",
	"PriorityTier", "QOS", "ReqResv", "ResumeTimeout", "RootOnly",
	"SelectTypeParameters", "Shared", "State", "SuspendTime",
	"SuspendTimeout", "TRESBillingWeights", "Topology", NULL
};

const char *const *conf_part_keys(void)
{
	return part_keys;
}

static const char *const preempt_modes[] = {
	"OFF", "CANCEL", "CHECKPOINT", "GANG", "REQUEUE", "SUSPEND", "WITHIN",
	"PRIORITY", NULL
};

static void part_init(conf_part_t *p)
{
	memset(p, 0, sizeof(*p));
	p->state = xstrdup("UP");
	p->max_time = INFINITE32;
	p->default_time = NO_VAL32;
	p->max_nodes = INFINITE32;
	p->priority_job_factor = 1;
	p->priority_tier = 1;
	p->oversubscribe = xstrdup("NO");
	p->max_cpus_per_node = INFINITE32;
	p->over_time_limit = NO_VAL16;
	p->suspend_time = NO_VAL32;
}

void conf_part_free(conf_part_t *p)
{
	xfree(p->name);
	xfree(p->nodes);
	xfree(p->nodeset_features);
	xfree(p->state);
	xfree(p->allow_groups);
	xfree(p->allow_accounts);
	xfree(p->deny_accounts);
	xfree(p->allow_qos);
	xfree(p->deny_qos);
	xfree(p->qos);
	xfree(p->oversubscribe);
	xfree(p->preempt_mode);
	xfree(p->alternate);
	xfree(p->tres_billing_weights);
}

static char *part_upper(const char *v)
{
	char *s = xstrdup(v);

	for (char *p = s; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	return s;
}

/* A string field; "ALL" means no restriction (NULL) where all_null. */
static void part_str(const conf_pairs_t *m, const char *key, char **field,
		     bool all_null, bool lower)
{
	const char *v = conf_pairs_get(m, key);

	if (!v)
		return;
	xfree(*field);
	if ((all_null && !strcasecmp(v, "ALL")) || !*v)
		return;
	*field = xstrdup(v);
	if (lower)
		xstrtolower(*field);
}

static int part_time(conf_state_t *st, const conf_pairs_t *m, const char *key,
		     uint32_t *out)
{
	const char *v = conf_pairs_get(m, key);

	if (!v)
		return 0;
	if (!strcasecmp(v, "NONE") && !strcasecmp(key, "DefaultTime")) {
		*out = NO_VAL32;
		return 0;
	}
	if (parse_duration_min(v, out) < 0)
		return conf_fail(st, "invalid value \"%s\" for %s", v, key);
	return 0;
}

static int part_u(conf_state_t *st, const conf_pairs_t *m, const char *key,
		  uint64_t max, uint64_t unlim, uint64_t *out)
{
	const char *v = conf_pairs_get(m, key);

	if (!v)
		return 1;
	return conf_rec_num(st, key, v, max, unlim, out);
}

static int part_mem(conf_state_t *st, const conf_pairs_t *m, const char *key,
		    uint64_t *out)
{
	const char *v = conf_pairs_get(m, key);

	if (!v)
		return 0;
	if (!strcasecmp(v, "UNLIMITED") || !strcasecmp(v, "INFINITE")) {
		*out = 0;
		return 0;
	}
	return conf_rec_mem(st, key, v, out);
}

/* SuspendTime: seconds, INFINITE32 for NONE/INFINITE/UNLIMITED/-1 (never
 * powered down), NO_VAL32 when not given (the global SuspendTime). */
static int part_suspend_time(conf_state_t *st, const conf_pairs_t *m,
			     uint32_t *out)
{
	const char *v = conf_pairs_get(m, "SuspendTime");
	uint64_t n;

	if (!v)
		return 0;
	if (!strcasecmp(v, "NONE") || !strcmp(v, "-1")) {
		*out = INFINITE32;
		return 0;
	}
	if (conf_rec_num(st, "SuspendTime", v, INFINITE32 - 1, INFINITE32,
			 &n) < 0)
		return -1;
	*out = (uint32_t) n;
	return 0;
}

static int part_numbers(conf_state_t *st, const conf_pairs_t *m, conf_part_t *p)
{
	uint64_t n;
	int rc;

	if (part_time(st, m, "MaxTime", &p->max_time) ||
	    part_time(st, m, "DefaultTime", &p->default_time))
		return -1;
	if ((rc = part_u(st, m, "MaxNodes", UINT32_MAX, INFINITE32, &n)) < 0)
		return -1;
	if (!rc)
		p->max_nodes = (uint32_t)n;
	if ((rc = part_u(st, m, "MinNodes", UINT32_MAX, 0, &n)) < 0)
		return -1;
	if (!rc)
		p->min_nodes = (uint32_t)n;
	if ((rc = part_u(st, m, "MaxCPUsPerNode", UINT32_MAX, INFINITE32, &n)) < 0)
		return -1;
	if (!rc)
		p->max_cpus_per_node = (uint32_t)n;
	if ((rc = part_u(st, m, "GraceTime", UINT32_MAX, 0, &n)) < 0)
		return -1;
	if (!rc)
		p->grace_time = (uint32_t)n;
	if ((rc = part_u(st, m, "OverTimeLimit", NO_VAL16 - 1, INFINITE16, &n)) < 0)
		return -1;
	if (!rc)
		p->over_time_limit = (uint16_t)n;
	if ((rc = part_suspend_time(st, m, &p->suspend_time)) < 0)
		return -1;
	if (part_u(st, m, "MaxCPUsPerSocket", UINT32_MAX, INFINITE32, &n) < 0 ||
	    part_u(st, m, "ResumeTimeout", UINT16_MAX, 0, &n) < 0 ||
	    part_u(st, m, "SuspendTimeout", UINT16_MAX, 0, &n) < 0 ||
	    part_u(st, m, "DefCpuPerGPU", UINT64_MAX, 0, &n) < 0)
		return -1;
	if (part_mem(st, m, "DefMemPerCPU", &p->def_mem_per_cpu) ||
	    part_mem(st, m, "DefMemPerNode", &p->def_mem_per_node) ||
	    part_mem(st, m, "MaxMemPerCPU", &p->max_mem_per_cpu) ||
	    part_mem(st, m, "MaxMemPerNode", &p->max_mem_per_node) ||
	    part_mem(st, m, "DefMemPerGPU", &n))
		return -1;
	return 0;
}

static int part_priority(conf_state_t *st, const conf_pairs_t *m, conf_part_t *p)
{
	uint64_t n;
	int rc;

	if ((rc = part_u(st, m, "PriorityJobFactor", UINT16_MAX, 0, &n)) < 0)
		return -1;
	if (!rc)
		p->priority_job_factor = (uint16_t)n;
	if ((rc = part_u(st, m, "PriorityTier", UINT16_MAX, 0, &n)) < 0)
		return -1;
	if (!rc)
		p->priority_tier = (uint16_t)n;
	if ((rc = part_u(st, m, "Priority", UINT16_MAX, 0, &n)) < 0)
		return -1;
	if (!rc) {
		p->priority_job_factor = (uint16_t)n;
		p->priority_tier = (uint16_t)n;
	}
	return 0;
}

static int part_flags(conf_state_t *st, const conf_pairs_t *m, conf_part_t *p)
{
	static const struct {
		const char *key;
		size_t off;
	} flags[] = {
		{ "Default", offsetof(conf_part_t, is_default) },
		{ "Hidden", offsetof(conf_part_t, hidden) },
		{ "RootOnly", offsetof(conf_part_t, root_only) },
		{ "ExclusiveUser", offsetof(conf_part_t, exclusive_user) },
		{ "LLN", offsetof(conf_part_t, lln) },
		{ "DisableRootJobs", offsetof(conf_part_t, disable_root_jobs) },
		{ "ReqResv", offsetof(conf_part_t, req_resv) },
		{ "ExclusiveTopo", 0 },
		{ "PowerDownOnIdle", 0 },
	};

	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		const char *v = conf_pairs_get(m, flags[i].key);
		bool b;

		if (!v)
			continue;
		if (conf_rec_bool(st, flags[i].key, v, &b) < 0)
			return -1;
		if (flags[i].off)  /* 0: accepted, not kept */
			*(bool *)((char *)p + flags[i].off) = b;
	}
	return 0;
}

/* NO | EXCLUSIVE | YES[:n] | FORCE[:n], kept as scontrol prints it:
 * "NO", "EXCLUSIVE", "YES:4", "FORCE:4". */
static int part_share(conf_state_t *st, const conf_pairs_t *m, conf_part_t *p)
{
	const char *key = "OverSubscribe";
	const char *v = conf_pairs_get(m, key), *colon;
	char *word;
	uint64_t n = 4;
	int rc = 0;

	if (!v)
		return 0;
	colon = strchr(v, ':');
	word = colon ? xstrndup(v, (size_t)(colon - v)) : xstrdup(v);
	if (colon && (strcasecmp(word, "YES") && strcasecmp(word, "FORCE")))
		rc = -1;
	else if (colon && (conf_rec_num(st, key, colon + 1, 65535, 0, &n) < 0 ||
			   !n))
		rc = -1;
	else if (strcasecmp(word, "NO") && strcasecmp(word, "EXCLUSIVE") &&
		 strcasecmp(word, "YES") && strcasecmp(word, "FORCE"))
		rc = -1;
	if (rc == 0) {
		xfree(p->oversubscribe);
		xstrtolower(word);
		if (!strcmp(word, "yes") || !strcmp(word, "force"))
			p->oversubscribe = xstrdup_printf("%s:%llu",
				!strcmp(word, "yes") ? "YES" : "FORCE",
				(unsigned long long)n);
		else
			p->oversubscribe = part_upper(word);
	}
	xfree(word);
	if (rc < 0)
		return conf_fail(st, "invalid value \"%s\" for %s", v, key);
	return 0;
}

static int part_words(conf_state_t *st, const conf_pairs_t *m, conf_part_t *p)
{
	const char *v;

	if ((v = conf_pairs_get(m, "State"))) {
		if (strcasecmp(v, "UP") && strcasecmp(v, "DOWN") &&
		    strcasecmp(v, "DRAIN") && strcasecmp(v, "INACTIVE"))
			return conf_fail(st, "invalid value \"%s\" for State", v);
		xfree(p->state);
		p->state = part_upper(v);
	}
	if ((v = conf_pairs_get(m, "PreemptMode"))) {
		char **w = xstrsplit(v, ",", NULL);
		bool ok = w[0] != NULL;

		for (size_t i = 0; w[i] && ok; i++) {
			size_t j;

			for (j = 0; preempt_modes[j]; j++)
				if (!strcasecmp(w[i], preempt_modes[j]))
					break;
			ok = preempt_modes[j] != NULL;
		}
		xstrarray_free(w);
		if (!ok)
			return conf_fail(st, "invalid value \"%s\" for PreemptMode", v);
		xfree(p->preempt_mode);
		p->preempt_mode = part_upper(v);
	}
	return 0;
}

static void part_strings(const conf_pairs_t *m, conf_part_t *p)
{
	part_str(m, "AllowGroups", &p->allow_groups, true, false);
	part_str(m, "AllowAccounts", &p->allow_accounts, true, true);
	part_str(m, "DenyAccounts", &p->deny_accounts, false, true);
	part_str(m, "AllowQos", &p->allow_qos, true, true);
	part_str(m, "DenyQos", &p->deny_qos, false, true);
	part_str(m, "QOS", &p->qos, false, false);
	part_str(m, "Alternate", &p->alternate, false, false);
	part_str(m, "TRESBillingWeights", &p->tres_billing_weights, false, false);
	part_str(m, "Nodes", &p->nodes, false, false);
}

static int part_fill(conf_state_t *st, const conf_pairs_t *m, conf_part_t *p)
{
	if (part_numbers(st, m, p) || part_priority(st, m, p) ||
	    part_flags(st, m, p) || part_share(st, m, p) ||
	    part_words(st, m, p))
		return -1;
	part_strings(m, p);
	return 0;
}

static void part_push(conf_state_t *st, conf_part_t *p)
{
	slurm_conf_t *c = st->c;

	c->parts = xrealloc(c->parts, (c->part_cnt + 1) * sizeof(*c->parts));
	st->part_where = xrealloc(st->part_where,
				  (c->part_cnt + 1) * sizeof(char *));
	c->parts[c->part_cnt] = *p;
	st->part_where[c->part_cnt] = xstrdup(st->where);
	c->part_cnt++;
}

int conf_part_record(conf_state_t *st, conf_pairs_t *pairs)
{
	const char *name = pairs->v[0].value;
	conf_pairs_t m = { 0 };
	conf_part_t p;
	int rc = -1;

	if (conf_rec_check_keys(st, pairs, part_keys) < 0)
		return -1;
	conf_rec_merge(&m, &st->part_dflt, pairs);
	part_init(&p);
	if (part_fill(st, &m, &p) < 0)
		goto out;
	if (!strcasecmp(name, "DEFAULT")) {
		for (size_t i = 1; i < pairs->cnt; i++)
			conf_pairs_set(&st->part_dflt, pairs->v[i].key,
				       pairs->v[i].value);
		rc = 0;
		goto out;
	}
	if (conf_find_part(st->c, name)) {
		conf_fail(st, "partition \"%s\" is defined more than once", name);
		goto out;
	}
	p.name = xstrdup(name);
	part_push(st, &p);
	conf_pairs_free(&m);
	return 0;
out:
	conf_part_free(&p);
	conf_pairs_free(&m);
	return rc;
}

/* ---- after the whole file ------------------------------------------- */

/* Hosts of a NodeSet: its Nodes= list, or the nodes with its Feature. */
static int nodeset_hosts(conf_state_t *st, const conf_rec_t *r, hostlist_t *out)
{
	const char *nodes = conf_pairs_get(&r->pairs, "Nodes");
	const char *feat = conf_pairs_get(&r->pairs, "Feature");
	char herr[128];

	if (nodes && !strcasecmp(nodes, "ALL"))
		nodes = NULL, feat = NULL;
	if (nodes)
		return hostlist_push(out, nodes, herr, sizeof(herr));
	for (size_t i = 0; i < st->c->node_cnt; i++) {
		const conf_node_t *n = &st->c->nodes[i];
		bool match = !feat;

		if (feat && n->features) {
			char **f = xstrsplit(n->features, ",", NULL);

			for (size_t j = 0; f[j] && !match; j++)
				match = !strcmp(f[j], feat);
			xstrarray_free(f);
		}
		if (match)
			hostlist_push_host(out, n->name);
	}
	return 0;
}

static const conf_rec_t *nodeset_find(conf_state_t *st, const char *name)
{
	for (size_t i = 0; i < st->nodesets.cnt; i++)
		if (!strcmp(st->nodesets.v[i].pairs.v[0].value, name))
			return &st->nodesets.v[i];
	return NULL;
}

/* One name of a Nodes= list: a node, or a NodeSet (its hosts, and what
 * it takes of nodes added later: all of them, or those with its Feature). */
static int part_resolve_one(conf_state_t *st, conf_part_t *p,
			    const char *name, hostlist_t *out)
{
	const conf_rec_t *ns;
	const char *nodes, *feat;
	hostlist_t *tmp;
	int rc;

	if (conf_node_lookup(st, name) >= 0) {
		hostlist_push_host(out, name);
		return 0;
	}
	if (!(ns = nodeset_find(st, name)))
		return conf_fail(st, "unknown node \"%s\" in Nodes", name);
	nodes = conf_pairs_get(&ns->pairs, "Nodes");
	feat = conf_pairs_get(&ns->pairs, "Feature");
	if (nodes && !strcasecmp(nodes, "ALL"))
		p->nodes_all = true;
	else if (!nodes && feat && !p->nodes_all)
		xstrfmtcat(&p->nodeset_features, "%s%s",
			   p->nodeset_features ? "," : "", feat);
	else if (!nodes)
		p->nodes_all = true;
	tmp = hostlist_create();
	rc = nodeset_hosts(st, ns, tmp);
	for (size_t i = 0; !rc && i < hostlist_count(tmp); i++) {
		if (conf_node_lookup(st, hostlist_nth(tmp, i)) < 0)
			rc = conf_fail(st, "NodeSet %s: unknown node \"%s\"",
				       name, hostlist_nth(tmp, i));
		else
			hostlist_push_host(out, hostlist_nth(tmp, i));
	}
	hostlist_destroy(tmp);
	return rc;
}

static char *part_all_nodes(conf_state_t *st)
{
	hostlist_t *hl = hostlist_create();
	char *s;

	for (size_t i = 0; i < st->c->node_cnt; i++)
		hostlist_push_host(hl, st->c->nodes[i].name);
	s = hostlist_ranged(hl);
	hostlist_destroy(hl);
	return s;
}

static int part_resolve(conf_state_t *st, conf_part_t *p)
{
	hostlist_t *hl, *out;
	bool sets = false;
	int rc = 0;

	if (!p->nodes)
		return 0;
	for (char *s = p->nodes; *s; s++)
		if (isspace((unsigned char)*s))
			*s = ',';
	if (!strcasecmp(p->nodes, "ALL")) {
		xfree(p->nodes);
		p->nodes = part_all_nodes(st);
		p->nodes_all = true;
		return 0;
	}
	if (!(hl = conf_rec_hostlist(st, "Nodes", p->nodes)))
		return -1;
	out = hostlist_create();
	for (size_t i = 0; i < hostlist_count(hl) && !rc; i++) {
		sets |= conf_node_lookup(st, hostlist_nth(hl, i)) < 0;
		rc = part_resolve_one(st, p, hostlist_nth(hl, i), out);
	}
	hostlist_destroy(hl);
	if (!rc && sets) {       /* NodeSets expanded: node names only */
		hostlist_uniq(out);
		xfree(p->nodes);
		p->nodes = hostlist_ranged(out);
	}
	hostlist_destroy(out);
	return rc;
}

int conf_parts_finish(conf_state_t *st)
{
	bool have_default = false;

	for (size_t i = 0; i < st->c->part_cnt; i++) {
		conf_part_t *p = &st->c->parts[i];
		int rc;

		st->where = st->part_where[i];
		rc = part_resolve(st, p);
		st->where = NULL;
		if (rc < 0)
			return -1;
		if (p->is_default && have_default)
			p->is_default = false;
		else if (p->is_default)
			have_default = true;
	}
	return 0;
}

/* ---- run-time partitions (scontrol create/update PartitionName) ------ */

void conf_part_init_named(conf_part_t *p, const char *name)
{
	part_init(p);
	p->name = xstrdup(name);
}

void conf_part_copy(conf_part_t *dst, const conf_part_t *src)
{
	*dst = *src;
	dst->name = xstrdup(src->name);
	dst->nodes = xstrdup(src->nodes);
	dst->nodeset_features = xstrdup(src->nodeset_features);
	dst->state = xstrdup(src->state);
	dst->allow_groups = xstrdup(src->allow_groups);
	dst->allow_accounts = xstrdup(src->allow_accounts);
	dst->deny_accounts = xstrdup(src->deny_accounts);
	dst->allow_qos = xstrdup(src->allow_qos);
	dst->deny_qos = xstrdup(src->deny_qos);
	dst->qos = xstrdup(src->qos);
	dst->oversubscribe = xstrdup(src->oversubscribe);
	dst->preempt_mode = xstrdup(src->preempt_mode);
	dst->alternate = xstrdup(src->alternate);
	dst->tres_billing_weights = xstrdup(src->tres_billing_weights);
}

static bool part_key_in(const char *key, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		if (!strcasecmp(key, list[i]))
			return true;
	return false;
}

/* How scontrol words a bad value of key (as Slurm's scontrol does). */
static int part_value_error(const char *key, const char *word, char *err,
			    size_t errlen)
{
	static const char *const bools[] = {
		"Default", "Hidden", "RootOnly", "ExclusiveUser", "LLN",
		"DisableRootJobs", "ReqResv", "ExclusiveTopo",
		"PowerDownOnIdle", NULL
	};
	static const char *const nums[] = {
		"MaxNodes", "MinNodes", "MaxCPUsPerNode", "MaxCPUsPerSocket",
		"GraceTime", "OverTimeLimit", "PriorityJobFactor",
		"PriorityTier", "Priority", "ResumeTimeout", "SuspendTimeout",
		"SuspendTime", "DefCpuPerGPU", NULL
	};
	const char *v = strchr(word, '=') + 1;

	if (!strcasecmp(key, "State")) {
		snprintf(err, errlen, "Invalid input: %s\nAcceptable State "
			 "values are UP, DOWN, DRAIN and INACTIVE", word);
		return CONF_PART_ESTATE;
	}
	if (part_key_in(key, bools)) {
		snprintf(err, errlen, "Invalid input: %s\nAcceptable %s "
			 "values are YES and NO", word, key);
		return CONF_PART_EVALUE;
	}
	if (part_key_in(key, nums)) {
		snprintf(err, errlen, "Invalid numeric value \"%s\" for %s.",
			 v, key);
		return CONF_PART_ENUM;
	}
	snprintf(err, errlen, "Invalid input %s", word);
	return CONF_PART_EVALUE;
}

/* One Key=Value word alone, on a scratch copy of p: 0 or a CONF_PART_E*. */
static int part_check_word(const conf_part_t *p, const char *word,
			   conf_pairs_t *all, char *err, size_t errlen)
{
	const char *eq = strchr(word, '=');
	char *key, why[512] = "";
	conf_state_t st = { .err = why, .errlen = sizeof(why) };
	conf_pairs_t one = { 0 }, m = { 0 };
	conf_part_t tmp;
	size_t k;
	int rc = 0;

	if (!eq || eq == word) {
		snprintf(err, errlen, "Update of this parameter is not "
			 "supported: %s\n", word);
		return CONF_PART_EKEY;
	}
	key = xstrndup(word, (size_t)(eq - word));
	for (k = 0; part_keys[k]; k++)
		if (!strcasecmp(part_keys[k], key))
			break;
	if (!part_keys[k] || !strcasecmp(key, "PartitionName")) {
		snprintf(err, errlen, "Update of this parameter is not "
			 "supported: %s\n", word);
		xfree(key);
		return CONF_PART_EKEY;
	}
	if (conf_check_pair(&st, "PartitionName", part_keys[k], eq + 1) < 0) {
		snprintf(err, errlen, "%s", why);
		xstrarray_free(st.notes);
		xfree(key);
		return CONF_PART_ENOTSUP;
	}
	if (st.notes) {         /* a key slurm.conf takes with no effect */
		snprintf(err, errlen, "%s: not supported: it has no effect "
			 "in Sluice", word);
		xstrarray_free(st.notes);
		xfree(key);
		return CONF_PART_ENOTSUP;
	}
	conf_pairs_add(&one, "PartitionName", p->name ? p->name : "");
	conf_pairs_add(&one, part_keys[k], eq + 1);
	conf_rec_merge(&m, &(conf_pairs_t){ 0 }, &one);
	conf_part_copy(&tmp, p);
	if (part_fill(&st, &m, &tmp) < 0)
		rc = part_value_error(part_keys[k], word, err, errlen);
	conf_part_free(&tmp);
	for (size_t i = 0; i < m.cnt; i++)
		conf_pairs_set(all, m.v[i].key, m.v[i].value);
	conf_pairs_free(&m);
	conf_pairs_free(&one);
	xfree(key);
	return rc;
}

int conf_part_apply(conf_part_t *p, char *const *words, size_t *bad,
		    char *err, size_t errlen)
{
	conf_pairs_t all = { 0 };
	char why[256] = "";
	conf_state_t st = { .err = why, .errlen = sizeof(why) };
	int rc = 0;

	for (size_t i = 0; words && words[i]; i++) {
		rc = part_check_word(p, words[i], &all, err, errlen);
		if (rc) {
			if (bad)
				*bad = i;
			conf_pairs_free(&all);
			return rc;
		}
	}
	/* each word alone was good: all of them at once, in order */
	if (part_fill(&st, &all, p) < 0) {     /* not expected */
		snprintf(err, errlen, "%s", why);
		rc = CONF_PART_EVALUE;
	}
	if (p->nodes)
		for (char *s = p->nodes; *s; s++)
			if (isspace((unsigned char)*s))
				*s = ',';
	conf_pairs_free(&all);
	return rc;
}
