/* job_validate.h — is a job request one this controller accepts, and
 * what it asks for once defaults are applied: the partition (or the
 * usable ones of -p a,b), node and task counts, CPUs, memory, GPUs and
 * other GRES, features, licenses, container, times, account and QOS
 * (filled in the request), wckey and reservation.  The submit RPC
 * (job_submit.c) builds the record from the submit_t this fills.
 *
 * Runs on the controller's loop; reads the node, partition, association
 * and reservation tables, changes none of them.
 */
#ifndef SLUICE_CTLD_JOB_VALIDATE_H
#define SLUICE_CTLD_JOB_VALIDATE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/gres.h"
#include "common/job_info.h"
#include "common/msg.h"
#include "ctld/part_mgr.h"

typedef struct {
	uid_t          uid;
	gid_t          gid;
	part_record_t *part;
	uint32_t       min_nodes;
	uint32_t       max_nodes;     /* 0 = no limit */
	uint32_t       num_tasks;
	uint16_t       cpt;
	uint16_t       ntpn;          /* 0 = none */
	uint64_t       mem;           /* MB, 0 = none */
	bool           mem_per_cpu;
	bool           exclusive;
	uint32_t       time_limit;
	char          *msg;           /* text for the user */
	char          *parts;         /* usable partitions of -p, "a,b" */
	uint16_t       gpn, gpt;      /* GPUs per node, per task */
	uint32_t       gpj;           /* GPUs per job */
	char          *gpu_type;
	gres_spec_t   *gres;          /* --gres names other than gpu */
	size_t         gres_cnt;
	bool           fixed_prio;    /* an operator's --priority */
	bool           overcommit;    /* -O: sized as a task per node */
} submit_t;

/* 0 with *s filled, or a Slurm error code (s->msg may then say why, for
 * the user).  The request's account, QOS and wckey may be filled in with
 * the user's defaults.  batch: sbatch's request (a script is required). */
int      job_validate(const job_desc_t *d, const slurm_msg_t *m, submit_t *s,
		      bool batch);
/* The tasks the job's CPUs are counted for (with -O, one per node). */
uint32_t job_validate_alloc_tasks(const submit_t *s);
/* --container=BUNDLE of a job or step: ESLURMD_CONTAINER_RUNTIME_INVALID
 * without oci.conf, EINVAL for a path not absolute or with "..". */
int      job_validate_container(const char *bundle);
/* Frees what job_validate() allocated in *s, except s->msg. */
void     job_validate_free(submit_t *s);

#endif
