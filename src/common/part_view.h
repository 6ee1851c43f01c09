/* part_view.h — a partition as job_submit plugins see it: its own
 * structure, versioned apart from the wire's part_info_t (which may
 * change in any release), so that a plugin built against an older view
 * keeps working, or is refused at load naming both versions.
 *
 * slurmctld fills the views just before each call (ctld/part_view_fill.c)
 * and hands an array of pointers to them (not an array of views: a
 * plugin built against a shorter view still steps through it right).
 * Read-only, valid only during the call; strings are the controller's
 * (copy what you keep).  Unset numbers are NO_VAL32/NO_VAL64, an
 * unlimited time INFINITE32, as in part_info_t.
 *
 * version and size say which view the controller filled; members are
 * only ever added at the end, so a plugin may test size against
 * offsetof() of a member it needs.
 *
 * Versions:
 *   1  Sluice 25.05 (job_submit ops 3).  tests/fixtures/part_view_v1/
 *      holds a frozen copy.
 */
#ifndef SLUICE_PART_VIEW_H
#define SLUICE_PART_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#define PART_VIEW_VERSION 1

/* state_up */
enum part_view_state {
	PART_VIEW_INACTIVE = 0,     /* no submit, no schedule */
	PART_VIEW_DOWN = 1,         /* submit, no schedule */
	PART_VIEW_DRAIN = 2,        /* no submit, schedule */
	PART_VIEW_UP = 3,
};

typedef struct part_view {
	uint32_t    version;        /* PART_VIEW_VERSION of the filler */
	uint32_t    size;           /* sizeof the view it filled */
	/* the controller's own record (part_info_t), for plugins built
	 * with the controller (job_submit/lua); opaque (and not stable) to
	 * any other */
	const void *ctld;

	const char *name;
	const char *nodes;          /* ranged */
	uint32_t    state_up;       /* enum part_view_state */
	bool        is_default;
	bool        hidden;
	bool        root_only;
	bool        exclusive_user;
	bool        lln;            /* LLN=YES */
	bool        req_resv;
	bool        disable_root_jobs;
	uint32_t    max_time;       /* minutes; INFINITE32 */
	uint32_t    default_time;   /* minutes; NO_VAL32: none */
	uint32_t    max_nodes;
	uint32_t    min_nodes;
	uint32_t    total_nodes;
	uint32_t    total_cpus;
	uint64_t    total_mem;      /* MB */
	const char *allow_groups;
	const char *allow_accounts;
	const char *deny_accounts;
	const char *allow_qos;
	const char *deny_qos;
	const char *qos;            /* the partition's QOS */
	const char *alternate;
	uint16_t    priority_job_factor;
	uint16_t    priority_tier;
	const char *oversubscribe;  /* "NO", "YES:4", "EXCLUSIVE", "FORCE:4" */
	uint32_t    grace_time;
	uint64_t    def_mem_per_cpu;
	uint64_t    def_mem_per_node;
	uint64_t    max_mem_per_cpu;
	uint64_t    max_mem_per_node;
	uint32_t    max_cpus_per_node;
	const char *preempt_mode;
	const char *tres;           /* "cpu=8,mem=16G,node=2,billing=8" */
} part_view_t;

#endif
