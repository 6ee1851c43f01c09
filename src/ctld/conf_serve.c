/* conf_serve.c — configless: the files served (conf_serve.h). */
#include <string.h>
#include <strings.h>

#include "common/conf_files.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/conf_serve.h"
#include "slurm/slurm_errno.h"

static config_files_msg_t *served;

bool conf_serve_enabled(const char *params)
{
	char **w = xstrsplit(params ? params : "", ",", NULL);
	bool on = false;

	for (size_t i = 0; w[i] && !on; i++)
		on = !strcasecmp(xstrtrim(w[i]), "enable_configless");
	xstrarray_free(w);
	return on;
}

int conf_serve_reload(const slurm_conf_t *c, char *err, size_t errlen)
{
	config_files_msg_t *m;

	if (!conf_serve_enabled(c->slurmctld_params)) {
		conf_files_free(served);
		served = NULL;
		return 0;
	}
	if (!(m = conf_files_collect(c, err, errlen)))
		return -1;
	conf_files_free(served);
	served = m;
	info("configless: serving %zu configuration files",
	     conf_files_count(m));
	return 0;
}

void conf_serve_fini(void)
{
	conf_files_free(served);
	served = NULL;
}

const config_files_msg_t *conf_serve_files(void)
{
	return served;
}

void conf_serve_rpc(net_conn_t *c, slurm_msg_t *m)
{
	config_request_msg_t *r = m->data;

	if (!served) {
		error("REQUEST_CONFIG from uid=%u peer=%s%s%s: configless mode "
		      "is not enabled (SlurmctldParameters=enable_configless)",
		      (unsigned) m->auth_uid, m->peer,
		      r && r->node_name ? " node=" : "",
		      r && r->node_name ? r->node_name : "");
		net_reply_rc(c, ESLURM_CONFIGLESS_DISABLED);
		return;
	}
	debug("REQUEST_CONFIG from uid=%u peer=%s%s%s", (unsigned) m->auth_uid,
	      m->peer, r && r->node_name ? " node=" : "",
	      r && r->node_name ? r->node_name : "");
	net_reply(c, RESPONSE_CONFIG, served);
}
