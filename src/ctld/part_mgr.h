/* part_mgr.h — partitions from slurm.conf: node sets, limits, state. */
#ifndef SLUICE_CTLD_PART_MGR_H
#define SLUICE_CTLD_PART_MGR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/bitmap.h"
#include "common/conf.h"
#include "common/net.h"
#include "common/node_info.h"
#include "common/pack.h"
#include "ctld/billing.h"
#include "ctld/node_mgr.h"

typedef struct part_record {
	part_info_t info;          /* first member */
	conf_part_t conf;          /* its definition (slurm.conf's, with
				    * run-time changes over it) */
	bitmap_t   *node_bitmap;
	billing_t   billing;       /* TRESBillingWeights */
	bool        qos_missing;   /* QOS= names no QOS (logged once) */
} part_record_t;

/* Build from conf (the node table must exist).  -1 + err on bad Nodes=. */
int            part_mgr_init(const slurm_conf_t *conf, char *err, size_t errlen);
void           part_mgr_fini(void);
size_t         part_mgr_count(void);
part_record_t *part_mgr_at(size_t i);
part_record_t *part_mgr_find(const char *name);
part_record_t *part_mgr_default(void);
/* Is a job's time limit (minutes, INFINITE32 = none) over the
 * partition's MaxTime?  Submit (EnforcePartLimits), the pending reason
 * PartitionTimeLimit, and so both schedulers, and scontrol update
 * TimeLimit all ask this. */
bool           part_mgr_time_exceeds(const part_record_t *part, uint32_t limit);
/* A dynamic node was added (it joins the partitions of Nodes=ALL and of
 * NodeSets by one of its features) or is going (it leaves them all). */
void           part_mgr_node_added(const node_record_t *n);
void           part_mgr_node_removed(const node_record_t *n);
/* Recompute totals and each node's "partitions" string. */
void           part_mgr_refresh_totals(void);
void           part_mgr_rpc_info(net_conn_t *c, slurm_msg_t *m);
/* QOS= of c's partitions against the QOS accounting knows: -1 with
 * Slurm's "Partition P has an invalid qos (Q), please check your
 * configuration" in err when AccountingStorageEnforce has qos,
 * associations are loaded and one is unknown (reconfigure keeps the old
 * config); without accounting_storage/slurmdbd logs that QOS= has no
 * effect. */
int            part_mgr_check_qos(const slurm_conf_t *c, char *err,
				  size_t errlen);
/* assoc_mgr_on_reload() callback: logs a partition whose QOS= the new
 * snapshot does not have (its limits are not in force), once. */
void           part_mgr_qos_reloaded(void *arg);

/* scontrol create/update/delete PartitionName (REQUEST_*_PARTITION):
 * the words are parsed as a PartitionName line of slurm.conf; the
 * change applies at once (jobs, both schedulers) and is part of the
 * controller state.  slurm.conf's partitions with these changes over
 * them are what a restart recovers; part_mgr_init (reconfigure) drops
 * them, as Slurm's scontrol reconfigure does. */
void           part_mgr_rpc_create(net_conn_t *c, slurm_msg_t *m);
void           part_mgr_rpc_update(net_conn_t *c, slurm_msg_t *m);
void           part_mgr_rpc_delete(net_conn_t *c, slurm_msg_t *m);

#define PART_STATE_VERSION 1
/* The run-time changes (snapshot section, JREC_PARTS payload). */
void           part_mgr_pack_state(buf_t *b);
/* Rebuild from slurm.conf and apply packed changes (a change that no
 * longer applies is logged and kept).  0, or -1 (malformed). */
int            part_mgr_unpack_state(buf_t *b, uint16_t version);
/* Changed since the last call (the journal writes a JREC_PARTS)? */
bool           part_mgr_take_dirty(void);

#endif
