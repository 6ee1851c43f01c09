/* trigger.c — event triggers (trigger.h).
 *
 * A trigger is ARMED until its event is seen in a pass (once a second,
 * from the tick); then, with a positive offset and an event that is not
 * itself timed, it WAITS offset seconds; then its program RUNS on a
 * thread of its own.  A trigger without PERM leaves the table (journaled)
 * when it runs; a PERM one is ARMED again when its program has ended.
 * Events between two passes are gathered (node bitmaps, daemon event
 * bits, ended jobs) and forgotten after the pass, as Slurm does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event2/event.h>

#include "common/bitmap.h"
#include "common/debug_flags.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/msg_types_int.h"
#include "common/parse_util.h"
#include "common/spawn.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/acct_send.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/job_mgr.h"
#include "ctld/node_mgr.h"
#include "ctld/trigger.h"
#include "ctld/trigger_int.h"

#define TRIGGER_PROG_TIMEOUT 300      /* seconds, then killed */

/* Per node, what the last look saw (node index). */
enum { TSEEN_KNOWN = 1, TSEEN_DOWN = 2, TSEEN_DRAINED = 4, TSEEN_FAIL = 8 };

static struct {
	trig_t   *head;
	uint32_t  next_id;
	bool      dirty;
	/* events since the last pass */
	bitmap_t *ev_up, *ev_down, *ev_drained, *ev_fail;
	uint32_t  ev_daemon;         /* TRIGGER_TYPE_* bits */
	bool      ev_reconfig;
	uint32_t *ended;             /* job ids that ended */
	size_t    ended_cnt, ended_cap;
	struct { uint32_t id, type; } *hit;   /* jobs whose node went down
					       * or came up (type) */
	size_t    hit_cnt, hit_cap;
	/* node states as last seen */
	uint8_t  *seen;
	time_t   *idle_since;
	size_t    nseen;
	/* slurmdbd as last seen by the tick */
	uint64_t  dbd_failures, dbd_batches;
	bool      dbd_down;
} tg = { .next_id = 1 };

/* A program run: what the thread needs, copied. */
typedef struct {
	uint32_t trig_id;
	bool     perm;
	uid_t    uid;
	gid_t    gid;
	char    *path;
	char   **argv;
	char   **env;             /* made on the thread */
	char    *conf;            /* SLURM_CONF */
} trig_run_t;

/* ---- names ---- */

static const struct {
	uint32_t    bit;
	const char *name;
} tr_type_names[] = {
	{ TRIGGER_TYPE_UP, "up" },
	{ TRIGGER_TYPE_DOWN, "down" },
	{ TRIGGER_TYPE_FAIL, "fail" },
	{ TRIGGER_TYPE_TIME, "time" },
	{ TRIGGER_TYPE_FINI, "fini" },
	{ TRIGGER_TYPE_RECONFIG, "reconfig" },
	{ TRIGGER_TYPE_IDLE, "idle" },
	{ TRIGGER_TYPE_DRAINED, "drained" },
	{ TRIGGER_TYPE_PRI_CTLD_FAIL, "primary_slurmctld_failure" },
	{ TRIGGER_TYPE_PRI_CTLD_RES_OP, "primary_slurmctld_resumed_operation" },
	{ TRIGGER_TYPE_PRI_CTLD_RES_CTRL, "primary_slurmctld_resumed_control" },
	{ TRIGGER_TYPE_PRI_CTLD_ACCT_FULL, "primary_slurmctld_acct_buffer_full" },
	{ TRIGGER_TYPE_BU_CTLD_FAIL, "backup_slurmctld_failure" },
	{ TRIGGER_TYPE_BU_CTLD_RES_OP, "backup_slurmctld_resumed_operation" },
	{ TRIGGER_TYPE_BU_CTLD_AS_CTRL, "backup_slurmctld_assumed_control" },
	{ TRIGGER_TYPE_PRI_DBD_FAIL, "primary_slurmdbd_failure" },
	{ TRIGGER_TYPE_PRI_DBD_RES_OP, "primary_slurmdbd_resumed_operation" },
	{ TRIGGER_TYPE_PRI_DB_FAIL, "primary_database_failure" },
	{ TRIGGER_TYPE_PRI_DB_RES_OP, "primary_database_resumed_operation" },
	{ TRIGGER_TYPE_BURST_BUFFER, "burst_buffer" },
};

const char *trigger_type_name(uint32_t t)
{
	for (size_t i = 0; i < sizeof(tr_type_names) / sizeof(*tr_type_names);
	     i++)
		if (tr_type_names[i].bit == t)
			return tr_type_names[i].name;
	return "unknown";
}

/* ---- the table ---- */

static void _tr_free(trig_t *t)
{
	trigger_info_free_members(&t->info);
	xfree(t->arg);
	xfree(t);
}

void trigger_changed(void)
{
	tg.dirty = true;
	commit_dirty();
}

static trig_t *_tr_find(uint32_t id)
{
	for (trig_t *t = tg.head; t; t = t->next)
		if (t->info.trig_id == id)
			return t;
	return NULL;
}

void trigger_remove(trig_t *gone)
{
	for (trig_t **p = &tg.head; *p; p = &(*p)->next)
		if (*p == gone) {
			*p = gone->next;
			_tr_free(gone);
			trigger_changed();
			return;
		}
}

void trigger_append(trig_t *t)
{
	trig_t **p = &tg.head;

	while (*p)
		p = &(*p)->next;
	*p = t;
}

void trigger_fini(void)
{
	while (tg.head) {
		trig_t *t = tg.head;

		tg.head = t->next;
		_tr_free(t);
	}
	bitmap_destroy(tg.ev_up);
	bitmap_destroy(tg.ev_down);
	bitmap_destroy(tg.ev_drained);
	bitmap_destroy(tg.ev_fail);
	tg.ev_up = tg.ev_down = tg.ev_drained = tg.ev_fail = NULL;
	xfree(tg.ended);
	xfree(tg.hit);
	tg.hit_cnt = tg.hit_cap = 0;
	xfree(tg.seen);
	xfree(tg.idle_since);
	tg.ended_cnt = tg.ended_cap = tg.nseen = 0;
}

/* ---- state ---- */

void trigger_pack_state(buf_t *b)
{
	trigger_info_msg_t m = { 0 };
	size_t i = 0;

	for (trig_t *t = tg.head; t; t = t->next)
		m.cnt++;
	m.triggers = xcalloc(m.cnt ? m.cnt : 1, sizeof(*m.triggers));
	for (trig_t *t = tg.head; t; t = t->next)
		m.triggers[i++] = t->info;      /* shallow: packed, not freed */
	pack32(b, tg.next_id);
	msg_trigger_pack(b, &m);
	xfree(m.triggers);
}

int trigger_unpack_state(buf_t *b, uint16_t version)
{
	trigger_info_msg_t *m = NULL;
	uint32_t next_id;

	if (version < 1 || version > TRIGGER_STATE_VERSION ||
	    unpack32(b, &next_id) < 0 ||
	    msg_trigger_unpack(b, (void **) &m) < 0)
		return -1;
	while (tg.head) {
		trig_t *t = tg.head;

		tg.head = t->next;
		_tr_free(t);
	}
	for (uint32_t i = 0; i < m->cnt; i++) {
		trig_t *t = xmalloc(sizeof(*t));

		t->info = m->triggers[i];       /* takes its strings */
		trigger_append(t);
		if (t->info.trig_id >= next_id)
			next_id = t->info.trig_id + 1;
	}
	xfree(m->triggers);
	xfree(m);
	tg.next_id = next_id ? next_id : 1;
	return 0;
}

trig_t *trigger_first(void)
{
	return tg.head;
}

uint32_t trigger_new_id(void)
{
	return tg.next_id++;
}

bool trigger_take_dirty(void)
{
	bool d = tg.dirty;

	tg.dirty = false;
	return d;
}

/* ---- hooks ---- */

static void _tr_ev_node(bitmap_t **bm, uint32_t index)
{
	size_t n = node_mgr_count() > index ? node_mgr_count() : index + 1;

	if (!*bm)
		*bm = bitmap_create(n);
	else if (bitmap_size(*bm) < n)
		*bm = bitmap_resize(*bm, n);
	if (index < bitmap_size(*bm))
		bitmap_set(*bm, index);
}

static void _tr_grow_seen(size_t n)
{
	if (n <= tg.nseen)
		return;
	tg.seen = xrealloc(tg.seen, n * sizeof(*tg.seen));
	tg.idle_since = xrealloc(tg.idle_since, n * sizeof(*tg.idle_since));
	memset(tg.seen + tg.nseen, 0, (n - tg.nseen) * sizeof(*tg.seen));
	memset(tg.idle_since + tg.nseen, 0,
	       (n - tg.nseen) * sizeof(*tg.idle_since));
	tg.nseen = n;
}

static uint8_t _tr_node_flags(const node_record_t *n)
{
	uint32_t st = n->info.node_state;
	uint8_t f = TSEEN_KNOWN;

	if ((st & NODE_STATE_BASE) == NODE_STATE_DOWN)
		f |= TSEEN_DOWN;
	if ((st & NODE_STATE_DRAIN) && !n->info.alloc_cpus && !n->comp_cnt)
		f |= TSEEN_DRAINED;
	if (st & NODE_STATE_FAIL)
		f |= TSEEN_FAIL;
	return f;
}

static bool _tr_node_idle(const node_record_t *n)
{
	uint32_t st = n->info.node_state;

	return (st & NODE_STATE_BASE) == NODE_STATE_IDLE && !n->comp_cnt &&
	       !(st & (NODE_STATE_DRAIN | NODE_STATE_NO_RESPOND));
}

/* Node i went down or came up (type): note the jobs of job triggers on
 * it now, while they hold it (a node going down requeues or ends them). */
static void _tr_job_hits(uint32_t i, uint32_t type)
{
	for (trig_t *t = tg.head; t; t = t->next) {
		uint32_t id;
		job_record_t *j;

		if (t->info.res_type != TRIGGER_RES_TYPE_JOB ||
		    !(t->info.trig_type & type))
			continue;
		id = (uint32_t) strtoul(t->info.res_id ? t->info.res_id : "0",
					NULL, 10);
		j = job_mgr_find(id);
		if (!j || !j->node_bitmap || i >= bitmap_size(j->node_bitmap) ||
		    !bitmap_test(j->node_bitmap, i))
			continue;
		if (tg.hit_cnt == tg.hit_cap) {
			tg.hit_cap = tg.hit_cap ? tg.hit_cap * 2 : 8;
			tg.hit = xrealloc(tg.hit, tg.hit_cap * sizeof(*tg.hit));
		}
		tg.hit[tg.hit_cnt].id = id;
		tg.hit[tg.hit_cnt++].type = type;
	}
}

static bool _tr_job_hit(uint32_t id, uint32_t types)
{
	for (size_t i = 0; i < tg.hit_cnt; i++)
		if (tg.hit[i].id == id && (tg.hit[i].type & types))
			return true;
	return false;
}

/* Look at a node; note_events false: just remember (at start). */
static void _tr_look(const node_record_t *n, bool note_events)
{
	uint8_t was, now = _tr_node_flags(n);
	uint32_t i = n->index;

	_tr_grow_seen(node_mgr_count() > i ? node_mgr_count() : i + 1);
	was = tg.seen[i];
	tg.seen[i] = now;
	if (!_tr_node_idle(n))
		tg.idle_since[i] = 0;
	else if (!tg.idle_since[i])
		tg.idle_since[i] = time(NULL);
	if (!note_events || !(was & TSEEN_KNOWN))
		return;
	if ((now & TSEEN_DOWN) && !(was & TSEEN_DOWN)) {
		_tr_ev_node(&tg.ev_down, i);
		_tr_job_hits(i, TRIGGER_TYPE_DOWN);
	}
	if (!(now & TSEEN_DOWN) && (was & TSEEN_DOWN)) {
		_tr_ev_node(&tg.ev_up, i);
		_tr_job_hits(i, TRIGGER_TYPE_UP);
	}
	if ((now & TSEEN_DRAINED) && !(was & TSEEN_DRAINED))
		_tr_ev_node(&tg.ev_drained, i);
	if ((now & TSEEN_FAIL) && !(was & TSEEN_FAIL))
		_tr_ev_node(&tg.ev_fail, i);
}

void trigger_node_state(const node_record_t *n)
{
	_tr_look(n, true);
}

void trigger_job_end(const job_record_t *j)
{
	if ((j->info.job_state & JOB_STATE_BASE) == JOB_PENDING)
		return;         /* requeued: not the end */
	if (tg.ended_cnt == tg.ended_cap) {
		tg.ended_cap = tg.ended_cap ? tg.ended_cap * 2 : 16;
		tg.ended = xrealloc(tg.ended, tg.ended_cap * sizeof(*tg.ended));
	}
	tg.ended[tg.ended_cnt++] = j->info.job_id;
}

void trigger_reconfig(void)
{
	tg.ev_reconfig = true;
}

void trigger_ctld_start(int ha_index)
{
	for (size_t i = 0; i < node_mgr_count(); i++)
		_tr_look(node_mgr_at(i), false);
	if (ha_index > 0)
		tg.ev_daemon |= TRIGGER_TYPE_PRI_CTLD_FAIL |
				TRIGGER_TYPE_BU_CTLD_AS_CTRL;
	else if (ctld_conf()->ctld_host_cnt > 1)
		tg.ev_daemon |= TRIGGER_TYPE_PRI_CTLD_RES_CTRL;
}

/* slurmdbd as the sending thread saw it: failures since the last look
 * are a failure (once), stored batches after one are its return. */
static void _tr_look_dbd(void)
{
	acct_send_stats_t s;

	acct_send_stats(&s);
	if (s.failures > tg.dbd_failures && !tg.dbd_down) {
		tg.dbd_down = true;
		tg.ev_daemon |= TRIGGER_TYPE_PRI_DBD_FAIL;
	} else if (s.batches > tg.dbd_batches && tg.dbd_down &&
		   s.failures == tg.dbd_failures) {
		tg.dbd_down = false;
		tg.ev_daemon |= TRIGGER_TYPE_PRI_DBD_RES_OP;
	}
	tg.dbd_failures = s.failures;
	tg.dbd_batches = s.batches;
}

/* ---- running programs ---- */

/* Off the loop: the passwd lookup may block. */
static char **_tr_env_for(uid_t uid, const char *conf)
{
	char **env = xcalloc(8, sizeof(char *));
	char name[64], buf[4096];
	struct passwd pwd, *pw = NULL;
	size_t n = 0;

	if (getpwuid_r(uid, &pwd, buf, sizeof(buf), &pw) || !pw)
		pw = NULL;
	if (pw && pw->pw_name)
		snprintf(name, sizeof(name), "%s", pw->pw_name);
	else
		snprintf(name, sizeof(name), "%u", (unsigned) uid);
	env[n++] = xstrdup("PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin");
	env[n++] = xstrdup_printf("HOME=%s",
				  pw && pw->pw_dir ? pw->pw_dir : "/");
	env[n++] = xstrdup_printf("USER=%s", name);
	env[n++] = xstrdup_printf("LOGNAME=%s", name);
	if (conf)
		env[n++] = xstrdup_printf("SLURM_CONF=%s", conf);
	return env;
}

static void _tr_run_free(trig_run_t *r)
{
	xfree(r->path);
	xstrarray_free(r->argv);
	xstrarray_free(r->env);
	xfree(r->conf);
	xfree(r);
}

static void _tr_run_done(evutil_socket_t fd, short what, void *arg)
{
	trig_run_t *r = arg;
	trig_t *t = r->perm ? _tr_find(r->trig_id) : NULL;

	if (t && t->state == T_RUNNING) {
		t->state = T_ARMED;
		t->last_run = time(NULL);
	}
	_tr_run_free(r);
}

static void *_tr_run_thread(void *arg)
{
	trig_run_t *r = arg;
	int err = 0, st;

	r->env = _tr_env_for(r->uid, r->conf);
	st = spawn_wait_as(r->path, r->argv, r->env, r->uid,
					r->gid, TRIGGER_PROG_TIMEOUT, &err);

	if (st < 0)
		error("trigger %u: cannot run %s: %s", r->trig_id, r->path,
		      strerror(err));
	else if (WIFSIGNALED(st))
		info("trigger %u: %s killed by signal %d", r->trig_id,
		     r->path, WTERMSIG(st));
	else if (WEXITSTATUS(st))
		info("trigger %u: %s exited with status %d", r->trig_id,
		     r->path, WEXITSTATUS(st));
	else
		debug("trigger %u: %s done", r->trig_id, r->path);
	event_base_once(ctld_base(), -1, EV_TIMEOUT, _tr_run_done, r, NULL);
	return NULL;
}

/* On the loop: start the program's thread. */
static void _tr_start(void *arg)
{
	trig_run_t *r = arg;
	pthread_attr_t attr;
	pthread_t th;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&th, &attr, _tr_run_thread, r)) {
		error("trigger %u: cannot start a thread", r->trig_id);
		_tr_run_done(-1, 0, r);         /* as if it had run */
	}
	pthread_attr_destroy(&attr);
}

/* Start t's program with arg.  A trigger without PERM leaves the table,
 * and its program starts once that is on disk: a controller killed in
 * between does not run it twice. */
static void _tr_launch(trig_t *t, const char *arg)
{
	trig_run_t *r = xmalloc(sizeof(*r));
	char **words = xstrsplit(t->info.program, " \t", NULL);
	size_t n = 0, i;

	while (words[n])
		n++;
	r->trig_id = t->info.trig_id;
	r->perm = t->info.flags & TRIGGER_FLAG_PERM;
	r->uid = t->info.user_id;
	r->gid = t->info.group_id;
	r->argv = xcalloc(n + 2, sizeof(char *));
	for (i = 0; i < n; i++)
		r->argv[i] = xstrdup(words[i]);
	if (arg && *arg)
		r->argv[i++] = xstrdup(arg);
	xstrarray_free(words);
	r->path = xstrdup(r->argv[0] ? r->argv[0] : "");
	r->conf = xstrdup(ctld_conf()->path);
	info("trigger %u fired: %s %s %s as uid %u", r->trig_id,
	     trigger_type_name(t->info.trig_type), r->path, arg ? arg : "",
	     (unsigned) r->uid);
	if (r->perm) {
		t->state = T_RUNNING;
		xfree(t->arg);
		_tr_start(r);
	} else {
		trigger_remove(t);
		commit_after(_tr_start, r);
	}
}

/* The event is seen: run now, or after the offset. */
static void _tr_fire(trig_t *t, const char *arg, time_t now, bool timed)
{
	log_flag(TRIGGERS, "%s: trigger %u (%s %s) event seen for %s%s",
		 __func__, t->info.trig_id, t->info.res_id ? t->info.res_id :
		 "*", t->info.program ? t->info.program : "", arg ? arg : "",
		 !timed && t->info.offset > 0 ? ", waits its offset" : "");
	if (!timed && t->info.offset > 0) {
		t->state = T_WAITING;
		t->fire_at = now + t->info.offset;
		xfree(t->arg);
		t->arg = xstrdup(arg);
		debug("trigger %u: event seen, runs in %d s", t->info.trig_id,
		      t->info.offset);
		return;
	}
	_tr_launch(t, arg);
}

/* ---- a pass ---- */

/* Nodes of ev (and of the trigger's, if it names some): the ranged
 * list of ev, or NULL when none is the trigger's. */
static char *_tr_node_match(const bitmap_t *ev, const trig_t *t)
{
	bitmap_t *mine;
	bool hit;

	if (!ev || !bitmap_count(ev))
		return NULL;
	if (!t->info.res_id || !strcmp(t->info.res_id, "*"))
		return node_mgr_names(ev);
	mine = node_mgr_bitmap(t->info.res_id, NULL);
	hit = mine && bitmap_size(mine) == bitmap_size(ev) &&
	      bitmap_overlaps(mine, ev);
	bitmap_destroy(mine);
	return hit ? node_mgr_names(ev) : NULL;    /* all of them, as Slurm */
}

/* Event bitmaps the size of the node table (it may have grown). */
static void _tr_ev_size(bitmap_t **bm)
{
	size_t n = node_mgr_count() ? node_mgr_count() : 1;

	if (*bm && bitmap_size(*bm) != n)
		*bm = bitmap_resize(*bm, n);
}

/* Idle nodes of the trigger's that have been idle offset seconds. */
static char *_tr_idle_match(const trig_t *t, time_t now)
{
	bitmap_t *mine = NULL, *idle = bitmap_create(node_mgr_count());
	char *names = NULL;

	if (t->info.res_id && strcmp(t->info.res_id, "*"))
		mine = node_mgr_bitmap(t->info.res_id, NULL);
	for (size_t i = 0; i < node_mgr_count() && i < tg.nseen; i++)
		if (tg.idle_since[i] &&
		    now - tg.idle_since[i] >= t->info.offset &&
		    (!mine || (i < bitmap_size(mine) && bitmap_test(mine, i))))
			bitmap_set(idle, i);
	if (bitmap_count(idle))
		names = node_mgr_names(idle);
	bitmap_destroy(idle);
	bitmap_destroy(mine);
	return names;
}

static void _tr_pass_node(trig_t *t, time_t now)
{
	uint32_t ty = t->info.trig_type;
	char *hit = NULL;

	if ((ty & TRIGGER_TYPE_DOWN) && (hit = _tr_node_match(tg.ev_down, t)))
		goto fire;
	if ((ty & TRIGGER_TYPE_UP) && (hit = _tr_node_match(tg.ev_up, t)))
		goto fire;
	if ((ty & TRIGGER_TYPE_DRAINED) &&
	    (hit = _tr_node_match(tg.ev_drained, t)))
		goto fire;
	if ((ty & TRIGGER_TYPE_FAIL) && (hit = _tr_node_match(tg.ev_fail, t)))
		goto fire;
	if ((ty & TRIGGER_TYPE_RECONFIG) && tg.ev_reconfig) {
		_tr_fire(t, NULL, now, false);
		return;
	}
	if ((ty & TRIGGER_TYPE_IDLE) &&
	    (!t->last_run || now - t->last_run >= t->info.offset) &&
	    (hit = _tr_idle_match(t, now))) {
		_tr_launch(t, hit);
		xfree(hit);
	}
	return;
fire:
	_tr_fire(t, hit, now, false);
	xfree(hit);
}

static bool _tr_job_ended(uint32_t id)
{
	for (size_t i = 0; i < tg.ended_cnt; i++)
		if (tg.ended[i] == id)
			return true;
	return false;
}

static bool _tr_job_done(const job_record_t *j)
{
	uint32_t base = j->info.job_state & JOB_STATE_BASE;

	return base != JOB_PENDING && base != JOB_RUNNING &&
	       base != JOB_SUSPENDED;
}

static void _tr_pass_job(trig_t *t, time_t now)
{
	uint32_t id = (uint32_t) strtoul(t->info.res_id ? t->info.res_id : "0",
					 NULL, 10), ty = t->info.trig_type;
	job_record_t *j = job_mgr_find(id);
	bool done = !j || _tr_job_done(j);
	char idstr[16];

	snprintf(idstr, sizeof(idstr), "%u", id);
	if ((ty & TRIGGER_TYPE_FINI) && (_tr_job_ended(id) || done)) {
		_tr_fire(t, idstr, now, false);
		return;
	}
	/* before the end below: a node going down ends its jobs */
	if (_tr_job_hit(id, ty & (TRIGGER_TYPE_DOWN | TRIGGER_TYPE_UP))) {
		_tr_fire(t, idstr, now, false);
		return;
	}
	if (done) {             /* nothing more can happen to it */
		debug("trigger %u: job %u is gone, trigger removed",
		      t->info.trig_id, id);
		trigger_remove(t);
		return;
	}
	if ((ty & TRIGGER_TYPE_TIME) &&
	    (j->info.job_state & JOB_STATE_BASE) == JOB_RUNNING &&
	    j->info.time_limit != NO_VAL32 &&
	    j->info.time_limit != INFINITE32 && j->info.start_time &&
	    now >= j->info.start_time + (time_t) j->info.time_limit * 60 +
		   t->info.offset) {
		_tr_fire(t, idstr, now, true);
		return;
	}
}

static void _tr_pass(time_t now)
{
	trig_t *t, *next;

	_tr_ev_size(&tg.ev_up);
	_tr_ev_size(&tg.ev_down);
	_tr_ev_size(&tg.ev_drained);
	_tr_ev_size(&tg.ev_fail);
	for (t = tg.head; t; t = next) {
		next = t->next;         /* t may leave the table */
		if (t->state == T_RUNNING)
			continue;
		if (t->state == T_WAITING) {
			if (now >= t->fire_at) {
				char *arg = t->arg;

				t->arg = NULL;
				_tr_launch(t, arg);
				xfree(arg);
			}
			continue;
		}
		switch (t->info.res_type) {
		case TRIGGER_RES_TYPE_NODE:
			_tr_pass_node(t, now);
			break;
		case TRIGGER_RES_TYPE_JOB:
			_tr_pass_job(t, now);
			break;
		default:
			if (t->info.trig_type & tg.ev_daemon)
				_tr_fire(t, NULL, now, false);
			break;
		}
	}
	if (tg.ev_up)
		bitmap_clear_all(tg.ev_up);
	if (tg.ev_down)
		bitmap_clear_all(tg.ev_down);
	if (tg.ev_drained)
		bitmap_clear_all(tg.ev_drained);
	if (tg.ev_fail)
		bitmap_clear_all(tg.ev_fail);
	tg.ev_daemon = 0;
	tg.ev_reconfig = false;
	tg.ended_cnt = 0;
	tg.hit_cnt = 0;
}

/* Idle since when: not every way out of NOT_RESPONDING passes a hook,
 * so this is looked at once a second (a byte and a time per node). */
static void _tr_look_idle(time_t now)
{
	size_t n = node_mgr_count();

	_tr_grow_seen(n);
	for (size_t i = 0; i < n; i++) {
		if (!_tr_node_idle(node_mgr_at(i)))
			tg.idle_since[i] = 0;
		else if (!tg.idle_since[i])
			tg.idle_since[i] = now;
	}
}

void trigger_tick(time_t now)
{
	_tr_look_dbd();
	_tr_look_idle(now);
	_tr_pass(now);
}
