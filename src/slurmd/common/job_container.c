/* job_container.c — job_container/tmpfs on a node (job_container.h). */
#define _GNU_SOURCE
#include "slurmd/common/job_container.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/fixed_plugins.h"
#include "common/job_container_conf.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define NSFS_MAGIC_NUM 0x6e736673

/* This node's settings: 1 when the plugin is on (c filled), 0 when off,
 * -1 on error (err). */
static int _load(const slurm_conf_t *sc, const char *node, jc_conf_t *c,
		 char *err, size_t errlen)
{
	char *path;
	int rc;

	memset(c, 0, sizeof(*c));
	if (!fixed_job_container_tmpfs(sc))
		return 0;
	path = conf_sibling_path(sc, "job_container.conf");
	rc = jc_conf_load(path, node, c, err, errlen);
	xfree(path);
	if (rc < 0)
		return -1;
	if (!jc_conf_active(c)) {
		jc_conf_free(c);
		return 0;
	}
	return 1;
}

int job_container_check(const slurm_conf_t *sc, const char *node, char *err,
			size_t errlen)
{
	jc_conf_t c;
	int rc = _load(sc, node, &c, err, errlen);

	if (rc < 0)
		return -1;
	jc_conf_free(&c);
	return 0;
}

/* Is path a mount point in our namespace (mountinfo's 5th field)? */
static bool _is_mount_point(const char *path)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char mp[4096];

		if (sscanf(line, "%*s %*s %*s %*s %4095s", mp) == 1 &&
		    !strcmp(mp, path))
			found = true;
	}
	fclose(f);
	return found;
}

/* mkdir -p of an absolute path, 0755. */
static int _mkdir_p(const char *path)
{
	char *p = xstrdup(path);
	int rc = 0;

	for (char *s = p + 1; ; s++) {
		if (*s != '/' && *s)
			continue;
		char save = *s;

		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			rc = -1;
		*s = save;
		if (!save || rc)
			break;
	}
	xfree(p);
	return rc;
}

int job_container_node_init(const slurm_conf_t *sc, const char *node,
			    char *err, size_t errlen)
{
	jc_conf_t c;
	char *base, real[4096];
	int rc = _load(sc, node, &c, err, errlen);
	struct stat st;

	if (rc <= 0)
		return rc;
	base = jc_conf_base_path(&c, node);
	rc = -1;
	if (c.auto_base_path && _mkdir_p(base) < 0) {
		snprintf(err, errlen, "job_container/tmpfs: cannot create "
			 "BasePath %s: %s", base, strerror(errno));
		goto out;
	}
	if (stat(base, &st) < 0 || !S_ISDIR(st.st_mode) ||
	    !realpath(base, real)) {
		snprintf(err, errlen, "job_container/tmpfs: BasePath %s: %s",
			 base, errno ? strerror(errno) : "not a directory");
		goto out;
	}
	if (!_is_mount_point(real) &&
	    mount(real, real, NULL, MS_BIND, NULL) < 0) {
		snprintf(err, errlen, "job_container/tmpfs: cannot bind-mount "
			 "BasePath %s: %s", real, strerror(errno));
		goto out;
	}
	if (mount(NULL, real, NULL, MS_PRIVATE, NULL) < 0) {
		snprintf(err, errlen, "job_container/tmpfs: cannot make "
			 "BasePath %s private: %s", real, strerror(errno));
		goto out;
	}
	info("job_container/tmpfs: BasePath %s, Dirs %zu, Shared=%s", real,
	     c.dir_cnt, c.shared ? "true" : "false");
	if (c.entire_step)
		info("job_container/tmpfs: EntireStepInNS has no effect: the "
		     "tasks enter the namespace, slurmstepd stays outside");
	rc = 0;
out:
	xfree(base);
	jc_conf_free(&c);
	return rc;
}

/* Is ns a bind mount of a namespace? */
static bool _ns_mounted(const char *ns)
{
	struct statfs fs;

	return statfs(ns, &fs) == 0 && (unsigned long) fs.f_type ==
	       (unsigned long) NSFS_MAGIC_NUM;
}

void job_container_node_fini(const slurm_conf_t *sc, const char *node)
{
	char err[512], *base, real[4096];
	struct dirent *de;
	bool busy = false;
	jc_conf_t c;
	DIR *d;

	if (_load(sc, node, &c, err, sizeof(err)) <= 0)
		return;
	base = jc_conf_base_path(&c, node);
	if ((d = opendir(base))) {
		while (!busy && (de = readdir(d))) {
			char *ns;

			if (de->d_name[0] == '.')
				continue;
			ns = xstrdup_printf("%s/%s/%s", base, de->d_name,
					    JC_NS_FILE);
			busy = _ns_mounted(ns);
			xfree(ns);
		}
		closedir(d);
	}
	if (!busy && realpath(base, real) && _is_mount_point(real) &&
	    umount2(real, MNT_DETACH) == 0)
		debug("job_container/tmpfs: BasePath %s unmounted", real);
	xfree(base);
	jc_conf_free(&c);
}

/* "/dev/shm" -> "_dev_shm": the job's directory for one Dirs entry. */
static char *_dir_src(const char *job_dir, const char *dir)
{
	char *s = xstrdup_printf("%s/", job_dir);

	for (const char *p = dir; *p; p++)
		xstrcatc(&s, *p == '/' ? '_' : *p);
	return s;
}

/* Run a site script as root with the job's identity; 0 if it exited 0
 * within wait_s seconds (0: no limit). */
static int _script(const char *path, const char *what, uint32_t job_id,
		   uint32_t uid, uint32_t gid, const char *ns,
		   uint32_t wait_s)
{
	char e_job[32], e_uid[32], e_gid[32], *e_ns = NULL;
	char *env[8], *argv[] = { (char *) path, NULL };
	size_t n = 0;
	int status = 0;
	time_t end = time(NULL) + wait_s;
	pid_t pid;

	if (!path || !*path)
		return 0;
	snprintf(e_job, sizeof(e_job), "SLURM_JOB_ID=%u", job_id);
	snprintf(e_uid, sizeof(e_uid), "SLURM_JOB_UID=%u", uid);
	snprintf(e_gid, sizeof(e_gid), "SLURM_JOB_GID=%u", gid);
	env[n++] = "PATH=/usr/sbin:/usr/bin:/sbin:/bin";
	env[n++] = e_job;
	env[n++] = e_uid;
	env[n++] = e_gid;
	if (ns)
		env[n++] = e_ns = xstrdup_printf("SLURM_NS=%s", ns);
	env[n] = NULL;
	pid = fork();
	if (pid == 0) {
		int fd = open("/dev/null", O_RDWR);

		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execve(path, argv, env);
		_exit(127);
	}
	xfree(e_ns);
	if (pid < 0)
		return -1;
	for (;;) {
		pid_t r = waitpid(pid, &status, wait_s ? WNOHANG : 0);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -1;
		if (wait_s && time(NULL) >= end) {
			error("JobId=%u: %s %s timed out after %u s", job_id,
			      what, path, wait_s);
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			return -1;
		}
		if (r == 0)
			usleep(20000);
	}
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	error("JobId=%u: %s %s failed, status 0x%x", job_id, what, path,
	      status);
	return -1;
}

/* The child that becomes the namespace: builds it, says so (0 or errno
 * on ok_fd), waits until the parent has pinned it, exits.  Its sources
 * and BasePath are held open first and named by /proc/self/fd: a Dirs
 * entry mounted over (/tmp) may hide the paths of the others. */
static void _ns_child(const jc_conf_t *c, const char *base,
		      const char *job_dir, int ok_fd, int wait_fd)
{
	unsigned long prop = c->shared ? MS_SLAVE : MS_PRIVATE;
	int e = 0, src[JC_MAX_DIRS], base_fd;
	char b, path[64];

	/* opened in the new namespace: a mount of the old one cannot be
	 * bound or unmounted here */
	if (unshare(CLONE_NEWNS) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | prop, NULL) < 0)
		e = errno;
	base_fd = open(base, O_PATH | O_CLOEXEC);
	if (base_fd < 0 && !e)
		e = errno;
	for (size_t i = 0; i < c->dir_cnt; i++) {
		char *s = _dir_src(job_dir, c->dirs[i]);

		src[i] = open(s, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (src[i] < 0 && !e)
			e = errno;
		xfree(s);
	}
	for (size_t i = 0; !e && i < c->dir_cnt; i++) {
		const char *d = c->dirs[i];
		int r;

		snprintf(path, sizeof(path), "/proc/self/fd/%d", src[i]);
		if (!strcmp(d, "/dev/shm"))
			r = mount("tmpfs", d, "tmpfs",
				  MS_NOSUID | MS_NODEV, "mode=1777");
		else
			r = mount(path, d, NULL, MS_BIND, NULL);
		if (r < 0)
			e = errno;
	}
	/* the job does not see BasePath (other jobs' directories) */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", base_fd);
	if (!e && umount2(path, MNT_DETACH) < 0)
		e = errno;
	if (write(ok_fd, &e, sizeof(e)) != sizeof(e))
		_exit(1);
	while (read(wait_fd, &b, 1) < 0 && errno == EINTR)
		;
	_exit(e ? 1 : 0);
}

/* Make BasePath/<job> and its namespace; under the BasePath lock. */
static int _create(const jc_conf_t *c, const char *base, const char *job_dir,
		   const char *ns, uint32_t job_id, uint32_t uid, uint32_t gid)
{
	int ok[2] = { -1, -1 }, hold[2] = { -1, -1 }, e = EIO, fd, rc = -1;
	char *proc = NULL;
	pid_t pid;

	if (mkdir(job_dir, 0700) < 0 && errno != EEXIST)
		return -1;
	for (size_t i = 0; i < c->dir_cnt; i++) {
		char *src = _dir_src(job_dir, c->dirs[i]);
		int r = mkdir(src, 01777);

		if (!r)
			r = chmod(src, 01777);    /* past the umask */
		xfree(src);
		if (r < 0 && errno != EEXIST)
			return -1;
	}
	if ((fd = open(ns, O_CREAT | O_RDONLY | O_CLOEXEC, 0400)) < 0)
		return -1;
	close(fd);
	if (_script(c->init_script, "InitScript", job_id, uid, gid, NULL, 0))
		return errno = EIO, -1;
	if (pipe2(ok, O_CLOEXEC) < 0 || pipe2(hold, O_CLOEXEC) < 0)
		goto out;
	if ((pid = fork()) < 0)
		goto out;
	if (pid == 0) {
		close(ok[0]);
		close(hold[1]);
		_ns_child(c, base, job_dir, ok[1], hold[0]);
	}
	close(ok[1]);
	close(hold[0]);
	ok[1] = hold[0] = -1;
	if (read(ok[0], &e, sizeof(e)) != sizeof(e))
		e = EIO;
	proc = xstrdup_printf("/proc/%d/ns/mnt", (int) pid);
	if (!e && mount(proc, ns, NULL, MS_BIND, NULL) < 0)
		e = errno;
	close(hold[1]);
	hold[1] = -1;
	waitpid(pid, NULL, 0);
	if (e) {
		errno = e;
		goto out;
	}
	debug("JobId=%u: job_container/tmpfs namespace %s made", job_id, ns);
	if (_script(c->clone_script, "CloneNSScript", job_id, uid, gid, ns,
		    c->clone_script_wait)) {
		umount2(ns, MNT_DETACH);
		errno = EIO;
		goto out;
	}
	rc = 0;
out:
	e = errno;
	for (int i = 0; i < 2; i++) {
		if (ok[i] >= 0)
			close(ok[i]);
		if (hold[i] >= 0)
			close(hold[i]);
	}
	xfree(proc);
	errno = e;
	return rc;
}

/* Lock BasePath: the descriptor, or -1. */
static int _lock(const char *base)
{
	int fd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while (flock(fd, LOCK_EX) < 0) {
		if (errno != EINTR) {
			close(fd);
			return -1;
		}
	}
	return fd;
}

int job_container_open(const slurm_conf_t *sc, const char *node,
		       uint32_t job_id, uint32_t uid, uint32_t gid)
{
	char err[512] = "", *base = NULL, *job_dir = NULL, *ns = NULL;
	jc_conf_t c;
	int lk = -1, fd = -1, e = 0, rc = _load(sc, node, &c, err,
						 sizeof(err));

	if (rc <= 0) {
		if (rc < 0)
			error("JobId=%u: job_container/tmpfs: %s", job_id, err);
		errno = rc < 0 ? EINVAL : 0;
		return -1;
	}
	base = jc_conf_base_path(&c, node);
	job_dir = xstrdup_printf("%s/%u", base, job_id);
	ns = xstrdup_printf("%s/%s", job_dir, JC_NS_FILE);
	if ((lk = _lock(base)) < 0) {
		e = errno;
		error("JobId=%u: job_container/tmpfs: BasePath %s: %m", job_id,
		      base);
		goto out;
	}
	if (!_ns_mounted(ns) &&
	    _create(&c, base, job_dir, ns, job_id, uid, gid) < 0) {
		e = errno;
		error("JobId=%u: job_container/tmpfs: cannot make the job's "
		      "namespace in %s: %m", job_id, job_dir);
		goto out;
	}
	if ((fd = open(ns, O_RDONLY | O_CLOEXEC)) < 0)
		e = errno;
out:
	if (lk >= 0)
		close(lk);
	xfree(base);
	xfree(job_dir);
	xfree(ns);
	jc_conf_free(&c);
	errno = e;
	return fd;
}

int job_container_enter(int fd)
{
	if (fd < 0)
		return 0;
	return setns(fd, CLONE_NEWNS);
}

static int _rm_one(const char *path, const struct stat *st, int flag,
		   struct FTW *ftw)
{
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

void job_container_delete(const slurm_conf_t *sc, const char *node,
			  uint32_t job_id)
{
	char err[512] = "", *base, *job_dir, *ns;
	struct stat st;
	jc_conf_t c;
	int lk;

	if (_load(sc, node, &c, err, sizeof(err)) <= 0)
		return;
	base = jc_conf_base_path(&c, node);
	job_dir = xstrdup_printf("%s/%u", base, job_id);
	ns = xstrdup_printf("%s/%s", job_dir, JC_NS_FILE);
	lk = _lock(base);
	if (lstat(job_dir, &st) == 0 && S_ISDIR(st.st_mode)) {
		if (_ns_mounted(ns)) {
			_script(c.clone_epilog, "CloneNSEpilog", job_id,
				NO_VAL32, NO_VAL32, ns, c.clone_epilog_wait);
			if (umount2(ns, MNT_DETACH) < 0)
				error("JobId=%u: job_container/tmpfs: umount "
				      "%s: %m", job_id, ns);
		}
		/* depth first, never through a symlink or a mount */
		nftw(job_dir, _rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
		debug("JobId=%u: job_container/tmpfs: %s removed", job_id,
		      job_dir);
	}
	if (lk >= 0)
		close(lk);
	xfree(base);
	xfree(job_dir);
	xfree(ns);
	jc_conf_free(&c);
}
