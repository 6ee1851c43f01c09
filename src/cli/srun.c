/* srun — run parallel tasks as a job step.
 *
 * Inside an allocation (SLURM_JOB_ID or --jobid) srun asks the controller
 * for a step in it; otherwise it first creates an allocation (cli_alloc.h)
 * and releases it at the end.  The step's tasks are launched by sending
 * REQUEST_LAUNCH_TASKS to every node's slurmd directly; each node's
 * slurmstepd connects back to srun's port and streams the tasks' output
 * and exits (srun_io.c).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_alloc.h"
#include "cli/cli_heartbeat.h"
#include "cli/cli_common.h"
#include "cli/cli_env.h"
#include "cli/cli_filter.h"
#include "cli/cli_opt.h"
#include "cli/cli_spank.h"
#include "cli/cli_step_io.h"
#include "cli/cli_x11.h"
#include "cli/srun.h"
#include "common/fixed_plugins.h"
#include "common/fname.h"
#include "common/forward.h"
#include "common/log.h"
#include "common/mpi_plugin.h"
#include "common/multi_prog.h"
#include "common/net.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

extern char **environ;

typedef struct {
	cli_job_opts_t o;
	srun_opts_t    so;
	char         **argv;       /* the command */
	uint32_t       job_id;
	bool           own_alloc;
	char          *my_addr;    /* what the nodes connect back to */
	int            listen_fd;
	uint16_t       port;
	char          *mp_text;    /* --multi-prog file's text */
	uint16_t       mpi_flags;  /* the mpi plugin's LAUNCH_PMI* */
	char          *bcast_dest; /* --bcast: the copy the nodes run */
	bool           bcast_per_node; /* ... with the node's name after */
	char          *bcast_libdir;   /* --send-libs: its libraries */
	cli_x11_t      x11;        /* --x11 (or salloc's): the relay */
} srun_t;

/* ---- options ---- */

static void _early_exits(srun_t *r)
{
	if (r->o.help) {
		cli_opt_print_help(&r->o);
		exit(0);
	}
	if (r->o.usage) {
		cli_opt_print_usage(&r->o);
		exit(0);
	}
	if (r->o.version) {
		printf("slurm %s\n", SLUICE_VERSION_STRING);
		exit(0);
	}
	if (r->so.mpi && !strcmp(r->so.mpi, "list")) {
		char *list = mpi_plugin_list(cli_conf()->plugin_dir);

		fputs(list, stdout);
		xfree(list);
		exit(0);
	}
}

/* --mpi (else MpiDefault) through the mpi plugin context; LaunchType
 * too, which only srun reads.  0, or -1 with Slurm's errors printed. */
static int _mpi_resolve(srun_t *r)
{
	char err[1024] = "";
	const slurm_conf_t *c = cli_conf_load(err, sizeof(err));
	const char *t;

	if (!c) {       /* no slurm.conf: what cli_init would say */
		error("%s", err[0] ? err : "Unable to process configuration "
		      "file");
		exit(1);
	}
	t = r->so.mpi ? r->so.mpi : c->mpi_default;
	if (fixed_plugin_check(&launch_type, c->launch_type && *c->launch_type
			       ? c->launch_type : "launch/slurm",
			       c->plugin_dir, NULL, err, sizeof(err)) < 0) {
		error("%s", err);
		return -1;
	}
	if (mpi_plugin_flags(t, r->so.mpi != NULL, c->plugin_dir,
			     &r->mpi_flags, err, sizeof(err)) == 0)
		return 0;
	error("%s", err);
	error("Invalid MPI type '%s', --mpi=list for acceptable types", t);
	return -1;
}

/* --het-group=N inside a heterogeneous job (SLURM_HET_SIZE): the step
 * runs in component N's allocation.  A group past the job's components
 * is Slurm's error; several groups (one step, one MPI world over several
 * components) are refused: Sluice does not span a step over them. */
static void _het_group(srun_t *r)
{
	const char *size_s = getenv("SLURM_HET_SIZE");
	uint32_t size = 0, g = 0;
	char *end, name[64];
	const char *p = r->so.het_group ? r->so.het_group : "0", *id;
	size_t groups = 0;

	if (!size_s || parse_u32(size_s, &size) < 0 || !size) {
		error("--het-group: not inside a heterogeneous job allocation");
		exit(1);
	}
	while (*p) {
		unsigned long a = strtoul(p, &end, 10), b = a;

		if (end == p || (*end == '-' && ((b = strtoul(end + 1, &end,
							      10)) < a))) {
			error("Invalid --het-group specification");
			exit(1);
		}
		if (b >= size) {
			error("Attempt to run a job step with het group value "
			      "of %lu, but the job allocation has maximum value "
			      "of %u", b, size - 1);
			exit(1);
		}
		groups += b - a + 1;
		g = (uint32_t) a;
		if (*end && *end != ',') {
			error("Invalid --het-group specification");
			exit(1);
		}
		p = *end ? end + 1 : end;
	}
	if (groups != 1) {
		error("--het-group=%s: one step over several heterogeneous job "
		      "components (a single MPI world across them) is not "
		      "supported; run one srun per component", r->so.het_group);
		exit(1);
	}
	snprintf(name, sizeof(name), "SLURM_JOB_ID_HET_GROUP_%u", g);
	if (!(id = getenv(name))) {
		error("--het-group=%u: %s is not set", g, name);
		exit(1);
	}
	setenv("SLURM_JOB_ID", id, 1);
	setenv("SLURM_JOBID", id, 1);
}

static void _checks(srun_t *r, int argc, char **argv, int first)
{
	if (first < argc && !strcmp(argv[first], ":")) {
		error("Heterogeneous job allocations and steps from srun ('A : "
		      "B') are not supported; submit with sbatch or salloc ... "
		      ": ... and use srun --het-group");
		exit(1);
	}
	if (r->so.het)
		_het_group(r);
	if (_mpi_resolve(r) < 0)
		exit(1);
	if (first >= argc) {
		fprintf(stderr, "srun: fatal: No command given to execute.\n");
		exit(1);
	}
}

/* A configuration file's text (at most 1 MiB), or NULL. */
static char *_read_small(const char *path)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t len = 0;
	char buf[4096];
	size_t n;

	if (!f)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0 && len < (1u << 20)) {
		text = xrealloc(text, len + n + 1);
		memcpy(text + len, buf, n);
		len += n;
		text[len] = '\0';
	}
	fclose(f);
	return text ? text : xstrdup("");
}

/* --multi-prog FILE: read and check it (its task count gives -n when
 * not set); Slurm's messages, exit 1 if it is bad. */
static void _multi_prog(srun_t *r)
{
	char err[1024], *save = NULL, *line;
	uint32_t n = r->o.desc.num_tasks;

	r->mp_text = _read_small(r->argv[0]);
	if (!r->mp_text) {
		error("Could not open multi_prog config file %s", r->argv[0]);
		exit(1);
	}
	if (n == NO_VAL32 || !n) {
		n = multi_prog_count(r->mp_text);
		if (n)
			r->o.desc.num_tasks = n;
	}
	if (multi_prog_check(r->mp_text, n ? n : 1, r->argv[0], err,
			     sizeof(err)) < 0) {
		for (line = strtok_r(err, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			error("%s", line);
		exit(1);
	}
}

/* Options from the environment count only where the command line did not
 * set them; a node count inherited from the allocation (SLURM_NNODES)
 * gives way to -n on the command line. */
static void _parse(srun_t *r, int argc, char **argv)
{
	int first = argc;
	cli_job_opts_t *o = &r->o;
	bool n_argv, N_argv;

	cli_opt_init(o, CLI_CMD_SRUN, "srun");
	srun_opt_setup(o, &r->so);
	o->spank = cli_spank_start(S_CTX_LOCAL);
	cli_filter_setup_defaults(o);
	if (srun_opt_parse_env(o, environ) < 0 ||
	    cli_opt_parse_argv(o, argc, argv, &first) < 0)
		exit(cli_opt_err_exit());
	_early_exits(r);
	n_argv = o->desc.num_tasks != NO_VAL32;
	N_argv = o->desc.min_nodes != NO_VAL32;
	if (cli_opt_parse_env(o, environ) < 0 ||
	    cli_spank_env_options(o, environ) < 0 || cli_opt_check_times(o) < 0)
		exit(1);
	if (n_argv && !N_argv && o->desc.min_nodes != NO_VAL32 &&
	    o->desc.num_tasks < o->desc.min_nodes)
		o->desc.min_nodes = o->desc.max_nodes = NO_VAL32;
	if (n_argv && N_argv && o->desc.num_tasks < o->desc.min_nodes) {
		info("Warning: can't run %u processes on %u nodes, setting "
		     "nnodes to %u", o->desc.num_tasks, o->desc.min_nodes,
		     o->desc.num_tasks);
		o->desc.min_nodes = o->desc.num_tasks;
	}
	_checks(r, argc, argv, first);
	cli_filter_pre_submit(o);
	r->argv = xcalloc((size_t) (argc - first) + 1, sizeof(char *));
	for (int i = first; i < argc; i++)
		r->argv[i - first] = xstrdup(argv[i]);
	if (r->so.multi_prog)
		_multi_prog(r);
}

/* ---- our address and port ---- */


/* ---- the allocation ---- */

static const char *_base(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* Inside an allocation a step is profiled as its job is: say so once
 * rather than drop --profile / --acctg-freq silently. */
static void _job_wide_opts(const srun_t *r)
{
	if (r->o.desc.profile != 0)
		fprintf(stderr, "srun: warning: --profile has no effect: "
			"steps are profiled as job %u asked at submit\n",
			r->job_id);
	if (r->o.desc.acctg_freq)
		fprintf(stderr, "srun: warning: --acctg-freq has no effect: "
			"steps are sampled as job %u asked at submit\n",
			r->job_id);
}

static void _job(srun_t *r)
{
	const char *id = getenv("SLURM_JOB_ID");
	job_info_t ji;
	uint32_t v;

	if (r->o.test_only)             /* nothing is created */
		cli_alloc_test_only(&r->o, _base(r->argv[0]));
	if (r->so.jobid || (id && parse_u32(id, &v) == 0 && v)) {
		r->job_id = r->so.jobid ? r->so.jobid : v;
		/* a step is checkpointed with its job (sbatch --checkpoint) */
		if ((r->o.desc.bitflags & JOB_CHECKPOINT) &&
		    !getenv("SLURM_CHECKPOINT_DIR"))
			error("--checkpoint has no effect on a step: job %u "
			      "was not submitted with --checkpoint", r->job_id);
		_job_wide_opts(r);
		if (r->o.x11)
			error("Ignoring --x11 option for a job step within an "
			      "existing job. Set x11 options at job allocation "
			      "time.");
		else if (cli_x11_inherit(&r->x11, "srun") < 0)
			exit(1);
		return;
	}
	if (r->o.x11 && cli_x11_check(&r->x11, "srun", r->o.x11) < 0)
		exit(1);
	if (r->o.desc.bitflags & JOB_CHECKPOINT) {
		error("--checkpoint: only a batch job (sbatch --checkpoint) "
		      "can be checkpointed and requeued");
		exit(1);
	}
	cli_heartbeat_mark(&r->o.desc);       /* InactiveLimit applies */
	if (cli_alloc_request(&r->o, 1, _base(r->argv[0]), false,
			      &r->job_id) < 0)
		exit(1);
	r->own_alloc = true;
	if (cli_alloc_held(&r->o, r->job_id, false) < 0)
		exit(1);
	if (cli_alloc_wait(r->job_id, r->o.quiet, r->o.immediate, false,
			   &ji) < 0 ||
	    cli_alloc_wait_prolog(r->job_id, true, &ji) < 0)
		exit(1);
	cli_alloc_env(&environ, &ji, &r->o);
	job_info_free_members(&ji);
}

/* ---- the step ---- */

static job_step_create_response_msg_t *_create(srun_t *r)
{
	const job_desc_t *d = &r->o.desc;
	job_step_create_request_msg_t q = {
		.job_id = r->job_id, .min_nodes = d->min_nodes,
		.num_tasks = d->num_tasks, .cpus_per_task = d->cpus_per_task,
		.ntasks_per_node = d->ntasks_per_node,
		.task_dist = r->so.dist ? r->so.dist : STEP_DIST_BLOCK,
		.plane_size = r->so.plane, .relative = r->so.relative,
		.mem_per_node = NO_VAL64, .exact = r->so.exact,
		.overlap = r->so.overlap, .node_list = d->req_nodes,
		.exc_nodes = d->exc_nodes, .name = (char *) _base(r->argv[0]),
		.host = r->my_addr, .srun_pid = (uint32_t) getpid(),
		.overcommit = d->bitflags & JOB_OVERCOMMIT,
		.resv_ports = r->so.resv_ports, .container = d->container,
	};
	/* in an existing allocation the step asks for its own GRES (its
	 * own allocation is the request itself: the step gets it all) */
	if (!r->own_alloc) {
		q.tres_per_step = d->tres_per_job;
		q.tres_per_node = d->gres;
		q.tres_per_task = d->tres_per_task;
	}
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	bool said = false;

	for (;;) {
		slurm_msg_t resp;
		int rc = cli_ctld_rpc(REQUEST_JOB_STEP_CREATE, &q, &resp);

		if (!rc && resp.type == RESPONSE_JOB_STEP_CREATE && resp.data) {
			job_step_create_response_msg_t *s = resp.data;

			resp.data = NULL;
			msg_free(&resp);
			if (said)
				info("Step created for StepId=%u.%u",
				     s->job_id, s->step_id);
			return s;
		}
		if (!rc)
			rc = cli_resp_rc(&resp);
		msg_free(&resp);
		if (rc == ESLURM_PROLOG_RUNNING) {   /* PrologFlags=Alloc */
			if (srun_io_stop_signal())
				return NULL;
			nanosleep(&ts, NULL);
			if (ts.tv_nsec < 400 * 1000 * 1000)
				ts.tv_nsec *= 2;
			continue;
		}
		if (rc != ESLURM_NODES_BUSY && rc != ESLURM_PORTS_BUSY) {
			error("Unable to create step for job %u: %s", r->job_id,
			      rc >= SLURM_COMMUNICATIONS_CONNECTION_ERROR &&
			      rc < ESLURM_INVALID_PARTITION_NAME ?
			      cli_comm_strerror(rc) : slurm_strerror(rc));
			return NULL;
		}
		if (!said)
			info("Job %u step creation temporarily disabled, "
			     "retrying (%s)", r->job_id, slurm_strerror(rc));
		said = true;
		if (srun_io_stop_signal()) {
			info("Cancelled pending job step with signal %d",
			     srun_io_stop_signal());
			return NULL;
		}
		nanosleep(&ts, NULL);
		if (ts.tv_nsec < 400 * 1000 * 1000)
			ts.tv_nsec *= 2;
	}
}

/* {2,2,2,1} -> "2(x3),1", as Slurm prints per-node counts. */
static char *_compress(const uint32_t *v, uint32_t n)
{
	char *s = xstrdup("");

	for (uint32_t i = 0; i < n;) {
		uint32_t k = i;

		while (k + 1 < n && v[k + 1] == v[i])
			k++;
		if (k > i)
			xstrfmtcat(&s, "%s%u(x%u)", i ? "," : "", v[i], k - i + 1);
		else
			xstrfmtcat(&s, "%s%u", i ? "," : "", v[i]);
		i = k + 1;
	}
	return s;
}

static void _setu(char ***env, const char *k, uint32_t v)
{
	char b[32];

	snprintf(b, sizeof(b), "%u", v);
	*env = cli_env_set(*env, k, b);
}

/* SLURM_NTASKS, SLURM_NPROCS, SLURM_NNODES: the step's, or with -E the
 * values srun was given (the job's), as Slurm's srun. */
static void _set_job_count(char ***env, const srun_t *r, const char *k,
			   uint32_t v)
{
	if (r->so.preserve_env && cli_env_get(*env, k))
		return;
	_setu(env, k, v);
}

static char **_step_env(srun_t *r, const job_step_create_response_msg_t *s,
			const uint32_t *counts)
{
	char **env = cli_env_export(r->o.desc.export_env, environ);
	char *tpn = _compress(counts, (uint32_t) xstrarray_len(s->node_names));
	uint32_t nn = (uint32_t) xstrarray_len(s->node_names);

	_setu(&env, "SLURM_STEP_ID", s->step_id);
	_setu(&env, "SLURM_STEPID", s->step_id);
	_set_job_count(&env, r, "SLURM_NTASKS", s->num_tasks);
	_set_job_count(&env, r, "SLURM_NPROCS", s->num_tasks);
	env = cli_env_set(env, "SLURM_STEP_NODELIST", s->node_list);
	env = cli_env_set(env, "SLURM_NODELIST", s->node_list);
	_setu(&env, "SLURM_STEP_NUM_NODES", nn);
	_set_job_count(&env, r, "SLURM_NNODES", nn);
	_setu(&env, "SLURM_STEP_NUM_TASKS", s->num_tasks);
	if (s->resv_ports && *s->resv_ports)
		env = cli_env_set(env, "SLURM_STEP_RESV_PORTS", s->resv_ports);
	env = cli_env_set(env, "SLURM_STEP_TASKS_PER_NODE", tpn);
	env = cli_env_set(env, "SLURM_TASKS_PER_NODE", tpn);
	if (r->o.desc.cpus_per_task != NO_VAL16)
		_setu(&env, "SLURM_CPUS_PER_TASK", r->o.desc.cpus_per_task);
	env = cli_env_set(env, "SLURM_LAUNCH_NODE_IPADDR", r->my_addr);
	env = cli_env_set(env, "SLURM_SRUN_COMM_HOST", r->my_addr);
	_setu(&env, "SLURM_SRUN_COMM_PORT", r->port);
	_setu(&env, "SLURM_STEP_LAUNCHER_PORT", r->port);
	if (r->so.dist_str)
		env = cli_env_set(env, "SLURM_DISTRIBUTION", r->so.dist_str);
	if (r->o.desc.bitflags & JOB_OVERCOMMIT)
		env = cli_env_set(env, "SLURM_OVERCOMMIT", "1");
	if (r->o.gpu_bind)        /* slurmstepd binds each task by it */
		env = cli_env_set(env, "SLURM_GPU_BIND", r->o.gpu_bind);
	if (!cli_env_get(env, "SLURM_CONF") && getenv("SLURM_CONF"))
		env = cli_env_set(env, "SLURM_CONF", getenv("SLURM_CONF"));
	env = cli_env_rlimits(env, r->o.propagate, cli_conf());
	if (!env)
		exit(1);
	xfree(tpn);
	return env;
}

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
static void _say_layout(const job_step_create_response_msg_t *s)
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
static char *_pmi_mapping(const uint32_t *task_node, uint32_t ntasks)
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

static bool _per_task(const char *pat)
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
static int _local_out(srun_t *r, const char *pat, uint32_t step_id, int dflt)
{
	fname_ctx_t fc = { .job_id = r->job_id, .step_id = step_id,
			   .array_task_id = NO_VAL32,
			   .job_name = r->o.desc.name,
			   .user_name = getenv("USER") };
	char *path;
	int fd;

	if (!pat || _per_task(pat))
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

static int _launch(srun_t *r, job_step_create_response_msg_t *s,
		   srun_step_t *st, char **env)
{
	uint32_t nn = st->node_cnt, *counts = xcalloc(nn + 1, sizeof(uint32_t));
	uint32_t **ids = xcalloc(nn + 1, sizeof(uint32_t *));
	launch_t *l = xcalloc(nn + 1, sizeof(launch_t));
	const void **datas = xcalloc(nn + 1, sizeof(void *));
	int *rcs = xcalloc(nn + 1, sizeof(int));
	fwd_req_t fr = { .type = REQUEST_LAUNCH_TASKS };
	char cwd[PATH_MAX], *ifname = NULL, *mapping = NULL;
	const char *wd = r->o.desc.work_dir;
	int rc = 0;

	if (!getcwd(cwd, sizeof(cwd)))
		snprintf(cwd, sizeof(cwd), "/tmp");
	srun_parse_counts(s->tasks_per_node, nn, counts);
	srun_layout(r->so.dist, r->so.plane, counts, nn, ids);
	st->task_node = xcalloc(s->num_tasks + 1, sizeof(uint32_t));
	st->in_task = _in_task(r, &ifname);
	for (uint32_t n = 0; n < nn; n++)
		for (uint32_t k = 0; k < counts[n]; k++)
			if (ids[n][k] < s->num_tasks)
				st->task_node[ids[n][k]] = n;
	if (_want_pmi(r))
		mapping = _pmi_mapping(st->task_node, s->num_tasks);
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
		m->num_tasks = s->num_tasks;
		m->gtids = xstrdup("");
		for (uint32_t k = 0; k < counts[n]; k++) {
			xstrfmtcat(&m->gtids, "%s%u", k ? "," : "", ids[n][k]);
			if (ids[n][k] < s->num_tasks)
				st->task_node[ids[n][k]] = n;
		}
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
		m->io_key = st->io_key;
		m->ofname = _per_task(r->o.desc.std_out) ? r->o.desc.std_out : NULL;
		m->efname = _per_task(r->o.desc.std_err) ? r->o.desc.std_err : NULL;
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

/* --pty: the local terminal passes every key to task 0 (Ctrl-C, Ctrl-D
 * included) until the step ends. */
static struct termios tty_saved;
static bool tty_changed;

static void _tty_restore(void)
{
	if (tty_changed) {
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &tty_saved);
		tty_changed = false;
	}
}

static void _tty_raw(const srun_t *r)
{
	struct termios raw;

	if (!r->so.pty || !isatty(STDIN_FILENO) ||
	    tcgetattr(STDIN_FILENO, &tty_saved) < 0)
		return;
	raw = tty_saved;
	cfmakeraw(&raw);
	if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0) {
		tty_changed = true;
		atexit(_tty_restore);
	}
}

/* The step exists: the local plugins learn the job (the items Slurm
 * gives srun's plugins) and may look at the environment the tasks get;
 * the options given to srun travel with it to the remote context. */
static int _local_user_init(srun_t *r, const job_step_create_response_msg_t *s,
			    char ***env)
{
	spank_job_t job = {
		.uid = (uint32_t) getuid(), .gid = (uint32_t) getgid(),
		.job_id = s->job_id, .step_id = s->step_id,
		.nnodes = (uint32_t) xstrarray_len(s->node_names),
		.total_task_count = s->num_tasks,
		.argv = r->argv, .env = env,
	};
	int rc;

	*env = spank_stack_job_env(r->o.spank, *env);
	spank_stack_set_job(r->o.spank, &job);
	rc = spank_stack_call(r->o.spank, SPANK_CB_LOCAL_USER_INIT, NULL,
			      NULL);
	spank_stack_set_job(r->o.spank, NULL);
	if (rc < 0)
		error("Failure in local plugin stack");
	return rc;
}

/* SrunProlog / --prolog: a failure aborts the step before its launch. */
static int _srun_prolog(srun_t *r, char **env)
{
	int st = srun_script_run(r->so.prolog, "prolog_srun", r->argv, env);

	debug("srun prolog rc = %d", st);
	if (!st)
		return 0;
	error("srun prolog failed rc = %d. Aborting step.",
	      st > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : st);
	return -1;
}

static void _srun_epilog(srun_t *r, char **env)
{
	int st = srun_script_run(r->so.epilog, "epilog_srun", r->argv, env);

	if (st)
		error("srun epilog failed status=%d",
		      st > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : st);
}

/* --bcast: the executable to the step's nodes (srun_bcast.c), and
 * with --send-libs its libraries' directory first in the tasks'
 * LD_LIBRARY_PATH. */
static int _bcast(srun_t *r, const job_step_create_response_msg_t *s,
		  char ***env)
{
	const char *old;

	if (r->so.multi_prog) {
		error("--bcast cannot be used with --multi-prog");
		return -1;
	}
	if (srun_bcast(&r->so, r->argv[0], r->o.desc.work_dir, s->job_id,
		       s->step_id, &r->bcast_dest, &r->bcast_per_node,
		       &r->bcast_libdir) < 0)
		return -1;
	if (r->bcast_libdir) {
		char *v;

		old = cli_env_get(*env, "LD_LIBRARY_PATH");
		v = old && *old ? xstrdup_printf("%s:%s", r->bcast_libdir, old) :
		    xstrdup(r->bcast_libdir);
		*env = cli_env_set(*env, "LD_LIBRARY_PATH", v);
		xfree(v);
	}
	return 0;
}

/* The step was created but will not run: end it at the controller, so
 * it does not stay behind holding the job's CPUs. */
static void _abort_step(const job_step_create_response_msg_t *s)
{
	step_abort_msg_t a = { .job_id = s->job_id, .step_id = s->step_id,
			       .rc = 1 << 8 };
	slurm_msg_t resp;

	if (cli_ctld_rpc(REQUEST_STEP_ABORT, &a, &resp) == 0)
		msg_free(&resp);
}

static int _run_step(srun_t *r)
{
	job_step_create_response_msg_t *s;
	srun_step_t st = { .so = &r->so, .out_fd = STDOUT_FILENO,
			   .err_fd = STDERR_FILENO };
	uint32_t *counts;
	char **env;
	int rc;

	s = _create(r);
	if (!s)
		return 1;
	cli_filter_post_submit(&r->o, s->job_id, s->step_id);
	_say_layout(s);
	st.job_id = s->job_id;
	st.step_id = s->step_id;
	st.node_cnt = (uint32_t) xstrarray_len(s->node_names);
	st.node_names = s->node_names;
	st.num_tasks = s->num_tasks;
	st.listen_fd = r->listen_fd;
	st.io_key = cli_io_key();
	st.executable = r->argv[0];
	st.out_fd = _local_out(r, r->o.desc.std_out, s->step_id, STDOUT_FILENO);
	st.err_fd = r->o.desc.std_err ?
		_local_out(r, r->o.desc.std_err, s->step_id, STDERR_FILENO) :
		(r->o.desc.std_out && !_per_task(r->o.desc.std_out) ?
		 st.out_fd : STDERR_FILENO);
	counts = xcalloc(st.node_cnt + 1, sizeof(uint32_t));
	if (srun_parse_counts(s->tasks_per_node, st.node_cnt, counts) < 0) {
		error("Bad step layout from the controller");
		rc = 1;
		goto abort;
	}
	env = _step_env(r, s, counts);
	if (r->so.bcast && _bcast(r, s, &env) < 0) {
		xstrarray_free(env);
		rc = 1;
		goto abort;
	}
	if (_srun_prolog(r, env) < 0 || _local_user_init(r, s, &env) < 0) {
		xstrarray_free(env);
		rc = 1;
		goto abort;
	}
	rc = _launch(r, s, &st, env);
	if (rc) {
		xstrarray_free(env);
		rc = 1;
		goto abort;
	}
	_tty_raw(r);
	rc = srun_io_run(&st);
	_tty_restore();
	_srun_epilog(r, env);
	xstrarray_free(env);
	goto out;
abort:
	_abort_step(s);
out:
	xfree(counts);
	xfree(st.io_key);
	xfree(st.task_node);
	msg_body_free(RESPONSE_JOB_STEP_CREATE, s);
	return rc;
}

int main(int argc, char **argv)
{
	srun_t r = { .listen_fd = -1 };
	int rc;

	environ = xstrarray_dup(environ);    /* ours to change */
	cli_init_noconf("srun", 0);
	_parse(&r, argc, argv);
	cli_init("srun", r.o.verbose - r.o.quiet);
	/* -M: the allocation and its steps' requests go to that cluster */
	if (cli_opt_check_clusters(&r.o, cli_conf()->cluster_name) < 0)
		exit(1);
	srun_opt_conf_defaults(&r.so, cli_conf());
	cli_spank_post_opt(&r.o);
	r.my_addr = cli_my_addr();
	r.listen_fd = net_listen_tcp(NULL, 0);
	if (r.listen_fd < 0) {
		error("cannot listen for the step's tasks: %m");
		return 1;
	}
	r.port = net_local_port(r.listen_fd);
	_job(&r);
	srun_io_signals_init();
	if (r.x11.flags && cli_x11_start(&r.x11, "srun") < 0)
		rc = 1;
	else
		rc = _run_step(&r);
	if (r.own_alloc)
		cli_alloc_release(r.job_id, (uint32_t) (rc & 0xff) << 8);
	cli_spank_finish(&r.o);
	close(r.listen_fd);
	xfree(r.my_addr);
	xstrarray_free(r.argv);
	xfree(r.so.mpi);
	xfree(r.so.het_group);
	xfree(r.so.cpu_bind);
	xfree(r.so.task_prolog);
	xfree(r.so.task_epilog);
	xfree(r.so.prolog);
	xfree(r.so.epilog);
	xfree(r.so.dist_str);
	xfree(r.mp_text);
	xfree(r.bcast_dest);
	xfree(r.bcast_libdir);
	xfree(r.so.bcast_dest);
	xfree(r.so.bcast_exclude);
	xfree(r.so.bcast_dir);
	cli_x11_free(&r.x11);
	cli_opt_free(&r.o);
	return rc;
}
