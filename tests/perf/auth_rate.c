/* auth_rate.c — tokens per second through Sluice's auth plugins: T
 * threads each create a credential over a message digest and verify it
 * (what one RPC costs, sender and receiver together), for S seconds.
 * Prints encode+verify pairs per second and this process's CPU time per
 * pair; with auth/munge give munged's pid to add its CPU (the work is
 * done there).
 *
 * Usage: auth_rate auth/slurm KEYFILE THREADS SECONDS
 *        auth_rate auth/munge MUNGE_SOCKET THREADS SECONDS [MUNGED_PID]
 *        (auth/slurm with KEYFILE "-": a fresh random key in /tmp)
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/auth.h"
#include "common/sha256.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static double seconds;
static long pairs, failed;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static double _clock(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *_worker(void *arg)
{
	uint8_t d[AUTH_DIGEST_LEN];
	double end = _clock(CLOCK_MONOTONIC) + seconds;
	long n = 0, bad = 0;

	sha256(&arg, sizeof(arg), d);
	while (_clock(CLOCK_MONOTONIC) < end) {
		for (int i = 0; i < 50; i++) {
			char *c = NULL;
			uint32_t len;
			uid_t uid;
			gid_t gid;
			const char *why;

			d[0]++;
			if (auth_create(d, &c, &len) ||
			    auth_verify(c, len, d, &uid, &gid, &why))
				bad++;
			else
				n++;
			xfree(c);
		}
	}
	pthread_mutex_lock(&mu);
	pairs += n;
	failed += bad;
	pthread_mutex_unlock(&mu);
	return NULL;
}

static double _proc_cpu(long pid)
{
	char path[64], buf[1024], *p;
	unsigned long ut, st;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (!(f = fopen(path, "r")))
		return 0;
	if (!fgets(buf, sizeof(buf), f) || !(p = strrchr(buf, ')')) ||
	    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
		   &ut, &st) != 2)
		ut = st = 0;
	fclose(f);
	return (double)(ut + st) / sysconf(_SC_CLK_TCK);
}

static char *_temp_key(void)
{
	char *path = xstrdup("/tmp/auth_rate_key.XXXXXX");
	uint8_t key[1024];
	int fd = mkstemp(path), in = open("/dev/urandom", O_RDONLY);

	if (fd < 0 || in < 0 || read(in, key, sizeof(key)) != sizeof(key) ||
	    write(fd, key, sizeof(key)) != sizeof(key)) {
		perror("auth_rate: key");
		exit(1);
	}
	fchmod(fd, 0600);
	close(fd);
	close(in);
	return path;
}

int main(int argc, char **argv)
{
	char *info, *tmpkey = NULL;
	long threads, munged = 0;
	double t0, c0, m0 = 0, wall, cpu;
	pthread_t *th;

	if (argc < 5) {
		fprintf(stderr, "usage: auth_rate auth/slurm KEYFILE|- THREADS "
			"SECONDS\n       auth_rate auth/munge SOCKET THREADS "
			"SECONDS [MUNGED_PID]\n");
		return 2;
	}
	threads = atol(argv[3]);
	seconds = atof(argv[4]);
	if (!strcmp(argv[1], "auth/slurm")) {
		if (!strcmp(argv[2], "-"))
			argv[2] = tmpkey = _temp_key();
		info = xstrdup_printf("key=%s", argv[2]);
	} else {
		info = xstrdup_printf("socket=%s", argv[2]);
		munged = argc > 5 ? atol(argv[5]) : 0;
	}
	auth_set_context(NULL, getuid(), 1);
	if (auth_init(argv[1], info, NULL)) {
		fprintf(stderr, "auth_rate: cannot load %s (%s)\n", argv[1], info);
		return 1;
	}
	th = xcalloc(threads, sizeof(*th));
	t0 = _clock(CLOCK_MONOTONIC);
	c0 = _clock(CLOCK_PROCESS_CPUTIME_ID);
	if (munged)
		m0 = _proc_cpu(munged);
	for (long i = 0; i < threads; i++)
		pthread_create(&th[i], NULL, _worker, (void *)i);
	for (long i = 0; i < threads; i++)
		pthread_join(th[i], NULL);
	wall = _clock(CLOCK_MONOTONIC) - t0;
	cpu = _clock(CLOCK_PROCESS_CPUTIME_ID) - c0;
	printf("%s: %.0f pairs/s (%ld pairs, %ld failed, %ld threads, %.2f s), "
	       "%.2f us CPU per pair in this process", argv[1], pairs / wall,
	       pairs, failed, threads, wall, pairs ? cpu * 1e6 / pairs : 0);
	if (munged && pairs)
		printf(", munged %.1f us", (_proc_cpu(munged) - m0) * 1e6 / pairs);
	printf("\n");
	auth_fini();
	if (tmpkey)
		unlink(tmpkey);
	return failed ? 1 : 0;
}
