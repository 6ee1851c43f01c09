/* job_res.h — a job's resources in detail: what it asks beyond CPU counts
 * (GPUs, features, several partitions), the select request built from its
 * record, the CPU ids and GPU indexes it holds on each node, and how the
 * allocation is shown (TRES with gres/gpu, scontrol -d lines).
 *
 * The job record owns node_cpu_ids / node_gpus (freed by job_res_free).
 */
#ifndef SLUICE_CTLD_JOB_RES_H
#define SLUICE_CTLD_JOB_RES_H

#include <stdbool.h>
#include <stdint.h>

#include "common/pack.h"
#include "ctld/job_mgr.h"

/* SelectType + SelectTypeParameters as select_cr flags. */
uint8_t  job_res_cr(void);
/* GPU counts from TRES strings ("gres/gpu:2", "gpu:tesla:2"); -1 if one
 * is malformed or names a GRES other than gpu. */
int      job_res_parse_gpus(const char *per_node, const char *per_task,
			    const char *per_job, uint16_t *gpn, uint16_t *gpt,
			    uint32_t *gpj, char **type);
/* "gres/gpu:N" (--cpus-per-gpu, --mem-per-gpu) -> N in *v (may be
 * NULL); NULL/empty -> 0; -1 if malformed or not gpu. */
/* Is name one of GresTypes' words? */
bool     job_res_gres_listed(const char *name);
/* Is gres/<key> ("nic", "gpu:a100") in AccountingStorageTRES? */
bool     job_res_tres_tracked(const char *key);
/* Every GRES name (and type) of a request list is in GresTypes and on
 * some node's Gres= (NULL or "" is). */
bool     job_res_gres_known(const char *spec);
/* The names other than gpu of a --gres list (nic:2, shard:1, mps:50),
 * NULL (cnt 0) if none or malformed. */
gres_spec_t *job_res_parse_other(const char *gres, size_t *cnt);
int      job_res_parse_per_gpu(const char *spec, uint64_t *v);
/* A request spelled as TRES ("gpu:2" -> "gres/gpu:2"); NULL stays NULL. */
char    *job_res_tres_spec(const char *spec);
/* Nodes whose active features satisfy expr (a new bitmap). */
bitmap_t *job_res_feature_nodes(const char *expr);

/* Detail of the select request of a pending job (after the counts). */
void     job_res_fill_req(job_record_t *j, select_req_t *r);
/* Place j in the first of its partitions where it fits on usable nodes of
 * view (-x applied).  On success j->part is that partition.  Returns a
 * select_rc. */
int      job_res_select(job_record_t *j, const select_node_t *view,
			size_t node_cnt, const bitmap_t *usable,
			bool ignore_alloc, select_result_t *res);
/* How many jobs may share each CPU j takes in part: N of
 * OverSubscribe=FORCE:N (YES:N if j asked --oversubscribe), else 1. */
uint16_t job_res_share_max(const job_record_t *j, const part_record_t *part);
/* Partitions of j from info.partition ("a,b"); j->part = the first. */
void     job_res_attach_parts(job_record_t *j);
/* The job runs in part: its list shrinks to it. */
void     job_res_set_part(job_record_t *j, part_record_t *part);

/* Keep res's CPU ids and GPUs on j, hold them on the nodes, and describe
 * the allocation (TRES, detail lines). */
void     job_res_start(job_record_t *j, const select_result_t *res);
/* Take (on) or give back j's CPU ids / GPUs on its k-th node n. */
void     job_res_hold_node(job_record_t *j, uint32_t k, node_record_t *n,
			   bool on);
/* tres_alloc_str, alloc_detail and gres_alloc from the held resources. */
void     job_res_describe(job_record_t *j);
/* ",gres/gpu=N" part of a TRES string for the request (0 = none). */
uint32_t job_res_gpus_requested(job_record_t *j);
void     job_res_free(job_record_t *j);

/* Saved job records (job_rec.c): what allocated node k holds (ids
 * xfree'd by the caller), and back (n NULL = node no longer configured:
 * dropped). */
void     job_res_saved_node(const job_record_t *j, uint32_t k, char **ids,
			    uint64_t *gpus, char **gres);
void     job_res_restore_node(job_record_t *j, uint32_t cnt, uint32_t k,
			      const node_record_t *n, const char *ids,
			      uint64_t gpus, const char *gres);

#endif
