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
#define JSN(fn) static json_object *fn(const void *r, const cli_ctx_t *c)

#define STR_TEXT(fn, m) TXT(fn) { xstrcat(o, N(r)->m); }
#define U_TEXT(fn, m) TXT(fn) { xstrfmtcat(o, "%llu", (unsigned long long)N(r)->m); }
#define INT_JSON(fn, m) JSN(fn) { return json_object_new_int64((int64_t)N(r)->m); }
#define TIME_JSON(fn, m) JSN(fn) { return cli_json_time(N(r)->m); }

STR_TEXT(t_name, name)
STR_TEXT(t_arch, arch)
U_TEXT(t_cores, cores)
INT_JSON(j_cores, cores)
U_TEXT(t_alloc_cpus, alloc_cpus)
INT_JSON(j_alloc_cpus, alloc_cpus)
U_TEXT(t_cpus, cpus)
INT_JSON(j_cpus, cpus)

TXT(t_load)
{
	if (N(r)->cpu_load == NO_VAL32)
		xstrcat(o, "N/A");
	else
		xstrfmtcat(o, "%.2f", N(r)->cpu_load / 100.0);
}

INT_JSON(j_load, cpu_load)
STR_TEXT(t_features, features)
JSN(j_features) { return cli_json_strlist(N(r)->features); }

TXT(t_features_act)
{
	xstrcat(o, N(r)->features_act ? N(r)->features_act : N(r)->features);
}

JSN(j_features_act)
{
	return cli_json_strlist(N(r)->features_act ? N(r)->features_act
						   : N(r)->features);
}

STR_TEXT(t_gres, gres)
STR_TEXT(t_gres_used, gres_used)
STR_TEXT(t_addr, node_addr)
STR_TEXT(t_hostname, node_hostname)

TXT(t_show_port)
{
	if (N(r)->port && N(r)->port != c->slurmd_port)
		xstrfmtcat(o, "%u", N(r)->port);
}

INT_JSON(j_port, port)
STR_TEXT(t_version, version)
STR_TEXT(t_os, os)
U_TEXT(t_real_mem, real_memory)
INT_JSON(j_real_mem, real_memory)
U_TEXT(t_alloc_mem, alloc_memory)
INT_JSON(j_alloc_mem, alloc_memory)

TXT(t_free_mem)
{
	if (N(r)->free_mem == NO_VAL64)
		xstrcat(o, "N/A");
	else
		xstrfmtcat(o, "%llu", (unsigned long long)N(r)->free_mem);
}

JSN(j_free_mem) { return cli_json_num64(N(r)->free_mem); }
U_TEXT(t_sockets, sockets)
INT_JSON(j_sockets, sockets)
U_TEXT(t_boards, boards)
INT_JSON(j_boards, boards)

TXT(t_state)
{
	char *s = node_state_string_long(N(r)->node_state);

	xstrcat(o, s);
	xfree(s);
}

JSN(j_state)
{
	const char *names[16];
	json_object *a = json_object_new_array();
	int n = node_state_strings(N(r)->node_state, names);

	for (int i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_string(names[i]));
	return a;
}

U_TEXT(t_threads, threads)
INT_JSON(j_threads, threads)
U_TEXT(t_tmp_disk, tmp_disk)
INT_JSON(j_tmp_disk, tmp_disk)
U_TEXT(t_weight, weight)
INT_JSON(j_weight, weight)

TXT(t_owner)
{
	if (N(r)->owner == NO_VAL32) {
		xstrcat(o, "N/A");
		return;
	}
	cli_fmt_uid(o, N(r)->owner);
	xstrfmtcat(o, "(%u)", N(r)->owner);
}

JSN(j_owner)
{
	char *s = NULL;
	json_object *v;

	if (N(r)->owner != NO_VAL32)
		cli_fmt_uid(&s, N(r)->owner);
	v = cli_json_str(s);
	xfree(s);
	return v;
}

TXT(t_mcs) { xstrcat(o, N(r)->mcs_label ? N(r)->mcs_label : "N/A"); }
STR_TEXT(t_partitions, partitions)
JSN(j_partitions) { return cli_json_strlist(N(r)->partitions); }
TXT(t_boot) { cli_fmt_time(o, N(r)->boot_time, "None"); }
TIME_JSON(j_boot, boot_time)
TXT(t_slurmd_start) { cli_fmt_time(o, N(r)->slurmd_start_time, "None"); }
TIME_JSON(j_slurmd_start, slurmd_start_time)
TXT(t_last_busy) { cli_fmt_time(o, N(r)->last_busy, "None"); }
TIME_JSON(j_last_busy, last_busy)
STR_TEXT(t_cfg_tres, tres_fmt_str)
TXT(t_alloc_tres) { xstrcat(o, N(r)->alloc_tres_fmt_str ? N(r)->alloc_tres_fmt_str : ""); }
TXT(t_na_lower) { xstrcat(o, "n/a"); }
TXT(t_zero) { xstrcat(o, "0"); }
TXT(t_ns) { xstrcat(o, "n/s"); }

TXT(t_show_reason)
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

STR_TEXT(t_reason, reason)

TXT(t_reason_user)
{
	if (N(r)->reason_uid != NO_VAL32 && N(r)->reason)
		cli_fmt_uid(o, N(r)->reason_uid);
}

TIME_JSON(j_reason_time, reason_time)
STR_TEXT(t_comment, comment)
STR_TEXT(t_extra, extra)
TXT(t_null) { }

JSN(j_idle_cpus)
{
	return json_object_new_int64((int64_t)N(r)->cpus - N(r)->alloc_cpus);
}

JSN(j_empty_list) { return json_object_new_array(); }

#define NL CF_SHOW_NL
#define OPT CF_SHOW_OPT
#define TRAIL CF_SHOW_TRAIL

const cli_field_t cli_node_fields[] = {
	{ 0, NULL, NULL, "NodeName", 0, t_name, "name", NULL },
	{ 0, NULL, NULL, "Arch", 0, t_arch, "architecture", NULL },
	{ 0, NULL, NULL, "CoresPerSocket", TRAIL, t_cores, "cores", j_cores },
	{ 0, NULL, NULL, "CPUAlloc", NL, t_alloc_cpus, "alloc_cpus", j_alloc_cpus },
	{ 0, NULL, NULL, "CPUEfctv", 0, t_cpus, "effective_cpus", j_cpus },
	{ 0, NULL, NULL, "CPUTot", 0, t_cpus, "cpus", j_cpus },
	{ 0, NULL, NULL, "CPULoad", 0, t_load, "cpu_load", j_load },
	{ 0, NULL, NULL, "AvailableFeatures", NL, t_features, "features", j_features },
	{ 0, NULL, NULL, "ActiveFeatures", NL, t_features_act, "active_features",
	  j_features_act },
	{ 0, NULL, NULL, "Gres", NL, t_gres, "gres", NULL },
	{ 0, NULL, NULL, "NodeAddr", NL, t_addr, "address", NULL },
	{ 0, NULL, NULL, "NodeHostName", 0, t_hostname, "hostname", NULL },
	{ 0, NULL, NULL, "Port", OPT, t_show_port, "port", j_port },
	{ 0, NULL, NULL, "Version", 0, t_version, "version", NULL },
	{ 0, NULL, NULL, "OS", NL | TRAIL, t_os, "operating_system", NULL },
	{ 0, NULL, NULL, "RealMemory", NL, t_real_mem, "real_memory", j_real_mem },
	{ 0, NULL, NULL, "AllocMem", 0, t_alloc_mem, "alloc_memory", j_alloc_mem },
	{ 0, NULL, NULL, "FreeMem", 0, t_free_mem, "free_mem", j_free_mem },
	{ 0, NULL, NULL, "Sockets", 0, t_sockets, "sockets", j_sockets },
	{ 0, NULL, NULL, "Boards", 0, t_boards, "boards", j_boards },
	{ 0, NULL, NULL, "State", NL, t_state, "state", j_state },
	{ 0, NULL, NULL, "ThreadsPerCore", 0, t_threads, "threads", j_threads },
	{ 0, NULL, NULL, "TmpDisk", 0, t_tmp_disk, "temporary_disk", j_tmp_disk },
	{ 0, NULL, NULL, "Weight", 0, t_weight, "weight", j_weight },
	{ 0, NULL, NULL, "Owner", 0, t_owner, "owner", j_owner },
	{ 0, NULL, NULL, "MCS_label", 0, t_mcs, NULL, NULL },
	{ 0, NULL, NULL, "Partitions", NL | TRAIL, t_partitions, "partitions", j_partitions },
	{ 0, NULL, NULL, "BootTime", NL, t_boot, "boot_time", j_boot },
	{ 0, NULL, NULL, "SlurmdStartTime", 0, t_slurmd_start, "slurmd_start_time",
	  j_slurmd_start },
	{ 0, NULL, NULL, "LastBusyTime", NL, t_last_busy, "last_busy", j_last_busy },
	{ 0, NULL, NULL, "CfgTRES", NL, t_cfg_tres, "tres", NULL },
	{ 0, NULL, NULL, "AllocTRES", NL, t_alloc_tres, "tres_used", NULL },
	{ 0, NULL, NULL, "CapWatts", NL, t_na_lower, NULL, NULL },
	{ 0, NULL, NULL, "CurrentWatts", NL, t_zero, NULL, NULL },
	{ 0, NULL, NULL, "AveWatts", 0, t_zero, NULL, NULL },
	{ 0, NULL, NULL, "ExtSensorsJoules", NL, t_ns, NULL, NULL },
	{ 0, NULL, NULL, "ExtSensorsWatts", 0, t_zero, NULL, NULL },
	{ 0, NULL, NULL, "ExtSensorsTemp", 0, t_ns, NULL, NULL },
	{ 0, NULL, NULL, "Comment", NL | OPT, t_comment, "comment", NULL },
	{ 0, NULL, NULL, "Reason", NL | OPT, t_show_reason, NULL, NULL },

	/* JSON only */
	{ 0, NULL, NULL, NULL, 0, t_reason, "reason", NULL },
	{ 0, NULL, NULL, NULL, 0, t_reason_user, "reason_set_by_user", NULL },
	{ 0, NULL, NULL, NULL, 0, t_null, "reason_changed_at", j_reason_time },
	{ 0, NULL, NULL, NULL, 0, t_gres_used, "gres_used", NULL },
	{ 0, NULL, NULL, NULL, 0, t_null, "alloc_idle_cpus", j_idle_cpus },
	{ 0, NULL, NULL, NULL, 0, t_extra, "extra", NULL },
	{ 0, NULL, NULL, NULL, 0, t_null, "next_state_after_reboot", j_empty_list },
	{ 0, NULL, NULL, NULL, 0, NULL, NULL, NULL },
};
