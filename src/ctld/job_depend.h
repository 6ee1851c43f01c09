/* job_depend.h — dependencies of pending jobs on other jobs.
 *
 * A job's dependency is kept as text in info.dependency, in the form
 * scontrol shows ("afterok:12(unfulfilled)"), which is also what the
 * snapshot saves; the parsed list (job_record_t.depend) is a cache built
 * from it on first use, so a restarted controller picks up each entry's
 * state from the text.  Entries change state as their jobs run and end;
 * once the whole dependency is satisfied the text is cleared.
 */
#ifndef SLUICE_CTLD_JOB_DEPEND_H
#define SLUICE_CTLD_JOB_DEPEND_H

#include <stdint.h>
#include <time.h>

#include "ctld/job_mgr.h"

/* Would spec be a valid dependency of j (syntax, known target jobs, not
 * itself, no cycle)?  0 or ESLURM_DEPENDENCY / ESLURM_CIRCULAR_DEPENDENCY;
 * changes nothing.  "" is valid (clears). */
int      job_depend_check(job_record_t *j, const char *spec);
/* Set j's dependency to a checked spec ("" or NULL clears it). */
void     job_depend_set(job_record_t *j, const char *spec);
/* Where j's dependency stands now: WAIT_NO_REASON (none or satisfied),
 * WAIT_DEPENDENCY or WAIT_DEP_INVALID.  Updates entry states; a job
 * that can never run is cancelled soon after when kill_invalid_depend
 * (DependencyParameters) or --kill-on-invalid-dep=yes says so. */
uint32_t job_depend_reason(job_record_t *j, time_t now);
void     job_depend_free(job_record_t *j);

#endif
