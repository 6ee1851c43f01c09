/* step_gres.h — the GRES a new job step gets out of its job's (srun
 * --gpus, --gpus-per-node, --gpus-per-task, --gres, --tres-per-task
 * inside an allocation).  Pure functions over plain values: the caller
 * (step_create.c) gives the job's GPU masks on the step's nodes and the
 * GPUs other steps hold there.
 *
 * A step that asks nothing gets all the job's GRES on its nodes (Slurm's
 * default); --gres=none gets none; a request gets that many of the job's
 * GPUs a node, those no other step holds first: more than the job has
 * is ESLURM_INVALID_GRES, held by other steps ESLURM_NODES_BUSY (the
 * step waits).  GRES other than gpu (nic, shard, mps, site names) are
 * given whole: a step may ask for all the job holds of one on its nodes,
 * or none of it; a part of it is ESLURM_NOT_SUPPORTED. */
#ifndef SLUICE_CTLD_STEP_GRES_H
#define SLUICE_CTLD_STEP_GRES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/gres.h"

enum step_gres_mode {
	STEP_GRES_ALL = 0,        /* no request: the job's, shared */
	STEP_GRES_NONE,           /* --gres=none (or only zero counts) */
	STEP_GRES_ASK,            /* counts */
};

typedef struct {
	enum step_gres_mode mode;
	uint32_t     per_step;    /* --gpus */
	uint32_t     per_node;    /* --gpus-per-node, --gres=gpu:N */
	uint32_t     per_task;    /* --gpus-per-task, --tres-per-task */
	char        *type;        /* one GPU type, or NULL */
	gres_spec_t *other;       /* names other than gpu, count > 0 */
	size_t       other_cnt;
} step_gres_req_t;

/* The request of the three TRES strings srun sends ("gres/gpu:2",
 * "gpu:a100:1,nic:1", "none"); all NULL is STEP_GRES_ALL.  0, or
 * ESLURM_INVALID_GRES (malformed, two GPU types, a count past 64 GPUs)
 * with *q zeroed. */
int  step_gres_parse(const char *per_step, const char *per_node,
		     const char *per_task, step_gres_req_t *q);
void step_gres_req_free(step_gres_req_t *q);

/* GPUs for a STEP_GRES_ASK request on its cnt nodes: on node i the GPUs
 * of job[i] (limited to typed[i], the node's GPUs of q->type; pass
 * job[i] when untyped), tasks[i] tasks there, busy[i] held by other
 * steps.  Picks lowest free indexes into out[i].  0, ESLURM_INVALID_GRES
 * (never fits: the job has too few), or ESLURM_NODES_BUSY (fits once
 * other steps end). */
int  step_gres_pick(const step_gres_req_t *q, uint32_t cnt,
		    const uint16_t *tasks, const uint64_t *job,
		    const uint64_t *typed, const uint64_t *busy,
		    uint64_t *out);

/* The non-GPU part of the job's allocation string on one node that a
 * request q gets (caller frees; NULL = none): for STEP_GRES_ALL all of
 * it, for NONE nothing, for ASK the items named in q->other, each of
 * which must be held there in the same count.  *rc: 0,
 * ESLURM_INVALID_GRES (not held, or more than held), ESLURM_NOT_SUPPORTED
 * (a part of what is held). */
char *step_gres_other(const step_gres_req_t *q, const char *job_alloc,
		      int *rc);

/* "gres/gpu=N" words of a step's TRES from its GPU masks ("" if none;
 * caller frees). */
char *step_gres_tres(const uint64_t *gpus, uint32_t cnt);

#endif
