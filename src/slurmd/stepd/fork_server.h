/* fork_server.h — slurmstepd -F: a started, linked slurmstepd that forks
 * a copy of itself for each step slurmd launches, so a step does not pay
 * for exec, dynamic linking and loading the auth plugin every time.
 *
 * slurmd starts it once (on the first launch) with one end of a
 * SOCK_SEQPACKET socketpair on its stdin.  Each request is one packet
 * (fork_req_t) carrying two descriptors (SCM_RIGHTS): the launch pipe's
 * read end and the verdict pipe's write end, which become the copy's
 * stdin and stdout, as posix_spawn would have set them.  The server
 * answers each request with the copy's pid (int32; -1 for a malformed
 * request or a failed fork) and exits when slurmd closes its end.
 * Copies are not its concern afterwards: SIGCHLD is ignored, the kernel
 * reaps them.
 */
#ifndef SLUICE_STEPD_FORK_SERVER_H
#define SLUICE_STEPD_FORK_SERVER_H

#include <stddef.h>
#include <stdint.h>

#include "common/conf.h"

#define FORK_REQ_MAGIC 0x534c4653u   /* "SLFS" */

typedef struct {
	uint32_t magic;
	char     mode;      /* 'b' batch job, 's' srun step, 'x' extern */
	uint8_t  verbose;   /* slurmd's -v count */
} fork_req_t;

/* Serve requests on fd 0 until slurmd goes away (then exit(0)).  In
 * each copy it returns: the copy's request, with its stdin/stdout set
 * up, in a session of its own, signals as a fresh process has them. */
fork_req_t fork_server_run(const char *conf_file);

/* A step's slurm.conf, which the caller owns: in a copy, the server's
 * (read from the same -f file, unchanged when the copy was forked);
 * otherwise (an exec'd slurmstepd, or a server that could not read it)
 * conf_load(conf_file, err, errlen). */
slurm_conf_t *fork_server_conf(const char *conf_file, char *err,
			       size_t errlen);

#endif
