/* rest_ctld.h — asking slurmctld from a handler, and reading the body.
 *
 * Each call reports its failure into r (rest_error) under the name of the
 * Slurm API call it stands for ("slurm_load_jobs"), so a handler only
 * checks the return value.
 */
#ifndef SLUICE_REST_CTLD_H
#define SLUICE_REST_CTLD_H

#include <stdint.h>

#include "common/msg.h"
#include "restd/rest_req.h"

/* Send req; 0 with the reply (of type want) in *resp (msg_free it), or -1.
 * SLURM_NO_CHANGE_IN_DATA (not reported, no reply to free) when the
 * request's last_update is newer than any change. */
int  rest_ctld_info(rest_req_t *r, uint16_t type, const void *req,
		    uint16_t want, slurm_msg_t *resp, const char *what);
/* Send req and take a return code reply: the code (0 = done). */
int  rest_ctld_rc(rest_req_t *r, uint16_t type, const void *req,
		  const char *what);
/* The request body as JSON; NULL (400 with where parsing stopped) if it is
 * missing or not JSON. */
json_object *rest_ctld_body(rest_req_t *r, const char *what);

#endif
