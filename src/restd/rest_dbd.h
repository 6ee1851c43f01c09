/* rest_dbd.h — asking slurmdbd from a handler, as sacct and sacctmgr do
 * (the request's user: slurmrestd holds no privilege of its own).
 *
 * Each call reports its failure into r (rest_error) under the name of the
 * Slurm API call it stands for ("slurmdb_jobs_get"), so a handler only
 * checks the return value.
 */
#ifndef SLUICE_REST_DBD_H
#define SLUICE_REST_DBD_H

#include "common/msg_types.h"
#include "restd/rest_req.h"

/* One sacctmgr request (list, or a change with DBD_ACCT_COMMIT); 0 with
 * *out (rest_dbd_free), or -1 (slurmdbd refused: its code and message). */
int  rest_dbd_acct(rest_req_t *r, const dbd_acct_msg_t *req,
		   dbd_acct_resp_msg_t **out, const char *what);
/* A list (DBD_OP_LIST) of entity where ... (NULL-terminated "key=value"
 * strings, as sacctmgr sends them); 0 with *out (rest_dbd_free), or -1. */
int  rest_dbd_list(rest_req_t *r, uint16_t entity, uint16_t flags,
		   char **where, dbd_acct_resp_msg_t **out, const char *what);
void rest_dbd_free(dbd_acct_resp_msg_t *m);
/* The jobs cond selects, as sacct asks; 0 with *out
 * (msg_body_free(RESPONSE_DBD_JOBS, ..)), or -1. */
int  rest_dbd_jobs(rest_req_t *r, dbd_job_cond_msg_t *cond,
		   dbd_jobs_msg_t **out);

/* A row of a list answer: the cell of column col ("" if none). */
const char *rest_dbd_cell(const dbd_acct_resp_msg_t *m, size_t row,
			  const char *col);
size_t rest_dbd_rows(const dbd_acct_resp_msg_t *m);

#endif
