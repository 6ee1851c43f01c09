/* job_mgr.h — the controller's job records.
 *
 * Records live in a hash table on job_id; pending jobs are also on a list
 * kept in scheduling order (priority, then job id) and running jobs on a
 * list for the time-limit check.  job_info_t is the first member, so a
 * record is reported without conversion.
 *
 * Split over job_mgr.c (table, lists, allocation, info, purge, state),
 * job_submit.c (validate and create), job_ctl.c (cancel, hold, update,
 * completion, time limits, node failure), job_ops.c (requeue, suspend,
 * resume, top) and job_depend.c (dependencies, its own header).
 */
#ifndef SLUICE_CTLD_JOB_MGR_H
#define SLUICE_CTLD_JOB_MGR_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>
#include <uthash.h>

#include "common/bitmap.h"
#include "common/depend.h"
#include "common/gres.h"
#include "common/job_info.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/pack.h"
#include "ctld/node_mgr.h"
#include "ctld/part_mgr.h"
#include "ctld/select.h"

typedef struct job_array job_array_t;   /* job_array.h */

typedef struct job_record {
	job_info_t      info;          /* first member */
	part_record_t  *part;
	char          **argv;          /* script arguments */
	bitmap_t       *node_bitmap;   /* allocated nodes */
	uint16_t       *node_cpus;     /* per allocated node, index order */
	uint16_t       *node_tasks;
	uint64_t       *node_mem;
	uint32_t        alloc_cnt;     /* entries in the arrays above */
	bitmap_t       *comp_bitmap;   /* nodes yet to confirm the end */
	bitmap_t       *req_bitmap;    /* -w, cached for node generation */
	bitmap_t       *exc_bitmap;    /* -x */
	uint32_t        bitmap_gen;
	uint32_t        prio_saved;    /* priority to restore on release */
	int32_t         site_factor;   /* site_factor.c: added to the
					  multifactor sum; not saved */
	uint32_t        site_gen;      /* plugin load it was set by */
	bool            prio_fixed;    /* set by an operator: not recomputed */
	bool            exclusive;
	bool            ntasks_given;  /* -n given (SLURM_NTASKS) */
	bool            cpt_given;     /* -c given */
	uint16_t        open_mode;
	time_t          begin_time;    /* --begin, 0 = none */
	depend_list_t  *depend;        /* parsed info.dependency (job_depend.c) */
	bool            jdirty;        /* on the journal's changed list */
	time_t          term_sent;     /* last REQUEST_TERMINATE_JOB */
	uint32_t        term_reply_idx; /* node index + 1 told of the end
					 * in a reply (0: none; reset by
					 * each end; job_mgr_term_reply);
					 * not saved */
	bool            term_reply_done; /* ... and counted done then */
	uint16_t        launch_tries;  /* batch launches sent for this start */
	bool            launch_acked;  /* its one launch answered 0 */
	bool            relaunched;    /* launched again after a restart */
	bool            launch_ok;     /* a launch of this start answered 0 */
	time_t          launch_sent;   /* the first launch of this start
					  (BatchStartTimeout); not saved */
	time_t          alloc_active;  /* its srun/salloc's last heartbeat
					  (job_inactive.c); not saved */
	/* resources in detail (job_res.c) */
	bitmap_t      **node_cpu_ids;  /* per allocated node: CPU ids, or NULL */
	uint64_t       *node_gpus;     /* per allocated node: GPU indexes */
	char          **node_gres;     /* per allocated node: other GRES
					  (gres_sel.h allocation string) */
	part_record_t **part_list;     /* -p a,b: every partition it may use */
	uint32_t        part_cnt;
	bitmap_t       *feat_bitmap;   /* nodes matching -C, cached */
	uint32_t        feat_gen;
	uint16_t        gpus_per_node; /* parsed from gres/tres_per_* */
	uint16_t        gpus_per_task;
	uint32_t        gpus_per_job;
	/* run tracking (job_track.c), not saved: a restart forgets them */
	uint32_t        track_cnt;     /* values logged */
	double          track_tokens;  /* rate bucket */
	double          track_last;
	uint16_t        cpus_per_gpu;  /* --cpus-per-gpu, 0 = none */
	uint64_t        mem_per_gpu;   /* --mem-per-gpu MB, 0 = none */
	char           *gpu_type;
	gres_spec_t    *gres_req;      /* --gres names other than gpu, per
					  node (parsed with the GPUs) */
	size_t          gres_req_cnt;
	bool            gpus_parsed;
	job_array_t    *array;         /* shared by an array's records; a
					 * started task copies the request
					 * fields (job_array.c _ja_copy) */
	struct job_steps *steps;       /* step_mgr.h; NULL = none yet */
	bool            recovered_run; /* running at restart: launch it if its
				        * node registers without it */
	int             recovered_sig;  /* SIGSTOP (suspended at restart),
					 * SIGCONT (resumed once), or 0:
					 * sent again when a node of it
					 * registers, since the suspend's or
					 * resume's may not have left
					 * before the restart */
	struct {                       /* assoc_limits.c's lookups, valid
					* for one association snapshot and
					* these account/qos/partition */
		void       *assoc, *qos, *part_qos;
		const void *acct_key, *qos_key, *part_key;
		uint64_t    gen;
	} assoc_cache;                 /* not saved */
	uint32_t        acct_requid;   /* who cancelled it (accounting), or
					  NO_VAL32; not saved */
	uint32_t        preempt_by;    /* job it is preempted for (log); not
					  saved */
	/* checkpoint (job_ckpt.c) */
	time_t          ckpt_deadline; /* being checkpointed: requeued at
					  this time at the latest; 0 = not */
	uint32_t        ckpt_cnt;      /* checkpoints taken (a start after
					  one is a restart) */
	char           *ckpt_why;      /* what asked for the checkpoint */
	uint8_t         mail_time_sent; /* TIME_LIMIT_* mails sent this run
					   (job_mail.c); not saved */
	struct job_lic *lic;           /* -L parsed against the license table
					  (lic_mgr.c); not saved */
	bool            lic_held;      /* its licenses are counted in use;
					  not saved (lic_mgr_job_recover) */
	uint32_t        all_idx;       /* its slot in job_mgr.c's jm.all;
					  not saved */
	time_t          switch_wait_start; /* first could start, but over
					      more switches than --switches
					      (topo_mgr.c); not saved */
	bool            share;         /* shares its CPUs (OverSubscribe=
					  FORCE:N, YES:N; job_res.c) */
	bool            gang_susp;     /* suspended by the gang scheduler:
					  keeps its CPUs (gang.c) */
	bool            started_here;  /* started by this controller (its
					  launch may be on its way); not
					  saved */
	UT_hash_handle  hh;
	struct job_record *pend_prev, *pend_next;
	struct job_record *run_prev, *run_next;
	bool            on_pend, on_run, on_fin;  /* run: holds nodes */
} job_record_t;

int           job_mgr_init(void);
void          job_mgr_fini(void);

job_record_t *job_mgr_find(uint32_t job_id);
/* "123" -> record; NULL if malformed or unknown. */
job_record_t *job_mgr_find_str(const char *id);
/* "123" or "123_4" for a request from uid: a task still pending in its
 * array's record is split off first (when uid may act on the array). */
job_record_t *job_mgr_find_for(const char *id, uid_t uid);
uint32_t      job_mgr_count(void);
/* Every record in the order added (*cnt slots), NULL where one was
 * purged: what a whole-queue answer walks. */
job_record_t *const *job_mgr_all(uint32_t *cnt);
/* While held (a count), the slots of job_mgr_all keep their records or
 * holes: a walk over several turns of the loop finds each where it was.
 * New records still go after them. */
void          job_mgr_all_hold(bool hold);
uint32_t      job_mgr_next_id(void);
void          job_mgr_set_next_id(uint32_t id);

/* Fill the select request for a pending job (cached -w/-x bitmaps). */
void          job_mgr_select_req(job_record_t *j, select_req_t *req);
/* Why a pending job cannot be tried in its partition now (a reason), or
 * WAIT_NO_REASON if it may be placed. */
uint32_t      job_mgr_part_reason(job_record_t *j, time_t now);
/* The same for one partition of the job's list. */
uint32_t      job_mgr_part_reason_in(job_record_t *j, const part_record_t *part,
				      time_t now);
/* -w / -x bitmaps for the current node table (NULL if not given). */
const bitmap_t *job_mgr_req_nodes(job_record_t *j);
const bitmap_t *job_mgr_exc_nodes(job_record_t *j);

/* Partition pointers after a reconfigure. */
void          job_mgr_reattach_parts(void);
/* Does a job that has not finished name p (scontrol delete partition)? */
bool          job_mgr_part_in_use(const part_record_t *p);
/* After a restart: the running batch jobs wait for their node's
 * registration.  Their start was saved before their launch was sent, so
 * the launch may never have left: a job the node does not list then is
 * launched (job_mgr_check_missing). */
void          job_mgr_relaunch_running(void);
/* Send a running batch job's launch again (no PrologSlurmctld). */
void          job_mgr_relaunch(job_record_t *j);

/* RPC handlers. */
void          job_mgr_rpc_submit(net_conn_t *c, slurm_msg_t *m);
void          job_mgr_rpc_cancel(net_conn_t *c, slurm_msg_t *m);
void          job_mgr_rpc_kill_jobs(net_conn_t *c, slurm_msg_t *m);
void          job_mgr_rpc_hold(net_conn_t *c, slurm_msg_t *m);
void          job_mgr_rpc_update(net_conn_t *c, slurm_msg_t *m);
void          job_mgr_rpc_suspend(net_conn_t *c, slurm_msg_t *m);
void          job_mgr_rpc_requeue(net_conn_t *c, slurm_msg_t *m);
void          job_mgr_rpc_top(net_conn_t *c, slurm_msg_t *m);
void          job_mgr_rpc_complete(net_conn_t *c, slurm_msg_t *m);
void          job_mgr_rpc_epilog(net_conn_t *c, slurm_msg_t *m);
/* srun/salloc: an allocation without a batch script, and its release. */
void          job_mgr_rpc_allocate(net_conn_t *c, slurm_msg_t *m);
void          job_mgr_rpc_complete_alloc(net_conn_t *c, slurm_msg_t *m);

/* sbatch --test-only: a request validated as a submit would be, as a
 * record that is not added (NULL with *rc and maybe *msg on refusal);
 * job_mgr_trial_free() frees it.  job_will_run.c answers with it. */
job_record_t *job_mgr_trial(job_desc_t *d, const slurm_msg_t *m, int *rc,
			    char **msg);
void          job_mgr_trial_free(job_record_t *j);
/* Add such a record as a submit of d would (a new job id, its files,
 * the journal, accounting, the pending list): crontab.c makes all of a
 * crontab's jobs first, then adds them. */
void          job_mgr_trial_add(job_record_t *j, const job_desc_t *d);

/* Snapshot of every job record. */
void          job_mgr_pack_state(buf_t *b);
/* The same over several calls, the loop serving between them: _begin
 * takes the ids of the jobs there are now and leaves room for the count;
 * each _some packs up to max more of them as they are then (a job purged
 * since is left out), true once all are; _end writes the count (b NULL:
 * given up) and frees p.  A job changed after _begin is packed as it is
 * then: its JREC_JOB after the snapshot's seq replays the same or a
 * later state over it. */
typedef struct job_pack job_pack_t;
job_pack_t   *job_mgr_pack_begin(buf_t *b);
bool          job_mgr_pack_some(job_pack_t *p, buf_t *b, size_t max);
void          job_mgr_pack_end(job_pack_t *p, buf_t *b);
/* Journal: a JREC_JOB record for every job changed (job_mgr_touch) and
 * a JREC_PURGE for every job purged since the last call, numbered from
 * *seq + 1 (*seq ends at the last one used). */
void          job_mgr_pack_changes(buf_t *b, uint64_t *seq);
/* Forget the changes so far (the snapshot written at start has them). */
void          job_mgr_changes_reset(void);

/* Recovery (recover.c) reads records with job_rec.h. */
/* Free a record that is not in the table. */
void          job_mgr_free_job(job_record_t *j);
/* Put a recovered record in the table, its lists and its nodes. */
void          job_mgr_attach(job_record_t *j);

/* Internal to the job manager's files. */
/* The record changed: repack it in the next snapshot.  Every change to
 * a saved field must be followed by this. */
void          job_mgr_touch(job_record_t *j);
/* When a job a client can see last changed (job_mgr_touch, a purge, a
 * planned start or its nodes): REQUEST_JOB_INFO's last_update is
 * answered SLURM_NO_CHANGE_IN_DATA when nothing changed since.
 * job_mgr_changed(): a change job_mgr_touch does not cover (not saved). */
void          job_mgr_changed(void);
time_t        job_mgr_last_change(void);
/* Hand over (caller frees) the ids touched and purged since last time. */
void          job_mgr_take_changes(uint32_t **dirty, size_t *dirty_cnt,
				   uint32_t **purged, size_t *purged_cnt);
job_record_t *job_mgr_create(uint32_t job_id);
void          job_mgr_add(job_record_t *j);
/* Recovery: n records are about to be added (table pre-sized). */
void          job_mgr_reserve(uint32_t n);
/* Drop a finished job from the table and free it (purge). */
void          job_mgr_remove(job_record_t *j);
/* Priority counter (priority/basic counts down from 4294901759). */
uint32_t      job_mgr_new_priority(void);
void          job_mgr_restore_priorities(void);
void          job_mgr_launch(job_record_t *j);
/* From the tick: a batch launch its slurmd has not confirmed within
 * BatchStartTimeout + MessageTimeout is lost (requeued, or failed). */
void          job_mgr_launch_check(time_t now);
/* After a restart: relaunch what PrologSlurmctld was holding. */
void          job_mgr_launch_recover(void);
/* REQUEST_SIGNAL_JOB to the job's nodes (KILL_JOB_BATCH: batch host). */
void          job_mgr_signal_nodes(job_record_t *j, uint16_t sig,
				   uint16_t flags);
/* A requeued job's nodes are all clean (or it had none): pending again
 * (job_ops.c). */
void          job_mgr_requeue_done(job_record_t *j);
/* A requeued job whose nodes are still cleaning up was cancelled: it
 * ends CANCELLED when they are done instead of pending again (job_ops.c). */
void          job_mgr_requeue_cancel(job_record_t *j, uid_t uid);
/* Suspend (or resume) a running job now, without permission checks:
 * state, time accounting, SIGSTOP/SIGCONT, and its CPUs given back (or
 * taken again) on its nodes (job_ops.c). */
void          job_mgr_suspend_job(job_record_t *j, bool suspend, time_t now);
/* A suspended job's CPUs on its nodes: taken again (on) or given back. */
void          job_mgr_suspend_res(job_record_t *j, bool on);
/* Requeue a running job that is preempted: it ends PREEMPTED (as
 * accounting and its nodes see it) and is pending again once its nodes
 * are clean.  -1 if it may not be requeued (no batch job, --no-requeue). */
int           job_mgr_preempt_requeue(job_record_t *j);
/* RequeueExit/RequeueExitHold: a batch script that exited with a listed
 * code (status as wait() gives it) is requeued, held in SPECIAL_EXIT for
 * RequeueExitHold, held JobHoldMaxRequeue past MaxBatchRequeue restarts.
 * True if it was; false (nothing done) otherwise (job_ops.c). */
bool          job_mgr_requeue_exit(job_record_t *j, uint32_t status);
/* A running batch job requeued by the controller (its node failed, it
 * is missing from its node): counted in Restarts, and past
 * MaxBatchRequeue held, JobHoldMaxRequeue (job_ops.c). */
void          job_mgr_requeue_auto(job_record_t *j);

/* The rest of the job manager, each file with its header. */
#include "ctld/job_queue.h"
#include "ctld/job_alloc.h"
#include "ctld/job_tick.h"

#endif
