/* node_plugins.c — see node_plugins.h. */
#include "slurmd/common/node_plugins.h"

#include <string.h>

#include <stddef.h>

#include "common/acct_gather_energy.h"
#include "common/cgroup_conf.h"
#include "common/comm_params.h"
#include "common/fixed_plugins.h"
#include "common/log.h"
#include "common/mpi_plugin.h"
#include "common/oci_conf.h"
#include "common/prep.h"
#include "common/xmalloc.h"
#include "slurmd/common/job_container.h"
#include "slurmd/stepd/proctrack.h"
#include "slurmd/stepd/step_acct.h"
#include "slurmd/stepd/task_plugin.h"

#ifdef SLUICE_STEPD
/* the descriptors of stepd/proctrack.c, task_plugin.c, step_acct*.c */
#define DECLARE(t, n) extern const struct sluice_plugin t##_##n##_plugin;
NODE_PROCTRACK_BUILTINS(DECLARE)
NODE_TASK_BUILTINS(DECLARE)
NODE_JOBACCT_GATHER_BUILTINS(DECLARE)
#define REF(t, n) &t##_##n##_plugin,
#else
/* slurmd: the same names; the ops are slurmstepd's */
static const int stepd_ops;
#define OPSV_proctrack PROCTRACK_OPS_VERSION
#define OPSV_task TASK_OPS_VERSION
#define OPSV_jobacct_gather JOBACCT_GATHER_OPS_VERSION
#define REF(t, n) &(const struct sluice_plugin) { \
	.type = #t, .name = #n, .abi_version = SLUICE_PLUGIN_ABI, \
	.ops_version = OPSV_##t, .ops = &stepd_ops },
#endif

static const struct sluice_plugin *const proctrack_builtins[] = {
	NODE_PROCTRACK_BUILTINS(REF) NULL };
static const struct sluice_plugin *const task_builtins[] = {
	NODE_TASK_BUILTINS(REF) NULL };
static const struct sluice_plugin *const jobacct_gather_builtins[] = {
	NODE_JOBACCT_GATHER_BUILTINS(REF) NULL };

const plugin_type_t proctrack_type = {
	.type = "proctrack", .key = "ProctrackType",
	.ops_version = PROCTRACK_OPS_VERSION, .builtins = proctrack_builtins,
};
const plugin_type_t task_type = {
	.type = "task", .key = "TaskPlugin", .ops_version = TASK_OPS_VERSION,
	.list = true, .builtins = task_builtins,
};
const plugin_type_t jobacct_gather_type = {
	.type = "jobacct_gather", .key = "JobAcctGatherType",
	.ops_version = JOBACCT_GATHER_OPS_VERSION,
	.builtins = jobacct_gather_builtins,
};

typedef struct {
	const plugin_type_t *type;
	size_t               off;      /* the value in slurm_conf_t */
	const char          *def;      /* when the value is empty */
} node_plugin_row_t;

#define ROW(t, field, d) { &(t), offsetof(slurm_conf_t, field), d }

static const node_plugin_row_t rows[] = {
	ROW(proctrack_type, proctrack_type, "proctrack/cgroup"),
	ROW(task_type, task_plugin, "task/none"),
	ROW(jobacct_gather_type, job_acct_gather_type, "jobacct_gather/none"),
	ROW(acct_gather_energy_type, acct_gather_energy_type,
	    "acct_gather_energy/none"),
	ROW(mpi_type, mpi_default, "none"),
	ROW(prep_type, prep_plugins, NULL),
};

/* The cgroup plugins' settings: a cgroup.conf beside slurm.conf that does
 * not parse would leave every step without its limits. */
static int cgroup_conf_check(const slurm_conf_t *c, char *err, size_t errlen)
{
	char *path = conf_sibling_path(c, "cgroup.conf");
	cgroup_conf_t cc;
	int rc = cgroup_conf_load(path, &cc, err, errlen);

	cgroup_conf_free(&cc);          /* defaults are set on failure too */
	xfree(path);
	return rc;
}

/* --container: an oci.conf beside slurm.conf (if there) must parse;
 * without it --container jobs are refused. */
static int oci_conf_check(const slurm_conf_t *c, char *err, size_t errlen)
{
	char *path = conf_sibling_path(c, "oci.conf");
	oci_conf_t oc;
	int rc = 0;

	if (oci_conf_present(path)) {
		rc = oci_conf_load(path, &oc, err, errlen);
		if (!rc)
			oci_conf_free(&oc);
	}
	xfree(path);
	return rc;
}

static void log_oci_notes(const slurm_conf_t *c)
{
	char *path = conf_sibling_path(c, "oci.conf"), err[512], *save = NULL;
	oci_conf_t oc;

	if (oci_conf_present(path) &&
	    oci_conf_load(path, &oc, err, sizeof(err)) == 0) {
		for (char *l = oc.notes ? strtok_r(oc.notes, "\n", &save) : NULL;
		     l; l = strtok_r(NULL, "\n", &save))
			info("warning: %s", l);
		oci_conf_free(&oc);
	}
	xfree(path);
}

void node_plugins_log_notes(const slurm_conf_t *c)
{
	char *path = conf_sibling_path(c, "cgroup.conf"), err[512];
	cgroup_conf_t cc;

	log_oci_notes(c);
	/* the virtual size is checked with the resident one, by
	 * OverMemoryKill's sampling: alone, VSizeFactor limits nothing */
	if (c->vsize_factor &&
	    !(jag_params_parse(c->jag_params) & JAG_PARAM_OVER_MEMORY_KILL))
		info("warning: VSizeFactor=%u has no effect without "
		     "JobAcctGatherParams=OverMemoryKill",
		     (unsigned) c->vsize_factor);
	if (cgroup_conf_load(path, &cc, err, sizeof(err)) == 0 && cc.notes) {
		char *save = NULL;

		for (char *l = strtok_r(cc.notes, "\n", &save); l;
		     l = strtok_r(NULL, "\n", &save))
			info("warning: %s", l);
	}
	cgroup_conf_free(&cc);
	xfree(path);
}

int node_plugins_check(const slurm_conf_t *c, char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const node_plugin_row_t *r = &rows[i];
		const char *v = *(const char *const *) ((const char *) c +
							r->off);

		if (!v || !*v)
			v = r->def;
		if (plugin_ctx_check(r->type, v, c->plugin_dir, NULL, err,
				     errlen) < 0)
			return -1;
	}
	/* SwitchType, CredType, JobContainerType */
	if (fixed_plugins_check(c, true, err, errlen) < 0)
		return -1;
	/* job_container/tmpfs: job_container.conf, every line */
	if (job_container_check(c, NULL, err, errlen) < 0 ||
	    oci_conf_check(c, err, errlen) < 0)
		return -1;
	return cgroup_conf_check(c, err, errlen);
}
