/* cli_sacctmgr_ext.c — sacctmgr's wckeys, resources (remote licenses),
 * transactions and modify job: their arguments as slurmdbd takes them
 * and the blocks Slurm prints for what an add, modify or delete did. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli/cli_sacctmgr.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

/* "name=lic@srv" -> "name=lic" "server=srv" (where clauses). */
static int split_at(mgr_cmd_t *c)
{
	char **where = NULL;

	for (size_t i = 0; c->where && c->where[i]; i++) {
		char *kv = xstrdup(c->where[i]), *at;

		if (!strncmp(kv, "name=", 5) && (at = strchr(kv, '@'))) {
			char *srv = xstrdup_printf("server=%s", at + 1);

			if (strchr(kv, ',')) {
				fprintf(stderr, " Give one name@server at a "
					"time, or Name= and Server=\n");
				xfree(kv);
				xfree(srv);
				xstrarray_free(where);
				return 1;
			}
			*at = '\0';
			where = xstrarray_append(where, srv);
			xfree(srv);
		}
		where = xstrarray_append(where, kv);
		xfree(kv);
	}
	xstrarray_free(c->where);
	c->where = where;
	return 0;
}

/* Start=/End= of show transaction as epoch seconds. */
static int txn_times(mgr_cmd_t *c)
{
	for (size_t i = 0; c->where && c->where[i]; i++) {
		char *kv = c->where[i], *v = strchr(kv, '=') + 1;
		time_t t;

		if (strncmp(kv, "start=", 6) && strncmp(kv, "end=", 4))
			continue;
		if (parse_time_past(v, time(NULL), &t) < 0) {
			fprintf(stderr, " Invalid time: %s\n", v);
			return 1;
		}
		c->where[i] = xstrdup_printf("%.*s%lld", (int)(v - kv), kv,
					     (long long)t);
		xfree(kv);
	}
	return 0;
}

int cli_sacctmgr_ext_args(mgr_cmd_t *c)
{
	switch (c->entity) {
	case DBD_ENT_RESOURCE:
		return split_at(c);
	case DBD_ENT_TXN:
		return txn_times(c);
	case DBD_ENT_JOB:
		if (c->op != DBD_OP_MODIFY) {
			fprintf(stderr, " Jobs can only be modified (sacct "
				"shows them)\n");
			return 1;
		}
		return 0;
	case DBD_ENT_WCKEY:
		if (c->op == DBD_OP_MODIFY) {
			fprintf(stderr, " WCKeys can only be added or "
				"removed\n");
			return 1;
		}
		return 0;
	default:
		return 0;
	}
}

/* ---- what changed ---- */

#define CH(cells, i, col) ((cells)[(i) * 5 + (col)])

static const char *set_value(const mgr_cmd_t *c, const char *key)
{
	size_t n = strlen(key);
	const char *v = NULL;

	for (size_t i = 0; c->set && c->set[i]; i++)
		if (!strncmp(c->set[i], key, n) && c->set[i][n] == '=')
			v = c->set[i] + n + 1;
	return v;
}

/* "\t50%" or "\t5 allowed" of an added cluster. */
static void print_share(const mgr_cmd_t *c)
{
	const char *pct = set_value(c, "percentallowed");
	const char *abs = set_value(c, "allowed");

	if (abs)
		printf("\t%s allowed\n", abs);
	else
		printf("\t%s%%\n", pct ? pct : "0");
}

static void print_add_res(const mgr_cmd_t *c, char *const *cells, size_t n)
{
	static const struct { const char *key, *label; } settings[] = {
		{ "server", "Server" }, { "description", "Description" },
		{ "servertype", "ServerType" }, { "count", "Count" },
		{ "type", "Type" },
	};
	bool any_new = false;

	printf(" Adding Resource(s)\n");
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(CH(cells, i, 0), "resource")) {
			printf("  %s\n", CH(cells, i, 1));
			any_new = true;
		} else {
			if (i == 0 || strcmp(CH(cells, i - 1, 1),
					     CH(cells, i, 1)))
				printf("  %s\n", CH(cells, i, 1));
			printf("   Cluster - %s", CH(cells, i, 2));
			print_share(c);
		}
	}
	if (!any_new)
		return;
	printf(" Settings\n");
	if (c->names && c->names[0] && !strchr(c->names[0], '@'))
		printf("  %-15s= %s\n", "Name", c->names[0]);
	for (size_t k = 0; k < sizeof(settings) / sizeof(*settings); k++) {
		const char *v = set_value(c, settings[k].key);

		if (!strcmp(settings[k].key, "type") && v)
			v = "License";
		if (!strcmp(settings[k].key, "description") && !v &&
		    c->names && c->names[0])
			v = c->names[0];
		if (v)
			printf("  %-15s= %s\n", settings[k].label, v);
	}
}

static void print_res(const mgr_cmd_t *c, char *const *cells, size_t n)
{
	printf(c->op == DBD_OP_DELETE ? " Deleting resource(s)...\n" :
	       " Modified server resource ...\n");
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(CH(cells, i, 0), "resource"))
			printf("  %s\n", CH(cells, i, 1));
		else
			printf("  Cluster - %s\t- %s\n", CH(cells, i, 2),
			       CH(cells, i, 1));
	}
}

static void print_wckeys(const mgr_cmd_t *c, char *const *cells, size_t n)
{
	printf(c->op == DBD_OP_ADD ? " Adding WCKey(s)\n" :
	       " Deleting WCKeys...\n");
	for (size_t i = 0; i < n; i++)
		printf("  C = %-10.10s W = %-20.20s U = %-9.9s\n",
		       CH(cells, i, 2), CH(cells, i, 1), CH(cells, i, 4));
}

static void print_jobs(char *const *cells, size_t n)
{
	printf(" Modified jobs...\n");
	for (size_t i = 0; i < n; i++) {
		char buf[32];

		fmt_time((time_t)strtoll(CH(cells, i, 3), NULL, 10), buf,
			 sizeof(buf));
		printf("  %s submitted at %s\n", CH(cells, i, 1), buf);
	}
}

bool cli_sacctmgr_ext_changes(const mgr_cmd_t *c, char *const *cells,
			      size_t n)
{
	switch (c->entity) {
	case DBD_ENT_RESOURCE:
		if (c->op == DBD_OP_ADD)
			print_add_res(c, cells, n);
		else
			print_res(c, cells, n);
		return true;
	case DBD_ENT_WCKEY:
		print_wckeys(c, cells, n);
		return true;
	case DBD_ENT_JOB:
		print_jobs(cells, n);
		return true;
	default:
		return false;
	}
}
