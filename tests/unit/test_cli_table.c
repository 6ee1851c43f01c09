/* test_cli_table.c — the accounting-style table engine (cli_table.h) that
 * sacct, sstat, sshare, sreport and sacctmgr show print through: format
 * lists (bad ones first), the header and dash line, cut values, -p/-P,
 * --delimiter and -n, over a small synthetic table; then sacct's own
 * table over a synthetic job, table and -P from the same rows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cli/cli_sacct.h"
#include "cli/cli_shares.h"
#include "cli/cli_table.h"
#include "common/job_info.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

typedef struct {
	const char *name;
	const char *state;
	int         count;
} rec_t;

static void g_name(char **o, const void *r, const cli_ctx_t *c)
{
	xstrcat(o, ((const rec_t *)r)->name);
}

static void g_state(char **o, const void *r, const cli_ctx_t *c)
{
	xstrcat(o, ((const rec_t *)r)->state);
}

static void g_count(char **o, const void *r, const cli_ctx_t *c)
{
	xstrfmtcat(o, "%d", ((const rec_t *)r)->count);
}

static void g_none(char **o, const void *r, const cli_ctx_t *c)
{
}

static const cli_field_t rows[] = {
	{ .name = "Name", .width = -8, .text = g_name },
	{ .name = "NameLong", .width = 12, .text = g_name },
	{ .name = "State", .header = "St", .width = 6, .text = g_state },
	{ .name = "Count", .width = 5, .text = g_count },
	{ .name = "Empty", .width = 4, .text = g_none },
	{ .name = NULL },
};

static const cli_alias_t aliases[] = {
	{ "Status", "State" }, { "N", "NameLong" }, { NULL, NULL },
};

static const rec_t rec_a = { "alpha", "RUNNING", 7 };
static const rec_t rec_b = { "a_long_name", "PD", 123456 };

/* What fn printed, as a string (caller frees). */
static char *printed(cli_table_t *t, const cli_table_opt_t *o, bool header,
		     const rec_t *const *recs, size_t n)
{
	char *buf = NULL, *copy;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (header)
		cli_table_header(f, t, o);
	for (size_t i = 0; i < n; i++)
		cli_table_row(f, t, o, recs[i], NULL);
	fclose(f);
	copy = xstrdup(buf);
	free(buf);
	return copy;
}

static void parse_ok(cli_table_t *t, const char *spec)
{
	char *bad = NULL;

	assert_int_equal(cli_table_parse(t, CLI_TABLE(rows), aliases, spec,
					 &bad), 0);
	assert_null(bad);
}

/* ---- bad lists: -1, the bad item named, nothing kept ---- */

static void test_bad_lists(void **state)
{
	static const struct {
		const char *spec, *bad;
	} cases[] = {
		{ "Nosuch", "Nosuch" },
		{ "Name,Nosuch%5", "Nosuch" },
		{ "Count%x", "Count%x" },
		{ "Count%", "Count%" },
		{ "Count%5x", "Count%5x" },
		{ "Count%99999", "Count%99999" },
		{ "Count%-99999", "Count%-99999" },
		{ "Xame", "Xame" },
	};

	(void) state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cli_table_t t;
		char *bad = NULL;

		assert_int_equal(cli_table_parse(&t, CLI_TABLE(rows), aliases,
						 cases[i].spec, &bad), -1);
		assert_string_equal(bad, cases[i].bad);
		assert_int_equal(t.cnt, 0);
		assert_null(t.cols);
		xfree(bad);
	}
}

/* A failed add keeps the columns added before it (sreport goes on). */
static void test_add_keeps_earlier_columns(void **state)
{
	cli_table_t t;
	char *bad = NULL;

	(void) state;
	parse_ok(&t, "Name");
	assert_int_equal(cli_table_add(&t, CLI_TABLE(rows), NULL,
				       "Count,Nosuch", &bad), -1);
	assert_string_equal(bad, "Nosuch");
	xfree(bad);
	assert_int_equal(t.cnt, 1);
	assert_int_equal(cli_table_add(&t, CLI_TABLE(rows), NULL, "Count",
				       &bad), 0);
	assert_int_equal(t.cnt, 2);
	cli_table_free(&t);
}

/* ---- names and widths ---- */

static void test_names(void **state)
{
	cli_table_t t;

	(void) state;
	/* exact beats a prefix; case-insensitive; a prefix takes the first
	 * row that starts with it; aliases; blanks before a name */
	parse_ok(&t, "name,NAMELONG,na,co,status, N,,st%-3");
	assert_int_equal(t.cnt, 7);
	assert_string_equal(t.cols[0].field->name, "Name");
	assert_string_equal(t.cols[1].field->name, "NameLong");
	assert_string_equal(t.cols[2].field->name, "Name");
	assert_string_equal(t.cols[3].field->name, "Count");
	assert_string_equal(t.cols[4].field->name, "State");
	assert_string_equal(t.cols[5].field->name, "NameLong");
	assert_string_equal(t.cols[6].field->name, "State");
	assert_int_equal(t.cols[6].width, -3);
	assert_true(t.cols[6].set);
	assert_false(t.cols[0].set);
	cli_table_free(&t);
}

static void test_widths(void **state)
{
	cli_table_t t;

	(void) state;
	/* %0 keeps the default (Slurm's sacctmgr, sshare, sreport) */
	parse_ok(&t, "Name%0,Count%-3,State%20,Count");
	assert_int_equal(t.cols[0].width, -8);
	assert_int_equal(t.cols[1].width, -3);
	assert_int_equal(t.cols[2].width, 20);
	assert_int_equal(t.cols[3].width, 5);
	cli_table_free(&t);
}

/* ---- output ---- */

static void test_table(void **state)
{
	const rec_t *recs[] = { &rec_a, &rec_b };
	cli_table_opt_t o = { 0 };
	cli_table_t t;
	char *s;

	(void) state;
	parse_ok(&t, "Name,State,Count,Empty,Count%3");
	s = printed(&t, &o, true, recs, 2);
	assert_string_equal(s,
		"Name         St Count Empt Cou \n"
		"-------- ------ ----- ---- --- \n"
		"alpha    RUNNI+     7        7 \n"
		"a_long_+     PD 1234+      12+ \n");
	xfree(s);
	o.no_mark = true;
	s = printed(&t, &o, false, recs, 1);
	assert_string_equal(s, "alpha    RUNNIN     7        7 \n");
	xfree(s);
	o.noheader = true;
	s = printed(&t, &o, true, recs, 0);
	assert_string_equal(s, "");
	xfree(s);
	cli_table_free(&t);
}

static void test_parsable(void **state)
{
	const rec_t *recs[] = { &rec_a, &rec_b };
	cli_table_opt_t o = { .parsable = 1 };
	cli_table_t t;
	char *s;

	(void) state;
	parse_ok(&t, "Name%2,State,Empty,Count");
	s = printed(&t, &o, true, recs, 2);
	assert_string_equal(s, "Name|St|Empty|Count|\n"
			       "alpha|RUNNING||7|\n"
			       "a_long_name|PD||123456|\n");
	xfree(s);
	o.parsable = 2;
	o.delim = ",";
	s = printed(&t, &o, true, recs, 1);
	assert_string_equal(s, "Name,St,Empty,Count\nalpha,RUNNING,,7\n");
	xfree(s);
	o.noheader = true;
	s = printed(&t, &o, true, recs, 1);
	assert_string_equal(s, "alpha,RUNNING,,7\n");
	xfree(s);
	cli_table_free(&t);
}

/* A row of texts made by the command prints as a row of getters. */
static void test_row_texts(void **state)
{
	const char *texts[] = { "alpha", "RUNNING", "7", NULL };
	const rec_t *recs[] = { &rec_a };
	cli_table_opt_t o = { 0 };
	cli_table_t t;
	char *buf = NULL, *want;
	size_t len = 0;
	FILE *f;

	(void) state;
	parse_ok(&t, "Name,State,Count,Empty");
	want = printed(&t, &o, false, recs, 1);
	f = open_memstream(&buf, &len);
	cli_table_row_texts(f, &t, &o, texts);
	fclose(f);
	assert_string_equal(buf, want);
	free(buf);
	xfree(want);
	cli_table_free(&t);
}

static void test_help(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void) state;
	cli_table_help(f, CLI_TABLE(rows));
	fclose(f);
	assert_string_equal(buf,
		"Name                NameLong            State               "
		"Count               \nEmpty               \n");
	free(buf);
}

/* ---- sacct's table over a synthetic job: the table and -P show the
 * same values, cut only in the table ---- */

static void test_sacct_rows(void **state)
{
	acct_job_rec_t j = { 0 };
	acct_step_rec_t st = { 0 };
	sacct_row_t job = { .job = &j, .now = 1800000000 };
	sacct_row_t step = { .job = &j, .step = &st, .now = 1800000000 };
	const sacct_row_t *recs[] = { &job, &step };
	cli_table_opt_t o = { 0 }, p = { .parsable = 2 };
	cli_table_t t;
	char *bad = NULL, *tab = NULL, *par = NULL;
	size_t tl = 0, pl = 0;
	FILE *ft = open_memstream(&tab, &tl), *fp = open_memstream(&par, &pl);

	(void) state;
	j.job_id = 4242;
	j.name = (char *)"a_rather_long_name";
	j.partition = (char *)"debug";
	j.account = (char *)"physics";
	j.num_cpus = 2;
	j.state = JOB_COMPLETE;
	j.requid = NO_VAL32;
	j.array_task_id = NO_VAL32;
	st.job_id = 4242;
	st.step_id = 0;
	st.name = (char *)"hostname";
	st.num_cpus = 2;
	st.state = JOB_FAILED;
	st.exit_code = 1 << 8;
	assert_int_equal(cli_table_parse(&t, CLI_TABLE(sacct_fields), NULL,
					 "JobID,JobName,Partition,Account,"
					 "AllocCPUS,State,ExitCode", &bad), 0);
	cli_table_header(ft, &t, &o);
	cli_table_header(fp, &t, &p);
	for (size_t i = 0; i < 2; i++) {
		cli_table_row(ft, &t, &o, recs[i], NULL);
		cli_table_row(fp, &t, &p, recs[i], NULL);
	}
	fclose(ft);
	fclose(fp);
	assert_string_equal(tab,
		"JobID           JobName  Partition    Account  AllocCPUS      "
		"State ExitCode \n"
		"------------ ---------- ---------- ---------- ---------- "
		"---------- -------- \n"
		"4242         a_rather_+      debug    physics          2  "
		"COMPLETED      0:0 \n"
		"4242.0         hostname               physics          2     "
		"FAILED      1:0 \n");
	assert_string_equal(par,
		"JobID|JobName|Partition|Account|AllocCPUS|State|ExitCode\n"
		"4242|a_rather_long_name|debug|physics|2|COMPLETED|0:0\n"
		"4242.0|hostname||physics|2|FAILED|1:0\n");
	free(tab);
	free(par);
	cli_table_free(&t);
}

/* ---- sshare's rows over a synthetic controller answer: the table, -P
 * and the JSON members come from the same rows ---- */

static void test_share_rows(void **state)
{
	char *cols[] = { "account", "user", "depth", "raw_shares",
			 "norm_shares", "raw_usage", "norm_usage",
			 "effectv_usage", "fairshare", "level_fs", "algorithm",
			 "grp_tres_mins", "tres_run_mins", NULL };
	char *cells[] = {
		"root", "", "0", "", "", "100", "", "1.000000", "", "",
		"fair_tree", "", "",
		"physics", "", "1", "1", "1.000000", "100", "1.000000",
		"1.000000", "", "0.5", "fair_tree", "", "cpu=0",
		"physics", "alice", "2", "1", "0.500000", "100", "1.000000",
		"1.000000", "0.500000", "0.5", "fair_tree", "", "cpu=0",
		NULL };
	table_resp_msg_t t = { .cols = cols, .cells = cells };
	cli_table_opt_t o = { 0 }, p = { .parsable = 2 };
	char *parents[CLI_SHARES_MAX_DEPTH] = { 0 };
	char *tab = NULL, *par = NULL, *bad = NULL;
	size_t tl = 0, pl = 0;
	FILE *ft = open_memstream(&tab, &tl), *fp = open_memstream(&par, &pl);
	json_object *doc, *list;
	cli_table_t tb;

	(void) state;
	assert_int_equal(cli_shares_count(&t), 3);
	assert_int_equal(cli_table_parse(&tb, CLI_TABLE(cli_share_fields),
					 NULL, "Account,User,RawShares,RawUsage,"
					 "NormUsage,FairShare,LevelFS", &bad), 0);
	cli_table_header(ft, &tb, &o);
	cli_table_header(fp, &tb, &p);
	for (size_t i = 0; i < 3; i++) {
		cli_share_rec_t rec;

		cli_shares_rec(&rec, &t, i, parents);
		cli_table_row(ft, &tb, &o, &rec, NULL);
		cli_table_row(fp, &tb, &p, &rec, NULL);
	}
	cli_shares_parents_free(parents);
	fclose(ft);
	fclose(fp);
	assert_string_equal(tab,
		"Account                    User  RawShares    RawUsage   "
		"NormUsage  FairShare    LevelFS \n"
		"-------------------- ---------- ---------- ----------- "
		"----------- ---------- ---------- \n"
		"root                                               100    "
		"                               \n"
		" physics                                 1         100    "
		"1.000000                   0.5 \n"
		"  physics                 alice          1         100    "
		"1.000000   0.500000        0.5 \n");
	assert_string_equal(par,
		"Account|User|RawShares|RawUsage|NormUsage|FairShare|LevelFS\n"
		"root|||100|||\n"
		" physics||1|100|1.000000||0.5\n"
		"  physics|alice|1|100|1.000000|0.500000|0.5\n");
	doc = cli_shares_json(&t);
	list = json_object_object_get(doc, "shares");
	assert_int_equal(json_object_array_length(list), 3);
	assert_string_equal(json_object_to_json_string_ext(
		json_object_array_get_idx(list, 2), JSON_C_TO_STRING_PLAIN),
		"{\"name\":\"alice\",\"parent\":\"physics\","
		"\"partition\":\"\",\"shares\":{\"set\":true,"
		"\"infinite\":false,\"number\":1},\"shares_normalized\":"
		"{\"set\":true,\"infinite\":false,\"number\":0.5},"
		"\"usage\":100,\"usage_normalized\":{\"set\":true,"
		"\"infinite\":false,\"number\":1.0},\"effective_usage\":"
		"{\"set\":true,\"infinite\":false,\"number\":1.0},"
		"\"fairshare\":{\"factor\":{\"set\":true,\"infinite\":false,"
		"\"number\":0.5},\"level\":{\"set\":true,\"infinite\":false,"
		"\"number\":0.5}},\"type\":[\"USER\"]}");
	assert_int_equal(json_object_get_int(json_object_object_get(doc,
		"total_shares")), 1);
	json_object_put(doc);
	free(tab);
	free(par);
	cli_table_free(&tb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_lists),
		cmocka_unit_test(test_add_keeps_earlier_columns),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_widths),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_parsable),
		cmocka_unit_test(test_row_texts),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_sacct_rows),
		cmocka_unit_test(test_share_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
