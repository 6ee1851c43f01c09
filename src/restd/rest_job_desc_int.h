/* rest_job_desc_int.h — the job_desc_msg property walk shared by the
 * submit/allocate parser (rest_job_desc.c) and the update parser
 * (rest_job_update.c).  Private to src/restd.
 */
#ifndef SLUICE_REST_JOB_DESC_INT_H
#define SLUICE_REST_JOB_DESC_INT_H

#include <stdbool.h>

#include <json-c/json.h>

#include "common/job_info.h"

/* What one walk over a job_desc_msg object found besides d's fields. */
typedef struct {
	bool  update;        /* a job update: keep "" (clears), check rows */
	int   hold;          /* "hold" given: 1/0, else -1 */
	char *job_id;        /* "job_id" given (update), xmalloc'd */
} rest_jd_extra_t;

/* Walk job (an object at path base) into d (already initialised).
 * 0, or a Slurm error code with *err set; d may be half-filled then
 * (the caller frees it). */
int rest_jd_walk(json_object *job, const char *base, int ver, job_desc_t *d,
		 rest_jd_extra_t *x, json_object *warnings, char **err);

/* Is ver a data_parser version served (40..43)? */
bool rest_jd_version_ok(int ver);

#endif
