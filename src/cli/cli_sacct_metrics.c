/* cli_sacct_metrics.c — sacct --metrics (a Sluice extension): the values
 * jobs logged through run tracking (scontrol track, the SDK's
 * sluice.log_metric/log_param/log_artifact), one row per value, in job
 * order and then by kind, name, step and the order logged.
 *
 * One table row per column (cli_sacct.h's sacct_field_t: name, width,
 * getter, JSON member, JSON value): the table, -p/-P, --json/--yaml and
 * slurmrestd's /sluice/v1/job/{job_id}/metrics walk it.  JSON members:
 * job_id, array_job_id, array_task_id (null if not an array task),
 * cluster, kind, name, time, and by kind: metric step and value (a
 * number); param value (a string); artifact size (bytes); event (what
 * the controller did to the job: checkpoint, restart, ...) value (a
 * string: why).
 */
#include <math.h>
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

#define T(r) ((r)->track)

static bool is_array_task(const acct_track_rec_t *t)
{
	return t->array_job_id && t->array_task_id != NO_VAL32;
}

/* The shortest text that reads back as the same double. */
static void put_double(char **out, double v)
{
	char buf[40];

	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	xstrcat(out, buf);
}

static void g_jobid(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	if (is_array_task(T(r)))
		xstrfmtcat(out, "%u_%u", T(r)->array_job_id,
			   T(r)->array_task_id);
	else
		xstrfmtcat(out, "%u", T(r)->job_id);
}

static void g_jobidraw(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	xstrfmtcat(out, "%u", T(r)->job_id);
}

static void g_cluster(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	xstrcat(out, T(r)->cluster ? T(r)->cluster : "");
}

static void g_kind(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	const char *k = track_kind_name(T(r)->kind);

	xstrcat(out, k ? k : "?");
}

static void g_name(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	xstrcat(out, T(r)->name ? T(r)->name : "");
}

static void g_step(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	if (T(r)->kind == TRACK_METRIC)
		xstrfmtcat(out, "%llu", (unsigned long long) T(r)->step);
}

static void g_value(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	if (T(r)->kind == TRACK_PARAM || T(r)->kind == TRACK_EVENT)
		xstrcat(out, T(r)->text ? T(r)->text : "");
	else
		put_double(out, T(r)->value);
}

static void g_logged(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	char buf[64];

	fmt_time(T(r)->time, buf, sizeof(buf));
	xstrcat(out, buf);
}

static json_object *j_jobid(const sacct_row_t *r)
{
	return json_object_new_int64(T(r)->job_id);
}

static json_object *j_array_job(const sacct_row_t *r)
{
	return json_object_new_int64(is_array_task(T(r)) ?
				     T(r)->array_job_id : 0);
}

static json_object *j_array_task(const sacct_row_t *r)
{
	return is_array_task(T(r)) ?
	       json_object_new_int64(T(r)->array_task_id) : NULL;
}

static json_object *j_step(const sacct_row_t *r)
{
	return T(r)->kind == TRACK_METRIC ?
	       json_object_new_int64((int64_t)T(r)->step) : NULL;
}

static json_object *j_value(const sacct_row_t *r)
{
	switch (T(r)->kind) {
	case TRACK_METRIC:
		return json_object_new_double(T(r)->value);
	case TRACK_PARAM:
	case TRACK_EVENT:
		return json_object_new_string(T(r)->text ? T(r)->text : "");
	}
	return NULL;
}

static json_object *j_size(const sacct_row_t *r)
{
	return T(r)->kind == TRACK_ARTIFACT ?
	       json_object_new_int64((int64_t)T(r)->value) : NULL;
}

static json_object *j_time(const sacct_row_t *r)
{
	return json_object_new_int64((int64_t)T(r)->time);
}

const sacct_field_t sacct_track_fields[] = {
	{ SF("JobID", -12, g_jobid), NULL, NULL, NULL, NULL, NULL },
	{ SF("JobIDRaw", -12, g_jobidraw), NULL, NULL, "job_id", NULL, j_jobid },
	{ SF("Cluster", -10, g_cluster), NULL, NULL, "cluster", NULL, NULL },
	{ SF("Kind", -8, g_kind), NULL, NULL, "kind", NULL, NULL },
	{ SF("Name", -20, g_name), NULL, NULL, "name", NULL, NULL },
	{ SF("Step", 8, g_step), NULL, NULL, "step", NULL, j_step },
	{ SF("Value", 14, g_value), NULL, NULL, "value", NULL, j_value },
	{ SF("Logged", 19, g_logged), NULL, NULL, "time", NULL, j_time },
	/* JSON only */
	{ SF(NULL, 0, NULL), NULL, NULL, "array_job_id", NULL, j_array_job },
	{ SF(NULL, 0, NULL), NULL, NULL, "array_task_id", NULL, j_array_task },
	{ SF(NULL, 0, NULL), NULL, NULL, "size", NULL, j_size },
	{ SF(NULL, 0, NULL), NULL, NULL, NULL, NULL, NULL },
};

json_object *sacct_track_json(const acct_track_rec_t *t)
{
	static const char *const nullable[] = { "array_task_id", NULL };
	sacct_row_t r = { .track = t };

	return sacct_table_json(sacct_track_fields, &r, nullable);
}

void sacct_track_fields_help(FILE *out)
{
	cli_table_help(out, CLI_TABLE(sacct_track_fields));
}

int sacct_track_query(dbd_job_cond_msg_t *cond, dbd_track_msg_t **out)
{
	return sacct_dbd_query(REQUEST_DBD_TRACK, RESPONSE_DBD_TRACK, cond,
			       (void **)out);
}
