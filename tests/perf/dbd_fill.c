/* dbd_fill.c — N finished jobs (each with its .batch step) sent to
 * slurmdbd through the path the controller uses: REQUEST_DBD_RECORDS
 * batches of framed accounting records, one transaction per batch.
 * Prints records per second.  For sacct/sreport timings over many job
 * records without running the jobs.
 *
 * Usage (as root or SlurmUser, SLURM_CONF set): dbd_fill N [FIRST_ID]
 * Jobs get ids FIRST_ID.. (default 1000000), users 0..49 round robin,
 * account "acct", 1 CPU, 5 s each, spread over the last hour.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "common/acct_rec.h"
#include "common/auth.h"
#include "common/conf.h"
#include "common/job_info.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#define BATCH 1000        /* records per REQUEST_DBD_RECORDS, as slurmctld */

static double now_s(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return tv.tv_sec + tv.tv_usec / 1e6;
}

static int send_batch(const slurm_conf_t *c, dbd_records_msg_t *m)
{
	slurm_msg_t resp = { 0 };
	dbd_records_resp_msg_t *r;
	int rc;

	rc = net_rpc(c->accounting_storage_host ? c->accounting_storage_host :
		     "localhost", c->accounting_storage_port,
		     REQUEST_DBD_RECORDS, m, &resp, 300000);
	if (rc) {
		fprintf(stderr, "dbd_fill: %s\n", slurm_strerror(rc));
		return -1;
	}
	r = resp.type == RESPONSE_DBD_RECORDS ? resp.data : NULL;
	rc = !r || r->rc || r->acked_seq != m->recs[m->cnt - 1].seq ? -1 : 0;
	if (rc)
		fprintf(stderr, "dbd_fill: batch refused (rc %d)\n",
			r ? r->rc : -1);
	msg_free(&resp);
	return rc;
}

int main(int argc, char **argv)
{
	log_options_t lo = { LOG_LEVEL_ERROR, LOG_LEVEL_QUIET, true, false };
	dbd_records_msg_t m = { 0 };
	slurm_conf_t *c;
	char err[512];
	long n, first = 1000000;
	uint64_t seq = 0;
	time_t base = time(NULL) - 3600;
	double t0, dt;

	if (argc < 2) {
		fprintf(stderr, "usage: dbd_fill N [FIRST_ID]\n");
		return 2;
	}
	n = atol(argv[1]);
	if (argc > 2)
		first = atol(argv[2]);
	log_init("dbd_fill", lo, NULL);
	c = conf_load(NULL, err, sizeof(err));
	if (!c || auth_init(c->auth_type, c->auth_info, c->plugin_dir)) {
		fprintf(stderr, "dbd_fill: %s\n", c ? "auth" : err);
		return 1;
	}
	m.cluster = c->cluster_name;
	m.epoch = ((uint64_t)time(NULL) << 16) ^ (uint64_t)first;
	m.recs = xcalloc(BATCH, sizeof(acct_frame_t));
	t0 = now_s();
	for (long i = 0; i < n; i++) {
		time_t t = base + i % 3000;
		char name[32];
		acct_job_rec_t j = {
			.job_id = (uint32_t)(first + i),
			.array_task_id = NO_VAL32, .name = name,
			.uid = (uint32_t)(i % 50), .gid = 0, .account = "acct",
			.partition = "debug", .qos = "normal",
			.state = JOB_COMPLETE, .requid = NO_VAL32,
			.submit = t, .eligible = t, .start = t, .end = t + 5,
			.time_limit = 60, .nodes = "n1", .num_nodes = 1,
			.num_cpus = 1, .req_cpus = 1,
			.tres_alloc = "cpu=1,node=1",
			.tres_req = "cpu=1,node=1", .req_mem = NO_VAL64,
			.work_dir = "/tmp",
		};
		acct_step_rec_t s = {
			.job_id = j.job_id, .submit = t,
			.step_id = (uint32_t)ACCT_STEP_BATCH, .name = "batch",
			.start = t, .end = t + 5, .state = JOB_COMPLETE,
			.requid = NO_VAL32, .nodes = "n1", .num_nodes = 1,
			.ntasks = 1, .num_cpus = 1, .tres_alloc = "cpu=1",
			.user_usec = 1000,
		};

		snprintf(name, sizeof(name), "job%ld", i % 1000);
		acct_frame_build(&m.recs[m.cnt++], ++seq, ACCT_REC_JOB, &j);
		acct_frame_build(&m.recs[m.cnt++], ++seq, ACCT_REC_STEP, &s);
		if (m.cnt + 2 > BATCH || i + 1 == n) {
			int rc = send_batch(c, &m);

			for (uint32_t k = 0; k < m.cnt; k++)
				acct_frame_free_members(&m.recs[k]);
			m.cnt = 0;
			if (rc)
				return 1;
		}
	}
	dt = now_s() - t0;
	printf("dbd_fill_jobs: %ld\n", n);
	printf("dbd_fill_records: %ld\n", 2 * n);
	printf("dbd_fill_s: %.2f\n", dt);
	printf("dbd_fill_records_per_s: %.0f\n", 2 * n / dt);
	xfree(m.recs);
	return 0;
}
