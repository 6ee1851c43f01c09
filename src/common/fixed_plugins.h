/* fixed_plugins.h — plugin types Sluice implements one way only.
 *
 *   SwitchType=switch/none            no interconnect switch plugin
 *   JobContainerType=job_container/none  jobs share the node's /tmp
 *                    job_container/tmpfs a private /tmp, /dev/shm per job
 *                                     (slurmd/common/job_container.h)
 *   CredType=cred/munge               step credentials are MUNGE-signed
 *                                     by the controller (step_cred.h);
 *                                     cred/none is not built
 *   LaunchType=launch/slurm           srun launches through slurmd
 *
 * Each is a type with one built-in whose ops table is empty (version 1):
 * the behaviour is the daemons' own and a .so cannot replace it, so a
 * dlopen'd plugin of these types is refused (it would be loaded and never
 * called).  They exist so that a slurm.conf naming anything else (e.g.
 * switch/hpe_slingshot) stops the daemon with Slurm's
 * "cannot create <type> context for <type>/<name>" instead of being
 * ignored.  The daemons that read each key check it at start and
 * reconfigure: slurmctld (switch, cred), slurmd (all four), srun (launch).
 */
#ifndef SLUICE_FIXED_PLUGINS_H
#define SLUICE_FIXED_PLUGINS_H

#include <stdbool.h>
#include <stddef.h>

#include "common/conf.h"
#include "common/plugin_ctx.h"

#define FIXED_OPS_VERSION 1

typedef struct {
	int job_container_tmpfs;   /* job_container/tmpfs */
} fixed_ops_t;

extern const plugin_type_t switch_type;
extern const plugin_type_t job_container_type;
extern const plugin_type_t cred_type;
extern const plugin_type_t launch_type;

/* plugin_ctx_check() that also refuses a name resolving to a .so:
 * 0, or -1 with err. */
int fixed_plugin_check(const plugin_type_t *t, const char *names,
		       const char *plugin_dir, const char *where, char *err,
		       size_t errlen);
/* c's SwitchType and CredType, and with node its JobContainerType:
 * 0, or -1 with err. */
int fixed_plugins_check(const slurm_conf_t *c, bool node, char *err,
			size_t errlen);

/* Is c's JobContainerType job_container/tmpfs? */
bool fixed_job_container_tmpfs(const slurm_conf_t *c);

#endif
