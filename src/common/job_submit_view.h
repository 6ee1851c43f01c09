/* job_submit_view.h — the job request as a job_submit plugin sees it:
 * its own structure, versioned apart from the controller's job_desc_t and
 * from the wire, so that a plugin built against an older view keeps
 * working when the controller's structures change.
 *
 * A plugin's ops version (JOB_SUBMIT_OPS_VERSION, job_submit_plugin.h)
 * names the view it was built against (ops 1: view 1; ops 2 and 3: view
 * 2).  slurmctld fills the view of that version before each call and
 * reads it back after; it serves the ops versions job_submit_plugin.h
 * lists and refuses any other at load, naming both versions.  Unset
 * numbers are NO_VAL16/NO_VAL32/NO_VAL64 as in Slurm; strings and string
 * lists are xmalloc'd: a plugin that replaces one xfree()s the old value
 * and stores an xmalloc'd one.
 *
 * Versions:
 *   1  Sluice 25.05's job_desc_t as it was (kept by slurmctld as a frozen
 *      copy; tests/fixtures/job_submit_view_v1/ has the header).
 *   2  drops spank_env and alloc_resp_port (the controller's own), adds
 *      client_version.
 */
#ifndef SLUICE_JOB_SUBMIT_VIEW_H
#define SLUICE_JOB_SUBMIT_VIEW_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "common/fields.h"

#define JOB_SUBMIT_VIEW_VERSION 2

typedef struct job_submit_view {
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
	/* since view 2 */
	uint16_t  client_version; /* the submitting command's protocol
				   * version (proto_version.h), read-only */
} job_submit_view_t;

/* The view's members by name and type (for plugins that expose it to
 * scripts, as job_submit/lua does). */
extern const field_desc_t job_submit_view_fields[];

#endif
