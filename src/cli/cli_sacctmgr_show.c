/* cli_sacctmgr_show.c — sacctmgr show/list: the field table, format=,
 * association tree order, and the table / -p / -P output.
 *
 * Table cells are right-justified to the column width and followed by a
 * space; a value longer than its column is cut and ends in '+'.  Headers
 * are cut without a mark.  A dashed line follows the header.
 */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli_output.h"
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

#define F(name, header, fn) { 0, name, header, NULL, 0, fn, NULL, NULL }

/* Same order as field_widths[]. */
const cli_field_t cli_sacctmgr_fields[] = {
	F("Cluster", "Cluster", g_cluster),
	F("ControlHost", "ControlHost", g_chost),
	F("ControlPort", "ControlPort", g_cport),
	F("RPC", "RPC", g_rpc),
	F("Account", "Account", g_account),
	F("User", "User", g_user),
	F("Partition", "Partition", g_partition),
	F("Share", "Share", g_share),
	F("Priority", "Priority", g_priority),
	F("GrpJobs", "GrpJobs", g_grpjobs),
	F("GrpTRES", "GrpTRES", g_grptres),
	F("GrpSubmit", "GrpSubmit", g_grpsubmit),
	F("GrpWall", "GrpWall", g_grpwall),
	F("GrpTRESMins", "GrpTRESMins", g_grptresmins),
	F("MaxJobs", "MaxJobs", g_maxjobs),
	F("MaxTRES", "MaxTRES", g_maxtres),
	F("MaxTRESPerNode", "MaxTRESPerNode", g_maxtrespn),
	F("MaxSubmit", "MaxSubmit", g_maxsubmit),
	F("MaxWall", "MaxWall", g_maxwall),
	F("MaxTRESMins", "MaxTRESMins", g_maxtresmins),
	F("QOS", "QOS", g_qos),
	F("DefaultQOS", "Def QOS", g_defqos),
	F("GrpTRESRunMins", "GrpTRESRunMins", g_grptresrunmins),
	F("Description", "Descr", g_descr),
	F("Organization", "Org", g_org),
	F("DefaultAccount", "Def Acct", g_defacct),
	F("DefaultWCKey", "Def WCKey", g_defwckey),
	F("AdminLevel", "Admin", g_admin),
	F("Name", "Name", g_name),
	F("ParentName", "ParentName", g_parent),
	F("ID", "ID", g_id),
	F("GraceTime", "GraceTime", g_grace),
	F("Preempt", "Preempt", g_preempt),
	F("PreemptExemptTime", "PreemptExemptTime", g_empty),
	F("PreemptMode", "PreemptMode", g_pmode),
	F("Flags", "Flags", g_flags),
	F("UsageThres", "UsageThres", g_empty),
	F("UsageFactor", "UsageFactor", g_ufactor),
	F("MaxTRESPU", "MaxTRESPU", g_maxtrespu),
	F("MaxJobsPU", "MaxJobsPU", g_maxjobspu),
	F("MaxSubmitPU", "MaxSubmitPU", g_maxsubmitpu),
	F("MaxTRESPA", "MaxTRESPA", g_empty),
	F("MaxJobsPA", "MaxJobsPA", g_empty),
	F("MaxSubmitPA", "MaxSubmitPA", g_empty),
	F("MinTRES", "MinTRES", g_empty),
	F("GrpNodes", "GrpNodes", g_grpnodes),
	F("GrpCPUs", "GrpCPUs", g_grpcpus),
	F("GrpMem", "GrpMem", g_grpmem),
	F("GrpCPUMins", "GrpCPUMins", g_grpcpumins),
	F("MaxNodes", "MaxNodes", g_maxnodes),
	F("MaxCPUs", "MaxCPUs", g_maxcpus),
	F("MaxCPUMins", "MaxCPUMins", g_maxcpumins),
	F("Coordinators", "Coord Accounts", g_coords),
	F("GrpCPURunMins", "GrpCPURunMins", g_grpcpurunmins),
	F("TRES", "TRES", g_tres),
	F("TimeStart", "TimeStart", g_tstart),
	F("TimeEnd", "TimeEnd", g_tend),
	F("UnusedWall", "UnusedWall", g_unused),
	F("Problem", "Problem", g_problem),
	F("JobID", "JobID", g_jobid),
	F("NodeName", "NodeName", g_nodename),
	F("State", "State", g_evstate),
	F("Reason", "Reason", g_reason),
	F("Duration", "Duration", g_duration),
	F("WCKey", "WCKey", g_wckey),
	F("Server", "Server", g_server),
	F("Type", "Type", g_rtype),
	F("Count", "Count", g_count),
	F("Allocated", "% Allocated", g_allocated),
	F("ServerType", "ServerType", g_servertype),
	F("Allowed", "% Allowed", g_allowed),
	F("Time", "Time", g_txntime),
	F("Action", "Action", g_action),
	F("Actor", "Actor", g_actor),
	F("Where", "Where", g_where),
	F("Info", "Info", g_info),
	{ 0 }
};

static const int field_widths[] = {
	10, 15, 12, 5, 10, 10, 10, 9, 10, 7, 13, 9, 11, 13, 7, 13, 14, 9,
	11, 13, 20, 9, 13, 20, 20, 10, 10, 9, 10, 10, 6, 10, 10, 19, 11,
	20,
	10, 11, 13, 9, 11, 13, 9, 11, 13, 8, 8, 7, 11, 8, 8, 11, 20, 13,
	30, 19, 19, 10, 40, 10, -15, 6, 30, 13,
	10, 10, 8, 6, 11, 10, 10, 19, 20, 10, 20, 20,
};
_Static_assert(sizeof(field_widths) / sizeof(field_widths[0]) ==
	       sizeof(cli_sacctmgr_fields) / sizeof(cli_sacctmgr_fields[0]) - 1,
	       "one width per sacctmgr field");

/* Other spellings format= accepts. */
static const struct {
	const char *alias, *name;
} aliases[] = {
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

static int field_index(const char *name, size_t n)
{
	const cli_field_t *f = cli_sacctmgr_fields;

	for (size_t i = 0; f[i].name; i++)
		if (strlen(f[i].name) == n && !strncasecmp(f[i].name, name, n))
			return (int)i;
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (strlen(aliases[i].alias) == n &&
		    !strncasecmp(aliases[i].alias, name, n))
			return field_index(aliases[i].name,
					   strlen(aliases[i].name));
	for (size_t i = 0; n && f[i].name; i++)
		if (!strncasecmp(f[i].name, name, n))
			return (int)i;
	return -1;
}

static int add_column(cli_format_t *fmt, const char *item, bool tree)
{
	const char *pct = strchr(item, '%');
	size_t n = pct ? (size_t)(pct - item) : strlen(item);
	int i = field_index(item, n);
	cli_col_t *c;

	if (i < 0) {
		fprintf(stderr, "Unknown field '%.*s'\n", (int)n, item);
		return -1;
	}
	fmt->cols = xrealloc(fmt->cols, (fmt->cnt + 1) * sizeof(*fmt->cols));
	c = &fmt->cols[fmt->cnt++];
	memset(c, 0, sizeof(*c));
	c->field = &cli_sacctmgr_fields[i];
	/* a negative width: left-justified (NodeName), as Slurm's */
	c->width = pct ? atoi(pct + 1) : field_widths[i];
	c->right = c->width >= 0 || pct;
	if (c->width < 0)
		c->width = -c->width;
	c->suffix = xstrdup(" ");
	if (tree && c->field->text == g_account) {
		c->right = false;
		if (!pct)
			c->width = 20;
	}
	return 0;
}

static int build_format(cli_format_t *fmt, const mgr_show_t *s)
{
	const char *spec = s->format;
	char **items;
	int rc = 0;

	if (!spec && s->with_assoc && s->entity == DBD_ENT_USER)
		spec = USER_ASSOC_FORMAT;
	if (!spec && s->with_coord && s->entity == DBD_ENT_USER)
		spec = "User,DefaultAccount,AdminLevel,Coordinators";
	if (!spec && s->with_assoc && s->entity == DBD_ENT_RESOURCE)
		spec = "Name,Server,Type,Count,Allocated,ServerType,Cluster,"
		       "Allowed";
	if (!spec)
		spec = default_formats[s->entity];
	items = xstrsplit(spec, ",", NULL);
	for (size_t i = 0; items[i] && rc == 0; i++)
		rc = add_column(fmt, items[i], s->tree);
	if (rc == 0 && !s->format && s->with_assoc &&
	    s->entity == DBD_ENT_ACCOUNT) {
		char **more = xstrsplit(ASSOC_FORMAT, ",", NULL);

		for (size_t i = 0; more[i] && rc == 0; i++)
			rc = add_column(fmt, more[i], false);
		xstrarray_free(more);
	}
	xstrarray_free(items);
	return rc;
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

static void print_table(const mgr_opts_t *o, const cli_format_t *fmt,
			mgr_row_t *const *rows, size_t n)
{
	cli_ctx_t ctx = { 0 };
	char *line;

	if (!o->noheader) {
		line = cli_output_header(fmt);
		fputs(line, stdout);
		xfree(line);
		for (size_t i = 0; i < fmt->cnt; i++) {
			for (int k = 0; k < fmt->cols[i].width; k++)
				putchar('-');
			putchar(' ');
		}
		putchar('\n');
	}
	for (size_t r = 0; r < n; r++) {
		line = NULL;
		for (size_t i = 0; i < fmt->cnt; i++) {
			const cli_col_t *c = &fmt->cols[i];
			char *v = cli_field_text(c->field, rows[r], &ctx);

			if (c->width > 0 && strlen(v) > (size_t)c->width) {
				v[c->width - 1] = '+';
				v[c->width] = '\0';
			}
			cli_format_cell(&line, v, c->width, c->right);
			xstrcat(&line, c->suffix);
			xfree(v);
		}
		printf("%s\n", line ? line : "");
		xfree(line);
	}
}

int cli_sacctmgr_show(const mgr_opts_t *o, const mgr_show_t *s,
		      const dbd_acct_resp_msg_t *resp)
{
	size_t ncols = xstrarray_len(resp->cols);
	size_t ncells = xstrarray_len(resp->cells);
	mgr_tree_t t = { 0 };
	cli_format_t fmt = { 0 };
	cli_ctx_t ctx = { 0 };
	int rc = 1;

	if (build_format(&fmt, s) < 0)
		goto out;
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
	if (o->parsable || o->parsable2)
		cli_output_parsable(stdout, &fmt,
				    (const void *const *)t.order, t.n, &ctx,
				    !o->noheader, "|", o->parsable);
	else
		print_table(o, &fmt, t.order, t.n);
	rc = 0;
out:
	for (size_t i = 0; i < fmt.cnt; i++)
		xfree(fmt.cols[i].suffix);
	xfree(fmt.cols);
	xfree(t.rows);
	xfree(t.order);
	return rc;
}
