/* test_conf_use.c — every slurm.conf key and option word has exactly one
 * treatment (conf_use.h), and each treatment does what it says: a
 * REFUSED value stops the load naming file:line and key, a WARNED key is
 * noted as having no effect, an IMPLEMENTED row names a test that exists.
 * doc/admin-guide.md lists every row.  CONF_USE_DOC=file writes the rows
 * of that table to file (how the documentation is generated).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <cmocka.h>

#include "common/conf.h"
#include "common/conf_internal.h"
#include "common/conf_use.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static char tmpdir[] = "/tmp/test_conf_use.XXXXXX";

/* The source tree: SLUICE_TEST_DATA is <src>/tests/unit/data. */
static char *src_path(const char *rel)
{
	const char *data = getenv("SLUICE_TEST_DATA");

	if (!data)
		return xstrdup_printf("%s", rel);
	return xstrdup_printf("%s/../../../%s", data, rel);
}

static char *read_all(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *out = NULL, buf[4096];
	size_t n;

	if (!fp)
		return NULL;
	out = xstrdup("");
	while ((n = fread(buf, 1, sizeof(buf) - 1, fp)) > 0) {
		buf[n] = '\0';
		xstrcat(&out, buf);
	}
	fclose(fp);
	return out;
}

static slurm_conf_t *load_text(const char *text, char *err, size_t len)
{
	char *path = xstrdup_printf("%s/t.conf", tmpdir);
	FILE *fp = fopen(path, "w");
	slurm_conf_t *c;

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	c = conf_load(path, err, len);
	xfree(path);
	return c;
}

static bool is_list_scope(const char *scope)
{
	for (const char *const *s = conf_use_list_scopes(); *s; s++)
		if (!strcasecmp(*s, scope))
			return true;
	return false;
}

static int rows_for(const char *scope, const char *key)
{
	size_t n;
	const conf_use_t *t = conf_use_table(&n);
	int cnt = 0;

	for (size_t i = 0; i < n; i++)
		if (!strcasecmp(t[i].scope, scope) && !strcasecmp(t[i].key, key))
			cnt++;
	return cnt;
}

/* Every key the parser takes has exactly one row; every row names a key
 * the parser takes (or a word of a list key); no fifth kind. */
static void test_every_key_one_row(void **state)
{
	static const char *const recs[] = {
		"PartitionName", "NodeName", "NodeSet", "DownNodes",
		"FrontendName",
	};
	size_t n;
	const conf_use_t *t = conf_use_table(&n);

	for (size_t i = 0; i < conf_key_count(); i++) {
		const char *k = conf_key_name(i);

		if (!k)
			continue;
		if (rows_for("", k) != 1)
			fail_msg("scalar key %s has %d rows", k, rows_for("", k));
	}
	assert_int_equal(rows_for("", "SlurmctldHost"), 1);
	for (size_t r = 0; r < sizeof(recs) / sizeof(recs[0]); r++) {
		const char *const *keys = conf_rec_keys(recs[r]);

		assert_non_null(keys);
		for (size_t j = 0; keys[j]; j++)
			if (rows_for(recs[r], keys[j]) != 1)
				fail_msg("%s key %s has %d rows", recs[r],
					 keys[j], rows_for(recs[r], keys[j]));
	}
	for (size_t i = 0; i < n; i++) {
		const conf_use_t *u = &t[i];

		assert_true(u->kind <= CONF_USE_WARNED);
		if (!u->what || !*u->what)
			fail_msg("%s %s: no consumer or reason", u->scope, u->key);
		if (rows_for(u->scope, u->key) != 1)
			fail_msg("%s %s: more than one row", u->scope, u->key);
		if (!*u->scope) {
			if (conf_key_find(u->key) < 0 &&
			    strcasecmp(u->key, "SlurmctldHost"))
				fail_msg("row %s: not a slurm.conf key", u->key);
			continue;
		}
		if (is_list_scope(u->scope)) {
			if (!conf_use_find("", u->scope))
				fail_msg("list %s has no row of its own", u->scope);
			continue;
		}
		{
			const char *const *keys = conf_rec_keys(u->scope);
			bool found = false;

			if (!keys)
				fail_msg("row %s %s: unknown scope", u->scope, u->key);
			for (size_t j = 0; keys[j] && !found; j++)
				found = !strcasecmp(keys[j], u->key);
			if (!found)
				fail_msg("row %s %s: not a key of that line",
					 u->scope, u->key);
		}
		if (u->kind == CONF_USE_PLUGIN)
			fail_msg("%s %s: only scalar keys name plugins", u->scope,
				 u->key);
	}
}

/* "file.py::test_x" exists under tests/integration, "unit/x.c::fn"
 * under tests/unit. */
static bool test_exists(const char *ref)
{
	const char *sep = strstr(ref, "::");
	char *file, *path, *text, *want;
	bool ok = false;

	if (!sep)
		return false;
	file = xstrndup(ref, (size_t) (sep - ref));
	if (!strncmp(file, "unit/", 5)) {
		char *rel = xstrdup_printf("tests/%s", file);

		path = src_path(rel);
		xfree(rel);
		want = xstrdup_printf("void %s(", sep + 2);
	} else {
		char *rel = xstrdup_printf("tests/integration/%s", file);

		path = src_path(rel);
		xfree(rel);
		want = xstrdup_printf("def %s(", sep + 2);
	}
	if ((text = read_all(path)))
		ok = strstr(text, want) != NULL;
	xfree(text);
	xfree(want);
	xfree(path);
	xfree(file);
	return ok;
}

/* Rows another part of issue 27 (hkeys) is making act: they name their
 * consumer; their tests come with that change. */
static void test_implemented_rows_name_a_test(void **state)
{
	size_t n, pending = 0, untested = 0;
	const conf_use_t *t = conf_use_table(&n);

	for (size_t i = 0; i < n; i++) {
		const conf_use_t *u = &t[i];

		if (u->kind != CONF_USE_IMPLEMENTED) {
			if (u->test)
				fail_msg("%s %s: only implemented rows name tests",
					 u->scope, u->key);
			continue;
		}
		if (!u->test)
			fail_msg("%s %s: implemented without a test", u->scope,
				 u->key);
		if (!strcmp(u->test, "hkeys")) {
			pending++;
			continue;
		}
		if (!strcmp(u->test, "untested")) {
			print_message("implemented, no test observes it yet: %s%s%s\n",
				      u->scope, *u->scope ? " " : "", u->key);
			untested++;
			continue;
		}
		if (!test_exists(u->test))
			fail_msg("%s %s: test %s not found", u->scope, u->key,
				 u->test);
	}
	print_message("%zu implemented rows wait for hkeys' tests\n", pending);
	/* a new key is not left untested: this list only shrinks */
	assert_true(untested <= 5);
}

/* A config line setting key (in its scope) to value. */
static char *line_for(const conf_use_t *u, const char *value)
{
	if (!*u->scope)
		return xstrdup_printf("%s=%s\n", u->key, value);
	if (is_list_scope(u->scope))
		return xstrdup_printf("%s=%s\n", u->scope, value);
	if (!strcasecmp(u->scope, "PartitionName")) {
		if (!strcasecmp(u->key, "PartitionName"))
			return xstrdup_printf("NodeName=n1\nPartitionName=%s "
					      "Nodes=n1\n", value);
		return xstrdup_printf("NodeName=n1\nPartitionName=p Nodes=n1 "
				      "%s=%s\n", u->key, value);
	}
	if (!strcasecmp(u->key, u->scope))
		return xstrdup_printf("NodeName=n1\n%s=%s\n", u->scope,
				      !strcasecmp(u->scope, "NodeName") ?
				      "n2" : value);
	if (!strcasecmp(u->scope, "NodeName"))
		return xstrdup_printf("NodeName=n1 %s=%s\n", u->key, value);
	return xstrdup_printf("NodeName=n1\n%s=n1 %s=%s\n", u->scope, u->key,
			      value);
}

/* Values to try for a row: the first the parser takes is used. */
static const char *const candidates[] = {
	"7", "YES", "x/y", "abc", "1-5", NULL
};

static char *value_for(const conf_use_t *u, const char *cand)
{
	if (is_list_scope(u->scope))
		return xstrdup_printf("%s%s%s", u->key, cand ? "=" : "",
				      cand ? cand : "");
	return xstrdup(cand);
}

/* The result of the first candidate the parser takes; *line set to the
 * line number the row's pair is on. */
static slurm_conf_t *try_load(const conf_use_t *u, char *err, size_t len,
			      int *line, bool *refused)
{
	for (int c = -1; c < (int) (sizeof(candidates) / sizeof(*candidates))
	     - 1; c++) {
		const char *cand = c < 0 ? NULL : candidates[c];
		char *v, *text;
		slurm_conf_t *conf;

		if (!cand && !is_list_scope(u->scope))
			continue;
		v = value_for(u, cand);
		text = line_for(u, v);
		*line = (int) (strchr(text, '\n') != strrchr(text, '\n')) + 1;
		conf = load_text(text, err, len);
		xfree(text);
		xfree(v);
		*refused = !conf && strstr(err, "not supported");
		if (conf || *refused)
			return conf;
	}
	return NULL;
}

static void test_refused_rows_stop_the_load(void **state)
{
	size_t n;
	const conf_use_t *t = conf_use_table(&n);

	for (size_t i = 0; i < n; i++) {
		const conf_use_t *u = &t[i];
		char err[512] = "", where[64];
		slurm_conf_t *c;
		bool refused = false;
		int line;

		if (u->kind != CONF_USE_REFUSED)
			continue;
		c = try_load(u, err, sizeof(err), &line, &refused);
		if (c)
			fail_msg("%s %s: loaded with a value it refuses", u->scope,
				 u->key);
		if (!refused)
			fail_msg("%s %s: no value reached the check (%s)",
				 u->scope, u->key, err);
		snprintf(where, sizeof(where), "t.conf:%d: ", line);
		/* a line whose record key is refused is refused by it */
		if (!strstr(err, where) || (!strcasestr(err, u->key) &&
					   !strcasestr(err, u->scope)))
			fail_msg("%s %s: error does not name file:line and key: "
				 "%s", u->scope, u->key, err);
		/* its harmless values load */
		if (u->ok && !is_list_scope(u->scope)) {
			char **alts = xstrsplit(u->ok, "|", NULL);
			char *text = line_for(u, alts[0]);

			c = load_text(text, err, sizeof(err));
			if (!c)
				fail_msg("%s %s=%s refused: %s", u->scope, u->key,
					 alts[0], err);
			conf_destroy(c);
			xfree(text);
			xstrarray_free(alts);
		}
	}
}

static bool noted(const slurm_conf_t *c, const char *want)
{
	for (const char *const *s = conf_not_in_force(c); *s; s++)
		if (strstr(*s, want))
			return true;
	return false;
}

static void test_warned_rows_are_noted(void **state)
{
	size_t n;
	const conf_use_t *t = conf_use_table(&n);

	for (size_t i = 0; i < n; i++) {
		const conf_use_t *u = &t[i];
		char err[512] = "", *want;
		slurm_conf_t *c;
		bool refused;
		int line;

		if (u->kind != CONF_USE_WARNED)
			continue;
		c = try_load(u, err, sizeof(err), &line, &refused);
		if (!c)
			fail_msg("%s %s: not loaded: %s", u->scope, u->key, err);
		if (is_list_scope(u->scope))
			want = xstrdup_printf("t.conf:%d: %s option %s has no "
					      "effect (", line, u->scope, u->key);
		else
			want = xstrdup_printf("t.conf:%d: %s has no effect (",
					      line, u->key);
		if (!noted(c, want))
			fail_msg("%s %s: not noted as %s", u->scope, u->key, want);
		xfree(want);
		conf_destroy(c);
	}
}

/* Implemented and plugin keys are never noted; unknown words of a list
 * key get what Slurm gives them. */
static void test_list_words(void **state)
{
	char err[512];
	slurm_conf_t *c;

	c = load_text("SchedulerParameters=bf_window=60,bf_continue\n"
		      "SlurmctldParameters=rl_enable\nClusterName=x\n"
		      "SelectTypeParameters=CR_Core_Memory\n"
		      "PrologFlags=Alloc,Contain\n", err, sizeof(err));
	assert_non_null(c);
	assert_null(conf_not_in_force(c)[0]);
	conf_destroy(c);

	c = load_text("SchedulerParameters=bf_window=60,no_such_option=3\n",
		      err, sizeof(err));
	assert_non_null(c);
	assert_true(noted(c, "t.conf:1: SchedulerParameters option "
			  "no_such_option has no effect (not an option of "
			  "Slurm 25.05)"));
	conf_destroy(c);

	c = load_text("\nSchedulerParameters=bf_busy_nodes\n", err, sizeof(err));
	assert_null(c);
	assert_non_null(strstr(err, "t.conf:2: SchedulerParameters option "
			       "bf_busy_nodes: not supported"));
	c = load_text("SelectTypeParameters=CR_Core,CR_Bogus\n", err,
		      sizeof(err));
	assert_null(c);
	assert_non_null(strstr(err, "t.conf:1: SelectTypeParameters option "
			       "CR_Bogus: not supported"));
	c = load_text("LaunchParameters=use_interactive_step\n", err,
		      sizeof(err));
	assert_null(c);
	assert_non_null(strstr(err, "t.conf:1: LaunchParameters option "
			       "use_interactive_step: not supported"));
	c = load_text("DebugFlags=Backfill,NoSuchFlag\n", err, sizeof(err));
	assert_null(c);
	assert_non_null(strstr(err, "DebugFlags option NoSuchFlag"));
}

/* The last value written is the one checked; a refusal anywhere keeps
 * the whole file out. */
static void test_last_value_wins(void **state)
{
	char err[512];
	slurm_conf_t *c;

	c = load_text("Licenses=a:1\nLicenses=\n", err, sizeof(err));
	assert_non_null(c);
	conf_destroy(c);
	c = load_text("UsePAM=no\nUsePAM=yes\n", err, sizeof(err));
	assert_null(c);
	assert_non_null(strstr(err, "t.conf:2: UsePAM=yes: not supported"));
	c = load_text("NodeName=n1\nPartitionName=p Nodes=n1 AllowQos=ALL\n",
		      err, sizeof(err));
	assert_non_null(c);
	conf_destroy(c);
	c = load_text("NodeName=n1\nPartitionName=p Nodes=n1 AllowQos=high\n",
		      err, sizeof(err));
	assert_null(c);
	assert_non_null(strstr(err, "t.conf:2: AllowQos=high: not supported: "
			       "partitions do not check QOS"));
}

static void test_key_where(void **state)
{
	char err[512];
	slurm_conf_t *c = load_text("ClusterName=x\n\nkillwait=5\n"
				    "SlurmctldHost=h1\nSlurmctldHost=h2\n",
				    err, sizeof(err));
	const char *w;

	assert_non_null(c);
	w = conf_key_where(c, "KillWait");
	assert_non_null(w);
	assert_non_null(strstr(w, "/t.conf:3"));
	assert_non_null(strstr(conf_key_where(c, "clustername"), "t.conf:1"));
	assert_non_null(strstr(conf_key_where(c, "SlurmctldHost"), "t.conf:4"));
	assert_null(conf_key_where(c, "MinJobAge"));
	assert_null(conf_key_where(c, "NoSuchKey"));
	assert_null(conf_key_where(NULL, "KillWait"));
	conf_destroy(c);
}

/* The row as doc/admin-guide.md prints it ('|' of the accepted values
 * written " or ": it would split the cell). */
static char *doc_row(const conf_use_t *u)
{
	char *name = *u->scope ? xstrdup_printf("%s: %s", u->scope, u->key)
			       : xstrdup(u->key);
	char *note = NULL, *row;

	if (u->kind == CONF_USE_REFUSED && u->ok) {
		char **alts = xstrsplit(u->ok, "|", NULL);

		xstrcat(&note, " (accepted:");
		for (size_t i = 0; alts[i]; i++)
			xstrfmtcat(&note, "%s `%s`", i ? " or" : "", alts[i]);
		xstrcat(&note, ")");
		xstrarray_free(alts);
	}
	row = xstrdup_printf("| `%s` | %s | %s%s |", name,
			     conf_use_kind_name(u->kind), u->what,
			     note ? note : "");
	xfree(note);
	xfree(name);
	return row;
}

static void test_doc_lists_every_row(void **state)
{
	const char *out = getenv("CONF_USE_DOC");
	char *path = src_path("doc/admin-guide.md"), *doc = read_all(path);
	FILE *fp = out ? fopen(out, "w") : NULL;
	size_t n;
	const conf_use_t *t = conf_use_table(&n);

	assert_non_null(doc);
	for (size_t i = 0; i < n; i++) {
		char *row = doc_row(&t[i]);

		if (fp)
			fprintf(fp, "%s\n", row);
		else if (!strstr(doc, row))
			fail_msg("doc/admin-guide.md lacks the row\n%s\n(run "
				 "with CONF_USE_DOC=file to write the table)",
				 row);
		xfree(row);
	}
	if (fp)
		fclose(fp);
	xfree(doc);
	xfree(path);
}

static int setup(void **state)
{
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char *p = xstrdup_printf("%s/t.conf", tmpdir);

	unlink(p);
	xfree(p);
	rmdir(tmpdir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_key_one_row),
		cmocka_unit_test(test_implemented_rows_name_a_test),
		cmocka_unit_test(test_refused_rows_stop_the_load),
		cmocka_unit_test(test_warned_rows_are_noted),
		cmocka_unit_test(test_list_words),
		cmocka_unit_test(test_last_value_wins),
		cmocka_unit_test(test_key_where),
		cmocka_unit_test(test_doc_lists_every_row),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
