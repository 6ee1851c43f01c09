/* dbd_worker.c — one database thread, a todo and a done queue. */
#include <pthread.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <event2/event.h>

#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "dbd/dbd_acct.h"
#include "dbd/dbd_archive.h"
#include "dbd/dbd_jobs.h"
#include "dbd/dbd_notify.h"
#include "dbd/dbd_private.h"
#include "dbd/dbd_purge.h"
#include "dbd/dbd_report.h"
#include "dbd/dbd_rollup.h"
#include "dbd/dbd_stats.h"
#include "dbd/dbd_worker.h"
#include "slurm/slurm_errno.h"

#define ROLLUP_BUDGET_S 2.0  /* roll-up work between queued requests */
#define ROLLUP_RETRY_S  60   /* after a database error */

typedef struct dbd_job {
	net_conn_t          *conn;
	slurm_msg_t         *msg;     /* owned by conn until the reply */
	uint16_t             resp_type;
	void                *resp;
	struct dbd_job      *next;
} dbd_job_t;

typedef struct {
	dbd_job_t *head, *tail;
} dbd_queue_t;

static struct {
	pthread_t          thread;
	bool               started;
	bool               stopping;
	pthread_mutex_t    mutex;
	pthread_cond_t     cond;
	dbd_queue_t        todo;
	dbd_queue_t        done;
	struct event      *done_ev;
	dbd_db_t          *db;
	const dbd_conf_t  *conf;
	time_t             next_roll;   /* 0: at start */
	bool               roll_more;   /* a roll-up ran out of budget */
} wk = { .mutex = PTHREAD_MUTEX_INITIALIZER,
	 .cond = PTHREAD_COND_INITIALIZER };

static void queue_push(dbd_queue_t *q, dbd_job_t *j)
{
	j->next = NULL;
	if (q->tail)
		q->tail->next = j;
	else
		q->head = j;
	q->tail = j;
}

static dbd_job_t *queue_pop(dbd_queue_t *q)
{
	dbd_job_t *j = q->head;

	if (j) {
		q->head = j->next;
		if (!q->head)
			q->tail = NULL;
	}
	return j;
}

/* A committed change the controllers must hear of (a spurious one only
 * costs a reload). */
static bool changed(const dbd_acct_msg_t *req, const dbd_acct_resp_msg_t *r)
{
	return req->op != DBD_OP_LIST && (req->flags & DBD_ACCT_COMMIT) &&
	       r->rc != ESLURM_ACCESS_DENIED && r->cells;
}

/* sacctmgr rollup: Administrators only.  start: roll up again from
 * there; end: roll up only to there. */
static void rollup_now(const dbd_acct_ctx_t *ctx, const dbd_report_msg_t *req,
		       table_resp_msg_t *resp)
{
	time_t now = time(NULL);
	bool more;

	if (dbd_admin_level(wk.db, wk.conf, ctx->uid) < DBD_ADMIN_SUPER) {
		error("Security violation, REQUEST_DBD_ROLLUP from uid %u (%s)",
		      (unsigned)ctx->uid, ctx->peer);
		resp->rc = ESLURM_ACCESS_DENIED;
		return;
	}
	if (req->end > 0 && req->end < now)
		now = req->end;
	if (req->start > 0 &&
	    (dbd_db_begin(wk.db) < 0 ||
	     dbd_rollup_reset(wk.db, req->cluster && req->cluster[0] ?
			      req->cluster : NULL, req->start) < 0 ||
	     dbd_db_commit(wk.db) < 0)) {
		dbd_db_rollback(wk.db);
		resp->rc = ESLURM_DB_CONNECTION;
		return;
	}
	info("Roll-up requested by uid %u", (unsigned)ctx->uid);
	if (dbd_rollup_run(wk.db, wk.conf, now, 0, &more) < 0)
		resp->rc = ESLURM_DB_CONNECTION;
}

/* The hourly roll-up (and its first run at start), a budget at a time. */
static void rollup_step(void)
{
	time_t now = time(NULL);
	uint64_t t0 = dbd_stats_now_usec();
	int rc = dbd_rollup_run(wk.db, wk.conf, now, ROLLUP_BUDGET_S,
				&wk.roll_more);

	dbd_stats_rollup(dbd_stats_now_usec() - t0);
	if (rc < 0) {
		wk.roll_more = false;
		wk.next_roll = now + ROLLUP_RETRY_S;
		return;
	}
	if (!wk.roll_more)
		wk.next_roll = dbd_hour_floor(now) + 3600;
}

static bool rollup_due(void)
{
	return wk.roll_more || time(NULL) >= wk.next_roll;
}

/* sacctmgr show / clear stats: Operators and above. */
static void stats_req(const dbd_acct_ctx_t *ctx, dbd_job_t *j)
{
	bool clear = j->msg->type == REQUEST_DBD_CLEAR_STATS;
	int rc = 0;

	if (dbd_admin_level(wk.db, wk.conf, ctx->uid) < DBD_ADMIN_OPERATOR) {
		error("Security violation, %s from uid %u (%s)",
		      msg_type_name(j->msg->type), (unsigned)ctx->uid,
		      ctx->peer);
		rc = ESLURM_ACCESS_DENIED;
	}
	if (clear) {
		j->resp_type = RESPONSE_SLURM_RC;
		j->resp = xmalloc(sizeof(return_code_msg_t));
		((return_code_msg_t *)j->resp)->rc = rc;
		if (!rc) {
			info("Statistics cleared by uid %u",
			     (unsigned)ctx->uid);
			dbd_stats_clear();
		}
		return;
	}
	j->resp_type = RESPONSE_DBD_STATS;
	j->resp = xmalloc(sizeof(table_resp_msg_t));
	((table_resp_msg_t *)j->resp)->rc = rc;
	if (!rc)
		dbd_stats_table(j->resp);
}

bool dbd_worker_runs(uint16_t type)
{
	switch (type) {
	case REQUEST_DBD_ACCT:
	case REQUEST_DBD_RECORDS:
	case REQUEST_DBD_JOBS:
	case REQUEST_DBD_REPORT:
	case REQUEST_DBD_ROLLUP:
	case REQUEST_DBD_TRACK:
	case REQUEST_DBD_PROFILE:
	case REQUEST_DBD_ARCHIVE:
	case REQUEST_DBD_STATS:
	case REQUEST_DBD_CLEAR_STATS:
		return true;
	default:
		return false;
	}
}

static void run_job_timed(dbd_job_t *j);

static void run_job(dbd_job_t *j)
{
	uint64_t t0 = dbd_stats_now_usec();

	run_job_timed(j);
	dbd_stats_rpc(j->msg->type, j->msg->auth_uid,
		      dbd_stats_now_usec() - t0);
}

static void run_job_timed(dbd_job_t *j)
{
	dbd_acct_ctx_t ctx = { .uid = j->msg->auth_uid,
			       .conf = wk.conf,
			       .peer = j->msg->peer };

	switch (j->msg->type) {
	case REQUEST_DBD_STATS:
	case REQUEST_DBD_CLEAR_STATS:
		stats_req(&ctx, j);
		break;
	case REQUEST_DBD_RECORDS:
		j->resp_type = RESPONSE_DBD_RECORDS;
		j->resp = xmalloc(sizeof(dbd_records_resp_msg_t));
		dbd_jobs_store(wk.db, &ctx, j->msg->data, j->resp);
		break;
	case REQUEST_DBD_JOBS:
		j->resp_type = RESPONSE_DBD_JOBS;
		j->resp = xmalloc(sizeof(dbd_jobs_msg_t));
		dbd_jobs_query(wk.db, &ctx, j->msg->data, j->resp);
		break;
	case REQUEST_DBD_TRACK:
		j->resp_type = RESPONSE_DBD_TRACK;
		j->resp = xmalloc(sizeof(dbd_track_msg_t));
		dbd_track_query(wk.db, &ctx, j->msg->data, j->resp);
		break;
	case REQUEST_DBD_PROFILE:
		j->resp_type = RESPONSE_DBD_PROFILE;
		j->resp = xmalloc(sizeof(dbd_profile_msg_t));
		dbd_profile_query(wk.db, &ctx, j->msg->data, j->resp);
		break;
	case REQUEST_DBD_REPORT:
		j->resp_type = RESPONSE_DBD_REPORT;
		j->resp = xmalloc(sizeof(table_resp_msg_t));
		dbd_report_handle(wk.db, &ctx, j->msg->data, j->resp);
		break;
	case REQUEST_DBD_ROLLUP:
		j->resp_type = RESPONSE_DBD_REPORT;
		j->resp = xmalloc(sizeof(table_resp_msg_t));
		rollup_now(&ctx, j->msg->data, j->resp);
		break;
	case REQUEST_DBD_ARCHIVE:
		j->resp_type = RESPONSE_SLURM_RC;
		j->resp = xmalloc(sizeof(return_code_msg_t));
		dbd_archive_handle(wk.db, &ctx, j->msg->data, j->resp);
		break;
	default:
		j->resp_type = RESPONSE_DBD_ACCT;
		j->resp = xmalloc(sizeof(dbd_acct_resp_msg_t));
		dbd_acct_handle(wk.db, &ctx, j->msg->data, j->resp);
		if (changed(j->msg->data, j->resp))
			dbd_notify_send(wk.db);
	}
}

/* Between two chunks of a long purge (dbd_purge.h; no transaction open):
 * run the requests queued until now, except archive and roll-up ones,
 * which keep their place. */
static void serve_queued(void)
{
	dbd_queue_t keep = { 0 };
	dbd_job_t *j;
	size_t n = 0;

	pthread_mutex_lock(&wk.mutex);
	for (j = wk.todo.head; j; j = j->next)
		n++;
	while (n-- && (j = queue_pop(&wk.todo))) {
		if (j->msg->type == REQUEST_DBD_ARCHIVE ||
		    j->msg->type == REQUEST_DBD_ROLLUP) {
			queue_push(&keep, j);
			continue;
		}
		pthread_mutex_unlock(&wk.mutex);
		run_job(j);
		pthread_mutex_lock(&wk.mutex);
		queue_push(&wk.done, j);
		event_active(wk.done_ev, EV_READ, 0);
	}
	if (keep.head) {          /* back in front, in their order */
		keep.tail->next = wk.todo.head;
		wk.todo.head = keep.head;
		if (!wk.todo.tail)
			wk.todo.tail = keep.tail;
	}
	pthread_mutex_unlock(&wk.mutex);
}

static void *worker_main(void *arg)
{
	pthread_mutex_lock(&wk.mutex);
	for (;;) {
		dbd_job_t *j;

		while (!wk.todo.head && !wk.stopping && !rollup_due()) {
			struct timespec ts = { .tv_sec = wk.next_roll };

			if (pthread_cond_timedwait(&wk.cond, &wk.mutex, &ts) ==
			    EINVAL)
				pthread_cond_wait(&wk.cond, &wk.mutex);
		}
		j = queue_pop(&wk.todo);
		if (!j && wk.stopping)
			break;              /* stopping and nothing left */
		if (!j) {
			pthread_mutex_unlock(&wk.mutex);
			rollup_step();
			pthread_mutex_lock(&wk.mutex);
			continue;
		}
		pthread_mutex_unlock(&wk.mutex);
		run_job(j);
		pthread_mutex_lock(&wk.mutex);
		queue_push(&wk.done, j);
		event_active(wk.done_ev, EV_READ, 0);
	}
	pthread_mutex_unlock(&wk.mutex);
	return NULL;
}

/* On the loop: send every finished reply. */
static void on_done(evutil_socket_t fd, short what, void *arg)
{
	dbd_job_t *j;

	for (;;) {
		pthread_mutex_lock(&wk.mutex);
		j = queue_pop(&wk.done);
		pthread_mutex_unlock(&wk.mutex);
		if (!j)
			break;
		net_reply(j->conn, j->resp_type, j->resp);
		msg_body_free(j->resp_type, j->resp);
		xfree(j);
	}
}

int dbd_worker_init(struct event_base *base, dbd_db_t *db,
		    const dbd_conf_t *conf)
{
	sigset_t all, old;
	int rc;

	wk.db = db;
	wk.conf = conf;
	dbd_purge_set_yield(serve_queued);
	wk.done_ev = event_new(base, -1, 0, on_done, NULL);
	if (!wk.done_ev)
		return -1;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&wk.thread, NULL, worker_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		error("pthread_create: %s", strerror(rc));
		return -1;
	}
	wk.started = true;
	return 0;
}

void dbd_worker_submit(net_conn_t *conn, slurm_msg_t *msg)
{
	dbd_job_t *j = xmalloc(sizeof(*j));

	j->conn = conn;
	j->msg = msg;
	pthread_mutex_lock(&wk.mutex);
	queue_push(&wk.todo, j);
	pthread_cond_signal(&wk.cond);
	pthread_mutex_unlock(&wk.mutex);
}

void dbd_worker_fini(void)
{
	if (wk.started) {
		pthread_mutex_lock(&wk.mutex);
		wk.stopping = true;
		pthread_cond_signal(&wk.cond);
		pthread_mutex_unlock(&wk.mutex);
		pthread_join(wk.thread, NULL);
		on_done(-1, 0, NULL);
		wk.started = false;
	}
	if (wk.done_ev)
		event_free(wk.done_ev);
	wk.done_ev = NULL;
	dbd_db_close(wk.db);
	wk.db = NULL;
}
