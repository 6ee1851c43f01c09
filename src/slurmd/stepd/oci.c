/* oci.c — --container through the OCI runtime (oci.h). */
#define _GNU_SOURCE
#include "slurmd/stepd/oci.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <json-c/json.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/fsuid.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/log.h"
#include "common/msg_types.h"
#include "common/oci_conf.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#define OCI_SCRIPT_NAME "slurm_script"
#define OCI_MAX_DIRS    64

struct oci_task {
	oci_conf_t  oc;
	char       *dir;        /* the task's generated bundle (%b) */
	char       *env_file;   /* %e, or NULL */
	char       *rootfs;     /* %r */
	char       *args;       /* %@ */
	char       *run, *kill, *del;
	char       *create, *start; /* RunTimeCreate/Start, when no RunTimeRun */
	char       *node, *user;
	uint32_t    job_id, step_id, task_id, uid;
};

/* What the stepd undoes at its end: each task's directory and, for
 * RunTimeCreate/Start, its RunTimeDelete (the task runs it too, but a
 * task killed after KillWait never gets to). */
typedef struct {
	char    *dir;
	char    *del;         /* RunTimeDelete of a create/start task, or NULL */
	uid_t    uid;
	gid_t    gid;
} made_t;

static made_t made[OCI_MAX_DIRS];
static size_t made_cnt;
static bool keep_dirs;

/* 'a' 'b c' -> "'a' 'b c'" with ' as '\'' */
static char *quote_argv(char *const *argv)
{
	char *s = NULL;

	for (size_t i = 0; argv && argv[i]; i++) {
		xstrcat(&s, i ? " '" : "'");
		for (const char *p = argv[i]; *p; p++) {
			if (*p == '\'')
				xstrcat(&s, "'\\''");
			else
				xstrcatc(&s, *p);
		}
		xstrcatc(&s, '\'');
	}
	return s ? s : xstrdup("");
}

/* An OCI pattern (oci_conf.h) for task t. */
static char *expand(const char *pat, const oci_task_t *t)
{
	char *s = NULL;

	for (const char *p = pat; p && *p; p++) {
		if (*p != '%' || !p[1]) {
			xstrcatc(&s, *p);
			continue;
		}
		switch (*++p) {
		case '%': xstrcatc(&s, '%'); break;
		case '@': xstrcat(&s, t->args); break;
		case 'b': xstrcat(&s, t->dir ? t->dir : ""); break;
		case 'e': xstrcat(&s, t->env_file ? t->env_file : ""); break;
		case 'j': xstrfmtcat(&s, "%u", t->job_id); break;
		case 'm': xstrcat(&s, t->oc.mount_spool_dir); break;
		case 'n': xstrcat(&s, t->node); break;
		case 'p': xstrfmtcat(&s, "%d", (int) getpid()); break;
		case 'r': xstrcat(&s, t->rootfs ? t->rootfs : ""); break;
		case 's': xstrfmtcat(&s, "%u", t->step_id); break;
		case 't': xstrfmtcat(&s, "%u", t->task_id); break;
		case 'U': xstrfmtcat(&s, "%u", t->uid); break;
		case 'u': xstrcat(&s, t->user); break;
		default:
			xstrcatc(&s, '%');
			xstrcatc(&s, *p);
		}
	}
	return s ? s : xstrdup("");
}

static bool env_excluded(const char *re_text, const char *var)
{
	regex_t re;
	bool hit;

	if (!re_text)
		return false;
	if (regcomp(&re, re_text, REG_EXTENDED | REG_NOSUB))
		return false;
	hit = regexec(&re, var, 0, NULL, 0) == 0;
	regfree(&re);
	return hit;
}

/* The bundle's config.json, read as the user (a bundle is the user's
 * path: root reads nothing the user could not). */
static json_object *read_config(const oci_req_t *r, char *why, size_t wlen)
{
	char *path = xstrdup_printf("%s/config.json", r->bundle);
	json_object *o = NULL;
	int fd;

	setfsgid(r->gid);
	setfsuid(r->uid);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	setfsuid(0);
	setfsgid(0);
	if (fd < 0)
		snprintf(why, wlen, "%s: %s", path, strerror(errno));
	else {
		char *text = xmalloc(4 * 1024 * 1024 + 1);
		ssize_t n = read(fd, text, 4 * 1024 * 1024);

		close(fd);
		if (n > 0 && n < 4 * 1024 * 1024)
			o = json_tokener_parse(text);
		if (!o || !json_object_is_type(o, json_type_object)) {
			if (o)
				json_object_put(o);
			o = NULL;
			snprintf(why, wlen, "%s: not an OCI runtime config",
				 path);
		}
		xfree(text);
	}
	xfree(path);
	return o;
}

static json_object *obj_child(json_object *o, const char *key)
{
	json_object *c;

	if (json_object_object_get_ex(o, key, &c) &&
	    json_object_is_type(c, json_type_object))
		return c;
	c = json_object_new_object();
	json_object_object_add(o, key, c);
	return c;
}

/* process.env: the bundle's, each overridden by the job's (less
 * EnvExclude). */
static json_object *merged_env(json_object *process, const oci_task_t *t,
			       char *const *env)
{
	json_object *old, *out = json_object_new_array();

	if (json_object_object_get_ex(process, "env", &old) &&
	    json_object_is_type(old, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(old); i++) {
			const char *v = json_object_get_string(
				json_object_array_get_idx(old, i));
			const char *eq = v ? strchr(v, '=') : NULL;
			bool over = false;

			for (size_t k = 0; eq && env && env[k]; k++)
				over |= !strncmp(env[k], v, eq - v + 1);
			if (eq && !over)
				json_object_array_add(out,
						      json_object_new_string(v));
		}
	}
	for (size_t k = 0; env && env[k]; k++)
		if (!env_excluded(t->oc.env_exclude, env[k]))
			json_object_array_add(out,
					      json_object_new_string(env[k]));
	return out;
}

static int write_env_file(const oci_task_t *t, char *const *env)
{
	FILE *f;

	if (t->oc.create_env_file == OCI_ENV_FILE_DISABLED)
		return 0;
	if (!(f = fopen(t->env_file, "we")))
		return -1;
	for (size_t k = 0; env && env[k]; k++) {
		if (env_excluded(t->oc.env_exclude, env[k]))
			continue;
		if (t->oc.create_env_file == OCI_ENV_FILE_NEWLINE) {
			if (!strchr(env[k], '\n'))
				fprintf(f, "%s\n", env[k]);
		} else
			fwrite(env[k], 1, strlen(env[k]) + 1, f);
	}
	return fclose(f);
}

/* Copy the batch script into the task directory (as root: it is in our
 * spool). */
static int copy_script(const char *from, const char *to)
{
	int in = open(from, O_RDONLY | O_CLOEXEC), out, rc = 0;
	char buf[65536];
	ssize_t n;

	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0700);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			rc = -1;
	if (n < 0)
		rc = -1;
	close(in);
	if (close(out) < 0)
		rc = -1;
	return rc;
}

/* The task's config.json from the bundle's. */
static int make_config(oci_task_t *t, const oci_req_t *r, json_object *cfg,
		       char *why, size_t wlen)
{
	json_object *proc = obj_child(cfg, "process"), *root, *user, *args;
	json_object *mounts, *hooks, *rp;
	char *path;
	const char *rel = NULL;
	int rc;

	root = obj_child(cfg, "root");
	if (json_object_object_get_ex(root, "path", &rp))
		rel = json_object_get_string(rp);
	if (!rel || !*rel) {
		snprintf(why, wlen, "%s/config.json: no root.path", r->bundle);
		return -1;
	}
	t->rootfs = rel[0] == '/' ? xstrdup(rel) :
		    xstrdup_printf("%s/%s", r->bundle, rel);
	json_object_object_add(root, "path",
			       json_object_new_string(t->rootfs));
	args = json_object_new_array();
	if (r->script) {
		json_object *m = json_object_new_object(), *o;

		path = xstrdup_printf("%s/%s", t->dir, OCI_SCRIPT_NAME);
		if (copy_script(r->script, path) < 0 ||
		    chown(path, r->uid, r->gid) < 0) {
			snprintf(why, wlen, "%s: %s", path, strerror(errno));
			xfree(path);
			json_object_put(args);
			json_object_put(m);
			return -1;
		}
		xfree(path);
		path = xstrdup_printf("%s%s%s", t->oc.mount_spool_dir,
				      t->oc.mount_spool_dir[strlen(
					      t->oc.mount_spool_dir) - 1] ==
				      '/' ? "" : "/", OCI_SCRIPT_NAME);
		json_object_array_add(args, json_object_new_string(path));
		xfree(path);
		for (size_t i = 1; r->argv && r->argv[0] && r->argv[i]; i++)
			json_object_array_add(args,
					      json_object_new_string(r->argv[i]));
		json_object_object_add(m, "destination", json_object_new_string(
			t->oc.mount_spool_dir));
		json_object_object_add(m, "type",
				       json_object_new_string("bind"));
		json_object_object_add(m, "source",
				       json_object_new_string(t->dir));
		o = json_object_new_array();
		json_object_array_add(o, json_object_new_string("bind"));
		json_object_array_add(o, json_object_new_string("ro"));
		json_object_object_add(m, "options", o);
		mounts = NULL;
		if (!json_object_object_get_ex(cfg, "mounts", &mounts) ||
		    !json_object_is_type(mounts, json_type_array)) {
			mounts = json_object_new_array();
			json_object_object_add(cfg, "mounts", mounts);
		}
		json_object_array_add(mounts, m);
	} else {
		for (size_t i = 0; r->argv && r->argv[i]; i++)
			json_object_array_add(args,
					      json_object_new_string(r->argv[i]));
	}
	json_object_object_add(proc, "args", args);
	json_object_object_add(proc, "env", merged_env(proc, t, r->env));
	json_object_object_add(proc, "terminal", json_object_new_boolean(0));
	user = obj_child(proc, "user");
	json_object_object_add(user, "uid", json_object_new_int64(r->uid));
	json_object_object_add(user, "gid", json_object_new_int64(r->gid));
	if (t->oc.disable_hooks &&
	    json_object_object_get_ex(cfg, "hooks", &hooks)) {
		char *copy = xstrdup(t->oc.disable_hooks), *save = NULL;

		for (char *h = strtok_r(copy, ",", &save); h;
		     h = strtok_r(NULL, ",", &save))
			json_object_object_del(hooks, h);
		xfree(copy);
	}
	path = xstrdup_printf("%s/config.json", t->dir);
	rc = json_object_to_file_ext(path, cfg, JSON_C_TO_STRING_PLAIN);
	if (rc < 0 || chown(path, r->uid, r->gid) < 0) {
		snprintf(why, wlen, "%s: cannot write", path);
		rc = -1;
	}
	xfree(path);
	return rc;
}

static int mkdir_p(const char *path, mode_t mode)
{
	char *p = xstrdup(path);
	int rc = 0;

	for (char *s = p + 1; ; s++) {
		char save;

		if (*s != '/' && *s)
			continue;
		save = *s;
		*s = '\0';
		if (mkdir(p, mode) < 0 && errno != EEXIST)
			rc = -1;
		*s = save;
		if (!save || rc)
			break;
	}
	xfree(p);
	return rc;
}

oci_task_t *oci_task_prepare(const oci_req_t *r, int *rc)
{
	char *conf_path = conf_sibling_path(r->conf, "oci.conf");
	char err[512] = "", why[512] = "", *base;
	oci_task_t *t = xmalloc(sizeof(*t));
	json_object *cfg = NULL;

	t->job_id = r->job_id;
	t->step_id = r->step_id;
	t->task_id = r->task_id;
	t->uid = r->uid;
	t->node = xstrdup(r->node_name);
	t->user = xstrdup(r->user_name ? r->user_name : "");
	t->args = quote_argv(r->argv);
	*rc = ESLURMD_CONTAINER_RUNTIME_INVALID;
	if (!oci_conf_present(conf_path)) {
		error("JobId=%u: --container=%s: %s (no %s)", r->job_id,
		      r->bundle, slurm_strerror(*rc), conf_path);
		goto fail;
	}
	if (oci_conf_load(conf_path, &t->oc, err, sizeof(err)) < 0) {
		error("JobId=%u: --container: %s", r->job_id, err);
		goto fail;
	}
	*rc = EINVAL;
	if (oci_bundle_path_check(r->bundle, why, sizeof(why)) < 0 ||
	    !(cfg = read_config(r, why, sizeof(why)))) {
		error("JobId=%u: --container=%s: %s", r->job_id, r->bundle,
		      why);
		goto fail;
	}
	*rc = ESLURMD_SETUP_ENVIRONMENT_ERROR;
	base = t->oc.container_path ? expand(t->oc.container_path, t) :
	       xstrdup_printf("%s/oci-job%u-%u", r->spool_dir, r->job_id,
			      r->step_id);
	t->dir = xstrdup_printf("%s/task-%u", base, r->task_id);
	xfree(base);
	if (mkdir_p(t->dir, 0711) < 0 || chmod(t->dir, 0700) < 0 ||
	    chown(t->dir, r->uid, r->gid) < 0) {
		error("JobId=%u: --container: %s: %m", r->job_id, t->dir);
		goto fail;
	}
	if (made_cnt < OCI_MAX_DIRS) {
		made[made_cnt].uid = r->uid;
		made[made_cnt].gid = r->gid;
		made[made_cnt++].dir = xstrdup(t->dir);
	}
	keep_dirs = t->oc.disable_cleanup;
	if (t->oc.create_env_file != OCI_ENV_FILE_DISABLED)
		t->env_file = xstrdup_printf("%s/environment", t->dir);
	if (make_config(t, r, cfg, why, sizeof(why)) < 0 ||
	    write_env_file(t, r->env) < 0 ||
	    (t->env_file && chown(t->env_file, r->uid, r->gid) < 0)) {
		error("JobId=%u: --container: %s", r->job_id,
		      why[0] ? why : strerror(errno));
		goto fail;
	}
	if (t->oc.rt_run)
		t->run = expand(t->oc.rt_run, t);
	else {
		t->create = expand(t->oc.rt_create, t);
		t->start = expand(t->oc.rt_start, t);
	}
	t->kill = t->oc.rt_kill ? expand(t->oc.rt_kill, t) : NULL;
	t->del = t->oc.rt_delete ? expand(t->oc.rt_delete, t) : NULL;
	if (!t->run && t->del && made_cnt &&
	    !strcmp(made[made_cnt - 1].dir, t->dir))
		made[made_cnt - 1].del = xstrdup(t->del);
	json_object_put(cfg);
	xfree(conf_path);
	debug("JobId=%u: task %u in container %s: %s%s%s", r->job_id,
	      r->task_id, r->bundle, t->run ? t->run : t->create,
	      t->run ? "" : " then ", t->run ? "" : t->start);
	*rc = 0;
	return t;
fail:
	if (cfg)
		json_object_put(cfg);
	xfree(conf_path);
	oci_task_free(t);
	return NULL;
}

void oci_task_free(oci_task_t *t)
{
	if (!t)
		return;
	oci_conf_free(&t->oc);
	xfree(t->dir);
	xfree(t->env_file);
	xfree(t->rootfs);
	xfree(t->args);
	xfree(t->run);
	xfree(t->create);
	xfree(t->start);
	xfree(t->kill);
	xfree(t->del);
	xfree(t->node);
	xfree(t->user);
	xfree(t);
}

/* ---- in the task's child ---- */

static volatile sig_atomic_t got_sig;

static void on_sig(int sig)
{
	got_sig = sig;
}

/* /bin/sh -c cmd with the runtime's environment; wait: 1 to wait. */
static pid_t sh(const char *cmd, char **env, bool quiet)
{
	pid_t pid = fork();

	if (pid == 0) {
		if (quiet) {
			int fd = open("/dev/null", O_WRONLY);

			if (fd >= 0) {
				dup2(fd, STDOUT_FILENO);
				dup2(fd, STDERR_FILENO);
			}
		}
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		execle("/bin/sh", "sh", "-c", cmd, (char *) NULL, env);
		_exit(127);
	}
	return pid;
}

static void wait_quiet(pid_t pid)
{
	while (pid > 0 && waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* Wait for pid, passing a signal the task got on to the container
 * (RunTimeKill) meanwhile.  The wait status, or -1. */
static int wait_passing(const oci_task_t *t, pid_t pid, char **rt_env)
{
	int status;

	for (;;) {
		pid_t r = waitpid(pid, &status, 0);

		if (r == pid)
			return status;
		if (r < 0 && errno != EINTR)
			return -1;
		if (got_sig && t->kill) {
			got_sig = 0;
			wait_quiet(sh(t->kill, rt_env, true));
		}
	}
}

/* RunTimeRun: one command creates, starts and waits for the container. */
static int run_one(const oci_task_t *t, char **rt_env)
{
	pid_t run = sh(t->run, rt_env, false);

	if (run < 0) {
		dprintf(STDERR_FILENO, "slurmstepd: error: --container: "
			"fork: %s\n", strerror(errno));
		_exit(127);
	}
	return wait_passing(t, run, rt_env);
}

/* RunTimeCreate then RunTimeStart: both return at once and the
 * container's process is left behind by the runtime.  This process is a
 * subreaper, so that orphan is its child: the last child to end is the
 * container, and its wait status is the task's. */
static int run_create_start(const oci_task_t *t, char **rt_env)
{
	const char *what = "RunTimeCreate";
	int status = -1;
	pid_t pid, helper = -1;
	bool started;

	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0) {
		dprintf(STDERR_FILENO, "slurmstepd: error: --container: "
			"PR_SET_CHILD_SUBREAPER: %s\n", strerror(errno));
		_exit(127);
	}
	pid = sh(t->create, rt_env, false);
	if (pid > 0 && (status = wait_passing(t, pid, rt_env)) == 0) {
		what = "RunTimeStart";
		pid = sh(t->start, rt_env, false);
		if (pid > 0)
			status = wait_passing(t, pid, rt_env);
	}
	if (status) {
		dprintf(STDERR_FILENO, "slurmstepd: error: --container: %s "
			"failed (%s)\n", what, pid < 0 ? strerror(errno) :
			"see the runtime's message above");
		if (t->kill)
			wait_quiet(sh(t->kill, rt_env, true));
	}
	started = status == 0;
	for (;;) {
		int st;
		pid_t r = waitpid(-1, &st, 0);

		if (r > 0) {
			if (started && r != helper)
				status = st;
			continue;
		}
		if (errno != EINTR)
			break;
		if (got_sig && t->kill) {
			got_sig = 0;
			helper = sh(t->kill, rt_env, true);
		}
	}
	return status;
}

void oci_task_exec(const oci_task_t *t, char *const *env)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP, SIGUSR1,
				    SIGUSR2, SIGQUIT };
	struct sigaction sa = { .sa_handler = on_sig };
	char **rt_env = NULL;
	size_t n = 0;
	int status;

	for (size_t k = 0; env && env[k]; k++)
		if (!env_excluded(t->oc.rt_env_exclude, env[k])) {
			rt_env = xrealloc(rt_env, (n + 2) * sizeof(char *));
			rt_env[n++] = env[k];
			rt_env[n] = NULL;
		}
	if (!rt_env)
		rt_env = xcalloc(1, sizeof(char *));
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	status = t->run ? run_one(t, rt_env) : run_create_start(t, rt_env);
	if (t->del)
		wait_quiet(sh(t->del, rt_env, true));
	if (status != -1 && WIFSIGNALED(status)) {
		signal(WTERMSIG(status), SIG_DFL);
		raise(WTERMSIG(status));
	}
	_exit(status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

/* ---- at the stepd's end ---- */

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

/* RunTimeDelete as the task's user, from the stepd (root). */
static void delete_as_user(const made_t *m)
{
	static char *const env[] = {
		"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
		"/sbin:/bin", NULL };
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open("/dev/null", O_RDWR);

		if (fd >= 0) {
			dup2(fd, STDIN_FILENO);
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		if (setgroups(0, NULL) < 0 && m->uid != getuid())
			_exit(127);
		if (setgid(m->gid) < 0 || setuid(m->uid) < 0)
			_exit(127);
		execle("/bin/sh", "sh", "-c", m->del, (char *) NULL, env);
		_exit(127);
	}
	wait_quiet(pid);
}

void oci_cleanup(void)
{
	for (size_t i = 0; i < made_cnt; i++) {
		char *parent = xstrdup(made[i].dir), *slash;

		if (made[i].del)
			delete_as_user(&made[i]);
		if (!keep_dirs) {
			nftw(made[i].dir, rm_one, 16,
			     FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
			if ((slash = strrchr(parent, '/')))
				*slash = '\0';
			rmdir(parent);          /* once its last task went */
		}
		xfree(parent);
		xfree(made[i].dir);
		xfree(made[i].del);
	}
	made_cnt = 0;
}
