/* fields.c — pack, unpack, free and copy a struct by walking its field
 * table (see fields.h).  Fields go on the wire in table order, each with
 * pack.h's encoding for its type.
 */
#include "common/fields.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "common/bitmap.h"
#include "common/proto_version.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

typedef char *str_t;
typedef char **strv_t;
typedef bitmap_t *bitmap_ptr_t;

#define AT(rec, f, type) ((type *)((char *)(rec) + (f)->offset))
#define CAT(rec, f, type) ((const type *)((const char *)(rec) + (f)->offset))

bool fields_on_wire(const field_desc_t *f, uint16_t v)
{
	if (!(f->since | f->until))
		return true;
	if (!v)
		v = PROTO_OWN;
	return (!f->since || v >= f->since) && (!f->until || v < f->until);
}

/* What a field not on the peer's wire holds: its row's default. */
static void field_default(const field_desc_t *f, void *rec)
{
	switch (f->type) {
	case FT_U8:
		*AT(rec, f, uint8_t) = (uint8_t)f->dflt;
		break;
	case FT_U16:
		*AT(rec, f, uint16_t) = (uint16_t)f->dflt;
		break;
	case FT_U32:
		*AT(rec, f, uint32_t) = (uint32_t)f->dflt;
		break;
	case FT_U64:
		*AT(rec, f, uint64_t) = (uint64_t)f->dflt;
		break;
	case FT_BOOL:
		*AT(rec, f, bool) = f->dflt != 0;
		break;
	case FT_DOUBLE:
		*AT(rec, f, double) = (double)f->dflt;
		break;
	case FT_TIME:
		*AT(rec, f, time_t) = (time_t)f->dflt;
		break;
	default:
		break;
	}
}

static void field_pack(buf_t *b, const field_desc_t *f, const void *rec)
{
	if ((f->since | f->until) && !fields_on_wire(f, buf_proto(b)))
		return;
	switch (f->type) {
	case FT_U8:
		pack8(b, *CAT(rec, f, uint8_t));
		break;
	case FT_U16:
		pack16(b, *CAT(rec, f, uint16_t));
		break;
	case FT_U32:
		pack32(b, *CAT(rec, f, uint32_t));
		break;
	case FT_U64:
		pack64(b, *CAT(rec, f, uint64_t));
		break;
	case FT_BOOL:
		packbool(b, *CAT(rec, f, bool));
		break;
	case FT_DOUBLE:
		packdouble(b, *CAT(rec, f, double));
		break;
	case FT_TIME:
		pack_time(b, *CAT(rec, f, time_t));
		break;
	case FT_STR:
		packstr(b, *CAT(rec, f, str_t));
		break;
	case FT_STRLIST:
		packstr_list(b, *CAT(rec, f, strv_t));
		break;
	case FT_BITMAP:
		pack_bitmap(b, *CAT(rec, f, bitmap_ptr_t));
		break;
	}
}

static int field_unpack(buf_t *b, const field_desc_t *f, void *rec)
{
	uint32_t n;

	if ((f->since | f->until) && !fields_on_wire(f, buf_proto(b))) {
		field_default(f, rec);
		return 0;
	}
	switch (f->type) {
	case FT_U8:
		return unpack8(b, AT(rec, f, uint8_t));
	case FT_U16:
		return unpack16(b, AT(rec, f, uint16_t));
	case FT_U32:
		return unpack32(b, AT(rec, f, uint32_t));
	case FT_U64:
		return unpack64(b, AT(rec, f, uint64_t));
	case FT_BOOL:
		return unpackbool(b, AT(rec, f, bool));
	case FT_DOUBLE:
		return unpackdouble(b, AT(rec, f, double));
	case FT_TIME:
		return unpack_time(b, AT(rec, f, time_t));
	case FT_STR:
		return unpackstr(b, AT(rec, f, str_t));
	case FT_STRLIST:
		return unpackstr_array(b, AT(rec, f, strv_t), &n,
				       PACK_MAX_ARRAY_LEN);
	case FT_BITMAP:
		return unpack_bitmap(b, AT(rec, f, bitmap_ptr_t));
	}
	return -1;
}

/* Free one field's owned memory and reset it. */
static void field_free(const field_desc_t *f, void *rec)
{
	switch (f->type) {
	case FT_STR:
		xfree(*AT(rec, f, str_t));
		break;
	case FT_STRLIST: {
		char **a = *AT(rec, f, strv_t);

		for (size_t i = 0; a && a[i]; i++)
			xfree(a[i]);
		xfree(*AT(rec, f, strv_t));
		break;
	}
	case FT_BITMAP:
		if (*AT(rec, f, bitmap_ptr_t))
			bitmap_destroy(*AT(rec, f, bitmap_ptr_t));
		*AT(rec, f, bitmap_ptr_t) = NULL;
		break;
	default:
		break;
	}
}

static size_t field_scalar_size(field_type_t t)
{
	switch (t) {
	case FT_U8:
		return sizeof(uint8_t);
	case FT_U16:
		return sizeof(uint16_t);
	case FT_U32:
		return sizeof(uint32_t);
	case FT_U64:
		return sizeof(uint64_t);
	case FT_BOOL:
		return sizeof(bool);
	case FT_DOUBLE:
		return sizeof(double);
	case FT_TIME:
		return sizeof(time_t);
	default:
		return 0;
	}
}

static char **strlist_dup(char *const *a)
{
	size_t n = 0;
	char **d;

	if (!a)
		return NULL;
	while (a[n])
		n++;
	d = xcalloc(n + 1, sizeof(*d));
	for (size_t i = 0; i < n; i++)
		d[i] = xstrdup(a[i]);
	return d;
}

static void field_copy(const field_desc_t *f, void *dst, const void *src)
{
	const bitmap_t *bm;
	size_t sz = field_scalar_size(f->type);

	if (sz) {
		memcpy((char *)dst + f->offset, (const char *)src + f->offset, sz);
		return;
	}
	switch (f->type) {
	case FT_STR:
		*AT(dst, f, str_t) = xstrdup(*CAT(src, f, str_t));
		break;
	case FT_STRLIST:
		*AT(dst, f, strv_t) = strlist_dup(*CAT(src, f, strv_t));
		break;
	case FT_BITMAP:
		bm = *CAT(src, f, bitmap_ptr_t);
		*AT(dst, f, bitmap_ptr_t) = bm ? bitmap_copy(bm) : NULL;
		break;
	default:
		break;
	}
}

bool fields_sel_is_all(const fields_sel_t *s)
{
	if (!s)
		return true;
	for (int i = 0; i < FIELDS_SEL_WORDS; i++)
		if (s->w[i])
			return false;
	return true;
}

static bool sel_has(const fields_sel_t *s, size_t i)
{
	return i < FIELDS_SEL_MAX && (s->w[i / 64] >> (i % 64) & 1);
}

int fields_sel_add(fields_sel_t *s, const field_desc_t *f, const char *name)
{
	for (size_t i = 0; f[i].name && i < FIELDS_SEL_MAX; i++) {
		if (!strcmp(f[i].name, name)) {
			s->w[i / 64] |= (uint64_t)1 << (i % 64);
			return 0;
		}
	}
	return -1;
}

int fields_sel_add_list(fields_sel_t *s, const field_desc_t *f,
			const char *names)
{
	char buf[64];
	int rc = 0;

	while (names && *names) {
		size_t n = strcspn(names, ",");

		if (n && n < sizeof(buf)) {
			memcpy(buf, names, n);
			buf[n] = '\0';
			if (fields_sel_add(s, f, buf) < 0)
				rc = -1;
		} else if (n) {
			rc = -1;
		}
		names += n + (names[n] == ',');
	}
	return rc;
}

void fields_sel_pack(buf_t *b, const fields_sel_t *s)
{
	for (int i = 0; i < FIELDS_SEL_WORDS; i++)
		pack64(b, s ? s->w[i] : 0);
}

int fields_sel_unpack(buf_t *b, fields_sel_t *s)
{
	for (int i = 0; i < FIELDS_SEL_WORDS; i++)
		if (unpack64(b, &s->w[i]) < 0)
			return -1;
	return 0;
}

void fields_pack_sel(buf_t *b, const field_desc_t *f, const void *rec,
		     const fields_sel_t *s)
{
	if (fields_sel_is_all(s)) {
		for (; f->name; f++)
			field_pack(b, f, rec);
		return;
	}
	for (size_t i = 0; f[i].name; i++)
		if (sel_has(s, i))
			field_pack(b, &f[i], rec);
}

void fields_plan_init(fields_plan_t *p, const field_desc_t *f,
		      const fields_sel_t *s)
{
	bool all = fields_sel_is_all(s);
	size_t i;

	memset(p, 0, sizeof(*p));
	p->f = f;
	if (s)
		p->sel = *s;
	for (i = 0; f[i].name; i++) {
		if (i >= FIELDS_SEL_MAX) {
			p->long_table = true;
			return;
		}
		if (!all && !sel_has(s, i))
			continue;
		p->idx[p->n++] = (uint16_t)i;
		if (f[i].type == FT_STR)
			p->str[p->nstr++] = (uint16_t)i;
	}
}

void fields_plan_pack(buf_t *b, const fields_plan_t *p, const void *rec)
{
	if (p->long_table) {
		fields_pack_sel(b, p->f, rec, &p->sel);
		return;
	}
	for (uint16_t k = 0; k < p->n; k++)
		field_pack(b, &p->f[p->idx[k]], rec);
}

void fields_plan_prefetch(const fields_plan_t *p, const void *rec)
{
	for (uint16_t k = 0; k < p->n; k++)
		__builtin_prefetch(CAT(rec, &p->f[p->idx[k]], char));
}

void fields_plan_prefetch_strs(const fields_plan_t *p, const void *rec)
{
	for (uint16_t k = 0; k < p->nstr; k++) {
		const char *s = *CAT(rec, &p->f[p->str[k]], str_t);

		if (s)
			__builtin_prefetch(s);
	}
}

void fields_pack(buf_t *b, const field_desc_t *f, const void *rec)
{
	fields_pack_sel(b, f, rec, NULL);
}

/* By reference: a string field points into the buffer's bytes. */
static int field_unpack_ref(buf_t *b, const field_desc_t *f, void *rec)
{
	if (f->type == FT_STR && (f->since | f->until) &&
	    !fields_on_wire(f, buf_proto(b)))
		return 0;               /* stays NULL: its default */
	if (f->type == FT_STR)
		return unpackstr_ref(b, AT(rec, f, str_t));
	return field_unpack(b, f, rec);
}

static void field_free_ref(const field_desc_t *f, void *rec)
{
	if (f->type == FT_STR)
		*AT(rec, f, str_t) = NULL;
	else
		field_free(f, rec);
}

static int unpack_sel(buf_t *b, const field_desc_t *f, void *rec,
		      const fields_sel_t *s, bool ref)
{
	size_t start = buf_offset(b);
	bool all = fields_sel_is_all(s);
	size_t i;

	for (i = 0; f[i].name; i++) {
		if (!all && !sel_has(s, i))
			continue;
		if ((ref ? field_unpack_ref(b, &f[i], rec) :
		     field_unpack(b, &f[i], rec)) < 0)
			goto fail;
	}
	return 0;
fail:
	/* Only the fields this call set: the rest may hold foreign data. */
	for (size_t j = 0; j < i; j++) {
		if (!all && !sel_has(s, j))
			continue;
		if (ref)
			field_free_ref(&f[j], rec);
		else
			field_free(&f[j], rec);
	}
	buf_set_offset(b, start);
	return -1;
}

int fields_unpack_sel(buf_t *b, const field_desc_t *f, void *rec,
		      const fields_sel_t *s)
{
	return unpack_sel(b, f, rec, s, false);
}

int fields_unpack_sel_ref(buf_t *b, const field_desc_t *f, void *rec,
			  const fields_sel_t *s)
{
	return unpack_sel(b, f, rec, s, true);
}

bool fields_sel_ref_owns(const field_desc_t *f, const fields_sel_t *s)
{
	bool all = fields_sel_is_all(s);

	for (size_t i = 0; f[i].name; i++)
		if ((all || sel_has(s, i)) &&
		    (f[i].type == FT_STRLIST || f[i].type == FT_BITMAP))
			return true;
	return false;
}

void fields_free_sel_ref(const field_desc_t *f, void *rec,
			 const fields_sel_t *s)
{
	bool all = fields_sel_is_all(s);

	for (size_t i = 0; rec && f[i].name; i++)
		if (all || sel_has(s, i))
			field_free_ref(&f[i], rec);
}

int fields_unpack(buf_t *b, const field_desc_t *f, void *rec)
{
	return fields_unpack_sel(b, f, rec, NULL);
}

void fields_free_sel(const field_desc_t *f, void *rec, const fields_sel_t *s)
{
	if (!rec)
		return;
	if (fields_sel_is_all(s)) {
		fields_free(f, rec);
		return;
	}
	for (size_t i = 0; f[i].name; i++)
		if (sel_has(s, i))
			field_free(&f[i], rec);
}

void fields_free(const field_desc_t *f, void *rec)
{
	if (!rec)
		return;
	for (; f->name; f++)
		field_free(f, rec);
}

void fields_copy(const field_desc_t *f, void *dst, const void *src)
{
	for (; f->name; f++)
		field_copy(f, dst, src);
}

/* Tagged records (tagrec.h) name each field: every one is written. */
void fields_pack_one(buf_t *b, const field_desc_t *f, const void *rec)
{
	field_desc_t any = *f;

	any.since = any.until = 0;
	field_pack(b, &any, rec);
}

int fields_unpack_one(buf_t *b, const field_desc_t *f, void *rec)
{
	size_t sz = fields_size(f->type);
	field_desc_t any = *f;

	any.since = any.until = 0;
	field_free(f, rec);
	if (field_unpack(b, &any, rec) == 0)
		return 0;
	field_free(f, rec);
	memset((char *)rec + f->offset, 0, sz);
	return -1;
}

void fields_free_one(const field_desc_t *f, void *rec)
{
	field_free(f, rec);
}

size_t fields_size(field_type_t t)
{
	switch (t) {
	case FT_STR:
		return sizeof(char *);
	case FT_STRLIST:
		return sizeof(char **);
	case FT_BITMAP:
		return sizeof(bitmap_t *);
	default:
		return field_scalar_size(t);
	}
}
