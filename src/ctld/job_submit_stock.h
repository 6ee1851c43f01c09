/* job_submit_stock.h — the small job_submit plugins Slurm ships, built
 * into slurmctld (JobSubmitPlugins=all_partitions,defaults,logging,
 * require_timelimit,throttle), rows of job_submit_plugin.c's built-ins.
 *
 *   all_partitions     a job that names no partition gets every partition
 *                      that accepts submissions (UP or DOWN; not DRAIN or
 *                      INACTIVE), in slurm.conf order
 *   defaults           Slurm's template: changes nothing
 *   logging            logs each submission and update (info level)
 *   require_timelimit  refuses a job without --time (Slurm's "Time limit
 *                      specification required, but not provided") and a
 *                      time limit of UNLIMITED, at submit and at update
 *   throttle           SchedulerParameters=jobs_per_user_per_hour=N: a
 *                      user's count of recent submissions drains by N an
 *                      hour; at N a submission is refused ("Reached jobs
 *                      per hour limit")
 */
#ifndef SLUICE_CTLD_JOB_SUBMIT_STOCK_H
#define SLUICE_CTLD_JOB_SUBMIT_STOCK_H

#include <stdint.h>
#include <time.h>

#include "common/plugin.h"

extern const struct sluice_plugin job_submit_all_partitions_plugin;
extern const struct sluice_plugin job_submit_defaults_plugin;
extern const struct sluice_plugin job_submit_logging_plugin;
extern const struct sluice_plugin job_submit_require_timelimit_plugin;
extern const struct sluice_plugin job_submit_throttle_plugin;

/* throttle's arithmetic, for unit tests: a count drained from its last
 * drain at `last` to now at limit per hour (whole minutes only). */
uint32_t job_submit_throttle_drain(uint32_t count, uint32_t limit,
				   time_t *last, time_t now);

#endif
