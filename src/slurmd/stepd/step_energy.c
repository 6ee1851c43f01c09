/* step_energy.c — RAPL energy of a step (step_energy.h). */
#define _GNU_SOURCE
#include "slurmd/stepd/step_energy.h"

#include <ctype.h>
#include <stdbool.h>
#include <event2/event.h>
#include <stdlib.h>
#include <string.h>

#include "common/acct_gather_energy.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "slurmd/stepd/step_acct.h"

struct step_energy {
	const acct_gather_energy_ops_t *ops;
	void         *h;
	struct event *ev;
	bool          stopped;    /* the total is final */
};

int step_energy_freq(const char *spec, uint16_t node_freq, int def)
{
	const char *p = spec ? strstr(spec, "energy=") : NULL;

	if (p && (p == spec || p[-1] == ',') && isdigit((unsigned char) p[7])) {
		char *end;
		long v = strtol(p + 7, &end, 10);

		if ((!*end || *end == ',') && v > 0 && v <= 86400)
			return (int) v;
	}
	if (node_freq)
		return node_freq;
	return step_acct_freq(spec, def);
}

static void _on_timer(evutil_socket_t fd, short what, void *arg)
{
	step_energy_t *e = arg;

	(void) fd;
	(void) what;
	if (e->ops->poll && e->ops->poll(e->h) < 0)
		debug("energy counters %s: cannot read one",
		      e->ops->describe ? e->ops->describe(e->h) : "");
}

step_energy_t *step_energy_start(const slurm_conf_t *conf,
				 struct event_base *base)
{
	const acct_gather_energy_ops_t *ops;
	step_energy_t *e;
	char *why = NULL, err[512];
	void *h;
	int freq;

	if (!(ops = acct_gather_energy_ops(conf, err, sizeof(err))) ||
	    !ops->open)
		return NULL;
	if (!(h = ops->open(&why))) {
		xfree(why);       /* slurmd has said why, once */
		return NULL;
	}
	e = xmalloc(sizeof(*e));
	e->ops = ops;
	e->h = h;
	freq = step_energy_freq(conf->job_acct_gather_freq,
				conf->acct_gather_node_freq, 30);
	if (base && freq > 0) {
		struct timeval tv = { freq, 0 };

		e->ev = event_new(base, -1, EV_PERSIST, _on_timer, e);
		event_add(e->ev, &tv);
	}
	return e;
}

uint64_t step_energy_joules(step_energy_t *e)
{
	if (!e)
		return 0;
	if (!e->stopped)
		_on_timer(-1, 0, e);
	return e->ops->total_uj ? e->ops->total_uj(e->h) / 1000000u : 0;
}

void step_energy_stop(step_energy_t *e)
{
	if (!e || e->stopped)
		return;
	_on_timer(-1, 0, e);
	e->stopped = true;
	if (e->ev) {
		event_free(e->ev);
		e->ev = NULL;
	}
}

void step_energy_destroy(step_energy_t *e)
{
	if (!e)
		return;
	step_energy_stop(e);
	if (e->ops->close)
		e->ops->close(e->h);
	xfree(e);
}
