/* stepd_spawn.c — a slurmstepd per launch, forked by the fork server
 * or exec'd (stepd_spawn.h). */
#define _GNU_SOURCE
#include "slurmd/stepd_spawn.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "slurmd/stepd/fork_server.h"

extern char **environ;

#define FORK_REPLY_MS   5000   /* a fork takes milliseconds */
#define RETRY_SECS      60     /* after a failure, exec until then */

static pthread_mutex_t fs_lock = PTHREAD_MUTEX_INITIALIZER;
static int    fs_fd = -1;       /* our end of the server's socket */
static pid_t  fs_pid;
static time_t fs_retry_at;      /* 0: may start it now */

static int exec_stepd(slurmd_t *sd, int in_fd, int out_fd, const char *mode,
		      pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, dfl;
	char *argv[16], **envp = environ;
	int argc = 0, rc;

	argv[argc++] = sd->stepd_path;
	argv[argc++] = "-f";
	argv[argc++] = sd->conf_path;
	argv[argc++] = "-N";
	argv[argc++] = (char *) sd->node->name;
	if (mode)
		argv[argc++] = (char *) mode;
	for (int i = 0; i < sd->verbose && argc < 14; i++)
		argv[argc++] = "-v";
	argv[argc] = NULL;

	sigemptyset(&none);
	sigfillset(&dfl);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in_fd, STDIN_FILENO);
	posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &dfl);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID |
			POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	if (mode && !strcmp(mode, "-F")) {
		/* the fork server binds every symbol once, so that no copy
		 * resolves (and dirties) them again; it unsets this at once */
		size_t n = 0;

		while (environ[n])
			n++;
		envp = xcalloc(n + 2, sizeof(char *));
		memcpy(envp, environ, n * sizeof(char *));
		envp[n] = "LD_BIND_NOW=1";
	}
	rc = posix_spawn(pid, sd->stepd_path, &fa, &attr, argv, envp);
	if (envp != environ)
		xfree(envp);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (rc) {
		errno = rc;
		error("posix_spawn %s: %m", sd->stepd_path);
		return -1;
	}
	return 0;
}

/* Under fs_lock. */
static void server_stop(void)
{
	if (fs_fd >= 0)
		close(fs_fd);      /* EOF: it exits */
	fs_fd = -1;
	fs_pid = 0;
}

/* Under fs_lock: the server running, or -1 (then exec). */
static int server_start(slurmd_t *sd)
{
	int sv[2];

	if (fs_fd >= 0)
		return 0;
	if (fs_retry_at && time(NULL) < fs_retry_at)
		return -1;
	fs_retry_at = 0;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		error("slurmstepd fork server: socketpair: %m");
		goto fail;
	}
	if (exec_stepd(sd, sv[1], sv[1], "-F", &fs_pid) < 0) {
		close(sv[0]);
		close(sv[1]);
		goto fail;
	}
	close(sv[1]);
	fs_fd = sv[0];
	debug("slurmstepd fork server started, pid %d", (int) fs_pid);
	return 0;
fail:
	fs_retry_at = time(NULL) + RETRY_SECS;
	return -1;
}

/* Under fs_lock: ask the server for a copy; -1 if it did not give one
 * (the server is then stopped and exec is used for a while). */
static int server_fork(slurmd_t *sd, int in_fd, int out_fd, char mode,
		       pid_t *pid)
{
	fork_req_t req = { .magic = FORK_REQ_MAGIC, .mode = mode,
			   .verbose = (uint8_t) (sd->verbose > 10 ? 10 :
						 sd->verbose) };
	int fds[2] = { in_fd, out_fd };
	union {
		char buf[CMSG_SPACE(sizeof(fds))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = &req, .iov_len = sizeof(req) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = u.buf,
			     .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
	struct pollfd p = { .fd = fs_fd, .events = POLLIN };
	const char *why = "no answer";
	int32_t got = 0;
	ssize_t n;
	int r;

	memset(u.buf, 0, sizeof(u.buf));
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(fds));
	memcpy(CMSG_DATA(c), fds, sizeof(fds));
	do {
		n = sendmsg(fs_fd, &mh, MSG_NOSIGNAL);
	} while (n < 0 && errno == EINTR);
	if (n != (ssize_t) sizeof(req)) {
		why = n < 0 ? strerror(errno) : "short send";
		goto fail;
	}
	do {
		r = poll(&p, 1, FORK_REPLY_MS);
	} while (r < 0 && errno == EINTR);
	if (r <= 0)
		goto fail;
	do {
		n = recv(fs_fd, &got, sizeof(got), 0);
	} while (n < 0 && errno == EINTR);
	if (n != (ssize_t) sizeof(got) || got <= 0) {
		why = n < 0 ? strerror(errno) :
		      got < 0 ? "it refused or could not fork" :
		      "it went away";
		goto fail;
	}
	*pid = got;
	return 0;
fail:
	error("slurmstepd fork server (pid %d) did not start a step: %s; "
	      "exec'ing slurmstepd for the next %d s", (int) fs_pid, why,
	      RETRY_SECS);
	server_stop();
	fs_retry_at = time(NULL) + RETRY_SECS;
	return -1;
}

int stepd_spawn(slurmd_t *sd, int in_fd, int out_fd, const char *mode,
		pid_t *pid)
{
	const char *e = getenv("SLUICE_STEPD_EXEC");
	int rc = -1;

	if (!e || strcmp(e, "1")) {
		pthread_mutex_lock(&fs_lock);
		if (server_start(sd) == 0)
			rc = server_fork(sd, in_fd, out_fd,
					 !mode ? 'b' : mode[1], pid);
		pthread_mutex_unlock(&fs_lock);
	}
	if (rc < 0)
		rc = exec_stepd(sd, in_fd, out_fd, mode, pid);
	return rc;
}

void stepd_spawn_fini(void)
{
	pthread_mutex_lock(&fs_lock);
	server_stop();
	pthread_mutex_unlock(&fs_lock);
}
