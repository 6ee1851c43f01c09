/* job_info_rpc.c — REQUEST_JOB_INFO: the jobs squeue and scontrol show
 * ask for, packed straight from the controller's records; and
 * REQUEST_BATCH_SCRIPT (scontrol write batch_script). */
#include "ctld/job_info_rpc.h"

#include <event2/event.h>

#include "common/fields.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/controller.h"
#include "ctld/job_array.h"
#include "ctld/job_files.h"
#include "ctld/job_mgr.h"
#include "ctld/part_mgr.h"
#include "ctld/rpc.h"
#include "ctld/stats.h"
#include "slurm/slurm_errno.h"

static bool _wanted(const job_info_request_msg_t *r, const job_record_t *j)
{
	uint32_t k;

	if (r->user_id != NO_VAL32 && r->user_id != j->info.user_id)
		return false;
	if (!r->job_id_cnt && j->part && j->part->info.hidden &&
	    !(r->show_flags & SHOW_ALL))
		return false;
	if (!r->job_id_cnt || !r->job_ids)
		return true;
	for (k = 0; k < r->job_id_cnt; k++)
		if (r->job_ids[k] == j->info.job_id ||
		    (j->info.array_job_id && r->job_ids[k] == j->info.array_job_id) ||
		    (j->info.het_job_id && r->job_ids[k] == j->info.het_job_id))
			return true;
	return false;
}

/* Is any requested id an array or a hetjob's leader (whose other records
 * must come too)? */
static bool _names_array(const job_info_request_msg_t *r)
{
	for (uint32_t k = 0; k < r->job_id_cnt; k++) {
		job_record_t *j = job_mgr_find(r->job_ids[k]);

		if (j && (j->array || (j->info.het_job_id &&
					j->info.het_job_id == j->info.job_id)))
			return true;
	}
	return false;
}

/* ---- the whole queue, packed in slices ----
 *
 * An answer over every job (squeue, scontrol show job, GET jobs) is packed
 * on the loop in slices of INFO_SLICE_US, the loop serving its other
 * events between them (a million jobs take seconds to pack: the loop
 * would stall for all of it).  The answer is the jobs in the table's
 * array when the request came, each as it is when its slice packs it:
 * a job purged meanwhile is left out, one added meanwhile is not in (it
 * came after the request), one changed meanwhile shows its new state.
 * The array is not compacted while a pack walks it (job_mgr_all_hold), so
 * an index stays the same record or a hole.  A consistent copy-on-write
 * snapshot would need every writer of a record to copy it first; each
 * record here is consistent by itself, as each line of a Slurm reply is. */

#define INFO_SLICE_US 5000     /* loop time per slice */
#define INFO_CHUNK 256         /* jobs between two looks at the clock */
/* How many records ahead a step asks for a record's strings (and, twice
 * as far, for its fields and what _wanted reads). */
#define PACK_AHEAD 8

struct job_info_pack {
	job_info_request_msg_t r;   /* shallow: its ids are the caller's */
	rpc_viewer_t  v;
	fields_plan_t plan;
	buf_t        *body;
	size_t        count_at;    /* where the count goes in body */
	uint32_t      end, next;   /* jm.all slots to walk, the next one */
	uint32_t      cnt;         /* jobs packed */
};

/* The lines of j that _wanted and job_array_sync read. */
static void _prefetch_wanted(const job_record_t *j)
{
	__builtin_prefetch(&j->info.job_id);
	__builtin_prefetch(&j->info.user_id);
	__builtin_prefetch(&j->part);
	__builtin_prefetch(&j->array);
}

static buf_t *_body_begin(const job_info_request_msg_t *r, uint16_t version,
			  time_t now, size_t jobs, size_t *count_at)
{
	/* RESPONSE_JOB_INFO's body as msg_job_list.c packs a
	 * job_info_msg_t: only the fields the client asked for (squeue:
	 * those its format, filters and sort read). */
	buf_t *body = buf_create(64 + jobs *
				 (fields_sel_is_all(&r->fields) ? 640 : 96));

	buf_set_proto(body, version);           /* the requester's */
	pack_time(body, now);
	*count_at = buf_len(body);
	pack32(body, 0);
	fields_sel_pack(body, &r->fields);
	return body;
}

job_info_pack_t *job_info_pack_begin(const job_info_request_msg_t *r,
				     const rpc_viewer_t *v, uint16_t version,
				     time_t now)
{
	job_info_pack_t *p = xmalloc(sizeof(*p));

	p->r = *r;
	p->v = *v;
	job_mgr_all(&p->end);
	job_mgr_all_hold(true);
	p->body = _body_begin(r, version, now, job_mgr_count(), &p->count_at);
	fields_plan_init(&p->plan, job_info_fields, &r->fields);
	return p;
}

buf_t *job_info_pack_step(job_info_pack_t *p, size_t max)
{
	uint32_t n, end = p->end - p->next > max ? p->next + max : p->end;
	job_record_t *const *all = job_mgr_all(&n);
	job_record_t *j;
	buf_t *body;

	for (uint32_t k = p->next; k < end; k++) {
		if (k + 2 * PACK_AHEAD < end && all[k + 2 * PACK_AHEAD]) {
			_prefetch_wanted(all[k + 2 * PACK_AHEAD]);
			fields_plan_prefetch(&p->plan,
					     &all[k + 2 * PACK_AHEAD]->info);
		}
		if (k + PACK_AHEAD < end && all[k + PACK_AHEAD])
			fields_plan_prefetch_strs(&p->plan,
						  &all[k + PACK_AHEAD]->info);
		if (!(j = all[k]) || !_wanted(&p->r, j) || rpc_hides_job(&p->v, j))
			continue;
		job_array_sync(j);
		fields_plan_pack(p->body, &p->plan, &j->info);
		p->cnt++;
	}
	p->next = end;
	if (p->next < p->end)
		return NULL;
	pack32_at(p->body, p->count_at, p->cnt);
	body = p->body;
	p->body = NULL;
	job_info_pack_abort(p);
	return body;
}

void job_info_pack_abort(job_info_pack_t *p)
{
	if (!p)
		return;
	job_mgr_all_hold(false);
	buf_destroy(p->body);
	xfree(p);
}

/* A reply being packed in slices, and its connection. */
typedef struct {
	job_info_pack_t *p;
	net_conn_t      *c;
	struct event    *ev;
} job_info_stream_t;

/* One slice; true when the reply is gone (s freed). */
static bool _stream_slice(job_info_stream_t *s)
{
	uint64_t t0 = stats_now_usec();
	buf_t *body;

	do {
		body = job_info_pack_step(s->p, INFO_CHUNK);
	} while (!body && stats_now_usec() - t0 < INFO_SLICE_US);
	if (!body)
		return false;
	net_reply_body(s->c, RESPONSE_JOB_INFO, body);
	if (s->ev)
		event_free(s->ev);
	xfree(s);
	return true;
}

static void _on_slice(evutil_socket_t fd, short what, void *arg)
{
	job_info_stream_t *s = arg;
	struct timeval now = { 0, 0 };

	if (!_stream_slice(s))
		evtimer_add(s->ev, &now);       /* after the I/O waiting */
}

/* The whole queue (or a long list of ids) for c: the first slice now (a
 * small queue is answered at once), the rest from the loop. */
static void _stream_start(net_conn_t *c, const job_info_request_msg_t *r,
			  const rpc_viewer_t *v, time_t now)
{
	job_info_stream_t *s = xmalloc(sizeof(*s));
	struct timeval zero = { 0, 0 };

	s->c = c;
	s->p = job_info_pack_begin(r, v, net_conn_version(c), now);
	if (_stream_slice(s))
		return;
	s->ev = evtimer_new(ctld_base(), _on_slice, s);
	evtimer_add(s->ev, &zero);
}

/* A few jobs named by id: found in the hash, packed at once. */
static void _reply_by_id(net_conn_t *c, const job_info_request_msg_t *r,
			 const rpc_viewer_t *v, time_t now)
{
	fields_plan_t plan;
	size_t count_at;
	uint32_t cnt = 0;
	buf_t *body = _body_begin(r, net_conn_version(c), now, r->job_id_cnt,
				  &count_at);

	fields_plan_init(&plan, job_info_fields, &r->fields);
	for (uint32_t k = 0; k < r->job_id_cnt; k++) {
		job_record_t *j = job_mgr_find(r->job_ids[k]);

		if (!j || (r->user_id != NO_VAL32 &&
			   r->user_id != j->info.user_id) ||
		    rpc_hides_job(v, j))
			continue;
		fields_plan_pack(body, &plan, &j->info);
		cnt++;
	}
	pack32_at(body, count_at, cnt);
	net_reply_body(c, RESPONSE_JOB_INFO, body);
}

void job_mgr_rpc_info(net_conn_t *c, slurm_msg_t *m)
{
	job_info_request_msg_t all = { .user_id = NO_VAL32 }, *r = m->data;
	job_record_t *j = NULL;
	rpc_viewer_t v = rpc_viewer(m);         /* PrivateData=jobs */
	time_t now = time(NULL);

	if (!r)
		r = &all;
	/* as Slurm: nothing changed since the caller's copy (the second of
	 * that copy counts as changed: a change later in it is not missed) */
	if (r->last_update && job_mgr_last_change() < r->last_update) {
		net_reply_rc(c, SLURM_NO_CHANGE_IN_DATA);
		return;
	}
	if (r->job_id_cnt == 1 && r->job_ids && !(j = job_mgr_find(r->job_ids[0]))) {
		net_reply_rc(c, ESLURM_INVALID_JOB_ID);
		return;
	}
	if (j && r->job_id_cnt == 1 && rpc_hides_job(&v, j)) {
		net_reply_rc(c, ESLURM_ACCESS_DENIED);
		return;
	}
	if (r->job_id_cnt && r->job_ids && r->job_id_cnt < job_mgr_count() / 4 &&
	    !_names_array(r)) {
		_reply_by_id(c, r, &v, now);
		return;
	}
	_stream_start(c, r, &v, now);
}

void job_mgr_rpc_batch_script(net_conn_t *c, slurm_msg_t *m)
{
	const batch_script_request_msg_t *r = m->data;
	job_record_t *j = r && r->job_id ?
		job_mgr_find_for(r->job_id, m->auth_uid) : NULL;
	batch_script_msg_t resp = { 0 };
	char **env = NULL;

	if (!j) {
		net_reply_rc(c, ESLURM_INVALID_JOB_ID);
		return;
	}
	if (j->info.user_id != m->auth_uid && !ctld_is_operator(m->auth_uid)) {
		error("REQUEST_BATCH_SCRIPT: JobId=%u refused to uid=%u",
		      j->info.job_id, (unsigned) m->auth_uid);
		net_reply_rc(c, ESLURM_USER_ID_MISSING);
		return;
	}
	if (!j->info.batch_flag) {
		net_reply_rc(c, ESLURM_BATCH_ONLY);
		return;
	}
	if (job_files_read(ctld_conf()->state_save_location,
			   job_array_files_id(j), &resp.script, &env) < 0) {
		net_reply_rc(c, ESLURM_JOB_SCRIPT_MISSING);
		return;
	}
	xstrarray_free(env);
	net_reply(c, RESPONSE_BATCH_SCRIPT, &resp);
	xfree(resp.script);
}
