/* conf_files.h — configless: the configuration files as one message.
 *
 * The controller collects slurm.conf, the files it Includes and the
 * other configuration files beside it that exist (gres.conf,
 * cgroup.conf, plugstack.conf, topology.conf, job_container.conf,
 * oci.conf, acct_gather.conf, ...) into a config_files_msg_t, once per
 * (re)configure.  slurmd --conf-server and the commands with
 * SLURM_CONF_SERVER fetch it (REQUEST_CONFIG) from the first server that
 * answers, or from the hosts of the DNS SRV record _slurmctld._tcp, and
 * write it into a cache directory (SlurmdSpoolDir/conf-cache) file by
 * file, each through a temporary file and rename.  Who frees: the caller,
 * with conf_files_free().
 */
#ifndef SLUICE_CONF_FILES_H
#define SLUICE_CONF_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "common/conf.h"
#include "common/msg_types.h"

/* The files c was read from plus its existing sibling files; NULL with
 * err when slurm.conf or an Include cannot be read. */
config_files_msg_t *conf_files_collect(const slurm_conf_t *c, char *err,
				       size_t errlen);
void                conf_files_free(config_files_msg_t *m);
config_files_msg_t *conf_files_copy(const config_files_msg_t *m);
size_t              conf_files_count(const config_files_msg_t *m);
/* A files message is sane: names and texts as long as each other, each
 * name a plain file name (no '/', not "." or ".."), slurm.conf among
 * them.  0, or -1 with err. */
int                 conf_files_check(const config_files_msg_t *m, char *err,
				     size_t errlen);
/* Write m's files into dir (created 0755 if missing), atomically file by
 * file.  0, or -1 with err (nothing half-written is left under a file's
 * name). */
int                 conf_files_write(const config_files_msg_t *m,
				     const char *dir, char *err,
				     size_t errlen);

/* "host[:port][,host2[:port]]" -> REQUEST_CONFIG to each in turn
 * (port default 6817).  *m on success (0); else the last error (a
 * slurm_err_t, e.g. ESLURM_CONFIGLESS_DISABLED or a connection error)
 * with err. */
int                 conf_files_fetch(const char *servers, uint32_t flags,
				     const char *node_name,
				     config_files_msg_t **m, char *err,
				     size_t errlen);

/* The same for a sackd, which also registers (REQUEST_SACKD_REGISTER)
 * to be sent the files at each reconfigure on port. */
int                 conf_files_register(const char *servers, uint16_t port,
					config_files_msg_t **m, char *err,
					size_t errlen);

/* DNS SRV _slurmctld._tcp: the servers of the answer ("host:port,..."
 * by priority then weight, caller frees), NULL when there is none. */
char               *conf_files_srv_lookup(void);
/* The parser behind it, over a raw DNS answer (exposed for tests and the
 * fuzzer): NULL if the answer is malformed or has no SRV record. */
char               *conf_files_srv_parse(const unsigned char *ans,
					 size_t len);

#endif
