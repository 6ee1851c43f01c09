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

/* KB counts as Slurm prints them: the unit grows only while exact. */
static void fmt_kb(char **out, uint64_t kb)
{
	static const char units[] = "KMGTP";
	int u = 0;

	if (!kb) {
		put(out, "0");
		return;
	}
	while (kb >= 1024 && !(kb % 1024) && u < 4) {
		kb /= 1024;
		u++;
	}
	xstrfmtcat(out, "%" PRIu64 "%c", kb, units[u]);
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
	return end > start ? (long)(end - start) : 0;
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

static void g_jobid(char **out, const sacct_row_t *r)
{
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

static void g_jobid_full(char **out, const sacct_row_t *r)
{
	g_jobid(out, r);
	if (STEP(r))
		step_suffix(out, STEP(r));
}

static void g_jobidraw(char **out, const sacct_row_t *r)
{
	put_u(out, JOB(r)->job_id);
	if (STEP(r))
		step_suffix(out, STEP(r));
}

static void g_jobname(char **out, const sacct_row_t *r)
{
	put(out, STEP(r) ? STEP(r)->name : JOB(r)->name);
}

#define JOB_ONLY_STR(fn, member)                                        \
	static void fn(char **out, const sacct_row_t *r)                    \
	{                                                                   \
		if (!STEP(r))                                               \
			put(out, JOB(r)->member);                           \
	}
JOB_ONLY_STR(g_partition, partition)
JOB_ONLY_STR(g_qos, qos)
JOB_ONLY_STR(g_workdir, work_dir)
JOB_ONLY_STR(g_comment, comment)
JOB_ONLY_STR(g_submitline, submit_line)
JOB_ONLY_STR(g_constraints, constraints)
JOB_ONLY_STR(g_reqtres, tres_req)
JOB_ONLY_STR(g_cluster, cluster)

static void g_account(char **out, const sacct_row_t *r)
{
	put(out, JOB(r)->account);
}

static void g_user(char **out, const sacct_row_t *r)
{
	if (!STEP(r))
		name_cache(out, JOB(r)->uid, false);
}

static void g_uid(char **out, const sacct_row_t *r)
{
	if (!STEP(r))
		put_u(out, JOB(r)->uid);
}

static void g_group(char **out, const sacct_row_t *r)
{
	if (!STEP(r))
		name_cache(out, JOB(r)->gid, true);
}

static void g_gid(char **out, const sacct_row_t *r)
{
	if (!STEP(r))
		put_u(out, JOB(r)->gid);
}

static void g_state(char **out, const sacct_row_t *r)
{
	if (STEP(r))
		sacct_state_text(out, STEP(r)->state, STEP(r)->requid);
	else
		sacct_state_text(out, JOB(r)->state, JOB(r)->requid);
}

static void g_exit(char **out, const sacct_row_t *r)
{
	fmt_exit(out, STEP(r) ? STEP(r)->exit_code : JOB(r)->exit_code);
}

static void g_derived(char **out, const sacct_row_t *r)
{
	if (!STEP(r))
		fmt_exit(out, JOB(r)->derived_ec);
}

static void g_submit(char **out, const sacct_row_t *r)
{
	fmt_when(out, STEP(r) ? STEP(r)->start : JOB(r)->submit);
}

static void g_eligible(char **out, const sacct_row_t *r)
{
	fmt_when(out, STEP(r) ? STEP(r)->start : JOB(r)->eligible);
}

static void g_start(char **out, const sacct_row_t *r)
{
	fmt_when(out, STEP(r) ? STEP(r)->start : JOB(r)->start);
}

static void g_end(char **out, const sacct_row_t *r)
{
	fmt_when(out, STEP(r) ? STEP(r)->end : JOB(r)->end);
}

static void g_elapsed(char **out, const sacct_row_t *r)
{
	cli_fmt_runtime(out, elapsed(r));
}

static void g_elapsedraw(char **out, const sacct_row_t *r)
{
	xstrfmtcat(out, "%ld", elapsed(r));
}

static void g_timelimit(char **out, const sacct_row_t *r)
{
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

static void g_timelimitraw(char **out, const sacct_row_t *r)
{
	if (STEP(r))
		return;
	if (JOB(r)->time_limit == INFINITE32)
		put(out, "UNLIMITED");
	else if (JOB(r)->time_limit == NO_VAL32)
		put(out, "Partition_Limit");
	else
		put_u(out, JOB(r)->time_limit);
}

static void g_nnodes(char **out, const sacct_row_t *r)
{
	put_u(out, STEP(r) ? STEP(r)->num_nodes : JOB(r)->num_nodes);
}

static void g_ncpus(char **out, const sacct_row_t *r)
{
	put_u(out, cpus(r));
}

static void g_reqcpus(char **out, const sacct_row_t *r)
{
	put_u(out, STEP(r) ? STEP(r)->num_cpus : JOB(r)->req_cpus);
}

static void g_alloctres(char **out, const sacct_row_t *r)
{
	put(out, STEP(r) ? STEP(r)->tres_alloc : JOB(r)->tres_alloc);
}

static void g_reqmem(char **out, const sacct_row_t *r)
{
	char *m;

	if (STEP(r))
		return;
	m = tres_mem(JOB(r)->tres_req);
	put(out, m ? m : "0");
	xfree(m);
}

static void g_nodelist(char **out, const sacct_row_t *r)
{
	const char *n = STEP(r) ? STEP(r)->nodes : JOB(r)->nodes;

	put(out, n && *n ? n : "None assigned");
}

static void g_reason(char **out, const sacct_row_t *r)
{
	if (!STEP(r))
		put(out, job_reason_string(JOB(r)->reason));
}

static void g_ntasks(char **out, const sacct_row_t *r)
{
	if (STEP(r))
		put_u(out, STEP(r)->ntasks);
}

static void g_maxrss(char **out, const sacct_row_t *r)
{
	if (STEP(r))
		fmt_kb(out, STEP(r)->max_rss_kb);
}

static void g_averss(char **out, const sacct_row_t *r)
{
	if (STEP(r))
		fmt_kb(out, STEP(r)->ave_rss_kb);
}

static void g_maxvm(char **out, const sacct_row_t *r)
{
	if (STEP(r))
		fmt_kb(out, STEP(r)->max_vsize_kb);
}

static void g_avevm(char **out, const sacct_row_t *r)
{
	if (STEP(r))
		fmt_kb(out, STEP(r)->ave_vsize_kb);
}

static void g_maxrssnode(char **out, const sacct_row_t *r)
{
	if (STEP(r))
		put(out, STEP(r)->nodes);
}

static void g_maxtask(char **out, const sacct_row_t *r)
{
	if (STEP(r))
		put(out, "0");
}

static void g_avecpu(char **out, const sacct_row_t *r)
{
	const acct_step_rec_t *s = STEP(r);

	if (s)
		fmt_cpu(out, (s->user_usec + s->sys_usec) /
			(s->ntasks ? s->ntasks : 1));
}

static void g_totalcpu(char **out, const sacct_row_t *r)
{
	const acct_step_rec_t *s = STEP(r);

	fmt_cpu(out, s ? s->user_usec + s->sys_usec : r->steps_cpu_usec);
}

static void g_usercpu(char **out, const sacct_row_t *r)
{
	if (STEP(r))
		fmt_cpu(out, STEP(r)->user_usec);
}

static void g_syscpu(char **out, const sacct_row_t *r)
{
	if (STEP(r))
		fmt_cpu(out, STEP(r)->sys_usec);
}

static void g_cputime(char **out, const sacct_row_t *r)
{
	cli_fmt_runtime(out, elapsed(r) * (long)cpus(r));
}

static void g_cputimeraw(char **out, const sacct_row_t *r)
{
	xstrfmtcat(out, "%ld", elapsed(r) * (long)cpus(r));
}

static void g_restarts(char **out, const sacct_row_t *r)
{
	if (!STEP(r))
		put_u(out, JOB(r)->restart_cnt);
}

static void g_priority(char **out, const sacct_row_t *r)
{
	if (!STEP(r))
		put_u(out, JOB(r)->priority);
}

/* Joules: the step's, or the sum of the job's steps (Slurm's sacct adds
 * the steps' energy into the job row). */
static uint64_t energy_of(const sacct_row_t *r)
{
	return STEP(r) ? STEP(r)->consumed_energy : r->steps_energy;
}

static void g_energy(char **out, const sacct_row_t *r)
{
	char buf[32];

	fmt_energy(energy_of(r), buf, sizeof(buf));
	put(out, buf);
}

static void g_energy_raw(char **out, const sacct_row_t *r)
{
	xstrfmtcat(out, "%" PRIu64, energy_of(r));
}

static void g_blank(char **out, const sacct_row_t *r)
{
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
	{ "Account", 10, g_account, "account", NULL,
	  "account", NULL, NULL },
	{ "AdminComment", 14, g_blank, NULL, NULL,
	  "comment/administrator", NULL, NULL },
	{ "AllocCPUS", 10, g_ncpus, "num_cpus", "num_cpus" },
	{ "AllocGRES", -12, g_blank, NULL, NULL },
	{ "AllocNodes", 10, g_nnodes, "num_nodes", "num_nodes",
	  "allocation_nodes", NULL, sj_nnodes },
	{ "AllocTRES", 10, g_alloctres, "tres_alloc", "tres_alloc",
	  "tres/allocated", "tres/allocated", sj_tres_alloc },
	{ "AssocID", 10, g_blank, NULL, NULL },
	{ "AveCPU", 10, g_avecpu, NULL, "user_usec,sys_usec,ntasks" },
	{ "AveCPUFreq", 10, g_blank, NULL, NULL,
	  NULL, "statistics/CPU/actual_frequency", sj_zero },
	{ "AveDiskRead", 14, g_blank, NULL, NULL },
	{ "AveDiskWrite", 14, g_blank, NULL, NULL },
	{ "AvePages", 10, g_blank, NULL, NULL },
	{ "AveRSS", 10, g_averss, NULL, "ave_rss_kb" },
	{ "AveVMSize", 10, g_avevm, NULL, "ave_vsize_kb" },
	{ "Cluster", 10, g_cluster, "cluster", NULL,
	  "cluster", NULL, NULL },
	{ "Comment", 14, g_comment, "comment", NULL,
	  "comment/job", NULL, NULL },
	{ "Constraints", 19, g_constraints, "constraints", NULL,
	  "constraints", NULL, NULL },
	{ "ConsumedEnergy", 14, g_energy, NULL, "consumed_energy" },
	{ "ConsumedEnergyRaw", 17, g_energy_raw, NULL, "consumed_energy",
	  NULL, "statistics/energy/consumed", sj_energy },
	{ "CPUTime", 10, g_cputime,
	  "start,end,num_cpus", "start,end,num_cpus" },
	{ "CPUTimeRAW", 10, g_cputimeraw,
	  "start,end,num_cpus", "start,end,num_cpus" },
	{ "DerivedExitCode", 15, g_derived, "derived_ec", NULL,
	  "derived_exit_code", NULL, sj_derived },
	{ "Elapsed", 10, g_elapsed, "start,end", "start,end" },
	{ "ElapsedRaw", 10, g_elapsedraw, "start,end", "start,end",
	  "time/elapsed", "time/elapsed", sj_elapsed },
	{ "Eligible", 19, g_eligible, "eligible", "start",
	  "time/eligible", NULL, sj_eligible },
	{ "End", 19, g_end, "end", "end",
	  "time/end", "time/end", sj_end },
	{ "ExitCode", 8, g_exit, "exit_code", "exit_code",
	  "exit_code", "exit_code", sj_exit },
	{ "GID", 6, g_gid, "gid", NULL },
	{ "Group", 9, g_group, "gid", NULL,
	  "group", NULL, NULL },
	{ "JobID", -12, g_jobid_full,
	  "job_id,array_job_id,array_task_id,array_task_str,het_job_id,"
	  "het_job_offset", "step_id" },
	{ "JobIDRaw", -12, g_jobidraw, "job_id", "step_id",
	  "job_id", "step/id", sj_jobid },
	{ "JobName", 10, g_jobname, "name", "name",
	  "name", "step/name", NULL },
	{ "MaxDiskRead", 12, g_blank, NULL, NULL },
	{ "MaxDiskReadNode", 15, g_blank, NULL, NULL },
	{ "MaxDiskReadTask", 15, g_blank, NULL, NULL },
	{ "MaxDiskWrite", 12, g_blank, NULL, NULL },
	{ "MaxDiskWriteNode", 16, g_blank, NULL, NULL },
	{ "MaxDiskWriteTask", 16, g_blank, NULL, NULL },
	{ "MaxPages", 8, g_blank, NULL, NULL },
	{ "MaxPagesNode", 12, g_blank, NULL, NULL },
	{ "MaxPagesTask", 14, g_blank, NULL, NULL },
	{ "MaxRSS", 10, g_maxrss, NULL, "max_rss_kb" },
	{ "MaxRSSNode", 10, g_maxrssnode, NULL, "nodes" },
	{ "MaxRSSTask", 10, g_maxtask, NULL, NULL },
	{ "MaxVMSize", 10, g_maxvm, NULL, "max_vsize_kb" },
	{ "MaxVMSizeNode", 14, g_maxrssnode, NULL, "nodes" },
	{ "MaxVMSizeTask", 14, g_maxtask, NULL, NULL },
	{ "MinCPU", 10, g_avecpu, NULL, "user_usec,sys_usec,ntasks" },
	{ "MinCPUNode", 10, g_maxrssnode, NULL, "nodes" },
	{ "MinCPUTask", 10, g_maxtask, NULL, NULL },
	{ "NCPUS", 10, g_ncpus, "num_cpus", "num_cpus" },
	{ "NNodes", 8, g_nnodes, "num_nodes", "num_nodes",
	  NULL, "nodes/count", sj_nnodes },
	{ "NodeList", 15, g_nodelist, "nodes", "nodes",
	  "nodes", "nodes/range", NULL },
	{ "NTasks", 8, g_ntasks, NULL, "ntasks",
	  NULL, "tasks/count", sj_ntasks },
	{ "Partition", 10, g_partition, "partition", NULL,
	  "partition", NULL, NULL },
	{ "Priority", 10, g_priority, "priority", NULL,
	  "priority", NULL, sj_priority },
	{ "QOS", 10, g_qos, "qos", NULL,
	  "qos", NULL, NULL },
	{ "Reason", 20, g_reason, "reason", NULL,
	  "state/reason", NULL, NULL },
	{ "ReqCPUFreqGov", 13, g_blank, NULL, NULL,
	  NULL, "CPU/governor", NULL },
	{ "ReqCPUFreqMax", 13, g_blank, NULL, NULL,
	  NULL, "CPU/requested_frequency/max", sj_unset },
	{ "ReqCPUFreqMin", 13, g_blank, NULL, NULL,
	  NULL, "CPU/requested_frequency/min", sj_unset },
	{ "ReqCPUS", 8, g_reqcpus, "req_cpus", "num_cpus",
	  "required/CPUs", NULL, sj_reqcpus },
	{ "ReqMem", 10, g_reqmem, "tres_req", NULL },
	{ "ReqTRES", 10, g_reqtres, "tres_req", NULL,
	  "tres/requested", NULL, sj_tres_req },
	{ "Restarts", 8, g_restarts, "restart_cnt", NULL,
	  "restart_cnt", NULL, sj_restarts },
	{ "Start", 19, g_start, "start", "start",
	  "time/start", "time/start", sj_start },
	{ "State", 10, g_state, "state,requid", "state,requid",
	  "state/current", "state", sj_state },
	{ "Submit", 19, g_submit, "submit", "start",
	  "time/submission", NULL, sj_submit },
	{ "SubmitLine", 10, g_submitline, "submit_line", NULL,
	  "submit_line", NULL, NULL },
	{ "SystemCPU", 10, g_syscpu, NULL, "sys_usec",
	  "time/system", "time/system", sj_sys },
	{ "Timelimit", 10, g_timelimit, "time_limit", NULL,
	  "time/limit", "time/limit", sj_limit },
	{ "TimelimitRaw", 15, g_timelimitraw, "time_limit", NULL },
	{ "TotalCPU", 10, g_totalcpu, NULL, "user_usec,sys_usec",
	  "time/total", "time/total", sj_total },
	{ "TRESUsageInAve", 14, g_blank, NULL, NULL },
	{ "TRESUsageInMax", 14, g_blank, NULL, NULL },
	{ "TRESUsageInMaxNode", 18, g_blank, NULL, NULL },
	{ "TRESUsageInMaxTask", 18, g_blank, NULL, NULL },
	{ "TRESUsageInMin", 14, g_blank, NULL, NULL },
	{ "TRESUsageInMinNode", 18, g_blank, NULL, NULL },
	{ "TRESUsageInMinTask", 18, g_blank, NULL, NULL },
	{ "TRESUsageInTot", 14, g_blank, NULL, NULL },
	{ "TRESUsageOutAve", 15, g_blank, NULL, NULL },
	{ "TRESUsageOutMax", 15, g_blank, NULL, NULL },
	{ "TRESUsageOutMaxNode", 19, g_blank, NULL, NULL },
	{ "TRESUsageOutMaxTask", 19, g_blank, NULL, NULL },
	{ "TRESUsageOutTot", 15, g_blank, NULL, NULL },
	{ "UID", 6, g_uid, "uid", NULL },
	{ "User", 9, g_user, "uid", NULL,
	  "user", NULL, NULL },
	{ "UserCPU", 10, g_usercpu, NULL, "user_usec",
	  "time/user", "time/user", sj_user },
	{ "WCKey", 10, g_blank, NULL, NULL,
	  "wckey/wckey", NULL, NULL },
	{ "WorkDir", 30, g_workdir, "work_dir", NULL,
	  "working_directory", NULL, NULL },
	/* JSON members without a column (sacct -e does not list them) */
	{ NULL, 0, NULL, NULL, NULL, "array", NULL, sj_array },
	{ NULL, 0, NULL, NULL, NULL, "association", NULL, sj_assoc },
	{ NULL, 0, NULL, NULL, NULL, "comment/system", NULL, sj_empty_str },
	{ NULL, 0, NULL, NULL, NULL, "container", NULL, sj_empty_str },
	{ NULL, 0, NULL, NULL, NULL, "flags", NULL, sj_empty_list },
	{ NULL, 0, NULL, "het_job_id,het_job_offset", NULL, "het", NULL,
	  sj_het },
	{ NULL, 0, NULL, NULL, NULL, "hold", NULL, sj_hold },
	{ NULL, 0, NULL, NULL, NULL, "kill_request_user", "kill_request_user",
	  sj_killer },
	{ NULL, 0, NULL, NULL, NULL, "mcs/label", NULL, sj_empty_str },
	{ NULL, 0, NULL, NULL, NULL, "required/memory_per_cpu", NULL,
	  sj_mem_cpu },
	{ NULL, 0, NULL, NULL, NULL, "required/memory_per_node", NULL,
	  sj_mem_node },
	{ NULL, 0, NULL, NULL, NULL, "reservation", NULL, sj_resv },
	{ NULL, 0, NULL, NULL, NULL, "script", NULL, sj_script },
	{ NULL, 0, NULL, NULL, NULL, "time/suspended", "time/suspended",
	  sj_zero },
	{ NULL, 0, NULL, NULL, NULL, "time/planned", NULL, sj_unset },
	{ NULL, 0, NULL, NULL, NULL, "wckey/flags", NULL, sj_empty_list },
	{ NULL, 0, NULL, NULL, NULL, NULL, "nodes/list", sj_nodelist },
	{ NULL, 0, NULL, NULL, NULL, NULL, "pid", sj_empty_str },
	{ NULL, 0, NULL, NULL, NULL, NULL, "task/distribution", sj_empty_str },
	{ NULL, 0, NULL, NULL, NULL, NULL, "tres/requested", sj_step_usage },
	{ NULL, 0, NULL, NULL, NULL, NULL, "tres/consumed", sj_step_consumed },
	{ NULL, 0, NULL, NULL, NULL, "steps", NULL, sj_steps },
	{ NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL }
};

static const sacct_field_t *find_field(const sacct_field_t *table,
				       const char *name, size_t n)
{
	const sacct_field_t *prefix = NULL;

	for (const sacct_field_t *f = table; f->name; f++) {
		if (strlen(f->name) == n && !strncasecmp(f->name, name, n))
			return f;
		if (!prefix && n && !strncasecmp(f->name, name, n))
			prefix = f;
	}
	return prefix;
}

int sacct_format_parse(const char *spec, sacct_col_t **cols, size_t *cnt,
		       char **bad)
{
	return sacct_format_parse_in(sacct_fields, spec, cols, cnt, bad);
}

int sacct_format_parse_in(const sacct_field_t *table, const char *spec,
			  sacct_col_t **cols, size_t *cnt, char **bad)
{
	char **items = xstrsplit(spec, ",", NULL);
	size_t n = 0;

	*cols = xcalloc(xstrarray_len(items) + 1, sizeof(sacct_col_t));
	*bad = NULL;
	for (size_t i = 0; items[i]; i++) {
		char *name = items[i], *pct = strchr(name, '%');
		size_t len = pct ? (size_t)(pct - name) : strlen(name);
		const sacct_field_t *f;
		char *end;
		long w;

		if (!len)
			continue;
		f = find_field(table, name, len);
		if (!f) {
			*bad = xstrndup(name, len);
			break;
		}
		(*cols)[n].field = f;
		(*cols)[n].width = f->width;
		if (pct) {
			w = strtol(pct + 1, &end, 10);
			if (*end || end == pct + 1 || w > 4096 || w < -4096) {
				*bad = xstrdup(name);
				break;
			}
			(*cols)[n].width = (int)w;
		}
		n++;
	}
	xstrarray_free(items);
	*cnt = n;
	if (*bad) {
		xfree(*cols);
		*cnt = 0;
		return -1;
	}
	return 0;
}

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

char *sacct_field_text(const sacct_field_t *f, const sacct_row_t *r)
{
	char *out = NULL;

	f->get(&out, r);
	return out ? out : xstrdup("");
}

void sacct_table_help(FILE *out, const sacct_field_t *tab)
{
	size_t i = 0;

	for (const sacct_field_t *f = tab; f->name; f++, i++)
		fprintf(out, "%-20s%s", f->name, i % 4 == 3 ? "\n" : "");
	if (i % 4)
		fputc('\n', out);
}

json_object *sacct_table_json(const sacct_field_t *tab, const sacct_row_t *r,
			      const char *const *nullable)
{
	json_object *o = json_object_new_object();

	for (const sacct_field_t *f = tab; f->get || f->json; f++) {
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
			char *text = sacct_field_text(f, r);

			v = json_object_new_string(text);
			xfree(text);
		}
		json_object_object_add(o, f->job_key, v);
	}
	return o;
}

void sacct_fields_help(FILE *out)
{
	sacct_table_help(out, sacct_fields);
}
