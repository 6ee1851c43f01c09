/* job_alloc.h — a job's allocation from start to the last node's
 * confirmation of its end (job_alloc.c). */
#ifndef SLUICE_CTLD_JOB_ALLOC_H
#define SLUICE_CTLD_JOB_ALLOC_H

#include "ctld/job_mgr.h"

/* Start a pending job on the selected resources (state, nodes, launch). */
void          job_mgr_start(job_record_t *j, const select_result_t *res);
/* End a job that holds nodes: state (with flags), reason, terminate on
 * its nodes, resources released as each node confirms. */
void          job_mgr_end(job_record_t *j, uint32_t state, uint32_t reason,
			  uint32_t exit_code);
/* A recovered job that had already ended: the same bookkeeping as
 * job_mgr_end without the news (jobcomp record, statistics) it made when
 * it really ended. */
void          job_mgr_reend(job_record_t *j);
/* Before the batch script's end is recorded: is the batch stepd all
 * there is of j on its nodes (no step ever started this run, no extern
 * step), and is no launch of this start on its way to slurmd (one launch
 * sent, answered 0, not after a restart)?  Then its node may learn of
 * the end from the answer to its completion (job_mgr_term_reply):
 * slurmd would only pass the terminate on, as it has no step of the job
 * to end there.  (slurmd ignores a late launch of a run it was told
 * ended; without that message nothing may be late.) */
bool job_mgr_batch_alone(const job_record_t *j);
/* The batch script's end on node just ended j (job_mgr_batch_alone was
 * true): the terminate for that node, to send as the answer once the end
 * is saved; the save's own terminate leaves that node out (a resend does
 * not).  One message fewer per job, and slurmd is not involved.  clean
 * (BATCH_END_CLEAN): the node is done at once and the terminate says so
 * (TERM_NODE_DONE): no MESSAGE_EPILOG_COMPLETE either.  NULL if node is
 * not ending j. */
node_signal_msg_t *job_mgr_term_reply(job_record_t *j, const char *node,
				      bool clean);
/* The same completion again (its first answer was refused or lost):
 * the same terminate, or NULL if node was not told so. */
/* The batch script of a run already over (the job was requeued, e.g.
 * its launch was declared lost: BatchStartTimeout) reported its end:
 * the answer tells that node to clean it up, with no epilog report. */
node_signal_msg_t *job_mgr_term_stale(job_record_t *j);
node_signal_msg_t *job_mgr_term_again(job_record_t *j, const char *node);
/* A node confirmed the job's processes are gone there. */
void          job_mgr_node_done(job_record_t *j, node_record_t *n);
/* Its node failed: every job on it ends NODE_FAIL. */
void          job_mgr_node_fail(node_record_t *n);
/* Node n registered listing the jobs alive on it: batch jobs it should
 * be running but does not list (and that are not just being launched)
 * are lost: requeued (--requeue, JobRequeue=1) or ended NODE_FAIL; those
 * recovered at a restart are launched now. */
void          job_mgr_check_missing(node_record_t *n, const uint32_t *ids,
				    uint32_t cnt);
/* CompleteWait: is a job COMPLETING that ended less than CompleteWait
 * seconds ago?  Then neither scheduler starts anything (false when
 * CompleteWait is 0). */
bool          job_mgr_complete_wait(time_t now);
/* Is a job with this id still running/completing on node n? */
bool          job_mgr_on_node(uint32_t job_id, const node_record_t *n);
/* Send req (ownership passes) to these nodes along the TreeWidth tree
 * (agent_send_tree), once the state as it is now is on disk
 * (commit_after): never for a change the journal refused. */
void          job_mgr_send_nodes(const bitmap_t *nodes, uint16_t type,
				 void *req);
/* REQUEST_TERMINATE_JOB's body for j (caller sends or frees it). */
node_signal_msg_t *job_mgr_term_msg(job_record_t *j);
/* tres_alloc_str from the held CPUs, memory, nodes and licenses. */
void          job_mgr_tres_alloc(job_record_t *j);
/* REQUEST_TERMINATE_JOB now to every node that has not confirmed. */
void          job_mgr_terminate_all(job_record_t *j);

#endif
