/* sbatch — submit a batch script to the controller.
 *
 * Options come from the command line, SBATCH_* variables and the script's
 * "#SBATCH" directives (cli_opt).  The script is the file argument, stdin,
 * or the --wrap command wrapped in a /bin/sh script.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_alloc.h"
#include "cli/cli_clusters.h"
#include "cli/cli_common.h"
#include "cli/cli_env.h"
#include "cli/cli_opt.h"
#include "cli/cli_filter.h"
#include "cli/cli_spank.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/uid_cache.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

extern char **environ;

#define SBATCH_MAX_SCRIPT (64u * 1024 * 1024)

static char *read_stream(FILE *f, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	do {
		if (n + 4096 + 1 > cap) {
			size_t ncap = cap ? cap * 2 : 8192;

			buf = xrealloc_sz(buf, cap, ncap);
			cap = ncap;
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
	} while (got > 0 && n < SBATCH_MAX_SCRIPT);
	buf = buf ? buf : xmalloc(1);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static char *read_script(const char *path, size_t *len)
{
	FILE *f;
	char *s;

	if (!path)
		return read_stream(stdin, len);
	if (!(f = fopen(path, "r"))) {
		error("Unable to open file %s", path);
		exit(1);
	}
	s = read_stream(f, len);
	fclose(f);
	return s;
}

static char *wrap_script(const char *cmd)
{
	return xstrdup_printf("#!/bin/sh\n"
			      "# This script was created by sbatch --wrap.\n\n"
			      "%s\n", cmd);
}

static void check_script(const char *script, size_t len)
{
	if (!len) {
		error("Batch script is empty!");
		exit(1);
	}
	if (strlen(script) != len) {
		error("The SLURM controller does not allow scripts that");
		error("contain a NULL character '\\0'.");
		exit(1);
	}
	if (strncmp(script, "#!", 2)) {
		error("This does not look like a batch script.  The first");
		error("line must start with #! followed by the path to an interpreter.");
		error("For instance: #!/bin/sh");
		exit(1);
	}
	if (strstr(script, "\r\n")) {
		error("Batch script contains DOS line breaks (\\r\\n)");
		error("instead of expected UNIX line breaks (\\n).");
		exit(1);
	}
}

static char *absolute_dir(const char *dir)
{
	char cwd[PATH_MAX];

	if (!getcwd(cwd, sizeof(cwd)))
		snprintf(cwd, sizeof(cwd), "/tmp");
	if (!dir)
		return xstrdup(cwd);
	if (dir[0] == '/')
		return xstrdup(dir);
	return xstrdup_printf("%s/%s", cwd, dir);
}

static char *short_hostname(void)
{
	char host[256] = "";
	char *dot;

	gethostname(host, sizeof(host) - 1);
	if ((dot = strchr(host, '.')))
		*dot = '\0';
	return xstrdup(host);
}

static char *join_args(int argc, char **argv)
{
	char *s = NULL;

	for (int i = 0; i < argc; i++)
		xstrfmtcat(&s, "%s%s", i ? " " : "", argv[i]);
	return s;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The submitting process's nice value and umask go with the job (as
 * SLURM_PRIO_PROCESS and SLURM_UMASK) unless already set. */
static void propagate_process_env(job_desc_t *d)
{
	mode_t mask = umask(0);
	char buf[32];
	int prio;

	umask(mask);
	if (!getenv("SLURM_UMASK")) {
		snprintf(buf, sizeof(buf), "0%o%o%o", (mask >> 6) & 7,
			 (mask >> 3) & 7, mask & 7);
		d->environment = cli_env_set(d->environment, "SLURM_UMASK", buf);
	}
	if (!getenv("SLURM_PRIO_PROCESS")) {
		errno = 0;
		prio = getpriority(PRIO_PROCESS, 0);
		snprintf(buf, sizeof(buf), "%d", errno ? 0 : prio);
		d->environment = cli_env_set(d->environment,
					     "SLURM_PRIO_PROCESS", buf);
	}
}

/* Everything the request needs beyond the options. */
static void fill_desc(cli_job_opts_t *o, const char *path, int argc,
		      char **argv, int first)
{
	job_desc_t *d = &o->desc;
	char user[256];
	char *wd = absolute_dir(d->work_dir), *cwd = absolute_dir(NULL);

	xfree(d->work_dir);
	d->work_dir = wd;
	if (!d->name)
		d->name = xstrdup(o->wrap ? "wrap" : path ? base_name(path) :
				  "sbatch");
	if (!o->uid_set)
		d->user_id = getuid();
	if (!o->gid_set)
		d->group_id = getgid();
	if (uid_cache_name(d->user_id, user, sizeof(user)) == 0)
		d->user_name = xstrdup(user);
	d->submit_host = short_hostname();
	d->submit_line = join_args(argc, argv);
	d->environment = cli_env_export(d->export_env, environ);
	if (o->export_file) {
		char **env = cli_env_merge_file(d->environment, o->export_file);

		if (!env)
			exit(1);
		d->environment = env;
	}
	/* Where sbatch ran, whatever --export says (the controller and the
	 * node read them from here). */
	d->environment = cli_env_set(d->environment, "SLURM_SUBMIT_DIR", cwd);
	d->environment = cli_env_set(d->environment, "SLURM_SUBMIT_HOST",
				     d->submit_host);
	propagate_process_env(d);
	d->environment = cli_env_rlimits(d->environment, o->propagate,
					 cli_conf());
	if (!d->environment)
		exit(1);
	if (o->distribution)                   /* -m: for the job's sruns */
		d->environment = cli_env_set(d->environment,
					     "SLURM_DISTRIBUTION",
					     o->distribution);
	if (o->gpu_bind)                       /* for the job's sruns */
		d->environment = cli_env_set(d->environment, "SLURM_GPU_BIND",
					     o->gpu_bind);
	if (d->bitflags & JOB_OVERCOMMIT)      /* -O: for the job's sruns */
		d->environment = cli_env_set(d->environment,
					     "SLURM_OVERCOMMIT", "1");
	/* --export=NONE implies loading the user's environment on the node,
	 * as --get-user-env does. */
	if (o->get_user_env ||
	    (d->export_env && !strcasecmp(d->export_env, "NONE")))
		d->environment = cli_env_set(d->environment,
					     "SLURM_GET_USER_ENV", "1");
	/* As Slurm: argv[0] is the script's absolute path (the job's
	 * Command=), then the script's arguments; empty for stdin/--wrap. */
	d->argv = xcalloc(1, sizeof(char *));
	if (path) {
		const char *rel = path;
		char *abs;

		while (rel[0] == '.' && rel[1] == '/')
			rel += 2;
		abs = path[0] == '/' ? xstrdup(path) :
			xstrdup_printf("%s/%s", cwd, rel);

		d->argv = xstrarray_append(d->argv, abs);
		xfree(abs);
	}
	for (int i = first; i < argc; i++)
		d->argv = xstrarray_append(d->argv, argv[i]);
	xfree(cwd);
}

static void submit_failed(int rc, const char *msg)
{
	if (msg && *msg)
		error("%s", msg);
	error("Batch job submission failed: %s", slurm_strerror(rc));
	exit(1);
}

static uint32_t submit(cli_job_opts_t *o)
{
	slurm_msg_t resp;
	const submit_response_msg_t *sr;
	uint32_t job_id;
	int rc = cli_ctld_rpc(REQUEST_SUBMIT_BATCH_JOB, &o->desc, &resp);

	if (rc) {
		error("Batch job submission failed: %s", cli_comm_strerror(rc));
		exit(1);
	}
	if (resp.type == RESPONSE_SLURM_RC) {
		const return_code_msg_t *r = resp.data;

		submit_failed(r && r->rc ? r->rc : SLURM_UNEXPECTED_MSG_ERROR,
			      r ? r->msg : NULL);
	}
	if (resp.type != RESPONSE_SUBMIT_BATCH_JOB || !resp.data)
		submit_failed(SLURM_UNEXPECTED_MSG_ERROR, NULL);
	sr = resp.data;
	if (sr->error_code)
		submit_failed(sr->error_code, sr->job_submit_user_msg);
	if (sr->job_submit_user_msg && *sr->job_submit_user_msg)
		info("%s", sr->job_submit_user_msg);
	job_id = sr->job_id;
	msg_free(&resp);
	return job_id;
}

/* --test-only: when and where the job would start; nothing is created.
 * Exits. */
/* -M/--clusters: the named cluster, or of several the one where the job
 * would start first (as Slurm's sbatch); requests go there from now on.
 * Returns the name to print after "Submitted batch job N on cluster". */
static char *pick_cluster(const cli_job_opts_t *o)
{
	char *name;

	if (cli_clusters_pick(o->clusters, &o->desc, &name) < 0)
		exit(1);
	return name;
}

/* What --wait exits with for a finished job: its exit code, or 1 when
 * a signal ended it (as Slurm's sbatch). */
static int job_rc(const job_info_t *j)
{
	if (WIFEXITED(j->exit_code))
		return WEXITSTATUS(j->exit_code);
	if (WIFSIGNALED(j->exit_code))
		return 1;
	return 0;
}

/* Poll once: -1 while any part of the job runs, else its exit code. */
static int poll_job(uint32_t job_id)
{
	job_info_request_msg_t req = {
		.job_ids = &job_id, .job_id_cnt = 1, .user_id = NO_VAL32,
	};
	slurm_msg_t resp;
	const job_info_msg_t *m;
	int rc = 0, err = cli_ctld_rpc(REQUEST_JOB_INFO, &req, &resp);

	if (err)
		return -1;    /* controller away: keep waiting */
	if (resp.type != RESPONSE_JOB_INFO || !resp.data) {
		rc = cli_resp_rc(&resp) == ESLURM_INVALID_JOB_ID ? 0 : -1;
		msg_free(&resp);
		return rc;
	}
	m = resp.data;
	for (uint32_t i = 0; i < m->cnt && rc >= 0; i++) {
		const job_info_t *j = &m->jobs[i];

		if (j->job_id != job_id && j->array_job_id != job_id)
			continue;
		if (!job_state_is_finished(j->job_state))
			rc = -1;
		else if (job_rc(j) > rc)
			rc = job_rc(j);
	}
	msg_free(&resp);
	return rc;
}

static int wait_job(uint32_t job_id)
{
	unsigned delay = 1;
	int rc;

	while ((rc = poll_job(job_id)) < 0) {
		sleep(delay);
		if (delay < 5)
			delay++;
	}
	return rc;
}

/* ---- heterogeneous jobs: "A : B" and "#SBATCH hetjob" ---- */

static uint32_t submit_het(cli_job_opts_t *o, size_t n)
{
	het_job_desc_msg_t h = { .cnt = (uint32_t) n };
	const submit_response_msg_t *sr;
	slurm_msg_t resp;
	uint32_t job_id;
	int rc;

	h.desc = xcalloc(n, sizeof(*h.desc));
	for (size_t k = 0; k < n; k++)
		h.desc[k] = o[k].desc;        /* lent, not copied */
	rc = cli_ctld_rpc(REQUEST_SUBMIT_BATCH_HET_JOB, &h, &resp);
	xfree(h.desc);
	if (rc) {
		error("Batch job submission failed: %s", cli_comm_strerror(rc));
		exit(1);
	}
	if (resp.type == RESPONSE_SLURM_RC) {
		const return_code_msg_t *r = resp.data;

		submit_failed(r && r->rc ? r->rc : SLURM_UNEXPECTED_MSG_ERROR,
			      r ? r->msg : NULL);
	}
	if (resp.type != RESPONSE_SUBMIT_BATCH_JOB || !resp.data)
		submit_failed(SLURM_UNEXPECTED_MSG_ERROR, NULL);
	sr = resp.data;
	if (sr->error_code)
		submit_failed(sr->error_code, sr->job_submit_user_msg);
	job_id = sr->job_id;
	msg_free(&resp);
	return job_id;
}

/* One more component (a ':' on the command line or a "#SBATCH hetjob"
 * section) set up as the first was. */
static void het_add(cli_job_opts_t **o, size_t *n)
{
	cli_job_opts_t *c;

	*o = xrealloc(*o, (*n + 1) * sizeof(**o));
	c = &(*o)[(*n)++];
	cli_opt_init(c, CLI_CMD_SBATCH, "sbatch");
	cli_filter_setup_defaults(c);
}

static void early_exits(const cli_job_opts_t *o)
{
	if (o->help) {
		cli_opt_print_help(o);
		exit(0);
	}
	if (o->usage) {
		cli_opt_print_usage(o);
		exit(0);
	}
	if (o->version) {
		printf("slurm %s\n", SLUICE_VERSION_STRING);
		exit(0);
	}
}

int main(int argc, char **argv)
{
	cli_job_opts_t *o = xcalloc(1, sizeof(*o));
	const char *path = NULL;
	char *script, **secs;
	size_t len, n = 1, ncli, nsec;
	int first = argc, rc = 0, f;
	uint32_t job_id;
	char *cluster;

	cli_init_noconf("sbatch", 0);
	cli_opt_init(&o[0], CLI_CMD_SBATCH, "sbatch");
	o[0].spank = cli_spank_start(S_CTX_ALLOCATOR);
	cli_filter_setup_defaults(&o[0]);
	if (cli_opt_parse_argv(&o[0], argc, argv, &first) < 0)
		exit(cli_opt_err_exit());
	early_exits(&o[0]);
	/* "A : B": each ':' starts the next component's options */
	while (first < argc && !strcmp(argv[first], ":")) {
		het_add(&o, &n);
		if (cli_opt_parse_argv(&o[n - 1], argc - first, argv + first,
				       &f) < 0)
			exit(cli_opt_err_exit());
		first += f;
	}
	ncli = n;
	/* --wrap in any component is the job's script */
	for (size_t k = 1; k < n && !o[0].wrap; k++)
		if (o[k].wrap) {
			o[0].wrap = o[k].wrap;
			o[k].wrap = NULL;
		}
	if (o[0].wrap) {
		if (first < argc) {
			error("Script arguments not permitted with --wrap option");
			exit(1);
		}
		script = wrap_script(o[0].wrap);
		len = strlen(script);
	} else {
		path = first < argc ? argv[first++] : NULL;
		script = read_script(path, &len);
	}
	check_script(script, len);
	secs = cli_opt_het_sections(script, len, &nsec);
	while (n < nsec) {
		het_add(&o, &n);
		/* a command line without ':' sets every component */
		if (ncli == 1 && cli_opt_parse_argv(&o[n - 1], argc, argv,
						    &f) < 0)
			exit(cli_opt_err_exit());
	}
	for (size_t k = 0; k < n; k++) {
		if (cli_opt_parse_env(&o[k], environ) < 0 ||
		    (!k && cli_spank_env_options(&o[k], environ) < 0))
			exit(cli_opt_err_exit());
		if (k < nsec && cli_opt_parse_script(&o[k], secs[k],
						     strlen(secs[k]),
						     "#SBATCH") < 0)
			exit(cli_opt_err_exit());
	}
	xstrarray_free(secs);
	if (cli_opt_parse_wrapper(&o[0], script, len) < 0)
		exit(cli_opt_err_exit());
	for (size_t k = 0; k < n; k++) {
		if (cli_opt_validate(&o[k]) < 0)
			exit(1);
		if (n > 1 && o[k].desc.array_inx) {
			error("Job arrays are not supported with heterogeneous "
			      "jobs");
			exit(1);
		}
		cli_filter_pre_submit(&o[k]);
	}
	if (n > 1 && o[0].test_only) {
		error("--test-only is not supported with heterogeneous jobs");
		exit(1);
	}
	cli_init("sbatch", o[0].verbose - o[0].quiet);
	cli_spank_post_opt(&o[0]);
	o[0].desc.script = script;
	for (size_t k = 0; k < n; k++) {
		if (k && !o[k].desc.name && o[k - 1].desc.name)  /* -J */
			o[k].desc.name = xstrdup(o[k - 1].desc.name);
		fill_desc(&o[k], path, argc, argv, first);
		if (k)
			cli_opt_het_propagate(&o[k].desc, &o[k - 1].desc);
	}
	o[0].desc.environment = spank_stack_job_env(o[0].spank,
						    o[0].desc.environment);
	cluster = o[0].clusters ? pick_cluster(&o[0]) : NULL;
	if (o[0].test_only)
		cli_alloc_test_only(&o[0], NULL);
	job_id = n > 1 ? submit_het(o, n) : submit(&o[0]);
	if (o[0].parsable && cluster)
		printf("%u;%s\n", job_id, cluster);
	else if (o[0].parsable)
		printf("%u\n", job_id);
	else if (!o[0].quiet && cluster)
		printf("Submitted batch job %u on cluster %s\n", job_id, cluster);
	else if (!o[0].quiet)
		printf("Submitted batch job %u\n", job_id);
	fflush(stdout);
	cli_filter_post_submit(&o[0], job_id, NO_VAL32);
	cli_spank_finish(&o[0]);
	if (o[0].wait)
		rc = wait_job(job_id);
	xfree(cluster);
	for (size_t k = 0; k < n; k++) {
		if (k)
			o[k].desc.script = NULL;
		cli_opt_free(&o[k]);
	}
	xfree(o);
	return rc;
}
