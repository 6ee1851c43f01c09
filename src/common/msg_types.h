/* msg_types.h — every message type, its body struct, and the table that
 * packs, unpacks and frees it (msg_types.c: one row per type).
 *
 * Naming follows Slurm's (REQUEST_X / RESPONSE_X); numbers are ours.  A
 * type with no body has a NULL data pointer.
 */
#ifndef SLUICE_MSG_TYPES_H
#define SLUICE_MSG_TYPES_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "common/acct_rec.h"
#include "common/job_info.h"
#include "common/node_info.h"
#include "common/pack.h"
#include "common/resv_info.h"

typedef enum {
	/* node <-> controller */
	MESSAGE_NODE_REGISTRATION = 1001,   /* node_registration_msg_t */
	REQUEST_RECONFIGURE = 1003,
	REQUEST_SHUTDOWN = 1005,            /* shutdown_msg_t */
	REQUEST_PING = 1008,                /* controller -> slurmd, or scontrol ping */
	REQUEST_CONTROL = 1009,             /* standby -> active controller: hand over */
	REQUEST_NODE_REGISTRATION_STATUS = 1010,
	REQUEST_HEALTH_CHECK = 1011,        /* controller -> slurmd, no body */
	REQUEST_ACCT_GATHER_UPDATE = 1017,  /* controller -> slurmd, no body */
	RESPONSE_ACCT_GATHER_UPDATE = 1018, /* acct_gather_energy_msg_t */
	REQUEST_TAKEOVER = 1022,            /* scontrol takeover -> a standby controller */
	REQUEST_DAEMON_STATUS = 1030,       /* scontrol show slurmd -> slurmd, no body */
	RESPONSE_SLURMD_STATUS,             /* slurmd_status_msg_t */
	REQUEST_REBOOT_NODES = 1032,        /* reboot_msg_t: scontrol reboot ->
					     * controller -> each node's slurmd */
	/* configless (msg_config.c) */
	REQUEST_CONFIG = 1050,              /* config_request_msg_t: slurmd
					     * --conf-server, a command with
					     * SLURM_CONF_SERVER -> controller */
	RESPONSE_CONFIG,                    /* config_files_msg_t */
	REQUEST_RECONFIGURE_WITH_CONFIG,    /* config_files_msg_t: controller
					     * -> slurmd (scontrol
					     * reconfigure, configless) */
	/* sackd (msg_config.c) */
	REQUEST_SACKD_REGISTER = 1060,      /* sackd_register_msg_t: sackd ->
					     * controller, answered with
					     * RESPONSE_CONFIG; reconfigure
					     * then pushes it the files
					     * (REQUEST_RECONFIGURE_WITH_CONFIG) */

	/* information */
	REQUEST_BUILD_INFO = 2001,          /* no body */
	RESPONSE_BUILD_INFO,                /* config_info_msg_t */
	REQUEST_JOB_INFO,                   /* job_info_request_msg_t */
	RESPONSE_JOB_INFO,                  /* job_info_msg_t */
	REQUEST_NODE_INFO = 2007,           /* info_request_msg_t */
	RESPONSE_NODE_INFO,                 /* node_info_msg_t */
	REQUEST_PARTITION_INFO,             /* info_request_msg_t */
	RESPONSE_PARTITION_INFO,            /* part_info_msg_t */
	REQUEST_TRIGGER_SET = 2017,         /* trigger_info_msg_t (strigger) */
	REQUEST_TRIGGER_GET,                /* trigger_info_msg_t: filter */
	REQUEST_TRIGGER_CLEAR,              /* trigger_info_msg_t: filter */
	RESPONSE_TRIGGER_GET,               /* trigger_info_msg_t */
	REQUEST_SHARE_INFO = 2022,          /* share_request_msg_t (sshare) */
	RESPONSE_SHARE_INFO,                /* table_resp_msg_t */
	REQUEST_RESERVATION_INFO = 2024,    /* info_request_msg_t */
	RESPONSE_RESERVATION_INFO,          /* resv_info_msg_t */
	REQUEST_PRIORITY_FACTORS = 2026,    /* priority_factors_request_msg_t */
	RESPONSE_PRIORITY_FACTORS,          /* priority_factors_msg_t */
	REQUEST_STATS_INFO = 2035,          /* stats_info_request_msg_t */
	RESPONSE_STATS_INFO,                /* stats_info_response_msg_t */
	REQUEST_JOB_STEP_INFO = 2051,       /* job_step_info_request_msg_t */
	RESPONSE_JOB_STEP_INFO,             /* job_step_info_msg_t */
	REQUEST_CONTROL_STATUS,             /* no body */
	RESPONSE_CONTROL_STATUS,            /* control_status_msg_t */
	REQUEST_ASSOC_MGR_INFO = 2060,      /* assoc_mgr_info_request_msg_t */
	RESPONSE_ASSOC_MGR_INFO,            /* table_resp_msg_t: msg */
	REQUEST_BATCH_SCRIPT = 2062,        /* batch_script_request_msg_t
					     * (scontrol write batch_script) */
	RESPONSE_BATCH_SCRIPT,              /* batch_script_msg_t */
	REQUEST_LICENSE_INFO = 2070,        /* info_request_msg_t (name: one) */
	RESPONSE_LICENSE_INFO,              /* license_info_msg_t */
	/* scontrol setdebug / setdebugflags (operators, root, SlurmUser) */
	REQUEST_SET_DEBUG_LEVEL = 2080,     /* set_debug_level_msg_t */
	REQUEST_SET_DEBUG_FLAGS = 2081,     /* set_debug_flags_msg_t */
	REQUEST_TOPO_INFO = 2090,           /* info_request_msg_t (name: a
					     * switch, block or node) */
	RESPONSE_TOPO_INFO = 2091,          /* topo_info_msg_t */

	/* updates */
	REQUEST_UPDATE_JOB = 3001,          /* job_update_msg_t */
	REQUEST_UPDATE_NODE,                /* node_update_msg_t */
	REQUEST_CREATE_RESERVATION = 3006,  /* resv_desc_t */
	RESPONSE_CREATE_RESERVATION,        /* resv_name_msg_t */
	REQUEST_DELETE_RESERVATION,         /* resv_name_msg_t */
	REQUEST_UPDATE_RESERVATION,         /* resv_desc_t */
	REQUEST_CREATE_PARTITION = 3040,    /* part_update_msg_t */
	REQUEST_UPDATE_PARTITION,           /* part_update_msg_t */
	REQUEST_DELETE_PARTITION,           /* part_update_msg_t (name) */
	/* dynamic nodes (msg_dynnode.c) */
	REQUEST_CREATE_NODE = 3060,         /* dyn_node_msg_t: scontrol create
					     * NodeName=... */
	REQUEST_DELETE_NODE,                /* dyn_node_msg_t: scontrol delete
					     * NodeName=<hostlist> */
	/* scontrol power up|down [asap|force] (power_save.h) */
	REQUEST_POWER_NODES = 3050,         /* power_msg_t */

	/* submission */
	REQUEST_RESOURCE_ALLOCATION = 4001, /* job_desc_t (srun, salloc) */
	RESPONSE_RESOURCE_ALLOCATION,       /* submit_response_msg_t */
	REQUEST_SUBMIT_BATCH_JOB = 4003,    /* job_desc_t */
	RESPONSE_SUBMIT_BATCH_JOB,          /* submit_response_msg_t */
	REQUEST_BATCH_JOB_LAUNCH,           /* batch_launch_msg_t */
	REQUEST_JOB_WILL_RUN = 4012,        /* job_desc_t (sbatch --test-only) */
	RESPONSE_JOB_WILL_RUN,              /* will_run_response_msg_t */
	/* sbatch with hetjob components: all or none (ctld/het_job.h);
	 * answered RESPONSE_SUBMIT_BATCH_JOB with the leader's id */
	REQUEST_SUBMIT_BATCH_HET_JOB = 4020, /* het_job_desc_msg_t */
	/* salloc/srun with hetjob components: all or none, no script;
	 * answered RESPONSE_RESOURCE_ALLOCATION with the leader's id */
	REQUEST_HET_JOB_ALLOCATION = 4030,   /* het_job_desc_msg_t */

	/* job control */
	REQUEST_JOB_STEP_CREATE = 5001,     /* job_step_create_request_msg_t */
	RESPONSE_JOB_STEP_CREATE,           /* job_step_create_response_msg_t */
	REQUEST_STEP_COMPLETE = 5016,       /* step_complete_msg_t */
	REQUEST_COMPLETE_JOB_ALLOCATION = 5017, /* complete_job_alloc_msg_t */
	REQUEST_CANCEL_JOB = 5005,          /* job_signal_msg_t (from users) */
	REQUEST_SUSPEND = 5014,             /* suspend_msg_t (suspend/resume) */
	REQUEST_COMPLETE_BATCH_SCRIPT = 5018, /* batch_complete_msg_t */
	REQUEST_JOB_REQUEUE = 5023,         /* requeue_msg_t */
	REQUEST_JOB_HOLD = 5030,            /* job_hold_msg_t (hold/release) */
	REQUEST_KILL_JOBS = 5032,           /* kill_jobs_msg_t (scancel, many jobs) */
	RESPONSE_KILL_JOBS,                 /* kill_jobs_resp_msg_t */
	REQUEST_TOP_JOB = 5039,             /* top_job_msg_t */
	REQUEST_AUTH_TOKEN = 5041,          /* token_request_msg_t (scontrol token) */
	RESPONSE_AUTH_TOKEN,                /* token_response_msg_t */
	REQUEST_JOB_STEP_STAT = 5035,       /* job_step_info_request_msg_t (sstat
					     * -> slurmd -> step stepd) */
	RESPONSE_JOB_STEP_STAT,             /* step_complete_msg_t: usage now */
	REQUEST_STEP_LAYOUT = 5037,         /* job_step_info_request_msg_t
					     * (sattach) */
	RESPONSE_STEP_LAYOUT,               /* step_layout_msg_t */
	REQUEST_JOB_TRACK = 5070,           /* job_track_msg_t (scontrol track,
					     * from inside the job; Sluice) */
	REQUEST_JOB_PROFILE = 5075,         /* job_profile_msg_t (slurmstepd:
					     * --profile=task samples; Sluice) */
	REQUEST_DBD_PROFILE,                /* dbd_job_cond_msg_t (sacct
					     * --profile, to slurmdbd) */
	RESPONSE_DBD_PROFILE,               /* dbd_profile_msg_t */
	REQUEST_JOB_OUTPUT = 5080,          /* job_output_request_msg_t (REST:
					     * a job's output tail; Sluice) */
	RESPONSE_JOB_OUTPUT,                /* job_output_msg_t (also slurmd's
					     * answer to the controller) */
	REQUEST_CHECKPOINT = 5085,          /* checkpoint_msg_t (scontrol
					     * checkpoint; Sluice) */
	REQUEST_CHECKPOINT_TASKS,           /* checkpoint_tasks_msg_t
					     * (controller -> batch host's
					     * slurmd -> batch stepd: CRIU
					     * dump; RESPONSE_SLURM_RC) */
	REQUEST_ALLOC_HEARTBEAT = 5090,     /* alloc_heartbeat_msg_t (the srun
					     * or salloc that made an
					     * allocation: InactiveLimit;
					     * Sluice) */
	RESPONSE_ALLOC_HEARTBEAT,           /* alloc_heartbeat_resp_msg_t */
	/* srun -> controller: a step it created ends before it was
	 * launched (srun --bcast failed, prolog, ...) (msg_step_abort.c) */
	REQUEST_STEP_ABORT = 5130,          /* step_abort_msg_t;
					     * RESPONSE_SLURM_RC */
	/* sbcast, sgather, srun --bcast: a credential for the job's (or
	 * step's) nodes, signed once per node (msg_bcast.c) */
	REQUEST_SBCAST_CRED = 5100,         /* sbcast_cred_request_msg_t */
	RESPONSE_SBCAST_CRED,               /* sbcast_cred_msg_t */
	/* scontrol notify -> controller -> the batch host's (or first
	 * node's) slurmd -> the job's stepds (msg_notify.c) */
	REQUEST_JOB_NOTIFY = 5120,          /* job_notify_msg_t */
	/* scontrol notify -> controller -> the salloc that made the
	 * allocation (job_info_t.resp_host:alloc_resp_port) */
	SRUN_USER_MSG = 5150,               /* job_notify_msg_t;
					     * RESPONSE_SLURM_RC */
	/* the controller -> that salloc: its allocation ended under it
	 * (scancel, time limit, node failure) */
	SRUN_JOB_COMPLETE = 5151,           /* srun_job_complete_msg_t;
					     * RESPONSE_SLURM_RC */
	/* scrontab (msg_crontab.c) */
	REQUEST_UPDATE_CRONTAB = 5110,      /* crontab_update_msg_t (install,
					     * or remove: no text) */
	RESPONSE_UPDATE_CRONTAB,            /* crontab_update_resp_msg_t */
	REQUEST_CRONTAB,                    /* crontab_request_msg_t */
	RESPONSE_CRONTAB,                   /* crontab_resp_msg_t */

	/* srun -> slurmd */
	REQUEST_LAUNCH_TASKS = 6001,        /* launch_tasks_request_msg_t */
	/* sattach -> slurmd -> step stepd */
	REQUEST_REATTACH_TASKS = 6007,      /* reattach_tasks_msg_t */
	/* srun / controller / slurmd -> slurmd: a request for a subtree of
	 * nodes (TreeWidth fan-out, common/forward.h) */
	REQUEST_FORWARD = 6050,             /* forward_msg_t */
	RESPONSE_FORWARD,                   /* forward_resp_msg_t */

	/* controller -> slurmd */
	REQUEST_SIGNAL_JOB = 6004,          /* node_signal_msg_t */
	REQUEST_TERMINATE_JOB = 6011,       /* node_signal_msg_t */
	MESSAGE_EPILOG_COMPLETE = 6012,     /* epilog_complete_msg_t */
	REQUEST_LAUNCH_PROLOG = 6017,       /* prolog_launch_msg_t (PrologFlags=Alloc) */
	REQUEST_COMPLETE_PROLOG = 6018,     /* epilog_complete_msg_t: a node's Prolog ended */
	REQUEST_ADD_EXTERN_PID = 6060,      /* extern_pid_msg_t (to an extern stepd) */
	REQUEST_JOB_OUTPUT_READ = 6080,     /* job_output_read_msg_t; answered by
					     * RESPONSE_JOB_OUTPUT (Sluice) */
	/* sbcast / srun --bcast -> slurmd (along the tree): a block of a
	 * file, written by the user; sgather -> slurmd: a piece of one */
	REQUEST_FILE_BCAST = 6100,          /* file_bcast_msg_t */
	REQUEST_FILE_GATHER,                /* file_gather_msg_t */
	RESPONSE_FILE_GATHER,               /* file_gather_resp_msg_t */
	/* scontrol listpids/listjobs/liststeps/pidinfo -> the local slurmd
	 * -> each of its stepds (msg_steplist.c) */
	REQUEST_STEP_PIDS = 6120,           /* step_pids_request_msg_t */
	RESPONSE_STEP_PIDS,                 /* step_pids_msg_t */

	RESPONSE_SLURM_RC = 8001,           /* return_code_msg_t */

	/* sacctmgr (later sacct, sshare, sreport) <-> slurmdbd */
	REQUEST_DBD_ACCT = 7001,            /* dbd_acct_msg_t */
	RESPONSE_DBD_ACCT,                  /* dbd_acct_resp_msg_t */
	REQUEST_DBD_RECORDS,                /* dbd_records_msg_t (slurmctld) */
	RESPONSE_DBD_RECORDS,               /* dbd_records_resp_msg_t */
	REQUEST_DBD_JOBS,                   /* dbd_job_cond_msg_t (sacct) */
	RESPONSE_DBD_JOBS,                  /* dbd_jobs_msg_t */
	REQUEST_DBD_REPORT = 7020,          /* dbd_report_msg_t (sreport) */
	RESPONSE_DBD_REPORT,                /* table_resp_msg_t */
	REQUEST_DBD_ROLLUP = 7030,          /* dbd_report_msg_t (sacctmgr
					     * rollup); RESPONSE_DBD_REPORT */
	REQUEST_DBD_TRACK = 7040,           /* dbd_job_cond_msg_t (sacct
					     * --metrics) */
	RESPONSE_DBD_TRACK,                 /* dbd_track_msg_t */
	REQUEST_DBD_CONFIG = 7050,          /* no body (sacctmgr show
					     * configuration);
					     * RESPONSE_BUILD_INFO */
	REQUEST_DBD_ARCHIVE = 7080,         /* dbd_archive_msg_t (sacctmgr
					     * archive); RESPONSE_SLURM_RC */
	REQUEST_DBD_STATS = 7100,           /* no body (sacctmgr show stats) */
	RESPONSE_DBD_STATS,                 /* table_resp_msg_t, DBD_STATS_COLS */
	REQUEST_DBD_CLEAR_STATS,            /* no body (sacctmgr clear stats);
					     * RESPONSE_SLURM_RC */

	/* slurmdbd -> slurmctld: associations, QOS or users changed */
	ACCOUNTING_UPDATE_MSG = 10001,      /* no body */
} msg_type_t;

typedef struct {
	int32_t rc;
	char   *msg;              /* optional text for the user */
} return_code_msg_t;

typedef struct {
	char     *node_name;
	char     *version;
	char     *arch;
	char     *os;
	char     *hostname;
	uint16_t  cpus;
	uint16_t  boards;
	uint16_t  sockets;
	uint16_t  cores;          /* per socket */
	uint16_t  threads;        /* per core */
	uint64_t  real_memory;    /* MB */
	uint64_t  free_mem;
	uint32_t  tmp_disk;
	uint32_t  cpu_load;
	time_t    boot_time;
	time_t    slurmd_start_time;
	uint32_t *job_ids;        /* jobs running on the node */
	uint32_t  job_cnt;
	uint32_t  config_hash;
	bool      startup;        /* first registration since slurmd started */
	char     *dyn_conf;       /* slurmd -Z: its --conf words with Port=
				   * (a dynamic node), else NULL */
	char     *gres_cores;     /* gres.conf's GPUs with their Cores=
				   * (gres.h gres_conf_cores_msg), or NULL */
#ifdef SLUICE_PROTO_NEXT
	char     *proto_next;     /* synthetic 25.11 field: "25.11" from a
				   * slurmd of it, NULL from 25.05 */
#endif
} node_registration_msg_t;

typedef struct {
	uint16_t  options;        /* 0 = stop everything, 1 = controller only */
} shutdown_msg_t;

/* REQUEST_SET_DEBUG_LEVEL: the controller's log level (log_level_t). */
typedef struct {
	uint32_t  debug_level;
} set_debug_level_msg_t;

/* REQUEST_SET_DEBUG_FLAGS: DebugFlags bits (debug_flags.h) to clear,
 * then to set. */
typedef struct {
	uint64_t  debug_flags_minus;
	uint64_t  debug_flags_plus;
} set_debug_flags_msg_t;
/* scontrol reboot (to the controller) and the controller's order to a
 * node's slurmd (node_list: that node). */
#define REBOOT_FLAGS_ASAP 0x0001
typedef struct {
	char     *node_list;      /* hostlist expression or "ALL" */
	char     *reason;         /* NULL: none given */
	uint16_t  flags;          /* REBOOT_FLAGS_* */
	uint32_t  next_state;     /* 0: not given, NODE_RESUME or NODE_STATE_DOWN */
} reboot_msg_t;

/* REQUEST_CONFIG: what asks (CONFIG_REQUEST_SLURMD: a slurmd, which
 * gets the node-side files too). */
#define CONFIG_REQUEST_SLURMD 0x0001
typedef struct {
	uint32_t  flags;
	char     *node_name;      /* slurmd -N, for the log; may be NULL */
} config_request_msg_t;

/* REQUEST_JOB_NOTIFY: a message for the job's stderr (batch) or its
 * sruns' (steps).  At most JOB_NOTIFY_MAX bytes. */
#define JOB_NOTIFY_MAX 4096
typedef struct {
	uint32_t  job_id;
	char     *message;
} job_notify_msg_t;

/* SRUN_JOB_COMPLETE: the allocation salloc made has ended; job_state is
 * the state it ended in (JOB_TIMEOUT: "exceeded its time limit"). */
typedef struct {
	uint32_t  job_id;
	uint32_t  job_state;
} srun_job_complete_msg_t;

/* REQUEST_STEP_PIDS: the processes of the steps on a node (job_id 0:
 * every job).  The answer has one row per process: its job, step
 * (SLURM_BATCH_SCRIPT for the batch step), pid, local and global task
 * id (NO_VAL32: not a task but another process of the step), and the
 * job's user; a row with pid 0 says the step is there (it may have no
 * process left).  At most STEP_PIDS_MAX rows. */
#define STEP_PIDS_MAX 65536u
typedef struct {
	uint32_t  job_id;
} step_pids_request_msg_t;

typedef struct {
	uint32_t  cnt;
	uint32_t *job_ids;
	uint32_t *step_ids;
	uint32_t *pids;
	uint32_t *lids;
	uint32_t *gtids;
	uint32_t *uids;
} step_pids_msg_t;

/* REQUEST_SACKD_REGISTER: a sackd that wants the files again at each
 * reconfigure, listening on port at the address it asked from. */
typedef struct {
	uint16_t  port;
} sackd_register_msg_t;

/* RESPONSE_CONFIG, REQUEST_RECONFIGURE_WITH_CONFIG: the configuration
 * files, names[i] (a base name: "slurm.conf", "gres.conf", an Include's
 * file) holding texts[i]; both NULL-terminated, as long as each other. */
typedef struct {
	char    **names;
	char    **texts;
} config_files_msg_t;

/* REQUEST_CREATE_NODE: one NodeName line ("NodeName=d1 CPUs=4 ...");
 * REQUEST_DELETE_NODE: node_line is a hostlist of nodes to delete.
 * From slurmd -Z the registration carries the line instead
 * (node_registration_msg_t.dyn_conf). */
typedef struct {
	char     *node_line;
} dyn_node_msg_t;
/* scontrol power {up|down} [asap|force] <nodes> [reason=] (to the
 * controller, msg_power.c). */
#define POWER_FLAGS_UP    0x0001
#define POWER_FLAGS_DOWN  0x0002
#define POWER_FLAGS_ASAP  0x0004   /* down once its jobs end (drained) */
#define POWER_FLAGS_FORCE 0x0008   /* down now: its jobs are killed */
typedef struct {
	char     *node_list;      /* hostlist expression or "ALL" */
	char     *reason;         /* NULL: none given */
	uint16_t  flags;          /* POWER_FLAGS_* */
} power_msg_t;

/* slurmd -> controller: the node's energy (acct_gather_energy/rapl). */
typedef struct {
	uint32_t  current_watts;  /* between the last two reads */
	uint32_t  ave_watts;      /* since slurmd started */
	uint64_t  consumed_energy; /* joules since slurmd started */
	time_t    poll_time;      /* of the last read */
} acct_gather_energy_msg_t;

/* Answer to REQUEST_CONTROL_STATUS: which SlurmctldHost entry answered and
 * since when it is in control (0 = standby). */
typedef struct {
	uint16_t  backup_inx;     /* index in the SlurmctldHost list */
	time_t    control_time;
	uint32_t  lease_epoch;    /* epoch of the lease it holds, 0 = none */
} control_status_msg_t;

typedef struct {
	char    **keys;           /* NULL-terminated (cnt entries), as scontrol prints them */
	char    **values;
	uint32_t  cnt;
	time_t    last_update;
} config_info_msg_t;

/* Filters are applied by the controller; 0/NULL = no filter. */
typedef struct {
	uint16_t  show_flags;     /* SHOW_ALL, SHOW_DETAIL */
	time_t    last_update;
	uint32_t *job_ids;        /* NULL-terminated semantics: job_id_cnt */
	uint32_t  job_id_cnt;
	uint32_t  user_id;        /* NO_VAL32 = all */
	fields_sel_t fields;      /* job_info_fields the reply carries; none = all */
} job_info_request_msg_t;

typedef struct {
	uint16_t  show_flags;
	time_t    last_update;
	char     *name;           /* one node / partition, or NULL */
} info_request_msg_t;

#define SHOW_ALL    0x0001
#define SHOW_DETAIL 0x0002

typedef struct {
	time_t      last_update;
	uint32_t    cnt;
	job_info_t *jobs;
	fields_sel_t fields;      /* what each record carries (none = all);
				   * the others are zero */
	void       *block;        /* set by an unpack from a received block
				   * (msg_recv_fd): the jobs' strings point
				   * into it and jobs is an xmalloc_big
				   * block; both go with the message (free
				   * with msg_free, never a string alone) */
} job_info_msg_t;

typedef struct {
	time_t       last_update;
	uint32_t     cnt;
	node_info_t *nodes;
} node_info_msg_t;

typedef struct {
	time_t       last_update;
	uint32_t     cnt;
	part_info_t *parts;
} part_info_msg_t;

typedef struct {
	time_t       last_update;
	uint32_t     cnt;
	resv_info_t *resvs;
} resv_info_msg_t;

/* scontrol create/update/delete PartitionName=name: the other words
 * ("Key=Value", as a PartitionName line of slurm.conf takes them) are
 * parsed by the controller with the slurm.conf parser
 * (conf_part_apply); delete sends none. */
typedef struct {
	char     *name;
	char    **words;          /* NULL-terminated */
} part_update_msg_t;

/* A reservation by name (delete; the name a create gave). */
typedef struct {
	char     *name;
} resv_name_msg_t;

typedef struct {
	uint32_t  job_id;
	uint32_t  step_id;
	int32_t   error_code;
	char     *job_submit_user_msg;
} submit_response_msg_t;

/* A heterogeneous job's components, in order (msg_hetjob.c); the first
 * is the leader (the only one with a batch script). */
#define HET_JOB_MAX_COMPONENTS 128
typedef struct {
	uint32_t    cnt;
	job_desc_t *desc;         /* cnt requests */
} het_job_desc_msg_t;
void het_job_desc_msg_free(het_job_desc_msg_t *m);

/* sbatch --test-only: when and where the job would start. */
typedef struct {
	uint32_t  job_id;         /* the id it was given (and not used) */
	time_t    start_time;     /* now, or an estimate */
	uint32_t  proc_cnt;
	char     *node_list;
	char     *part_name;
} will_run_response_msg_t;

/* scontrol update job: fields left at their "not given" value are
 * untouched (NO_VAL / NULL).  job_id_str allows "123" and later "123_4". */
typedef struct {
	char     *job_id_str;
	uint32_t  time_limit;
	uint32_t  priority;
	uint32_t  nice;
	uint32_t  min_nodes;
	uint32_t  max_nodes;
	char     *name;
	char     *comment;
	char     *partition;
	char     *features;
	char     *exc_nodes;
	char     *req_nodes;
	char     *dependency;
	char     *account;
	char     *qos;
	time_t    begin_time;
	uint16_t  requeue;
	uint32_t  array_max_tasks;   /* ArrayTaskThrottle, NO_VAL32 */
	char     *reservation;       /* "" = out of its reservation */
	char     *licenses;          /* "" = none */
	/* pending jobs (job_update_keys.c); NO_VAL* / NULL / 0 = not given */
	uint64_t  min_mem_node;      /* MinMemoryNode, MB */
	uint64_t  min_mem_cpu;       /* MinMemoryCPU, MB */
	uint32_t  num_tasks;
	uint16_t  cpus_per_task;
	char     *gres;              /* "" = none */
	char     *wckey;
	char     *std_out;
	char     *std_err;
	char     *std_in;
	char     *work_dir;
	uint16_t  shared;            /* OverSubscribe: 0 / 1 */
	uint16_t  contiguous;        /* 0 / 1 */
	/* pending or running */
	char     *mail_type;         /* "" = NONE */
	char     *mail_user;
	time_t    deadline;          /* 0 = not given */
	uint32_t  time_min;          /* minutes */
	char     *admin_comment;     /* administrators only */
} job_update_msg_t;

/* Every field "not given"; and free what one holds (then as init). */
void job_update_init(job_update_msg_t *u);
void job_update_free_members(job_update_msg_t *u);

typedef struct {
	char     *node_names;     /* hostlist expression */
	uint32_t  node_state;     /* NO_VAL32, or NODE_STATE_* / NODE_RESUME */
	char     *reason;
	uint32_t  reason_uid;
	char     *features;
	char     *gres;
	uint32_t  weight;
	char     *comment;
	char     *node_addr;      /* NodeAddr= (cloud nodes' resume programs) */
	char     *node_hostname;  /* NodeHostname= */
} node_update_msg_t;

/* User cancel/signal: scancel. */
enum {
	KILL_JOB_BATCH = 0x0001,  /* signal only the batch shell */
	KILL_FULL_JOB  = 0x0002,  /* batch shell and all steps */
	KILL_STEPS_ONLY = 0x0004,
	KILL_HURRY     = 0x0008,
	KILL_CRON      = 0x0010,  /* scancel --cron: a scrontab job may be
				   * cancelled (ScronParameters=
				   * explicit_scancel) */
	/* a terminate that answers a batch completion with BATCH_END_CLEAN:
	 * the controller counted the node done with the job's end, so no
	 * MESSAGE_EPILOG_COMPLETE follows */
	TERM_NODE_DONE = 0x0100,
};
typedef struct {
	char     *job_id_str;     /* "123", "123_4", "123_[1-3]" */
	uint32_t  job_id;
	uint32_t  step_id;        /* NO_VAL32 = whole job */
	uint16_t  signal;         /* 0 with no --signal: cancel (SIGKILL path) */
	uint16_t  flags;
	bool      cancel;         /* true: end the job (state CANCELLED) */
} job_signal_msg_t;

/* scancel: cancel or signal many jobs in one request.  The controller
 * selects the jobs: with no filter set, each of job_ids (as given,
 * "123"); with any filter, every job matching all of them (and, if
 * job_ids is set, one of those ids).  A filter list matches if any entry
 * does; NULL = no filter.  Without states only PENDING, RUNNING and
 * SUSPENDED jobs are selected by filter.  Each job is then handled as
 * REQUEST_CANCEL_JOB would (owner or operator), all under one commit. */
typedef struct {
	char    **job_ids;        /* job_id_str each; NULL-terminated */
	uint16_t  signal;         /* as job_signal_msg_t */
	uint16_t  flags;          /* KILL_JOB_BATCH ... */
	bool      cancel;
	bool      verbose;        /* reply with every selected job, 0 = done */
	char    **users;          /* user names or numeric uids */
	char    **names;          /* job names */
	char    **partitions;
	char    **states;         /* "PENDING", "R", ... */
	char     *nodelist;       /* hostlist: jobs on any of these nodes */
	char    **accounts;
	char    **qos;
	char    **wckeys;
} kill_jobs_msg_t;

/* One job of a REQUEST_KILL_JOBS that could not be signalled (or, with
 * verbose, any selected job). */
typedef struct {
	char     *job_id_str;     /* as requested, or "123" / "123_4" */
	int32_t   error_code;     /* 0 = signalled */
	char     *error_msg;      /* slurm_strerror(error_code), or NULL */
} kill_jobs_resp_job_t;

typedef struct {
	uint32_t              cnt;
	kill_jobs_resp_job_t *jobs;
} kill_jobs_resp_msg_t;

typedef struct {
	char     *job_id_str;
	bool      hold;           /* false = release */
	bool      user_hold;      /* uhold (JobHeldUser) vs admin hold */
} job_hold_msg_t;

/* scontrol suspend/resume: operators only. */
enum { SUSPEND_JOB = 0, RESUME_JOB = 1 };
typedef struct {
	char     *job_id_str;
	uint16_t  op;             /* SUSPEND_JOB, RESUME_JOB */
} suspend_msg_t;

/* scontrol requeue/requeuehold. */
enum {
	REQUEUE_HOLD         = 0x0001,   /* requeuehold */
	REQUEUE_SPECIAL_EXIT = 0x0002,   /* requeuehold State=SpecialExit */
	REQUEUE_INCOMPLETE   = 0x0004,   /* only jobs not yet finished */
};
typedef struct {
	char     *job_id_str;
	uint32_t  flags;          /* REQUEUE_* */
} requeue_msg_t;

/* scontrol checkpoint <job> (Sluice): the job's processes are told to
 * save their state (or dumped with CRIU), then the job is requeued
 * holding nothing (ctld/job_ckpt.h).  Answered RESPONSE_SLURM_RC with a
 * text on refusal. */
typedef struct {
	char     *job_id_str;     /* "123" or "123_4" */
} checkpoint_msg_t;

/* CheckpointType=checkpoint/criu: dump the batch script's process tree
 * with CRIU into dir/criu, leaving it running.  Only from the
 * controller (root or SlurmUser). */
typedef struct {
	uint32_t  job_id;
	char     *dir;            /* the job's SLURM_CHECKPOINT_DIR */
} checkpoint_tasks_msg_t;

/* scontrol token: an auth/jwt token for the caller or (SlurmUser and
 * root only) for username. */
typedef struct {
	char     *username;       /* NULL: the caller */
	uint32_t  lifespan;       /* seconds; 0: the default (1800) */
} token_request_msg_t;

typedef struct {
	char     *token;
} token_response_msg_t;

/* scontrol show slurmd: what a slurmd says of itself. */
typedef struct {
	char     *step_list;      /* "12, 13.0, 13" (a batch step: its job) */
	uint16_t  cpus, boards, sockets, cores, threads;
	uint64_t  real_memory;    /* MB */
	uint32_t  tmp_disk;       /* MB */
	time_t    booted;
	time_t    last_ctld_msg;
	uint32_t  pid;
	uint16_t  debug;          /* log level (3 = info) */
	char     *hostname;
	char     *log_file;
	char     *version;
} slurmd_status_msg_t;

/* REQUEST_BATCH_SCRIPT: a batch job's script, for its user, operators,
 * root and SlurmUser. */
typedef struct {
	char     *job_id;         /* "123" or "123_4" */
} batch_script_request_msg_t;

typedef struct {
	char     *script;
} batch_script_msg_t;

/* scontrol track (sluice.log_metric, log_param, log_artifact): a value
 * the job's own processes log into its accounting record.  Bounds are
 * TRACK_* (checked by the controller, job_track.h). */
typedef struct {
	uint32_t  job_id;
	uint16_t  kind;           /* TRACK_METRIC, TRACK_PARAM, TRACK_ARTIFACT */
	char     *name;           /* metric/param name; artifact: its path */
	uint64_t  step;           /* metric step */
	double    value;          /* metric value; artifact: size in bytes */
	char     *text;           /* param value */
} job_track_msg_t;

/* InactiveLimit (ctld/job_inactive.h): the srun or salloc that made an
 * allocation says every InactiveLimit/3 seconds that it still lives; the
 * controller answers with its InactiveLimit, so the client follows a
 * reconfigure. */
typedef struct {
	uint32_t  job_id;
} alloc_heartbeat_msg_t;

/* REQUEST_STEP_ABORT: the step's user (or an operator) ends a step that
 * srun could not launch; rc is its wait status (e.g. 1 << 8). */
typedef struct {
	uint32_t  job_id;
	uint32_t  step_id;
	uint32_t  rc;
} step_abort_msg_t;

typedef struct {
	uint32_t  job_id;
	uint32_t  rc;             /* 0, or why the job is not heartbeating */
	uint16_t  inactive_limit; /* the controller's, seconds (0: off) */
} alloc_heartbeat_resp_msg_t;

/* slurmstepd -> controller: usage samples of a profiled step's tasks
 * on one node (--profile=task), oldest first; recs' job_id, step_id and
 * node are the message's (the controller fills them and submit).  At
 * most JOB_PROFILE_MAX samples a message (msg_profile.c). */
#define JOB_PROFILE_MAX 1000u
typedef struct {
	uint32_t            job_id;
	uint32_t            step_id;
	char               *node_name;
	uint32_t            cnt;
	acct_profile_rec_t *recs;
} job_profile_msg_t;

/* A job's output file, relayed by the controller (ctld/job_output.h):
 * a client asks for part of a job's StdOut or StdErr; the controller
 * checks who asks and has the batch host's slurmd read the file as the
 * job's user.  At most JOB_OUTPUT_MAX bytes a request. */
#define JOB_OUTPUT_MAX    (64u * 1024)
#define JOB_OUTPUT_STDOUT 1
#define JOB_OUTPUT_STDERR 2

typedef struct {
	uint32_t  job_id;
	uint16_t  stream;         /* JOB_OUTPUT_STDOUT or _STDERR */
	uint32_t  bytes;          /* 1..JOB_OUTPUT_MAX */
	uint64_t  offset;         /* from there; NO_VAL64: the last `bytes` */
} job_output_request_msg_t;

/* Controller -> the batch host's slurmd. */
typedef struct {
	uint32_t  job_id;
	uint32_t  uid;            /* the file is opened as this user */
	uint32_t  gid;
	char     *path;           /* absolute, patterns expanded */
	uint32_t  bytes;
	uint64_t  offset;         /* NO_VAL64: the tail */
} job_output_read_msg_t;

typedef struct {
	uint32_t  job_id;
	uint16_t  stream;
	char     *path;
	char     *node_name;      /* where it was read */
	uint64_t  file_size;      /* when it was read */
	uint64_t  offset;         /* of data[0] in the file */
	uint32_t  len;            /* bytes in data (<= JOB_OUTPUT_MAX) */
	char     *data;           /* len bytes, then a NUL */
} job_output_msg_t;

/* scontrol top: move a pending job ahead of the same user's others. */
typedef struct {
	char     *job_id_str;
} top_job_msg_t;

/* Controller -> slurmd: start the batch step of a job. */
typedef struct {
	uint32_t  job_id;
	uint32_t  array_job_id;
	uint32_t  array_task_id;
	uint32_t  uid;
	uint32_t  gid;
	char     *user_name;
	char     *job_name;
	char     *partition;
	char     *account;
	char     *qos;
	char     *nodes;          /* allocation, ranged */
	uint32_t  num_nodes;
	char     *cpus_per_node;  /* "2(x3),1" */
	uint16_t  cpus_on_node;   /* on the batch host */
	uint32_t  num_tasks;      /* NO_VAL32 if not requested */
	uint16_t  cpus_per_task;  /* NO_VAL16 if not requested */
	uint16_t  ntasks_per_node;
	char     *tasks_per_node; /* "1(x2)" */
	uint64_t  mem_per_node;   /* MB or NO_VAL64 */
	uint64_t  mem_per_cpu;
	uint32_t  time_limit;     /* minutes */
	time_t    start_time;
	char     *work_dir;
	char     *std_out;        /* patterns */
	char     *std_err;
	char     *std_in;
	uint16_t  open_mode;
	char     *script;
	char    **argv;
	char    **environment;
	char     *submit_dir;     /* == work_dir unless -D */
	char     *submit_host;
	char     *cluster_name;
	uint32_t  restart_cnt;
	char     *cpu_bind;       /* allocated cores on the node, "0-1" */
	uint32_t  nice;
	char     *gpu_idx;        /* GPU (gres) indexes on the node, "0-1" */
	char     *gids;           /* the user's groups, "27,100", looked up by
				   * the controller; NULL: the node asks NSS */
	char     *group_name;     /* gid's name, as the controller has it
				   * (SLURM_JOB_GROUP); NULL: NSS on the node */
	uint32_t  profile;        /* --profile (profile.h) */
	char     *acctg_freq;     /* --acctg-freq, or NULL */
	char     *gres_alloc;     /* other GRES on the node (shard, mps, nic:
				   * common/gres.h allocation string) */
	char     *container;      /* --container: the OCI bundle, or NULL */
} batch_launch_msg_t;

/* Controller -> slurmd: signal a job's processes or end them. */
typedef struct {
	uint32_t  job_id;
	uint32_t  step_id;        /* NO_VAL32 = all */
	uint16_t  signal;
	uint16_t  flags;          /* KILL_JOB_BATCH ... */
	uint16_t  kill_wait;      /* seconds between SIGTERM and SIGKILL */
	uint32_t  job_state;      /* why: CANCELLED, TIMEOUT, ... (for logs) */
	char     *nodes;
	uint32_t  uid, gid;       /* terminate: the job's user, for the */
	char     *user_name;      /* Epilog; NULL: not known (a stray job) */
} node_signal_msg_t;

/* slurmd -> controller: the batch script ended. */
typedef struct {
	uint32_t  job_id;
	uint32_t  job_rc;         /* wait() status */
	int32_t   slurm_rc;       /* launch failure code, 0 if it ran */
	char     *node_name;
	uint64_t  user_cpu_usec;
	uint64_t  sys_cpu_usec;
	uint64_t  max_rss_kb;
	uint64_t  consumed_energy; /* joules on the node (rapl), else 0 */
	uint16_t  flags;          /* BATCH_END_* */
} batch_complete_msg_t;
enum {
	/* nothing of the job is left on the node and no Epilog (script or
	 * SPANK plugin) is to run there: the node may count as done with
	 * the job's end */
	BATCH_END_CLEAN = 0x0001,
};

/* slurmd -> controller: all processes of a job are gone on this node. */
typedef struct {
	uint32_t  job_id;
	int32_t   rc;
	char     *node_name;
} epilog_complete_msg_t;

/* controller -> slurmd, once per allocated node when PrologFlags=Alloc:
 * run the Prolog now (and with Contain start the job's extern step).
 * Answered at once; the outcome comes back as REQUEST_COMPLETE_PROLOG. */
typedef struct {
	uint32_t  job_id;
	uint32_t  uid;
	uint32_t  gid;
	char     *user_name;
	char     *partition;
	char     *account;
	char     *nodes;          /* the job's node list */
	char     *cluster_name;
	char     *job_cpus;       /* CPU ids on this node ("0-1"), or NULL */
	uint32_t  ncpus;          /* the job's CPUs on this node */
	uint64_t  mem_mb;         /* the job's memory on this node, 0 = none */
	uint32_t  prolog_flags;   /* PROLOG_FLAG_* the controller runs with */
} prolog_launch_msg_t;

/* pam_slurm_adopt (or any caller) -> a job's extern stepd: put pid into
 * the job's extern step.  uid: the user the caller acts for (the job's
 * user must be it); the sender must be root or that user, and a user
 * may only add processes of their own. */
typedef struct {
	uint32_t  job_id;         /* NO_VAL32: whichever job the stepd has */
	uint32_t  pid;
	uint32_t  uid;
} extern_pid_msg_t;

/* sacctmgr -> slurmdbd: one add/modify/delete/list on one kind of entity.
 * Conditions and settings are "key=value" strings with lower-case keys
 * (values are comma lists where the key allows several); the dbd checks
 * them.  Without DBD_ACCT_COMMIT the change is made inside a transaction
 * and rolled back (what sacctmgr shows before asking to commit). */
typedef enum {
	DBD_OP_ADD = 1,
	DBD_OP_MODIFY,
	DBD_OP_DELETE,
	DBD_OP_LIST,
	DBD_OP_LOAD,              /* names: the operations of a file
				     (acct_flatfile.h), one transaction */
} dbd_op_t;

typedef enum {
	DBD_ENT_CLUSTER = 1,
	DBD_ENT_ACCOUNT,
	DBD_ENT_USER,
	DBD_ENT_QOS,
	DBD_ENT_ASSOC,
	DBD_ENT_COORD,            /* coordinators: (user, account) pairs */
	DBD_ENT_RESV,             /* reservations (list only) */
	DBD_ENT_PROBLEM,          /* records set aside (list only) */
	DBD_ENT_EVENT,            /* node events (list only) */
	DBD_ENT_WCKEY,            /* workload characterization keys */
	DBD_ENT_RESOURCE,         /* remote licenses (name@server) */
	DBD_ENT_TXN,              /* the changes made (list only) */
	DBD_ENT_JOB,              /* job records (modify only) */
	DBD_ENT_TRES,             /* the TRES table (list only) */
} dbd_entity_t;

enum {
	DBD_ACCT_COMMIT     = 0x0001,
	DBD_ACCT_WITH_ASSOC = 0x0002,   /* list: one row per association */
	DBD_ACCT_PARENT_LIMITS = 0x0004, /* list: unset Max* limits, Priority
					  * and DefaultQOS of an association
					  * shown as inherited from above */
};

typedef struct {
	uint16_t  op;             /* dbd_op_t */
	uint16_t  entity;         /* dbd_entity_t */
	uint16_t  flags;          /* DBD_ACCT_* */
	char    **names;          /* add: the new names; NULL-terminated */
	char    **where;          /* "key=value" conditions */
	char    **set;            /* "key=value" settings */
} dbd_acct_msg_t;

/* slurmdbd -> sacctmgr: rc and a table.  list: one row per record, a
 * column per field (cols names them; "" = no value).  add/modify/delete:
 * what changed, rows of (kind, name, cluster, account, user). */
typedef struct {
	int32_t   rc;
	char     *msg;            /* text for the user when rc != 0 */
	char    **cols;           /* column names; NULL-terminated */
	char    **cells;          /* row-major, rows * ncols strings */
} dbd_acct_resp_msg_t;

/* sprio: the factors of pending jobs.  Filters as in the request are
 * applied by the controller (NULL = all). */
typedef struct {
	char    **job_ids;        /* "123" each; NULL-terminated */
	char    **users;          /* names or numeric uids */
	char    **partitions;
} priority_factors_request_msg_t;

/* One pending job in one partition.  Weighted values are the factors
 * times their weights (what sprio prints by default); norm_* are the
 * factors in [0,1]. */
typedef struct {
	uint32_t  job_id;
	uint32_t  user_id;
	char     *user_name;
	char     *partition;
	char     *qos;
	char     *account;
	uint32_t  priority;
	double    site;
	double    age;
	double    fairshare;
	double    job_size;
	double    part;
	double    qos_f;
	double    assoc;
	int32_t   nice;           /* nice value (without NICE_OFFSET) */
	char     *tres;           /* "cpu=10,mem=5" weighted TRES, or NULL */
	double    norm_age;
	double    norm_fairshare;
	double    norm_job_size;
	double    norm_part;
	double    norm_qos;
	double    norm_assoc;
	char     *norm_tres;
} priority_factors_t;

typedef struct {
	time_t              last_update;
	uint32_t            cnt;
	priority_factors_t *jobs;
	/* The configured weights, for sprio -w. */
	uint32_t            weight_age, weight_fs, weight_js, weight_part,
			    weight_qos, weight_assoc;
	char               *weight_tres;
	bool                multifactor;
} priority_factors_msg_t;

/* sdiag.  command_id: 0 = get, 1 = reset (operators). */
typedef struct {
	uint16_t  command_id;
} stats_info_request_msg_t;

typedef struct {
	char     *name;           /* message type name, or user name */
	uint32_t  id;             /* message type, or uid */
	uint32_t  count;
	uint64_t  total_usec;
} stats_rpc_row_t;

typedef struct {
	time_t    req_time;
	time_t    req_time_start;
	uint32_t  server_thread_count;
	uint32_t  agent_queue_size;
	uint32_t  agent_count;
	uint32_t  agent_thread_count;
	uint32_t  dbd_agent_queue_size;
	uint32_t  dbd_set_aside;  /* records slurmdbd's database refused */
	uint32_t  jobs_submitted;
	uint32_t  jobs_started;
	uint32_t  jobs_completed;
	uint32_t  jobs_canceled;
	uint32_t  jobs_failed;
	time_t    job_states_ts;
	uint32_t  jobs_pending;
	uint32_t  jobs_running;
	uint32_t  schedule_cycle_max;
	uint32_t  schedule_cycle_last;
	uint32_t  schedule_cycle_counter;
	uint64_t  schedule_cycle_sum;
	uint64_t  schedule_cycle_depth;
	uint32_t  schedule_queue_len;
	uint32_t  bf_backfilled_jobs;
	uint32_t  bf_last_backfilled_jobs;
	uint32_t  bf_cycle_counter;
	uint64_t  bf_cycle_sum;
	uint32_t  bf_cycle_last;
	uint32_t  bf_cycle_max;
	uint32_t  bf_last_depth;
	uint32_t  bf_last_depth_try;
	uint64_t  bf_depth_sum;
	uint64_t  bf_depth_try_sum;
	uint32_t  bf_queue_len;
	uint64_t  bf_queue_len_sum;
	uint32_t  bf_table_size;
	uint64_t  bf_table_size_sum;
	time_t    bf_when_last_cycle;
	bool      bf_active;
	bool      backfill;       /* SchedulerType=sched/backfill */
	uint32_t  rpc_type_cnt;
	stats_rpc_row_t *rpc_types;
	uint32_t  rpc_user_cnt;
	stats_rpc_row_t *rpc_users;
} stats_info_response_msg_t;

/* scontrol show licenses: one row per license the controller counts. */
/* scontrol show topology: the lines Slurm prints, one per switch or
 * block (msg_topo.c). */
typedef struct {
	char *text;               /* NULL: none matched */
	bool  configured;         /* a tree or block topology is in force */
} topo_info_msg_t;

typedef struct {
	char     *name;
	uint32_t  total;
	uint32_t  in_use;
	uint32_t  reserved;       /* by reservations (Licenses=) */
	bool      remote;         /* from accounting (sacctmgr resource) */
} license_info_t;

typedef struct {
	time_t          last_update;
	uint32_t        cnt;
	license_info_t *lics;
} license_info_msg_t;
/* ---- job steps (srun, salloc) ---- */

/* Step ids Slurm gives the steps that are not srun's. */
#define SLURM_BATCH_SCRIPT  0xfffffffbu
#define SLURM_EXTERN_CONT   0xfffffffcu

/* Task distribution (srun -m). */
enum step_dist {
	STEP_DIST_BLOCK = 1,
	STEP_DIST_CYCLIC,
	STEP_DIST_PLANE,
};

/* srun -> controller: a step in a running job.  Counts NO_VAL32/16 = not
 * given (the controller applies Slurm's defaults). */
typedef struct {
	uint32_t  job_id;
	uint32_t  min_nodes;      /* -N */
	uint32_t  num_tasks;      /* -n */
	uint16_t  cpus_per_task;  /* -c */
	uint16_t  ntasks_per_node;
	uint16_t  task_dist;      /* enum step_dist */
	uint16_t  plane_size;
	uint16_t  relative;       /* -r, NO_VAL16 */
	uint64_t  mem_per_node;   /* MB, NO_VAL64 */
	bool      exact;          /* --exact: only the CPUs the tasks need */
	bool      overlap;        /* --overlap: share CPUs with other steps */
	char     *node_list;      /* -w */
	char     *exc_nodes;      /* -x */
	char     *name;           /* step name (the command) */
	char     *host;           /* srun's address */
	uint32_t  srun_pid;
	bool      overcommit;     /* -O: more tasks than CPUs, sharing them */
	uint16_t  resv_ports;     /* --resv-ports: NO_VAL16 not given, 0 none,
				   * NO_VAL16 - 1 one per task on a node,
				   * else the count */
	char     *container;      /* --container: the OCI bundle, or NULL
				   * (recorded on the step for sacct) */
	uint32_t  step_id;        /* NO_VAL32: the next free one; else this
				   * id (a het step: every component's step
				   * has the first one's id) */
	/* the step's GRES (srun in an allocation; all NULL = the job's,
	 * tres_per_node "none" = none), spelled as the job's */
	char     *tres_per_step;  /* --gpus: "gres/gpu:2" */
	char     *tres_per_node;  /* --gres, --gpus-per-node */
	char     *tres_per_task;  /* --gpus-per-task, --tres-per-task */
} job_step_create_request_msg_t;

/* The step: its nodes, their slurmd addresses, the task layout and the
 * credential (cred_payload signed once per node: cred_sigs[i] is for
 * node i only, so each slurmd checks its own signature). */
typedef struct {
	uint32_t  job_id;
	uint32_t  step_id;
	char     *node_list;      /* ranged */
	char    **node_names;     /* in step node order */
	char    **node_addrs;     /* "addr:port" of each slurmd */
	char     *tasks_per_node; /* "2,2,1" in node order */
	char     *cpus_per_node;  /* "2,2,2" CPUs of the step on each node */
	uint32_t  num_tasks;
	uint16_t  cpus_per_task;
	char     *cred_payload;   /* hex of the packed step_cred_t */
	char    **cred_sigs;      /* one per node */
	char     *resv_ports;     /* "12000-12003" (MpiParams=ports), or NULL */
} job_step_create_response_msg_t;

/* slurmstepd -> controller: the step ended on one node. */
typedef struct {
	uint32_t  job_id;
	uint32_t  step_id;
	char     *node_name;
	uint32_t  step_rc;        /* largest task wait() status on the node */
	/* usage of the node's tasks (jobacct_gather): CPU summed, RSS and
	 * VM size in KB, max_* the largest task (global id in *_task),
	 * tot_* the sum over the node's ntasks tasks */
	uint64_t  user_cpu_usec;
	uint64_t  sys_cpu_usec;
	uint64_t  max_rss_kb;
	uint32_t  max_rss_task;
	uint64_t  tot_rss_kb;
	uint64_t  max_vsize_kb;
	uint32_t  max_vsize_task;
	uint64_t  tot_vsize_kb;
	uint32_t  ntasks;
	uint64_t  min_cpu_usec;   /* the task with the least CPU time */
	uint32_t  min_cpu_task;
	uint64_t  consumed_energy; /* joules the node used during the step
				      (acct_gather_energy/rapl), else 0 */
} step_complete_msg_t;

/* srun/salloc -> controller: release an allocation they created. */
typedef struct {
	uint32_t  job_id;
	uint32_t  job_rc;         /* wait() status style exit */
} complete_job_alloc_msg_t;

/* squeue -s, scontrol show step: 0 / NO_VAL32 = all. */
typedef struct {
	uint32_t  job_id;
	uint32_t  step_id;
	uint32_t  user_id;
} job_step_info_request_msg_t;

typedef struct {
	uint32_t  job_id;
	uint32_t  step_id;        /* SLURM_BATCH_SCRIPT for the batch step */
	uint32_t  array_job_id;
	uint32_t  array_task_id;
	char     *name;
	char     *partition;
	uint32_t  user_id;
	char     *user_name;
	uint32_t  state;          /* JOB_RUNNING ... */
	time_t    start_time;
	uint32_t  time_limit;     /* minutes, INFINITE32 */
	char     *nodes;
	uint32_t  node_cnt;
	uint32_t  num_tasks;
	uint32_t  num_cpus;
	uint16_t  task_dist;
	char     *srun_host;
	uint32_t  srun_pid;
	char     *tres;
} job_step_info_t;

typedef struct {
	time_t           last_update;
	uint32_t         cnt;
	job_step_info_t *steps;
} job_step_info_msg_t;

/* controller -> sattach: where a running step's tasks are.  tasks_per_node
 * "2,1" (one count per node of node_list); the ids follow from task_dist
 * and plane_size as srun lays them out. */
typedef struct {
	uint32_t  job_id;
	uint32_t  step_id;
	char     *node_list;
	uint32_t  node_cnt;
	uint32_t  task_cnt;
	char     *tasks_per_node;
	uint16_t  task_dist;
	uint16_t  plane_size;
} step_layout_msg_t;

/* sattach -> slurmd -> the step's slurmstepd: connect to host:port as an
 * additional I/O client and show io_key in IO_INIT.  user_id is set by
 * slurmd to the sender's uid (the stepd checks it owns the step). */
typedef struct {
	uint32_t  job_id;
	uint32_t  step_id;
	uint32_t  user_id;
	char     *host;
	uint16_t  port;
	char     *io_key;
} reattach_tasks_msg_t;

/* A request for every node of a subtree (common/forward.h), as Slurm's
 * forward_t: names[0] is the receiver, which handles the request itself
 * and passes it on to names[1..] in at most tree_width groups; each
 * group's first node gets the group.  The request is packed (hex): one
 * body for all, or one per node (srun's launches differ per node). */
typedef struct {
	uint16_t  type;           /* the request inside */
	uint16_t  tree_width;
	uint32_t  timeout_ms;     /* for one hop */
	uint32_t  orig_uid;       /* who asked first (logs) */
	char    **names;          /* NodeNames: each slurmd finds their
				   * addresses in its slurm.conf */
	char     *body;           /* the request, or NULL and ... */
	char    **bodies;         /* ... one per name */
	uint16_t  body_version;   /* the protocol version body(ies) are
				   * packed at (a node older than it is
				   * sent the request itself instead) */
} forward_msg_t;

/* The subtree's answers: rcs[i] ("0,1001,...") is names[i]'s return code
 * or the error reaching it. */
typedef struct {
	char    **names;
	char     *rcs;
} forward_resp_msg_t;

/* srun -> each slurmd: start this node's tasks of a step. */
typedef struct {
	uint32_t  job_id;
	uint32_t  step_id;
	uint32_t  uid;            /* must match the sender and the credential */
	uint32_t  gid;
	char     *user_name;
	char     *cred_payload;   /* from RESPONSE_JOB_STEP_CREATE */
	char     *cred_sig;       /* this node's signature */
	char     *node_list;      /* the step's nodes (as in the credential) */
	uint32_t  node_id;        /* this node's index in node_list */
	uint32_t  num_tasks;      /* of the whole step */
	char     *gtids;          /* global task ids on this node, "0,4" */
	uint16_t  cpus_per_task;
	char    **argv;
	char    **env;            /* step environment (task variables added) */
	char     *cwd;
	char     *srun_host;      /* where the stepd connects back */
	uint16_t  srun_port;
	char     *io_key;         /* shown back to srun when connecting */
	char     *ofname;         /* per-task patterns (%t %n %N), or NULL */
	char     *efname;
	char     *ifname;
	uint32_t  input_task;     /* gets srun's stdin: a task id, IO_ALL_TASKS
				   * (0xffffffff) or NO_VAL32 = none */
	uint16_t  flags;          /* LAUNCH_* */
	uint32_t  kill_wait;
	char     *pmi_mapping;    /* PMI_process_mapping (LAUNCH_PMI) */
	char     *cpu_bind;       /* --cpu-bind as given, or NULL */
	char     *task_prolog;    /* --task-prolog, --task-epilog, or NULL */
	char     *task_epilog;
	char     *multi_prog;     /* --multi-prog file's text, or NULL */
	uint16_t  pty_rows;       /* LAUNCH_PTY: srun's terminal size */
	uint16_t  pty_cols;
	char     *container;      /* --container: the OCI bundle, or NULL */
	uint16_t  x11;            /* --x11 on this node: X11_FORWARD_*, else 0
				   * (common/x11_fwd.h) */
	char     *x11_host;       /* srun's X11 relay */
	uint16_t  x11_port;
	char     *x11_cookie;     /* the user's MIT-MAGIC-COOKIE-1, hex */
	uint16_t  x11_screen;     /* of srun's DISPLAY */
	char     *pmi_jobid;      /* PMI's job id (kvsname): NULL "job.step";
				   * a het step's components share one */
	uint32_t  node_offset;    /* a het step: nodes of the components
				   * before this one (SLURM_NODEID runs over
				   * the whole step), else 0 */
} launch_tasks_request_msg_t;

enum {
	LAUNCH_UNBUFFERED = 0x0001,   /* -u: forward output as it comes */
	LAUNCH_LABEL      = 0x0002,
	LAUNCH_STDIN_NONE = 0x0004,
	LAUNCH_PMI        = 0x0008,   /* serve PMI on PMI_FD (--mpi=pmi2) */
	LAUNCH_PMIX       = 0x0010,   /* PMIx server in the stepd (--mpi=pmix) */
	LAUNCH_PTY        = 0x0020,   /* --pty: task 0 on a pseudo-terminal */
	LAUNCH_DEBUG_STOP = 0x0040,   /* --debugger-test: each task stays
				       * stopped at its exec (for a debugger
				       * to attach); its pid goes to srun */
};
/* slurmctld -> slurmdbd: a batch of outbox records, stored in one
 * transaction.  (epoch, seq) identify a record: the dbd skips those it
 * has already stored, so a batch resent after a lost answer or a crash
 * changes nothing. */
typedef struct {
	char         *cluster;
	uint64_t      epoch;
	uint32_t      cnt;
	acct_frame_t *recs;       /* in sequence order */
} dbd_records_msg_t;

/* rc 0: every record up to acked_seq is stored (committed), or set
 * aside; set_aside: how many of the cluster's records are. */
typedef struct {
	int32_t   rc;
	uint64_t  acked_seq;
	char     *msg;
	uint32_t  set_aside;
} dbd_records_resp_msg_t;

/* sacct -> slurmdbd: which jobs.  Lists are strings; NULL = any.
 * job_ids: "123" (the job, or every task of array 123) or "123_4".
 * users/gids: numeric ids.  states: base state numbers.  start/end: the
 * window (0 = open); with states, a job matches if it was in one of them
 * during the window, otherwise if it was eligible during it. */
enum {
	DBD_JOBS_NO_STEPS   = 0x0001,   /* -X */
	DBD_JOBS_DUPLICATES = 0x0002,   /* -D */
	DBD_JOBS_SCRIPT     = 0x0004,   /* -B: the batch scripts */
	DBD_JOBS_ENV        = 0x0008,   /* -E: the batch environments */
};
typedef struct {
	char     *cluster;          /* "a" or "a,b"; "" every cluster; NULL:
				     * sacct_dbd_rpc sends ClusterName */
	char    **job_ids;
	char    **users;
	char    **gids;
	char    **accounts;
	char    **partitions;
	char    **qos;
	char    **names;
	char    **states;
	time_t    start;
	time_t    end;
	uint16_t  flags;
	/* acct_job_rec_fields / acct_step_rec_fields the answer carries;
	 * none = all (what a request that names none gets). */
	fields_sel_t job_fields;
	fields_sel_t step_fields;
} dbd_job_cond_msg_t;

/* The fields not chosen are zero in every record. */
typedef struct {
	int32_t          rc;
	uint32_t         job_cnt;
	acct_job_rec_t  *jobs;      /* by submit time, then id */
	uint32_t         step_cnt;
	acct_step_rec_t *steps;     /* grouped by job, in step order */
	fields_sel_t     job_fields;
	fields_sel_t     step_fields;
	/* with DBD_JOBS_SCRIPT / DBD_JOBS_ENV: the stored ones of the
	 * jobs, each keyed by its job's id and submit time (an array task
	 * shares its array's); what was not asked for is NULL */
	uint32_t           script_cnt;
	acct_script_rec_t *scripts;
} dbd_jobs_msg_t;

/* slurmdbd -> sacct --metrics: the tracked values of the jobs a
 * dbd_job_cond_msg_t selects, by job (submit time, id), then kind, name,
 * step and the order logged. */
typedef struct {
	int32_t           rc;
	uint32_t          cnt;
	acct_track_rec_t *recs;
} dbd_track_msg_t;

/* slurmdbd -> sacct --profile: the usage samples of the jobs a
 * dbd_job_cond_msg_t selects (only the jobs' own users, operators and
 * administrators see them), by job, step, time, node. */
typedef struct {
	int32_t             rc;
	uint32_t            cnt;
	acct_profile_rec_t *recs;
} dbd_profile_msg_t;

/* sacctmgr archive dump / load -> slurmdbd (Administrators only).  dump
 * archives and purges now with slurmdbd.conf's settings, those named here
 * taking their place; load reads an archive file on slurmdbd's host back
 * into the database.  The reply's text says what was done. */
enum {
	DBD_ARCHIVE_DUMP = 1,
	DBD_ARCHIVE_LOAD,
};
/* dbd_archive_msg_t.kinds: what dump archives (none: ArchiveEvents,
 * ArchiveJobs, ArchiveSteps, ArchiveSuspend of slurmdbd.conf). */
enum {
	DBD_ARCHIVE_EVENTS  = 0x01,
	DBD_ARCHIVE_JOBS    = 0x02,
	DBD_ARCHIVE_STEPS   = 0x04,
	DBD_ARCHIVE_SUSPEND = 0x08,
};
typedef struct {
	uint16_t  op;             /* DBD_ARCHIVE_* */
	uint16_t  kinds;          /* DBD_ARCHIVE_EVENTS ... */
	char     *dir;            /* dump: Directory= (NULL: ArchiveDir) */
	char     *purge_event;    /* dump: PurgeEventAfter= ... (NULL:  */
	char     *purge_job;      /*   slurmdbd.conf's) */
	char     *purge_step;
	char     *purge_suspend;
	char     *file;           /* load: File= (a path on slurmdbd's host) */
} dbd_archive_msg_t;

/* sreport -> slurmdbd: usage of one cluster in [start, end).  users are
 * numeric uids (NULL = all).  The answer is a table_resp_msg_t whose
 * columns are DBD_REPORT_COLS: one row per fact, its kind first:
 *   "cap"   secs = CPU-seconds the cluster had (cpus = its CPUs now)
 *   "down"  secs = CPU-seconds of nodes down or drained
 *   "alloc" secs = CPU-seconds allocated to jobs
 *   "plan"  secs = CPU-seconds eligible jobs waited (demand)
 *   "pdown" secs = planned-down CPU-seconds (MAINT reservations)
 *   "over"  secs = over-committed CPU-seconds the roll-ups set apart
 *                  (waiting that did not fit in the idle time)
 *   "acct"  account and its parent (the account tree)
 *   "use"   account, uid: secs allocated and count of jobs
 *   "size"  account, cpus: secs and count of jobs of that size
 *   "wuse"  parent = wckey (without a default's '*'), uid: secs, count
 *   "wsize" account, parent = wckey, cpus: secs and count
 *   "quse"  account, parent = QOS: secs and count
 * Numbers are decimal strings. */
enum {
	DBD_REPORT_CLUSTER = 1,   /* cap down alloc plan */
	DBD_REPORT_ASSOC,         /* cap acct use */
	DBD_REPORT_JOB_SIZES,     /* cap acct size */
	DBD_REPORT_WCKEY,         /* cap wuse */
	DBD_REPORT_WCKEY_SIZES,   /* cap acct wsize */
	DBD_REPORT_QOS,           /* cap acct quse */
	DBD_REPORT_RESV,          /* DBD_REPORT_RESV_COLS instead: one
				   * "resv" row per reservation (and start)
				   * in the window: its CPUs, the CPU-seconds
				   * its jobs used in it (alloc) and it held
				   * (total), its seconds there (secs) */
};
#define DBD_REPORT_RESV_COLS { "kind", "id", "name", "start", "end", \
			       "nodes", "flags", "assocs", "cpus", \
			       "alloc", "total", "secs", NULL }
#define DBD_REPORT_COLS { "kind", "account", "parent", "uid", "cpus", \
			  "secs", "count", NULL }
/* sacctmgr show stats: one row per fact, its kind first:
 *   "since"  when the counting started (start or clear stats): when
 *   "rollup" the roll-ups' cycles: count, total and max usec, last (usec
 *            of the last cycle) and when it ran
 *   "type"   a message type: name, id (number), count, total usec
 *   "user"   a user: id (uid), count, total usec
 * Numbers are decimal strings. */
#define DBD_STATS_COLS { "kind", "name", "id", "count", "total", "max", \
			 "last", "when", NULL }

typedef struct {
	uint16_t  report;         /* DBD_REPORT_* */
	char     *cluster;
	time_t    start;
	time_t    end;
	char    **users;
	char    **accounts;
	uint32_t  tres_id;        /* the TRES of the figures (0: cpu) */
} dbd_report_msg_t;

/* sshare -> slurmctld.  Lists of names; NULL = all (users: with -a or
 * -u; without either, the caller's own associations and their
 * parents). */
enum {
	SHARE_ALL_USERS = 0x0001,    /* -a */
};
typedef struct {
	char    **accounts;
	char    **users;
	uint16_t  flags;
} share_request_msg_t;

/* scontrol show assoc_mgr -> slurmctld.  Lists of names (NULL = all);
 * flags: which record kinds (0 = all).  The answer is a table_resp_msg_t
 * whose msg is the controller's cache as scontrol prints it. */
enum {
	ASSOC_MGR_INFO_ASSOC = 0x0001,
	ASSOC_MGR_INFO_USERS = 0x0002,
	ASSOC_MGR_INFO_QOS   = 0x0004,
};
typedef struct {
	char    **accounts;
	char    **users;
	char    **qos;
	uint16_t  flags;
} assoc_mgr_info_request_msg_t;

/* A table of strings: rc, an optional message, column names and the
 * cells row-major (rows * ncols; "" = no value).  RESPONSE_SHARE_INFO,
 * RESPONSE_DBD_REPORT and RESPONSE_ASSOC_MGR_INFO (msg only). */
typedef struct {
	int32_t   rc;
	char     *msg;
	char    **cols;
	char    **cells;
} table_resp_msg_t;

/* ---- the table ---- */

/* A body is either a flat struct described by a field table (fields set,
 * pack/unpack/free NULL), or has its own functions (lists of records). */
typedef struct {
	uint16_t    type;
	const char *name;                     /* "REQUEST_PING" for logs */
	size_t      size;                     /* sizeof the body, 0 = none */
	const field_desc_t *fields;
	void (*pack)(buf_t *b, const void *data);
	int  (*unpack)(buf_t *b, void **data);   /* allocates *data */
	void (*free)(void *data);
} msg_desc_t;

const msg_desc_t *msg_desc_find(uint16_t type);   /* NULL if unknown */
size_t            msg_desc_count(void);           /* rows of the table */
const msg_desc_t *msg_desc_at(size_t i);          /* NULL past the end */
const char       *msg_type_name(uint16_t type);   /* "unknown" if unknown */
/* Pack a body; 0 or -1 for an unknown type. */
int  msg_body_pack(uint16_t type, const void *data, buf_t *b);
/* Unpack a body; requires every byte to be consumed.  0 or -1. */
int  msg_body_unpack(uint16_t type, buf_t *b, void **data);
void msg_body_free(uint16_t type, void *data);

/* ---- event triggers (strigger) ---- */

/* What a trigger watches (res_type). */
enum {
	TRIGGER_RES_TYPE_JOB = 1,
	TRIGGER_RES_TYPE_NODE,
	TRIGGER_RES_TYPE_SLURMCTLD,
	TRIGGER_RES_TYPE_SLURMDBD,
	TRIGGER_RES_TYPE_DATABASE,
	TRIGGER_RES_TYPE_FRONT_END,
	TRIGGER_RES_TYPE_OTHER,
};

/* Events (trig_type): one bit each; a trigger may name several. */
#define TRIGGER_TYPE_UP                  0x00000001u
#define TRIGGER_TYPE_DOWN                0x00000002u
#define TRIGGER_TYPE_FAIL                0x00000004u
#define TRIGGER_TYPE_TIME                0x00000008u
#define TRIGGER_TYPE_FINI                0x00000010u
#define TRIGGER_TYPE_RECONFIG            0x00000020u
#define TRIGGER_TYPE_IDLE                0x00000080u
#define TRIGGER_TYPE_DRAINED             0x00000100u
#define TRIGGER_TYPE_PRI_CTLD_FAIL       0x00000200u
#define TRIGGER_TYPE_PRI_CTLD_RES_OP     0x00000400u
#define TRIGGER_TYPE_PRI_CTLD_RES_CTRL   0x00000800u
#define TRIGGER_TYPE_PRI_CTLD_ACCT_FULL  0x00001000u
#define TRIGGER_TYPE_BU_CTLD_FAIL        0x00002000u
#define TRIGGER_TYPE_BU_CTLD_RES_OP      0x00004000u
#define TRIGGER_TYPE_BU_CTLD_AS_CTRL     0x00008000u
#define TRIGGER_TYPE_PRI_DBD_FAIL        0x00010000u
#define TRIGGER_TYPE_PRI_DBD_RES_OP      0x00020000u
#define TRIGGER_TYPE_PRI_DB_FAIL         0x00040000u
#define TRIGGER_TYPE_PRI_DB_RES_OP       0x00080000u
#define TRIGGER_TYPE_BURST_BUFFER        0x00100000u

#define TRIGGER_FLAG_PERM   0x0001    /* --flags=PERM: kept after firing */
#define TRIGGER_OFFSET_MAX  32000     /* |--offset| in seconds */
#define TRIGGER_PROGRAM_MAX 1024      /* bytes of --program */

/* One trigger.  In a filter (get, clear) 0 / NULL / NO_VAL32 mean any. */
typedef struct {
	uint32_t  trig_id;
	uint16_t  res_type;       /* TRIGGER_RES_TYPE_* */
	char     *res_id;         /* job id, node list or "*" */
	uint32_t  trig_type;      /* TRIGGER_TYPE_* bits */
	int32_t   offset;         /* seconds after (< 0: before) the event */
	uint32_t  user_id;        /* owner; the program runs as them */
	uint32_t  group_id;
	uint16_t  flags;          /* TRIGGER_FLAG_* */
	char     *program;        /* path, then arguments of the site's */
} trigger_info_t;

typedef struct {
	uint32_t        cnt;      /* at most TRIGGER_MSG_MAX */
	trigger_info_t *triggers;
} trigger_info_msg_t;
#define TRIGGER_MSG_MAX 100000

void trigger_info_free_members(trigger_info_t *t);
void trigger_info_msg_free(trigger_info_msg_t *m);

/* ---- sbcast, sgather, srun --bcast (msg_bcast.c) ---- */

/* A credential for files to or from the nodes of job_id (step_id:
 * NO_VAL32 = the whole allocation).  Only the job's user, root and
 * SlurmUser get one. */
typedef struct {
	uint32_t  job_id;
	uint32_t  het_offset;     /* NO_VAL32: none given */
	uint32_t  step_id;        /* NO_VAL32: every node of the job */
} sbcast_cred_request_msg_t;

/* The nodes and a step_cred_t payload (step_cred.h; step_id NO_VAL32
 * for a whole job) with one signature per node. */
typedef struct {
	uint32_t  job_id;
	uint32_t  step_id;
	char     *node_list;
	char    **node_names;
	char    **node_addrs;     /* "host:port" per node */
	char     *cred_payload;
	char    **cred_sigs;      /* per node, as node_names */
} sbcast_cred_msg_t;

#define BCAST_BLOCK_MAX   (64u << 20)  /* uncompressed bytes in a block */
#define BCAST_NODES_MAX   65536

enum {
	BCAST_FLAG_FORCE       = 0x01, /* -f: replace what is there */
	BCAST_FLAG_PRESERVE    = 0x02, /* -p: mode, atime, mtime at the end */
	BCAST_FLAG_LAST        = 0x04, /* the file's last block */
	BCAST_FLAG_NODE_SUFFIX = 0x08, /* fname + the node's name */
	BCAST_FLAG_MKDIR       = 0x10, /* create fname's directory (0700) */
};

enum {
	BCAST_COMPRESS_NONE = 0,
	BCAST_COMPRESS_LZ4  = 1,
};

/* One block of a file, the same body for every node; each node finds
 * its own signature of the credential by its name. */
typedef struct {
	uint32_t  job_id;
	uint32_t  step_id;
	uint32_t  uid;            /* must be the credential's */
	uint32_t  gid;
	char     *fname;          /* absolute */
	uint32_t  block_no;       /* 1, 2, ... */
	uint16_t  flags;          /* BCAST_FLAG_* */
	uint16_t  compress;       /* BCAST_COMPRESS_* of data */
	uint32_t  mode;           /* the file's permission bits */
	time_t    atime;          /* -p */
	time_t    mtime;
	uint64_t  file_size;
	uint64_t  offset;         /* of this block in the file */
	uint32_t  block_len;      /* uncompressed, <= BCAST_BLOCK_MAX */
	char     *cred_payload;
	char    **node_names;     /* the signatures' nodes */
	char    **cred_sigs;
	uint32_t  data_len;       /* bytes in data (compressed or not) */
	char     *data;
} file_bcast_msg_t;

enum {
	GATHER_FLAG_REMOVE = 0x01,     /* unlink fname (no data) */
	GATHER_FLAG_LIST   = 0x02,     /* the regular files under fname */
};

/* sgather: up to max_len bytes of fname at offset, read by the user. */
typedef struct {
	uint32_t  job_id;
	uint32_t  step_id;
	uint32_t  uid;
	uint32_t  gid;
	char     *fname;
	uint64_t  offset;
	uint32_t  max_len;        /* <= BCAST_BLOCK_MAX */
	uint16_t  flags;          /* GATHER_FLAG_* */
	uint16_t  compress;       /* wanted for the answer */
	char     *cred_payload;
	char     *cred_sig;       /* this node's */
} file_gather_msg_t;

typedef struct {
	uint64_t  file_size;
	uint64_t  offset;
	uint32_t  mode;
	time_t    atime;
	time_t    mtime;
	uint16_t  compress;
	uint32_t  block_len;      /* uncompressed */
	char    **names;          /* GATHER_FLAG_LIST: paths under fname */
	uint32_t  data_len;
	char     *data;
} file_gather_resp_msg_t;
/* ---- scrontab (msg_crontab.c) ---- */

#define CRONTAB_MAX_BYTES   (1024 * 1024)   /* a user's crontab text */
#define CRONTAB_MAX_ENTRIES 1000            /* entries (jobs) in one */

/* One crontab entry: the batch job it runs and where it is in the text
 * (1-based lines, from its first #SCRON line to the entry's own). */
typedef struct {
	job_desc_t desc;
	char      *cronspec;      /* the time fields as written */
	uint32_t   line_start;
	uint32_t   line_end;
} crontab_entry_t;

typedef struct {
	uint32_t         user_id;     /* whose crontab */
	uint32_t         group_id;
	char            *crontab;     /* the whole text; NULL: remove it */
	uint32_t         entry_cnt;   /* at most CRONTAB_MAX_ENTRIES */
	crontab_entry_t *entries;
} crontab_update_msg_t;

typedef struct {
	uint32_t  rc;             /* 0, or why nothing was installed */
	char     *err_msg;        /* the refused entry's message, or NULL */
	char     *failed_lines;   /* "4-6": the refused entry's lines */
	uint32_t  job_cnt;        /* the jobs made, one per entry */
	uint32_t *job_ids;
} crontab_update_resp_msg_t;

typedef struct {
	uint32_t  user_id;
} crontab_request_msg_t;

typedef struct {
	char     *crontab;        /* NULL: the user has none */
	char     *disabled_lines; /* "3,7-9": entries scancel disabled */
} crontab_resp_msg_t;

void crontab_update_msg_free(crontab_update_msg_t *m);

#endif
