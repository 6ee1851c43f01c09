/* bcast_block.h — blocks of sbcast, sgather and srun --bcast: their
 * compression (BCAST_COMPRESS_*, msg_types.h: lz4 or none, as Slurm
 * 25.05) and the checks a node makes of a block before it writes it.
 *
 * A block is compressed whole; the receiver knows its uncompressed size
 * (block_len) and refuses anything that does not decompress to exactly
 * that many bytes.
 */
#ifndef SLUICE_BCAST_BLOCK_H
#define SLUICE_BCAST_BLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "common/msg_types.h"

/* -C / --compress[=library]: NULL or "" = lz4 (Slurm's default), "lz4",
 * "none".  0, or -1 for anything else. */
int  bcast_compress_parse(const char *arg, uint16_t *how);
const char *bcast_compress_name(uint16_t how);

/* BcastParameters (slurm.conf): DestDir=, Compression=, send_libs. */
typedef struct {
	char     *dest_dir;       /* NULL: the working directory */
	int       compress;       /* BCAST_COMPRESS_*, -1: not given */
	int       send_libs;      /* 1, or 0: not given */
} bcast_params_t;
/* 0, or -1 with err filled (an unknown word or compression); p is
 * filled either way with what was understood.  bcast_params_free()
 * frees dest_dir. */
int  bcast_params_parse(const char *val, bcast_params_t *p, char *err,
			size_t errlen);
void bcast_params_free(bcast_params_t *p);

/* Compress len bytes of in with how: 0 and *out (xmalloc'd), *out_len;
 * -1 when it does not get smaller (send it as it is). */
int  bcast_compress(uint16_t how, const void *in, uint32_t len, char **out,
		    uint32_t *out_len);

/* Decompress in_len bytes into out, which must come out exactly out_len
 * bytes long: 0, or -1 (bad data, unknown how). */
int  bcast_decompress(uint16_t how, const void *in, uint32_t in_len,
		      void *out, uint32_t out_len);

/* A block as received (REQUEST_FILE_BCAST): fname absolute and not
 * empty, lengths within BCAST_BLOCK_MAX and consistent with the file's
 * size and the compression.  0, or -1 with why filled. */
int  bcast_block_check(const file_bcast_msg_t *m, char *why, size_t len);
/* The same for an sgather request (REQUEST_FILE_GATHER). */
int  bcast_gather_check(const file_gather_msg_t *m, char *why, size_t len);

/* The index of node in the block's signature list, or -1. */
int  bcast_block_sig(const file_bcast_msg_t *m, const char *node);

#endif
