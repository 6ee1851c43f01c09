/* cli_alloc.h — an allocation without a batch script, for srun (when
 * not inside one) and salloc: request it, wait until it runs (printing
 * Slurm's "job N queued and waiting for resources" lines), describe it in
 * the environment, release it. */
#ifndef SLUICE_CLI_ALLOC_H
#define SLUICE_CLI_ALLOC_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/cli_opt.h"
#include "common/job_info.h"

/* Request the allocation for the n components o[0..n) (name defaults to
 * name_default): one job (REQUEST_RESOURCE_ALLOCATION) when n is 1, else
 * one heterogeneous job (REQUEST_HET_JOB_ALLOCATION: all or none), whose
 * leader's id is *job_id, the allocation to wait on and release.  On
 * error prints Slurm's "Unable to allocate resources: ..." (salloc's own
 * words where they differ) and returns -1. */
int  cli_alloc_request(cli_job_opts_t *o, size_t n, const char *name_default,
		       bool salloc, uint32_t *job_id);
/* --test-only: ask when and where the job would start, print Slurm's
 * "Job N to start at T using K processors on nodes L in partition P"
 * and exit 0 (or its error, exit 1); nothing is created.  name_default
 * NULL: the request is filled already (sbatch). */
void cli_alloc_test_only(cli_job_opts_t *o, const char *name_default)
	__attribute__((noreturn));
/* --hold: say the job waits for a release, as Slurm's srun and salloc
 * do; with --immediate give up at once with their error (the job is
 * cancelled): -1. */
int  cli_alloc_held(const cli_job_opts_t *o, uint32_t job_id, bool salloc);
/* Wait for the job to run; fills *info (job_info_free_members).
 * immediate: -1 wait as long as it takes; 0 (a bare --immediate) give up
 * (and cancel) if it does not run at once; N: after N seconds.  A
 * SIGINT while waiting cancels the job.  say_pending (salloc) also prints
 * "Pending job allocation N" when it has to wait.  0 or -1 (message
 * printed). */
int  cli_alloc_wait(uint32_t job_id, bool quiet, int immediate,
		    bool say_pending, job_info_t *info);
/* After cli_alloc_wait: while the nodes' Prolog runs (PrologFlags=Alloc
 * without NoHold: Reason=Prolog) wait for it, saying so as Slurm's
 * salloc does unless quiet; *info is refreshed.  0 or -1 (revoked). */
int  cli_alloc_wait_prolog(uint32_t job_id, bool quiet, job_info_t *info);
/* The SLURM_JOB_* variables of an allocation, set in *env. */
void cli_alloc_env(char ***env, const job_info_t *j,
		   const cli_job_opts_t *o);
/* A running het allocation: SLURM_HET_SIZE and each component's
 * variables (as cli_alloc_env, options o[g]) as *_HET_GROUP_<g>.  0, or
 * -1 when its components cannot be read. */
int  cli_alloc_env_het(char ***env, uint32_t leader,
		       const cli_job_opts_t *o, size_t n);
/* Release: REQUEST_COMPLETE_JOB_ALLOCATION with a wait-style status. */
void cli_alloc_release(uint32_t job_id, uint32_t status);

#endif
