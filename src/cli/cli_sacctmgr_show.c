/* cli_sacctmgr_show.c — sacctmgr show/list: the field table, format=,
 * association tree order, and the table / -p / -P output.
 *
 * The rows are cli_field_t (a default width each, < 0 left-justified)
 * printed by cli_table.h: cells followed by a space, a value longer than
 * its column cut and ending in '+', headers cut without a mark, a dashed
 * line after the header.
 */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli_table.h"
#include "cli/cli_sacctmgr.h"
#include "common/log.h"
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

/* name (format=), header, getter, default width (< 0 left-justified) */
#define F(nm, hd, fn, w) { .name = (nm), .header = (hd), .text = (fn), \
			   .width = (w) }

const cli_field_t cli_sacctmgr_fields[] = {
	F("Cluster", "Cluster", g_cluster, 10),
	F("ControlHost", "ControlHost", g_chost, 15),
	F("ControlPort", "ControlPort", g_cport, 12),
	F("RPC", "RPC", g_rpc, 5),
	F("Account", "Account", g_account, 10),
	F("User", "User", g_user, 10),
	F("Partition", "Partition", g_partition, 10),
	F("Share", "Share", g_share, 9),
	F("Priority", "Priority", g_priority, 10),
	F("GrpJobs", "GrpJobs", g_grpjobs, 7),
	F("GrpTRES", "GrpTRES", g_grptres, 13),
	F("GrpSubmit", "GrpSubmit", g_grpsubmit, 9),
	F("GrpWall", "GrpWall", g_grpwall, 11),
	F("GrpTRESMins", "GrpTRESMins", g_grptresmins, 13),
	F("MaxJobs", "MaxJobs", g_maxjobs, 7),
	F("MaxTRES", "MaxTRES", g_maxtres, 13),
	F("MaxTRESPerNode", "MaxTRESPerNode", g_maxtrespn, 14),
	F("MaxSubmit", "MaxSubmit", g_maxsubmit, 9),
	F("MaxWall", "MaxWall", g_maxwall, 11),
	F("MaxTRESMins", "MaxTRESMins", g_maxtresmins, 13),
	F("QOS", "QOS", g_qos, 20),
	F("DefaultQOS", "Def QOS", g_defqos, 9),
	F("GrpTRESRunMins", "GrpTRESRunMins", g_grptresrunmins, 13),
	F("Description", "Descr", g_descr, 20),
	F("Organization", "Org", g_org, 20),
	F("DefaultAccount", "Def Acct", g_defacct, 10),
	F("DefaultWCKey", "Def WCKey", g_defwckey, 10),
	F("AdminLevel", "Admin", g_admin, 9),
	F("Name", "Name", g_name, 10),
	F("ParentName", "ParentName", g_parent, 10),
	F("ID", "ID", g_id, 6),
	F("GraceTime", "GraceTime", g_grace, 10),
	F("Preempt", "Preempt", g_preempt, 10),
	F("PreemptExemptTime", "PreemptExemptTime", g_empty, 19),
	F("PreemptMode", "PreemptMode", g_pmode, 11),
	F("Flags", "Flags", g_flags, 20),
	F("UsageThres", "UsageThres", g_empty, 10),
	F("UsageFactor", "UsageFactor", g_ufactor, 11),
	F("MaxTRESPU", "MaxTRESPU", g_maxtrespu, 13),
	F("MaxJobsPU", "MaxJobsPU", g_maxjobspu, 9),
	F("MaxSubmitPU", "MaxSubmitPU", g_maxsubmitpu, 11),
	F("MaxTRESPA", "MaxTRESPA", g_empty, 13),
	F("MaxJobsPA", "MaxJobsPA", g_empty, 9),
	F("MaxSubmitPA", "MaxSubmitPA", g_empty, 11),
	F("MinTRES", "MinTRES", g_empty, 13),
	F("GrpNodes", "GrpNodes", g_grpnodes, 8),
	F("GrpCPUs", "GrpCPUs", g_grpcpus, 8),
	F("GrpMem", "GrpMem", g_grpmem, 7),
	F("GrpCPUMins", "GrpCPUMins", g_grpcpumins, 11),
	F("MaxNodes", "MaxNodes", g_maxnodes, 8),
	F("MaxCPUs", "MaxCPUs", g_maxcpus, 8),
	F("MaxCPUMins", "MaxCPUMins", g_maxcpumins, 11),
	F("Coordinators", "Coord Accounts", g_coords, 20),
	F("GrpCPURunMins", "GrpCPURunMins", g_grpcpurunmins, 13),
	F("TRES", "TRES", g_tres, 30),
	F("TimeStart", "TimeStart", g_tstart, 19),
	F("TimeEnd", "TimeEnd", g_tend, 19),
	F("UnusedWall", "UnusedWall", g_unused, 10),
	F("Problem", "Problem", g_problem, 40),
	F("JobID", "JobID", g_jobid, 10),
	F("NodeName", "NodeName", g_nodename, -15),
	F("State", "State", g_evstate, 6),
	F("Reason", "Reason", g_reason, 30),
	F("Duration", "Duration", g_duration, 13),
	F("WCKey", "WCKey", g_wckey, 10),
	F("Server", "Server", g_server, 10),
	F("Type", "Type", g_rtype, 8),
	F("Count", "Count", g_count, 6),
	F("Allocated", "% Allocated", g_allocated, 11),
	F("ServerType", "ServerType", g_servertype, 10),
	F("Allowed", "% Allowed", g_allowed, 10),
	F("Time", "Time", g_txntime, 19),
	F("Action", "Action", g_action, 20),
	F("Actor", "Actor", g_actor, 10),
	F("Where", "Where", g_where, 20),
	F("Info", "Info", g_info, 20),
	{ 0 }
};

/* Other spellings format= accepts. */
static const cli_alias_t aliases[] = {
	{ "Fairshare", "Share" }, { "Shares", "Share" },
	{ "GrpSubmitJobs", "GrpSubmit" }, { "MaxSubmitJobs", "MaxSubmit" },
	{ "Descr", "Description" }, { "Org", "Organization" },
	{ "DefQOS", "DefaultQOS" }, { "DefAcct", "DefaultAccount" },
	{ "DefWCKey", "DefaultWCKey" },
	{ "Admin", "AdminLevel" }, { "Acct", "Account" },
	{ "ParentN", "ParentName" }, { "Par", "ParentName" },
	{ "MaxJobsPerUser", "MaxJobsPU" },
	{ "MaxSubmitJobsPerUser", "MaxSubmitPU" },
	{ "QOSLevel", "QOS" }, { "MaxTRESPerJob", "MaxTRES" },
	{ "MaxTRESPJ", "MaxTRES" }, { "MaxTRESPerUser", "MaxTRESPU" },
	{ "MaxTRESPN", "MaxTRESPerNode" },
	{ "MaxTRESMinsPerJob", "MaxTRESMins" },
	{ "MaxTRESMinsPJ", "MaxTRESMins" },
	{ "Start", "TimeStart" }, { "End", "TimeEnd" },
	{ "PercentAllowed", "Allowed" }, { "TimeStamp", "Time" },
	{ NULL, NULL }
};

static const char *const default_formats[] = {
	[DBD_ENT_CLUSTER] = "Cluster,ControlHost,ControlPort,RPC,Share,GrpJobs,"
		"GrpTRES,GrpSubmit,MaxJobs,MaxTRES,MaxSubmit,MaxWall,QOS,"
		"DefaultQOS",
	[DBD_ENT_ACCOUNT] = "Account,Description,Organization",
	[DBD_ENT_USER] = "User,DefaultAccount,AdminLevel",
	[DBD_ENT_RESV] = "Cluster,Name%15,TRES,TimeStart,TimeEnd,UnusedWall",
	[DBD_ENT_PROBLEM] = "Cluster,Account,User,Problem",
	[DBD_ENT_EVENT] = "Cluster,NodeName,TimeStart,TimeEnd,State,Reason,"
		"User",
	[DBD_ENT_WCKEY] = "WCKey,Cluster,User",
	[DBD_ENT_RESOURCE] = "Name,Server,Type,Count,Allocated,ServerType",
	[DBD_ENT_TXN] = "Time,Action,Actor,Where,Info",
	[DBD_ENT_QOS] = "Name,Priority,GraceTime,Preempt,PreemptExemptTime,"
		"PreemptMode,Flags%40,UsageThres,UsageFactor,GrpTRES,GrpTRESMins,"
		"GrpTRESRunMins,GrpJobs,GrpSubmit,GrpWall,MaxTRES,"
		"MaxTRESPerNode,MaxTRESMins,MaxWall,MaxTRESPU,MaxJobsPU,"
		"MaxSubmitPU,MaxTRESPA,MaxJobsPA,MaxSubmitPA,MinTRES",
	[DBD_ENT_ASSOC] = "Cluster,Account,User,Partition,Share,Priority,"
		"GrpJobs,GrpTRES,GrpSubmit,GrpWall,GrpTRESMins,MaxJobs,MaxTRES,"
		"MaxTRESPerNode,MaxSubmit,MaxWall,MaxTRESMins,QOS,DefaultQOS,"
		"GrpTRESRunMins",
};

/* withassoc: what follows the account's own columns, and the user's. */
#define ASSOC_FORMAT "Cluster,ParentName,User,Share,Priority,GrpJobs," \
	"GrpNodes,GrpCPUs,GrpMem,GrpSubmit,GrpWall,GrpCPUMins,MaxJobs," \
	"MaxNodes,MaxCPUs,MaxSubmit,MaxWall,MaxCPUMins,QOS,DefaultQOS"
#define USER_ASSOC_FORMAT "User,DefaultAccount,AdminLevel,Cluster,Account," \
	"Partition,Share,Priority,MaxJobs,MaxNodes,MaxCPUs,MaxSubmit," \
	"MaxWall,MaxCPUMins,QOS,DefaultQOS"

/* ---- format= ---- */

/* spec's columns after those t has; Slurm's words for an unknown one. */
static int add_columns(cli_table_t *t, const char *spec)
{
	char *bad = NULL;

	if (cli_table_add(t, CLI_TABLE(cli_sacctmgr_fields), aliases, spec,
			  &bad) < 0) {
		fprintf(stderr, "Unknown field '%s'\n", bad);
		xfree(bad);
		return -1;
	}
	return 0;
}

static int build_format(cli_table_t *t, const mgr_show_t *s)
{
	const char *spec = s->format;

	memset(t, 0, sizeof(*t));
	if (!spec && s->with_assoc && s->entity == DBD_ENT_USER)
		spec = USER_ASSOC_FORMAT;
	if (!spec && s->with_coord && s->entity == DBD_ENT_USER)
		spec = "User,DefaultAccount,AdminLevel,Coordinators";
	if (!spec && s->with_assoc && s->entity == DBD_ENT_RESOURCE)
		spec = "Name,Server,Type,Count,Allocated,ServerType,Cluster,"
		       "Allowed";
	if (!spec)
		spec = default_formats[s->entity];
	if (add_columns(t, spec) < 0)
		return -1;
	/* tree: the (indented) accounts left-justified, 20 wide */
	for (size_t i = 0; s->tree && i < t->cnt; i++) {
		cli_tcol_t *c = &t->cols[i];

		if (c->field->text == g_account)
			c->width = c->set ? -abs(c->width) : -20;
	}
	if (!s->format && s->with_assoc && s->entity == DBD_ENT_ACCOUNT)
		return add_columns(t, ASSOC_FORMAT);
	return 0;
}

/* ---- rows and the association tree ---- */

typedef struct {
	mgr_row_t *rows;
	size_t     n;
	mgr_row_t **order;
	size_t     done;
} mgr_tree_t;

static bool same(const char *a, const char *b)
{
	return !xstrcmp(a ? a : "", b ? b : "");
}

/* Account row acct of cluster, then its users, then its sub-accounts. */
static void tree_walk(mgr_tree_t *t, const char *cluster, const char *acct,
		      int depth)
{
	if (depth > 64)          /* a loop in the parent links */
		return;
	for (size_t i = 0; i < t->n; i++) {
		mgr_row_t *r = &t->rows[i];

		if (same(cli_sacctmgr_cell(r, "cluster"), cluster) &&
		    same(cli_sacctmgr_cell(r, "account"), acct) &&
		    same(cli_sacctmgr_cell(r, "user"), "")) {
			r->depth = depth;
			t->order[t->done++] = r;
		}
	}
	for (size_t i = 0; i < t->n; i++) {
		mgr_row_t *r = &t->rows[i];

		if (same(cli_sacctmgr_cell(r, "cluster"), cluster) &&
		    same(cli_sacctmgr_cell(r, "account"), acct) &&
		    !same(cli_sacctmgr_cell(r, "user"), "")) {
			r->depth = depth + 1;
			t->order[t->done++] = r;
		}
	}
	for (size_t i = 0; i < t->n; i++) {
		mgr_row_t *r = &t->rows[i];

		if (same(cli_sacctmgr_cell(r, "cluster"), cluster) &&
		    same(cli_sacctmgr_cell(r, "parentname"), acct) &&
		    same(cli_sacctmgr_cell(r, "user"), "") &&
		    !same(cli_sacctmgr_cell(r, "account"), acct))
			tree_walk(t, cluster, cli_sacctmgr_cell(r, "account"),
				  depth + 1);
	}
}

static bool placed(const mgr_tree_t *t, const mgr_row_t *r)
{
	for (size_t i = 0; i < t->done; i++)
		if (t->order[i] == r)
			return true;
	return false;
}

/* Association rows in tree order; rows the walk did not reach (a where
 * clause cut their parents out) follow in the order received. */
static void tree_order(mgr_tree_t *t, bool indent)
{
	const char *last = NULL;

	for (size_t i = 0; i < t->n; i++) {
		const char *c = cli_sacctmgr_cell(&t->rows[i], "cluster");

		if (last && same(last, c))
			continue;
		last = c;
		tree_walk(t, c, "root", 0);
	}
	for (size_t i = 0; i < t->n && t->done < t->n; i++)
		if (!placed(t, &t->rows[i]))
			t->order[t->done++] = &t->rows[i];
	for (size_t i = 0; !indent && i < t->n; i++)
		t->rows[i].depth = 0;
}

/* ---- printing ---- */

int cli_sacctmgr_show(const mgr_opts_t *o, const mgr_show_t *s,
		      const dbd_acct_resp_msg_t *resp)
{
	size_t ncols = xstrarray_len(resp->cols);
	size_t ncells = xstrarray_len(resp->cells);
	mgr_tree_t t = { 0 };
	cli_table_t tab;
	cli_table_opt_t out = { .noheader = o->noheader,
				.parsable = o->parsable ? 1 :
					    o->parsable2 ? 2 : 0 };
	cli_ctx_t ctx = { 0 };

	if (build_format(&tab, s) < 0)
		return 1;
	t.n = ncols ? ncells / ncols : 0;
	t.rows = xcalloc(t.n + 1, sizeof(*t.rows));
	t.order = xcalloc(t.n + 1, sizeof(*t.order));
	for (size_t i = 0; i < t.n; i++) {
		t.rows[i].cols = resp->cols;
		t.rows[i].cells = resp->cells + i * ncols;
		t.rows[i].ncols = ncols;
	}
	if (s->entity == DBD_ENT_ASSOC) {
		tree_order(&t, s->tree);
	} else {
		for (size_t i = 0; i < t.n; i++)
			t.order[t.done++] = &t.rows[i];
	}
	cli_table_header(stdout, &tab, &out);
	for (size_t i = 0; i < t.n; i++)
		cli_table_row(stdout, &tab, &out, t.order[i], &ctx);
	cli_table_free(&tab);
	xfree(t.rows);
	xfree(t.order);
	return 0;
}
