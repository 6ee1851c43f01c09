/* child.c — a slurmstepd child's set-up before exec (child.h). */
#include "slurmd/stepd/child.h"

#include <signal.h>
#include <stddef.h>

void child_default_signals(void)
{
	sigset_t none;

	for (int s = 1; s < NSIG; s++)
		signal(s, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}
