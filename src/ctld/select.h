/* select.h — node and CPU selection over plain structs (select/cons_tres).
 *
 * Pure functions: no daemon state, no logging of objects, so the scheduler's
 * placement decisions are testable and benchmarkable on synthetic clusters.
 * The caller describes every node (capacity and what is already allocated),
 * the set of nodes the job may use right now, and the request; select
 * answers with the nodes and the CPUs/memory to take on each.
 */
#ifndef SLUICE_CTLD_SELECT_H
#define SLUICE_CTLD_SELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/bitmap.h"

typedef struct {
	uint16_t cpus;            /* configured CPUs */
	uint16_t alloc_cpus;      /* taken by running/completing jobs */
	uint64_t real_memory;     /* MB */
	uint64_t alloc_memory;    /* MB */
	uint32_t weight;          /* lower is used first */
} select_node_t;

typedef struct {
	uint32_t  min_nodes;       /* >= 1 */
	uint32_t  max_nodes;       /* >= min_nodes; UINT32_MAX-ish = no limit */
	uint32_t  num_tasks;       /* >= 1 */
	uint16_t  cpus_per_task;   /* >= 1 */
	uint16_t  ntasks_per_node; /* 0 = no limit */
	uint64_t  mem_per_node;    /* MB, 0 = none */
	uint64_t  mem_per_cpu;     /* MB, 0 = none (used if mem_per_node 0) */
	bool      exclusive;       /* whole nodes, idle ones only */
	const bitmap_t *required;  /* nodes that must be in the allocation, or NULL */
} select_req_t;

typedef struct {
	bitmap_t *nodes;           /* chosen nodes */
	uint32_t  node_cnt;
	uint32_t  cpu_cnt;         /* total CPUs */
	uint16_t *cpus;            /* per chosen node, in index order */
	uint16_t *tasks;           /* per chosen node, in index order */
	uint64_t *mem;             /* MB per chosen node, in index order */
} select_result_t;

enum select_rc {
	SELECT_OK = 0,             /* placed */
	SELECT_BUSY = 1,           /* not now: not enough free resources */
	SELECT_NEVER = 2,          /* not even on an empty set of these nodes */
};

/* Place req on nodes[0..node_cnt) restricted to avail (bit i = nodes[i]
 * may be used now).  On SELECT_OK fills res (free with select_result_free).
 * With ignore_alloc the current allocations are ignored: the answer is
 * whether the request could ever fit on avail. */
int  select_job_test(const select_node_t *nodes, size_t node_cnt,
		     const bitmap_t *avail, const select_req_t *req,
		     bool ignore_alloc, select_result_t *res);
void select_result_free(select_result_t *res);

/* Compress per-node counts as Slurm prints them: {2,2,2,1} -> "2(x3),1".
 * Caller frees. */
char *select_compress_counts(const uint16_t *vals, size_t n);

#endif
