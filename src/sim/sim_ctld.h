/* sim_ctld.h — what stands in for the controller's loop (controller.c),
 * its RPC agent (agent.c) and its job script store (job_files.c) inside
 * sluice-sim: the controller's other modules run unchanged on top.
 *
 * No message leaves: a batch launch is answered at once as accepted and
 * noted (the job started), a terminate is noted (the job's nodes are to
 * confirm its end); the simulator takes both lists after each step.
 * Scripts are not kept: every job's script is a one-line stand-in.
 */
#ifndef SLUICE_SIM_CTLD_H
#define SLUICE_SIM_CTLD_H

#include <stddef.h>
#include <stdint.h>

#include "common/conf.h"

/* The configuration the controller's modules see (ctld_conf()). */
void      sim_ctld_set_conf(const slurm_conf_t *c);
/* Jobs whose batch launch was sent since the last call (caller frees);
 * their launches are answered as accepted first. */
uint32_t *sim_ctld_take_launched(size_t *cnt);
/* Jobs told to terminate since the last call (caller frees). */
uint32_t *sim_ctld_take_terminated(size_t *cnt);
/* The trace's users and groups: the controller's name lookups
 * (uid_cache_name, gid_cache_name; linked with --wrap) answer these
 * from here instead of asking NSS for every submission, and know the
 * users a trace names that have no account on this host; a user's
 * groups (getgrouplist, asked at every launch) come from NSS once. */
void      sim_ctld_add_user(uint32_t uid, const char *name);
void      sim_ctld_add_group(uint32_t gid);
void      sim_ctld_forget_users(void);
/* Messages the controller would have sent to slurmd's. */
uint64_t  sim_ctld_messages(void);

#endif
