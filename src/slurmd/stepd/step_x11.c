/* step_x11.c — X11 forwarding on the node (step_x11.h). */
#define _GNU_SOURCE
#include "slurmd/stepd/step_x11.h"

#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/log.h"
#include "common/net.h"
#include "common/spawn.h"
#include "common/x11_fwd.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"
#include "slurmd/stepd/env.h"

#define X11_CONNECT_MS 10000
#define XAUTH_TIMEOUT  10          /* seconds */

/* one per step: only one --x11 tunnel runs in a stepd */
static struct {
	int           fd;
	struct event *ev;
	int           display;
	char         *xauth_file;
	bool          private_file;   /* ours: unlinked at the end */
	char          host[256];      /* what xauth names the display by */
	step_t       *st;
} x = { .fd = -1 };

typedef struct {
	struct bufferevent *b[2];     /* 0: the X client, 1: srun */
	bool                closing;
} xpair_t;

static void pair_free(xpair_t *p)
{
	for (int k = 0; k < 2; k++)
		if (p->b[k])
			bufferevent_free(p->b[k]);
	xfree(p);
}

static int side_of(const xpair_t *p, const struct bufferevent *bev)
{
	return bev == p->b[0] ? 0 : 1;
}

static void on_read(struct bufferevent *bev, void *arg)
{
	xpair_t *p = arg;
	int k = side_of(p, bev);

	if (p->b[!k])
		bufferevent_write_buffer(p->b[!k], bufferevent_get_input(bev));
}

/* What was read before the EOF is on its way: close once it is out. */
static void on_drained(struct bufferevent *bev, void *arg)
{
	xpair_t *p = arg;

	if (p->closing &&
	    !evbuffer_get_length(bufferevent_get_output(bev)))
		pair_free(p);
}

static void on_event(struct bufferevent *bev, short what, void *arg)
{
	xpair_t *p = arg;
	int k = side_of(p, bev);
	struct bufferevent *o = p->b[!k];

	if (what & BEV_EVENT_CONNECTED) {
		int one = 1;

		setsockopt(bufferevent_getfd(bev), IPPROTO_TCP, TCP_NODELAY,
			   &one, sizeof(one));
		return;
	}
	if (!(what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)))
		return;
	if (k == 1 && (what & BEV_EVENT_ERROR) && !p->closing)
		debug("StepId=%u.%u: x11: srun's relay: %s", x.st->m->job_id,
		      x.st->m->step_id,
		      evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
	if (!o || !evbuffer_get_length(bufferevent_get_output(o))) {
		pair_free(p);
		return;
	}
	/* this side is gone: stop listening to it, flush the other */
	bufferevent_free(bev);
	p->b[k] = NULL;
	p->closing = true;
	bufferevent_setcb(o, on_read, on_drained, on_event, p);
}

static struct bufferevent *wrap(int fd, xpair_t *p)
{
	struct bufferevent *b;
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	evutil_make_socket_nonblocking(fd);
	b = bufferevent_socket_new(x.st->base, fd, BEV_OPT_CLOSE_ON_FREE);
	bufferevent_setcb(b, on_read, NULL, on_event, p);
	bufferevent_enable(b, EV_READ | EV_WRITE);
	return b;
}

/* srun's relay, connecting without waiting when its address is numeric
 * (what srun sends); else a connect that may wait (a host name). */
static struct bufferevent *dial_srun(const launch_tasks_request_msg_t *m,
				     xpair_t *p)
{
	struct sockaddr_storage ss;
	int len = sizeof(ss), fd;
	char *hp = strchr(m->x11_host, ':') ?
		   xstrdup_printf("[%s]:%u", m->x11_host, m->x11_port) :
		   xstrdup_printf("%s:%u", m->x11_host, m->x11_port);
	struct bufferevent *b;

	if (evutil_parse_sockaddr_port(hp, (struct sockaddr *) &ss, &len)) {
		xfree(hp);
		fd = net_connect_tcp(m->x11_host, m->x11_port, X11_CONNECT_MS);
		if (fd < 0)
			return NULL;
		return wrap(fd, p);
	}
	xfree(hp);
	b = bufferevent_socket_new(x.st->base, -1, BEV_OPT_CLOSE_ON_FREE);
	bufferevent_setcb(b, on_read, NULL, on_event, p);
	if (bufferevent_socket_connect(b, (struct sockaddr *) &ss, len) < 0) {
		bufferevent_free(b);
		return NULL;
	}
	bufferevent_enable(b, EV_READ | EV_WRITE);
	return b;
}

/* An X client connected to our display: dial srun, show the cookie,
 * relay (a failed connect to srun ends the pair in on_event). */
static void on_accept(evutil_socket_t lfd, short what, void *arg)
{
	const launch_tasks_request_msg_t *m = x.st->m;
	int cfd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	xpair_t *p;

	if (cfd < 0)
		return;
	p = xmalloc(sizeof(*p));
	if (!(p->b[1] = dial_srun(m, p))) {
		error("StepId=%u.%u: x11: connect to srun at %s:%u: %m",
		      m->job_id, m->step_id, m->x11_host, m->x11_port);
		close(cfd);
		xfree(p);
		return;
	}
	p->b[0] = wrap(cfd, p);
	bufferevent_write(p->b[1], m->x11_cookie, strlen(m->x11_cookie));
	bufferevent_write(p->b[1], "\n", 1);
	debug("StepId=%u.%u: x11: a client on display %d relayed to srun",
	      m->job_id, m->step_id, x.display);
}

/* 127.0.0.1:6000+N for the first free N. */
static int listen_display(void)
{
	for (int n = X11_DISPLAY_OFFSET;
	     n < X11_DISPLAY_OFFSET + X11_DISPLAY_MAX; n++) {
		struct sockaddr_in a = {
			.sin_family = AF_INET,
			.sin_port = htons((uint16_t) (X11_TCP_PORT_OFFSET + n)),
			.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
		};
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

		if (fd < 0)
			return -1;
		if (bind(fd, (struct sockaddr *) &a, sizeof(a)) == 0 &&
		    listen(fd, 64) == 0) {
			x.display = n;
			return fd;
		}
		close(fd);
	}
	errno = EADDRINUSE;
	return -1;
}

static bool home_xauthority(const slurm_conf_t *c)
{
	return c->x11_params && strcasestr(c->x11_params, "home_xauthority");
}

/* xauth as the user: "add" or "remove" our display's entry. */
static int xauth(step_t *st, bool add)
{
	char disp[300], *argv[9];
	int i = 0, err = 0, rc;
	char *env[] = { "PATH=/usr/local/bin:/usr/bin:/bin", NULL };

	snprintf(disp, sizeof(disp), "%s/unix:%d", x.host, x.display);
	argv[i++] = "xauth";
	argv[i++] = "-q";
	argv[i++] = "-f";
	argv[i++] = x.xauth_file;
	argv[i++] = add ? "add" : "remove";
	argv[i++] = disp;
	if (add) {
		argv[i++] = "MIT-MAGIC-COOKIE-1";
		argv[i++] = st->m->x11_cookie;
	}
	argv[i] = NULL;
	rc = spawn_wait_as("/usr/bin/xauth", argv, env, st->m->uid,
			   st->m->gid, XAUTH_TIMEOUT, &err);
	if (rc < 0 && err == ENOENT)
		rc = spawn_wait_as("/usr/local/bin/xauth", argv, env,
				   st->m->uid, st->m->gid, XAUTH_TIMEOUT, &err);
	if (rc != 0) {
		error("StepId=%u.%u: x11: xauth %s %s failed (%s)",
		      st->m->job_id, st->m->step_id, argv[4], x.xauth_file,
		      rc < 0 ? strerror(err) : "non-zero exit");
		return -1;
	}
	return 0;
}

static char *xauth_path(step_t *st)
{
	const char *tmp = st->conf->tmp_fs && *st->conf->tmp_fs ?
			  st->conf->tmp_fs : "/tmp";
	struct passwd pw, *res = NULL;
	char buf[4096], *path;
	int fd;

	if (home_xauthority(st->conf)) {
		if (getpwuid_r(st->m->uid, &pw, buf, sizeof(buf), &res) ||
		    !res || !res->pw_dir)
			return NULL;
		return xstrdup_printf("%s/.Xauthority", res->pw_dir);
	}
	path = xstrdup_printf("%s/.Xauthority-XXXXXX", tmp);
	if ((fd = mkstemp(path)) < 0 ||
	    fchown(fd, st->m->uid, st->m->gid) < 0) {
		if (fd >= 0) {
			close(fd);
			unlink(path);
		}
		xfree(path);
		return NULL;
	}
	close(fd);
	x.private_file = true;
	return path;
}

int step_x11_start(step_t *st)
{
	const launch_tasks_request_msg_t *m = st->m;

	if (!m->x11 || !m->x11_host || !m->x11_port ||
	    !x11_cookie_valid(m->x11_cookie))
		return 0;
	x.st = st;
	if (gethostname(x.host, sizeof(x.host) - 1) < 0)
		snprintf(x.host, sizeof(x.host), "localhost");
	if ((x.fd = listen_display()) < 0) {
		error("StepId=%u.%u: x11: no free display port: %m",
		      m->job_id, m->step_id);
		return ESLURM_X11_NOT_AVAIL;
	}
	if (!(x.xauth_file = xauth_path(st))) {
		error("StepId=%u.%u: x11: cannot make an xauth file: %m",
		      m->job_id, m->step_id);
		return ESLURM_X11_NOT_AVAIL;
	}
	if (xauth(st, true) < 0)
		return ESLURM_X11_NOT_AVAIL;
	evutil_make_socket_nonblocking(x.fd);
	x.ev = event_new(st->base, x.fd, EV_READ | EV_PERSIST, on_accept,
			 NULL);
	event_add(x.ev, NULL);
	env_setf(&st->m->env, "DISPLAY", "localhost:%d.%u", x.display,
		 m->x11_screen);
	env_set(&st->m->env, "XAUTHORITY", x.xauth_file);
	info("StepId=%u.%u: X11 forwarding on display localhost:%d to %s:%u",
	     m->job_id, m->step_id, x.display, m->x11_host, m->x11_port);
	return 0;
}

void step_x11_fini(step_t *st)
{
	if (!x.xauth_file)
		return;
	if (x.private_file)
		unlink(x.xauth_file);
	else if (x.fd >= 0)
		xauth(st, false);
	if (x.ev)
		event_free(x.ev);
	if (x.fd >= 0)
		close(x.fd);
	x.fd = -1;
	x.ev = NULL;
	xfree(x.xauth_file);
}
