/* cli_shares.c — the fair-share table's rows (cli_shares.h).
 *
 * One row per column of sshare and per member of Slurm's assoc_shares_obj;
 * the controller's columns (fairshare.c) are named once here.  Rows are in
 * the JSON's member order; the -o names' prefixes resolve in that order
 * too (NormShares before NormUsage, RawShares before RawUsage).
 */
#include "cli/cli_shares.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_clusters.h"
#include "cli/cli_common.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define REC(r) ((const cli_share_rec_t *)(r))
#define TXT(fn) static void fn(char **o, const void *r, const cli_ctx_t *c)
#define JSN(fn) CLI_JSON_OBJ(fn, r, c)

int cli_shares_col(const table_resp_msg_t *t, const char *name)
{
	for (int i = 0; name && t->cols && t->cols[i]; i++)
		if (!strcmp(t->cols[i], name))
			return i;
	return -1;
}

static const char *cell(const void *r, const char *col)
{
	int c = cli_shares_col(REC(r)->t, col);

	return c >= 0 && REC(r)->c[c] ? REC(r)->c[c] : "";
}

size_t cli_shares_count(const table_resp_msg_t *t)
{
	size_t ncols = xstrarray_len(t->cols);

	return ncols ? xstrarray_len(t->cells) / ncols : 0;
}

void cli_shares_rec(cli_share_rec_t *rec, const table_resp_msg_t *t,
		    size_t i, char *parents[CLI_SHARES_MAX_DEPTH])
{
	size_t ncols = xstrarray_len(t->cols);
	const char *a;
	int depth;

	memset(rec, 0, sizeof(*rec));
	rec->t = t;
	rec->c = t->cells + i * ncols;
	depth = atoi(cell(rec, "depth"));
	if (depth < 0 || depth >= CLI_SHARES_MAX_DEPTH)
		depth = 0;
	rec->depth = depth;
	rec->user = *cell(rec, "user") != '\0';
	a = cell(rec, "account");
	if (rec->user) {
		rec->parent = a;
	} else {
		rec->parent = depth && parents[depth - 1] ?
			      parents[depth - 1] : "";
		xfree(parents[depth]);
		parents[depth] = xstrdup(a);
	}
}

void cli_shares_parents_free(char *parents[CLI_SHARES_MAX_DEPTH])
{
	for (int i = 0; i < CLI_SHARES_MAX_DEPTH; i++)
		xfree(parents[i]);
}

/* ---- values ---- */

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

/* A column's cell as it is. */
#define CELL(fn, col) TXT(fn) { xstrcat(o, cell(r, col)); }
CELL(t_user, "user")
CELL(t_rawshares, "raw_shares")
CELL(t_normshares, "norm_shares")
CELL(t_rawusage, "raw_usage")
CELL(t_effusage, "effectv_usage")
CELL(t_fairshare, "fairshare")
CELL(t_levelfs, "level_fs")
CELL(t_grptresmins, "grp_tres_mins")
CELL(t_tresrunmins, "tres_run_mins")

/* Indented by the depth in the tree, unless -U. */
TXT(t_account)
{
	xstrfmtcat(o, "%*s%s", REC(r)->flat ? 0 : REC(r)->depth, "",
		   cell(r, "account"));
}

/* The root's line has none. */
TXT(t_normusage)
{
	if (REC(r)->user || REC(r)->depth)
		xstrcat(o, cell(r, "norm_usage"));
}

TXT(t_cluster)
{
	/* -M: the cluster asked */
	xstrcat(o, cli_clusters_current() ? cli_clusters_current() : "");
}

TXT(t_none)
{
}

JSN(j_name)
{
	return json_object_new_string(REC(r)->user ? cell(r, "user") :
				      cell(r, "account"));
}

JSN(j_parent)
{
	return json_object_new_string(REC(r)->parent ? REC(r)->parent : "");
}

JSN(j_empty)
{
	return json_object_new_string("");
}

JSN(j_shares)
{
	json_object *o = json_object_new_object();
	const char *rs = cell(r, "raw_shares");
	bool parent = !strcmp(rs, "parent");

	json_object_object_add(o, "set", json_object_new_boolean(!parent &&
								 *rs));
	json_object_object_add(o, "infinite", json_object_new_boolean(0));
	json_object_object_add(o, "number", json_object_new_int64(
		parent ? 0 : atoll(rs)));
	return o;
}

JSN(j_usage)
{
	return json_object_new_int64(atoll(cell(r, "raw_usage")));
}

#define F64(fn, col) JSN(fn) { return num_f64(cell(r, col)); }
F64(j_normshares, "norm_shares")
F64(j_normusage, "norm_usage")
F64(j_effusage, "effectv_usage")
F64(j_fairshare, "fairshare")
F64(j_levelfs, "level_fs")

JSN(j_type)
{
	json_object *ty = json_object_new_array();

	json_object_array_add(ty, json_object_new_string(
		REC(r)->user ? "USER" : "ASSOCIATION"));
	return ty;
}

/* name (-o), header, text, JSON member and builder, default width */
#define COL(nm, fn, key, js, w) \
	{ .name = (nm), .text = (fn), .json_key = (key), .json = (js), \
	  .width = (w) }
#define MEMBER(key, js) { .json_key = (key), .json = (js) }
const cli_field_t cli_share_fields[] = {
	MEMBER("name", j_name),
	MEMBER("parent", j_parent),
	COL("Partition", t_none, "partition", j_empty, 10),
	COL("RawShares", t_rawshares, "shares", j_shares, 10),
	COL("NormShares", t_normshares, "shares_normalized", j_normshares, 11),
	COL("RawUsage", t_rawusage, "usage", j_usage, 11),
	COL("NormUsage", t_normusage, "usage_normalized", j_normusage, 11),
	COL("EffectvUsage", t_effusage, "effective_usage", j_effusage, 13),
	COL("FairShare", t_fairshare, "fairshare/factor", j_fairshare, 10),
	COL("LevelFS", t_levelfs, "fairshare/level", j_levelfs, 10),
	MEMBER("type", j_type),
	COL("Account", t_account, NULL, NULL, -20),
	COL("User", t_user, NULL, NULL, 10),
	COL("GrpTRESMins", t_grptresmins, NULL, NULL, 30),
	COL("TRESRunMins", t_tresrunmins, NULL, NULL, 30),
	COL("Cluster", t_cluster, NULL, NULL, 10),
	{ 0 }
};

json_object *cli_shares_json(const table_resp_msg_t *t)
{
	json_object *doc = json_object_new_object();
	json_object *list = json_object_new_array();
	char *parents[CLI_SHARES_MAX_DEPTH] = { 0 };
	size_t n = cli_shares_count(t);
	long long total = 0;

	for (size_t i = 0; i < n; i++) {
		cli_share_rec_t rec;
		const char *rs;

		cli_shares_rec(&rec, t, i, parents);
		rs = cell(&rec, "raw_shares");
		if (!rec.user && strcmp(rs, "parent"))
			total += atoll(rs);
		json_object_array_add(list, cli_fields_json(cli_share_fields,
							    &rec, NULL));
	}
	cli_shares_parents_free(parents);
	json_object_object_add(doc, "shares", list);
	json_object_object_add(doc, "total_shares", json_object_new_int64(total));
	return doc;
}
