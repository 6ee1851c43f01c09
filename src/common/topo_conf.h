/* topo_conf.h — topology.conf: the network as topology/tree and
 * topology/block see it (Slurm 25.05's keys).
 *
 * topology/tree lines: "SwitchName=s0 Nodes=tux[0-3] LinkSpeed=1" (a leaf
 * switch) and "SwitchName=s2 Switches=s[0-1]" (a switch over switches).
 * topology/block lines: "BlockName=b1 Nodes=tux[0-7]" and one
 * "BlockSizes=8,16" line.  Keys are case-insensitive, '#' starts a
 * comment.  The file is checked whole: a duplicate name, a switch named
 * under Switches= that no line defines, a loop, a switch under two
 * parents, a node under two leaf switches or in two blocks, a block
 * smaller than the smallest BlockSizes entry — each is an error naming
 * the file and line, and nothing is returned.  Node names are not
 * checked against slurm.conf here (the controller does that).
 *
 * The caller owns the result and frees it with topo_conf_free().
 */
#ifndef SLUICE_TOPO_CONF_H
#define SLUICE_TOPO_CONF_H

#include <stddef.h>
#include <stdint.h>

/* The most switches or blocks one file may define. */
#define TOPO_CONF_MAX_ITEMS 65536

typedef struct {
	char     *name;
	char     *nodes;        /* Nodes= as written, NULL for none */
	char     *switches;     /* Switches= as written, NULL for none */
	uint32_t  link_speed;   /* LinkSpeed= (1 when not given) */
	int       line;
	/* resolved */
	uint32_t  level;        /* 0 = leaf switch */
	int32_t   parent;       /* index, -1 = top */
	uint32_t *child;        /* child switch indexes */
	uint32_t  child_cnt;
} topo_switch_conf_t;

typedef struct {
	char     *name;
	char     *nodes;        /* Nodes= as written */
	uint32_t  node_cnt;     /* names it expands to */
	int       line;
} topo_block_conf_t;

typedef struct {
	topo_switch_conf_t *sw;
	size_t              sw_cnt;
	topo_block_conf_t  *blk;
	size_t              blk_cnt;
	uint32_t           *block_sizes;   /* BlockSizes=, ascending; or the
					    * default (the smallest block,
					    * doubled up to all blocks) */
	size_t              bs_cnt;
	int                 bs_line;       /* 0 = not written */
} topo_conf_t;

/* Parse text (fname for messages).  0, or -1 with "fname:line: ..." in
 * err and c empty. */
int  topo_conf_parse_text(const char *text, size_t len, const char *fname,
			  topo_conf_t *c, char *err, size_t errlen);
/* Read path; a missing file is an error too ("...: No such file"). */
int  topo_conf_load(const char *path, topo_conf_t *c, char *err,
		    size_t errlen);
/* Index of switch name, or -1. */
long topo_conf_switch(const topo_conf_t *c, const char *name);
void topo_conf_free(topo_conf_t *c);

#endif
