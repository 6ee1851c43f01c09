/* munge_rate.c — MUNGE's own credential rate: T threads each encoding
 * an empty credential and decoding it again (what one RPC costs per
 * direction), for S seconds.  Prints encode+decode pairs per second and
 * the CPU time munged used per pair, the bound on any RPC rate that signs
 * requests and replies with auth/munge.
 *
 * Usage: munge_rate SOCKET THREADS SECONDS [MUNGED_PID]
 */
#include <munge.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static const char *sock;
static double seconds;
static long pairs, failed;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static double _now(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return tv.tv_sec + tv.tv_usec / 1e6;
}

static void *_worker(void *arg)
{
	munge_ctx_t ctx = munge_ctx_create();
	double end = _now() + seconds;
	long n = 0, bad = 0;

	(void) arg;
	munge_ctx_set(ctx, MUNGE_OPT_SOCKET, sock);
	while (_now() < end) {
		char *cred = NULL;

		if (munge_encode(&cred, ctx, NULL, 0) != EMUNGE_SUCCESS ||
		    munge_decode(cred, ctx, NULL, NULL, NULL, NULL) !=
		    EMUNGE_SUCCESS)
			bad++;
		else
			n++;
		free(cred);
	}
	munge_ctx_destroy(ctx);
	pthread_mutex_lock(&mu);
	pairs += n;
	failed += bad;
	pthread_mutex_unlock(&mu);
	return NULL;
}

/* utime+stime of a process in seconds, or -1. */
static double _cpu(long pid)
{
	char path[64], buf[1024], *p;
	unsigned long ut, st;
	FILE *f;

	if (pid <= 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (!(f = fopen(path, "r")))
		return -1;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	if (!p || !(p = strrchr(buf, ')')))
		return -1;
	if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
		   &ut, &st) != 2)
		return -1;
	return (double) (ut + st) / sysconf(_SC_CLK_TCK);
}

int main(int argc, char **argv)
{
	long threads, pid;
	pthread_t *t;
	double t0, t1, c0, c1;

	if (argc < 4) {
		fprintf(stderr, "usage: munge_rate SOCKET THREADS SECONDS "
			"[MUNGED_PID]\n");
		return 2;
	}
	sock = argv[1];
	threads = atol(argv[2]);
	seconds = atof(argv[3]);
	pid = argc > 4 ? atol(argv[4]) : 0;
	if (threads < 1 || seconds <= 0)
		return 2;
	t = calloc(threads, sizeof(*t));
	c0 = _cpu(pid);
	t0 = _now();
	for (long i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, _worker, NULL);
	for (long i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	t1 = _now();
	c1 = _cpu(pid);
	printf("%.0f pairs/s (%ld pairs, %ld failed, %ld threads, %.2f s)",
	       pairs / (t1 - t0), pairs, failed, threads, t1 - t0);
	if (c0 >= 0 && c1 >= 0 && pairs)
		printf(", munged %.1f us CPU per pair", (c1 - c0) * 1e6 / pairs);
	printf("\n");
	free(t);
	return failed ? 1 : 0;
}
