/* conf_serve.c — configless: the files served (conf_serve.h). */
#include <sys/types.h>
#include <string.h>
#include <strings.h>

#include "common/conf_files.h"
#include "common/log.h"
#include "common/net.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/agent.h"
#include "ctld/conf_serve.h"
#include "ctld/controller.h"
#include "slurm/slurm_errno.h"

static config_files_msg_t *served;

/* The sackds registered (REQUEST_SACKD_REGISTER) since this controller
 * started: where to push the files at each reconfigure.  Not saved: a
 * sackd registers again when it starts or is reconfigured (SIGHUP). */
typedef struct {
	char    *host;
	uint16_t port;
} sackd_reg_t;

static sackd_reg_t *sackds;
static size_t       sackd_cnt;

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
	for (size_t i = 0; i < sackd_cnt; i++)
		xfree(sackds[i].host);
	xfree(sackds);
	sackd_cnt = 0;
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

static ssize_t _sackd_find(const char *host, uint16_t port)
{
	for (size_t i = 0; i < sackd_cnt; i++)
		if (sackds[i].port == port && !strcmp(sackds[i].host, host))
			return (ssize_t) i;
	return -1;
}

static void _sackd_forget(size_t i)
{
	xfree(sackds[i].host);
	sackds[i] = sackds[--sackd_cnt];
}

void conf_serve_rpc_sackd(net_conn_t *c, slurm_msg_t *m)
{
	const sackd_register_msg_t *r = m->data;
	char *host = net_peer_host(m->peer);

	if (!served || !r || !r->port || !host) {
		error("REQUEST_SACKD_REGISTER from uid=%u peer=%s refused: %s",
		      (unsigned) m->auth_uid, m->peer, !served ?
		      "configless mode is not enabled "
		      "(SlurmctldParameters=enable_configless)" :
		      "no port to reach it on");
		xfree(host);
		net_reply_rc(c, served ? SLURM_ERROR :
				    ESLURM_CONFIGLESS_DISABLED);
		return;
	}
	if (_sackd_find(host, r->port) < 0) {
		if (sackd_cnt >= CONF_SERVE_MAX_SACKDS) {
			error("REQUEST_SACKD_REGISTER from peer=%s: %d sackds "
			      "registered already; this one gets no "
			      "reconfigure", m->peer, CONF_SERVE_MAX_SACKDS);
		} else {
			sackds = xrealloc(sackds, (sackd_cnt + 1) *
					  sizeof(*sackds));
			sackds[sackd_cnt].host = host;
			sackds[sackd_cnt++].port = r->port;
			host = NULL;
		}
	}
	info("sackd registered from %s (reconfigure port %u)", m->peer,
	     (unsigned) r->port);
	xfree(host);
	net_reply(c, RESPONSE_CONFIG, served);
}

typedef struct {
	char    *host;
	uint16_t port;
} push_arg_t;

static void _push_done(int rc, void *arg)
{
	push_arg_t *a = arg;
	ssize_t i;

	if (rc && (i = _sackd_find(a->host, a->port)) >= 0) {
		error("sackd at %s:%u did not take the new configuration "
		      "(%s): forgotten until it registers again", a->host,
		      (unsigned) a->port, slurm_strerror(rc));
		_sackd_forget((size_t) i);
	}
	xfree(a->host);
	xfree(a);
}

void conf_serve_push_sackds(int timeout_ms)
{
	if (!served)
		return;
	for (size_t i = 0; i < sackd_cnt; i++) {
		push_arg_t *a = xmalloc(sizeof(*a));

		a->host = xstrdup(sackds[i].host);
		a->port = sackds[i].port;
		debug("configless: pushing the files to sackd at %s:%u",
		      a->host, (unsigned) a->port);
		agent_send_rc(a->host, a->port, REQUEST_RECONFIGURE_WITH_CONFIG,
			      conf_files_copy(served), timeout_ms, _push_done,
			      a);
	}
}
