/* rest_handlers.h — the operations, one function each (rest_route.c's
 * table names them).  Each runs on a worker thread, as the request's user,
 * fills r->resp's payload and reports failures with rest_error(). */
#ifndef SLUICE_REST_HANDLERS_H
#define SLUICE_REST_HANDLERS_H

#include "restd/rest_req.h"

/* /slurm/ (rest_slurm.c, rest_slurm_job.c) */
void rest_op_ping(rest_req_t *r);
void rest_op_diag(rest_req_t *r);
void rest_op_jobs(rest_req_t *r);
void rest_op_job_get(rest_req_t *r);
void rest_op_job_delete(rest_req_t *r);
void rest_op_job_update(rest_req_t *r);
void rest_op_job_submit(rest_req_t *r);
void rest_op_job_allocate(rest_req_t *r);
void rest_op_jobs_state(rest_req_t *r);
void rest_op_nodes(rest_req_t *r);
void rest_op_node_get(rest_req_t *r);
void rest_op_node_update(rest_req_t *r);
void rest_op_nodes_update(rest_req_t *r);
void rest_op_jobs_delete(rest_req_t *r);
void rest_op_node_delete(rest_req_t *r);
void rest_op_partitions(rest_req_t *r);
void rest_op_partition_get(rest_req_t *r);
void rest_op_licenses(rest_req_t *r);
void rest_op_reconfigure(rest_req_t *r);
void rest_op_shares(rest_req_t *r);
void rest_op_reservations(rest_req_t *r);
void rest_op_reservation_get(rest_req_t *r);
void rest_op_reservation_delete(rest_req_t *r);
void rest_op_reservation_post(rest_req_t *r);
void rest_op_reservations_post(rest_req_t *r);

/* /slurmdb/ (rest_slurmdb_jobs.c, rest_slurmdb_acct.c,
 * rest_slurmdb_write.c) */
void rest_op_dbd_ping(rest_req_t *r);
void rest_op_dbd_jobs(rest_req_t *r);
void rest_op_dbd_job_get(rest_req_t *r);
void rest_op_dbd_accounts(rest_req_t *r);
void rest_op_dbd_account_get(rest_req_t *r);
void rest_op_dbd_users(rest_req_t *r);
void rest_op_dbd_user_get(rest_req_t *r);
void rest_op_dbd_assocs(rest_req_t *r);
void rest_op_dbd_qos(rest_req_t *r);
void rest_op_dbd_qos_get(rest_req_t *r);
void rest_op_dbd_clusters(rest_req_t *r);
void rest_op_dbd_cluster_get(rest_req_t *r);
void rest_op_dbd_tres(rest_req_t *r);
void rest_op_dbd_config(rest_req_t *r);
void rest_op_dbd_account_delete(rest_req_t *r);
void rest_op_dbd_user_delete(rest_req_t *r);
void rest_op_dbd_qos_delete(rest_req_t *r);
void rest_op_dbd_cluster_delete(rest_req_t *r);
void rest_op_dbd_assocs_delete(rest_req_t *r);
void rest_op_dbd_accounts_post(rest_req_t *r);
void rest_op_dbd_users_post(rest_req_t *r);
void rest_op_dbd_qos_post(rest_req_t *r);
void rest_op_dbd_assocs_post(rest_req_t *r);
void rest_op_dbd_clusters_post(rest_req_t *r);
void rest_op_dbd_tres_post(rest_req_t *r);
void rest_op_dbd_config_post(rest_req_t *r);
/* rest_slurmdb_add.c: accounts_association, users_association */
void rest_op_dbd_accounts_assoc_post(rest_req_t *r);
void rest_op_dbd_users_assoc_post(rest_req_t *r);
/* rest_slurmdb_none.c: what Sluice's slurmdbd has none of */
void rest_op_dbd_diag(rest_req_t *r);
void rest_op_dbd_instances(rest_req_t *r);
void rest_op_dbd_wckeys(rest_req_t *r);
void rest_op_dbd_wckey_get(rest_req_t *r);
void rest_op_dbd_wckey_delete(rest_req_t *r);
void rest_op_dbd_wckeys_post(rest_req_t *r);

/* /sluice/v1/ (rest_sluice.c): Sluice's own, outside the references */
void rest_op_sluice_job_metrics(rest_req_t *r);
void rest_op_sluice_job_profile(rest_req_t *r);
void rest_op_sluice_job_requeue(rest_req_t *r);
/* rest_job_output.c */
void rest_op_sluice_job_output(rest_req_t *r);

#endif
