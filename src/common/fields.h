/* fields.h — a struct described once as a table of fields.
 *
 * pack, unpack, free and copy of records (job_info_t, node_info_t, ...)
 * walk the table, so each record is written down in one place.  A table
 * ends with an entry whose name is NULL.
 */
#ifndef SLUICE_FIELDS_H
#define SLUICE_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/pack.h"
#include "common/proto_version.h"

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

/* Protocol versions (proto_version.h): a row names the version that
 * added the field to the wire (since; 0: the base, 25.05) and the one that
 * took it off (until; 0: still there).  Packing at a version (buf_proto)
 * writes only the fields on the wire at it; unpacking sets the others to
 * dflt (integers, time, bool, double; strings, lists and bitmaps stay
 * NULL).  A row added after the base goes at the end of its table, after
 * every older row, and a removed row stays (with until): a field's index
 * is what fields_sel_t names on the wire, so indices never move. */
typedef struct {
	const char  *name;
	field_type_t type;
	size_t       offset;
	uint16_t     since;
	uint16_t     until;
	int64_t      dflt;
} field_desc_t;

#define FIELD(st, member, t) { #member, t, offsetof(st, member) }
/* Added by protocol version v; d for a peer older than v. */
#define FIELD_SINCE(st, member, t, v, d) \
	{ #member, t, offsetof(st, member), v, 0, d }
/* On the wire from since (0: the base) until (not included). */
#define FIELD_RANGE(st, member, t, since, until, d) \
	{ #member, t, offsetof(st, member), since, until, d }
#define FIELD_END { NULL, 0, 0 }

/* Whether f is on the wire at protocol version v (0: this build's). */
bool fields_on_wire(const field_desc_t *f, uint16_t v);

void fields_pack(buf_t *b, const field_desc_t *f, const void *rec);
/* rec must be zeroed (or hold no owned pointers); on failure whatever was
 * unpacked is freed and -1 returned. */
int  fields_unpack(buf_t *b, const field_desc_t *f, void *rec);
void fields_free(const field_desc_t *f, void *rec);
/* Deep copy src into zeroed dst. */
void fields_copy(const field_desc_t *f, void *dst, const void *src);

/* A choice of a table's fields: bit i of w[i / 64] picks the table's i-th
 * field.  No bit set means every field (what a request that names none
 * gets).  Tables of up to FIELDS_SEL_MAX fields. */
#define FIELDS_SEL_WORDS 2
#define FIELDS_SEL_MAX (64 * FIELDS_SEL_WORDS)
typedef struct {
	uint64_t w[FIELDS_SEL_WORDS];
} fields_sel_t;

bool fields_sel_is_all(const fields_sel_t *s);
/* Add the field called name (a member name of the table); -1 if the
 * table has none. */
int  fields_sel_add(fields_sel_t *s, const field_desc_t *f, const char *name);
/* Add each name of a comma-separated list; -1 if one is unknown. */
int  fields_sel_add_list(fields_sel_t *s, const field_desc_t *f,
			 const char *names);
void fields_sel_pack(buf_t *b, const fields_sel_t *s);
int  fields_sel_unpack(buf_t *b, fields_sel_t *s);
/* As fields_pack/fields_unpack for the chosen fields only (s NULL: all).
 * Unpacking leaves the others as they were (zeroed, for a new record). */
void fields_pack_sel(buf_t *b, const field_desc_t *f, const void *rec,
		     const fields_sel_t *s);
int  fields_unpack_sel(buf_t *b, const field_desc_t *f, void *rec,
		       const fields_sel_t *s);

void fields_free_sel(const field_desc_t *f, void *rec, const fields_sel_t *s);
/* fields_unpack_sel with the strings (FT_STR) by reference: they point
 * into b's bytes, which must outlive rec (unpackstr_ref).  Free such a
 * record with fields_free_sel_ref, which leaves those strings alone. */
int  fields_unpack_sel_ref(buf_t *b, const field_desc_t *f, void *rec,
			   const fields_sel_t *s);
void fields_free_sel_ref(const field_desc_t *f, void *rec,
			 const fields_sel_t *s);
/* Whether such a record owns memory (a chosen list or bitmap field): if
 * not, fields_free_sel_ref has nothing to do. */
bool fields_sel_ref_owns(const field_desc_t *f, const fields_sel_t *s);

/* The chosen fields of a table as a list, for packing many records with
 * the same choice (a queue's 50,000 jobs): no walk over the whole table
 * per record.  Those records are far bigger than the CPU's caches, so
 * packing them one after the other waits on memory at every field: the
 * prefetch calls start those loads a few records ahead (the record's
 * chosen fields, then, once those are in, the strings they point to). */
typedef struct {
	const field_desc_t *f;
	bool     long_table;             /* too long for idx[]: packed by sel */
	fields_sel_t sel;
	uint16_t n, nstr;
	uint16_t idx[FIELDS_SEL_MAX];    /* chosen fields, in table order */
	uint16_t str[FIELDS_SEL_MAX];    /* the FT_STR ones among them */
} fields_plan_t;

void fields_plan_init(fields_plan_t *p, const field_desc_t *f,
		      const fields_sel_t *s);
/* As fields_pack_sel(b, p->f, rec, s). */
void fields_plan_pack(buf_t *b, const fields_plan_t *p, const void *rec);
void fields_plan_prefetch(const fields_plan_t *p, const void *rec);
void fields_plan_prefetch_strs(const fields_plan_t *p, const void *rec);

/* One field (tagrec.h builds self-describing records from these). */
void   fields_pack_one(buf_t *b, const field_desc_t *f, const void *rec);
/* Frees what the field held first; on failure it is left zeroed. */
int    fields_unpack_one(buf_t *b, const field_desc_t *f, void *rec);
void   fields_free_one(const field_desc_t *f, void *rec);
/* Bytes a field's value occupies in the struct. */
size_t fields_size(field_type_t t);

#endif
