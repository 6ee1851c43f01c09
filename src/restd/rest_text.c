/* rest_text.c — JSON text without a tree (rest_text.h). */
#include "restd/rest_text.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/xmalloc.h"
#include "common/xstring.h"

#define JSON_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

void rest_text_reserve(rest_text_t *t, size_t n)
{
	if (t->len + n + 1 <= t->cap)
		return;
	t->cap = t->len + n + 1;
	t->buf = xrealloc(t->buf, t->cap);
}

void rest_text_grow(rest_text_t *t, size_t n)
{
	if (t->len + n + 1 <= t->cap)
		return;
	t->cap = (t->len + n + 1) * 2;
	if (t->cap < 4096)
		t->cap = 4096;
	t->buf = xrealloc(t->buf, t->cap);
}

void rest_text_cstr(rest_text_t *t, const char *s)
{
	rest_text_raw(t, s, strlen(s));
}

/* The escape of byte c, or NULL if c stands for itself (json-c's set:
 * the five control characters with a short form, the quote and the
 * backslash; other control characters as \u00xx, lower-case hex). */
static const char *escape_of(unsigned char c, char u[7])
{
	static const char hex[] = "0123456789abcdef";

	switch (c) {
	case '\b': return "\\b";
	case '\n': return "\\n";
	case '\r': return "\\r";
	case '\t': return "\\t";
	case '\f': return "\\f";
	case '"':  return "\\\"";
	case '\\': return "\\\\";
	default:
		break;
	}
	if (c >= ' ')
		return NULL;
	u[0] = '\\'; u[1] = 'u'; u[2] = '0'; u[3] = '0';
	u[4] = hex[c >> 4]; u[5] = hex[c & 0xf]; u[6] = '\0';
	return u;
}

/* Bytes json-c writes escaped: control characters, '"' and '\\'. */
static const unsigned char plain[256] = {
	[' ' ... '!'] = 1, ['#' ... '['] = 1, [']' ... 255] = 1,
};

static void str_n(rest_text_t *t, const char *s, size_t n)
{
	size_t start = 0, i = 0;

	rest_text_grow(t, n + 2);
	t->buf[t->len++] = '"';
	for (;;) {
		const char *e;
		char u[7];

		while (i < n && plain[(unsigned char)s[i]])
			i++;
		if (i == n)
			break;
		e = escape_of((unsigned char)s[i], u);
		rest_text_raw(t, s + start, i - start);
		rest_text_raw(t, e, strlen(e));
		start = ++i;
	}
	rest_text_raw(t, s + start, n - start);
	rest_text_raw(t, "\"", 1);
}

void rest_text_strn(rest_text_t *t, const char *s, size_t n)
{
	str_n(t, s, n);
}

void rest_text_str(rest_text_t *t, const char *s)
{
	str_n(t, s ? s : "", s ? strlen(s) : 0);
}

void rest_text_int(rest_text_t *t, int64_t v)
{
	char num[24], *p = num + sizeof(num);
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	rest_text_raw(t, p, (size_t)(num + sizeof(num) - p));
}

static void text_object(rest_text_t *t, json_object *v)
{
	int i = 0;

	rest_text_raw(t, "{", 1);
	json_object_object_foreach(v, k, m) {
		if (i++)
			rest_text_raw(t, ",", 1);
		rest_text_str(t, k);
		rest_text_raw(t, ":", 1);
		rest_text_value(t, m);
	}
	rest_text_raw(t, "}", 1);
}

static void text_array(rest_text_t *t, json_object *v)
{
	size_t n = json_object_array_length(v);

	rest_text_raw(t, "[", 1);
	for (size_t i = 0; i < n; i++) {
		if (i)
			rest_text_raw(t, ",", 1);
		rest_text_value(t, json_object_array_get_idx(v, i));
	}
	rest_text_raw(t, "]", 1);
}

void rest_text_value(rest_text_t *t, json_object *v)
{
	const char *s;
	size_t n;
	int64_t i;

	switch (json_object_get_type(v)) {
	case json_type_null:
		rest_text_raw(t, "null", 4);
		return;
	case json_type_boolean:
		if (json_object_get_boolean(v))
			rest_text_raw(t, "true", 4);
		else
			rest_text_raw(t, "false", 5);
		return;
	case json_type_int:
		/* INT64_MAX may be a larger unsigned number: json-c's text */
		i = json_object_get_int64(v);
		if (i != INT64_MAX) {
			rest_text_int(t, i);
			return;
		}
		break;
	case json_type_string:
		str_n(t, json_object_get_string(v),
		      (size_t)json_object_get_string_len(v));
		return;
	case json_type_object:
		text_object(t, v);
		return;
	case json_type_array:
		text_array(t, v);
		return;
	case json_type_double:
		break;
	}
	s = json_object_to_json_string_length(v, JSON_FLAGS, &n);
	rest_text_raw(t, s, n);
}

char *rest_text_take(rest_text_t *t, size_t *len)
{
	char *s = t->buf ? t->buf : xstrdup("");

	if (len)
		*len = t->len;
	t->buf = NULL;
	t->len = t->cap = 0;
	return s;
}
