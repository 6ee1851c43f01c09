/* step_pmi.c — the PMI-1 "simple" wire server of a step (step_pmi.h);
 * a client that says "cmd=init pmi_version=2" switches to the PMI-2
 * wire (step_pmi2.c).
 *
 * Each task talks on its own socketpair (PMI_FD): newline-terminated
 * lines of space-separated key=value pairs, the first "cmd=...".  Puts go
 * to this node's pending list; at barrier_in of every local task the
 * pending pairs go to srun (IO_PMI_FENCE), which merges every node's and
 * sends the whole set back (IO_PMI_FENCE_OUT); then each task gets
 * barrier_out and sees every pair put before the barrier.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/io_frame.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurmd/stepd/step.h"
#include "slurmd/stepd/step_pmi_int.h"

const char *pmi_kv_find(const pmi_kv_t *v, size_t n, const char *key)
{
	for (size_t i = n; i > 0; i--)      /* newest wins */
		if (!strcmp(v[i - 1].key, key))
			return v[i - 1].val;
	return NULL;
}

void pmi_kv_push(pmi_kv_t **v, size_t *n, const char *key, const char *val)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(pmi_kv_t));
	(*v)[*n].key = xstrdup(key);
	(*v)[*n].val = xstrdup(val);
	(*n)++;
}

static const char *_kv_get(const step_pmi_t *p, const char *key)
{
	return pmi_kv_find(p->kvs, p->kv_cnt, key);
}

static void _kv_add(step_pmi_t *p, const char *key, const char *val)
{
	pmi_kv_push(&p->kvs, &p->kv_cnt, key, val);
}

void pmi_put(step_pmi_t *p, const char *key, const char *val)
{
	xstrfmtcat(&p->pending, "%s=%s\n", key, val);
	_kv_add(p, key, val);    /* visible here at once */
}

/* Value of key in a request line (copied to out), or NULL. */
static const char *_arg(const char *line, const char *key, char *out,
			size_t len)
{
	size_t klen = strlen(key);
	const char *p = line;

	while (p && *p) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, key, klen) && p[klen] == '=') {
			const char *v = p + klen + 1;
			size_t n = strcspn(v, " ");

			if (n >= len)
				return NULL;
			memcpy(out, v, n);
			out[n] = '\0';
			return out;
		}
		p = strchr(p, ' ');
	}
	return NULL;
}

static void _reply(pmi_client_t *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void pmi_write(pmi_client_t *c, const char *buf, size_t len)
{
	size_t off = 0;

	while (c->fd >= 0 && off < len) {
		ssize_t w = write(c->fd, buf + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN) {
			/* a task that does not read its answers: wait a
			 * little, then drop them */
			struct pollfd pf = { .fd = c->fd, .events = POLLOUT };

			if (poll(&pf, 1, 1000) > 0)
				continue;
			return;
		}
		if (w <= 0)
			return;
		off += (size_t) w;
	}
}

static void _reply(pmi_client_t *c, const char *fmt, ...)
{
	char buf[PMI_LINE_MAX + 64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t) n >= sizeof(buf))
		n = sizeof(buf) - 1;
	pmi_write(c, buf, (size_t) n);
}

void pmi_barrier_in(step_pmi_t *p, pmi_client_t *c)
{
	if (c->in_barrier)
		return;
	c->in_barrier = true;
	if (++p->in_barrier < p->st->ntasks)
		return;
	step_send(p->st, IO_PMI_FENCE, p->st->m->node_id, p->pending,
		  p->pending ? strlen(p->pending) : 0);
	xfree(p->pending);
}

static void _request(step_pmi_t *p, pmi_client_t *c, char *line)
{
	char cmd[64], key[PMI_KEY_MAX], val[PMI_VAL_MAX];
	const char *v;

	if (!_arg(line, "cmd", cmd, sizeof(cmd))) {
		_reply(c, "cmd=error rc=-1 msg=no_cmd\n");
		return;
	}
	if (!strcmp(cmd, "init")) {
		if (_arg(line, "pmi_version", val, sizeof(val)) &&
		    !strcmp(val, "2")) {
			/* libpmi2: the rest is PMI-2 wire */
			_reply(c, "cmd=response_to_init pmi_version=2 "
			       "pmi_subversion=0 rc=0\n");
			c->ver = 2;
			return;
		}
		_reply(c, "cmd=response_to_init pmi_version=1 "
		       "pmi_subversion=1 rc=0\n");
	} else if (!strcmp(cmd, "get_maxes")) {
		_reply(c, "cmd=maxes rc=0 kvsname_max=%d keylen_max=%d "
		       "vallen_max=%d\n", PMI_KEY_MAX, PMI_KEY_MAX,
		       PMI_VAL_MAX);
	} else if (!strcmp(cmd, "get_appnum")) {
		_reply(c, "cmd=appnum rc=0 appnum=0\n");
	} else if (!strcmp(cmd, "get_my_kvsname")) {
		_reply(c, "cmd=my_kvsname rc=0 kvsname=%s\n", p->kvsname);
	} else if (!strcmp(cmd, "get_universe_size")) {
		_reply(c, "cmd=universe_size rc=0 size=%u\n",
		       p->st->m->num_tasks);
	} else if (!strcmp(cmd, "put")) {
		if (!_arg(line, "key", key, sizeof(key)) ||
		    !_arg(line, "value", val, sizeof(val))) {
			_reply(c, "cmd=put_result rc=-1 msg=bad_put\n");
			return;
		}
		pmi_put(p, key, val);
		_reply(c, "cmd=put_result rc=0\n");
	} else if (!strcmp(cmd, "get")) {
		if (!_arg(line, "key", key, sizeof(key)) ||
		    !(v = _kv_get(p, key)))
			_reply(c, "cmd=get_result rc=-1 msg=key_not_found\n");
		else
			_reply(c, "cmd=get_result rc=0 value=%s\n", v);
	} else if (!strcmp(cmd, "barrier_in")) {
		pmi_barrier_in(p, c);
	} else if (!strcmp(cmd, "finalize")) {
		_reply(c, "cmd=finalize_ack rc=0\n");
	} else if (!strcmp(cmd, "abort")) {
		error("StepId=%u.%u: task %u called PMI abort",
		      p->st->m->job_id, p->st->m->step_id, c->t->gtid);
		step_tasks_signal(p->st, SIGKILL);
	} else {
		_reply(c, "cmd=%s rc=-1 msg=unsupported\n", cmd);
	}
}

void pmi_close(pmi_client_t *c)
{
	if (c->ev) {
		event_free(c->ev);
		c->ev = NULL;
	}
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

/* PMI-1: whole lines; false if the client was closed. */
static bool _pmi1_input(step_pmi_t *p, pmi_client_t *c)
{
	char *nl;

	while (c->ver == 1 && (nl = memchr(c->buf, '\n', c->len))) {
		size_t used = (size_t) (nl - c->buf) + 1;

		*nl = '\0';
		_request(p, c, c->buf);
		if (c->fd < 0)
			return false;
		memmove(c->buf, c->buf + used, c->len - used);
		c->len -= used;
		c->buf[c->len] = '\0';
	}
	if (c->ver == 1 && c->len >= PMI_LINE_MAX) {
		error("StepId=%u.%u: PMI line too long from task %u",
		      c->st->m->job_id, c->st->m->step_id, c->t->gtid);
		pmi_close(c);
		return false;
	}
	return true;
}

static void _on_read(evutil_socket_t fd, short what, void *arg)
{
	pmi_client_t *c = arg;
	step_pmi_t *p = c->st->pmi;
	ssize_t n = read(fd, c->buf + c->len, PMI_BUF_MAX - c->len);

	if (n <= 0) {
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			return;
		pmi_close(c);
		return;
	}
	c->len += (size_t) n;
	c->buf[c->len] = '\0';
	if (!_pmi1_input(p, c))
		return;
	if (c->ver == 2)
		pmi2_input(p, c);
}

step_pmi_t *step_pmi_create(step_t *st)
{
	step_pmi_t *p = xmalloc(sizeof(*p));

	p->st = st;
	p->c = xcalloc(st->ntasks + 1, sizeof(pmi_client_t));
	p->kvsname = st->m->pmi_jobid && *st->m->pmi_jobid ?
		xstrdup(st->m->pmi_jobid) :
		xstrdup_printf("%u.%u", st->m->job_id, st->m->step_id);
	if (st->m->pmi_mapping)
		_kv_add(p, "PMI_process_mapping", st->m->pmi_mapping);
	for (uint32_t i = 0; i < st->ntasks; i++)
		p->c[i].fd = -1;
	return p;
}

int step_pmi_task_fd(step_pmi_t *p, step_task_t *t, int *child_fd)
{
	pmi_client_t *c = &p->c[t->lid];
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	c->st = p->st;
	c->t = t;
	c->fd = sv[0];
	c->ver = 1;
	c->buf = xmalloc(PMI_BUF_MAX + 1);
	*child_fd = sv[1];
	return 0;
}

void step_pmi_task_started(step_pmi_t *p, step_task_t *t, int child_fd)
{
	pmi_client_t *c = &p->c[t->lid];

	close(child_fd);
	if (c->fd < 0)
		return;
	fcntl(c->fd, F_SETFL, O_NONBLOCK);
	c->ev = event_new(p->st->base, c->fd, EV_READ | EV_PERSIST, _on_read, c);
	event_add(c->ev, NULL);
}

void step_pmi_fence_out(step_pmi_t *p, const char *data, size_t len)
{
	char *copy = xstrndup(data && len ? data : "", data ? len : 0);
	char *save = NULL, *line;

	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');

		if (!eq)
			continue;
		*eq = '\0';
		if (!_kv_get(p, line) || strcmp(_kv_get(p, line), eq + 1))
			_kv_add(p, line, eq + 1);
	}
	xfree(copy);
	p->in_barrier = 0;
	for (uint32_t i = 0; i < p->st->ntasks; i++) {
		pmi_client_t *c = &p->c[i];

		if (!c->in_barrier)
			continue;
		c->in_barrier = false;
		if (c->fd >= 0 && c->ver == 2)
			pmi2_fence_done(c);
		else if (c->fd >= 0)
			_reply(c, "cmd=barrier_out rc=0\n");
	}
}

void step_pmi_destroy(step_pmi_t *p)
{
	if (!p)
		return;
	for (uint32_t i = 0; i < p->st->ntasks; i++) {
		pmi_close(&p->c[i]);
		xfree(p->c[i].buf);
		xfree(p->c[i].wait_attr);
		xfree(p->c[i].thrid);
	}
	for (size_t i = 0; i < p->node_attr_cnt; i++) {
		xfree(p->node_attrs[i].key);
		xfree(p->node_attrs[i].val);
	}
	xfree(p->node_attrs);
	for (size_t i = 0; i < p->kv_cnt; i++) {
		xfree(p->kvs[i].key);
		xfree(p->kvs[i].val);
	}
	xfree(p->kvs);
	xfree(p->c);
	xfree(p->pending);
	xfree(p->kvsname);
	xfree(p);
}
