/* cli_scontrol_jobkeys.c — the keys of scontrol update JobId= that
 * change a pending job's request (memory, tasks, GRES, output files,
 * working directory, OverSubscribe, Contiguous, WCKey) and the mail,
 * Deadline and TimeMin of a pending or running one.  The controller
 * decides what the job's state and the caller allow
 * (ctld/job_update_keys.c); what is malformed is refused here with
 * Slurm's scontrol's words. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli/cli_scontrol.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static int invalid(const char *key, const char *val)
{
	fprintf(stderr, "scontrol: error: Invalid %s value: %s\n", key,
		val ? val : "");
	return -1;
}

static int num(const char *key, const char *val, uint64_t max,
	       uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!val || !isdigit((unsigned char) *val))
		return invalid(key, val);
	v = strtoull(val, &end, 10);
	if (*end || v > max)
		return invalid(key, val);
	*out = v;
	return 0;
}

static int yes_no(const char *key, const char *val, uint16_t *out)
{
	if (val && (!strcasecmp(val, "yes") || !strcmp(val, "1")))
		*out = 1;
	else if (val && (!strcasecmp(val, "no") || !strcmp(val, "0")))
		*out = 0;
	else
		return invalid(key, val);
	return 0;
}

static const char *const mail_types[] = {
	"NONE", "BEGIN", "END", "FAIL", "REQUEUE", "ALL", "INVALID_DEPEND",
	"STAGE_OUT", "TIME_LIMIT", "TIME_LIMIT_90", "TIME_LIMIT_80",
	"TIME_LIMIT_50", "ARRAY_TASKS", NULL
};

static int mail_type(job_update_msg_t *u, const char *val)
{
	char **w = xstrsplit(val ? val : "", ",", NULL);
	bool ok = w[0] != NULL;

	for (size_t i = 0; w[i] && ok; i++) {
		size_t k;

		for (k = 0; mail_types[k]; k++)
			if (!strcasecmp(w[i], mail_types[k]))
				break;
		ok = mail_types[k] != NULL;
	}
	xstrarray_free(w);
	if (!ok) {
		fprintf(stderr, "Invalid MailType: %s\n", val ? val : "");
		return -1;
	}
	xfree(u->mail_type);
	u->mail_type = xstrdup(val);
	for (char *c = u->mail_type; *c; c++)
		*c = (char) toupper((unsigned char) *c);
	return 0;
}

static void str(char **field, const char *val)
{
	xfree(*field);
	*field = xstrdup(val ? val : "");
}

int scontrol_job_kv_more(job_update_msg_t *u, const char *key,
			 const char *val)
{
	uint64_t v;

	if (!strcasecmp(key, "MinMemoryNode") ||
	    !strcasecmp(key, "MinMemoryCPU") ||
	    !strcasecmp(key, "MinMemoryCore")) {
		if (!val || parse_mem_mb(val, &v) < 0)
			return invalid(key, val);
		if (!strcasecmp(key, "MinMemoryNode"))
			u->min_mem_node = v;
		else
			u->min_mem_cpu = v;
		return 0;
	}
	if (!strcasecmp(key, "NumTasks") || !strcasecmp(key, "ReqProcs")) {
		if (num(key, val, NO_VAL32 - 1, &v) < 0)
			return -1;
		u->num_tasks = (uint32_t) v;
		return 0;
	}
	if (!strcasecmp(key, "CPUsPerTask")) {
		if (num(key, val, NO_VAL16 - 1, &v) < 0 || !v)
			return v ? -1 : invalid(key, val);
		u->cpus_per_task = (uint16_t) v;
		return 0;
	}
	if (!strcasecmp(key, "OverSubscribe") || !strcasecmp(key, "Shared"))
		return yes_no("OverSubscribe", val, &u->shared);
	if (!strcasecmp(key, "Contiguous"))
		return yes_no(key, val, &u->contiguous);
	if (!strcasecmp(key, "MailType"))
		return mail_type(u, val);
	if (!strcasecmp(key, "TimeMin")) {
		if (!val || parse_duration_min(val, &u->time_min) < 0 ||
		    u->time_min == NO_VAL32) {
			fprintf(stderr, "scontrol: error: Invalid TimeMin "
				"value\n");
			return -1;
		}
		return 0;
	}
	if (!strcasecmp(key, "Deadline")) {
		if (!val || parse_time(val, time(NULL), &u->deadline) < 0 ||
		    !u->deadline) {
			fprintf(stderr, "Invalid time specification (pos=0): "
				"%s\nNo changes specified\n", val ? val : "");
			return -1;
		}
		return 0;
	}
	if (!strcasecmp(key, "Gres") || !strcasecmp(key, "TresPerNode"))
		str(&u->gres, val);
	else if (!strcasecmp(key, "MailUser"))
		str(&u->mail_user, val);
	else if (!strcasecmp(key, "WCKey"))
		str(&u->wckey, val);
	else if (!strcasecmp(key, "StdOut"))
		str(&u->std_out, val);
	else if (!strcasecmp(key, "StdErr"))
		str(&u->std_err, val);
	else if (!strcasecmp(key, "StdIn"))
		str(&u->std_in, val);
	else if (!strcasecmp(key, "WorkDir"))
		str(&u->work_dir, val);
	else if (!strcasecmp(key, "AdminComment"))
		str(&u->admin_comment, val);
	else
		return 1;
	return 0;
}
