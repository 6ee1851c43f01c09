/* job_rec.c — job records on disk (job_rec.h). */
#include <string.h>

#include "common/log.h"
#include "common/tagrec.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/job_array.h"
#include "ctld/job_rec.h"
#include "ctld/job_res.h"
#include "ctld/node_mgr.h"
#include "ctld/step_mgr.h"

#define JOB1_MAGIC 0x4a4f4231u   /* "JOB1": format 1 */
#define JOB2_MAGIC 0x4a4f4232u   /* "JOB2": format 2 */
#define JALN_MAGIC 0x4a414c4eu   /* "JALN": one allocated node */
#define JARR_MAGIC 0x4a415252u   /* "JARR": array bookkeeping */

#define TAG_ALLOC "job.alloc"
#define TAG_ARRAY "job.array"
#define TAG_STEPS "job.steps"

/* The job_info_t fields of format 1, in the order it packed them: frozen
 * here, whatever job_info_fields becomes. */
#define O(m, t) { #m, t, 0 }
static const field_desc_t job_info_fields_v1[] = {
	O(job_id, FT_U32), O(array_job_id, FT_U32), O(array_task_id, FT_U32),
	O(array_task_str, FT_STR), O(array_max_tasks, FT_U32), O(name, FT_STR),
	O(user_id, FT_U32), O(user_name, FT_STR), O(group_id, FT_U32),
	O(group_name, FT_STR), O(partition, FT_STR), O(account, FT_STR),
	O(qos, FT_STR), O(comment, FT_STR), O(job_state, FT_U32),
	O(state_reason, FT_U32), O(state_desc, FT_STR), O(priority, FT_U32),
	O(nice, FT_U32), O(held_by_user, FT_BOOL), O(nodes, FT_STR),
	O(sched_nodes, FT_STR), O(batch_host, FT_STR), O(num_nodes, FT_U32),
	O(max_nodes, FT_U32), O(num_cpus, FT_U32), O(num_tasks, FT_U32),
	O(cpus_per_task, FT_U16), O(ntasks_per_node, FT_U16),
	O(min_cpus_node, FT_U32), O(pn_min_memory, FT_U64),
	O(mem_per_cpu, FT_BOOL), O(pn_min_tmp_disk, FT_U32),
	O(time_limit, FT_U32), O(time_min, FT_U32), O(submit_time, FT_TIME),
	O(eligible_time, FT_TIME), O(accrue_time, FT_TIME),
	O(start_time, FT_TIME), O(end_time, FT_TIME), O(suspend_time, FT_TIME),
	O(pre_sus_time, FT_TIME), O(last_sched_eval, FT_TIME),
	O(deadline, FT_TIME), O(work_dir, FT_STR), O(std_out, FT_STR),
	O(std_err, FT_STR), O(std_in, FT_STR), O(command, FT_STR),
	O(submit_line, FT_STR), O(alloc_node, FT_STR), O(alloc_sid, FT_U32),
	O(exit_code, FT_U32), O(derived_ec, FT_U32), O(req_nodes, FT_STR),
	O(exc_nodes, FT_STR), O(features, FT_STR), O(dependency, FT_STR),
	O(shared, FT_U16), O(contiguous, FT_U16), O(requeue, FT_U16),
	O(restart_cnt, FT_U32), O(batch_flag, FT_BOOL), O(reboot, FT_BOOL),
	O(tres_req_str, FT_STR), O(tres_alloc_str, FT_STR), O(gres, FT_STR),
	O(licenses, FT_STR), O(reservation, FT_STR), O(wckey, FT_STR),
	O(mail_type, FT_STR), O(mail_user, FT_STR),
	O(cpus_per_node_str, FT_STR), O(container, FT_STR), O(cluster, FT_STR),
	O(sched_name, FT_STR), O(billable_tres, FT_DOUBLE),
	O(kill_inv_dep, FT_U16), O(warn_signal, FT_U16), O(warn_time, FT_U16),
	O(warn_flags, FT_U16), O(warn_sent, FT_BOOL), O(suspend_start, FT_TIME),
	O(tres_per_job, FT_STR), O(tres_per_task, FT_STR), O(bitflags, FT_U32),
	O(alloc_detail, FT_STR), O(gres_alloc, FT_STR),
	FIELD_END
};
#undef O

static tagrec_table_t info_tab = TAGREC_TABLE(job_info_fields);

/* The controller's own fields of a job record. */
#define X(n, m, t) { "job." n, t, offsetof(job_record_t, m) }
static const field_desc_t job_extra_fields[] = {
	X("argv", argv, FT_STRLIST), X("prio_saved", prio_saved, FT_U32),
	X("exclusive", exclusive, FT_BOOL),
	X("ntasks_given", ntasks_given, FT_BOOL),
	X("cpt_given", cpt_given, FT_BOOL), X("open_mode", open_mode, FT_U16),
	X("begin_time", begin_time, FT_TIME),
	X("ckpt_deadline", ckpt_deadline, FT_TIME),
	X("ckpt_cnt", ckpt_cnt, FT_U32), X("ckpt_why", ckpt_why, FT_STR),
	X("share", share, FT_BOOL), X("gang_susp", gang_susp, FT_BOOL),
	FIELD_END
};
#undef X
static tagrec_table_t extra_tab = TAGREC_TABLE(job_extra_fields);

/* One allocated node. */
typedef struct {
	char     *name;
	uint16_t  cpus, tasks;
	uint64_t  mem;
	bool      comp;             /* yet to confirm the job's end */
	char     *cpu_ids;          /* job_res: CPU ids used, or NULL */
	uint64_t  gpus;
	char     *gres;             /* other GRES (gres_sel.h), or NULL */
} alloc_node_t;

#define A(m, t) FIELD(alloc_node_t, m, t)
static const field_desc_t alloc_node_fields[] = {
	A(name, FT_STR), A(cpus, FT_U16), A(tasks, FT_U16), A(mem, FT_U64),
	A(comp, FT_BOOL), A(cpu_ids, FT_STR), A(gpus, FT_U64),
	A(gres, FT_STR),
	FIELD_END
};
#undef A
static tagrec_table_t alloc_tab = TAGREC_TABLE(alloc_node_fields);

typedef struct {
	uint32_t  count, min, max, step;
	bool      meta;             /* the record holding the pending tasks */
	bitmap_t *pending;
} array_rec_t;

#define R(m, t) FIELD(array_rec_t, m, t)
static const field_desc_t array_rec_fields[] = {
	R(count, FT_U32), R(min, FT_U32), R(max, FT_U32), R(step, FT_U32),
	R(meta, FT_BOOL), R(pending, FT_BITMAP),
	FIELD_END
};
#undef R
static tagrec_table_t array_tab = TAGREC_TABLE(array_rec_fields);

/* ---- writing (format 2) ---- */

static void _pack_alloc(buf_t *b, const job_record_t *j)
{
	size_t at = tagrec_field_begin(b, TAG_ALLOC);
	const alloc_node_t zero = { 0 };
	long i, k = 0;

	pack32(b, j->alloc_cnt);
	for (i = bitmap_first_set(j->node_bitmap); i >= 0;
	     i = bitmap_next_set(j->node_bitmap, i + 1), k++) {
		alloc_node_t a = {
			.name = node_mgr_at(i)->info.name,
			.cpus = j->node_cpus[k], .tasks = j->node_tasks[k],
			.mem = j->node_mem[k],
			.comp = j->comp_bitmap && bitmap_test(j->comp_bitmap, i),
		};
		size_t r = tagrec_begin(b, JALN_MAGIC);

		job_res_saved_node(j, (uint32_t) k, &a.cpu_ids, &a.gpus,
				   &a.gres);
		tagrec_pack_diff(b, &alloc_tab, &a, &zero);
		tagrec_end(b, r);
		xfree(a.cpu_ids);
		xfree(a.gres);
	}
	tagrec_field_end(b, at);
}

static void _pack_array(buf_t *b, const job_record_t *j)
{
	size_t at = tagrec_field_begin(b, TAG_ARRAY), r;
	array_spec_stats_t st;
	const bitmap_t *pending;
	array_rec_t a = { 0 };
	const array_rec_t zero = { 0 };

	job_array_saved(j, &st, &a.meta, &pending);
	a.count = st.count;
	a.min = st.min;
	a.max = st.max;
	a.step = st.step;
	a.pending = (bitmap_t *) pending;
	r = tagrec_begin(b, JARR_MAGIC);
	tagrec_pack_diff(b, &array_tab, &a, &zero);
	tagrec_end(b, r);
	tagrec_field_end(b, at);
}

/* What a reader starts from: a new record (job_mgr_create).  Fields
 * equal to it are not written, so these defaults are part of the format:
 * they may not change (doc/dev/state-format.md). */
static const job_record_t *_defaults(void)
{
	static job_record_t *d;

	if (!d)
		d = job_mgr_create(0);
	return d;
}

void job_rec_pack(buf_t *b, const job_record_t *j)
{
	size_t at = tagrec_begin(b, JOB2_MAGIC);

	/* info is j's first member */
	tagrec_pack_diff(b, &info_tab, j, _defaults());
	tagrec_pack_diff(b, &extra_tab, j, _defaults());
	/* only jobs holding nodes need them back (finished jobs' bitmaps may
	 * predate a node table rebuild) */
	if (j->node_bitmap && j->on_run && j->alloc_cnt) {
		_pack_alloc(b, j);
		if (j->steps) {   /* running steps, next step id */
			size_t f = tagrec_field_begin(b, TAG_STEPS);

			step_mgr_pack_saved(b, j);
			tagrec_field_end(b, f);
		}
	}
	if (j->array)
		_pack_array(b, j);
	tagrec_end(b, at);
}

/* ---- reading ---- */

static void _free(job_record_t *j)
{
	if (!j)
		return;
	job_array_release(j);
	job_info_free_members(&j->info);
	xstrarray_free(j->argv);
	xfree(j->ckpt_why);
	if (j->node_bitmap)
		bitmap_destroy(j->node_bitmap);
	if (j->comp_bitmap)
		bitmap_destroy(j->comp_bitmap);
	xfree(j->node_cpus);
	xfree(j->node_tasks);
	xfree(j->node_mem);
	job_res_free(j);
	xfree(j);
}

static void _alloc_start(job_record_t *j, uint32_t cnt)
{
	size_t nn = node_mgr_count() ? node_mgr_count() : 1;

	j->node_bitmap = bitmap_create(nn);
	j->comp_bitmap = bitmap_create(nn);
	j->node_cpus = xcalloc(cnt + 1, sizeof(uint16_t));
	j->node_tasks = xcalloc(cnt + 1, sizeof(uint16_t));
	j->node_mem = xcalloc(cnt + 1, sizeof(uint64_t));
}

/* One allocated node back, matched by name (dropped if no longer
 * configured).  Names are saved in index order, so the kept ones stay in
 * the order of the bitmap.  -1 if the record is inconsistent. */
static int _alloc_node(job_record_t *j, uint32_t cnt, const alloc_node_t *a)
{
	node_record_t *n = a->name ? node_mgr_find(a->name) : NULL;
	uint32_t k = j->alloc_cnt;

	if (k >= cnt)
		return -1;
	job_res_restore_node(j, cnt, k, n, a->cpu_ids, a->gpus, a->gres);
	if (!n)
		return 0;
	if (bitmap_test(j->node_bitmap, n->index))
		return -1;
	bitmap_set(j->node_bitmap, n->index);
	if (a->comp)
		bitmap_set(j->comp_bitmap, n->index);
	j->node_cpus[k] = a->cpus;
	j->node_tasks[k] = a->tasks;
	j->node_mem[k] = a->mem;
	j->alloc_cnt++;
	return 0;
}

/* Format 1: the allocation, positional. */
static int _unpack_alloc_v1(buf_t *b, job_record_t *j)
{
	uint32_t cnt, k;
	int rc = 0;

	if (unpack32(b, &cnt) < 0 || cnt > PACK_MAX_ARRAY_LEN)
		return -1;
	if (!cnt)
		return 0;
	_alloc_start(j, cnt);
	for (k = 0; k < cnt && rc == 0; k++) {
		alloc_node_t a = { 0 };

		if (unpackstr(b, &a.name) < 0 || unpack16(b, &a.cpus) < 0 ||
		    unpack16(b, &a.tasks) < 0 || unpack64(b, &a.mem) < 0 ||
		    unpackbool(b, &a.comp) < 0 ||
		    unpackstr(b, &a.cpu_ids) < 0 || unpack64(b, &a.gpus) < 0)
			rc = -1;
		else
			rc = _alloc_node(j, cnt, &a);
		fields_free(alloc_node_fields, &a);
	}
	return rc;
}

static job_record_t *_unpack_v1(buf_t *b)
{
	job_record_t *j = job_mgr_create(0);
	uint32_t magic, n;

	if (unpack32(b, &magic) < 0 || magic != JOB1_MAGIC)
		goto fail;
	memset(&j->info, 0, sizeof(j->info));
	if (tagrec_unpack_positional(b, job_info_fields_v1, &info_tab,
				     &j->info) < 0)
		goto fail;
	if (unpackstr_array(b, &j->argv, &n, PACK_MAX_ARRAY_LEN) < 0 ||
	    unpack32(b, &j->prio_saved) < 0 || unpackbool(b, &j->exclusive) < 0 ||
	    unpackbool(b, &j->ntasks_given) < 0 ||
	    unpackbool(b, &j->cpt_given) < 0 || unpack16(b, &j->open_mode) < 0 ||
	    unpack_time(b, &j->begin_time) < 0 ||
	    _unpack_alloc_v1(b, j) < 0 || job_array_unpack(b, j) < 0)
		goto fail;
	return j;
fail:
	_free(j);
	return NULL;
}

/* Fields of a format-2 record besides job_info_t's. */
typedef struct {
	job_record_t   *j;
	tagrec_field_t  alloc, array, steps;   /* len 0: none */
	uint32_t        unknown;
} unpack_ctx_t;

static int _other(void *arg, const tagrec_field_t *f)
{
	unpack_ctx_t *c = arg;

	if (tagrec_take(&extra_tab, c->j, f))
		return 0;           /* a bad value is left at its default */
	if (f->tag == tagrec_tag(TAG_ALLOC))
		c->alloc = *f;
	else if (f->tag == tagrec_tag(TAG_ARRAY))
		c->array = *f;
	else if (f->tag == tagrec_tag(TAG_STEPS))
		c->steps = *f;
	else
		c->unknown++;
	return 0;
}

static int _unpack_alloc(job_record_t *j, const tagrec_field_t *f)
{
	buf_t *b = buf_view(f->data, f->len);
	uint32_t cnt, k;
	int rc = -1;

	if (unpack32(b, &cnt) < 0 || cnt > PACK_MAX_ARRAY_LEN ||
	    cnt > buf_remaining(b) / 8)
		goto out;
	if (cnt)
		_alloc_start(j, cnt);
	for (k = 0; k < cnt; k++) {
		alloc_node_t a = { 0 };
		int got;

		alloc_tab.hint = 0;
		got = tagrec_unpack(b, JALN_MAGIC, &alloc_tab, &a, NULL, NULL);
		if (got == 0)
			got = _alloc_node(j, cnt, &a);
		fields_free(alloc_node_fields, &a);
		if (got < 0)
			goto out;
	}
	rc = 0;
out:
	buf_destroy(b);
	return rc;
}

static int _unpack_array(job_record_t *j, const tagrec_field_t *f)
{
	buf_t *b = buf_view(f->data, f->len);
	array_rec_t a = { 0 };
	array_spec_stats_t st;
	int rc = tagrec_unpack(b, JARR_MAGIC, &array_tab, &a, NULL, NULL);

	buf_destroy(b);
	if (rc < 0) {
		fields_free(array_rec_fields, &a);
		return -1;
	}
	st.count = a.count;
	st.min = a.min;
	st.max = a.max;
	st.step = a.step;
	return job_array_restore(j, &st, a.meta, a.pending);
}

static job_record_t *_unpack_v2(buf_t *b)
{
	job_record_t *j = job_mgr_create(0);   /* defaults of a new record */
	unpack_ctx_t c = { .j = j };

	extra_tab.hint = 0;
	if (tagrec_unpack(b, JOB2_MAGIC, &info_tab, j, _other, &c) < 0)
		goto fail;
	if (c.alloc.data && _unpack_alloc(j, &c.alloc) < 0)
		goto fail;
	if (c.array.data && _unpack_array(j, &c.array) < 0)
		goto fail;
	/* a bad step list costs the steps, not the job */
	if (c.steps.data && step_mgr_unpack_saved(j, c.steps.data,
						  c.steps.len) < 0)
		error("JobId=%u: saved job steps unreadable, dropped",
		      j->info.job_id);
	if (c.unknown)
		debug("JobId=%u: %u saved field(s) unknown to this slurmctld "
		      "skipped", j->info.job_id, c.unknown);
	return j;
fail:
	_free(j);
	return NULL;
}

uint32_t job_rec_id(const void *data, uint32_t len, uint16_t version)
{
	buf_t *b = buf_view(data, len), *body = NULL;
	uint32_t magic, id = 0;
	tagrec_field_t f;

	if (version == 1) {
		if (unpack32(b, &magic) < 0 || magic != JOB1_MAGIC ||
		    unpack32(b, &id) < 0)
			id = 0;
	} else if (version == 2 && tagrec_open(b, JOB2_MAGIC, &body) == 0) {
		while (tagrec_next(body, &f) > 0) {
			if (f.tag == tagrec_tag("job_id") && f.len == 4) {
				id = (uint32_t) f.data[0] << 24 |
				     (uint32_t) f.data[1] << 16 |
				     (uint32_t) f.data[2] << 8 | f.data[3];
				break;
			}
		}
		buf_destroy(body);
	}
	buf_destroy(b);
	return id;
}

job_record_t *job_rec_unpack(buf_t *b, uint16_t version)
{
	switch (version) {
	case 1:
		return _unpack_v1(b);
	case 2:
		return _unpack_v2(b);
	default:
		return NULL;
	}
}
