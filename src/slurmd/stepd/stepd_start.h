/* stepd_start.h — what each slurmstepd mode (batch job, srun step, extern
 * step) does first: read the launch message slurmd writes on its stdin,
 * keep slurmd's verdict pipe (its stdout) off fds 0-2, log where slurmd
 * logs, and tell slurmd whether the launch worked.
 */
#ifndef SLUICE_STEPD_START_H
#define SLUICE_STEPD_START_H

#include <stdbool.h>
#include <stdint.h>

#include "common/conf.h"

/* A u32 big-endian length, then a body of message type `type` on fd:
 * the unpacked body, or NULL (short read, bad length, bad body). */
void *stepd_read_launch(int fd, uint16_t type);
/* The verdict pipe moved above fd 2; stdin and stdout become /dev/null. */
int   stepd_take_verdict_fd(void);
/* Write rc (0 or a slurm_err_t) to the verdict pipe once, and close it. */
void  stepd_send_verdict(int *fd, int32_t rc);
/* The command line ps shows, as Slurm's: "slurmstepd: [12.batch]"
 * (written over argv's strings, never past them; the environment that
 * follows them stays as it is).  stepd_title_init once, from main. */
void  stepd_title_init(int argc, char **argv);
void  stepd_set_title(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
/* Whether a stepd frees its memory, event base and plugins before it
 * ends: only in sanitizer builds, whose leak check runs at exit.
 * Otherwise the kernel frees them at _exit, and unloading the plugins
 * (munmap of each library) alone was a tenth of a batch stepd's CPU. */
bool  stepd_frees_at_exit(void);
/* SlurmdDebug + verbose to SlurmdLogFile (for this node), else stderr. */
void  stepd_log_setup(const slurm_conf_t *conf, const char *node_name,
		      int verbose);

#endif
