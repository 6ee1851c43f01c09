/* test_cli_format.c — the format engine: -o/-O parsing (bad specs first),
 * cell widths and cutting, and job fields rendered from a hand-built
 * job_info_t (TIME column, reasons, truncation, scontrol layout). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

/* The engine lives in the command library; test its sources directly. */
#include "../../src/cli/cli_jv.c"
#include "../../src/cli/cli_fields.c"
#include "../../src/cli/cli_fields_job.c"
#include "../../src/cli/cli_fields_jobstep.c"
#include "../../src/cli/cli_fields_node.c"
#include "../../src/cli/cli_fields_part.c"
#include "../../src/cli/cli_fields_sinfo.c"
#include "../../src/cli/cli_format.c"
#include "../../src/cli/cli_output.c"
#include "common/log.h"

#define NOW 1795351559

static job_info_t make_job(uint32_t id, const char *name, uint32_t state)
{
	job_info_t j;

	memset(&j, 0, sizeof(j));
	j.job_id = id;
	j.name = (char *)name;
	j.user_name = (char *)"root";
	j.group_name = (char *)"root";
	j.partition = (char *)"debug";
	j.account = (char *)"root";
	j.qos = (char *)"normal";
	j.job_state = state;
	j.num_nodes = 1;
	j.num_cpus = 2;
	j.num_tasks = 2;
	j.cpus_per_task = NO_VAL16;
	j.time_limit = INFINITE32;
	j.nice = NICE_OFFSET;
	j.submit_time = NOW - 20;
	j.batch_flag = true;
	j.work_dir = (char *)"/tmp/w";
	j.requeue = 1;
	return j;
}

static char *render(const char *spec, const job_info_t *j)
{
	cli_format_t fmt;
	cli_ctx_t ctx = { .now = NOW };
	char *line;

	assert_int_equal(cli_format_parse(&fmt, spec, cli_job_fields, "job"), 0);
	line = cli_output_line(&fmt, j, &ctx);
	cli_format_free(&fmt);
	return line;
}

/* ---- bad specifications first ---- */

static void test_bad_short_specs(void **state)
{
	static const struct {
		const char *spec;
		int         bad;
		size_t      cols;
		const char *header;
	} cases[] = {
		{ "%~", 1, 0, "%~\n" },               /* unknown letter kept */
		{ "%", 0, 0, "%\n" },                 /* dangling % */
		{ "%.", 0, 0, "%.\n" },
		{ "%12", 0, 0, "%12\n" },             /* width, no letter */
		{ "%i %~ %j", 1, 2, "JOBID %~ NAME\n" },
		{ "%%i", 0, 0, "%i\n" },              /* %% is a literal % */
		{ "", 0, 0, "\n" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cli_format_t fmt;
		char *h;

		assert_int_equal(cli_format_parse(&fmt, cases[i].spec,
						  cli_job_fields, "job"),
				 cases[i].bad);
		assert_int_equal(fmt.cnt, cases[i].cols);
		h = cli_output_header(&fmt);
		assert_string_equal(h, cases[i].header);
		xfree(h);
		cli_format_free(&fmt);
	}
}

static void test_bad_long_specs(void **state)
{
	static const struct {
		const char *spec;
		int         bad;
		size_t      cols;
	} cases[] = {
		{ "Bogus", 1, 0 },
		{ "JobID,Bogus,Name", 1, 2 },
		{ ",,", 0, 0 },
		{ ":5", 0, 0 },
		{ "", 0, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cli_format_t fmt;

		assert_int_equal(cli_format_parse_long(&fmt, cases[i].spec,
						       cli_job_fields, "job"),
				 cases[i].bad);
		assert_int_equal(fmt.cnt, cases[i].cols);
		cli_format_free(&fmt);
	}
}

static void test_huge_width_clamped(void **state)
{
	cli_format_t fmt;

	assert_int_equal(cli_format_parse(&fmt, "%999999999999i", cli_job_fields,
					  "job"), 0);
	assert_int_equal(fmt.cnt, 1);
	assert_int_equal(fmt.cols[0].width, CLI_FORMAT_MAX_WIDTH);
	cli_format_free(&fmt);
}

/* ---- good specifications ---- */

static void test_short_spec_columns(void **state)
{
	cli_format_t fmt;

	assert_int_equal(cli_format_parse(&fmt, " %.18i %9P|%j", cli_job_fields,
					  "job"), 0);
	assert_string_equal(fmt.prefix, " ");
	assert_int_equal(fmt.cnt, 3);
	assert_int_equal(fmt.cols[0].width, 18);
	assert_true(fmt.cols[0].right);
	assert_string_equal(fmt.cols[0].suffix, " ");
	assert_int_equal(fmt.cols[1].width, 9);
	assert_false(fmt.cols[1].right);
	assert_string_equal(fmt.cols[1].suffix, "|");
	assert_null(fmt.cols[2].suffix);
	assert_int_equal(fmt.cols[2].field->letter, 'j');
	cli_format_free(&fmt);
}

static void test_long_spec_columns(void **state)
{
	cli_format_t fmt;

	assert_int_equal(cli_format_parse_long(&fmt, "jobid,NAME:5,State:.8|,account:\x1f",
					       cli_job_fields, "job"), 0);
	assert_int_equal(fmt.cnt, 4);
	assert_int_equal(fmt.cols[0].width, CLI_FORMAT_LONG_DEFAULT_WIDTH);
	assert_int_equal(fmt.cols[1].width, 5);
	assert_int_equal(fmt.cols[2].width, 8);
	assert_true(fmt.cols[2].right);
	assert_string_equal(fmt.cols[2].suffix, "|");
	assert_int_equal(fmt.cols[3].width, 0);
	assert_string_equal(fmt.cols[3].suffix, "\x1f");
	cli_format_free(&fmt);
}

static void test_cells(void **state)
{
	static const struct {
		const char *text;
		int         width;
		bool        right;
		const char *want;
	} cases[] = {
		{ "nobodyjob", 8, true, "nobodyjo" },  /* cut, not marked */
		{ "nobodyjob", 8, false, "nobodyjo" },
		{ "R", 2, true, " R" },
		{ "idle", 6, false, "idle  " },
		{ "whole", 0, false, "whole" },
		{ "", 3, true, "   " },
		{ NULL, 2, false, "  " },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s = NULL;

		cli_format_cell(&s, cases[i].text, cases[i].width, cases[i].right);
		assert_string_equal(s ? s : "", cases[i].want);
		xfree(s);
	}
}

/* ---- rendering jobs ---- */

static void test_default_header(void **state)
{
	cli_format_t fmt;
	char *h;

	cli_format_parse(&fmt, "%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R",
			 cli_job_fields, "job");
	h = cli_output_header(&fmt);
	assert_string_equal(h, "             JOBID PARTITION     NAME     USER "
			       "ST       TIME  NODES NODELIST(REASON)\n");
	xfree(h);
	cli_format_free(&fmt);
	cli_format_parse(&fmt, "%.9l", cli_job_fields, "job");
	h = cli_output_header(&fmt);
	assert_string_equal(h, "TIME_LIMI\n");
	xfree(h);
	cli_format_free(&fmt);
}

static void test_running_row(void **state)
{
	job_info_t j = make_job(7, "nobodyjob", JOB_RUNNING);
	char *line;

	j.user_name = (char *)"nobody";
	j.start_time = NOW - 5;
	j.nodes = (char *)"n3";
	j.num_cpus = 1;
	line = render("%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R", &j);
	assert_string_equal(line, "                 7     debug nobodyjo   nobody "
				  " R       0:05      1 n3\n");
	xfree(line);
}

static void test_pending_reasons(void **state)
{
	static const struct {
		uint32_t    reason;
		const char *desc;
		const char *want;
	} cases[] = {
		{ WAIT_RESOURCES, NULL, "(Resources)" },
		{ WAIT_DEPENDENCY, NULL, "(Dependency)" },
		{ WAIT_HELD_USER, NULL, "(JobHeldUser)" },
		{ WAIT_PRIORITY, "launch_failed_requeued_held",
		  "(launch_failed_requeued_held)" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		job_info_t j = make_job(8, "wide", JOB_PENDING);
		char *line;

		j.state_reason = cases[i].reason;
		j.state_desc = (char *)cases[i].desc;
		line = render("%M|%R|%t|%T", &j);
		assert_non_null(strstr(line, cases[i].want));
		assert_true(!strncmp(line, "0:00|", 5));
		assert_non_null(strstr(line, "|PD|PENDING"));
		xfree(line);
	}
}

static void test_times(void **state)
{
	static const struct {
		long        used;
		const char *want;
	} cases[] = {
		{ 0, "0:00" }, { 11, "0:11" }, { 3599, "59:59" },
		{ 3600, "1:00:00" }, { 90061, "1-01:01:01" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		job_info_t j = make_job(1, "t", JOB_RUNNING);
		char *line;
		char want[64];

		j.start_time = NOW - cases[i].used;
		line = render("%M", &j);
		snprintf(want, sizeof(want), "%s\n", cases[i].want);
		assert_string_equal(line, want);
		xfree(line);
	}
}

static void test_finished_and_array(void **state)
{
	job_info_t j = make_job(6, "fails", JOB_FAILED);
	char *line;

	j.state_reason = FAIL_EXIT_CODE;
	j.start_time = NOW - 10;
	j.end_time = NOW - 10;
	j.exit_code = 3 << 8;
	line = render("%t %M %R", &j);
	assert_string_equal(line, "F 0:00 (NonZeroExitCode)\n");
	xfree(line);

	j = make_job(12, "arr", JOB_PENDING);
	j.array_job_id = 10;
	j.array_task_id = NO_VAL32;
	j.array_task_str = (char *)"5-9%2";
	line = render("%i %F %K %A", &j);
	assert_string_equal(line, "10_[5-9%2] 10 5-9%2 12\n");
	xfree(line);
	j.array_task_id = 4;
	line = render("%i", &j);
	assert_string_equal(line, "10_4\n");
	xfree(line);
}

static void test_show_job_layout(void **state)
{
	job_info_t j = make_job(1, "plain", JOB_RUNNING);
	cli_ctx_t ctx = { .now = NOW };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	j.start_time = NOW - 11;
	j.nodes = (char *)"n1";
	j.batch_host = (char *)"n1";
	cli_fields_show(f, cli_job_fields, &j, &ctx, false, false, "\n   \n\n",
			" \n");
	fclose(f);
	assert_true(!strncmp(buf, "JobId=1 JobName=plain\n   UserId=root(", 37));
	assert_non_null(strstr(buf, "\n   JobState=RUNNING Reason=None Dependency=(null)\n"));
	assert_non_null(strstr(buf, "\n   RunTime=00:00:11 TimeLimit=UNLIMITED TimeMin=N/A\n"));
	assert_non_null(strstr(buf, "\n   BatchHost=n1\n"));
	assert_non_null(strstr(buf, "\n   StdOut=/tmp/w/slurm-1.out\n"));
	assert_non_null(strstr(buf, "\n   Power=\n   \n\n"));
	free(buf);

	j.state_desc = (char *)"ReqNodeNotAvail, UnavailableNodes:n2";
	buf = NULL;
	f = open_memstream(&buf, &len);
	cli_fields_show(f, cli_job_fields, &j, &ctx, true, false, "", "");
	fclose(f);
	assert_non_null(strstr(buf, " Reason=ReqNodeNotAvail,_UnavailableNodes:n2 "));
	free(buf);
}

static void test_json_shape(void **state)
{
	job_info_t j = make_job(9, "held", JOB_PENDING);
	cli_ctx_t ctx = { .now = NOW };
	json_object *o = cli_fields_json(cli_job_fields, &j, &ctx), *v, *n;

	assert_true(json_object_object_get_ex(o, "job_state", &v));
	assert_string_equal(json_object_get_string(json_object_array_get_idx(v, 0)),
			    "PENDING");
	assert_true(json_object_object_get_ex(o, "time_limit", &v));
	assert_true(json_object_object_get_ex(v, "infinite", &n));
	assert_true(json_object_get_boolean(n));
	assert_true(json_object_object_get_ex(o, "job_id", &v));
	assert_int_equal(json_object_get_int(v), 9);
	json_object_put(o);
}

/* Every -O name the clients in reference/clients.md send. */
static void test_client_long_names(void **state)
{
	static const char *const job_names[] = {
		"Account", "JobID", "BatchHost", "MinCpus", "NumCPUs", "MinTmpDisk",
		"NumNodes", "EndTime", "Dependency", "Feature", "ArrayJobID",
		"GroupName", "GroupID", "OverSubscribe", "Sockets", "JobArrayID",
		"Cores", "Name", "Threads", "Comment", "ArrayTaskID", "TimeLimit",
		"TimeLeft", "MinMemory", "TimeUsed", "ReqNodes", "NodeList",
		"Command", "Contiguous", "QOS", "Partition", "PriorityLong",
		"Reason", "StartTime", "StateCompact", "State", "UserName",
		"UserID", "Reservation", "SubmitTime", "WCKey", "Licenses",
		"ExcNodes", "CoreSpec", "Nice", "SchedNodes", "SCT", "WorkDir",
		"tres-alloc", "tres-per-node", "ReasonList", "exit_code",
	};
	static const char *const node_names[] = {
		"nodehost", "gres", "gresused", "statelong", "NodeList", "AllocMem",
		"Memory", "CPUsState", "StateLong", "Partition", "CPUs",
	};

	for (size_t i = 0; i < sizeof(job_names) / sizeof(job_names[0]); i++)
		assert_non_null(cli_field_by_name(cli_job_fields, job_names[i]));
	for (size_t i = 0; i < sizeof(node_names) / sizeof(node_names[0]); i++)
		assert_non_null(cli_field_by_name(cli_sinfo_fields, node_names[i]));
}

static void test_time_limits(void **state)
{
	static const struct {
		uint32_t    min;
		const char *squeue;
		const char *scontrol;
	} cases[] = {
		{ INFINITE32, "UNLIMITED\n", "TimeLimit=UNLIMITED " },
		{ 30, "30:00\n", "TimeLimit=00:30:00 " },
		{ 90, "1:30:00\n", "TimeLimit=01:30:00 " },
		{ 1440, "1-00:00:00\n", "TimeLimit=1-00:00:00 " },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		job_info_t j = make_job(1, "t", JOB_PENDING);
		cli_ctx_t ctx = { .now = NOW };
		char *line, *buf = NULL;
		size_t len = 0;
		FILE *f;

		j.time_limit = cases[i].min;
		line = render("%l", &j);
		assert_string_equal(line, cases[i].squeue);
		xfree(line);
		f = open_memstream(&buf, &len);
		cli_fields_show(f, cli_job_fields, &j, &ctx, true, false, "", "");
		fclose(f);
		assert_non_null(strstr(buf, cases[i].scontrol));
		free(buf);
	}
}

static void test_sinfo_row(void **state)
{
	node_info_t n[3];
	const node_info_t *ptrs[3] = { &n[0], &n[1], &n[2] };
	part_info_t p;
	cli_sinfo_row_t row = { .part = &p, .nodes = ptrs, .cnt = 3 };
	cli_ctx_t ctx = { .now = NOW };
	cli_format_t fmt;
	char *line;

	memset(n, 0, sizeof(n));
	memset(&p, 0, sizeof(p));
	p.name = (char *)"debug";
	p.is_default = true;
	p.state_up = PARTITION_UP;
	p.max_time = INFINITE32;
	p.max_nodes = INFINITE32;
	for (int i = 0; i < 3; i++) {
		n[i].cpus = 2;
		n[i].real_memory = 2048;
		n[i].name = xstrdup_printf("n%d", i + 1);
	}
	n[0].node_state = NODE_STATE_ALLOCATED;
	n[0].alloc_cpus = 2;
	n[1].node_state = NODE_STATE_IDLE;
	n[2].node_state = NODE_STATE_IDLE | NODE_STATE_DRAIN;
	n[2].real_memory = 4096;
	cli_format_parse(&fmt, "%9P %.5a %.10l %.16F %C %s %m %N", cli_sinfo_fields,
			 "node");
	line = cli_output_line(&fmt, &row, &ctx);
	assert_string_equal(line, "debug*       up   infinite          1/1/1/3 "
				  "2/2/2/6 1-infinite 2048+ n[1-3]\n");
	xfree(line);
	cli_format_free(&fmt);
	for (int i = 0; i < 3; i++)
		xfree(n[i].name);
}

static void test_json_document(void **state)
{
	job_info_t j = make_job(3, "a/b \"q\"", JOB_RUNNING);
	job_info_msg_t m = { .last_update = NOW, .cnt = 1, .jobs = &j };
	cli_ctx_t ctx = { .now = NOW };
	json_object *list = json_object_new_array(), *back, *v;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	json_object_array_add(list, cli_fields_json(cli_job_fields, &j, &ctx));
	cli_output_doc_print(f, cli_output_doc("jobs", list, m.last_update), false);
	fclose(f);
	assert_non_null(strstr(buf, "\n  \"errors\": [],\n"));
	assert_non_null(strstr(buf, "\"name\": \"a/b \\\"q\\\"\""));
	assert_non_null(strstr(buf, "\"gres_detail\": []"));
	back = json_tokener_parse(buf);
	assert_non_null(back);
	assert_true(json_object_object_get_ex(back, "jobs", &v));
	assert_int_equal(json_object_array_length(v), 1);
	json_object_put(back);
	free(buf);
}

static void test_yaml_document(void **state)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	json_object_object_add(o, "name", json_object_new_string("plain"));
	json_object_object_add(o, "num_like", json_object_new_string("123"));
	json_object_object_add(o, "time", json_object_new_string("2026-11-22T12:45:48"));
	json_object_object_add(o, "word", json_object_new_string("yes"));
	json_object_object_add(o, "n", json_object_new_int(7));
	json_object_object_add(o, "b", json_object_new_boolean(1));
	json_object_object_add(o, "empty", a);
	cli_output_doc_print(f, o, true);
	fclose(f);
	assert_non_null(strstr(buf, "---\n"));
	assert_non_null(strstr(buf, "\nname: plain\n"));
	assert_non_null(strstr(buf, "\nnum_like: \"123\"\n"));
	assert_non_null(strstr(buf, "\ntime: \"2026-11-22T12:45:48\"\n"));
	assert_non_null(strstr(buf, "\nword: \"yes\"\n"));
	assert_non_null(strstr(buf, "\nn: 7\n"));
	assert_non_null(strstr(buf, "\nb: true\n"));
	assert_non_null(strstr(buf, "\nempty: []\n"));
	free(buf);
}

/* A JSON key or -O name given twice in one table would silently shadow. */
static void check_unique(const cli_field_t *tab)
{
	for (const cli_field_t *a = tab; a->text || a->json; a++) {
		for (const cli_field_t *b = a + 1; b->text || b->json; b++) {
			if (a->json_key && b->json_key &&
			    !strcmp(a->json_key, b->json_key))
				fail_msg("JSON key %s twice", a->json_key);
			if (a->name && b->name && !strcasecmp(a->name, b->name))
				fail_msg("-O name %s twice", a->name);
			if (a->letter && a->letter == b->letter)
				fail_msg("letter %c twice", a->letter);
		}
	}
}

static void test_tables_unique(void **state)
{
	check_unique(cli_job_fields);
	check_unique(cli_node_fields);
	check_unique(cli_part_fields);
	check_unique(cli_sinfo_fields);
	check_unique(cli_step_fields);
}

static void test_step_row(void **state)
{
	job_info_t j = make_job(12, "job", JOB_RUNNING);
	cli_step_row_t row = { &j, "batch" };
	cli_ctx_t ctx = { .now = NOW };
	cli_format_t fmt;
	char *line;

	j.start_time = NOW - 5;
	j.batch_host = (char *)"n1";
	cli_format_parse(&fmt, "%.15i %.8j %.9P %.8u %.9M %N", cli_step_fields, "step");
	line = cli_output_header(&fmt);
	assert_string_equal(line, "         STEPID     NAME PARTITION     USER      TIME NODELIST\n");
	xfree(line);
	line = cli_output_line(&fmt, &row, &ctx);
	assert_string_equal(line, "       12.batch    batch     debug     root      0:05 n1\n");
	xfree(line);
	cli_format_free(&fmt);
}

/* cli_output_table writes cells straight to the stream: the same bytes
 * as the header and cli_output_line for every row (right and left
 * alignment, cut cells, width 0, text between columns, a prefix). */
static void test_table_matches_lines(void **state)
{
	static const char *specs[] = {
		"%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R",
		"pre%i|%3j|%.5P|%u suf",
		"%i %T",
		"%.100j%.70u",
	};
	job_info_t jobs[3] = {
		make_job(7, "a-name-longer-than-eight", JOB_PENDING),
		make_job(123456, "", JOB_RUNNING),
		make_job(1, NULL, JOB_COMPLETE),
	};
	const void *recs[3] = { &jobs[0], &jobs[1], &jobs[2] };
	cli_ctx_t ctx = { .now = NOW };

	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		cli_format_t fmt;
		char *want = NULL, *got = NULL, *line;
		size_t len = 0;
		FILE *f = open_memstream(&got, &len);

		assert_non_null(f);
		print_message("%s\n", specs[i]);
		assert_int_equal(cli_format_parse(&fmt, specs[i], cli_job_fields,
						  "job"), 0);
		want = cli_output_header(&fmt);
		for (size_t r = 0; r < 3; r++) {
			line = cli_output_line(&fmt, recs[r], &ctx);
			xstrcat(&want, line);
			xfree(line);
		}
		cli_output_table(f, &fmt, recs, 3, &ctx, true);
		fclose(f);
		assert_string_equal(got, want);
		free(got);
		xfree(want);
		cli_format_free(&fmt);
	}
}

int main(void)
{
	log_options_t quiet = { .stderr_level = LOG_LEVEL_QUIET };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_short_specs),
		cmocka_unit_test(test_bad_long_specs),
		cmocka_unit_test(test_huge_width_clamped),
		cmocka_unit_test(test_short_spec_columns),
		cmocka_unit_test(test_long_spec_columns),
		cmocka_unit_test(test_cells),
		cmocka_unit_test(test_default_header),
		cmocka_unit_test(test_running_row),
		cmocka_unit_test(test_pending_reasons),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_finished_and_array),
		cmocka_unit_test(test_show_job_layout),
		cmocka_unit_test(test_json_shape),
		cmocka_unit_test(test_client_long_names),
		cmocka_unit_test(test_time_limits),
		cmocka_unit_test(test_sinfo_row),
		cmocka_unit_test(test_json_document),
		cmocka_unit_test(test_tables_unique),
		cmocka_unit_test(test_step_row),
		cmocka_unit_test(test_yaml_document),
		cmocka_unit_test(test_table_matches_lines),
	};

	log_init("test_cli_format", quiet, NULL);   /* bad specs are expected */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
