/* preempt.h — PreemptType: job preemption.
 *
 * A pending job the main scheduler cannot place may take the resources of
 * running jobs that the PreemptType plugin says it may preempt and that
 * share its nodes.  The victims are the fewest such jobs (lowest tier,
 * then lowest priority, then youngest first) whose resources let it
 * start.  Built in: preempt/none (the default: nothing is preempted),
 * preempt/partition_prio (jobs in partitions of a lower PriorityTier;
 * tier = PriorityTier; each victim is cancelled, requeued or suspended as
 * its partition's PreemptMode says, a partition without one following
 * the global PreemptMode, after its partition's GraceTime) and
 * preempt/qos (jobs whose QOS is in the Preempt list of the pending
 * job's QOS; tier = QOS Priority; global PreemptMode, the QOS's
 * GraceTime).  Any other name is PluginDir/preempt_<name>.so exporting
 * preempt_ops_t (ctld/preempt_plugin.h: the ops see job views,
 * common/job_view.h).  The ops run on the controller's loop, once per
 * candidate job in the scheduler's pass: they must not block.  Cancel and
 * requeue wait the partition's GraceTime: the job's steps get SIGCONT and
 * SIGTERM at once, its end time moves to now + GraceTime and it is ended
 * then.  A job suspended by preemption gives back its CPUs and is resumed
 * by the scheduler as soon as they are free again.  PreemptExemptTime
 * keeps a job from being preempted before it has run that long.
 */
#ifndef SLUICE_CTLD_PREEMPT_H
#define SLUICE_CTLD_PREEMPT_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "common/plugin_ctx.h"
#include "ctld/job_mgr.h"
#include "ctld/preempt_plugin.h"
#include "ctld/select.h"

enum preempt_mode {
	PREEMPT_MODE_OFF = 0,
	PREEMPT_MODE_CANCEL,
	PREEMPT_MODE_REQUEUE,
	PREEMPT_MODE_SUSPEND,
	PREEMPT_MODE_CHECKPOINT,   /* --checkpoint jobs: checkpointed and
				    * requeued (job_ckpt.h); others
				    * cancelled, as Slurm's mode did */
};


/* The type with its built-ins (ctld_plugins.c checks a new config). */
extern const plugin_type_t preempt_plugin_type;

/* "REQUEUE", "GANG,SUSPEND", "off" -> enum preempt_mode (GANG alone and
 * unknown words: OFF). */
int  preempt_mode_parse(const char *s);
/* The PreemptType plugin preempts and PreemptMode is not OFF (the plugin
 * is loaded from ctld_conf() when that changes). */
bool preempt_enabled(void);
/* The mode that applies to jobs running in part. */
int  preempt_part_mode(const part_record_t *part);
/* A job started: its PreemptEligibleTime (shown when preemption is on). */
void preempt_job_started(job_record_t *j);

/* Main scheduler: j may run now but does not fit on view (nodes usable
 * now).  Preempt the fewest lower-tier jobs that make room, or find that
 * jobs already being preempted will.  true: resources are being freed
 * for j (it waits with reason Resources); false: preemption cannot help. */
bool preempt_for(job_record_t *j, const select_node_t *view, size_t node_cnt,
		 const bitmap_t *usable);
/* Once a second: jobs whose GraceTime is over are cancelled/requeued. */
void preempt_tick(time_t now);
/* Start of a scheduler pass: resume jobs suspended by preemption whose
 * CPUs are all free again. */
void preempt_resume_suspended(void);

#endif
