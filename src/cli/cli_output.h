/* cli_output.h — printing records through a format: table lines, and
 * JSON/YAML documents with Slurm 25.05's envelope.
 *
 * A table is a header line (unless suppressed) then one line per record;
 * records are passed as an array of pointers so commands can sort them
 * first.  Columns marked "fit" are widened to their longest value before
 * anything is printed.
 */
#ifndef SLUICE_CLI_OUTPUT_H
#define SLUICE_CLI_OUTPUT_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli/cli_fields.h"
#include "cli/cli_format.h"

/* The header line of fmt, with its newline.  Caller frees. */
char *cli_output_header(const cli_format_t *fmt);
/* One record's line, with its newline.  Caller frees. */
char *cli_output_line(const cli_format_t *fmt, const void *rec,
		      const cli_ctx_t *ctx);
/* Widen "fit" columns to the longest value among recs. */
void  cli_output_fit(cli_format_t *fmt, const void *const *recs, size_t n,
		     const cli_ctx_t *ctx);
/* Header (if header) then every record. */
void  cli_output_table(FILE *out, cli_format_t *fmt, const void *const *recs,
		       size_t n, const cli_ctx_t *ctx, bool header);

/* {"<key>": [records...], "last_update":..., "meta":..., "errors":[],
 * "warnings":[]} (extra members added by the caller after).  Takes
 * ownership of list. */
json_object *cli_output_doc(const char *key, json_object *list,
			    time_t last_update);
/* meta.slurm.cluster of later documents (ClusterName). */
void  cli_output_set_cluster(const char *name);
/* Print doc as JSON (pretty, 2 spaces) or YAML, then release it. */
void  cli_output_doc_print(FILE *out, json_object *doc, bool yaml);

#endif
