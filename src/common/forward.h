/* forward.h — one request to many slurmds along a tree (TreeWidth).
 *
 * As Slurm's forward_t: the sender talks to at most tree_width nodes.
 * The nodes are cut into tree_width contiguous groups; a group of one
 * gets the request itself, a larger group's first node gets
 * REQUEST_FORWARD (forward_msg_t, msg_types.h) naming the whole group:
 * it handles the request, passes it on to the rest of its group the same
 * way, and answers RESPONSE_FORWARD with every node's return code.  If a
 * group's first node cannot be reached, it is reported with the error
 * and the next node of the group takes its place, so a dead node never
 * hides the others and is named in the answers.  Versions: the packed
 * bodies are at the sender's protocol version (body_version); a group's
 * first node too old to read them answers SLURM_PROTOCOL_VERSION_ERROR
 * and the group is then sent the request node by node, each at its own
 * version (net_rpc), so a tree of mixed versions during an upgrade
 * costs fan-out, never a lost request.
 *
 * fwd_send() blocks (threads per group); callers: srun's launch, the
 * controller's agent (terminate, signal), and slurmd passing a
 * REQUEST_FORWARD on.
 */
#ifndef SLUICE_FORWARD_H
#define SLUICE_FORWARD_H

#include <stdint.h>

typedef struct {
	uint16_t      type;         /* the request */
	uint32_t      cnt;          /* nodes */
	char * const *names;
	char * const *addrs;        /* "host:port" per node */
	const void   *data;         /* the request for every node, or ... */
	const void  **datas;        /* ... one per node (then data unused) */
	const char   *body;         /* already packed (hex) for all, or ... */
	char * const *bodies;       /* ... per node; used if data(s) NULL */
	uint16_t      tree_width;   /* 0 = 50 */
	/* first-hop groups as sizes in node order (TopologyParam=RouteTree:
	 * the nodes under one switch each), or NULL: tree_width groups */
	const uint32_t *groups;
	uint32_t      group_cnt;
	int           timeout_ms;   /* one hop */
	uint32_t      orig_uid;
	uint16_t      body_version; /* of body/bodies (0: ours) */
} fwd_req_t;

/* Deliver r to every node; rc[i] gets node i's return code or the
 * transport error (SLURM_COMMUNICATIONS_CONNECTION_ERROR ...). */
void fwd_send(const fwd_req_t *r, int *rc);

/* Pack a request body at protocol version (0: ours) as hex text
 * (xmalloc'd), NULL if type unknown. */
char *fwd_pack_hex(uint16_t type, const void *data, uint16_t version);
/* Unpack a hex body packed at protocol version (0: ours); 0 and *data,
 * or -1. */
int   fwd_unpack_hex(uint16_t type, const char *hex, uint16_t version,
		     void **data);

/* How long to wait for a subtree of cnt nodes (hops x timeout). */
int   fwd_subtree_timeout(uint32_t cnt, uint16_t tree_width, int timeout_ms);

#endif
