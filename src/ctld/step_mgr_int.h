/* step_mgr_int.h — step_mgr's records, shared by its modules only
 * (step_mgr.c: records, signals, completion, info; step_create.c:
 * placement and REQUEST_JOB_STEP_CREATE; step_rec.c: saved state). */
#ifndef SLUICE_CTLD_STEP_MGR_INT_H
#define SLUICE_CTLD_STEP_MGR_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "common/bitmap.h"
#include "ctld/job_mgr.h"
#include "ctld/node_mgr.h"

#define STEP_JOB_BASE(j) ((j)->info.job_state & JOB_STATE_BASE)

typedef struct step_record {
	uint32_t  step_id;
	char     *name;
	uint32_t  uid;
	time_t    start;
	uint32_t  num_tasks;
	uint16_t  cpt;
	uint16_t  dist;
	uint16_t  plane;
	uint32_t  node_cnt;
	uint32_t *pos;            /* per step node: index in the job's arrays */
	uint16_t *cpus;           /* taken on each step node */
	uint16_t *tasks;
	bool     *done;
	uint32_t  remaining;
	uint32_t  rc;             /* largest wait status reported */
	char     *nodes;
	char     *host;
	uint32_t  srun_pid;
	char     *container;      /* --container bundle, or NULL */
	/* usage reported by the nodes so far */
	uint64_t  user_usec;
	uint64_t  sys_usec;
	uint64_t  max_rss_kb;
	uint64_t  tot_rss_kb;
	uint64_t  max_vsize_kb;
	uint64_t  tot_vsize_kb;
	uint64_t  energy;         /* joules, summed over the nodes */
	char    **port_nodes;     /* MpiParams=ports: where ports[] are held */
	uint16_t *ports;          /* (resv_ports.h), or NULL; not saved */
	uint16_t  port_cnt;
	char     *resv_ports;     /* their ranged list, SLURM_STEP_RESV_PORTS */
	bitmap_t **ids;           /* per step node: its CPU ids, or NULL
				     (not saved: a restarted controller
				     picks again from the first) */
	uint64_t *gpus;           /* per step node: its whole GPUs (gres
				     indexes), or NULL for none */
	bool      gpu_excl;       /* it asked for GPUs and did not
				     --overlap: no other such step gets
				     them while it runs */
	char     *tres;           /* its TRES: "cpu=2,node=1,gres/gpu=1" */
	struct step_record *next;
} sm_step_t;

/* Step ids from here up are Slurm's special steps (interactive 0xfffffffa,
 * batch, extern, pending): never an srun step's. */
#define SM_SPECIAL_STEP_MIN 0xfffffff0u

struct job_steps {
	sm_step_t *list;
	uint32_t       next_id;
	uint16_t      *used;      /* CPUs taken by steps, per job node */
	uint32_t       alloc_cnt;
};

/* The job's nodes in allocation order. */
typedef struct {
	uint32_t        cnt;
	node_record_t **node;
	uint16_t       *cpus;     /* job CPUs per node */
	uint16_t       *used;     /* taken by steps */
} sm_job_nodes_t;

/* Free one step record. */
void sm_step_free(sm_step_t *s);
/* The job's step list, created empty on first use. */
struct job_steps *sm_steps(job_record_t *j);
/* Every node has reported (or the step was aborted): account for it,
 * give its CPUs back, free it. */
void sm_step_done(job_record_t *j, sm_step_t *s);
/* The job's nodes (jn->node is the caller's to xfree). */
void sm_job_nodes(job_record_t *j, sm_job_nodes_t *jn);
/* Step accounting row: end 0 is its start (RUNNING), else its end
 * with state and wait status. */
void sm_acct(const job_record_t *j, const sm_step_t *s, time_t end,
	     uint32_t state, uint32_t rc);
/* Set s->tres from its CPUs, nodes and GPUs. */
void sm_step_tres(sm_step_t *s);
/* "1,2,3"; caller frees. */
char *sm_join16(const uint16_t *v, uint32_t n);

#endif
