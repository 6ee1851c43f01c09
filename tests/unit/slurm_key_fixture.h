/* slurm_key_fixture.h — auth/slurm for unit tests (header-only): a fresh
 * random key in a temp dir, loaded by the plugin.  Include after
 * munge_fixture.h: the tests that say NEED_MUNGE() run with either.
 *
 *     cmocka_run_group_tests_name("auth/slurm", tests, slurm_auth_setup,
 *                                 slurm_auth_teardown);
 */
#ifndef SLUICE_SLURM_KEY_FIXTURE_H
#define SLUICE_SLURM_KEY_FIXTURE_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char slurm_key_dir[64];

static inline char *slurm_key_path(const char *name)
{
	static char p[4][256];
	static int next;
	char *b = p[next++ % 4];

	snprintf(b, sizeof(p[0]), "%s/%s", slurm_key_dir, name);
	return b;
}

/* A key of len random bytes at DIR/name with mode; 0 or -1. */
static inline int slurm_key_write(const char *name, size_t len, mode_t mode)
{
	unsigned char key[2048];
	int in = open("/dev/urandom", O_RDONLY), out, rc = -1;

	unlink(slurm_key_path(name));
	out = open(slurm_key_path(name), O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (len <= sizeof(key) && in >= 0 && out >= 0 &&
	    read(in, key, len) == (ssize_t)len &&
	    write(out, key, len) == (ssize_t)len && fchmod(out, mode) == 0)
		rc = 0;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return rc;
}

static inline int slurm_auth_setup(void **state)
{
	char *info;
	int rc;

	(void)state;
	strcpy(slurm_key_dir, "/tmp/sluice-key-XXXXXX");
	if (!mkdtemp(slurm_key_dir) || chmod(slurm_key_dir, 0711) || slurm_key_write("slurm.key", 1024, 0600))
		return -1;
	info = xstrdup_printf("key=%s,socket=%s,cred_expire=2",
			      slurm_key_path("slurm.key"),
			      slurm_key_path("sack.socket"));
	rc = auth_init("auth/slurm", info, NULL);
	xfree(info);
	have_munge = rc == 0;
	return rc;
}

static inline int slurm_auth_teardown(void **state)
{
	char cmd[128];

	(void)state;
	auth_fini();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", slurm_key_dir);
	if (slurm_key_dir[0] && system(cmd) != 0)
		fprintf(stderr, "slurm_key_fixture: cannot remove %s\n",
			slurm_key_dir);
	return 0;
}

#endif
