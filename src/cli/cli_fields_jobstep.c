/* cli_fields_jobstep.c — a job's steps as squeue -s lists them
 * (cli_step_row_t): the step's own fields, and the job's (partition,
 * user, times) through the job table's rows. */
#include <stdio.h>
#include <string.h>

#include "cli/cli_fields.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define S(r) ((const cli_step_row_t *)(r))
#define TXT(fn) static void fn(char **o, const void *r, const cli_ctx_t *c)

/* Job row letter l's text for the step's job (rows looked up once). */
static void job_text(char **o, char l, const void *r, const cli_ctx_t *c)
{
	static const cli_field_t *rows[128];
	const cli_field_t *f = rows[(unsigned char)l & 127];

	if (!f)
		f = rows[(unsigned char)l & 127] =
			cli_field_by_letter(cli_job_fields, l);
	f->text(o, S(r)->job, c);
}


TXT(s_step_id)
{
	if (S(r)->srun && S(r)->step_id == SLURM_EXTERN_CONT)
		xstrfmtcat(o, "%u.extern", S(r)->job->job_id);
	else if (S(r)->srun)
		xstrfmtcat(o, "%u.%u", S(r)->job->job_id, S(r)->step_id);
	else
		xstrfmtcat(o, "%u.%s", S(r)->job->job_id, S(r)->name);
}
TXT(s_name) { xstrcat(o, S(r)->name); }
TXT(s_partition) { job_text(o, 'P', r, c); }
TXT(s_user) { job_text(o, 'u', r, c); }
TXT(s_uid) { job_text(o, 'U', r, c); }
TXT(s_time)
{
	char buf[32];

	if (!S(r)->srun) {
		job_text(o, 'M', r, c);
		return;
	}
	fmt_elapsed(c->now > S(r)->start ? (uint32_t) (c->now - S(r)->start)
		    : 0, buf, sizeof(buf));
	xstrcat(o, buf);
}
TXT(s_nodes)
{
	xstrcat(o, S(r)->srun ? S(r)->nodes : S(r)->job->batch_host);
}
TXT(s_job_id) { job_text(o, 'A', r, c); }
TXT(s_state) { xstrcat(o, "RUNNING"); }
TXT(s_start) { job_text(o, 'S', r, c); }
TXT(s_limit) { job_text(o, 'l', r, c); }
TXT(s_one) { xstrfmtcat(o, "%u", S(r)->srun ? S(r)->tasks : 1); }

const cli_field_t cli_step_fields[] = {
	{ 'i', "stepid", "STEPID", NULL, 0, s_step_id, NULL, NULL },
	{ 'j', "stepname", "NAME", NULL, 0, s_name, NULL, NULL },
	{ 'P', "partition", "PARTITION", NULL, 0, s_partition, NULL, NULL },
	{ 'u', "username", "USER", NULL, 0, s_user, NULL, NULL },
	{ 'U', "userid", "UID", NULL, 0, s_uid, NULL, NULL },
	{ 'M', "timeused", "TIME", NULL, 0, s_time, NULL, NULL },
	{ 'N', "nodes", "NODELIST", NULL, 0, s_nodes, NULL, NULL },
	{ 'A', "jobid", "JOBID", NULL, 0, s_job_id, NULL, NULL },
	{ 'T', "stepstate", "STATE", NULL, 0, s_state, NULL, NULL },
	{ 'S', "starttime", "START_TIME", NULL, 0, s_start, NULL, NULL },
	{ 'l', "timelimit", "TIME_LIMIT", NULL, 0, s_limit, NULL, NULL },
	{ 't', "numtasks", "TASKS", NULL, 0, s_one, NULL, NULL },
	{ 0, NULL, NULL, NULL, 0, NULL, NULL, NULL },
};

#undef S
#undef TXT
