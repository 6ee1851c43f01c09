/* cli_x11.c — srun's X11 relay (cli_x11.h). */
#define _GNU_SOURCE
#include "cli/cli_x11.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/hostlist.h"
#include "common/log.h"
#include "common/net.h"
#include "common/x11_fwd.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define RELAY_BUF   (64 * 1024)
#define RELAY_MAX   256          /* X connections at once */
#define HELLO_MS    10000        /* for a node to show the cookie */

typedef struct {
	int     fd;
	uint8_t buf[RELAY_BUF];      /* read from fd, not yet written to
				      * the other side */
	size_t  len;
	bool    eof;                 /* fd said EOF: shut the other's write */
} side_t;

typedef struct {
	side_t  s[2];                /* 0: the node, 1: the X server */
	char    hello[X11_COOKIE_MAX + 2];
	size_t  hello_len;
	bool    greeted;
	time_t  since;
} pair_t;

typedef struct {
	int        listen_fd;
	const cli_x11_t *x;
	pair_t    *pairs[RELAY_MAX];
} relay_t;

static void nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl >= 0)
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static void pair_close(relay_t *r, size_t i)
{
	pair_t *p = r->pairs[i];

	for (int k = 0; k < 2; k++)
		if (p->s[k].fd >= 0)
			close(p->s[k].fd);
	xfree(p);
	r->pairs[i] = NULL;
}

static void accept_one(relay_t *r)
{
	int fd = accept4(r->listen_fd, NULL, NULL, SOCK_CLOEXEC), one = 1;
	size_t i;

	if (fd < 0)
		return;
	for (i = 0; i < RELAY_MAX && r->pairs[i]; i++)
		;
	if (i == RELAY_MAX) {
		close(fd);
		return;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	nonblock(fd);
	r->pairs[i] = xmalloc(sizeof(pair_t));
	r->pairs[i]->s[0].fd = fd;
	r->pairs[i]->s[1].fd = -1;
	r->pairs[i]->since = time(NULL);
}

/* The node's first line: the cookie.  Then the X server is dialled.
 * 0 to go on, -1 to drop the pair. */
static int greet(relay_t *r, pair_t *p)
{
	ssize_t n = read(p->s[0].fd, p->hello + p->hello_len,
			 sizeof(p->hello) - 1 - p->hello_len);
	char *nl;

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0)
		return -1;
	p->hello_len += (size_t) n;
	p->hello[p->hello_len] = '\0';
	if (!(nl = memchr(p->hello, '\n', p->hello_len)))
		return p->hello_len < sizeof(p->hello) - 1 ? 0 : -1;
	*nl = '\0';
	if (strcmp(p->hello, r->x->cookie)) {
		debug("x11: a connection without the cookie, dropped");
		return -1;
	}
	/* bytes after the line are the X client's: keep them */
	p->s[0].len = p->hello_len - (size_t) (nl + 1 - p->hello);
	memcpy(p->s[0].buf, nl + 1, p->s[0].len);
	if ((p->s[1].fd = x11_display_connect(r->x->display)) < 0) {
		error("x11: cannot connect to DISPLAY %s: %m", r->x->display);
		return -1;
	}
	nonblock(p->s[1].fd);
	p->greeted = true;
	return 0;
}

/* Side k: read what it has into its buffer (rev: its poll events), and
 * write its buffer to the other side.  -1 once the pair is broken. */
static int pump(pair_t *p, int k, short rev)
{
	side_t *a = &p->s[k], *b = &p->s[!k];
	ssize_t n;

	if ((rev & (POLLIN | POLLHUP | POLLERR)) && !a->eof &&
	    a->len < sizeof(a->buf)) {
		n = read(a->fd, a->buf + a->len, sizeof(a->buf) - a->len);
		if (n > 0)
			a->len += (size_t) n;
		else if (n == 0 || (errno != EAGAIN && errno != EINTR))
			a->eof = true;
	}
	if (a->len) {
		n = write(b->fd, a->buf, a->len);
		if (n > 0) {
			memmove(a->buf, a->buf + n, a->len - (size_t) n);
			a->len -= (size_t) n;
		} else if (n < 0 && errno != EAGAIN && errno != EINTR) {
			return -1;
		}
	}
	if (a->eof && !a->len)
		shutdown(b->fd, SHUT_WR);
	return 0;
}

static void *relay_main(void *arg)
{
	relay_t *r = arg;
	struct pollfd pf[1 + 2 * RELAY_MAX];
	size_t at[RELAY_MAX];

	for (;;) {
		size_t n = 1;

		pf[0] = (struct pollfd) { .fd = r->listen_fd, .events = POLLIN };
		for (size_t i = 0; i < RELAY_MAX; i++) {
			pair_t *p = r->pairs[i];

			if (!p)
				continue;
			at[i] = n;
			for (int k = 0; k < 2; k++) {
				short ev = 0;

				if (k == 1 && !p->greeted) {
					pf[n++] = (struct pollfd) { .fd = -1 };
					continue;
				}
				if (!p->s[k].eof && p->s[k].len < RELAY_BUF)
					ev |= POLLIN;
				if (p->s[!k].len)
					ev |= POLLOUT;
				pf[n++] = (struct pollfd) { .fd = p->s[k].fd,
							  .events = ev };
			}
		}
		if (poll(pf, n, 1000) < 0 && errno != EINTR)
			return NULL;
		for (size_t i = 0; i < RELAY_MAX; i++) {
			pair_t *p = r->pairs[i];
			short r0, r1;
			int bad;

			if (!p)
				continue;
			r0 = pf[at[i]].revents;
			r1 = pf[at[i] + 1].revents;
			if (!p->greeted) {
				bad = (r0 && greet(r, p) < 0) ||
				      (!p->greeted && time(NULL) - p->since >
						      HELLO_MS / 1000);
				if (bad || !p->greeted)
					goto next;
			}
			bad = pump(p, 0, r0) < 0 || pump(p, 1, r1) < 0 ||
			      (p->s[0].eof && p->s[1].eof &&
			       !p->s[0].len && !p->s[1].len);
next:
			if (bad)
				pair_close(r, i);
		}
		if (pf[0].revents & POLLIN)
			accept_one(r);
	}
	return NULL;
}

int cli_x11_check(cli_x11_t *x, const char *prog, uint16_t flags)
{
	const char *d = getenv("DISPLAY");
	char *host = NULL;
	int num;

	memset(x, 0, sizeof(*x));
	if (!d || !*d) {
		fprintf(stderr, "%s: error: No DISPLAY variable set, cannot "
			"setup x11 forwarding.\n", prog);
		return -1;
	}
	if (x11_display_parse(d, &host, &num, &x->screen) < 0) {
		fprintf(stderr, "%s: error: Invalid DISPLAY variable %s, "
			"cannot setup x11 forwarding.\n", prog, d);
		return -1;
	}
	xfree(host);
	if (!(x->cookie = x11_cookie_get(d))) {
		fprintf(stderr, "%s: error: Problem retrieving X11 cookie. "
			"Is your XAUTHORITY file set up correctly?\n", prog);
		return -1;
	}
	x->display = xstrdup(d);
	x->flags = flags;
	return 0;
}

int cli_x11_start(cli_x11_t *x, const char *prog)
{
	relay_t *r;
	pthread_t t;
	int fd = net_listen_tcp(NULL, 0);

	if (fd < 0) {
		fprintf(stderr, "%s: error: x11: cannot listen: %s\n", prog,
			strerror(errno));
		return -1;
	}
	nonblock(fd);
	r = xmalloc(sizeof(*r));
	r->listen_fd = fd;
	r->x = x;
	x->port = net_local_port(fd);
	if (pthread_create(&t, NULL, relay_main, r) != 0) {
		fprintf(stderr, "%s: error: x11: cannot start its relay\n",
			prog);
		close(fd);
		xfree(r);
		return -1;
	}
	pthread_detach(t);          /* ends with srun */
	return 0;
}

void cli_x11_free(cli_x11_t *x)
{
	xfree(x->display);
	xfree(x->cookie);
}

int cli_x11_inherit(cli_x11_t *x, const char *prog)
{
	const char *w = getenv(CLI_X11_ENV);
	uint16_t f;

	memset(x, 0, sizeof(*x));
	if (!w || !*w)
		return 0;
	if (!(f = x11_flags_parse(w))) {
		fprintf(stderr, "%s: error: Invalid %s=%s\n", prog,
			CLI_X11_ENV, w);
		return -1;
	}
	return cli_x11_check(x, prog, f);
}

int cli_x11_node_wanted(const cli_x11_t *x, const char *node)
{
	const char *list = getenv("SLURM_JOB_NODELIST");
	hostlist_t *hl;
	size_t n;
	int yes;

	if (!x->flags)
		return 0;
	if (!(x->flags & (X11_FORWARD_FIRST | X11_FORWARD_LAST)))
		return 1;
	if (!list || !(hl = hostlist_parse(list, NULL, 0)))
		return 0;
	n = hostlist_count(hl);
	yes = n && !strcmp(hostlist_nth(hl, (x->flags & X11_FORWARD_FIRST) ?
					0 : n - 1), node);
	hostlist_destroy(hl);
	return yes;
}
