/* salloc — get an allocation, run a command (or the user's shell) in it,
 * release it when the command exits.
 *
 *     salloc: Pending job allocation N          (only if it has to wait)
 *     salloc: job N queued and waiting for resources
 *     salloc: job N has been allocated resources
 *     salloc: Granted job allocation N
 *     ... the command runs with SLURM_JOB_ID etc. set ...
 *     salloc: Relinquishing job allocation N
 *
 * Ctrl-C while pending cancels the request; --no-shell leaves the
 * allocation in place and exits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli_alloc.h"
#include "cli/salloc_msg.h"
#include "cli/cli_heartbeat.h"
#include "cli/cli_common.h"
#include "cli/cli_opt.h"
#include "cli/cli_filter.h"
#include "cli/cli_spank.h"
#include "cli/cli_env.h"
#include "cli/cli_x11.h"
#include "common/x11_fwd.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

extern char **environ;

enum { O_NO_SHELL = 0x80 };

static const struct option salloc_long[] = {
	{ "no-shell", no_argument, NULL, O_NO_SHELL },
	{ NULL, 0, NULL, 0 },
};

static bool no_shell;

static int _extra(cli_job_opts_t *o, int val, const char *arg)
{
	if (val == O_NO_SHELL)
		no_shell = true;
	return 0;
}

static void _early_exits(const cli_job_opts_t *o)
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

/* Run the command in the foreground; its wait status. */
static int _run(char **argv)
{
	char *shell_argv[2] = { NULL, NULL };
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
	int status = 0;
	pid_t pid;

	if (!argv[0]) {
		const char *sh = getenv("SHELL");

		shell_argv[0] = (char *) (sh && *sh ? sh : "/bin/sh");
		argv = shell_argv;
	}
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	pid = fork();
	if (pid < 0) {
		error("fork: %m");
		return 1 << 8;
	}
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		execvp(argv[0], argv);
		error("%s: %m", argv[0]);
		_exit(errno == ENOENT ? 127 : 126);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	return status;
}

int main(int argc, char **argv)
{
	cli_job_opts_t o;
	job_info_t ji;
	cli_x11_t x11 = { 0 };
	uint32_t job_id;
	int first = argc, status;

	environ = xstrarray_dup(environ);    /* ours to change */
	cli_init_noconf("salloc", 0);
	cli_opt_init(&o, CLI_CMD_SALLOC, "salloc");
	o.extra_long = salloc_long;
	o.extra_short = "";
	o.extra_cb = _extra;
	o.spank = cli_spank_start(S_CTX_ALLOCATOR);
	cli_filter_setup_defaults(&o);
	if (cli_opt_parse_argv(&o, argc, argv, &first) < 0)
		exit(1);
	_early_exits(&o);
	if (first < argc && !strcmp(argv[first], ":")) {
		error("Heterogeneous job allocations from salloc ('A : B') are "
		      "not supported; submit the job with sbatch ... : ... "
		      "(or #SBATCH hetjob) and use srun --het-group in it");
		exit(1);
	}
	if (cli_opt_parse_env(&o, environ) < 0 ||
	    cli_spank_env_options(&o, environ) < 0 || cli_opt_validate(&o) < 0)
		exit(1);
	cli_filter_pre_submit(&o);
	cli_init("salloc", o.verbose - o.quiet);
	if (cli_opt_check_clusters(&o, cli_conf()->cluster_name) < 0)
		exit(1);
	cli_spank_post_opt(&o);
	/* the plugins' options and job control variables go with the job
	 * (its Prolog sees them) and to the command, whose sruns pass the
	 * options on to their steps */
	o.desc.environment = spank_stack_job_env(o.spank, o.desc.environment);
	/* InactiveLimit applies while salloc waits on its command; as in
	 * Slurm, an allocation --no-shell leaves behind is exempt */
	if (!no_shell)
		cli_heartbeat_mark(&o.desc);
	/* --x11: the DISPLAY and cookie are checked now; the command's
	 * sruns relay (cli_x11.h) */
	if (o.x11 && cli_x11_check(&x11, "salloc", o.x11) < 0)
		exit(1);
	/* scontrol notify reaches us here (salloc_msg.h) */
	if (!no_shell)
		o.desc.alloc_resp_port = salloc_msg_start();
	if (cli_alloc_request(&o, first < argc ? argv[first] :
			      no_shell ? "no-shell" : "interactive", true,
			      &job_id) < 0)
		exit(1);
	if (cli_alloc_held(&o, job_id, true) < 0 ||
	    cli_alloc_wait(job_id, o.quiet, o.immediate, true, &ji) < 0)
		exit(1);
	cli_filter_post_submit(&o, job_id, NO_VAL32);
	if (!o.quiet)
		info("Granted job allocation %u", job_id);
	if (cli_alloc_wait_prolog(job_id, o.quiet, &ji) < 0) {
		job_info_free_members(&ji);
		exit(1);
	}
	if (no_shell) {
		job_info_free_members(&ji);
		cli_spank_finish(&o);
		cli_opt_free(&o);
		return 0;
	}
	cli_alloc_env(&environ, &ji, &o);
	environ = spank_stack_job_env(o.spank, environ);
	if (x11.flags)
		environ = cli_env_set(environ, CLI_X11_ENV,
				      x11_flags_name(x11.flags));
	job_info_free_members(&ji);
	status = _run(argv + first);
	if (!o.quiet)
		info("Relinquishing job allocation %u", job_id);
	cli_alloc_release(job_id, (uint32_t) status);
	cli_spank_finish(&o);
	cli_x11_free(&x11);
	cli_opt_free(&o);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
