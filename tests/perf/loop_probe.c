/* loop_probe.c — how long the controller's loop goes without answering:
 * a REQUEST_PING every INTERVAL_MS until the file STOPFILE exists (or
 * for SECONDS when the argument is a number), each timed from send to
 * reply.  Prints the count, median, p99 and the longest round trip, and
 * every round trip over 100 ms with its time since the start (what a
 * snapshot or a long pass held the loop for).
 *
 * Usage (as root, SLURM_CONF set): loop_probe STOPFILE|SECONDS [INTERVAL_MS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "common/auth.h"
#include "common/conf.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/xmalloc.h"

static double _now(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return tv.tv_sec + tv.tv_usec / 1e6;
}

static int _dcmp(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	log_options_t lo = { LOG_LEVEL_ERROR, LOG_LEVEL_QUIET, true, false };
	slurm_conf_t *conf;
	char err[512], *end;
	double t0, limit = 0, *rt = NULL;
	size_t n = 0, cap = 0, failed = 0;
	long interval_ms = 10;
	const char *stopfile = NULL;
	struct stat st;

	if (argc < 2) {
		fprintf(stderr, "usage: loop_probe STOPFILE|SECONDS [INTERVAL_MS]\n");
		return 2;
	}
	limit = strtod(argv[1], &end);
	if (*end || limit <= 0) {
		stopfile = argv[1];
		limit = 0;
	}
	if (argc > 2)
		interval_ms = atol(argv[2]);
	log_init("loop_probe", lo, NULL);
	conf = conf_load(NULL, err, sizeof(err));
	if (!conf || auth_init(conf->auth_type, conf->auth_info,
			       conf->plugin_dir)) {
		fprintf(stderr, "loop_probe: %s\n", conf ? "auth" : err);
		return 1;
	}
	t0 = _now();
	for (;;) {
		slurm_msg_t resp = { 0 };
		double a = _now(), b;
		int rc;

		if (stopfile ? stat(stopfile, &st) == 0 : a - t0 >= limit)
			break;
		rc = net_rpc(conf->ctld_addrs[0], conf->slurmctld_port,
			     REQUEST_PING, NULL, &resp, 600000);
		b = _now();
		if (rc)
			failed++;
		else
			msg_free(&resp);
		if (n == cap) {
			cap = cap ? cap * 2 : 4096;
			rt = xrealloc(rt, cap * sizeof(*rt));
		}
		rt[n++] = b - a;
		if (b - a > 0.1)
			printf("stall %.3f s at +%.1f s\n", b - a, a - t0);
		fflush(stdout);
		if (b - a < interval_ms / 1e3)
			usleep((useconds_t) ((interval_ms / 1e3 - (b - a)) * 1e6));
	}
	if (n) {
		qsort(rt, n, sizeof(*rt), _dcmp);
		printf("pings %zu failed %zu median_ms %.2f p99_ms %.2f max_ms %.1f\n",
		       n, failed, rt[n / 2] * 1e3, rt[n * 99 / 100] * 1e3,
		       rt[n - 1] * 1e3);
	}
	xfree(rt);
	conf_destroy(conf);
	return 0;
}
