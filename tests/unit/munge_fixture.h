/* munge_fixture.h — a private munged for unit tests (header-only: each
 * test_*.c is its own program).
 *
 *     const char *sock = munge_fixture_start();   NULL: no munged, skip
 *     ... AuthInfo "socket=<sock>" ...
 *     munge_fixture_stop();
 *
 * The daemon runs in a fresh temp dir with its own random key and is
 * stopped by the PID it wrote; the dir is removed.
 */
#ifndef SLUICE_MUNGE_FIXTURE_H
#define SLUICE_MUNGE_FIXTURE_H

#include <dirent.h>
#include <stdbool.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char munge_fixture_dir[64];
static char munge_fixture_sock[128];

static const char *munge_fixture_binary(void)
{
	static const char *const paths[] = {
		"/usr/sbin/munged", "/usr/local/sbin/munged", "/sbin/munged",
	};

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (access(paths[i], X_OK) == 0)
			return paths[i];
	return NULL;
}

static int munge_fixture_write_key(const char *path)
{
	unsigned char key[1024];
	int in = open("/dev/urandom", O_RDONLY);
	int out = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	int rc = -1;

	if (in >= 0 && out >= 0 && read(in, key, sizeof(key)) == sizeof(key) &&
	    write(out, key, sizeof(key)) == sizeof(key))
		rc = 0;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return rc;
}

static char *munge_fixture_path(const char *name)
{
	static char buf[4][512];
	static int next;
	char *p = buf[next++ % 4];

	snprintf(p, sizeof(buf[0]), "%s/%s", munge_fixture_dir, name);
	return p;
}

/* Run munged (it forks and returns once its socket is ready). */
static int munge_fixture_spawn(const char *bin)
{
	char sock[600], key[600], pid[600], log[600], seed[600];
	int status;
	pid_t p;

	snprintf(sock, sizeof(sock), "--socket=%s", munge_fixture_sock);
	snprintf(key, sizeof(key), "--key-file=%s", munge_fixture_path("munge.key"));
	snprintf(pid, sizeof(pid), "--pid-file=%s", munge_fixture_path("munged.pid"));
	snprintf(log, sizeof(log), "--log-file=%s", munge_fixture_path("munged.log"));
	snprintf(seed, sizeof(seed), "--seed-file=%s", munge_fixture_path("munged.seed"));
	p = fork();
	if (p < 0)
		return -1;
	if (p == 0) {
		execl(bin, "munged", sock, key, pid, log, seed, (char *)NULL);
		_exit(127);
	}
	if (waitpid(p, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return -1;
	return 0;
}

static void munge_fixture_rmdir(void)
{
	DIR *d = opendir(munge_fixture_dir);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlink(munge_fixture_path(e->d_name));
	if (d)
		closedir(d);
	rmdir(munge_fixture_dir);
}

static const char *munge_fixture_start(void)
{
	const char *bin = munge_fixture_binary();

	if (!bin) {
		fprintf(stderr, "munge_fixture: munged not found, skipping\n");
		return NULL;
	}
	strcpy(munge_fixture_dir, "/tmp/sluice-munge-XXXXXX");
	if (!mkdtemp(munge_fixture_dir))
		return NULL;
	/* munged wants every directory above its socket searchable. */
	chmod(munge_fixture_dir, 0711);
	snprintf(munge_fixture_sock, sizeof(munge_fixture_sock), "%s/munge.socket",
		 munge_fixture_dir);
	if (munge_fixture_write_key(munge_fixture_path("munge.key")) < 0 ||
	    munge_fixture_spawn(bin) < 0) {
		fprintf(stderr, "munge_fixture: munged failed to start (see %s)\n",
			munge_fixture_path("munged.log"));
		return NULL;
	}
	return munge_fixture_sock;
}

static void munge_fixture_stop(void)
{
	FILE *f;
	long pid = 0;

	if (!munge_fixture_dir[0])
		return;
	f = fopen(munge_fixture_path("munged.pid"), "r");
	if (f) {
		if (fscanf(f, "%ld", &pid) != 1)
			pid = 0;
		fclose(f);
	}
	if (pid > 1 && kill((pid_t)pid, SIGTERM) == 0) {
		/* Not our child: poll until it is gone (munged takes ~2 s; give it 5). */
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		for (int i = 0; i < 500 && kill((pid_t)pid, 0) == 0; i++)
			nanosleep(&ts, NULL);
	}
	munge_fixture_rmdir();
	munge_fixture_dir[0] = '\0';
}

/* cmocka group setup/teardown for tests that need auth/munge: start a
 * private munged and load the plugin on its socket.  Without munged the
 * tests that say NEED_MUNGE() are skipped. */
#include "common/auth.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static bool have_munge __attribute__((unused));

static inline int munge_auth_setup(void **state)
{
	const char *sock = munge_fixture_start();
	char *info;
	int rc;

	(void) state;
	if (!sock)
		return 0;
	info = xstrdup_printf("socket=%s", sock);
	rc = auth_init("auth/munge", info, NULL);
	xfree(info);
	have_munge = rc == 0;
	return rc;
}

static inline int munge_auth_teardown(void **state)
{
	(void) state;
	auth_fini();
	munge_fixture_stop();
	return 0;
}

#define NEED_MUNGE() do { if (!have_munge) skip(); } while (0)

#endif
