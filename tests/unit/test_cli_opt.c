/* test_cli_opt.c — the job option table: #SBATCH directives, SBATCH_*
 * variables, the command line, their precedence, and bad values.
 *
 * The option parser lives in the commands' static library, which unit
 * tests do not link, so its sources are compiled in here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/cli/cli_env.c"
#include "../../src/cli/cli_opt.c"
#include "../../src/cli/cli_opt_help.c"
#include "../../src/cli/cli_opt_raw.c"
#include "../../src/cli/cli_opt_set.c"

static void opts_new(cli_job_opts_t *o)
{
	cli_opt_init(o, CLI_CMD_SBATCH, "sbatch");
	o->quiet_getopt = true;
}

static int parse_args(cli_job_opts_t *o, const char **args, int *first)
{
	int argc = 0, dummy;

	while (args[argc])
		argc++;
	return cli_opt_parse_argv(o, argc, (char **)args, first ? first : &dummy);
}

static int parse_script(cli_job_opts_t *o, const char *s)
{
	return cli_opt_parse_script(o, s, strlen(s), "#SBATCH");
}

/* ---- bad values first ---- */

static void test_bad_values(void **state)
{
	static const char *const bad[][3] = {
		{ "sbatch", "--mem=abc", NULL },
		{ "sbatch", "--mem-per-cpu=1X", NULL },
		{ "sbatch", "--time=abc", NULL },
		{ "sbatch", "--time-min=1:2:3:4", NULL },
		{ "sbatch", "-N", "4-2" },
		{ "sbatch", "--nodes=x", NULL },
		{ "sbatch", "--ntasks=0", NULL },
		{ "sbatch", "-c", "-1" },
		{ "sbatch", "--mail-type=SOMETIMES", NULL },
		{ "sbatch", "--open-mode=sideways", NULL },
		{ "sbatch", "--signal=NOSUCH", NULL },
		{ "sbatch", "--signal=USR1@x", NULL },
		{ "sbatch", "--array=", NULL },
		{ "sbatch", "--exclusive=everyone", NULL },
		{ "sbatch", "--nice=abc", NULL },
		{ "sbatch", "--priority=-3", NULL },
		{ "sbatch", "--kill-on-invalid-dep=maybe", NULL },
		{ "sbatch", "--begin=notatime", NULL },
		{ "sbatch", "--tmp=lots", NULL },
		{ "sbatch", "--bogus", NULL },
		{ "sbatch", "-Z", NULL },
		{ "sbatch", "--partition", NULL },   /* missing argument */
		{ "sbatch", "--parsable=yes", NULL }, /* takes none */
		{ "sbatch", "--mem=1G", "--mem-per-cpu=1G" },
		{ "sbatch", "--mem-per-gpu=1G", "--mem=1G" },
		{ "sbatch", "--mem=4GiB", NULL },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *args[4] = { bad[i][0], bad[i][1], bad[i][2], NULL };
		cli_job_opts_t o;

		opts_new(&o);
		if (parse_args(&o, args, NULL) != -1)
			fail_msg("accepted: %s %s", bad[i][1],
				 bad[i][2] ? bad[i][2] : "");
		cli_opt_free(&o);
	}
}

static void test_bad_directives(void **state)
{
	static const char *const bad[] = {
		"#!/bin/sh\n#SBATCH --mem=lots\n",
		"#!/bin/sh\n#SBATCH --bogus\n",
		"#!/bin/sh\n#SBATCH -J name stray-word\n",
		"#!/bin/sh\n#SBATCH --time=forever\n",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cli_job_opts_t o;

		opts_new(&o);
		if (parse_script(&o, bad[i]) != -1)
			fail_msg("accepted script %zu", i);
		cli_opt_free(&o);
	}
}

/* ---- good values ---- */

static void test_values(void **state)
{
	const char *args[] = {
		"sbatch", "-J", "job", "-p", "p1", "-N", "2-4", "-n", "8",
		"-c", "2", "--ntasks-per-node=4", "--mem=4G", "-t", "1-00:00:00",
		"--time-min=30", "-o", "out-%j", "-e", "err-%j", "-D", "dir",
		"--exclusive=user", "--nice", "--signal=B:USR1@30", "-H",
		"--requeue", "--open-mode=append", "--array=1-10%2",
		"--mail-type=BEGIN,END", "--tmp=1G", "--parsable", "-vv",
		"--wrap", "hostname", NULL
	};
	cli_job_opts_t o;
	int first = 0;

	opts_new(&o);
	assert_int_equal(parse_args(&o, args, &first), 0);
	assert_int_equal(first, (int)(sizeof(args) / sizeof(args[0])) - 1);
	assert_string_equal(o.desc.name, "job");
	assert_string_equal(o.desc.partition, "p1");
	assert_int_equal(o.desc.min_nodes, 2);
	assert_int_equal(o.desc.max_nodes, 4);
	assert_int_equal(o.desc.num_tasks, 8);
	assert_int_equal(o.desc.cpus_per_task, 2);
	assert_int_equal(o.desc.ntasks_per_node, 4);
	assert_int_equal(o.desc.pn_min_memory, 4096);
	assert_false(o.desc.mem_per_cpu);
	assert_int_equal(o.desc.time_limit, 1440);
	assert_int_equal(o.desc.time_min, 30);
	assert_string_equal(o.desc.std_out, "out-%j");
	assert_string_equal(o.desc.std_err, "err-%j");
	assert_string_equal(o.desc.work_dir, "dir");
	assert_int_equal(o.desc.shared, JOB_SHARED_USER);
	assert_int_equal(o.desc.nice, NICE_OFFSET + 100);
	assert_int_equal(o.desc.warn_signal, 10);
	assert_int_equal(o.desc.warn_time, 30);
	assert_true(o.desc.hold);
	assert_int_equal(o.desc.requeue, 1);
	assert_int_equal(o.desc.open_mode, 1);
	assert_string_equal(o.desc.array_inx, "1-10%2");
	assert_string_equal(o.desc.mail_type, "BEGIN,END");
	assert_int_equal(o.desc.tmp_disk, 1024);
	assert_true(o.parsable);
	assert_int_equal(o.verbose, 2);
	assert_string_equal(o.wrap, "hostname");
	cli_opt_free(&o);
}

static void test_special_values(void **state)
{
	const char *a1[] = { "sbatch", "-t", "0", "--mem-per-cpu=100",
			     "--exclusive", "--nice=-5", "--priority=TOP",
			     "--no-requeue", NULL };
	const char *a2[] = { "sbatch", "--oversubscribe", "--requeue",
			     "--no-requeue", "--requeue", "-N", "3", NULL };
	cli_job_opts_t o;

	opts_new(&o);
	assert_int_equal(parse_args(&o, a1, NULL), 0);
	assert_int_equal(o.desc.time_limit, INFINITE32);
	assert_int_equal(o.desc.pn_min_memory, 100);
	assert_true(o.desc.mem_per_cpu);
	assert_int_equal(o.desc.shared, JOB_SHARED_NONE);
	assert_int_equal(o.desc.nice, NICE_OFFSET - 5);
	assert_int_equal(o.desc.priority, NO_VAL32 - 1);
	assert_int_equal(o.desc.requeue, 0);
	cli_opt_free(&o);

	opts_new(&o);
	assert_int_equal(parse_args(&o, a2, NULL), 0);
	assert_int_equal(o.desc.shared, JOB_SHARED_OK);
	assert_int_equal(o.desc.requeue, 1);   /* last one wins */
	assert_int_equal(o.desc.min_nodes, 3);
	assert_int_equal(o.desc.max_nodes, NO_VAL32);
	cli_opt_free(&o);
}

static void test_mem_sources(void **state)
{
	const char *args[] = { "sbatch", "--mem-per-cpu=2GB", NULL };
	const char *script = "#!/bin/sh\n#SBATCH --mem=512MB\n";
	cli_job_opts_t o;

	/* a higher source replaces another kind from a lower one */
	opts_new(&o);
	assert_int_equal(parse_script(&o, script), 0);
	assert_int_equal(o.desc.pn_min_memory, 512);
	assert_int_equal(parse_args(&o, args, NULL), 0);
	assert_int_equal(o.desc.pn_min_memory, 2048);
	assert_true(o.desc.mem_per_cpu);
	cli_opt_free(&o);
}

static void test_validate_tasks_below_nodes(void **state)
{
	const char *args[] = { "sbatch", "-N", "2-4", "-n", "1", NULL };
	cli_job_opts_t o;

	opts_new(&o);
	assert_int_equal(parse_args(&o, args, NULL), 0);
	assert_int_equal(cli_opt_validate(&o), 0);
	assert_int_equal(o.desc.min_nodes, 1);
	assert_int_equal(o.desc.max_nodes, 1);
	cli_opt_free(&o);
}

static void test_accepted_without_effect(void **state)
{
	const char *args[] = { "sbatch", "-O", "--switches=2", "-m", "block",
			       "--export", "ALL", NULL };
	cli_job_opts_t o;

	opts_new(&o);
	assert_int_equal(parse_args(&o, args, NULL), 0);
	assert_string_equal(o.desc.export_env, "ALL");
	assert_true(o.desc.bitflags & JOB_OVERCOMMIT);  /* -O acts now */
	assert_string_equal(o.distribution, "block");   /* for the steps */
	cli_opt_free(&o);
}

/* Every row of the option table is implemented (no reason), warned
 * (OPT_IGNORED: taken, says why it has no effect) or refused
 * (OPT_REFUSED: an error saying why); no fourth kind. */
static void test_every_option_one_treatment(void **state)
{
	for (size_t i = 0; i < cli_opt_table_len; i++) {
		const cli_opt_def_t *d = &cli_opt_table[i];
		char arg[80];
		const char *args[] = { "sbatch", arg, NULL };
		cli_job_opts_t o;
		int rc;

		assert_non_null(d->set);
		if (d->id != OPT_IGNORED && d->id != OPT_REFUSED) {
			if (d->why)
				fail_msg("--%s: implemented with a reason", d->name);
			continue;
		}
		if (!d->why || !*d->why)
			fail_msg("--%s: no reason given", d->name);
		snprintf(arg, sizeof(arg), "--%s%s", d->name,
			 d->has_arg == no_argument ? "" : "=1");
		opts_new(&o);
		o.quiet_getopt = true;
		rc = parse_args(&o, args, NULL);
		cli_opt_free(&o);
		if (d->id == OPT_REFUSED && rc != -1)
			fail_msg("--%s: refused row was accepted", d->name);
		if (d->id == OPT_IGNORED && rc != 0)
			fail_msg("--%s: warned row was refused", d->name);
	}
}

static void test_script_args_stop_options(void **state)
{
	const char *args[] = { "sbatch", "-J", "x", "job.sh", "-p", "arg", NULL };
	cli_job_opts_t o;
	int first = 0;

	opts_new(&o);
	assert_int_equal(parse_args(&o, args, &first), 0);
	assert_int_equal(first, 3);
	assert_null(o.desc.partition);   /* "-p" belongs to the script */
	cli_opt_free(&o);
}

/* ---- #SBATCH directives ---- */

static void test_directives_stop_at_first_command(void **state)
{
	const char *script =
		"#!/bin/bash\n"
		"#SBATCH -J early\n"
		"\n"
		"# an ordinary comment\n"
		"   \t\n"
		"#SBATCH --partition=p1 --ntasks=3   # trailing comment\n"
		"# SBATCH -t 99\n"                /* space: not a directive */
		"#SBATCH --comment=\"two words\"\n"
		"echo hello\n"
		"#SBATCH -t 5\n"                  /* after a command: ignored */
		"#SBATCH --bogus\n";
	cli_job_opts_t o;

	opts_new(&o);
	assert_int_equal(parse_script(&o, script), 0);
	assert_string_equal(o.desc.name, "early");
	assert_string_equal(o.desc.partition, "p1");
	assert_int_equal(o.desc.num_tasks, 3);
	assert_string_equal(o.desc.comment, "two words");
	assert_int_equal(o.desc.time_limit, NO_VAL32);
	cli_opt_free(&o);
}

static void test_directives_indented_line_ends_block(void **state)
{
	const char *script = "#!/bin/sh\n  #SBATCH -J late\n";
	const char *crlf = "#!/bin/sh\r\n#SBATCH -J dos\r\n";
	cli_job_opts_t o;

	opts_new(&o);
	assert_int_equal(parse_script(&o, script), 0);
	assert_null(o.desc.name);
	cli_opt_free(&o);

	opts_new(&o);
	assert_int_equal(parse_script(&o, crlf), 0);
	assert_string_equal(o.desc.name, "dos");
	cli_opt_free(&o);
}

static void test_split_directive(void **state)
{
	const char *text = "  -J 'a b' --comment=\"x y\"z  # rest -p q";
	char **a = cli_opt_split_directive(text, strlen(text));

	assert_int_equal(xstrarray_len(a), 3);
	assert_string_equal(a[0], "-J");
	assert_string_equal(a[1], "a b");
	assert_string_equal(a[2], "--comment=x yz");
	xstrarray_free(a);

	a = cli_opt_split_directive("", 0);
	assert_int_equal(xstrarray_len(a), 0);
	xstrarray_free(a);
}

/* "#SBATCH hetjob" (and "packjob") split the directives into one text
 * per component; the first command ends them. */
static void test_het_sections(void **state)
{
	const char *s = "#!/bin/sh\n#SBATCH -n1\n# note\n#SBATCH hetjob\n"
		"\n#SBATCH -n2 -N1\n#SBATCH  packjob  # c\n#SBATCH -J x\n"
		"hostname\n#SBATCH hetjob\n#SBATCH -n9\n";
	size_t n = 0;
	char **secs = cli_opt_het_sections(s, strlen(s), &n);

	(void) state;
	assert_int_equal(n, 3);
	assert_string_equal(secs[0], "#SBATCH -n1\n");
	assert_string_equal(secs[1], "#SBATCH -n2 -N1\n");
	assert_string_equal(secs[2], "#SBATCH -J x\n");
	assert_null(secs[3]);
	xstrarray_free(secs);
	/* "hetjob" with more words is an ordinary directive */
	s = "#!/bin/sh\n#SBATCH hetjob -n1\n";
	secs = cli_opt_het_sections(s, strlen(s), &n);
	assert_int_equal(n, 1);
	assert_string_equal(secs[0], "#SBATCH hetjob -n1\n");
	xstrarray_free(secs);
}

/* ---- precedence: command line > environment > #SBATCH ---- */

static void check_precedence(int order)
{
	const char *args[] = { "sbatch", "-J", "from-argv", NULL };
	char *envp[] = { "SBATCH_JOB_NAME=from-env", "SBATCH_PARTITION=penv",
			 "SBATCH_TIMELIMIT=10", "SBATCH_NO_REQUEUE=1", NULL };
	const char *script = "#!/bin/sh\n#SBATCH -J from-script\n"
			     "#SBATCH -p pscript -t 20 -A acct --requeue\n";
	cli_job_opts_t o;

	opts_new(&o);
	if (order == 0) {
		assert_int_equal(parse_args(&o, args, NULL), 0);
		assert_int_equal(cli_opt_parse_env(&o, envp), 0);
		assert_int_equal(parse_script(&o, script), 0);
	} else {
		assert_int_equal(parse_script(&o, script), 0);
		assert_int_equal(cli_opt_parse_env(&o, envp), 0);
		assert_int_equal(parse_args(&o, args, NULL), 0);
	}
	assert_string_equal(o.desc.name, "from-argv");
	assert_string_equal(o.desc.partition, "penv");
	assert_int_equal(o.desc.time_limit, 10);
	assert_string_equal(o.desc.account, "acct");
	assert_int_equal(o.desc.requeue, 0);
	cli_opt_free(&o);
}

static void test_precedence(void **state)
{
	check_precedence(0);
	check_precedence(1);
}

static void test_env_bad_value(void **state)
{
	char *envp[] = { "SBATCH_TIMELIMIT=whenever", NULL };
	cli_job_opts_t o;

	/* refused as the option would be: Slurm's commands stop (255) */
	opts_new(&o);
	assert_int_equal(cli_opt_parse_env(&o, envp), -1);
	assert_int_equal(o.desc.time_limit, NO_VAL32);
	cli_opt_free(&o);
}

/* ---- signals ---- */

static void test_signals(void **state)
{
	assert_int_equal(cli_opt_signal_from_string("TERM"), SIGTERM);
	assert_int_equal(cli_opt_signal_from_string("SIGUSR1"), SIGUSR1);
	assert_int_equal(cli_opt_signal_from_string("usr2"), SIGUSR2);
	assert_int_equal(cli_opt_signal_from_string("9"), 9);
	assert_int_equal(cli_opt_signal_from_string("SIGNOPE"), -1);
	assert_int_equal(cli_opt_signal_from_string("9x"), -1);
	assert_int_equal(cli_opt_signal_from_string(""), -1);
}

/* ---- --export ---- */

static bool env_has(char **env, const char *kv)
{
	for (size_t i = 0; env[i]; i++)
		if (!strcmp(env[i], kv))
			return true;
	return false;
}

static void test_export(void **state)
{
	char *envp[] = { "HOME=/root", "PATH=/bin", "SLURM_CONF=/x.conf",
			 "A=1", NULL };
	char **e;

	e = cli_env_export(NULL, envp);
	assert_int_equal(xstrarray_len(e), 4);
	xstrarray_free(e);

	e = cli_env_export("NONE", envp);
	assert_int_equal(xstrarray_len(e), 1);
	assert_true(env_has(e, "SLURM_CONF=/x.conf"));
	xstrarray_free(e);

	e = cli_env_export("NIL", envp);
	assert_int_equal(xstrarray_len(e), 0);
	xstrarray_free(e);

	e = cli_env_export("A,B=c,NOSUCH", envp);
	assert_int_equal(xstrarray_len(e), 3);
	assert_true(env_has(e, "A=1"));
	assert_true(env_has(e, "B=c"));
	assert_true(env_has(e, "SLURM_CONF=/x.conf"));
	xstrarray_free(e);

	e = cli_env_export("ALL,A=2", envp);
	assert_int_equal(xstrarray_len(e), 4);
	assert_true(env_has(e, "A=2"));
	assert_true(env_has(e, "HOME=/root"));
	xstrarray_free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_bad_directives),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_special_values),
		cmocka_unit_test(test_mem_sources),
		cmocka_unit_test(test_validate_tasks_below_nodes),
		cmocka_unit_test(test_accepted_without_effect),
		cmocka_unit_test(test_every_option_one_treatment),
		cmocka_unit_test(test_script_args_stop_options),
		cmocka_unit_test(test_directives_stop_at_first_command),
		cmocka_unit_test(test_directives_indented_line_ends_block),
		cmocka_unit_test(test_split_directive),
		cmocka_unit_test(test_het_sections),
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_env_bad_value),
		cmocka_unit_test(test_signals),
		cmocka_unit_test(test_export),
	};

	log_set_levels(LOG_LEVEL_QUIET, LOG_LEVEL_QUIET);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
