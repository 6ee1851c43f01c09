/* cli_sacctmgr_show.c — sacctmgr show/list: format= over the field table
 * (cli_sacctmgr_fields.c), association tree order, and the table / -p /
 * -P output.
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
	[DBD_ENT_TRES] = "Type,Name%15,ID",
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

	if (cli_table_add(t, cli_sacctmgr_fields, sizeof(cli_sacctmgr_fields[0]), aliases, spec,
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

		if (!strcmp(c->field->name, "Account"))
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
