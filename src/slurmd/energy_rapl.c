/* energy_rapl.c — AcctGatherEnergyType's node counters in slurmd
 * (energy_rapl.h). */
#define _GNU_SOURCE
#include "slurmd/energy_rapl.h"

#include <event2/event.h>
#include <string.h>
#include <time.h>

#include "common/acct_gather_energy.h"
#include "common/log.h"
#include "common/xmalloc.h"

struct energy_node {
	const acct_gather_energy_ops_t *ops;
	void          *h;
	struct event  *ev;
	struct timespec start;
	time_t         poll_time;
};

static void _poll(energy_node_t *e)
{
	if (e->ops->poll && e->ops->poll(e->h) < 0)
		debug("energy counters %s: cannot read one",
		      e->ops->describe ? e->ops->describe(e->h) : "");
	else
		e->poll_time = time(NULL);
}

static void _on_timer(evutil_socket_t fd, short what, void *arg)
{
	(void) fd;
	(void) what;
	_poll(arg);
}

energy_node_t *energy_node_start(const slurm_conf_t *conf,
				 struct event_base *base)
{
	const acct_gather_energy_ops_t *ops;
	const char *type = conf->acct_gather_energy_type;
	char *why = NULL, err[512];
	energy_node_t *e;
	void *h;

	if (!(ops = acct_gather_energy_ops(conf, err, sizeof(err))) ||
	    !ops->open)
		return NULL;
	if (!(h = ops->open(&why))) {
		info("%s: %s; ConsumedEnergy stays 0", type, why ? why : "");
		xfree(why);
		return NULL;
	}
	info("%s: reading %s", type, ops->describe ? ops->describe(h) : "");
	e = xmalloc(sizeof(*e));
	e->ops = ops;
	e->h = h;
	e->poll_time = time(NULL);
	clock_gettime(CLOCK_MONOTONIC, &e->start);
	if (base && conf->acct_gather_node_freq) {
		struct timeval tv = { conf->acct_gather_node_freq, 0 };

		e->ev = event_new(base, -1, EV_PERSIST, _on_timer, e);
		event_add(e->ev, &tv);
	}
	return e;
}

void energy_node_sample(energy_node_t *e, acct_gather_energy_msg_t *out)
{
	struct timespec now;
	double secs;
	uint64_t uj;

	memset(out, 0, sizeof(*out));
	if (!e)
		return;
	_poll(e);
	clock_gettime(CLOCK_MONOTONIC, &now);
	secs = (double) (now.tv_sec - e->start.tv_sec) +
	       (double) (now.tv_nsec - e->start.tv_nsec) / 1e9;
	uj = e->ops->total_uj ? e->ops->total_uj(e->h) : 0;
	out->consumed_energy = uj / 1000000u;
	out->current_watts = e->ops->current_watts ?
			     e->ops->current_watts(e->h) : 0;
	out->ave_watts = secs >= 1 ? (uint32_t) ((double) uj / 1e6 / secs +
						 0.5) : 0;
	out->poll_time = e->poll_time;
}

void energy_node_stop(energy_node_t *e)
{
	if (!e)
		return;
	if (e->ev)
		event_free(e->ev);
	if (e->ops->close)
		e->ops->close(e->h);
	xfree(e);
}
