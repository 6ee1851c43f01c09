/* step_acct.c — JobAcctGatherType's context and built-ins: usage of a
 * step's tasks (step_acct.h). */
#define _GNU_SOURCE
#include "slurmd/stepd/step_acct.h"

#include <ctype.h>
#include <signal.h>
#include <dirent.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/comm_params.h"
#include "common/debug_flags.h"
#include "common/io_frame.h"
#include "common/log.h"
#include "common/xstring.h"
#include "common/plugin_ctx.h"
#include "common/xmalloc.h"
#include "slurmd/common/node_plugins.h"
#include "common/profile.h"
#include "slurmd/stepd/cgroup.h"
#include "slurmd/stepd/step_profile.h"

typedef struct {
	pid_t    pid;
	pid_t    ppid;
	uint64_t cpu_usec;        /* utime+stime+cutime+cstime */
	uint64_t rss_kb;
	uint64_t vsize_kb;
} acct_proc_t;

/* read_bytes and write_bytes of /proc/<pid>/io (0 if unreadable). */
static void _read_io(pid_t pid, uint64_t *rd, uint64_t *wr)
{
	char path[64], line[128];
	unsigned long long v;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/io", (int) pid);
	if (!(f = fopen(path, "re")))
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "read_bytes: %llu", &v) == 1)
			*rd += v;
		else if (sscanf(line, "write_bytes: %llu", &v) == 1)
			*wr += v;
	}
	fclose(f);
}

int step_acct_freq(const char *spec, int def)
{
	const char *p;
	char *end;
	long v;

	if (!spec || !*spec)
		return def;
	p = strstr(spec, "task=");
	p = p ? p + 5 : spec;
	if (!isdigit((unsigned char) *p))
		return def;
	v = strtol(p, &end, 10);
	if ((*end && *end != ',') || v < 0 || v > 86400)
		return def;
	return (int) v;
}

/* "pid (comm) S ppid ..." — comm may hold spaces and ')'. */
static unsigned jag_flags;      /* JAG_PARAM_* */
static uint16_t vsize_factor;   /* VSizeFactor, % of the memory limit */

/* UsePss: the process's proportional set size; *kb kept if unreadable. */
static void _read_pss(const char *dir, uint64_t *kb)
{
	char path[64], line[256];
	unsigned long long v;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/smaps_rollup", dir);
	if (!(f = fopen(path, "re")))
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Pss: %llu kB", &v) == 1) {
			*kb = v;
			break;
		}
	fclose(f);
}

/* NoShared: resident pages less those shared with other processes. */
static void _read_unshared(const char *dir, long page_kb, uint64_t *kb)
{
	char path[64];
	unsigned long long size, res, shared;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/proc/%s/statm", dir);
	if (!(f = fopen(path, "re")))
		return;
	n = fscanf(f, "%llu %llu %llu", &size, &res, &shared);
	fclose(f);
	if (n == 3)
		*kb = (res > shared ? res - shared : 0) * (uint64_t) page_kb;
}

static int _read_stat(const char *dir, acct_proc_t *p, long tick,
		      long page_kb)
{
	char path[64], buf[2048];
	unsigned long long ut, stime, vsize;
	long long cut, cst, rss;
	char *rp, state;
	int ppid, n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/stat", dir);
	if (!(f = fopen(path, "re")))
		return -1;
	n = fgets(buf, sizeof(buf), f) ? 0 : -1;
	fclose(f);
	if (n < 0 || !(rp = strrchr(buf, ')')))
		return -1;
	/* fields 3.. : state ppid pgrp session tty tpgid flags minflt
	 * cminflt majflt cmajflt utime stime cutime cstime priority nice
	 * threads itrealvalue starttime vsize rss */
	if (sscanf(rp + 1, " %c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
		   "%llu %llu %lld %lld %*d %*d %*d %*d %*u %llu %lld",
		   &state, &ppid, &ut, &stime, &cut, &cst, &vsize, &rss) != 8)
		return -1;
	if (state == 'Z' || state == 'X')
		return -1;
	p->pid = (pid_t) atoi(dir);
	p->ppid = ppid;
	p->cpu_usec = (ut + stime + (uint64_t) (cut > 0 ? cut : 0) +
		       (uint64_t) (cst > 0 ? cst : 0)) * 1000000ull /
		(uint64_t) tick;
	p->rss_kb = rss > 0 ? (uint64_t) rss * (uint64_t) page_kb : 0;
	if (jag_flags & JAG_PARAM_USE_PSS)
		_read_pss(dir, &p->rss_kb);
	else if (jag_flags & JAG_PARAM_NO_SHARED)
		_read_unshared(dir, page_kb, &p->rss_kb);
	p->vsize_kb = vsize / 1024;
	return 0;
}

static acct_proc_t *_scan(size_t *cnt)
{
	long tick = sysconf(_SC_CLK_TCK), page_kb = sysconf(_SC_PAGESIZE) / 1024;
	DIR *d = opendir("/proc");
	struct dirent *e;
	acct_proc_t *v = NULL;
	size_t cap = 0;

	*cnt = 0;
	if (!d)
		return NULL;
	if (tick <= 0)
		tick = 100;
	if (page_kb <= 0)
		page_kb = 4;
	while ((e = readdir(d))) {
		if (!isdigit((unsigned char) e->d_name[0]))
			continue;
		if (*cnt == cap) {
			cap = cap ? cap * 2 : 256;
			v = xrealloc(v, cap * sizeof(*v));
		}
		if (!_read_stat(e->d_name, &v[*cnt], tick, page_kb))
			(*cnt)++;
	}
	closedir(d);
	return v;
}

static pid_t _parent_of(const acct_proc_t *v, size_t cnt, pid_t pid)
{
	for (size_t i = 0; i < cnt; i++)
		if (v[i].pid == pid)
			return v[i].ppid;
	return 0;
}

/* The local task index a process belongs to, or -1. */
static int _task_of(const step_t *st, const acct_proc_t *v, size_t cnt,
		    pid_t pid)
{
	pid_t me = getpid();

	for (int depth = 0; pid > 1 && pid != me && depth < 64; depth++) {
		for (uint32_t i = 0; i < st->ntasks; i++)
			if (st->tasks[i].pid == pid && !st->tasks[i].exited)
				return (int) i;
		pid = _parent_of(v, cnt, pid);
	}
	return -1;
}

/* jobacct_gather/linux: every process of /proc to its task */
static void proc_sample(step_t *st)
{
	size_t cnt;
	acct_proc_t *v = _scan(&cnt);
	uint64_t *rss = xcalloc(st->ntasks + 1, sizeof(uint64_t));
	uint64_t *vm = xcalloc(st->ntasks + 1, sizeof(uint64_t));
	uint64_t *cpu = xcalloc(st->ntasks + 1, sizeof(uint64_t));
	bool *seen = xcalloc(st->ntasks + 1, sizeof(bool));
	uint64_t *rd = NULL, *wr = NULL;

	/* I/O only for a profiled step: one more file a process */
	if (st->prof) {
		rd = xcalloc(st->ntasks + 1, sizeof(uint64_t));
		wr = xcalloc(st->ntasks + 1, sizeof(uint64_t));
	}
	for (size_t i = 0; i < cnt; i++) {
		int k = _task_of(st, v, cnt, v[i].pid);

		if (k < 0)
			continue;
		if (rd)
			_read_io(v[i].pid, &rd[k], &wr[k]);
		rss[k] += v[i].rss_kb;
		vm[k] += v[i].vsize_kb;
		cpu[k] += v[i].cpu_usec;
		seen[k] = true;
	}
	for (uint32_t k = 0; k < st->ntasks; k++) {
		step_usage_t *u = &st->tasks[k].usage;

		if (!seen[k] || st->tasks[k].exited)
			continue;
		u->rss_kb = rss[k];
		u->vsize_kb = vm[k];
		if (rd) {
			u->read_bytes = rd[k];
			u->write_bytes = wr[k];
		}
		if (rss[k] > u->max_rss_kb)
			u->max_rss_kb = rss[k];
		if (vm[k] > u->max_vsize_kb)
			u->max_vsize_kb = vm[k];
		if (cpu[k] > u->cpu_usec)
			u->cpu_usec = cpu[k];
		log_flag(JAG, "%s: StepId=%u.%u task %u rss=%llu KB vsize=%llu "
			 "KB cpu=%llu usec", __func__, st->m->job_id,
			 st->m->step_id, st->tasks[k].gtid,
			 (unsigned long long) u->rss_kb,
			 (unsigned long long) u->vsize_kb,
			 (unsigned long long) u->cpu_usec);
	}
	xfree(v);
	xfree(rss);
	xfree(vm);
	xfree(cpu);
	xfree(seen);
	xfree(rd);
	xfree(wr);
}

/* jobacct_gather/cgroup: the step's cgroup counts its memory and CPU.
 * Steps have no cgroup per task, so the cgroup's figures are a task's
 * only when the step has one task here; with several, each task's are
 * /proc's (linux's).  A step without cgroup usage says so once. */
static void cgroup_sample(step_t *st)
{
	cgroup_usage_t u;
	step_usage_t *t;

	proc_sample(st);
	if (cgroup_step_usage(st->cg, &u) < 0) {
		if (!st->acct_cg_told)
			info("jobacct_gather/cgroup: StepId=%u.%u has no "
			     "cgroup usage to read (see the cgroup line "
			     "above): usage from /proc", st->m->job_id,
			     st->m->step_id);
		st->acct_cg_told = true;
		return;
	}
	if (st->ntasks != 1 || st->tasks[0].exited)
		return;
	t = &st->tasks[0].usage;
	if (u.has_mem) {
		t->rss_kb = u.rss_kb;
		if (u.rss_kb > t->max_rss_kb)
			t->max_rss_kb = u.rss_kb;
	}
	if (u.has_cpu && u.user_usec + u.sys_usec > t->cpu_usec)
		t->cpu_usec = u.user_usec + u.sys_usec;
}

static const jobacct_gather_ops_t linux_ops = { .sample = proc_sample };
static const jobacct_gather_ops_t cgroup_ops = {
	.uses_cgroup = true, .sample = cgroup_sample,
};
static const jobacct_gather_ops_t none_ops;     /* samples nothing */

/* "linux" is a macro of GNU C: the name is spelled out */
const struct sluice_plugin jobacct_gather_linux_plugin = {
	.type = "jobacct_gather", .name = "linux",
	.abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = JOBACCT_GATHER_OPS_VERSION, .ops = &linux_ops,
};
const struct sluice_plugin jobacct_gather_cgroup_plugin = {
	.type = "jobacct_gather", .name = "cgroup",
	.abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = JOBACCT_GATHER_OPS_VERSION, .ops = &cgroup_ops,
};
const struct sluice_plugin jobacct_gather_none_plugin = {
	.type = "jobacct_gather", .name = "none",
	.abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = JOBACCT_GATHER_OPS_VERSION, .ops = &none_ops,
};

static plugin_ctx_t *ctx;
static const jobacct_gather_ops_t *ops;

int step_acct_init(const slurm_conf_t *conf)
{
	const char *v = conf->job_acct_gather_type;
	char err[1024];

	if (ctx)
		return 0;
	ctx = plugin_ctx_create(&jobacct_gather_type,
				v && *v ? v : "jobacct_gather/none",
				conf->plugin_dir, NULL, err, sizeof(err));
	if (!ctx || plugin_ctx_init(ctx, err, sizeof(err)) < 0) {
		error("%s", err);
		plugin_ctx_destroy(ctx);
		ctx = NULL;
		return -1;
	}
	ops = plugin_ctx_ops(ctx, 0);
	jag_flags = jag_params_parse(conf->jag_params);
	vsize_factor = conf->vsize_factor;
	return 0;
}

bool step_acct_uses_cgroup(void)
{
	return ops && ops->uses_cgroup;
}

/* OverMemoryKill: the tasks' memory here against the step's, and their
 * virtual size against VSizeFactor percent of it. */
static void _over_memory(step_t *st)
{
	uint64_t kb = 0, vkb = 0, lim = st->mem_mb * 1024;
	uint64_t vlim = lim * vsize_factor / 100;
	char *line;

	if (!(jag_flags & JAG_PARAM_OVER_MEMORY_KILL) || !st->mem_mb ||
	    st->mem_killed)
		return;
	for (uint32_t k = 0; k < st->ntasks; k++) {
		if (st->tasks[k].exited)
			continue;
		kb += st->tasks[k].usage.rss_kb;
		vkb += st->tasks[k].usage.vsize_kb;
	}
	log_flag(JAG, "%s: StepId=%u.%u uses %llu KB of %llu KB, virtual "
		 "%llu KB of %llu KB", __func__, st->m->job_id,
		 st->m->step_id, (unsigned long long) kb,
		 (unsigned long long) lim, (unsigned long long) vkb,
		 (unsigned long long) vlim);
	if (kb > lim)
		line = xstrdup_printf("StepId=%u.%u exceeded memory limit "
				      "(%llu > %llu), being killed",
				      st->m->job_id, st->m->step_id,
				      (unsigned long long) kb,
				      (unsigned long long) lim);
	else if (vlim && vkb > vlim)
		line = xstrdup_printf("StepId=%u.%u exceeded virtual memory "
				      "limit (%llu > %llu), being killed",
				      st->m->job_id, st->m->step_id,
				      (unsigned long long) vkb,
				      (unsigned long long) vlim);
	else
		return;
	st->mem_killed = true;
	error("%s", line);
	xstrfmtcat(&line, "\n");
	{
		char *msg = xstrdup_printf("slurmstepd: error: %s", line);

		step_send(st, IO_STDERR, st->tasks[0].gtid, msg, strlen(msg));
		xfree(msg);
	}
	xfree(line);
	step_tasks_signal(st, SIGKILL);
}

void step_acct_sample(step_t *st)
{
	if (ops && ops->sample) {
		ops->sample(st);
		_over_memory(st);
	}
}

static void _on_timer(evutil_socket_t fd, short what, void *arg)
{
	step_acct_sample(arg);
	step_profile_tick(arg);
}

void step_acct_start(step_t *st)
{
	/* the job's --acctg-freq task=N before JobAcctGatherFrequency */
	int freq = acctg_freq_of(st->acctg_freq, "task",
				 step_acct_freq(st->conf->job_acct_gather_freq,
						30));
	struct timeval tv = { freq, 0 };

	st->acct_on = ops && ops->sample;
	if (st->prof && !st->acct_on)
		info("StepId=%u.%u: --profile=task: JobAcctGatherType takes "
		     "no samples, the profile stays empty", st->m->job_id,
		     st->m->step_id);
	else if (st->prof && !freq)
		info("StepId=%u.%u: --profile=task with a task sampling "
		     "interval of 0: no samples until the step ends",
		     st->m->job_id, st->m->step_id);
	if (!st->acct_on || !freq)
		return;
	st->acct_ev = event_new(st->base, -1, EV_PERSIST, _on_timer, st);
	event_add(st->acct_ev, &tv);
}

void step_acct_stop(step_t *st)
{
	if (st->acct_ev) {
		event_free(st->acct_ev);
		st->acct_ev = NULL;
	}
}

static uint64_t _tv_usec(const struct timeval *tv)
{
	return (uint64_t) tv->tv_sec * 1000000ull + (uint64_t) tv->tv_usec;
}

void step_acct_task_exit(step_t *st, step_task_t *t, const struct rusage *ru)
{
	step_usage_t *u = &t->usage;

	(void) st;
	u->user_usec = _tv_usec(&ru->ru_utime);
	u->sys_usec = _tv_usec(&ru->ru_stime);
	u->cpu_usec = u->user_usec + u->sys_usec;
	if ((uint64_t) ru->ru_maxrss > u->max_rss_kb)
		u->max_rss_kb = (uint64_t) ru->ru_maxrss;
	u->rss_kb = 0;
	u->vsize_kb = 0;
}

void step_acct_fill(const step_t *st, step_complete_msg_t *c, bool now)
{
	c->ntasks = st->ntasks;
	for (uint32_t i = 0; i < st->ntasks; i++) {
		const step_task_t *t = &st->tasks[i];
		const step_usage_t *u = &t->usage;

		if (t->exited) {
			c->user_cpu_usec += u->user_usec;
			c->sys_cpu_usec += u->sys_usec;
		} else {
			c->user_cpu_usec += u->cpu_usec;   /* split unknown */
		}
		/* at the end: the tasks' peaks; while running: now */
		c->tot_rss_kb += now ? u->rss_kb : u->max_rss_kb;
		c->tot_vsize_kb += now ? u->vsize_kb : u->max_vsize_kb;
		if (!i || u->max_rss_kb > c->max_rss_kb) {
			c->max_rss_kb = u->max_rss_kb;
			c->max_rss_task = t->gtid;
		}
		if (!i || u->max_vsize_kb > c->max_vsize_kb) {
			c->max_vsize_kb = u->max_vsize_kb;
			c->max_vsize_task = t->gtid;
		}
		if (!i || u->cpu_usec < c->min_cpu_usec) {
			c->min_cpu_usec = u->cpu_usec;
			c->min_cpu_task = t->gtid;
		}
	}
}
