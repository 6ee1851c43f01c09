/* cli_sacctmgr_fields.c — sacctmgr show's one field table: a row per
 * column (format= name, header, default width, getter over a mgr_row_t)
 * that also says where the value sits in the JSON of each entity it is
 * part of (Slurm 25.05's data_parser v0.0.43: accounts, users,
 * associations, qos, clusters, wckeys).  The table, -p/-P
 * (cli_sacctmgr_show.c), sacctmgr --json/--yaml and slurmrestd's
 * /slurmdb/ lists all walk these rows (cli_sacctmgr.h).
 */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli_sacctmgr.h"
#include "cli/cli_table.h"
#include "common/node_info.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

/* ---- getters: one per column name ---- */

const char *cli_sacctmgr_cell(const mgr_row_t *row, const char *name)
{
	for (size_t i = 0; i < row->ncols; i++)
		if (!strcmp(row->cols[i], name))
			return row->cells[i];
	return NULL;
}

static void put(char **out, const char *v)
{
	xstrcat(out, v ? v : "");
	if (!*out)
		*out = xstrdup("");
}

#define CELL(fn, col)                                                   \
	static void fn(char **out, const void *rec, const cli_ctx_t *ctx)   \
	{                                                                   \
		put(out, cli_sacctmgr_cell(rec, col));                      \
	}
#define FIXED(fn, text)                                                 \
	static void fn(char **out, const void *rec, const cli_ctx_t *ctx)   \
	{                                                                   \
		put(out, text);                                             \
	}

CELL(g_cluster, "cluster")
CELL(g_chost, "controlhost")
CELL(g_cport, "controlport")
CELL(g_rpc, "rpc")
CELL(g_partition, "partition")
/* Fairshare=parent is stored as 2147483647 */
static void g_share(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const char *v = cli_sacctmgr_cell(rec, "share");

	put(out, v && !strcmp(v, "2147483647") ? "parent" : v);
}
CELL(g_priority, "priority")
CELL(g_grpjobs, "grpjobs")
CELL(g_grpsubmit, "grpsubmit")
CELL(g_maxjobs, "maxjobs")
CELL(g_maxsubmit, "maxsubmit")
CELL(g_qos, "qos")
CELL(g_defqos, "defqos")
CELL(g_descr, "descr")
CELL(g_org, "org")
CELL(g_defacct, "defacct")
CELL(g_admin, "admin")
CELL(g_name, "name")
CELL(g_id, "id")
CELL(g_maxjobspu, "maxjobspu")
CELL(g_maxsubmitpu, "maxsubmitpu")
CELL(g_grptres, "grptres")
CELL(g_maxtres, "maxtres")
CELL(g_maxtrespn, "maxtrespn")
CELL(g_maxtrespu, "maxtrespu")
CELL(g_preempt, "preempt")
CELL(g_flags, "flags")
CELL(g_coords, "coords")
CELL(g_grptresmins, "grptresmins")
CELL(g_grptresrunmins, "grptresrunmins")
CELL(g_maxtresmins, "maxtresmins")
CELL(g_tres, "tres")
CELL(g_problem, "problem")
CELL(g_jobid, "jobid")
CELL(g_wckey, "wckey")
CELL(g_defwckey, "defwckey")
CELL(g_server, "server")
CELL(g_rtype, "type")
CELL(g_count, "count")
CELL(g_allocated, "allocated")
CELL(g_servertype, "servertype")
CELL(g_allowed, "pctallowed")
CELL(g_action, "action")
CELL(g_actor, "actor")
CELL(g_where, "where")
CELL(g_info, "info")
FIXED(g_empty, "")

/* Reservations: times as sacctmgr prints them, unused wall seconds. */
static void g_rtime(char **out, const char *v)
{
	char buf[32];

	if (v && *v && strtoll(v, NULL, 10) > 0) {
		fmt_time((time_t)strtoll(v, NULL, 10), buf, sizeof(buf));
		put(out, buf);
	} else {
		put(out, "");
	}
}

static void g_txntime(char **out, const void *rec, const cli_ctx_t *ctx)
{
	g_rtime(out, cli_sacctmgr_cell(rec, "timestamp"));
}

static void g_tstart(char **out, const void *rec, const cli_ctx_t *ctx)
{
	g_rtime(out, cli_sacctmgr_cell(rec, "timestart"));
}

/* An event row (it carries the uid that set the reason). */
static bool is_event(const void *rec)
{
	return cli_sacctmgr_cell(rec, "reasonuid") != NULL;
}

static void g_tend(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const char *v = cli_sacctmgr_cell(rec, "timeend");

	if (is_event(rec) && (!v || !strcmp(v, "0")))
		put(out, "Unknown");          /* still open */
	else
		g_rtime(out, v);
}

CELL(g_nodename, "nodename")
CELL(g_reason, "reason")

/* An event's node state as Slurm's event list names it: DRAIN, FAIL,
 * else the base state (DOWN, ...). */
static void g_evstate(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const char *v = cli_sacctmgr_cell(rec, "state");
	uint32_t st = v ? (uint32_t)strtoul(v, NULL, 10) : 0;
	const char *names[16];
	const char *node = cli_sacctmgr_cell(rec, "nodename");

	if (!v || !*v || !node || !*node) {    /* a cluster's event */
		put(out, "");
	} else if (st & NODE_STATE_DRAIN) {
		put(out, "DRAIN");
	} else if (st & NODE_STATE_FAIL) {
		put(out, "FAIL");
	} else if (node_state_strings(st & NODE_STATE_BASE, names) > 0) {
		put(out, names[0]);
	} else {
		put(out, "");
	}
}

/* [days-]hh:mm:ss from the start to the end (or now, still open). */
static void g_duration(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const char *s = cli_sacctmgr_cell(rec, "timestart");
	const char *e = cli_sacctmgr_cell(rec, "timeend");
	long long t0 = s ? strtoll(s, NULL, 10) : 0;
	long long t1 = e ? strtoll(e, NULL, 10) : 0;
	long long d;
	char buf[32];

	if (!t0) {
		put(out, "");
		return;
	}
	d = (t1 > 0 ? t1 : (long long)time(NULL)) - t0;
	if (d < 0)
		d = 0;
	if (d >= 86400)
		snprintf(buf, sizeof(buf), "%lld-%02lld:%02lld:%02lld",
			 d / 86400, d % 86400 / 3600, d % 3600 / 60, d % 60);
	else
		snprintf(buf, sizeof(buf), "%02lld:%02lld:%02lld", d / 3600,
			 d % 3600 / 60, d % 60);
	put(out, buf);
}

static void g_unused(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const char *v = cli_sacctmgr_cell(rec, "unusedwall");
	char buf[32];

	snprintf(buf, sizeof(buf), "%f", v ? strtod(v, NULL) : 0.0);
	put(out, buf);
}
FIXED(g_pmode, "cluster")

/* withassoc rows carry the association's account/user separately. */
static void g_account(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const mgr_row_t *r = rec;
	const char *v = cli_sacctmgr_cell(r, "assocaccount");

	if (!v)
		v = cli_sacctmgr_cell(r, "account");
	for (int i = 0; i < r->depth; i++)
		xstrcatc(out, ' ');
	put(out, v);
}

static void g_user(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const char *v = cli_sacctmgr_cell(rec, "assocuser");
	const char *uid = cli_sacctmgr_cell(rec, "reasonuid");

	if (uid) {                  /* an event: who set the reason */
		unsigned long u = strtoul(uid, NULL, 10);
		struct passwd *pw;

		if (u >= 0xfffffffeUL) {
			put(out, "");
		} else {
			pw = getpwuid((uid_t)u);
			xstrfmtcat(out, "%s(%lu)", pw ? pw->pw_name : "?", u);
		}
		return;
	}
	put(out, v ? v : cli_sacctmgr_cell(rec, "user"));
}

/* Only an account's association has a parent to show. */
static void g_parent(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const char *user = cli_sacctmgr_cell(rec, "assocuser");

	if (!user)
		user = cli_sacctmgr_cell(rec, "user");
	put(out, user && *user ? "" : cli_sacctmgr_cell(rec, "parentname"));
}

static void wall(char **out, const char *minutes)
{
	char buf[64];
	uint32_t m;

	if (!minutes || !*minutes || parse_u32(minutes, &m) < 0) {
		put(out, "");
		return;
	}
	fmt_time_limit(m, buf, sizeof(buf));
	put(out, buf);
}

static void g_grpwall(char **out, const void *rec, const cli_ctx_t *ctx)
{
	wall(out, cli_sacctmgr_cell(rec, "grpwall"));
}

static void g_maxwall(char **out, const void *rec, const cli_ctx_t *ctx)
{
	wall(out, cli_sacctmgr_cell(rec, "maxwall"));
}

static void g_ufactor(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const char *v = cli_sacctmgr_cell(rec, "usagefactor");

	if (!v || !*v)
		put(out, "");
	else
		xstrfmtcat(out, "%f", atof(v));
}

/* GraceTime: seconds as [D-]HH:MM:SS. */
static void g_grace(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const char *v = cli_sacctmgr_cell(rec, "gracetime");
	unsigned long s = v && *v ? strtoul(v, NULL, 10) : 0;

	if (s >= 86400)
		xstrfmtcat(out, "%lu-", s / 86400);
	xstrfmtcat(out, "%02lu:%02lu:%02lu", s / 3600 % 24, s / 60 % 60,
		   s % 60);
}

/* GrpCPUs, GrpMem, GrpNodes, MaxCPUs, MaxNodes: one TRES of a limit. */
static void tres_item(char **out, const void *rec, const char *col,
		      const char *tres)
{
	const char *v = cli_sacctmgr_cell(rec, col);
	size_t n = strlen(tres);

	for (const char *p = v; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 :
	     NULL) {
		if (!strncmp(p, tres, n) && p[n] == '=') {
			const char *end = strchr(p, ',');

			xstrncat(out, p + n + 1, end ? (size_t)(end - p - n - 1) :
				 strlen(p + n + 1));
			return;
		}
	}
	put(out, "");
}

#define TRES_ITEM(fn, col, tres)                                        \
	static void fn(char **out, const void *rec, const cli_ctx_t *ctx)   \
	{                                                                   \
		tres_item(out, rec, col, tres);                             \
	}
TRES_ITEM(g_grpcpus, "grptres", "cpu")
TRES_ITEM(g_grpmem, "grptres", "mem")
TRES_ITEM(g_grpnodes, "grptres", "node")
TRES_ITEM(g_maxcpus, "maxtres", "cpu")
TRES_ITEM(g_maxnodes, "maxtres", "node")
TRES_ITEM(g_grpcpumins, "grptresmins", "cpu")
TRES_ITEM(g_maxcpumins, "maxtresmins", "cpu")
TRES_ITEM(g_grpcpurunmins, "grptresrunmins", "cpu")

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

JSN(j_zero)
{
	(void)rec;
	(void)ctx;
	return json_object_new_int64(0);
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


STR(j_parent, "parentname")
INT(j_id, "id")
INT(j_share, "share")
INT(j_grace, "gracetime")
INT(j_cport, "controlport")
INT(j_rpc, "rpc")
NUM(j_priority, "priority")
NUM(j_maxjobs, "maxjobs")
NUM(j_maxsubmit, "maxsubmit")
NUM(j_maxwall, "maxwall")
NUM(j_grpjobs, "grpjobs")
NUM(j_grpsubmit, "grpsubmit")
NUM(j_grpwall, "grpwall")
NUM(j_maxjobspu, "maxjobspu")
NUM(j_maxsubmitpu, "maxsubmitpu")
LIST(j_qos, "qos")
LIST(j_preempt, "preempt")
TRES(j_grptres, "grptres")
TRES(j_grptresmins, "grptresmins")
TRES(j_grptresrunmins, "grptresrunmins")
TRES(j_maxtres, "maxtres")
TRES(j_maxtrespn, "maxtrespn")
TRES(j_maxtresmins, "maxtresmins")
TRES(j_maxtrespu, "maxtrespu")

JSN(j_admin)
{
	json_object *a = json_object_new_array();
	const char *v = cell(rec, "admin");

	(void)ctx;
	json_object_array_add(a, str(*v ? v : "None"));
	return a;
}

JSN(j_coords)
{
	json_object *a = json_object_new_array();
	char **items = xstrsplit(cell(rec, "coords"), ",", NULL);

	(void)ctx;
	for (size_t i = 0; items && items[i]; i++) {
		json_object *c;

		if (!items[i][0])
			continue;
		c = json_object_new_object();
		json_object_object_add(c, "name", str(items[i]));
		json_object_object_add(c, "direct",
				       json_object_new_boolean(1));
		json_object_array_add(a, c);
	}
	xstrarray_free(items);
	return a;
}

JSN(j_factor)
{
	(void)ctx;
	return float_no_val(cell(rec, "usagefactor"));
}

JSN(j_qos_flags)
{
	json_object *a = json_object_new_array();

	(void)ctx;
	if (strstr(cell(rec, "flags"), "DenyOnLimit"))
		json_object_array_add(a, str("DENY_LIMIT"));
	if (strstr(cell(rec, "flags"), "OverPartQOS"))
		json_object_array_add(a, str("OVERRIDE_PARTITION_QOS"));
	return a;
}

/* a cluster's root association (assoc_short) */
JSN(j_root)
{
	json_object *o = json_object_new_object();

	(void)ctx;
	json_object_object_add(o, "account", str("root"));
	json_object_object_add(o, "cluster", str(cell(rec, "cluster")));
	json_object_object_add(o, "partition", str(""));
	json_object_object_add(o, "user", str(""));
	return o;
}

/* ---- the table ---- */

/* The entities a JSON place is part of. */
#define E(x)     (1u << DBD_ENT_##x)
#define ACCT     E(ACCOUNT)
#define USER     E(USER)
#define ASSOC    E(ASSOC)
#define QOS      E(QOS)
#define CLUS     E(CLUSTER)
#define WCKEY    E(WCKEY)
#define TRESE    E(TRES)

/* A column: name (format=), header, getter, default width (< 0
 * left-justified), then its JSON places { entities, key, builder (NULL:
 * the column's text) }. */
#define F(nm, hd, fn, w, ...) \
	{ .f = { .name = (nm), .header = (hd), .text = (fn), .width = (w) }, \
	  .js = { __VA_ARGS__ } }
/* A JSON member with no column (what Sluice does not keep). */
#define JO(ents, key, fn) \
	{ .f = { .text = g_empty }, .js = { { (ents), (key), (fn) } } }
#define NOJ { 0 }

const mgr_field_t cli_sacctmgr_fields[] = {
	F("Cluster", "Cluster", g_cluster, 10, { CLUS, "name", NULL },
	  { ASSOC | WCKEY, "cluster", NULL }),
	F("ControlHost", "ControlHost", g_chost, 15,
	  { CLUS, "controller/host", NULL }),
	F("ControlPort", "ControlPort", g_cport, 12,
	  { CLUS, "controller/port", j_cport }),
	F("RPC", "RPC", g_rpc, 5, { CLUS, "rpc_version", j_rpc }),
	F("Account", "Account", g_account, 10, { ACCT, "name", NULL },
	  { ASSOC, "account", NULL }),
	F("User", "User", g_user, 10, { USER, "name", NULL },
	  { ASSOC | WCKEY, "user", NULL }),
	F("Partition", "Partition", g_partition, 10,
	  { ASSOC, "partition", NULL }),
	F("Share", "Share", g_share, 9, { ASSOC, "shares_raw", j_share }),
	F("Priority", "Priority", g_priority, 10,
	  { ASSOC | QOS, "priority", j_priority }),
	F("GrpJobs", "GrpJobs", g_grpjobs, 7,
	  { ASSOC, "max/jobs/active", j_grpjobs },
	  { QOS, "limits/max/active_jobs/count", j_grpjobs }),
	F("GrpTRES", "GrpTRES", g_grptres, 13,
	  { ASSOC, "max/tres/total", j_grptres },
	  { QOS, "limits/max/tres/total", j_grptres }),
	F("GrpSubmit", "GrpSubmit", g_grpsubmit, 9,
	  { ASSOC, "max/jobs/total", j_grpsubmit },
	  { QOS, "limits/max/jobs/count", j_grpsubmit }),
	F("GrpWall", "GrpWall", g_grpwall, 11,
	  { ASSOC, "max/per/account/wall_clock", j_grpwall },
	  { QOS, "limits/max/wall_clock/per/qos", j_grpwall }),
	F("GrpTRESMins", "GrpTRESMins", g_grptresmins, 13,
	  { ASSOC, "max/tres/group/minutes", j_grptresmins },
	  { QOS, "limits/max/tres/minutes/total", j_grptresmins }),
	F("MaxJobs", "MaxJobs", g_maxjobs, 7,
	  { ASSOC, "max/jobs/per/count", j_maxjobs }),
	F("MaxTRES", "MaxTRES", g_maxtres, 13,
	  { ASSOC, "max/tres/per/job", j_maxtres },
	  { QOS, "limits/max/tres/per/job", j_maxtres }),
	F("MaxTRESPerNode", "MaxTRESPerNode", g_maxtrespn, 14,
	  { ASSOC, "max/tres/per/node", j_maxtrespn }),
	F("MaxSubmit", "MaxSubmit", g_maxsubmit, 9,
	  { ASSOC, "max/jobs/per/submitted", j_maxsubmit }),
	F("MaxWall", "MaxWall", g_maxwall, 11,
	  { ASSOC, "max/jobs/per/wall_clock", j_maxwall },
	  { QOS, "limits/max/wall_clock/per/job", j_maxwall }),
	F("MaxTRESMins", "MaxTRESMins", g_maxtresmins, 13,
	  { ASSOC, "max/tres/minutes/per/job", j_maxtresmins },
	  { QOS, "limits/max/tres/minutes/per/job", j_maxtresmins }),
	F("QOS", "QOS", g_qos, 20, { ASSOC, "qos", j_qos }),
	F("DefaultQOS", "Def QOS", g_defqos, 9,
	  { ASSOC, "default/qos", NULL }),
	F("GrpTRESRunMins", "GrpTRESRunMins", g_grptresrunmins, 13,
	  { ASSOC, "max/tres/group/active", j_grptresrunmins },
	  { QOS, "limits/max/tres/minutes/per/qos", j_grptresrunmins }),
	F("Description", "Descr", g_descr, 20,
	  { ACCT | QOS, "description", NULL }),
	F("Organization", "Org", g_org, 20,
	  { ACCT, "organization", NULL }),
	F("DefaultAccount", "Def Acct", g_defacct, 10,
	  { USER, "default/account", NULL }),
	F("DefaultWCKey", "Def WCKey", g_defwckey, 10,
	  { USER, "default/wckey", NULL }),
	F("AdminLevel", "Admin", g_admin, 9,
	  { USER, "administrator_level", j_admin }),
	F("Name", "Name", g_name, 10, { QOS | TRESE, "name", NULL }),
	/* the stored parent, also of a user's association (the column
	 * shows it only for an account's) */
	F("ParentName", "ParentName", g_parent, 10,
	  { ASSOC, "parent_account", j_parent }),
	F("ID", "ID", g_id, 6, { ASSOC | QOS | WCKEY | TRESE, "id", j_id }),
	F("GraceTime", "GraceTime", g_grace, 10,
	  { QOS, "limits/grace_time", j_grace }),
	F("Preempt", "Preempt", g_preempt, 10,
	  { QOS, "preempt/list", j_preempt }),
	F("PreemptExemptTime", "PreemptExemptTime", g_empty, 19,
	  { QOS, "preempt/exempt_time", j_unset }),
	F("PreemptMode", "PreemptMode", g_pmode, 11,
	  { QOS, "preempt/mode", j_empty_list }),
	F("Flags", "Flags", g_flags, 20, { QOS, "flags", j_qos_flags },
	  { ACCT | USER | ASSOC | CLUS | WCKEY, "flags", j_empty_list }),
	F("UsageThres", "UsageThres", g_empty, 10,
	  { QOS, "usage_threshold", j_float_unset }),
	F("UsageFactor", "UsageFactor", g_ufactor, 11,
	  { QOS, "usage_factor", j_factor }),
	F("MaxTRESPU", "MaxTRESPU", g_maxtrespu, 13,
	  { QOS, "limits/max/tres/per/user", j_maxtrespu }),
	F("MaxJobsPU", "MaxJobsPU", g_maxjobspu, 9,
	  { QOS, "limits/max/jobs/active_jobs/per/user", j_maxjobspu }),
	F("MaxSubmitPU", "MaxSubmitPU", g_maxsubmitpu, 11,
	  { QOS, "limits/max/jobs/per/user", j_maxsubmitpu }),
	F("MaxTRESPA", "MaxTRESPA", g_empty, 13, NOJ),
	F("MaxJobsPA", "MaxJobsPA", g_empty, 9, NOJ),
	F("MaxSubmitPA", "MaxSubmitPA", g_empty, 11, NOJ),
	F("MinTRES", "MinTRES", g_empty, 13, NOJ),
	F("GrpNodes", "GrpNodes", g_grpnodes, 8, NOJ),
	F("GrpCPUs", "GrpCPUs", g_grpcpus, 8, NOJ),
	F("GrpMem", "GrpMem", g_grpmem, 7, NOJ),
	F("GrpCPUMins", "GrpCPUMins", g_grpcpumins, 11, NOJ),
	F("MaxNodes", "MaxNodes", g_maxnodes, 8, NOJ),
	F("MaxCPUs", "MaxCPUs", g_maxcpus, 8, NOJ),
	F("MaxCPUMins", "MaxCPUMins", g_maxcpumins, 11, NOJ),
	/* accounts' coordinators come from another list
	 * (cli_sacctmgr_json_coords) */
	F("Coordinators", "Coord Accounts", g_coords, 20,
	  { USER, "coordinators", j_coords },
	  { ACCT, "coordinators", j_empty_list }),
	F("GrpCPURunMins", "GrpCPURunMins", g_grpcpurunmins, 13, NOJ),
	F("TRES", "TRES", g_tres, 30, NOJ),
	F("TimeStart", "TimeStart", g_tstart, 19, NOJ),
	F("TimeEnd", "TimeEnd", g_tend, 19, NOJ),
	F("UnusedWall", "UnusedWall", g_unused, 10, NOJ),
	F("Problem", "Problem", g_problem, 40, NOJ),
	F("JobID", "JobID", g_jobid, 10, NOJ),
	F("NodeName", "NodeName", g_nodename, -15, NOJ),
	F("State", "State", g_evstate, 6, NOJ),
	F("Reason", "Reason", g_reason, 30, NOJ),
	F("Duration", "Duration", g_duration, 13, NOJ),
	F("WCKey", "WCKey", g_wckey, 10, { WCKEY, "name", NULL }),
	F("Server", "Server", g_server, 10, NOJ),
	F("Type", "Type", g_rtype, 8, { TRESE, "type", NULL }),
	F("Count", "Count", g_count, 6, NOJ),
	F("Allocated", "% Allocated", g_allocated, 11, NOJ),
	F("ServerType", "ServerType", g_servertype, 10, NOJ),
	F("Allowed", "% Allowed", g_allowed, 10, NOJ),
	F("Time", "Time", g_txntime, 19, NOJ),
	F("Action", "Action", g_action, 20, NOJ),
	F("Actor", "Actor", g_actor, 10, NOJ),
	F("Where", "Where", g_where, 20, NOJ),
	F("Info", "Info", g_info, 20, NOJ),
	/* data_parser members Sluice keeps no value for */
	JO(ASSOC, "comment", j_empty_str),
	JO(ASSOC, "max/jobs/per/accruing", j_unset),
	JO(ASSOC, "max/jobs/accruing", j_unset),
	JO(ASSOC, "min/priority_threshold", j_unset),
	JO(QOS, "limits/factor", j_float_unset),
	JO(QOS, "limits/max/active_jobs/accruing", j_unset),
	JO(QOS, "limits/min/priority_threshold", j_unset),
	/* slurmdbd keeps no usage per wckey */
	JO(WCKEY, "accounting", j_empty_list),
	/* a TRES's count is what a controller registered of it: slurmdbd
	 * keeps the names only */
	JO(TRESE, "count", j_zero),
	/* nodes, select_plugin and tres: slurmdbd does not keep what the
	 * controller registers of them, so they are left out rather than
	 * shown empty */
	JO(CLUS, "associations/root", j_root),
	{ { 0 } }
};

#undef F
#undef JO

/* ---- JSON: a view of the rows for one entity ---- */

static const struct {
	uint16_t    entity;
	const char *key;       /* the document's list */
} json_docs[] = {
	{ DBD_ENT_ACCOUNT, "accounts" }, { DBD_ENT_USER, "users" },
	{ DBD_ENT_ASSOC, "associations" }, { DBD_ENT_QOS, "qos" },
	{ DBD_ENT_CLUSTER, "clusters" }, { DBD_ENT_WCKEY, "wckeys" },
	{ DBD_ENT_TRES, "TRES" },
};

#define NFIELDS (sizeof(cli_sacctmgr_fields) / sizeof(cli_sacctmgr_fields[0]))

/* The cli_field_t rows of entity's JSON (a key and builder each),
 * ending with an empty row; view holds NFIELDS * MGR_JSON_MAX + 1. */
static void json_view(uint16_t entity, cli_field_t *view)
{
	size_t n = 0;

	for (const mgr_field_t *m = cli_sacctmgr_fields;
	     m->f.name || m->f.text; m++)
		for (int k = 0; k < MGR_JSON_MAX && m->js[k].key; k++) {
			if (!(m->js[k].ents & (1u << entity)))
				continue;
			view[n] = m->f;
			view[n].json_key = m->js[k].key;
			view[n].json = m->js[k].json;
			n++;
		}
	memset(&view[n], 0, sizeof(view[n]));
}

json_object *cli_sacctmgr_json(uint16_t entity,
			       const dbd_acct_resp_msg_t *resp,
			       const char **key)
{
	cli_field_t *view;
	size_t ncols = xstrarray_len(resp->cols);
	size_t rows = ncols ? xstrarray_len(resp->cells) / ncols : 0;
	cli_ctx_t ctx = { 0 };
	json_object *a;

	*key = NULL;
	for (size_t i = 0; i < sizeof(json_docs) / sizeof(json_docs[0]); i++)
		if (json_docs[i].entity == entity)
			*key = json_docs[i].key;
	if (!*key)
		return NULL;
	view = xcalloc(NFIELDS * MGR_JSON_MAX + 1, sizeof(*view));
	json_view(entity, view);
	a = json_object_new_array();
	for (size_t i = 0; i < rows; i++) {
		mgr_row_t row = { .cols = resp->cols,
				  .cells = resp->cells + i * ncols,
				  .ncols = ncols };

		json_object_array_add(a, cli_fields_json(view, &row, &ctx));
	}
	xfree(view);
	return a;
}
