/* salloc_msg.c — salloc's listener (salloc_msg.h). */
#include <pthread.h>
#include <string.h>

#include <event2/event.h>

#include "cli/salloc_msg.h"
#include "cli/cli_common.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "slurm/slurm_errno.h"

#define ALLOC_MSG_CONN_TIMEOUT_MS 10000

static void _on_msg(net_conn_t *c, slurm_msg_t *m, void *arg)
{
	const job_notify_msg_t *n = m->data;
	const slurm_conf_t *conf = cli_conf();

	(void) arg;
	if (m->auth_uid != 0 && (!conf || m->auth_uid != conf->slurm_user_id)) {
		debug("%s from uid=%u refused: only root or SlurmUser",
		      msg_type_name(m->type), (unsigned) m->auth_uid);
		net_reply_rc(c, ESLURM_USER_ID_MISSING);
		return;
	}
	if (m->type != SRUN_USER_MSG || !n || !n->message) {
		net_reply_rc(c, SLURM_UNEXPECTED_MSG_ERROR);
		return;
	}
	info("%s", n->message);
	net_reply_rc(c, SLURM_SUCCESS);
}

static void *_serve(void *arg)
{
	event_base_dispatch(arg);
	return NULL;
}

uint16_t salloc_msg_start(void)
{
	int fd = net_listen_tcp(NULL, 0);
	struct event_base *base;
	pthread_t t;
	uint16_t port;

	if (fd < 0) {
		debug("allocation messages: cannot listen: %m");
		return 0;
	}
	port = net_local_port(fd);
	if (!(base = event_base_new()) ||
	    !net_server_create(base, fd, _on_msg, NULL,
			       ALLOC_MSG_CONN_TIMEOUT_MS) ||
	    pthread_create(&t, NULL, _serve, base)) {
		debug("allocation messages: cannot serve port %u",
		      (unsigned) port);
		return 0;               /* salloc exits soon: nothing freed */
	}
	pthread_detach(t);              /* ends with salloc */
	return port;
}
