/* cli_diag.h — the controller's statistics (REQUEST_STATS_INFO) as one
 * field table: sdiag's text report and --json/--yaml, and slurmrestd's
 * GET diag (Slurm 25.05's stats_msg), walk the same rows. */
#ifndef SLUICE_CLI_DIAG_H
#define SLUICE_CLI_DIAG_H

#include <json-c/json.h>
#include <stdio.h>

#include "cli/cli_fields.h"
#include "common/msg_types.h"

/* What the rows read: the controller's answer and the latency of 1000
 * gettimeofday() calls measured where it is printed. */
typedef struct {
	const stats_info_response_msg_t *s;
	unsigned                         latency;
} cli_diag_rec_t;

/* One row per figure: show_key is sdiag's label, json_key the stats_msg
 * member; CF_SHOW_NL puts a blank line before the line and a row whose
 * text is NULL prints no line. */
extern const cli_field_t cli_diag_fields[];

/* The latency of 1000 gettimeofday() calls, in microseconds. */
unsigned cli_diag_latency(void);
/* Sort s's RPC rows as sdiag's -i/-t/-T say (0 count, 1 id, 2 total
 * time, 3 average time). */
void cli_diag_sort(stats_info_response_msg_t *s, int by);
/* The "statistics" object. */
json_object *cli_diag_json(const stats_info_response_msg_t *s);

#endif
