/* job_submit_plugin.h — JobSubmitPlugins: site code that sees (and may
 * change or refuse) every job submission and update.
 *
 * slurm.conf names a comma-separated list, e.g. "lua,require_timelimit";
 * each is resolved as job_submit/<name> (built in: all_partitions,
 * defaults, logging, require_timelimit, throttle (job_submit_stock.h);
 * else PluginDir/job_submit_<name>.so, e.g. lua) and called in that
 * order.  A plugin exports ops of this type (see common/plugin.h) with
 * .ops_version = JOB_SUBMIT_OPS_VERSION.  Everything the ops see is a
 * versioned view: the request (common/job_submit_view.h), the job as it
 * is (common/job_view.h, modify) and the partitions
 * (common/part_view.h).  slurmctld also serves the ops before
 * (JOB_SUBMIT_OPS_OLDEST..JOB_SUBMIT_OPS_VERSION - 1, through frozen
 * copies: ops 1 and 2 took job_info_t and part_info_t, ops 1 view 1 of
 * the request) and refuses any other at load, naming both versions.
 *
 * Ops versions:
 *   1  request view 1, job_info_t, part_info_t array
 *   2  request view 2, job_info_t, part_info_t array
 *   3  request view 2, job_view_t (modify), part_view_t pointers
 *
 * Threads: every op runs on the controller's loop thread and must not
 * block (no network, no waiting on a file system that may hang): slow
 * work belongs on a thread the plugin owns.  desc, job and parts are
 * valid only during the call.
 */
#ifndef SLUICE_CTLD_JOB_SUBMIT_PLUGIN_H
#define SLUICE_CTLD_JOB_SUBMIT_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#include "common/conf.h"
#include "common/job_info.h"
#include "common/job_submit_view.h"
#include "common/job_view.h"
#include "common/part_view.h"
#include "common/plugin_ctx.h"

#define JOB_SUBMIT_OPS_VERSION 3
#define JOB_SUBMIT_OPS_OLDEST  1    /* still served */

typedef struct {
	/* Once at load (and again at reconfigure); 0, or -1 with err. */
	int  (*init)(const slurm_conf_t *conf, char *err, size_t errlen);
	void (*fini)(void);
	/* A new job: desc may be changed.  Returns 0 or an error code (the
	 * submission is refused); *user_msg (xmalloc'd, may be set either
	 * way) is shown to the submitting user. */
	int  (*submit)(job_submit_view_t *desc,
		       const part_view_t *const *parts, size_t part_cnt,
		       uint32_t submit_uid, char **user_msg);
	/* An update of an existing job: desc holds the fields being changed
	 * (unset ones at NO_VAL / NULL) and may be changed; job is the job as
	 * it is (read-only).  Same return convention. */
	int  (*modify)(job_submit_view_t *desc, const job_view_t *job,
		       const part_view_t *const *parts, size_t part_cnt,
		       uint32_t modify_uid, char **user_msg);
} job_submit_ops_t;

/* The type (built-ins and the .so search), for reconfigure checks. */
extern const plugin_type_t job_submit_plugin_type;

/* Load the plugins named by conf->job_submit_plugins (none: nothing).
 * 0, or -1 with a message in err (at start that is fatal; at
 * reconfigure the old plugins stay). */
int  job_submit_plugin_init(const slurm_conf_t *conf, char *err, size_t errlen);
void job_submit_plugin_fini(void);
/* Run every plugin's submit / modify in order, each on the view of its
 * version (filled from desc, taken back into it); the first error stops
 * the chain.  Messages of all plugins are joined with newlines.
 * client_version: the request's protocol version (the view shows it). */
int  job_submit_plugin_submit(job_desc_t *desc, uint32_t uid,
			      uint16_t client_version, char **user_msg);
int  job_submit_plugin_modify(job_desc_t *desc, const job_info_t *job,
			      uint32_t uid, uint16_t client_version,
			      char **user_msg);

#endif
