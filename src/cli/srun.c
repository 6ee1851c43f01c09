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
#include "cli/srun_int.h"
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

/* srun_t: srun_int.h */

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

/* A het step (srun_het.c): the groups of --het-group, or the ':'
 * components, and where the first ':' is in argv (0: none). */
static uint32_t *het_groups;
static size_t    het_ngroups;
static int       het_colon;

/* --het-group=expr inside a heterogeneous job (SLURM_HET_SIZE): the
 * groups it names, in order, into het_groups.  A group past the job's
 * components is Slurm's error. */
static void _het_group(srun_t *r)
{
	const char *size_s = getenv("SLURM_HET_SIZE");
	uint32_t size = 0;
	char *end;
	const char *p = r->so.het_group ? r->so.het_group : "0";

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
		for (unsigned long g = a; g <= b; g++) {
			for (size_t k = 0; k < het_ngroups; k++)
				if (het_groups[k] == g) {
					error("Invalid --het-group "
					      "specification: group %lu twice",
					      g);
					exit(1);
				}
			het_groups = xrealloc(het_groups, (het_ngroups + 1) *
					      sizeof(*het_groups));
			het_groups[het_ngroups++] = (uint32_t) g;
		}
		if (*end && *end != ',') {
			error("Invalid --het-group specification");
			exit(1);
		}
		p = *end ? end + 1 : end;
	}
}

/* srun --het-group=N alone: the step runs in component N's allocation. */
static void _het_one(uint32_t g)
{
	char name[64];
	const char *id;

	snprintf(name, sizeof(name), "SLURM_JOB_ID_HET_GROUP_%u", g);
	if (!(id = getenv(name))) {
		error("--het-group=%u: %s is not set", g, name);
		exit(1);
	}
	setenv("SLURM_JOB_ID", id, 1);
	setenv("SLURM_JOBID", id, 1);
}

static void _checks(srun_t *r, int argc, char **argv, int first, int end)
{
	if (end < argc) {               /* "A : B" */
		if (r->so.het) {
			error("--het-group cannot be used with ':' separated "
			      "heterogeneous step components");
			exit(1);
		}
		het_colon = end;
	} else if (r->so.het) {
		_het_group(r);
		if (het_ngroups == 1)
			_het_one(het_groups[0]);
	}
	if (_mpi_resolve(r) < 0)
		exit(1);
	if (first >= end && !het_colon) {
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
 * gives way to -n on the command line.  envp: the environment to read
 * (a het step's further components read their group's values); main:
 * the first component, which has the SPANK options and may exit early.
 * The index of the command (or of a ':' or argc) in argv. */
int srun_parse_opts(srun_t *r, int argc, char **argv, char **envp, bool main)
{
	int first = argc;
	cli_job_opts_t *o = &r->o;
	bool n_argv, N_argv;

	cli_opt_init(o, CLI_CMD_SRUN, "srun");
	srun_opt_setup(o, &r->so);
	r->want_step_id = NO_VAL32;
	if (main)
		o->spank = cli_spank_start(S_CTX_LOCAL);
	cli_filter_setup_defaults(o);
	if (srun_opt_parse_env(o, envp) < 0 ||
	    cli_opt_parse_argv(o, argc, argv, &first) < 0)
		exit(cli_opt_err_exit());
	if (main)
		_early_exits(r);
	n_argv = o->desc.num_tasks != NO_VAL32;
	N_argv = o->desc.min_nodes != NO_VAL32;
	if (cli_opt_parse_env(o, envp) < 0)
		exit(cli_opt_err_exit());
	if ((main && cli_spank_env_options(o, envp) < 0) ||
	    cli_opt_check_times(o) < 0)
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
	return first;
}

/* The command of a component: argv[first] up to a ':' (or the end);
 * the index after it. */
int srun_take_command(srun_t *r, int argc, char **argv, int first)
{
	int end = first;

	while (end < argc && strcmp(argv[end], ":"))
		end++;
	r->argv = xcalloc((size_t) (end - first) + 1, sizeof(char *));
	for (int i = first; i < end; i++)
		r->argv[i - first] = xstrdup(argv[i]);
	if (r->so.multi_prog && r->argv[0])
		_multi_prog(r);
	return end;
}

static void _parse(srun_t *r, int argc, char **argv)
{
	int first = srun_parse_opts(r, argc, argv, environ, true);
	int end;

	end = srun_take_command(r, argc, argv, first);
	_checks(r, argc, argv, first, end);
	cli_filter_pre_submit(&r->o);
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

/* The allocation for r alone, or (n > 1, "srun A : B" outside any
 * allocation) one het job of the components c[0..n), as salloc A : B
 * asks for it: each component takes what Slurm propagates from the one
 * before.  0 or -1 (printed). */
static int _request(srun_t *r, srun_t **c, size_t n)
{
	cli_job_opts_t *oa;
	int rc;

	if (n < 2)
		return cli_alloc_request(&r->o, 1, _base(r->argv[0]), false,
					 &r->job_id);
	oa = xcalloc(n, sizeof(*oa));
	for (size_t k = 0; k < n; k++) {
		if (k && !c[k]->o.desc.name && c[k - 1]->o.desc.name)
			c[k]->o.desc.name = xstrdup(c[k - 1]->o.desc.name);
		if (k)
			cli_opt_het_propagate(&c[k]->o.desc,
					      &c[k - 1]->o.desc);
		oa[k] = c[k]->o;
	}
	rc = cli_alloc_request(oa, n, _base(r->argv[0]), false, &r->job_id);
	for (size_t k = 0; k < n; k++)
		c[k]->o = oa[k];
	xfree(oa);
	return rc;
}

/* The het allocation srun made: its components' variables. */
static void _het_alloc_env(srun_t *r, srun_t **c, size_t n)
{
	cli_job_opts_t *oa = xcalloc(n, sizeof(*oa));

	for (size_t k = 0; k < n; k++)
		oa[k] = c[k]->o;
	if (cli_alloc_env_het(&environ, r->job_id, oa, n) < 0) {
		error("Unable to read heterogeneous job %u's components",
		      r->job_id);
		xfree(oa);
		cli_alloc_release(r->job_id, 1 << 8);
		exit(1);
	}
	xfree(oa);
}

static void _job(srun_t *r, srun_t **c, size_t n)
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
	if (_request(r, c, n) < 0)
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
	if (n > 1)
		_het_alloc_env(r, c, n);
}

/* ---- the step ---- */

job_step_create_response_msg_t *srun_create(srun_t *r)
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
		.step_id = r->want_step_id,
	};
	/* in an existing allocation the step asks for its own GRES (its
	 * own allocation is the request itself: the step gets it all) */
	if (!r->own_alloc) {
		const char *sg = getenv("SLURM_STEP_GRES");

		q.tres_per_step = d->tres_per_job;
		q.tres_per_node = d->gres;
		q.tres_per_task = d->tres_per_task;
		/* SLURM_STEP_GRES: --gres for steps only, over SLURM_GRES;
		 * the command line still wins */
		if (sg && *sg && cli_opt_source(&r->o, "gres") < CLI_SRC_ARGV)
			q.tres_per_node = (char *) sg;
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

char **srun_step_env(srun_t *r, const job_step_create_response_msg_t *s,
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
void srun_abort_step(const job_step_create_response_msg_t *s)
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

	s = srun_create(r);
	if (!s)
		return 1;
	cli_filter_post_submit(&r->o, s->job_id, s->step_id);
	srun_say_layout(s);
	st.job_id = s->job_id;
	st.step_id = s->step_id;
	st.node_cnt = (uint32_t) xstrarray_len(s->node_names);
	st.node_names = s->node_names;
	st.num_tasks = s->num_tasks;
	st.listen_fd = r->listen_fd;
	st.io_key = cli_io_key();
	st.executable = r->argv[0];
	st.out_fd = srun_local_out(r, r->o.desc.std_out, s->step_id, STDOUT_FILENO);
	st.err_fd = r->o.desc.std_err ?
		srun_local_out(r, r->o.desc.std_err, s->step_id, STDERR_FILENO) :
		(r->o.desc.std_out && !srun_per_task(r->o.desc.std_out) ?
		 st.out_fd : STDERR_FILENO);
	counts = xcalloc(st.node_cnt + 1, sizeof(uint32_t));
	if (srun_parse_counts(s->tasks_per_node, st.node_cnt, counts) < 0) {
		error("Bad step layout from the controller");
		rc = 1;
		goto abort;
	}
	env = srun_step_env(r, s, counts);
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
	rc = srun_launch(r, s, &st, env);
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
	srun_abort_step(s);
out:
	xfree(counts);
	xfree(st.io_key);
	xfree(st.task_node);
	msg_body_free(RESPONSE_JOB_STEP_CREATE, s);
	return rc;
}

int srun_pre_launch(srun_t *r, const job_step_create_response_msg_t *s,
		    char ***env)
{
	if (_srun_prolog(r, *env) < 0 || _local_user_init(r, s, env) < 0)
		return -1;
	return 0;
}

void srun_post_run(srun_t *r, char **env)
{
	_srun_epilog(r, env);
}

void srun_free(srun_t *r)
{
	xstrarray_free(r->argv);
	xfree(r->so.mpi);
	xfree(r->so.het_group);
	xfree(r->so.cpu_bind);
	xfree(r->so.task_prolog);
	xfree(r->so.task_epilog);
	xfree(r->so.prolog);
	xfree(r->so.epilog);
	xfree(r->so.dist_str);
	xfree(r->mp_text);
	xfree(r->bcast_dest);
	xfree(r->bcast_libdir);
	xfree(r->so.bcast_dest);
	xfree(r->so.bcast_exclude);
	xfree(r->so.bcast_dir);
	cli_x11_free(&r->x11);
	cli_opt_free(&r->o);
}

/* srun --het-group=N (one group) inside a het job: the options it
 * inherits from the allocation (SLURM_NTASKS, ...) are component N's, so
 * its environment is read as N's before the options are. */
static void _het_one_env(int argc, char **argv)
{
	const char *v = NULL;
	uint32_t g;

	for (int i = 1; i < argc && strcmp(argv[i], ":"); i++) {
		if (!strncmp(argv[i], "--het-group=", 12))
			v = argv[i] + 12;
		else if (!strcmp(argv[i], "--het-group") && i + 1 < argc)
			v = argv[++i];
	}
	if (v && getenv("SLURM_HET_SIZE") && parse_u32(v, &g) == 0 && g) {
		char **env = srun_het_group_env(g);

		xstrarray_free(environ);
		environ = env;
	}
}

int main(int argc, char **argv)
{
	srun_t r = { .listen_fd = -1 }, **comps = NULL;
	size_t ncomp = 0;
	int rc;

	environ = xstrarray_dup(environ);    /* ours to change */
	cli_init_noconf("srun", 0);
	_het_one_env(argc, argv);
	_parse(&r, argc, argv);
	if (het_colon || het_ngroups > 1)
		srun_het_parse(&r, argc, argv, het_colon, het_groups,
			       het_ngroups, &comps, &ncomp);
	cli_init("srun", r.o.verbose - r.o.quiet);
	/* -M: the allocation and its steps' requests go to that cluster */
	if (cli_opt_check_clusters(&r.o, cli_conf()->cluster_name) < 0)
		exit(1);
	srun_opt_conf_defaults(&r.so, cli_conf());
	for (size_t k = 1; k < ncomp; k++)
		srun_opt_conf_defaults(&comps[k]->so, cli_conf());
	cli_spank_post_opt(&r.o);
	r.my_addr = cli_my_addr();
	r.listen_fd = net_listen_tcp(NULL, 0);
	if (r.listen_fd < 0) {
		error("cannot listen for the step's tasks: %m");
		return 1;
	}
	r.port = net_local_port(r.listen_fd);
	_job(&r, comps, ncomp);
	srun_io_signals_init();
	if (r.x11.flags && cli_x11_start(&r.x11, "srun") < 0)
		rc = 1;
	else if (ncomp)
		rc = srun_het_run(comps, ncomp);
	else
		rc = _run_step(&r);
	if (r.own_alloc)
		cli_alloc_release(r.job_id, (uint32_t) (rc & 0xff) << 8);
	cli_spank_finish(&r.o);
	close(r.listen_fd);
	xfree(r.my_addr);
	for (size_t k = 1; k < ncomp; k++) {
		srun_free(comps[k]);
		xfree(comps[k]);
	}
	xfree(comps);
	xfree(het_groups);
	srun_free(&r);
	return rc;
}
