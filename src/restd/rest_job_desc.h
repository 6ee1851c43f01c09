/* rest_job_desc.h — REST job request bodies (job/submit, job/{id} update,
 * job/allocate) into the requests sbatch and scontrol send.
 *
 * One table (rest_job_desc.c; converters in rest_job_conv.c) names every
 * property of Slurm's job_desc_msg for data_parser v0.0.40 to v0.0.43 and
 * what becomes of it: mapped onto a job_desc_t field exactly as sbatch
 * fills it for the same option, refused with "job.<name>: not supported
 * by Sluice" when its value asks for something Sluice does not do, or
 * (only where Slurm itself does) accepted without effect.  doc/rest.md
 * prints the table.
 *
 * ver is the data_parser version: 40, 41, 42 or 43.  A property the
 * version does not have is an unknown one: as Slurm's parser, it is
 * skipped with a warning ("Ignoring unknown field ...") appended to
 * warnings (a json-c array of {description, source}; NULL drops them).
 *
 * Each function returns 0, or a Slurm error code (ESLURM_REST_FAIL_PARSING
 * for a value it cannot take, ESLURM_NOT_SUPPORTED for one Sluice refuses,
 * ESLURM_JOB_SCRIPT_MISSING, ESLURM_REST_INVALID_JOBS_DESC) with *err set to an
 * xmalloc'd message naming the JSON path ("job.time_limit: expected an
 * integer or {set,infinite,number}"); the caller frees *err.  On failure
 * the output holds nothing to free (and nothing half-filled to use).
 *
 * user_id/group_id stay NO_VAL32 unless the body names them (the
 * controller then takes the authenticated user's, as for sbatch);
 * user_name, submit_host and submit_line are the caller's to fill.
 */
#ifndef SLUICE_REST_JOB_DESC_H
#define SLUICE_REST_JOB_DESC_H

#include <json-c/json.h>

#include "common/job_info.h"
#include "common/msg_types.h"

/* {script, job, jobs}: the batch job of job/submit.  d is initialised
 * here (job_desc_init); free with job_desc_free_members. */
int rest_job_submit_parse(json_object *body, int ver, job_desc_t *d,
			  json_object *warnings, char **err);
/* One job_desc_msg object (path "job") into d (initialised here). */
int rest_job_desc_parse(json_object *job, int ver, job_desc_t *d,
			json_object *warnings, char **err);
/* POST job/{job_id}: a job_desc_msg holding the changes.  u is
 * initialised here with every field "not given"; u->job_id_str is the
 * body's job_id when it has one (the caller checks it against the
 * path's, or sets the path's when NULL).  *hold: -1 not asked, 1 hold
 * (as scontrol hold), 0 release: the caller sends REQUEST_JOB_HOLD for
 * it.  Properties the update message cannot carry are refused with
 * ESLURM_NOT_SUPPORTED.  Free u with job_update_free_members
 * (msg_types.h). */
int rest_job_update_parse(json_object *job, int ver, job_update_msg_t *u,
			  int *hold, json_object *warnings, char **err);
/* {job, hetjob}: job/allocate (v0.0.41 on), an allocation without a
 * script, as salloc asks. */
int rest_job_alloc_parse(json_object *body, int ver, job_desc_t *d,
			 json_object *warnings, char **err);

#endif
