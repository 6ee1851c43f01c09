/* pack.h — the wire and state-file encoding.
 *
 * A buf_t is either a growable write buffer (buf_create) or a bounded read
 * cursor over bytes it owns (buf_from_copy) or borrows (buf_view).  All
 * integers are big-endian.  Strings are u32 length (including the trailing
 * NUL; 0 = NULL string) + bytes.  Every unpack checks bounds and counts and
 * returns -1 on failure, leaving *out unset/NULL; it never crashes or reads
 * past the end, and never allocates more than the remaining input could
 * justify.
 */
#ifndef SLUICE_PACK_H
#define SLUICE_PACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "common/bitmap.h"

#define PACK_MAX_STR_LEN   (64u * 1024 * 1024)   /* one string */
#define PACK_MAX_ARRAY_LEN (1u * 1024 * 1024)    /* elements of one array */
#define PACK_MAX_BITMAP_BITS (16u * 1024 * 1024)

typedef struct buf buf_t;

buf_t  *buf_create(size_t initial);
buf_t  *buf_from_copy(const void *data, size_t len);
buf_t  *buf_view(const void *data, size_t len);   /* data must outlive buf */
/* A view over len bytes at data, which lie inside *block: an xmalloc_big
 * block the caller owns, which an unpacker may take over (buf_take_block)
 * to point what it unpacks into it instead of copying. */
buf_t  *buf_view_in(const void *data, size_t len, void **block);
/* The block of a buf_view_in buffer, now the caller's (xfree_big it): the
 * creator's *block becomes NULL.  NULL when there is none (any other
 * buffer) or it was taken already. */
void   *buf_take_block(buf_t *b);
void    buf_destroy(buf_t *b);
const uint8_t *buf_data(const buf_t *b);
size_t  buf_len(const buf_t *b);        /* bytes written / total readable */
size_t  buf_offset(const buf_t *b);     /* read cursor */
size_t  buf_remaining(const buf_t *b);
void    buf_set_offset(buf_t *b, size_t off);
/* The protocol version the bytes are (to be) packed at (proto_version.h):
 * the field tables skip fields outside it (fields.h).  0, a new buffer's,
 * means this build's own version: every current field. */
void     buf_set_proto(buf_t *b, uint16_t version);
uint16_t buf_proto(const buf_t *b);
/* Take ownership of the bytes; the buffer becomes empty. */
uint8_t *buf_steal(buf_t *b, size_t *len);

void pack8(buf_t *b, uint8_t v);
void pack16(buf_t *b, uint16_t v);
void pack32(buf_t *b, uint32_t v);
/* Overwrite 4 bytes already written at off (a length filled in later). */
void pack32_at(buf_t *b, size_t off, uint32_t v);
void pack64(buf_t *b, uint64_t v);
void packbool(buf_t *b, bool v);
void packdouble(buf_t *b, double v);
void pack_time(buf_t *b, time_t t);               /* as i64 */
void packstr(buf_t *b, const char *s);           /* NULL ok */
void packmem(buf_t *b, const void *p, uint32_t len);
void packstr_array(buf_t *b, char *const *arr, uint32_t n);
/* NULL-terminated array (n computed). */
void packstr_list(buf_t *b, char *const *arr);
void pack32_array(buf_t *b, const uint32_t *arr, uint32_t n);
void pack_bitmap(buf_t *b, const bitmap_t *bm);  /* NULL ok */
void packbuf(buf_t *b, const buf_t *src);        /* raw append */
void packraw(buf_t *b, const void *p, size_t len);  /* raw bytes */

int unpack8(buf_t *b, uint8_t *v);
int unpack16(buf_t *b, uint16_t *v);
int unpack32(buf_t *b, uint32_t *v);
int unpack64(buf_t *b, uint64_t *v);
int unpackbool(buf_t *b, bool *v);
int unpackdouble(buf_t *b, double *v);
int unpack_time(buf_t *b, time_t *t);
int unpackstr(buf_t *b, char **s);               /* *s malloc'd or NULL */
/* As unpackstr, but *s points into the buffer's bytes (no copy): it lives
 * as long as they do, and is not freed on its own. */
int unpackstr_ref(buf_t *b, char **s);
/* *p malloc'd (len bytes); len checked against max. */
int unpackmem(buf_t *b, void **p, uint32_t *len, uint32_t max);
/* NULL-terminated array of n strings (n <= max). */
int unpackstr_array(buf_t *b, char ***arr, uint32_t *n, uint32_t max);
int unpack32_array(buf_t *b, uint32_t **arr, uint32_t *n, uint32_t max);
int unpack_bitmap(buf_t *b, bitmap_t **bm);      /* NULL if packed NULL */

#endif
