/* node_info.c — node and partition states and their field tables. */
#include <string.h>
#include <strings.h>

#include "common/node_info.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static const char *const base_names[NODE_STATE_END] = {
	[NODE_STATE_UNKNOWN] = "UNKNOWN",
	[NODE_STATE_DOWN] = "DOWN",
	[NODE_STATE_IDLE] = "IDLE",
	[NODE_STATE_ALLOCATED] = "ALLOCATED",
	[NODE_STATE_ERROR] = "ERROR",
	[NODE_STATE_MIXED] = "MIXED",
	[NODE_STATE_FUTURE] = "FUTURE",
};

/* Flags as scontrol and JSON name them, in print order. */
static const struct {
	uint32_t    flag;
	const char *name;
} flag_names[] = {
	{ NODE_STATE_CLOUD, "CLOUD" },
	{ NODE_STATE_COMPLETING, "COMPLETING" },
	{ NODE_STATE_DRAIN, "DRAIN" },
	{ NODE_STATE_DYNAMIC_FUTURE, "DYNAMIC_FUTURE" },
	{ NODE_STATE_DYNAMIC_NORM, "DYNAMIC_NORM" },
	{ NODE_STATE_INVALID_REG, "INVALID_REG" },
	{ NODE_STATE_FAIL, "FAIL" },
	{ NODE_STATE_MAINT, "MAINTENANCE" },
	{ NODE_STATE_POWER_DOWN, "POWER_DOWN" },
	{ NODE_STATE_POWER_UP, "POWER_UP" },
	{ NODE_STATE_NET, "PERFCTRS" },
	{ NODE_STATE_POWERED_DOWN, "POWERED_DOWN" },
	{ NODE_STATE_REBOOT_REQUESTED, "REBOOT_REQUESTED" },
	{ NODE_STATE_REBOOT_ISSUED, "REBOOT_ISSUED" },
	{ NODE_STATE_RES, "RESERVED" },
	{ NODE_RESUME, "RESUME" },
	{ NODE_STATE_NO_RESPOND, "NOT_RESPONDING" },
	{ NODE_STATE_PLANNED, "PLANNED" },
	{ NODE_STATE_POWERING_UP, "POWERING_UP" },
	{ NODE_STATE_POWERING_DOWN, "POWERING_DOWN" },
};
#define N_FLAGS (sizeof(flag_names) / sizeof(flag_names[0]))

static const char *base_name(uint32_t state)
{
	uint32_t base = state & NODE_STATE_BASE;

	return base < NODE_STATE_END ? base_names[base] : "INVALID";
}

/* POWER_DRAIN (scontrol power down asap) shows as DRAIN, as Slurm's. */
static uint32_t shown_state(uint32_t state)
{
	if (state & NODE_STATE_POWER_DRAIN)
		state = (state & ~NODE_STATE_POWER_DRAIN) | NODE_STATE_DRAIN;
	return state;
}

char *node_state_string_long(uint32_t state)
{
	char *s;

	state = shown_state(state);
	s = xstrdup(base_name(state));

	for (size_t i = 0; i < N_FLAGS; i++)
		if (state & flag_names[i].flag)
			xstrfmtcat(&s, "+%s", flag_names[i].name);
	return s;
}

int node_state_strings(uint32_t state, const char *out[16])
{
	int n = 0;

	state = shown_state(state);
	out[n++] = base_name(state);
	for (size_t i = 0; i < N_FLAGS && n < 15; i++)
		if (state & flag_names[i].flag)
			out[n++] = flag_names[i].name;
	out[n] = NULL;
	return n;
}

/* sinfo's view: one word for the combined state, long or compact. */
static void sinfo_words(uint32_t state, const char **lng, const char **cmp)
{
	uint32_t base = state & NODE_STATE_BASE;
	bool busy = base == NODE_STATE_ALLOCATED || base == NODE_STATE_MIXED ||
		    (state & NODE_STATE_COMPLETING);

	if ((state & NODE_STATE_MAINT) && !(state & NODE_STATE_DRAIN) &&
	    base != NODE_STATE_ALLOCATED && base != NODE_STATE_MIXED &&
	    base != NODE_STATE_DOWN) {
		*lng = "maint";      /* a MAINT reservation is active */
		*cmp = "maint";
		return;
	}
	if (state & NODE_STATE_DRAIN) {
		if (busy) {
			*lng = "draining";
			*cmp = "drng";
		} else {
			*lng = "drained";
			*cmp = "drain";
		}
		return;
	}
	if (state & NODE_STATE_FAIL) {
		*lng = busy ? "failing" : "fail";
		*cmp = busy ? "failg" : "fail";
		return;
	}
	switch (base) {
	case NODE_STATE_DOWN:
		*lng = "down";
		*cmp = "down";
		return;
	case NODE_STATE_ALLOCATED:
		*lng = (state & NODE_STATE_COMPLETING) ? "allocated+" : "allocated";
		*cmp = (state & NODE_STATE_COMPLETING) ? "alloc+" : "alloc";
		return;
	case NODE_STATE_MIXED:
		*lng = "mixed";
		*cmp = "mix";
		return;
	case NODE_STATE_FUTURE:
		*lng = "future";
		*cmp = "futr";
		return;
	case NODE_STATE_IDLE:
		if (state & NODE_STATE_COMPLETING) {
			*lng = "completing";
			*cmp = "comp";
		} else if (state & NODE_STATE_RES) {
			*lng = "reserved";
			*cmp = "resv";
		} else {
			*lng = "idle";
			*cmp = "idle";
		}
		return;
	case NODE_STATE_ERROR:
		*lng = "error";
		*cmp = "err";
		return;
	default:
		*lng = "unknown";
		*cmp = "unk";
		return;
	}
}

char *node_state_string_sinfo(uint32_t state, bool compact)
{
	const char *lng, *cmp;
	char *s;

	if (state & NODE_STATE_REBOOT_ISSUED)
		return xstrdup(compact ? "boot^" : "reboot^");
	state = shown_state(state);
	sinfo_words(state, &lng, &cmp);
	s = xstrdup(compact ? cmp : lng);
	if (state & NODE_STATE_NO_RESPOND)
		xstrcat(&s, "*");
	else if (state & NODE_STATE_POWER_DOWN)
		xstrcat(&s, "!");    /* power down asked for */
	else if (state & NODE_STATE_POWERING_DOWN)
		xstrcat(&s, "%");
	else if (state & NODE_STATE_POWERED_DOWN)
		xstrcat(&s, "~");
	else if (state & NODE_STATE_POWERING_UP)
		xstrcat(&s, "#");
	else if ((state & NODE_STATE_MAINT) && strcmp(s, "maint"))
		xstrcat(&s, "$");    /* busy in a MAINT reservation */
	else if (state & NODE_STATE_REBOOT_REQUESTED)
		xstrcat(&s, "@");
	return s;
}

int node_state_from_string(const char *s, uint32_t *base, uint32_t *flags)
{
	static const struct {
		const char *name;
		uint32_t    base;    /* NO base: NODE_STATE_END */
		uint32_t    flags;
	} names[] = {
		{ "idle", NODE_STATE_IDLE, 0 },
		{ "alloc", NODE_STATE_ALLOCATED, 0 },
		{ "allocated", NODE_STATE_ALLOCATED, 0 },
		{ "mix", NODE_STATE_MIXED, 0 },
		{ "mixed", NODE_STATE_MIXED, 0 },
		{ "down", NODE_STATE_DOWN, 0 },
		{ "unk", NODE_STATE_UNKNOWN, 0 },
		{ "unknown", NODE_STATE_UNKNOWN, 0 },
		{ "future", NODE_STATE_FUTURE, 0 },
		{ "futr", NODE_STATE_FUTURE, 0 },
		{ "drain", NODE_STATE_END, NODE_STATE_DRAIN },
		{ "drained", NODE_STATE_END, NODE_STATE_DRAIN },
		{ "draining", NODE_STATE_END, NODE_STATE_DRAIN },
		{ "drng", NODE_STATE_END, NODE_STATE_DRAIN },
		{ "comp", NODE_STATE_END, NODE_STATE_COMPLETING },
		{ "completing", NODE_STATE_END, NODE_STATE_COMPLETING },
		{ "fail", NODE_STATE_END, NODE_STATE_FAIL },
		{ "no_respond", NODE_STATE_END, NODE_STATE_NO_RESPOND },
		{ "not_responding", NODE_STATE_END, NODE_STATE_NO_RESPOND },
		{ "cloud", NODE_STATE_END, NODE_STATE_CLOUD },
		{ "maint", NODE_STATE_END, NODE_STATE_MAINT },
		{ "resv", NODE_STATE_END, NODE_STATE_RES },
		{ "reserved", NODE_STATE_END, NODE_STATE_RES },
		{ "planned", NODE_STATE_END, NODE_STATE_PLANNED },
		{ "planned", NODE_STATE_END, NODE_STATE_PLANNED },
		{ "power_down", NODE_STATE_END, NODE_STATE_POWER_DOWN },
		{ "powered_down", NODE_STATE_END, NODE_STATE_POWERED_DOWN },
		{ "powering_down", NODE_STATE_END, NODE_STATE_POWERING_DOWN },
		{ "powering_up", NODE_STATE_END, NODE_STATE_POWERING_UP },
		{ "power_up", NODE_STATE_END, NODE_STATE_POWER_UP },
		{ "reboot_requested", NODE_STATE_END,
		  NODE_STATE_REBOOT_REQUESTED },
		{ "reboot_issued", NODE_STATE_END, NODE_STATE_REBOOT_ISSUED },
		{ "reboot", NODE_STATE_END, NODE_STATE_REBOOT_ISSUED },
		{ "boot", NODE_STATE_END, NODE_STATE_REBOOT_ISSUED },
	};

	if (!s)
		return -1;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcasecmp(s, names[i].name)) {
			*base = names[i].base;
			*flags = names[i].flags;
			return 0;
		}
	}
	return -1;
}

const char *part_state_string(uint32_t s)
{
	switch (s) {
	case PARTITION_UP:
		return "UP";
	case PARTITION_DOWN:
		return "DOWN";
	case PARTITION_DRAIN:
		return "DRAIN";
	case PARTITION_INACTIVE:
		return "INACTIVE";
	default:
		return "UNKNOWN";
	}
}

#define N(m, t) FIELD(node_info_t, m, t)
const field_desc_t node_info_fields[] = {
	N(name, FT_STR), N(node_addr, FT_STR), N(node_hostname, FT_STR),
	N(port, FT_U16), N(node_state, FT_U32), N(reason, FT_STR),
	N(reason_uid, FT_U32), N(reason_time, FT_TIME), N(cpus, FT_U16),
	N(boards, FT_U16), N(sockets, FT_U16), N(cores, FT_U16),
	N(threads, FT_U16), N(real_memory, FT_U64), N(free_mem, FT_U64),
	N(tmp_disk, FT_U32), N(weight, FT_U32), N(cpu_load, FT_U32),
	N(alloc_cpus, FT_U16), N(alloc_memory, FT_U64), N(features, FT_STR),
	N(features_act, FT_STR), N(gres, FT_STR), N(gres_used, FT_STR),
	N(arch, FT_STR), N(os, FT_STR), N(version, FT_STR),
	N(partitions, FT_STR), N(boot_time, FT_TIME),
	N(slurmd_start_time, FT_TIME), N(last_busy, FT_TIME),
	N(tres_fmt_str, FT_STR), N(alloc_tres_fmt_str, FT_STR),
	N(mcs_label, FT_STR), N(comment, FT_STR), N(extra, FT_STR),
	N(owner, FT_U32), N(current_watts, FT_U32), N(ave_watts, FT_U32),
	N(consumed_energy, FT_U64), N(next_state, FT_U32),
	FIELD_END
};
#undef N

#define P(m, t) FIELD(part_info_t, m, t)
const field_desc_t part_info_fields[] = {
	P(name, FT_STR), P(nodes, FT_STR), P(state_up, FT_U32),
	P(is_default, FT_BOOL), P(hidden, FT_BOOL), P(root_only, FT_BOOL),
	P(exclusive_user, FT_BOOL), P(lln, FT_BOOL), P(req_resv, FT_BOOL),
	P(disable_root_jobs, FT_BOOL), P(max_time, FT_U32),
	P(default_time, FT_U32), P(max_nodes, FT_U32), P(min_nodes, FT_U32),
	P(total_nodes, FT_U32), P(total_cpus, FT_U32), P(total_mem, FT_U64),
	P(allow_groups, FT_STR), P(allow_accounts, FT_STR),
	P(deny_accounts, FT_STR), P(allow_qos, FT_STR), P(deny_qos, FT_STR),
	P(qos_char, FT_STR), P(alternate, FT_STR),
	P(priority_job_factor, FT_U16), P(priority_tier, FT_U16),
	P(oversubscribe, FT_STR), P(grace_time, FT_U32),
	P(def_mem_per_cpu, FT_U64), P(def_mem_per_node, FT_U64),
	P(max_mem_per_cpu, FT_U64), P(max_mem_per_node, FT_U64),
	P(max_cpus_per_node, FT_U32), P(over_time_limit, FT_U16),
	P(preempt_mode, FT_STR), P(tres_fmt_str, FT_STR),
	P(billing_weights_str, FT_STR), P(select_type_parameters, FT_STR),
	FIELD_END
};
#undef P

void node_info_free_members(node_info_t *n)
{
	if (n)
		fields_free(node_info_fields, n);
}

void part_info_free_members(part_info_t *p)
{
	if (p)
		fields_free(part_info_fields, p);
}
