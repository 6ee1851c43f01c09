/* daemon.c — detaching from the terminal and the pid file. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/daemon.h"
#include "common/log.h"

void daemon_ignore_signals(void)
{
	signal(SIGPIPE, SIG_IGN);
	signal(SIGPROF, SIG_IGN);
}

void daemon_detach(void)
{
	pid_t pid = fork();
	int fd;

	if (pid < 0)
		fatal("fork: %s", strerror(errno));
	if (pid > 0)
		_exit(0);
	setsid();
	if (chdir("/") < 0)
		error_errno("chdir /");
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		if (fd > STDERR_FILENO)
			close(fd);
	}
}

int daemon_write_pidfile(const char *path)
{
	FILE *f;

	if (!path)
		return 0;
	f = fopen(path, "w");
	if (!f) {
		error_errno("Unable to open pid file %s", path);
		return -1;
	}
	fprintf(f, "%d\n", (int)getpid());
	if (fclose(f) != 0) {
		error_errno("Unable to write pid file %s", path);
		return -1;
	}
	return 0;
}

void daemon_remove_pidfile(const char *path)
{
	char buf[32] = "";
	FILE *f;

	if (!path || !(f = fopen(path, "r")))
		return;
	if (fgets(buf, sizeof(buf), f) && atol(buf) == (long)getpid())
		unlink(path);
	fclose(f);
}
