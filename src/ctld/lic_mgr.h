/* lic_mgr.h — the controller's licenses (slurm.conf Licenses=).
 *
 * A table of names with a configured total and the count held by
 * running jobs.  A job takes its -L licenses when it starts (one item of
 * an '|' request: the first that is free, kept in licenses_alloc) and
 * gives them back when it ends (as it begins COMPLETING); a suspended job
 * keeps them, as Slurm's do.  What is held is not saved: a restart counts
 * it again from the recovered running jobs (lic_mgr_job_recover).
 * Reconfigure keeps the counts in use by name; a license left out of the
 * new config can no longer be had, and its holders give it back to
 * nobody.
 */
#ifndef SLUICE_CTLD_LIC_MGR_H
#define SLUICE_CTLD_LIC_MGR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "common/conf.h"
#include "common/msg.h"
#include "common/net.h"
#include "ctld/bf_lic.h"

struct job_record;

/* (Re)build the table from c's Licenses= (checked by the conf parser):
 * -1 with err if it does not parse, the old table kept. */
int  lic_mgr_init(const slurm_conf_t *c, char *err, size_t errlen);
void lic_mgr_fini(void);
/* assoc_mgr_on_reload: the remote licenses (sacctmgr resource) this
 * cluster may use, name@server, join the table; counts in use kept. */
void lic_mgr_remote_reloaded(void *arg);
size_t lic_mgr_count(void);

/* Submit/update: spec names only configured licenses, each within its
 * total.  0 and *norm ("a:2,b:1", xfree) or ESLURM_INVALID_LICENSES. */
int  lic_mgr_validate(const char *spec, char **norm);

/* Are j's licenses free now (true if it asks for none)? */
bool lic_mgr_job_test(struct job_record *j);
/* j starts: take them (the first free item of an '|' request). */
void lic_mgr_job_get(struct job_record *j);
/* j ends (or is requeued): give back what it holds. */
void lic_mgr_job_return(struct job_record *j);
/* A running job recovered at restart: count what it held. */
void lic_mgr_job_recover(struct job_record *j);
/* Forget j's cached request (the record is freed or -L changed). */
void lic_mgr_job_forget(struct job_record *j);

/* Backfill: the table's availability over time, running jobs giving
 * their licenses back at their end time (xfree with bf_lic_destroy). */
bf_lic_t *lic_mgr_bf_create(time_t now, uint32_t resolution,
			    uint32_t window);
/* j's request for bf_lic (false if it asks for none); valid until the
 * next lic_mgr call on j. */
bool lic_mgr_bf_req(struct job_record *j, bf_lic_req_t *r);
/* Make j's held licenses the choice-th item of its request (backfill
 * planned the start on it): used by the next lic_mgr_job_get. */
void lic_mgr_job_prefer(struct job_record *j, size_t choice);

/* Accounting: ",license/<name>=<count>" appended to *tres for each
 * license j holds that AccountingStorageTRES names. */
void lic_mgr_tres(const struct job_record *j, char **tres);
/* ",license/<name>=<total>" for each license AccountingStorageTRES
 * names (the cluster's registered TRES). */
void lic_mgr_cluster_tres(char **tres);

/* REQUEST_LICENSE_INFO. */
void lic_mgr_rpc_info(net_conn_t *c, slurm_msg_t *m);

#endif
