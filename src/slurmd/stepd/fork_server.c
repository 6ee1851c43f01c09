/* fork_server.c — slurmstepd -F, the fork server (fork_server.h). */
#define _GNU_SOURCE
#include "slurmd/stepd/fork_server.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <malloc.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "common/daemon.h"
#include "common/auth.h"
#include "common/conf.h"
#include "common/log.h"
#include "slurmd/common/node_plugins.h"
#include "slurm/slurm_errno.h"

/* What every copy would otherwise set up for itself: slurm.conf, read
 * and parsed (kept while its files are unchanged), the auth plugin,
 * loaded and initialised, the time zone (/etc/localtime, for log time
 * stamps) and the name service switch (the job's user and group).  Best
 * effort: a copy loads what it does not find here. */
static slurm_conf_t *conf;

static void preload(const char *conf_file)
{
	char err[512];

	if (!(conf = conf_load(conf_file, err, sizeof(err))))
		return;
	auth_set_context(conf->path, conf->slurm_user_id, 1);
	(void) auth_init(conf->auth_type, conf->auth_info, conf->plugin_dir);
	tzset();
	(void) getpwuid(0);
	(void) getgrgid(0);
}

/* Before each fork: slurm.conf again if an admin changed it.  False when
 * the new one names another AuthType, which this process cannot switch
 * to: it then leaves, and slurmd starts slurmstepd afresh.  A new file
 * naming a plugin that does not resolve is not taken (slurmd's
 * reconfigure refuses it too): steps keep the previous one. */
static bool conf_refresh(const char *conf_file)
{
	static char told[1024];
	char err[1024];
	slurm_conf_t *c;

	if (!conf || conf_unchanged(conf))
		return true;
	c = conf_load(conf_file, err, sizeof(err));
	if (c && node_plugins_check(c, err, sizeof(err)) < 0) {
		if (strcmp(told, err))
			error("%s changed but %s: steps keep the previous "
			      "configuration", conf_file, err);
		snprintf(told, sizeof(told), "%s", err);
		conf_destroy(c);
		return true;
	}
	told[0] = '\0';
	conf_destroy(conf);
	conf = c;         /* NULL: each copy reads it and reports the error */
	return !c || auth_init(c->auth_type, c->auth_info, c->plugin_dir) !=
		     ESLURM_INVALID_AUTHTYPE_CHANGE;
}

slurm_conf_t *fork_server_conf(const char *conf_file, char *err,
			       size_t errlen)
{
	slurm_conf_t *c = conf;

	if (!c)
		return conf_load(conf_file, err, errlen);
	conf = NULL;
	return c;
}

/* One request and its two descriptors; 1, 0 at EOF, -1 on a bad one
 * (whatever descriptors came with it are closed). */
static int recv_req(int ctl, fork_req_t *req, int fds[2])
{
	union {
		char buf[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = req, .iov_len = sizeof(*req) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = u.buf,
			     .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *c;
	ssize_t n;
	int got = 0;

	do {
		n = recvmsg(ctl, &mh, MSG_CMSG_CLOEXEC);
	} while (n < 0 && errno == EINTR);
	if (n <= 0)
		return 0;
	fds[0] = fds[1] = -1;
	for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		for (size_t i = 0; (i + 1) * sizeof(int) <=
				   c->cmsg_len - CMSG_LEN(0); i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(fd));
			if (got < 2)
				fds[got++] = fd;
			else
				close(fd);
		}
	}
	if (n == sizeof(*req) && got == 2 && !(mh.msg_flags & MSG_CTRUNC) &&
	    req->magic == FORK_REQ_MAGIC &&
	    (req->mode == 'b' || req->mode == 's' || req->mode == 'x'))
		return 1;
	for (int i = 0; i < got; i++)
		close(fds[i]);
	return -1;
}

/* In the copy: what posix_spawn(POSIX_SPAWN_SETSID | SETSIGMASK |
 * SETSIGDEF) and its dup2 actions would have done. */
static void become_step(int ctl_fd, const int fds[2])
{
	sigset_t none;

	close(ctl_fd);
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (dup2(fds[0], STDIN_FILENO) < 0 || dup2(fds[1], STDOUT_FILENO) < 0)
		_exit(1);
	close(fds[0]);
	close(fds[1]);
	setsid();
}

fork_req_t fork_server_run(const char *conf_file)
{
	int ctl = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	fork_req_t req;
	int fds[2] = { -1, -1 }, r;

	if (ctl < 0 || null < 0)
		exit(1);
	/* fd 0 and 1 stay /dev/null in the server; dup2 clears CLOEXEC */
	dup2(null, STDIN_FILENO);
	dup2(null, STDOUT_FILENO);
	close(null);
	unsetenv("LD_BIND_NOW");      /* slurmd's, for this process only */
	signal(SIGCHLD, SIG_IGN);     /* copies are reaped by the kernel */
	daemon_ignore_signals();
	preload(conf_file);
	malloc_trim(0);               /* copies start from a tidy heap */
	for (;;) {
		int32_t pid;
		bool leave = false;

		r = recv_req(ctl, &req, fds);
		if (r == 0)
			exit(0);
		if (r > 0 && !conf_refresh(conf_file)) {
			close(fds[0]);
			close(fds[1]);
			r = -1;
			leave = true;
		}
		pid = r < 0 ? -1 : fork();
		if (pid == 0) {
			signal(SIGPIPE, SIG_DFL);
			become_step(ctl, fds);
			return req;
		}
		if (r > 0) {
			close(fds[0]);
			close(fds[1]);
		}
		if (send(ctl, &pid, sizeof(pid), MSG_NOSIGNAL) != sizeof(pid) ||
		    leave)
			exit(0);
	}
}
