/* task_prolog.c — TaskProlog/TaskEpilog (see task_prolog.h). */
#define _GNU_SOURCE
#include "slurmd/stepd/task_prolog.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurmd/stepd/child.h"
#include "slurmd/stepd/env.h"
#include "slurmd/stepd/groups.h"

#define PROLOG_OUT_MAX (1024 * 1024)

static void env_unset(char ***env, const char *name)
{
	size_t n = strlen(name), w = 0;
	char **e = *env;

	for (size_t r = 0; e && e[r]; r++) {
		if (!strncmp(e[r], name, n) && e[r][n] == '=') {
			xfree(e[r]);
			continue;
		}
		e[w++] = e[r];
	}
	if (e)
		e[w] = NULL;
}

static bool valid_name(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '=' || s[i] == ' ' || s[i] == '\t')
			return false;
	return true;
}

void task_prolog_line(const char *line, char ***env, int fd)
{
	if (!strncmp(line, "export ", 7)) {
		const char *name = line + 7, *eq = strchr(name, '=');
		char *n;

		while (*name == ' ')
			name++;
		if (!eq || !valid_name(name, (size_t) (eq - name)))
			return;
		n = xstrndup(name, (size_t) (eq - name));
		env_set(env, n, eq + 1);
		xfree(n);
	} else if (!strncmp(line, "unset ", 6)) {
		const char *name = line + 6;

		while (*name == ' ')
			name++;
		if (valid_name(name, strlen(name)))
			env_unset(env, name);
	} else if (!strncmp(line, "print ", 6)) {
		char *out = xstrdup_printf("%s\n", line + 6);

		if (write(fd, out, strlen(out)) < 0)
			out[0] = '\0';
		xfree(out);
	}
}

int task_prolog_run(const char *path, char ***env)
{
	int p[2], status = 0;
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0, cap = 0;
	pid_t pid;

	if (!path || !*path)
		return 0;
	if (pipe2(p, O_CLOEXEC) < 0)
		return 1;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return 1;
	}
	if (pid == 0) {
		char *argv[] = { (char *) path, NULL };

		child_default_signals();
		dup2(p[1], STDOUT_FILENO);
		execve(path, argv, *env);
		dprintf(STDERR_FILENO, "slurmstepd: error: execve(): %s: %s\n",
			path, strerror(errno));
		_exit(127);
	}
	close(p[1]);
	for (;;) {
		ssize_t n;

		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 8192;
			buf = xrealloc(buf, cap + 1);
		}
		n = read(p[0], buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (len + (size_t) n <= PROLOG_OUT_MAX)
			len += (size_t) n;
	}
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (buf) {
		buf[len] = '\0';
		for (line = strtok_r(buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			task_prolog_line(line, env, STDOUT_FILENO);
		xfree(buf);
	}
	if (status)
		dprintf(STDERR_FILENO,
			"slurmstepd: error: TaskProlog failed status=%d\n",
			WIFEXITED(status) ? WEXITSTATUS(status) : status);
	return status;
}

void task_epilog_run(const char *path, char *const *env, uid_t uid,
		     gid_t gid, const char *cwd, int timeout_s)
{
	pid_t pid;
	int status;
	time_t end = time(NULL) + timeout_s;

	if (!path || !*path)
		return;
	pid = fork();
	if (pid < 0)
		return;
	if (pid == 0) {
		char *argv[] = { (char *) path, NULL };
		struct passwd *pw = getuid() == 0 ? getpwuid(uid) : NULL;
		int null = open("/dev/null", O_RDWR);

		child_default_signals();
		setpgid(0, 0);
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
		}
		if (getuid() == 0 &&
		    (stepd_set_groups(NULL, pw ? pw->pw_name : NULL, uid,
				      gid) < 0 ||
		     setgid(gid) < 0 || setuid(uid) < 0))
			_exit(1);
		if (getuid() != uid)
			_exit(1);
		if (!cwd || chdir(cwd) < 0)
			(void) !chdir("/tmp");
		execve(path, argv, (char **) env);
		_exit(127);
	}
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		if (r == pid || (r < 0 && errno != EINTR))
			return;
		if (time(NULL) >= end) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return;
		}
		nanosleep(&ts, NULL);
	}
}
