/* cli_fields_sinfo.c — a sinfo row (the nodes of a partition that print
 * alike) described once: sinfo letters, -O names, headers and the 25.05
 * "sinfo" JSON members.  Rows flagged CF_SINFO_AGG summarise the nodes
 * (lists, counts) and do not decide which nodes share a row. */
#include <stdio.h>
#include <string.h>

#include "cli/cli_fields.h"
#include "common/hostlist.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define R(r) ((const cli_sinfo_row_t *)(r))
#define N0(r) (R(r)->nodes[0])
#define TXT(fn) static void fn(char **o, const void *r, const cli_ctx_t *c)
#define JSN(fn) CLI_JSON_OBJ(fn, r, c)
#define AGG CF_SINFO_AGG

/* ---- partition columns ---- */

TXT(st_part)
{
	const part_info_t *p = R(r)->part;

	if (!p) {
		xstrcat(o, "n/a");
		return;
	}
	xstrcat(o, p->name);
	if (p->is_default)
		xstrcatc(o, '*');
}

TXT(st_part_name) { xstrcat(o, R(r)->part ? R(r)->part->name : "n/a"); }

TXT(st_avail)
{
	static const char *const names[] = {
		[PARTITION_INACTIVE] = "inact", [PARTITION_DOWN] = "down",
		[PARTITION_DRAIN] = "drain", [PARTITION_UP] = "up",
	};
	const part_info_t *p = R(r)->part;

	xstrcat(o, !p ? "n/a" : p->state_up <= PARTITION_UP
					? names[p->state_up] : "unk");
}

static void limit(char **o, uint32_t min)
{
	char buf[32];

	if (min == NO_VAL32) {
		xstrcat(o, "n/a");
		return;
	}
	fmt_time_limit_short(min, true, buf, sizeof(buf));
	xstrcat(o, buf);
}

TXT(st_time) { limit(o, R(r)->part ? R(r)->part->max_time : NO_VAL32); }
TXT(st_def_time) { limit(o, R(r)->part ? R(r)->part->default_time : NO_VAL32); }

TXT(st_job_size)
{
	const part_info_t *p = R(r)->part;
	uint32_t min;

	if (!p) {
		xstrcat(o, "n/a");
		return;
	}
	min = p->min_nodes ? p->min_nodes : 1;
	if (p->max_nodes == min) {
		xstrfmtcat(o, "%u", min);
		return;
	}
	xstrfmtcat(o, "%u-", min);
	if (p->max_nodes == INFINITE32 || p->max_nodes == NO_VAL32)
		xstrcat(o, "infinite");
	else
		xstrfmtcat(o, "%u", p->max_nodes);
}

TXT(st_root)
{
	xstrcat(o, R(r)->part && R(r)->part->root_only ? "yes" : "no");
}

TXT(st_oversub)
{
	const part_info_t *p = R(r)->part;

	xstrcat(o, p && p->oversubscribe ? p->oversubscribe : "NO");
}

TXT(st_groups)
{
	const part_info_t *p = R(r)->part;

	xstrcat(o, p && p->allow_groups ? p->allow_groups : "all");
}

TXT(st_prio_tier) { xstrfmtcat(o, "%u", R(r)->part ? R(r)->part->priority_tier : 0); }
TXT(st_prio_factor) { xstrfmtcat(o, "%u", R(r)->part ? R(r)->part->priority_job_factor : 0); }

/* ---- node summaries ---- */

static char *node_list(const cli_sinfo_row_t *row, int what)
{
	hostlist_t *hl = hostlist_create();
	char *s;

	for (size_t i = 0; i < row->cnt; i++) {
		const node_info_t *n = row->nodes[i];
		const char *v = what == 0 ? n->name
				: what == 1 ? n->node_hostname : n->node_addr;

		hostlist_push_host(hl, v ? v : n->name);
	}
	if (!row->part)
		hostlist_uniq(hl);
	s = hostlist_ranged(hl);
	hostlist_destroy(hl);
	return s;
}

static void list_text(char **o, const void *r, int what)
{
	char *s = node_list(R(r), what);

	xstrcat(o, s);
	xfree(s);
}

TXT(st_nodelist) { list_text(o, r, 0); }
TXT(st_hostnames) { list_text(o, r, 1); }
TXT(st_addrs) { list_text(o, r, 2); }
TXT(st_count) { xstrfmtcat(o, "%zu", R(r)->cnt); }

enum { CNT_ALLOC, CNT_IDLE, CNT_OTHER, CNT_TOTAL };

static int node_class(const node_info_t *n)
{
	uint32_t s = n->node_state, b = s & NODE_STATE_BASE;

	if ((s & (NODE_STATE_DRAIN | NODE_STATE_FAIL | NODE_STATE_NO_RESPOND)) ||
	    b == NODE_STATE_DOWN || b == NODE_STATE_FUTURE ||
	    b == NODE_STATE_UNKNOWN || b == NODE_STATE_ERROR)
		return CNT_OTHER;
	if (b == NODE_STATE_ALLOCATED || b == NODE_STATE_MIXED ||
	    (s & NODE_STATE_COMPLETING))
		return CNT_ALLOC;
	return CNT_IDLE;
}

static void node_counts(const cli_sinfo_row_t *row, uint64_t cnt[4])
{
	memset(cnt, 0, 4 * sizeof(*cnt));
	for (size_t i = 0; i < row->cnt; i++)
		cnt[node_class(row->nodes[i])]++;
	cnt[CNT_TOTAL] = row->cnt;
}

static void cpu_counts(const cli_sinfo_row_t *row, uint64_t cnt[4])
{
	memset(cnt, 0, 4 * sizeof(*cnt));
	for (size_t i = 0; i < row->cnt; i++) {
		const node_info_t *n = row->nodes[i];

		cnt[CNT_TOTAL] += n->cpus;
		if (node_class(n) == CNT_OTHER) {
			cnt[CNT_OTHER] += n->cpus;
			continue;
		}
		cnt[CNT_ALLOC] += n->alloc_cpus;
		cnt[CNT_IDLE] += n->cpus > n->alloc_cpus
				 ? n->cpus - n->alloc_cpus : 0;
	}
}

static void aiot(char **o, const uint64_t cnt[4], bool ai_only)
{
	if (ai_only)
		xstrfmtcat(o, "%llu/%llu", (unsigned long long)cnt[0],
			   (unsigned long long)cnt[1]);
	else
		xstrfmtcat(o, "%llu/%llu/%llu/%llu", (unsigned long long)cnt[0],
			   (unsigned long long)cnt[1], (unsigned long long)cnt[2],
			   (unsigned long long)cnt[3]);
}

TXT(st_nodes_aiot) { uint64_t n[4]; node_counts(R(r), n); aiot(o, n, false); }
TXT(st_nodes_ai) { uint64_t n[4]; node_counts(R(r), n); aiot(o, n, true); }
TXT(st_cpus_aiot) { uint64_t n[4]; cpu_counts(R(r), n); aiot(o, n, false); }

/* "min" or "min+" when the nodes differ. */
typedef uint64_t (*node_num_f)(const node_info_t *n);

static void min_plus(char **o, const cli_sinfo_row_t *row, node_num_f get)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	for (size_t i = 0; i < row->cnt; i++) {
		uint64_t v = get(row->nodes[i]);

		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	if (!row->cnt)
		lo = 0;
	xstrfmtcat(o, "%llu%s", (unsigned long long)lo, hi > lo ? "+" : "");
}

static uint64_t n_cpus(const node_info_t *n) { return n->cpus; }
static uint64_t n_mem(const node_info_t *n) { return n->real_memory; }
static uint64_t n_disk(const node_info_t *n) { return n->tmp_disk; }
static uint64_t n_weight(const node_info_t *n) { return n->weight; }
static uint64_t n_sockets(const node_info_t *n) { return n->sockets; }
static uint64_t n_cores(const node_info_t *n) { return n->cores; }
static uint64_t n_threads(const node_info_t *n) { return n->threads; }
static uint64_t n_alloc_mem(const node_info_t *n) { return n->alloc_memory; }

static uint64_t n_load(const node_info_t *n)
{
	return n->cpu_load == NO_VAL32 ? 0 : n->cpu_load;
}

static uint64_t n_free_mem(const node_info_t *n)
{
	return n->free_mem == NO_VAL64 ? 0 : n->free_mem;
}

TXT(st_cpus) { min_plus(o, R(r), n_cpus); }
TXT(st_mem) { min_plus(o, R(r), n_mem); }
TXT(st_disk) { min_plus(o, R(r), n_disk); }
TXT(st_weight) { min_plus(o, R(r), n_weight); }
TXT(st_sockets) { min_plus(o, R(r), n_sockets); }
TXT(st_cores) { min_plus(o, R(r), n_cores); }
TXT(st_threads) { min_plus(o, R(r), n_threads); }
TXT(st_free_mem) { min_plus(o, R(r), n_free_mem); }
TXT(st_alloc_mem) { min_plus(o, R(r), n_alloc_mem); }

TXT(st_sct)
{
	const node_info_t *n = N0(r);

	xstrfmtcat(o, "%u:%u:%u", n->sockets, n->cores, n->threads);
}

TXT(st_load)
{
	const node_info_t *n = N0(r);

	if (n->cpu_load == NO_VAL32)
		xstrcat(o, "N/A");
	else
		xstrfmtcat(o, "%.2f", n->cpu_load / 100.0);
}

TXT(st_state)
{
	char *s = node_state_string_sinfo(N0(r)->node_state, true);

	xstrcat(o, s);
	xfree(s);
}

TXT(st_state_long)
{
	char *s = node_state_string_sinfo(N0(r)->node_state, false);

	xstrcat(o, s);
	xfree(s);
}

TXT(st_features) { xstrcat(o, N0(r)->features); }

TXT(st_features_act)
{
	xstrcat(o, N0(r)->features_act ? N0(r)->features_act : N0(r)->features);
}

TXT(st_gres) { xstrcat(o, N0(r)->gres); }
TXT(st_gres_used) { xstrcat(o, N0(r)->gres_used); }
TXT(st_version) { xstrcat(o, N0(r)->version); }
TXT(st_comment) { xstrcat(o, N0(r)->comment); }
TXT(st_extra) { xstrcat(o, N0(r)->extra); }
TXT(st_port) { xstrfmtcat(o, "%u", N0(r)->port); }

TXT(st_reason)
{
	const char *s = N0(r)->reason;

	xstrcat(o, s && *s ? s : "none");
}

TXT(st_reason_user)
{
	const node_info_t *n = N0(r);

	if (!n->reason || !*n->reason || n->reason_uid == NO_VAL32)
		xstrcat(o, "Unk");
	else
		cli_fmt_uid(o, n->reason_uid);
}

TXT(st_reason_uid)
{
	const node_info_t *n = N0(r);

	if (!n->reason || !*n->reason || n->reason_uid == NO_VAL32)
		xstrcat(o, "Unk");
	else
		xstrfmtcat(o, "%u", n->reason_uid);
}

TXT(st_reason_time)
{
	const node_info_t *n = N0(r);

	cli_fmt_time(o, n->reason && *n->reason ? n->reason_time : 0,
		     "Unknown");
}

TXT(st_null) { }

/* ---- JSON ---- */

static json_object *counts_obj(const uint64_t cnt[4])
{
	static const char *const keys[] = { "allocated", "idle", "other", "total" };
	json_object *o = json_object_new_object();

	for (int i = 0; i < 4; i++)
		json_object_object_add(o, keys[i],
				       json_object_new_int64((int64_t)cnt[i]));
	return o;
}

static json_object *name_list(const cli_sinfo_row_t *row, int what)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < row->cnt; i++) {
		const node_info_t *n = row->nodes[i];
		const char *v = what == 0 ? n->name
				: what == 1 ? n->node_hostname : n->node_addr;

		json_object_array_add(a, cli_json_str(v));
	}
	return a;
}

JSN(sj_nodes)
{
	uint64_t cnt[4];
	json_object *o;

	node_counts(R(r), cnt);
	o = counts_obj(cnt);
	json_object_object_add(o, "hostnames", name_list(R(r), 1));
	json_object_object_add(o, "addresses", name_list(R(r), 2));
	json_object_object_add(o, "nodes", name_list(R(r), 0));
	return o;
}

static json_object *min_max(const cli_sinfo_row_t *row, node_num_f get)
{
	json_object *o = json_object_new_object();
	uint64_t lo = UINT64_MAX, hi = 0;

	for (size_t i = 0; i < row->cnt; i++) {
		uint64_t v = get(row->nodes[i]);

		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	if (!row->cnt)
		lo = 0;
	json_object_object_add(o, "minimum", json_object_new_int64((int64_t)lo));
	json_object_object_add(o, "maximum", json_object_new_int64((int64_t)hi));
	return o;
}

JSN(sj_cpus)
{
	uint64_t cnt[4];
	json_object *o;
	json_object *mm = min_max(R(r), n_cpus);

	cpu_counts(R(r), cnt);
	o = counts_obj(cnt);
	json_object_object_add(o, "minimum",
			       json_object_get(json_object_object_get(mm, "minimum")));
	json_object_object_add(o, "maximum",
			       json_object_get(json_object_object_get(mm, "maximum")));
	json_object_put(mm);
	json_object_object_add(o, "load", min_max(R(r), n_load));
	return o;
}

JSN(sj_sockets) { return min_max(R(r), n_sockets); }
JSN(sj_cores) { return min_max(R(r), n_cores); }
JSN(sj_threads) { return min_max(R(r), n_threads); }
JSN(sj_disk) { return min_max(R(r), n_disk); }
JSN(sj_weight) { return min_max(R(r), n_weight); }

JSN(sj_memory)
{
	json_object *o = min_max(R(r), n_mem);

	json_object_object_add(o, "free", min_max(R(r), n_free_mem));
	json_object_object_add(o, "allocated",
			       json_object_new_int64((int64_t)N0(r)->alloc_memory));
	return o;
}

JSN(sj_state)
{
	const char *names[16];
	json_object *a = json_object_new_array();
	int n = node_state_strings(N0(r)->node_state, names);

	for (int i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_string(names[i]));
	return a;
}

JSN(sj_partition)
{
	if (!R(r)->part)
		return json_object_new_object();
	return cli_fields_json(cli_part_fields, R(r)->part, c);
}

JSN(sj_features)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "available", cli_json_str(N0(r)->features));
	json_object_object_add(o, "active", cli_json_str(N0(r)->features_act
				? N0(r)->features_act : N0(r)->features));
	return o;
}

JSN(sj_reason)
{
	json_object *o = json_object_new_object();
	char *user = NULL;
	const node_info_t *n = N0(r);

	if (n->reason && n->reason_uid != NO_VAL32)
		cli_fmt_uid(&user, n->reason_uid);
	json_object_object_add(o, "description", cli_json_str(n->reason));
	json_object_object_add(o, "time", json_object_new_int64(n->reason_time));
	json_object_object_add(o, "user", cli_json_str(user));
	xfree(user);
	return o;
}

JSN(sj_port) { return json_object_new_int(N0(r)->port); }

const cli_field_t cli_sinfo_fields[] = {
	{ 'P', "partition", "PARTITION", NULL, 0, st_part, NULL, NULL },
	{ 'R', "partitionname", "PARTITION", NULL, 0, st_part_name, NULL, NULL },
	{ 'a', "available", "AVAIL", NULL, 0, st_avail, NULL, NULL },
	{ 'l', "time", "TIMELIMIT", NULL, 0, st_time, NULL, NULL },
	{ 'L', "defaulttime", "DEFAULTTIME", NULL, 0, st_def_time, NULL, NULL },
	{ 's', "size", "JOB_SIZE", NULL, 0, st_job_size, NULL, NULL },
	{ 'r', "root", "ROOT", NULL, 0, st_root, NULL, NULL },
	{ 'h', "oversubscribe", "OVERSUBSCRIBE", NULL, 0, st_oversub, NULL, NULL },
	{ 'g', "groups", "GROUPS", NULL, 0, st_groups, NULL, NULL },
	{ 'p', "prioritytier", "PRIO_TIER", NULL, 0, st_prio_tier, NULL, NULL },
	{ 'S', "priorityjobfactor", "PRIO_JOB_FACTOR", NULL, 0, st_prio_factor, NULL, NULL },
	{ 'D', "nodes", "NODES", NULL, AGG, st_count, "nodes", sj_nodes },
	{ 'N', "nodelist", "NODELIST", NULL, AGG, st_nodelist, NULL, NULL },
	{ 'n', "nodehost", "HOSTNAMES", NULL, AGG, st_hostnames, NULL, NULL },
	{ 'o', "nodeaddr", "NODE_ADDR", NULL, AGG, st_addrs, NULL, NULL },
	{ 'F', "nodeaiot", "NODES(A/I/O/T)", NULL, AGG, st_nodes_aiot, NULL, NULL },
	{ 'A', "nodeai", "NODES(A/I)", NULL, AGG, st_nodes_ai, NULL, NULL },
	{ 'C', "cpusstate", "CPUS(A/I/O/T)", NULL, AGG, st_cpus_aiot, "cpus", sj_cpus },
	{ 't', "statecompact", "STATE", NULL, 0, st_state, "node/state", sj_state },
	{ 'T', "statelong", "STATE", NULL, 0, st_state_long, NULL, NULL },
	{ 'c', "cpus", "CPUS", NULL, 0, st_cpus, NULL, NULL },
	{ 'm', "memory", "MEMORY", NULL, 0, st_mem, "memory", sj_memory },
	{ 0, "allocmem", "ALLOCMEM", NULL, 0, st_alloc_mem, NULL, NULL },
	{ 'e', "freemem", "FREE_MEM", NULL, 0, st_free_mem, NULL, NULL },
	{ 'd', "disk", "TMP_DISK", NULL, 0, st_disk, "disk", sj_disk },
	{ 'w', "weight", "WEIGHT", NULL, 0, st_weight, "weight", sj_weight },
	{ 'z', "socketcorethread", "S:C:T", NULL, 0, st_sct, NULL, NULL },
	{ 'X', "sockets", "SOCKETS", NULL, 0, st_sockets, "sockets", sj_sockets },
	{ 'Y', "cores", "CORES", NULL, 0, st_cores, "cores", sj_cores },
	{ 'Z', "threads", "THREADS", NULL, 0, st_threads, "threads", sj_threads },
	{ 'O', "cpusload", "CPU_LOAD", NULL, 0, st_load, NULL, NULL },
	{ 'f', "features", "AVAIL_FEATURES", NULL, 0, st_features, "features", sj_features },
	{ 'b', "features_act", "ACTIVE_FEATURES", NULL, 0, st_features_act, NULL, NULL },
	{ 'G', "gres", "GRES", NULL, 0, st_gres, "gres/total", NULL },
	{ 0, "gresused", "GRES_USED", NULL, 0, st_gres_used, "gres/used", NULL },
	{ 'E', "reason", "REASON", NULL, 0, st_reason, "reason", sj_reason },
	{ 'u', "user", "USER", NULL, 0, st_reason_user, NULL, NULL },
	{ 'U', "userlong", "USER", NULL, 0, st_reason_uid, NULL, NULL },
	{ 'H', "timestamp", "TIMESTAMP", NULL, 0, st_reason_time, NULL, NULL },
	{ 'v', "version", "VERSION", NULL, 0, st_version, NULL, NULL },
	{ 0, "comment", "COMMENT", NULL, 0, st_comment, "comment", NULL },
	{ 0, "extra", "EXTRA", NULL, 0, st_extra, "extra", NULL },
	{ 0, "port", "PORT", NULL, 0, st_port, "port", sj_port },
	{ 0, NULL, NULL, NULL, 0, st_null, "partition", sj_partition },
	{ 0, NULL, NULL, NULL, 0, NULL, NULL, NULL },
};

/* Local macros end here: the unit test builds several tables in one
 * translation unit. */
#undef AGG
#undef JSN
#undef N0
#undef R
#undef TXT
