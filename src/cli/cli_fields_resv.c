/* cli_fields_resv.c — the reservation record described once: scontrol
 * show reservation's layout (as 22.05 prints it) and the 25.05
 * "reservations" JSON members (v0.0.43 reservation_info), which
 * slurmrestd's GET reservations serves too. */
#include <stdio.h>
#include <string.h>

#include "cli/cli_fields.h"
#include "common/parse_util.h"
#include "common/resv_info.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define RV(r) ((const resv_info_t *)(r))
#define TXT(fn) static void fn(char **o, const void *r, const cli_ctx_t *c)
#define JSN(fn) CLI_JSON_OBJ(fn, r, c)

/* A string member; unset or empty prints "(null)" and is "" in JSON. */
#define STR_TEXT(fn, m) \
	TXT(fn) { (void)c; if (RV(r)->m && *RV(r)->m) xstrcat(o, RV(r)->m); }
#define INT_JSON(fn, m) \
	JSN(fn) { (void)c; return json_object_new_int64((int64_t)RV(r)->m); }

STR_TEXT(rv_name, name)
STR_TEXT(rv_nodes, node_list)
STR_TEXT(rv_features, features)
STR_TEXT(rv_partition, partition)
STR_TEXT(rv_users, users)
STR_TEXT(rv_groups, groups)
STR_TEXT(rv_accounts, accounts)
STR_TEXT(rv_licenses, licenses)
INT_JSON(rj_node_cnt, node_cnt)
INT_JSON(rj_core_cnt, core_cnt)

TXT(rv_start)
{
	(void)c;
	cli_fmt_time(o, RV(r)->start_time, "Unknown");
}

TXT(rv_end)
{
	(void)c;
	cli_fmt_time(o, RV(r)->end_time, "Unknown");
}

JSN(rj_start)
{
	(void)c;
	return cli_json_time(RV(r)->start_time);
}

/* 0: never ends (Duration=UNLIMITED). */
JSN(rj_end)
{
	(void)c;
	if (!RV(r)->end_time)
		return cli_json_num64(INFINITE64);
	return cli_json_time(RV(r)->end_time);
}

/* 22.05's secs2time_str: "D-HH:MM:SS" or "HH:MM:SS". */
TXT(rv_duration)
{
	(void)c;
	cli_fmt_runtime(o, RV(r)->end_time
			? (long)(RV(r)->end_time - RV(r)->start_time) : 0);
}

TXT(rv_node_cnt) { (void)c; xstrfmtcat(o, "%u", RV(r)->node_cnt); }
TXT(rv_core_cnt) { (void)c; xstrfmtcat(o, "%u", RV(r)->core_cnt); }

TXT(rv_flags)
{
	char *s = resv_flags_string(RV(r)->flags, RV(r)->purge_comp_time);

	(void)c;
	xstrcat(o, s);
	xfree(s);
}

/* The v0.0.43 flag enum names our bits carry (FIRST_CORES and
 * REPLACE_DOWN have none there). */
static const struct {
	uint64_t    bit;
	const char *name;
} json_flags[] = {
	{ RESV_MAINT, "MAINT" },          { RESV_FLEX, "FLEX" },
	{ RESV_OVERLAP, "OVERLAP" },      { RESV_IGNORE_JOBS, "IGNORE_JOBS" },
	{ RESV_HOURLY, "HOURLY" },        { RESV_DAILY, "DAILY" },
	{ RESV_WEEKDAY, "WEEKDAY" },      { RESV_WEEKEND, "WEEKEND" },
	{ RESV_WEEKLY, "WEEKLY" },        { RESV_STATIC, "STATIC" },
	{ RESV_SPEC_NODES, "SPEC_NODES" }, { RESV_ANY_NODES, "ANY_NODES" },
	{ RESV_PART_NODES, "PART_NODES" }, { RESV_TIME_FLOAT, "TIME_FLOAT" },
	{ RESV_REPLACE, "REPLACE" },      { RESV_PURGE_COMP, "PURGE_COMP" },
	{ RESV_NO_HOLD_JOBS, "NO_HOLD_JOBS_AFTER_END" },
	{ RESV_MAGNETIC, "MAGNETIC" },
};

JSN(rj_flags)
{
	json_object *a = json_object_new_array();

	(void)c;
	for (size_t i = 0; i < sizeof(json_flags) / sizeof(json_flags[0]); i++)
		if (RV(r)->flags & json_flags[i].bit)
			json_object_array_add(a, json_object_new_string(
						 json_flags[i].name));
	return a;
}

TXT(rv_tres) { (void)c; xstrcat(o, RV(r)->tres_str ? RV(r)->tres_str : ""); }

TXT(rv_state)
{
	const resv_info_t *v = RV(r);
	bool active = v->start_time <= c->now &&
		      (!v->end_time || c->now < v->end_time);

	xstrcat(o, active ? "ACTIVE" : "INACTIVE");
}

TXT(rv_none) { (void)o; (void)r; (void)c; }
TXT(rv_watts) { (void)r; (void)c; xstrcat(o, "n/a"); }
JSN(rj_zero) { (void)r; (void)c; return json_object_new_int(0); }
JSN(rj_empty_list) { (void)r; (void)c; return json_object_new_array(); }
JSN(rj_unset) { (void)r; (void)c; return cli_json_num32(NO_VAL32); }

JSN(rj_purge)
{
	(void)c;
	return cli_json_num32(RV(r)->flags & RESV_PURGE_COMP
			      ? RV(r)->purge_comp_time : NO_VAL32);
}

#define NL CF_SHOW_NL

const cli_field_t cli_resv_fields[] = {
	{ 0, NULL, NULL, "ReservationName", 0, rv_name, "name", NULL },
	{ 0, NULL, NULL, "StartTime", 0, rv_start, "start_time", rj_start },
	{ 0, NULL, NULL, "EndTime", 0, rv_end, "end_time", rj_end },
	{ 0, NULL, NULL, "Duration", 0, rv_duration, NULL, NULL },
	{ 0, NULL, NULL, "Nodes", NL, rv_nodes, "node_list", NULL },
	{ 0, NULL, NULL, "NodeCnt", 0, rv_node_cnt, "node_count", rj_node_cnt },
	{ 0, NULL, NULL, "CoreCnt", 0, rv_core_cnt, "core_count", rj_core_cnt },
	{ 0, NULL, NULL, "Features", 0, rv_features, "features", NULL },
	{ 0, NULL, NULL, "PartitionName", 0, rv_partition, "partition", NULL },
	{ 0, NULL, NULL, "Flags", 0, rv_flags, "flags", rj_flags },
	{ 0, NULL, NULL, "TRES", NL, rv_tres, "tres", NULL },
	{ 0, NULL, NULL, "Users", NL, rv_users, "users", NULL },
	{ 0, NULL, NULL, "Groups", 0, rv_groups, "groups", NULL },
	{ 0, NULL, NULL, "Accounts", 0, rv_accounts, "accounts", NULL },
	{ 0, NULL, NULL, "Licenses", 0, rv_licenses, "licenses", NULL },
	{ 0, NULL, NULL, "State", 0, rv_state, NULL, NULL },
	{ 0, NULL, NULL, "BurstBuffer", 0, rv_none, "burst_buffer", NULL },
	{ 0, NULL, NULL, "Watts", 0, rv_watts, "watts", rj_unset },
	{ 0, NULL, NULL, "MaxStartDelay", NL, rv_none, "max_start_delay",
	  rj_zero },

	/* JSON only */
	{ 0, NULL, NULL, NULL, 0, rv_none, "core_specializations",
	  rj_empty_list },
	{ 0, NULL, NULL, NULL, 0, rv_none, "purge_completed/time", rj_purge },
	{ 0, NULL, NULL, NULL, 0, NULL, NULL, NULL },
};

/* Local macros end here (as the other tables). */
#undef INT_JSON
#undef JSN
#undef NL
#undef RV
#undef STR_TEXT
#undef TXT
