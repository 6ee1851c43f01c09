/* job_info.h — the job as the commands and the wire see it.
 *
 * job_desc_t is what sbatch (and later srun/salloc) asks for; job_info_t is
 * the job record the controller reports (squeue, scontrol show job) and the
 * first member of the controller's own record.  Both are described once in
 * a field table (job_desc_fields, job_info_fields) that pack/unpack/free
 * walk, so adding a field is one line in job_info.c.
 *
 * Units: memory MB; time limits minutes (NO_VAL32 unset, INFINITE32
 * UNLIMITED); times are time_t (0 = unset).
 */
#ifndef SLUICE_JOB_INFO_H
#define SLUICE_JOB_INFO_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "common/fields.h"

/* Base states (low byte) — order is Slurm's. */
enum job_state_base {
	JOB_PENDING = 0,
	JOB_RUNNING,
	JOB_SUSPENDED,
	JOB_COMPLETE,
	JOB_CANCELLED,
	JOB_FAILED,
	JOB_TIMEOUT,
	JOB_NODE_FAIL,
	JOB_PREEMPTED,
	JOB_BOOT_FAIL,
	JOB_DEADLINE,
	JOB_OOM,
	JOB_END
};
#define JOB_STATE_BASE     0x000000ffu
/* The wait status slurmstepd reports for a step the cgroup OOM handler
 * hit (task/cgroup): as a signal, 253 & 0x7f = 125, sacct's "0:125". */
#define SIG_OOM            253
#define JOB_LAUNCH_FAILED  0x00000100u
#define JOB_REQUEUE        0x00000400u
#define JOB_REQUEUE_HOLD   0x00000800u
#define JOB_SPECIAL_EXIT   0x00001000u
#define JOB_RESIZING       0x00002000u
#define JOB_CONFIGURING    0x00004000u
#define JOB_COMPLETING     0x00008000u
#define JOB_STOPPED        0x00010000u
#define JOB_REVOKED        0x00080000u  /* federation: never set here */
#define JOB_REQUEUE_FED    0x00100000u  /* federation: never set here */
#define JOB_RESV_DEL_HOLD  0x00200000u
#define JOB_SIGNALING      0x00400000u
#define JOB_STAGE_OUT      0x01000000u

/* "RUNNING", "COMPLETING" (flag states win, as Slurm prints them). */
const char *job_state_string(uint32_t state);
/* "R", "CG", ... */
const char *job_state_string_compact(uint32_t state);
/* A wait() status as Slurm prints exit codes: "exit:signal" ("0:0",
 * "3:0", "0:9"); NO_VAL32 prints "0:0". */
void        job_exit_code_str(uint32_t status, char *buf, size_t len);
/* JSON list form: base first then flags, NULL-terminated static array. */
int         job_state_strings(uint32_t state, const char *out[8]);
/* "PENDING"/"PD"/"pending" -> base state (flags: COMPLETING...); -1 if unknown. */
int         job_state_from_string(const char *s, uint32_t *state);
bool        job_state_is_finished(uint32_t state);   /* base >= COMPLETE, not completing */

/* Pending/failure reasons; string table in job_info.c (Slurm's words). */
enum job_reason {
	WAIT_NO_REASON = 0,     /* None */
	WAIT_PRIORITY,          /* Priority */
	WAIT_DEPENDENCY,        /* Dependency */
	WAIT_RESOURCES,         /* Resources */
	WAIT_PART_NODE_LIMIT,   /* PartitionNodeLimit */
	WAIT_PART_TIME_LIMIT,   /* PartitionTimeLimit */
	WAIT_PART_DOWN,         /* PartitionDown */
	WAIT_PART_INACTIVE,     /* PartitionInactive */
	WAIT_HELD,              /* JobHeldAdmin */
	WAIT_TIME,              /* BeginTime */
	WAIT_LICENSES,          /* Licenses */
	WAIT_ASSOC_JOB_LIMIT,   /* AssociationJobLimit */
	WAIT_RESERVATION,       /* Reservation */
	WAIT_NODE_NOT_AVAIL,    /* ReqNodeNotAvail */
	WAIT_HELD_USER,         /* JobHeldUser */
	WAIT_FRONT_END,
	FAIL_DOWN_PARTITION,    /* PartitionDown */
	FAIL_DOWN_NODE,         /* NodeDown */
	FAIL_BAD_CONSTRAINTS,   /* BadConstraints */
	FAIL_SYSTEM,            /* SystemFailure */
	FAIL_LAUNCH,            /* JobLaunchFailure */
	FAIL_EXIT_CODE,         /* NonZeroExitCode */
	FAIL_TIMEOUT,           /* TimeLimit */
	FAIL_INACTIVE_LIMIT,    /* InactiveLimit */
	FAIL_ACCOUNT,           /* InvalidAccount */
	FAIL_QOS,               /* InvalidQOS */
	WAIT_QOS_THRES,         /* QOSUsageThreshold */
	WAIT_DEP_INVALID,       /* DependencyNeverSatisfied */
	FAIL_SIGNAL,            /* RaisedSignal */
	FAIL_OOM,               /* OutOfMemory */
	WAIT_PROLOG,            /* Prolog */
	WAIT_CLEANING,          /* Cleaning */
	WAIT_ARRAY_TASK_LIMIT,  /* JobArrayTaskLimit */
	WAIT_ACCOUNTING_POLICY, /* AccountingPolicy */
	WAIT_RESV_DELETED,      /* ReservationDeleted */
	FAIL_DEADLINE,          /* DeadLine */
	WAIT_MAX_REQUEUE,       /* JobHoldMaxRequeue */
	WAIT_PART_CONFIG,       /* PartitionConfig */
	WAIT_BURST_BUFFER_RESOURCE,
	WAIT_POWER_NOT_AVAIL,
	WAIT_NODE_STATE_CHANGE,
	WAIT_CONSTRAINTS,       /* Constraints */
	/* accounting limits (AccountingStorageEnforce) */
	WAIT_ASSOC_GRP_CPU,         /* AssocGrpCpuLimit */
	WAIT_ASSOC_GRP_MEM,         /* AssocGrpMemLimit */
	WAIT_ASSOC_GRP_NODE,        /* AssocGrpNodeLimit */
	WAIT_ASSOC_GRP_JOBS,        /* AssocGrpJobsLimit */
	WAIT_ASSOC_GRP_SUBMIT,      /* AssocGrpSubmitJobsLimit */
	WAIT_ASSOC_GRP_WALL,        /* AssocGrpWallLimit */
	WAIT_ASSOC_MAX_JOBS,        /* AssocMaxJobsLimit */
	WAIT_ASSOC_MAX_SUBMIT,      /* AssocMaxSubmitJobLimit */
	WAIT_ASSOC_MAX_CPU_PER_JOB, /* AssocMaxCpuPerJobLimit */
	WAIT_ASSOC_MAX_MEM_PER_JOB, /* AssocMaxMemPerJob */
	WAIT_ASSOC_MAX_NODE_PER_JOB, /* AssocMaxNodePerJobLimit */
	WAIT_ASSOC_MAX_CPU_PER_NODE, /* AssocMaxCpuPerNode */
	WAIT_ASSOC_MAX_MEM_PER_NODE, /* AssocMaxMemPerNode */
	WAIT_ASSOC_MAX_WALL_PER_JOB, /* AssocMaxWallDurationPerJobLimit */
	WAIT_QOS_GRP_CPU,           /* QOSGrpCpuLimit */
	WAIT_QOS_GRP_MEM,           /* QOSGrpMemLimit */
	WAIT_QOS_GRP_NODE,          /* QOSGrpNodeLimit */
	WAIT_QOS_GRP_JOBS,          /* QOSGrpJobsLimit */
	WAIT_QOS_GRP_SUBMIT,        /* QOSGrpSubmitJobsLimit */
	WAIT_QOS_MAX_CPU_PER_JOB,   /* QOSMaxCpuPerJobLimit */
	WAIT_QOS_MAX_MEM_PER_JOB,   /* QOSMaxMemoryPerJob */
	WAIT_QOS_MAX_NODE_PER_JOB,  /* QOSMaxNodePerJobLimit */
	WAIT_QOS_MAX_CPU_PER_USER,  /* QOSMaxCpuPerUserLimit */
	WAIT_QOS_MAX_MEM_PER_USER,  /* QOSMaxMemoryPerUser */
	WAIT_QOS_MAX_NODE_PER_USER, /* QOSMaxNodePerUserLimit */
	WAIT_QOS_MAX_JOBS_PER_USER, /* QOSMaxJobsPerUserLimit */
	WAIT_QOS_MAX_SUBMIT_PER_USER, /* QOSMaxSubmitJobPerUserLimit */
	WAIT_QOS_MAX_WALL_PER_JOB,  /* QOSMaxWallDurationPerJobLimit */
	/* time-based accounting limits (TRES-minutes, GrpWall) */
	WAIT_ASSOC_GRP_CPU_MIN,     /* AssocGrpCPUMinutesLimit */
	WAIT_ASSOC_GRP_MEM_MIN,     /* AssocGrpMemMinutes */
	WAIT_ASSOC_GRP_NODE_MIN,    /* AssocGrpNodeMinutes */
	WAIT_ASSOC_GRP_CPU_RUN_MIN, /* AssocGrpCPURunMinutesLimit */
	WAIT_ASSOC_GRP_MEM_RUN_MIN, /* AssocGrpMemRunMinutes */
	WAIT_ASSOC_GRP_NODE_RUN_MIN, /* AssocGrpNodeRunMinutes */
	WAIT_ASSOC_MAX_CPU_MINS_PER_JOB, /* AssocMaxCpuMinutesPerJobLimit */
	WAIT_ASSOC_MAX_MEM_MINS_PER_JOB, /* AssocMaxMemMinutesPerJob */
	WAIT_ASSOC_MAX_NODE_MINS_PER_JOB, /* AssocMaxNodeMinutesPerJob */
	WAIT_QOS_GRP_CPU_MIN,       /* QOSGrpCPUMinutesLimit */
	WAIT_QOS_GRP_MEM_MIN,       /* QOSGrpMemoryMinutes */
	WAIT_QOS_GRP_NODE_MIN,      /* QOSGrpNodeMinutes */
	WAIT_QOS_GRP_CPU_RUN_MIN,   /* QOSGrpCPURunMinutesLimit */
	WAIT_QOS_GRP_MEM_RUN_MIN,   /* QOSGrpMemoryRunMinutes */
	WAIT_QOS_GRP_NODE_RUN_MIN,  /* QOSGrpNodeRunMinutes */
	WAIT_QOS_MAX_CPU_MINS_PER_JOB, /* QOSMaxCpuMinutesPerJobLimit */
	WAIT_QOS_MAX_MEM_MINS_PER_JOB, /* QOSMaxMemoryMinutesPerJob */
	WAIT_QOS_MAX_NODE_MINS_PER_JOB, /* QOSMaxNodeMinutesPerJob */
	WAIT_QOS_GRP_WALL,          /* QOSGrpWallLimit */
	REASON_END
};
const char *job_reason_string(uint32_t reason);
int         job_reason_from_string(const char *s);   /* -1 if unknown */

/* OverSubscribe / exclusive request values (job_desc_t.shared). */
enum job_shared {
	JOB_SHARED_NONE = 0,      /* --exclusive */
	JOB_SHARED_OK = 1,        /* --oversubscribe */
	JOB_SHARED_USER = 2,      /* --exclusive=user */
	JOB_SHARED_MCS = 3,
	JOB_SHARED_TOPO = 4,
	JOB_SHARED_UNSET = 0xfffe /* default: partition decides */
};

typedef struct {
	char     *name;
	char     *partition;      /* may be "a,b" */
	char     *account;
	char     *qos;
	char     *comment;
	char     *work_dir;
	char     *std_out;        /* patterns, relative to work_dir */
	char     *std_err;
	char     *std_in;
	char     *script;         /* batch script text */
	char    **argv;           /* script arguments, NULL-terminated */
	char    **environment;    /* the job's environment, NULL-terminated */
	char     *user_name;      /* informational; the controller trusts auth */
	uint32_t  user_id;
	uint32_t  group_id;
	uint32_t  min_nodes;      /* NO_VAL32 = not given */
	uint32_t  max_nodes;
	uint32_t  num_tasks;      /* NO_VAL32 = not given */
	uint16_t  cpus_per_task;  /* NO_VAL16 = not given */
	uint16_t  ntasks_per_node;
	uint32_t  min_cpus;       /* NO_VAL32 */
	uint64_t  pn_min_memory;  /* MB per node, or per CPU if mem_per_cpu; NO_VAL64 */
	bool      mem_per_cpu;
	uint32_t  time_limit;     /* minutes */
	uint32_t  time_min;
	time_t    begin_time;
	bool      hold;           /* submit held (--hold) */
	uint32_t  nice;           /* NO_VAL32, else nice + NICE_OFFSET */
	uint32_t  priority;       /* NO_VAL32; operators only */
	char     *req_nodes;      /* -w */
	char     *exc_nodes;      /* -x */
	char     *features;       /* -C */
	uint16_t  shared;         /* enum job_shared */
	uint16_t  contiguous;
	uint16_t  requeue;        /* NO_VAL16, 0, 1 */
	uint16_t  open_mode;      /* 0 default, 1 append, 2 truncate */
	char     *submit_host;
	char     *submit_line;
	char     *array_inx;      /* --array */
	char     *dependency;
	char     *gres;           /* tres_per_node */
	char     *licenses;
	char     *reservation;
	char     *wckey;
	char     *mail_type;
	char     *mail_user;
	char     *export_env;     /* --export as given */
	uint16_t  kill_on_node_fail;
	uint32_t  tmp_disk;       /* MB */
	uint16_t  immediate;
	uint16_t  warn_signal;
	uint16_t  warn_time;
	time_t    deadline;
	uint32_t  ntasks_per_core;
	uint16_t  sockets_per_node;
	uint16_t  cores_per_socket;
	uint16_t  threads_per_core;
	char     *cpus_per_tres;
	char     *mem_per_tres;
	char     *tres_per_task;
	char     *container;
	char     *spank_env;      /* reserved for SPANK options */
	uint16_t  kill_inv_dep;   /* --kill-on-invalid-dep: NO_VAL16, 0, 1 */
	uint16_t  warn_flags;     /* --signal B: -> KILL_JOB_BATCH */
	char     *tres_per_job;   /* --gpus: "gres/gpu:4" */
	uint32_t  bitflags;       /* JOB_SPREAD... */
	uint32_t  profile;        /* --profile: PROFILE_* (profile.h), 0 =
				     not set */
	char     *acctg_freq;     /* --acctg-freq as given, or NULL */
	uint32_t  req_switch;     /* --switches count, 0 = none */
	uint32_t  wait4switch;    /* --switches @max-time, seconds */
	uint16_t  segment_size;   /* --segment, 0 = none */
	uint16_t  alloc_resp_port; /* salloc: where it takes SRUN_USER_MSG
				    * (scontrol notify), 0 none */
#ifdef SLUICE_PROTO_NEXT
	uint32_t  proto_next;     /* synthetic 25.11 field: the submitter's
				   * protocol version; NO_VAL32 from 25.05 */
#endif
} job_desc_t;

/* job_desc_t.bitflags / job_info_t.bitflags */
#define JOB_SPREAD 0x00000001u   /* --spread-job */
/* -O/--overcommit: sized as one task per node (-c CPUs each), the tasks
 * share them; steps may run more tasks than their CPUs */
#define JOB_OVERCOMMIT 0x00000002u
/* --checkpoint (Sluice): the job may be checkpointed and requeued
 * (scontrol checkpoint, PreemptMode=CHECKPOINT) and gets
 * SLURM_CHECKPOINT_DIR (ctld/job_ckpt.h) */
#define JOB_CHECKPOINT 0x00000004u
/* made by an srun or salloc that sends REQUEST_ALLOC_HEARTBEAT: subject
 * to InactiveLimit (ctld/job_inactive.h) */
#define JOB_ALLOC_HEARTBEAT 0x00000008u
/* made by scrontab: requeued for its next start whenever it ends, but
 * by scancel (ctld/crontab.h) */
#define JOB_CRON 0x00000010u
/* srun/salloc --x11: refused without PrologFlags=X11 (the tunnel itself
 * is srun's and the step's: common/x11_fwd.h) */
#define JOB_X11 0x00000080u
/* --gres-flags=enforce-binding: a job's CPUs on a node only among the
 * cores gres.conf's Cores= binds its GPUs to (ctld/gres_bind.h) */
#define JOB_GRES_ENFORCE_BIND 0x00010000u

#define NICE_OFFSET 0x80000000u

typedef struct {
	uint32_t  job_id;
	uint32_t  array_job_id;   /* 0 = not an array */
	uint32_t  array_task_id;  /* NO_VAL32 = the pending meta record */
	char     *array_task_str; /* pending tasks "5-99%10" or NULL */
	uint32_t  array_max_tasks;
	char     *name;
	uint32_t  user_id;
	char     *user_name;
	uint32_t  group_id;
	char     *group_name;
	char     *partition;
	char     *account;
	char     *qos;
	char     *comment;
	uint32_t  job_state;
	uint32_t  state_reason;
	char     *state_desc;     /* free text reason, overrides state_reason */
	uint32_t  priority;
	uint32_t  nice;           /* stored with NICE_OFFSET */
	bool      held_by_user;
	char     *nodes;          /* allocated node list, ranged */
	char     *sched_nodes;
	char     *batch_host;
	uint32_t  num_nodes;      /* allocated, or requested min when pending */
	uint32_t  max_nodes;
	uint32_t  num_cpus;
	uint32_t  num_tasks;
	uint16_t  cpus_per_task;
	uint16_t  ntasks_per_node;
	uint32_t  min_cpus_node;
	uint64_t  pn_min_memory;  /* MB; per CPU if mem_per_cpu */
	bool      mem_per_cpu;
	uint32_t  pn_min_tmp_disk;
	uint32_t  time_limit;
	uint32_t  time_min;
	time_t    submit_time;
	time_t    eligible_time;
	time_t    accrue_time;
	time_t    start_time;
	time_t    end_time;
	time_t    suspend_time;
	time_t    pre_sus_time;
	time_t    last_sched_eval;
	time_t    deadline;
	char     *work_dir;
	char     *std_out;        /* patterns as submitted */
	char     *std_err;
	char     *std_in;
	char     *command;
	char     *submit_line;
	char     *alloc_node;     /* submit host */
	uint32_t  alloc_sid;
	uint32_t  exit_code;      /* wait() status */
	uint32_t  derived_ec;
	char     *req_nodes;
	char     *exc_nodes;
	char     *features;
	char     *dependency;
	uint16_t  shared;
	uint16_t  contiguous;
	uint16_t  requeue;
	uint32_t  restart_cnt;
	bool      batch_flag;
	bool      reboot;
	char     *tres_req_str;   /* "cpu=2,node=1,billing=2" */
	char     *tres_alloc_str;
	char     *gres;
	char     *licenses;
	char     *licenses_alloc; /* what a running job holds (the one taken
				    * of an '|' request), "a:2,b:1" */
	char     *reservation;
	char     *wckey;
	char     *mail_type;
	char     *mail_user;
	char     *admin_comment;  /* AdminComment: set by administrators */
	char     *cpus_per_node_str;  /* "2(x3),1" for SLURM_JOB_CPUS_PER_NODE */
	char     *container;
	char     *cluster;
	char     *sched_name;     /* "Main" or "Backfill" */
	double    billable_tres;
	uint16_t  kill_inv_dep;   /* 0 = DependencyParameters decides, 1 yes, 2 no */
	uint16_t  warn_signal;    /* --signal: 0 = none */
	uint16_t  warn_time;      /* seconds before the limit */
	uint16_t  warn_flags;     /* KILL_JOB_BATCH: batch shell only */
	bool      warn_sent;
	time_t    suspend_start;  /* when the running suspension began */
	char     *tres_per_job;   /* --gpus */
	char     *tres_per_task;  /* --gpus-per-task */
	uint32_t  bitflags;       /* JOB_SPREAD... */
	char     *alloc_detail;   /* scontrol -d: "Nodes=n1 CPU_IDs=0-1 Mem=100 GRES=gpu:1(IDX:0)" lines */
	char     *gres_alloc;     /* JOB_GRES: "gpu:1" or NULL */
	time_t    preemptable_time; /* PreemptEligibleTime; 0 = preemption off
				     * or not started (line not shown) */
	time_t    preempt_time;   /* when chosen for preemption, 0 = never */
	bool      preempt_susp;   /* suspended by preemption: resumed by the
				   * scheduler when its CPUs are free */
	char     *cpus_per_tres;  /* --cpus-per-gpu: "gres/gpu:N" */
	char     *mem_per_tres;   /* --mem-per-gpu: "gres/gpu:MB" */
	uint32_t  profile;        /* --profile: PROFILE_* (profile.h) */
	char     *acctg_freq;     /* --acctg-freq, or NULL */
	char     *cronspec;       /* scrontab: the entry's time fields
				   * (CrontabSpec=), or NULL */
	uint32_t  req_switch;     /* --switches count, 0 = none */
	uint32_t  wait4switch;    /* --switches @max-time, seconds */
	uint16_t  segment_size;   /* --segment, 0 = none */
	/* heterogeneous job (ctld/het_job.h): the leader's id (0 = not a
	 * het job), this component's offset, and "1234-1236" (HetJobIdSet) */
	uint32_t  het_job_id;
	uint32_t  het_job_offset;
	char     *het_job_id_set;
	/* the salloc that made the allocation: its address (the request's
	 * peer) and port, for scontrol notify; NULL/0 for others */
	char     *resp_host;
	uint16_t  alloc_resp_port;
#ifdef SLUICE_PROTO_NEXT
	uint32_t  proto_next;     /* synthetic 25.11 field: job_desc_t's */
#endif
} job_info_t;

extern const field_desc_t job_desc_fields[];
extern const field_desc_t job_info_fields[];

void job_desc_init(job_desc_t *d);   /* every "not given" value */
void job_desc_free_members(job_desc_t *d);
void job_info_free_members(job_info_t *j);
/* A job's StdIn (which 0), StdOut (1) or StdErr (2) as `scontrol show job`
 * shows it: the batch step's patterns expanded (%N: the batch host),
 * relative paths under WorkDir; StdErr defaults to StdOut, StdIn to
 * /dev/null.  NULL when it has none (StdOut of a job without a batch
 * script).  Caller xfree()s. */
char *job_info_std_path(const job_info_t *j, int which);

#endif
