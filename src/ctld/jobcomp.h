/* jobcomp.h — JobCompType: a record of every job as it ends.
 *
 * One plugin, jobcomp/<name>: "none" (the default) loads nothing;
 * "filetxt" appends a line per job to JobCompLoc; "script" runs the
 * program JobCompLoc with the job in its environment.  Called on the
 * controller's loop when a job reaches its final state.
 */
#ifndef SLUICE_CTLD_JOBCOMP_H
#define SLUICE_CTLD_JOBCOMP_H

#include <stddef.h>

#include "common/conf.h"
#include "common/job_info.h"
#include "common/plugin_ctx.h"

#define JOBCOMP_OPS_VERSION 1

typedef struct {
	/* conf is valid until fini; 0, or -1 with err. */
	int  (*init)(const slurm_conf_t *conf, char *err, size_t errlen);
	void (*fini)(void);
	/* The job ended (state, times, exit code final).  Must not block for
	 * long: slow work belongs on the plugin's own thread. */
	void (*job_end)(const job_info_t *job);
} jobcomp_ops_t;

/* The type, with jobcomp/none built in (for reconfigure checks). */
extern const plugin_type_t jobcomp_plugin_type;

/* Load conf->job_comp_type (fatal at start if it fails; at reconfigure
 * the old one stays).  0, or -1 with err. */
int  jobcomp_init(const slurm_conf_t *conf, char *err, size_t errlen);
void jobcomp_fini(void);
void jobcomp_job_end(const job_info_t *job);

#endif
