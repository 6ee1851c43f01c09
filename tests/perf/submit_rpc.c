/* submit_rpc.c — the controller's submit path alone: N batch jobs
 * submitted by T threads over REQUEST_SUBMIT_BATCH_JOB (what sbatch
 * sends, without starting a process per job).  Prints jobs per second.
 *
 * Usage (as root, SLURM_CONF set): submit_rpc N THREADS [--hold]
 * With the controller's SLUICE_JOURNAL_NOSYNC=1 this measures what the
 * journal's fdatasync costs (tests/perf/bench.py, phase "rpc").
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "common/auth.h"
#include "common/conf.h"
#include "common/job_info.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static slurm_conf_t *conf;
static job_desc_t desc;
static long left;
static long done, failed;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *_client(void *arg)
{
	for (;;) {
		slurm_msg_t resp = { 0 };
		int rc;

		pthread_mutex_lock(&mu);
		if (left <= 0) {
			pthread_mutex_unlock(&mu);
			return NULL;
		}
		left--;
		pthread_mutex_unlock(&mu);
		rc = net_rpc(conf->ctld_addrs[0], conf->slurmctld_port,
			     REQUEST_SUBMIT_BATCH_JOB, &desc, &resp, 60000);
		pthread_mutex_lock(&mu);
		if (!rc && resp.type == RESPONSE_SUBMIT_BATCH_JOB)
			done++;
		else
			failed++;
		pthread_mutex_unlock(&mu);
		if (!rc)
			msg_free(&resp);
	}
}

int main(int argc, char **argv)
{
	log_options_t lo = { LOG_LEVEL_ERROR, LOG_LEVEL_QUIET, true, false };
	char *env[] = { "PATH=/usr/bin:/bin", "SLURM_SUBMIT_DIR=/tmp", NULL };
	long n, par;
	pthread_t *t;
	struct timeval t0, t1;
	char err[512];
	double s;

	if (argc < 3) {
		fprintf(stderr, "usage: submit_rpc N THREADS [--hold]\n");
		return 2;
	}
	n = atol(argv[1]);
	par = atol(argv[2]);
	log_init("submit_rpc", lo, NULL);
	conf = conf_load(NULL, err, sizeof(err));
	if (!conf || auth_init(conf->auth_type, conf->auth_info,
			       conf->plugin_dir)) {
		fprintf(stderr, "submit_rpc: %s\n", conf ? "auth" : err);
		return 1;
	}
	job_desc_init(&desc);
	desc.name = xstrdup("rpcbench");
	desc.script = xstrdup("#!/bin/sh\ntrue\n");
	desc.work_dir = xstrdup("/tmp");
	desc.environment = xstrarray_dup(env);
	desc.user_id = getuid();
	desc.group_id = getgid();
	desc.hold = argc > 3 && !strcmp(argv[3], "--hold");
	left = n;
	t = xcalloc(par, sizeof(*t));
	gettimeofday(&t0, NULL);
	for (long i = 0; i < par; i++)
		pthread_create(&t[i], NULL, _client, NULL);
	for (long i = 0; i < par; i++)
		pthread_join(t[i], NULL);
	gettimeofday(&t1, NULL);
	s = (t1.tv_sec - t0.tv_sec) + (t1.tv_usec - t0.tv_usec) / 1e6;
	printf("%.1f jobs/s (%ld submitted, %ld failed, %ld threads, %.2f s)\n",
	       done / s, done, failed, par, s);
	xfree(t);
	job_desc_free_members(&desc);
	conf_destroy(conf);
	return failed ? 1 : 0;
}
