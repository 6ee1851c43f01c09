/* bf_map.h — backfill's time-ordered resource availability map.
 *
 * A plain data structure (no daemon state) so the backfill planner is
 * testable and benchmarkable on synthetic clusters.  For every node it
 * holds a step function of free CPUs, memory and GPU indexes (so a
 * request for a GPU type waits for GPUs of that type) from now to the
 * end of the window, in slots of the backfill resolution: running jobs release
 * resources at their end time, reservations of higher-priority jobs take
 * them over an interval.  Beyond the window the last step lasts forever.
 * Within one pass availability only ever decreases.
 *
 * The caller owns the select_node_t array given to bf_map_create (it is
 * copied) and every bitmap it passes; bf_map_destroy frees the map.
 */
#ifndef SLUICE_CTLD_BF_MAP_H
#define SLUICE_CTLD_BF_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "common/bitmap.h"
#include "ctld/select.h"

typedef struct bf_map bf_map_t;

/* What one job needs on each of node_cnt nodes, for duration seconds. */
typedef struct {
	uint32_t node_cnt;       /* >= 1 */
	uint16_t cpus;           /* per node */
	uint64_t mem;            /* MB per node */
	uint16_t gpus;           /* per node */
	uint16_t gpu_type;       /* 0 = any GPU, else bf_map_gpu_type() */
	bool     exclusive;      /* whole idle nodes */
	uint32_t duration;       /* seconds */
} bf_req_t;

/* nodes[i] gives capacity and what is allocated now (GPUs: gpus and
 * gpu_used; their types from gres, whose GPU masks are copied). */
bf_map_t *bf_map_create(const select_node_t *nodes, size_t node_cnt,
			time_t now, uint32_t resolution, uint32_t window);
void      bf_map_destroy(bf_map_t *m);
/* A running job gives cpus/mem back on node at end (<= now: soon). */
void      bf_map_release(bf_map_t *m, uint32_t node, time_t end,
			 uint16_t cpus, uint64_t mem);
/* The same for GPUs: the indexes of mask. */
void      bf_map_release_gpus(bf_map_t *m, uint32_t node, time_t end,
			      uint64_t mask);
/* bf_req_t.gpu_type for a GPU type name: 0 for NULL (any type),
 * BF_GPU_TYPE_NONE when no node of the map has it. */
#define BF_GPU_TYPE_NONE UINT16_MAX
uint16_t  bf_map_gpu_type(const bf_map_t *m, const char *type);
/* After the last release, before any query. */
void      bf_map_finalize(bf_map_t *m);

/* Earliest start >= not_before at which req fits on nodes of avail; 0
 * and *start, plus the nodes in *nodes (may be NULL), or -1 if it does
 * not start within the window. */
int       bf_map_earliest(bf_map_t *m, const bitmap_t *avail,
			  const bf_req_t *req, time_t not_before,
			  time_t *start, bitmap_t *nodes);
/* Does req fit on nodes of avail at start itself (for its duration)?
 * true with the nodes in *nodes (may be NULL). */
bool      bf_map_fits_at(bf_map_t *m, const bitmap_t *avail,
			 const bf_req_t *req, time_t start, bitmap_t *nodes);
/* Several requests that must start together (a hetjob's components):
 * the earliest t >= not_before at which every req[i] fits on avail[i]
 * at once, each on nodes the ones before it do not use (node-disjoint:
 * a plan that may start later than a shared placement, never one that
 * cannot be).  0 with *start and nodes[i] (the caller's bitmaps) per
 * request, or -1: not within the window.  step (seconds, 0 = 60): how
 * far to move on when a request fits at no later time beside the
 * others' nodes. */
int       bf_map_earliest_all(bf_map_t *m, bitmap_t *const *avail,
			      const bf_req_t *req, size_t n, time_t not_before,
			      uint32_t step, time_t *start, bitmap_t **nodes);
/* Take req's share on every node of nodes from start for its duration. */
void      bf_map_reserve(bf_map_t *m, const bitmap_t *nodes,
			 const bf_req_t *req, time_t start);
/* Take cpus[k] / mem[k] / the GPU indexes gpus[k] (gpus may be NULL)
 * on the k-th node of nodes (a started job). */
void      bf_map_take(bf_map_t *m, const bitmap_t *nodes,
		      const uint16_t *cpus, const uint64_t *mem,
		      const uint64_t *gpus, time_t start, uint32_t duration);
/* What may be given now to a job running duration seconds without
 * touching any reservation: view[i] gets node i's capacity and, as
 * allocated, everything but the least free over [now, now+duration)
 * (GPUs by index: gpu_used has every GPU not free all that time). */
void      bf_map_view(const bf_map_t *m, uint32_t duration,
		      select_node_t *view);
/* Bytes held by the map (for the benchmark). */
size_t    bf_map_bytes(const bf_map_t *m);

#endif
