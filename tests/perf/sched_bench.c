/* sched_bench — main scheduler and backfill pass times on synthetic
 * clusters (a benchmark: prints figures, never fails on them).
 *
 * Links the controller's modules without its loop (controller.c and
 * agent.c are replaced by the stubs below).  For each size: a cluster of
 * N nodes x 32 CPUs x 256 GB, filled by the main scheduler with 16-CPU
 * jobs (two per node, one on every tenth node) whose time limits are
 * spread over 10 min..24 h;
 * then a queue of P pending jobs of mixed sizes (1-32 CPUs on one node,
 * 2-16 whole nodes, some wide jobs) and time limits (10 min..48 h).
 * Prints the main pass time, the backfill pass time with Slurm's default
 * bf_max_job_test=500 and over the whole queue (CPU time of the one
 * thread: the figures hold on a busy machine), and peak memory.
 *
 * With SCHED_BENCH_ASSOC=1 an association cache is in place and enforced
 * (AccountingStorageEnforce=associations,limits,qos): 200 users in 10
 * accounts under root, MaxJobs per user, GrpJobs and GrpTRES=cpu per
 * account, QOS normal with MaxJobsPerUser, all set high enough not to
 * bind (the same jobs start): every job is counted and every pending
 * job checked against them (assoc_mgr_job_reason) in every pass.
 * SCHED_BENCH_ASSOC=2 adds time-based limits (GrpTRESMins and
 * GrpTRESRunMins per account, MaxTRESMins per user; not binding): the
 * running jobs' remaining CPU-minutes are recounted once per second.
 *
 * With SCHED_BENCH_LICENSES=1 the cluster has Licenses=l0..l9 (count
 * jobs/50 each, a tenth for l9) and SchedulerParameters=bf_licenses: a
 * quarter of the running jobs hold one license, a fifth of the pending
 * jobs ask for 1-4 of one (every fourth of those, l9 or another, '|'),
 * so backfill plans licenses over time as well as nodes.
 *
 * With SCHED_BENCH_GRES=1 every node has typed GPUs, a counted GRES and
 * shards (Gres=gpu:a100:4,gpu:h100:4,nic:128,shard:32, GresTypes=gpu,
 * nic,shard): a quarter of the running jobs hold an A100, a shard or 8
 * nic, and a fifth of the pending one-node jobs ask for 1-4 GPUs of a
 * type, any GPU, 1-8 shards or 1-64 nic.
 * With SCHED_BENCH_TOPO=tree the nodes are under a 3-level switch tree
 * (TopologyPlugin=topology/tree): leaf switches of 64 nodes, 8 leaves
 * under each middle switch, one top switch; with SCHED_BENCH_TOPO=block
 * they are in blocks of 64 (topology/block, BlockSizes 64 doubled), and
 * every job is placed, and planned, inside the topology.
 *
 * Then the journal's cost per commit with every node drained (one job
 * record changed per commit, as a submit does): state_save_pack_changes()
 * CPU time, averaged over 2,000 commits.
 *
 * Usage: sched_bench [nodes jobs]...   (default: 1000 10000 10000 100000)
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "common/conf.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/agent.h"
#include "ctld/assoc_mgr.h"
#include "ctld/assoc_mgr_int.h"
#include "ctld/backfill.h"
#include "ctld/controller.h"
#include "ctld/job_mgr.h"
#include "ctld/lic_mgr.h"
#include "ctld/node_mgr.h"
#include "ctld/part_mgr.h"
#include "ctld/priority.h"
#include "ctld/sched.h"
#include "ctld/state_save.h"
#include "ctld/topo_mgr.h"

/* The loop (controller.c) and agent.c are not linked: stubs. */
#include "../unit/ctld_stubs.h"

/* ---- the synthetic cluster ---- */

#define CPUS 32
#define MEM  256000

static double now_ms(void)
{
	struct timespec ts;

	/* CPU time of this thread: the machine may be shared */
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static long peak_mb(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss / 1024;
}

static bool bench_lics;        /* SCHED_BENCH_LICENSES */
static bool bench_gres;        /* SCHED_BENCH_GRES */
static const char *bench_topo; /* SCHED_BENCH_TOPO: tree, block or NULL */

#define LEAF 64                /* nodes per leaf switch / block */
#define FANOUT 8               /* leaves per middle switch */

/* topology.conf beside slurm.conf: a 3-level tree or blocks of 64. */
static void write_topo(const char *dir, size_t nodes)
{
	size_t leaves = (nodes + LEAF - 1) / LEAF, mids;
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/topology.conf", dir);
	f = fopen(path, "w");
	for (size_t l = 0; l < leaves; l++) {
		size_t a = l * LEAF + 1, b = (l + 1) * LEAF;

		fprintf(f, "%sName=%c%zu Nodes=n[%zu-%zu]\n",
			strcmp(bench_topo, "block") ? "Switch" : "Block",
			strcmp(bench_topo, "block") ? 'l' : 'b', l, a,
			b < nodes ? b : nodes);
	}
	if (!strcmp(bench_topo, "block")) {
		fclose(f);
		return;
	}
	mids = (leaves + FANOUT - 1) / FANOUT;
	for (size_t m = 0; m < mids; m++) {
		size_t a = m * FANOUT, b = (m + 1) * FANOUT - 1;

		fprintf(f, "SwitchName=m%zu Switches=l[%zu-%zu]\n", m, a,
			b < leaves ? b : leaves - 1);
	}
	fprintf(f, "SwitchName=top Switches=m[0-%zu]\n", mids - 1);
	fclose(f);
}
static size_t bench_jobs;

static void load_conf(const char *dir, size_t nodes, uint32_t max_test)
{
	char path[512], err[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/slurm.conf", dir);
	f = fopen(path, "w");
	fprintf(f, "ClusterName=bench\nSlurmctldHost=localhost\n"
		"StateSaveLocation=%s/state\n"
		"SchedulerParameters=bf_max_job_test=%u,max_sched_time=3600%s\n"
		"%s"
		"NodeName=n[1-%zu] NodeAddr=127.0.0.1 CPUs=%d RealMemory=%d%s\n"
		"PartitionName=batch Nodes=ALL Default=YES MaxTime=INFINITE\n"
		"PriorityType=priority/multifactor\nPriorityWeightAge=1000\n"
		"PriorityWeightJobSize=1000\nPriorityWeightFairshare=1000\n",
		dir, max_test, bench_lics ? ",bf_licenses" : "",
		bench_gres ? "GresTypes=gpu,nic,shard\n" : "", nodes, CPUS,
		MEM, bench_gres ?
		" Gres=gpu:a100:4,gpu:h100:4,nic:128,shard:32" : "");
	if (bench_lics) {
		size_t n = bench_jobs / 50 ? bench_jobs / 50 : 10;

		fprintf(f, "Licenses=");
		for (int l = 0; l < 9; l++)
			fprintf(f, "l%d:%zu,", l, n);
		fprintf(f, "l9:%zu\n", n / 10 ? n / 10 : 1);
	}
	if (bench_topo) {
		fprintf(f, "TopologyPlugin=topology/%s\n", bench_topo);
		write_topo(dir, nodes);
	}
	fclose(f);
	conf = conf_load(path, err, sizeof(err));
	if (!conf) {
		fprintf(stderr, "sched_bench: %s\n", err);
		exit(1);
	}
}

static void register_nodes(void)
{
	for (size_t i = 0; i < node_mgr_count(); i++) {
		node_registration_msg_t r = { .cpus = CPUS, .sockets = 2,
					      .cores = CPUS / 2, .threads = 1,
					      .real_memory = MEM };
		slurm_msg_t m = { .data = &r };

		r.node_name = node_mgr_at(i)->info.name;
		node_mgr_rpc_register(NULL, &m);
	}
}

static uint32_t prio = 4000000000u;

static job_record_t *add_job(uint32_t nodes, uint32_t tasks, uint32_t mins,
			     bool excl, uint32_t uid)
{
	job_record_t *j = job_mgr_create(job_mgr_next_id());
	job_info_t *i = &j->info;

	j->part = part_mgr_default();
	i->partition = xstrdup(j->part->info.name);
	i->user_id = uid;
	i->num_nodes = nodes;
	i->max_nodes = nodes;
	i->num_tasks = tasks;
	i->cpus_per_task = 1;
	i->ntasks_per_node = NO_VAL16;
	i->num_cpus = tasks;
	i->pn_min_memory = 1000;
	i->mem_per_cpu = true;
	i->time_limit = mins;
	i->priority = prio--;
	i->submit_time = i->eligible_time = time(NULL);
	i->job_state = JOB_PENDING;
	i->batch_flag = true;
	j->exclusive = excl;
	i->shared = excl ? JOB_SHARED_NONE : JOB_SHARED_UNSET;
	job_mgr_add(j);
	job_mgr_pending_add(j);
	return j;
}

static uint32_t rnd(uint32_t lo, uint32_t hi)
{
	return lo + (uint32_t) (random() % (hi - lo + 1));
}

/* Two 16-CPU jobs per node, but one on every tenth node: holes of 16
 * CPUs for backfill to fill. */
static void fill(size_t nodes)
{
	static const char *const held[] = {
		"gres/gpu:a100:1", "gres/shard:1", "gres/nic:8"
	};

	for (size_t i = 0; i < 2 * nodes - nodes / 10; i++) {
		job_record_t *j = add_job(1, CPUS / 2, rnd(10, 1440), false,
					  1000 + i % 50);

		if (bench_lics && !(i % 4))
			j->info.licenses = xstrdup_printf("l%zu:1", i / 4 % 9);
		if (bench_gres && !(i % 4))
			j->info.gres = xstrdup(held[i / 4 % 3]);
	}
}

/* A fifth of the one-node jobs ask for GRES. */
static void ask_gres(job_record_t *j)
{
	uint32_t k;

	if (!bench_gres || rnd(0, 4))
		return;
	k = rnd(0, 4);
	if (k == 0)
		j->info.gres = xstrdup_printf("gres/gpu:a100:%u", rnd(1, 4));
	else if (k == 1)
		j->info.gres = xstrdup_printf("gres/gpu:h100:%u", rnd(1, 4));
	else if (k == 2)
		j->info.gres = xstrdup_printf("gres/gpu:%u", rnd(1, 4));
	else if (k == 3)
		j->info.gres = xstrdup_printf("gres/shard:%u", rnd(1, 8));
	else
		j->info.gres = xstrdup_printf("gres/nic:%u", rnd(1, 64));
}

/* A fifth of the queue asks for licenses. */
static void ask_lics(job_record_t *j)
{
	uint32_t l, c;

	if (!bench_lics || rnd(0, 4))
		return;                /* the same queue as without licenses */
	l = rnd(0, 9);
	c = rnd(1, 4);
	if (rnd(0, 3))
		j->info.licenses = xstrdup_printf("l%u:%u", l, c);
	else
		j->info.licenses = xstrdup_printf("l9:%u|l%u:%u", c,
						  (l + 1) % 9, c);
}

static void queue(size_t nodes, size_t jobs)
{
	uint32_t wide = nodes / 20 ? nodes / 20 : 2;

	for (size_t i = 0; i < jobs; i++) {
		uint32_t r = rnd(0, 99), mins = rnd(10, 2880);
		uint32_t uid = 1000 + rnd(0, 199);

		if (r < 70) {
			job_record_t *j = add_job(1, rnd(1, CPUS), mins,
						  false, uid);

			ask_lics(j);
			ask_gres(j);
		}
		else if (r < 95) {
			uint32_t n = rnd(2, 16);

			ask_lics(add_job(n, n * CPUS, mins, true, uid));
		} else {
			uint32_t n = rnd(17, wide > 17 ? wide : 18);

			ask_lics(add_job(n, n * CPUS, mins, true, uid));
		}
	}
}

/* ---- SCHED_BENCH_ASSOC: a synthetic association cache ---- */

#define BENCH_USERS 200
#define BENCH_ACCTS 10

static dbd_acct_resp_msg_t *bench_list(const char *const *cols)
{
	dbd_acct_resp_msg_t *r = xmalloc(sizeof(*r));

	for (size_t i = 0; cols[i]; i++)
		r->cols = xstrarray_append(r->cols, cols[i]);
	return r;
}

static void bench_row(dbd_acct_resp_msg_t *r, ...)
{
	va_list ap;
	const char *v;

	va_start(ap, r);
	while ((v = va_arg(ap, const char *)))
		r->cells = xstrarray_append(r->cells, v);
	va_end(ap);
}

/* SCHED_BENCH_ASSOC=2: time-based limits too (GrpTRESMins and
 * GrpTRESRunMins per account, MaxTRESMins per user), not binding. */
static bool bench_time_limits;

static void bench_assoc(dbd_acct_resp_msg_t *r, int id, const char *acct,
			const char *user, const char *parent,
			const char *maxjobs, const char *grpjobs,
			const char *grptres)
{
	bool t = bench_time_limits && strcmp(acct, "root");
	char ids[16];

	snprintf(ids, sizeof(ids), "%d", id);
	bench_row(r, ids, acct, user, parent, maxjobs, grpjobs, grptres,
		  "normal", t && !*user ? "cpu=1000000000000" : "",
		  t && !*user ? "cpu=1000000000000" : "",
		  t && *user ? "cpu=1000000000000" : "", (char *)NULL);
}

static void install_assocs(void)
{
	static const char *const qcols[] = { "id", "name", "priority",
					     "maxjobspu", NULL };
	static const char *const ucols[] = { "user", "defacct", "admin", NULL };
	static const char *const acols[] = { "id", "account", "user",
		"parentname", "maxjobs", "grpjobs", "grptres", "qos",
		"grptresmins", "grptresrunmins", "maxtresmins", NULL };
	static const char *const ccols[] = { "user", "account", NULL };
	dbd_acct_resp_msg_t *l[AM_LIST_CNT] = {
		bench_list(qcols), bench_list(ucols), bench_list(acols),
		bench_list(ccols) };
	am_snap_t *s;
	char name[32], acct[32];
	int id = 1;

	bench_row(l[0], "1", "normal", "0", "1000000", (char *)NULL);
	bench_assoc(l[2], id++, "root", "", "", "", "", "");
	for (int a = 0; a < BENCH_ACCTS; a++) {
		snprintf(acct, sizeof(acct), "a%d", a);
		bench_assoc(l[2], id++, acct, "", "root", "", "1000000",
			    "cpu=100000000");
	}
	for (int u = 0; u < BENCH_USERS; u++) {
		snprintf(name, sizeof(name), "benchu%d", u);
		snprintf(acct, sizeof(acct), "a%d", u % BENCH_ACCTS);
		bench_row(l[1], name, acct, "None", (char *)NULL);
		bench_assoc(l[2], id++, acct, name, acct, "1000000", "", "");
	}
	am_install_lists(l);
	for (int i = 0; i < AM_LIST_CNT; i++)
		msg_body_free(RESPONSE_DBD_ACCT, l[i]);
	/* the users do not exist here: give them the jobs' uids */
	s = am_snap();
	for (size_t i = 0; i < s->user_cnt; i++) {
		s->users[i]->uid = 1000 + (uid_t)i;
		am_index_add_id(&s->user_by_uid, s->users[i]->uid,
				s->users[i]);
	}
	am_set_enforce(ACCT_ENFORCE_ASSOCS | ACCT_ENFORCE_LIMITS |
		       ACCT_ENFORCE_QOS);
}

/* Journal commit cost with all nodes DRAIN: microseconds per commit. */
static double commit_us(void)
{
	job_record_t *j = job_mgr_pending_first();
	uint64_t seq = 0;
	double t;
	int n = 2000;

	for (size_t i = 0; i < node_mgr_count(); i++)
		node_mgr_drain(node_mgr_at(i), "bench", 0);
	state_save_changes_reset();
	t = now_ms();
	for (int k = 0; k < n; k++) {
		buf_t *b = buf_create(4096);

		job_mgr_touch(j);
		state_save_pack_changes(b, &seq);
		buf_destroy(b);
	}
	t = now_ms() - t;
	return t * 1000.0 / n;
}

static void run(size_t nodes, size_t jobs)
{
	char dir[] = "/tmp/sched_bench.XXXXXX", err[512], cmd[600];
	double t, main_ms, bf_ms, bf_full_ms, bf_full2_ms, recalc_ms,
	       recalc2_ms;
	time_t later;
	job_record_t *j;
	size_t running = 0, planned = 0;
	int started, bf_started;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(1);
	}
	srandom(42);
	bench_jobs = jobs;
	bench_gres = getenv("SCHED_BENCH_GRES") &&
		strcmp(getenv("SCHED_BENCH_GRES"), "0");
	bench_lics = getenv("SCHED_BENCH_LICENSES") &&
		strcmp(getenv("SCHED_BENCH_LICENSES"), "0");
	bench_topo = getenv("SCHED_BENCH_TOPO");
	if (bench_topo && strcmp(bench_topo, "tree") &&
	    strcmp(bench_topo, "block"))
		bench_topo = NULL;
	load_conf(dir, nodes, 500);
	if (state_save_init(conf->state_save_location, "bench", err,
			    sizeof(err)) < 0) {
		fprintf(stderr, "sched_bench: %s\n", err);
		exit(1);
	}
	node_mgr_init(conf);
	part_mgr_init(conf, err, sizeof(err));
	part_mgr_refresh_totals();
	if (topo_mgr_init(conf, err, sizeof(err)) < 0) {
		fprintf(stderr, "sched_bench: %s\n", err);
		exit(1);
	}
	if (lic_mgr_init(conf, err, sizeof(err)) < 0) {
		fprintf(stderr, "sched_bench: %s\n", err);
		exit(1);
	}
	job_mgr_init();
	sched_init(NULL);
	if (getenv("SCHED_BENCH_ASSOC")) {
		bench_time_limits = !strcmp(getenv("SCHED_BENCH_ASSOC"), "2");
		install_assocs();
	}
	register_nodes();
	fill(nodes);
	started = sched_run();
	queue(nodes, jobs);

	t = now_ms();
	sched_run();
	main_ms = now_ms() - t;

	t = now_ms();
	bf_started = backfill_run();
	bf_ms = now_ms() - t;

	/* the whole queue: bf_max_job_test = every job */
	conf_destroy(conf);
	load_conf(dir, nodes, jobs + 1);
	sched_reconfig();
	t = now_ms();
	bf_started += backfill_run();
	bf_full_ms = now_ms() - t;
	t = now_ms();
	backfill_run();
	bf_full2_ms = now_ms() - t;

	/* priority/multifactor over the whole pending queue (what the
	 * PriorityCalcPeriod timer runs), after the passes above */
	later = time(NULL) + 3600;
	priority_init(NULL);
	t = now_ms();
	priority_recalc(later);
	recalc_ms = now_ms() - t;
	/* again at the same time: nothing changes, no resort (the cost of
	 * calling the plugin over the queue); best of 5 */
	recalc2_ms = 1e9;
	for (int k = 0; k < 5; k++) {
		double r;

		t = now_ms();
		priority_recalc(later);
		r = now_ms() - t;
		if (r < recalc2_ms)
			recalc2_ms = r;
	}
	priority_fini();

	for (j = job_mgr_running_first(); j; j = j->run_next)
		running++;
	for (j = job_mgr_pending_first(); j; j = j->pend_next)
		if (j->info.start_time)
			planned++;
	printf("%zu nodes x %zu pending jobs (%d running, %zu CPUs)%s%s%s%s:\n",
	       nodes, jobs, started, nodes * CPUS,
	       bench_lics ? ", licenses" : "",
	       bench_gres ? ", typed GRES" : "",
	       bench_topo ? ", topology/" : "", bench_topo ? bench_topo : "");
	printf("  main scheduler pass:              %9.1f ms\n", main_ms);
	printf("  backfill pass, bf_max_job_test=500: %7.1f ms\n", bf_ms);
	printf("  backfill pass, whole queue:       %9.1f ms"
	       " (again: %.1f ms)\n", bf_full_ms, bf_full2_ms);
	printf("  backfilled jobs started: %d, pending jobs with a planned "
	       "start: %zu, running: %zu\n", bf_started, planned, running);
	printf("  priority recalc (multifactor), all pending: %.1f ms"
	       " (again: %.1f ms)\n", recalc_ms, recalc2_ms);
	printf("  journal commit, all %zu nodes drained: %.1f us\n", nodes,
	       commit_us());
	printf("  peak memory (RSS): %ld MB\n", peak_mb());
	sched_fini();
	assoc_mgr_fini();
	job_mgr_fini();
	lic_mgr_fini();
	topo_mgr_fini();
	part_mgr_fini();
	node_mgr_fini();
	conf_destroy(conf);
	conf = NULL;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "sched_bench: could not remove %s\n", dir);
}

int main(int argc, char **argv)
{
	/* quiet: the stubbed agent cannot launch anything */
	log_options_t lo = { .stderr_level = LOG_LEVEL_QUIET,
			     .file_level = LOG_LEVEL_QUIET };

	log_init("sched_bench", lo, NULL);
	if (argc < 3) {
		run(1000, 10000);
		run(10000, 100000);
		return 0;
	}
	for (int a = 1; a + 1 < argc; a += 2)
		run(strtoul(argv[a], NULL, 10), strtoul(argv[a + 1], NULL, 10));
	return 0;
}
