/* oci.h — --container=BUNDLE: a task run through the OCI runtime of
 * oci.conf (oci_conf.h), as Slurm 25.05's slurmstepd does.
 *
 * Before forking the task, as root, oci_task_prepare() reads oci.conf
 * beside slurm.conf, checks the bundle (absolute, no "..", a config.json
 * and its rootfs) and writes the task's own bundle directory
 * (ContainerPath, else <spool>/oci-job<J>-<S>/task-<T>, owned by the
 * user): a config.json copied from the bundle's with process.args (the
 * task's command; a batch script is copied in and mounted read-only at
 * MountSpoolDir), process.env (the job's environment less EnvExclude),
 * process.user (the job's uid/gid), process.terminal false, root.path
 * made absolute and the DisableHooks hooks taken out; and with
 * CreateEnvFile the environment file (%e).
 *
 * In the task's child, once it is the user with its stdio in place,
 * oci_task_exec() runs RunTimeRun through /bin/sh (environment less
 * RunTimeEnvExclude) and waits for it, or RunTimeCreate then
 * RunTimeStart and then, as a child subreaper, the container's process
 * the runtime left behind: a signal it receives runs RunTimeKill (the
 * runtime gets the signal through the process group too), and once the
 * container has ended RunTimeDelete; it exits with the container's
 * status.  oci_cleanup() at the stepd's end runs a create/start task's
 * RunTimeDelete again as the user (a task SIGKILLed after KillWait did
 * not) and removes the task directories unless DisableCleanup.
 */
#ifndef SLUICE_STEPD_OCI_H
#define SLUICE_STEPD_OCI_H

#include <stdint.h>

#include "common/conf.h"

typedef struct {
	const slurm_conf_t *conf;
	const char *node_name;
	const char *spool_dir;
	const char *bundle;        /* --container */
	uint32_t    job_id;
	uint32_t    step_id;       /* SLURM_BATCH_SCRIPT for the script */
	uint32_t    task_id;
	uint32_t    uid, gid;
	const char *user_name;
	char *const *argv;         /* the task's command (host view) */
	char *const *env;          /* its environment */
	const char *script;        /* batch: the script file to mount */
} oci_req_t;

typedef struct oci_task oci_task_t;

/* NULL with *rc (ESLURMD_CONTAINER_RUNTIME_INVALID, ...) and the reason
 * logged, or the prepared task. */
oci_task_t *oci_task_prepare(const oci_req_t *r, int *rc);
/* In the child, as the user; never returns. */
void oci_task_exec(const oci_task_t *t, char *const *env);
/* In the parent once forked: the memory (the directory stays). */
void oci_task_free(oci_task_t *t);
/* At the stepd's end: the task directories made here go (unless
 * DisableCleanup). */
void oci_cleanup(void);

#endif
