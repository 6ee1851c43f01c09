/* cli_fields_part.c — the partition record described once: scontrol show
 * partition layout and the 25.05 "partitions" JSON members. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_fields.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define P(r) ((const part_info_t *)(r))
#define TXT(fn) static void fn(char **o, const void *r, const cli_ctx_t *c)
#define JSN(fn) CLI_JSON_OBJ(fn, r, c)

#define STR_TEXT(fn, m) TXT(fn) { xstrcat(o, P(r)->m); }
#define ALL_TEXT(fn, m) TXT(fn) { xstrcat(o, P(r)->m ? P(r)->m : "ALL"); }
#define YESNO_TEXT(fn, m) TXT(fn) { xstrcat(o, P(r)->m ? "YES" : "NO"); }
#define U_TEXT(fn, m) TXT(fn) { xstrfmtcat(o, "%llu", (unsigned long long)P(r)->m); }
#define INT_JSON(fn, m) JSN(fn) { return json_object_new_int64((int64_t)P(r)->m); }
#define NUM32_JSON(fn, m) JSN(fn) { return cli_json_num32(P(r)->m); }

static void minutes_text(char **o, uint32_t min, const char *unset)
{
	char buf[32];

	if (min == NO_VAL32) {
		xstrcat(o, unset);
		return;
	}
	fmt_time_limit(min, buf, sizeof(buf));
	xstrcat(o, buf);
}

static void count_text(char **o, uint64_t v)
{
	if (v == INFINITE32 || v == INFINITE64 || v == NO_VAL32)
		xstrcat(o, "UNLIMITED");
	else
		xstrfmtcat(o, "%llu", (unsigned long long)v);
}

STR_TEXT(pt_name, name)
ALL_TEXT(pt_allow_groups, allow_groups)
ALL_TEXT(pt_allow_accounts, allow_accounts)
ALL_TEXT(pt_allow_qos, allow_qos)
STR_TEXT(pt_deny_accounts, deny_accounts)
STR_TEXT(pt_deny_qos, deny_qos)
TXT(pt_all) { xstrcat(o, "ALL"); }
YESNO_TEXT(pt_default, is_default)
TXT(pt_qos) { xstrcat(o, P(r)->qos_char ? P(r)->qos_char : "N/A"); }
TXT(pt_default_time) { minutes_text(o, P(r)->default_time, "NONE"); }
NUM32_JSON(pj_default_time, default_time)
YESNO_TEXT(pt_disable_root, disable_root_jobs)
YESNO_TEXT(pt_excl_user, exclusive_user)
U_TEXT(pt_grace, grace_time)
INT_JSON(pj_grace, grace_time)
YESNO_TEXT(pt_hidden, hidden)
TXT(pt_max_nodes) { count_text(o, P(r)->max_nodes); }
NUM32_JSON(pj_max_nodes, max_nodes)
TXT(pt_max_time) { minutes_text(o, P(r)->max_time, "UNLIMITED"); }
NUM32_JSON(pj_max_time, max_time)
U_TEXT(pt_min_nodes, min_nodes)
INT_JSON(pj_min_nodes, min_nodes)
YESNO_TEXT(pt_lln, lln)

TXT(pt_max_cpn)
{
	count_text(o, P(r)->max_cpus_per_node ? P(r)->max_cpus_per_node
					      : INFINITE32);
}

JSN(pj_max_cpn)
{
	return cli_json_num32(P(r)->max_cpus_per_node ? P(r)->max_cpus_per_node
						      : INFINITE32);
}

STR_TEXT(pt_nodes, nodes)
U_TEXT(pt_prio_factor, priority_job_factor)
INT_JSON(pj_prio_factor, priority_job_factor)
U_TEXT(pt_prio_tier, priority_tier)
INT_JSON(pj_prio_tier, priority_tier)
YESNO_TEXT(pt_root_only, root_only)
YESNO_TEXT(pt_req_resv, req_resv)
TXT(pt_oversub) { xstrcat(o, P(r)->oversubscribe ? P(r)->oversubscribe : "NO"); }

TXT(pt_over_time)
{
	uint16_t v = P(r)->over_time_limit;

	if (v == NO_VAL16)
		xstrcat(o, "NONE");
	else if (v == INFINITE16)
		xstrcat(o, "UNLIMITED");
	else
		xstrfmtcat(o, "%u", v);
}

JSN(pj_over_time)
{
	uint16_t v = P(r)->over_time_limit;

	return cli_json_num32(v == NO_VAL16 ? NO_VAL32
			      : v == INFINITE16 ? INFINITE32 : v);
}

TXT(pt_preempt) { xstrcat(o, P(r)->preempt_mode ? P(r)->preempt_mode : "OFF"); }
TXT(pt_state) { xstrcat(o, part_state_string(P(r)->state_up)); }

JSN(pj_state)
{
	json_object *a = json_object_new_array();

	json_object_array_add(a, json_object_new_string(
					 part_state_string(P(r)->state_up)));
	return a;
}

U_TEXT(pt_total_cpus, total_cpus)
INT_JSON(pj_total_cpus, total_cpus)
U_TEXT(pt_total_nodes, total_nodes)
INT_JSON(pj_total_nodes, total_nodes)

TXT(pt_select_params)
{
	xstrcat(o, P(r)->select_type_parameters ? P(r)->select_type_parameters
						: "NONE");
}

TXT(pt_null) { }

static bool mem_set(uint64_t v)
{
	return v && v != NO_VAL64 && v != INFINITE64;
}

TXT(pt_def_mem_cpu)
{
	if (mem_set(P(r)->def_mem_per_cpu))
		xstrfmtcat(o, "%llu", (unsigned long long)P(r)->def_mem_per_cpu);
}

TXT(pt_def_mem_node)
{
	if (mem_set(P(r)->def_mem_per_cpu))
		return;
	if (mem_set(P(r)->def_mem_per_node))
		xstrfmtcat(o, "%llu", (unsigned long long)P(r)->def_mem_per_node);
	else
		xstrcat(o, "UNLIMITED");
}

TXT(pt_max_mem_cpu)
{
	if (mem_set(P(r)->max_mem_per_cpu))
		xstrfmtcat(o, "%llu", (unsigned long long)P(r)->max_mem_per_cpu);
}

TXT(pt_max_mem_node)
{
	if (mem_set(P(r)->max_mem_per_cpu))
		return;
	if (mem_set(P(r)->max_mem_per_node))
		xstrfmtcat(o, "%llu", (unsigned long long)P(r)->max_mem_per_node);
	else
		xstrcat(o, "UNLIMITED");
}

static json_object *mem_json(uint64_t v)
{
	return cli_json_num64(mem_set(v) ? v : NO_VAL64);
}

JSN(pj_def_mem_cpu) { return mem_json(P(r)->def_mem_per_cpu); }
JSN(pj_def_mem_node) { return mem_json(P(r)->def_mem_per_node); }
JSN(pj_max_mem_cpu) { return mem_json(P(r)->max_mem_per_cpu); }
JSN(pj_max_mem_node) { return mem_json(P(r)->max_mem_per_node); }
STR_TEXT(pt_tres, tres_fmt_str)
STR_TEXT(pt_billing, billing_weights_str)
STR_TEXT(pt_alternate, alternate)
STR_TEXT(pt_allow_groups_raw, allow_groups)
STR_TEXT(pt_allow_accounts_raw, allow_accounts)
STR_TEXT(pt_allow_qos_raw, allow_qos)
STR_TEXT(pt_qos_raw, qos_char)

JSN(pj_empty_list) { return json_object_new_array(); }
JSN(pj_zero) { return json_object_new_int(0); }
JSN(pj_one) { return json_object_new_int(1); }
JSN(pj_unset) { return cli_json_num32(NO_VAL32); }
JSN(pj_infinite) { return cli_json_num32(INFINITE32); }
TXT(pt_empty) { xstrcat(o, ""); }

JSN(pj_oversub)
{
	json_object *o = json_object_new_object();
	const char *s = P(r)->oversubscribe;
	const char *colon = s ? strchr(s, ':') : NULL;

	json_object_object_add(o, "jobs", json_object_new_int(colon ? atoi(colon + 1) : 1));
	json_object_object_add(o, "flags", json_object_new_array());
	return o;
}

#define NL CF_SHOW_NL
#define OPT CF_SHOW_OPT

const cli_field_t cli_part_fields[] = {
	{ 0, NULL, NULL, "PartitionName", 0, pt_name, "name", NULL },
	{ 0, NULL, NULL, "AllowGroups", NL, pt_allow_groups, NULL, NULL },
	{ 0, NULL, NULL, "AllowAccounts", 0, pt_allow_accounts, NULL, NULL },
	{ 0, NULL, NULL, "DenyAccounts", OPT, pt_deny_accounts, "accounts/deny", NULL },
	{ 0, NULL, NULL, "AllowQos", 0, pt_allow_qos, NULL, NULL },
	{ 0, NULL, NULL, "DenyQos", OPT, pt_deny_qos, "qos/deny", NULL },
	{ 0, NULL, NULL, "AllocNodes", NL, pt_all, NULL, NULL },
	{ 0, NULL, NULL, "Default", 0, pt_default, NULL, NULL },
	{ 0, NULL, NULL, "QoS", 0, pt_qos, NULL, NULL },
	{ 0, NULL, NULL, "DefaultTime", NL, pt_default_time, "defaults/time", pj_default_time },
	{ 0, NULL, NULL, "DisableRootJobs", 0, pt_disable_root, NULL, NULL },
	{ 0, NULL, NULL, "ExclusiveUser", 0, pt_excl_user, NULL, NULL },
	{ 0, NULL, NULL, "GraceTime", 0, pt_grace, "grace_time", pj_grace },
	{ 0, NULL, NULL, "Hidden", 0, pt_hidden, NULL, NULL },
	{ 0, NULL, NULL, "MaxNodes", NL, pt_max_nodes, "maximums/nodes", pj_max_nodes },
	{ 0, NULL, NULL, "MaxTime", 0, pt_max_time, "maximums/time", pj_max_time },
	{ 0, NULL, NULL, "MinNodes", 0, pt_min_nodes, "minimums/nodes", pj_min_nodes },
	{ 0, NULL, NULL, "LLN", 0, pt_lln, NULL, NULL },
	{ 0, NULL, NULL, "MaxCPUsPerNode", 0, pt_max_cpn, "maximums/cpus_per_node", pj_max_cpn },
	{ 0, NULL, NULL, "Nodes", NL, pt_nodes, "nodes/configured", NULL },
	{ 0, NULL, NULL, "PriorityJobFactor", NL, pt_prio_factor, "priority/job_factor",
	  pj_prio_factor },
	{ 0, NULL, NULL, "PriorityTier", 0, pt_prio_tier, "priority/tier", pj_prio_tier },
	{ 0, NULL, NULL, "RootOnly", 0, pt_root_only, NULL, NULL },
	{ 0, NULL, NULL, "ReqResv", 0, pt_req_resv, NULL, NULL },
	{ 0, NULL, NULL, "OverSubscribe", 0, pt_oversub, NULL, NULL },
	{ 0, NULL, NULL, "OverTimeLimit", NL, pt_over_time, "maximums/over_time_limit",
	  pj_over_time },
	{ 0, NULL, NULL, "PreemptMode", 0, pt_preempt, NULL, NULL },
	{ 0, NULL, NULL, "State", NL, pt_state, "partition/state", pj_state },
	{ 0, NULL, NULL, "TotalCPUs", 0, pt_total_cpus, "cpus/total", pj_total_cpus },
	{ 0, NULL, NULL, "TotalNodes", 0, pt_total_nodes, "nodes/total", pj_total_nodes },
	{ 0, NULL, NULL, "SelectTypeParameters", 0, pt_select_params, NULL, NULL },
	{ 0, NULL, NULL, "JobDefaults", NL, pt_null, NULL, NULL },
	{ 0, NULL, NULL, "DefMemPerCPU", NL | OPT, pt_def_mem_cpu,
	  "defaults/partition_memory_per_cpu", pj_def_mem_cpu },
	{ 0, NULL, NULL, "DefMemPerNode", NL | OPT, pt_def_mem_node,
	  "defaults/partition_memory_per_node", pj_def_mem_node },
	{ 0, NULL, NULL, "MaxMemPerCPU", OPT, pt_max_mem_cpu,
	  "maximums/partition_memory_per_cpu", pj_max_mem_cpu },
	{ 0, NULL, NULL, "MaxMemPerNode", OPT, pt_max_mem_node,
	  "maximums/partition_memory_per_node", pj_max_mem_node },
	{ 0, NULL, NULL, "TRES", NL, pt_tres, "tres/configured", NULL },
	{ 0, NULL, NULL, "TRESBillingWeights", NL | OPT, pt_billing, "tres/billing_weights", NULL },

	/* JSON only */
	{ 0, NULL, NULL, NULL, 0, pt_allow_groups_raw, "groups/allowed", NULL },
	{ 0, NULL, NULL, NULL, 0, pt_allow_accounts_raw, "accounts/allowed", NULL },
	{ 0, NULL, NULL, NULL, 0, pt_allow_qos_raw, "qos/allowed", NULL },
	{ 0, NULL, NULL, NULL, 0, pt_qos_raw, "qos/assigned", NULL },
	{ 0, NULL, NULL, NULL, 0, pt_alternate, "alternate", NULL },
	{ 0, NULL, NULL, NULL, 0, pt_empty, "nodes/allowed_allocation", NULL },
	{ 0, NULL, NULL, NULL, 0, pt_empty, "cluster", NULL },
	{ 0, NULL, NULL, NULL, 0, pt_null, "select_type", pj_empty_list },
	{ 0, NULL, NULL, NULL, 0, pt_null, "cpus/task_binding", pj_zero },
	{ 0, NULL, NULL, NULL, 0, pt_empty, "defaults/job", NULL },
	{ 0, NULL, NULL, NULL, 0, pt_null, "maximums/cpus_per_socket", pj_infinite },
	{ 0, NULL, NULL, NULL, 0, pt_null, "maximums/shares", pj_one },
	{ 0, NULL, NULL, NULL, 0, pt_null, "maximums/oversubscribe", pj_oversub },
	{ 0, NULL, NULL, NULL, 0, pt_empty, "node_sets", NULL },
	{ 0, NULL, NULL, NULL, 0, pt_null, "timeouts/resume", pj_unset },
	{ 0, NULL, NULL, NULL, 0, pt_null, "timeouts/suspend", pj_unset },
	{ 0, NULL, NULL, NULL, 0, pt_empty, "topology", NULL },
	{ 0, NULL, NULL, NULL, 0, pt_null, "suspend_time", pj_unset },
	{ 0, NULL, NULL, NULL, 0, NULL, NULL, NULL },
};

/* Local macros end here: the unit test builds several tables in one
 * translation unit. */
#undef ALL_TEXT
#undef INT_JSON
#undef JSN
#undef NL
#undef NUM32_JSON
#undef OPT
#undef P
#undef STR_TEXT
#undef TXT
#undef U_TEXT
#undef YESNO_TEXT
