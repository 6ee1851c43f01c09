/* sattach — attach to a running job step's I/O.
 *
 * The controller gives the step's layout (REQUEST_STEP_LAYOUT); sattach
 * listens on a TCP port and asks each node's slurmd to have the step's
 * slurmstepd connect to it (REQUEST_REATTACH_TASKS, carrying a random
 * key the stepd shows back in IO_INIT).  slurmd names the asking user to
 * the stepd, which lets only the step's owner, root and SlurmUser in;
 * a node that refuses (or has no such step) is reported as Slurm does:
 * "Node nX: no tasks running".  Then the tasks' stdout/stderr stream to
 * sattach (filtered by task, labelled with -l), sattach's stdin goes to
 * the tasks, and sattach exits once every attached node sent IO_DONE.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/cli_step_io.h"
#include "cli/srun.h"
#include "common/fd.h"
#include "common/hostlist.h"
#include "common/io_frame.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#define ATTACH_TIMEOUT_MS 10000
#define NO_FILTER         (-1)

static struct {
	long  in_filter;
	long  out_filter;
	long  err_filter;
	bool  label;
	bool  layout;
	int   verbose;
	uint32_t job_id;
	uint32_t step_id;
} opt = { NO_FILTER, NO_FILTER, NO_FILTER };

typedef struct {
	int       fd;
	int       node;           /* -1 until IO_INIT */
	uint8_t  *buf;
	size_t    len, cap;
} conn_t;

typedef struct {
	const step_layout_msg_t *l;
	char     **names;
	bool      *attached;      /* the node's stepd accepted us */
	bool      *done;
	uint32_t   left;          /* attached nodes not done */
	char      *key;
	int        listen_fd;
	conn_t    *conns;
	size_t     nconn;
	bool       stdin_open;
	int        label_width;
} att_t;

static void usage(FILE *f)
{
	fprintf(f, "Usage: sattach [options] <jobid.stepid>\n");
}

static void help(void)
{
	usage(stdout);
	printf(
"      --input-filter=taskid  send stdin to only the specified task\n"
"      --output-filter=taskid only print stdout from the specified task\n"
"      --error-filter=taskid  only print stderr from the specified task\n"
"  -l, --label        prepend task number to lines of stdout & stderr\n"
"      --layout       print task layout info and exit (does not attach to tasks)\n"
"  -Q, --quiet        quiet mode (suppress informational messages)\n"
"  -v, --verbose      verbose mode (multiple -v's increase verbosity)\n"
"  -V, --version      print the Slurm version and exit\n"
"\n"
"Help options:\n"
"  -h, --help         print this help message\n"
"  -u, --usage        print a brief usage message\n");
}

static long filter_arg(const char *s, const char *name)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end || v < 0 || v > 0xfffffff) {
		fprintf(stderr, "sattach: error: Invalid numeric value \"%s\" "
			"for %s.\n", s, name);
		exit(1);
	}
	return v;
}

/* "J.S" (a third ".N" is ignored, as Slurm does); "J.batch" is the
 * batch step.  0 or -1 (message printed). */
static int parse_step(const char *s)
{
	char *end;
	unsigned long j, st;

	j = strtoul(s, &end, 10);
	if (end == s || *end != '.' || !j || j >= NO_VAL32 ||
	    s[0] == '-' || s[0] == '+') {
		fprintf(stderr, "sattach: error: Failed to parse stepid from "
			"command line options\n");
		usage(stdout);
		return -1;
	}
	opt.job_id = (uint32_t) j;
	s = end + 1;
	if (!strncmp(s, "batch", 5) && (!s[5] || s[5] == '.')) {
		opt.step_id = SLURM_BATCH_SCRIPT;
		return 0;
	}
	st = strtoul(s, &end, 10);
	if (end == s || (*end && *end != '.') || st >= NO_VAL32 ||
	    s[0] == '-' || s[0] == '+') {
		fprintf(stderr, "sattach: fatal: Bad step specified: %lu\n", j);
		return -1;
	}
	opt.step_id = (uint32_t) st;
	return 0;
}

/* ---- layout ---- */

/* Task ids per node, as srun laid them out; NULL if the counts do not
 * parse.  out[n] has counts[n] ids. */
static uint32_t **task_ids(const step_layout_msg_t *l, uint32_t **counts)
{
	uint32_t **ids;

	*counts = xcalloc(l->node_cnt + 1, sizeof(uint32_t));
	if (!l->tasks_per_node ||
	    srun_parse_counts(l->tasks_per_node, l->node_cnt, *counts) < 0) {
		xfree(*counts);
		return NULL;
	}
	ids = xcalloc(l->node_cnt + 1, sizeof(uint32_t *));
	srun_layout(l->task_dist, l->plane_size, *counts, l->node_cnt, ids);
	return ids;
}

static void print_layout(const step_layout_msg_t *l, char **names)
{
	uint32_t *counts = NULL;
	uint32_t **ids = task_ids(l, &counts);

	printf("Job step layout:\n");
	printf("\t%u tasks, %u nodes (%s)\n\n", l->task_cnt, l->node_cnt,
	       l->node_list ? l->node_list : "");
	for (uint32_t n = 0; ids && n < l->node_cnt; n++) {
		printf("\tNode %u (%s), %u task(s): ", n, names[n], counts[n]);
		for (uint32_t k = 0; k < counts[n]; k++)
			printf("%u ", ids[n][k]);
		printf("\n");
		xfree(ids[n]);
	}
	xfree(ids);
	xfree(counts);
}

/* ---- the nodes' streams ---- */

static void send_all(att_t *a, uint16_t type, uint32_t task, const void *p,
		     size_t len)
{
	io_frame_t f = { .type = type, .task = task, .len = (uint32_t) len };
	uint8_t hdr[IO_FRAME_HDR];

	io_frame_put(hdr, &f);
	for (size_t i = 0; i < a->nconn; i++) {
		conn_t *c = &a->conns[i];

		if (c->fd < 0 || c->node < 0 || a->done[c->node])
			continue;
		if (fd_write_all(c->fd, hdr, sizeof(hdr)) < 0 ||
		    (len && fd_write_all(c->fd, p, len) < 0))
			continue;     /* its read side will see the end */
	}
}

static void output(att_t *a, uint16_t type, uint32_t task, const uint8_t *p,
		   size_t len)
{
	long want = type == IO_STDERR ? opt.err_filter : opt.out_filter;
	int fd = type == IO_STDERR ? STDERR_FILENO : STDOUT_FILENO;
	char *out = NULL;
	size_t i = 0;

	if (want != NO_FILTER && (long) task != want)
		return;
	if (!opt.label) {
		fd_write_all(fd, p, len);
		return;
	}
	while (i < len) {
		const uint8_t *nl = memchr(p + i, '\n', len - i);
		size_t n = nl ? (size_t) (nl - (p + i)) + 1 : len - i;

		xstrfmtcat(&out, "%*u: %.*s", a->label_width, task, (int) n,
			   (const char *) p + i);
		i += n;
	}
	if (out)
		fd_write_all(fd, out, strlen(out));
	xfree(out);
}

static void node_done(att_t *a, int node)
{
	if (node >= 0 && !a->done[node]) {
		a->done[node] = true;
		a->left--;
	}
}

static void conn_close(att_t *a, conn_t *c)
{
	if (c->fd < 0)
		return;
	close(c->fd);
	c->fd = -1;
	xfree(c->buf);
	node_done(a, c->node);
}

static int frame(att_t *a, conn_t *c, const io_frame_t *f, const uint8_t *p)
{
	if (c->node < 0) {
		if (f->type != IO_INIT || f->task >= a->l->node_cnt ||
		    !a->attached[f->task] || f->len != strlen(a->key) ||
		    memcmp(p, a->key, f->len))
			return -1;
		c->node = (int) f->task;
		return 0;
	}
	if (f->type == IO_STDOUT || f->type == IO_STDERR)
		output(a, f->type, f->task, p, f->len);
	else if (f->type == IO_DONE)
		node_done(a, c->node);
	return 0;
}

static void conn_read(att_t *a, conn_t *c)
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
		conn_close(a, c);
		return;
	}
	c->len += (size_t) n;
	while (c->len - off >= IO_FRAME_HDR) {
		io_frame_t f;

		if (io_frame_get(c->buf + off, &f) < 0) {
			conn_close(a, c);
			return;
		}
		if (c->len - off < IO_FRAME_HDR + f.len)
			break;
		if (frame(a, c, &f, c->buf + off + IO_FRAME_HDR) < 0) {
			conn_close(a, c);
			return;
		}
		off += IO_FRAME_HDR + f.len;
	}
	memmove(c->buf, c->buf + off, c->len - off);
	c->len -= off;
}

static void accept_conn(att_t *a)
{
	int fd = accept4(a->listen_fd, NULL, NULL, SOCK_CLOEXEC), one = 1;

	if (fd < 0)
		return;
	if (a->nconn >= 4u * a->l->node_cnt + 16) {
		close(fd);
		return;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	a->conns = xrealloc(a->conns, (a->nconn + 1) * sizeof(conn_t));
	a->conns[a->nconn++] = (conn_t) { .fd = fd, .node = -1 };
}

static void read_stdin(att_t *a)
{
	uint8_t buf[65536];
	uint32_t task = opt.in_filter == NO_FILTER ? IO_ALL_TASKS :
		(uint32_t) opt.in_filter;
	ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));

	if (n < 0 && errno == EINTR)
		return;
	if (n <= 0) {
		a->stdin_open = false;
		send_all(a, IO_STDIN, task, NULL, 0);
		return;
	}
	send_all(a, IO_STDIN, task, buf, (size_t) n);
}

static bool all_connected(const att_t *a)
{
	uint32_t want = 0, have = 0;

	for (uint32_t n = 0; n < a->l->node_cnt; n++)
		want += a->attached[n];
	for (size_t i = 0; i < a->nconn; i++)
		have += a->conns[i].node >= 0;
	return have >= want;
}

static void run(att_t *a)
{
	while (a->left) {
		struct pollfd *p = xcalloc(a->nconn + 2, sizeof(*p));
		size_t np = 0, i;
		bool want_in = a->stdin_open && all_connected(a);

		p[np++] = (struct pollfd) { .fd = a->listen_fd,
					    .events = POLLIN };
		p[np++] = (struct pollfd) { .fd = want_in ? STDIN_FILENO : -1,
					    .events = POLLIN };
		for (i = 0; i < a->nconn; i++)
			p[np++] = (struct pollfd) { .fd = a->conns[i].fd,
						    .events = POLLIN };
		if (poll(p, np, 1000) < 0 && errno != EINTR) {
			xfree(p);
			break;
		}
		for (i = 0; i < a->nconn; i++)
			if (p[i + 2].revents && a->conns[i].fd >= 0)
				conn_read(a, &a->conns[i]);
		if (p[1].revents)
			read_stdin(a);
		if (p[0].revents)
			accept_conn(a);
		xfree(p);
	}
}

/* Ask every node's slurmd; returns how many accepted. */
static uint32_t attach_nodes(att_t *a, const char *my_addr, uint16_t port)
{
	const slurm_conf_t *conf = cli_conf();
	reattach_tasks_msg_t req = { .job_id = opt.job_id,
				     .step_id = opt.step_id,
				     .host = (char *) my_addr, .port = port,
				     .io_key = a->key };
	uint32_t ok = 0;

	for (uint32_t n = 0; n < a->l->node_cnt; n++) {
		const conf_node_t *cn = conf_find_node(conf, a->names[n]);
		int rc = 0, trc = -1;

		if (cn)
			trc = net_rpc_rc(cn->addr ? cn->addr : a->names[n],
					 cn->port ? cn->port :
					 conf->slurmd_port,
					 REQUEST_REATTACH_TASKS, &req, &rc,
					 ATTACH_TIMEOUT_MS);
		if (trc || rc) {
			debug("Node %s: %s", a->names[n],
			      slurm_strerror(trc ? trc : rc));
			info("Node %s: no tasks running", a->names[n]);
			continue;
		}
		a->attached[n] = true;
		ok++;
	}
	return ok;
}

static int attach(const step_layout_msg_t *l, char **names)
{
	att_t a = { .l = l, .names = names, .stdin_open = true,
		    .listen_fd = -1 };
	char *my_addr;
	int rc = 0;

	a.listen_fd = net_listen_tcp(NULL, 0);
	if (a.listen_fd < 0) {
		error("cannot listen for the step's tasks: %m");
		return 1;
	}
	my_addr = cli_my_addr();
	a.key = cli_io_key();
	a.attached = xcalloc(l->node_cnt + 1, sizeof(bool));
	a.done = xcalloc(l->node_cnt + 1, sizeof(bool));
	for (uint32_t n = l->task_cnt > 1 ? l->task_cnt - 1 : 0; n; n /= 10)
		a.label_width++;
	if (!a.label_width)
		a.label_width = 1;
	a.left = attach_nodes(&a, my_addr, net_local_port(a.listen_fd));
	run(&a);
	for (size_t i = 0; i < a.nconn; i++)
		conn_close(&a, &a.conns[i]);
	close(a.listen_fd);
	xfree(a.conns);
	xfree(a.attached);
	xfree(a.done);
	xfree(a.key);
	xfree(my_addr);
	return rc;
}

int main(int argc, char **argv)
{
	enum { OPT_IN = 0x100, OPT_OUT, OPT_ERR, OPT_LAYOUT };
	static const struct option long_opts[] = {
		{ "input-filter", required_argument, NULL, OPT_IN },
		{ "output-filter", required_argument, NULL, OPT_OUT },
		{ "error-filter", required_argument, NULL, OPT_ERR },
		{ "label", no_argument, NULL, 'l' },
		{ "layout", no_argument, NULL, OPT_LAYOUT },
		{ "quiet", no_argument, NULL, 'Q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ "usage", no_argument, NULL, 'u' },
		{ NULL, 0, NULL, 0 }
	};
	job_step_info_request_msg_t req = { 0 };
	const step_layout_msg_t *l;
	slurm_msg_t resp = { 0 };
	hostlist_t *hl = NULL;
	char **names = NULL, err[256];
	int c, rc;

	argv[0] = "sattach";       /* getopt's messages name the command */
	while ((c = getopt_long(argc, argv, "+hlQuvV", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_IN:
			opt.in_filter = filter_arg(optarg, "input-filter");
			break;
		case OPT_OUT:
			opt.out_filter = filter_arg(optarg, "output-filter");
			break;
		case OPT_ERR:
			opt.err_filter = filter_arg(optarg, "error-filter");
			break;
		case 'l': opt.label = true; break;
		case OPT_LAYOUT: opt.layout = true; break;
		case 'Q': opt.verbose = -1; break;
		case 'v': if (opt.verbose >= 0) opt.verbose++; break;
		case 'V': printf("slurm %s\n", SLUICE_VERSION_STRING); return 0;
		case 'h': help(); return 0;
		case 'u': usage(stdout); return 0;
		default:
			fprintf(stderr, "Try \"sattach --help\" for more "
				"information\n");
			return 1;
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "sattach: error: too many parameters\n");
		usage(stdout);
		return 1;
	}
	if (parse_step(argv[optind]) < 0)
		return 1;
	cli_init("sattach", opt.verbose);
	signal(SIGPIPE, SIG_IGN);
	req.job_id = opt.job_id;
	req.step_id = opt.step_id;
	rc = cli_ctld_rpc(REQUEST_STEP_LAYOUT, &req, &resp);
	if (rc) {
		error("Could not get job step info: %s", cli_comm_strerror(rc));
		return 1;
	}
	if (resp.type != RESPONSE_STEP_LAYOUT || !resp.data) {
		rc = cli_resp_rc(&resp);
		error("Could not get job step info: %s",
		      slurm_strerror(rc ? rc : SLURM_UNEXPECTED_MSG_ERROR));
		msg_free(&resp);
		return 1;
	}
	l = resp.data;
	hl = hostlist_parse(l->node_list ? l->node_list : "", err,
			    sizeof(err));
	if (!hl || hostlist_count(hl) != l->node_cnt) {
		error("Could not get job step info: %s",
		      slurm_strerror(SLURM_UNEXPECTED_MSG_ERROR));
		rc = 1;
		goto out;
	}
	names = xcalloc(l->node_cnt + 1, sizeof(char *));
	for (uint32_t n = 0; n < l->node_cnt; n++)
		names[n] = xstrdup(hostlist_nth(hl, n));
	if (opt.layout)
		print_layout(l, names);
	else
		rc = attach(l, names);
out:
	if (hl)
		hostlist_destroy(hl);
	xstrarray_free(names);
	msg_free(&resp);
	return rc;
}
