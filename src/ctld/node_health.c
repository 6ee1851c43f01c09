/* node_health.c — HealthCheckInterval / HealthCheckNodeState (see
 * node_health.h). */
#include "ctld/node_health.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/agent.h"
#include "ctld/controller.h"
#include "ctld/node_mgr.h"

static struct {
	time_t   last;          /* last round started (not CYCLE) */
	time_t   cycle_start;   /* CYCLE: this round's start */
	size_t   cycle_next;    /* CYCLE: next node index to check */
	char    *bad;           /* HealthCheckNodeState already complained of */
} hc;

int node_health_parse_state(const char *s, uint32_t *flags, char *err,
			    size_t errlen)
{
	char *copy, *tok, *save = NULL;
	int rc = 0;

	*flags = 0;
	if (!s || !*s) {
		*flags = HC_NODE_ANY;
		return 0;
	}
	copy = xstrdup(s);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcasecmp(tok, "ANY"))
			*flags |= HC_NODE_ANY;
		else if (!strcasecmp(tok, "IDLE"))
			*flags |= HC_NODE_IDLE;
		else if (!strcasecmp(tok, "ALLOC"))
			*flags |= HC_NODE_ALLOC;
		else if (!strcasecmp(tok, "MIXED"))
			*flags |= HC_NODE_MIXED;
		else if (!strcasecmp(tok, "CYCLE"))
			*flags |= HC_NODE_CYCLE;
		else if (!rc) {        /* as Slurm: the word is ignored */
			snprintf(err, errlen, "Invalid HealthCheckNodeState "
				 "value %s ignored", tok);
			rc = -1;
		}
	}
	xfree(copy);
	if (!(*flags & HC_NODE_ANY))
		*flags |= HC_NODE_ANY;         /* "CYCLE" alone: any state */
	return rc;
}

static bool _selected(const node_record_t *n, uint32_t flags)
{
	uint32_t st = n->info.node_state, base = st & NODE_STATE_BASE;

	if ((st & NODE_STATE_NO_RESPOND) || base == NODE_STATE_FUTURE)
		return false;
	if ((flags & HC_NODE_ANY) == HC_NODE_ANY)
		return true;
	switch (base) {
	case NODE_STATE_IDLE:
		return flags & HC_NODE_IDLE;
	case NODE_STATE_ALLOCATED:
		return flags & HC_NODE_ALLOC;
	case NODE_STATE_MIXED:
		return flags & HC_NODE_MIXED;
	default:
		return false;
	}
}

static void _send(node_record_t *n)
{
	debug2("health check request to node %s", n->info.name);
	agent_send_rc(n->info.node_addr, n->info.port, REQUEST_HEALTH_CHECK,
		      NULL, ctld_conf()->message_timeout * 1000, NULL, NULL);
}

static uint32_t _interval(void)
{
	const char *v = conf_get(ctld_conf(), "HealthCheckInterval");

	return v ? (uint32_t) strtoul(v, NULL, 10) : 0;
}

void node_health_tick(time_t now)
{
	const char *prog = conf_get(ctld_conf(), "HealthCheckProgram");
	const char *ns = conf_get(ctld_conf(), "HealthCheckNodeState");
	uint32_t interval = _interval(), flags;
	size_t cnt = node_mgr_count(), target;
	char err[256];

	if (!interval || !prog || !*prog || !strcmp(prog, "(null)") || !cnt)
		return;
	if (node_health_parse_state(ns, &flags, err, sizeof(err)) < 0 &&
	    xstrcmp(hc.bad, ns)) {
		error("%s", err);            /* once per value */
		xfree(hc.bad);
		hc.bad = xstrdup(ns);
	}
	if (!hc.last) {
		hc.last = hc.cycle_start = now;      /* first round after one */
		return;                              /* interval */
	}
	if (!(flags & HC_NODE_CYCLE)) {
		if (now - hc.last < (time_t) interval)
			return;
		hc.last = now;
		for (size_t i = 0; i < cnt; i++)
			if (_selected(node_mgr_at(i), flags))
				_send(node_mgr_at(i));
		return;
	}
	/* CYCLE: by the end of each interval every node had its turn */
	if (now - hc.cycle_start >= (time_t) interval) {
		hc.cycle_start = now;
		hc.cycle_next = 0;
	}
	target = cnt * (size_t) (now - hc.cycle_start + 1) / interval;
	if (target > cnt)
		target = cnt;
	for (; hc.cycle_next < target && hc.cycle_next < cnt; hc.cycle_next++) {
		node_record_t *n = node_mgr_at(hc.cycle_next);

		if (_selected(n, flags))
			_send(n);
	}
}
