/* test_dbd_conf.c — slurmdbd.conf parsing: bad files first (each error
 * names file:line), then defaults, every key, purge and PrivateData values
 * and where the file is looked for.
 *
 * The parser lives in src/dbd (linked into slurmdbd only), so it is
 * compiled into this test directly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "dbd/dbd_conf.c"

static char tmpdir[] = "/tmp/test_dbd_conf.XXXXXX";

static char *write_conf(const char *name, const char *text)
{
	char *path = xstrdup_printf("%s/%s", tmpdir, name);
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	return path;
}

static dbd_conf_t *load_text(const char *text, char *err, size_t len)
{
	char *path = write_conf("slurmdbd.conf", text);
	dbd_conf_t *c = dbd_conf_load(path, err, len);

	xfree(path);
	return c;
}

static void test_bad_files(void **state)
{
	static const struct {
		const char *text;
		const char *want;   /* substring of the error */
	} cases[] = {
		{ "DbdPort=6819\n\nFoo=bar\n", "slurmdbd.conf:3: unknown key \"Foo\"" },
		{ "DbdPort=abc\n", "slurmdbd.conf:1: invalid value \"abc\" for DbdPort" },
		{ "DbdPort=0\n", "DbdPort" },
		{ "DbdPort=70000\n", "DbdPort" },
		{ "StoragePort=-1\n", "StoragePort" },
		{ "StorageType=accounting_storage/pgsql\n", "StorageType" },
		{ "AuthType=munge\n", "AuthType" },
		{ "DebugLevel=loud\n", "DebugLevel" },
		{ "SlurmUser=no_such_user_xyz\n", "unknown user \"no_such_user_xyz\"" },
		{ "PurgeJobAfter=soon\n", "PurgeJobAfter" },
		{ "PurgeJobAfter=12weeks\n", "PurgeJobAfter" },
		{ "PurgeJobAfter=-3days\n", "PurgeJobAfter" },
		{ "PrivateData=jobs,secrets\n", "PrivateData" },
		{ "TrackWCKey=maybe\n", "TrackWCKey" },
		{ "MessageTimeout=99999\n", "MessageTimeout" },
		{ "StorageHost\n", "slurmdbd.conf:1: parse error" },
		{ "=x\n", "parse error" },
		{ "LogFile=\"/tmp/x\n", "unterminated quote" },
		{ "# ok\nDbdHost=a\n  StorageLoc\n", "slurmdbd.conf:3: parse error" },
		/* what Sluice cannot honour is refused, not skipped */
		{ "DbdPort=6819\nDbdBackupHost=b\n",
		  "slurmdbd.conf:2: DbdBackupHost is not supported: there is "
		  "no backup slurmdbd" },
		{ "StorageBackupHost=db2\n", "StorageBackupHost is not "
		  "supported" },
		{ "ArchiveScript=/bin/true\n", "slurmdbd.conf:1: ArchiveScript "
		  "is not supported" },
		{ "Parameters=PreserveCaseUser\n", "Parameters is not "
		  "supported" },
		{ "PreserveCaseUser=yes\n", "PreserveCaseUser is not "
		  "supported" },
		{ "LogTimeFormat=rfc5424\n", "invalid value \"rfc5424\" for "
		  "LogTimeFormat (only iso8601_ms" },
		{ "DebugFlags=DB_QUERY,DB_NOPE\n", "invalid value \"DB_NOPE\" "
		  "for DebugFlags" },
		{ "MaxQueryTimeRange=forever\n", "MaxQueryTimeRange" },
		{ "StorageParameters=SSL_CA=/x,SSL_BOGUS=1\n", "invalid value "
		  "\"SSL_BOGUS=1\" for StorageParameters" },
		{ "ArchiveJobs=perhaps\n", "ArchiveJobs" },
	};
	char err[512];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		dbd_conf_t *c = load_text(cases[i].text, err, sizeof(err));

		if (c || !strstr(err, cases[i].want))
			fail_msg("case %zu: got \"%s\", want \"%s\"", i, err,
				 cases[i].want);
	}
}

static void test_missing_file(void **state)
{
	char err[512];
	dbd_conf_t *c = dbd_conf_load("/nonexistent/slurmdbd.conf", err,
				      sizeof(err));

	assert_null(c);
	assert_non_null(strstr(err, "/nonexistent/slurmdbd.conf"));
}

static void test_defaults(void **state)
{
	char err[512];
	dbd_conf_t *c = load_text("# nothing\n\n", err, sizeof(err));

	assert_non_null(c);
	assert_int_equal(c->dbd_port, 6819);
	assert_string_equal(c->storage_type, "accounting_storage/mysql");
	assert_string_equal(c->storage_loc, "slurm_acct_db");
	assert_string_equal(c->storage_host, "localhost");
	assert_int_equal(c->storage_port, 3306);
	assert_string_equal(c->slurm_user, "root");
	assert_string_equal(c->storage_user, "root");   /* = SlurmUser */
	assert_string_equal(c->auth_type, "auth/munge");
	assert_string_equal(c->dbd_addr, c->dbd_host);
	assert_int_equal(c->debug_level, LOG_LEVEL_INFO);
	assert_null(c->storage_pass);
	assert_null(c->log_file);
	assert_int_equal(c->private_data, 0);
	assert_false(c->track_wckey);
	assert_int_equal(c->purge[DBD_PURGE_JOB].count, 0);
	dbd_conf_destroy(c);
}

static void test_all_keys(void **state)
{
	char err[512];
	dbd_conf_t *c = load_text(
		"AuthType=auth/munge\n"
		"AuthInfo=socket=/tmp/m.sock\n"
		"dbdhost=dbhost1   DbdAddr=127.0.0.1\n"
		"DbdPort=26819\n"
		"SlurmUser=root\n"
		"DebugLevel=debug2  # a comment\n"
		"LogFile=\"/var/log/slurm dbd.log\"\n"
		"PidFile=/run/dbd.pid\n"
		"PluginDir=/usr/lib/slurm\n"
		"ArchiveDir=/archive\n"
		"ArchiveJobs=yes\n"
		"PurgeJobAfter=12months\n"
		"PurgeStepAfter=30days\n"
		"PurgeEventAfter=24hours\n"
		"PurgeUsageAfter=6\n"
		"PrivateData=jobs,Users\n"
		"PrivateData=accounts\n"
		"TrackWCKey=yes\n"
		"StorageType=accounting_storage/mysql\n"
		"StorageHost=127.0.0.1\n"
		"StoragePort=3307\n"
		"StorageUser=slurm\n"
		"StoragePass=se\\#cret\n"
		"StorageLoc=acct\n", err, sizeof(err));

	assert_non_null(c);
	assert_string_equal(c->auth_info, "socket=/tmp/m.sock");
	assert_string_equal(c->dbd_host, "dbhost1");
	assert_string_equal(c->dbd_addr, "127.0.0.1");
	assert_int_equal(c->dbd_port, 26819);
	assert_int_equal(c->debug_level, LOG_LEVEL_DEBUG2);
	assert_string_equal(c->log_file, "/var/log/slurm dbd.log");
	assert_string_equal(c->pid_file, "/run/dbd.pid");
	assert_string_equal(c->plugin_dir, "/usr/lib/slurm");
	assert_string_equal(c->archive_dir, "/archive");
	assert_int_equal(c->purge[DBD_PURGE_JOB].count, 12);
	assert_int_equal(c->purge[DBD_PURGE_JOB].unit, DBD_PURGE_MONTHS);
	assert_int_equal(c->purge[DBD_PURGE_STEP].unit, DBD_PURGE_DAYS);
	assert_int_equal(c->purge[DBD_PURGE_EVENT].unit, DBD_PURGE_HOURS);
	assert_int_equal(c->purge[DBD_PURGE_USAGE].count, 6);
	assert_int_equal(c->purge[DBD_PURGE_USAGE].unit, DBD_PURGE_MONTHS);
	assert_int_equal(c->private_data, DBD_PRIVATE_JOBS | DBD_PRIVATE_USERS |
			 DBD_PRIVATE_ACCOUNTS);
	assert_true(c->track_wckey);
	assert_string_equal(c->storage_host, "127.0.0.1");
	assert_int_equal(c->storage_port, 3307);
	assert_string_equal(c->storage_user, "slurm");
	assert_string_equal(c->storage_pass, "se#cret");
	assert_string_equal(c->storage_loc, "acct");
	dbd_conf_destroy(c);
}

static void test_purge_values(void **state)
{
	static const char *bad[] = { "", "x", "1x", "month", "1 month",
				     "99999999999", "-1" };
	dbd_purge_t p;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(dbd_conf_parse_purge(bad[i], &p), -1);
	assert_int_equal(dbd_conf_parse_purge("1hour", &p), 0);
	assert_int_equal(p.unit, DBD_PURGE_HOURS);
	assert_int_equal(dbd_conf_parse_purge("2DAYS", &p), 0);
	assert_int_equal(p.count, 2);
	assert_int_equal(p.unit, DBD_PURGE_DAYS);
}

static void test_default_path(void **state)
{
	char *p;

	setenv("SLURM_CONF", "/some/where/slurm.conf", 1);
	p = dbd_conf_default_path();
	assert_string_equal(p, "/some/where/slurmdbd.conf");
	xfree(p);
	unsetenv("SLURM_CONF");
	p = dbd_conf_default_path();
	assert_string_equal(p, SLUICE_SYSCONFDIR "/slurmdbd.conf");
	xfree(p);
}

static int setup(void **state)
{
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char *path = xstrdup_printf("%s/slurmdbd.conf", tmpdir);

	unlink(path);
	xfree(path);
	rmdir(tmpdir);
	return 0;
}

/* Keys Slurm acts on and slurmdbd does not, where going on is safe:
 * loaded, each named with its line in the warnings slurmdbd logs; what
 * slurmdbd does act on is set. */
static void test_warned_and_new_keys(void **state)
{
	char err[512];
	dbd_conf_t *c = load_text(
		"AllowNoDefAcct=no\n"
		"AllowNoDefAcct=yes\n"
		"DebugFlags=DB_QUERY,DB_ARCHIVE,DB_JOB\n"
		"TCPTimeout=5\n"
		"DefaultQOS=normal\n"
		"TrackSlurmctldDown=no\n"
		"MaxQueryTimeRange=2-00:00:00\n"
		"StorageParameters=SSL_CA=/etc/ca.pem,SSL_KEY=/etc/k.pem\n"
		"LogTimeFormat=iso8601_ms\n"
		"ArchiveJobs=yes\nArchiveEvents=yes\nArchiveEvents=no\n",
		err, sizeof(err));

	assert_non_null(c);
	assert_int_equal(xstrarray_len(c->warnings), 4);
	assert_non_null(strstr(c->warnings[0], "slurmdbd.conf:2: "
			       "AllowNoDefAcct=yes is not acted on: a user "
			       "still needs a default account"));
	assert_non_null(strstr(c->warnings[1], "slurmdbd.conf:3: "
			       "DebugFlags=DB_JOB is not acted on"));
	assert_non_null(strstr(c->warnings[2], ":4: TCPTimeout=5"));
	assert_non_null(strstr(c->warnings[3], ":5: DefaultQOS=normal"));
	assert_int_equal(c->debug_flags,
			 DBD_FLAG_DB_QUERY | DBD_FLAG_DB_ARCHIVE);
	assert_int_equal(c->max_query_range, 2 * 86400);
	assert_string_equal(c->ssl_ca, "/etc/ca.pem");
	assert_string_equal(c->ssl_key, "/etc/k.pem");
	assert_null(c->ssl_cert);
	assert_int_equal(c->archive, 1u << DBD_PURGE_JOB);
	dbd_conf_destroy(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_all_keys),
		cmocka_unit_test(test_warned_and_new_keys),
		cmocka_unit_test(test_purge_values),
		cmocka_unit_test(test_default_path),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
