/* select.h — node and CPU selection over plain structs (select/cons_tres).
 *
 * Pure functions: no daemon state, no logging of objects, so the scheduler's
 * placement decisions are testable and benchmarkable on synthetic clusters.
 * The caller describes every node (capacity and what is already allocated),
 * the set of nodes the job may use right now, and the request; select
 * answers with the nodes and the CPUs/memory to take on each.
 *
 * The detail fields (threads, cpu_used, gpus, cr, gpus_per_*...) are
 * optional: left zero, selection counts CPUs and memory only, which is
 * what a benchmark on a synthetic cluster needs.  Filled in, selection
 * takes whole cores (SELECT_CR_CORE), names the CPU ids and GPU indexes
 * it takes on each node, and honours --contiguous and --spread-job.
 */
#ifndef SLUICE_CTLD_SELECT_H
#define SLUICE_CTLD_SELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/bitmap.h"
#include "ctld/gres_sel.h"

typedef struct {
	uint16_t cpus;            /* configured CPUs */
	uint16_t alloc_cpus;      /* taken by running/completing jobs */
	uint64_t real_memory;     /* MB */
	uint64_t alloc_memory;    /* MB */
	uint32_t weight;          /* lower is used first */
	/* optional detail, zero/NULL = not tracked */
	uint16_t threads;         /* threads per core (whole cores), 0 = 1 */
	const bitmap_t *cpu_used; /* CPU ids taken (cpus bits), or NULL */
	uint16_t gpus;            /* gres/gpu on the node, <= SELECT_MAX_GPUS */
	uint64_t gpu_used;        /* GPU indexes taken */
	const char *gpu_type;     /* "tesla", or NULL (nodes without gres) */
	const gres_layout_t *gres; /* typed GPUs, counted and shared GRES,
				    * or NULL (then gpus/gpu_type only) */
	const gres_use_t *gres_use; /* what jobs hold of gres, or NULL */
} select_node_t;

#define SELECT_MAX_GPUS 64

/* select_req_t.cr: how resources are consumed (SelectType,
 * SelectTypeParameters).  0 = count CPUs, memory is consumable. */
enum select_cr {
	SELECT_CR_CORE      = 0x01, /* a core's threads go together */
	SELECT_CR_NO_MEMORY = 0x02, /* memory is not consumable (CR_Core) */
	SELECT_LINEAR       = 0x04, /* select/linear: whole nodes */
	SELECT_LLN          = 0x08, /* least loaded nodes first (CR_LLN,
				     * partition LLN=YES) */
};

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
	/* optional detail */
	uint8_t   cr;              /* enum select_cr flags */
	uint16_t  gpus_per_node;   /* --gres=gpu:N, --gpus-per-node */
	uint16_t  gpus_per_task;   /* --gpus-per-task */
	uint32_t  gpus_per_job;    /* --gpus */
	const char *gpu_type;      /* --gres=gpu:TYPE:N, NULL = any type */
	const gres_spec_t *gres;   /* other GRES per node (nic:2, shard:1,
				    * mps:50), placed by gres_sel */
	size_t    gres_cnt;
	bool      gres_bind;       /* --gres-flags=enforce-binding: CPUs
				    * only among the cores bound to the GPUs
				    * taken (gres_bind.h) */
	const bitmap_t *feature_nodes; /* nodes matching -C, NULL = all */
	bool      contiguous;      /* consecutive nodes (--contiguous) */
	bool      spread;          /* as many nodes as possible (--spread-job) */
	const uint32_t *max_cpus;  /* per node: CPUs the job may take there
				    * at most (partition MaxCPUsPerNode), or
				    * NULL = no such limit */
} select_req_t;

typedef struct {
	bitmap_t *nodes;           /* chosen nodes */
	uint32_t  node_cnt;
	uint32_t  cpu_cnt;         /* total CPUs */
	uint16_t *cpus;            /* per chosen node, in index order */
	uint16_t *tasks;           /* per chosen node, in index order */
	uint64_t *mem;             /* MB per chosen node, in index order */
	bitmap_t **cpu_ids;        /* per chosen node: CPU ids taken; NULL when
				    * the nodes carry no cpu_used */
	uint64_t *gpus;            /* per chosen node: GPU indexes taken */
	uint32_t  gpu_cnt;         /* total GPUs */
	char    **gres_alloc;      /* per chosen node: gres_sel allocation
				    * string, or NULL; NULL when req->gres
				    * is empty */
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

/* CPUs a node gives for tasks CPUs of work: rounded up to whole cores
 * under SELECT_CR_CORE. */
uint32_t select_cpus_for(const select_node_t *n, uint8_t cr, uint32_t cpus);
/* "0,1" / "0-1" forms of a GPU index mask: "0-1" (Slurm's IDX list). */
char *select_gpu_idx_str(uint64_t bits);

#endif
