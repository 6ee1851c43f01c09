/* jobcomp.h — JobCompType: a record of every job as it ends.
 *
 * One plugin, jobcomp/<name>: "none" (the default) loads nothing;
 * "filetxt" appends a line per job to JobCompLoc; "script" runs the
 * program JobCompLoc with the job in its environment.  Called on the
 * controller's loop when a job reaches its final state.
 *
 * Ops version 2 (this header) hands the plugin a job view
 * (common/job_view.h, view 1); slurmctld also serves ops version 1,
 * whose job_end took the wire's job_info_t (tests/fixtures/
 * plugin_ops_v1/ctld/jobcomp.h), and refuses any other at load.
 */
#ifndef SLUICE_CTLD_JOBCOMP_H
#define SLUICE_CTLD_JOBCOMP_H

#include <stddef.h>

#include "common/conf.h"
#include "common/job_info.h"
#include "common/job_view.h"
#include "common/plugin_ctx.h"

#define JOBCOMP_OPS_VERSION 2
/* the oldest ops version slurmctld still serves */
#define JOBCOMP_OPS_OLDEST 1

typedef struct {
	/* conf is valid until fini; 0, or -1 with err. */
	int  (*init)(const slurm_conf_t *conf, char *err, size_t errlen);
	void (*fini)(void);
	/* The job ended (state, times, exit code final).  Must not block for
	 * long: slow work belongs on the plugin's own thread. */
	void (*job_end)(const job_view_t *job);
} jobcomp_ops_t;

/* The type, with jobcomp/none built in (for reconfigure checks). */
extern const plugin_type_t jobcomp_plugin_type;

/* Load conf->job_comp_type (fatal at start if it fails; at reconfigure
 * the old one stays).  0, or -1 with err. */
int  jobcomp_init(const slurm_conf_t *conf, char *err, size_t errlen);
void jobcomp_fini(void);
void jobcomp_job_end(const job_info_t *job);

#endif
