/* cli_sacct_profile.c — sacct --profile (a Sluice extension): the usage
 * samples of profiled jobs (--profile=task with AcctGatherProfileType=
 * acct_gather_profile/slurmdbd), one row a sample of a step on a node,
 * by job, step, time and node.
 *
 * One table row per column (cli_sacct.h's sacct_field_t), as
 * --metrics: the table, -o, -p/-P, --json/--yaml, -e and slurmrestd's
 * /sluice/v1/job/{job_id}/profile walk it.  JSON members: job_id,
 * array_job_id, array_task_id (null if not an array task), cluster,
 * step ("0", "batch", ...), node, time, tasks, cpu_time (microseconds),
 * cpu_utilization (percent of one CPU since the previous sample),
 * rss and vmsize (KB), read_bytes, write_bytes, energy (joules since
 * the step began; null without an energy plugin).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_common.h"
#include "cli/cli_sacct.h"
#include "common/msg.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#define P(r) ((r)->prof)

static bool is_array_task(const acct_profile_rec_t *p)
{
	return p->array_job_id && p->array_task_id != NO_VAL32;
}

static void g_jobid(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	if (is_array_task(P(r)))
		xstrfmtcat(out, "%u_%u", P(r)->array_job_id,
			   P(r)->array_task_id);
	else
		xstrfmtcat(out, "%u", P(r)->job_id);
}

static void g_jobidraw(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	xstrfmtcat(out, "%u", P(r)->job_id);
}

static void g_cluster(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	xstrcat(out, P(r)->cluster ? P(r)->cluster : "");
}

void sacct_profile_step_name(char **out, uint32_t step_id)
{
	switch ((int32_t)step_id) {
	case ACCT_STEP_BATCH:
		xstrcat(out, "batch");
		break;
	case ACCT_STEP_EXTERN:
		xstrcat(out, "extern");
		break;
	default:
		xstrfmtcat(out, "%u", step_id);
	}
}

static void g_step(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	sacct_profile_step_name(out, P(r)->step_id);
}

static void g_node(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	xstrcat(out, P(r)->node ? P(r)->node : "");
}

static void g_time(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	char buf[64];

	fmt_time(P(r)->time, buf, sizeof(buf));
	xstrcat(out, buf);
}

static void g_ntasks(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	xstrfmtcat(out, "%u", P(r)->ntasks);
}

/* As TotalCPU: [D-]HH:MM:SS, or MM:SS.mmm under an hour. */
static void g_cputime(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	uint64_t us = P(r)->cpu_usec, s = us / 1000000;

	if (s >= 86400)
		xstrfmtcat(out, "%" PRIu64 "-%02" PRIu64 ":%02" PRIu64 ":%02"
			   PRIu64, s / 86400, s % 86400 / 3600,
			   s % 3600 / 60, s % 60);
	else if (s >= 3600)
		xstrfmtcat(out, "%02" PRIu64 ":%02" PRIu64 ":%02" PRIu64,
			   s / 3600, s % 3600 / 60, s % 60);
	else
		xstrfmtcat(out, "%02" PRIu64 ":%02" PRIu64 ".%03" PRIu64,
			   s / 60, s % 60, us % 1000000 / 1000);
}

static void g_cpuutil(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	xstrfmtcat(out, "%.1f%%", P(r)->cpu_util);
}

static void g_rss(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	xstrfmtcat(out, "%" PRIu64 "K", P(r)->rss_kb);
}

static void g_vmsize(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	xstrfmtcat(out, "%" PRIu64 "K", P(r)->vsize_kb);
}

static void g_read(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	xstrfmtcat(out, "%" PRIu64, P(r)->read_bytes);
}

static void g_write(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	xstrfmtcat(out, "%" PRIu64, P(r)->write_bytes);
}

static void g_energy(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	if (P(r)->energy_j != NO_VAL64)
		xstrfmtcat(out, "%" PRIu64, P(r)->energy_j);
}

static json_object *j_jobid(const sacct_row_t *r)
{
	return json_object_new_int64(P(r)->job_id);
}

static json_object *j_array_job(const sacct_row_t *r)
{
	return json_object_new_int64(is_array_task(P(r)) ?
				     P(r)->array_job_id : 0);
}

static json_object *j_array_task(const sacct_row_t *r)
{
	return is_array_task(P(r)) ?
	       json_object_new_int64(P(r)->array_task_id) : NULL;
}

static json_object *j_time(const sacct_row_t *r)
{
	return json_object_new_int64((int64_t)P(r)->time);
}

static json_object *j_ntasks(const sacct_row_t *r)
{
	return json_object_new_int64(P(r)->ntasks);
}

static json_object *j_cpu(const sacct_row_t *r)
{
	return json_object_new_int64((int64_t)P(r)->cpu_usec);
}

static json_object *j_util(const sacct_row_t *r)
{
	return json_object_new_double(P(r)->cpu_util);
}

static json_object *j_rss(const sacct_row_t *r)
{
	return json_object_new_int64((int64_t)P(r)->rss_kb);
}

static json_object *j_vm(const sacct_row_t *r)
{
	return json_object_new_int64((int64_t)P(r)->vsize_kb);
}

static json_object *j_read(const sacct_row_t *r)
{
	return json_object_new_int64((int64_t)P(r)->read_bytes);
}

static json_object *j_write(const sacct_row_t *r)
{
	return json_object_new_int64((int64_t)P(r)->write_bytes);
}

static json_object *j_energy(const sacct_row_t *r)
{
	return P(r)->energy_j == NO_VAL64 ? NULL :
	       json_object_new_int64((int64_t)P(r)->energy_j);
}

const sacct_field_t sacct_profile_fields[] = {
	{ SF("JobID", -12, g_jobid), NULL, NULL, NULL, NULL, NULL },
	{ SF("JobIDRaw", -12, g_jobidraw), NULL, NULL, "job_id", NULL, j_jobid },
	{ SF("Cluster", -10, g_cluster), NULL, NULL, "cluster", NULL, NULL },
	{ SF("Step", -8, g_step), NULL, NULL, "step", NULL, NULL },
	{ SF("Node", -10, g_node), NULL, NULL, "node", NULL, NULL },
	{ SF("Time", 19, g_time), NULL, NULL, "time", NULL, j_time },
	{ SF("NTasks", 6, g_ntasks), NULL, NULL, "tasks", NULL, j_ntasks },
	{ SF("CPUTime", 10, g_cputime), NULL, NULL, "cpu_time", NULL, j_cpu },
	{ SF("CPUUtil", 8, g_cpuutil), NULL, NULL, "cpu_utilization", NULL,
	  j_util },
	{ SF("RSS", 10, g_rss), NULL, NULL, "rss", NULL, j_rss },
	{ SF("VMSize", 10, g_vmsize), NULL, NULL, "vmsize", NULL, j_vm },
	{ SF("ReadBytes", 12, g_read), NULL, NULL, "read_bytes", NULL, j_read },
	{ SF("WriteBytes", 12, g_write), NULL, NULL, "write_bytes", NULL,
	  j_write },
	{ SF("Energy", 10, g_energy), NULL, NULL, "energy", NULL, j_energy },
	/* JSON only */
	{ SF(NULL, 0, NULL), NULL, NULL, "array_job_id", NULL, j_array_job },
	{ SF(NULL, 0, NULL), NULL, NULL, "array_task_id", NULL, j_array_task },
	{ SF(NULL, 0, NULL), NULL, NULL, NULL, NULL, NULL },
};

json_object *sacct_profile_json(const acct_profile_rec_t *p)
{
	static const char *const nullable[] = {
		"array_task_id", "energy", NULL
	};
	sacct_row_t r = { .prof = p };

	return sacct_table_json(sacct_profile_fields, &r, nullable);
}

void sacct_profile_fields_help(FILE *out)
{
	cli_table_help(out, CLI_TABLE(sacct_profile_fields));
}

int sacct_profile_query(dbd_job_cond_msg_t *cond, dbd_profile_msg_t **out)
{
	return sacct_dbd_query(REQUEST_DBD_PROFILE, RESPONSE_DBD_PROFILE,
			       cond, (void **)out);
}
