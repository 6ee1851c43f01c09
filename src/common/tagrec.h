/* tagrec.h — self-describing records for the controller's state files.
 *
 * A record is u32 magic, u32 body length, then the body: fields, each
 * u32 tag, u32 value length, value.  The tag is the CRC-32C of the
 * field's name (the names of a field table, fields.h); the value is the
 * pack.h encoding of the field's type.  A reader takes the fields it
 * knows by their tag, skips the others by their length, and leaves the
 * fields a record lacks as they were (zero, or a default set before), so
 * a newer program reads records written before a field was added, and a
 * record with a field the reader does not know is read all the same.  An
 * unsigned integer field whose width changed is converted when its value
 * fits; a field whose type changed otherwise is left at its default.
 *
 * The format is described in doc/dev/state-format.md.
 */
#ifndef SLUICE_TAGREC_H
#define SLUICE_TAGREC_H

#include <stddef.h>
#include <stdint.h>

#include "common/fields.h"
#include "common/pack.h"

/* A field table with its tags (computed on first use; a table is used
 * from one thread, or first from one thread). */
typedef struct {
	const field_desc_t *fields;
	uint32_t           *tags;
	size_t              cnt;
	size_t              hint;     /* next index expected when reading */
} tagrec_table_t;

#define TAGREC_TABLE(f) { (f), NULL, 0, 0 }

typedef struct {
	uint32_t       tag;
	uint32_t       len;
	const uint8_t *data;
} tagrec_field_t;

uint32_t tagrec_tag(const char *name);
/* Tags of t (for tests: every tag must differ). */
const uint32_t *tagrec_tags(tagrec_table_t *t, size_t *cnt);

/* ---- writing ---- */

/* Start a record; returns where its length goes (for tagrec_end). */
size_t tagrec_begin(buf_t *b, uint32_t magic);
void   tagrec_end(buf_t *b, size_t at);
/* A field whose value the caller packs (a list or a nested record). */
size_t tagrec_field_begin(buf_t *b, const char *name);
void   tagrec_field_end(buf_t *b, size_t at);
/* Every field of the table, tagged. */
void   tagrec_pack(buf_t *b, tagrec_table_t *t, const void *rec);
/* The fields of rec that differ from deflt (a record as a reader starts
 * it: scalars compared bytewise, pointers written unless both NULL).  A
 * reader must start from the same defaults, and a default can then never
 * change for records already written. */
void   tagrec_pack_diff(buf_t *b, tagrec_table_t *t, const void *rec,
			const void *deflt);

/* ---- reading ---- */

/* The record at b's cursor: 0 with *body (a view into b: buf_destroy it)
 * and b past the record, or -1 (wrong magic, truncated) with b's cursor
 * unchanged. */
int    tagrec_open(buf_t *b, uint32_t magic, buf_t **body);
/* The next field of a body: 1, 0 at its end, -1 if malformed. */
int    tagrec_next(buf_t *body, tagrec_field_t *f);
/* Store f into rec if the table has its tag: 1 stored, 0 not in the
 * table, -1 in the table but the value does not decode as its type or
 * does not fit (the field is left as it was). */
int    tagrec_take(tagrec_table_t *t, void *rec, const tagrec_field_t *f);
/* A whole record of one table; fields the table lacks go to other (if
 * set; it returns 0, or -1 to fail the record), else are skipped.  0 or
 * -1 (malformed; rec may hold some fields: the caller frees them). */
int    tagrec_unpack(buf_t *b, uint32_t magic, tagrec_table_t *t, void *rec,
		     int (*other)(void *arg, const tagrec_field_t *f),
		     void *arg);

/* A record of an older positional format: the values of the fields of
 * frozen (names and types as they were written; offsets unused) one
 * after the other.  Each is stored in the field of t with the same name
 * (converted as above), or dropped if t has none.  0 or -1 (truncated). */
int    tagrec_unpack_positional(buf_t *b, const field_desc_t *frozen,
				tagrec_table_t *t, void *rec);

#endif
