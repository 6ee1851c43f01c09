/* cli_show.h — printing records the way scontrol shows them, and the
 * --json/--yaml documents (Slurm 25.05 shapes) that scontrol, squeue and
 * sinfo share.  Implemented on top of the one field description per record
 * (cli_fields_*.c), which the squeue/sinfo format engine walks too.
 */
#ifndef SLUICE_CLI_SHOW_H
#define SLUICE_CLI_SHOW_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli/cli_fields.h"
#include "common/msg_types.h"

/* Which document, if any, a show prints instead of "Key=Value" lines. */
typedef enum { CLI_DOC_NONE, CLI_DOC_JSON, CLI_DOC_YAML } cli_doc_t;

/* scontrol show job|node|partition|reservation|step: "Key=Value" lines (one_liner: -o). */
void cli_show_job(FILE *out, const job_info_t *j, bool one_liner, bool detail);
void cli_show_node(FILE *out, const node_info_t *n, bool one_liner,
		   bool detail);
void cli_show_part(FILE *out, const part_info_t *p, bool one_liner);
void cli_show_resv(FILE *out, const resv_info_t *r, bool one_liner);
void cli_show_step(FILE *out, const job_step_info_t *s, bool one_liner);
/* What the field tables' getters need now (time, slurmd port); also sets
 * the cluster the documents' meta names. */
cli_ctx_t cli_show_ctx(void);

/* {"jobs":[...], "meta":..., "errors":[], "warnings":[]} and the same
 * for nodes and partitions; yaml=true prints the same tree as YAML. */
/* The same documents, for a caller that sends them elsewhere
 * (slurmrestd's GET jobs, nodes, partitions).  Caller puts them. */
json_object *cli_jobs_doc(const job_info_msg_t *m);
json_object *cli_nodes_doc(const node_info_msg_t *m);
json_object *cli_parts_doc(const part_info_msg_t *m);
/* want: which reservations (want[i] for m->resvs[i]); NULL = all. */
json_object *cli_resvs_doc(const resv_info_msg_t *m, const bool *want);

void cli_print_jobs_json(FILE *out, const job_info_msg_t *m, bool yaml);
void cli_print_nodes_json(FILE *out, const node_info_msg_t *m, bool yaml);
void cli_print_parts_json(FILE *out, const part_info_msg_t *m, bool yaml);
/* The records of m for which want[i] (NULL: all). */
void cli_print_resvs_json(FILE *out, const resv_info_msg_t *m,
			  const bool *want, bool yaml);
void cli_print_steps_json(FILE *out, const job_step_info_msg_t *m, bool yaml);

#endif
