/* commit.c — group commit to the journal (see commit.h).
 *
 * The loop frames records (cheap, in memory); one writer thread appends
 * and fdatasyncs (slow) while the loop keeps serving; one snapshot thread
 * writes snapshots.  Replies wait in two batches: those covered by the
 * write in flight, and those queued since.
 *
 * A rotation's snapshot is packed on the loop in slices of PACK_SLICE_US
 * (a million jobs take seconds to pack): the batch that starts the new
 * journal file carries no snapshot, the slices pack the jobs as they are
 * then (state_save_pack_begin), and the finished snapshot goes to the
 * snapshot thread once that journal file is in use.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>
#include <utlist.h>

#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/acct_outbox.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/job_files.h"
#include "ctld/journal.h"
#include "ctld/state_save.h"
#include "ctld/stats.h"
#include "slurm/slurm_errno.h"

#define ROTATE_MIN_BYTES (16u * 1024 * 1024)
#define RETRY_SEC 1
#define PACK_SLICE_US 5000     /* loop time per slice of a snapshot */
#define PACK_CHUNK 256         /* jobs between two looks at the clock */

typedef struct reply {
	net_conn_t    *conn;
	uint16_t       type;
	void          *data;
	commit_free_f  free_fn;
	int            rc;
	char          *msg;
	commit_after_f after;
	void          *after_arg;
	bool           prepared;      /* signed meanwhile: net_reply_release */
	int          (*finish)(void *data);
	struct reply  *next, *prev;
} reply_t;

/* One write: records to append, and maybe a snapshot to start a new
 * journal generation with. */
typedef struct {
	buf_t    *records;
	buf_t    *snapshot;
	uint64_t  snap_seq;
	uint64_t  new_gen;
	bool      recover;     /* after a failure: snapshot, then new file */
	bool      rotate;      /* new file; its snapshot is packed in slices */
	bool      rotated;     /* the new journal file is in use */
	int       rc;
	int       err;
} batch_t;

static struct {
	struct event    *commit_ev;
	struct event    *done_ev;
	struct event    *snap_ev;
	struct event    *retry_ev;
	struct event    *pack_ev;
	state_pack_t    *packing;      /* a snapshot being packed in slices */
	buf_t           *packed;       /* packed, its journal file not yet */
	uint64_t         pack_seq, pack_gen;
	bool             pack_rotated; /* its journal file is in use */
	reply_t         *waiting;
	reply_t         *inflight;
	bool             dirty;
	bool             writing;
	bool             broken;       /* last write failed */
	bool             snap_busy;    /* a snapshot is being written */
	pthread_t        thread, snap_thread;
	bool             thread_up, snap_up;
	pthread_mutex_t  mutex;
	pthread_cond_t   cond;
	batch_t         *to_write;     /* loop -> writer */
	batch_t         *written;      /* writer -> loop */
	buf_t           *snap_buf;     /* writer -> snapshot thread */
	bool             snap_seal;    /* snap_buf lacks its CRC */
	uint64_t         snap_seq, snap_gen;
	bool             snap_done;
	int              snap_rc;
	pthread_mutex_t  snap_write_mutex;
	uint64_t         snap_written_seq;
	journal_file_t  *jf;           /* the writer's, once started */
	char            *dir;
	bool             sync;
	bool             stop;
	uint64_t         seq, gen;     /* loop's */
	size_t           jbytes;       /* in the current journal file */
	size_t           rotate_at;
	bool             rotate_fixed;
	unsigned         delay_ms;     /* SLUICE_JOURNAL_DELAY_MS (tests) */
	int              handling;     /* -1, or the request's CHANGE bit */
} cm = { .mutex = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER,
	 .snap_write_mutex = PTHREAD_MUTEX_INITIALIZER, .handling = -1 };

/* ---- replies ---- */

static void _free_reply(reply_t *r)
{
	xfree(r->msg);
	xfree(r);
}

static void _send(reply_t *r)
{
	if (r->after) {
		r->after(r->after_arg);
	} else if (r->prepared) {
		net_reply_release(r->conn);
	} else if (r->type == RESPONSE_SLURM_RC) {
		return_code_msg_t m = { .rc = r->rc, .msg = r->msg };

		if (r->msg)
			net_reply(r->conn, RESPONSE_SLURM_RC, &m);
		else
			net_reply_rc(r->conn, r->rc);
	} else {
		net_reply(r->conn, r->type, r->data);
		if (r->free_fn)
			r->free_fn(r->data);
	}
	_free_reply(r);
}

static void _send_all(reply_t **list)
{
	reply_t *r, *tmp;

	DL_FOREACH_SAFE(*list, r, tmp) {
		DL_DELETE(*list, r);
		_send(r);
	}
}

/* The write failed: success replies become errors; work to do after the
 * write waits for the next one that succeeds. */
static unsigned _refuse_all(reply_t **list)
{
	reply_t *r, *tmp;
	unsigned n = 0;

	DL_FOREACH_SAFE(*list, r, tmp) {
		DL_DELETE(*list, r);
		if (r->after) {
			DL_APPEND(cm.waiting, r);
			continue;
		}
		n++;
		if (r->prepared && (r->type != RESPONSE_SLURM_RC || !r->rc)) {
			net_reply_release_rc(r->conn, ESLURM_WRITING_TO_FILE);
			_free_reply(r);
			continue;
		}
		if (r->type != RESPONSE_SLURM_RC || !r->rc) {
			if (r->type != RESPONSE_SLURM_RC && r->free_fn)
				r->free_fn(r->data);
			r->type = RESPONSE_SLURM_RC;
			r->rc = ESLURM_WRITING_TO_FILE;
			xfree(r->msg);
		}
		_send(r);
	}
	return n;
}

/* ---- threads ---- */

/* Write a snapshot unless a newer one is already written; then the
 * journal files it makes redundant go. */
static int _write_snapshot(const buf_t *b, uint64_t seq, uint64_t gen)
{
	int rc = 0;

	pthread_mutex_lock(&cm.snap_write_mutex);
	if (seq >= cm.snap_written_seq) {
		rc = state_save_write(cm.dir, b);
		if (!rc) {
			cm.snap_written_seq = seq;
			journal_remove_before(cm.dir, gen);
		}
	}
	pthread_mutex_unlock(&cm.snap_write_mutex);
	return rc;
}

static void _write_batch(batch_t *b)
{
	journal_file_t *nf;

	if (cm.delay_ms)                /* a slow disk, for tests */
		usleep(cm.delay_ms * 1000);
	if (b->recover) {
		if (!(nf = journal_create(cm.dir, b->new_gen, cm.sync)) ||
		    _write_snapshot(b->snapshot, b->snap_seq, b->new_gen) < 0) {
			b->err = errno;
			b->rc = -1;
			journal_close(nf);
			return;
		}
		journal_close(cm.jf);
		cm.jf = nf;
		b->rotated = true;
		return;
	}
	if (!cm.jf) {
		b->err = EBADF;
		b->rc = -1;
		return;
	}
	if (journal_append(cm.jf, buf_data(b->records),
			   buf_len(b->records)) < 0) {
		b->err = errno;
		b->rc = -1;
		return;
	}
	/* records only the accounting outbox holds (run tracking) */
	if (cm.sync && acct_outbox_sync_wanted())
		acct_outbox_sync();
	if (!b->snapshot && !b->rotate)
		return;
	if (!(nf = journal_create(cm.dir, b->new_gen, cm.sync))) {
		error_errno("Unable to start journal generation %llu in %s; "
			    "appending to generation %llu",
			    (unsigned long long) b->new_gen, cm.dir,
			    (unsigned long long) journal_gen(cm.jf));
		return;
	}
	journal_close(cm.jf);
	cm.jf = nf;
	b->rotated = true;
	if (!b->snapshot)
		return;
	pthread_mutex_lock(&cm.mutex);
	cm.snap_buf = b->snapshot;
	cm.snap_seal = false;
	cm.snap_seq = b->snap_seq;
	cm.snap_gen = b->new_gen;
	b->snapshot = NULL;
	pthread_cond_broadcast(&cm.cond);
	pthread_mutex_unlock(&cm.mutex);
}

static void *_writer(void *unused)
{
	pthread_mutex_lock(&cm.mutex);
	for (;;) {
		while (!cm.to_write && !cm.stop)
			pthread_cond_wait(&cm.cond, &cm.mutex);
		if (!cm.to_write)
			break;
		batch_t *b = cm.to_write;

		pthread_mutex_unlock(&cm.mutex);
		_write_batch(b);
		pthread_mutex_lock(&cm.mutex);
		cm.to_write = NULL;
		cm.written = b;
		pthread_cond_broadcast(&cm.cond);
		if (cm.done_ev)
			event_active(cm.done_ev, EV_READ, 0);
	}
	pthread_mutex_unlock(&cm.mutex);
	return NULL;
}

static void *_snapshotter(void *unused)
{
	pthread_mutex_lock(&cm.mutex);
	for (;;) {
		while (!cm.snap_buf && !cm.stop)
			pthread_cond_wait(&cm.cond, &cm.mutex);
		if (!cm.snap_buf)
			break;
		buf_t *b = cm.snap_buf;
		uint64_t seq = cm.snap_seq, gen = cm.snap_gen;
		bool seal = cm.snap_seal;

		pthread_mutex_unlock(&cm.mutex);
		if (seal)               /* packed in slices: CRC here */
			state_save_pack_seal(b);
		int rc = _write_snapshot(b, seq, gen);
		buf_destroy(b);
		pthread_mutex_lock(&cm.mutex);
		cm.snap_buf = NULL;
		cm.snap_rc = rc;
		cm.snap_done = true;
		pthread_cond_broadcast(&cm.cond);
		if (cm.snap_ev)
			event_active(cm.snap_ev, EV_READ, 0);
	}
	pthread_mutex_unlock(&cm.mutex);
	return NULL;
}

/* ---- loop side ---- */

static void _batch_free(batch_t *b)
{
	if (b->records)
		buf_destroy(b->records);
	if (b->snapshot)
		buf_destroy(b->snapshot);
	xfree(b);
}

static void _set_rotate_at(size_t snap_len)
{
	if (!cm.rotate_fixed)
		cm.rotate_at = snap_len * 2 > ROTATE_MIN_BYTES ?
			snap_len * 2 : ROTATE_MIN_BYTES;
}

static batch_t *_new_snapshot_batch(batch_t *b)
{
	b->new_gen = ++cm.gen;
	b->snap_seq = cm.seq;
	b->snapshot = state_save_pack(cm.seq, b->new_gen);
	_set_rotate_at(buf_len(b->snapshot));
	return b;
}

/* ---- the rotation's snapshot, packed in slices ---- */

static void _pack_abort(void)
{
	if (!cm.packing && !cm.packed)
		return;
	state_save_pack_abort(cm.packing);
	if (cm.packed)
		buf_destroy(cm.packed);
	cm.packing = NULL;
	cm.packed = NULL;
	cm.snap_busy = false;
}

/* Packed, and the journal file after it in use: to the snapshot thread. */
static void _pack_hand_over(void)
{
	if (!cm.packed || !cm.pack_rotated)
		return;
	pthread_mutex_lock(&cm.mutex);
	cm.snap_buf = cm.packed;
	cm.snap_seal = true;
	cm.snap_seq = cm.pack_seq;
	cm.snap_gen = cm.pack_gen;
	pthread_cond_broadcast(&cm.cond);
	pthread_mutex_unlock(&cm.mutex);
	cm.packed = NULL;
}

static void _on_pack(evutil_socket_t fd, short what, void *arg)
{
	uint64_t t0 = stats_now_usec(), t;
	struct timeval now = { 0, 0 };
	buf_t *b = NULL;

	if (!cm.packing)
		return;
	do {
		b = state_save_pack_step(cm.packing, PACK_CHUNK);
		t = stats_now_usec();
	} while (!b && t - t0 < PACK_SLICE_US);
	if (!b) {
		evtimer_add(cm.pack_ev, &now);  /* after the I/O waiting */
		return;
	}
	cm.packing = NULL;
	cm.packed = b;
	_set_rotate_at(buf_len(b));
	debug("Snapshot at seq %llu packed (%zu bytes)",
	      (unsigned long long) cm.pack_seq, buf_len(b));
	_pack_hand_over();
}

static void _start_pack(batch_t *b)
{
	struct timeval now = { 0, 0 };

	b->new_gen = ++cm.gen;
	b->snap_seq = cm.seq;
	b->rotate = true;
	cm.pack_seq = b->snap_seq;
	cm.pack_gen = b->new_gen;
	cm.pack_rotated = false;
	cm.packing = state_save_pack_begin(cm.seq, b->new_gen);
	evtimer_add(cm.pack_ev, &now);
}

static void _start_write(batch_t *b)
{
	cm.inflight = cm.waiting;
	cm.waiting = NULL;
	cm.writing = true;
	pthread_mutex_lock(&cm.mutex);
	cm.to_write = b;
	cm.written = NULL;
	pthread_cond_broadcast(&cm.cond);
	pthread_mutex_unlock(&cm.mutex);
}

static void _on_commit(evutil_socket_t fd, short what, void *arg)
{
	batch_t *b;

	if (cm.writing || (!cm.dirty && !cm.waiting) || ctld_restarting())
		return;
	if (cm.broken && evtimer_pending(cm.retry_ev, NULL))
		return;
	b = xmalloc(sizeof(*b));
	b->records = buf_create(16 * 1024);
	state_save_pack_changes(b->records, &cm.seq);
	cm.dirty = false;
	if (cm.broken) {
		b->recover = true;
		_new_snapshot_batch(b);
	} else if (!buf_len(b->records)) {
		_batch_free(b);          /* all earlier writes are done */
		_send_all(&cm.waiting);
		return;
	} else if (cm.jbytes + buf_len(b->records) >= cm.rotate_at &&
		   !cm.snap_busy) {
		_start_pack(b);
		cm.snap_busy = true;
	}
	_start_write(b);
}

/* A write that held replies failed: memory holds changes that clients
 * are told did not happen.  Refuse every reply still owed (their changes
 * are in memory too) and restart from what is on disk. */
static void _restart(unsigned refused)
{
	reply_t *w = cm.waiting;

	cm.waiting = NULL;
	refused += _refuse_all(&w);
	error("Unable to save state in %s: %u request(s) answered with an "
	      "error; restarting from the state on disk", cm.dir, refused);
	ctld_restart_from_disk();
}

static void _finish_write(batch_t *b)
{
	unsigned n;

	cm.writing = false;
	if (b->rc < 0) {
		struct timeval tv = { RETRY_SEC, 0 };

		errno = b->err;
		if (b->snapshot && !b->recover)
			cm.snap_busy = false;
		if (b->rotate)
			_pack_abort();
		cm.broken = true;
		n = _refuse_all(&cm.inflight);
		if (n) {
			error_errno("Unable to save state in %s", cm.dir);
			_restart(n);
			return;
		}
		error_errno("Unable to save state in %s: retrying with a full "
			    "snapshot; changes are refused meanwhile", cm.dir);
		evtimer_add(cm.retry_ev, &tv);
		return;
	}
	if (b->recover) {
		info("State saved in %s again (snapshot and journal "
		     "generation %llu)", cm.dir,
		     (unsigned long long) b->new_gen);
		cm.broken = false;
		cm.jbytes = 0;
	} else if (b->rotated) {
		cm.jbytes = 0;
		debug("Journal rotated to generation %llu at seq %llu",
		      (unsigned long long) b->new_gen,
		      (unsigned long long) b->snap_seq);
		if (b->rotate) {
			cm.pack_rotated = true;
			_pack_hand_over();
		}
	} else {
		cm.jbytes += buf_len(b->records);
		if (b->snapshot)
			cm.snap_busy = false;
		if (b->rotate)
			_pack_abort();  /* its records are in the old file */
	}
	_send_all(&cm.inflight);
}

static void _on_done(evutil_socket_t fd, short what, void *arg)
{
	batch_t *b;

	pthread_mutex_lock(&cm.mutex);
	b = cm.written;
	cm.written = NULL;
	pthread_mutex_unlock(&cm.mutex);
	if (!cm.writing || !b)
		return;
	_finish_write(b);
	_batch_free(b);
	if (cm.dirty || cm.waiting)
		event_active(cm.commit_ev, EV_READ, 0);
}

static void _on_snap(evutil_socket_t fd, short what, void *arg)
{
	bool done;
	int rc;

	pthread_mutex_lock(&cm.mutex);
	done = cm.snap_done;
	rc = cm.snap_rc;
	cm.snap_done = false;
	pthread_mutex_unlock(&cm.mutex);
	if (!done)
		return;
	cm.snap_busy = false;
	if (rc < 0)
		error("Unable to write the snapshot in %s: the journal keeps "
		      "its records until the next one", cm.dir);
}

static void _on_retry(evutil_socket_t fd, short what, void *arg)
{
	cm.dirty = true;          /* try the snapshot even if nothing waits */
	event_active(cm.commit_ev, EV_READ, 0);
}

static void _read_env(void)
{
	const char *v = getenv("SLUICE_JOURNAL_ROTATE_BYTES");

	cm.sync = !getenv("SLUICE_JOURNAL_NOSYNC") ||
		  !strcmp(getenv("SLUICE_JOURNAL_NOSYNC"), "0");
	if (!cm.sync)
		error("SLUICE_JOURNAL_NOSYNC is set: the journal is not "
		      "synced, acknowledged changes may be lost (for "
		      "benchmarks only)");
	if (v && atol(v) > 0) {
		cm.rotate_at = (size_t) atol(v);
		cm.rotate_fixed = true;
	}
	v = getenv("SLUICE_JOURNAL_DELAY_MS");
	if (v && atoi(v) > 0) {
		cm.delay_ms = (unsigned) atoi(v);
		error("SLUICE_JOURNAL_DELAY_MS=%u: every journal write waits "
		      "that long first (for tests only)", cm.delay_ms);
	}
}

/* The recovered state as the first snapshot, a new journal after it. */
static int _start_journal(const recover_t *r)
{
	buf_t *b;
	int rc;

	cm.seq = r->seq;
	cm.gen = r->next_gen;
	state_save_changes_reset();
	b = state_save_pack(cm.seq, cm.gen);
	_set_rotate_at(buf_len(b));
	cm.jf = journal_create(cm.dir, cm.gen, cm.sync);
	if (!cm.jf) {
		error_errno("Unable to create journal generation %llu in %s",
			    (unsigned long long) cm.gen, cm.dir);
		buf_destroy(b);
		return -1;
	}
	if (r->damaged_gen)
		recover_keep_damaged(cm.dir, r->damaged_gen, cm.gen);
	rc = _write_snapshot(b, cm.seq, cm.gen);
	buf_destroy(b);
	if (rc < 0)
		error("Unable to save state in %s", cm.dir);
	else
		debug("Journal generation %llu started at seq %llu",
		      (unsigned long long) cm.gen, (unsigned long long) cm.seq);
	return rc;
}

int commit_init(struct event_base *base, const recover_t *r,
		bool may_start_broken)
{
	struct timeval tv = { RETRY_SEC, 0 };

	cm.dir = xstrdup(ctld_conf()->state_save_location);
	_read_env();
	/* the writer first: the snapshot below waits for it to write the
	 * job files the replayed journal queued */
	if (job_files_start(cm.dir) < 0)
		return -1;
	if (_start_journal(r) < 0) {
		if (!may_start_broken)
			return -1;
		error("Unable to save state in %s: changes are refused until "
		      "a snapshot can be written (retrying)", cm.dir);
		cm.broken = true;
	} else if (may_start_broken) {
		info("State saved in %s again (snapshot and journal "
		     "generation %llu)", cm.dir, (unsigned long long) cm.gen);
	}
	cm.commit_ev = event_new(base, -1, 0, _on_commit, NULL);
	cm.done_ev = event_new(base, -1, 0, _on_done, NULL);
	cm.snap_ev = event_new(base, -1, 0, _on_snap, NULL);
	cm.retry_ev = evtimer_new(base, _on_retry, NULL);
	cm.pack_ev = evtimer_new(base, _on_pack, NULL);
	if (!cm.commit_ev || !cm.done_ev || !cm.snap_ev || !cm.retry_ev ||
	    !cm.pack_ev)
		return -1;
	if (cm.broken)
		evtimer_add(cm.retry_ev, &tv);
	if (pthread_create(&cm.thread, NULL, _writer, NULL))
		return -1;
	cm.thread_up = true;
	if (pthread_create(&cm.snap_thread, NULL, _snapshotter, NULL))
		return -1;
	cm.snap_up = true;
	return 0;
}

static void _wait_idle(void)
{
	pthread_mutex_lock(&cm.mutex);
	while ((cm.writing && !cm.written) || cm.snap_buf)
		pthread_cond_wait(&cm.cond, &cm.mutex);
	pthread_mutex_unlock(&cm.mutex);
	if (cm.writing)
		_on_done(-1, 0, NULL);
}

int commit_sync(void)
{
	buf_t *b, *rec = buf_create(4096);
	int rc;

	_pack_abort();          /* the snapshot below has it all */
	_wait_idle();
	state_save_pack_changes(rec, &cm.seq);  /* in the snapshot below */
	buf_destroy(rec);
	cm.gen++;
	b = state_save_pack(cm.seq, cm.gen);
	rc = _write_snapshot(b, cm.seq, cm.gen);
	buf_destroy(b);
	cm.dirty = false;
	if (rc < 0) {
		error("Unable to save state in %s", cm.dir);
		_refuse_all(&cm.waiting);
	}
	_send_all(&cm.waiting);
	return rc;
}

void commit_fini(void)
{
	pthread_mutex_lock(&cm.mutex);
	cm.stop = true;
	pthread_cond_broadcast(&cm.cond);
	pthread_mutex_unlock(&cm.mutex);
	if (cm.thread_up)
		pthread_join(cm.thread, NULL);
	if (cm.snap_up)
		pthread_join(cm.snap_thread, NULL);
	cm.thread_up = cm.snap_up = false;
	job_files_stop();
	if (cm.commit_ev)
		event_free(cm.commit_ev);
	if (cm.done_ev)
		event_free(cm.done_ev);
	if (cm.snap_ev)
		event_free(cm.snap_ev);
	if (cm.retry_ev)
		event_free(cm.retry_ev);
	if (cm.pack_ev)
		event_free(cm.pack_ev);
	_pack_abort();
	cm.commit_ev = cm.done_ev = cm.snap_ev = cm.retry_ev = NULL;
	cm.pack_ev = NULL;
	journal_close(cm.jf);
	cm.jf = NULL;
	xfree(cm.dir);
	state_save_fini();
}

void commit_dirty(void)
{
	cm.dirty = true;
	if (cm.commit_ev && !cm.writing)
		event_active(cm.commit_ev, EV_READ, 0);
}

/* Sign the reply while the journal syncs (a MUNGE credential is a round
 * trip to munged, as long as a short fdatasync): only its sending waits
 * for the write.  The body is packed now, so the data can go. */
static void _prepare(reply_t *r)
{
	return_code_msg_t m = { .rc = r->rc, .msg = r->msg };

	if (!cm.commit_ev || r->after || r->prepared)
		return;                 /* not started: answered at once */
	if (r->type == RESPONSE_SLURM_RC) {
		r->prepared = net_reply_prepare(r->conn, r->type, &m);
		return;
	}
	if (r->finish) {
		r->prepared = net_reply_prepare_finish(r->conn, r->type,
						       r->data, r->finish,
						       r->free_fn);
		if (r->prepared)
			r->data = NULL;
		return;
	}
	r->prepared = net_reply_prepare(r->conn, r->type, r->data);
	if (!r->prepared)
		return;
	if (r->free_fn)
		r->free_fn(r->data);
	r->data = NULL;
}

bool commit_broken(void)
{
	return cm.broken || ctld_restarting();
}

void commit_quiesce(void)
{
	_pack_abort();
	pthread_mutex_lock(&cm.snap_write_mutex);    /* never given back */
}

void commit_handling(int change)
{
	cm.handling = change;
}

static void _queue(reply_t *r)
{
	if (!r->after && cm.handling == 0)
		error("A reply that waits for the journal, from a request "
		      "that is not CHANGE in rpc.c: it would not be refused "
		      "while the journal fails");
	if (ctld_restarting()) {        /* memory is not what is on disk */
		reply_t *l = NULL;

		if (r->after) {
			_free_reply(r);
			return;
		}
		DL_APPEND(l, r);
		_refuse_all(&l);
		return;
	}
	_prepare(r);
	DL_APPEND(cm.waiting, r);
	if (!cm.commit_ev) {            /* not started: answer at once */
		_send_all(&cm.waiting);
		return;
	}
	if (!cm.writing)
		event_active(cm.commit_ev, EV_READ, 0);
}

static reply_t *_reply_new(net_conn_t *c, uint16_t type, void *data,
			   commit_free_f free_fn)
{
	reply_t *r = xmalloc(sizeof(*r));

	r->conn = c;
	r->type = type;
	r->data = data;
	r->free_fn = free_fn;
	return r;
}

void commit_reply_rc(net_conn_t *c, int rc, const char *msg)
{
	reply_t *r = _reply_new(c, RESPONSE_SLURM_RC, NULL, NULL);

	r->rc = rc;
	r->msg = xstrdup(msg);
	_queue(r);
}

void commit_reply(net_conn_t *c, uint16_t type, void *data,
		  commit_free_f free_fn)
{
	_queue(_reply_new(c, type, data, free_fn));
}

void commit_reply_finish(net_conn_t *c, uint16_t type, void *data,
			 int (*finish)(void *data), commit_free_f free_fn)
{
	reply_t *r = _reply_new(c, type, data, free_fn);
	int rc;

	r->finish = finish;
	_prepare(r);
	r->finish = NULL;
	if (!r->prepared && (rc = finish(data))) {  /* here, on the loop */
		if (free_fn)
			free_fn(data);
		r->data = NULL;
		r->type = RESPONSE_SLURM_RC;
		r->rc = rc;
	}
	_queue(r);
}

void commit_after(commit_after_f fn, void *arg)
{
	reply_t *r = xmalloc(sizeof(*r));

	r->after = fn;
	r->after_arg = arg;
	cm.dirty = true;
	_queue(r);
}
