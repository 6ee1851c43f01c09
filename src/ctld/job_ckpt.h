/* job_ckpt.h — resumable jobs (Sluice): checkpoint and restart.
 *
 * A batch job submitted with --checkpoint (JOB_CHECKPOINT) gets
 * SLURM_CHECKPOINT_DIR, a directory of its own that every run of it
 * sees (JobCheckpointDir/<job id>, or <WorkDir>/.sluice-checkpoint/<job
 * id> when JobCheckpointDir is unset).  Checkpointing it (scontrol
 * checkpoint, REQUEST_CHECKPOINT; or a preemption with
 * PreemptMode=CHECKPOINT) tells its processes to save their state and
 * then requeues it, holding nothing, so that its next start resumes
 * from that directory:
 *
 *  - CheckpointType=checkpoint/signal (the default): the job's batch
 *    shell and steps get its --signal's signal (SIGUSR2 without one;
 *    "B:" sends it to the batch shell alone).  The job is requeued when
 *    its script ends, or CheckpointWait seconds later (a preemption: the
 *    GraceTime, if not 0), whichever is first.  The script's exit code
 *    does not matter then: it is requeued.
 *  - CheckpointType=checkpoint/criu: first the batch host's slurmd is
 *    asked to dump the job's processes with CRIU into <dir>/criu (they
 *    keep running), then they are signalled as above.  When CRIU cannot
 *    (it is not installed, or this kernel is not one it supports), the
 *    job is requeued as a plain requeue, restarting from what the
 *    application saved, and CRIU's reason is in its events
 *    (checkpoint_failed) and the controller's log.  Sluice does not
 *    restore from a CRIU image yet: a restart is always the job's
 *    script run again.
 *
 * Each checkpoint and each restart after one is an event of the job in
 * accounting (sacct --events): kind "event", name "checkpoint" or
 * "restart", text why.  Who may checkpoint: the job's user, operators,
 * root (SlurmUser).
 */
#ifndef SLUICE_CTLD_JOB_CKPT_H
#define SLUICE_CTLD_JOB_CKPT_H

#include <stdbool.h>
#include <time.h>

#include "common/msg.h"
#include "common/net.h"
#include "ctld/job_mgr.h"

/* The job's checkpoint directory; NULL if it has no --checkpoint.
 * Caller frees. */
char *job_ckpt_dir(const job_record_t *j);
/* Add SLURM_CHECKPOINT_DIR to a batch launch's environment (an
 * xstrarray; returned, possibly moved). */
char **job_ckpt_env(const job_record_t *j, char **env);

/* REQUEST_CHECKPOINT. */
void job_ckpt_rpc(net_conn_t *c, slurm_msg_t *m);

/* Preemption with PreemptMode=CHECKPOINT: checkpoint r (grace: its
 * GraceTime, 0 = CheckpointWait).  false if r has no --checkpoint (it
 * is then cancelled, as Slurm's CHECKPOINT mode did). */
bool job_ckpt_preempt(job_record_t *r, uint32_t grace, uint32_t by);
/* Is r being checkpointed (its requeue is due by r->ckpt_deadline)? */
bool job_ckpt_pending(const job_record_t *r);
/* r's checkpoint is over (the time is up): requeue it now. */
void job_ckpt_requeue_now(job_record_t *r);

/* j's batch script ended (status as wait() gives it) while it was
 * being checkpointed: it was requeued.  false: not checkpointing. */
bool job_ckpt_ended(job_record_t *j, uint32_t status);
/* Once a second: checkpoints whose time is up are requeued. */
void job_ckpt_tick(time_t now);
/* j started: a restart after a checkpoint is recorded as an event. */
void job_ckpt_started(job_record_t *j);

#endif
