/* msg_job_list.c — the bodies of the info lists: RESPONSE_JOB_INFO
 * (squeue's jobs, only the fields asked for) and the node, partition,
 * reservation and step lists, which share one layout (rec_list_t).  The
 * rows of msg_types.c's table point here (msg_types_int.h). */
#include "common/msg_types.h"
#include "common/msg_types_int.h"
#include "common/xmalloc.h"

#define SI(m, t) FIELD(job_step_info_t, m, t)
static const field_desc_t step_info_fields[] = {
	SI(job_id, FT_U32), SI(step_id, FT_U32), SI(array_job_id, FT_U32),
	SI(array_task_id, FT_U32), SI(name, FT_STR), SI(partition, FT_STR),
	SI(user_id, FT_U32), SI(user_name, FT_STR), SI(state, FT_U32),
	SI(start_time, FT_TIME), SI(time_limit, FT_U32), SI(nodes, FT_STR),
	SI(node_cnt, FT_U32), SI(num_tasks, FT_U32), SI(num_cpus, FT_U32),
	SI(task_dist, FT_U16), SI(srun_host, FT_STR), SI(srun_pid, FT_U32),
	SI(tres, FT_STR),
	FIELD_END
};
#undef SI

/* A list of records: time, count, then each record by its field table.
 * The node, partition, reservation and step lists share this code
 * through their layouts. */
typedef struct {
	time_t    last_update;
	uint32_t  cnt;
	void     *recs;
} rec_list_t;

static void rec_list_pack(buf_t *b, const rec_list_t *l, const field_desc_t *f,
			  size_t rec_size)
{
	pack_time(b, l->last_update);
	pack32(b, l->cnt);
	for (uint32_t i = 0; i < l->cnt; i++)
		fields_pack(b, f, (const char *)l->recs + i * rec_size);
}

static void rec_list_free(rec_list_t *l, const field_desc_t *f, size_t rec_size)
{
	for (uint32_t i = 0; i < l->cnt; i++)
		fields_free(f, (char *)l->recs + i * rec_size);
	xfree(l->recs);
	xfree(l);
}

static int rec_list_unpack(buf_t *b, void **data, const field_desc_t *f,
			   size_t rec_size)
{
	rec_list_t *l = xmalloc(sizeof(*l));
	uint32_t cnt;

	if (unpack_time(b, &l->last_update) < 0 || unpack32(b, &cnt) < 0)
		goto error;
	/* Every record takes at least one byte: a cheap sanity cap. */
	if (cnt > PACK_MAX_ARRAY_LEN || cnt > buf_remaining(b))
		goto error;
	l->recs = xcalloc(cnt ? cnt : 1, rec_size);
	for (l->cnt = 0; l->cnt < cnt; l->cnt++)
		if (fields_unpack(b, f, (char *)l->recs + l->cnt * rec_size) < 0)
			goto error;
	*data = l;
	return 0;
error:
	rec_list_free(l, f, rec_size);
	return -1;
}

_Static_assert(offsetof(node_info_msg_t, nodes) == offsetof(rec_list_t, recs), "layout");
_Static_assert(offsetof(part_info_msg_t, parts) == offsetof(rec_list_t, recs), "layout");
_Static_assert(offsetof(resv_info_msg_t, resvs) == offsetof(rec_list_t, recs), "layout");
_Static_assert(offsetof(resv_info_msg_t, cnt) == offsetof(rec_list_t, cnt), "layout");
_Static_assert(offsetof(job_step_info_msg_t, steps) == offsetof(rec_list_t, recs), "layout");
_Static_assert(offsetof(job_step_info_msg_t, cnt) == offsetof(rec_list_t, cnt), "layout");

#define REC_LIST_FUNCS(prefix, fields, rec_t)                                  \
	void prefix##_pack(buf_t *b, const void *d)                            \
	{                                                                      \
		rec_list_pack(b, d, fields, sizeof(rec_t));                    \
	}                                                                      \
	int prefix##_unpack(buf_t *b, void **d)                                \
	{                                                                      \
		return rec_list_unpack(b, d, fields, sizeof(rec_t));           \
	}                                                                      \
	void prefix##_free(void *d)                                            \
	{                                                                      \
		rec_list_free(d, fields, sizeof(rec_t));                       \
	}

/* RESPONSE_JOB_INFO: time, count, the fields chosen, then each job's
 * chosen fields (job_mgr_rpc_info packs the same from its records). */
void msg_job_list_pack(buf_t *b, const void *d)
{
	const job_info_msg_t *m = d;

	pack_time(b, m->last_update);
	pack32(b, m->cnt);
	fields_sel_pack(b, &m->fields);
	for (uint32_t i = 0; i < m->cnt; i++)
		fields_pack_sel(b, job_info_fields, &m->jobs[i], &m->fields);
}

/* The fields not chosen were never set: free only the chosen ones. */
void msg_job_list_free(void *d)
{
	job_info_msg_t *m = d;
	uint32_t cnt = m->cnt;

	/* by reference: only lists and bitmaps own memory */
	if (m->block && !fields_sel_ref_owns(job_info_fields, &m->fields))
		cnt = 0;
	for (uint32_t i = 0; i < cnt; i++) {
		if (m->block)
			fields_free_sel_ref(job_info_fields, &m->jobs[i],
					    &m->fields);
		else
			fields_free_sel(job_info_fields, &m->jobs[i],
					&m->fields);
	}
	if (m->block) {
		xfree_big(m->jobs);
		xfree_big(m->block);
	} else {
		xfree(m->jobs);
	}
	xfree(m);
}

/* From a received block (squeue's 10,000 jobs) the strings stay where
 * they are, and the records go into huge pages: no malloc per string, a
 * few page faults instead of one per 4 KiB of records. */
int msg_job_list_unpack(buf_t *b, void **d)
{
	job_info_msg_t *m = xmalloc(sizeof(*m));
	size_t bytes;
	uint32_t cnt;
	int rc;

	if (unpack_time(b, &m->last_update) < 0 || unpack32(b, &cnt) < 0 ||
	    fields_sel_unpack(b, &m->fields) < 0)
		goto error;
	/* Every record takes at least one byte: a cheap sanity cap. */
	if (cnt > PACK_MAX_ARRAY_LEN || cnt > buf_remaining(b))
		goto error;
	bytes = (cnt ? cnt : 1) * sizeof(*m->jobs);
	m->block = buf_take_block(b);
	m->jobs = m->block ? xmalloc_big(bytes) : xmalloc(bytes);
	for (m->cnt = 0; m->cnt < cnt; m->cnt++) {
		job_info_t *j = &m->jobs[m->cnt];

		rc = m->block ?
			fields_unpack_sel_ref(b, job_info_fields, j, &m->fields) :
			fields_unpack_sel(b, job_info_fields, j, &m->fields);
		if (rc < 0)
			goto error;
	}
	*d = m;
	return 0;
error:
	msg_job_list_free(m);
	return -1;
}

REC_LIST_FUNCS(msg_node_list, node_info_fields, node_info_t)
REC_LIST_FUNCS(msg_part_list, part_info_fields, part_info_t)
REC_LIST_FUNCS(msg_resv_list, resv_info_fields, resv_info_t)
REC_LIST_FUNCS(msg_step_list, step_info_fields, job_step_info_t)
