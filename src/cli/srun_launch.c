/* srun_launch.c — launching a step's tasks: REQUEST_LAUNCH_TASKS to
 * every node of the step (along the TreeWidth tree), each node's global
 * task ids laid out by -m, its I/O and PMI settings; for a component of a
 * het step (srun_het.c) with its task and node offsets in the whole. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/srun_int.h"
#include "common/fname.h"
#include "common/forward.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

/* "2,2,1" -> "2(x2),1(x1)", srun -v's cpu counts. */
static char *_cpu_counts(const char *csv)
{
	char **v = xstrsplit(csv ? csv : "", ",", NULL);
	char *out = NULL;

	for (size_t i = 0; v[i]; ) {
		size_t k = i;

		while (v[k + 1] && !strcmp(v[k + 1], v[i]))
			k++;
		xstrfmtcat(&out, "%s%s(x%zu)", out ? "," : "", v[i], k - i + 1);
		i = k + 1;
	}
	xstrarray_free(v);
	return out ? out : xstrdup("");
}

/* Task ids as srun -v lists them: "2", "[0-1]", "[0,2-3]". */
static char *_task_ids(const uint32_t *ids, uint32_t n)
{
	char *out = NULL;

	for (uint32_t i = 0; i < n; ) {
		uint32_t k = i;

		while (k + 1 < n && ids[k + 1] == ids[k] + 1)
			k++;
		if (k > i)
			xstrfmtcat(&out, "%s%u-%u", out ? "," : "", ids[i], ids[k]);
		else
			xstrfmtcat(&out, "%s%u", out ? "," : "", ids[i]);
		i = k + 1;
	}
	if (n > 1) {
		char *b = xstrdup_printf("[%s]", out);

		xfree(out);
		out = b;
	}
	return out ? out : xstrdup("");
}

/* srun -v: "jobid N: nodes(K):`list', cpu counts: 2(x1),1(x1)". */
void srun_say_layout(const job_step_create_response_msg_t *s)
{
	char *c = _cpu_counts(s->cpus_per_node);

	verbose("jobid %u: nodes(%zu):`%s', cpu counts: %s", s->job_id,
		xstrarray_len(s->node_names), s->node_list, c);
	xfree(c);
}

/* srun -v: "launching StepId=N.S on host H, T tasks: [0-1]". */
static void _say_launch(const job_step_create_response_msg_t *s,
			const char *node, const uint32_t *ids, uint32_t cnt)
{
	char *t = _task_ids(ids, cnt);

	verbose("launching StepId=%u.%u on host %s, %u tasks: %s", s->job_id,
		s->step_id, node, cnt, t);
	xfree(t);
}

/* ---- launch ---- */

typedef struct {
	launch_tasks_request_msg_t m;
	int   rc;
	const char *node;
	char **argv;          /* --bcast: the command with ... */
	char  *argv0;         /* ... the node's copy first */
} launch_t;

/* --mpi, else MpiDefault: LAUNCH_PMI (pmi2), LAUNCH_PMIX or 0, as the
 * mpi plugin says (resolved in _checks). */
static uint16_t _want_pmi(const srun_t *r)
{
	return r->mpi_flags;
}

/* PMI_process_mapping: (vector,(start_node,node_count,tasks_per_node)...)
 * describing which node each rank is on, in rank order. */
char *srun_pmi_mapping(const uint32_t *task_node, uint32_t ntasks)
{
	char *s = xstrdup("(vector");
	uint32_t r = 0;

	while (r < ntasks) {
		uint32_t n0 = task_node[r], tpn = 0, nodes = 0;

		while (r + tpn < ntasks && task_node[r + tpn] == n0)
			tpn++;
		for (;;) {
			uint32_t k = 0, base = r + nodes * tpn;

			while (k < tpn && base + k < ntasks &&
			       task_node[base + k] == n0 + nodes)
				k++;
			if (k != tpn)
				break;
			nodes++;
		}
		xstrfmtcat(&s, ",(%u,%u,%u)", n0, nodes, tpn);
		r += nodes * tpn;
	}
	xstrcat(&s, ")");
	return s;
}

bool srun_per_task(const char *pat)
{
	return pat && (strstr(pat, "%t") || strstr(pat, "%n") ||
		       strstr(pat, "%N"));
}

/* Input: "all" (default), "none", a task number, or a file. */
static int _in_task(srun_t *r, char **ifname)
{
	const char *in = r->o.desc.std_in;
	uint32_t v;

	*ifname = NULL;
	if (r->so.pty)
		return 0;                /* the terminal belongs to task 0 */
	if (!in || !strcasecmp(in, "all"))
		return -1;
	if (!strcasecmp(in, "none"))
		return -2;
	if (parse_u32(in, &v) == 0)
		return (int) v;
	*ifname = xstrdup(in);
	return -2;
}

/* -o/-e without per-task or per-node parts: srun writes the file. */
int srun_local_out(srun_t *r, const char *pat, uint32_t step_id, int dflt)
{
	fname_ctx_t fc = { .job_id = r->job_id, .step_id = step_id,
			   .array_task_id = NO_VAL32,
			   .job_name = r->o.desc.name,
			   .user_name = getenv("USER") };
	char *path;
	int fd;

	if (!pat || srun_per_task(pat))
		return dflt;
	if (!strcasecmp(pat, "none"))
		return open("/dev/null", O_WRONLY | O_CLOEXEC);
	path = fname_expand(pat, &fc);
	/* never waits (a FIFO nobody reads fails at once, ENXIO) */
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NONBLOCK |
		  (r->o.desc.open_mode == 1 ? O_APPEND : O_TRUNC), 0644);
	if (fd >= 0)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	if (fd < 0) {
		error("Could not open stdout file %s: %m", path);
		fd = dflt;
	}
	xfree(path);
	return fd;
}

/* Testing aid: with SLUICE_TEST_LAUNCH_DUMP=DIR set, each node's
 * REQUEST_LAUNCH_TASKS body is written as hex (fwd_pack_hex) to
 * DIR/launch.<node> before it is sent, so the integration tests can replay
 * or alter a captured launch (tests/tools/sluice_send.c).  Nothing secret
 * is exposed: the user can read their own launch message anyway. */
static void _dump_launch(const char *node, const void *m)
{
	const char *dir = getenv("SLUICE_TEST_LAUNCH_DUMP");
	char *hex, *path;
	FILE *f;

	if (!dir || !*dir)
		return;
	hex = fwd_pack_hex(REQUEST_LAUNCH_TASKS, m, 0);
	path = xstrdup_printf("%s/launch.%s", dir, node);
	f = fopen(path, "w");
	if (!f || !hex || fprintf(f, "%s\n", hex) < 0)
		error("SLUICE_TEST_LAUNCH_DUMP: cannot write %s: %m", path);
	if (f)
		fclose(f);
	xfree(path);
	xfree(hex);
}

/* ... and with SLUICE_TEST_LAUNCH_DUMP_ONLY=1 as well, nothing is sent
 * (the launch fails on every node): the captured credentials stay unused. */
static bool _dump_only(void)
{
	const char *d = getenv("SLUICE_TEST_LAUNCH_DUMP"),
		   *o = getenv("SLUICE_TEST_LAUNCH_DUMP_ONLY");

	return d && *d && o && !strcmp(o, "1");
}

void srun_task_nodes(const srun_t *r, const job_step_create_response_msg_t *s,
		     const uint32_t *counts, uint32_t *task_node)
{
	uint32_t nn = (uint32_t) xstrarray_len(s->node_names);
	uint32_t **ids = xcalloc(nn + 1, sizeof(uint32_t *));

	srun_layout(r->so.dist, r->so.plane, counts, nn, ids);
	for (uint32_t n = 0; n < nn; n++) {
		for (uint32_t k = 0; k < counts[n]; k++)
			if (ids[n][k] < s->num_tasks)
				task_node[r->task_off + ids[n][k]] =
					r->node_off + n;
		xfree(ids[n]);
	}
	xfree(ids);
}

int srun_launch(srun_t *r, job_step_create_response_msg_t *s,
		srun_step_t *st, char **env)
{
	uint32_t nn = (uint32_t) xstrarray_len(s->node_names);
	uint32_t *counts = xcalloc(nn + 1, sizeof(uint32_t));
	uint32_t **ids = xcalloc(nn + 1, sizeof(uint32_t *));
	launch_t *l = xcalloc(nn + 1, sizeof(launch_t));
	const void **datas = xcalloc(nn + 1, sizeof(void *));
	int *rcs = xcalloc(nn + 1, sizeof(int));
	fwd_req_t fr = { .type = REQUEST_LAUNCH_TASKS };
	char cwd[PATH_MAX], *ifname = NULL, *mapping = NULL;
	const char *wd = r->o.desc.work_dir;
	uint32_t total = r->het_total ? r->het_total : s->num_tasks;
	int rc = 0;

	if (!getcwd(cwd, sizeof(cwd)))
		snprintf(cwd, sizeof(cwd), "/tmp");
	srun_parse_counts(s->tasks_per_node, nn, counts);
	srun_layout(r->so.dist, r->so.plane, counts, nn, ids);
	for (uint32_t n = 0; n < nn; n++)    /* global ids in a het step */
		for (uint32_t k = 0; k < counts[n]; k++)
			ids[n][k] += r->task_off;
	if (!r->het_total) {
		st->task_node = xcalloc(s->num_tasks + 1, sizeof(uint32_t));
		srun_task_nodes(r, s, counts, st->task_node);
	}
	st->in_task = _in_task(r, &ifname);
	if (_want_pmi(r))
		mapping = r->het_mapping ? xstrdup(r->het_mapping) :
			  srun_pmi_mapping(st->task_node, s->num_tasks);
	for (uint32_t n = 0; n < nn; n++) {
		launch_tasks_request_msg_t *m = &l[n].m;

		m->job_id = s->job_id;
		m->step_id = s->step_id;
		m->uid = getuid();
		m->gid = getgid();
		m->user_name = getenv("USER");
		m->cred_payload = s->cred_payload;
		m->cred_sig = s->cred_sigs[n];
		m->node_list = s->node_list;
		m->node_id = n;
		m->num_tasks = total;
		m->gtids = xstrdup("");
		for (uint32_t k = 0; k < counts[n]; k++)
			xstrfmtcat(&m->gtids, "%s%u", k ? "," : "", ids[n][k]);
		m->cpus_per_task = s->cpus_per_task;
		m->argv = r->argv;
		if (r->bcast_dest) {
			size_t na = xstrarray_len(r->argv);

			l[n].argv = xcalloc(na + 1, sizeof(char *));
			memcpy(l[n].argv, r->argv, na * sizeof(char *));
			l[n].argv0 = r->bcast_per_node ?
				xstrdup_printf("%s%s", r->bcast_dest,
					       s->node_names[n]) :
				xstrdup(r->bcast_dest);
			l[n].argv[0] = l[n].argv0;
			m->argv = l[n].argv;
		}
		m->env = env;
		m->cwd = (char *) (wd ? wd : cwd);
		m->srun_host = r->my_addr;
		m->srun_port = r->port;
		m->io_key = (char *) (r->het_io_key ? r->het_io_key :
				      st->io_key);
		m->pmi_jobid = (char *) r->het_pmi_id;
		m->node_offset = r->node_off;
		m->ofname = srun_per_task(r->o.desc.std_out) ? r->o.desc.std_out : NULL;
		m->efname = srun_per_task(r->o.desc.std_err) ? r->o.desc.std_err : NULL;
		m->ifname = ifname;
		m->input_task = st->in_task == -1 ? 0xffffffffu :
			st->in_task < 0 ? NO_VAL32 : (uint32_t) st->in_task;
		m->flags = (r->so.unbuffered ? LAUNCH_UNBUFFERED : 0) |
			(st->in_task == -2 && !ifname ? LAUNCH_STDIN_NONE : 0) |
			(r->so.debugger_test ? LAUNCH_DEBUG_STOP : 0);
		m->kill_wait = cli_conf()->kill_wait;
		if (r->so.pty) {
			struct winsize ws = { 0 };

			m->flags |= LAUNCH_PTY | LAUNCH_UNBUFFERED;
			if (ioctl(STDIN_FILENO, TIOCGWINSZ, &ws) == 0) {
				m->pty_rows = ws.ws_row;
				m->pty_cols = ws.ws_col;
			}
		}
		m->cpu_bind = r->so.cpu_bind;
		m->task_prolog = r->so.task_prolog;
		m->task_epilog = r->so.task_epilog;
		if (mapping) {
			m->flags |= _want_pmi(r);
			m->pmi_mapping = mapping;
		}
		m->multi_prog = r->mp_text;
		m->container = r->o.desc.container;
		if (cli_x11_node_wanted(&r->x11, s->node_names[n])) {
			m->x11 = r->x11.flags;
			m->x11_host = r->my_addr;
			m->x11_port = r->x11.port;
			m->x11_cookie = r->x11.cookie;
			m->x11_screen = (uint16_t) r->x11.screen;
		}
		l[n].node = s->node_names[n];
		datas[n] = m;
		_say_launch(s, l[n].node, ids[n], counts[n]);
		_dump_launch(l[n].node, m);
	}
	/* along a tree of TreeWidth (common/forward.h) */
	fr.cnt = nn;
	fr.names = s->node_names;
	fr.addrs = s->node_addrs;
	fr.datas = datas;
	fr.tree_width = cli_conf()->tree_width;
	fr.timeout_ms = cli_conf()->message_timeout * 1000;
	fr.orig_uid = (uint32_t) getuid();
	if (_dump_only())               /* testing aid, see _dump_launch() */
		for (uint32_t n = 0; n < nn; n++)
			rcs[n] = SLURM_ERROR;
	else
		fwd_send(&fr, rcs);
	for (uint32_t n = 0; n < nn; n++) {
		l[n].rc = rcs[n];
		if (l[n].rc) {          /* every node that failed, as Slurm */
			error("Task launch for StepId=%u.%u failed on node %s: %s",
			      s->job_id, s->step_id, l[n].node,
			      slurm_strerror(l[n].rc));
			if (!rc)
				rc = l[n].rc;
		}
		xfree(l[n].m.gtids);
		xfree(l[n].argv);
		xfree(l[n].argv0);
		xfree(ids[n]);
	}
	xfree(ifname);
	xfree(mapping);
	xfree(counts);
	xfree(ids);
	xfree(l);
	xfree(datas);
	xfree(rcs);
	return rc;
}

