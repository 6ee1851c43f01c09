/* job_container_conf.h — job_container.conf: the settings of
 * JobContainerType=job_container/tmpfs for one node (Slurm 25.05's keys).
 *
 * Lines of whitespace-separated "Key=Value" words ('#' comments, blank
 * lines, keys case-insensitive).  A line whose first word is NodeName=
 * applies to those nodes only and overrides, for them, what lines without
 * NodeName set.  BasePath=none turns the plugin off on a node.  An
 * unknown key or a bad value anywhere in the file is an error naming the
 * file and line; nothing is returned then.
 */
#ifndef SLUICE_JOB_CONTAINER_CONF_H
#define SLUICE_JOB_CONTAINER_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JC_DEFAULT_DIRS  "/tmp,/dev/shm"
#define JC_DEFAULT_WAIT  10          /* CloneNS*_Wait, seconds */
#define JC_MAX_DIRS      64
/* BasePath/<job>/JC_NS_FILE: the job's mount namespace, bind-mounted
 * (slurmd/common/job_container.h; joined by pam_slurm_adopt) */
#define JC_NS_FILE       ".ns"

typedef struct {
	char    *base_path;       /* BasePath as written (%h, %n unexpanded);
				   * NULL: none for this node */
	bool     auto_base_path;  /* AutoBasePath: create it (0755) */
	char    *dirs[JC_MAX_DIRS];  /* Dirs, absolute, no "..": default
				      * /tmp and /dev/shm */
	size_t   dir_cnt;
	bool     shared;          /* Shared: the host's new mounts reach the
				   * job (slave propagation) */
	bool     entire_step;     /* EntireStepInNS */
	char    *init_script;     /* InitScript (before the namespace) */
	char    *clone_script;    /* CloneNSScript (after it is made) */
	char    *clone_epilog;    /* CloneNSEpilog (before it goes) */
	uint32_t clone_script_wait;  /* seconds */
	uint32_t clone_epilog_wait;
} jc_conf_t;

/* Parse text (fname for messages) for node (NULL: check every line, keep
 * the lines without NodeName).  0, or -1 with "fname:line: ..." in err and
 * c zeroed. */
int  jc_conf_parse_text(const char *text, size_t len, const char *fname,
			const char *node, jc_conf_t *c, char *err,
			size_t errlen);
/* Read a file: 0 or -1 as above; a missing file is an error too (the
 * plugin cannot work without it). */
int  jc_conf_load(const char *path, const char *node, jc_conf_t *c,
		  char *err, size_t errlen);
/* Is the plugin on for this node (BasePath set and not "none")? */
bool jc_conf_active(const jc_conf_t *c);
/* BasePath with its first %h (host name) and %n (node) replaced;
 * caller frees. */
char *jc_conf_base_path(const jc_conf_t *c, const char *node);
void jc_conf_free(jc_conf_t *c);

#endif
