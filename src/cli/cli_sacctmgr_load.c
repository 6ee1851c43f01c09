/* cli_sacctmgr_load.c — "sacctmgr load <file> [clean] [cluster=NAME]":
 * create what a flat file (acct_flatfile.h) describes.
 *
 * The whole file is parsed and checked first (a bad line: its message and
 * " Problem with line(N)", nothing sent).  It then becomes a list of
 * slurmdbd operations (add the cluster, each account and user with its
 * settings, set the settings of those that existed, coordinators last;
 * with clean, first remove the cluster's associations the file does not
 * name) sent in one DBD_OP_LOAD request that slurmdbd applies in one
 * transaction: all or nothing.  Without -i it is tried first and the
 * user asked, as for other changes.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/cli_sacctmgr.h"
#include "common/acct_flatfile.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#define LOAD_MAX_BYTES (64u << 20)
#define COMMIT_WAIT_S  30

typedef struct {
	char **ops;
	const char *cluster;
} load_t;

static void op(load_t *l, unsigned line, uint16_t o, uint16_t entity,
	       const char *name, char **where, char **set)
{
	char *names[2] = { (char *)name, NULL };
	dbd_acct_msg_t m = { .op = o, .entity = entity,
			     .names = name ? names : NULL, .where = where,
			     .set = set };
	char *s = ff_encode(line, &m);

	l->ops = xstrarray_append(l->ops, s);
	xfree(s);
}

static char **kv(char **list, const char *key, const char *val)
{
	char *s = xstrdup_printf("%s=%s", key, val);

	list = xstrarray_append(list, s);
	xfree(s);
	return list;
}

static char **concat(char **list, char *const *more)
{
	for (size_t i = 0; more && more[i]; i++)
		list = xstrarray_append(list, more[i]);
	return list;
}

/* Settings an existing association gets: the file's, its TRES limits
 * replacing (not merged into) the current ones; with clean also the
 * limits the file leaves out removed. */
static const struct {
	const char *key, *col;     /* set key, list column */
	bool        tres;
} limits[] = {
	{ "fairshare", "share", false }, { "grpjobs", "grpjobs", false },
	{ "grpsubmitjobs", "grpsubmit", false }, { "grpwall", "grpwall", false },
	{ "maxjobs", "maxjobs", false }, { "maxsubmitjobs", "maxsubmit", false },
	{ "maxwall", "maxwall", false }, { "priority", "priority", false },
	{ "grptres", "grptres", true }, { "maxtres", "maxtres", true },
	{ "maxtrespn", "maxtrespn", true },
	{ "grptresmins", "grptresmins", true },
	{ "grptresrunmins", "grptresrunmins", true },
	{ "maxtresmins", "maxtresmins", true },
};

static const char *set_get(char *const *set, const char *key)
{
	size_t n = strlen(key);

	for (size_t i = 0; set && set[i]; i++)
		if (!strncmp(set[i], key, n) && set[i][n] == '=')
			return set[i] + n + 1;
	return NULL;
}

/* "cpu=4,mem=2G" plus "name=-1" for each TRES of cur it does not name. */
static char *tres_replacing(const char *want, const char *cur)
{
	char **have = xstrsplit(cur, ",", NULL);
	char *out = xstrdup(want);

	for (size_t i = 0; have[i]; i++) {
		char *eq = strchr(have[i], '='), *probe;

		if (!eq)
			continue;
		*eq = '\0';
		probe = xstrdup_printf(",%s,", want);
		for (char *p = probe; *p; p++)
			if (*p == '=')
				*p = ',';
		{
			char *name = xstrdup_printf(",%s,", have[i]);

			if (!strstr(probe, name))
				xstrfmtcat(&out, ",%s=-1", have[i]);
			xfree(name);
		}
		xfree(probe);
	}
	xstrarray_free(have);
	return out;
}

static char **assoc_settings(const ff_entry_t *e, const mgr_table_t *cur,
			     long row, bool clean)
{
	char **set = NULL;

	for (size_t i = 0; e->assoc_set && e->assoc_set[i]; i++) {
		bool done = false;

		for (size_t k = 0; row >= 0 && k < sizeof(limits) /
			     sizeof(limits[0]) && !done; k++) {
			const char *v = cli_sacctmgr_get(cur, (size_t)row,
							 limits[k].col);
			size_t n = strlen(limits[k].key);
			char *t;

			if (!limits[k].tres || strncmp(e->assoc_set[i],
						       limits[k].key, n) ||
			    e->assoc_set[i][n] != '=' || !*v)
				continue;
			t = tres_replacing(e->assoc_set[i] + n + 1, v);
			set = kv(set, limits[k].key, t);
			xfree(t);
			done = true;
		}
		if (!done)
			set = xstrarray_append(set, e->assoc_set[i]);
	}
	for (size_t k = 0; clean && row >= 0 &&
		     k < sizeof(limits) / sizeof(limits[0]); k++)
		if (!set_get(e->assoc_set, limits[k].key) &&
		    *cli_sacctmgr_get(cur, (size_t)row, limits[k].col))
			set = kv(set, limits[k].key, "-1");
	return set;
}

static long cur_row(const mgr_table_t *cur, const char *acct,
		    const char *user)
{
	for (size_t i = 0; i < cur->rows; i++)
		if (!strcmp(cli_sacctmgr_get(cur, i, "account"), acct) &&
		    !strcmp(cli_sacctmgr_get(cur, i, "user"), user) &&
		    !*cli_sacctmgr_get(cur, i, "partition"))
			return (long)i;
	return -1;
}

/* The association's settings on (account, user) of the cluster. */
static void set_assoc(load_t *l, const ff_entry_t *e, const char *acct,
		      const char *user, const mgr_table_t *cur, bool clean)
{
	char **w, **set = assoc_settings(e, cur, cur_row(cur, acct, user),
					 clean);

	if (!set)
		return;
	w = kv(NULL, "cluster", l->cluster);
	w = kv(w, "account", acct);
	w = kv(w, "user", user);
	w = kv(w, "partition", "");
	op(l, e->line, DBD_OP_MODIFY, DBD_ENT_ASSOC, NULL, w, set);
	xstrarray_free(w);
	xstrarray_free(set);
}

static bool in_file(const ff_file_t *f, const char *acct, const char *user)
{
	for (size_t i = 1; i < f->n; i++) {
		const ff_entry_t *e = &f->e[i];

		if (!*user && e->kind == FF_ACCOUNT && !strcmp(e->name, acct))
			return true;
		if (*user && e->kind == FF_USER && !strcmp(e->name, user) &&
		    !strcmp(e->parent, acct))
			return true;
	}
	return false;
}

/* clean: remove the associations the file does not name (not root's). */
static int remove_others(load_t *l, const ff_file_t *f, mgr_table_t *cur)
{
	char *ids = NULL;

	for (size_t i = 0; i < cur->rows; i++) {
		const char *a = cli_sacctmgr_get(cur, i, "account");
		const char *u = cli_sacctmgr_get(cur, i, "user");

		if ((!strcmp(a, "root") && !*u) ||
		    (!*cli_sacctmgr_get(cur, i, "partition") &&
		     in_file(f, a, u)))
			continue;
		xstrfmtcat(&ids, "%s%s", ids ? "," : "",
			   cli_sacctmgr_get(cur, i, "id"));
	}
	if (ids) {
		char **w = kv(NULL, "id", ids);

		op(l, 0, DBD_OP_DELETE, DBD_ENT_ASSOC, NULL, w, NULL);
		xstrarray_free(w);
	}
	xfree(ids);
	return 0;
}

static const char *cur_parent(mgr_table_t *cur, const char *acct)
{
	for (size_t i = 0; i < cur->rows; i++)
		if (!strcmp(cli_sacctmgr_get(cur, i, "account"), acct) &&
		    !*cli_sacctmgr_get(cur, i, "user") &&
		    !*cli_sacctmgr_get(cur, i, "partition"))
			return cli_sacctmgr_get(cur, i, "parentname");
	return NULL;
}

static void build(load_t *l, const ff_file_t *f, mgr_table_t *cur,
		  bool clean)
{
	const ff_entry_t *c = &f->e[0];
	char **set;

	op(l, c->line, DBD_OP_ADD, DBD_ENT_CLUSTER, l->cluster, NULL, NULL);
	if (clean)
		remove_others(l, f, cur);
	set_assoc(l, c, "root", "", cur, clean);
	for (size_t i = 1; i < f->n; i++) {
		const ff_entry_t *e = &f->e[i];
		const char *was;

		set = kv(NULL, "cluster", l->cluster);
		set = kv(set, e->kind == FF_ACCOUNT ? "parent" : "account",
			 e->parent);
		set = concat(set, e->entity_set);
		set = concat(set, e->assoc_set);
		op(l, e->line, DBD_OP_ADD, e->kind == FF_ACCOUNT ?
		   DBD_ENT_ACCOUNT : DBD_ENT_USER, e->name, NULL, set);
		xstrarray_free(set);
		if (e->kind == FF_ACCOUNT) {
			char **w = kv(NULL, "name", e->name);

			if (e->entity_set)
				op(l, e->line, DBD_OP_MODIFY, DBD_ENT_ACCOUNT,
				   NULL, w, e->entity_set);
			was = cur_parent(cur, e->name);
			if (was && strcmp(was, e->parent)) {
				char **p = kv(NULL, "parent", e->parent);

				op(l, e->line, DBD_OP_MODIFY, DBD_ENT_ACCOUNT,
				   NULL, w, p);
				xstrarray_free(p);
			}
			xstrarray_free(w);
			set_assoc(l, e, e->name, "", cur, clean);
		} else {
			set_assoc(l, e, e->parent, e->name, cur, clean);
		}
	}
	/* users' own settings once all their associations exist */
	for (size_t i = 1; i < f->n; i++) {
		const ff_entry_t *e = &f->e[i];
		char **w;

		if (e->kind != FF_USER || (!e->entity_set && !e->coords))
			continue;
		w = kv(NULL, "name", e->name);
		if (e->entity_set)
			op(l, e->line, DBD_OP_MODIFY, DBD_ENT_USER, NULL, w,
			   e->entity_set);
		xstrarray_free(w);
		if (e->coords) {
			char *list = NULL;

			for (size_t k = 0; e->coords[k]; k++)
				xstrfmtcat(&list, "%s%s", k ? "," : "",
					   e->coords[k]);
			set = kv(NULL, "account", list);
			op(l, e->line, DBD_OP_ADD, DBD_ENT_COORD, e->name,
			   NULL, set);
			xstrarray_free(set);
			xfree(list);
		}
	}
}

/* ---- output ---- */

#define CELL(r, i, c) ((r)->cells[(i) * 5 + (c)])

static size_t print_kind(const dbd_acct_resp_msg_t *r, size_t rows,
			 const char *kind, const char *title)
{
	size_t n = 0;

	for (size_t i = 0; i < rows; i++) {
		if (strcmp(CELL(r, i, 0), kind))
			continue;
		if (!n++)
			printf(" %s\n", title);
		if (!strcmp(kind, "coord"))
			printf("  U = %-9s A = %-10s\n", CELL(r, i, 1),
			       CELL(r, i, 3));
		else if (!strcmp(kind, "assoc") || !strcmp(kind, "del-assoc"))
			printf("  C = %-10.10s A = %-10.10s U = %-9.9s\n",
			       CELL(r, i, 2), CELL(r, i, 3), CELL(r, i, 4));
		else
			printf("  %s\n", CELL(r, i, 1));
	}
	return n;
}

/* What the load did or would do; the number of changes. */
static size_t print_result(const load_t *l, const dbd_acct_resp_msg_t *r)
{
	size_t ncols = xstrarray_len(r->cols);
	size_t rows = ncols == 5 ? xstrarray_len(r->cells) / 5 : 0, n = 0;

	printf("For cluster %s\n", l->cluster);
	n += print_kind(r, rows, "del-assoc", "Removing Associations");
	n += print_kind(r, rows, "cluster", "Adding Cluster(s)");
	n += print_kind(r, rows, "account", "Adding Account(s)");
	n += print_kind(r, rows, "user", "Adding User(s)");
	n += print_kind(r, rows, "assoc", "Associations");
	n += print_kind(r, rows, "coord", "Adding Coordinator(s)");
	if (!n)
		printf(" Nothing new added.\n");
	return n;
}

static bool ask_commit(void)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	char buf[64] = "";
	bool yes = false;

	printf("Would you like to commit changes? (You have %d seconds to "
	       "decide)\n(N/y): ", COMMIT_WAIT_S);
	fflush(stdout);
	if (poll(&p, 1, COMMIT_WAIT_S * 1000) > 0 &&
	    fgets(buf, sizeof(buf), stdin))
		yes = buf[0] == 'y' || buf[0] == 'Y';
	printf("\n");
	return yes;
}

/* Send the operations; 0 ok, 1 refused (printed). *changes: how many. */
static int send_load(const load_t *l, bool commit, size_t *changes)
{
	dbd_acct_msg_t req = { .op = DBD_OP_LOAD, .entity = DBD_ENT_CLUSTER,
			       .flags = commit ? DBD_ACCT_COMMIT : 0,
			       .names = l->ops };
	dbd_acct_resp_msg_t *r = NULL;
	int rc = 0;

	if (cli_sacctmgr_dbd(&req, &r))
		return 1;
	if (r->rc) {
		fprintf(stderr, "%s\n", r->msg && *r->msg ? r->msg :
			slurm_strerror(r->rc));
		if (r->rc != ESLURM_ACCESS_DENIED)
			fprintf(stderr, " Problem with requests: %s\n",
				slurm_strerror(r->rc));
		rc = 1;
	} else if (changes) {
		*changes = print_result(l, r);
	}
	msg_body_free(RESPONSE_DBD_ACCT, r);
	return rc;
}

static char *read_all(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "r");
	char *buf = NULL;
	size_t n = 0, cap = 0;

	if (!fp) {
		fprintf(stderr, " Unable to read \"%s\": %s\n", path,
			strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t got;

		if (n + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 65536;
			buf = xrealloc(buf, cap);
		}
		got = fread(buf + n, 1, cap - n - 1, fp);
		n += got;
		if (n > LOAD_MAX_BYTES) {
			fprintf(stderr, " File \"%s\" is too large\n", path);
			xfree(buf);
			fclose(fp);
			return NULL;
		}
		if (!got)
			break;
	}
	if (ferror(fp)) {
		fprintf(stderr, " Unable to read \"%s\": %s\n", path,
			strerror(errno));
		xfree(buf);
		fclose(fp);
		return NULL;
	}
	fclose(fp);
	buf[n] = '\0';
	*len = n;
	return buf;
}

int cli_sacctmgr_load(const mgr_opts_t *o, int argc, char **argv)
{
	const char *path = NULL, *cluster = NULL;
	bool clean = false;
	ff_file_t f = { 0 };
	mgr_table_t cur = { 0 };
	load_t l = { 0 };
	char err[512], *text, *w[2] = { NULL, NULL };
	unsigned line;
	size_t len = 0, changes = 0;
	int rc = 1;

	for (int i = 0; i < argc; i++) {
		if (!strncasecmp(argv[i], "file=", 5))
			path = argv[i] + 5;
		else if (!strncasecmp(argv[i], "cluster=", 8))
			cluster = argv[i] + 8;
		else if (!strcasecmp(argv[i], "clean"))
			clean = true;
		else if (!strchr(argv[i], '=') && !path)
			path = argv[i];
		else {
			fprintf(stderr, " Unknown option: %s\n", argv[i]);
			return 1;
		}
	}
	if (!path || !*path) {
		fprintf(stderr, " No filename given to load.\n");
		return 1;
	}
	if (!(text = read_all(path, &len)))
		return 1;
	if (ff_parse(text, len, &f, &line, err, sizeof(err)) < 0) {
		fprintf(stderr, " %s\n", err);
		if (line)
			fprintf(stderr, " Problem with line(%u)\n", line);
		xfree(text);
		return 1;
	}
	xfree(text);
	l.cluster = cluster && *cluster ? cluster : f.e[0].name;
	w[0] = xstrdup_printf("cluster=%s", l.cluster);
	if (cli_sacctmgr_list(DBD_ENT_ASSOC, w, &cur))
		goto out;
	build(&l, &f, &cur, clean);
	if (o->immediate) {
		rc = send_load(&l, true, &changes);
		goto out;
	}
	if (send_load(&l, false, &changes))
		goto out;
	rc = 0;
	if (!changes)
		goto out;
	if (!ask_commit()) {
		printf(" Changes Discarded\n");
		goto out;
	}
	rc = send_load(&l, true, NULL);
out:
	xfree(w[0]);
	xstrarray_free(l.ops);
	cli_sacctmgr_table_free(&cur);
	ff_free(&f);
	return rc;
}
