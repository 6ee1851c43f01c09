/* srun_het.c — one step over several components of a heterogeneous job
 * (srun(1) HETEROGENEOUS JOB SUPPORT): "srun --het-group=0,1 cmd" or
 * "srun [opts] cmd0 : [opts] cmd1" inside a het allocation.
 *
 * Each component gets a step of its own job (J+0.S, J+1.S: the same step
 * id S, which the controller keeps free in every component), with its own
 * credential and layout.  The tasks are numbered across the components
 * (the first component's are 0..n0-1, the next ones follow), every task
 * sees the whole count, and they are one PMI world: the same PMI job id,
 * one process mapping whose node indexes run over the components' nodes
 * in order, and one fence that srun completes once every component's
 * nodes are in.  srun tells the components' nodes apart by their I/O key,
 * one per component.  As in Slurm, -l, -u, -K, -W, -o, -e, --open-mode
 * are each component's (taken from the one before where not given); the
 * I/O loop looks them up by the task's component (srun_comp_io_t).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/cli_env.h"
#include "cli/cli_filter.h"
#include "cli/cli_step_io.h"
#include "cli/srun_int.h"
#include "common/hostlist.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

extern char **environ;

/* srun's environment as group g sees it: each X_HET_GROUP_<g>=v is also
 * X=v (SLURM_NTASKS, SLURM_NNODES, ... of that component). */
char **srun_het_group_env(uint32_t g)
{
	char **env = xstrarray_dup(environ);
	char sfx[32];
	size_t sl;

	snprintf(sfx, sizeof(sfx), "_HET_GROUP_%u=", g);
	sl = strlen(sfx);
	for (char **e = environ; *e; e++) {
		char *p = strstr(*e, sfx), *name;

		if (!p || strncmp(*e, "SLURM_", 6))
			continue;
		name = xstrndup(*e, (size_t) (p - *e));
		env = cli_env_set(env, name, p + sl);
		xfree(name);
	}
	return env;
}

static uint32_t _het_size(void)
{
	const char *v = getenv("SLURM_HET_SIZE");
	uint32_t n = 0;

	if (!v || parse_u32(v, &n) < 0)
		return 0;
	return n;
}

/* One further component: its options from argv (read with group g's
 * environment), its command up to the next ':'.  The index after it. */
static int _comp(srun_t *c, const srun_t *r, uint32_t g, int argc,
		 char **argv, bool colon)
{
	char **env = srun_het_group_env(g);
	int first, end;

	first = srun_parse_opts(c, argc, argv, env, false);
	xstrarray_free(env);
	if (colon && c->so.het) {
		error("--het-group cannot be used with ':' separated "
		      "heterogeneous step components");
		exit(1);
	}
	end = srun_take_command(c, argc, argv, first);
	c->het_group = g;
	c->mpi_flags = r->mpi_flags;    /* one MPI world: the first's */
	cli_filter_pre_submit(&c->o);
	return end;
}

/* What c takes from the component before it where it gave none: the
 * job options Slurm propagates (cli_opt_het_propagate: -o, -e, -i,
 * --open-mode, -t, ...) and srun's own -l, -u, -K, -W, --task-prolog,
 * --task-epilog (heterogeneous_jobs.html, "propagated options"). */
static void _propagate(srun_t *c, const srun_t *prev)
{
	cli_opt_het_propagate(&c->o.desc, &prev->o.desc);
	c->so.label = c->so.label || prev->so.label;
	c->so.unbuffered = c->so.unbuffered || prev->so.unbuffered;
	if (c->so.kill_bad_exit < 0)
		c->so.kill_bad_exit = prev->so.kill_bad_exit;
	if (c->so.wait_sec < 0)
		c->so.wait_sec = prev->so.wait_sec;
	if (!c->so.task_prolog && prev->so.task_prolog)
		c->so.task_prolog = xstrdup(prev->so.task_prolog);
	if (!c->so.task_epilog && prev->so.task_epilog)
		c->so.task_epilog = xstrdup(prev->so.task_epilog);
}

void srun_het_parse(srun_t *r, int argc, char **argv, int colon,
		    const uint32_t *groups, size_t ngroups, srun_t ***comps,
		    size_t *n)
{
	uint32_t size = _het_size();
	srun_t **c = xcalloc(1, sizeof(*c));
	size_t k = 1;

	c[0] = r;
	r->het_group = groups ? groups[0] : 0;
	if (!size && colon && (r->so.jobid || getenv("SLURM_JOB_ID"))) {
		error("srun A : B inside an allocation that is not a "
		      "heterogeneous job: its components need one each");
		exit(1);
	}
	while (colon && colon < argc) {           /* argv[colon] is ':' */
		if (size && k >= size) {
			error("Attempt to run a job step with het group value "
			      "of %zu, but the job allocation has maximum value "
			      "of %u", k, size - 1);
			exit(1);
		}
		c = xrealloc(c, (k + 1) * sizeof(*c));
		c[k] = xcalloc(1, sizeof(srun_t));
		colon += _comp(c[k], r, (uint32_t) k, argc - colon,
			       argv + colon, true);
		k++;
	}
	for (size_t i = 1; !colon && i < ngroups; i++, k++) {
		c = xrealloc(c, (k + 1) * sizeof(*c));
		c[k] = xcalloc(1, sizeof(srun_t));
		_comp(c[k], r, groups[i], argc, argv, false);
	}
	for (size_t i = 1; i < k; i++)
		_propagate(c[i], c[i - 1]);
	/* a component without a command runs the next one's */
	for (size_t i = k; i-- > 0;) {
		if (c[i]->argv && c[i]->argv[0])
			continue;
		if (i + 1 == k) {
			fprintf(stderr, "srun: fatal: No command given to "
				"execute.\n");
			exit(1);
		}
		xstrarray_free(c[i]->argv);
		c[i]->argv = xstrarray_dup(c[i + 1]->argv);
		xfree(c[i]->mp_text);
		if (c[i + 1]->mp_text) {
			c[i]->so.multi_prog = true;
			c[i]->mp_text = xstrdup(c[i + 1]->mp_text);
		}
	}
	*comps = c;
	*n = k;
}

static bool _same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* What a het step cannot do, said before anything is created. */
static int _refuse(srun_t **c, size_t n)
{
	for (size_t k = 1; k < n; k++)
		if (!_same_str(c[k]->o.desc.std_in, c[0]->o.desc.std_in)) {
			error("--input applies to the whole step: give it "
			      "in the first component");
			return -1;
		}
	for (size_t k = 0; k < n; k++) {
		const char *what = c[k]->mpi_flags & LAUNCH_PMIX ?
			"--mpi=pmix (use --mpi=pmi2)" :
			c[k]->so.bcast ? "--bcast" :
			c[k]->so.pty ? "--pty" :
			c[k]->so.multi_prog ? "--multi-prog" :
			c[0]->so.mpi_no_combine && c[k]->mpi_flags ?
			"--mpi-combine=no (one MPI world per component)" : NULL;

		if (what) {
			error("%s is not supported in a step over several "
			      "heterogeneous job components", what);
			return -1;
		}
	}
	return 0;
}

static void _setu(char ***env, const char *k, uint32_t v)
{
	char b[32];

	snprintf(b, sizeof(b), "%u", v);
	*env = cli_env_set(*env, k, b);
}

typedef struct {
	job_step_create_response_msg_t **s;
	uint32_t **counts;
	char     **env;         /* the first component's (prolog, epilog) */
	char     **keys;
	uint32_t  *node_off;
	char     **names;       /* every component's nodes, not owned */
	char      *mapping;
	char      *pmi_id;
} het_t;

/* {2,2,1} -> "2(x2),1", as Slurm prints per-node counts. */
static void _compress(char **out, const uint32_t *v, uint32_t n)
{
	for (uint32_t i = 0; i < n;) {
		uint32_t k = i;

		while (k + 1 < n && v[k + 1] == v[i])
			k++;
		xstrfmtcat(out, "%s%u", *out ? "," : "", v[i]);
		if (k > i)
			xstrfmtcat(out, "(x%u)", k - i + 1);
		i = k + 1;
	}
}

/* The whole step in every component's environment, as Slurm's srun sets
 * it: SLURM_NTASKS, SLURM_NNODES, SLURM_NODELIST and SLURM_TASKS_PER_NODE
 * (and their SLURM_STEP_ forms) of every component together,
 * SLURM_HET_SIZE, and each component's as *_HET_GROUP_<g>. */
static void _het_env(char ***env, srun_t **c, const het_t *h, size_t n,
		     uint32_t total)
{
	hostlist_t *hl = hostlist_create();
	char name[96], *all, *tpn = NULL;
	uint32_t nodes = h->node_off[n];

	for (uint32_t i = 0; i < nodes; i++)
		hostlist_push_host(hl, h->names[i]);
	all = hostlist_ranged(hl);
	hostlist_destroy(hl);
	_setu(env, "SLURM_HET_SIZE", (uint32_t) n);
	if (!c[0]->so.preserve_env) {
		_setu(env, "SLURM_NTASKS", total);
		_setu(env, "SLURM_NPROCS", total);
		_setu(env, "SLURM_NNODES", nodes);
	}
	_setu(env, "SLURM_STEP_NUM_TASKS", total);
	_setu(env, "SLURM_STEP_NUM_NODES", nodes);
	*env = cli_env_set(*env, "SLURM_STEP_NODELIST", all);
	*env = cli_env_set(*env, "SLURM_NODELIST", all);
	for (size_t k = 0; k < n; k++) {
		uint32_t g = c[k]->het_group, nn = h->node_off[k + 1] -
						   h->node_off[k];
		char *one = NULL;

		_compress(&one, h->counts[k], nn);
		_compress(&tpn, h->counts[k], nn);
		snprintf(name, sizeof(name), "SLURM_NTASKS_HET_GROUP_%u", g);
		_setu(env, name, h->s[k]->num_tasks);
		snprintf(name, sizeof(name), "SLURM_NPROCS_HET_GROUP_%u", g);
		_setu(env, name, h->s[k]->num_tasks);
		snprintf(name, sizeof(name), "SLURM_NNODES_HET_GROUP_%u", g);
		_setu(env, name, nn);
		snprintf(name, sizeof(name), "SLURM_NODELIST_HET_GROUP_%u", g);
		*env = cli_env_set(*env, name, h->s[k]->node_list);
		snprintf(name, sizeof(name),
			 "SLURM_TASKS_PER_NODE_HET_GROUP_%u", g);
		*env = cli_env_set(*env, name, one);
		xfree(one);
	}
	*env = cli_env_set(*env, "SLURM_STEP_TASKS_PER_NODE", tpn);
	*env = cli_env_set(*env, "SLURM_TASKS_PER_NODE", tpn);
	xfree(tpn);
	xfree(all);
}

/* Each component's job: SLURM_JOB_ID_HET_GROUP_<g> of the allocation. */
static int _job_ids(srun_t **c, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		char name[64];
		const char *v;

		snprintf(name, sizeof(name), "SLURM_JOB_ID_HET_GROUP_%u",
			 c[k]->het_group);
		if (!(v = getenv(name)) || parse_u32(v, &c[k]->job_id) < 0 ||
		    !c[k]->job_id) {
			error("--het-group=%u: %s is not set", c[k]->het_group,
			      name);
			return -1;
		}
	}
	return 0;
}


static void _free(het_t *h, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		if (h->s[k])
			msg_body_free(RESPONSE_JOB_STEP_CREATE, h->s[k]);
		xfree(h->counts[k]);
		xfree(h->keys[k]);
	}
	xfree(h->s);
	xfree(h->counts);
	xfree(h->keys);
	xfree(h->node_off);
	xfree(h->names);
	xfree(h->mapping);
	xfree(h->pmi_id);
	xstrarray_free(h->env);
}

/* Create every component's step, the first one's id for the others. */
static int _create_all(srun_t **c, size_t n, het_t *h)
{
	for (size_t k = 0; k < n; k++) {
		c[k]->want_step_id = k ? h->s[0]->step_id : NO_VAL32;
		if (!(h->s[k] = srun_create(c[k])))
			return -1;
		cli_filter_post_submit(&c[k]->o, h->s[k]->job_id,
				       h->s[k]->step_id);
		srun_say_layout(h->s[k]);
	}
	return 0;
}

/* Offsets, counts and the whole step's task and node tables. */
static int _lay_out(srun_t **c, size_t n, het_t *h, srun_step_t *st)
{
	uint32_t tasks = 0, nodes = 0;

	h->node_off = xcalloc(n + 1, sizeof(uint32_t));
	for (size_t k = 0; k < n; k++) {
		uint32_t nn = (uint32_t) xstrarray_len(h->s[k]->node_names);

		h->counts[k] = xcalloc(nn + 1, sizeof(uint32_t));
		if (srun_parse_counts(h->s[k]->tasks_per_node, nn,
				      h->counts[k]) < 0) {
			error("Bad step layout from the controller");
			return -1;
		}
		c[k]->task_off = tasks;
		c[k]->node_off = nodes;
		h->node_off[k] = nodes;
		tasks += h->s[k]->num_tasks;
		nodes += nn;
	}
	h->node_off[n] = nodes;
	h->names = xcalloc(nodes + 1, sizeof(char *));
	st->task_node = xcalloc(tasks + 1, sizeof(uint32_t));
	for (size_t k = 0; k < n; k++) {
		for (uint32_t i = 0; h->s[k]->node_names[i]; i++)
			h->names[h->node_off[k] + i] = h->s[k]->node_names[i];
		c[k]->het_total = tasks;
		srun_task_nodes(c[k], h->s[k], h->counts[k], st->task_node);
	}
	if (c[0]->mpi_flags & LAUNCH_PMI)
		h->mapping = srun_pmi_mapping(st->task_node, tasks);
	h->pmi_id = xstrdup_printf("%u.%u", h->s[0]->job_id,
				   h->s[0]->step_id);
	st->job_id = h->s[0]->job_id;
	st->step_id = h->s[0]->step_id;
	st->node_cnt = nodes;
	st->node_names = h->names;
	st->num_tasks = tasks;
	st->key_cnt = (uint32_t) n;
	st->keys = h->keys;
	st->key_node_off = h->node_off;
	return 0;
}

/* Launch every component in turn; *started: how many were (those
 * before a failed one have tasks running). */
static int _launch_all(srun_t **c, size_t n, het_t *h, srun_step_t *st,
		       size_t *started)
{
	for (size_t k = 0; k < n; k++) {
		char **env = srun_step_env(c[k], h->s[k], h->counts[k]);
		int rc;

		_het_env(&env, c, h, n, st->num_tasks);
		c[k]->het_mapping = h->mapping;
		c[k]->het_io_key = h->keys[k];
		c[k]->het_pmi_id = h->pmi_id;
		if (!k && srun_pre_launch(c[0], h->s[0], &env) < 0) {
			xstrarray_free(env);
			return -1;
		}
		rc = srun_launch(c[k], h->s[k], st, env);
		if (!k)
			h->env = env;
		else
			xstrarray_free(env);
		if (rc)
			return -1;
		*started = k + 1;
	}
	return 0;
}

/* A later component's launch failed: the earlier ones' tasks run.
 * Kill them and wait for their nodes (no orphans), as far as srun's I/O
 * sees them; the controller's step abort kills what a half-launched
 * component started. */
static void _reap(srun_step_t *st, size_t started, const het_t *h)
{
	if (!started)
		return;
	st->kill_now = true;
	st->key_cnt = (uint32_t) started;
	st->node_cnt = h->node_off[started];
	(void) srun_io_run(st);
}

/* fd, or an earlier one of io[0..k] (out and err) that is the same
 * file: two components naming one output file share it. */
static int _same_file(const srun_comp_io_t *io, size_t k, int fd)
{
	struct stat a, b;

	if (fd <= STDERR_FILENO || fstat(fd, &a) < 0)
		return fd;
	for (size_t j = 0; j <= k; j++) {
		int o[2] = { io[j].out_fd, j < k ? io[j].err_fd : -1 };

		for (int i = 0; i < 2; i++)
			if (o[i] > STDERR_FILENO && o[i] != fd &&
			    fstat(o[i], &b) == 0 && a.st_dev == b.st_dev &&
			    a.st_ino == b.st_ino) {
				close(fd);
				return o[i];
			}
	}
	return fd;
}

/* Each component's -o/-e that srun writes (not per task): its own file,
 * its own job id in %j, as Slurm's srun does per component. */
static void _comp_outs(srun_t **c, size_t n, uint32_t step_id,
		       srun_comp_io_t *io)
{
	for (size_t k = 0; k < n; k++) {
		const char *out = c[k]->o.desc.std_out,
			   *err = c[k]->o.desc.std_err;

		io[k].so = &c[k]->so;
		io[k].out_fd = -1;
		io[k].out_fd = _same_file(io, k, srun_local_out(c[k], out,
				step_id, STDOUT_FILENO));
		io[k].err_fd = err ? _same_file(io, k, srun_local_out(c[k],
				err, step_id, STDERR_FILENO)) :
			out && !srun_per_task(out) ? io[k].out_fd :
			STDERR_FILENO;
	}
}

static void _close_outs(srun_comp_io_t *io, size_t n)
{
	for (size_t k = 0; k < n; k++)
		for (int i = 0; i < 2; i++) {
			int fd = i ? io[k].err_fd : io[k].out_fd;

			if (fd <= STDERR_FILENO)
				continue;
			close(fd);
			for (size_t j = k; j < n; j++) {   /* shared: once */
				if (io[j].out_fd == fd)
					io[j].out_fd = -1;
				if (io[j].err_fd == fd)
					io[j].err_fd = -1;
			}
		}
}

int srun_het_run(srun_t **c, size_t n)
{
	het_t h = { 0 };
	srun_step_t st = { .so = &c[0]->so, .listen_fd = c[0]->listen_fd,
			   .executable = c[0]->argv[0] };
	srun_comp_io_t *io = xcalloc(n + 1, sizeof(*io));
	size_t started = 0;
	int rc = 1;

	if (_refuse(c, n) < 0 || _job_ids(c, n) < 0) {
		xfree(io);
		return 1;
	}
	h.s = xcalloc(n + 1, sizeof(*h.s));
	h.counts = xcalloc(n + 1, sizeof(*h.counts));
	h.keys = xcalloc(n + 1, sizeof(*h.keys));
	for (size_t k = 0; k < n; k++) {
		h.keys[k] = cli_io_key();
		if (k) {
			c[k]->my_addr = c[0]->my_addr;
			c[k]->port = c[0]->port;
			c[k]->listen_fd = c[0]->listen_fd;
		}
	}
	st.io_key = h.keys[0];
	if (_create_all(c, n, &h) < 0 || _lay_out(c, n, &h, &st) < 0)
		goto abort;
	_comp_outs(c, n, st.step_id, io);
	st.key_io = io;
	st.out_fd = io[0].out_fd;
	st.err_fd = io[0].err_fd;
	if (_launch_all(c, n, &h, &st, &started) < 0)
		goto abort;
	rc = srun_io_run(&st);
	srun_post_run(c[0], h.env);
	goto out;
abort:
	for (size_t k = 0; k < n; k++)
		if (h.s[k])
			srun_abort_step(h.s[k]);
	_reap(&st, started, &h);
out:
	_close_outs(io, n);
	xfree(io);
	for (size_t k = 1; k < n; k++)
		c[k]->my_addr = NULL;       /* the first one's */
	xfree(st.task_node);
	_free(&h, n);
	return rc;
}
