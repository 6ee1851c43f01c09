/* resv_ports.c — the per-node reserved port table (resv_ports.h).
 *
 * One entry per port of the range: the names of the nodes where a step
 * holds it.  Steps are few and short lists are cheap to scan; the table
 * belongs to the controller's loop. */
#include "ctld/resv_ports.h"

#include <stdio.h>
#include <string.h>

#include "common/comm_params.h"
#include "common/debug_flags.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

typedef struct {
	char   **nodes;           /* where it is taken (NULL-terminated) */
	uint32_t cnt;
} port_use_t;

static struct {
	uint16_t    lo, hi;       /* 0, 0: none */
	port_use_t *use;          /* hi - lo + 1 entries */
} rp;

void resv_ports_config(const char *mpi_params)
{
	uint16_t lo = 0, hi = 0;
	char err[256];

	if (mpi_params_ports(mpi_params, &lo, &hi, err, sizeof(err)) < 0)
		lo = hi = 0;
	if (lo == rp.lo && hi == rp.hi)
		return;
	/* a new range: ports held now stay out of the new table (their
	 * steps release nothing they do not find) */
	for (uint32_t i = 0; rp.use && i <= (uint32_t) (rp.hi - rp.lo); i++)
		xstrarray_free(rp.use[i].nodes);
	xfree(rp.use);
	rp.lo = lo;
	rp.hi = hi;
	if (lo)
		rp.use = xcalloc((size_t) (hi - lo) + 2, sizeof(port_use_t));
	if (lo)
		info("MpiParams: ports %u-%u reserved for steps", lo, hi);
}

bool resv_ports_configured(void)
{
	return rp.lo != 0;
}

static bool _taken(const port_use_t *u, const char *node)
{
	for (uint32_t i = 0; i < u->cnt; i++)
		if (!strcmp(u->nodes[i], node))
			return true;
	return false;
}

static bool _free_on_all(const port_use_t *u, char *const *nodes, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (_taken(u, nodes[i]))
			return false;
	return true;
}

static char *_ranged(const uint16_t *p, uint16_t cnt)
{
	char *s = NULL;

	for (uint16_t i = 0; i < cnt;) {
		uint16_t j = i;

		while (j + 1 < cnt && p[j + 1] == p[j] + 1)
			j++;
		if (j > i)
			xstrfmtcat(&s, "%s%u-%u", s ? "," : "", p[i], p[j]);
		else
			xstrfmtcat(&s, "%s%u", s ? "," : "", p[i]);
		i = j + 1;
	}
	return s;
}

int resv_ports_take(char *const *nodes, uint32_t n, uint16_t cnt,
		    uint16_t **ports, char **range)
{
	uint32_t size = rp.lo ? (uint32_t) (rp.hi - rp.lo) + 1 : 0;
	uint16_t *got;
	uint16_t k = 0;

	*ports = NULL;
	*range = NULL;
	if (!rp.lo || !cnt || cnt > size)
		return ESLURM_PORTS_INVALID;
	got = xcalloc(cnt + 1, sizeof(uint16_t));
	for (uint32_t i = 0; i < size && k < cnt; i++)
		if (_free_on_all(&rp.use[i], nodes, n))
			got[k++] = (uint16_t) (rp.lo + i);
	if (k < cnt) {
		xfree(got);
		return ESLURM_PORTS_BUSY;
	}
	for (uint16_t j = 0; j < cnt; j++) {
		port_use_t *u = &rp.use[got[j] - rp.lo];

		for (uint32_t i = 0; i < n; i++) {
			u->nodes = xstrarray_append(u->nodes, nodes[i]);
			u->cnt++;
		}
	}
	*ports = got;
	*range = _ranged(got, cnt);
	return 0;
}

void resv_ports_release(char *const *nodes, uint32_t n,
			const uint16_t *ports, uint16_t cnt)
{
	for (uint16_t j = 0; ports && j < cnt; j++) {
		port_use_t *u;

		if (!rp.lo || ports[j] < rp.lo || ports[j] > rp.hi)
			continue;
		u = &rp.use[ports[j] - rp.lo];
		for (uint32_t i = 0; i < n; i++) {
			for (uint32_t k = 0; k < u->cnt; k++) {
				if (strcmp(u->nodes[k], nodes[i]))
					continue;
				xfree(u->nodes[k]);
				u->nodes[k] = u->nodes[u->cnt - 1];
				u->nodes[--u->cnt] = NULL;
				break;
			}
		}
	}
}

uint32_t resv_ports_used(const char *node)
{
	uint32_t c = 0;

	for (uint32_t i = 0; rp.lo && i <= (uint32_t) (rp.hi - rp.lo); i++)
		c += _taken(&rp.use[i], node);
	return c;
}
