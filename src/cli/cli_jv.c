/* cli_jv.c — JSON values through a sink (cli_jv.h): the shared shapes,
 * and the sink that builds a json-c tree. */
#include "cli/cli_jv.h"

#include <string.h>

#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

void cli_jv_str(cli_jv_t *v, const char *s)
{
	v->ops->str(v, s ? s : "", s ? strlen(s) : 0);
}

void cli_jv_int(cli_jv_t *v, int64_t n)
{
	v->ops->num(v, n);
}

void cli_jv_bool(cli_jv_t *v, bool b)
{
	v->ops->boolean(v, b);
}

void cli_jv_f64(cli_jv_t *v, double d)
{
	v->ops->obj(v, json_object_new_double(d));
}

void cli_jv_obj(cli_jv_t *v, json_object *o)
{
	v->ops->obj(v, o);
}

void cli_jv_object(cli_jv_t *v)
{
	v->ops->open(v, false);
}

void cli_jv_array(cli_jv_t *v)
{
	v->ops->open(v, true);
}

void cli_jv_end(cli_jv_t *v)
{
	v->ops->close(v);
}

void cli_jv_key(cli_jv_t *v, const char *k)
{
	v->ops->key(v, k);
}

static void no_val(cli_jv_t *v, bool set, bool inf, int64_t n)
{
	if (v->ops->no_val) {
		v->ops->no_val(v, set, inf, n);
		return;
	}
	cli_jv_object(v);
	cli_jv_key(v, "set");
	cli_jv_bool(v, set);
	cli_jv_key(v, "infinite");
	cli_jv_bool(v, inf);
	cli_jv_key(v, "number");
	cli_jv_int(v, n);
	cli_jv_end(v);
}

void cli_jv_num32(cli_jv_t *v, uint32_t n)
{
	if (n == NO_VAL32)
		no_val(v, false, false, 0);
	else if (n == INFINITE32)
		no_val(v, false, true, 0);
	else
		no_val(v, true, false, n);
}

void cli_jv_num64(cli_jv_t *v, uint64_t n)
{
	if (n == NO_VAL64)
		no_val(v, false, false, 0);
	else if (n == INFINITE64)
		no_val(v, false, true, 0);
	else
		no_val(v, true, false, (int64_t)n);
}

void cli_jv_time(cli_jv_t *v, time_t t)
{
	no_val(v, true, false, (int64_t)t);
}

void cli_jv_f64_set(cli_jv_t *v, double d)
{
	cli_jv_object(v);
	cli_jv_key(v, "set");
	cli_jv_bool(v, true);
	cli_jv_key(v, "infinite");
	cli_jv_bool(v, false);
	cli_jv_key(v, "number");
	cli_jv_f64(v, d);
	cli_jv_end(v);
}

void cli_jv_strlist(cli_jv_t *v, const char *csv)
{
	const char *p = csv ? csv : "";

	cli_jv_array(v);
	while (*p) {
		size_t n = strcspn(p, ",");

		if (n)
			v->ops->str(v, p, n);
		p += n;
		p += *p == ',';
	}
	cli_jv_end(v);
}

/* ---- the tree sink ---- */

static void tree_add(cli_jv_t *v, json_object *o)
{
	cli_jv_tree_t *t = v->arg;
	json_object *parent;

	if (!t->depth) {
		json_object_put(t->root);
		t->root = o;
		return;
	}
	parent = t->stack[t->depth - 1];
	if (json_object_is_type(parent, json_type_array))
		json_object_array_add(parent, o);
	else
		json_object_object_add(parent, t->key ? t->key : "", o);
	t->key = NULL;
}

static void tree_str(cli_jv_t *v, const char *s, size_t len)
{
	tree_add(v, json_object_new_string_len(s, (int)len));
}

static void tree_num(cli_jv_t *v, int64_t n)
{
	tree_add(v, json_object_new_int64(n));
}

static void tree_bool(cli_jv_t *v, bool b)
{
	tree_add(v, json_object_new_boolean(b));
}

static void tree_open(cli_jv_t *v, bool array)
{
	cli_jv_tree_t *t = v->arg;
	json_object *o = array ? json_object_new_array()
			       : json_object_new_object();

	tree_add(v, o);
	/* deeper than any record's value: the rest goes into the last */
	if (t->depth < CLI_JV_TREE_DEPTH)
		t->stack[t->depth++] = o;
}

static void tree_close(cli_jv_t *v)
{
	cli_jv_tree_t *t = v->arg;

	if (t->depth)
		t->depth--;
}

static void tree_key(cli_jv_t *v, const char *k)
{
	((cli_jv_tree_t *)v->arg)->key = k;
}

static const cli_jv_ops_t tree_ops = {
	.str = tree_str, .num = tree_num, .boolean = tree_bool,
	.obj = tree_add, .open = tree_open, .close = tree_close,
	.key = tree_key,
};

void cli_jv_tree_init(cli_jv_tree_t *t)
{
	memset(t, 0, sizeof(*t));
	t->jv.ops = &tree_ops;
	t->jv.arg = t;
}

json_object *cli_jv_tree_take(cli_jv_tree_t *t)
{
	json_object *o = t->root;

	t->root = NULL;
	t->depth = 0;
	return o;
}
