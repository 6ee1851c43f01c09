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
 * allocation in place and exits.  "salloc A : B cmd": one heterogeneous
 * allocation of every component or none; the command sees
 * SLURM_HET_SIZE and each component's variables as *_HET_GROUP_<n>.
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

enum { O_NO_SHELL = 0x80, O_BELL, O_NO_BELL };

static const struct option salloc_long[] = {
	{ "no-shell", no_argument, NULL, O_NO_SHELL },
	{ "kill-command", optional_argument, NULL, 'K' },
	{ "bell", no_argument, NULL, O_BELL },
	{ "no-bell", no_argument, NULL, O_NO_BELL },
	{ NULL, 0, NULL, 0 },
};

/* salloc rings the terminal's bell when the allocation is granted after
 * this long a wait (--bell: always; --no-bell: never), stdout a tty. */
#define BELL_AFTER_WAIT 10

static bool no_shell;
static int kill_signal;                 /* -K: the command's signal */
static enum { BELL_AFTER, BELL_ALWAYS, BELL_NEVER } bell = BELL_AFTER;

static int _extra(cli_job_opts_t *o, int val, const char *arg)
{
	(void) o;
	switch (val) {
	case O_NO_SHELL:
		no_shell = true;
		break;
	case 'K':
		/* no signal named: HUP for a terminal session, else TERM */
		kill_signal = !arg ? (isatty(STDIN_FILENO) ? SIGHUP : SIGTERM) :
			      cli_opt_signal_from_string(arg);
		if (kill_signal <= 0 || kill_signal >= NSIG) {
			error("Invalid --kill-command specification");
			return -1;
		}
		break;
	case O_BELL:
		bell = BELL_ALWAYS;
		break;
	case O_NO_BELL:
		bell = BELL_NEVER;
		break;
	}
	return 0;
}

/* salloc's own input variables (salloc(1)); options given on the
 * command line, parsed later, override them. */
static void _salloc_env(void)
{
	const char *v;

	if ((v = getenv("SALLOC_KILL_CMD")) &&
	    _extra(NULL, 'K', *v ? v : NULL) < 0)
		exit(1);
	if (getenv("SALLOC_BELL"))
		bell = BELL_ALWAYS;
}

static void _ring_bell(time_t waited)
{
	if (bell == BELL_NEVER || !isatty(STDOUT_FILENO) ||
	    (bell == BELL_AFTER && waited <= BELL_AFTER_WAIT))
		return;
	fputc('\a', stdout);
	fflush(stdout);
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

/* One more component (a ':' on the command line), set up as the first
 * was. */
static void _het_add(cli_job_opts_t **oa, size_t *n)
{
	cli_job_opts_t *c;

	*oa = xrealloc(*oa, (*n + 1) * sizeof(**oa));
	c = &(*oa)[(*n)++];
	cli_opt_init(c, CLI_CMD_SALLOC, "salloc");
	c->extra_long = salloc_long;
	c->extra_short = "K::";
	c->extra_cb = _extra;
	cli_filter_setup_defaults(c);
}

/* Each further component's options, environment and checks. */
static void _het_parse(cli_job_opts_t **oa, size_t *n, int argc,
		       char **argv, int *first)
{
	int f;

	while (*first < argc && !strcmp(argv[*first], ":")) {
		_het_add(oa, n);
		if (cli_opt_parse_argv(&(*oa)[*n - 1], argc - *first,
				       argv + *first, &f) < 0)
			exit(cli_opt_err_exit());
		*first += f;
	}
	for (size_t k = 1; k < *n; k++) {
		cli_job_opts_t *c = &(*oa)[k];

		if (cli_opt_parse_env(c, environ) < 0)
			exit(cli_opt_err_exit());
		if (cli_opt_validate(c) < 0)
			exit(1);
		if (c->test_only || (*oa)[0].test_only) {
			error("--test-only is not supported with "
			      "heterogeneous jobs");
			exit(1);
		}
		cli_filter_pre_submit(c);
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
	salloc_msg_command(pid, kill_signal);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	return status;
}

int main(int argc, char **argv)
{
	cli_job_opts_t *oa = NULL;
	job_info_t ji;
	cli_x11_t x11 = { 0 };
	uint32_t job_id;
	time_t asked;
	int first = argc, status, rc;
	size_t n = 0;
	cli_job_opts_t *o;

	environ = xstrarray_dup(environ);    /* ours to change */
	cli_init_noconf("salloc", 0);
	_salloc_env();
	_het_add(&oa, &n);
	oa[0].spank = cli_spank_start(S_CTX_ALLOCATOR);
	if (cli_opt_parse_argv(&oa[0], argc, argv, &first) < 0)
		exit(cli_opt_err_exit());
	_early_exits(&oa[0]);
	_het_parse(&oa, &n, argc, argv, &first);
	o = &oa[0];             /* the leader's: oa moves no more */

	if (cli_opt_parse_env(o, environ) < 0)
		exit(cli_opt_err_exit());
	if (cli_spank_env_options(o, environ) < 0 || cli_opt_validate(o) < 0)
		exit(1);
	cli_filter_pre_submit(o);
	cli_init("salloc", o->verbose - o->quiet);
	if (cli_opt_check_clusters(o, cli_conf()->cluster_name) < 0)
		exit(1);
	cli_spank_post_opt(o);
	/* the plugins' options and job control variables go with the job
	 * (its Prolog sees them) and to the command, whose sruns pass the
	 * options on to their steps */
	o->desc.environment = spank_stack_job_env(o->spank, o->desc.environment);
	/* InactiveLimit applies while salloc waits on its command; as in
	 * Slurm, an allocation --no-shell leaves behind is exempt */
	if (!no_shell)
		cli_heartbeat_mark(&o->desc);
	/* --x11: the DISPLAY and cookie are checked now; the command's
	 * sruns relay (cli_x11.h) */
	if (o->x11 && cli_x11_check(&x11, "salloc", o->x11) < 0)
		exit(1);
	/* scontrol notify reaches us here (salloc_msg.h) */
	if (!no_shell)
		o->desc.alloc_resp_port = salloc_msg_start();
	for (size_t k = 1; k < n; k++) {
		if (!oa[k].desc.name && oa[k - 1].desc.name)
			oa[k].desc.name = xstrdup(oa[k - 1].desc.name);
		cli_opt_het_propagate(&oa[k].desc, &oa[k - 1].desc);
	}
	rc = cli_alloc_request(oa, n, first < argc ? argv[first] :
			       no_shell ? "no-shell" : "interactive", true,
			       &job_id);
	if (rc < 0)
		exit(1);
	asked = time(NULL);
	if (cli_alloc_held(o, job_id, true) < 0 ||
	    cli_alloc_wait(job_id, o->quiet, o->immediate, true, &ji) < 0)
		exit(1);
	cli_filter_post_submit(o, job_id, NO_VAL32);
	_ring_bell(time(NULL) - asked);
	if (!o->quiet)
		info("Granted job allocation %u", job_id);
	if (cli_alloc_wait_prolog(job_id, o->quiet, &ji) < 0) {
		job_info_free_members(&ji);
		exit(1);
	}
	if (no_shell) {
		job_info_free_members(&ji);
		cli_spank_finish(o);
		return 0;
	}
	cli_alloc_env(&environ, &ji, o);
	if (n > 1 && cli_alloc_env_het(&environ, job_id, oa, n) < 0)
		error("Unable to read heterogeneous job %u's components",
		      job_id);
	environ = spank_stack_job_env(o->spank, environ);
	if (x11.flags)
		environ = cli_env_set(environ, CLI_X11_ENV,
				      x11_flags_name(x11.flags));
	job_info_free_members(&ji);
	status = _run(argv + first);
	if (salloc_msg_release()) {     /* not if the controller ended it */
		if (!o->quiet)
			info("Relinquishing job allocation %u", job_id);
		cli_alloc_release(job_id, (uint32_t) status);
	}
	cli_spank_finish(o);
	cli_x11_free(&x11);
	for (size_t k = 0; k < n; k++)
		cli_opt_free(&oa[k]);
	xfree(oa);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
