/* script.h — the site's Prolog and Epilog (slurm.conf Prolog=, Epilog=),
 * run as root on the node with the job's identity in SLURM_* variables.
 *
 * A non-zero exit of the Prolog fails the launch (ESLURMD_PROLOG_FAILED);
 * the Epilog's wait status goes to the controller in
 * MESSAGE_EPILOG_COMPLETE.rc.  Their output is discarded.
 */
#ifndef SLUICE_SLURMD_SCRIPT_H
#define SLUICE_SLURMD_SCRIPT_H

#include <stdint.h>
#include <sys/types.h>

typedef struct {
	const char *context;     /* "prolog_slurmd", "epilog_slurmd", or
				  * "health_check" (no job) */
	uint32_t    job_id;      /* NO_VAL32: none */
	uint32_t    uid;         /* NO_VAL32 when not known */
	uint32_t    gid;
	const char *user_name;   /* NULL when not known */
	const char *partition;
	const char *account;
	const char *nodes;
	const char *node_name;
	const char *cluster_name;
	const char *conf_path;
} script_info_t;

/* Start path with the environment for info; pid, or -1 (logged). */
pid_t script_spawn(const char *path, const script_info_t *info);
/* A wait status as a return code: the exit code, 128+signal if killed. */
int   script_exit_rc(int status);

#endif
