/* cli_bcast.h — what sbcast, sgather and srun --bcast share: the job
 * they name, its sbcast credential from the controller
 * (REQUEST_SBCAST_CRED), and sending a file to every node of it in
 * blocks along the slurmd tree (REQUEST_FILE_BCAST, forward.h).
 *
 * Errors are printed as Slurm's commands print them ("sbcast: error:
 * REQUEST_FILE_BCAST(n2): Permission denied") by the functions
 * themselves; they return -1 then.
 */
#ifndef SLUICE_CLI_BCAST_H
#define SLUICE_CLI_BCAST_H

#include <stdbool.h>
#include <stdint.h>

#include "common/msg_types.h"

#define BCAST_DEFAULT_BLOCK (8u << 20)    /* Slurm's: file size or 8 MB */
#define BCAST_MAX_FANOUT    8

typedef struct {
	uint16_t  compress;       /* BCAST_COMPRESS_* */
	bool      force;          /* -f */
	bool      preserve;       /* -p */
	uint16_t  fanout;         /* -F, 0 = BCAST_MAX_FANOUT */
	uint32_t  block_size;     /* -s, 0 = the default */
	int       timeout;        /* -t seconds, 0 = MessageTimeout */
	bool      send_libs;      /* --send-libs */
	char     *exclude;        /* --exclude: "NONE" or dirs; NULL =
				   * Slurm's default list */
} cli_bcast_opts_t;

/* "JOB[+HETOFFSET][.STEP]": 0, or -1 if malformed.  het and step get
 * NO_VAL32 when not given. */
int  cli_bcast_job_arg(const char *arg, uint32_t *job, uint32_t *het,
		       uint32_t *step);

/* The credential for the job (step NO_VAL32: every node of it); NULL
 * with "Slurm job ID lookup error: ..." printed (what names the job as
 * the user gave it). */
sbcast_cred_msg_t *cli_bcast_cred(uint32_t job, uint32_t het, uint32_t step,
				  const char *what);

/* Send the open file fd (its name src, for messages) to dest on every
 * node of cred.  dest is absolute; flags BCAST_FLAG_NODE_SUFFIX and
 * BCAST_FLAG_MKDIR pass on.  0; -1 (a local error); or the code of the
 * first node that failed (an errno value such as EACCES, or a Slurm
 * error), which Slurm's sbcast exits with. */
int  cli_bcast_send(const cli_bcast_opts_t *o, const sbcast_cred_msg_t *cred,
		    int fd, const char *src, const char *dest, uint16_t flags);

/* --send-libs: the shared objects ldd finds for src (outside the
 * excluded directories), each sent to "<libdir>/<name>", libdir
 * created on the nodes.  0, or as cli_bcast_send. */
int  cli_bcast_libs(const cli_bcast_opts_t *o, const sbcast_cred_msg_t *cred,
		    const char *src, const char *libdir, uint16_t flags);

/* "-s" sizes: bytes, or with a k / m suffix.  0 or -1. */
int  cli_bcast_size(const char *arg, uint32_t *out);

#endif
