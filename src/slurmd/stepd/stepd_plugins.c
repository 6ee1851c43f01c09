/* stepd_plugins.c — see stepd_plugins.h. */
#include "slurmd/stepd/stepd_plugins.h"

#include "slurmd/stepd/proctrack.h"
#include "slurmd/stepd/step_acct.h"
#include "slurmd/stepd/task_plugin.h"

int stepd_plugins_init(const slurm_conf_t *conf)
{
	if (proctrack_init(conf) < 0 || task_plugin_init(conf) < 0 ||
	    step_acct_init(conf) < 0)
		return -1;
	return 0;
}
