/* oci_conf.h — oci.conf: how slurmstepd runs a --container job's tasks
 * through an OCI runtime (Slurm 25.05's keys).
 *
 * One "Key=Value" per line ('#' comments outside double quotes, keys
 * case-insensitive, a value may be "quoted" to hold blanks).  An unknown
 * key, a bad value or a missing required key is an error naming the file
 * and line; nothing is returned then.  Its presence beside slurm.conf is
 * what turns --container on (oci_conf_present()).
 *
 * Runtime command patterns (RunTime*) and ContainerPath take the "OCI
 * pattern" replacements: %% %@ (the task's argv, each argument single-
 * quoted) %b (the task's generated bundle) %e (its environment file)
 * %j %m (MountSpoolDir) %n (node) %r (the original rootfs) %s %t %U
 * (uid) %u (user name).
 */
#ifndef SLUICE_OCI_CONF_H
#define SLUICE_OCI_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
	OCI_ENV_FILE_DISABLED = 0,
	OCI_ENV_FILE_NULL,        /* each variable ends with '\0' */
	OCI_ENV_FILE_NEWLINE,     /* one per line (variables with '\n'
				   * are left out) */
} oci_env_file_t;

#define OCI_DEFAULT_MOUNT_SPOOL "/var/run/slurm/"

typedef struct {
	char          *container_path;   /* ContainerPath pattern, or NULL */
	oci_env_file_t create_env_file;  /* CreateEnvFile */
	char          *debug_flags;      /* DebugFlags (scrun only) */
	bool           disable_cleanup;  /* DisableCleanup */
	char          *disable_hooks;    /* DisableHooks: comma list */
	char          *env_exclude;      /* EnvExclude: ERE, checked */
	char          *file_debug;       /* FileDebug (scrun only) */
	bool           ignore_config_json; /* IgnoreFileConfigJson */
	char          *mount_spool_dir;  /* MountSpoolDir (default above) */
	char          *rt_create, *rt_delete, *rt_kill, *rt_query;
	char          *rt_run, *rt_start;
	char          *rt_env_exclude;   /* RunTimeEnvExclude: ERE, checked */
	char          *srun_path;        /* SrunPath (scrun only) */
	char          *srun_args;        /* SrunArgs, '\n'-joined (scrun) */
	char          *stdio_debug;      /* StdIODebug (scrun only) */
	char          *syslog_debug;     /* SyslogDebug (scrun only) */
	/* "file:line: Key has no effect: why" lines to log once; or NULL */
	char          *notes;
} oci_conf_t;

/* Parse text (fname for messages).  0, or -1 with "fname:line: ..." (or
 * "fname: ..." for a whole-file rule) in err and c zeroed. */
int  oci_conf_parse_text(const char *text, size_t len, const char *fname,
			 oci_conf_t *c, char *err, size_t errlen);
/* Read a file: 0 or -1 as above (a missing file is an error). */
int  oci_conf_load(const char *path, oci_conf_t *c, char *err,
		   size_t errlen);
/* Does path exist (container support configured)? */
bool oci_conf_present(const char *path);
void oci_conf_free(oci_conf_t *c);

/* Is a --container bundle path acceptable: absolute after the caller
 * made it so, no ".." component, no control character?  0, or -1 with
 * why. */
int  oci_bundle_path_check(const char *path, char *why, size_t wlen);

#endif
