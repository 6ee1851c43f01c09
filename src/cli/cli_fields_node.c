/* cli_fields_node.c — the node record described once: scontrol show node
 * layout and the 25.05 "nodes" JSON members.  Rows with a show_key are in
 * scontrol's order. */
#include <stdio.h>
#include <string.h>

#include "cli/cli_fields.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define N(r) ((const node_info_t *)(r))
#define TXT(fn) static void fn(char **o, const void *r, const cli_ctx_t *c)
#define JSN(fn) CLI_JSON_OBJ(fn, r, c)
#define JV(fn) CLI_JSON(fn, r, c)

#define STR_TEXT(fn, m) TXT(fn) { xstrcat(o, N(r)->m); }
#define U_TEXT(fn, m) TXT(fn) { xstrfmtcat(o, "%llu", (unsigned long long)N(r)->m); }
#define INT_JSON(fn, m) JV(fn) { cli_jv_int(v, (int64_t)N(r)->m); }
#define TIME_JSON(fn, m) JV(fn) { cli_jv_time(v, N(r)->m); }

STR_TEXT(nt_name, name)
STR_TEXT(nt_arch, arch)
U_TEXT(nt_cores, cores)
INT_JSON(nj_cores, cores)
U_TEXT(nt_alloc_cpus, alloc_cpus)
INT_JSON(nj_alloc_cpus, alloc_cpus)
U_TEXT(nt_cpus, cpus)
INT_JSON(nj_cpus, cpus)

TXT(nt_load)
{
	if (N(r)->cpu_load == NO_VAL32)
		xstrcat(o, "N/A");
	else
		xstrfmtcat(o, "%.2f", N(r)->cpu_load / 100.0);
}

INT_JSON(nj_load, cpu_load)
STR_TEXT(nt_features, features)
JV(nj_features) { cli_jv_strlist(v, N(r)->features); }

TXT(nt_features_act)
{
	xstrcat(o, N(r)->features_act ? N(r)->features_act : N(r)->features);
}

JV(nj_features_act)
{
	cli_jv_strlist(v, N(r)->features_act ? N(r)->features_act
					     : N(r)->features);
}

STR_TEXT(nt_gres, gres)
STR_TEXT(nt_gres_used, gres_used)
STR_TEXT(nt_addr, node_addr)
STR_TEXT(nt_hostname, node_hostname)

TXT(nt_show_port)
{
	if (N(r)->port && N(r)->port != c->slurmd_port)
		xstrfmtcat(o, "%u", N(r)->port);
}

INT_JSON(nj_port, port)
STR_TEXT(nt_version, version)
STR_TEXT(nt_os, os)
U_TEXT(nt_real_mem, real_memory)
INT_JSON(nj_real_mem, real_memory)
U_TEXT(nt_alloc_mem, alloc_memory)
INT_JSON(nj_alloc_mem, alloc_memory)

TXT(nt_free_mem)
{
	if (N(r)->free_mem == NO_VAL64)
		xstrcat(o, "N/A");
	else
		xstrfmtcat(o, "%llu", (unsigned long long)N(r)->free_mem);
}

JV(nj_free_mem) { cli_jv_num64(v, N(r)->free_mem); }
U_TEXT(nt_sockets, sockets)
INT_JSON(nj_sockets, sockets)
U_TEXT(nt_boards, boards)
INT_JSON(nj_boards, boards)

TXT(nt_state)
{
	char *s = node_state_string_long(N(r)->node_state);

	xstrcat(o, s);
	xfree(s);
}

JV(nj_state)
{
	const char *names[16];
	int n = node_state_strings(N(r)->node_state, names);

	cli_jv_array(v);
	for (int i = 0; i < n; i++)
		cli_jv_str(v, names[i]);
	cli_jv_end(v);
}

/* scontrol reboot nextstate= (ASAP: RESUME) */
static const char *next_state_name(uint32_t st)
{
	if (st == NODE_RESUME)
		return "RESUME";
	if (st == NODE_STATE_DOWN)
		return "DOWN";
	return NULL;
}

TXT(nt_next_state)
{
	const char *s = next_state_name(N(r)->next_state);

	if (s)
		xstrcat(o, s);
}

JV(nj_next_state)
{
	const char *s = next_state_name(N(r)->next_state);

	cli_jv_array(v);
	if (s)
		cli_jv_str(v, s);
	cli_jv_end(v);
}

U_TEXT(nt_threads, threads)
INT_JSON(nj_threads, threads)
U_TEXT(nt_tmp_disk, tmp_disk)
INT_JSON(nj_tmp_disk, tmp_disk)
U_TEXT(nt_weight, weight)
INT_JSON(nj_weight, weight)

TXT(nt_owner)
{
	if (N(r)->owner == NO_VAL32) {
		xstrcat(o, "N/A");
		return;
	}
	cli_fmt_uid(o, N(r)->owner);
	xstrfmtcat(o, "(%u)", N(r)->owner);
}

JV(nj_owner)
{
	char *s = NULL;

	if (N(r)->owner != NO_VAL32)
		cli_fmt_uid(&s, N(r)->owner);
	cli_jv_str(v, s);
	xfree(s);
}

TXT(nt_mcs) { xstrcat(o, N(r)->mcs_label ? N(r)->mcs_label : "N/A"); }
STR_TEXT(nt_partitions, partitions)
JV(nj_partitions) { cli_jv_strlist(v, N(r)->partitions); }
TXT(nt_boot) { cli_fmt_time(o, N(r)->boot_time, "None"); }
TIME_JSON(nj_boot, boot_time)
TXT(nt_slurmd_start) { cli_fmt_time(o, N(r)->slurmd_start_time, "None"); }
TIME_JSON(nj_slurmd_start, slurmd_start_time)
TXT(nt_last_busy) { cli_fmt_time(o, N(r)->last_busy, "Unknown"); }
TIME_JSON(nj_last_busy, last_busy)
STR_TEXT(nt_cfg_tres, tres_fmt_str)
TXT(nt_alloc_tres) { xstrcat(o, N(r)->alloc_tres_fmt_str ? N(r)->alloc_tres_fmt_str : ""); }
TXT(nt_na_lower) { xstrcat(o, "n/a"); }
TXT(nt_zero) { xstrcat(o, "0"); }
TXT(nt_ns) { xstrcat(o, "n/s"); }

TXT(nt_show_reason)
{
	const node_info_t *n = N(r);
	char buf[64];

	if (!n->reason || !*n->reason)
		return;
	xstrfmtcat(o, "%s [", n->reason);
	cli_fmt_uid(o, n->reason_uid);
	fmt_time(n->reason_time, buf, sizeof(buf));
	xstrfmtcat(o, "@%s]", buf);
}

STR_TEXT(nt_reason, reason)

TXT(nt_reason_user)
{
	if (N(r)->reason_uid != NO_VAL32 && N(r)->reason)
		cli_fmt_uid(o, N(r)->reason_uid);
}

TIME_JSON(nj_reason_time, reason_time)
STR_TEXT(nt_comment, comment)
STR_TEXT(nt_extra, extra)
TXT(nt_null) { }

JV(nj_idle_cpus)
{
	cli_jv_int(v, (int64_t)N(r)->cpus - N(r)->alloc_cpus);
}

JV(nj_empty_obj) { cli_jv_object(v); cli_jv_end(v); }
JV(nj_zero) { cli_jv_int(v, 0); }
JV(nj_zero_float) { cli_jv_f64(v, 0.0); }
JV(nj_set_zero) { cli_jv_num32(v, 0); }
TXT(nt_empty) { xstrcat(o, ""); }
TXT(nt_na) { xstrcat(o, "N/A"); }
STR_TEXT(nt_mcs_raw, mcs_label)

TXT(nt_cur_watts) { xstrfmtcat(o, "%u", N(r)->current_watts); }
TXT(nt_ave_watts) { xstrfmtcat(o, "%u", N(r)->ave_watts); }

JV(nj_energy)
{
	const node_info_t *n = N(r);

	cli_jv_object(v);
	cli_jv_key(v, "average_watts");
	cli_jv_int(v, (int32_t)n->ave_watts);
	cli_jv_key(v, "base_consumed_energy");
	cli_jv_int(v, 0);
	cli_jv_key(v, "consumed_energy");
	cli_jv_int(v, (int64_t)n->consumed_energy);
	cli_jv_key(v, "current_watts");
	cli_jv_num32(v, n->current_watts);
	cli_jv_key(v, "previous_consumed_energy");
	cli_jv_int(v, 0);
	cli_jv_key(v, "last_collected");
	cli_jv_int(v, 0);
	cli_jv_end(v);
}

#define NL CF_SHOW_NL
#define OPT CF_SHOW_OPT
#define TRAIL CF_SHOW_TRAIL

const cli_field_t cli_node_fields[] = {
	{ 0, NULL, NULL, "NodeName", 0, nt_name, "name", NULL },
	{ 0, NULL, NULL, "Arch", 0, nt_arch, "architecture", NULL },
	{ 0, NULL, NULL, "CoresPerSocket", TRAIL, nt_cores, "cores", nj_cores },
	{ 0, NULL, NULL, "CPUAlloc", NL, nt_alloc_cpus, "alloc_cpus", nj_alloc_cpus },
	{ 0, NULL, NULL, "CPUEfctv", 0, nt_cpus, "effective_cpus", nj_cpus },
	{ 0, NULL, NULL, "CPUTot", 0, nt_cpus, "cpus", nj_cpus },
	{ 0, NULL, NULL, "CPULoad", 0, nt_load, "cpu_load", nj_load },
	{ 0, NULL, NULL, "AvailableFeatures", NL, nt_features, "features", nj_features },
	{ 0, NULL, NULL, "ActiveFeatures", NL, nt_features_act, "active_features",
	  nj_features_act },
	{ 0, NULL, NULL, "Gres", NL, nt_gres, "gres", NULL },
	{ 0, NULL, NULL, "GresDrain", NL | CF_SHOW_DETAIL, nt_na, NULL, NULL },
	{ 0, NULL, NULL, "GresUsed", NL | CF_SHOW_DETAIL, nt_gres_used, NULL,
	  NULL },
	{ 0, NULL, NULL, "NodeAddr", NL, nt_addr, "address", NULL },
	{ 0, NULL, NULL, "NodeHostName", 0, nt_hostname, "hostname", NULL },
	{ 0, NULL, NULL, "Port", OPT, nt_show_port, "port", nj_port },
	{ 0, NULL, NULL, "Version", 0, nt_version, "version", NULL },
	{ 0, NULL, NULL, "OS", NL | TRAIL, nt_os, "operating_system", NULL },
	{ 0, NULL, NULL, "RealMemory", NL, nt_real_mem, "real_memory", nj_real_mem },
	{ 0, NULL, NULL, "AllocMem", 0, nt_alloc_mem, "alloc_memory", nj_alloc_mem },
	{ 0, NULL, NULL, "FreeMem", 0, nt_free_mem, "free_mem", nj_free_mem },
	{ 0, NULL, NULL, "Sockets", 0, nt_sockets, "sockets", nj_sockets },
	{ 0, NULL, NULL, "Boards", 0, nt_boards, "boards", nj_boards },
	{ 0, NULL, NULL, "State", NL, nt_state, "state", nj_state },
	{ 0, NULL, NULL, "ThreadsPerCore", 0, nt_threads, "threads", nj_threads },
	{ 0, NULL, NULL, "TmpDisk", 0, nt_tmp_disk, "temporary_disk", nj_tmp_disk },
	{ 0, NULL, NULL, "Weight", 0, nt_weight, "weight", nj_weight },
	{ 0, NULL, NULL, "Owner", 0, nt_owner, "owner", nj_owner },
	{ 0, NULL, NULL, "MCS_label", 0, nt_mcs, NULL, NULL },
	{ 0, NULL, NULL, "NextState", NL | OPT, nt_next_state,
	  "next_state_after_reboot", nj_next_state },
	{ 0, NULL, NULL, "Partitions", NL | TRAIL, nt_partitions, "partitions", nj_partitions },
	{ 0, NULL, NULL, "BootTime", NL, nt_boot, "boot_time", nj_boot },
	{ 0, NULL, NULL, "SlurmdStartTime", 0, nt_slurmd_start, "slurmd_start_time",
	  nj_slurmd_start },
	{ 0, NULL, NULL, "LastBusyTime", NL, nt_last_busy, "last_busy", nj_last_busy },
	{ 0, NULL, NULL, "CfgTRES", NL, nt_cfg_tres, "tres", NULL },
	{ 0, NULL, NULL, "AllocTRES", NL, nt_alloc_tres, "tres_used", NULL },
	{ 0, NULL, NULL, "CapWatts", NL, nt_na_lower, NULL, NULL },
	{ 0, NULL, NULL, "CurrentWatts", NL, nt_cur_watts, NULL, NULL },
	{ 0, NULL, NULL, "AveWatts", 0, nt_ave_watts, NULL, NULL },
	{ 0, NULL, NULL, "ExtSensorsJoules", NL, nt_ns, NULL, NULL },
	{ 0, NULL, NULL, "ExtSensorsWatts", 0, nt_zero, NULL, NULL },
	{ 0, NULL, NULL, "ExtSensorsTemp", 0, nt_ns, NULL, NULL },
	{ 0, NULL, NULL, "Comment", NL | OPT, nt_comment, "comment", NULL },
	{ 0, NULL, NULL, "Reason", NL | OPT, nt_show_reason, NULL, NULL },

	/* JSON only */
	{ 0, NULL, NULL, NULL, 0, nt_reason, "reason", NULL },
	{ 0, NULL, NULL, NULL, 0, nt_reason_user, "reason_set_by_user", NULL },
	{ 0, NULL, NULL, NULL, 0, nt_null, "reason_changed_at", nj_reason_time },
	{ 0, NULL, NULL, NULL, 0, nt_gres_used, "gres_used", NULL },
	{ 0, NULL, NULL, NULL, 0, nt_null, "alloc_idle_cpus", nj_idle_cpus },
	{ 0, NULL, NULL, NULL, 0, nt_extra, "extra", NULL },
	{ 0, NULL, NULL, NULL, 0, nt_mcs_raw, "mcs_label", NULL },
	{ 0, NULL, NULL, NULL, 0, nt_empty, "burstbuffer_network_address", NULL },
	{ 0, NULL, NULL, NULL, 0, nt_empty, "cluster_name", NULL },
	{ 0, NULL, NULL, NULL, 0, nt_null, "specialized_cores", nj_zero },
	{ 0, NULL, NULL, NULL, 0, nt_null, "specialized_memory", nj_zero },
	{ 0, NULL, NULL, NULL, 0, nt_empty, "specialized_cpus", NULL },
	{ 0, NULL, NULL, NULL, 0, nt_null, "cpu_binding", nj_zero },
	{ 0, NULL, NULL, NULL, 0, nt_null, "energy", nj_energy },
	{ 0, NULL, NULL, NULL, 0, nt_null, "external_sensors", nj_empty_obj },
	{ 0, NULL, NULL, NULL, 0, nt_null, "power", nj_empty_obj },
	{ 0, NULL, NULL, NULL, 0, nt_empty, "gpu_spec", NULL },
	{ 0, NULL, NULL, NULL, 0, nt_na, "gres_drained", NULL },
	{ 0, NULL, NULL, NULL, 0, nt_empty, "instance_id", NULL },
	{ 0, NULL, NULL, NULL, 0, nt_empty, "instance_type", NULL },
	{ 0, NULL, NULL, NULL, 0, nt_null, "res_cores_per_gpu", nj_zero },
	{ 0, NULL, NULL, NULL, 0, nt_null, "resume_after", nj_set_zero },
	{ 0, NULL, NULL, NULL, 0, nt_empty, "reservation", NULL },
	{ 0, NULL, NULL, NULL, 0, nt_null, "tres_weighted", nj_zero_float },
	{ 0, NULL, NULL, NULL, 0, nt_empty, "topology", NULL },
	{ 0, NULL, NULL, NULL, 0, NULL, NULL, NULL },
};

/* Local macros end here: the unit test builds several tables in one
 * translation unit. */
#undef INT_JSON
#undef JSN
#undef JV
#undef N
#undef NL
#undef OPT
#undef STR_TEXT
#undef TIME_JSON
#undef TRAIL
#undef TXT
#undef U_TEXT
