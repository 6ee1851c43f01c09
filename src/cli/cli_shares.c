/* cli_shares.c — RESPONSE_SHARE_INFO rows as assoc_shares_obj objects.
 *
 * One row per association (an account, or a user under an account); the
 * controller's columns (fairshare.c) are named once here with the JSON
 * member each one fills. */
#include "cli/cli_shares.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_fields.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static json_object *num_f64(const char *s)
{
	json_object *o = json_object_new_object();
	bool set = s && *s;
	double v = set ? strtod(s, NULL) : 0;

	json_object_object_add(o, "set", json_object_new_boolean(set));
	json_object_object_add(o, "infinite",
			       json_object_new_boolean(set && isinf(v)));
	json_object_object_add(o, "number",
			       json_object_new_double(set && isfinite(v) ? v : 0));
	return o;
}

static int col(char **cols, const char *name)
{
	for (int i = 0; cols && cols[i]; i++)
		if (!strcmp(cols[i], name))
			return i;
	return -1;
}

static const char *cell(char **row, int c)
{
	return c >= 0 && row[c] ? row[c] : "";
}

json_object *cli_shares_json(const table_resp_msg_t *t)
{
	json_object *doc = json_object_new_object();
	json_object *list = json_object_new_array();
	size_t ncols = xstrarray_len(t->cols);
	size_t ncells = xstrarray_len(t->cells);
	int acct = col(t->cols, "account"), user = col(t->cols, "user");
	int raw = col(t->cols, "raw_shares"), norm = col(t->cols, "norm_shares");
	int ru = col(t->cols, "raw_usage"), nu = col(t->cols, "norm_usage");
	int eu = col(t->cols, "effectv_usage"), fs = col(t->cols, "fairshare");
	int lf = col(t->cols, "level_fs");
	long long total = 0;
	/* the account each depth is in, for a row's parent */
	char *parents[64] = { 0 };
	int depth_c = col(t->cols, "depth");

	for (size_t r = 0; ncols && r + ncols <= ncells; r += ncols) {
		char **row = t->cells + r;
		json_object *o = json_object_new_object(), *f, *ty;
		const char *u = cell(row, user), *a = cell(row, acct);
		int depth = atoi(cell(row, depth_c));
		bool is_user = *u;
		json_object *shares = json_object_new_object();
		const char *rs = cell(row, raw);
		bool parent = !strcmp(rs, "parent");

		if (depth < 0 || depth >= 64)
			depth = 0;
		json_object_object_add(o, "name", json_object_new_string(
			is_user ? u : a));
		json_object_object_add(o, "parent", json_object_new_string(
			is_user ? a : (depth && parents[depth - 1] ?
				       parents[depth - 1] : "")));
		if (!is_user) {
			xfree(parents[depth]);
			parents[depth] = xstrdup(a);
		}
		json_object_object_add(o, "partition", json_object_new_string(""));
		json_object_object_add(shares, "set",
				       json_object_new_boolean(!parent && *rs));
		json_object_object_add(shares, "infinite",
				       json_object_new_boolean(0));
		json_object_object_add(shares, "number", json_object_new_int64(
			parent ? 0 : atoll(rs)));
		json_object_object_add(o, "shares", shares);
		if (!is_user && !parent)
			total += atoll(rs);
		json_object_object_add(o, "shares_normalized",
				       num_f64(cell(row, norm)));
		json_object_object_add(o, "usage", json_object_new_int64(
			atoll(cell(row, ru))));
		json_object_object_add(o, "usage_normalized",
				       num_f64(cell(row, nu)));
		json_object_object_add(o, "effective_usage",
				       num_f64(cell(row, eu)));
		f = json_object_new_object();
		json_object_object_add(f, "factor", num_f64(cell(row, fs)));
		json_object_object_add(f, "level", num_f64(cell(row, lf)));
		json_object_object_add(o, "fairshare", f);
		ty = json_object_new_array();
		json_object_array_add(ty, json_object_new_string(
			is_user ? "USER" : "ASSOCIATION"));
		json_object_object_add(o, "type", ty);
		json_object_array_add(list, o);
	}
	for (int i = 0; i < 64; i++)
		xfree(parents[i]);
	json_object_object_add(doc, "shares", list);
	json_object_object_add(doc, "total_shares", json_object_new_int64(total));
	return doc;
}
