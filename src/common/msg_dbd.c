/* msg_dbd.c — the slurmdbd message bodies that carry arrays: the
 * accounting records a controller sends (REQUEST_DBD_RECORDS), and sacct's
 * query and its answer (REQUEST_DBD_JOBS, RESPONSE_DBD_JOBS).  The rows of
 * msg_types.c's table point here (msg_types_int.h). */
#include "common/msg_types.h"
#include "common/msg_types_int.h"
#include "common/xmalloc.h"

#define Q(m, t) FIELD(dbd_job_cond_msg_t, m, t)
static const field_desc_t dbd_job_cond_fields[] = {
	Q(cluster, FT_STR), Q(job_ids, FT_STRLIST), Q(users, FT_STRLIST),
	Q(gids, FT_STRLIST), Q(accounts, FT_STRLIST),
	Q(partitions, FT_STRLIST), Q(qos, FT_STRLIST), Q(names, FT_STRLIST),
	Q(states, FT_STRLIST), Q(start, FT_TIME), Q(end, FT_TIME),
	Q(flags, FT_U16),
	FIELD_END
};
#undef Q

/* REQUEST_DBD_RECORDS: cluster, epoch, count, then each frame: seq,
 * kind, the version its record is packed at (acct_rec.h: a record keeps
 * the version of the controller that wrote it, whatever the message's),
 * the record. */
void msg_dbd_records_pack(buf_t *b, const void *data)
{
	const dbd_records_msg_t *m = data;

	packstr(b, m->cluster);
	pack64(b, m->epoch);
	pack32(b, m->cnt);
	for (uint32_t i = 0; i < m->cnt; i++) {
		pack64(b, m->recs[i].seq);
		pack16(b, m->recs[i].kind);
		pack16(b, m->recs[i].version);
		packmem(b, m->recs[i].data, m->recs[i].len);
	}
}

void msg_dbd_records_free(void *data)
{
	dbd_records_msg_t *m = data;

	for (uint32_t i = 0; i < m->cnt; i++)
		acct_frame_free_members(&m->recs[i]);
	xfree(m->recs);
	xfree(m->cluster);
	xfree(m);
}

int msg_dbd_records_unpack(buf_t *b, void **data)
{
	dbd_records_msg_t *m = xmalloc(sizeof(*m));
	uint32_t cnt;

	if (unpackstr(b, &m->cluster) < 0 || unpack64(b, &m->epoch) < 0 ||
	    unpack32(b, &cnt) < 0)
		goto error;
	/* A record takes at least 16 bytes (seq, kind, version, length). */
	if (cnt > PACK_MAX_ARRAY_LEN || cnt > buf_remaining(b) / 16)
		goto error;
	m->recs = xcalloc(cnt ? cnt : 1, sizeof(*m->recs));
	for (m->cnt = 0; m->cnt < cnt; m->cnt++) {
		acct_frame_t *f = &m->recs[m->cnt];
		void *p = NULL;

		if (unpack64(b, &f->seq) < 0 || unpack16(b, &f->kind) < 0 ||
		    unpack16(b, &f->version) < 0 ||
		    unpackmem(b, &p, &f->len, ACCT_FRAME_MAX_BODY) < 0)
			goto error;
		f->data = p;
	}
	*data = m;
	return 0;
error:
	msg_dbd_records_free(m);
	return -1;
}

/* REQUEST_DBD_JOBS: the conditions by their table, then the fields the
 * answer is to carry (none chosen: all). */
void msg_dbd_job_cond_pack(buf_t *b, const void *data)
{
	const dbd_job_cond_msg_t *m = data;

	fields_pack(b, dbd_job_cond_fields, m);
	fields_sel_pack(b, &m->job_fields);
	fields_sel_pack(b, &m->step_fields);
}

void msg_dbd_job_cond_free(void *data)
{
	fields_free(dbd_job_cond_fields, data);
	xfree(data);
}

int msg_dbd_job_cond_unpack(buf_t *b, void **data)
{
	dbd_job_cond_msg_t *m = xmalloc(sizeof(*m));

	if (fields_unpack(b, dbd_job_cond_fields, m) < 0) {
		xfree(m);
		return -1;
	}
	if (fields_sel_unpack(b, &m->job_fields) < 0 ||
	    fields_sel_unpack(b, &m->step_fields) < 0) {
		msg_dbd_job_cond_free(m);
		return -1;
	}
	*data = m;
	return 0;
}

/* RESPONSE_DBD_JOBS: rc, then the jobs and the steps, each as the fields
 * chosen, the count and the records' chosen fields. */
void msg_dbd_jobs_pack(buf_t *b, const void *data)
{
	const dbd_jobs_msg_t *m = data;

	pack32(b, (uint32_t)m->rc);
	fields_sel_pack(b, &m->job_fields);
	pack32(b, m->job_cnt);
	for (uint32_t i = 0; i < m->job_cnt; i++)
		fields_pack_sel(b, acct_job_rec_fields, &m->jobs[i],
				&m->job_fields);
	fields_sel_pack(b, &m->step_fields);
	pack32(b, m->step_cnt);
	for (uint32_t i = 0; i < m->step_cnt; i++)
		fields_pack_sel(b, acct_step_rec_fields, &m->steps[i],
				&m->step_fields);
	pack32(b, m->script_cnt);
	for (uint32_t i = 0; i < m->script_cnt; i++)
		fields_pack(b, acct_script_rec_fields, &m->scripts[i]);
}

void msg_dbd_jobs_free(void *data)
{
	dbd_jobs_msg_t *m = data;

	for (uint32_t i = 0; i < m->job_cnt; i++)
		fields_free_sel(acct_job_rec_fields, &m->jobs[i],
				&m->job_fields);
	for (uint32_t i = 0; i < m->step_cnt; i++)
		fields_free_sel(acct_step_rec_fields, &m->steps[i],
				&m->step_fields);
	for (uint32_t i = 0; i < m->script_cnt; i++)
		fields_free(acct_script_rec_fields, &m->scripts[i]);
	xfree(m->jobs);
	xfree(m->steps);
	xfree(m->scripts);
	xfree(m);
}

/* The fewest bytes a record with the chosen fields packs into (a string
 * is at least its length): a cap on a count before allocating. */
static size_t rec_min_bytes(const field_desc_t *f, const fields_sel_t *s)
{
	bool all = fields_sel_is_all(s);
	size_t n = 0;

	for (size_t i = 0; f[i].name; i++) {
		if (!all && !(s->w[i / 64] >> (i % 64) & 1))
			continue;
		switch (f[i].type) {
		case FT_STR:
		case FT_STRLIST:
		case FT_BITMAP:
			n += 4;
			break;
		default:
			n += fields_size(f[i].type);
		}
	}
	return n ? n : 1;
}

static int unpack_recs(buf_t *b, const field_desc_t *f, size_t size,
		       fields_sel_t *sel, uint32_t *cnt_out, void **recs_out)
{
	uint32_t cnt;
	char *recs;

	if (fields_sel_unpack(b, sel) < 0 || unpack32(b, &cnt) < 0 ||
	    cnt > PACK_MAX_ARRAY_LEN ||
	    cnt > buf_remaining(b) / rec_min_bytes(f, sel))
		return -1;
	recs = xcalloc(cnt ? cnt : 1, size);
	*recs_out = recs;
	for (*cnt_out = 0; *cnt_out < cnt; (*cnt_out)++)
		if (fields_unpack_sel(b, f, recs + (size_t)*cnt_out * size,
				      sel) < 0)
			return -1;
	return 0;
}

/* Job id, submit time and two strings: at least 20 bytes each. */
static int unpack_scripts(buf_t *b, dbd_jobs_msg_t *m)
{
	uint32_t cnt;

	if (unpack32(b, &cnt) < 0 || cnt > PACK_MAX_ARRAY_LEN ||
	    cnt > buf_remaining(b) / 20)
		return -1;
	m->scripts = xcalloc(cnt ? cnt : 1, sizeof(*m->scripts));
	for (m->script_cnt = 0; m->script_cnt < cnt; m->script_cnt++)
		if (fields_unpack(b, acct_script_rec_fields,
				  &m->scripts[m->script_cnt]) < 0)
			return -1;
	return 0;
}

int msg_dbd_jobs_unpack(buf_t *b, void **data)
{
	dbd_jobs_msg_t *m = xmalloc(sizeof(*m));
	uint32_t rc;

	if (unpack32(b, &rc) < 0)
		goto error;
	m->rc = (int32_t)rc;
	if (unpack_recs(b, acct_job_rec_fields, sizeof(acct_job_rec_t),
			&m->job_fields, &m->job_cnt, (void **)&m->jobs) < 0 ||
	    unpack_recs(b, acct_step_rec_fields, sizeof(acct_step_rec_t),
			&m->step_fields, &m->step_cnt,
			(void **)&m->steps) < 0 ||
	    unpack_scripts(b, m) < 0)
		goto error;
	*data = m;
	return 0;
error:
	msg_dbd_jobs_free(m);
	return -1;
}
