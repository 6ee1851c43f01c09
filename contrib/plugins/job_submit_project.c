/* job_submit_project.c — an example JobSubmitPlugins plugin built outside
 * Sluice's tree (see Makefile and doc/plugins.md).
 *
 *     JobSubmitPlugins=project
 *
 * Every job must say which project it is for, as its comment
 * (sbatch --comment=<project>); a job without one is refused with a
 * message the user's sbatch prints.  An update may change the comment
 * but not clear it.
 */
#include <string.h>

#include "ctld/job_submit_plugin.h"
#include "common/log.h"
#include "common/xstring.h"
#include <slurm/slurm_errno.h>

#define HINT "Please say which project this job is for: " \
	"sbatch --comment=<project> ..."

static int project_submit(job_submit_view_t *desc, const part_view_t *const *parts,
			  size_t part_cnt, uint32_t submit_uid,
			  char **user_msg)
{
	if (desc->comment && *desc->comment)
		return SLURM_SUCCESS;
	info("job_submit/project: refused a job of uid %u: no project",
	     submit_uid);
	*user_msg = xstrdup(HINT);   /* freed by slurmctld: xmalloc'd */
	return ESLURM_INVALID_ACCOUNT;
}

static int project_modify(job_submit_view_t *desc, const job_view_t *job,
			  const part_view_t *const *parts, size_t part_cnt,
			  uint32_t modify_uid, char **user_msg)
{
	if (!desc->comment || *desc->comment)
		return SLURM_SUCCESS;      /* unchanged, or a new project */
	*user_msg = xstrdup(HINT);
	return ESLURM_INVALID_ACCOUNT;
}

static const job_submit_ops_t ops = {
	.submit = project_submit,
	.modify = project_modify,
};

const struct sluice_plugin sluice_plugin = {
	.type = "job_submit",
	.name = "project",
	.abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = JOB_SUBMIT_OPS_VERSION,
	.ops = &ops,
};
