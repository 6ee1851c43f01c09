/* fields.h — a struct described once as a table of fields.
 *
 * pack, unpack, free and copy of records (job_info_t, node_info_t, ...)
 * walk the table, so each record is written down in one place.  A table
 * ends with an entry whose name is NULL.
 */
#ifndef SLUICE_FIELDS_H
#define SLUICE_FIELDS_H

#include <stddef.h>

#include "common/pack.h"

typedef enum {
	FT_U8 = 1,
	FT_U16,
	FT_U32,
	FT_U64,
	FT_BOOL,
	FT_DOUBLE,
	FT_TIME,
	FT_STR,       /* char * */
	FT_STRLIST,   /* NULL-terminated char ** */
	FT_BITMAP,    /* bitmap_t * */
} field_type_t;

typedef struct {
	const char  *name;
	field_type_t type;
	size_t       offset;
} field_desc_t;

#define FIELD(st, member, t) { #member, t, offsetof(st, member) }
#define FIELD_END { NULL, 0, 0 }

void fields_pack(buf_t *b, const field_desc_t *f, const void *rec);
/* rec must be zeroed (or hold no owned pointers); on failure whatever was
 * unpacked is freed and -1 returned. */
int  fields_unpack(buf_t *b, const field_desc_t *f, void *rec);
void fields_free(const field_desc_t *f, void *rec);
/* Deep copy src into zeroed dst. */
void fields_copy(const field_desc_t *f, void *dst, const void *src);

/* One field (tagrec.h builds self-describing records from these). */
void   fields_pack_one(buf_t *b, const field_desc_t *f, const void *rec);
/* Frees what the field held first; on failure it is left zeroed. */
int    fields_unpack_one(buf_t *b, const field_desc_t *f, void *rec);
void   fields_free_one(const field_desc_t *f, void *rec);
/* Bytes a field's value occupies in the struct. */
size_t fields_size(field_type_t t);

#endif
