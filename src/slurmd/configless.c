/* configless.c — fetch and cache the controller's files (configless.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/auth.h"
#include "common/conf.h"
#include "common/conf_files.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"
#include "slurmd/configless.h"

char *configless_servers(const char *opt, const char *conf_file)
{
	const char *env = getenv("SLURM_CONF");
	char *srv;

	if (opt)
		return xstrdup(opt);
	if (conf_file || (env && *env) || access(conf_default_path(), F_OK) == 0)
		return NULL;
	srv = conf_files_srv_lookup();
	if (srv)
		info("configless: controllers from DNS SRV _slurmctld._tcp: %s",
		     srv);
	return srv;
}

static void _rm_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char *p;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		p = xstrdup_printf("%s/%s", dir, e->d_name);
		unlink(p);
		xfree(p);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

static config_files_msg_t *_fetch(const char *servers, const char *authinfo,
				  const char *node_name)
{
	config_files_msg_t *m = NULL;
	char err[512];
	int rc;

	if (auth_init("auth/munge", authinfo, NULL) != SLURM_SUCCESS)
		fatal("configless: cannot initialize auth/munge%s%s",
		      authinfo ? " with --authinfo " : "",
		      authinfo ? authinfo : "");
	for (;;) {
		rc = conf_files_fetch(servers, CONFIG_REQUEST_SLURMD, node_name,
				      &m, err, sizeof(err));
		if (!rc)
			break;
		if (rc == ESLURM_CONFIGLESS_DISABLED)
			fatal("configless: %s", err);
		error("_establish_configuration: failed to load configs from "
		      "%s (%s). Retrying in %d seconds.", servers, err,
		      CONFIGLESS_RETRY_SEC);
		sleep(CONFIGLESS_RETRY_SEC);
	}
	auth_fini();           /* main() sets up slurm.conf's AuthType */
	return m;
}

static const conf_node_t *_my_node(const slurm_conf_t *c, const char *name,
				   const char *host)
{
	if (name)
		return conf_find_node(c, name);
	for (size_t i = 0; i < c->node_cnt; i++)
		if (!xstrcmp(c->nodes[i].hostname, host) ||
		    !xstrcmp(c->nodes[i].name, host))
			return &c->nodes[i];
	return NULL;
}

char *configless_establish(const char *servers, const char *authinfo,
			   const char *node_name, const char *host)
{
	config_files_msg_t *m = _fetch(servers, authinfo, node_name);
	char tmpl[] = "/tmp/slurmd-conf.XXXXXX", err[1024] = "";
	char *spool, *dir, *path;
	const conf_node_t *me;
	slurm_conf_t *c;

	if (!mkdtemp(tmpl) || conf_files_write(m, tmpl, err, sizeof(err)) < 0)
		fatal("configless: %s", err[0] ? err : "cannot stage the files");
	conf_set_include_dir(tmpl);
	path = xstrdup_printf("%s/slurm.conf", tmpl);
	c = conf_load(path, err, sizeof(err));
	xfree(path);
	if (!c) {
		_rm_tree(tmpl);
		fatal("configless: the controller's slurm.conf: %s", err);
	}
	me = _my_node(c, node_name, host);
	/* a dynamic node (-Z) is not in it: named by -N or the host */
	spool = conf_expand_node_path(c->slurmd_spool_dir ? c->slurmd_spool_dir
				      : "/var/spool/slurmd",
				      me ? me->name : node_name ? node_name
				      : host);
	dir = xstrdup_printf("%s/conf-cache", spool);
	xfree(spool);
	conf_destroy(c);
	_rm_tree(tmpl);
	if (conf_files_write(m, dir, err, sizeof(err)) < 0)
		fatal("configless: %s", err);
	conf_set_include_dir(dir);
	info("configless: %zu configuration files from %s cached in %s",
	     conf_files_count(m), servers, dir);
	conf_files_free(m);
	return dir;
}

int configless_update(const char *dir, const config_files_msg_t *m,
		      char *err, size_t errlen)
{
	if (conf_files_write(m, dir, err, errlen) < 0)
		return -1;
	info("configless: %zu configuration files from the controller "
	     "cached in %s", conf_files_count(m), dir);
	return 0;
}
