/* power_save.c — power saving and cloud nodes (power_save.h). */
#include "ctld/power_save.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event2/event.h>

#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/spawn.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/node_state.h"
#include "ctld/part_mgr.h"
#include "ctld/power_conf.h"
#include "ctld/sched.h"
#include "slurm/slurm_errno.h"

#define BASE(n) ((n)->info.node_state & NODE_STATE_BASE)
#define ST(n) ((n)->info.node_state)
#define OFF_FLAGS (NODE_STATE_POWERED_DOWN | NODE_STATE_POWERING_UP | \
		   NODE_STATE_POWERING_DOWN)

typedef struct {
	uint32_t job_id;
	time_t   start_time;     /* which run of the job */
	void   (*launch)(job_record_t *j);
} ps_wait_t;

static struct {
	power_conf_t conf;
	bool         have_conf;
	time_t       started;        /* idle clock of never-used nodes */
	time_t       last_pass;      /* of the suspend scan */
	time_t       last_refill;
	time_t       last_now;       /* of a pass outside the tick */
	double       susp_tokens;    /* SuspendRate bucket */
	double       res_tokens;     /* ResumeRate bucket */
	ps_wait_t   *waits;          /* jobs waiting CF for their nodes */
	size_t       wait_cnt;
} ps;

/* ---- programs: run off the loop ---- */

typedef struct {
	char    *what;        /* "SuspendProgram" ... */
	char    *path;
	char    *nodes;       /* hostlist argument */
	char    *resume_file; /* SLURM_RESUME_FILE contents, or NULL */
	char    *conf_path;   /* SLURM_CONF: copied on the loop, the thread
			       * must not read the controller's conf */
	unsigned timeout;     /* s, 0 none */
} ps_run_t;

static void ps_run_free(ps_run_t *r)
{
	xfree(r->what);
	xfree(r->path);
	xfree(r->nodes);
	xfree(r->resume_file);
	xfree(r->conf_path);
	xfree(r);
}

/* SLURM_RESUME_FILE: the jobs the resume is for, as Slurm writes it. */
static char *ps_write_resume_file(const char *json)
{
	char path[] = "/tmp/sluice-resume-XXXXXX";
	int fd = mkstemp(path);
	size_t len = strlen(json), off = 0;

	if (fd < 0)
		return NULL;
	while (off < len) {
		ssize_t w = write(fd, json + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (size_t) w;
	}
	close(fd);
	return xstrdup(path);
}

static void *ps_run_thread(void *arg)
{
	ps_run_t *r = arg;
	char *argv[] = { r->path, r->nodes, NULL };
	char **env = xcalloc(1, sizeof(char *)), *e, *file = NULL;
	int err = 0, st;

	env = xstrarray_append(env, "PATH=/bin:/usr/bin:/sbin:/usr/sbin");
	if (r->conf_path) {
		e = xstrdup_printf("SLURM_CONF=%s", r->conf_path);
		env = xstrarray_append(env, e);
		xfree(e);
	}
	if (r->resume_file && (file = ps_write_resume_file(r->resume_file))) {
		e = xstrdup_printf("SLURM_RESUME_FILE=%s", file);
		env = xstrarray_append(env, e);
		xfree(e);
	}
	st = spawn_wait_as(r->path, argv, env, getuid(), getgid(), r->timeout,
			   &err);
	if (st < 0)
		error("power_save: cannot run %s %s for nodes %s: %s", r->what,
		      r->path, r->nodes, strerror(err));
	else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL && r->timeout)
		error("power_save: %s %s for nodes %s killed after %u s",
		      r->what, r->path, r->nodes, r->timeout);
	else if (WIFSIGNALED(st))
		error("power_save: %s for nodes %s killed by signal %d",
		      r->what, r->nodes, WTERMSIG(st));
	else if (WEXITSTATUS(st))
		error("power_save: %s for nodes %s exited with status %d",
		      r->what, r->nodes, WEXITSTATUS(st));
	else
		debug("power_save: %s for nodes %s done", r->what, r->nodes);
	if (file) {
		unlink(file);
		xfree(file);
	}
	xstrarray_free(env);
	ps_run_free(r);
	return NULL;
}

/* On the loop, once the change is on disk: start the program's thread. */
static void ps_run_saved(void *arg)
{
	ps_run_t *r = arg;
	pthread_attr_t attr;
	pthread_t th;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&th, &attr, ps_run_thread, r)) {
		error("power_save: cannot start a thread for %s", r->what);
		ps_run_free(r);
	}
	pthread_attr_destroy(&attr);
}

static void ps_run(const char *what, const char *path, const char *nodes,
		   char *resume_file, unsigned timeout)
{
	ps_run_t *r;

	if (!path) {
		xfree(resume_file);
		return;
	}
	r = xmalloc(sizeof(*r));
	r->what = xstrdup(what);
	r->path = xstrdup(path);
	r->nodes = xstrdup(nodes);
	r->resume_file = resume_file;
	r->conf_path = xstrdup(ctld_conf()->path);
	r->timeout = timeout;
	commit_after(ps_run_saved, r);
}

/* ---- node power flags ---- */

static void ps_flags(node_record_t *n, uint32_t on, uint32_t off)
{
	uint32_t st = (ST(n) | on) & ~off;

	if (st != ST(n))
		node_mgr_saved_touch();
	ST(n) = st;
}

static bool ps_is_off(const node_record_t *n)
{
	return ST(n) & (NODE_STATE_POWERED_DOWN | NODE_STATE_POWERING_DOWN);
}

bool power_save_no_ping(const node_record_t *n)
{
	return ST(n) & OFF_FLAGS;
}

/* A cloud node powered off forgets the address it registered from. */
static void ps_forget_addr(node_record_t *n)
{
	if (!(ST(n) & NODE_STATE_CLOUD) || ps.conf.cloud_dns)
		return;
	node_mgr_reset_addr(n);
}

/* ---- rates: token buckets of <rate> nodes a minute ---- */

static void ps_refill(time_t now)
{
	double dt = ps.last_refill ? (double) (now - ps.last_refill) : 60.0;

	if (ps.last_refill && now <= ps.last_refill)
		return;                 /* the clock went back: wait */
	ps.last_refill = now;
	ps.susp_tokens += dt * ps.conf.suspend_rate / 60.0;
	if (ps.susp_tokens > ps.conf.suspend_rate)
		ps.susp_tokens = ps.conf.suspend_rate;
	ps.res_tokens += dt * ps.conf.resume_rate / 60.0;
	if (ps.res_tokens > ps.conf.resume_rate)
		ps.res_tokens = ps.conf.resume_rate;
}

static bool ps_take(double *tokens, uint16_t rate)
{
	if (!rate)
		return true;
	if (*tokens < 1.0)
		return false;
	*tokens -= 1.0;
	return true;
}

/* ---- exclusions and SuspendTime ---- */

/* The largest SuspendTime of n's partitions (a partition without one
 * has the global one); the global one if it is in none. */
static uint32_t ps_node_suspend_time(const node_record_t *n)
{
	uint32_t t = 0;
	bool any = false;

	for (size_t i = 0; i < part_mgr_count(); i++) {
		const part_record_t *p = part_mgr_at(i);
		uint32_t v;

		if (!p->node_bitmap || !bitmap_test(p->node_bitmap, n->index))
			continue;
		v = p->conf.suspend_time == NO_VAL32 ? ps.conf.suspend_time :
			p->conf.suspend_time;
		if (!any || v > t)
			t = v;
		any = true;
	}
	return any ? t : ps.conf.suspend_time;
}

static bool ps_excluded_state(const node_record_t *n)
{
	if (ps.conf.exc_down && BASE(n) == NODE_STATE_DOWN)
		return true;
	return ST(n) & ps.conf.exc_flags;
}

static bool ps_in_exc_part(const node_record_t *n)
{
	for (size_t i = 0; ps.conf.exc_parts && ps.conf.exc_parts[i]; i++) {
		const part_record_t *p = part_mgr_find(ps.conf.exc_parts[i]);

		if (p && p->node_bitmap && bitmap_test(p->node_bitmap, n->index))
			return true;
	}
	return false;
}

/* SuspendExcNodes: a node of a group without a count never goes down;
 * of "group:N" only while more than N of the group would stay up.
 * up[i] counts the group's nodes that are up now (updated as the pass
 * powers some down). */
static bool ps_exc_node(const node_record_t *n, bitmap_t **groups,
			uint32_t *up)
{
	for (size_t g = 0; g < ps.conf.exc_cnt; g++) {
		if (!groups[g] || !bitmap_test(groups[g], n->index))
			continue;
		if (!ps.conf.exc[g].keep_up || up[g] <= ps.conf.exc[g].keep_up)
			return true;
	}
	return false;
}

static void ps_exc_taken(const node_record_t *n, bitmap_t **groups,
			 uint32_t *up)
{
	for (size_t g = 0; g < ps.conf.exc_cnt; g++)
		if (groups[g] && bitmap_test(groups[g], n->index) && up[g])
			up[g]--;
}

static bool ps_free(const node_record_t *n)
{
	return !n->job_cnt && !n->comp_cnt &&
	       !(ST(n) & (NODE_STATE_COMPLETING | NODE_STATE_REBOOT_REQUESTED |
			  NODE_STATE_REBOOT_ISSUED));
}

/* Idle (or DOWN) long enough, not excluded: power it down. */
static bool ps_suspend_candidate(const node_record_t *n, time_t now)
{
	uint32_t t;
	time_t since = n->info.last_busy ? n->info.last_busy : ps.started;

	if (ST(n) & (OFF_FLAGS | NODE_STATE_POWER_UP))
		return false;
	if (ST(n) & NODE_STATE_POWER_DOWN)
		return ps_free(n);      /* asked for: no other test */
	if ((BASE(n) != NODE_STATE_IDLE && BASE(n) != NODE_STATE_DOWN) ||
	    !ps_free(n) || ps_excluded_state(n) || ps_in_exc_part(n))
		return false;
	t = ps_node_suspend_time(n);
	return t != INFINITE32 && now - since >= (time_t) t;
}

/* ---- suspend ---- */

static void ps_suspend_one(node_record_t *n, time_t now)
{
	ps_flags(n, NODE_STATE_POWERING_DOWN, NODE_STATE_POWER_DOWN |
		 NODE_STATE_POWER_DRAIN | NODE_STATE_NO_RESPOND);
	n->power_time = now;
	if (ps.conf.idle_on_suspend) {
		node_state_set_drain(n, false);
		if (BASE(n) == NODE_STATE_DOWN)
			node_state_set_base(n, NODE_STATE_IDLE);
		node_state_set_reason(n, NULL, 0);
	}
	if (BASE(n) == NODE_STATE_UNKNOWN)
		node_state_set_base(n, NODE_STATE_IDLE);
	node_state_refresh(n);
}

static void ps_suspend_pass(time_t now)
{
	bitmap_t *b = bitmap_create(node_mgr_count() ? node_mgr_count() : 1);
	bitmap_t **groups = xcalloc(ps.conf.exc_cnt + 1, sizeof(*groups));
	uint32_t *up = xcalloc(ps.conf.exc_cnt + 1, sizeof(*up));
	char *names;
	size_t i, g;

	for (g = 0; g < ps.conf.exc_cnt; g++) {
		groups[g] = node_mgr_bitmap(ps.conf.exc[g].nodes, NULL);
		for (i = 0; groups[g] && i < node_mgr_count(); i++)
			if (bitmap_test(groups[g], i) &&
			    !ps_is_off(node_mgr_at(i)))
				up[g]++;
	}
	for (i = 0; i < node_mgr_count(); i++) {
		node_record_t *n = node_mgr_at(i);
		bool asked = ST(n) & NODE_STATE_POWER_DOWN;

		if (!ps_suspend_candidate(n, now) ||
		    (!asked && ps_exc_node(n, groups, up)))
			continue;
		if (!ps_take(&ps.susp_tokens, ps.conf.suspend_rate))
			break;
		ps_exc_taken(n, groups, up);
		ps_suspend_one(n, now);
		bitmap_set(b, i);
	}
	if (bitmap_count(b)) {
		names = node_mgr_names(b);
		info("power_save: suspending nodes %s", names);
		ps_run("SuspendProgram", ps.conf.suspend_prog, names, NULL,
		       ps.conf.suspend_timeout);
		xfree(names);
		commit_dirty();
	}
	for (g = 0; g < ps.conf.exc_cnt; g++)
		if (groups[g])
			bitmap_destroy(groups[g]);
	xfree(groups);
	xfree(up);
	bitmap_destroy(b);
}

/* POWERING_DOWN for SuspendTimeout, then POWERED_DOWN. */
static void ps_powered_down(time_t now)
{
	for (size_t i = 0; i < node_mgr_count(); i++) {
		node_record_t *n = node_mgr_at(i);

		if (!(ST(n) & NODE_STATE_POWERING_DOWN) ||
		    now - n->power_time < ps.conf.suspend_timeout)
			continue;
		ps_flags(n, NODE_STATE_POWERED_DOWN, NODE_STATE_POWERING_DOWN |
			 NODE_STATE_NO_RESPOND);
		ps_forget_addr(n);
		debug("power_save: node %s powered down", n->info.name);
		commit_dirty();
		sched_trigger();        /* it may be resumed for a job now */
	}
}

/* ---- resume ---- */

/* SLURM_RESUME_FILE's JSON: the jobs on the nodes being resumed. */
static char *ps_resume_json(const bitmap_t *b, const char *all)
{
	char *s = xstrdup_printf("{\"all_nodes_resume\":\"%s\",\"jobs\":[",
				 all);
	bool first = true;

	for (job_record_t *j = job_mgr_running_first(); j; j = j->run_next) {
		bitmap_t *mine;
		char *res;

		if (!j->node_bitmap || !bitmap_overlaps(j->node_bitmap, b))
			continue;
		mine = bitmap_copy(j->node_bitmap);
		bitmap_and(mine, b);
		res = node_mgr_names(mine);
		xstrfmtcat(&s, "%s{\"job_id\":%u,\"nodes_alloc\":\"%s\","
			   "\"nodes_resume\":\"%s\",\"partition\":\"%s\","
			   "\"features\":\"%s\"}", first ? "" : ",",
			   j->info.job_id, j->info.nodes ? j->info.nodes : "",
			   res, j->info.partition ? j->info.partition : "",
			   j->info.features ? j->info.features : "");
		first = false;
		xfree(res);
		bitmap_destroy(mine);
	}
	xstrcat(&s, "]}");
	return s;
}

/* Powered-down nodes that a job holds or an admin asked up. */
static void ps_resume_pass(time_t now)
{
	bitmap_t *b = bitmap_create(node_mgr_count() ? node_mgr_count() : 1);
	char *names;

	for (size_t i = 0; i < node_mgr_count(); i++) {
		node_record_t *n = node_mgr_at(i);

		if (!(ST(n) & NODE_STATE_POWERED_DOWN) ||
		    (ST(n) & NODE_STATE_POWERING_DOWN) ||
		    (!n->job_cnt && !(ST(n) & NODE_STATE_POWER_UP)))
			continue;
		if (!ps_take(&ps.res_tokens, ps.conf.resume_rate))
			break;
		ps_flags(n, NODE_STATE_POWERING_UP, NODE_STATE_POWERED_DOWN |
			 NODE_STATE_POWER_UP | NODE_STATE_NO_RESPOND);
		n->power_time = now;
		n->last_response = now;
		bitmap_set(b, i);
	}
	if (bitmap_count(b)) {
		names = node_mgr_names(b);
		info("power_save: resuming nodes %s", names);
		ps_run("ResumeProgram", ps.conf.resume_prog, names,
		       ps_resume_json(b, names), ps.conf.resume_timeout);
		xfree(names);
		commit_dirty();
	}
	bitmap_destroy(b);
}

/* Not registered within ResumeTimeout: DOWN, powered down, its jobs
 * requeued; ResumeFailProgram gets them all. */
static void ps_resume_timeouts(time_t now)
{
	bitmap_t *b = NULL;
	char *names;

	for (size_t i = 0; i < node_mgr_count(); i++) {
		node_record_t *n = node_mgr_at(i);

		if (!(ST(n) & NODE_STATE_POWERING_UP) ||
		    now - n->power_time < ps.conf.resume_timeout)
			continue;
		if (!b)
			b = bitmap_create(node_mgr_count());
		bitmap_set(b, i);
		error("Node %s not resumed by ResumeTimeout(%u) - marking down "
		      "and power_save", n->info.name, ps.conf.resume_timeout);
		ps_flags(n, NODE_STATE_POWERED_DOWN, NODE_STATE_POWERING_UP |
			 NODE_STATE_NO_RESPOND);
		ps_forget_addr(n);
		node_state_set_drain(n, false);
		node_state_set_down(n, "ResumeTimeout reached",
				    ctld_conf()->slurm_user_id);
	}
	if (!b)
		return;
	names = node_mgr_names(b);
	if (ps.conf.resume_fail_prog)
		info("power_save: running ResumeFailProgram for nodes %s",
		     names);
	ps_run("ResumeFailProgram", ps.conf.resume_fail_prog, names, NULL,
	       ps.conf.resume_timeout);
	xfree(names);
	bitmap_destroy(b);
	commit_dirty();
}

/* A pass outside the tick (a job needs nodes, an admin asked), at most
 * one per power_save_min_interval; else the next tick does it. */
static void ps_pass_now(void)
{
	time_t now = time(NULL);

	if (!ps.conf.enabled || (ps.conf.min_interval &&
				 now - ps.last_now < ps.conf.min_interval))
		return;
	ps.last_now = now;
	ps_refill(now);
	ps_resume_pass(now);
	ps_suspend_pass(now);
}

/* ---- jobs waiting for their nodes ---- */

static bool ps_job_nodes_up(const job_record_t *j)
{
	for (long i = bitmap_first_set(j->node_bitmap); i >= 0;
	     i = bitmap_next_set(j->node_bitmap, i + 1)) {
		const node_record_t *n = node_mgr_at(i);

		if (!n || (ST(n) & (OFF_FLAGS | NODE_STATE_NO_RESPOND)) ||
		    BASE(n) == NODE_STATE_DOWN || BASE(n) == NODE_STATE_UNKNOWN)
			return false;
	}
	return true;
}

static bool ps_job_nodes_off(const job_record_t *j)
{
	for (long i = bitmap_first_set(j->node_bitmap); i >= 0;
	     i = bitmap_next_set(j->node_bitmap, i + 1)) {
		const node_record_t *n = node_mgr_at(i);

		if (n && (ST(n) & (NODE_STATE_POWERED_DOWN |
				   NODE_STATE_POWERING_UP)))
			return true;
	}
	return false;
}

static ps_wait_t *ps_wait_find(uint32_t job_id)
{
	for (size_t i = 0; i < ps.wait_cnt; i++)
		if (ps.waits[i].job_id == job_id)
			return &ps.waits[i];
	return NULL;
}

static void ps_wait_add(job_record_t *j, void (*launch)(job_record_t *j))
{
	ps.waits = xrealloc(ps.waits, (ps.wait_cnt + 1) * sizeof(*ps.waits));
	ps.waits[ps.wait_cnt++] = (ps_wait_t) {
		.job_id = j->info.job_id, .start_time = j->info.start_time,
		.launch = launch,
	};
}

bool power_save_job_wait(job_record_t *j, void (*launch)(job_record_t *j))
{
	if (!j->node_bitmap || !ps_job_nodes_off(j))
		return false;
	j->info.job_state |= JOB_CONFIGURING;
	job_mgr_touch(j);
	if (!ps_wait_find(j->info.job_id))
		ps_wait_add(j, launch);
	info("JobId=%u waits for its nodes %s to power up", j->info.job_id,
	     j->info.nodes ? j->info.nodes : "");
	ps_pass_now();                  /* at once, within ResumeRate */
	return true;
}

bool power_save_job_waiting(const job_record_t *j)
{
	return (j->info.job_state & JOB_CONFIGURING) &&
	       ps_wait_find(j->info.job_id);
}

bool power_save_job_recover(job_record_t *j, void (*launch)(job_record_t *j))
{
	if (!(j->info.job_state & JOB_CONFIGURING) || !j->node_bitmap ||
	    !ps_job_nodes_off(j))
		return false;
	if (!ps_wait_find(j->info.job_id))
		ps_wait_add(j, launch);
	info("JobId=%u still waits for its nodes %s to power up",
	     j->info.job_id, j->info.nodes ? j->info.nodes : "");
	return true;
}

/* Jobs whose nodes are all up go: CONFIGURING ends, their clock starts
 * now, they are launched. */
static void ps_wait_check(time_t now)
{
	size_t i = 0;

	while (i < ps.wait_cnt) {
		ps_wait_t w = ps.waits[i];
		job_record_t *j = job_mgr_find(w.job_id);
		job_info_t *ji;

		if (j && j->info.start_time == w.start_time &&
		    (j->info.job_state & JOB_STATE_BASE) == JOB_RUNNING &&
		    (j->info.job_state & JOB_CONFIGURING) &&
		    !(j->info.job_state & JOB_COMPLETING) &&
		    !ps_job_nodes_up(j)) {
			i++;
			continue;
		}
		ps.waits[i] = ps.waits[--ps.wait_cnt];
		if (!j || j->info.start_time != w.start_time ||
		    (j->info.job_state & JOB_STATE_BASE) != JOB_RUNNING ||
		    !(j->info.job_state & JOB_CONFIGURING) ||
		    (j->info.job_state & JOB_COMPLETING))
			continue;           /* requeued, cancelled, ended */
		ji = &j->info;
		ji->job_state &= ~JOB_CONFIGURING;
		if (ji->end_time)
			ji->end_time = now + (ji->end_time - ji->start_time);
		ji->start_time = now;
		job_mgr_touch(j);
		info("JobId=%u: nodes %s powered up, launching", ji->job_id,
		     ji->nodes ? ji->nodes : "");
		w.launch(j);
		commit_dirty();
	}
}

/* ---- registration ---- */

void power_save_registered(node_record_t *n, const char *peer)
{
	if ((ST(n) & NODE_STATE_CLOUD) && ps.conf.cloud_reg_addrs && peer &&
	    strcmp(peer, "unix")) {
		const char *colon = strrchr(peer, ':');
		char *addr = colon ? xstrndup(peer, (size_t) (colon - peer)) :
			xstrdup(peer);

		if (xstrcmp(addr, n->info.node_addr)) {
			info("Node %s registered from %s: NodeAddr set",
			     n->info.name, addr);
			node_mgr_set_addr(n, addr, NULL);
		}
		xfree(addr);
	}
	if (ST(n) & NODE_STATE_POWERING_UP) {
		ps_flags(n, 0, NODE_STATE_POWERING_UP);
		info("Node %s now responding: powered up", n->info.name);
	} else if ((ST(n) & NODE_STATE_POWERED_DOWN) &&
		   !(ST(n) & NODE_STATE_POWERING_DOWN)) {
		/* it was started by someone else: it is up */
		ps_flags(n, 0, NODE_STATE_POWERED_DOWN);
		info("Node %s registered while powered down: it is up",
		     n->info.name);
	} else {
		return;
	}
	if (BASE(n) == NODE_STATE_UNKNOWN)
		node_state_set_base(n, NODE_STATE_IDLE);
	node_state_refresh(n);
	ps_wait_check(time(NULL));
	commit_dirty();
}

/* ---- scontrol power ---- */

static int ps_power_one(node_record_t *n, uint16_t flags, const char *reason,
			uint32_t uid)
{
	if (flags & POWER_FLAGS_UP) {
		if (ST(n) & (NODE_STATE_POWERING_UP))
			return 0;       /* on its way already */
		if (!(ST(n) & NODE_STATE_POWERED_DOWN) ||
		    (ST(n) & NODE_STATE_POWERING_DOWN))
			return ESLURM_INVALID_NODE_STATE;
		ps_flags(n, NODE_STATE_POWER_UP, NODE_STATE_POWER_DOWN |
			 NODE_STATE_POWER_DRAIN);
		return 0;
	}
	if (flags & POWER_FLAGS_FORCE) {
		if (ST(n) & NODE_STATE_POWERING_UP) {
			/* cancel the resume: it is off */
			ps_flags(n, NODE_STATE_POWERED_DOWN,
				 NODE_STATE_POWERING_UP);
		}
		job_mgr_node_fail(n);
		node_state_set_drain(n, false);
		if (BASE(n) == NODE_STATE_DOWN)
			node_state_set_base(n, NODE_STATE_IDLE);
		if (ps_is_off(n))
			return 0;
	} else if (ps_is_off(n)) {
		return 0;               /* off or going off already */
	}
	ps_flags(n, NODE_STATE_POWER_DOWN | ((flags & POWER_FLAGS_ASAP) ?
					     NODE_STATE_POWER_DRAIN : 0),
		 NODE_STATE_POWER_UP);
	if (reason && *reason)
		node_state_set_reason(n, reason, uid);
	return 0;
}

void power_save_rpc(net_conn_t *c, slurm_msg_t *m)
{
	power_msg_t *r = m->data;
	char *bad = NULL;
	bitmap_t *b;
	long i;
	int rc = 0;

	if (!r || !r->node_list || !*r->node_list ||
	    !(r->flags & (POWER_FLAGS_UP | POWER_FLAGS_DOWN))) {
		net_reply_rc(c, ESLURM_INVALID_NODE_NAME);
		return;
	}
	if (!ps.conf.enabled) {
		info("power_save: power %s %s refused: power saving is not "
		     "configured (SuspendProgram, ResumeProgram)",
		     (r->flags & POWER_FLAGS_UP) ? "up" : "down", r->node_list);
		net_reply_rc(c, ESLURM_DISABLED);
		return;
	}
	if (!strcasecmp(r->node_list, "ALL")) {
		b = bitmap_create(node_mgr_count() ? node_mgr_count() : 1);
		bitmap_set_all(b);
	} else if (!(b = node_mgr_bitmap(r->node_list, &bad))) {
		info("update_node: node %s does not exist", bad ? bad : "");
		xfree(bad);
		net_reply_rc(c, ESLURM_INVALID_NODE_NAME);
		return;
	}
	/* all or nothing: check the up requests first */
	for (i = bitmap_first_set(b); i >= 0 && (r->flags & POWER_FLAGS_UP);
	     i = bitmap_next_set(b, i + 1)) {
		node_record_t *n = node_mgr_at(i);

		if (!(ST(n) & OFF_FLAGS) || ((ST(n) & NODE_STATE_POWERING_DOWN)))
			rc = ESLURM_INVALID_NODE_STATE;
	}
	for (i = bitmap_first_set(b); !rc && i >= 0;
	     i = bitmap_next_set(b, i + 1))
		rc = ps_power_one(node_mgr_at(i), r->flags, r->reason,
				  m->auth_uid);
	if (!rc) {
		char *names = node_mgr_names(b);

		info("update_node: node(s) %s power %s%s requested", names,
		     (r->flags & POWER_FLAGS_UP) ? "up" : "down",
		     (r->flags & POWER_FLAGS_FORCE) ? " (force)" :
		     (r->flags & POWER_FLAGS_ASAP) ? " (asap)" : "");
		xfree(names);
		ps_pass_now();
	}
	bitmap_destroy(b);
	commit_dirty();
	sched_trigger();
	commit_reply_rc(c, rc, NULL);
}

/* ---- set up and each second ---- */

/* CLOUD nodes but no programs: say so once per configuration. */
static void ps_check_cloud(const slurm_conf_t *conf)
{
	for (size_t i = 0; i < conf->node_cnt; i++) {
		if (!conf->nodes[i].state ||
		    strcasecmp(conf->nodes[i].state, "CLOUD"))
			continue;
		error("power_save: CLOUD node %s (and maybe others) cannot be "
		      "resumed: power saving is not configured "
		      "(SuspendProgram, ResumeProgram); jobs will not be "
		      "given them", conf->nodes[i].name);
		return;
	}
}

int power_save_check(const slurm_conf_t *conf, char *err, size_t errlen)
{
	power_conf_t nc;

	if (power_conf_parse(conf, &nc, err, errlen) < 0)
		return -1;
	power_conf_free(&nc);
	return 0;
}

int power_save_configure(const slurm_conf_t *conf, char *err, size_t errlen)
{
	power_conf_t nc;

	if (power_conf_parse(conf, &nc, err, errlen) < 0)
		return -1;
	if (ps.have_conf)
		power_conf_free(&ps.conf);
	ps.conf = nc;
	ps.have_conf = true;
	if (!ps.started)
		ps.started = time(NULL);
	if (!nc.enabled)
		ps_check_cloud(conf);
	else
		info("power_save module, SuspendTime=%d SuspendRate=%u "
		     "ResumeRate=%u SuspendTimeout=%u ResumeTimeout=%u",
		     nc.suspend_time == INFINITE32 ? -1 : (int) nc.suspend_time,
		     nc.suspend_rate, nc.resume_rate, nc.suspend_timeout,
		     nc.resume_timeout);
	return 0;
}

bool power_save_enabled(void)
{
	return ps.have_conf && ps.conf.enabled;
}

void power_save_fini(void)
{
	if (ps.have_conf)
		power_conf_free(&ps.conf);
	ps.have_conf = false;
	xfree(ps.waits);
	ps.wait_cnt = 0;
}

void power_save_tick(time_t now)
{
	if (!ps.have_conf || !ps.conf.enabled)
		return;
	ps_refill(now);
	ps_powered_down(now);
	ps_resume_timeouts(now);
	ps_resume_pass(now);
	ps_wait_check(now);
	if (now - ps.last_pass >= (time_t) ps.conf.interval) {
		ps.last_pass = now;
		ps_suspend_pass(now);
	}
}
