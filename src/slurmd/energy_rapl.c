/* energy_rapl.c — acct_gather_energy/rapl in slurmd (energy_rapl.h). */
#define _GNU_SOURCE
#include "slurmd/energy_rapl.h"

#include <event2/event.h>
#include <string.h>
#include <time.h>

#include "common/log.h"
#include "common/rapl.h"
#include "common/xmalloc.h"

struct energy_node {
	rapl_t        *r;
	struct event  *ev;
	struct timespec start;
	time_t         poll_time;
};

static void _poll(energy_node_t *e)
{
	if (rapl_poll(e->r) < 0)
		debug("RAPL counters %s: cannot read one", rapl_paths(e->r));
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
	const char *type = conf->acct_gather_energy_type;
	char *why = NULL;
	energy_node_t *e;
	rapl_t *r;

	if (!type || strcmp(type, "acct_gather_energy/rapl"))
		return NULL;
	if (!(r = rapl_open(&why))) {
		info("acct_gather_energy/rapl: %s; ConsumedEnergy stays 0",
		     why);
		xfree(why);
		return NULL;
	}
	info("acct_gather_energy/rapl: reading %s", rapl_paths(r));
	e = xmalloc(sizeof(*e));
	e->r = r;
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

	memset(out, 0, sizeof(*out));
	if (!e)
		return;
	_poll(e);
	clock_gettime(CLOCK_MONOTONIC, &now);
	secs = (double) (now.tv_sec - e->start.tv_sec) +
	       (double) (now.tv_nsec - e->start.tv_nsec) / 1e9;
	out->consumed_energy = rapl_total_uj(e->r) / 1000000u;
	out->current_watts = rapl_current_watts(e->r);
	out->ave_watts = secs >= 1 ? (uint32_t) ((double) rapl_total_uj(e->r) /
						 1e6 / secs + 0.5) : 0;
	out->poll_time = e->poll_time;
}

void energy_node_stop(energy_node_t *e)
{
	if (!e)
		return;
	if (e->ev)
		event_free(e->ev);
	rapl_close(e->r);
	xfree(e);
}
