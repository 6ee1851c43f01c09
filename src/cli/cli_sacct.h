/* cli_sacct.h — sacct's rows and fields.
 *
 * A row is a job (step == NULL) or one of its steps.  Each field is
 * described once (name, default width, justification, getter); the table,
 * -p/-P and --json printers walk the same descriptions.  Widths follow
 * Slurm's sacct: negative = left-justified.
 */
#ifndef SLUICE_CLI_SACCT_H
#define SLUICE_CLI_SACCT_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "common/acct_rec.h"

typedef struct {
	const acct_job_rec_t  *job;
	const acct_step_rec_t *step;     /* NULL: the job's own row */
	time_t                 now;
	/* Sum of the job's steps' user+sys CPU (job rows: TotalCPU). */
	uint64_t               steps_cpu_usec;
	/* Sum of the job's steps' energy in joules (job rows). */
	uint64_t               steps_energy;
} sacct_row_t;

typedef void (*sacct_get_f)(char **out, const sacct_row_t *r);

typedef struct {
	const char  *name;
	int          width;      /* < 0: left-justified */
	sacct_get_f  get;
	const char  *job_needs;  /* acct_job_rec_t members read, or NULL */
	const char  *step_needs; /* acct_step_rec_t members read, or NULL */
} sacct_field_t;

typedef struct {
	const sacct_field_t *field;
	int                  width;
} sacct_col_t;

extern const sacct_field_t sacct_fields[];

/* Parse "JobID,State%20,JobName%-30" into cols (xmalloc'd, *cnt set).
 * Names match case-insensitively, also by unique prefix.  Returns 0, or
 * -1 with the bad name in *bad (xmalloc'd). */
int  sacct_format_parse(const char *spec, sacct_col_t **cols, size_t *cnt,
			char **bad);
/* Add the record members f reads to job and step; -1 if its list names
 * one the tables do not have. */
int  sacct_field_needs(const sacct_field_t *f, fields_sel_t *job,
		       fields_sel_t *step);
/* The text of a field for a row (never NULL).  Caller frees. */
char *sacct_field_text(const sacct_field_t *f, const sacct_row_t *r);
/* sacct -e: every field name, four to a line. */
void sacct_fields_help(FILE *out);

/* --json / --yaml (cli_sacct_json.c): one job with its steps in Slurm
 * 22.05's data_parser v0.0.38 layout, and the document around the
 * list of them ({"meta": ..., "errors": [], "jobs": list}). */
json_object *sacct_json_job(const acct_job_rec_t *j,
			    const acct_step_rec_t *steps, uint32_t nsteps,
			    time_t now);
json_object *sacct_json_doc(json_object *jobs);

/* "CANCELLED by 1000" etc. */
void sacct_state_text(char **out, uint32_t state, uint32_t requid);

#endif
