/* cli_scontrol_wconf.c — scontrol write config [file]: the controller's
 * running configuration, nodes and partitions as a slurm.conf, written
 * to <file or slurm.conf>.<datetime> as Slurm's scontrol does
 * (cli_scontrol.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli/cli_common.h"
#include "cli/cli_scontrol.h"
#include "common/hostlist.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

/* The groups of keys, in the order Slurm writes them; a key in none of
 * them goes to OTHER. */
static const struct {
	const char *title;
	const char *keys;       /* ",Key,Key," */
} groups[] = {
	{ "CONTROL", ",ControlMachine,ControlAddr,ClusterName,SlurmUser,"
	  "SlurmdUser,SlurmctldHost,SlurmctldPort,SlurmdPort,BackupAddr,"
	  "BackupController," },
	{ "LOGGING & OTHER PATHS", ",StateSaveLocation,SlurmdSpoolDir,"
	  "SlurmctldLogFile,SlurmdLogFile,SlurmctldPidFile,SlurmdPidFile,"
	  "SlurmSchedLogFile,SlurmEventHandlerLogfile," },
	{ "ACCOUNTING", ",AccountingStorageBackupHost,"
	  "AccountingStorageEnforce,AccountingStorageHost,"
	  "AccountingStoragePort,AccountingStorageType,AccountingStorageUser,"
	  "AccountingStoreFlags,AcctGatherEnergyType,AcctGatherFilesystemType,"
	  "AcctGatherInterconnectType,AcctGatherNodeFreq,"
	  "AcctGatherProfileType,JobAcctGatherFrequency,JobAcctGatherType," },
	{ "SCHEDULING & ALLOCATION", ",SelectType,SelectTypeParameters,"
	  "SchedulerParameters,SchedulerTimeSlice,SchedulerType,"
	  "SlurmSchedLogLevel,PreemptMode,PreemptParameters,PreemptType,"
	  "PreemptExemptTime,PriorityType,FastSchedule," },
	{ "TOPOLOGY", ",TopologyPlugin," },
	{ "TIMERS", ",SlurmctldTimeout,SlurmdTimeout,InactiveLimit,MinJobAge,"
	  "KillWait,BatchStartTimeout,CompleteWait,EpilogMsgTime,"
	  "GetEnvTimeout,Waittime," },
	{ "POWER", ",SuspendExcNodes,SuspendExcParts,SuspendExcStates,"
	  "SuspendProgram,SuspendRate,SuspendTime,SuspendTimeout,"
	  "ResumeProgram,ResumeRate,ResumeTimeout," },
	{ "DEBUG", ",SlurmctldDebug,SlurmdDebug,DebugFlags," },
	{ "EPILOG & PROLOG", ",Epilog,Prolog,SrunProlog,SrunEpilog,TaskEpilog,"
	  "TaskProlog," },
	{ "PROCESS TRACKING", ",ProctrackType," },
	{ "RESOURCE CONFINEMENT", ",TaskPlugin,TaskPluginParam," },
	{ "OTHER", NULL },
};
#define GROUP_CNT (sizeof(groups) / sizeof(groups[0]))

/* Written whole (a program and its arguments), not cut at a blank. */
static const char *whole = ",Epilog,EpilogSlurmctld,HealthCheckProgram,"
	"MailProg,Prolog,PrologSlurmctld,RebootProgram,ResumeProgram,"
	"ResvEpilog,ResvProlog,SrunEpilog,SrunProlog,SuspendProgram,"
	"TaskEpilog,TaskProlog,UnkillableStepProgram,";
/* What the controller reports about itself, not configuration. */
static const char *skipped = ",BOOT_TIME,HASH_VAL,MULTIPLE_SLURMD,"
	"NEXT_JOB_ID,SLURM_CONF,SLURM_VERSION,";

static bool _in(const char *list, const char *key)
{
	char *k = xstrdup_printf(",%s,", key);
	bool in = list && strcasestr(list, k);

	xfree(k);
	return in;
}

static bool _commented(const char *key, const char *v)
{
	return !v || !*v || !strcasecmp(v, "(null type)") ||
	       !strcasecmp(v, "(null)") || !strcasecmp(v, "N/A") ||
	       (!strcasecmp(key, "DefMemPerNode") &&
		!strcasecmp(v, "UNLIMITED")) ||
	       ((!strcasecmp(key, "SlurmctldSyslogDebug") ||
		 !strcasecmp(key, "SlurmdSyslogDebug")) &&
		!strcasecmp(v, "unknown")) ||
	       (!strcasecmp(key, "CpuFreqDef") && !strcasecmp(v, "Unknown"));
}

/* One key's line: "#Key=" for no value; the value up to its first blank
 * or '(' ("60 sec" -> 60) unless a program; quoted if it has a blank. */
static char *_line(const char *key, const char *v)
{
	char *name = xstrndup(key, strcspn(key, "["));
	char *val, *line;

	if (_commented(key, v)) {
		line = xstrdup_printf("#%s=", name);
		xfree(name);
		return line;
	}
	val = _in(whole, name) ? xstrdup(v) : xstrndup(v, strcspn(v, " ("));
	line = xstrdup_printf(strchr(val, ' ') ? "%s=\"%s\"" : "%s=%s", name,
			      val);
	xfree(val);
	xfree(name);
	return line;
}

static void _header(FILE *f, const char *title)
{
	int len = (int) strlen(title), left = (48 - len) / 2 - 1;
	int right = left + ((48 - len) % 2 ? 1 : 0);

	fprintf(f, "#\n%s\n#%*s%s%*s#\n%s\n",
		"################################################", left, "",
		title, right, "",
		"################################################");
}

static void _write_keys(FILE *f, const config_info_msg_t *c)
{
	for (size_t g = 0; g < GROUP_CNT; g++) {
		_header(f, groups[g].title);
		for (uint32_t i = 0; i < c->cnt; i++) {
			const char *k = c->keys[i];
			size_t in = GROUP_CNT - 1;
			char *line;

			if (_in(skipped, k))
				continue;
			for (size_t h = 0; h + 1 < GROUP_CNT; h++)
				if (_in(groups[h].keys, k))
					in = h;
			if (in != g)
				continue;
			line = _line(k, c->values[i]);
			fprintf(f, "%s\n", line);
			xfree(line);
		}
	}
}

/* Nodes with the same attributes on one line, as Slurm's. */
static void _write_nodes(FILE *f, const node_info_msg_t *m, uint16_t port)
{
	char **recs = xcalloc(m->cnt + 1, sizeof(*recs));
	hostlist_t **hls = xcalloc(m->cnt + 1, sizeof(*hls));
	size_t n = 0;

	_header(f, "NODES");
	for (uint32_t i = 0; i < m->cnt; i++) {
		const node_info_t *x = &m->nodes[i];
		char *r = xstrdup("");
		size_t k;

		if (!x->name)
			continue;
		if (x->node_hostname && xstrcmp(x->node_hostname, x->name))
			xstrfmtcat(&r, " NodeHostName=%s", x->node_hostname);
		if (x->node_addr && xstrcmp(x->node_addr, x->name))
			xstrfmtcat(&r, " NodeAddr=%s", x->node_addr);
		if (x->sockets)
			xstrfmtcat(&r, " Sockets=%u", x->sockets);
		if (x->cores)
			xstrfmtcat(&r, " CoresPerSocket=%u", x->cores);
		if (x->threads)
			xstrfmtcat(&r, " ThreadsPerCore=%u", x->threads);
		if (x->gres)
			xstrfmtcat(&r, " Gres=%s", x->gres);
		if (x->real_memory > 1)
			xstrfmtcat(&r, " RealMemory=%" PRIu64, x->real_memory);
		if (x->tmp_disk)
			xstrfmtcat(&r, " TmpDisk=%u", x->tmp_disk);
		if (x->weight != 1)
			xstrfmtcat(&r, " Weight=%u", x->weight);
		if (x->features)
			xstrfmtcat(&r, " Feature=%s", x->features);
		if (x->port && x->port != port)
			xstrfmtcat(&r, " Port=%u", x->port);
		for (k = 0; k < n && strcmp(recs[k], r); k++)
			;
		if (k == n) {
			recs[n] = r;
			hls[n++] = hostlist_create();
		} else {
			xfree(r);
		}
		hostlist_push_host(hls[k], x->name);
	}
	/* Slurm writes the last distinct line first */
	while (n--) {
		char *names = hostlist_ranged(hls[n]);

		fprintf(f, "NodeName=%s%s\n", names, recs[n]);
		xfree(names);
		xfree(recs[n]);
		hostlist_destroy(hls[n]);
	}
	xfree(recs);
	xfree(hls);
}

static void _minutes(FILE *f, const char *key, uint32_t min)
{
	long s = (long) min * 60;
	char b[64];

	if (s >= 86400)
		snprintf(b, sizeof(b), "%ld-%2.2ld:%2.2ld:%2.2ld", s / 86400,
			 s % 86400 / 3600, s % 3600 / 60, s % 60);
	else
		snprintf(b, sizeof(b), "%2.2ld:%2.2ld:%2.2ld", s / 3600,
			 s % 3600 / 60, s % 60);
	fprintf(f, " %s=%s", key, b);
}

static bool _set(const char *s)
{
	return s && *s && strcasecmp(s, "ALL");
}

static void _write_part(FILE *f, const part_info_t *p)
{
	static const char *st[] = { "INACTIVE", "DOWN", "DRAIN", "UP" };

	fprintf(f, "PartitionName=%s", p->name);
	if (_set(p->allow_accounts))
		fprintf(f, " AllowAccounts=%s", p->allow_accounts);
	if (_set(p->allow_groups))
		fprintf(f, " AllowGroups=%s", p->allow_groups);
	if (_set(p->allow_qos))
		fprintf(f, " AllowQos=%s", p->allow_qos);
	if (p->alternate)
		fprintf(f, " Alternate=%s", p->alternate);
	if (p->is_default)
		fprintf(f, " Default=YES");
	if (p->def_mem_per_cpu)
		fprintf(f, " DefMemPerCPU=%" PRIu64, p->def_mem_per_cpu);
	else if (p->def_mem_per_node)
		fprintf(f, " DefMemPerNode=%" PRIu64, p->def_mem_per_node);
	if (!p->allow_accounts && p->deny_accounts)
		fprintf(f, " DenyAccounts=%s", p->deny_accounts);
	if (!p->allow_qos && p->deny_qos)
		fprintf(f, " DenyQos=%s", p->deny_qos);
	if (p->default_time == INFINITE32)
		fprintf(f, " DefaultTime=UNLIMITED");
	else if (p->default_time != NO_VAL32)
		_minutes(f, "DefaultTime", p->default_time);
	if (p->disable_root_jobs)
		fprintf(f, " DisableRootJobs=YES");
	if (p->exclusive_user)
		fprintf(f, " ExclusiveUser=YES");
	if (p->grace_time)
		fprintf(f, " GraceTime=%u", p->grace_time);
	if (p->hidden)
		fprintf(f, " Hidden=YES");
	if (p->lln)
		fprintf(f, " LLN=YES");
	if (p->max_cpus_per_node != INFINITE32 && p->max_cpus_per_node)
		fprintf(f, " MaxCPUsPerNode=%u", p->max_cpus_per_node);
	if (p->max_mem_per_cpu)
		fprintf(f, " MaxMemPerCPU=%" PRIu64, p->max_mem_per_cpu);
	else if (p->max_mem_per_node)
		fprintf(f, " MaxMemPerNode=%" PRIu64, p->max_mem_per_node);
	if (p->max_nodes != INFINITE32)
		fprintf(f, " MaxNodes=%u", p->max_nodes);
	if (p->max_time != INFINITE32)
		_minutes(f, "MaxTime", p->max_time);
	if (p->min_nodes != 1)
		fprintf(f, " MinNodes=%u", p->min_nodes);
	if (p->nodes)
		fprintf(f, " Nodes=%s", p->nodes);
	/* the cluster's default (OFF) is not the partition's own */
	if (p->preempt_mode && strcasecmp(p->preempt_mode, "OFF"))
		fprintf(f, " PreemptMode=%s", p->preempt_mode);
	if (p->priority_job_factor != 1)
		fprintf(f, " PriorityJobFactor=%u", p->priority_job_factor);
	if (p->priority_tier != 1)
		fprintf(f, " PriorityTier=%u", p->priority_tier);
	if (p->qos_char)
		fprintf(f, " QOS=%s", p->qos_char);
	if (p->req_resv)
		fprintf(f, " ReqResv=YES");
	if (p->root_only)
		fprintf(f, " RootOnly=YES");
	if (p->select_type_parameters)
		fprintf(f, " SelectTypeParameters=%s",
			p->select_type_parameters);
	if (p->oversubscribe && strcasecmp(p->oversubscribe, "NO"))
		fprintf(f, " OverSubscribe=%s", p->oversubscribe);
	fprintf(f, " State=%s", p->state_up < 4 ? st[p->state_up]
						: "UNKNOWN");
	if (p->billing_weights_str)
		fprintf(f, " TRESBillingWeights=%s", p->billing_weights_str);
	fprintf(f, "\n");
}

int scontrol_write_config(int argc, char **argv)
{
	info_request_msg_t req = { .show_flags = SHOW_ALL };
	slurm_msg_t conf, nodes, parts;
	const config_info_msg_t *c;
	const part_info_msg_t *pm;
	char when[64], *path;
	const char *base;
	FILE *f;

	if (argc > 1) {
		fprintf(stderr, "too many arguments for keyword:write\n");
		return 1;
	}
	if (cli_ctld_load(REQUEST_BUILD_INFO, NULL, RESPONSE_BUILD_INFO, &conf,
			  "slurm_load_ctl_conf"))
		return 1;
	if (cli_ctld_load(REQUEST_NODE_INFO, &req, RESPONSE_NODE_INFO, &nodes,
			  "slurm_load_node")) {
		msg_free(&conf);
		return 1;
	}
	if (cli_ctld_load(REQUEST_PARTITION_INFO, &req, RESPONSE_PARTITION_INFO,
			  &parts, "slurm_load_partitions")) {
		msg_free(&conf);
		msg_free(&nodes);
		return 1;
	}
	c = conf.data;
	fmt_time(c->last_update ? c->last_update : time(NULL), when,
		 sizeof(when));
	/* the file given, else SLURM_CONF_OUT, SLURM_CONF, the default */
	base = argc ? argv[0] : getenv("SLURM_CONF_OUT");
	if (!base || !*base)
		base = cli_conf() ? cli_conf()->path : conf_default_path();
	path = xstrdup_printf("%s.%s", base, when);
	if (!(f = fopen(path, "w"))) {
		fprintf(stderr, "Could not create file %s: %s\n", path,
			strerror(errno));
		xfree(path);
		msg_free(&conf);
		msg_free(&nodes);
		msg_free(&parts);
		return 1;
	}
	fprintf(f, "########################################################\n"
		"#  Configuration file for Slurm - %s  #\n"
		"########################################################\n"
		"#\n#\n", when);
	_write_keys(f, c);
	_write_nodes(f, nodes.data, cli_conf() ? cli_conf()->slurmd_port : 0);
	_header(f, "PARTITIONS");
	pm = parts.data;
	for (uint32_t i = 0; i < pm->cnt; i++)
		if (pm->parts[i].name)
			_write_part(f, &pm->parts[i]);
	if (fclose(f) != 0) {
		fprintf(stderr, "Could not write file %s: %s\n", path,
			strerror(errno));
		xfree(path);
		msg_free(&conf);
		msg_free(&nodes);
		msg_free(&parts);
		return 1;
	}
	printf("Slurm config saved to %s\n", path);
	xfree(path);
	msg_free(&conf);
	msg_free(&nodes);
	msg_free(&parts);
	return 0;
}
