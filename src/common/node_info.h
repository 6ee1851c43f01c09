/* node_info.h — nodes and partitions as the commands and the wire see them.
 *
 * node_info_t / part_info_t are reported by the controller (sinfo,
 * scontrol show node|partition) and are the first member of its own
 * records.  Described once by field tables in node_info.c.
 */
#ifndef SLUICE_NODE_INFO_H
#define SLUICE_NODE_INFO_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "common/fields.h"

enum node_state_base {
	NODE_STATE_UNKNOWN = 0,
	NODE_STATE_DOWN,
	NODE_STATE_IDLE,
	NODE_STATE_ALLOCATED,
	NODE_STATE_ERROR,
	NODE_STATE_MIXED,
	NODE_STATE_FUTURE,
	NODE_STATE_END
};
#define NODE_STATE_BASE        0x0000000fu
#define NODE_STATE_NET         0x00000010u
#define NODE_STATE_RES         0x00000020u
#define NODE_STATE_UNDRAIN     0x00000040u
#define NODE_STATE_CLOUD       0x00000080u
#define NODE_RESUME            0x00000100u
#define NODE_STATE_DRAIN       0x00000200u
#define NODE_STATE_COMPLETING  0x00000400u
#define NODE_STATE_NO_RESPOND  0x00000800u
#define NODE_STATE_POWERED_DOWN 0x00001000u
#define NODE_STATE_FAIL        0x00002000u
#define NODE_STATE_POWERING_UP 0x00004000u
#define NODE_STATE_MAINT       0x00008000u
#define NODE_STATE_REBOOT_REQUESTED 0x00010000u
#define NODE_STATE_REBOOT_CANCEL 0x00020000u
#define NODE_STATE_POWERING_DOWN 0x00040000u
#define NODE_STATE_DYNAMIC_FUTURE 0x00080000u
#define NODE_STATE_REBOOT_ISSUED 0x00100000u
#define NODE_STATE_PLANNED     0x00200000u
#define NODE_STATE_INVALID_REG 0x00400000u
#define NODE_STATE_POWER_DOWN  0x00800000u
#define NODE_STATE_POWER_UP    0x01000000u
#define NODE_STATE_POWER_DRAIN 0x02000000u
#define NODE_STATE_DYNAMIC_NORM 0x04000000u

/* scontrol: "IDLE", "IDLE+DRAIN", "ALLOCATED+DRAIN", "DOWN*+DRAIN"... */
char       *node_state_string_long(uint32_t state);    /* caller frees */
/* sinfo %T: "idle", "drained", "draining", "allocated", "mixed", "down*" ... */
char       *node_state_string_sinfo(uint32_t state, bool compact); /* caller frees */
/* JSON list form: ["IDLE","DRAIN"]; returns count. */
int         node_state_strings(uint32_t state, const char *out[16]);
/* For -t/--states filters: "idle", "drain", "alloc", ... -> mask/base. */
int         node_state_from_string(const char *s, uint32_t *base, uint32_t *flags);

typedef struct {
	char     *name;
	char     *node_addr;
	char     *node_hostname;
	uint16_t  port;
	uint32_t  node_state;
	char     *reason;
	uint32_t  reason_uid;
	time_t    reason_time;
	uint16_t  cpus;
	uint16_t  boards;
	uint16_t  sockets;
	uint16_t  cores;          /* per socket */
	uint16_t  threads;        /* per core */
	uint64_t  real_memory;    /* MB */
	uint64_t  free_mem;       /* MB, NO_VAL64 unknown */
	uint32_t  tmp_disk;
	uint32_t  weight;
	uint32_t  cpu_load;       /* load * 100 */
	uint16_t  alloc_cpus;
	uint64_t  alloc_memory;
	char     *features;
	char     *features_act;
	char     *gres;
	char     *gres_used;
	char     *arch;
	char     *os;
	char     *version;
	char     *partitions;     /* "debug,batch" */
	time_t    boot_time;
	time_t    slurmd_start_time;
	time_t    last_busy;
	char     *tres_fmt_str;   /* CfgTRES */
	char     *alloc_tres_fmt_str;
	char     *mcs_label;
	char     *comment;
	char     *extra;
	uint32_t  owner;          /* NO_VAL32 */
	/* acct_gather_energy/rapl, from the node's slurmd (else 0) */
	uint32_t  current_watts;
	uint32_t  ave_watts;
	uint64_t  consumed_energy; /* joules since its slurmd started */
	/* scontrol reboot nextstate: 0 none, NODE_RESUME or NODE_STATE_DOWN */
	uint32_t  next_state;
} node_info_t;

typedef struct {
	char     *name;
	char     *nodes;          /* ranged */
	uint32_t  state_up;       /* enum part_state */
	bool      is_default;
	bool      hidden;
	bool      root_only;
	bool      exclusive_user;
	bool      lln;
	bool      req_resv;
	bool      disable_root_jobs;
	uint32_t  max_time;
	uint32_t  default_time;
	uint32_t  max_nodes;
	uint32_t  min_nodes;
	uint32_t  total_nodes;
	uint32_t  total_cpus;
	uint64_t  total_mem;      /* MB */
	char     *allow_groups;
	char     *allow_accounts;
	char     *deny_accounts;
	char     *allow_qos;
	char     *deny_qos;
	char     *qos_char;
	char     *alternate;
	uint16_t  priority_job_factor;
	uint16_t  priority_tier;
	char     *oversubscribe;  /* "NO", "YES:4", "EXCLUSIVE", "FORCE:4" */
	uint32_t  grace_time;
	uint64_t  def_mem_per_cpu;
	uint64_t  def_mem_per_node;
	uint64_t  max_mem_per_cpu;
	uint64_t  max_mem_per_node;
	uint32_t  max_cpus_per_node;
	uint16_t  over_time_limit;
	char     *preempt_mode;
	char     *tres_fmt_str;
	char     *billing_weights_str;
	char     *select_type_parameters;
} part_info_t;

enum part_state {
	PARTITION_INACTIVE = 0,   /* no submit, no schedule */
	PARTITION_DOWN = 1,       /* submit, no schedule */
	PARTITION_DRAIN = 2,      /* no submit, schedule */
	PARTITION_UP = 3,
};
const char *part_state_string(uint32_t s);   /* "UP", "DOWN", ... */

extern const field_desc_t node_info_fields[];
extern const field_desc_t part_info_fields[];
void node_info_free_members(node_info_t *n);
void part_info_free_members(part_info_t *p);

#endif
