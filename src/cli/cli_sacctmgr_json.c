/* cli_sacctmgr_json.c — sacctmgr show --json and slurmrestd's
 * /slurmdb/.../accounts, users, associations, qos and clusters: the rows
 * of slurmdbd's list answer as Slurm 25.05's data_parser v0.0.43 shows
 * them.  One field table per entity (cli_fields.h rows: a JSON key and
 * its builder over a mgr_row_t), walked by cli_fields_json().
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli_fields.h"
#include "cli/cli_sacctmgr.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define JSN(fn) CLI_JSON_OBJ(fn, rec, ctx)

static const char *cell(const void *rec, const char *col)
{
	const char *v = cli_sacctmgr_cell(rec, col);

	return v ? v : "";
}

static json_object *str(const char *s)
{
	return json_object_new_string(s ? s : "");
}

/* A number cell ("" = unset) as {set, infinite, number}. */
static json_object *num(const char *v)
{
	uint32_t n;

	if (!v || !*v || parse_u32(v, &n) < 0)
		return cli_json_num32(NO_VAL32);
	return cli_json_num32(n);
}

static json_object *integer(const char *v)
{
	return json_object_new_int64(v && *v ? strtoll(v, NULL, 10) : 0);
}

static json_object *float_no_val(const char *v)
{
	json_object *o = json_object_new_object();
	bool set = v && *v;

	json_object_object_add(o, "set", json_object_new_boolean(set));
	json_object_object_add(o, "infinite", json_object_new_boolean(0));
	json_object_object_add(o, "number",
			       json_object_new_double(set ? atof(v) : 0));
	return o;
}

#define STR(fn, col) JSN(fn) { (void)ctx; return str(cell(rec, col)); }
#define NUM(fn, col) JSN(fn) { (void)ctx; return num(cell(rec, col)); }
#define INT(fn, col) JSN(fn) { (void)ctx; return integer(cell(rec, col)); }
#define TRES(fn, col) \
	JSN(fn) { (void)ctx; return cli_json_tres(cell(rec, col)); }
#define LIST(fn, col) \
	JSN(fn) { (void)ctx; return cli_json_strlist(cell(rec, col)); }

JSN(j_empty_list)
{
	(void)rec;
	(void)ctx;
	return json_object_new_array();
}

JSN(j_empty_str)
{
	(void)rec;
	(void)ctx;
	return str("");
}

JSN(j_unset)
{
	(void)rec;
	(void)ctx;
	return cli_json_num32(NO_VAL32);
}

JSN(j_float_unset)
{
	(void)rec;
	(void)ctx;
	return float_no_val(NULL);
}

/* ---- accounts ---- */

STR(a_name, "account")
STR(a_descr, "descr")
STR(a_org, "org")

static const cli_field_t account_json[] = {
	{ .json_key = "name", .json = a_name },
	{ .json_key = "description", .json = a_descr },
	{ .json_key = "organization", .json = a_org },
	/* coordinators: cli_sacctmgr_json_coords(), from another list */
	{ .json_key = "coordinators", .json = j_empty_list },
	{ .json_key = "flags", .json = j_empty_list },
	{ 0 }
};

/* ---- users ---- */

STR(u_name, "user")
STR(u_defwckey, "defwckey")
STR(u_defacct, "defacct")

JSN(u_admin)
{
	json_object *a = json_object_new_array();
	const char *v = cell(rec, "admin");

	(void)ctx;
	json_object_array_add(a, str(*v ? v : "None"));
	return a;
}

JSN(u_coords)
{
	json_object *a = json_object_new_array();
	char **items = xstrsplit(cell(rec, "coords"), ",", NULL);

	(void)ctx;
	for (size_t i = 0; items && items[i]; i++) {
		json_object *c = json_object_new_object();

		if (!items[i][0]) {
			json_object_put(c);
			continue;
		}
		json_object_object_add(c, "name", str(items[i]));
		json_object_object_add(c, "direct",
				       json_object_new_boolean(1));
		json_object_array_add(a, c);
	}
	xstrarray_free(items);
	return a;
}

static const cli_field_t user_json[] = {
	{ .json_key = "name", .json = u_name },
	{ .json_key = "default/account", .json = u_defacct },
	{ .json_key = "default/wckey", .json = u_defwckey },
	{ .json_key = "administrator_level", .json = u_admin },
	{ .json_key = "coordinators", .json = u_coords },
	{ .json_key = "flags", .json = j_empty_list },
	{ 0 }
};

/* ---- associations ---- */

/* withassoc rows name the association's account and user apart */
JSN(s_account)
{
	const char *v = cli_sacctmgr_cell(rec, "assocaccount");

	(void)ctx;
	return str(v ? v : cell(rec, "account"));
}

JSN(s_user)
{
	const char *v = cli_sacctmgr_cell(rec, "assocuser");

	(void)ctx;
	return str(v ? v : cell(rec, "user"));
}

STR(s_cluster, "cluster")
STR(s_partition, "partition")
STR(s_parent, "parentname")
STR(s_defqos, "defqos")
INT(s_id, "id")
INT(s_shares, "share")
NUM(s_priority, "priority")
LIST(s_qos, "qos")
NUM(s_maxjobs, "maxjobs")
NUM(s_maxsubmit, "maxsubmit")
NUM(s_maxwall, "maxwall")
NUM(s_grpjobs, "grpjobs")
NUM(s_grpsubmit, "grpsubmit")
NUM(s_grpwall, "grpwall")
TRES(s_grptres, "grptres")
TRES(s_grptresmins, "grptresmins")
TRES(s_grptresrunmins, "grptresrunmins")
TRES(s_maxtres, "maxtres")
TRES(s_maxtrespn, "maxtrespn")
TRES(s_maxtresmins, "maxtresmins")

static const cli_field_t assoc_json[] = {
	{ .json_key = "account", .json = s_account },
	{ .json_key = "cluster", .json = s_cluster },
	{ .json_key = "user", .json = s_user },
	{ .json_key = "partition", .json = s_partition },
	{ .json_key = "parent_account", .json = s_parent },
	{ .json_key = "id", .json = s_id },
	{ .json_key = "comment", .json = j_empty_str },
	{ .json_key = "default/qos", .json = s_defqos },
	{ .json_key = "flags", .json = j_empty_list },
	{ .json_key = "priority", .json = s_priority },
	{ .json_key = "qos", .json = s_qos },
	{ .json_key = "shares_raw", .json = s_shares },
	{ .json_key = "max/jobs/per/count", .json = s_maxjobs },
	{ .json_key = "max/jobs/per/submitted", .json = s_maxsubmit },
	{ .json_key = "max/jobs/per/wall_clock", .json = s_maxwall },
	{ .json_key = "max/jobs/per/accruing", .json = j_unset },
	{ .json_key = "max/jobs/active", .json = s_grpjobs },
	{ .json_key = "max/jobs/total", .json = s_grpsubmit },
	{ .json_key = "max/jobs/accruing", .json = j_unset },
	{ .json_key = "max/per/account/wall_clock", .json = s_grpwall },
	{ .json_key = "max/tres/total", .json = s_grptres },
	{ .json_key = "max/tres/group/minutes", .json = s_grptresmins },
	{ .json_key = "max/tres/group/active", .json = s_grptresrunmins },
	{ .json_key = "max/tres/per/job", .json = s_maxtres },
	{ .json_key = "max/tres/per/node", .json = s_maxtrespn },
	{ .json_key = "max/tres/minutes/per/job", .json = s_maxtresmins },
	{ .json_key = "min/priority_threshold", .json = j_unset },
	{ 0 }
};

/* ---- QOS ---- */

STR(q_name, "name")
STR(q_descr, "descr")
INT(q_id, "id")
NUM(q_priority, "priority")
INT(q_grace, "gracetime")
LIST(q_preempt, "preempt")
NUM(q_grpjobs, "grpjobs")
NUM(q_grpsubmit, "grpsubmit")
NUM(q_grpwall, "grpwall")
NUM(q_maxjobspu, "maxjobspu")
NUM(q_maxsubmitpu, "maxsubmitpu")
NUM(q_maxwall, "maxwall")
TRES(q_grptres, "grptres")
TRES(q_grptresmins, "grptresmins")
TRES(q_grptresrunmins, "grptresrunmins")
TRES(q_maxtres, "maxtres")
TRES(q_maxtrespu, "maxtrespu")
TRES(q_maxtresmins, "maxtresmins")

JSN(q_factor)
{
	(void)ctx;
	return float_no_val(cell(rec, "usagefactor"));
}

JSN(q_flags)
{
	json_object *a = json_object_new_array();

	(void)ctx;
	if (strstr(cell(rec, "flags"), "DenyOnLimit"))
		json_object_array_add(a, str("DENY_LIMIT"));
	if (strstr(cell(rec, "flags"), "OverPartQOS"))
		json_object_array_add(a, str("OVERRIDE_PARTITION_QOS"));
	return a;
}

static const cli_field_t qos_json[] = {
	{ .json_key = "name", .json = q_name },
	{ .json_key = "description", .json = q_descr },
	{ .json_key = "id", .json = q_id },
	{ .json_key = "priority", .json = q_priority },
	{ .json_key = "flags", .json = q_flags },
	{ .json_key = "usage_factor", .json = q_factor },
	{ .json_key = "usage_threshold", .json = j_float_unset },
	{ .json_key = "preempt/list", .json = q_preempt },
	{ .json_key = "preempt/mode", .json = j_empty_list },
	{ .json_key = "preempt/exempt_time", .json = j_unset },
	{ .json_key = "limits/grace_time", .json = q_grace },
	{ .json_key = "limits/factor", .json = j_float_unset },
	{ .json_key = "limits/max/active_jobs/count", .json = q_grpjobs },
	{ .json_key = "limits/max/active_jobs/accruing", .json = j_unset },
	{ .json_key = "limits/max/jobs/count", .json = q_grpsubmit },
	{ .json_key = "limits/max/jobs/active_jobs/per/user",
	  .json = q_maxjobspu },
	{ .json_key = "limits/max/jobs/per/user", .json = q_maxsubmitpu },
	{ .json_key = "limits/max/wall_clock/per/qos", .json = q_grpwall },
	{ .json_key = "limits/max/wall_clock/per/job", .json = q_maxwall },
	{ .json_key = "limits/max/tres/total", .json = q_grptres },
	{ .json_key = "limits/max/tres/minutes/total", .json = q_grptresmins },
	{ .json_key = "limits/max/tres/per/job", .json = q_maxtres },
	{ .json_key = "limits/max/tres/per/user", .json = q_maxtrespu },
	{ .json_key = "limits/max/tres/minutes/per/job",
	  .json = q_maxtresmins },
	{ .json_key = "limits/max/tres/minutes/per/qos",
	  .json = q_grptresrunmins },
	{ .json_key = "limits/min/priority_threshold", .json = j_unset },
	{ 0 }
};

/* ---- clusters ---- */

STR(c_name, "cluster")
STR(c_host, "controlhost")
INT(c_port, "controlport")
INT(c_rpc, "rpc")

JSN(c_root)
{
	json_object *o = json_object_new_object();

	(void)ctx;
	json_object_object_add(o, "account", str("root"));
	json_object_object_add(o, "cluster", str(cell(rec, "cluster")));
	json_object_object_add(o, "partition", str(""));
	json_object_object_add(o, "user", str(""));
	return o;
}

static const cli_field_t cluster_json[] = {
	{ .json_key = "name", .json = c_name },
	{ .json_key = "controller/host", .json = c_host },
	{ .json_key = "controller/port", .json = c_port },
	{ .json_key = "rpc_version", .json = c_rpc },
	{ .json_key = "flags", .json = j_empty_list },
	/* nodes, select_plugin and tres: slurmdbd does not keep what the
	 * controller registers of them, so they are left out rather than
	 * shown empty */
	{ .json_key = "associations/root", .json = c_root },
	{ 0 }
};

/* wckeys: v0.0.43_wckey (no usage kept: accounting empty) */
STR(w_name, "wckey")
STR(w_cluster, "cluster")
STR(w_user, "user")
INT(w_id, "id")

static const cli_field_t wckey_json[] = {
	{ .json_key = "accounting", .json = j_empty_list },
	{ .json_key = "cluster", .json = w_cluster },
	{ .json_key = "flags", .json = j_empty_list },
	{ .json_key = "id", .json = w_id },
	{ .json_key = "name", .json = w_name },
	{ .json_key = "user", .json = w_user },
	{ 0 }
};

static const struct {
	uint16_t           entity;
	const char        *key;
	const cli_field_t *tab;
} docs[] = {
	{ DBD_ENT_ACCOUNT, "accounts", account_json },
	{ DBD_ENT_USER, "users", user_json },
	{ DBD_ENT_ASSOC, "associations", assoc_json },
	{ DBD_ENT_QOS, "qos", qos_json },
	{ DBD_ENT_CLUSTER, "clusters", cluster_json },
	{ DBD_ENT_WCKEY, "wckeys", wckey_json },
};

json_object *cli_sacctmgr_json(uint16_t entity,
			       const dbd_acct_resp_msg_t *resp,
			       const char **key)
{
	size_t ncols = xstrarray_len(resp->cols);
	size_t rows = ncols ? xstrarray_len(resp->cells) / ncols : 0;
	const cli_field_t *tab = NULL;
	cli_ctx_t ctx = { 0 };
	json_object *a;

	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++)
		if (docs[i].entity == entity) {
			tab = docs[i].tab;
			*key = docs[i].key;
		}
	if (!tab)
		return NULL;
	a = json_object_new_array();
	for (size_t i = 0; i < rows; i++) {
		mgr_row_t row = { .cols = resp->cols,
				  .cells = resp->cells + i * ncols,
				  .ncols = ncols };

		json_object_array_add(a, cli_fields_json(tab, &row, &ctx));
	}
	return a;
}

/* assoc_short of association row i: {account, cluster, partition,
 * user, id}. */
static json_object *assoc_short(const dbd_acct_resp_msg_t *m, size_t ncols,
				size_t i)
{
	static const char *const keys[] = {
		"account", "cluster", "partition", "user",
	};
	mgr_row_t row = { .cols = m->cols, .cells = m->cells + i * ncols,
			  .ncols = ncols };
	json_object *o = json_object_new_object();

	for (size_t k = 0; k < 4; k++)
		json_object_object_add(o, keys[k], str(cell(&row, keys[k])));
	json_object_object_add(o, "id", integer(cell(&row, "id")));
	return o;
}

void cli_sacctmgr_json_assocs(json_object *list, uint16_t entity,
			      const dbd_acct_resp_msg_t *assocs)
{
	size_t ncols = xstrarray_len(assocs->cols);
	size_t rows = ncols ? xstrarray_len(assocs->cells) / ncols : 0;
	const char *by = entity == DBD_ENT_USER ? "user" : "account";

	for (size_t r = 0; r < json_object_array_length(list); r++) {
		json_object *rec = json_object_array_get_idx(list, r), *name;
		json_object *a = json_object_new_array();

		json_object_object_get_ex(rec, "name", &name);
		for (size_t i = 0; i < rows; i++) {
			mgr_row_t row = { .cols = assocs->cols,
					  .cells = assocs->cells + i * ncols,
					  .ncols = ncols };

			if (!strcmp(cell(&row, by),
				    json_object_get_string(name)))
				json_object_array_add(
					a, assoc_short(assocs, ncols, i));
		}
		json_object_object_add(rec, "associations", a);
	}
}

void cli_sacctmgr_json_coords(json_object *accounts,
			      const dbd_acct_resp_msg_t *coords)
{
	size_t ncols = xstrarray_len(coords->cols);
	size_t rows = ncols ? xstrarray_len(coords->cells) / ncols : 0;

	for (size_t r = 0; r < json_object_array_length(accounts); r++) {
		json_object *rec = json_object_array_get_idx(accounts, r), *name;
		json_object *a = json_object_new_array();

		json_object_object_get_ex(rec, "name", &name);
		for (size_t i = 0; i < rows; i++) {
			mgr_row_t row = { .cols = coords->cols,
					  .cells = coords->cells + i * ncols,
					  .ncols = ncols };
			json_object *c;

			if (strcmp(cell(&row, "account"),
				   json_object_get_string(name)))
				continue;
			c = json_object_new_object();
			json_object_object_add(c, "name",
					       str(cell(&row, "user")));
			json_object_object_add(c, "direct",
					       json_object_new_boolean(1));
			json_object_array_add(a, c);
		}
		json_object_object_add(rec, "coordinators", a);
	}
}

/* The TRES Sluice counts: sacctmgr show tres (table, -p/-P, --json) and
 * GET /slurmdb/.../tres from this one list. */
static const struct {
	const char *type, *name;
	int         id;
} tres_list[] = {
	{ "cpu", "", 1 }, { "mem", "", 2 }, { "energy", "", 3 },
	{ "node", "", 4 }, { "billing", "", 5 }, { "fs", "disk", 6 },
	{ "vmem", "", 7 }, { "pages", "", 8 },
};

#define NTRES (sizeof(tres_list) / sizeof(tres_list[0]))

json_object *cli_sacctmgr_tres_json(void)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < NTRES; i++) {
		json_object *t = json_object_new_object();

		json_object_object_add(t, "type", str(tres_list[i].type));
		json_object_object_add(t, "name", str(tres_list[i].name));
		json_object_object_add(t, "id",
				       json_object_new_int(tres_list[i].id));
		json_object_object_add(t, "count", json_object_new_int64(0));
		json_object_array_add(a, t);
	}
	return a;
}

void cli_sacctmgr_show_tres(FILE *out, const mgr_opts_t *o)
{
	const char *end = o->parsable ? "|" : "";

	if (o->parsable || o->parsable2) {
		if (!o->noheader)
			fprintf(out, "Type|Name|ID%s\n", end);
		for (size_t i = 0; i < NTRES; i++)
			fprintf(out, "%s|%s|%d%s\n", tres_list[i].type,
				tres_list[i].name, tres_list[i].id, end);
		return;
	}
	if (!o->noheader)
		fprintf(out, "%8s %15s %6s \n-------- --------------- ------ \n",
			"Type", "Name", "ID");
	for (size_t i = 0; i < NTRES; i++)
		fprintf(out, "%8s %15s %6d \n", tres_list[i].type,
			tres_list[i].name, tres_list[i].id);
}
