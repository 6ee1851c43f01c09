/* crontab.c — scrontab's crontabs and their jobs (crontab.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "common/cron_spec.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/crontab.h"
#include "ctld/job_mgr.h"
#include "ctld/sched.h"
#include "slurm/slurm_errno.h"

#define CT_BASE(j) ((j)->info.job_state & JOB_STATE_BASE)

/* One entry: its job and its lines (1-based) in the text. */
typedef struct {
	uint32_t job_id;
	uint32_t line_start;
	uint32_t line_end;
	bool     disabled;        /* its job was cancelled */
} cron_ent_t;

typedef struct user_tab {
	uint32_t         uid;
	char            *text;
	uint32_t         cnt;
	cron_ent_t      *ents;
	struct user_tab *next;
} user_tab_t;

static struct {
	user_tab_t *head;
	bool        dirty;
} ct;

/* ---- ScronParameters ---- */

static bool _ct_param(const char *word)
{
	const char *p = ctld_conf()->scron_params;
	size_t n = strlen(word);

	while (p && *p) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncasecmp(p, word, n))
			return true;
		p += len;
		if (*p == ',')
			p++;
	}
	return false;
}

void crontab_check_conf(void)
{
	const char *p = ctld_conf()->scron_params;

	while (p && *p) {
		size_t len = strcspn(p, ",");

		if (len && !(len == 6 && !strncasecmp(p, "enable", 6)) &&
		    !(len == 16 && !strncasecmp(p, "explicit_scancel", 16)))
			error("ScronParameters: unknown option \"%.*s\" "
			      "(known: enable, explicit_scancel)", (int) len, p);
		p += len;
		if (*p == ',')
			p++;
	}
}

/* ---- the table ---- */

static user_tab_t *_ct_find(uint32_t uid)
{
	for (user_tab_t *t = ct.head; t; t = t->next)
		if (t->uid == uid)
			return t;
	return NULL;
}

static void _ct_tab_free(user_tab_t *t)
{
	if (!t)
		return;
	xfree(t->text);
	xfree(t->ents);
	xfree(t);
}

/* Unlink uid's crontab and hand it over (NULL if none). */
static user_tab_t *_ct_take(uint32_t uid)
{
	for (user_tab_t **pp = &ct.head; *pp; pp = &(*pp)->next) {
		user_tab_t *t = *pp;

		if (t->uid == uid) {
			*pp = t->next;
			t->next = NULL;
			return t;
		}
	}
	return NULL;
}

static void _ct_put(user_tab_t *t)
{
	t->next = ct.head;
	ct.head = t;
}

void crontab_fini(void)
{
	while (ct.head) {
		user_tab_t *t = ct.head;

		ct.head = t->next;
		_ct_tab_free(t);
	}
}

void crontab_pack_state(buf_t *b)
{
	uint32_t n = 0;

	for (user_tab_t *t = ct.head; t; t = t->next)
		n++;
	pack32(b, n);
	for (user_tab_t *t = ct.head; t; t = t->next) {
		pack32(b, t->uid);
		packstr(b, t->text);
		pack32(b, t->cnt);
		for (uint32_t i = 0; i < t->cnt; i++) {
			pack32(b, t->ents[i].job_id);
			pack32(b, t->ents[i].line_start);
			pack32(b, t->ents[i].line_end);
			packbool(b, t->ents[i].disabled);
		}
	}
}

/* One user's crontab from b; NULL if malformed. */
static user_tab_t *_ct_unpack_tab(buf_t *b)
{
	user_tab_t *t = xmalloc(sizeof(*t));
	uint32_t n;

	if (unpack32(b, &t->uid) < 0 || unpackstr(b, &t->text) < 0 ||
	    !t->text || strlen(t->text) > CRONTAB_MAX_BYTES ||
	    unpack32(b, &n) < 0 || n > CRONTAB_MAX_ENTRIES ||
	    n > buf_remaining(b) / 13)
		goto error;
	t->ents = xcalloc(n ? n : 1, sizeof(*t->ents));
	for (; t->cnt < n; t->cnt++) {
		cron_ent_t *e = &t->ents[t->cnt];

		if (unpack32(b, &e->job_id) < 0 ||
		    unpack32(b, &e->line_start) < 0 ||
		    unpack32(b, &e->line_end) < 0 ||
		    unpackbool(b, &e->disabled) < 0 ||
		    e->line_start > e->line_end)
			goto error;
	}
	return t;
error:
	_ct_tab_free(t);
	return NULL;
}

int crontab_unpack_state(buf_t *b, uint16_t version)
{
	user_tab_t *head = NULL, *t;
	uint32_t n;

	if (version < 1 || version > CRONTAB_STATE_VERSION ||
	    unpack32(b, &n) < 0 || n > buf_remaining(b) / 12)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		if (!(t = _ct_unpack_tab(b))) {
			while (head) {
				t = head;
				head = t->next;
				_ct_tab_free(t);
			}
			return -1;
		}
		t->next = head;
		head = t;
	}
	crontab_fini();
	ct.head = head;
	return 0;
}

bool crontab_take_dirty(void)
{
	bool d = ct.dirty;

	ct.dirty = false;
	return d;
}

/* ---- jobs ---- */

/* The next start of a job's entry after now; 0 (logged) if none. */
static time_t _ct_next_start(const job_record_t *j, time_t now)
{
	cron_spec_t c;
	char err[160];
	time_t t;

	if (cron_spec_parse_only(j->info.cronspec, &c, err, sizeof(err))) {
		error("JobId=%u: CrontabSpec \"%s\": %s", j->info.job_id,
		      j->info.cronspec ? j->info.cronspec : "", err);
		return 0;
	}
	if (!(t = cron_spec_next(&c, now)))
		error("JobId=%u: CrontabSpec \"%s\" never matches again",
		      j->info.job_id, j->info.cronspec);
	return t;
}

time_t crontab_next_start(const job_record_t *j, time_t now)
{
	return _ct_next_start(j, now);
}

uint32_t crontab_job_end(job_record_t *j, uint32_t state)
{
	uint32_t base = state & JOB_STATE_BASE;
	time_t next;

	if (!(j->info.bitflags & JOB_CRON) || base == JOB_CANCELLED ||
	    base == JOB_PENDING || (state & JOB_REQUEUE) || !j->node_bitmap ||
	    !j->on_run)
		return state;
	if (!(next = _ct_next_start(j, time(NULL))))
		return state;
	j->begin_time = next;
	info("JobId=%u: cron job ended %s, requeued for its next start in "
	     "%ld s", j->info.job_id, job_state_string(state),
	     (long) (next - time(NULL)));
	return state | JOB_REQUEUE;
}

static cron_ent_t *_ct_find_ent(uint32_t uid, uint32_t job_id)
{
	user_tab_t *t = _ct_find(uid);

	for (uint32_t i = 0; t && i < t->cnt; i++)
		if (t->ents[i].job_id == job_id)
			return &t->ents[i];
	return NULL;
}

int crontab_job_cancel(job_record_t *j, uint16_t kill_flags, uid_t uid)
{
	cron_ent_t *e;

	if (_ct_param("explicit_scancel") && !(kill_flags & KILL_CRON)) {
		info("_slurm_rpc_kill_job: JobId=%u is a cron job: uid %u "
		     "did not give --cron", j->info.job_id, (unsigned) uid);
		return ESLURM_CANNOT_CANCEL_CRON_JOB;
	}
	if ((e = _ct_find_ent(j->info.user_id, j->info.job_id)) && !e->disabled) {
		e->disabled = true;
		ct.dirty = true;
		info("JobId=%u cancelled by uid %u: crontab lines %u-%u of "
		     "uid %u disabled", j->info.job_id, (unsigned) uid,
		     e->line_start, e->line_end, j->info.user_id);
	}
	return 0;
}

/* The old crontab's jobs: a pending one is cancelled, a running one
 * finishes as an ordinary job. */
static void _ct_retire(const user_tab_t *t, uid_t by)
{
	for (uint32_t i = 0; t && i < t->cnt; i++) {
		job_record_t *j = job_mgr_find(t->ents[i].job_id);
		job_info_t *in;

		if (!j || !(j->info.bitflags & JOB_CRON) ||
		    j->info.user_id != t->uid)
			continue;
		in = &j->info;
		if (CT_BASE(j) == JOB_PENDING &&
		    (in->job_state & (JOB_COMPLETING | JOB_REQUEUE)) ==
		    (JOB_COMPLETING | JOB_REQUEUE)) {
			job_mgr_requeue_cancel(j, by);
		} else if (CT_BASE(j) == JOB_PENDING &&
			   !(in->job_state & JOB_COMPLETING)) {
			j->acct_requid = by;
			job_mgr_end(j, JOB_CANCELLED, in->state_reason, 0);
		} else if (CT_BASE(j) < JOB_COMPLETE) {
			in->bitflags &= ~JOB_CRON;
			xfree(in->cronspec);
			job_mgr_touch(j);
		}
		debug("JobId=%u: its crontab entry of uid %u was replaced",
		      in->job_id, t->uid);
	}
}

/* ---- requests ---- */

static void _ct_resp_free(void *data)
{
	msg_body_free(RESPONSE_UPDATE_CRONTAB, data);
}

static void _ct_refuse(net_conn_t *c, int rc, const char *msg,
		    const crontab_entry_t *e)
{
	crontab_update_resp_msg_t r = { .rc = (uint32_t) rc,
					.err_msg = (char *) msg };
	char lines[32] = "";

	if (e) {
		snprintf(lines, sizeof(lines), "%u-%u", e->line_start,
			 e->line_end);
		r.failed_lines = lines;
	}
	net_reply(c, RESPONSE_UPDATE_CRONTAB, &r);
}

/* Who may act on uid's crontab: uid itself; operators, root and
 * SlurmUser on anyone's. */
static bool _ct_may(const slurm_msg_t *m, uint32_t uid, const char *rpc)
{
	if (uid == m->auth_uid || ctld_is_operator(m->auth_uid))
		return true;
	error("Security violation, %s RPC for uid %u from uid=%u", rpc, uid,
	      (unsigned) m->auth_uid);
	return false;
}

/* Check every entry and make (not add) its job: 0, or the refusal
 * answered and every record made freed. */
static int _ct_trial_all(net_conn_t *c, slurm_msg_t *m, crontab_update_msg_t *u,
		      job_record_t **made)
{
	time_t now = time(NULL);

	for (uint32_t i = 0; i < u->entry_cnt; i++) {
		crontab_entry_t *e = &u->entries[i];
		job_desc_t *d = &e->desc;
		cron_spec_t spec;
		char err[160], *msg = NULL;
		int rc = 0;

		if (!e->cronspec || strlen(e->cronspec) >= CRON_SPEC_MAX ||
		    cron_spec_parse_only(e->cronspec, &spec, err,
					 sizeof(err)) < 0) {
			rc = ESLURM_INVALID_TIME_VALUE;
			msg = xstrdup_printf("bad time specification: %s",
					     e->cronspec ? err : "none");
		} else if (!(d->begin_time = cron_spec_next(&spec, now))) {
			rc = ESLURM_INVALID_TIME_VALUE;
			msg = xstrdup("the time specification never matches");
		} else if (d->array_inx && *d->array_inx) {
			rc = ESLURM_NOT_SUPPORTED;
			msg = xstrdup("a crontab entry cannot be a job array");
		} else if (e->line_start > e->line_end || !e->line_start) {
			rc = SLURM_ERROR;
		}
		if (!rc) {
			d->user_id = u->user_id;
			d->group_id = u->group_id;
			d->bitflags |= JOB_CRON;
			made[i] = job_mgr_trial(d, m, &rc, &msg);
			if (made[i] && made[i]->info.user_id != u->user_id)
				rc = ESLURM_USER_ID_MISSING;
		}
		if (rc) {
			info("_slurm_rpc_update_crontab: uid %u: lines %u-%u: "
			     "%s%s%s", u->user_id, e->line_start, e->line_end,
			     slurm_strerror(rc), msg ? ": " : "",
			     msg ? msg : "");
			_ct_refuse(c, rc, msg, e);
			xfree(msg);
			for (uint32_t k = 0; k <= i; k++) {
				job_mgr_trial_free(made[k]);
				made[k] = NULL;
			}
			return -1;
		}
		xfree(msg);
		made[i]->info.cronspec = xstrdup(e->cronspec);
	}
	return 0;
}

void crontab_rpc_update(net_conn_t *c, slurm_msg_t *m)
{
	crontab_update_msg_t *u = m->data;
	crontab_update_resp_msg_t *r;
	job_record_t **made;
	user_tab_t *t;

	if (!u) {
		_ct_refuse(c, SLURM_ERROR, NULL, NULL);
		return;
	}
	if (!_ct_param("enable")) {
		_ct_refuse(c, ESLURM_NOT_SUPPORTED, "scrontab is disabled on "
			"this cluster", NULL);
		return;
	}
	if (!ctld_is_operator(m->auth_uid))
		u->group_id = m->auth_gid;
	if (!_ct_may(m, u->user_id, "REQUEST_UPDATE_CRONTAB")) {
		_ct_refuse(c, ESLURM_ACCESS_DENIED, NULL, NULL);
		return;
	}
	if (!u->crontab && u->entry_cnt) {
		_ct_refuse(c, SLURM_ERROR, NULL, NULL);
		return;
	}
	made = xcalloc(u->entry_cnt ? u->entry_cnt : 1, sizeof(*made));
	if (_ct_trial_all(c, m, u, made) < 0) {
		xfree(made);
		return;
	}
	/* all or nothing: from here on nothing is refused */
	t = _ct_take(u->user_id);
	_ct_retire(t, m->auth_uid);
	_ct_tab_free(t);
	r = xmalloc(sizeof(*r));
	r->job_ids = xcalloc(u->entry_cnt ? u->entry_cnt : 1,
			     sizeof(*r->job_ids));
	if (u->crontab) {
		t = xmalloc(sizeof(*t));
		t->uid = u->user_id;
		t->text = u->crontab;
		u->crontab = NULL;
		t->ents = xcalloc(u->entry_cnt ? u->entry_cnt : 1,
				  sizeof(*t->ents));
		for (uint32_t i = 0; i < u->entry_cnt; i++) {
			job_mgr_trial_add(made[i], &u->entries[i].desc);
			t->ents[i].job_id = made[i]->info.job_id;
			t->ents[i].line_start = u->entries[i].line_start;
			t->ents[i].line_end = u->entries[i].line_end;
			r->job_ids[i] = made[i]->info.job_id;
		}
		t->cnt = r->job_cnt = u->entry_cnt;
		_ct_put(t);
	}
	xfree(made);
	ct.dirty = true;
	info("_slurm_rpc_update_crontab: uid %u: crontab of uid %u %s "
	     "(%u entries)", (unsigned) m->auth_uid, u->user_id,
	     r->job_cnt || _ct_find(u->user_id) ? "installed" : "removed",
	     r->job_cnt);
	sched_trigger();
	commit_reply(c, RESPONSE_UPDATE_CRONTAB, r, _ct_resp_free);
}

void crontab_rpc_get(net_conn_t *c, slurm_msg_t *m)
{
	crontab_request_msg_t *q = m->data;
	crontab_resp_msg_t r = { 0 };
	user_tab_t *t;

	if (!q || !_ct_may(m, q->user_id, "REQUEST_CRONTAB")) {
		net_reply_rc(c, ESLURM_ACCESS_DENIED);
		return;
	}
	if ((t = _ct_find(q->user_id))) {
		r.crontab = t->text;
		for (uint32_t i = 0; i < t->cnt; i++) {
			const cron_ent_t *e = &t->ents[i];

			if (!e->disabled)
				continue;
			if (e->line_start == e->line_end)
				xstrfmtcat(&r.disabled_lines, "%s%u",
					   r.disabled_lines ? "," : "",
					   e->line_start);
			else
				xstrfmtcat(&r.disabled_lines, "%s%u-%u",
					   r.disabled_lines ? "," : "",
					   e->line_start, e->line_end);
		}
	}
	net_reply(c, RESPONSE_CRONTAB, &r);
	xfree(r.disabled_lines);
}
