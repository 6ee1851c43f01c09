/* cli_sacct_fields.c — sacct's field table (cli_sacct.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>

#include "cli/cli_fields.h"
#include "cli/cli_sacct.h"
#include "cli/cli_sacct_json.h"
#include "common/job_info.h"
#include "common/parse_util.h"
#include "common/uid_cache.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define JOB(r)  ((r)->job)
#define STEP(r) ((r)->step)

static void put(char **out, const char *s)
{
	xstrcat(out, s ? s : "");
}

/* A number in decimal, as "%u" / "%d" print it, without printf (the
 * numeric columns of 10,000s of rows). */
static void put_u(char **out, uint32_t v)
{
	char buf[12], *p = buf + sizeof(buf);

	*--p = '\0';
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	xstrcat(out, p);
}

static void put_d(char **out, int32_t v)
{
	if (v < 0) {
		xstrcatc(out, '-');
		put_u(out, (uint32_t)0 - (uint32_t)v);
	} else {
		put_u(out, (uint32_t)v);
	}
}

/* ---- value formats ---- */

static void fmt_exit(char **out, uint32_t status)
{
	put_d(out, WIFSIGNALED(status) ? 0 : WEXITSTATUS(status));
	xstrcatc(out, ':');
	put_d(out, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* CPU times: [D-]HH:MM:SS, or MM:SS.mmm under an hour. */
static void fmt_cpu(char **out, uint64_t usec)
{
	uint64_t s = usec / 1000000, ms = (usec % 1000000) / 1000;

	if (s >= 86400)
		xstrfmtcat(out, "%" PRIu64 "-%02" PRIu64 ":%02" PRIu64 ":%02"
			   PRIu64, s / 86400, s % 86400 / 3600,
			   s % 3600 / 60, s % 60);
	else if (s >= 3600)
		xstrfmtcat(out, "%02" PRIu64 ":%02" PRIu64 ":%02" PRIu64,
			   s / 3600, s % 3600 / 60, s % 60);
	else
		xstrfmtcat(out, "%02" PRIu64 ":%02" PRIu64 ".%03" PRIu64,
			   s / 60, s % 60, ms);
}

static int units_mode = SACCT_UNITS_EXACT;

void sacct_set_units(int mode)
{
	units_mode = mode;
}

/* KB counts as Slurm prints them: by default the unit grows while the
 * value stays exact to a half (1536K is 1.50M, 1537K stays); --noconvert
 * keeps K; --units=X prints X, with two decimals where it is not whole. */
static void fmt_kb(char **out, uint64_t kb)
{
	static const char units[] = "KMGTP";
	double v = (double)kb;
	int u = 0;

	if (!kb) {
		put(out, "0");
		return;
	}
	if (units_mode >= 0) {
		for (; u < units_mode; u++)
			v /= 1024;
	} else if (units_mode == SACCT_UNITS_EXACT) {
		while (v >= 1024 && u < 4 && !((uint64_t)v % 512) &&
		       (double)(uint64_t)v == v) {
			v /= 1024;
			u++;
		}
	}
	if ((double)(uint64_t)v == v)
		xstrfmtcat(out, "%" PRIu64 "%c", (uint64_t)v, units[u]);
	else
		xstrfmtcat(out, "%.2f%c", v, units[u]);
}

static void fmt_when(char **out, time_t t)
{
	char buf[64];

	if (!t) {
		put(out, "Unknown");
		return;
	}
	fmt_time(t, buf, sizeof(buf));
	put(out, buf);
}

void sacct_state_text(char **out, uint32_t state, uint32_t requid)
{
	uint32_t base = state & JOB_STATE_BASE;

	put(out, job_state_string(base));
	if (base == JOB_CANCELLED && requid != NO_VAL32)
		xstrfmtcat(out, " by %u", requid);
}

static long elapsed(const sacct_row_t *r)
{
	time_t start = STEP(r) ? STEP(r)->start : JOB(r)->start;
	time_t end = STEP(r) ? STEP(r)->end : JOB(r)->end;

	if (!start)
		return 0;
	if (!end)
		end = r->now;
	if (!STEP(r))           /* as Slurm: the time it ran */
		end -= JOB(r)->time_suspended;
	return end > start ? (long)(end - start) : 0;
}

static void g_suspended(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	cli_fmt_runtime(out, STEP(r) ? 0 : (long)JOB(r)->time_suspended);
}

static uint32_t cpus(const sacct_row_t *r)
{
	return STEP(r) ? STEP(r)->num_cpus : JOB(r)->num_cpus;
}

/* Through the (thread-safe) passwd cache: slurmrestd's workers print
 * rows at the same time. */
static void name_cache(char **out, uint32_t id, bool group)
{
	char name[256];

	if ((group ? gid_cache_name((gid_t)id, name, sizeof(name)) :
		     uid_cache_name((uid_t)id, name, sizeof(name))) == 0)
		put(out, name);
	else
		put_u(out, id);
}

/* "mem=" of a TRES string, or NULL. */
static char *tres_mem(const char *tres)
{
	const char *p = tres ? strstr(tres, "mem=") : NULL;

	if (!p || (p != tres && p[-1] != ','))
		return NULL;
	p += 4;
	return xstrndup(p, strcspn(p, ","));
}

/* ---- getters ---- */

static void g_jobid(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	const acct_job_rec_t *j = JOB(r);

	if (j->het_job_id) {            /* a hetjob component: "123+1" */
		put_u(out, j->het_job_id);
		xstrcatc(out, '+');
		put_u(out, j->het_job_offset);
	} else if (j->array_job_id && j->array_task_id != NO_VAL32) {
		put_u(out, j->array_job_id);
		xstrcatc(out, '_');
		put_u(out, j->array_task_id);
	} else if (j->array_task_str && j->array_task_str[0]) {
		xstrfmtcat(out, "%u_[%s]", j->array_job_id ? j->array_job_id :
			   j->job_id, j->array_task_str);
	} else {
		put_u(out, j->job_id);
	}
}

static void step_suffix(char **out, const acct_step_rec_t *s)
{
	int32_t id = (int32_t)s->step_id;

	if (id == ACCT_STEP_BATCH) {
		put(out, ".batch");
	} else if (id == ACCT_STEP_EXTERN) {
		put(out, ".extern");
	} else {
		xstrcatc(out, '.');
		put_d(out, id);
	}
}

static void g_jobid_full(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	g_jobid(out, r, NULL);
	if (STEP(r))
		step_suffix(out, STEP(r));
}

static void g_jobidraw(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	put_u(out, JOB(r)->job_id);
	if (STEP(r))
		step_suffix(out, STEP(r));
}

static void g_jobname(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	put(out, STEP(r) ? STEP(r)->name : JOB(r)->name);
}

#define JOB_ONLY_STR(fn, member)                                        \
	static void fn(char **out, const void *rec, const cli_ctx_t *ctx)   \
	{                                                                   \
		const sacct_row_t *r = rec;                                 \
		if (!STEP(r))                                               \
			put(out, JOB(r)->member);                           \
	}
JOB_ONLY_STR(g_partition, partition)
JOB_ONLY_STR(g_qos, qos)
JOB_ONLY_STR(g_wckey, wckey)
JOB_ONLY_STR(g_workdir, work_dir)
JOB_ONLY_STR(g_comment, comment)
JOB_ONLY_STR(g_submitline, submit_line)
JOB_ONLY_STR(g_constraints, constraints)
JOB_ONLY_STR(g_reqtres, tres_req)
JOB_ONLY_STR(g_cluster, cluster)

/* The job's bundle on its row, each step's on the step's (Slurm 25.05
 * records both; its --json has it on the job only). */
static void g_container(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	put(out, STEP(r) ? STEP(r)->container : JOB(r)->container);
}

static void g_account(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	put(out, JOB(r)->account);
}

static void g_user(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	if (!STEP(r))
		name_cache(out, JOB(r)->uid, false);
}

static void g_uid(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	if (!STEP(r))
		put_u(out, JOB(r)->uid);
}

static void g_wckeyid(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	if (!STEP(r))
		put_u(out, JOB(r)->wckey_id);
}

static void g_group(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	if (!STEP(r))
		name_cache(out, JOB(r)->gid, true);
}

static void g_gid(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	if (!STEP(r))
		put_u(out, JOB(r)->gid);
}

static void g_state(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	if (STEP(r))
		sacct_state_text(out, STEP(r)->state, STEP(r)->requid);
	else
		sacct_state_text(out, JOB(r)->state, JOB(r)->requid);
}

static void g_exit(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	fmt_exit(out, STEP(r) ? STEP(r)->exit_code : JOB(r)->exit_code);
}

static void g_derived(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	if (!STEP(r))
		fmt_exit(out, JOB(r)->derived_ec);
}

static void g_submit(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	fmt_when(out, STEP(r) ? STEP(r)->start : JOB(r)->submit);
}

static void g_eligible(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	fmt_when(out, STEP(r) ? STEP(r)->start : JOB(r)->eligible);
}

static void g_start(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	fmt_when(out, STEP(r) ? STEP(r)->start : JOB(r)->start);
}

static void g_end(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	fmt_when(out, STEP(r) ? STEP(r)->end : JOB(r)->end);
}

static void g_elapsed(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	cli_fmt_runtime(out, elapsed(r));
}

static void g_elapsedraw(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	xstrfmtcat(out, "%ld", elapsed(r));
}

static void g_timelimit(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	char buf[64];

	if (STEP(r))
		return;
	if (JOB(r)->time_limit == NO_VAL32) {
		put(out, "Partition_Limit");
		return;
	}
	fmt_time_limit(JOB(r)->time_limit, buf, sizeof(buf));
	put(out, buf);
}

static void g_timelimitraw(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	if (STEP(r))
		return;
	if (JOB(r)->time_limit == INFINITE32)
		put(out, "UNLIMITED");
	else if (JOB(r)->time_limit == NO_VAL32)
		put(out, "Partition_Limit");
	else
		put_u(out, JOB(r)->time_limit);
}

static void g_nnodes(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	put_u(out, STEP(r) ? STEP(r)->num_nodes : JOB(r)->num_nodes);
}

static void g_ncpus(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	put_u(out, cpus(r));
}

static void g_reqcpus(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	put_u(out, STEP(r) ? STEP(r)->num_cpus : JOB(r)->req_cpus);
}

static void g_alloctres(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	put(out, STEP(r) ? STEP(r)->tres_alloc : JOB(r)->tres_alloc);
}

static void g_reqmem(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	char *m;

	if (STEP(r))
		return;
	m = tres_mem(JOB(r)->tres_req);
	put(out, m ? m : "0");
	xfree(m);
}

static void g_nodelist(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	const char *n = STEP(r) ? STEP(r)->nodes : JOB(r)->nodes;

	put(out, n && *n ? n : "None assigned");
}

static void g_reason(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	if (!STEP(r))
		put(out, job_reason_string(JOB(r)->reason));
}

static void g_ntasks(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	if (STEP(r))
		put_u(out, STEP(r)->ntasks);
}

static void g_maxrss(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	if (STEP(r))
		fmt_kb(out, STEP(r)->max_rss_kb);
}

static void g_averss(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	if (STEP(r))
		fmt_kb(out, STEP(r)->ave_rss_kb);
}

static void g_maxvm(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	if (STEP(r))
		fmt_kb(out, STEP(r)->max_vsize_kb);
}

static void g_avevm(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	if (STEP(r))
		fmt_kb(out, STEP(r)->ave_vsize_kb);
}

static void g_maxrssnode(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	if (STEP(r))
		put(out, STEP(r)->nodes);
}

static void g_maxtask(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	if (STEP(r))
		put(out, "0");
}

static void g_avecpu(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	const acct_step_rec_t *s = STEP(r);

	if (s)
		fmt_cpu(out, (s->user_usec + s->sys_usec) /
			(s->ntasks ? s->ntasks : 1));
}

static void g_totalcpu(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	const acct_step_rec_t *s = STEP(r);

	fmt_cpu(out, s ? s->user_usec + s->sys_usec : r->steps_cpu_usec);
}

static void g_usercpu(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	if (STEP(r))
		fmt_cpu(out, STEP(r)->user_usec);
}

static void g_syscpu(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	if (STEP(r))
		fmt_cpu(out, STEP(r)->sys_usec);
}

static void g_cputime(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	cli_fmt_runtime(out, elapsed(r) * (long)cpus(r));
}

static void g_cputimeraw(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	xstrfmtcat(out, "%ld", elapsed(r) * (long)cpus(r));
}

static void g_restarts(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	if (!STEP(r))
		put_u(out, JOB(r)->restart_cnt);
}

static void g_priority(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	if (!STEP(r))
		put_u(out, JOB(r)->priority);
}

/* Joules: the step's, or the sum of the job's steps (Slurm's sacct adds
 * the steps' energy into the job row). */
static uint64_t energy_of(const sacct_row_t *r)
{
	return STEP(r) ? STEP(r)->consumed_energy : r->steps_energy;
}

static void g_energy(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	char buf[32];

	fmt_energy(energy_of(r), buf, sizeof(buf));
	put(out, buf);
}

static void g_energy_raw(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	xstrfmtcat(out, "%" PRIu64, energy_of(r));
}

static void g_blank(char **out, const void *rec, const cli_ctx_t *ctx)
{
	const sacct_row_t *r = rec;

	(void)out;
	(void)r;
}

/* Sorted as sacct -e lists them; the rows without a name (JSON members
 * only) follow them.  Then: the job and step record members the getter
 * reads (acct_job_rec_fields / acct_step_rec_fields names), for the
 * query to carry only those (test_sacct_needs checks them; --json asks
 * for every member), and where the value sits in a job and in a step of
 * the JSON, with its builder (cli_sacct_json.c; none: the text).  A job
 * row's TotalCPU and energy read its steps' too. */
const sacct_field_t sacct_fields[] = {
	{ SF("Account", 10, g_account), "account", NULL,
	  "account", NULL, NULL },
	{ SF("AdminComment", 15, g_blank), NULL, NULL,
	  "comment/administrator", NULL, NULL },
	{ SF("AllocCPUS", 10, g_ncpus), "num_cpus", "num_cpus" },
	{ SF("AllocGRES", -12, g_blank), NULL, NULL },
	{ SF("AllocNodes", 10, g_nnodes), "num_nodes", "num_nodes",
	  "allocation_nodes", NULL, sj_nnodes },
	{ SF("AllocTRES", 10, g_alloctres), "tres_alloc", "tres_alloc",
	  "tres/allocated", "tres/allocated", sj_tres_alloc },
	{ SF("AssocID", 7, g_blank), NULL, NULL },
	{ SF("AveCPU", 10, g_avecpu), NULL, "user_usec,sys_usec,ntasks" },
	{ SF("AveCPUFreq", 10, g_blank), NULL, NULL,
	  NULL, "statistics/CPU/actual_frequency", sj_zero },
	{ SF("AveDiskRead", 14, g_blank), NULL, NULL },
	{ SF("AveDiskWrite", 14, g_blank), NULL, NULL },
	{ SF("AvePages", 10, g_blank), NULL, NULL },
	{ SF("AveRSS", 10, g_averss), NULL, "ave_rss_kb" },
	{ SF("AveVMSize", 10, g_avevm), NULL, "ave_vsize_kb" },
	{ SF("Cluster", 10, g_cluster), "cluster", NULL,
	  "cluster", NULL, NULL },
	{ SF("Comment", 14, g_comment), "comment", NULL,
	  "comment/job", NULL, NULL },
	{ SF("Constraints", 19, g_constraints), "constraints", NULL,
	  "constraints", NULL, NULL },
	{ SF("Container", 19, g_container), "container", "container",
	  "container", NULL, NULL },
	{ SF("ConsumedEnergy", 14, g_energy), NULL, "consumed_energy" },
	{ SF("ConsumedEnergyRaw", 17, g_energy_raw), NULL, "consumed_energy",
	  NULL, "statistics/energy/consumed", sj_energy },
	{ SF("CPUTime", 10, g_cputime),
	  "start,end,num_cpus,time_suspended", "start,end,num_cpus" },
	{ SF("CPUTimeRAW", 10, g_cputimeraw),
	  "start,end,num_cpus,time_suspended", "start,end,num_cpus" },
	{ SF("DerivedExitCode", 15, g_derived), "derived_ec", NULL,
	  "derived_exit_code", NULL, sj_derived },
	{ SF("Elapsed", 10, g_elapsed), "start,end,time_suspended",
	  "start,end" },
	{ SF("ElapsedRaw", 10, g_elapsedraw), "start,end,time_suspended",
	  "start,end",
	  "time/elapsed", "time/elapsed", sj_elapsed },
	{ SF("Eligible", 19, g_eligible), "eligible", "start",
	  "time/eligible", NULL, sj_eligible },
	{ SF("End", 19, g_end), "end", "end",
	  "time/end", "time/end", sj_end },
	{ SF("ExitCode", 8, g_exit), "exit_code", "exit_code",
	  "exit_code", "exit_code", sj_exit },
	{ SF("GID", 6, g_gid), "gid", NULL },
	{ SF("Group", 9, g_group), "gid", NULL,
	  "group", NULL, NULL },
	{ SF("JobID", -12, g_jobid_full),
	  "job_id,array_job_id,array_task_id,array_task_str,het_job_id,"
	  "het_job_offset", "step_id" },
	{ SF("JobIDRaw", -12, g_jobidraw), "job_id", "step_id",
	  "job_id", "step/id", sj_jobid },
	{ SF("JobName", 10, g_jobname), "name", "name",
	  "name", "step/name", NULL },
	{ SF("MaxDiskRead", 12, g_blank), NULL, NULL },
	{ SF("MaxDiskReadNode", 15, g_blank), NULL, NULL },
	{ SF("MaxDiskReadTask", 15, g_blank), NULL, NULL },
	{ SF("MaxDiskWrite", 12, g_blank), NULL, NULL },
	{ SF("MaxDiskWriteNode", 16, g_blank), NULL, NULL },
	{ SF("MaxDiskWriteTask", 16, g_blank), NULL, NULL },
	{ SF("MaxPages", 8, g_blank), NULL, NULL },
	{ SF("MaxPagesNode", 12, g_blank), NULL, NULL },
	{ SF("MaxPagesTask", 14, g_blank), NULL, NULL },
	{ SF("MaxRSS", 10, g_maxrss), NULL, "max_rss_kb" },
	{ SF("MaxRSSNode", 10, g_maxrssnode), NULL, "nodes" },
	{ SF("MaxRSSTask", 10, g_maxtask), NULL, NULL },
	{ SF("MaxVMSize", 10, g_maxvm), NULL, "max_vsize_kb" },
	{ SF("MaxVMSizeNode", 14, g_maxrssnode), NULL, "nodes" },
	{ SF("MaxVMSizeTask", 14, g_maxtask), NULL, NULL },
	{ SF("MinCPU", 10, g_avecpu), NULL, "user_usec,sys_usec,ntasks" },
	{ SF("MinCPUNode", 10, g_maxrssnode), NULL, "nodes" },
	{ SF("MinCPUTask", 10, g_maxtask), NULL, NULL },
	{ SF("NCPUS", 10, g_ncpus), "num_cpus", "num_cpus" },
	{ SF("NNodes", 8, g_nnodes), "num_nodes", "num_nodes",
	  NULL, "nodes/count", sj_nnodes },
	{ SF("NodeList", 15, g_nodelist), "nodes", "nodes",
	  "nodes", "nodes/range", NULL },
	{ SF("NTasks", 8, g_ntasks), NULL, "ntasks",
	  NULL, "tasks/count", sj_ntasks },
	{ SF("Partition", 10, g_partition), "partition", NULL,
	  "partition", NULL, NULL },
	{ SF("Priority", 10, g_priority), "priority", NULL,
	  "priority", NULL, sj_priority },
	{ SF("QOS", 10, g_qos), "qos", NULL,
	  "qos", NULL, NULL },
	{ SF("Reason", 22, g_reason), "reason", NULL,
	  "state/reason", NULL, NULL },
	{ SF("ReqCPUFreqGov", 13, g_blank), NULL, NULL,
	  NULL, "CPU/governor", NULL },
	{ SF("ReqCPUFreqMax", 13, g_blank), NULL, NULL,
	  NULL, "CPU/requested_frequency/max", sj_unset },
	{ SF("ReqCPUFreqMin", 13, g_blank), NULL, NULL,
	  NULL, "CPU/requested_frequency/min", sj_unset },
	{ SF("ReqCPUS", 8, g_reqcpus), "req_cpus", "num_cpus",
	  "required/CPUs", NULL, sj_reqcpus },
	{ SF("ReqMem", 10, g_reqmem), "tres_req", NULL },
	{ SF("ReqTRES", 10, g_reqtres), "tres_req", NULL,
	  "tres/requested", NULL, sj_tres_req },
	{ SF("Restarts", 8, g_restarts), "restart_cnt", NULL,
	  "restart_cnt", NULL, sj_restarts },
	{ SF("Start", 19, g_start), "start", "start",
	  "time/start", "time/start", sj_start },
	{ SF("State", 10, g_state), "state,requid", "state,requid",
	  "state/current", "state", sj_state },
	{ SF("Submit", 19, g_submit), "submit", "start",
	  "time/submission", NULL, sj_submit },
	{ SF("SubmitLine", 20, g_submitline), "submit_line", NULL,
	  "submit_line", NULL, NULL },
	{ SF("Suspended", 10, g_suspended), "time_suspended", NULL,
	  "time/suspended", "time/suspended", sj_suspended },
	{ SF("SystemCPU", 10, g_syscpu), NULL, "sys_usec",
	  "time/system", "time/system", sj_sys },
	{ SF("Timelimit", 10, g_timelimit), "time_limit", NULL,
	  "time/limit", "time/limit", sj_limit },
	{ SF("TimelimitRaw", 10, g_timelimitraw), "time_limit", NULL },
	{ SF("TotalCPU", 10, g_totalcpu), NULL, "user_usec,sys_usec",
	  "time/total", "time/total", sj_total },
	{ SF("TRESUsageInAve", 14, g_blank), NULL, NULL },
	{ SF("TRESUsageInMax", 14, g_blank), NULL, NULL },
	{ SF("TRESUsageInMaxNode", 18, g_blank), NULL, NULL },
	{ SF("TRESUsageInMaxTask", 18, g_blank), NULL, NULL },
	{ SF("TRESUsageInMin", 14, g_blank), NULL, NULL },
	{ SF("TRESUsageInMinNode", 18, g_blank), NULL, NULL },
	{ SF("TRESUsageInMinTask", 18, g_blank), NULL, NULL },
	{ SF("TRESUsageInTot", 14, g_blank), NULL, NULL },
	{ SF("TRESUsageOutAve", 15, g_blank), NULL, NULL },
	{ SF("TRESUsageOutMax", 15, g_blank), NULL, NULL },
	{ SF("TRESUsageOutMaxNode", 19, g_blank), NULL, NULL },
	{ SF("TRESUsageOutMaxTask", 19, g_blank), NULL, NULL },
	{ SF("TRESUsageOutTot", 15, g_blank), NULL, NULL },
	{ SF("UID", 6, g_uid), "uid", NULL },
	{ SF("User", 9, g_user), "uid", NULL,
	  "user", NULL, NULL },
	{ SF("UserCPU", 10, g_usercpu), NULL, "user_usec",
	  "time/user", "time/user", sj_user },
	{ SF("WCKey", 10, g_wckey), "wckey", NULL,
	  "wckey/wckey", NULL, sj_wckey },
	{ SF("WCKeyID", 7, g_wckeyid), "wckey_id", NULL },
	{ SF("WorkDir", 20, g_workdir), "work_dir", NULL,
	  "working_directory", NULL, NULL },
	/* JSON members without a column (sacct -e does not list them) */
	{ SF(NULL, 0, NULL), NULL, NULL, "array", NULL, sj_array },
	{ SF(NULL, 0, NULL), NULL, NULL, "association", NULL, sj_assoc },
	{ SF(NULL, 0, NULL), NULL, NULL, "comment/system", NULL, sj_empty_str },
	{ SF(NULL, 0, NULL), NULL, NULL, "flags", NULL, sj_empty_list },
	{ SF(NULL, 0, NULL), "het_job_id,het_job_offset", NULL, "het", NULL,
	  sj_het },
	{ SF(NULL, 0, NULL), NULL, NULL, "hold", NULL, sj_hold },
	{ SF(NULL, 0, NULL), NULL, NULL, "kill_request_user", "kill_request_user",
	  sj_killer },
	{ SF(NULL, 0, NULL), NULL, NULL, "mcs/label", NULL, sj_empty_str },
	{ SF(NULL, 0, NULL), NULL, NULL, "required/memory_per_cpu", NULL,
	  sj_mem_cpu },
	{ SF(NULL, 0, NULL), NULL, NULL, "required/memory_per_node", NULL,
	  sj_mem_node },
	{ SF(NULL, 0, NULL), NULL, NULL, "reservation", NULL, sj_resv },
	{ SF(NULL, 0, NULL), NULL, NULL, "script", NULL, sj_script },
	{ SF(NULL, 0, NULL), NULL, NULL, "time/planned", NULL, sj_unset },
	{ SF(NULL, 0, NULL), "wckey", NULL, "wckey/flags", NULL,
	  sj_wckey_flags },
	{ SF(NULL, 0, NULL), NULL, NULL, NULL, "nodes/list", sj_nodelist },
	{ SF(NULL, 0, NULL), NULL, NULL, NULL, "pid", sj_empty_str },
	{ SF(NULL, 0, NULL), NULL, NULL, NULL, "task/distribution", sj_empty_str },
	{ SF(NULL, 0, NULL), NULL, NULL, NULL, "tres/requested", sj_step_usage },
	{ SF(NULL, 0, NULL), NULL, NULL, NULL, "tres/consumed", sj_step_consumed },
	{ SF(NULL, 0, NULL), NULL, NULL, "steps", NULL, sj_steps },
	{ SF(NULL, 0, NULL), NULL, NULL, NULL, NULL, NULL }
};

int sacct_field_needs(const sacct_field_t *f, fields_sel_t *job,
		      fields_sel_t *step)
{
	int rc = 0;

	if (f->job_needs &&
	    fields_sel_add_list(job, acct_job_rec_fields, f->job_needs) < 0)
		rc = -1;
	if (f->step_needs &&
	    fields_sel_add_list(step, acct_step_rec_fields, f->step_needs) < 0)
		rc = -1;
	return rc;
}

json_object *sacct_table_json(const sacct_field_t *tab, const sacct_row_t *r,
			      const char *const *nullable)
{
	json_object *o = json_object_new_object();

	for (const sacct_field_t *f = tab; f->f.text || f->json; f++) {
		json_object *v;

		if (!f->job_key)
			continue;
		if (f->json) {
			bool null_ok = false;

			for (const char *const *k = nullable; k && *k; k++)
				null_ok |= !strcmp(*k, f->job_key);
			v = f->json(r);
			if (!v && !null_ok)
				continue;
		} else {
			char *text = cli_table_text(&f->f, r, NULL);

			v = json_object_new_string(text);
			xfree(text);
		}
		json_object_object_add(o, f->job_key, v);
	}
	return o;
}

void sacct_fields_help(FILE *out)
{
	cli_table_help(out, CLI_TABLE(sacct_fields));
}
