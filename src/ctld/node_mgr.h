/* node_mgr.h — the controller's node table.
 *
 * One record per NodeName (node_info_t first, as scontrol shows it) with
 * its bit index in every node bitmap.  Owns node states: registration,
 * ping / not responding / DOWN, drain and resume, and the CPUs and memory
 * allocated to jobs on each node.
 */
#ifndef SLUICE_CTLD_NODE_MGR_H
#define SLUICE_CTLD_NODE_MGR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <uthash.h>

#include "common/bitmap.h"
#include "common/hostlist.h"
#include "common/conf.h"
#include "common/net.h"
#include "common/node_info.h"
#include "common/pack.h"
#include "ctld/select.h"

typedef struct node_record {
	node_info_t info;          /* first member */
	uint32_t    index;         /* bit in node bitmaps */
	time_t      last_response; /* last answer from its slurmd */
	uint32_t    job_cnt;       /* jobs holding resources here */
	uint32_t    comp_cnt;      /* jobs completing here */
	bool        ping_pending;
	bool        down_no_resp;  /* DOWN set by us for "Not responding" */
	uint16_t    cfg_cpus;      /* slurm.conf values, for registration */
	uint16_t    cfg_sockets;
	uint16_t    cfg_cores;
	uint16_t    cfg_threads;
	uint64_t    cfg_memory;
	bitmap_t   *cpu_used;      /* CPU ids held by jobs (cfg_cpus bits) */
	uint16_t   *cpu_share;     /* per CPU id: jobs sharing it
				    * (OverSubscribe=FORCE:N, YES:N) */
	uint32_t    cpu_sum;       /* CPUs of the jobs here, shared ones
				    * counted once per job (info.alloc_cpus
				    * is this, at most cpus) */
	uint16_t    gpus;          /* gres/gpu from Gres= (<= SELECT_MAX_GPUS) */
	char       *gpu_type;      /* "tesla" from Gres=gpu:tesla:2, or NULL */
	uint64_t    gpu_used;      /* GPU indexes held by jobs */
	gres_layout_t *gres;       /* Gres= laid out (typed GPUs, counted and
				    * shared GRES), NULL if none */
	gres_use_t *gres_use;      /* what jobs hold of gres */
	char       *gres_cores;    /* its GPUs' Cores= as slurmd registered
				    * them (gres_bind.h), or NULL */
	time_t      boot_req_time; /* REBOOT_ISSUED since (node_reboot.c) */
	bool        reboot_asap;   /* scontrol reboot ASAP drained it */
	bool        vacant;        /* a free slot for a dynamic node: no
				    * name, FUTURE, never usable, not shown */
	char       *dyn_line;      /* a dynamic node (slurmd -Z, scontrol
				    * create): its NodeName line, else NULL */
	time_t      power_time;    /* POWERING_UP/_DOWN since (power_save.c) */
	UT_hash_handle hh;         /* by name */
} node_record_t;

int            node_mgr_init(const slurm_conf_t *conf);
/* Apply a new config: attributes of the same nodes change in place.  A
 * different node list is refused while jobs hold nodes (-1, err). */
int            node_mgr_reconfig(const slurm_conf_t *conf, char *err,
				 size_t errlen);
void           node_mgr_fini(void);

/* Slots in the table: the bits of every node bitmap.  With MaxNodeCount
 * above the NodeName lines' count the table is that large from the start
 * (Slurm's way): the slots past the configured nodes are vacant until a
 * dynamic node takes one, so no bitmap is ever resized. */
size_t         node_mgr_count(void);
/* Slots holding a node (configured or dynamic). */
size_t         node_mgr_used(void);
/* A dynamic node into the first vacant slot (NULL if none is left);
 * node_mgr_vacate() frees its slot again.  Both bump the generation. */
node_record_t *node_mgr_add(const conf_node_t *cn, const char *line);
void           node_mgr_vacate(node_record_t *n);
/* A bitmap of every node there is (not the vacant slots). */
bitmap_t      *node_mgr_all(void);
/* Bumped when the table is rebuilt (cached bitmaps become stale). */
uint32_t       node_mgr_generation(void);
/* What node_mgr_pack_state() writes changed (or may have): any change of
 * a node's DOWN-ness, DRAIN flag, reason (text, uid, time), down_no_resp
 * or reboot state (flags, boot_req_time, next_state, reboot_asap) must
 * call node_mgr_saved_touch(); the journal repacks the
 * saved node states only when node_mgr_saved_gen() moved. */
void           node_mgr_saved_touch(void);
uint64_t       node_mgr_saved_gen(void);
node_record_t *node_mgr_at(size_t index);
node_record_t *node_mgr_find(const char *name);
/* Hostlist expression -> new bitmap; NULL if malformed or a name is
 * unknown (*bad, if given, gets a copy of the first bad name). */
bitmap_t      *node_mgr_bitmap(const char *expr, char **bad);
/* Parse a hostlist a user sent (-w, -x, scancel -w, step node lists).  An
 * expression naming more hosts than twice the node table plus 1,024 can
 * only hold unknown names or pointless repeats: it is refused before it is
 * expanded, so a short request cannot make the controller build a million
 * names.  NULL + err on error. */
hostlist_t    *node_mgr_parse_user(const char *expr, char *err, size_t errlen);
char          *node_mgr_names(const bitmap_t *b);   /* ranged; caller frees */
/* Nodes that may take new work now (not DOWN, DRAIN, NOT_RESPONDING,
 * UNKNOWN, FUTURE, nor being or asked to be powered down; powered-down
 * and powering-up nodes may: the job waits for them). */
bool           node_mgr_usable(const node_record_t *n);
/* Fill sel[0..count) for select_job_test. */
void           node_mgr_select_view(select_node_t *sel);

/* Allocation bookkeeping, called by the job manager. */
void           node_mgr_alloc(node_record_t *n, uint16_t cpus, uint64_t mem);
void           node_mgr_release(node_record_t *n, uint16_t cpus, uint64_t mem);
void           node_mgr_completing(node_record_t *n, bool on);
/* CPU ids and GPU indexes a job takes (on) or gives back (!on). */
/* A job on n is suspended (on false) or resumed: its CPUs (count and
 * ids) are given back or taken again; memory and GPUs stay held, as
 * Slurm's select does for a suspended job. */
void           node_mgr_suspend_cpus(node_record_t *n, uint16_t cpus,
				     const bitmap_t *cpu_ids, bool on);
void           node_mgr_hold(node_record_t *n, const bitmap_t *cpu_ids,
			     uint64_t gpus, const char *gres_alloc, bool on);
/* A job that shares its CPUs (OverSubscribe=FORCE:N, YES:N) took (on)
 * or gave back cpu_ids, after node_mgr_hold / node_mgr_suspend_cpus did:
 * an id stays held while another job shares it. */
void           node_mgr_share(node_record_t *n, const bitmap_t *cpu_ids,
			      bool on);
/* The CPU ids of n a job sharing CPUs max ways may not take, given used
 * (a view's cpu_used): those held by a job that does not share them, or
 * shared by max jobs already.  out has used's size. */
void           node_mgr_share_blocked(const node_record_t *n,
				      const bitmap_t *used, uint16_t max,
				      bitmap_t *out);
/* The GPUs' Cores= a registration carries (NULL = none bound): kept,
 * bound into n's layout and shown in its Gres=. */
void           node_mgr_set_gres_cores(node_record_t *n, const char *msg);
/* Is name (of type, if not NULL) in some node's Gres=? */
bool           node_mgr_has_gres(const char *name, const char *type);

/* NodeAddr / NodeHostname of a node (cloud nodes: learnt at
 * registration or set by scontrol update; NULL keeps one) and back to
 * slurm.conf's. */
void           node_mgr_set_addr(node_record_t *n, const char *addr,
				 const char *hostname);
void           node_mgr_reset_addr(node_record_t *n);

/* Drain n with reason (by uid); running jobs go on. */
void           node_mgr_drain(node_record_t *n, const char *reason,
			      uint32_t uid);

/* RPC handlers. */
void           node_mgr_rpc_register(net_conn_t *c, slurm_msg_t *m);
void           node_mgr_rpc_update(net_conn_t *c, slurm_msg_t *m);
void           node_mgr_rpc_info(net_conn_t *c, slurm_msg_t *m);

/* Ping / registration requests; DOWN after SlurmdTimeout of silence. */
void           node_mgr_ping(time_t now);
/* REQUEST_SHUTDOWN to every slurmd. */
void           node_mgr_shutdown_slurmds(void);

/* Snapshot: DOWN/DRAIN states with reasons.  With replace, nodes the
 * record does not list go back to their slurm.conf state first (a later
 * journal record replaces the whole set). */
/* Saved node states (DOWN/DRAIN with reasons, pending reboots): written
 * in format
 * NODE_STATE_VERSION (2: tagged records), read in 1 (positional) or 2. */
#define NODE_STATE_VERSION 2
void           node_mgr_pack_state(buf_t *b);
int            node_mgr_unpack_state(buf_t *b, bool replace,
				     uint16_t version);

#endif
