/* srun_bcast.c — srun --bcast: the executable to the step's nodes before
 * its launch, as sbcast sends a file (cli_bcast.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli_bcast.h"
#include "cli/srun.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

/* exe as the shell would find it: a path, or the first executable
 * regular file of that name in PATH.  NULL if none. */
static char *_which(const char *exe)
{
	const char *path = getenv("PATH");
	char *dirs, *save = NULL, *found = NULL;

	if (strchr(exe, '/'))
		return access(exe, R_OK) == 0 ? xstrdup(exe) : NULL;
	dirs = xstrdup(path ? path : "/usr/bin:/bin");
	for (char *d = strtok_r(dirs, ":", &save); d && !found;
	     d = strtok_r(NULL, ":", &save)) {
		char *p = xstrdup_printf("%s/%s", *d ? d : ".", exe);
		struct stat st;

		if (stat(p, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(p, X_OK) == 0)
			found = p;
		else
			xfree(p);
	}
	xfree(dirs);
	return found;
}

int srun_bcast(const srun_opts_t *so, const char *exe, const char *work_dir,
	       uint32_t job_id, uint32_t step_id, char **dest, bool *per_node,
	       char **libdir)
{
	cli_bcast_opts_t o = { .compress = so->compress, .force = true,
			       .send_libs = so->send_libs,
			       .exclude = so->bcast_exclude };
	char cwd[PATH_MAX], *src = _which(exe), *prefix;
	const char *d = so->bcast_dest, *base;
	sbcast_cred_msg_t *cred;
	char what[64];
	uint16_t flags = 0;
	int fd, rc;

	*dest = *libdir = NULL;
	*per_node = false;
	if (!src || (fd = open(src, O_RDONLY | O_CLOEXEC)) < 0) {
		error("Can't open `%s`: %s", src ? src : exe,
		      strerror(src ? errno : ENOENT));
		xfree(src);
		return -1;
	}
	if (!work_dir)
		work_dir = getcwd(cwd, sizeof(cwd)) ? cwd : "/tmp";
	/* BcastParameters DestDir= (else the working directory) */
	base = so->bcast_dir ? so->bcast_dir : work_dir;
	/* no path, or a directory: slurm_bcast_J.S_<node> there */
	if (!d || d[strlen(d) - 1] == '/') {
		size_t n = d ? strlen(d) - 1 : 0;
		char *dir = !d ? xstrdup(base) :
			    d[0] == '/' ? xstrndup(d, n) :
			    xstrdup_printf("%s/%.*s", base, (int) n, d);

		prefix = xstrdup_printf("%s/slurm_bcast_%u.%u_", dir, job_id,
					step_id);
		xfree(dir);
		*per_node = true;
		flags |= BCAST_FLAG_NODE_SUFFIX;
	} else {
		prefix = d[0] == '/' ? xstrdup(d) :
			 xstrdup_printf("%s/%s", base, d);
	}
	snprintf(what, sizeof(what), "%u.%u", job_id, step_id);
	cred = cli_bcast_cred(job_id, NO_VAL32, step_id, what);
	rc = cred ? cli_bcast_send(&o, cred, fd, src, prefix, flags) : -1;
	if (!rc && so->send_libs) {
		*libdir = *per_node ?
			xstrdup_printf("%.*s_libs", (int) strlen(prefix) - 1,
				       prefix) :
			xstrdup_printf("%s_libs", prefix);
		rc = cli_bcast_libs(&o, cred, src, *libdir, flags);
	}
	close(fd);
	if (cred)
		msg_body_free(RESPONSE_SBCAST_CRED, cred);
	if (rc) {
		/* as Slurm words it (the step is not launched) */
		fprintf(stderr, "srun: fatal: Failed to broadcast '%s%s%s'. "
			"Step launch aborted.\n", src[0] == '/' ? "" : work_dir,
			src[0] == '/' ? "" : "/", src);
		xfree(prefix);
		xfree(*libdir);
		xfree(src);
		return -1;
	}
	xfree(src);
	*dest = prefix;
	return 0;
}
