/* rest_plan.c — a version's way to write a field table's records
 * (rest_plan.h). */
#include "restd/rest_plan.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "restd/rest_spec.h"
#include "restd/rest_val.h"
#include "restd/rest_view.h"

/* Schemas compared deeper than this are taken as different (the value
 * then goes through the view: slower, never wrong). */
#define SAME_MAX_DEPTH 24
#define MAX_PLANS 64

enum step_how {
	STEP_TEXT,      /* the row's text as a JSON string */
	STEP_VALUE,     /* the row's JSON value as it is */
	STEP_VIEW,      /* the row's value (JSON, or text as a string)
			 * through the version's view of the member */
	STEP_CONST,     /* no row: a required member's empty value */
};

typedef struct {
	enum step_how      how;
	const cli_field_t *row;
	json_object       *node;     /* the member's schema (STEP_VIEW) */
	char              *text;     /* "key": and, for STEP_CONST, the value */
	size_t             len;
} step_t;

struct rest_plan {
	int                ver;
	const cli_field_t *tab;
	char              *schema, *member;
	step_t            *steps;
	size_t             nsteps;
};

static pthread_mutex_t plans_lock = PTHREAD_MUTEX_INITIALIZER;
static rest_plan_t *plans[MAX_PLANS];
static size_t nplans;

static const char *type_of(json_object *node)
{
	json_object *t = rest_json_get(node, "type");

	return t ? json_object_get_string(t) : "";
}

/* Do schema a of version va and b of vb describe the same values? */
static bool same_schema(int va, json_object *a, int vb, json_object *b,
			int depth)
{
	a = rest_spec_deref(va, a);
	b = rest_spec_deref(vb, b);
	if (!a || !b || depth > SAME_MAX_DEPTH)
		return false;
	if (json_object_get_type(a) != json_object_get_type(b))
		return false;
	if (json_object_is_type(a, json_type_object)) {
		if (json_object_object_length(a) !=
		    json_object_object_length(b))
			return false;
		json_object_object_foreach(a, k, v) {
			json_object *w;

			if (!strcmp(k, "description"))
				continue;
			if (!json_object_object_get_ex(b, k, &w) ||
			    !same_schema(va, v, vb, w, depth + 1))
				return false;
		}
		return true;
	}
	if (json_object_is_type(a, json_type_array)) {
		size_t n = json_object_array_length(a);

		if (n != json_object_array_length(b))
			return false;
		for (size_t i = 0; i < n; i++)
			if (!same_schema(va, json_object_array_get_idx(a, i), vb,
					 json_object_array_get_idx(b, i),
					 depth + 1))
				return false;
		return true;
	}
	return json_object_equal(a, b);
}

static step_t *step_of(rest_plan_t *p, const char *key, size_t keylen)
{
	for (size_t i = 0; i < p->nsteps; i++)
		if (p->steps[i].len == keylen &&
		    !memcmp(p->steps[i].text, key, keylen))
			return &p->steps[i];
	return NULL;
}

static char *key_text(const char *key, size_t *len)
{
	rest_text_t t = { 0 };

	rest_text_str(&t, key);
	rest_text_raw(&t, ":", 1);
	return rest_text_take(&t, len);
}

/* A row's step: how its value goes out in ver (p43: the member's schema
 * in v0.0.43, or NULL). */
static enum step_how how_of(int ver, const cli_field_t *f, json_object *node,
			    json_object *p43)
{
	bool same = ver == REST_VER_MAX ||
		    (p43 && same_schema(ver, node, REST_VER_MAX, p43, 0));

	if (!same)
		return STEP_VIEW;
	if (f->json)
		return STEP_VALUE;
	/* a text row is a string: a version that wants something else
	 * gets it through the view (a list from "a,b", ...) */
	return strcmp(type_of(rest_spec_deref(ver, node)), "string") ?
		STEP_VIEW : STEP_TEXT;
}

static void add_row(rest_plan_t *p, const cli_field_t *f, json_object *props,
		    json_object *props43)
{
	json_object *node = rest_json_get(props, f->json_key);
	size_t len;
	char *key;
	step_t *s;

	if (!node)
		return;         /* not in this version: the view drops it */
	key = key_text(f->json_key, &len);
	if ((s = step_of(p, key, len))) {
		xfree(key);     /* a later row replaces the value in place */
	} else {
		p->steps = xrealloc(p->steps,
				    (p->nsteps + 1) * sizeof(*p->steps));
		s = &p->steps[p->nsteps++];
		s->text = key;
		s->len = len;
	}
	s->row = f;
	s->node = node;
	s->how = how_of(p->ver, f, node,
			rest_json_get(props43, f->json_key));
}

static void add_required(rest_plan_t *p, json_object *item)
{
	json_object *req = rest_json_get(item, "required");
	json_object *props = rest_json_get(item, "properties");

	for (size_t i = 0; req && i < json_object_array_length(req); i++) {
		const char *k = json_object_get_string(
			json_object_array_get_idx(req, i));
		json_object *node = rest_json_get(props, k), *empty;
		rest_text_t t = { 0 };
		size_t len;
		char *key;
		step_t *s;

		if (!node)
			continue;
		key = key_text(k, &len);
		if (step_of(p, key, len)) {
			xfree(key);
			continue;
		}
		rest_text_raw(&t, key, len);
		xfree(key);
		empty = rest_view_empty(p->ver, node);
		rest_text_value(&t, empty);
		json_object_put(empty);
		p->steps = xrealloc(p->steps,
				    (p->nsteps + 1) * sizeof(*p->steps));
		s = &p->steps[p->nsteps++];
		*s = (step_t){ .how = STEP_CONST };
		s->text = rest_text_take(&t, &s->len);
	}
}

static void plan_free(rest_plan_t *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nsteps; i++)
		xfree(p->steps[i].text);
	xfree(p->steps);
	xfree(p->schema);
	xfree(p->member);
	xfree(p);
}

/* The v0.0.43 name of ver's schema name ("v0.0.41_x" -> "v0.0.43_x"). */
static json_object *item43(int ver, const char *schema, const char *member)
{
	char prefix[16], name[256];

	snprintf(prefix, sizeof(prefix), "v0.0.%d_", ver);
	if (strncmp(schema, prefix, strlen(prefix)))
		return NULL;
	snprintf(name, sizeof(name), "v0.0.%d_%s", REST_VER_MAX,
		 schema + strlen(prefix));
	return rest_spec_list_item(REST_VER_MAX, name, member);
}

static rest_plan_t *plan_build(int ver, const char *schema,
			       const char *member, const cli_field_t *tab)
{
	json_object *item = rest_spec_list_item(ver, schema, member);
	json_object *props = rest_json_get(item, "properties");
	json_object *props43 = rest_json_get(item43(ver, schema, member),
					     "properties");
	rest_plan_t *p;

	if (!props)
		return NULL;
	p = xcalloc(1, sizeof(*p));
	p->ver = ver;
	p->tab = tab;
	p->schema = xstrdup(schema);
	p->member = xstrdup(member);
	for (const cli_field_t *f = tab; f->text || f->json; f++) {
		if (!f->json_key)
			continue;
		if (strchr(f->json_key, '/')) {
			plan_free(p);
			return NULL;
		}
		add_row(p, f, props, props43);
	}
	add_required(p, item);
	return p;
}

const rest_plan_t *rest_plan_get(int ver, const char *schema,
				 const char *member, const cli_field_t *tab)
{
	rest_plan_t *p = NULL;

	pthread_mutex_lock(&plans_lock);
	for (size_t i = 0; i < nplans && !p; i++)
		if (plans[i]->ver == ver && plans[i]->tab == tab &&
		    !strcmp(plans[i]->schema, schema) &&
		    !strcmp(plans[i]->member, member))
			p = plans[i];
	if (!p && nplans < MAX_PLANS &&
	    (p = plan_build(ver, schema, member, tab)))
		plans[nplans++] = p;
	pthread_mutex_unlock(&plans_lock);
	return p;
}

/* ---- the text sink: a getter's value written as it is made ---- */

typedef struct {
	cli_jv_t     jv;
	rest_text_t *t;
	uint64_t     more;      /* bit d: depth d has a member already */
	uint64_t     arrays;    /* bit d: depth d is an array */
	int          depth;
	bool         keyed;     /* a key was written: no comma before */
} text_sink_t;

/* The comma before a value in an array (a member's is its key's). */
static void before(text_sink_t *s)
{
	uint64_t bit;

	if (s->keyed || !s->depth) {
		s->keyed = false;
		return;
	}
	bit = 1ull << (s->depth % 64);
	if (s->more & bit)
		rest_text_raw(s->t, ",", 1);
	s->more |= bit;
}

static void sink_str(cli_jv_t *v, const char *str, size_t len)
{
	text_sink_t *s = v->arg;

	before(s);
	rest_text_strn(s->t, str, len);
}

static void sink_num(cli_jv_t *v, int64_t n)
{
	text_sink_t *s = v->arg;

	before(s);
	rest_text_int(s->t, n);
}

static void sink_bool(cli_jv_t *v, bool b)
{
	text_sink_t *s = v->arg;

	before(s);
	if (b)
		rest_text_raw(s->t, "true", 4);
	else
		rest_text_raw(s->t, "false", 5);
}

static void sink_obj(cli_jv_t *v, json_object *o)
{
	text_sink_t *s = v->arg;

	before(s);
	rest_text_value(s->t, o);
	json_object_put(o);
}

static void sink_open(cli_jv_t *v, bool array)
{
	text_sink_t *s = v->arg;
	uint64_t bit;

	before(s);
	rest_text_raw(s->t, array ? "[" : "{", 1);
	s->depth++;
	bit = 1ull << (s->depth % 64);
	s->more &= ~bit;
	if (array)
		s->arrays |= bit;
	else
		s->arrays &= ~bit;
}

static void sink_close(cli_jv_t *v)
{
	text_sink_t *s = v->arg;

	if (!s->depth)
		return;
	rest_text_raw(s->t, s->arrays & (1ull << (s->depth % 64)) ? "]" : "}",
		      1);
	s->depth--;
}

static void sink_key(cli_jv_t *v, const char *k)
{
	text_sink_t *s = v->arg;
	uint64_t bit = 1ull << (s->depth % 64);

	if (s->more & bit)
		rest_text_raw(s->t, ",", 1);
	s->more |= bit;
	rest_text_str(s->t, k);
	rest_text_raw(s->t, ":", 1);
	s->keyed = true;
}

#define NO_VAL_HEAD(set, inf) \
	"{\"set\":" #set ",\"infinite\":" #inf ",\"number\":"

static void sink_no_val(cli_jv_t *v, bool set, bool inf, int64_t n)
{
	static const struct {
		const char *s;
		size_t      n;
	} head[2][2] = {
		{ { NO_VAL_HEAD(false, false), sizeof(NO_VAL_HEAD(false, false)) - 1 },
		  { NO_VAL_HEAD(false, true), sizeof(NO_VAL_HEAD(false, true)) - 1 } },
		{ { NO_VAL_HEAD(true, false), sizeof(NO_VAL_HEAD(true, false)) - 1 },
		  { NO_VAL_HEAD(true, true), sizeof(NO_VAL_HEAD(true, true)) - 1 } },
	};
	text_sink_t *s = v->arg;

	before(s);
	rest_text_raw(s->t, head[set][inf].s, head[set][inf].n);
	rest_text_int(s->t, n);
	rest_text_raw(s->t, "}", 1);
}

static const cli_jv_ops_t sink_ops = {
	.str = sink_str, .num = sink_num, .boolean = sink_bool,
	.obj = sink_obj, .open = sink_open, .close = sink_close,
	.key = sink_key, .no_val = sink_no_val,
};

static void write_step(const step_t *s, rest_text_t *t, const void *rec,
		       const cli_ctx_t *ctx, int ver)
{
	json_object *v;
	char *txt = NULL;

	if (s->how == STEP_TEXT) {
		s->row->text(&txt, rec, ctx);
		rest_text_str(t, txt);
		xfree(txt);
		return;
	}
	if (s->how == STEP_VALUE && s->row->json) {
		text_sink_t sink = { .jv = { &sink_ops, &sink }, .t = t };

		s->row->json(&sink.jv, rec, ctx);
		return;
	}
	v = rest_view_node(ver, s->node, cli_field_json(s->row, rec, ctx));
	rest_text_value(t, v);
	json_object_put(v);
}

void rest_plan_write(const rest_plan_t *p, rest_text_t *t, const void *rec,
		     const cli_ctx_t *ctx)
{
	rest_text_raw(t, "{", 1);
	for (size_t i = 0; i < p->nsteps; i++) {
		const step_t *s = &p->steps[i];

		if (i)
			rest_text_raw(t, ",", 1);
		rest_text_raw(t, s->text, s->len);
		if (s->how != STEP_CONST)
			write_step(s, t, rec, ctx, p->ver);
	}
	rest_text_raw(t, "}", 1);
}

void rest_plan_fini(void)
{
	pthread_mutex_lock(&plans_lock);
	for (size_t i = 0; i < nplans; i++)
		plan_free(plans[i]);
	nplans = 0;
	pthread_mutex_unlock(&plans_lock);
}
