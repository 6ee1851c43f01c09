/* rest_list.c — writing a long list item by item (rest_list.h). */
#include "restd/rest_list.h"

#include <stdbool.h>
#include <string.h>

#include "common/xmalloc.h"
#include "restd/rest_spec.h"
#include "restd/rest_view.h"

#define JSON_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

typedef struct {
	int          ver;
	json_object *item;     /* the version's schema of one item */
	char        *buf;
	size_t       len, cap;
	bool         first;
} list_out_t;

static void add(list_out_t *o, const char *s, size_t n)
{
	if (o->len + n + 1 > o->cap) {
		o->cap = (o->len + n + 1) * 2;
		o->buf = xrealloc(o->buf, o->cap);
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = '\0';
}

static void write_item(json_object *item, void *arg)
{
	list_out_t *o = arg;
	const char *txt;
	size_t n;

	item = rest_view_node(o->ver, o->item, item);
	txt = json_object_to_json_string_length(item, JSON_FLAGS, &n);
	if (!o->first)
		add(o, ",", 1);
	o->first = false;
	add(o, txt, n);
	json_object_put(item);
}

void rest_list_write(rest_req_t *r, const char *key, rest_list_each_f each,
		     const void *msg)
{
	list_out_t o = { .ver = r->ver, .first = true };
	const char *env;
	size_t n;

	r->resp = rest_view(r->ver, r->resp_schema, r->resp);
	json_object_object_del(r->resp, key);     /* written below */
	env = json_object_to_json_string_length(r->resp, JSON_FLAGS, &n);
	o.item = rest_spec_list_item(r->ver, r->resp_schema, key);
	add(&o, env, n - 1);                      /* all but the '}' */
	if (n > 2)
		add(&o, ",", 1);
	add(&o, "\"", 1);
	add(&o, key, strlen(key));
	add(&o, "\":[", 3);
	each(msg, write_item, &o);
	add(&o, "]}", 2);
	r->raw = o.buf;
	r->raw_len = o.len;
}
