/* cli_sacct_json.h — the JSON value builders sacct's field table
 * (cli_sacct_fields.c) names for Slurm 25.05's job and step members.
 * Internal to sacct's table: other code calls sacct_json_row()
 * (cli_sacct.h). */
#ifndef SLUICE_CLI_SACCT_JSON_H
#define SLUICE_CLI_SACCT_JSON_H

#include "cli/cli_sacct.h"

#define SJ(fn) json_object *fn(const sacct_row_t *r)

SJ(sj_array);
SJ(sj_assoc);
SJ(sj_derived);
SJ(sj_elapsed);
SJ(sj_suspended);
SJ(sj_eligible);
SJ(sj_empty_list);
SJ(sj_wckey);
SJ(sj_wckey_flags);
SJ(sj_empty_str);
SJ(sj_end);
SJ(sj_energy);
SJ(sj_exit);
SJ(sj_het);
SJ(sj_hold);
SJ(sj_jobid);
SJ(sj_killer);
SJ(sj_limit);
SJ(sj_mem_cpu);
SJ(sj_mem_node);
SJ(sj_nnodes);
SJ(sj_nodelist);
SJ(sj_ntasks);
SJ(sj_priority);
SJ(sj_reqcpus);
SJ(sj_resv);
SJ(sj_script);
SJ(sj_restarts);
SJ(sj_start);
SJ(sj_state);
SJ(sj_step_consumed);
SJ(sj_step_usage);
SJ(sj_steps);
SJ(sj_submit);
SJ(sj_sys);
SJ(sj_total);
SJ(sj_tres_alloc);
SJ(sj_tres_req);
SJ(sj_unset);
SJ(sj_user);
SJ(sj_zero);

#undef SJ

#endif
