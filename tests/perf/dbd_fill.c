/* dbd_fill.c — N finished jobs (each with its .batch step) sent to
 * slurmdbd through the path the controller uses: REQUEST_DBD_RECORDS
 * batches of framed accounting records, one transaction per batch.
 * Prints records per second.  For sacct/sreport timings over many job
 * records without running the jobs.
 *
 * Usage (as root or SlurmUser, SLURM_CONF set):
 *     dbd_fill [-b BASE] [-s SPREAD] [-l LEN] [-c CPUS] [-U UID,UID..]
 *              [-a ACCOUNT] [-C CLUSTER_CPUS] [-D START,END,CPUS] N
 *              [FIRST_ID]
 * Jobs get ids FIRST_ID.. (default 1000000), users 0..49 (or -U) round
 * robin, account "acct" (-a), CPUS (1) CPUs, LEN (5) s each, job i
 * starting at BASE + i % SPREAD (default: the last hour, 3000 s).  -C
 * first records the cluster's CPUs from BASE on (a registration, as the
 * controller sends), -D a node down from START to END (epoch seconds)
 * with CPUS CPUs: past usage for the roll-ups and sreport.  -w WAIT:
 * jobs were eligible WAIT s before they started; -r: they still run;
 * -g GAP: job i starts at BASE + i * GAP instead; -M START,END,CPUS: a
 * MAINT reservation of CPUS CPUs (planned down).  -T TRES: more of the
 * jobs' TRES after "cpu=N,node=1" ("mem=2G,billing=3"); -K TRES: more of
 * the cluster's after "cpu=N" (with -C).  -Q QOS, -W WCKEY: the jobs'
 * QOS (normal) and wckey (none).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
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
#include "common/resv_info.h"
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

typedef struct {
	time_t    base;
	long      spread, len;
	uint32_t  cpus;
	uint32_t *uids;
	uint32_t  nuids;
	char     *account;
	uint32_t  cluster_cpus;
	time_t    down_start, down_end;
	uint32_t  down_cpus;
	time_t    maint_start, maint_end;
	uint32_t  maint_cpus;
	long      wait, gap;
	bool      running;
	const char *job_tres, *cluster_tres;   /* -T, -K */
	const char *qos, *wckey;               /* -Q, -W */
} fill_opts_t;

static int parse_args(int argc, char **argv, fill_opts_t *o)
{
	int ch;

	while ((ch = getopt(argc, argv, "b:s:l:c:U:a:C:D:w:rg:M:T:K:Q:W:")) != -1) {
		switch (ch) {
		case 'b': o->base = atol(optarg); break;
		case 's': o->spread = atol(optarg); break;
		case 'l': o->len = atol(optarg); break;
		case 'c': o->cpus = (uint32_t)atol(optarg); break;
		case 'a': o->account = optarg; break;
		case 'w': o->wait = atol(optarg); break;
		case 'r': o->running = true; break;
		case 'g': o->gap = atol(optarg); break;
		case 'C': o->cluster_cpus = (uint32_t)atol(optarg); break;
		case 'T': o->job_tres = optarg; break;
		case 'K': o->cluster_tres = optarg; break;
		case 'Q': o->qos = optarg; break;
		case 'W': o->wckey = optarg; break;
		case 'U':
			for (char *p = optarg; *p; p += *p == ',') {
				o->uids = xrealloc(o->uids, (o->nuids + 1) *
						   sizeof(uint32_t));
				o->uids[o->nuids++] =
					(uint32_t)strtoul(p, &p, 10);
			}
			break;
		case 'D':
		case 'M': {
			long long a, b;
			unsigned n;

			if (sscanf(optarg, "%lld,%lld,%u", &a, &b, &n) != 3)
				return -1;
			if (ch == 'D') {
				o->down_start = a;
				o->down_end = b;
				o->down_cpus = n;
			} else {
				o->maint_start = a;
				o->maint_end = b;
				o->maint_cpus = n;
			}
			break;
		}
		default:
			return -1;
		}
	}
	if (o->spread < 1 || o->len < 0 || !o->cpus || o->wait < 0)
		return -1;
	return optind;
}

/* The cluster's CPUs from o->base on and the node down period, ahead of
 * the jobs. */
static void fill_events(const fill_opts_t *o, dbd_records_msg_t *m,
			uint64_t *seq)
{
	char tres[256];

	if (o->cluster_cpus) {
		acct_event_rec_t e = { .node_name = "", .reason = "",
				       .reason_uid = NO_VAL32,
				       .start = o->base, .tres = tres };

		snprintf(tres, sizeof(tres), "cpu=%u%s%s", o->cluster_cpus,
			 o->cluster_tres ? "," : "",
			 o->cluster_tres ? o->cluster_tres : "");
		acct_frame_build(&m->recs[m->cnt++], ++*seq,
				 ACCT_REC_NODE_EVENT, &e);
	}
	if (o->down_cpus) {
		acct_event_rec_t e = { .node_name = "n9",
				       .reason = "dbd_fill down",
				       .reason_uid = 0, .state = 1,
				       .start = o->down_start,
				       .end = o->down_end, .tres = tres };

		snprintf(tres, sizeof(tres), "cpu=%u", o->down_cpus);
		acct_frame_build(&m->recs[m->cnt++], ++*seq,
				 ACCT_REC_NODE_EVENT, &e);
	}
	if (o->maint_cpus) {
		acct_resv_rec_t r = { .resv_id = (uint32_t)o->maint_start,
				      .name = "maint", .nodes = "n9",
				      .time_start = o->maint_start,
				      .time_end = o->maint_end, .tres = tres,
				      .flags = RESV_MAINT, .users = "root",
				      .accounts = "" };

		snprintf(tres, sizeof(tres), "cpu=%u", o->maint_cpus);
		acct_frame_build(&m->recs[m->cnt++], ++*seq, ACCT_REC_RESV,
				 &r);
	}
}

int main(int argc, char **argv)
{
	fill_opts_t o = { .base = time(NULL) - 3600, .spread = 3000,
			  .len = 5, .cpus = 1, .account = "acct" };
	int first_arg;
	char tres[256];
	log_options_t lo = { LOG_LEVEL_ERROR, LOG_LEVEL_QUIET, true, false };
	dbd_records_msg_t m = { 0 };
	slurm_conf_t *c;
	char err[512];
	long n, first = 1000000;
	uint64_t seq = 0;
	double t0, dt;

	first_arg = parse_args(argc, argv, &o);
	if (first_arg < 0 || first_arg >= argc) {
		fprintf(stderr, "usage: dbd_fill [-b BASE] [-s SPREAD] "
			"[-l LEN] [-c CPUS] [-U UID,..] [-a ACCOUNT] "
			"[-C CLUSTER_CPUS] [-D START,END,CPUS] N "
			"[FIRST_ID]\n");
		return 2;
	}
	n = atol(argv[first_arg]);
	if (first_arg + 1 < argc)
		first = atol(argv[first_arg + 1]);
	snprintf(tres, sizeof(tres), "cpu=%u,node=1%s%s", o.cpus,
		 o.job_tres ? "," : "", o.job_tres ? o.job_tres : "");
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
	fill_events(&o, &m, &seq);
	for (long i = 0; i < n; i++) {
		time_t t = o.gap ? o.base + i * o.gap : o.base + i % o.spread;
		char name[32];
		acct_job_rec_t j = {
			.job_id = (uint32_t)(first + i),
			.array_task_id = NO_VAL32, .name = name,
			.uid = o.nuids ? o.uids[i % o.nuids] :
				(uint32_t)(i % 50),
			.gid = 0, .account = o.account,
			.partition = "debug",
			.qos = (char *)(o.qos ? o.qos : "normal"),
			.wckey = (char *)o.wckey,
			.state = o.running ? JOB_RUNNING : JOB_COMPLETE,
			.requid = NO_VAL32,
			.submit = t - o.wait, .eligible = t - o.wait,
			.start = t, .end = o.running ? 0 : t + o.len,
			.time_limit = 60, .nodes = "n1", .num_nodes = 1,
			.num_cpus = o.cpus, .req_cpus = o.cpus,
			.tres_alloc = tres, .tres_req = tres,
			.req_mem = NO_VAL64,
			.work_dir = "/tmp",
		};
		acct_step_rec_t s = {
			.job_id = j.job_id, .submit = j.submit,
			.step_id = (uint32_t)ACCT_STEP_BATCH, .name = "batch",
			.start = t, .end = j.end, .state = j.state,
			.requid = NO_VAL32, .nodes = "n1", .num_nodes = 1,
			.ntasks = 1, .num_cpus = o.cpus, .tres_alloc = tres,
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
	xfree(o.uids);
	return 0;
}
