/* proctrack.c — finding and signalling a job's processes via /proc
 * (see proctrack.h). */
#define _GNU_SOURCE
#include "slurmd/stepd/proctrack.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/log.h"
#include "common/plugin_ctx.h"
#include "common/xmalloc.h"
#include "slurmd/common/node_plugins.h"
#include "slurmd/stepd/cgroup.h"

typedef struct {
	pid_t pid;
	pid_t ppid;
	pid_t sid;
	bool  zombie;
	bool  member;
} proc_t;

typedef struct {
	proc_t *v;
	size_t  cnt;
	size_t  cap;
} proc_table_t;

static struct cgroup_step *track_cg;
static plugin_ctx_t *ctx;
static const proctrack_ops_t *ops;

void proctrack_use_cgroup(struct cgroup_step *cg)
{
	track_cg = cgroup_step_tracks(cg) ? cg : NULL;
}

bool proctrack_uses_cgroup(void)
{
	return ops && ops->uses_cgroup;
}

static bool subreaper;

int proctrack_init(const slurm_conf_t *conf)
{
	const char *type = conf->proctrack_type;
	char err[1024];

	if (!ctx) {
		if (!type || !*type)
			type = "proctrack/cgroup";
		ctx = plugin_ctx_create(&proctrack_type, type,
					conf->plugin_dir, NULL, err,
					sizeof(err));
		if (!ctx || plugin_ctx_init(ctx, err, sizeof(err)) < 0) {
			error("%s", err);
			plugin_ctx_destroy(ctx);
			ctx = NULL;
			return -1;
		}
		ops = plugin_ctx_ops(ctx, 0);
	}
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0) {
		error("prctl(PR_SET_CHILD_SUBREAPER): %m");
		return -1;
	}
	subreaper = true;
	return 0;
}

/* The stepd is a child subreaper: whatever the job started and is still
 * alive descends from it (an orphan is re-parented to it, a new session
 * is only ever made by a descendant), so without a child of its own,
 * living or unreaped, nothing of the job is left.  Saves reading every
 * /proc/N/stat of the machine when a job ends, several times per job. */
static bool no_descendants(pid_t ancestor)
{
	siginfo_t si;

	if (!subreaper || ancestor != getpid())
		return false;
	return waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0 &&
	       errno == ECHILD;
}

/* "pid (comm) S ppid pgrp session ..." — comm may hold spaces and ')'. */
static bool read_stat(const char *pid_dir, proc_t *p)
{
	char path[64], buf[1024];
	FILE *f;
	char *rp, state;
	int ppid, pgrp, sid;
	bool ok = false;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid_dir);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f) && (rp = strrchr(buf, ')')) &&
	    sscanf(rp + 1, " %c %d %d %d", &state, &ppid, &pgrp, &sid) == 4) {
		p->pid = (pid_t) atoi(pid_dir);
		p->ppid = ppid;
		p->sid = sid;
		p->zombie = (state == 'Z' || state == 'X');
		p->member = false;
		ok = true;
	}
	fclose(f);
	return ok;
}

static void load_table(proc_table_t *t)
{
	DIR *d = opendir("/proc");
	struct dirent *de;

	memset(t, 0, sizeof(*t));
	if (!d)
		return;
	while ((de = readdir(d))) {
		proc_t p;

		if (!isdigit((unsigned char) de->d_name[0]))
			continue;
		if (!read_stat(de->d_name, &p))
			continue;
		if (t->cnt == t->cap) {
			t->cap = t->cap ? t->cap * 2 : 512;
			t->v = xrealloc(t->v, t->cap * sizeof(*t->v));
		}
		t->v[t->cnt++] = p;
	}
	closedir(d);
}

static int cmp_pid(const void *a, const void *b)
{
	const proc_t *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

static const proc_t *find_pid(const proc_table_t *t, pid_t pid)
{
	proc_t key = { .pid = pid };

	return bsearch(&key, t->v, t->cnt, sizeof(*t->v), cmp_pid);
}

/* Mark session members and descendants of ancestor (fixed point). */
static void mark_members(proc_table_t *t, pid_t sid, pid_t ancestor)
{
	bool changed = true;

	qsort(t->v, t->cnt, sizeof(*t->v), cmp_pid);
	for (size_t i = 0; i < t->cnt; i++) {
		proc_t *p = &t->v[i];

		p->member = (sid > 0 && p->sid == sid) || p->ppid == ancestor;
	}
	while (changed) {
		changed = false;
		for (size_t i = 0; i < t->cnt; i++) {
			const proc_t *parent;

			if (t->v[i].member)
				continue;
			parent = find_pid(t, t->v[i].ppid);
			if (parent && parent->member) {
				t->v[i].member = true;
				changed = true;
			}
		}
	}
}

/* sid 0: descendants of ancestor only */
static int walk(pid_t sid, pid_t ancestor, int sig)
{
	proc_table_t t;
	int n = 0;

	if (no_descendants(ancestor))
		return 0;
	load_table(&t);
	mark_members(&t, sid, ancestor);
	for (size_t i = 0; i < t.cnt; i++) {
		proc_t *p = &t.v[i];

		if (!p->member || p->zombie || p->pid == ancestor)
			continue;
		if (sig && kill(p->pid, sig) < 0)
			continue;
		n++;
	}
	xfree(t.v);
	return n;
}

/* ---- the built-ins ---- */

static int linuxproc_signal(struct cgroup_step *cg, pid_t sid,
			    pid_t ancestor, int sig)
{
	(void) cg;
	(void) sid;
	return walk(0, ancestor, sig);
}

static int pgid_signal(struct cgroup_step *cg, pid_t sid, pid_t ancestor,
		       int sig)
{
	int n = walk(sid, ancestor, sig);

	(void) cg;
	/* and whatever the group forked meanwhile */
	if (sid > 0 && sig)
		killpg(sid, sig);
	return n;
}

/* Whether sig goes to every process or to the tasks only (the
 * processes slurmstepd started) under proctrack/cgroup: as in Slurm, only
 * SIGKILL and the suspend/resume pair reach every process unless
 * cgroup.conf has SignalChildrenProcesses=yes. */
static bool to_all(struct cgroup_step *cg, int sig)
{
	return sig == 0 || sig == SIGKILL || sig == SIGSTOP ||
	       sig == SIGCONT || cgroup_step_signals_children(cg);
}

/* The living children of ancestor: the tasks. */
static int tasks_signal(pid_t ancestor, int sig)
{
	proc_table_t t;
	int n = 0;

	load_table(&t);
	for (size_t i = 0; i < t.cnt; i++)
		if (t.v[i].ppid == ancestor && !t.v[i].zombie &&
		    kill(t.v[i].pid, sig) == 0)
			n++;
	xfree(t.v);
	return n;
}

static int cgroup_signal(struct cgroup_step *cg, pid_t sid, pid_t ancestor,
			 int sig)
{
	if (!to_all(cg, sig))
		return tasks_signal(ancestor, sig);
	int c = cgroup_step_signal(cg, sig);
	int n = pgid_signal(NULL, sid, ancestor, sig);

	return c > n ? c : n;
}

static const proctrack_ops_t linuxproc_ops = { .signal = linuxproc_signal };
static const proctrack_ops_t pgid_ops = { .signal = pgid_signal };
static const proctrack_ops_t cgroup_ops = {
	.uses_cgroup = true, .signal = cgroup_signal,
};

#define PROCTRACK_BUILTIN(n) \
	const struct sluice_plugin proctrack_##n##_plugin = { \
		.type = "proctrack", .name = #n, \
		.abi_version = SLUICE_PLUGIN_ABI, \
		.ops_version = PROCTRACK_OPS_VERSION, .ops = &n##_ops }
PROCTRACK_BUILTIN(linuxproc);
PROCTRACK_BUILTIN(pgid);
PROCTRACK_BUILTIN(cgroup);

/* Without a context (its init failed and the launch is being undone)
 * pgid's set is ended, so that nothing started is left behind. */
int proctrack_count(pid_t sid, pid_t ancestor)
{
	if (!ops)
		return pgid_signal(NULL, sid, ancestor, 0);
	return ops->signal(track_cg, sid, ancestor, 0);
}

bool proctrack_signals_children(int sig)
{
	return !ops || !ops->uses_cgroup || to_all(track_cg, sig);
}

int proctrack_signal(pid_t sid, pid_t ancestor, int sig)
{
	if (!ops)
		return pgid_signal(NULL, sid, ancestor, sig);
	return ops->signal(track_cg, sid, ancestor, sig);
}
