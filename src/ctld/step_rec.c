/* step_rec.c — job steps as saved state (step_mgr.h:
 * step_mgr_pack_saved, step_mgr_unpack_saved). */
#include <errno.h>
#include <stdlib.h>

#include "common/fields.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/pack.h"
#include "common/tagrec.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/step_mgr.h"
#include "ctld/step_mgr_int.h"

/* The value of a job record's "job.steps" field: u32 next step id, u32
 * count, then one tagged record per running step. */

/* One step as saved; per-node arrays as comma-separated numbers. */
typedef struct {
	uint32_t  step_id;
	char     *name;
	uint32_t  uid;
	time_t    start;
	uint32_t  num_tasks;
	uint16_t  cpt, dist, plane;
	uint32_t  node_cnt;
	char     *pos, *cpus, *tasks, *done;
	uint32_t  rc;
	char     *nodes, *host;
	uint32_t  srun_pid;
	uint64_t  user_usec, sys_usec, max_rss_kb, tot_rss_kb, max_vsize_kb,
		  tot_vsize_kb, energy;
	char     *container;
	char     *gpus;           /* per node: its GPU index mask */
	uint16_t  gpu_excl;
} sm_saved_t;

#define SV(m, t) FIELD(sm_saved_t, m, t)
static const field_desc_t sm_saved_fields[] = {
	SV(step_id, FT_U32), SV(name, FT_STR), SV(uid, FT_U32),
	SV(start, FT_TIME), SV(num_tasks, FT_U32), SV(cpt, FT_U16),
	SV(dist, FT_U16), SV(plane, FT_U16), SV(node_cnt, FT_U32),
	SV(pos, FT_STR),
	SV(cpus, FT_STR), SV(tasks, FT_STR), SV(done, FT_STR), SV(rc, FT_U32),
	SV(nodes, FT_STR), SV(host, FT_STR), SV(srun_pid, FT_U32),
	SV(user_usec, FT_U64), SV(sys_usec, FT_U64), SV(max_rss_kb, FT_U64),
	SV(tot_rss_kb, FT_U64), SV(max_vsize_kb, FT_U64),
	SV(tot_vsize_kb, FT_U64), SV(energy, FT_U64),
	SV(container, FT_STR), SV(gpus, FT_STR), SV(gpu_excl, FT_U16),
	FIELD_END
};
#undef SV
static tagrec_table_t sm_saved_tab = TAGREC_TABLE(sm_saved_fields);

#define STEP_MAGIC 0x4a535450u   /* "JSTP" */

static char *sm_join32(const uint32_t *v, uint32_t n)
{
	char *s = xstrdup("");

	for (uint32_t i = 0; i < n; i++)
		xstrfmtcat(&s, "%s%u", i ? "," : "", v[i]);
	return s;
}

void step_mgr_pack_saved(buf_t *b, const job_record_t *j)
{
	const struct job_steps *js = j->steps;
	uint32_t cnt = 0;
	const sm_step_t *s;

	for (s = js ? js->list : NULL; s; s = s->next)
		cnt++;
	pack32(b, js ? js->next_id : 0);
	pack32(b, cnt);
	for (s = js ? js->list : NULL; s; s = s->next) {
		sm_saved_t v = {
			.step_id = s->step_id, .name = s->name, .uid = s->uid,
			.start = s->start, .num_tasks = s->num_tasks,
			.cpt = s->cpt, .dist = s->dist, .plane = s->plane,
			.node_cnt = s->node_cnt,
			.rc = s->rc, .nodes = s->nodes, .host = s->host,
			.srun_pid = s->srun_pid, .user_usec = s->user_usec,
			.sys_usec = s->sys_usec, .max_rss_kb = s->max_rss_kb,
			.tot_rss_kb = s->tot_rss_kb,
			.max_vsize_kb = s->max_vsize_kb,
			.tot_vsize_kb = s->tot_vsize_kb,
			.energy = s->energy, .container = s->container,
			.gpu_excl = s->gpu_excl,
		};
		uint16_t *done = xcalloc(s->node_cnt + 1, sizeof(*done));
		size_t r;

		for (uint32_t i = 0; i < s->node_cnt; i++)
			done[i] = s->done[i];
		v.pos = sm_join32(s->pos, s->node_cnt);
		v.cpus = sm_join16(s->cpus, s->node_cnt);
		v.tasks = sm_join16(s->tasks, s->node_cnt);
		v.done = sm_join16(done, s->node_cnt);
		for (uint32_t i = 0; s->gpus && i < s->node_cnt; i++)
			xstrfmtcat(&v.gpus, "%s%llu", i ? "," : "",
				   (unsigned long long) s->gpus[i]);
		r = tagrec_begin(b, STEP_MAGIC);
		tagrec_pack(b, &sm_saved_tab, &v);
		tagrec_end(b, r);
		xfree(v.pos);
		xfree(v.cpus);
		xfree(v.tasks);
		xfree(v.done);
		xfree(v.gpus);
		xfree(done);
	}
}

/* Exactly n comma-separated 64-bit numbers (GPU masks). */
static int sm_parse_masks(const char *str, uint32_t n, uint64_t *out)
{
	const char *p = str;

	for (uint32_t i = 0; i < n; i++) {
		char *end;

		if (*p < '0' || *p > '9')
			return -1;
		errno = 0;
		out[i] = strtoull(p, &end, 10);
		if (errno || (*end && *end != ',') || (!*end && i + 1 < n))
			return -1;
		p = *end ? end + 1 : end;
	}
	return *p ? -1 : 0;
}

/* Exactly n comma-separated numbers, each <= max. */
static int sm_parse_list(const char *str, uint32_t n, uint32_t max,
			 uint32_t *out)
{
	const char *p = str;

	if (!str)
		return n ? -1 : 0;
	for (uint32_t i = 0; i < n; i++) {
		char *end;
		unsigned long v;

		if (*p < '0' || *p > '9')
			return -1;
		v = strtoul(p, &end, 10);
		if (v > max || (*end && *end != ',') || (!*end && i + 1 < n))
			return -1;
		out[i] = (uint32_t) v;
		p = *end ? end + 1 : end;
	}
	return *p ? -1 : 0;
}

static sm_step_t *sm_from_saved(job_record_t *j, const sm_saved_t *v)
{
	sm_step_t *s = xmalloc(sizeof(*s));
	uint32_t n = v->node_cnt, *tmp = xcalloc(n + 1, sizeof(*tmp));
	int bad = n == 0 || n > j->alloc_cnt;

	s->pos = xcalloc(n + 1, sizeof(*s->pos));
	s->cpus = xcalloc(n + 1, sizeof(*s->cpus));
	s->tasks = xcalloc(n + 1, sizeof(*s->tasks));
	s->done = xcalloc(n + 1, sizeof(*s->done));
	bad = bad || sm_parse_list(v->pos, n, j->alloc_cnt - 1, s->pos);
	bad = bad || sm_parse_list(v->cpus, n, UINT16_MAX, tmp);
	for (uint32_t i = 0; !bad && i < n; i++)
		s->cpus[i] = (uint16_t) tmp[i];
	bad = bad || sm_parse_list(v->tasks, n, UINT16_MAX, tmp);
	for (uint32_t i = 0; !bad && i < n; i++)
		s->tasks[i] = (uint16_t) tmp[i];
	bad = bad || sm_parse_list(v->done, n, 1, tmp);
	for (uint32_t i = 0; !bad && i < n; i++) {
		s->done[i] = tmp[i];
		s->remaining += !tmp[i];
	}
	xfree(tmp);
	if (bad || !s->remaining) {
		sm_step_free(s);
		return NULL;
	}
	s->step_id = v->step_id;
	s->name = xstrdup(v->name ? v->name : "srun");
	s->uid = v->uid;
	s->start = v->start;
	s->num_tasks = v->num_tasks;
	s->cpt = v->cpt;
	s->dist = v->dist;
	s->plane = v->plane;
	s->node_cnt = n;
	s->rc = v->rc;
	s->nodes = xstrdup(v->nodes);
	s->host = xstrdup(v->host);
	s->srun_pid = v->srun_pid;
	s->user_usec = v->user_usec;
	s->sys_usec = v->sys_usec;
	s->max_rss_kb = v->max_rss_kb;
	s->tot_rss_kb = v->tot_rss_kb;
	s->max_vsize_kb = v->max_vsize_kb;
	s->tot_vsize_kb = v->tot_vsize_kb;
	s->energy = v->energy;
	s->container = xstrdup(v->container);
	/* its GPUs: held again by the restarted controller (a record of
	 * before steps had them holds none) */
	if (v->gpus) {
		s->gpus = xcalloc(n + 1, sizeof(*s->gpus));
		if (sm_parse_masks(v->gpus, n, s->gpus)) {
			sm_step_free(s);
			return NULL;
		}
		s->gpu_excl = v->gpu_excl != 0;
	}
	sm_step_tres(s);
	return s;
}

int step_mgr_unpack_saved(job_record_t *j, const void *data, uint32_t len)
{
	buf_t *b = buf_view(data, len);
	uint32_t next_id, cnt, k;
	struct job_steps *js;
	sm_step_t **tail;
	int rc = -1;

	if (unpack32(b, &next_id) < 0 || unpack32(b, &cnt) < 0 ||
	    cnt > buf_remaining(b) / 8 || !j->alloc_cnt)
		goto out;
	js = sm_steps(j);
	js->next_id = next_id;
	for (tail = &js->list; *tail; tail = &(*tail)->next)
		;
	for (k = 0; k < cnt; k++) {
		sm_saved_t v = { 0 };
		sm_step_t *s = NULL;

		sm_saved_tab.hint = 0;
		if (tagrec_unpack(b, STEP_MAGIC, &sm_saved_tab, &v, NULL,
				  NULL) == 0)
			s = sm_from_saved(j, &v);
		fields_free(sm_saved_fields, &v);
		if (!s)
			goto out;
		for (uint32_t i = 0; i < s->node_cnt; i++)
			js->used[s->pos[i]] += s->cpus[i];
		if (s->step_id < SLURM_EXTERN_CONT && s->step_id >= js->next_id)
			js->next_id = s->step_id + 1;
		*tail = s;
		tail = &s->next;
	}
	rc = 0;
out:
	if (rc)
		step_mgr_job_free(j);
	buf_destroy(b);
	return rc;
}
