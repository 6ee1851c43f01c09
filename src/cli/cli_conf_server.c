/* cli_conf_server.c — a command with SLURM_CONF_SERVER and no slurm.conf
 * of its own: the controller's files (configless, conf_files.h), fetched
 * for this process into a private directory removed at exit. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "common/auth.h"
#include "common/conf_files.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

static char fetched_dir[64];

static void _cleanup(void)
{
	DIR *d = opendir(fetched_dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char *p;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		p = xstrdup_printf("%s/%s", fetched_dir, e->d_name);
		unlink(p);
		xfree(p);
	}
	if (d)
		closedir(d);
	rmdir(fetched_dir);
}

slurm_conf_t *cli_conf_fetch(const char *servers, char *err, size_t errlen)
{
	config_files_msg_t *m = NULL;
	slurm_conf_t *c;
	char *path;
	int rc;

	/* before slurm.conf is known: MUNGE with its default socket */
	if (auth_init("auth/munge", NULL, NULL) != SLURM_SUCCESS) {
		snprintf(err, errlen, "SLURM_CONF_SERVER: cannot initialize "
			 "auth/munge");
		return NULL;
	}
	rc = conf_files_fetch(servers, 0, NULL, &m, err, errlen);
	auth_fini();            /* cli_init() sets up slurm.conf's AuthType */
	if (rc) {
		char why[512];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "Unable to fetch the configuration from "
			 "SLURM_CONF_SERVER=%s: %s", servers, why);
		return NULL;
	}
	snprintf(fetched_dir, sizeof(fetched_dir), "/tmp/sluice-conf.XXXXXX");
	if (!mkdtemp(fetched_dir) ||
	    conf_files_write(m, fetched_dir, err, errlen) < 0) {
		if (fetched_dir[0] && access(fetched_dir, F_OK) == 0)
			_cleanup();
		conf_files_free(m);
		return NULL;
	}
	conf_files_free(m);
	atexit(_cleanup);
	conf_set_include_dir(fetched_dir);
	path = xstrdup_printf("%s/slurm.conf", fetched_dir);
	c = conf_load(path, err, errlen);
	xfree(path);
	return c;
}
