/* test_ha.c — which SlurmctldHost entry a slurmctld is, and the lease in
 * StateSaveLocation (one holder at a time across processes, an epoch that
 * grows at every acquisition, a holder that notices a newer epoch). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../src/ctld/ha.c"

void ctld_shutdown(void) { }

static slurm_conf_t *make_conf(size_t n, const char *state_dir)
{
	static const char *names[] = { "ctl1", "ctl2", "ctl3" };
	static const char *addrs[] = { "127.0.0.1", "127.0.0.2", "127.0.0.3" };
	slurm_conf_t *c = xcalloc(1, sizeof(*c));

	c->ctld_hosts = xcalloc(n, sizeof(char *));
	c->ctld_addrs = xcalloc(n, sizeof(char *));
	for (size_t i = 0; i < n; i++) {
		c->ctld_hosts[i] = xstrdup(names[i]);
		c->ctld_addrs[i] = xstrdup(addrs[i]);
	}
	c->ctld_host_cnt = n;
	c->state_save_location = xstrdup(state_dir ? state_dir : "/nonexistent");
	c->path = xstrdup("/etc/slurm.conf");
	return c;
}

static void free_conf(slurm_conf_t *c)
{
	for (size_t i = 0; i < c->ctld_host_cnt; i++) {
		xfree(c->ctld_hosts[i]);
		xfree(c->ctld_addrs[i]);
	}
	xfree(c->ctld_hosts);
	xfree(c->ctld_addrs);
	xfree(c->state_save_location);
	xfree(c->path);
	xfree(c);
}

static void test_own_entry(void **state)
{
	slurm_conf_t *one = make_conf(1, NULL), *two = make_conf(2, NULL);
	char err[256] = "";

	(void) state;
	unsetenv("SLUICE_CTLD_HOST");
	unsetenv("SLUICE_CTLD_STANDBY");
	/* a single entry is always ours, listening on any address */
	assert_int_equal(ha_init(one, err, sizeof(err)), 0);
	assert_int_equal(ha_index(), 0);
	assert_null(ha_listen_addr());
	assert_false(ha_start_standby());

	/* two entries, none names this host */
	assert_int_equal(ha_init(two, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a valid controller"));

	/* the test override picks the entry; a backup starts in standby */
	setenv("SLUICE_CTLD_HOST", "CTL2", 1);
	assert_int_equal(ha_init(two, err, sizeof(err)), 0);
	assert_int_equal(ha_index(), 1);
	assert_string_equal(ha_name(), "ctl2");
	assert_string_equal(ha_listen_addr(), "127.0.0.2");
	assert_true(ha_start_standby());
	assert_false(ha_reexeced());

	setenv("SLUICE_CTLD_HOST", "ctl1", 1);
	assert_int_equal(ha_init(two, err, sizeof(err)), 0);
	assert_int_equal(ha_index(), 0);
	assert_false(ha_start_standby());

	/* re-executed after a hand-over: standby, and the variable is gone */
	setenv("SLUICE_CTLD_STANDBY", "1", 1);
	assert_int_equal(ha_init(two, err, sizeof(err)), 0);
	assert_true(ha_start_standby());
	assert_true(ha_reexeced());
	assert_null(getenv("SLUICE_CTLD_STANDBY"));

	setenv("SLUICE_CTLD_HOST", "nohost", 1);
	assert_int_equal(ha_init(two, err, sizeof(err)), -1);
	assert_string_equal(err, "SLUICE_CTLD_HOST=nohost is not a SlurmctldHost "
			    "in /etc/slurm.conf");
	unsetenv("SLUICE_CTLD_HOST");
	free_conf(one);
	free_conf(two);
}

/* In a child process: try the lease; exit 10 + the result. */
static int child_try(void)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		ha.lease_fd = -1;       /* fcntl locks are not inherited */
		_exit(10 + ha_lease_try());
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st) - 10;
}

static uint32_t file_epoch(const char *path)
{
	FILE *f = fopen(path, "r");
	unsigned e = 0;

	assert_non_null(f);
	assert_int_equal(fscanf(f, "epoch=%u", &e), 1);
	fclose(f);
	return e;
}

static void test_lease(void **state)
{
	char dir[] = "/tmp/test_ha.XXXXXX", path[PATH_MAX], err[256];
	slurm_conf_t *c;
	FILE *f;

	(void) state;
	assert_non_null(mkdtemp(dir));
	c = make_conf(2, dir);
	setenv("SLUICE_CTLD_HOST", "ctl1", 1);
	assert_int_equal(ha_init(c, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/ctld_lease", dir);

	assert_int_equal(ha_lease_try(), 1);
	assert_int_equal(ha_lease_epoch(), 1);
	assert_int_equal(file_epoch(path), 1);
	assert_true(ha_lease_check());
	/* another process cannot take it while we hold it, and reading the
	 * file (another fd of it, closed) does not drop the lock */
	assert_int_equal(child_try(), 0);
	assert_int_equal(file_epoch(path), 1);

	/* released: the next holder writes epoch 2 (and lets go by exiting) */
	ha_lease_release();
	assert_int_equal(ha_lease_epoch(), 0);
	assert_int_equal(child_try(), 1);
	assert_int_equal(file_epoch(path), 2);
	assert_int_equal(ha_lease_try(), 1);
	assert_int_equal(ha_lease_epoch(), 3);

	/* a newer epoch in the file (locks that do not work): not ours */
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "epoch=7 index=1 host=ctl2 pid=1 since=1\n");
	fclose(f);
	assert_false(ha_lease_check());
	ha_lease_release();

	unlink(path);
	rmdir(dir);
	unsetenv("SLUICE_CTLD_HOST");
	free_conf(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own_entry),
		cmocka_unit_test(test_lease),
	};
	log_options_t quiet = { LOG_LEVEL_QUIET, LOG_LEVEL_QUIET, false, false };

	log_init("test_ha", quiet, NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
