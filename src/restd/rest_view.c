/* rest_view.c — shaping a v0.0.43-layout document to a version's schema. */
#include "restd/rest_view.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "common/xstring.h"
#include "restd/rest_spec.h"
#include "restd/rest_val.h"

/* Schemas nest (a job's steps, a partition's nodes) but never loop in
 * data; empty defaults stop at this depth in case a schema does. */
#define VIEW_MAX_DEPTH 32

static const char *type_of(json_object *node)
{
	json_object *t = rest_json_get(node, "type");

	return t ? json_object_get_string(t) : "";
}

static bool is_no_val(json_object *node)
{
	return rest_json_get(rest_json_get(node, "properties"), "number") &&
	       rest_json_get(rest_json_get(node, "properties"), "set") &&
	       rest_json_get(rest_json_get(node, "properties"), "infinite");
}

static json_object *empty_of(int ver, json_object *node, int depth);

static void fill_required(int ver, json_object *node, json_object *obj,
			  int depth)
{
	json_object *req = rest_json_get(node, "required");
	json_object *props = rest_json_get(node, "properties");

	for (size_t i = 0; req && i < json_object_array_length(req); i++) {
		const char *k = json_object_get_string(
			json_object_array_get_idx(req, i));
		json_object *p = rest_json_get(props, k);

		if (p && !rest_json_get(obj, k))
			json_object_object_add(obj, k,
					       empty_of(ver, p, depth + 1));
	}
}

static json_object *empty_of(int ver, json_object *node, int depth)
{
	const char *t;

	node = rest_spec_deref(ver, node);
	t = type_of(node);
	if (!strcmp(t, "object")) {
		json_object *o = json_object_new_object();

		if (depth < VIEW_MAX_DEPTH)
			fill_required(ver, node, o, depth);
		return o;
	}
	if (!strcmp(t, "array"))
		return json_object_new_array();
	if (!strcmp(t, "integer"))
		return json_object_new_int64(0);
	if (!strcmp(t, "number"))
		return json_object_new_double(0);
	if (!strcmp(t, "boolean"))
		return json_object_new_boolean(0);
	return json_object_new_string("");
}

static json_object *view(int ver, json_object *node, json_object *val,
			 int depth);

/* Members the schema lacks go; those it has are viewed in place. */
static json_object *view_object(int ver, json_object *node, json_object *val,
				int depth)
{
	json_object *props = rest_json_get(node, "properties");
	const char *drop[256];
	size_t ndrop;

	if (!props)
		return val;     /* a free-form object */
	if (!json_object_is_type(val, json_type_object)) {
		json_object *o;

		if (is_no_val(node) && (json_object_is_type(val, json_type_int) ||
					json_object_is_type(val, json_type_double))) {
			o = json_object_new_object();
			json_object_object_add(o, "set",
					       json_object_new_boolean(1));
			json_object_object_add(o, "infinite",
					       json_object_new_boolean(0));
			json_object_object_add(o, "number", json_object_get(val));
		} else {
			o = json_object_new_object();
		}
		json_object_put(val);
		val = o;
	}
	do {
		ndrop = 0;
		json_object_object_foreach(val, k, v) {
			json_object *p = rest_json_get(props, k), *nv;

			if (!p) {
				if (ndrop < sizeof(drop) / sizeof(drop[0]))
					drop[ndrop++] = k;
				continue;
			}
			if (depth >= VIEW_MAX_DEPTH)
				continue;
			nv = view(ver, p, json_object_get(v), depth + 1);
			if (nv != v)
				json_object_object_add(val, k, nv);
			else
				json_object_put(nv);
		}
		for (size_t i = 0; i < ndrop; i++)
			json_object_object_del(val, drop[i]);
	} while (ndrop == sizeof(drop) / sizeof(drop[0]));
	fill_required(ver, node, val, depth);
	return val;
}

static bool in_enum(json_object *en, const char *s)
{
	for (size_t i = 0; i < json_object_array_length(en); i++)
		if (!strcmp(json_object_get_string(
				json_object_array_get_idx(en, i)), s))
			return true;
	return false;
}

static json_object *view_array(int ver, json_object *node, json_object *val,
			       int depth)
{
	json_object *items = rest_spec_deref(ver, rest_json_get(node, "items"));
	json_object *en = rest_json_get(items, "enum");

	if (!json_object_is_type(val, json_type_array)) {
		json_object *a = json_object_new_array();

		if (json_object_is_type(val, json_type_string)) {
			char *s = xstrdup(json_object_get_string(val)), *save;

			for (char *t = strtok_r(s, ",", &save); t;
			     t = strtok_r(NULL, ",", &save))
				json_object_array_add(a,
						      json_object_new_string(t));
			xfree(s);
		}
		json_object_put(val);
		val = a;
	}
	for (size_t i = json_object_array_length(val); i-- > 0;) {
		json_object *it = json_object_array_get_idx(val, i), *nv;

		if (en && json_object_is_type(it, json_type_string) &&
		    !in_enum(en, json_object_get_string(it))) {
			json_object_array_del_idx(val, i, 1);
			continue;
		}
		if (!items || depth >= VIEW_MAX_DEPTH)
			continue;
		nv = view(ver, items, json_object_get(it), depth + 1);
		if (nv != it)
			json_object_array_put_idx(val, i, nv);
		else
			json_object_put(nv);
	}
	return val;
}

static int64_t number_of(json_object *val)
{
	json_object *n = rest_json_get(val, "number");

	if (n)
		return json_object_get_int64(n);
	return json_object_get_int64(val);
}

static json_object *view_scalar(const char *t, json_object *val)
{
	json_object *nv = NULL;

	if (!strcmp(t, "integer")) {
		if (json_object_is_type(val, json_type_int))
			return val;
		nv = json_object_new_int64(number_of(val));
	} else if (!strcmp(t, "number")) {
		if (json_object_is_type(val, json_type_double) ||
		    json_object_is_type(val, json_type_int))
			return val;
		nv = json_object_new_double(rest_json_get(val, "number") ?
			json_object_get_double(rest_json_get(val, "number")) :
			json_object_get_double(val));
	} else if (!strcmp(t, "boolean")) {
		if (json_object_is_type(val, json_type_boolean))
			return val;
		nv = json_object_new_boolean(json_object_get_boolean(val));
	} else if (!strcmp(t, "string")) {
		char *s = NULL;

		if (json_object_is_type(val, json_type_string))
			return val;
		if (json_object_is_type(val, json_type_array)) {
			for (size_t i = 0; i < json_object_array_length(val);
			     i++) {
				if (i)
					xstrcat(&s, ",");
				xstrcat(&s, json_object_get_string(
					json_object_array_get_idx(val, i)));
			}
		} else if (val && !json_object_is_type(val, json_type_null) &&
			   !json_object_is_type(val, json_type_object)) {
			s = xstrdup(json_object_get_string(val));
		}
		nv = json_object_new_string(s ? s : "");
		xfree(s);
	} else {
		return val;
	}
	json_object_put(val);
	return nv;
}

static json_object *view(int ver, json_object *node, json_object *val,
			 int depth)
{
	const char *t;

	node = rest_spec_deref(ver, node);
	if (!node)
		return val;
	t = type_of(node);
	if (!strcmp(t, "object"))
		return view_object(ver, node, val, depth);
	if (!strcmp(t, "array"))
		return view_array(ver, node, val, depth);
	return view_scalar(t, val);
}

json_object *rest_view(int ver, const char *schema, json_object *doc)
{
	json_object *node = rest_spec_schema(ver, schema);

	if (!node)
		return doc;
	return view(ver, node, doc, 0);
}

json_object *rest_view_node(int ver, json_object *node, json_object *doc)
{
	if (!node)
		return doc;
	return view(ver, node, doc, 0);
}

json_object *rest_view_empty(int ver, json_object *node)
{
	return empty_of(ver, node, 0);
}
