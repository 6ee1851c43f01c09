/* job_info_rpc.c — REQUEST_JOB_INFO: the jobs squeue and scontrol show
 * ask for, packed straight from the controller's records; and
 * REQUEST_BATCH_SCRIPT (scontrol write batch_script). */
#include "ctld/job_info_rpc.h"

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

/* How many records ahead job_mgr_rpc_info asks for the strings of a
 * record (and, twice as far, for its fields). */
#define PACK_AHEAD 8

/* The lines of j that _wanted and job_array_sync read. */
static void _prefetch_wanted(const job_record_t *j)
{
	__builtin_prefetch(&j->info.job_id);
	__builtin_prefetch(&j->info.user_id);
	__builtin_prefetch(&j->part);
	__builtin_prefetch(&j->array);
}

/* The jobs r asks for that v may see, in the order they were added, into
 * sel (room for job_mgr_count()); how many. */
static uint32_t _list_jobs(const job_info_request_msg_t *r,
			   const rpc_viewer_t *v, job_record_t **sel)
{
	uint32_t n = 0, cnt;
	job_record_t *const *all = job_mgr_all(&cnt);
	job_record_t *j;

	for (uint32_t k = 0; k < cnt; k++) {
		if (k + PACK_AHEAD < cnt && all[k + PACK_AHEAD])
			_prefetch_wanted(all[k + PACK_AHEAD]);
		if (!(j = all[k]) || !_wanted(r, j) || rpc_hides_job(v, j))
			continue;
		job_array_sync(j);
		sel[n++] = j;
	}
	return n;
}

void job_mgr_rpc_info(net_conn_t *c, slurm_msg_t *m)
{
	job_info_request_msg_t all = { .user_id = NO_VAL32 }, *r = m->data;
	job_info_msg_t resp = { .last_update = time(NULL) };
	job_record_t *j = NULL;
	bool by_id;

	rpc_viewer_t v = rpc_viewer(m);         /* PrivateData=jobs */
	job_record_t **sel;
	fields_plan_t plan;
	buf_t *body;

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
	by_id = r->job_id_cnt && r->job_ids && r->job_id_cnt < job_mgr_count() / 4 &&
		!_names_array(r);
	/* Pointers to the records, packed straight from them (no copy of
	 * each job_info_t: 600 bytes x 50,000 jobs); sized for the answer. */
	sel = xmalloc(((by_id ? r->job_id_cnt : job_mgr_count()) + 1) * sizeof(*sel));
	if (by_id) {
		for (uint32_t k = 0; k < r->job_id_cnt; k++) {
			j = job_mgr_find(r->job_ids[k]);
			if (j && (r->user_id == NO_VAL32 ||
				  r->user_id == j->info.user_id) &&
			    !rpc_hides_job(&v, j))
				sel[resp.cnt++] = j;
		}
	} else {
		resp.cnt = _list_jobs(r, &v, sel);
	}
	/* RESPONSE_JOB_INFO's body as msg_job_list.c packs a job_info_msg_t:
	 * only the fields the client asked for (squeue: those its format,
	 * filters and sort read). */
	body = buf_create(64 + (size_t)resp.cnt *
			  (fields_sel_is_all(&r->fields) ? 640 : 96));
	buf_set_proto(body, m->version);        /* the requester's */
	pack_time(body, resp.last_update);
	pack32(body, resp.cnt);
	fields_sel_pack(body, &r->fields);
	fields_plan_init(&plan, job_info_fields, &r->fields);
	for (uint32_t k = 0; k < resp.cnt; k++) {
		if (k + 2 * PACK_AHEAD < resp.cnt)
			fields_plan_prefetch(&plan, &sel[k + 2 * PACK_AHEAD]->info);
		if (k + PACK_AHEAD < resp.cnt)
			fields_plan_prefetch_strs(&plan, &sel[k + PACK_AHEAD]->info);
		fields_plan_pack(body, &plan, &sel[k]->info);
	}
	xfree(sel);
	net_reply_body(c, RESPONSE_JOB_INFO, body);
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
