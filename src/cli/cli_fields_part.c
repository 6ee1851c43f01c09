/* cli_fields_part.c — the partition record described once: scontrol show
 * partition layout and the 25.05 "partitions" JSON members. */
#include <stdio.h>
#include <string.h>

#include "cli/cli_fields.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define P(r) ((const part_info_t *)(r))
#define TXT(fn) static void fn(char **o, const void *r, const cli_ctx_t *c)
#define JSN(fn) static json_object *fn(const void *r, const cli_ctx_t *c)

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

STR_TEXT(t_name, name)
ALL_TEXT(t_allow_groups, allow_groups)
ALL_TEXT(t_allow_accounts, allow_accounts)
ALL_TEXT(t_allow_qos, allow_qos)
STR_TEXT(t_deny_accounts, deny_accounts)
STR_TEXT(t_deny_qos, deny_qos)
TXT(t_all) { xstrcat(o, "ALL"); }
YESNO_TEXT(t_default, is_default)
TXT(t_qos) { xstrcat(o, P(r)->qos_char ? P(r)->qos_char : "N/A"); }
TXT(t_default_time) { minutes_text(o, P(r)->default_time, "NONE"); }
NUM32_JSON(j_default_time, default_time)
YESNO_TEXT(t_disable_root, disable_root_jobs)
YESNO_TEXT(t_excl_user, exclusive_user)
U_TEXT(t_grace, grace_time)
INT_JSON(j_grace, grace_time)
YESNO_TEXT(t_hidden, hidden)
TXT(t_max_nodes) { count_text(o, P(r)->max_nodes); }
NUM32_JSON(j_max_nodes, max_nodes)
TXT(t_max_time) { minutes_text(o, P(r)->max_time, "UNLIMITED"); }
NUM32_JSON(j_max_time, max_time)
U_TEXT(t_min_nodes, min_nodes)
INT_JSON(j_min_nodes, min_nodes)
YESNO_TEXT(t_lln, lln)

TXT(t_max_cpn)
{
	count_text(o, P(r)->max_cpus_per_node ? P(r)->max_cpus_per_node
					      : INFINITE32);
}

JSN(j_max_cpn)
{
	return cli_json_num32(P(r)->max_cpus_per_node ? P(r)->max_cpus_per_node
						      : INFINITE32);
}

STR_TEXT(t_nodes, nodes)
U_TEXT(t_prio_factor, priority_job_factor)
INT_JSON(j_prio_factor, priority_job_factor)
U_TEXT(t_prio_tier, priority_tier)
INT_JSON(j_prio_tier, priority_tier)
YESNO_TEXT(t_root_only, root_only)
YESNO_TEXT(t_req_resv, req_resv)
TXT(t_oversub) { xstrcat(o, P(r)->oversubscribe ? P(r)->oversubscribe : "NO"); }

TXT(t_over_time)
{
	uint16_t v = P(r)->over_time_limit;

	if (v == NO_VAL16)
		xstrcat(o, "NONE");
	else if (v == INFINITE16)
		xstrcat(o, "UNLIMITED");
	else
		xstrfmtcat(o, "%u", v);
}

JSN(j_over_time)
{
	uint16_t v = P(r)->over_time_limit;

	return cli_json_num32(v == NO_VAL16 ? NO_VAL32
			      : v == INFINITE16 ? INFINITE32 : v);
}

TXT(t_preempt) { xstrcat(o, P(r)->preempt_mode ? P(r)->preempt_mode : "OFF"); }
TXT(t_state) { xstrcat(o, part_state_string(P(r)->state_up)); }

JSN(j_state)
{
	json_object *a = json_object_new_array();

	json_object_array_add(a, json_object_new_string(
					 part_state_string(P(r)->state_up)));
	return a;
}

U_TEXT(t_total_cpus, total_cpus)
INT_JSON(j_total_cpus, total_cpus)
U_TEXT(t_total_nodes, total_nodes)
INT_JSON(j_total_nodes, total_nodes)

TXT(t_select_params)
{
	xstrcat(o, P(r)->select_type_parameters ? P(r)->select_type_parameters
						: "NONE");
}

TXT(t_null) { }

static bool mem_set(uint64_t v)
{
	return v && v != NO_VAL64 && v != INFINITE64;
}

TXT(t_def_mem_cpu)
{
	if (mem_set(P(r)->def_mem_per_cpu))
		xstrfmtcat(o, "%llu", (unsigned long long)P(r)->def_mem_per_cpu);
}

TXT(t_def_mem_node)
{
	if (mem_set(P(r)->def_mem_per_cpu))
		return;
	if (mem_set(P(r)->def_mem_per_node))
		xstrfmtcat(o, "%llu", (unsigned long long)P(r)->def_mem_per_node);
	else
		xstrcat(o, "UNLIMITED");
}

TXT(t_max_mem_cpu)
{
	if (mem_set(P(r)->max_mem_per_cpu))
		xstrfmtcat(o, "%llu", (unsigned long long)P(r)->max_mem_per_cpu);
}

TXT(t_max_mem_node)
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

JSN(j_def_mem_cpu) { return mem_json(P(r)->def_mem_per_cpu); }
JSN(j_def_mem_node) { return mem_json(P(r)->def_mem_per_node); }
JSN(j_max_mem_cpu) { return mem_json(P(r)->max_mem_per_cpu); }
JSN(j_max_mem_node) { return mem_json(P(r)->max_mem_per_node); }
STR_TEXT(t_tres, tres_fmt_str)
STR_TEXT(t_billing, billing_weights_str)
STR_TEXT(t_alternate, alternate)
STR_TEXT(t_allow_groups_raw, allow_groups)
STR_TEXT(t_allow_accounts_raw, allow_accounts)
STR_TEXT(t_allow_qos_raw, allow_qos)
STR_TEXT(t_qos_raw, qos_char)

#define NL CF_SHOW_NL
#define OPT CF_SHOW_OPT

const cli_field_t cli_part_fields[] = {
	{ 0, NULL, NULL, "PartitionName", 0, t_name, "name", NULL },
	{ 0, NULL, NULL, "AllowGroups", NL, t_allow_groups, NULL, NULL },
	{ 0, NULL, NULL, "AllowAccounts", 0, t_allow_accounts, NULL, NULL },
	{ 0, NULL, NULL, "DenyAccounts", OPT, t_deny_accounts, "accounts/deny", NULL },
	{ 0, NULL, NULL, "AllowQos", 0, t_allow_qos, NULL, NULL },
	{ 0, NULL, NULL, "DenyQos", OPT, t_deny_qos, "qos/deny", NULL },
	{ 0, NULL, NULL, "AllocNodes", NL, t_all, NULL, NULL },
	{ 0, NULL, NULL, "Default", 0, t_default, NULL, NULL },
	{ 0, NULL, NULL, "QoS", 0, t_qos, NULL, NULL },
	{ 0, NULL, NULL, "DefaultTime", NL, t_default_time, "defaults/time", j_default_time },
	{ 0, NULL, NULL, "DisableRootJobs", 0, t_disable_root, NULL, NULL },
	{ 0, NULL, NULL, "ExclusiveUser", 0, t_excl_user, NULL, NULL },
	{ 0, NULL, NULL, "GraceTime", 0, t_grace, "grace_time", j_grace },
	{ 0, NULL, NULL, "Hidden", 0, t_hidden, NULL, NULL },
	{ 0, NULL, NULL, "MaxNodes", NL, t_max_nodes, "maximums/nodes", j_max_nodes },
	{ 0, NULL, NULL, "MaxTime", 0, t_max_time, "maximums/time", j_max_time },
	{ 0, NULL, NULL, "MinNodes", 0, t_min_nodes, "minimums/nodes", j_min_nodes },
	{ 0, NULL, NULL, "LLN", 0, t_lln, NULL, NULL },
	{ 0, NULL, NULL, "MaxCPUsPerNode", 0, t_max_cpn, "maximums/cpus_per_node", j_max_cpn },
	{ 0, NULL, NULL, "Nodes", NL, t_nodes, "nodes/configured", NULL },
	{ 0, NULL, NULL, "PriorityJobFactor", NL, t_prio_factor, "priority/job_factor",
	  j_prio_factor },
	{ 0, NULL, NULL, "PriorityTier", 0, t_prio_tier, "priority/tier", j_prio_tier },
	{ 0, NULL, NULL, "RootOnly", 0, t_root_only, NULL, NULL },
	{ 0, NULL, NULL, "ReqResv", 0, t_req_resv, NULL, NULL },
	{ 0, NULL, NULL, "OverSubscribe", 0, t_oversub, NULL, NULL },
	{ 0, NULL, NULL, "OverTimeLimit", NL, t_over_time, "maximums/over_time_limit",
	  j_over_time },
	{ 0, NULL, NULL, "PreemptMode", 0, t_preempt, NULL, NULL },
	{ 0, NULL, NULL, "State", NL, t_state, "partition/state", j_state },
	{ 0, NULL, NULL, "TotalCPUs", 0, t_total_cpus, "cpus/total", j_total_cpus },
	{ 0, NULL, NULL, "TotalNodes", 0, t_total_nodes, "nodes/total", j_total_nodes },
	{ 0, NULL, NULL, "SelectTypeParameters", 0, t_select_params, NULL, NULL },
	{ 0, NULL, NULL, "JobDefaults", NL, t_null, NULL, NULL },
	{ 0, NULL, NULL, "DefMemPerCPU", NL | OPT, t_def_mem_cpu,
	  "defaults/partition_memory_per_cpu", j_def_mem_cpu },
	{ 0, NULL, NULL, "DefMemPerNode", NL | OPT, t_def_mem_node,
	  "defaults/partition_memory_per_node", j_def_mem_node },
	{ 0, NULL, NULL, "MaxMemPerCPU", OPT, t_max_mem_cpu,
	  "maximums/partition_memory_per_cpu", j_max_mem_cpu },
	{ 0, NULL, NULL, "MaxMemPerNode", OPT, t_max_mem_node,
	  "maximums/partition_memory_per_node", j_max_mem_node },
	{ 0, NULL, NULL, "TRES", NL, t_tres, "tres/configured", NULL },
	{ 0, NULL, NULL, "TRESBillingWeights", NL | OPT, t_billing, "tres/billing_weights", NULL },

	/* JSON only */
	{ 0, NULL, NULL, NULL, 0, t_allow_groups_raw, "groups/allowed", NULL },
	{ 0, NULL, NULL, NULL, 0, t_allow_accounts_raw, "accounts/allowed", NULL },
	{ 0, NULL, NULL, NULL, 0, t_allow_qos_raw, "qos/allowed", NULL },
	{ 0, NULL, NULL, NULL, 0, t_qos_raw, "qos/assigned", NULL },
	{ 0, NULL, NULL, NULL, 0, t_alternate, "alternate", NULL },
	{ 0, NULL, NULL, NULL, 0, NULL, NULL, NULL },
};
