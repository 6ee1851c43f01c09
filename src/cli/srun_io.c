/* srun_io.c — srun's side of a running step: the nodes' streams
 * (io_frame.h), its own stdin, signals, and the final exit code. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/srun.h"
#include "common/fd.h"
#include "common/io_frame.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define MAX_CONN 4096

typedef struct {
	int       fd;
	int       node;           /* -1 until IO_INIT */
	uint8_t  *buf;
	size_t    len, cap;
	bool      done;
} conn_t;

typedef struct {
	srun_step_t *s;
	conn_t      *conns;
	size_t       nconn;
	bool        *node_done;
	uint32_t     nodes_left;
	int         *status;      /* per task, -1 = running */
	bool         killed;
	time_t       last_int;
	time_t      *first_exit;  /* per component (one if not het) */
	bool         stdin_open;
	int          sig_pipe[1];  /* read end of the signal pipe */
	int          label_width;
	uint32_t     connected;   /* nodes whose IO_INIT arrived */
	char        *fence;       /* PMI pairs / PMIx blobs of this fence */
	size_t       fence_len;
	uint32_t     fence_cnt;   /* nodes in the barrier */
	int64_t     *pids;        /* --debugger-test: per task, -1 unknown */
	uint32_t     pids_left;
} io_t;

static int sig_pipe[2] = { -1, -1 };
static int sig_wfd = -1;
static volatile sig_atomic_t last_stop_sig;

static void _on_signal(int sig)
{
	uint8_t c = (uint8_t) sig;
	int e = errno;

	if (sig == SIGINT || sig == SIGTERM)
		last_stop_sig = sig;
	if (sig_wfd >= 0 && write(sig_wfd, &c, 1) < 0)
		c = 0;      /* the loop is flooded: this one is lost */
	errno = e;
}

static void _send(io_t *io, int node, uint16_t type, uint32_t task,
		  const void *p, size_t len)
{
	io_frame_t f = { .type = type, .task = task, .len = (uint32_t) len };
	uint8_t hdr[IO_FRAME_HDR];

	io_frame_put(hdr, &f);
	for (size_t i = 0; i < io->nconn; i++) {
		conn_t *c = &io->conns[i];

		if (c->fd < 0 || c->node < 0 || (node >= 0 && c->node != node))
			continue;
		if (fd_write_all(c->fd, hdr, sizeof(hdr)) < 0 ||
		    (len && fd_write_all(c->fd, p, len) < 0))
			continue;
	}
}

static void _signal_tasks(io_t *io, int sig)
{
	uint8_t be[4] = { 0, 0, 0, (uint8_t) sig };

	_send(io, -1, IO_SIGNAL, 0, be, sizeof(be));
}

/* The component of task t in a het step (0 otherwise). */
static uint32_t _comp(const io_t *io, uint32_t t)
{
	const srun_step_t *s = io->s;
	uint32_t node;

	if (!s->key_io || t >= s->num_tasks)
		return 0;
	node = s->task_node[t];
	for (uint32_t k = 0; k + 1 < s->key_cnt; k++)
		if (node < s->key_node_off[k + 1])
			return k;
	return s->key_cnt ? s->key_cnt - 1 : 0;
}

/* Task t's srun options: its component's (-l, -K, -W are per
 * component in a het step, as Slurm's). */
static const srun_opts_t *_so(const io_t *io, uint32_t t)
{
	return io->s->key_io ? io->s->key_io[_comp(io, t)].so : io->s->so;
}

/* ---- output ---- */

static void _output(io_t *io, uint16_t type, uint32_t task, const uint8_t *p,
		    size_t len)
{
	const srun_comp_io_t *k = io->s->key_io ?
		&io->s->key_io[_comp(io, task)] : NULL;
	int fd = type == IO_STDERR ? (k ? k->err_fd : io->s->err_fd) :
		 (k ? k->out_fd : io->s->out_fd);
	char *out = NULL;
	size_t i = 0;

	if (!_so(io, task)->label) {
		fd_write_all(fd, p, len);
		return;
	}
	while (i < len) {
		const uint8_t *nl = memchr(p + i, '\n', len - i);
		size_t n = nl ? (size_t) (nl - (p + i)) + 1 : len - i;

		xstrfmtcat(&out, "%*u: %.*s", io->label_width, task, (int) n,
			   (const char *) p + i);
		i += n;
	}
	if (out)
		fd_write_all(fd, out, strlen(out));
	xfree(out);
}

/* ---- frames from a node ---- */

static void _conn_close(io_t *io, conn_t *c)
{
	if (c->fd < 0)
		return;
	close(c->fd);
	c->fd = -1;
	xfree(c->buf);
	if (c->node >= 0 && !io->node_done[c->node]) {
		io->node_done[c->node] = true;
		io->nodes_left--;
		if (!io->killed)
			error("%s: lost connection to the step's slurmstepd",
			      io->s->node_names[c->node]);
	}
}

static void _task_exit(io_t *io, uint32_t task, uint32_t status)
{
	if (task >= io->s->num_tasks)
		return;
	io->status[task] = (int) status;
	if (!io->first_exit[_comp(io, task)])
		io->first_exit[_comp(io, task)] = time(NULL);
	if (_so(io, task)->kill_bad_exit && status && !io->killed) {
		io->killed = true;
		_signal_tasks(io, SIGKILL);
	}
}

/* --debugger-test: a task's pid; once every task's is in, the table a
 * debugger reads (Slurm's MPIR_proctable), by task id. */
static void _task_pid(io_t *io, uint32_t task, uint32_t pid)
{
	const srun_step_t *s = io->s;

	if (!io->pids || task >= s->num_tasks || io->pids[task] >= 0)
		return;
	io->pids[task] = pid;
	if (--io->pids_left)
		return;
	for (uint32_t i = 0; i < s->num_tasks; i++)
		info("task:%u, host:%s, pid:%lld, executable:%s", i,
		     s->node_names[s->task_node[i]], (long long)io->pids[i],
		     s->executable ? s->executable : "");
}

/* IO_INIT: the node's index in the step, by its key and its index in
 * its component (a het step); -1 if the frame is not a good IO_INIT. */
static int _init_node(const srun_step_t *s, const io_frame_t *f,
		      const uint8_t *p)
{
	if (f->type != IO_INIT)
		return -1;
	if (!s->key_cnt)
		return f->task < s->node_cnt && f->len == strlen(s->io_key) &&
		       !memcmp(p, s->io_key, f->len) ? (int) f->task : -1;
	for (uint32_t k = 0; k < s->key_cnt; k++) {
		uint32_t lo = s->key_node_off[k], hi = s->key_node_off[k + 1];

		if (f->len == strlen(s->keys[k]) &&
		    !memcmp(p, s->keys[k], f->len))
			return f->task < hi - lo ? (int) (lo + f->task) : -1;
	}
	return -1;
}

static int _frame(io_t *io, conn_t *c, const io_frame_t *f, const uint8_t *p)
{
	if (c->node < 0) {
		int node = _init_node(io->s, f, p);

		if (node < 0)
			return -1;
		c->node = node;
		io->connected++;
		if (io->killed || io->s->kill_now) { /* killed before it came */
			uint8_t be[4] = { 0, 0, 0, SIGKILL };

			_send(io, c->node, IO_SIGNAL, 0, be, sizeof(be));
		}
		return 0;
	}
	switch (f->type) {
	case IO_STDOUT:
	case IO_STDERR:
		_output(io, f->type, f->task, p, f->len);
		break;
	case IO_EXIT:
		if (f->len == 4)
			_task_exit(io, f->task, (uint32_t) p[0] << 24 |
				   (uint32_t) p[1] << 16 | p[2] << 8 | p[3]);
		break;
	case IO_TASK_PID:
		if (f->len == 4)
			_task_pid(io, f->task, (uint32_t) p[0] << 24 |
				  (uint32_t) p[1] << 16 | p[2] << 8 | p[3]);
		break;
	case IO_PMI_FENCE:
		if (f->len) {         /* bytes: PMIx blobs are binary */
			io->fence = xrealloc(io->fence, io->fence_len + f->len);
			memcpy(io->fence + io->fence_len, p, f->len);
			io->fence_len += f->len;
		}
		if (++io->fence_cnt >= io->s->node_cnt) {
			_send(io, -1, IO_PMI_FENCE_OUT, 0, io->fence,
			      io->fence_len);
			xfree(io->fence);
			io->fence_len = 0;
			io->fence_cnt = 0;
		}
		break;
	case IO_DONE:
		c->done = true;
		if (!io->node_done[c->node]) {
			io->node_done[c->node] = true;
			io->nodes_left--;
		}
		break;
	default:
		return -1;
	}
	return 0;
}

static void _conn_read(io_t *io, conn_t *c)
{
	size_t off = 0;
	ssize_t n;

	if (c->cap - c->len < 65536) {
		c->cap = c->len + 65536 + IO_FRAME_HDR;
		c->buf = xrealloc(c->buf, c->cap);
	}
	n = read(c->fd, c->buf + c->len, c->cap - c->len);
	if (n <= 0) {
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			return;
		_conn_close(io, c);
		return;
	}
	c->len += (size_t) n;
	while (c->len - off >= IO_FRAME_HDR) {
		io_frame_t f;

		if (io_frame_get(c->buf + off, &f) < 0) {
			_conn_close(io, c);
			return;
		}
		if (c->len - off < IO_FRAME_HDR + f.len)
			break;
		if (_frame(io, c, &f, c->buf + off + IO_FRAME_HDR) < 0) {
			_conn_close(io, c);
			return;
		}
		off += IO_FRAME_HDR + f.len;
	}
	memmove(c->buf, c->buf + off, c->len - off);
	c->len -= off;
}

static void _accept(io_t *io)
{
	int fd = accept4(io->s->listen_fd, NULL, NULL, SOCK_CLOEXEC), one = 1;

	if (fd < 0)
		return;
	if (io->nconn >= MAX_CONN) {
		close(fd);
		return;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	io->conns = xrealloc(io->conns, (io->nconn + 1) * sizeof(conn_t));
	io->conns[io->nconn++] = (conn_t) { .fd = fd, .node = -1 };
}

/* ---- stdin ---- */

/* Every node has connected once (some may already be done). */
static bool _all_connected(const io_t *io)
{
	return io->connected >= io->s->node_cnt;
}

static void _stdin(io_t *io)
{
	uint8_t b[8192];
	ssize_t n = read(STDIN_FILENO, b, sizeof(b));
	int task = io->s->in_task;
	int node = task >= 0 ? (int) io->s->task_node[task] : -1;

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		io->stdin_open = false;
		n = 0;
	}
	_send(io, node, IO_STDIN, task >= 0 ? (uint32_t) task : IO_ALL_TASKS,
	      b, (size_t) n);
}

/* ---- signals ---- */

static char *_task_ranges(const io_t *io, bool (*pick)(const io_t *, uint32_t,
						       void *), void *arg)
{
	char *s = NULL;
	uint32_t t = 0, n = io->s->num_tasks;

	while (t < n) {
		uint32_t e;

		if (!pick(io, t, arg)) {
			t++;
			continue;
		}
		for (e = t; e + 1 < n && pick(io, e + 1, arg); e++)
			;
		if (e > t)
			xstrfmtcat(&s, "%s%u-%u", s ? "," : "", t, e);
		else
			xstrfmtcat(&s, "%s%u", s ? "," : "", t);
		t = e + 1;
	}
	return s;
}

static bool _running(const io_t *io, uint32_t t, void *arg)
{
	return io->status[t] < 0;
}

static void _status(io_t *io)
{
	char *r = _task_ranges(io, _running, NULL);

	if (r)
		info("StepId=%u.%u task%s %s: running", io->s->job_id,
		     io->s->step_id, strpbrk(r, ",-") ? "s" : "", r);
	xfree(r);
}

/* --pty: the terminal's new size to task 0's node. */
static void _winsize(io_t *io)
{
	struct winsize ws;
	uint8_t p[4];

	if (io->s->in_task < 0 || ioctl(STDIN_FILENO, TIOCGWINSZ, &ws) < 0)
		return;
	p[0] = (uint8_t) (ws.ws_row >> 8);
	p[1] = (uint8_t) ws.ws_row;
	p[2] = (uint8_t) (ws.ws_col >> 8);
	p[3] = (uint8_t) ws.ws_col;
	_send(io, (int) io->s->task_node[io->s->in_task], IO_WINSIZE,
	      (uint32_t) io->s->in_task, p, sizeof(p));
}

static void _handle_signal(io_t *io, int sig)
{
	time_t now = time(NULL);

	if (sig == SIGWINCH) {
		if (io->s->so->pty)
			_winsize(io);
		return;
	}

	if (sig != SIGINT) {
		_signal_tasks(io, sig);
		return;
	}
	if (io->last_int && now - io->last_int <= 1) {
		info("sending Ctrl-C to StepId=%u.%u", io->s->job_id,
		     io->s->step_id);
		info("Job step aborted: Waiting up to 32 seconds for job step "
		     "to finish.");
		io->killed = true;
		_signal_tasks(io, SIGKILL);
		return;
	}
	io->last_int = now;
	info("interrupt (one more within 1 sec to abort)");
	_status(io);
}

int srun_io_stop_signal(void)
{
	return last_stop_sig;
}

void srun_io_signals_init(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT,
				    SIGUSR1, SIGUSR2, SIGCONT, SIGWINCH };
	struct sigaction sa = { .sa_handler = _on_signal };

	signal(SIGPIPE, SIG_IGN);
	if (sig_pipe[0] >= 0 || pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		return;
	sig_wfd = sig_pipe[1];
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/* ---- the end ---- */

typedef struct {
	uint32_t node;
	int      status;
} same_t;

static bool _same(const io_t *io, uint32_t t, void *arg)
{
	const same_t *w = arg;

	return io->s->task_node[t] == w->node && io->status[t] == w->status;
}

static int _code(int st)
{
	if (st < 0)
		return 0;
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

static int _report(io_t *io)
{
	bool *told = xcalloc(io->s->num_tasks + 1, sizeof(bool));
	int rc = 0;

	for (uint32_t t = 0; t < io->s->num_tasks; t++) {
		int st = io->status[t];
		same_t w = { io->s->task_node[t], st };
		char *r;

		if (_code(st) > rc)
			rc = _code(st);
		if (told[t] || st <= 0)
			continue;
		for (uint32_t u = t; u < io->s->num_tasks; u++)
			if (_same(io, u, &w))
				told[u] = true;
		r = _task_ranges(io, _same, &w);
		if (WIFSIGNALED(st))
			error("%s: task%s %s: %s", io->s->node_names[w.node],
			      strpbrk(r, ",-") ? "s" : "", r,
			      st == SIG_OOM ? "Out Of Memory" :
			      strsignal(WTERMSIG(st)));
		else
			error("%s: task%s %s: Exited with exit code %d",
			      io->s->node_names[w.node],
			      strpbrk(r, ",-") ? "s" : "", r, WEXITSTATUS(st));
		xfree(r);
	}
	xfree(told);
	return rc;
}

/* -W: a component whose first task exited its --wait seconds ago ends
 * the step (each component's own -W, as Slurm's). */
static void _check_wait(io_t *io)
{
	uint32_t n = io->s->key_io ? io->s->key_cnt : 1;

	for (uint32_t k = 0; k < n && !io->killed; k++) {
		const srun_opts_t *so = io->s->key_io ? io->s->key_io[k].so :
					io->s->so;

		if (so->wait_sec && io->first_exit[k] &&
		    time(NULL) - io->first_exit[k] >= so->wait_sec) {
			error("First task exited %ds ago", so->wait_sec);
			io->killed = true;
			_signal_tasks(io, SIGKILL);
		}
	}
}

/* Seconds srun waits for the nodes of a step it kills at once
 * (kill_now) before it gives up on them. */
#define KILL_NOW_WAIT 32

int srun_io_run(srun_step_t *s)
{
	io_t io = { .s = s };
	struct pollfd *p = NULL;
	time_t start = time(NULL);
	int rc;

	io.node_done = xcalloc(s->node_cnt + 1, sizeof(bool));
	io.nodes_left = s->node_cnt;
	io.status = xcalloc(s->num_tasks + 1, sizeof(int));
	io.first_exit = xcalloc(s->key_cnt + 1, sizeof(time_t));
	for (uint32_t t = 0; t < s->num_tasks; t++)
		io.status[t] = -1;
	if (s->so->debugger_test) {
		io.pids = xcalloc(s->num_tasks + 1, sizeof(*io.pids));
		for (uint32_t t = 0; t < s->num_tasks; t++)
			io.pids[t] = -1;
		io.pids_left = s->num_tasks;
	}
	io.stdin_open = s->in_task != -2;
	for (uint32_t n = s->num_tasks > 1 ? s->num_tasks - 1 : 0; n; n /= 10)
		io.label_width++;
	if (!io.label_width)
		io.label_width = 1;
	srun_io_signals_init();
	io.sig_pipe[0] = sig_pipe[0];
	while (io.nodes_left &&
	       !(s->kill_now && time(NULL) - start > KILL_NOW_WAIT)) {
		size_t np = 0;
		int timeout = 1000;

		p = xrealloc(p, (io.nconn + 3) * sizeof(*p));
		p[np++] = (struct pollfd) { .fd = s->listen_fd, .events = POLLIN };
		p[np++] = (struct pollfd) { .fd = io.sig_pipe[0], .events = POLLIN };
		p[np++] = (struct pollfd) {
			.fd = io.stdin_open && _all_connected(&io) ?
				STDIN_FILENO : -1, .events = POLLIN };
		for (size_t i = 0; i < io.nconn; i++)
			p[np++] = (struct pollfd) { .fd = io.conns[i].fd,
						    .events = POLLIN };
		if (poll(p, np, timeout) < 0 && errno != EINTR)
			break;
		if (p[1].revents & POLLIN) {
			uint8_t sig;

			while (read(io.sig_pipe[0], &sig, 1) == 1)
				_handle_signal(&io, sig);
		}
		if (p[0].revents & POLLIN)
			_accept(&io);
		if (p[2].revents & (POLLIN | POLLHUP))
			_stdin(&io);
		for (size_t i = 0; i < io.nconn && 3 + i < np; i++)
			if (p[3 + i].revents & (POLLIN | POLLHUP | POLLERR))
				_conn_read(&io, &io.conns[i]);
		_check_wait(&io);
	}
	rc = _report(&io);
	for (size_t i = 0; i < io.nconn; i++)
		_conn_close(&io, &io.conns[i]);
	sig_wfd = -1;
	if (sig_pipe[0] >= 0) {
		close(sig_pipe[0]);
		close(sig_pipe[1]);
		sig_pipe[0] = sig_pipe[1] = -1;
	}
	xfree(io.conns);
	xfree(io.fence);
	xfree(io.node_done);
	xfree(io.status);
	xfree(io.first_exit);
	xfree(io.pids);
	xfree(p);
	return rc;
}
