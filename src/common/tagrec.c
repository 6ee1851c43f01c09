/* tagrec.c — tagged state records (tagrec.h). */
#include "common/tagrec.h"

#include <stdbool.h>
#include <string.h>
#include <time.h>

#include "common/bitmap.h"
#include "common/crc32c.h"
#include "common/xmalloc.h"

uint32_t tagrec_tag(const char *name)
{
	return crc32c(0, name, strlen(name));
}

static void _tags(tagrec_table_t *t)
{
	size_t n = 0;

	if (t->tags)
		return;
	while (t->fields[n].name)
		n++;
	t->tags = xcalloc(n + 1, sizeof(uint32_t));
	for (size_t i = 0; i < n; i++)
		t->tags[i] = tagrec_tag(t->fields[i].name);
	t->cnt = n;
}

const uint32_t *tagrec_tags(tagrec_table_t *t, size_t *cnt)
{
	_tags(t);
	*cnt = t->cnt;
	return t->tags;
}

/* The field of t with this tag, or NULL.  Records are mostly written in
 * table order, so the one after the last found is tried first. */
static const field_desc_t *_find(tagrec_table_t *t, uint32_t tag)
{
	_tags(t);
	if (t->hint < t->cnt && t->tags[t->hint] == tag)
		return &t->fields[t->hint++];
	for (size_t i = 0; i < t->cnt; i++) {
		if (t->tags[i] == tag) {
			t->hint = i + 1;
			return &t->fields[i];
		}
	}
	return NULL;
}

/* ---- writing ---- */

size_t tagrec_begin(buf_t *b, uint32_t magic)
{
	size_t at;

	pack32(b, magic);
	at = buf_len(b);
	pack32(b, 0);
	return at;
}

void tagrec_end(buf_t *b, size_t at)
{
	pack32_at(b, at, (uint32_t) (buf_len(b) - at - 4));
}

size_t tagrec_field_begin(buf_t *b, const char *name)
{
	return tagrec_begin(b, tagrec_tag(name));
}

void tagrec_field_end(buf_t *b, size_t at)
{
	tagrec_end(b, at);
}

/* Does field f hold the same in a and b?  Pointers: both NULL. */
static bool _same(const field_desc_t *f, const void *a, const void *b)
{
	const char *x = (const char *) a + f->offset;
	const char *y = (const char *) b + f->offset;

	switch (f->type) {
	case FT_STR:
	case FT_STRLIST:
	case FT_BITMAP:
		return !*(void *const *) x && !*(void *const *) y;
	default:
		return !memcmp(x, y, fields_size(f->type));
	}
}

void tagrec_pack_diff(buf_t *b, tagrec_table_t *t, const void *rec,
		      const void *deflt)
{
	_tags(t);
	for (size_t i = 0; i < t->cnt; i++) {
		size_t at;

		if (deflt && _same(&t->fields[i], rec, deflt))
			continue;
		pack32(b, t->tags[i]);
		at = buf_len(b);
		pack32(b, 0);
		fields_pack_one(b, &t->fields[i], rec);
		tagrec_end(b, at);
	}
}

void tagrec_pack(buf_t *b, tagrec_table_t *t, const void *rec)
{
	tagrec_pack_diff(b, t, rec, NULL);
}

/* ---- reading ---- */

int tagrec_open(buf_t *b, uint32_t magic, buf_t **body)
{
	size_t start = buf_offset(b);
	uint32_t m, len;

	if (unpack32(b, &m) < 0 || m != magic || unpack32(b, &len) < 0 ||
	    len > buf_remaining(b)) {
		buf_set_offset(b, start);
		return -1;
	}
	*body = buf_view(buf_data(b) + buf_offset(b), len);
	buf_set_offset(b, buf_offset(b) + len);
	return 0;
}

int tagrec_next(buf_t *body, tagrec_field_t *f)
{
	size_t start = buf_offset(body);

	if (!buf_remaining(body))
		return 0;
	if (unpack32(body, &f->tag) < 0 || unpack32(body, &f->len) < 0 ||
	    f->len > buf_remaining(body)) {
		buf_set_offset(body, start);
		return -1;
	}
	f->data = buf_data(body) + buf_offset(body);
	buf_set_offset(body, buf_offset(body) + f->len);
	return 1;
}

static bool _is_uint(field_type_t t)
{
	return t == FT_U8 || t == FT_U16 || t == FT_U32 || t == FT_U64 ||
	       t == FT_BOOL;
}

static uint64_t _uint_max(field_type_t t)
{
	switch (t) {
	case FT_U8:
		return UINT8_MAX;
	case FT_U16:
		return UINT16_MAX;
	case FT_U32:
		return UINT32_MAX;
	case FT_BOOL:
		return 1;
	default:
		return UINT64_MAX;
	}
}

static int _put_uint(const field_desc_t *f, void *rec, uint64_t v)
{
	void *p = (char *)rec + f->offset;

	if (v > _uint_max(f->type))
		return -1;
	switch (f->type) {
	case FT_U8:
		*(uint8_t *)p = (uint8_t) v;
		break;
	case FT_U16:
		*(uint16_t *)p = (uint16_t) v;
		break;
	case FT_U32:
		*(uint32_t *)p = (uint32_t) v;
		break;
	case FT_U64:
		*(uint64_t *)p = v;
		break;
	case FT_BOOL:
		*(bool *)p = v != 0;
		break;
	default:
		return -1;
	}
	return 0;
}

static uint64_t _get_uint(field_type_t t, const void *p)
{
	switch (t) {
	case FT_U8:
		return *(const uint8_t *)p;
	case FT_U16:
		return *(const uint16_t *)p;
	case FT_U32:
		return *(const uint32_t *)p;
	case FT_U64:
		return *(const uint64_t *)p;
	case FT_BOOL:
		return *(const bool *)p;
	default:
		return 0;
	}
}

/* A value as it sits in a struct, for any field type. */
typedef union {
	uint64_t u64;
	double   d;
	time_t   t;
	void    *p;
	char     c[16];
} value_t;

/* Move a decoded value of type from into field f of rec (freeing what it
 * held), converting unsigned widths.  -1 (tmp freed, f unchanged) if it
 * does not fit. */
static int _store(const field_desc_t *f, void *rec, field_type_t from,
		  value_t *tmp)
{
	field_desc_t td = { f->name, from, 0 };

	if (f->type == from) {
		fields_free_one(f, rec);
		memcpy((char *)rec + f->offset, tmp, fields_size(f->type));
		return 0;
	}
	if (_is_uint(f->type) && _is_uint(from)) {
		uint64_t v = _get_uint(from, tmp);

		if (v <= _uint_max(f->type))
			return _put_uint(f, rec, v);
	}
	fields_free_one(&td, tmp);
	return -1;
}

int tagrec_take(tagrec_table_t *t, void *rec, const tagrec_field_t *in)
{
	const field_desc_t *f = _find(t, in->tag);
	field_desc_t td;
	value_t tmp;
	buf_t *v;
	int rc;

	if (!f)
		return 0;
	memset(&tmp, 0, sizeof(tmp));
	td = (field_desc_t) { f->name, f->type, 0 };
	if (_is_uint(f->type) && (in->len == 1 || in->len == 2 ||
				  in->len == 4 || in->len == 8)) {
		/* any width: as the widest, stored if it fits */
		for (uint32_t i = 0; i < in->len; i++)
			tmp.u64 = tmp.u64 << 8 | in->data[i];
		return _store(f, rec, FT_U64, &tmp) < 0 ? -1 : 1;
	}
	v = buf_view(in->data, in->len);
	rc = fields_unpack_one(v, &td, &tmp);
	if (rc == 0 && buf_remaining(v)) {
		fields_free_one(&td, &tmp);
		rc = -1;
	}
	buf_destroy(v);
	if (rc < 0)
		return -1;
	return _store(f, rec, f->type, &tmp) < 0 ? -1 : 1;
}

int tagrec_unpack(buf_t *b, uint32_t magic, tagrec_table_t *t, void *rec,
		  int (*other)(void *arg, const tagrec_field_t *f), void *arg)
{
	buf_t *body;
	tagrec_field_t f;
	int rc = -1, got;

	if (tagrec_open(b, magic, &body) < 0)
		return -1;
	t->hint = 0;
	while ((got = tagrec_next(body, &f)) > 0) {
		if (tagrec_take(t, rec, &f))
			continue;
		if (other && other(arg, &f) < 0)
			goto out;
	}
	if (got == 0)
		rc = 0;
out:
	buf_destroy(body);
	return rc;
}

int tagrec_unpack_positional(buf_t *b, const field_desc_t *frozen,
			     tagrec_table_t *t, void *rec)
{
	value_t tmp;

	for (const field_desc_t *o = frozen; o->name; o++) {
		field_desc_t td = { o->name, o->type, 0 };
		const field_desc_t *f;

		memset(&tmp, 0, sizeof(tmp));
		if (fields_unpack_one(b, &td, &tmp) < 0)
			return -1;
		f = _find(t, tagrec_tag(o->name));
		if (f)
			_store(f, rec, o->type, &tmp);
		else
			fields_free_one(&td, &tmp);
	}
	return 0;
}
