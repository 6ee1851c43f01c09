/* test_plugin_abi.c — every structure a plugin from PluginDir is handed
 * (each type's ops table, the views, the records and requests its ops
 * take) is frozen per version in tests/fixtures/plugin_abi/<name>.v<N>:
 * the member list of version N, as the header had it.  This fails when a
 * structure changes and the version that covers it (the type's
 * <TYPE>_OPS_VERSION, or the view's own) was not bumped, and when a
 * version was bumped and the new fixture was not made (copy the
 * structure, as tests/fixtures/plugin_abi/README says).  Comments and
 * layout of the text do not count; members, their types and order do.
 */
#include <ctype.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

typedef struct {
	const char *header;   /* under src/ */
	const char *name;     /* typedef name, or "struct tag" */
	const char *vheader;  /* the header defining the version macro */
	const char *vmacro;
} abi_row_t;

static const abi_row_t rows[] = {
	/* controller types */
	{ "ctld/job_submit_plugin.h", "job_submit_ops_t",
	  "ctld/job_submit_plugin.h", "JOB_SUBMIT_OPS_VERSION" },
	{ "common/job_submit_view.h", "job_submit_view_t",
	  "common/job_submit_view.h", "JOB_SUBMIT_VIEW_VERSION" },
	{ "common/job_view.h", "job_view_t", "common/job_view.h",
	  "JOB_VIEW_VERSION" },
	{ "common/part_view.h", "part_view_t", "common/part_view.h",
	  "PART_VIEW_VERSION" },
	{ "ctld/site_factor.h", "site_factor_ops_t", "ctld/site_factor.h",
	  "SITE_FACTOR_OPS_VERSION" },
	{ "ctld/jobcomp.h", "jobcomp_ops_t", "ctld/jobcomp.h",
	  "JOBCOMP_OPS_VERSION" },
	{ "ctld/priority_plugin.h", "priority_ops_t",
	  "ctld/priority_plugin.h", "PRIORITY_OPS_VERSION" },
	{ "ctld/preempt_plugin.h", "preempt_ops_t", "ctld/preempt_plugin.h",
	  "PREEMPT_OPS_VERSION" },
	{ "ctld/sched_plugin.h", "sched_ops_t", "ctld/sched_plugin.h",
	  "SCHED_OPS_VERSION" },
	{ "ctld/select_plugin.h", "select_ops_t", "ctld/select_plugin.h",
	  "SELECT_OPS_VERSION" },
	{ "ctld/select.h", "select_node_t", "ctld/select_plugin.h",
	  "SELECT_OPS_VERSION" },
	{ "ctld/select.h", "select_req_t", "ctld/select_plugin.h",
	  "SELECT_OPS_VERSION" },
	{ "ctld/acct_storage.h", "acct_storage_ops_t", "ctld/acct_storage.h",
	  "ACCT_STORAGE_OPS_VERSION" },
#define REC(n) { "common/acct_rec.h", n, "ctld/acct_storage.h", \
		 "ACCT_STORAGE_OPS_VERSION" }
	REC("acct_cluster_rec_t"), REC("acct_job_rec_t"),
	REC("acct_step_rec_t"), REC("acct_event_rec_t"),
	REC("acct_resv_rec_t"), REC("acct_script_rec_t"),
	REC("acct_track_rec_t"), REC("acct_profile_rec_t"),
#undef REC
	/* node and command types */
	{ "common/mpi_plugin.h", "mpi_ops_t", "common/mpi_plugin.h",
	  "MPI_OPS_VERSION" },
	{ "common/prep.h", "prep_ops_t", "common/prep.h", "PREP_OPS_VERSION" },
	{ "common/acct_gather_energy.h", "acct_gather_energy_ops_t",
	  "common/acct_gather_energy.h", "ACCT_GATHER_ENERGY_OPS_VERSION" },
	{ "common/auth.h", "auth_ops_t", "common/auth.h", "AUTH_OPS_VERSION" },
	{ "common/fixed_plugins.h", "fixed_ops_t", "common/fixed_plugins.h",
	  "FIXED_OPS_VERSION" },
	{ "cli/cli_filter.h", "cli_filter_ops_t", "cli/cli_filter.h",
	  "CLI_FILTER_OPS_VERSION" },
	{ "cli/cli_filter.h", "struct cli_filter_options", "cli/cli_filter.h",
	  "CLI_FILTER_OPS_VERSION" },
	{ "slurmd/stepd/task_plugin.h", "task_ops_t",
	  "slurmd/stepd/task_plugin.h", "TASK_OPS_VERSION" },
	{ "slurmd/stepd/affinity.h", "affinity_req_t",
	  "slurmd/stepd/task_plugin.h", "TASK_OPS_VERSION" },
	{ "slurmd/stepd/proctrack.h", "proctrack_ops_t",
	  "slurmd/stepd/proctrack.h", "PROCTRACK_OPS_VERSION" },
	{ "slurmd/stepd/step_acct.h", "jobacct_gather_ops_t",
	  "slurmd/stepd/step_acct.h", "JOBACCT_GATHER_OPS_VERSION" },
};

static char *slurp(const char *dir, const char *rel)
{
	char path[1024];
	FILE *f;
	long n;
	char *s;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = calloc(1, n + 1);
	if (fread(s, 1, n, f) != (size_t) n)
		n = 0;
	s[n] = '\0';
	fclose(f);
	return s;
}

/* Comments out, every run of white space one blank, none around
 * punctuation: the members as the compiler sees them. */
static char *normalize(const char *a, size_t n)
{
	char *o = calloc(1, n + 1), *p = o;
	bool space = false;

	for (size_t i = 0; i < n; i++) {
		if (a[i] == '/' && i + 1 < n && a[i + 1] == '*') {
			const char *e = strstr(a + i + 2, "*/");
			i = e ? (size_t)(e - a) + 1 : n;
			space = true;
			continue;
		}
		if (a[i] == '/' && i + 1 < n && a[i + 1] == '/') {
			while (i < n && a[i] != '\n')
				i++;
			space = true;
			continue;
		}
		if (a[i] == ' ' || a[i] == '\t' || a[i] == '\n' ||
		    a[i] == '\\') {
			space = true;
			continue;
		}
		if (space && p > o && (isalnum((unsigned char) a[i]) ||
				       a[i] == '_') &&
		    (isalnum((unsigned char) p[-1]) || p[-1] == '_'))
			*p++ = ' ';
		space = false;
		*p++ = a[i];
	}
	*p = '\0';
	return o;
}

/* The body of name ("x_t" of "typedef struct ... { ... } x_t;", or
 * "struct tag" of "struct tag { ... };"), normalized; NULL if absent. */
static char *extract(const char *text, const char *name)
{
	const char *open, *close;
	char pat[128];
	int depth = 0;

	if (!strncmp(name, "struct ", 7)) {
		snprintf(pat, sizeof(pat), "%s {", name);
		open = strstr(text, pat);
		if (!open)
			return NULL;
		open = strchr(open, '{');
		for (close = open; *close; close++) {
			depth += *close == '{';
			if (*close == '}' && --depth == 0)
				break;
		}
		return *close ? normalize(open, close - open + 1) : NULL;
	}
	snprintf(pat, sizeof(pat), "} %s;", name);
	close = strstr(text, pat);
	if (!close)
		return NULL;
	for (open = close; open > text; open--) {
		depth += *open == '}';
		if (*open == '{' && --depth == 0)
			break;
	}
	return depth ? NULL : normalize(open, close - open + 1);
}

static int version_of(const char *text, const char *macro)
{
	char pat[128];
	const char *p;

	snprintf(pat, sizeof(pat), "#define %s ", macro);
	p = strstr(text, pat);
	return p ? atoi(p + strlen(pat)) : -1;
}

static void test_every_structure_is_frozen(void **state)
{
	int bad = 0;

	(void) state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const abi_row_t *r = &rows[i];
		char *h = slurp(SLUICE_SRC_DIR, r->header);
		char *vh = slurp(SLUICE_SRC_DIR, r->vheader);
		char fx[256], *f, *live, *frozen;
		int v;

		assert_non_null(h);
		assert_non_null(vh);
		v = version_of(vh, r->vmacro);
		assert_true(v >= 0);
		live = extract(h, r->name);
		if (!live)
			fail_msg("%s: no %s", r->header, r->name);
		snprintf(fx, sizeof(fx), "%s.v%d",
			 !strncmp(r->name, "struct ", 7) ? r->name + 7 :
			 r->name, v);
		f = slurp(SLUICE_FIXTURE_DIR, fx);
		frozen = f ? extract(f, r->name) : NULL;
		if (!frozen) {
			print_error("%s %s = %d has no frozen copy "
				    "tests/fixtures/plugin_abi/%s: make it "
				    "(README there)\n", r->name, r->vmacro, v,
				    fx);
			bad++;
		} else if (strcmp(live, frozen)) {
			print_error("%s (%s) changed but %s is still %d: bump "
				    "it (and serve or refuse the old one), "
				    "then freeze the new version\n  frozen: "
				    "%s\n  now:    %s\n", r->name, r->header,
				    r->vmacro, v, frozen, live);
			bad++;
		}
		free(h); free(vh); free(f); free(live); free(frozen);
	}
	assert_int_equal(bad, 0);
}

/* the check itself: a member added, renamed or retyped is seen, a
 * comment or a line break is not */
static void test_normalize_sees_members_only(void **state)
{
	const char *a = "typedef struct {\n\tint  a; /* one */\n\tchar *b;\n} x_t;";
	const char *b = "typedef struct { int a;\n  char\t*b; // two\n} x_t;";
	const char *c = "typedef struct { int a; char *b; int c; } x_t;";
	const char *d = "typedef struct { long a; char *b; } x_t;";
	char *ea = extract(a, "x_t"), *eb = extract(b, "x_t");
	char *ec = extract(c, "x_t"), *ed = extract(d, "x_t");

	(void) state;
	assert_string_equal(ea, eb);
	assert_string_not_equal(ea, ec);
	assert_string_not_equal(ea, ed);
	assert_null(extract(a, "y_t"));
	free(ea); free(eb); free(ec); free(ed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalize_sees_members_only),
		cmocka_unit_test(test_every_structure_is_frozen),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
