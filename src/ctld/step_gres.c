/* step_gres.c — the GRES a new job step gets (step_gres.h). */
#include <string.h>
#include <strings.h>

#include "common/gres.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/step_gres.h"
#include "slurm/slurm_errno.h"

#define STEP_GRES_MAX_GPUS 64u

static bool sg_is_none(const char *s)
{
	return s && !strcasecmp(s, "none");
}

/* Add one TRES string's items to q; its GPUs to *gpus.  -1 if bad. */
static int sg_add(step_gres_req_t *q, const char *spec, uint32_t *gpus,
		bool others)
{
	uint64_t n = 0;

	if (gres_specs_gpus(spec, others, STEP_GRES_MAX_GPUS, &n, &q->type,
			    &q->other, &q->other_cnt) < 0)
		return -1;
	*gpus = (uint32_t) n;
	return 0;
}

int step_gres_parse(const char *per_step, const char *per_node,
		    const char *per_task, step_gres_req_t *q)
{
	memset(q, 0, sizeof(*q));
	if (!(per_step && *per_step) && !(per_node && *per_node) &&
	    !(per_task && *per_task))
		return 0;
	q->mode = STEP_GRES_ASK;
	if (sg_is_none(per_node))
		per_node = NULL;
	else if (sg_is_none(per_step) || sg_is_none(per_task))
		goto bad;
	if (sg_add(q, per_step, &q->per_step, false) < 0 ||
	    sg_add(q, per_node, &q->per_node, true) < 0 ||
	    sg_add(q, per_task, &q->per_task, false) < 0)
		goto bad;
	if (!q->per_step && !q->per_node && !q->per_task && !q->other_cnt)
		q->mode = STEP_GRES_NONE;
	return 0;
bad:
	step_gres_req_free(q);
	return ESLURM_INVALID_GRES;
}

void step_gres_req_free(step_gres_req_t *q)
{
	gres_specs_free(q->other, q->other_cnt);
	xfree(q->type);
	memset(q, 0, sizeof(*q));
}

static uint32_t sg_pop(uint64_t m)
{
	return (uint32_t) __builtin_popcountll(m);
}

/* The n lowest set bits of m. */
static uint64_t sg_lowest(uint64_t m, uint32_t n)
{
	uint64_t out = 0;

	while (n-- && m) {
		uint64_t b = m & -m;

		out |= b;
		m &= ~b;
	}
	return out;
}

/* GPUs node i needs whatever others get: its per-node count, its
 * tasks' per-task count, and its even share of --gpus. */
static uint32_t sg_want(const step_gres_req_t *q, uint32_t cnt,
		      const uint16_t *tasks, uint32_t i)
{
	uint32_t want = q->per_node, t = (uint32_t) tasks[i] * q->per_task;

	if (t > want)
		want = t;
	if (cnt && q->per_step / cnt > want)
		want = q->per_step / cnt;
	return want;
}

int step_gres_pick(const step_gres_req_t *q, uint32_t cnt,
		   const uint16_t *tasks, const uint64_t *job,
		   const uint64_t *typed, const uint64_t *busy,
		   uint64_t *out)
{
	uint32_t left = q->per_step, have = 0;

	memset(out, 0, cnt * sizeof(*out));
	for (uint32_t i = 0; i < cnt; i++) {
		uint64_t mine = job[i] & typed[i];

		if (sg_pop(mine) < sg_want(q, cnt, tasks, i))
			return ESLURM_INVALID_GRES;
		have += sg_pop(mine);
	}
	if (have < q->per_step)
		return ESLURM_INVALID_GRES;
	for (uint32_t i = 0; i < cnt; i++) {
		uint64_t free = job[i] & typed[i] & ~busy[i];
		uint32_t want = sg_want(q, cnt, tasks, i);

		if (sg_pop(free) < want)
			return ESLURM_NODES_BUSY;
		out[i] = sg_lowest(free, want);
	}
	/* --gpus=N: what the even shares did not give, from the free GPUs
	 * node by node */
	for (uint32_t i = 0; i < cnt; i++)
		left = left > sg_pop(out[i]) ? left - sg_pop(out[i]) : 0;
	for (uint32_t i = 0; i < cnt && left; i++) {
		uint64_t more = job[i] & typed[i] & ~busy[i] & ~out[i];
		uint32_t n = sg_pop(more) < left ? sg_pop(more) : left;

		out[i] |= sg_lowest(more, n);
		left -= n;
	}
	return left ? ESLURM_NODES_BUSY : 0;
}

static uint64_t sg_held(const gres_alloc_item_t *a, int n, const char *name,
		      const char *type)
{
	uint64_t sum = 0;

	for (int k = 0; k < n; k++)
		if (!strcmp(a[k].name, name) &&
		    (!type || !strcmp(a[k].type, type)))
			sum += a[k].count;
	return sum;
}

static bool sg_asked(const step_gres_req_t *q, const char *name)
{
	for (size_t i = 0; i < q->other_cnt; i++)
		if (!strcmp(q->other[i].name, name))
			return true;
	return false;
}

char *step_gres_other(const step_gres_req_t *q, const char *job_alloc,
		      int *rc)
{
	gres_alloc_item_t a[128];
	int n;
	char *out = NULL;

	*rc = 0;
	if (q->mode == STEP_GRES_NONE)
		return NULL;
	if (q->mode == STEP_GRES_ALL)
		return job_alloc && *job_alloc ? xstrdup(job_alloc) : NULL;
	n = job_alloc && *job_alloc ? gres_alloc_parse(job_alloc, a, 128) : 0;
	if (n < 0)
		n = 0;
	for (size_t i = 0; i < q->other_cnt; i++) {
		uint64_t held = sg_held(a, n, q->other[i].name, q->other[i].type);

		if (held < q->other[i].count) {
			*rc = ESLURM_INVALID_GRES;
			return NULL;
		}
		if (held > q->other[i].count) {
			*rc = ESLURM_NOT_SUPPORTED;
			return NULL;
		}
	}
	for (int k = 0; k < n; k++) {
		if (!sg_asked(q, a[k].name))
			continue;
		if (a[k].gpu >= 0)
			xstrfmtcat(&out, "%s%s:%llu@%d/%llu", out ? "," : "",
				   a[k].name, (unsigned long long) a[k].count,
				   a[k].gpu,
				   (unsigned long long) a[k].per_gpu);
		else
			xstrfmtcat(&out, "%s%s%s%s:%llu", out ? "," : "",
				   a[k].name, *a[k].type ? ":" : "",
				   a[k].type, (unsigned long long) a[k].count);
	}
	return out;
}

char *step_gres_tres(const uint64_t *gpus, uint32_t cnt)
{
	uint32_t sum = 0;

	for (uint32_t i = 0; gpus && i < cnt; i++)
		sum += sg_pop(gpus[i]);
	return sum ? xstrdup_printf("gres/gpu=%u", sum) : xstrdup("");
}
