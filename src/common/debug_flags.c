/* debug_flags.c — DebugFlags names and the process's mask (debug_flags.h). */
#include "common/debug_flags.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/xmalloc.h"
#include "common/xstring.h"

uint64_t debug_flags_now;

static const char *const names[DEBUG_FLAG_CNT] = {
	[DEBUG_FLAG_ACCRUE] = "Accrue",
	[DEBUG_FLAG_AGENT] = "Agent",
	[DEBUG_FLAG_AUDIT_RPCS] = "AuditRPCs",
	[DEBUG_FLAG_AUDIT_TLS] = "AuditTLS",
	[DEBUG_FLAG_BACKFILL] = "Backfill",
	[DEBUG_FLAG_BACKFILL_MAP] = "BackfillMap",
	[DEBUG_FLAG_BURST_BUF] = "BurstBuffer",
	[DEBUG_FLAG_CGROUP] = "Cgroup",
	[DEBUG_FLAG_CONMGR] = "ConMgr",
	[DEBUG_FLAG_CPU_BIND] = "CPU_Bind",
	[DEBUG_FLAG_CPU_FREQ] = "CpuFrequency",
	[DEBUG_FLAG_DATA] = "Data",
	[DEBUG_FLAG_DB_AGENT] = "DBD_Agent",
	[DEBUG_FLAG_DEPENDENCY] = "Dependency",
	[DEBUG_FLAG_ESEARCH] = "Elasticsearch",
	[DEBUG_FLAG_ENERGY] = "Energy",
	[DEBUG_FLAG_FEDR] = "Federation",
	[DEBUG_FLAG_FRONT_END] = "FrontEnd",
	[DEBUG_FLAG_GANG] = "Gang",
	[DEBUG_FLAG_GLOB_SILENCE] = "GLOB_SILENCE",
	[DEBUG_FLAG_GRES] = "Gres",
	[DEBUG_FLAG_HETJOB] = "Hetjob",
	[DEBUG_FLAG_JAG] = "JobAccountGather",
	[DEBUG_FLAG_JOBCOMP] = "JobComp",
	[DEBUG_FLAG_JOB_CONT] = "JobContainer",
	[DEBUG_FLAG_LICENSE] = "License",
	[DEBUG_FLAG_NET] = "Network",
	[DEBUG_FLAG_NET_RAW] = "NetworkRaw",
	[DEBUG_FLAG_NODE_FEATURES] = "NodeFeatures",
	[DEBUG_FLAG_NO_CONF_HASH] = "NO_CONF_HASH",
	[DEBUG_FLAG_POWER] = "Power",
	[DEBUG_FLAG_PRIO] = "Priority",
	[DEBUG_FLAG_PROFILE] = "Profile",
	[DEBUG_FLAG_PROTOCOL] = "Protocol",
	[DEBUG_FLAG_RESERVATION] = "Reservation",
	[DEBUG_FLAG_ROUTE] = "Route",
	[DEBUG_FLAG_SCRIPT] = "Script",
	[DEBUG_FLAG_SELECT_TYPE] = "SelectType",
	[DEBUG_FLAG_STEPS] = "Steps",
	[DEBUG_FLAG_SWITCH] = "Switch",
	[DEBUG_FLAG_TLS] = "TLS",
	[DEBUG_FLAG_TRACE_JOBS] = "TraceJobs",
	[DEBUG_FLAG_TRIGGERS] = "Triggers",
};

static int find(const char *name)
{
	for (int f = 0; f < DEBUG_FLAG_CNT; f++)
		if (!strcasecmp(names[f], name))
			return f;
	return -1;
}

int debug_flags_parse(const char *list, uint64_t *mask, char *bad,
		      size_t badlen)
{
	char **words;
	uint64_t m = 0;
	int rc = 0;

	if (!list)
		list = "";
	words = xstrsplit(list, ",", NULL);
	for (size_t i = 0; words[i] && !rc; i++) {
		int f;

		xstrtrim(words[i]);
		if (!*words[i])
			continue;
		if ((f = find(words[i])) < 0) {
			if (bad && badlen)
				snprintf(bad, badlen, "%s", words[i]);
			rc = -1;
			break;
		}
		m |= DEBUG_FLAG_BIT(f);
	}
	xstrarray_free(words);
	if (!rc)
		*mask = m;
	return rc;
}

char *debug_flags_string(uint64_t mask)
{
	char *s = NULL;

	for (int f = 0; f < DEBUG_FLAG_CNT; f++)
		if (mask & DEBUG_FLAG_BIT(f))
			xstrfmtcat(&s, "%s%s", s ? "," : "", names[f]);
	return s;
}

const char *debug_flag_name(debug_flag_t f)
{
	return (unsigned) f < DEBUG_FLAG_CNT ? names[f] : "?";
}

void debug_flags_set(uint64_t mask)
{
	debug_flags_now = mask;
}

void debug_flags_set_conf(const char *list)
{
	char **words = xstrsplit(list ? list : "", ",", NULL);
	uint64_t m = 0;

	for (size_t i = 0; words[i]; i++) {
		int f;

		xstrtrim(words[i]);
		if ((f = find(words[i])) >= 0)
			m |= DEBUG_FLAG_BIT(f);
	}
	xstrarray_free(words);
	debug_flags_set(m);
}
