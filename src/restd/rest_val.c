/* rest_val.c — readers for single values of REST request bodies. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "restd/rest_val.h"

int rest_val_fail(char **err, const char *path, const char *fmt, ...)
{
	va_list ap;
	char *s = xstrdup_printf("%s: ", path);

	va_start(ap, fmt);
	xvstrfmtcat(&s, fmt, ap);
	va_end(ap);
	xfree(*err);
	*err = s;
	return -1;
}

/* A JSON string exactly as sent: -1 if it holds a NUL byte. */
static const char *val_cstr(json_object *v)
{
	const char *s = json_object_get_string(v);

	if ((size_t) json_object_get_string_len(v) != strlen(s))
		return NULL;
	return s;
}

/* Integer from any accepted form; -1 if not one (or out of int64). */
static int val_i64(json_object *v, int64_t *out)
{
	const char *s;
	char *end;
	double d;
	long long ll;

	switch (json_object_get_type(v)) {
	case json_type_int:
		/* json-c saturates what int64 cannot hold */
		*out = json_object_get_int64(v);
		return (*out == INT64_MAX || *out == INT64_MIN) ? -1 : 0;
	case json_type_double:
		d = json_object_get_double(v);
		if (!isfinite(d) || d != floor(d) || fabs(d) >= 9.2e18)
			return -1;
		*out = (int64_t) d;
		return 0;
	case json_type_string:
		if (!(s = val_cstr(v)) || !*s ||
		    !(s[0] == '-' || (s[0] >= '0' && s[0] <= '9')))
			return -1;
		errno = 0;
		ll = strtoll(s, &end, 10);
		if (errno || *end || ll == LLONG_MAX || ll == LLONG_MIN)
			return -1;
		*out = ll;
		return 0;
	default:
		return -1;
	}
}

int rest_val_int(json_object *v, const char *path, int64_t min, int64_t max,
		 int64_t *out, char **err)
{
	int64_t n;

	if (val_i64(v, &n) < 0)
		return rest_val_fail(err, path, "expected an integer");
	if (n < min || n > max)
		return rest_val_fail(err, path, "%lld is out of range (%lld to "
				     "%lld)", (long long) n, (long long) min,
				     (long long) max);
	*out = n;
	return 0;
}

static int noval_object(json_object *v, const char *path, uint64_t max,
			int *kind, uint64_t *out, char **err)
{
	json_object *set = NULL, *inf = NULL, *num = NULL;
	bool b = false;
	int64_t n = 0;

	json_object_object_foreach(v, key, val) {
		if (!strcmp(key, "set"))
			set = val;
		else if (!strcmp(key, "infinite"))
			inf = val;
		else if (!strcmp(key, "number"))
			num = val;
		else
			return rest_val_fail(err, path, "unknown member \"%s\" "
					     "(expected {set,infinite,number})",
					     key);
	}
	if (inf && rest_val_bool(inf, path, &b, err) < 0)
		return -1;
	if (b) {
		*kind = REST_NOVAL_INFINITE;
		return 0;
	}
	if (set && rest_val_bool(set, path, &b, err) < 0)
		return -1;
	if (set && !b) {
		*kind = REST_NOVAL_UNSET;
		return 0;
	}
	if (!set && !num) {
		*kind = REST_NOVAL_UNSET;
		return 0;
	}
	if (num && rest_val_int(num, path, 0, (int64_t) max, &n, err) < 0)
		return -1;
	*kind = 0;
	*out = (uint64_t) n;
	return 0;
}

int rest_val_noval(json_object *v, const char *path, uint64_t max,
		   int *kind, uint64_t *out, char **err)
{
	const char *s;
	int64_t n;

	if (max > INT64_MAX - 1)
		max = INT64_MAX - 1;
	if (json_object_is_type(v, json_type_object))
		return noval_object(v, path, max, kind, out, err);
	if (json_object_is_type(v, json_type_string) && (s = val_cstr(v)) &&
	    (!strcasecmp(s, "infinite") || !strcasecmp(s, "unlimited"))) {
		*kind = REST_NOVAL_INFINITE;
		return 0;
	}
	if (val_i64(v, &n) < 0)
		return rest_val_fail(err, path, "expected an integer or "
				     "{set,infinite,number}");
	if (n < 0 || (uint64_t) n > max)
		return rest_val_fail(err, path, "%lld is out of range (0 to "
				     "%llu)", (long long) n,
				     (unsigned long long) max);
	*kind = 0;
	*out = (uint64_t) n;
	return 0;
}

int rest_val_bool(json_object *v, const char *path, bool *out, char **err)
{
	const char *s;
	int64_t n;

	switch (json_object_get_type(v)) {
	case json_type_boolean:
		*out = json_object_get_boolean(v);
		return 0;
	case json_type_string:
		if ((s = val_cstr(v)) && parse_bool(s, out) == 0)
			return 0;
		break;
	case json_type_int:
	case json_type_double:
		if (val_i64(v, &n) == 0 && (n == 0 || n == 1)) {
			*out = n == 1;
			return 0;
		}
		break;
	default:
		break;
	}
	return rest_val_fail(err, path, "expected true or false");
}

int rest_val_str(json_object *v, const char *path, char **out, char **err)
{
	const char *s;

	switch (json_object_get_type(v)) {
	case json_type_string:
		if (!(s = val_cstr(v)))
			return rest_val_fail(err, path, "contains a NUL byte");
		*out = xstrdup(s);
		return 0;
	case json_type_int:
	case json_type_double:
		*out = xstrdup(json_object_to_json_string_ext(
				       v, JSON_C_TO_STRING_PLAIN));
		return 0;
	default:
		return rest_val_fail(err, path, "expected a string");
	}
}

int rest_val_strlist(json_object *v, const char *path, char ***out,
		     char **err)
{
	char **list;
	size_t n;

	if (!json_object_is_type(v, json_type_array))
		return rest_val_fail(err, path, "expected an array of strings");
	n = json_object_array_length(v);
	list = xcalloc(n + 1, sizeof(*list));
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(v, i);
		char *p;

		if (e && json_object_is_type(e, json_type_string) &&
		    rest_val_str(e, path, &list[i], err) == 0)
			continue;
		p = xstrdup_printf("%s[%zu]", path, i);
		rest_val_fail(err, p, e && json_object_is_type(
				      e, json_type_string) ?
			      "contains a NUL byte" : "expected a string");
		xfree(p);
		xstrarray_free(list);
		return -1;
	}
	*out = list;
	return 0;
}

int rest_val_csv(json_object *v, const char *path, char **out, char **err)
{
	char **list, *s = NULL;

	if (json_object_is_type(v, json_type_string)) {
		if (rest_val_str(v, path, &s, err) < 0)
			return -1;
		if (!*s)
			xfree(s);
		*out = s;
		return 0;
	}
	if (!json_object_is_type(v, json_type_array))
		return rest_val_fail(err, path, "expected an array of strings "
				     "or a comma-separated string");
	if (rest_val_strlist(v, path, &list, err) < 0)
		return -1;
	for (size_t i = 0; list[i]; i++)
		if (*list[i])
			xstrfmtcat(&s, "%s%s", s ? "," : "", list[i]);
	xstrarray_free(list);
	*out = s;
	return 0;
}

/* One flag name into *mask; -1 if unknown. */
static int flag_one(const char *name, const char *const *names,
		    uint64_t *mask)
{
	for (size_t i = 0; names[i] && i < 64; i++) {
		if (!strcasecmp(name, names[i])) {
			*mask |= 1ull << i;
			return 0;
		}
	}
	return -1;
}

int rest_val_flags(json_object *v, const char *path,
		   const char *const *names, uint64_t *mask, char **err)
{
	char **list;
	uint64_t m = 0;
	int rc = 0;

	if (json_object_is_type(v, json_type_string)) {
		const char *s = val_cstr(v);

		if (!s)
			return rest_val_fail(err, path, "contains a NUL byte");
		list = xstrsplit(s, ",", NULL);
	} else if (json_object_is_type(v, json_type_array)) {
		if (rest_val_strlist(v, path, &list, err) < 0)
			return -1;
	} else {
		return rest_val_fail(err, path, "expected an array of flag "
				     "names");
	}
	for (size_t i = 0; list[i] && !rc; i++)
		if (flag_one(list[i], names, &m) < 0)
			rc = rest_val_fail(err, path, "unknown flag \"%s\"",
					   list[i]);
	xstrarray_free(list);
	if (!rc)
		*mask = m;
	return rc;
}

static bool empty_flag_list(json_object *v)
{
	size_t n = json_object_array_length(v);

	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(v, i);
		const char *s;

		if (!e || !json_object_is_type(e, json_type_string))
			return false;
		s = json_object_get_string(e);
		if (*s && strcasecmp(s, "NONE") && strcasecmp(s, "NOT_SET"))
			return false;
	}
	return true;
}

bool rest_val_is_empty(json_object *v)
{
	json_object *set, *inf;

	switch (json_object_get_type(v)) {
	case json_type_null:
		return true;
	case json_type_boolean:
		return !json_object_get_boolean(v);
	case json_type_int:
		return json_object_get_int64(v) == 0;
	case json_type_double:
		return json_object_get_double(v) == 0.0;
	case json_type_string:
		return json_object_get_string_len(v) == 0;
	case json_type_array:
		return empty_flag_list(v);
	case json_type_object:
		if (json_object_object_length(v) == 0)
			return true;
		if (json_object_object_get_ex(v, "infinite", &inf) &&
		    json_object_get_boolean(inf))
			return false;
		return json_object_object_get_ex(v, "set", &set) &&
		       json_object_is_type(set, json_type_boolean) &&
		       !json_object_get_boolean(set);
	}
	return false;
}

void rest_warn(json_object *warnings, const char *source, const char *fmt, ...)
{
	json_object *w;
	va_list ap;
	char *s = NULL;

	if (!warnings || !json_object_is_type(warnings, json_type_array))
		return;
	va_start(ap, fmt);
	xvstrfmtcat(&s, fmt, ap);
	va_end(ap);
	w = json_object_new_object();
	json_object_object_add(w, "description", json_object_new_string(s));
	json_object_object_add(w, "source", json_object_new_string(source));
	json_object_array_add(warnings, w);
	xfree(s);
}

json_object *rest_json_get(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}
