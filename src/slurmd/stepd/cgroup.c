/* cgroup.c — a step's cgroups: hierarchy detection, creation, limits,
 * attaching, signalling, OOM count, removal (see cgroup.h). */
#define _GNU_SOURCE
#include "slurmd/stepd/cgroup.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>
#include <linux/magic.h>

#include "common/cgroup_conf.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurmd/stepd/affinity.h"
#include "slurmd/stepd/cgroup_devices.h"
#include "slurmd/stepd/proctrack.h"
#include "slurmd/stepd/step_acct.h"
#include "slurmd/stepd/task_plugin.h"

/* The hierarchies a step may live in: v1 controller mounts, or the v2
 * tree (pure v2, or the "unified" tree of a hybrid machine). */
enum { H_FREEZER, H_MEMORY, H_CPUSET, H_V2, H_DEVICES, H_MAX };
static const char *const h_name[H_MAX] = { "freezer", "memory", "cpuset",
					   "unified", "devices" };

typedef struct {
	bool  v2;                  /* the mount point itself is cgroup2 */
	char *root[H_MAX];         /* mounted hierarchies, NULL if absent */
	bool  v2_memory;           /* controllers the v2 tree offers */
	bool  v2_cpuset;
	char  why[256];            /* what was found, or why nothing */
} tree_t;

static tree_t tree;

struct cgroup_step {
	bool      track;           /* proctrack/cgroup */
	bool      v2;
	char     *dir[H_MAX];      /* step directories in use */
	char     *procs[H_MAX];    /* their cgroup.procs (attach) */
	char     *job_rel;         /* slurm_<n>/uid_<u>/job_<j> */
	char     *cpus;            /* machine CPUs, ConstrainCores */
	int       track_h;         /* the hierarchy listing the processes */
	int       mem_h;           /* the memory controller's, or -1 */
	bool      mem_limit;       /* ConstrainRAMSpace: limited there */
	bool      devices;         /* ConstrainDevices: v1 devices in use */
	bool      signal_children; /* SignalChildrenProcesses */
};

/* ---- files ---- */

static int write_str(const char *dir, const char *file, const char *val)
{
	char *p = xstrdup_printf("%s/%s", dir, file);
	int fd = open(p, O_WRONLY | O_CLOEXEC), rc = -1, e;

	if (fd >= 0) {
		ssize_t n = write(fd, val, strlen(val));

		rc = n == (ssize_t) strlen(val) ? 0 : -1;
		e = errno;
		close(fd);
		errno = e;
	}
	if (rc < 0)
		debug("cgroup: write %s to %s: %m", val, p);
	xfree(p);
	return rc;
}

/* The file's text (xmalloc'd, trailing newline cut), or NULL. */
static char *read_str(const char *dir, const char *file)
{
	char *p = xstrdup_printf("%s/%s", dir, file), buf[8192];
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	ssize_t n = -1, got = 0;

	xfree(p);
	if (fd < 0)
		return NULL;
	while (got < (ssize_t) sizeof(buf) - 1 &&
	       (n = read(fd, buf + got, sizeof(buf) - 1 - (size_t) got)) > 0)
		got += n;
	close(fd);
	if (n < 0)
		return NULL;
	buf[got] = '\0';
	while (got > 0 && isspace((unsigned char) buf[got - 1]))
		buf[--got] = '\0';
	return xstrdup(buf);
}

static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *s = list; s && (s = strstr(s, word)); s += n)
		if ((s == list || isspace((unsigned char) s[-1])) &&
		    (!s[n] || isspace((unsigned char) s[n])))
			return true;
	return false;
}

/* ---- detection ---- */

static long fs_type(const char *path)
{
	struct statfs fs;

	return statfs(path, &fs) == 0 ? (long) fs.f_type : 0;
}

static void detect(const char *mount, cgroup_plugin_t want)
{
	long t = fs_type(mount);
	char *p;

	memset(&tree, 0, sizeof(tree));
	if (t == CGROUP2_SUPER_MAGIC) {
		char *ctl = read_str(mount, "cgroup.controllers");

		tree.v2 = true;
		tree.root[H_V2] = xstrdup(mount);
		tree.v2_memory = has_word(ctl, "memory");
		tree.v2_cpuset = has_word(ctl, "cpuset");
		snprintf(tree.why, sizeof(tree.why),
			 "cgroup v2 at %s (controllers: %s)", mount,
			 ctl && *ctl ? ctl : "none");
		xfree(ctl);
	} else if (t) {
		/* v1 (or hybrid): controller mounts below the mount point */
		char list[128] = "";

		for (int h = 0; h < H_MAX; h++) {
			long want_t = h == H_V2 ? CGROUP2_SUPER_MAGIC
						: CGROUP_SUPER_MAGIC;

			p = xstrdup_printf("%s/%s", mount, h_name[h]);
			if (fs_type(p) == want_t) {
				tree.root[h] = p;
				snprintf(list + strlen(list),
					 sizeof(list) - strlen(list), "%s%s",
					 *list ? "," : "", h_name[h]);
			} else {
				xfree(p);
			}
		}
		snprintf(tree.why, sizeof(tree.why), "cgroup v1 at %s (%s)",
			 mount, *list ? list : "no usable controller");
	} else {
		snprintf(tree.why, sizeof(tree.why), "%s: %s", mount,
			 strerror(errno));
	}
	if (want == CGROUP_PLUGIN_V2 && !tree.v2) {
		snprintf(tree.why, sizeof(tree.why),
			 "CgroupPlugin=cgroup/v2 but %s is not a cgroup2 mount",
			 mount);
		memset(tree.root, 0, sizeof(tree.root));
	} else if (want == CGROUP_PLUGIN_V1 && tree.v2) {
		snprintf(tree.why, sizeof(tree.why),
			 "CgroupPlugin=cgroup/v1 but %s is cgroup v2", mount);
		tree.root[H_V2] = NULL;
	}
}

const char *cgroup_describe(void)
{
	return tree.why;
}

/* ---- creation ---- */

static int make_dir(const char *p)
{
	if (mkdir(p, 0755) == 0 || errno == EEXIST)
		return 0;
	error("cgroup: mkdir %s: %m", p);
	return -1;
}

/* v1 cpuset: a new directory has no CPUs; copy its parent's. */
static void cpuset_inherit(const char *dir)
{
	char *parent = xstrdup(dir), *slash = strrchr(parent, '/');

	if (slash)
		*slash = '\0';
	for (int i = 0; i < 2; i++) {
		const char *f = i ? "cpuset.mems" : "cpuset.cpus";
		char *mine = read_str(dir, f), *theirs;

		if (mine && !*mine && (theirs = read_str(parent, f))) {
			write_str(dir, f, theirs);
			xfree(theirs);
		}
		xfree(mine);
	}
	xfree(parent);
}

/* mkdir root/rel level by level; v2: enable the controllers in use on
 * each level above the leaf; cpuset: the job level and below get the
 * job's CPUs (before a child exists: v1 wants children inside it). */
static int make_path(const cgroup_step_t *cg, int h, const char *rel)
{
	char *path = xstrdup(tree.root[h]), *s = xstrdup(rel), *save = NULL;
	char *tok;
	int rc = 0, level = 0;

	for (tok = strtok_r(s, "/", &save); tok && !rc;
	     tok = strtok_r(NULL, "/", &save)) {
		if (h == H_V2 && tree.v2) {
			if (tree.v2_memory && cg->mem_h == H_V2)
				write_str(path, "cgroup.subtree_control",
					  "+memory");
			if (tree.v2_cpuset && cg->cpus)
				write_str(path, "cgroup.subtree_control",
					  "+cpuset");
		}
		xstrfmtcat(&path, "/%s", tok);
		rc = make_dir(path);
		if (!rc && h == H_CPUSET)
			cpuset_inherit(path);
		if (!rc && cg->cpus && level >= 2 &&
		    (h == H_CPUSET || (h == H_V2 && tree.v2)) &&
		    write_str(path, "cpuset.cpus", cg->cpus) < 0 && level == 3)
			rc = -1;     /* the step would not be constrained */
		level++;
	}
	xfree(s);
	xfree(path);
	return rc;
}

/* percent of mb */
static uint64_t pct_mb(uint64_t mb, double pct)
{
	return (uint64_t) ((double) mb * pct / 100.0);
}

/* AllowedRAMSpace of the job's memory, at most MaxRAMPercent of the
 * node's RealMemory, at least MinRAMSpace. */
static uint64_t mem_limit_mb(const cgroup_conf_t *cc, uint64_t mem_mb,
			     uint64_t node_mb)
{
	uint64_t mb = pct_mb(mem_mb, cc->allowed_ram);

	if (node_mb && mb > pct_mb(node_mb, cc->max_ram_percent))
		mb = pct_mb(node_mb, cc->max_ram_percent);
	return mb < cc->min_ram_mb ? cc->min_ram_mb : mb;
}

/* 0, or -1 if the limit could not be set (no such file: the controller
 * is not enabled down to here).  The swap allowance (AllowedSwapSpace of
 * the job's memory) is capped so that RAM plus swap stays within
 * MaxSwapPercent of the node's RealMemory. */
static int set_memory(const cgroup_step_t *cg, const cgroup_conf_t *cc,
		      const char *dir, uint64_t mem_mb, uint64_t node_mb)
{
	uint64_t lim_mb = mem_limit_mb(cc, mem_mb, node_mb);
	uint64_t swap_mb = pct_mb(mem_mb, cc->allowed_swap);
	uint64_t lim, swap;
	char v[32];

	if (node_mb) {
		uint64_t max = pct_mb(node_mb, cc->max_swap_percent);

		swap_mb = lim_mb >= max ? 0 :
			  swap_mb > max - lim_mb ? max - lim_mb : swap_mb;
	}
	lim = lim_mb << 20;
	swap = swap_mb << 20;

	snprintf(v, sizeof(v), "%llu", (unsigned long long) lim);
	if (cg->v2) {
		if (write_str(dir, "memory.max", v) < 0)
			return -1;
		if (cc->constrain_swap) {
			snprintf(v, sizeof(v), "%llu", (unsigned long long) swap);
			write_str(dir, "memory.swap.max", v);
		}
		return 0;
	}
	if (write_str(dir, "memory.limit_in_bytes", v) < 0)
		return -1;
	if (cc->constrain_swap) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long) (lim + swap));
		write_str(dir, "memory.memsw.limit_in_bytes", v);
	}
	if (cc->swappiness >= 0) {
		snprintf(v, sizeof(v), "%d", cc->swappiness);
		write_str(dir, "memory.swappiness", v);
	}
	return 0;
}

/* Pick the hierarchies for what is asked; false if none fits. */
static bool choose(cgroup_step_t *cg, const cgroup_conf_t *cc, bool task_cg,
		   bool acct, char *why, size_t wlen)
{
	cg->mem_h = -1;
	cg->track_h = -1;
	cg->mem_limit = task_cg && cc->constrain_ram;
	if (tree.v2) {
		cg->v2 = true;
		cg->track_h = H_V2;
		if (acct && tree.v2_memory)
			cg->mem_h = H_V2;      /* usage only: best effort */
		if (cg->mem_limit) {
			if (!tree.v2_memory) {
				snprintf(why, wlen, "%s: no memory controller",
					 tree.why);
				return false;
			}
			cg->mem_h = H_V2;
		}
		if (task_cg && cc->constrain_cores && !tree.v2_cpuset) {
			snprintf(why, wlen, "%s: no cpuset controller", tree.why);
			return false;
		}
		return true;
	}
	if (acct && tree.root[H_MEMORY])
		cg->mem_h = H_MEMORY;
	if (cg->mem_limit) {
		if (!tree.root[H_MEMORY]) {
			snprintf(why, wlen, "%s: no memory controller", tree.why);
			return false;
		}
		cg->mem_h = H_MEMORY;
	}
	if (task_cg && cc->constrain_cores && !tree.root[H_CPUSET]) {
		snprintf(why, wlen, "%s: no cpuset controller", tree.why);
		return false;
	}
	for (int h = 0; h < H_MAX && cg->track_h < 0; h++)
		if (tree.root[h])
			cg->track_h = h;
	if (cg->track_h < 0) {
		snprintf(why, wlen, "%s", tree.why);
		return false;
	}
	return true;
}

/* ConstrainDevices: the v1 devices controller, where there is one.  On
 * cgroup v2 device access is controlled by a BPF_CGROUP_DEVICE program,
 * which is not done: the step runs with its devices open, and says so. */
static bool devices_usable(const cgroup_req_t *r)
{
	if (tree.root[H_DEVICES] && !tree.v2)
		return true;
	info("cgroup: ConstrainDevices for StepId=%u.%s not applied: %s has "
	     "no v1 devices controller (cgroup v2 device programs are not "
	     "supported)", r->job_id, r->step, tree.why);
	return false;
}

/* Each gres.conf GPU file the step does not hold, denied in its
 * directory. */
static int deny_devices(const cgroup_step_t *cg, const cgroup_req_t *r)
{
	char **deny = cgroup_devices_deny(r->conf, r->node_name, r->gpu_idx);
	int rc = 0;

	for (char **d = deny; d && *d && !rc; d++)
		rc = write_str(cg->dir[H_DEVICES], "devices.deny", *d);
	if (!rc && deny)
		debug("cgroup: StepId=%u.%s: %zu device(s) denied", r->job_id,
		      r->step, xstrarray_len(deny));
	xstrarray_free(deny);
	return rc;
}

static cgroup_step_t *build(const cgroup_req_t *r, const cgroup_conf_t *cc,
			    bool track, bool task_cg, bool acct, char *why,
			    size_t wlen)
{
	cgroup_step_t *cg = xmalloc(sizeof(*cg));
	char *step_rel;

	cg->track = track;
	cg->signal_children = cc->signal_children;
	if (!choose(cg, cc, task_cg, acct, why, wlen)) {
		cgroup_step_destroy(cg);
		return NULL;
	}
	cg->job_rel = xstrdup_printf("slurm_%s/uid_%u/job_%u", r->node_name,
				     r->uid, r->job_id);
	if (task_cg && cc->constrain_cores) {
		/* a later step takes the CPUs its job already has */
		char *job = xstrdup_printf("%s/%s",
					   tree.root[cg->v2 ? H_V2 : H_CPUSET],
					   cg->job_rel);

		cg->cpus = read_str(job, "cpuset.cpus");
		if (cg->cpus && !*cg->cpus)
			xfree(cg->cpus);
		if (!cg->cpus)
			cg->cpus = affinity_map_cpus(r->job_cpus, r->ncpus);
		xfree(job);
	}
	if (task_cg && cc->constrain_devices)
		cg->devices = devices_usable(r);
	step_rel = xstrdup_printf("%s/step_%s", cg->job_rel, r->step);
	for (int h = 0; h < H_MAX; h++) {
		bool use = h == cg->track_h || h == cg->mem_h ||
			   (h == H_CPUSET && cg->cpus && !cg->v2) ||
			   (h == H_V2 && cg->v2) ||
			   (h == H_DEVICES && cg->devices);

		if (!use || !tree.root[h])
			continue;
		if (make_path(cg, h, step_rel) < 0) {
			snprintf(why, wlen, "cannot create %s/%s: %s",
				 tree.root[h], step_rel, strerror(errno));
			xfree(step_rel);
			cgroup_step_destroy(cg);
			return NULL;
		}
		cg->dir[h] = xstrdup_printf("%s/%s", tree.root[h], step_rel);
		cg->procs[h] = xstrdup_printf("%s/cgroup.procs", cg->dir[h]);
	}
	xfree(step_rel);
	if (cg->devices && deny_devices(cg, r) < 0) {
		snprintf(why, wlen, "ConstrainDevices: cannot write %s/"
			 "devices.deny: %s", cg->dir[H_DEVICES],
			 strerror(errno));
		cgroup_step_destroy(cg);
		return NULL;
	}
	if (cg->mem_limit && r->mem_mb) {
		char *job = xstrdup_printf("%s/%s", tree.root[cg->mem_h],
					   cg->job_rel);
		const conf_node_t *node = conf_find_node(r->conf,
							 r->node_name);
		uint64_t node_mb = node ? node->real_memory : 0;
		int rc = set_memory(cg, cc, job, r->mem_mb, node_mb);

		if (!rc)
			rc = set_memory(cg, cc, cg->dir[cg->mem_h], r->mem_mb,
					 node_mb);
		xfree(job);
		if (rc) {
			snprintf(why, wlen, "%s: cannot set a memory limit in %s: %s",
				 tree.why, cg->dir[cg->mem_h], strerror(errno));
			cgroup_step_destroy(cg);
			return NULL;
		}
	}
	return cg;
}

cgroup_step_t *cgroup_step_create(const cgroup_req_t *r)
{
	const slurm_conf_t *c = r->conf;
	bool track = proctrack_uses_cgroup();
	bool task_cg = task_plugin_uses_cgroup();
	bool acct = step_acct_uses_cgroup();
	char *path, err[512] = "", why[512] = "";
	cgroup_conf_t cc;
	cgroup_step_t *cg = NULL;

	if (!track && !task_cg && !acct)
		return NULL;
	path = conf_sibling_path(c, "cgroup.conf");
	if (cgroup_conf_load(path, &cc, err, sizeof(err)) < 0) {
		error("cgroup: %s; no cgroups for this step", err);
		cgroup_conf_free(&cc);
		xfree(path);
		return NULL;
	}
	xfree(path);
	detect(cc.mountpoint, cc.plugin);
	if (geteuid() != 0)
		snprintf(why, sizeof(why), "not running as root");
	else
		cg = build(r, &cc, track, task_cg, acct, why, sizeof(why));
	if (!cg)
		info("cgroup: not used for StepId=%u.%s (%s)%s", r->job_id,
		     r->step, why, track ? ": proctrack/pgid" : "");
	else
		debug("cgroup: StepId=%u.%s in %s", r->job_id, r->step,
		      cg->dir[cg->track_h]);
	cgroup_conf_free(&cc);
	return cg;
}

bool cgroup_step_signals_children(const cgroup_step_t *cg)
{
	return !cg || cg->signal_children;
}

bool cgroup_step_tracks(const cgroup_step_t *cg)
{
	return cg && cg->track;
}

int cgroup_step_attach_self(const cgroup_step_t *cg)
{
	int rc = 0;

	if (!cg)
		return 0;
	for (int h = 0; h < H_MAX; h++) {
		int fd;

		if (!cg->procs[h])
			continue;
		fd = open(cg->procs[h], O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, "0\n", 2) != 2)
			rc = -1;
		if (fd >= 0)
			close(fd);
	}
	return rc;
}

int cgroup_step_attach_pid(const cgroup_step_t *cg, pid_t pid)
{
	char line[32];
	int rc = 0, len = snprintf(line, sizeof(line), "%d\n", (int) pid);

	if (!cg)
		return -1;
	for (int h = 0; h < H_MAX; h++) {
		int fd;

		if (!cg->procs[h])
			continue;
		fd = open(cg->procs[h], O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, line, (size_t) len) != len)
			rc = -1;
		if (fd >= 0)
			close(fd);
	}
	return rc;
}

const char *cgroup_step_cpus(const cgroup_step_t *cg)
{
	return cg ? cg->cpus : NULL;
}

bool cgroup_step_devices(const cgroup_step_t *cg)
{
	return cg && cg->devices;
}

/* ---- processes ---- */

static bool is_zombie(pid_t pid)
{
	char path[64], buf[512], *rp;
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int) pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return true;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return true;
	buf[n] = '\0';
	rp = strrchr(buf, ')');
	return !rp || rp[1] != ' ' || rp[2] == 'Z' || rp[2] == 'X';
}

static void freeze(const cgroup_step_t *cg, bool on)
{
	if (cg->v2)
		write_str(cg->dir[H_V2], "cgroup.freeze", on ? "1" : "0");
	else if (cg->dir[H_FREEZER])
		write_str(cg->dir[H_FREEZER], "freezer.state",
			  on ? "FROZEN" : "THAWED");
}

int cgroup_step_signal(cgroup_step_t *cg, int sig)
{
	char *list, *save = NULL, *tok;
	const char *dir;
	int n = 0;

	if (!cg || cg->track_h < 0)
		return 0;
	dir = cg->dir[cg->track_h];
	if (sig)
		freeze(cg, true);
	list = read_str(dir, "cgroup.procs");
	for (tok = list ? strtok_r(list, "\n", &save) : NULL; tok;
	     tok = strtok_r(NULL, "\n", &save)) {
		pid_t pid = (pid_t) atoi(tok);

		if (pid <= 1 || pid == getpid() || is_zombie(pid))
			continue;
		if (sig && kill(pid, sig) < 0)
			continue;
		n++;
	}
	xfree(list);
	if (sig) {
		freeze(cg, false);
		if (sig == SIGKILL && cg->v2)
			write_str(dir, "cgroup.kill", "1");
	}
	return n;
}

static uint64_t oom_field(const char *dir, const char *file)
{
	char *text = dir ? read_str(dir, file) : NULL, *p;
	uint64_t v = 0;

	if (text && (p = strstr(text, "oom_kill ")))
		v = strtoull(p + 9, NULL, 10);
	xfree(text);
	return v;
}

uint64_t cgroup_step_oom_kills(const cgroup_step_t *cg)
{
	if (!cg || cg->mem_h < 0)
		return 0;
	return oom_field(cg->dir[cg->mem_h],
			 cg->v2 ? "memory.events" : "memory.oom_control");
}

/* "key value" lines: the value of key, or false. */
static bool stat_field(const char *text, const char *key, uint64_t *out)
{
	size_t n = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n') ?
	     strchr(p, '\n') + 1 : NULL) {
		if (!strncmp(p, key, n) && p[n] == ' ') {
			*out = strtoull(p + n + 1, NULL, 10);
			return true;
		}
	}
	return false;
}

int cgroup_step_usage(const cgroup_step_t *cg, cgroup_usage_t *u)
{
	const char *mdir = cg && cg->mem_h >= 0 ? cg->dir[cg->mem_h] : NULL;
	char *text;
	uint64_t v;

	memset(u, 0, sizeof(*u));
	if (!cg)
		return -1;
	if (mdir && (text = read_str(mdir, "memory.stat"))) {
		/* resident anonymous memory, as Slurm's cgroup plugins */
		u->has_mem = stat_field(text, cg->v2 ? "anon" : "total_rss",
					&v);
		u->rss_kb = v / 1024;
		xfree(text);
	}
	if (cg->v2 && cg->dir[H_V2] &&
	    (text = read_str(cg->dir[H_V2], "cpu.stat"))) {
		u->has_cpu = stat_field(text, "user_usec", &u->user_usec) &&
			     stat_field(text, "system_usec", &u->sys_usec);
		xfree(text);
	}
	return u->has_mem || u->has_cpu ? 0 : -1;
}

/* ---- the end ---- */

static void rmdir_up(const char *root, const char *rel)
{
	char *p = xstrdup_printf("%s/%s", root, rel), *slash;

	/* job, uid and node directories go once nothing else uses them */
	for (int i = 0; i < 3; i++) {
		if (rmdir(p) < 0)
			break;
		if (!(slash = strrchr(p, '/')))
			break;
		*slash = '\0';
	}
	xfree(p);
}

void cgroup_step_destroy(cgroup_step_t *cg)
{
	if (!cg)
		return;
	if (cg->track_h >= 0 && cg->dir[cg->track_h]) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		for (int i = 0; i < 150 && cgroup_step_signal(cg, SIGKILL); i++)
			nanosleep(&ts, NULL);
	}
	for (int h = 0; h < H_MAX; h++) {
		if (!cg->dir[h])
			continue;
		if (rmdir(cg->dir[h]) < 0 && errno != ENOENT)
			debug("cgroup: rmdir %s: %m", cg->dir[h]);
		else
			rmdir_up(tree.root[h], cg->job_rel);
		xfree(cg->dir[h]);
		xfree(cg->procs[h]);
	}
	xfree(cg->job_rel);
	xfree(cg->cpus);
	xfree(cg);
}
