/* topo_mgr.h — the controller's network topology (TopologyPlugin,
 * TopologyParam, topology.conf).
 *
 * topology/flat (also default, none) places jobs as select does;
 * topology/tree and topology/block read topology.conf next to slurm.conf
 * and place every job through topo.h (with TopologyParam=TopoOptional,
 * only jobs that ask with --switches or --segment); with RouteTree the
 * agent's fan-out groups follow the switches.  A topology.yaml
 * beside slurm.conf is refused (Slurm 25.05 would read it instead of
 * topology.conf; Sluice reads topology.conf only).  TopologyParam words
 * that change nothing here are logged once; Dragonfly and unknown words
 * stop the controller (a reconfigure keeps the old topology).
 */
#ifndef SLUICE_CTLD_TOPO_MGR_H
#define SLUICE_CTLD_TOPO_MGR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/conf.h"
#include "common/msg.h"
#include "common/net.h"
#include "common/plugin_ctx.h"
#include "ctld/select.h"
#include "ctld/topo.h"

struct job_record;

/* The type with its built-ins (ctld_plugins.c checks a new config). */
extern const plugin_type_t topology_plugin_type;

/* (Re)load from c over the node table as it is now: 0, or -1 with err
 * ("topology.conf:3: ...") and the old topology kept. */
int  topo_mgr_init(const slurm_conf_t *c, char *err, size_t errlen);
void topo_mgr_fini(void);
/* The topology jobs are placed in, or NULL (flat). */
const topo_t *topo_mgr_get(void);

/* The topology j is placed in: NULL when flat, or with
 * TopologyParam=TopoOptional when j asks for neither --switches nor
 * --segment. */
const topo_t *topo_mgr_for_job(const struct job_record *j);
/* select_plugin_job_test() for j inside the topology, with its
 * --switches wait: an allocation over more leaf switches than j asked
 * for is refused (SELECT_BUSY) until j has waited its max-time
 * (max_switch_wait caps it) since it first could have started. */
int  topo_mgr_job_test(struct job_record *j, const select_node_t *nodes,
		       size_t node_cnt, const bitmap_t *avail,
		       const select_req_t *req, bool ignore_alloc,
		       select_result_t *res);
/* Submit check of --switches / --segment: 0 or a Slurm error code with
 * why; 0 with why set: a note for the user (--switches has no effect). */
int  topo_mgr_check_req(uint32_t req_switch, uint16_t segment,
			uint32_t min_nodes, char *why, size_t len);

/* TopologyParam=RouteTree: put names/addrs[0..cnt) in switch order and
 * give the first-hop group sizes (*sizes, xfree); false (nothing
 * changed) without RouteTree or when the switches give no split. */
bool topo_mgr_route(char **names, char **addrs, uint32_t cnt,
		    uint32_t **sizes, uint32_t *group_cnt);

/* REQUEST_TOPO_INFO */
void topo_mgr_rpc_info(net_conn_t *c, slurm_msg_t *m);

#endif
