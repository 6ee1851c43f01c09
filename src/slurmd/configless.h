/* configless.h — slurmd with no slurm.conf on disk (Slurm's "configless").
 *
 * slurmd --conf-server host[:port][,host2] (or, when neither that nor -f
 * is given and there is no slurm.conf at the default path, the DNS SRV
 * record _slurmctld._tcp) fetches slurm.conf and the files beside it from
 * the controller, retrying every 10 s until one answers, and writes them
 * to SlurmdSpoolDir/conf-cache, which it then reads as its slurm.conf.
 * scontrol reconfigure sends fresh files (REQUEST_RECONFIGURE_WITH_CONFIG)
 * that replace the cache before slurmd reads it again.
 */
#ifndef SLUICE_SLURMD_CONFIGLESS_H
#define SLUICE_SLURMD_CONFIGLESS_H

#include <stddef.h>

#include "common/msg_types.h"

#define CONFIGLESS_RETRY_SEC 10

/* The servers to fetch from: opt (--conf-server), else the DNS SRV
 * answer when conf_file is NULL, SLURM_CONF is unset and the default
 * slurm.conf does not exist; NULL: read slurm.conf from disk.  xfree. */
char *configless_servers(const char *opt, const char *conf_file);
/* Fetch the files from servers (as node_name, or the node whose
 * NodeHostname is host), retrying every CONFIGLESS_RETRY_SEC until one
 * answers, write them into the node's SlurmdSpoolDir/conf-cache and
 * return that directory (xfree); exits when the files are unusable.
 * authinfo: AuthInfo for MUNGE before slurm.conf is known (--authinfo). */
char *configless_establish(const char *servers, const char *authinfo,
			   const char *node_name, const char *host);
/* New files from the controller into the cache dir: 0, or -1 with err
 * (the cache is as it was). */
int   configless_update(const char *dir, const config_files_msg_t *m,
			char *err, size_t errlen);

#endif
