/* x11_fwd.c — DISPLAY values, the local X server, its cookie (x11_fwd.h). */
#define _GNU_SOURCE
#include "common/x11_fwd.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/net.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define X11_UNIX_DIR "/tmp/.X11-unix"

uint16_t x11_flags_parse(const char *word)
{
	if (!word || !*word || !strcasecmp(word, "all"))
		return X11_FORWARD_ALL;
	if (!strcasecmp(word, "first"))
		return X11_FORWARD_FIRST;
	if (!strcasecmp(word, "last"))
		return X11_FORWARD_LAST;
	return 0;
}

const char *x11_flags_name(uint16_t flags)
{
	if (flags & X11_FORWARD_FIRST)
		return "first";
	if (flags & X11_FORWARD_LAST)
		return "last";
	if (flags & X11_FORWARD_BATCH)
		return "batch";
	return "all";
}

static int parse_num(const char *s, size_t len, int max, int *out)
{
	long v = 0;

	if (!len || len > 6)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char) s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	if (v > max)
		return -1;
	*out = (int) v;
	return 0;
}

int x11_display_parse(const char *display, char **host, int *num,
		      int *screen)
{
	const char *colon, *dot;
	size_t hlen;

	*host = NULL;
	*screen = 0;
	if (!display || !(colon = strrchr(display, ':')))
		return -1;
	if (colon > display && colon[-1] == ':')
		return -1;                  /* DECnet "host::N" */
	dot = strchr(colon + 1, '.');
	if (parse_num(colon + 1, dot ? (size_t) (dot - colon - 1) :
		      strlen(colon + 1), 65535 - X11_TCP_PORT_OFFSET, num) < 0)
		return -1;
	if (dot && parse_num(dot + 1, strlen(dot + 1), 255, screen) < 0)
		return -1;
	hlen = (size_t) (colon - display);
	if (hlen >= 5 && !strncmp(colon - 5, "/unix", 5))
		return 0;                   /* "host/unix:N": local socket */
	if (!hlen || (hlen == 4 && !strncmp(display, "unix", 4)))
		return 0;
	*host = xstrndup(display, hlen);
	return 0;
}

static int connect_unix(const char *path, int abstract)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	size_t n = strlen(path);
	socklen_t len;
	int fd;

	if (n + 2 > sizeof(a.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(a.sun_path + (abstract ? 1 : 0), path, n);
	len = (socklen_t) (offsetof(struct sockaddr_un, sun_path) + n +
			   (abstract ? 1 : 0));
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0)
		return -1;
	if (connect(fd, (struct sockaddr *) &a, len) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int x11_display_connect(const char *display)
{
	char *host = NULL, path[64];
	int num, screen, fd;

	if (x11_display_parse(display, &host, &num, &screen) < 0) {
		errno = EINVAL;
		return -1;
	}
	if (host) {
		fd = net_connect_tcp(host, (uint16_t) (X11_TCP_PORT_OFFSET + num),
				     10000);
		xfree(host);
		return fd;
	}
	snprintf(path, sizeof(path), X11_UNIX_DIR "/X%d", num);
	if ((fd = connect_unix(path, 0)) >= 0)
		return fd;
	return connect_unix(path, 1);   /* the abstract one (Linux) */
}

int x11_cookie_valid(const char *cookie)
{
	size_t n = cookie ? strlen(cookie) : 0;

	if (!n || n > X11_COOKIE_MAX || n % 2)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char) cookie[i]))
			return 0;
	return 1;
}

char *x11_cookie_get(const char *display)
{
	int p[2], st;
	pid_t pid;
	char buf[4096], *cookie = NULL;
	size_t len = 0;
	ssize_t r;

	if (pipe2(p, O_CLOEXEC) < 0)
		return NULL;
	if ((pid = fork()) < 0) {
		close(p[0]);
		close(p[1]);
		return NULL;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(p[1], STDOUT_FILENO);
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDERR_FILENO);
		}
		execlp("xauth", "xauth", "list", display, (char *) NULL);
		_exit(127);
	}
	close(p[1]);
	while (len < sizeof(buf) - 1 &&
	       (r = read(p[0], buf + len, sizeof(buf) - 1 - len)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		len += (size_t) r;
	}
	buf[len] = '\0';
	close(p[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	/* "host/unix:0  MIT-MAGIC-COOKIE-1  0123abcd..." per line */
	for (char *save = NULL, *line = strtok_r(buf, "\n", &save);
	     line && !cookie; line = strtok_r(NULL, "\n", &save)) {
		char name[128], proto[64], hex[X11_COOKIE_MAX + 2];

		if (sscanf(line, "%127s %63s %513s", name, proto, hex) == 3 &&
		    !strcmp(proto, "MIT-MAGIC-COOKIE-1") &&
		    x11_cookie_valid(hex))
			cookie = xstrdup(hex);
	}
	return cookie;
}
