/* conf_nodes.c — slurm.conf records: NodeName (expanded to one conf_node_t
 * per host), NodeSet, DownNodes, FrontendName, and the value checks that
 * the record parsers share.  PartitionName is in conf_parts.c.
 */
#include "common/conf.h"
#include "common/conf_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "common/hostlist.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

/* Far beyond any cluster; keeps a typo like n[1-999999] from eating memory. */
#define CONF_MAX_NODES (1u << 17)

typedef struct {
	char          *name;   /* points at c->nodes[i].name */
	size_t         i;
	UT_hash_handle hh;
} node_idx_t;

static const char *const node_keys[] = {
	"NodeName", "NodeHostname", "NodeAddr", "BcastAddr", "Port", "CPUs",
	"Procs", "Boards", "SocketsPerBoard", "Sockets", "CoresPerSocket",
	"ThreadsPerCore", "RealMemory", "TmpDisk", "Weight", "Feature",
	"Features", "AvailableFeatures", "ActiveFeatures", "Gres", "State",
	"Reason", "CpuSpecList", "CoreSpecCount", "MemSpecLimit", "CpuBind",
	"Comment", "Extra", "TRESWeights", "RestrictedCoresPerGPU", "Topology",
	"Parameters", NULL
};

static const char *const nodeset_keys[] = {
	"NodeSet", "Feature", "Nodes", NULL
};

static const char *const down_keys[] = {
	"DownNodes", "Reason", "State", NULL
};

static const char *const frontend_keys[] = {
	"FrontendName", "FrontendAddr", "Port", "Reason", "State",
	"AllowGroups", "AllowUsers", "DenyGroups", "DenyUsers", NULL
};

static const char *const node_states[] = {
	"CLOUD", "DOWN", "DRAIN", "FAIL", "FAILING", "FUTURE", "IDLE",
	"UNKNOWN", "NO_RESPOND", "POWER_DOWN", "POWERED_DOWN", "RESUME", NULL
};

/* ---- shared checks -------------------------------------------------- */

const char *const *conf_rec_keys(const char *record)
{
	static const char *const *const recs[] = {
		node_keys, nodeset_keys, down_keys, frontend_keys,
	};

	if (!strcasecmp(record, "PartitionName"))
		return conf_part_keys();
	for (size_t i = 0; i < sizeof(recs) / sizeof(recs[0]); i++)
		if (!strcasecmp(recs[i][0], record))
			return recs[i];
	return NULL;
}

int conf_rec_check_keys(conf_state_t *st, const conf_pairs_t *pairs,
			const char *const *allowed)
{
	for (size_t i = 0; i < pairs->cnt; i++) {
		size_t j;

		for (j = 0; allowed[j]; j++)
			if (!strcasecmp(allowed[j], pairs->v[i].key))
				break;
		if (!allowed[j])
			return conf_fail(st, "unknown key \"%s\" in %s line",
					 pairs->v[i].key, allowed[0]);
		if (conf_check_pair(st, allowed[0], allowed[j],
				    pairs->v[i].value) < 0)
			return -1;
	}
	return 0;
}

int conf_rec_num(conf_state_t *st, const char *key, const char *v,
		 uint64_t max, uint64_t unlim, uint64_t *out)
{
	uint64_t n = 0;

	if (unlim && (!strcasecmp(v, "UNLIMITED") ||
		      !strcasecmp(v, "INFINITE"))) {
		*out = unlim;
		return 0;
	}
	if (!*v)
		goto bad;
	for (const char *p = v; *p; p++) {
		if (!isdigit((unsigned char)*p) || n > (UINT64_MAX - 9) / 10)
			goto bad;
		n = n * 10 + (uint64_t)(*p - '0');
	}
	if (n > max)
		goto bad;
	*out = n;
	return 0;
bad:
	return conf_fail(st, "invalid value \"%s\" for %s", v, key);
}

int conf_rec_bool(conf_state_t *st, const char *key, const char *v, bool *out)
{
	if (parse_bool(v, out) < 0)
		return conf_fail(st, "invalid value \"%s\" for %s", v, key);
	return 0;
}

int conf_rec_mem(conf_state_t *st, const char *key, const char *v,
		 uint64_t *out)
{
	if (parse_mem_mb(v, out) < 0)
		return conf_fail(st, "invalid value \"%s\" for %s", v, key);
	return 0;
}

/* Old or alternate spellings of record keys, and the key they stand for. */
static const char *const rec_aliases[][2] = {
	{ "Feature", "Features" },
	{ "AvailableFeatures", "Features" },
	{ "Procs", "CPUs" },
	{ "Shared", "OverSubscribe" },
};

static const char *rec_canon(const char *key)
{
	for (size_t i = 0; i < sizeof(rec_aliases) / sizeof(rec_aliases[0]); i++)
		if (!strcasecmp(key, rec_aliases[i][0]))
			return rec_aliases[i][1];
	return key;
}

void conf_rec_merge(conf_pairs_t *out, const conf_pairs_t *dflt,
		    const conf_pairs_t *line)
{
	for (size_t i = 0; i < dflt->cnt; i++)
		conf_pairs_set(out, rec_canon(dflt->v[i].key), dflt->v[i].value);
	for (size_t i = 1; i < line->cnt; i++)
		conf_pairs_set(out, rec_canon(line->v[i].key), line->v[i].value);
}

static int rec_state(conf_state_t *st, const char *v,
		     const char *const *allowed)
{
	char **parts = xstrsplit(v, "+", NULL);
	int rc = 0;

	for (size_t i = 0; parts[i] && !rc; i++) {
		size_t j;

		for (j = 0; allowed[j]; j++)
			if (!strcasecmp(allowed[j], parts[i]))
				break;
		if (!allowed[j])
			rc = -1;
	}
	if (!parts[0])
		rc = -1;
	xstrarray_free(parts);
	if (rc < 0)
		return conf_fail(st, "invalid value \"%s\" for State", v);
	return 0;
}

/* Hosts in one bracket group "[1-3,7]"; *p is after the '['. */
static uint64_t hl_group_count(const char **p)
{
	uint64_t cnt = 0, lo = 0, hi = 0;
	bool in_hi = false;

	for (; **p && **p != ']'; (*p)++) {
		char ch = **p;

		if (isdigit((unsigned char)ch)) {
			uint64_t *n = in_hi ? &hi : &lo;

			if (*n < UINT32_MAX)
				*n = *n * 10 + (uint64_t)(ch - '0');
		} else if (ch == '-') {
			in_hi = true;
			hi = 0;
		} else if (ch == ',') {
			cnt += in_hi && hi > lo ? hi - lo + 1 : 1;
			lo = hi = 0;
			in_hi = false;
		}
	}
	cnt += in_hi && hi > lo ? hi - lo + 1 : 1;
	if (**p)
		(*p)++;
	return cnt;
}

/* An upper bound on the hosts an expression names, without expanding it
 * (a few brackets can multiply to millions of long names). */
static uint64_t hl_estimate(const char *expr)
{
	uint64_t total = 0, item = 1;
	const char *p = expr;

	while (*p) {
		if (*p == '[') {
			uint64_t g;

			p++;
			g = hl_group_count(&p);
			item = item > UINT32_MAX / (g ? g : 1) ? UINT32_MAX : item * g;
			continue;
		}
		if (*p == ',' || isspace((unsigned char)*p)) {
			total += item;
			item = 1;
		}
		p++;
	}
	return total + item;
}

hostlist_t *conf_rec_hostlist(conf_state_t *st, const char *key,
			       const char *v)
{
	char herr[256] = "";
	hostlist_t *hl;

	if (hl_estimate(v) > CONF_MAX_NODES) {
		conf_fail(st, "%s=%.40s names more than %u hosts", key, v,
			  CONF_MAX_NODES);
		return NULL;
	}
	hl = hostlist_parse(v, herr, sizeof(herr));

	if (!hl) {
		conf_fail(st, "invalid value \"%s\" for %s: %s", v, key, herr);
		return NULL;
	}
	if (!hostlist_count(hl)) {
		hostlist_destroy(hl);
		conf_fail(st, "invalid value \"%s\" for %s", v, key);
		return NULL;
	}
	return hl;
}

/* ---- NodeName ------------------------------------------------------- */

typedef struct {
	uint64_t cpus, boards, spb, sockets, cores, threads;
	uint64_t mem, tmp, weight, core_spec, mem_spec;
	bool has_cpus, has_spb, has_sockets;
	const char *features, *gres, *state, *reason, *cpu_spec;
	hostlist_t *names, *hosts, *addrs, *ports;
} node_line_t;

/* Port: "17001", "17001-17004", "[17001-17004]" or "17001,17003". */
static int node_ports(conf_state_t *st, const char *v, node_line_t *nl)
{
	char *expr = v[0] == '[' ? xstrdup(v) : xstrdup_printf("[%s]", v);
	int rc = 0;

	nl->ports = conf_rec_hostlist(st, "Port", expr);
	xfree(expr);
	if (!nl->ports)
		return -1;
	for (size_t i = 0; i < hostlist_count(nl->ports) && !rc; i++) {
		uint64_t p;

		rc = conf_rec_num(st, "Port", hostlist_nth(nl->ports, i),
				  65535, 0, &p);
		if (!rc && !p)
			rc = conf_fail(st, "invalid value \"%s\" for Port", v);
	}
	return rc;
}

static int node_u(conf_state_t *st, const conf_pairs_t *m, const char *key,
		  uint64_t max, uint64_t *out, bool *has)
{
	const char *v = conf_pairs_get(m, key);

	if (has)
		*has = v != NULL;
	if (!v)
		return 0;
	return conf_rec_num(st, key, v, max, 0, out);
}

/* Weight: a number, or UNLIMITED (the highest weight a node can have). */
static int node_weight(conf_state_t *st, const conf_pairs_t *m, uint64_t *out)
{
	const char *v = conf_pairs_get(m, "Weight");

	if (!v)
		return 0;
	if (conf_rec_num(st, "Weight", v, INFINITE32 - 1, INFINITE32, out) < 0)
		return -1;
	if (*out == INFINITE32)
		*out = INFINITE32 - 1;
	return 0;
}

static int node_numbers(conf_state_t *st, const conf_pairs_t *m,
			node_line_t *nl)
{
	const char *v;

	if (node_u(st, m, "CPUs", 65535, &nl->cpus, &nl->has_cpus) ||
	    node_u(st, m, "Boards", 65535, &nl->boards, NULL) ||
	    node_u(st, m, "SocketsPerBoard", 65535, &nl->spb, &nl->has_spb) ||
	    node_u(st, m, "Sockets", 65535, &nl->sockets, &nl->has_sockets) ||
	    node_u(st, m, "CoresPerSocket", 65535, &nl->cores, NULL) ||
	    node_u(st, m, "ThreadsPerCore", 65535, &nl->threads, NULL) ||
	    node_weight(st, m, &nl->weight) ||
	    node_u(st, m, "CoreSpecCount", 65535, &nl->core_spec, NULL))
		return -1;
	if ((v = conf_pairs_get(m, "RealMemory")) &&
	    conf_rec_mem(st, "RealMemory", v, &nl->mem))
		return -1;
	if ((v = conf_pairs_get(m, "TmpDisk")) &&
	    conf_rec_mem(st, "TmpDisk", v, &nl->tmp))
		return -1;
	if ((v = conf_pairs_get(m, "MemSpecLimit")) &&
	    conf_rec_mem(st, "MemSpecLimit", v, &nl->mem_spec))
		return -1;
	return 0;
}

/* Sockets, cores and CPUs as Slurm infers them from what is given. */
static void node_topology(node_line_t *nl)
{
	if (!nl->boards)
		nl->boards = 1;
	if (!nl->cores)
		nl->cores = 1;
	if (!nl->threads)
		nl->threads = 1;
	if (nl->has_spb && !nl->spb)
		nl->spb = 1;
	if (nl->has_spb) {
		nl->sockets = nl->boards * nl->spb;
	} else if (!nl->has_sockets || !nl->sockets) {
		uint64_t ct = nl->cores * nl->threads;

		if (nl->has_cpus && nl->cpus >= ct && nl->cpus % ct == 0)
			nl->sockets = nl->cpus / ct;
		else
			nl->sockets = nl->boards;
	}
	if (!nl->sockets)
		nl->sockets = 1;
	if (!nl->has_cpus || !nl->cpus)
		nl->cpus = nl->sockets * nl->cores * nl->threads;
	if (nl->cpus != nl->sockets &&
	    nl->cpus != nl->sockets * nl->cores &&
	    nl->cpus != nl->sockets * nl->cores * nl->threads)
		nl->cpus = nl->sockets * nl->cores * nl->threads;
	if (nl->cpus > 65535)
		nl->cpus = 65535;
	if (nl->sockets < nl->boards)
		nl->boards = 1;
}

/* hostlist of count 1 or n; a single value applies to every name. */
static int node_parallel(conf_state_t *st, const conf_pairs_t *m,
			 const char *key, size_t n, hostlist_t **out)
{
	const char *v = conf_pairs_get(m, key);

	if (!v)
		return 0;
	if (!(*out = conf_rec_hostlist(st, key, v)))
		return -1;
	if (hostlist_count(*out) != 1 && hostlist_count(*out) != n)
		return conf_fail(st, "%s count (%zu) does not match NodeName count (%zu)",
				 key, hostlist_count(*out), n);
	return 0;
}

static const char *nth_or_one(hostlist_t *hl, size_t i)
{
	if (!hl)
		return NULL;
	return hostlist_nth(hl, hostlist_count(hl) == 1 ? 0 : i);
}

static int node_index_add(conf_state_t *st, size_t i)
{
	node_idx_t *head = st->node_idx, *e;
	const char *name = st->c->nodes[i].name;

	HASH_FIND_STR(head, name, e);
	if (e)
		return conf_fail(st, "node \"%s\" is defined more than once",
				 name);
	e = xmalloc(sizeof(*e));
	e->name = st->c->nodes[i].name;
	e->i = i;
	HASH_ADD_KEYPTR(hh, head, e->name, strlen(e->name), e);
	st->node_idx = head;
	return 0;
}

void conf_node_index_free(void **idx)
{
	node_idx_t *head = *idx, *e, *tmp;

	HASH_ITER(hh, head, e, tmp) {
		HASH_DEL(head, e);
		xfree(e);
	}
	*idx = NULL;
}

long conf_node_index_find(void *idx, const char *name)
{
	node_idx_t *head = idx, *e;

	HASH_FIND_STR(head, name, e);
	return e ? (long)e->i : -1;
}

static long node_index_find(conf_state_t *st, const char *name)
{
	return conf_node_index_find(st->node_idx, name);
}

static conf_node_t *node_push(conf_state_t *st)
{
	slurm_conf_t *c = st->c;

	if (c->node_cnt == st->node_cap) {
		st->node_cap = st->node_cap ? st->node_cap * 2 : 16;
		c->nodes = xrealloc(c->nodes, st->node_cap * sizeof(*c->nodes));
	}
	memset(&c->nodes[c->node_cnt], 0, sizeof(conf_node_t));
	return &c->nodes[c->node_cnt++];
}

static int node_emit(conf_state_t *st, const node_line_t *nl)
{
	size_t n = hostlist_count(nl->names);

	if (st->c->node_cnt + n > CONF_MAX_NODES)
		return conf_fail(st, "more than %u nodes", CONF_MAX_NODES);
	for (size_t i = 0; i < n; i++) {
		conf_node_t *nd = node_push(st);
		const char *h = nth_or_one(nl->hosts, i);
		const char *a = nth_or_one(nl->addrs, i);
		const char *p = nth_or_one(nl->ports, i);

		nd->name = xstrdup(hostlist_nth(nl->names, i));
		nd->hostname = xstrdup(h ? h : nd->name);
		nd->addr = xstrdup(a ? a : nd->hostname);
		nd->port = p ? (uint16_t)strtoul(p, NULL, 10) : 0;
		nd->cpus = (uint16_t)nl->cpus;
		nd->boards = (uint16_t)nl->boards;
		nd->sockets = (uint16_t)nl->sockets;
		nd->cores_per_socket = (uint16_t)nl->cores;
		nd->threads_per_core = (uint16_t)nl->threads;
		nd->real_memory = nl->mem ? nl->mem : 1;
		nd->tmp_disk = nl->tmp;
		nd->weight = nl->weight ? (uint32_t)nl->weight : 1;
		nd->features = xstrdup(nl->features);
		nd->gres = xstrdup(nl->gres);
		nd->state = xstrdup(nl->state);
		nd->reason = xstrdup(nl->reason);
		nd->cpu_spec_list = xstrdup(nl->cpu_spec);
		nd->core_spec_cnt = (uint16_t)nl->core_spec;
		nd->mem_spec_limit = nl->mem_spec;
		if (node_index_add(st, st->c->node_cnt - 1) < 0)
			return -1;
	}
	return 0;
}

static int node_strings(conf_state_t *st, const conf_pairs_t *m,
			node_line_t *nl)
{
	nl->features = conf_pairs_get(m, "Features");
	nl->gres = conf_pairs_get(m, "Gres");
	nl->reason = conf_pairs_get(m, "Reason");
	nl->cpu_spec = conf_pairs_get(m, "CpuSpecList");
	nl->state = conf_pairs_get(m, "State");
	if (nl->state && rec_state(st, nl->state, node_states) < 0)
		return -1;
	return 0;
}

static int node_default(conf_state_t *st, conf_pairs_t *pairs)
{
	static const char *const banned[] = {
		"NodeHostname", "NodeAddr", "BcastAddr", NULL
	};
	conf_pairs_t m = { 0 };
	node_line_t nl = { 0 };
	int rc = -1;

	for (size_t i = 0; banned[i]; i++)
		if (conf_pairs_get(pairs, banned[i]))
			return conf_fail(st, "%s not allowed with NodeName=DEFAULT",
					 banned[i]);
	conf_rec_merge(&m, &(conf_pairs_t){ 0 }, pairs);
	if (node_numbers(st, &m, &nl) || node_strings(st, &m, &nl))
		goto out;
	if (conf_pairs_get(&m, "Port") && node_ports(st, conf_pairs_get(&m, "Port"), &nl))
		goto out;
	for (size_t i = 0; i < m.cnt; i++)
		conf_pairs_set(&st->node_dflt, m.v[i].key, m.v[i].value);
	rc = 0;
out:
	if (nl.ports)
		hostlist_destroy(nl.ports);
	conf_pairs_free(&m);
	return rc;
}

static void node_line_free(node_line_t *nl)
{
	if (nl->names)
		hostlist_destroy(nl->names);
	if (nl->hosts)
		hostlist_destroy(nl->hosts);
	if (nl->addrs)
		hostlist_destroy(nl->addrs);
	if (nl->ports)
		hostlist_destroy(nl->ports);
}

static int node_record(conf_state_t *st, conf_pairs_t *pairs)
{
	const char *value = pairs->v[0].value;
	conf_pairs_t m = { 0 };
	node_line_t nl = { 0 };
	const char *port;
	size_t n;
	int rc = -1;

	if (conf_rec_check_keys(st, pairs, node_keys) < 0)
		return -1;
	if (!strcasecmp(value, "DEFAULT"))
		return node_default(st, pairs);
	if (!strcasecmp(value, "ALL"))
		return conf_fail(st, "\"ALL\" is reserved and cannot be a NodeName");
	conf_rec_merge(&m, &st->node_dflt, pairs);
	if (!(nl.names = conf_rec_hostlist(st, "NodeName", value)))
		goto out;
	n = hostlist_count(nl.names);
	if (node_parallel(st, &m, "NodeHostname", n, &nl.hosts) ||
	    node_parallel(st, &m, "NodeAddr", n, &nl.addrs))
		goto out;
	if ((port = conf_pairs_get(&m, "Port"))) {
		if (node_ports(st, port, &nl))
			goto out;
		if (hostlist_count(nl.ports) != 1 && hostlist_count(nl.ports) != n) {
			conf_fail(st, "Port count (%zu) does not match NodeName count (%zu)",
				  hostlist_count(nl.ports), n);
			goto out;
		}
	}
	if (node_numbers(st, &m, &nl) || node_strings(st, &m, &nl))
		goto out;
	node_topology(&nl);
	rc = node_emit(st, &nl);
out:
	node_line_free(&nl);
	conf_pairs_free(&m);
	return rc;
}

/* ---- NodeSet, DownNodes, FrontendName -------------------------------- */

static void rec_keep(conf_state_t *st, conf_recs_t *r, const conf_pairs_t *pairs)
{
	conf_rec_t *rec;

	r->v = xrealloc(r->v, (r->cnt + 1) * sizeof(*r->v));
	rec = &r->v[r->cnt++];
	memset(rec, 0, sizeof(*rec));
	rec->where = xstrdup(st->where);
	for (size_t i = 0; i < pairs->cnt; i++)
		conf_pairs_set(&rec->pairs, pairs->v[i].key, pairs->v[i].value);
}

static int nodeset_record(conf_state_t *st, conf_pairs_t *pairs)
{
	const char *nodes;
	hostlist_t *hl;

	if (conf_rec_check_keys(st, pairs, nodeset_keys) < 0)
		return -1;
	if ((nodes = conf_pairs_get(pairs, "Nodes")) &&
	    strcasecmp(nodes, "ALL")) {
		if (!(hl = conf_rec_hostlist(st, "Nodes", nodes)))
			return -1;
		hostlist_destroy(hl);
	}
	rec_keep(st, &st->nodesets, pairs);
	return 0;
}

static const char *const down_states[] = {
	"DOWN", "DRAIN", "FAIL", "FAILING", "FUTURE", "UNKNOWN", NULL
};

static int down_record(conf_state_t *st, conf_pairs_t *pairs)
{
	const char *state;
	hostlist_t *hl;

	if (conf_rec_check_keys(st, pairs, down_keys) < 0)
		return -1;
	if (!(hl = conf_rec_hostlist(st, "DownNodes", pairs->v[0].value)))
		return -1;
	hostlist_destroy(hl);
	if ((state = conf_pairs_get(pairs, "State")) &&
	    rec_state(st, state, down_states) < 0)
		return -1;
	rec_keep(st, &st->downs, pairs);
	return 0;
}

static int frontend_record(conf_state_t *st, conf_pairs_t *pairs)
{
	const char *port;
	uint64_t p;

	if (conf_rec_check_keys(st, pairs, frontend_keys) < 0)
		return -1;
	if ((port = conf_pairs_get(pairs, "Port")) &&
	    conf_rec_num(st, "Port", port, 65535, 0, &p) < 0)
		return -1;
	return 0;
}

bool conf_is_record_key(const char *key)
{
	return !strcasecmp(key, "NodeName") || !strcasecmp(key, "PartitionName") ||
	       !strcasecmp(key, "NodeSet") || !strcasecmp(key, "DownNodes") ||
	       !strcasecmp(key, "FrontendName");
}

int conf_record(conf_state_t *st, conf_pairs_t *pairs)
{
	const char *key = pairs->v[0].key;

	if (!*pairs->v[0].value)
		return conf_fail(st, "empty value for %s", key);
	for (size_t i = 1; i < pairs->cnt; i++)
		if (!strcasecmp(pairs->v[i].key, key))
			return conf_fail(st, "%s given twice on one line", key);
	if (!strcasecmp(key, "NodeName"))
		return node_record(st, pairs);
	if (!strcasecmp(key, "PartitionName"))
		return conf_part_record(st, pairs);
	if (!strcasecmp(key, "NodeSet"))
		return nodeset_record(st, pairs);
	if (!strcasecmp(key, "DownNodes"))
		return down_record(st, pairs);
	return frontend_record(st, pairs);
}

/* ---- after the whole file ------------------------------------------- */

static int down_apply(conf_state_t *st, const conf_rec_t *r)
{
	const char *state = conf_pairs_get(&r->pairs, "State");
	const char *reason = conf_pairs_get(&r->pairs, "Reason");
	char herr[128];
	hostlist_t *hl = hostlist_parse(r->pairs.v[0].value, herr, sizeof(herr));
	int rc = 0;

	st->where = r->where;
	for (size_t i = 0; hl && i < hostlist_count(hl) && !rc; i++) {
		long idx = node_index_find(st, hostlist_nth(hl, i));
		conf_node_t *nd;

		if (idx < 0) {
			rc = conf_fail(st, "DownNodes: unknown node \"%s\"",
				       hostlist_nth(hl, i));
			break;
		}
		nd = &st->c->nodes[idx];
		xfree(nd->state);
		nd->state = xstrdup(state ? state : "DOWN");
		if (reason) {
			xfree(nd->reason);
			nd->reason = xstrdup(reason);
		}
	}
	st->where = NULL;
	if (hl)
		hostlist_destroy(hl);
	return rc;
}

long conf_node_lookup(conf_state_t *st, const char *name)
{
	return node_index_find(st, name);
}

int conf_records_finish(conf_state_t *st)
{
	slurm_conf_t *c = st->c;

	for (size_t i = 0; i < c->node_cnt; i++)
		if (!c->nodes[i].port)
			c->nodes[i].port = c->slurmd_port;
	for (size_t i = 0; i < st->downs.cnt; i++)
		if (down_apply(st, &st->downs.v[i]) < 0)
			return -1;
	return conf_parts_finish(st);
}

void conf_node_free(conf_node_t *n)
{
	xfree(n->name);
	xfree(n->addr);
	xfree(n->hostname);
	xfree(n->features);
	xfree(n->gres);
	xfree(n->state);
	xfree(n->reason);
	xfree(n->cpu_spec_list);
}
