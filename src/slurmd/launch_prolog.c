/* launch_prolog.c — see launch_prolog.h. */
#include "slurmd/launch_prolog.h"

#include <event2/event.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"
#include "slurmd/common/spool.h"
#include "slurmd/epilog.h"
#include "slurmd/launch.h"
#include "slurmd/launch_step.h"

#define EXTERN_POLL_MS 100

typedef struct {
	slurmd_t     *sd;
	uint32_t      job_id;
	char         *nodes;
	uint32_t      uid, gid;
	char         *user_name;
	char         *sock;
	time_t        deadline;
	struct event *ev;
} lp_wait_t;

int launch_prolog(slurmd_t *sd, const prolog_launch_msg_t *m)
{
	char *sock = launch_step_socket(sd->spool_dir, sd->node->name,
					m->job_id, SLURM_EXTERN_CONT);
	int rc;

	if (spool_step_alive(sock)) {
		info("JobId=%u: extern step already runs here, prolog launch ignored",
		     m->job_id);
		xfree(sock);
		return SLURM_SUCCESS;
	}
	unlink(sock);
	xfree(sock);
	debug("JobId=%u: launching the Prolog (flags 0x%x)", m->job_id,
	      m->prolog_flags);
	rc = launch_run_stepd(sd, REQUEST_LAUNCH_PROLOG, m, m->job_id);
	if (rc)
		error("JobId=%u: prolog launch failed: %s", m->job_id,
		      slurm_strerror(rc));
	return rc;
}

static void _lp_check(evutil_socket_t fd, short what, void *arg)
{
	lp_wait_t *w = arg;
	struct timeval tv = { 0, EXTERN_POLL_MS * 1000 };

	if (spool_step_alive(w->sock) && time(NULL) < w->deadline) {
		evtimer_add(w->ev, &tv);
		return;
	}
	epilog_start(w->sd, w->job_id, w->nodes, w->uid, w->gid, w->user_name);
	event_free(w->ev);
	xfree(w->nodes);
	xfree(w->user_name);
	xfree(w->sock);
	xfree(w);
}

void launch_prolog_epilog(slurmd_t *sd, uint32_t job_id, const char *nodes,
			  uint16_t kill_wait, uint32_t uid, uint32_t gid,
			  const char *user_name)
{
	char *sock = launch_step_socket(sd->spool_dir, sd->node->name, job_id,
					SLURM_EXTERN_CONT);
	lp_wait_t *w;

	if (!spool_step_alive(sock)) {
		xfree(sock);
		epilog_start(sd, job_id, nodes, uid, gid, user_name);
		return;
	}
	w = xmalloc(sizeof(*w));
	w->sd = sd;
	w->job_id = job_id;
	w->nodes = xstrdup(nodes);
	w->uid = uid;
	w->gid = gid;
	w->user_name = xstrdup(user_name);
	w->sock = sock;
	w->deadline = time(NULL) + kill_wait + 30;
	w->ev = evtimer_new(sd->base, _lp_check, w);
	_lp_check(-1, 0, w);
}
