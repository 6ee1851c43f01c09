/* test_log.c — level names, command and daemon line formats, whole lines
 * under concurrent writers, fatal(). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "common/log.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static char tmpdir[] = "/tmp/test_log.XXXXXX";

static char *slurp(const char *path)
{
	static char buf[1 << 20];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

/* Run fn with stderr sent to a file; return what it wrote. */
static char *capture_stderr(void (*fn)(void))
{
	char path[64];
	int saved = dup(STDERR_FILENO), fd;

	snprintf(path, sizeof(path), "%s/stderr", tmpdir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fd, STDERR_FILENO);
	close(fd);
	fn();
	dup2(saved, STDERR_FILENO);
	close(saved);
	return slurp(path);
}

static void test_level_names(void **state)
{
	static const char *const bad[] = { NULL, "", "loud", "10", "-1", "debug6", "3x" };
	static const struct {
		const char *s;
		int level;
	} good[] = {
		{ "quiet", LOG_LEVEL_QUIET }, { "fatal", LOG_LEVEL_FATAL },
		{ "error", LOG_LEVEL_ERROR }, { "info", LOG_LEVEL_INFO },
		{ "verbose", LOG_LEVEL_VERBOSE }, { "debug", LOG_LEVEL_DEBUG },
		{ "debug2", LOG_LEVEL_DEBUG2 }, { "DEBUG3", LOG_LEVEL_DEBUG3 },
		{ "debug5", LOG_LEVEL_DEBUG5 }, { "0", 0 }, { "9", 9 }, { "4", 4 },
	};

	for (size_t i = 0; i < N(bad); i++)
		assert_int_equal(log_level_from_string(bad[i]), -1);
	for (size_t i = 0; i < N(good); i++)
		assert_int_equal(log_level_from_string(good[i].s), good[i].level);
	assert_string_equal(log_level_to_string(LOG_LEVEL_DEBUG2), "debug2");
	assert_string_equal(log_level_to_string(LOG_LEVEL_INFO), "info");
}

static void emit_all(void)
{
	error("bad %d", 1);
	info("plain");
	verbose("wordy");
	debug("dbg");
	debug2("dbg2");
	debug3("dbg3");
	errno = ENOENT;
	error_errno("open %s", "/x");
}

static void test_command_format(void **state)
{
	log_options_t o = { LOG_LEVEL_DEBUG2, LOG_LEVEL_QUIET, false, true };
	char *out;

	log_init("/usr/bin/sbatch", o, NULL);
	out = capture_stderr(emit_all);
	assert_string_equal(out,
			    "sbatch: error: bad 1\n"
			    "sbatch: plain\n"
			    "sbatch: wordy\n"
			    "sbatch: debug:  dbg\n"
			    "sbatch: debug2: dbg2\n"
			    "sbatch: error: open /x: No such file or directory\n");
	log_set_levels(LOG_LEVEL_ERROR, LOG_LEVEL_QUIET);
	out = capture_stderr(emit_all);
	assert_string_equal(out,
			    "sbatch: error: bad 1\n"
			    "sbatch: error: open /x: No such file or directory\n");
	assert_int_equal(log_get_level(), LOG_LEVEL_ERROR);
}

static void test_daemon_file_format(void **state)
{
	log_options_t o = { LOG_LEVEL_QUIET, LOG_LEVEL_DEBUG, false, false };
	char path[64], line[256];
	regex_t re;
	char *text, *save = NULL;
	int lines = 0;

	snprintf(path, sizeof(path), "%s/slurmctld.log", tmpdir);
	assert_int_equal(log_init("slurmctld", o, "/nonexistent/dir/x.log"), -1);
	assert_int_equal(log_init("slurmctld", o, path), 0);
	assert_int_equal(log_get_level(), LOG_LEVEL_DEBUG);
	(void)capture_stderr(emit_all);		/* nothing on stderr */
	log_fini();
	text = slurp(path);
	assert_int_equal(regcomp(&re,
		"^\\[[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}\\] "
		"(error: bad 1|plain|wordy|debug:  dbg|error: open /x: No such file or directory)$",
		REG_EXTENDED), 0);
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		snprintf(line, sizeof(line), "%s", l);
		if (regexec(&re, line, 0, NULL, 0))
			fail_msg("bad line: %s", line);
		lines++;
	}
	assert_int_equal(lines, 5);
	regfree(&re);
}

static void *spam(void *arg)
{
	for (int i = 0; i < 500; i++)
		info("thread %ld line %d %s", (long)(intptr_t)arg, i,
		     "padding padding padding padding padding padding");
	return NULL;
}

static void test_threads_whole_lines(void **state)
{
	log_options_t o = { LOG_LEVEL_QUIET, LOG_LEVEL_INFO, false, false };
	pthread_t t[8];
	char path[64];
	char *text, *save = NULL;
	int lines = 0;

	snprintf(path, sizeof(path), "%s/threads.log", tmpdir);
	assert_int_equal(log_init("slurmd", o, path), 0);
	for (int i = 0; i < 8; i++)
		pthread_create(&t[i], NULL, spam, (void *)(intptr_t)i);
	for (int i = 0; i < 8; i++)
		pthread_join(t[i], NULL);
	log_fini();
	text = slurp(path);
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (!strstr(l, "] thread ") || !strstr(l, "padding padding"))
			fail_msg("mangled line: %s", l);
		lines++;
	}
	assert_int_equal(lines, 8 * 500);
}

static void test_reopen(void **state)
{
	log_options_t o = { LOG_LEVEL_QUIET, LOG_LEVEL_INFO, false, false };
	char a[64], b[64];

	snprintf(a, sizeof(a), "%s/a.log", tmpdir);
	snprintf(b, sizeof(b), "%s/b.log", tmpdir);
	assert_int_equal(log_init("slurmd", o, a), 0);
	info("first");
	assert_int_equal(log_reopen(b), 0);
	info("second");
	log_fini();
	assert_non_null(strstr(slurp(a), "first"));
	assert_null(strstr(slurp(a), "second"));
	assert_non_null(strstr(slurp(b), "] second\n"));
}

static void test_fatal_exits_1(void **state)
{
	char path[64];
	int status;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/fatal", tmpdir);
	pid = fork();
	if (pid == 0) {
		log_options_t o = { LOG_LEVEL_INFO, LOG_LEVEL_QUIET, false, true };
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		dup2(fd, STDERR_FILENO);
		log_init("scontrol", o, NULL);
		fatal("Unable to process configuration file");
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 1);
	assert_string_equal(slurp(path),
			    "scontrol: fatal: Unable to process configuration file\n");
}

static int setup(void **state)
{
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_level_names),
		cmocka_unit_test(test_command_format),
		cmocka_unit_test(test_daemon_file_format),
		cmocka_unit_test(test_threads_whole_lines),
		cmocka_unit_test(test_reopen),
		cmocka_unit_test(test_fatal_exits_1),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
