/* job_view.h — a job as the priority, preempt, site_factor and jobcomp
 * plugins see it: its own structure, versioned apart from the
 * controller's job record and from the wire's job_info_t, so that a
 * plugin built against an older view keeps working (or is refused at
 * load, naming both versions) when the controller's structures change.
 *
 * slurmctld fills a view just before each call (ctld/job_view_fill.c,
 * the one place that knows both sides); it is valid only during the call
 * and read-only.  Strings are the controller's own: copy what you keep.
 * Unset numbers are NO_VAL32/NO_VAL64 as in Slurm; job_state and
 * state_reason take job_info.h's values.
 *
 * version and size say which view the controller filled: a plugin built
 * against view N gets view N (the type's ops version names it; see each
 * ops header).  Members are only ever added at the end, so a plugin may
 * also test size against offsetof() of a member.
 *
 * Versions:
 *   1  Sluice 25.05 (priority ops 2, preempt ops 2, site_factor ops 2,
 *      jobcomp ops 2, job_submit ops 3).  tests/fixtures/job_view_v1/
 *      holds a frozen copy.
 */
#ifndef SLUICE_JOB_VIEW_H
#define SLUICE_JOB_VIEW_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#define JOB_VIEW_VERSION 1

typedef struct job_view {
	uint32_t    version;        /* JOB_VIEW_VERSION of the filler */
	uint32_t    size;           /* sizeof the view it filled */
	/* the controller's own record, for the built-in plugins (and
	 * job_submit/lua, built with the controller: job_submit's modify
	 * points it at the job's job_info_t); opaque (and not stable) to
	 * any other */
	const void *ctld;

	uint32_t    job_id;
	uint32_t    array_job_id;   /* 0: not an array */
	uint32_t    array_task_id;  /* NO_VAL32: the pending meta record */
	uint32_t    het_job_id;     /* 0: not heterogeneous */
	const char *name;
	uint32_t    user_id;
	const char *user_name;
	uint32_t    group_id;
	const char *group_name;
	const char *partition;
	const char *account;
	const char *qos;
	const char *wckey;
	const char *reservation;
	const char *comment;
	uint32_t    job_state;      /* JOB_PENDING... (| flags) */
	uint32_t    state_reason;   /* WAIT_... */
	uint32_t    priority;
	uint32_t    nice;           /* with NICE_OFFSET, as Slurm stores it */
	const char *nodes;          /* allocated, ranged; NULL pending */
	uint32_t    num_nodes;      /* allocated, or the minimum asked */
	uint32_t    max_nodes;
	uint32_t    num_cpus;
	uint32_t    num_tasks;
	uint16_t    cpus_per_task;
	bool        mem_per_cpu;
	uint64_t    pn_min_memory;  /* MB per node (per CPU if mem_per_cpu) */
	uint32_t    time_limit;     /* minutes; INFINITE32 */
	uint32_t    time_min;
	time_t      submit_time;
	time_t      eligible_time;
	time_t      start_time;
	time_t      end_time;
	const char *work_dir;
	const char *std_in;
	const char *std_out;        /* patterns as submitted */
	const char *std_err;
	uint32_t    exit_code;      /* wait() status */
	uint32_t    derived_ec;
	const char *features;
	const char *dependency;
	const char *gres;
	const char *licenses;
	const char *tres_req_str;   /* "cpu=2,node=1,billing=2" */
	const char *tres_alloc_str;
	bool        batch_flag;
} job_view_t;

#endif
