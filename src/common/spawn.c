/* spawn.c — see spawn.h. */
#define _GNU_SOURCE
#include "common/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <grp.h>
#include <pwd.h>
#include <stdbool.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int spawn_wait(const char *path, char *const argv[], char *const env[],
	       const char *cwd, int *err)
{
	char *const dflt[] = { (char *) path, NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none;
	pid_t pid;
	int rc, status;

	posix_spawn_file_actions_init(&fa);
	if (cwd)
		posix_spawn_file_actions_addchdir_np(&fa, cwd);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawnattr_init(&attr);
	sigemptyset(&none);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK);
	rc = posix_spawn(&pid, path, &fa, &attr, argv ? argv : dflt, env);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (rc) {
		*err = rc;
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			*err = errno;
			return -1;
		}
	}
	return status;
}

#define SPAWN_MAX_GROUPS 1024

/* The child of vfork: raw system calls only (it shares the parent's
 * memory, and the set*id wrappers of libc would involve every thread of
 * the parent). */
static void _child(const char *path, char *const argv[], char *const env[],
		   bool change, uid_t uid, gid_t gid, const gid_t *groups,
		   int ngroups)
{
	static const int dflt[] = { SIGPIPE, SIGHUP, SIGINT, SIGQUIT, SIGTERM,
				    SIGUSR1, SIGUSR2, SIGTSTP, SIGCHLD };
	struct sigaction sa;
	sigset_t none;
	int fd;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	for (size_t i = 0; i < sizeof(dflt) / sizeof(dflt[0]); i++)
		sigaction(dflt[i], &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	setsid();
	if (change &&
	    (syscall(SYS_setgroups, ngroups, groups) < 0 ||
	     syscall(SYS_setresgid, gid, gid, gid) < 0 ||
	     syscall(SYS_setresuid, uid, uid, uid) < 0))
		_exit(126);
	fd = open("/dev/null", O_RDWR);
	if (fd < 0 || dup2(fd, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
		_exit(126);
	if (fd > 2)
		close(fd);
	if (chdir("/") < 0)
		_exit(126);
	execve(path, argv, env);
	_exit(127);
}

/* vfork and exec in the child; the child's pid or -1.  Nothing of the
 * caller is live across vfork here. */
static pid_t __attribute__((noinline))
_start_as(const char *path, char *const argv[], char *const env[], bool change,
	  uid_t uid, gid_t gid, const gid_t *groups, int ngroups)
{
	pid_t pid = vfork();

	if (pid == 0)
		_child(path, argv, env, change, uid, gid, groups, ngroups);
	return pid;
}

int spawn_wait_as(const char *path, char *const argv[], char *const env[],
		  uid_t uid, gid_t gid, unsigned timeout, int *err)
{
	char *const dflt[] = { (char *) path, NULL };
	bool change = geteuid() == 0 && uid != 0;
	gid_t groups[SPAWN_MAX_GROUPS];
	int ngroups = 1, status;
	time_t end = timeout ? time(NULL) + timeout : 0;
	pid_t pid, r;

	groups[0] = gid;
	if (change) {
		struct passwd pw, *p = NULL;
		char buf[4096];

		ngroups = SPAWN_MAX_GROUPS;
		if (getpwuid_r(uid, &pw, buf, sizeof(buf), &p) || !p ||
		    getgrouplist(p->pw_name, gid, groups, &ngroups) < 0) {
			groups[0] = gid;
			ngroups = 1;
		}
	}
	pid = _start_as(path, argv ? argv : dflt, env, change, uid, gid,
			groups, ngroups);
	if (pid < 0) {
		*err = errno;
		return -1;
	}
	for (;;) {
		r = waitpid(pid, &status, end ? WNOHANG : 0);
		if (r == pid)
			return status;
		if (r < 0 && errno != EINTR) {
			*err = errno;
			return -1;
		}
		if (r == 0 && time(NULL) >= end) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			end = 0;        /* now wait for it */
			continue;
		}
		if (r == 0)
			usleep(100 * 1000);
	}
}
