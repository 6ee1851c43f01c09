/* rest_list.c — writing a long list record by record (rest_list.h). */
#include "restd/rest_list.h"

#include <string.h>

#include "cli/cli_show.h"
#include "common/xmalloc.h"
#include "restd/rest_plan.h"
#include "restd/rest_spec.h"
#include "restd/rest_text.h"
#include "restd/rest_view.h"

#define JSON_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

static const void *rec_at(const rest_list_recs_t *l, uint32_t i)
{
	return (const char *)l->recs + (size_t)i * l->size;
}

/* Each record's object, viewed through item (the old path). */
static void items_tree(rest_text_t *t, int ver, json_object *item,
		       const rest_list_recs_t *l, const cli_ctx_t *ctx)
{
	for (uint32_t i = 0; i < l->cnt; i++) {
		json_object *o = cli_fields_json(l->tab, rec_at(l, i), ctx);
		const char *txt;
		size_t n;

		o = rest_view_node(ver, item, o);
		txt = json_object_to_json_string_length(o, JSON_FLAGS, &n);
		if (i)
			rest_text_raw(t, ",", 1);
		rest_text_raw(t, txt, n);
		json_object_put(o);
	}
}

static void items(rest_text_t *t, int ver, const char *schema,
		  const char *key, const rest_list_recs_t *l,
		  const cli_ctx_t *ctx, bool tree)
{
	const rest_plan_t *p = tree ? NULL
				    : rest_plan_get(ver, schema, key, l->tab);

	rest_text_raw(t, "[", 1);
	if (!p) {
		items_tree(t, ver, rest_spec_list_item(ver, schema, key), l,
			   ctx);
	} else {
		for (uint32_t i = 0; i < l->cnt; i++) {
			size_t before = t->len;

			if (i)
				rest_text_raw(t, ",", 1);
			rest_plan_write(p, t, rec_at(l, i), ctx);
			/* room for the rest at once, a quarter over the first
			 * record's size: growing by doubling copies the text
			 * written so far each time */
			if (!i && l->cnt > 1)
				rest_text_reserve(t, (t->len - before + 1) *
						  (l->cnt - 1) / 4 * 5 + 2);
		}
	}
	rest_text_raw(t, "]", 1);
}

char *rest_list_items(int ver, const char *schema, const char *key,
		      const rest_list_recs_t *l, const cli_ctx_t *ctx,
		      bool tree, size_t *len)
{
	rest_text_t t = { 0 };

	items(&t, ver, schema, key, l, ctx, tree);
	return rest_text_take(&t, len);
}

void rest_list_write(rest_req_t *r, const char *key,
		     const rest_list_recs_t *l)
{
	cli_ctx_t ctx = cli_show_ctx();
	rest_text_t t = { 0 };
	const char *env;
	size_t n;

	r->resp = rest_view(r->ver, r->resp_schema, r->resp);
	json_object_object_del(r->resp, key);     /* written below */
	env = json_object_to_json_string_length(r->resp, JSON_FLAGS, &n);
	rest_text_raw(&t, env, n - 1);            /* all but the '}' */
	if (n > 2)
		rest_text_raw(&t, ",", 1);
	rest_text_str(&t, key);
	rest_text_raw(&t, ":", 1);
	items(&t, r->ver, r->resp_schema, key, l, &ctx, false);
	rest_text_raw(&t, "}", 1);
	r->raw = rest_text_take(&t, &r->raw_len);
}
