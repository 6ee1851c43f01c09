/* rest_dbd_query.h — GET /slurmdb/v0.0.4N/jobs' query parameters as the
 * query sacct sends slurmdbd (sacct's filters, by the spec's names).
 *
 * Pure: no daemon code (sluice_restd_parse; fuzz_rest_dbd_query).  A
 * parameter a Sluice job record cannot answer, or an unknown one, is
 * refused by name; a few that change nothing in Sluice are accepted.
 */
#ifndef SLUICE_REST_DBD_QUERY_H
#define SLUICE_REST_DBD_QUERY_H

#include <stddef.h>

#include "common/hostlist.h"
#include "common/msg_types.h"
#include "restd/rest_req.h"

typedef struct {
	dbd_job_cond_msg_t cond;     /* what slurmdbd is asked */
	hostlist_t        *nodes;    /* node=: jobs that ran on one of them */
} rest_jobs_query_t;

/* Read n parameters into q (zeroed by the caller; cond.end = now).  0,
 * or -1 with *err (xmalloc'd, names the parameter).  q holds what was
 * read either way: rest_jobs_query_free() it. */
int  rest_jobs_query_parse(const rest_kv_t *kv, size_t n,
			   rest_jobs_query_t *q, char **err);
void rest_jobs_query_free(rest_jobs_query_t *q);
/* A job id as the query names it ("123", "123_4") into buf; -1 if it is
 * not one (a step, "123.batch", included: a job's steps are not
 * selected apart). */
int  rest_jobs_query_job_id(const char *s, char *buf, size_t len);

#endif
