/* cli_sacct.h — sacct's rows and fields.
 *
 * A row is a job (step == NULL) or one of its steps.  Each field is
 * described once (name, default width, justification, getter, and where
 * it sits in a job and in a step of Slurm 25.05's JSON); the table,
 * -p/-P, --json/--yaml and slurmrestd's /slurmdb/.../jobs walk the same
 * descriptions.  Widths follow Slurm's sacct: negative = left-justified.
 * A row starts with a cli_field_t: the format list, header, table and
 * -p/-P are cli_table.h's, shared with sstat, sshare and the others.
 */
#ifndef SLUICE_CLI_SACCT_H
#define SLUICE_CLI_SACCT_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "cli/cli_fields.h"
#include "cli/cli_table.h"
#include "common/acct_rec.h"
#include "common/hostlist.h"
#include "common/msg.h"
#include "common/msg_types.h"

typedef struct {
	const acct_job_rec_t  *job;
	const acct_step_rec_t *step;     /* NULL: the job's own row */
	time_t                 now;
	/* Sum of the job's steps' user+sys CPU (job rows: TotalCPU). */
	uint64_t               steps_cpu_usec;
	/* Sum of the job's steps' energy in joules (job rows). */
	uint64_t               steps_energy;
	/* Job rows, for JSON: the job's steps (its "steps" member). */
	const acct_step_rec_t *steps;
	uint32_t               nsteps;
	/* Job rows: the stored script/environment when the query asked for
	 * them (DBD_JOBS_SCRIPT, DBD_JOBS_ENV), else NULL. */
	const acct_script_rec_t *script;
	/* sacct --metrics: a value the job logged (job and step NULL) */
	const acct_track_rec_t *track;
	/* sacct --profile: a usage sample (job and step NULL) */
	const acct_profile_rec_t *prof;
} sacct_row_t;

typedef json_object *(*sacct_json_f)(const sacct_row_t *r);

/* A row: the column (cli_table.h: name, default width, getter over a
 * sacct_row_t; name NULL: a JSON member only, after the named rows),
 * the record members it reads and its place in Slurm's JSON. */
typedef struct {
	cli_field_t  f;
	const char  *job_needs;  /* acct_job_rec_t members read, or NULL */
	const char  *step_needs; /* acct_step_rec_t members read, or NULL */
	const char  *job_key;    /* JSON path in a job ("time/end"), or NULL */
	const char  *step_key;   /* JSON path in a step, or NULL */
	sacct_json_f json;       /* NULL: the text as a string */
} sacct_field_t;

/* The cli_field_t part of a row, as tables are initialised. */
#define SF(nm, w, get) { .name = (nm), .width = (w), .text = (get) }
/* The sacct row a table column stands for. */
static inline const sacct_field_t *sacct_field_of(const cli_field_t *f)
{
	return (const sacct_field_t *)f;
}

extern const sacct_field_t sacct_fields[];

/* How memory counts print: SACCT_UNITS_EXACT (the default: the largest
 * unit that keeps the value exact to a half), SACCT_UNITS_NONE
 * (--noconvert: as kept, K), or 0-4 (--units=K/M/G/T/P). */
enum { SACCT_UNITS_EXACT = -1, SACCT_UNITS_NONE = -2 };
void sacct_set_units(int mode);

/* Add the record members f reads to job and step; -1 if its list names
 * one the tables do not have. */
int  sacct_field_needs(const sacct_field_t *f, fields_sel_t *job,
		       fields_sel_t *step);
/* A row of a flat table (sacct_track_fields, sacct_profile_fields) as a
 * JSON object: a member per row with a job_key; a json builder's NULL
 * drops the member unless its key is in nullable (NULL-terminated), then
 * it is a JSON null. */
json_object *sacct_table_json(const sacct_field_t *tab, const sacct_row_t *r,
			      const char *const *nullable);
void sacct_fields_help(FILE *out);

/* --json / --yaml and slurmrestd (cli_sacct_json.c): a row as Slurm
 * 25.05's data_parser v0.0.43 shows it (a job row with its steps: a
 * "job"; a step row: a "step"), every table row with a key. */
json_object *sacct_json_row(const sacct_row_t *r);

/* The jobs of a slurmdbd answer as sacct shows them (cli_sacct_rows.c):
 * in Slurm's order, a reused job id only by its latest record unless
 * duplicates, only jobs that ran on one of nodes (NULL: all).  fn gets
 * each job row (with its steps in steps/nsteps); return false to stop. */
typedef bool (*sacct_row_f)(const sacct_row_t *r, void *arg);
void sacct_rows_walk(const dbd_jobs_msg_t *m, bool duplicates,
		     const hostlist_t *nodes, sacct_row_f fn, void *arg);
/* A query as sacct sends it (ClusterName, the accounting host and port,
 * its timeout).  0 with *out (msg_body_free(RESPONSE_DBD_JOBS, ..)), or
 * a Slurm error code. */
int  sacct_query(dbd_job_cond_msg_t *cond, dbd_jobs_msg_t **out);

/* A request of type to slurmdbd with cond, as sacct sends it: 0 with
 * *resp (msg_free), or a Slurm error code. */
int  sacct_dbd_rpc(uint16_t type, dbd_job_cond_msg_t *cond,
		   slurm_msg_t *resp);
/* sacct_dbd_rpc for a reply of type rtype whose body starts with an
 * int32_t rc: 0 with *out (the body: msg_body_free(rtype, ..)), or a
 * Slurm error code (the reply's rc if it is one). */
int  sacct_dbd_query(uint16_t type, uint16_t rtype, dbd_job_cond_msg_t *cond,
		     void **out);

/* sacct --metrics (cli_sacct_metrics.c): the run tracking values of the
 * jobs cond selects, as rows of sacct_track_fields (one a column; the
 * JSON member of each row its job_key).  0 with *out
 * (msg_body_free(RESPONSE_DBD_TRACK, ..)), or a Slurm error code. */
#define SACCT_TRACK_FORMAT "JobID,Kind,Name,Step,Value,Logged"
extern const sacct_field_t sacct_track_fields[];
int  sacct_track_query(dbd_job_cond_msg_t *cond, dbd_track_msg_t **out);
/* One value as --json and slurmrestd show it. */
json_object *sacct_track_json(const acct_track_rec_t *t);
/* sacct -e --metrics: the field names. */
void sacct_track_fields_help(FILE *out);

/* sacct --profile (cli_sacct_profile.c): the usage samples of the
 * profiled jobs cond selects, as rows of sacct_profile_fields.  0 with
 * *out (msg_body_free(RESPONSE_DBD_PROFILE, ..)), or a Slurm error. */
#define SACCT_PROFILE_FORMAT \
	"JobID,Step,Node,Time,CPUUtil,CPUTime,RSS,VMSize,ReadBytes,WriteBytes"
extern const sacct_field_t sacct_profile_fields[];
int  sacct_profile_query(dbd_job_cond_msg_t *cond, dbd_profile_msg_t **out);
json_object *sacct_profile_json(const acct_profile_rec_t *p);
void sacct_profile_fields_help(FILE *out);
/* "0", "batch", "extern" */
void sacct_profile_step_name(char **out, uint32_t step_id);

/* "CANCELLED by 1000" etc. */
void sacct_state_text(char **out, uint32_t state, uint32_t requid);

#endif
