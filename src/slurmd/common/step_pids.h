/* step_pids.h — the processes of a step, for scontrol listpids,
 * listjobs, liststeps and pidinfo (REQUEST_STEP_PIDS, msg_types.h).
 *
 * A stepd answers with its tasks and every other living descendant of
 * itself (it is a child subreaper: what its tasks leave behind is
 * re-parented to it), found in /proc; slurmd asks each stepd of its node
 * and answers the rows together.  Who frees: the caller, with
 * msg_body_free(RESPONSE_STEP_PIDS, m).
 */
#ifndef SLUICE_SLURMD_STEP_PIDS_H
#define SLUICE_SLURMD_STEP_PIDS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/msg_types.h"

/* One row (ignored past STEP_PIDS_MAX). */
void step_pids_add(step_pids_msg_t *m, uint32_t job_id, uint32_t step_id,
		   uint32_t pid, uint32_t lid, uint32_t gtid, uint32_t uid);
/* Whether m has a row for pid. */
bool step_pids_has(const step_pids_msg_t *m, uint32_t pid);
/* The rows of a step: a pid-0 row for the step, its tasks (given), then
 * each other living descendant of this process. */
void step_pids_add_step(step_pids_msg_t *m, uint32_t job_id,
			uint32_t step_id, uint32_t uid);
void step_pids_add_descendants(step_pids_msg_t *m, uint32_t job_id,
			       uint32_t step_id, uint32_t uid);
/* Append src's rows to dst. */
void step_pids_append(step_pids_msg_t *dst, const step_pids_msg_t *src);

#endif
