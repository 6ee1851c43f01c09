/* million_bench — the controller's own cost at up to a million pending
 * jobs, without daemons (a benchmark: prints figures, never fails on
 * them).  The controller's modules are compiled in as the unit tests do
 * (tests/unit/ctld_world.h); the queue is filled through the submit
 * handler itself (job_mgr_rpc_submit: the checks, the record, its
 * script and environment to the job files writer, the pending list),
 * with the journal's framing of the changes every 100 submits (what one
 * group commit frames), but no sockets, MUNGE or fdatasync.  At each
 * size of the arguments (default 1000 10000 100000 1000000):
 *
 * Times are CPU time of the loop's thread (what it would be held for).
 *
 *   submit        jobs/s of the last min(size, 10000) submits
 *   rss/job       (VmRSS - VmRSS before the first job) / jobs
 *   job info      REQUEST_JOB_INFO's body for squeue -o '%i %T' and
 *                 scontrol show job: in one go, and the longest slice
 *   pack whole    state_save_pack(): the loop's stall per journal
 *                 rotation when the snapshot was packed in one go
 *   pack slices   state_save_pack_begin/_step of 256 jobs at a time, as
 *                 commit.c runs them: the longest step and their count
 *   write         state_save_write (tmp, fsync, rename) of it
 *   recover       recover_state() of that snapshot into empty tables
 *
 * -m: before the snapshot, give the pending jobs priorities that do not
 * fall with the job id (as priority/multifactor's do not): what made
 * recovery's one-by-one ordered insertion quadratic.
 *
 * MILLION_BENCH_PERF_CTL=fifo: "enable" / "disable" written to it
 * around recover_state() (perf record -D -1 --control=fifo:FIFO): a
 * profile of the recovery alone.
 *
 * Usage: million_bench [-m] [size]...
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../unit/ctld_world.h"

static char dir[] = "/tmp/million_bench.XXXXXX";

/* CPU time of this thread: the figures hold on a busy machine (the job
 * files writer's thread is not in them). */
static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double rss_mib(void)
{
	char line[256];
	double v = 0;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmRSS:", 6))
			v = atol(line + 6) / 1024.0;
	if (f)
		fclose(f);
	return v;
}

static job_desc_t desc;
static bool mixed;              /* -m */
static uint64_t seq;
static buf_t *frames;

static void submit_one(void)
{
	slurm_msg_t m = { .auth_uid = 0, .data = &desc };

	job_mgr_rpc_submit(NULL, &m);
}

/* Every 100 submits: frame the changes as one group commit would. */
static void commit_frames(void)
{
	buf_set_offset(frames, 0);
	buf_destroy(frames);
	frames = buf_create(64 * 1024);
	state_save_pack_changes(frames, &seq);
}

/* REQUEST_JOB_INFO's body for the fields of names ("" all: scontrol show
 * job): packed in one go (what the loop was held for before the reply was
 * packed in slices), and in slices of 256 jobs (the longest; the loop
 * looks at its clock between them, job_info_rpc.c). */
static void job_info_figures(const char *what, const char *names)
{
	job_info_request_msg_t r = { .user_id = NO_VAL32 };
	rpc_viewer_t v = { 0 };
	job_info_pack_t *p;
	double t, slice, max_slice = 0;
	size_t steps = 0, len;
	buf_t *b;

	if (*names && fields_sel_add_list(&r.fields, job_info_fields,
					  names) < 0)
		return;
	p = job_info_pack_begin(&r, &v, 0, time(NULL));
	t = now_ms();
	b = job_info_pack_step(p, SIZE_MAX);
	t = now_ms() - t;
	len = buf_len(b);
	buf_destroy(b);
	p = job_info_pack_begin(&r, &v, 0, time(NULL));
	for (b = NULL; !b; steps++) {
		double t0 = now_ms();

		b = job_info_pack_step(p, 256);
		slice = now_ms() - t0;
		if (slice > max_slice)
			max_slice = slice;
	}
	buf_destroy(b);
	printf("  job info %-10s whole: %9.1f ms (%.1f MiB); slices: "
	       "%.2f ms longest of %zu\n", what, t, len / 1048576.0,
	       max_slice, steps);
}

/* perf record --control: profile only what lies between on and off. */
static void perf_ctl(const char *what)
{
	const char *path = getenv("MILLION_BENCH_PERF_CTL");
	FILE *f = path ? fopen(path, "w") : NULL;

	if (f) {
		fprintf(f, "%s\n", what);
		fclose(f);
	}
}

static void measure(size_t size, double rss0)
{
	size_t have = job_mgr_count(), w = size < 10000 ? size : 10000;
	double t, slice, max_slice = 0, pack_ms, write_ms, rec_ms;
	state_pack_t *sp;
	buf_t *b = NULL;
	size_t steps = 0, len;
	uint32_t cnt;
	recover_t r;
	char err[512];

	for (; have + w < size; have++) {
		submit_one();
		if (have % 100 == 0)
			commit_frames();
	}
	t = now_ms();
	for (; have < size; have++) {
		submit_one();
		if (have % 100 == 0)
			commit_frames();
	}
	commit_frames();
	t = now_ms() - t;
	cnt = job_mgr_count();
	printf("%zu jobs (%u in the table):\n", size, cnt);
	printf("  submit (in the controller): %9.0f jobs/s\n", w * 1e3 / t);
	printf("  rss/job:                    %9.2f KiB\n",
	       (rss_mib() - rss0) * 1024.0 / cnt);

	job_info_figures("%i %T", "job_id,array_job_id,array_task_id,"
			 "array_task_str,job_state,het_job_id,partition,"
			 "priority");
	job_info_figures("all", "");

	if (mixed)              /* a spread like multifactor's, saved */
		for (job_record_t *j = job_mgr_pending_first(); j;
		     j = j->pend_next) {
			j->info.priority = 1000 + (j->info.job_id * 2654435761u) %
						  100000;
			job_mgr_touch(j);
		}
	t = now_ms();
	b = state_save_pack(seq, 2);
	pack_ms = now_ms() - t;
	len = buf_len(b);
	buf_destroy(b);
	printf("  pack whole:                 %9.1f ms (%.1f MiB, %.0f B/job)\n",
	       pack_ms, len / 1048576.0, (double) len / cnt);

	sp = state_save_pack_begin(seq, 2);
	b = NULL;
	while (!b) {
		t = now_ms();
		b = state_save_pack_step(sp, 256);
		slice = now_ms() - t;
		if (slice > max_slice)
			max_slice = slice;
		steps++;
	}
	printf("  pack slices:                %9.2f ms longest of %zu\n",
	       max_slice, steps);
	state_save_pack_seal(b);        /* the snapshot thread's */
	t = now_ms();
	if (state_save_write(conf->state_save_location, b) < 0)
		perror("state_save_write");
	write_ms = now_ms() - t;
	buf_destroy(b);
	printf("  write:                      %9.1f ms\n", write_ms);

	/* recovery into empty tables (the queue is rebuilt from it) */
	job_files_stop();
	job_mgr_fini();
	node_mgr_init(conf);
	part_mgr_init(conf, err, sizeof(err));
	job_mgr_init();
	perf_ctl("enable");
	t = now_ms();
	if (recover_state(conf->state_save_location, &r, err, sizeof(err)) < 0)
		fprintf(stderr, "recover_state: %s\n", err);
	rec_ms = now_ms() - t;
	perf_ctl("disable");
	printf("  recover:                    %9.1f ms (%u jobs)\n", rec_ms,
	       job_mgr_count());
	state_save_changes_reset();
	job_files_start(conf->state_save_location);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	log_options_t lo = { .stderr_level = LOG_LEVEL_QUIET,
			     .file_level = LOG_LEVEL_QUIET };
	char *env[] = { "PATH=/usr/bin:/bin", "SLURM_SUBMIT_DIR=/tmp", NULL };
	size_t def[] = { 1000, 10000, 100000, 1000000 }, n = 4, *sizes = def;
	double rss0;
	char cmd[300];

	log_init("million_bench", lo, NULL);
	if (world_up(dir, "NodeName=n[1-4] NodeAddr=127.0.0.1 CPUs=2 "
		     "RealMemory=1000\n"
		     "PartitionName=debug Nodes=ALL Default=YES\n"
		     "MaxJobCount=2000000\n", false) < 0)
		return 1;
	if (argc > 1 && !strcmp(argv[1], "-m")) {
		mixed = true;
		argc--;
		argv++;
	}
	if (argc > 1) {
		n = (size_t) argc - 1;
		sizes = calloc(n, sizeof(*sizes));
		for (size_t k = 0; k < n; k++)
			sizes[k] = strtoul(argv[k + 1], NULL, 10);
	}
	job_desc_init(&desc);
	desc.name = xstrdup("rpcbench");
	desc.script = xstrdup("#!/bin/sh\ntrue\n");
	desc.work_dir = xstrdup("/tmp");
	desc.environment = xstrarray_dup(env);
	desc.user_id = 0;
	desc.group_id = 0;
	for (size_t i = 0; i < node_mgr_count(); i++)   /* jobs stay pending */
		node_mgr_drain(node_mgr_at(i), "bench", 0);
	frames = buf_create(64 * 1024);
	job_files_start(conf->state_save_location);
	rss0 = rss_mib();
	for (size_t k = 0; k < n; k++)
		measure(sizes[k], rss0);
	job_files_stop();
	buf_destroy(frames);
	job_desc_free_members(&desc);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : 1;
}
