/* cli_sacctmgr_changes.c — how sacctmgr reports an add, modify or
 * delete: the blocks Slurm prints (" Adding Account(s)", " Associations",
 * " Modified users...", ...) from the rows slurmdbd sent back, one per
 * changed record: (kind, name, cluster, account, user).  For association
 * rows "name" holds the parent account.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli_sacctmgr.h"
#include "common/parse_util.h"
#include "common/tres_limit.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

typedef struct {
	char *const *cells;
	size_t       n;
} mgr_changes_t;

#define CH(ch, i, col) ((ch)->cells[(i) * 5 + (col)])

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static size_t count_kind(const mgr_changes_t *ch, const char *kind)
{
	size_t n = 0;

	for (size_t i = 0; i < ch->n; i++)
		n += !strcmp(CH(ch, i, 0), kind);
	return n;
}

static void print_names(const mgr_changes_t *ch, const char *kind,
			const char *fmt)
{
	for (size_t i = 0; i < ch->n; i++)
		if (!strcmp(CH(ch, i, 0), kind))
			printf(fmt, CH(ch, i, 1));
}

static const char *set_value(const mgr_cmd_t *c, const char *key)
{
	size_t n = strlen(key);
	const char *v = NULL;

	for (size_t i = 0; c->set && c->set[i]; i++)
		if (!strncmp(c->set[i], key, n) && c->set[i][n] == '=')
			v = c->set[i] + n + 1;
	return v;
}

/* Did the request give anything besides where to put it? */
static bool has_settings(const mgr_cmd_t *c)
{
	for (size_t i = 0; c->set && c->set[i]; i++)
		if (strncmp(c->set[i], "cluster=", 8))
			return true;
	return false;
}

/* A value as Slurm prints it back: durations as [D-]HH:MM:SS, TRES and
 * QOS lists in their stored order. */
static char *shown(const char *key, const char *v)
{
	char buf[64], err[128];
	uint32_t m;

	if (!strcmp(key, "grpwall") || !strcmp(key, "maxwall")) {
		if (strcmp(v, "-1") && parse_duration_min(v, &m) == 0) {
			fmt_time_limit(m, buf, sizeof(buf));
			return xstrdup(buf);
		}
	} else if (strstr(key, "tres")) {
		char *c = tres_limit_canon(v, err, sizeof(err));

		if (c && *c)
			return c;
		xfree(c);
	} else if (!strcmp(key, "qos") || !strcmp(key, "preempt")) {
		char **l = xstrsplit(v, ",", NULL);
		char *out = NULL;

		qsort(l, xstrarray_len(l), sizeof(*l), cmp_str);
		for (size_t i = 0; l[i]; i++)
			xstrfmtcat(&out, "%s%s", i ? "," : "", l[i]);
		xstrarray_free(l);
		if (out)
			return out;
	} else if (!strcmp(key, "usagefactor")) {
		return xstrdup_printf("%.4f", atof(v));
	}
	return xstrdup(v);
}

/* Association settings the request gave, "  Key<pad>= value", in
 * Slurm's order; Parent (accounts) before the QOS. */
static void print_limits(const mgr_cmd_t *c)
{
	static const struct {
		const char *key, *label;
	} l[] = {
		{ "fairshare", "Fairshare" }, { "grpjobs", "GrpJobs" },
		{ "grpsubmitjobs", "GrpSubmitJobs" }, { "grptres", "GrpTRES" },
		{ "grptresmins", "GrpTRESMins" },
		{ "grptresrunmins", "GrpTRESRunMins" },
		{ "grpwall", "GrpWall" }, { "maxjobs", "MaxJobs" },
		{ "maxsubmitjobs", "MaxSubmitJobs" }, { "maxtres", "MaxTRES" },
		{ "maxtrespn", "MaxTRESPerNode" },
		{ "maxtresmins", "MaxTRESMins" }, { "maxwall", "MaxWall" },
		{ "parent", "Parent" }, { "priority", "Priority" },
		{ "qos", "QOS" }, { "defaultqos", "DefQOS" },
	};

	for (size_t k = 0; k < sizeof(l) / sizeof(l[0]); k++) {
		const char *v = set_value(c, l[k].key);
		char *s;

		if (!strcmp(l[k].key, "parent") && c->entity == DBD_ENT_ACCOUNT &&
		    c->op == DBD_OP_ADD && !v)
			v = "root";
		if (!v || (!strcmp(l[k].key, "parent") &&
			   (c->entity != DBD_ENT_ACCOUNT || c->op != DBD_OP_ADD)))
			continue;
		s = shown(l[k].key, v);
		printf("  %-14s= %s\n", l[k].label, s);
		xfree(s);
	}
}

static void print_add_account(const mgr_cmd_t *c, const mgr_changes_t *ch)
{
	const char *desc = set_value(c, "description");
	const char *org = set_value(c, "organization");
	if (count_kind(ch, "account")) {
		printf(" Adding Account(s)\n");
		print_names(ch, "account", "  %s\n");
		printf(" Settings\n");
		printf("  %-15s = %s\n", "Description",
		       desc ? desc : "Account Name");
		printf("  %-15s = %s\n", "Organization",
		       org ? org : "Parent/Account Name");
	}
	if (!count_kind(ch, "assoc"))
		return;
	printf(" Associations\n");
	for (size_t i = 0; i < ch->n; i++)
		if (!strcmp(CH(ch, i, 0), "assoc"))
			printf("  A = %-10.10s C = %-10.10s\n", CH(ch, i, 3),
			       CH(ch, i, 2));
	if (!has_settings(c))
		return;
	printf(" Settings\n");
	print_limits(c);
}

/* AdminLevel as Slurm spells it back. */
static const char *admin_word(const char *v)
{
	if (!strcasecmp(v, "operator"))
		return "Operator";
	if (!strcasecmp(v, "administrator") || !strcasecmp(v, "admin"))
		return "Administrator";
	if (!strcasecmp(v, "none"))
		return "None";
	return v;
}

static void print_add_user(const mgr_cmd_t *c, const mgr_changes_t *ch)
{
	const char *def = set_value(c, "defaultaccount");
	const char *admin = set_value(c, "adminlevel");

	if (count_kind(ch, "user")) {
		printf(" Adding User(s)\n");
		print_names(ch, "user", "  %s\n");
		if (def || admin)
			printf(" Settings =\n");
		if (def)
			printf("  %-15s = %s\n", "Default Account", def);
		if (admin)
			printf("  %-15s = %s\n", "Admin Level",
			       admin_word(admin));
	}
	if (!count_kind(ch, "assoc"))
		return;
	printf(" Associations =\n");
	for (size_t i = 0; i < ch->n; i++)
		if (!strcmp(CH(ch, i, 0), "assoc"))
			printf("  U = %-9.9s A = %-10.10s C = %-10.10s\n",
			       CH(ch, i, 4), CH(ch, i, 3), CH(ch, i, 2));
	printf(" Non Default Settings\n");
	print_limits(c);
}

static void print_add_qos(const mgr_cmd_t *c, const mgr_changes_t *ch)
{
	static const struct {
		const char *key, *label;
		int width;
	} l[] = {
		{ "flags", "Flags", 24 }, { "gracetime", "GraceTime", 24 },
		{ "grpjobs", "GrpJobs", 24 },
		{ "grpsubmitjobs", "GrpSubmitJobs", 24 },
		{ "grptres", "GrpTRES", 24 },
		{ "grptresmins", "GrpTRESMins", 24 },
		{ "grptresrunmins", "GrpTRESRunMins", 24 },
		{ "grpwall", "GrpWall", 24 },
		{ "maxjobspu", "MaxJobsPerUser", 14 },
		{ "maxsubmitjobspu", "MaxSubmitJobsPerUser", 24 },
		{ "maxtres", "MaxTRESPerJob", 24 },
		{ "maxtrespn", "MaxTRESPerNode", 24 },
		{ "maxtrespu", "MaxTRESPerUser", 24 },
		{ "maxtresmins", "MaxTRESMins", 24 },
		{ "maxwall", "MaxWall", 24 }, { "preempt", "Preempt", 24 },
		{ "priority", "Priority", 24 },
		{ "usagefactor", "UsageFactor", 24 },
	};
	const char *desc = set_value(c, "description");

	printf(" Adding QOS(s)\n");
	print_names(ch, "qos", "  %s\n");
	printf(" Settings\n");
	for (size_t i = 0; i < ch->n; i++)
		if (!strcmp(CH(ch, i, 0), "qos")) {
			printf("  %-14s = %s\n", "Description",
			       desc ? desc : CH(ch, i, 1));
			break;
		}
	for (size_t k = 0; k < sizeof(l) / sizeof(l[0]); k++) {
		const char *v = set_value(c, l[k].key);
		char *s;

		if (!v)
			continue;
		s = shown(l[k].key, v);
		printf("  %-*s = %s\n", l[k].width, l[k].label, s);
		xfree(s);
	}
}

/* Coordinators: what the request names (Slurm prints it so). */
static void print_list(char *const *kvs, const char *key)
{
	size_t n = strlen(key);

	for (size_t i = 0; kvs && kvs[i]; i++)
		if (!strncmp(kvs[i], key, n) && kvs[i][n] == '=') {
			char **v = xstrsplit(kvs[i] + n + 1, ",", NULL);

			for (size_t k = 0; v[k]; k++)
				printf("  %s\n", v[k]);
			xstrarray_free(v);
		}
}

static bool print_coords(const mgr_cmd_t *c, const mgr_changes_t *ch)
{
	if (c->op == DBD_OP_ADD) {
		printf(" Adding Coordinator User(s)\n");
		for (size_t i = 0; c->names && c->names[i]; i++)
			printf("  %s\n", c->names[i]);
		printf(" To Account(s) and all sub-accounts\n");
		print_list(c->set, "account");
		return true;
	}
	printf(" Removing Coordinators with user name\n");
	print_list(c->where, "user");
	printf(" From Account(s)\n");
	print_list(c->where, "account");
	if (!ch->n) {
		printf(" Nothing removed\n");
		return false;
	}
	printf(" Removed Coordinators (sub accounts not listed)...\n");
	for (size_t i = 0; i < ch->n; i++)
		printf("  U = %-9s A = %-10s\n", CH(ch, i, 1), CH(ch, i, 3));
	return true;
}

static bool print_add(const mgr_cmd_t *c, const mgr_changes_t *ch)
{
	switch (c->entity) {
	case DBD_ENT_CLUSTER:
		print_names(ch, "exists",
			    " This cluster %s already exists.  Not adding.\n");
		if (!count_kind(ch, "cluster"))
			return false;
		printf(" Adding Cluster(s)\n");
		print_names(ch, "cluster", "  Name           = %s\n");
		return true;
	case DBD_ENT_ACCOUNT:
		print_add_account(c, ch);
		return true;
	case DBD_ENT_USER:
		print_add_user(c, ch);
		return true;
	default:
		print_add_qos(c, ch);
		return true;
	}
}

static void print_assoc_rows(const mgr_cmd_t *c, const mgr_changes_t *ch)
{
	for (size_t i = 0; i < ch->n; i++) {
		if (strcmp(CH(ch, i, 0), "assoc"))
			continue;
		if (c->entity == DBD_ENT_ACCOUNT)
			printf("  C = %-10.10s A = %s of %s\n", CH(ch, i, 2),
			       CH(ch, i, 3), CH(ch, i, 1));
		else if (c->entity == DBD_ENT_CLUSTER)
			printf("  C = %-10.10s A = %s\n", CH(ch, i, 2),
			       CH(ch, i, 3));
		else
			printf("  C = %-10.10s A = %-20.20s U = %-9.9s\n",
			       CH(ch, i, 2), CH(ch, i, 3), CH(ch, i, 4));
	}
}

static void print_modified_assocs(const mgr_cmd_t *c, const mgr_changes_t *ch)
{
	if (c->entity == DBD_ENT_CLUSTER) {
		printf(" Setting\n  Default Limits:\n");
		print_limits(c);
		printf(" Modified cluster defaults for associations...\n");
	} else if (c->entity == DBD_ENT_ACCOUNT) {
		printf(" Modified account associations...\n");
	} else {
		printf(" Modified user associations...\n");
	}
	print_assoc_rows(c, ch);
}

static void print_modify_delete(const mgr_cmd_t *c, const mgr_changes_t *ch)
{
	bool del = c->op == DBD_OP_DELETE;

	if (ch->n > count_kind(ch, "assoc")) {
		if (del)
			printf(" Deleting %s...\n", c->entity == DBD_ENT_QOS ?
			       "QOS(s)" : cli_sacctmgr_plural(c->entity));
		else
			printf(" Modified %s...\n", c->entity == DBD_ENT_QOS ?
			       "qos" : cli_sacctmgr_plural(c->entity));
		for (size_t i = 0; i < ch->n; i++)
			if (strcmp(CH(ch, i, 0), "assoc"))
				printf("  %s\n", CH(ch, i, 1));
	}
	if (!del && count_kind(ch, "assoc"))
		print_modified_assocs(c, ch);
}

bool cli_sacctmgr_print_changes(const mgr_cmd_t *c,
				const dbd_acct_resp_msg_t *r)
{
	mgr_changes_t ch = { r->cells, xstrarray_len(r->cells) / 5 };

	if (c->entity == DBD_ENT_COORD)
		return r->rc == 0 && print_coords(c, &ch);
	if (xstrarray_len(r->cols) == 5 && ch.n) {
		if (cli_sacctmgr_ext_changes(c, ch.cells, ch.n))
			return true;
		if (c->op != DBD_OP_ADD) {
			print_modify_delete(c, &ch);
			return true;
		}
		if (print_add(c, &ch))
			return true;
		return false;         /* only "already exists" lines */
	}
	if (c->op == DBD_OP_ADD)
		printf(" Nothing new added.\n");
	else if (c->op == DBD_OP_MODIFY)
		printf(" Nothing modified\n");
	else
		printf(" Nothing deleted\n");
	return false;
}
