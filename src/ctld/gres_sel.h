/* gres_sel.h — a node's generic resources laid out for selection, and the
 * pure rules that place a job's GRES on one node.
 *
 * A node's slurm.conf Gres= ("gpu:a100:4,gpu:h100:2,nic:128,shard:16")
 * becomes a layout: GPUs get consecutive indexes by item (a100 0-3, h100
 * 4-5, at most SELECT_MAX_GPUS); every other name is a count (any
 * GresTypes name, no limit of 64).  "shard" and "mps" share GPUs: their
 * count is split evenly over the node's GPUs (16 shards on 4 GPUs = 4 a
 * GPU), a job's MPS comes from one GPU, its shards from as few GPUs as
 * fit, and a GPU holding shards or MPS is not given whole to a job (nor
 * one held whole shared).
 *
 * A node's usage (gres_use_t) is what jobs hold there.  A job's GRES on
 * a node is an allocation string, the form saved with the job, sent in
 * the step credential and parsed back at release:
 *   "nic:2,shard:3@0/4,mps:50@1/100"
 * counted items "name[:type]:N", shared items "name:N@GPU/PERGPU" (N of
 * PERGPU units on GPU index GPU).  Whole GPUs are not in it (they are
 * the node's GPU index mask, as before).
 */
#ifndef SLUICE_CTLD_GRES_SEL_H
#define SLUICE_CTLD_GRES_SEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/bitmap.h"
#include "common/gres.h"

enum { GRES_SHARE_SHARD = 0, GRES_SHARE_MPS = 1, GRES_SHARE_KINDS = 2 };

typedef struct {
	char     *name;      /* "gpu", "nic", "shard", "mps", ... */
	char     *type;      /* "a100", or NULL */
	uint64_t  count;
	uint64_t  mask;      /* gpu items: the GPU indexes they are */
	int       share;     /* GRES_SHARE_*, or -1 */
} gres_item_t;

typedef struct {
	gres_item_t *v;
	size_t       cnt;
	uint16_t     gpus;                      /* GPUs (<= 64) */
	uint64_t     per_gpu[GRES_SHARE_KINDS]; /* shard/mps units a GPU */
	bitmap_t   **gpu_cpus;   /* per GPU index: the CPU ids of the cores
				  * gres.conf's Cores= binds it to (NULL
				  * entry = every CPU); NULL = no Cores=
				  * known (gres_bind.h) */
	uint32_t    *gpu_sockets; /* per GPU index: its sockets' bits
				   * (socket s = bit s, s < 32), or NULL */
} gres_layout_t;

typedef struct {
	uint64_t *used;      /* per layout item: units held */
	uint64_t *shared;    /* [kind * gpus + g]: shared units held on GPU g */
} gres_use_t;

/* Layout of a Gres= value; NULL + err when malformed (more than 64 GPUs,
 * bad spec, shard/mps on a node without GPUs). */
gres_layout_t *gres_layout_parse(const char *gres, char *err, size_t errlen);
void           gres_layout_free(gres_layout_t *l);
/* A zeroed usage for l (free with gres_use_free). */
gres_use_t    *gres_use_create(const gres_layout_t *l);
void           gres_use_free(gres_use_t *u);

/* The GPU indexes of type (any type if NULL) on the node. */
uint64_t gres_gpu_mask(const gres_layout_t *l, const char *type);
/* GPUs holding shard or MPS units (not free to be taken whole). */
uint64_t gres_shared_busy(const gres_layout_t *l, const gres_use_t *u);
/* Is name (and type, when not NULL) on this node at all? */
bool     gres_layout_has(const gres_layout_t *l, const char *name,
			 const char *type);

/* Could the per-node request req[0..cnt) (non-GPU names) be placed on
 * the node with u held (u NULL = empty node), gpu_used being the GPUs
 * held whole? */
bool     gres_sel_fits(const gres_layout_t *l, const gres_use_t *u,
		       uint64_t gpu_used, const gres_spec_t *req, size_t cnt);
/* Place it: the allocation string (xmalloc'd), NULL if it does not fit
 * or cnt is 0. */
char    *gres_sel_pick(const gres_layout_t *l, const gres_use_t *u,
		       uint64_t gpu_used, const gres_spec_t *req, size_t cnt);
/* Hold (on) or release an allocation string on u; unknown names or
 * counts past what is held are ignored.  -1 if alloc is malformed. */
int      gres_use_apply(const gres_layout_t *l, gres_use_t *u,
			const char *alloc, bool on);

/* GresUsed text of the node ("gpu:a100:1(IDX:0),gpu:h100:0(IDX:N/A),
 * nic:2,shard:3"), xmalloc'd; NULL if the node has no GRES. */
char    *gres_used_str(const gres_layout_t *l, const gres_use_t *u,
		       uint64_t gpu_used);

/* Whole GPUs of mask as scontrol -d shows them, by type when the node's
 * GPUs are typed ("gpu:a100:1(IDX:0),gpu:h100:1(IDX:4)"); type is the
 * name used when l is NULL.  NULL if mask is 0. */
char    *gres_gpu_detail(const gres_layout_t *l, uint64_t mask,
			 const char *type);
/* An allocation string as scontrol -d shows it ("nic:2,shard:3(IDX:0)"),
 * NULL if empty. */
char    *gres_alloc_detail(const char *alloc);

/* Counts by "name" / "name:type" over a job's nodes (TRES strings). */
#define GRES_TALLY_MAX 32
typedef struct {
	char     key[GRES_TALLY_MAX][72];
	uint64_t n[GRES_TALLY_MAX];
	size_t   cnt;
} gres_tally_t;
void     gres_tally_add(gres_tally_t *t, const char *name, const char *type,
			uint64_t n);
/* Typed GPUs of mask ("gpu:a100") and every allocation item, by name and
 * by name:type. */
void     gres_tally_node(gres_tally_t *t, const gres_layout_t *l,
			 uint64_t mask, const char *alloc);

#endif
