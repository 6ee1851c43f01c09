/* bcast_io.h — what slurmd's sbcast and sgather children do once they
 * are the user (bcast.h): plain system calls on the user's paths, the
 * answer written to a pipe.  Nothing here runs as root. */
#ifndef SLUICE_SLURMD_BCAST_IO_H
#define SLUICE_SLURMD_BCAST_IO_H

#include <stdint.h>
#include <sys/types.h>

#include "common/msg_types.h"

/* What a gather child writes first, then len bytes (the piece, or the
 * listed paths NUL-separated). */
typedef struct {
	int32_t  err;           /* errno, 0 = done */
	uint32_t mode;
	uint64_t size;
	int64_t  atime;
	int64_t  mtime;
	uint16_t compress;      /* of the bytes that follow */
	uint32_t block_len;     /* uncompressed */
	uint32_t len;
} bcast_io_hdr_t;

#define BCAST_LIST_MAX (4u << 20)   /* bytes of listed paths */

/* Become uid (gid, groups) for good: 0 or -1. */
int  bcast_io_become(uid_t uid, gid_t gid, const gid_t *groups, int ngroups);
/* Write block m to path: 0 or an errno value. */
int  bcast_io_write_block(const file_bcast_msg_t *m, const char *path);
/* Answer gather request m on fd (header, then bytes). */
void bcast_io_gather(int fd, const file_gather_msg_t *m);

#endif
