/* srun_script.c — SrunProlog/SrunEpilog (srun --prolog/--epilog): a
 * program srun runs itself, as the user, before it launches a step and
 * after the step ended (srun.h). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli_env.h"
#include "cli/srun.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

int srun_script_run(const char *path, const char *context, char *const *argv,
		    char *const *env)
{
	char **args, **e;
	pid_t pid;
	int status;

	if (!path || !*path || !strcasecmp(path, "none"))
		return 0;
	if (access(path, R_OK | X_OK) < 0) {
		/* as Slurm: a script srun cannot run is skipped, said so */
		info("Access denied for %s: %m", path);
		return 0;
	}
	/* its arguments are the step's command line */
	args = xcalloc(1, sizeof(char *));
	args = xstrarray_append(args, path);
	for (size_t i = 0; argv && argv[i]; i++)
		args = xstrarray_append(args, argv[i]);
	e = cli_env_set(xstrarray_dup((char **) env), "SLURM_SCRIPT_CONTEXT",
			context);
	pid = fork();
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execve(path, args, e);
		_exit(127);
	}
	xstrarray_free(args);
	xstrarray_free(e);
	if (pid < 0) {
		error("fork for %s: %m", path);
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}
