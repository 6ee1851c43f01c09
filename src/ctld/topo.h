/* topo.h — placement inside the network topology (topology/tree and
 * topology/block) over select.h's plain structs.
 *
 * A topology is a set of domains, each a node set with a level: for a
 * tree, every switch (level 0 = leaf switch, its nodes = the nodes under
 * it); for blocks, every block (level 0) and every aggregated block of
 * BlockSizes (level k = the k-th size, consecutive blocks in file order).
 * The placement rule is the same for both: a job goes into the lowest
 * level domain that can hold it, the best fit first (the fewest free
 * CPUs that suffice), and inside a domain above level 0 it takes the
 * fewest level-0 domains (leaf switches, blocks): the ones with the most
 * free CPUs first, one more until the job fits.  A job never spans two
 * domains that no domain joins (Slurm: "jobs can only span nodes
 * connected by the same switch fabric").  With --segment (blocks) each
 * segment of that many nodes lies in one block.
 *
 * Pure functions: no daemon state, testable on synthetic clusters.
 */
#ifndef SLUICE_CTLD_TOPO_H
#define SLUICE_CTLD_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/bitmap.h"
#include "common/topo_conf.h"
#include "ctld/select.h"

typedef struct topo topo_t;

enum topo_kind { TOPO_TREE = 1, TOPO_BLOCK = 2 };

/* What select_job_test does (the select plugin's job_test). */
typedef int (*topo_select_f)(const select_node_t *nodes, size_t node_cnt,
			     const bitmap_t *avail, const select_req_t *req,
			     bool ignore_alloc, select_result_t *res);

typedef struct {
	uint32_t max_leaves;     /* --switches count, 0 = no limit */
	uint32_t segment;        /* --segment, 0 = none */
} topo_req_t;

/* The topology of c over nodes names[0..node_cnt) (index = node index).
 * A node c names that is not in names is an error naming fname and the
 * line; NULL with err then.  Nodes under no switch / in no block are
 * listed in *unplaced (caller frees; NULL when none): jobs cannot use
 * them. */
topo_t *topo_create(const topo_conf_t *c, enum topo_kind kind,
		    const char *const *names, size_t node_cnt,
		    const char *fname, char **unplaced, char *err,
		    size_t errlen);
void    topo_destroy(topo_t *t);

enum topo_kind topo_kind(const topo_t *t);
/* Nodes that are in some domain (jobs may use only these). */
const bitmap_t *topo_nodes(const topo_t *t);

/* select_job_test's contract inside the topology; *leaves (may be NULL)
 * gets the level-0 domains the result spans. */
int      topo_job_test(const topo_t *t, topo_select_f fn,
		       const select_node_t *nodes, size_t node_cnt,
		       const bitmap_t *avail, const select_req_t *req,
		       const topo_req_t *treq, bool ignore_alloc,
		       select_result_t *res, uint32_t *leaves);
/* Level-0 domains (leaf switches, blocks) that nodes span. */
uint32_t topo_leaf_count(const topo_t *t, const bitmap_t *nodes);

/* Domains by level, lowest first (for backfill's plan): count, and the
 * k-th one's nodes and level. */
size_t          topo_domain_cnt(const topo_t *t);
const bitmap_t *topo_domain_nodes(const topo_t *t, size_t k);
uint32_t        topo_domain_level(const topo_t *t, size_t k);

/* TopologyParam=RouteTree: the first-hop groups of a message to nodes
 * idx[0..cnt) — under the lowest switch over them all, the nodes under
 * each of its child switches form one group (a node under no switch is
 * a group of its own).  0 with perm (cnt entries: the k-th node to send
 * to is idx[perm[k]]), *sizes (xfree) and *group_cnt; -1 when the tree
 * gives no split (one leaf switch, or blocks): tree_width decides. */
int   topo_route(const topo_t *t, const uint32_t *idx, uint32_t cnt,
		 uint32_t *perm, uint32_t **sizes, uint32_t *group_cnt);

/* scontrol show topology: one line per switch or block, as Slurm prints
 * them ("SwitchName=s0 Level=0 LinkSpeed=1 Nodes=tux[0-1]"), for the
 * switches/blocks that contain node (NULL: all).  node_names gives the
 * node list of a bitmap.  Caller frees; NULL if node is in none. */
char *topo_show(const topo_t *t, const char *node, long node_index,
		char *(*node_names)(const bitmap_t *nodes));

#endif
