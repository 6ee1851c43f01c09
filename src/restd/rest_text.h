/* rest_text.h — JSON text written straight into a growing buffer.
 *
 * What json-c's json_object_to_json_string_ext(JSON_C_TO_STRING_PLAIN |
 * JSON_C_TO_STRING_NOSLASHESCAPE) writes, byte for byte, without building
 * the tree first: slurmrestd's long lists (rest_list.h) are written this
 * way, a value at a time.  The buffer is xmalloc'd; the caller owns buf
 * once done (rest_text_take()).
 */
#ifndef SLUICE_REST_TEXT_H
#define SLUICE_REST_TEXT_H

#include <json-c/json.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct {
	char   *buf;      /* NUL-terminated while len < cap */
	size_t  len, cap;
} rest_text_t;

/* Room for n more bytes (and the NUL), doubling. */
void rest_text_grow(rest_text_t *t, size_t n);
/* Room for n more bytes exactly (one allocation for a known size). */
void rest_text_reserve(rest_text_t *t, size_t n);

/* Append n bytes as they are. */
static inline void rest_text_raw(rest_text_t *t, const char *s, size_t n)
{
	if (t->len + n + 1 > t->cap)
		rest_text_grow(t, n);
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = '\0';
}
/* Append a C string as they are. */
void rest_text_cstr(rest_text_t *t, const char *s);
/* Append s as a JSON string ("" for NULL), escaped as json-c does. */
void rest_text_str(rest_text_t *t, const char *s);
/* The same with n bytes of s. */
void rest_text_strn(rest_text_t *t, const char *s, size_t n);
void rest_text_int(rest_text_t *t, int64_t v);
/* Append the JSON text of v (json-c's own text for doubles). */
void rest_text_value(rest_text_t *t, json_object *v);
/* The text (caller frees); t is empty afterwards. */
char *rest_text_take(rest_text_t *t, size_t *len);

#endif
