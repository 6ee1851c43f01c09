/* job_prolog.h — PrologSlurmctld and EpilogSlurmctld: the site's programs
 * the controller runs (as its own user) when a job is allocated and when
 * it ends.
 *
 * While PrologSlurmctld runs the job is RUNNING+CONFIGURING and nothing
 * is launched; exit 0 launches it, anything else requeues a batch job
 * held (JobHeldAdmin, "launch failed requeued held") and ends any other
 * job FAILED.  EpilogSlurmctld runs after the job ended and its outcome
 * is only logged.  Both run on threads of their own and report back to
 * the loop, so a slow script holds up only its job.
 */
#ifndef SLUICE_CTLD_JOB_PROLOG_H
#define SLUICE_CTLD_JOB_PROLOG_H

#include <stdbool.h>

#include "ctld/job_mgr.h"

/* The job was just allocated: start PrologSlurmctld if one is set.
 * true if it runs (launch(j) is called once it succeeds). */
bool job_prolog_start(job_record_t *j, void (*launch)(job_record_t *j));
/* After a restart: jobs that were CONFIGURING lost their prolog with
 * the old controller; run it again (then launch). */
void job_prolog_recover(void (*launch)(job_record_t *j));
/* A prolog (PrologSlurmctld or a node's Prolog) failed: requeue the job
 * held, "launch failed requeued held", if it is a batch job that may be
 * requeued.  false (nothing done) otherwise. */
bool job_prolog_requeue_held(job_record_t *j);
/* A node's Prolog failed for the job (as Slurm): the node is drained
 * ("Prolog error"), the job requeued held or, if it may not be requeued,
 * cancelled. */
void job_prolog_node_failed(job_record_t *j, const char *node_name);
/* The job ended: start EpilogSlurmctld if one is set. */
void job_epilog_start(const job_record_t *j);

#endif
