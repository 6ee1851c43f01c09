/* stepd.c — slurmstepd for a batch job: start-up, loop, clean-up.
 *
 * Started by slurmd (launch.h) in its own session as
 *     slurmstepd -f <slurm.conf> -N <node name> [-s|-x] [-v...]
 * with the launch message on stdin and the verdict pipe on stdout, or
 * forked, set up the same way, by slurmstepd -F (fork_server.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <malloc.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/auth.h"
#include "common/conf_params.h"
#include "common/log.h"
#include "common/msg.h"
#include "common/prep.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"
#include "slurmd/common/spool.h"
#include "slurmd/stepd/oci.h"
#include "slurmd/stepd/cgroup.h"
#include "slurmd/stepd/cgroup_stepd.h"
#include "slurmd/stepd/extern_step.h"
#include "slurmd/stepd/fork_server.h"
#include "slurmd/stepd/life.h"
#include "slurmd/stepd/proctrack.h"
#include "slurmd/stepd/stepd_plugins.h"
#include "slurmd/stepd/server.h"
#include "slurmd/stepd/spank_stepd.h"
#include "slurmd/stepd/step.h"
#include "slurmd/stepd/stepd.h"
#include "slurmd/stepd/stepd_start.h"
#include "slurmd/stepd/step_energy.h"
#include "slurmd/stepd/step_profile.h"
#include "slurmd/stepd/task.h"

typedef struct {
	const char *conf_file;
	const char *node_name;
	int         verbose;
	bool        step;         /* -s: an srun step (step.h) */
	bool        ext;          /* -x: Prolog + extern step (extern_step.h) */
	bool        fork_server;  /* -F: fork a copy per step (fork_server.h) */
} opts_t;

static void parse_opts(int argc, char **argv, opts_t *o)
{
	int c;

	while ((c = getopt(argc, argv, "f:FN:svxV")) != -1) {
		switch (c) {
		case 's': o->step = true; break;
		case 'x': o->ext = true; break;
		case 'F': o->fork_server = true; break;
		/* copies: argv's strings become the process title */
		case 'f': o->conf_file = xstrdup(optarg); break;
		case 'N': o->node_name = xstrdup(optarg); break;
		case 'v': o->verbose++; break;
		case 'V': printf("slurm %s\n", SLUICE_VERSION_STRING); exit(0);
		default: exit(1);
		}
	}
	if (!o->conf_file || !o->node_name) {
		fprintf(stderr, "slurmstepd: error: started by slurmd only\n");
		exit(1);
	}
}

static void fill_identity(stepd_t *sd)
{
	const batch_launch_msg_t *j = sd->job;
	struct passwd *pw;
	struct group *gr;

	if (j->user_name && *j->user_name)
		sd->user_name = xstrdup(j->user_name);
	else if ((pw = getpwuid(j->uid)))
		sd->user_name = xstrdup(pw->pw_name);
	else
		sd->user_name = xstrdup_printf("%u", j->uid);
	if (j->group_name && *j->group_name)
		sd->group_name = xstrdup(j->group_name);
	else if ((gr = getgrgid(j->gid)))
		sd->group_name = xstrdup(gr->gr_name);
}

static int setup(stepd_t *sd, const opts_t *o)
{
	char err[1024] = "";

	sd->conf = fork_server_conf(o->conf_file, err, sizeof(err));
	if (!sd->conf) {
		fprintf(stderr, "slurmstepd: error: %s\n", err);
		return ESLURMD_SETUP_ENVIRONMENT_ERROR;
	}
	sd->conf_path = xstrdup(o->conf_file);
	sd->node_name = xstrdup(o->node_name);
	stepd_log_setup(sd->conf, sd->node_name, o->verbose);
	sd->spool_dir = conf_expand_node_path(sd->conf->slurmd_spool_dir ?
					      sd->conf->slurmd_spool_dir :
					      "/var/spool/slurmd",
					      sd->node_name);
	sd->sock_path = spool_step_socket(sd->spool_dir, sd->node_name,
					  sd->job->job_id);
	sd->job_dir = spool_job_dir(sd->spool_dir, sd->job->job_id);
	fill_identity(sd);
	auth_set_context(sd->conf->path, sd->conf->slurm_user_id, 1);
	if (auth_init(sd->conf->auth_type, sd->conf->auth_info,
		      sd->conf->plugin_dir) != 0) {
		error("JobId=%u: cannot initialize %s", sd->job->job_id,
		      sd->conf->auth_type);
		return ESLURMD_SETUP_ENVIRONMENT_ERROR;
	}
	if (stepd_plugins_init(sd->conf) < 0)
		return ESLURMD_SETUP_ENVIRONMENT_ERROR;
	stepd_cgroup_create(sd);
	sd->base = event_base_new();
	if (!sd->base || life_init(sd) < 0)
		return ESLURMD_SETUP_ENVIRONMENT_ERROR;
	if (server_start(sd) < 0)
		return ESLURMD_SETUP_ENVIRONMENT_ERROR;
	return SLURM_SUCCESS;
}

void stepd_script_info(const stepd_t *sd, const char *context,
		       script_info_t *info)
{
	const batch_launch_msg_t *j = sd->job;

	*info = (script_info_t) {
		.context = context, .job_id = j->job_id,
		.uid = j->uid, .gid = j->gid, .user_name = sd->user_name,
		.partition = j->partition, .account = j->account,
		.nodes = j->nodes, .node_name = sd->node_name,
		.cluster_name = j->cluster_name ? j->cluster_name
						: sd->conf->cluster_name,
		.conf_path = sd->conf_path,
	};
}

/* The site's Prolog, before the script; non-zero fails the launch. */
static int run_prolog(stepd_t *sd)
{
	const char *path = prep_program(sd->conf, PREP_PROLOG);
	script_info_t si;
	int status = 0;
	pid_t pid;

	uint32_t flags = 0;

	if (stepd_spank_job_script(sd, SPANK_CB_JOB_PROLOG) < 0)
		return ESLURMD_PROLOG_FAILED;
	/* PrologFlags=Alloc: it ran when the job was allocated */
	if (conf_parse_prolog_flags(sd->conf->prolog_flags, &flags, NULL,
				    0) == 0 && (flags & PROLOG_FLAG_ALLOC))
		return SLURM_SUCCESS;
	if (!path || !*path)
		return SLURM_SUCCESS;
	stepd_script_info(sd, "prolog_slurmd", &si);
	pid = script_spawn(path, &si);
	if (pid < 0)
		return ESLURMD_PROLOG_FAILED;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return ESLURMD_PROLOG_FAILED;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return SLURM_SUCCESS;
	error("JobId=%u: prolog %s failed, status 0x%x", sd->job->job_id,
	      path, status);
	return ESLURMD_PROLOG_FAILED;
}

static void cleanup(stepd_t *sd)
{
	stepd_spank_fini();
	proctrack_use_cgroup(NULL);
	cgroup_step_destroy(sd->cg);
	server_stop(sd);
	if (sd->job_dir)
		spool_remove_tree(sd->job_dir);
	if (sd->sender) {
		/* the controller must hear about the job, however long
		 * it is away */
		ctld_sender_flush(sd->sender, -1);
		ctld_sender_destroy(sd->sender);
	}
	step_profile_batch_free(sd->prof);
	sd->prof = NULL;
	step_energy_destroy(sd->energy);
	if (!stepd_frees_at_exit())
		return;           /* leave() ends the process next */
	life_fini(sd);
	if (sd->base)
		event_base_free(sd->base);
	auth_fini();
	msg_body_free(REQUEST_BATCH_JOB_LAUNCH, sd->job);
	xfree(sd->conf_path);
	xfree(sd->node_name);
	xfree(sd->spool_dir);
	xfree(sd->sock_path);
	xfree(sd->job_dir);
	xfree(sd->user_name);
	xfree(sd->group_name);
	conf_destroy(sd->conf);
}

/* The end of a stepd: without running every library's destructors (a
 * few hundred page faults in a forked copy), except in sanitizer builds
 * (stepd_frees_at_exit). */
static int leave(int rc)
{
	if (stepd_frees_at_exit())
		return rc;
	fflush(NULL);
	_exit(rc);
}

static int run_batch(const opts_t *o)
{
	stepd_t sd = { .ack_pipe = { -1, -1 }, .err_fd = -1 };
	int vfd, rc;

	sd.job = stepd_read_launch(STDIN_FILENO, REQUEST_BATCH_JOB_LAUNCH);
	vfd = stepd_take_verdict_fd();
	if (!sd.job) {
		fprintf(stderr, "slurmstepd: error: bad launch message\n");
		stepd_send_verdict(&vfd, SLURM_UNEXPECTED_MSG_ERROR);
		return 1;
	}
	stepd_set_title("%u.batch", sd.job->job_id);
	rc = setup(&sd, o);
	if (!rc)
		rc = run_prolog(&sd);
	if (!rc)
		sd.energy = step_energy_start(sd.conf, sd.base);
	if (!rc)
		rc = task_start(&sd);
	stepd_send_verdict(&vfd, rc);
	if (rc) {
		cleanup(&sd);
		return 1;
	}
	sd.sender = ctld_sender_create_direct(sd.conf);
	if (!sd.sender || life_watch_acks(&sd) < 0)
		fatal("JobId=%u: cannot start the controller sender",
		      sd.job->job_id);
	sd.prof = step_profile_batch(sd.conf, sd.node_name, sd.job,
				     sd.task_pid, sd.base, sd.sender,
				     sd.energy);
	event_base_dispatch(sd.base);
	oci_cleanup();                  /* --container's task directories */
	cleanup(&sd);
	log_fini();
	return 0;
}

int main(int argc, char **argv)
{
	static opts_t o;          /* static: its strings stay reachable */

	/* its few threads share one malloc arena: no 64 MiB heap mapped
	 * and faulted in for each */
	mallopt(M_ARENA_MAX, 1);
	stepd_title_init(argc, argv);
	parse_opts(argc, argv, &o);
	if (o.fork_server) {      /* returns in each copy, as that step */
		fork_req_t r = fork_server_run(o.conf_file);

		o.verbose = r.verbose;
		o.step = r.mode == 's';
		o.ext = r.mode == 'x';
	}
	if (o.step)
		return leave(step_main(o.conf_file, o.node_name, o.verbose));
	if (o.ext)
		return leave(extern_main(o.conf_file, o.node_name, o.verbose));
	return leave(run_batch(&o));
}
