/* cli_fields_job.c — the job record described once: squeue letters and
 * long names, scontrol show job layout, and the 25.05 JSON members.
 * Rows with a show_key are in scontrol's order. */
#include <stdio.h>
#include <string.h>

#include "cli/cli_fields.h"
#include "common/profile.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define J(r) ((const job_info_t *)(r))
#define TXT(fn) static void fn(char **o, const void *r, const cli_ctx_t *c)
#define JSN(fn) CLI_JSON_OBJ(fn, r, c)
#define JV(fn) CLI_JSON(fn, r, c)

#define STR_TEXT(fn, m) TXT(fn) { xstrcat(o, J(r)->m); }
#define U32_TEXT(fn, m) TXT(fn) { xstrfmtcat(o, "%u", (unsigned)J(r)->m); }
#define NUM32_JSON(fn, m) JV(fn) { cli_jv_num32(v, J(r)->m); }
#define INT_JSON(fn, m) JV(fn) { cli_jv_int(v, J(r)->m); }
#define BOOL_JSON(fn, m) JV(fn) { cli_jv_bool(v, J(r)->m); }
#define TIME_JSON(fn, m) JV(fn) { cli_jv_time(v, J(r)->m); }

static bool is_pending(const job_info_t *j)
{
	return (j->job_state & JOB_STATE_BASE) == JOB_PENDING;
}

static bool is_running(const job_info_t *j)
{
	uint32_t b = j->job_state & JOB_STATE_BASE;

	return b == JOB_RUNNING || b == JOB_SUSPENDED ||
	       (j->job_state & JOB_COMPLETING);
}

static void id_name(char **o, const char *name, uint32_t id)
{
	if (name)
		xstrfmtcat(o, "%s(%u)", name, id);
	else
		xstrfmtcat(o, "%u(%u)", id, id);
}

static void mem_text(char **o, uint64_t mb)
{
	char buf[32];

	if (!mb || mb == NO_VAL64) {
		xstrcat(o, "0");
		return;
	}
	fmt_mem_mb(mb, buf, sizeof(buf));
	xstrcat(o, buf);
}

static void limit_text(char **o, uint32_t min)
{
	char buf[32];

	if (min == NO_VAL32) {
		xstrcat(o, "N/A");
		return;
	}
	fmt_time_limit_short(min, false, buf, sizeof(buf));
	xstrcat(o, buf);
}

/* ---- identity ---- */

U32_TEXT(t_job_id, job_id)
INT_JSON(j_job_id, job_id)
STR_TEXT(t_name, name)

/* "123_[5-99%10]", cut to 31 characters as Slurm's squeue does. */
static void array_id_text(char **o, const job_info_t *j)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%u_[%s]", j->array_job_id,
		 j->array_task_str ? j->array_task_str : "");
	xstrcat(o, buf);
}

TXT(t_array_id)
{
	const job_info_t *j = J(r);

	if (j->het_job_id)              /* a hetjob component: "123+1" */
		xstrfmtcat(o, "%u+%u", j->het_job_id, j->het_job_offset);
	else if (!j->array_job_id)
		xstrfmtcat(o, "%u", j->job_id);
	else if (j->array_task_id == NO_VAL32)
		array_id_text(o, j);
	else
		xstrfmtcat(o, "%u_%u", j->array_job_id, j->array_task_id);
}

TXT(t_array_job)
{
	xstrfmtcat(o, "%u", J(r)->array_job_id ? J(r)->array_job_id
					       : J(r)->job_id);
}

TXT(t_array_task)
{
	const job_info_t *j = J(r);

	if (!j->array_job_id)
		xstrcat(o, "N/A");
	else if (j->array_task_id == NO_VAL32)
		xstrcat(o, j->array_task_str);
	else
		xstrfmtcat(o, "%u", j->array_task_id);
}

TXT(t_show_array_job)
{
	if (J(r)->array_job_id)
		xstrfmtcat(o, "%u", J(r)->array_job_id);
}

/* scontrol: "HetJobId=123 HetJobOffset=1" on the first line and
 * "HetJobIdSet=123-124" for a hetjob component only. */
TXT(t_show_het_id)
{
	if (J(r)->het_job_id)
		xstrfmtcat(o, "%u", J(r)->het_job_id);
}

TXT(t_show_het_offset)
{
	if (J(r)->het_job_id)
		xstrfmtcat(o, "%u", J(r)->het_job_offset);
}

TXT(t_het_set)
{
	if (J(r)->het_job_id_set)
		xstrcat(o, J(r)->het_job_id_set);
}

JV(j_het_id) { cli_jv_num32(v, J(r)->het_job_id); }
JV(j_het_offset)
{
	cli_jv_num32(v, J(r)->het_job_id ? J(r)->het_job_offset : 0);
}

TXT(t_show_array_task)
{
	if (J(r)->array_job_id)
		t_array_task(o, r, c);
}

TXT(t_show_throttle)
{
	if (J(r)->array_job_id && J(r)->array_max_tasks)
		xstrfmtcat(o, "%u", J(r)->array_max_tasks);
}

JV(j_array_job)
{
	cli_jv_num32(v, J(r)->array_job_id);
}

JV(j_array_task)
{
	const job_info_t *j = J(r);

	cli_jv_num32(v, j->array_job_id ? j->array_task_id : NO_VAL32);
}

TXT(t_user)
{
	if (J(r)->user_name)
		xstrcat(o, J(r)->user_name);
	else
		cli_fmt_uid(o, J(r)->user_id);
}

U32_TEXT(t_uid, user_id)
INT_JSON(j_uid, user_id)

TXT(t_group)
{
	if (J(r)->group_name)
		xstrcat(o, J(r)->group_name);
	else
		xstrfmtcat(o, "%u", J(r)->group_id);
}

U32_TEXT(t_gid, group_id)
INT_JSON(j_gid, group_id)

TXT(t_show_user) { id_name(o, J(r)->user_name, J(r)->user_id); }
TXT(t_show_group) { id_name(o, J(r)->group_name, J(r)->group_id); }
TXT(t_na) { xstrcat(o, "N/A"); }
TXT(t_empty) { xstrcat(o, ""); }
TXT(t_star) { xstrcat(o, "*"); }
TXT(t_null) { }

/* ---- priority, account ---- */

U32_TEXT(t_prio, priority)
NUM32_JSON(j_prio, priority)

TXT(t_prio_float)
{
	xstrfmtcat(o, "%.14f", (double)J(r)->priority / 4294967295.0);
}

TXT(t_nice)
{
	long n = J(r)->nice == NO_VAL32 ? 0
		 : (long)J(r)->nice - (long)NICE_OFFSET;

	xstrfmtcat(o, "%ld", n);
}

JV(j_nice)
{
	uint32_t n = J(r)->nice;

	cli_jv_int(v, n == NO_VAL32 ? 0 : (int64_t)n - (int64_t)NICE_OFFSET);
}

STR_TEXT(t_account, account)
STR_TEXT(t_qos, qos)

/* ---- state ---- */

TXT(t_state) { xstrcat(o, job_state_string(J(r)->job_state)); }
TXT(t_state_compact) { xstrcat(o, job_state_string_compact(J(r)->job_state)); }

JV(j_state)
{
	const char *names[8];
	int n = job_state_strings(J(r)->job_state, names);

	cli_jv_array(v);
	for (int i = 0; i < n; i++)
		cli_jv_str(v, names[i]);
	cli_jv_end(v);
}

TXT(t_reason)
{
	xstrcat(o, J(r)->state_desc ? J(r)->state_desc
				    : job_reason_string(J(r)->state_reason));
}

/* scontrol keeps Key=Value tokens whole: spaces in a free-text reason
 * become '_'. */
TXT(t_show_reason)
{
	const job_info_t *j = J(r);
	size_t start = *o ? strlen(*o) : 0;

	xstrcat(o, j->state_desc ? j->state_desc
				 : job_reason_string(j->state_reason));
	for (char *p = *o + start; *p; p++)
		if (*p == ' ')
			*p = '_';
}

TXT(t_reason_list)
{
	const job_info_t *j = J(r);

	if (is_running(j) && j->nodes && *j->nodes) {
		xstrcat(o, j->nodes);
		return;
	}
	if (!is_pending(j) && j->state_reason == WAIT_NO_REASON &&
	    !j->state_desc) {
		xstrcat(o, j->nodes ? j->nodes : "");
		return;
	}
	xstrfmtcat(o, "(%s)", j->state_desc ? j->state_desc
			      : job_reason_string(j->state_reason));
}

STR_TEXT(t_state_desc, state_desc)

TXT(t_dependency) { xstrcat(o, J(r)->dependency); }

/* ---- requeue, exit ---- */

U32_TEXT(t_requeue, requeue)
JV(j_requeue) { cli_jv_bool(v, J(r)->requeue != 0); }
U32_TEXT(t_restarts, restart_cnt)
INT_JSON(j_restarts, restart_cnt)
TXT(t_batch) { xstrcat(o, J(r)->batch_flag ? "1" : "0"); }
BOOL_JSON(j_batch, batch_flag)
TXT(t_reboot) { xstrcat(o, J(r)->reboot ? "1" : "0"); }
BOOL_JSON(j_reboot, reboot)

static void exit_text(char **o, uint32_t st)
{
	uint32_t code = 0, sig = 0;

	if (st != NO_VAL32) {
		if ((st & 0x7f) && (st & 0x7f) != 0x7f)
			sig = st & 0x7f;
		code = (st >> 8) & 0xff;
	}
	xstrfmtcat(o, "%u:%u", code, sig);
}

TXT(t_exit) { exit_text(o, J(r)->exit_code); }
TXT(t_derived_exit) { exit_text(o, J(r)->derived_ec); }

/* squeue prints the wait() status itself (1792 for "exit 7"), as Slurm's. */
static void status_text(char **o, uint32_t st)
{
	xstrfmtcat(o, "%u", st == NO_VAL32 ? 0 : st);
}

TXT(t_exit_raw) { status_text(o, J(r)->exit_code); }
TXT(t_derived_raw) { status_text(o, J(r)->derived_ec); }

JV(j_exit) { cli_jv_exit(v, J(r)->exit_code); }
JV(j_derived_exit) { cli_jv_exit(v, J(r)->derived_ec); }

/* ---- times ---- */

TXT(t_runtime) { cli_fmt_runtime(o, cli_job_run_secs(J(r), c->now)); }

TXT(t_time_used)
{
	char buf[32];

	fmt_elapsed((uint32_t)cli_job_run_secs(J(r), c->now), buf, sizeof(buf));
	xstrcat(o, buf);
}

TXT(t_show_limit)
{
	char buf[32];

	if (J(r)->time_limit == NO_VAL32) {
		xstrcat(o, "Partition_Limit");
		return;
	}
	fmt_time_limit(J(r)->time_limit, buf, sizeof(buf));
	xstrcat(o, buf);
}

TXT(t_limit) { limit_text(o, J(r)->time_limit); }
NUM32_JSON(j_limit, time_limit)

TXT(t_time_left)
{
	const job_info_t *j = J(r);
	long left;
	char buf[32];

	if (j->time_limit == INFINITE32 || j->time_limit == NO_VAL32) {
		limit_text(o, j->time_limit);
		return;
	}
	left = (long)j->time_limit * 60 - cli_job_run_secs(j, c->now);
	fmt_elapsed(left > 0 ? (uint32_t)left : 0, buf, sizeof(buf));
	xstrcat(o, buf);
}

TXT(t_time_min)
{
	char buf[32];

	if (!J(r)->time_min || J(r)->time_min == NO_VAL32) {
		xstrcat(o, "N/A");
		return;
	}
	fmt_time_limit(J(r)->time_min, buf, sizeof(buf));
	xstrcat(o, buf);
}

JV(j_time_min) { cli_jv_num32(v, J(r)->time_min == NO_VAL32 ? 0 : J(r)->time_min); }

TXT(t_submit) { cli_fmt_time(o, J(r)->submit_time, "Unknown"); }
TIME_JSON(j_submit, submit_time)
TXT(t_eligible) { cli_fmt_time(o, J(r)->eligible_time, "Unknown"); }
TIME_JSON(j_eligible, eligible_time)
TXT(t_accrue) { cli_fmt_time(o, J(r)->accrue_time, "Unknown"); }
TIME_JSON(j_accrue, accrue_time)
TXT(t_show_start) { cli_fmt_time(o, J(r)->start_time, "Unknown"); }
TXT(t_start) { cli_fmt_time(o, J(r)->start_time, "N/A"); }
TIME_JSON(j_start, start_time)
TXT(t_show_end) { cli_fmt_time(o, J(r)->end_time, "Unknown"); }
TXT(t_end) { cli_fmt_time(o, J(r)->end_time, "N/A"); }
TIME_JSON(j_end, end_time)
TXT(t_deadline) { cli_fmt_time(o, J(r)->deadline, "N/A"); }
TIME_JSON(j_deadline, deadline)
/* shown only when the controller runs with preemption (set for jobs that
 * started) */
/* scrontab's jobs: "CronJob=Yes CrontabSpec="* * * * *"" */
TXT(t_show_cron)
{
	if (J(r)->bitflags & JOB_CRON)
		xstrcat(o, "Yes");
}
TXT(t_show_cronspec)
{
	if (J(r)->cronspec)
		xstrfmtcat(o, "\"%s\"", J(r)->cronspec);
}
TXT(t_cronspec) { xstrcat(o, J(r)->cronspec ? J(r)->cronspec : ""); }
TXT(t_show_preempt_elig)
{
	if (J(r)->preemptable_time)
		cli_fmt_time(o, J(r)->preemptable_time, "None");
}
TXT(t_show_preempt_time)
{
	if (J(r)->preemptable_time)
		cli_fmt_time(o, J(r)->preempt_time, "None");
}
TIME_JSON(j_preempt_time, preempt_time)
TIME_JSON(j_preemptable_time, preemptable_time)
TXT(t_suspend) { cli_fmt_time(o, J(r)->suspend_time, "None"); }
TIME_JSON(j_suspend, suspend_time)
TXT(t_presus) { xstrfmtcat(o, "%ld", (long)J(r)->pre_sus_time); }
TIME_JSON(j_presus, pre_sus_time)
TXT(t_sched_eval) { cli_fmt_time(o, J(r)->last_sched_eval, "Unknown"); }
TIME_JSON(j_sched_eval, last_sched_eval)
TXT(t_scheduler) { xstrcat(o, J(r)->sched_name ? J(r)->sched_name : "Main"); }

/* ---- placement ---- */

STR_TEXT(t_partition, partition)

TXT(t_alloc_node)
{
	xstrfmtcat(o, "%s:%u", J(r)->alloc_node ? J(r)->alloc_node : "(null)",
		   J(r)->alloc_sid);
}

STR_TEXT(t_alloc_host, alloc_node)
STR_TEXT(t_req_nodes, req_nodes)
STR_TEXT(t_exc_nodes, exc_nodes)
TXT(t_nodes) { xstrcat(o, J(r)->nodes ? J(r)->nodes : ""); }
STR_TEXT(t_show_batch_host, batch_host)
TXT(t_batch_host) { xstrcat(o, J(r)->batch_host ? J(r)->batch_host : "n/a"); }
STR_TEXT(t_sched_nodes, sched_nodes)

TXT(t_show_num_nodes)
{
	const job_info_t *j = J(r);

	if (is_pending(j) && j->max_nodes && j->max_nodes != NO_VAL32)
		xstrfmtcat(o, "%u-%u", j->num_nodes, j->max_nodes);
	else
		xstrfmtcat(o, "%u", j->num_nodes);
}

U32_TEXT(t_num_nodes, num_nodes)
NUM32_JSON(j_num_nodes, num_nodes)
U32_TEXT(t_num_cpus, num_cpus)
NUM32_JSON(j_num_cpus, num_cpus)

TXT(t_num_tasks)
{
	uint32_t n = J(r)->num_tasks;

	xstrfmtcat(o, "%u", n == NO_VAL32 || !n ? J(r)->num_nodes : n);
}

NUM32_JSON(j_num_tasks, num_tasks)

TXT(t_cpt)
{
	uint16_t n = J(r)->cpus_per_task;

	xstrfmtcat(o, "%u", n == NO_VAL16 || !n ? 1u : (unsigned)n);
}

JV(j_cpt)
{
	uint16_t n = J(r)->cpus_per_task;

	cli_jv_num32(v, n == NO_VAL16 ? NO_VAL32 : n);
}

TXT(t_reqbsct) { xstrcat(o, "0:0:*:*"); }

TXT(t_tres)
{
	const job_info_t *j = J(r);

	xstrcat(o, !is_pending(j) && j->tres_alloc_str ? j->tres_alloc_str
						       : j->tres_req_str);
}

STR_TEXT(t_tres_req, tres_req_str)
STR_TEXT(t_tres_alloc, tres_alloc_str)

TXT(t_ntpn)
{
	uint16_t n = J(r)->ntasks_per_node;

	xstrfmtcat(o, "%u:0:*:*", n == NO_VAL16 ? 0u : (unsigned)n);
}

JV(j_ntpn)
{
	uint16_t n = J(r)->ntasks_per_node;

	cli_jv_num32(v, n == NO_VAL16 ? 0 : n);
}

TXT(t_min_cpus)
{
	uint32_t n = J(r)->min_cpus_node;

	xstrfmtcat(o, "%u", n == NO_VAL32 || !n ? 1u : n);
}

NUM32_JSON(j_min_cpus, min_cpus_node)

TXT(t_show_mem_node)
{
	if (!J(r)->mem_per_cpu)
		mem_text(o, J(r)->pn_min_memory);
}

TXT(t_show_mem_cpu)
{
	if (J(r)->mem_per_cpu)
		mem_text(o, J(r)->pn_min_memory);
}

TXT(t_min_mem) { mem_text(o, J(r)->pn_min_memory); }

JV(j_mem_cpu)
{
	cli_jv_num64(v, J(r)->mem_per_cpu ? J(r)->pn_min_memory : NO_VAL64);
}

JV(j_mem_node)
{
	cli_jv_num64(v, J(r)->mem_per_cpu ? NO_VAL64 : J(r)->pn_min_memory);
}

U32_TEXT(t_tmp_disk, pn_min_tmp_disk)
NUM32_JSON(j_tmp_disk, pn_min_tmp_disk)
STR_TEXT(t_features, features)
TXT(t_delay_boot) { xstrcat(o, "00:00:00"); }

static const char *shared_name(uint16_t s)
{
	switch (s) {
	case JOB_SHARED_NONE:
		return "NO";
	case JOB_SHARED_OK:
		return "YES";
	case JOB_SHARED_USER:
		return "USER";
	case JOB_SHARED_MCS:
		return "MCS";
	case JOB_SHARED_TOPO:
		return "TOPO";
	default:
		return "OK";
	}
}

TXT(t_shared) { xstrcat(o, shared_name(J(r)->shared)); }

JV(j_shared)
{
	static const char *const names[] = {
		[JOB_SHARED_NONE] = "none", [JOB_SHARED_OK] = "oversubscribe",
		[JOB_SHARED_USER] = "user", [JOB_SHARED_MCS] = "mcs",
		[JOB_SHARED_TOPO] = "topo",
	};

	cli_jv_array(v);
	if (J(r)->shared <= JOB_SHARED_TOPO)
		cli_jv_str(v, names[J(r)->shared]);
	cli_jv_end(v);
}

U32_TEXT(t_contiguous, contiguous)
JV(j_contiguous) { cli_jv_bool(v, J(r)->contiguous != 0); }
STR_TEXT(t_licenses, licenses)
STR_TEXT(t_licenses_alloc, licenses_alloc)
STR_TEXT(t_command, command)
STR_TEXT(t_work_dir, work_dir)
STR_TEXT(t_comment, comment)
STR_TEXT(t_admin_comment, admin_comment)
STR_TEXT(t_show_resv, reservation)
STR_TEXT(t_gres, gres)
STR_TEXT(t_tres_per_job, tres_per_job)
STR_TEXT(t_cpus_per_tres, cpus_per_tres)
STR_TEXT(t_mem_per_tres, mem_per_tres)
STR_TEXT(t_tres_per_task, tres_per_task)

/* scontrol -d: JOB_GRES=gpu:1 then one line per run of nodes with the
 * same layout ("     Nodes=n1 CPU_IDs=0-1 Mem=100 GRES=gpu:1(IDX:0)"). */
TXT(t_job_gres)
{
	const job_info_t *j = J(r);

	xstrcat(o, j->gres_alloc ? j->gres_alloc : "(null)");
	if (j->alloc_detail &&
	    ((j->job_state & JOB_STATE_BASE) == JOB_RUNNING ||
	     (j->job_state & JOB_COMPLETING))) {
		xstrcatc(o, '\n');
		xstrcat(o, j->alloc_detail);
	}
}
TXT(t_gres_na) { xstrcat(o, J(r)->gres ? J(r)->gres : "N/A"); }
STR_TEXT(t_resv, reservation)
STR_TEXT(t_wckey, wckey)
STR_TEXT(t_cluster, cluster)
STR_TEXT(t_mail_user, mail_user)

/* scontrol's "MailUser=u MailType=END,FAIL" line: only when mail is asked
 * for, the user defaulting to the job's owner */
static bool mail_asked(const job_info_t *j)
{
	return j->mail_type && *j->mail_type && strcmp(j->mail_type, "NONE");
}

TXT(t_show_mail_user)
{
	if (mail_asked(J(r)))
		xstrcat(o, J(r)->mail_user ? J(r)->mail_user : J(r)->user_name);
}

TXT(t_show_mail_type)
{
	if (mail_asked(J(r)))
		xstrcat(o, J(r)->mail_type);
}
STR_TEXT(t_container, container)
STR_TEXT(t_submit_line, submit_line)
STR_TEXT(t_array_str, array_task_str)
NUM32_JSON(j_array_max, array_max_tasks)
NUM32_JSON(j_max_nodes, max_nodes)
TXT(t_sct) { xstrcat(o, "*:*:*"); }

static void std_text(char **o, const job_info_t *j, int which)
{
	char *p = cli_job_std_path(j, which);

	xstrcat(o, p);
	xfree(p);
}

TXT(t_stdin) { std_text(o, J(r), 0); }
TXT(t_stdout) { std_text(o, J(r), 1); }
TXT(t_stderr) { std_text(o, J(r), 2); }
STR_TEXT(t_std_in_raw, std_in)
STR_TEXT(t_std_out_raw, std_out)
STR_TEXT(t_std_err_raw, std_err)

JV(j_billable) { cli_jv_f64_set(v, J(r)->billable_tres); }
JV(j_hold) { cli_jv_bool(v, J(r)->priority == 0); }
JV(j_empty_list) { cli_jv_array(v); cli_jv_end(v); }
JV(j_empty_str) { cli_jv_str(v, ""); }
JV(j_gres) { cli_jv_str(v, J(r)->gres); }
JV(j_zero) { cli_jv_int(v, 0); }
JV(j_req_switch) { cli_jv_int(v, J(r)->req_switch); }
JV(j_segment) { cli_jv_int(v, J(r)->segment_size); }
JV(j_wait4switch) { cli_jv_int(v, J(r)->req_switch ? J(r)->wait4switch : 0); }
JV(j_unset) { cli_jv_num32(v, NO_VAL32); }
JV(j_mail_type) { cli_jv_strlist(v, J(r)->mail_type); }
JV(j_set_zero) { cli_jv_num32(v, 0); }
JV(j_infinite) { cli_jv_num32(v, INFINITE32); }

JV(j_power)
{
	cli_jv_object(v);
	cli_jv_key(v, "flags");
	cli_jv_array(v);
	cli_jv_end(v);
	cli_jv_end(v);
}

JV(j_profile)
{
	uint32_t p = J(r)->profile;

	cli_jv_array(v);
	if (p == PROFILE_NOT_SET)
		cli_jv_str(v, "NOT_SET");
	else if (p & PROFILE_NONE)
		cli_jv_str(v, "NONE");
	if (p & PROFILE_ENERGY && !(p & PROFILE_NONE))
		cli_jv_str(v, "ENERGY");
	if (p & PROFILE_TASK && !(p & PROFILE_NONE))
		cli_jv_str(v, "TASK");
	cli_jv_end(v);
}

static void empty_list(cli_jv_t *v, const char *key)
{
	cli_jv_key(v, key);
	cli_jv_array(v);
	cli_jv_end(v);
}

/* What 25.05 reports under job_resources, from what the job record has.
 * A job with no nodes yet has only the members v0.0.43 requires. */
JV(j_job_resources)
{
	const job_info_t *j = J(r);
	bool nodes = j->nodes && *j->nodes;

	cli_jv_object(v);
	empty_list(v, "select_type");
	if (nodes) {
		cli_jv_key(v, "nodes");
		cli_jv_object(v);
		cli_jv_key(v, "count");
		cli_jv_int(v, j->num_nodes);
		empty_list(v, "select_type");
		cli_jv_key(v, "list");
		cli_jv_str(v, j->nodes);
		cli_jv_key(v, "whole");
		cli_jv_bool(v, false);
		empty_list(v, "allocation");
		cli_jv_end(v);
	}
	cli_jv_key(v, "cpus");
	cli_jv_int(v, nodes ? j->num_cpus : 0);
	cli_jv_key(v, "threads_per_core");
	cli_jv_num32(v, NO_VAL32);
	cli_jv_end(v);
}

JV(j_flags)
{
	cli_jv_array(v);
	if (!is_pending(J(r)))
		cli_jv_str(v, "JOB_WAS_RUNNING");
	cli_jv_end(v);
}

#define NL CF_SHOW_NL
#define OPT CF_SHOW_OPT

const cli_field_t cli_job_fields[] = {
	/* letter name header show_key flags text json_key json */
	{ 'A', "jobid", "JOBID", "JobId", 0, t_job_id, "job_id", j_job_id },
	{ 0, NULL, NULL, "HetJobId", OPT, t_show_het_id, NULL, NULL },
	{ 0, NULL, NULL, "HetJobOffset", OPT, t_show_het_offset, NULL, NULL },
	{ 0, NULL, NULL, "ArrayJobId", OPT, t_show_array_job, NULL, NULL },
	{ 0, NULL, NULL, "ArrayTaskId", OPT, t_show_array_task, NULL, NULL },
	{ 0, NULL, NULL, "ArrayTaskThrottle", OPT, t_show_throttle, NULL, NULL },
	{ 'j', "name", "NAME", "JobName", 0, t_name, "name", NULL },
	{ 0, NULL, NULL, "HetJobIdSet", NL | OPT, t_het_set, NULL, NULL },
	{ 0, NULL, NULL, "UserId", NL, t_show_user, NULL, NULL },
	{ 0, NULL, NULL, "GroupId", 0, t_show_group, NULL, NULL },
	{ 0, "mcslabel", "MCSLABEL", "MCS_label", 0, t_na, "mcs_label", j_empty_str },
	{ 'Q', "prioritylong", "PRIORITY", "Priority", NL, t_prio, "priority", j_prio },
	{ 'y', "nice", "NICE", "Nice", 0, t_nice, "nice", j_nice },
	{ 'a', "account", "ACCOUNT", "Account", 0, t_account, "account", NULL },
	{ 'q', "qos", "QOS", "QOS", 0, t_qos, "qos", NULL },
	{ 0, NULL, NULL, "WCKey", OPT, t_wckey, NULL, NULL },
	{ 'T', "state", "STATE", "JobState", NL, t_state, "job_state", j_state },
	{ 0, NULL, NULL, "Reason", 0, t_show_reason, NULL, NULL },
	{ 'E', "dependency", "DEPENDENCY", "Dependency", 0, t_dependency, "dependency", NULL },
	{ 0, "requeue", "REQUEUE", "Requeue", NL, t_requeue, "requeue", j_requeue },
	{ 0, "restartcnt", "RESTARTCNT", "Restarts", 0, t_restarts, "restart_cnt", j_restarts },
	{ 0, "batchflag", "BATCHFLAG", "BatchFlag", 0, t_batch, "batch_flag", j_batch },
	{ 0, "reboot", "REBOOT", "Reboot", 0, t_reboot, "reboot", j_reboot },
	{ 0, NULL, NULL, "ExitCode", 0, t_exit, "exit_code", j_exit },
	{ 0, NULL, NULL, "DerivedExitCode", NL | CF_SHOW_DETAIL, t_derived_exit, NULL, NULL },
	{ 0, NULL, NULL, "RunTime", NL, t_runtime, NULL, NULL },
	{ 0, NULL, NULL, "TimeLimit", 0, t_show_limit, NULL, NULL },
	{ 0, "timemin", "TIME_MIN", "TimeMin", 0, t_time_min, "time_minimum", j_time_min },
	{ 'V', "submittime", "SUBMIT_TIME", "SubmitTime", NL, t_submit, "submit_time", j_submit },
	{ 0, "eligibletime", "ELIGIBLE_TIME", "EligibleTime", 0, t_eligible,
	  "eligible_time", j_eligible },
	{ 0, "accruetime", "ACCRUE_TIME", "AccrueTime", NL, t_accrue, "accrue_time", j_accrue },
	{ 0, NULL, NULL, "StartTime", NL, t_show_start, NULL, NULL },
	{ 0, NULL, NULL, "EndTime", 0, t_show_end, NULL, NULL },
	{ 0, "deadline", "DEADLINE", "Deadline", 0, t_deadline, "deadline", j_deadline },
	{ 0, NULL, NULL, "CronJob", NL | OPT, t_show_cron, NULL, NULL },
	{ 0, NULL, NULL, "CrontabSpec", OPT, t_show_cronspec, NULL, NULL },
	{ 0, NULL, NULL, "PreemptEligibleTime", NL | OPT, t_show_preempt_elig,
	  NULL, NULL },
	{ 0, NULL, NULL, "PreemptTime", OPT, t_show_preempt_time, NULL, NULL },
	{ 0, "suspendtime", "SUSPEND_TIME", "SuspendTime", NL, t_suspend,
	  "suspend_time", j_suspend },
	{ 0, NULL, NULL, "SecsPreSuspend", 0, t_presus, "pre_sus_time", j_presus },
	{ 0, "lastschedeval", "LAST_SCHED_EVAL", "LastSchedEval", 0, t_sched_eval,
	  "last_sched_evaluation", j_sched_eval },
	{ 0, NULL, NULL, "Scheduler", 0, t_scheduler, NULL, NULL },
	{ 'P', "partition", "PARTITION", "Partition", NL, t_partition, "partition", NULL },
	{ 0, NULL, NULL, "AllocNode:Sid", 0, t_alloc_node, NULL, NULL },
	{ 'n', "reqnodes", "REQ_NODES", "ReqNodeList", NL, t_req_nodes, "required_nodes", NULL },
	{ 'x', "excnodes", "EXC_NODES", "ExcNodeList", 0, t_exc_nodes, "excluded_nodes", NULL },
	{ 'N', "nodelist", "NODELIST", "NodeList", NL, t_nodes, "nodes", NULL },
	{ 0, NULL, NULL, "BatchHost", NL | OPT, t_show_batch_host, "batch_host", NULL },
	{ 0, NULL, NULL, "NumNodes", NL, t_show_num_nodes, NULL, NULL },
	{ 'C', "numcpus", "CPUS", "NumCPUs", 0, t_num_cpus, "cpus", j_num_cpus },
	{ 0, "numtasks", "TASKS", "NumTasks", 0, t_num_tasks, "tasks", j_num_tasks },
	{ 0, "cpuspertask", "CPUS_PER_TASK", "CPUs/Task", 0, t_cpt, "cpus_per_task", j_cpt },
	{ 0, NULL, NULL, "ReqB:S:C:T", 0, t_reqbsct, NULL, NULL },
	{ 0, NULL, NULL, "TRES", NL, t_tres, NULL, NULL },
	{ 0, NULL, NULL, "Socks/Node", NL, t_star, NULL, NULL },
	{ 0, NULL, NULL, "NtasksPerN:B:S:C", 0, t_ntpn, "tasks_per_node", j_ntpn },
	{ 0, NULL, NULL, "CoreSpec", 0, t_star, NULL, NULL },
	{ 0, NULL, NULL, "JOB_GRES", NL | CF_SHOW_DETAIL, t_job_gres, NULL, NULL },
	{ 'c', "mincpus", "MIN_CPUS", "MinCPUsNode", NL, t_min_cpus,
	  "minimum_cpus_per_node", j_min_cpus },
	{ 0, NULL, NULL, "MinMemoryNode", OPT, t_show_mem_node, "memory_per_node", j_mem_node },
	{ 0, NULL, NULL, "MinMemoryCPU", OPT, t_show_mem_cpu, "memory_per_cpu", j_mem_cpu },
	{ 'd', "mintmpdisk", "MIN_TMP_DISK", "MinTmpDiskNode", 0, t_tmp_disk,
	  "minimum_tmp_disk_per_node", j_tmp_disk },
	{ 'f', "feature", "FEATURES", "Features", NL, t_features, "features", NULL },
	{ 0, NULL, NULL, "DelayBoot", 0, t_delay_boot, NULL, NULL },
	{ 0, NULL, NULL, "Reservation", NL | OPT, t_show_resv, NULL, NULL },
	{ 'h', "oversubscribe", "OVER_SUBSCRIBE", "OverSubscribe", NL, t_shared,
	  "shared", j_shared },
	{ 'O', "contiguous", "CONTIGUOUS", "Contiguous", 0, t_contiguous,
	  "contiguous", j_contiguous },
	{ 'W', "licenses", "LICENSES", "Licenses", 0, t_licenses, "licenses", NULL },
	{ 0, "network", "NETWORK", "Network", 0, t_null, "network", NULL },
	{ 'o', "command", "COMMAND", "Command", NL, t_command, "command", NULL },
	{ 'Z', "workdir", "WORK_DIR", "WorkDir", NL, t_work_dir,
	  "current_working_directory", NULL },
	{ 0, "admincomment", "ADMIN_COMMENT", "AdminComment", NL | OPT,
	  t_admin_comment, "admin_comment", NULL },
	{ 'k', "comment", "COMMENT", "Comment", NL | OPT, t_comment, "comment", NULL },
	{ 0, "stderr", "STDERR", "StdErr", NL, t_stderr, "stderr_expanded", NULL },
	{ 0, "stdin", "STDIN", "StdIn", NL, t_stdin, "stdin_expanded", NULL },
	{ 0, "stdout", "STDOUT", "StdOut", NL, t_stdout, "stdout_expanded", NULL },
	{ 0, NULL, NULL, "Power", NL, t_empty, NULL, NULL },
	{ 0, NULL, NULL, "CpusPerTres", NL | OPT, t_cpus_per_tres, NULL, NULL },
	{ 0, NULL, NULL, "MemPerTres", NL | OPT, t_mem_per_tres, NULL, NULL },
	{ 0, NULL, NULL, "TresPerJob", NL | OPT, t_tres_per_job, NULL, NULL },
	{ 0, NULL, NULL, "TresPerNode", NL | OPT, t_gres, NULL, NULL },
	{ 0, NULL, NULL, "TresPerTask", NL | OPT, t_tres_per_task, NULL, NULL },
	{ 0, NULL, NULL, "MailUser", NL | OPT, t_show_mail_user, NULL, NULL },
	{ 0, NULL, NULL, "MailType", OPT, t_show_mail_type, NULL, NULL },

	/* squeue only */
	{ 'i', "jobarrayid", "JOBID", NULL, 0, t_array_id, NULL, NULL },
	{ 'F', "arrayjobid", "ARRAY_JOB_ID", NULL, 0, t_array_job, "array_job_id", j_array_job },
	{ 'K', "arraytaskid", "ARRAY_TASK_ID", NULL, 0, t_array_task,
	  "array_task_id", j_array_task },
	{ 'u', "username", "USER", NULL, 0, t_user, "user_name", NULL },
	{ 'U', "userid", "UID", NULL, 0, t_uid, "user_id", j_uid },
	{ 'g', "groupname", "GROUP", NULL, 0, t_group, "group_name", NULL },
	{ 'G', "groupid", "GID", NULL, 0, t_gid, "group_id", j_gid },
	{ 't', "statecompact", "ST", NULL, 0, t_state_compact, NULL, NULL },
	{ 'M', "timeused", "TIME", NULL, 0, t_time_used, NULL, NULL },
	{ 'l', "timelimit", "TIME_LIMIT", NULL, 0, t_limit, "time_limit", j_limit },
	{ 'L', "timeleft", "TIME_LEFT", NULL, 0, t_time_left, NULL, NULL },
	{ 'D', "numnodes", "NODES", NULL, 0, t_num_nodes, "node_count", j_num_nodes },
	{ 'R', "reasonlist", "NODELIST(REASON)", NULL, 0, t_reason_list, NULL, NULL },
	{ 'r', "reason", "REASON", NULL, 0, t_reason, "state_reason", NULL },
	{ 'p', "priority", "PRIORITY", NULL, 0, t_prio_float, NULL, NULL },
	{ 'S', "starttime", "START_TIME", NULL, 0, t_start, "start_time", j_start },
	{ 'e', "endtime", "END_TIME", NULL, 0, t_end, "end_time", j_end },
	{ 'm', "minmemory", "MIN_MEMORY", NULL, 0, t_min_mem, NULL, NULL },
	{ 'b', "tres-per-node", "TRES_PER_NODE", NULL, 0, t_gres_na, "tres_per_node", j_gres },
	{ 0, "gres", "GRES", NULL, 0, t_gres, NULL, NULL },
	{ 'v', "reservation", "RESERVATION", NULL, 0, t_resv, "resv_name", NULL },
	{ 'w', "wckey", "WCKEY", NULL, 0, t_wckey, "wckey", NULL },
	{ 'B', "batchhost", "EXEC_HOST", NULL, 0, t_batch_host, NULL, NULL },
	{ 'Y', "schednodes", "SCHEDNODES", NULL, 0, t_sched_nodes, "scheduled_nodes", NULL },
	{ 'z', "sct", "S:C:T", NULL, 0, t_sct, NULL, NULL },
	{ 'H', "sockets", "SOCKETS_PER_NODE", NULL, 0, t_star, "sockets_per_node", j_unset },
	{ 'I', "cores", "CORES_PER_SOCKET", NULL, 0, t_star, "cores_per_socket", j_unset },
	{ 'J', "threads", "THREADS_PER_CORE", NULL, 0, t_star, "threads_per_core", j_unset },
	{ 0, "corespec", "CORE_SPEC", NULL, 0, t_star, NULL, NULL },
	{ 0, "tres-alloc", "TRES_ALLOC", NULL, 0, t_tres_alloc, "tres_alloc_str", NULL },
	{ 0, "tres", "TRES", NULL, 0, t_tres_req, "tres_req_str", NULL },
	{ 0, "cluster", "CLUSTER", NULL, 0, t_cluster, "cluster", NULL },
	{ 0, "submitline", "SUBMITLINE", NULL, 0, t_submit_line, NULL, NULL },
	{ 0, "container", "CONTAINER", "Container", NL | OPT, t_container,
	  "container", NULL },
	{ 0, "exit_code", "EXIT_CODE", NULL, 0, t_exit_raw, NULL, NULL },
	{ 0, "derivedec", "DERIVED_EC", NULL, 0, t_derived_raw, "derived_exit_code",
	  j_derived_exit },
	{ 0, "statedesc", "STATE_DESC", NULL, 0, t_state_desc, "state_description", NULL },
	{ 0, "mailuser", "MAIL_USER", NULL, 0, t_mail_user, "mail_user", NULL },
	{ 0, "arraytaskstr", "ARRAY_TASK_STR", NULL, 0, t_array_str, "array_task_string", NULL },

	/* JSON only */
	{ 0, NULL, NULL, NULL, 0, t_null, "array_max_tasks", j_array_max },
	{ 0, NULL, NULL, NULL, 0, t_null, "association_id", j_zero },
	{ 0, NULL, NULL, NULL, 0, t_null, "billable_tres", j_billable },
	{ 0, NULL, NULL, NULL, 0, t_null, "flags", j_flags },
	{ 0, NULL, NULL, NULL, 0, t_null, "gres_detail", j_empty_list },
	{ 0, NULL, NULL, NULL, 0, t_null, "hold", j_hold },
	{ 0, NULL, NULL, NULL, 0, t_null, "mail_type", j_mail_type },
	{ 0, NULL, NULL, NULL, 0, t_null, "max_nodes", j_max_nodes },
	{ 0, NULL, NULL, NULL, 0, t_alloc_host, "allocating_node", NULL },
	{ 0, NULL, NULL, NULL, 0, t_std_in_raw, "standard_input", NULL },
	{ 0, NULL, NULL, NULL, 0, t_std_out_raw, "standard_output", NULL },
	{ 0, NULL, NULL, NULL, 0, t_std_err_raw, "standard_error", NULL },
	{ 0, NULL, NULL, NULL, 0, t_null, "job_resources", j_job_resources },
	{ 0, NULL, NULL, NULL, 0, t_null, "power", j_power },
	{ 0, NULL, NULL, NULL, 0, t_null, "profile", j_profile },
	{ 0, NULL, NULL, NULL, 0, t_null, "job_size_str", j_empty_list },
	{ 0, NULL, NULL, NULL, 0, t_null, "priority_by_partition", j_empty_list },
	{ 0, NULL, NULL, NULL, 0, t_null, "cpu_frequency_minimum", j_unset },
	{ 0, NULL, NULL, NULL, 0, t_null, "cpu_frequency_maximum", j_unset },
	{ 0, NULL, NULL, NULL, 0, t_null, "cpu_frequency_governor", j_unset },
	{ 0, NULL, NULL, NULL, 0, t_null, "delay_boot", j_set_zero },
	{ 0, NULL, NULL, NULL, 0, t_null, "het_job_id", j_het_id },
	{ 0, NULL, NULL, NULL, 0, t_null, "het_job_offset", j_het_offset },
	{ 0, NULL, NULL, NULL, 0, t_null, "max_cpus", j_set_zero },
	{ 0, NULL, NULL, NULL, 0, t_null, "preempt_time", j_preempt_time },
	{ 0, NULL, NULL, NULL, 0, t_null, "preemptable_time", j_preemptable_time },
	{ 0, NULL, NULL, NULL, 0, t_null, "resize_time", j_set_zero },
	{ 0, NULL, NULL, NULL, 0, t_null, "tasks_per_board", j_set_zero },
	{ 0, NULL, NULL, NULL, 0, t_null, "tasks_per_tres", j_set_zero },
	{ 0, NULL, NULL, NULL, 0, t_null, "tasks_per_core", j_infinite },
	{ 0, NULL, NULL, NULL, 0, t_null, "tasks_per_socket", j_infinite },
	{ 0, NULL, NULL, NULL, 0, t_null, "core_spec", j_zero },
	{ 0, NULL, NULL, NULL, 0, t_null, "required_switches", j_req_switch },
	{ 0, NULL, NULL, NULL, 0, t_null, "segment_size", j_segment },
	{ 0, NULL, NULL, NULL, 0, t_null, "sockets_per_board", j_zero },
	{ 0, NULL, NULL, NULL, 0, t_null, "maximum_switch_wait_time", j_wait4switch },
	{ 0, NULL, NULL, NULL, 0, t_empty, "batch_features", NULL },
	{ 0, NULL, NULL, NULL, 0, t_empty, "burst_buffer", NULL },
	{ 0, NULL, NULL, NULL, 0, t_empty, "burst_buffer_state", NULL },
	{ 0, NULL, NULL, NULL, 0, t_empty, "cluster_features", NULL },
	{ 0, NULL, NULL, NULL, 0, t_empty, "container_id", NULL },
	{ 0, NULL, NULL, NULL, 0, t_empty, "cpus_per_tres", NULL },
	{ 0, NULL, NULL, NULL, 0, t_cronspec, "cron", NULL },
	{ 0, NULL, NULL, NULL, 0, t_empty, "extra", NULL },
	{ 0, NULL, NULL, NULL, 0, t_empty, "failed_node", NULL },
	{ 0, NULL, NULL, NULL, 0, t_empty, "federation_origin", NULL },
	{ 0, NULL, NULL, NULL, 0, t_empty, "federation_siblings_active", NULL },
	{ 0, NULL, NULL, NULL, 0, t_empty, "federation_siblings_viable", NULL },
	{ 0, NULL, NULL, NULL, 0, t_het_set, "het_job_id_set", NULL },
	{ 0, NULL, NULL, NULL, 0, t_licenses_alloc, "licenses_allocated", NULL },
	{ 0, NULL, NULL, NULL, 0, t_empty, "memory_per_tres", NULL },
	{ 0, NULL, NULL, NULL, 0, t_empty, "prefer", NULL },
	{ 0, NULL, NULL, NULL, 0, t_empty, "selinux_context", NULL },
	{ 0, NULL, NULL, NULL, 0, t_empty, "system_comment", NULL },
	{ 0, NULL, NULL, NULL, 0, t_empty, "tres_bind", NULL },
	{ 0, NULL, NULL, NULL, 0, t_empty, "tres_freq", NULL },
	{ 0, NULL, NULL, NULL, 0, t_empty, "tres_per_job", NULL },
	{ 0, NULL, NULL, NULL, 0, t_empty, "tres_per_socket", NULL },
	{ 0, NULL, NULL, NULL, 0, t_empty, "tres_per_task", NULL },
	{ 0, NULL, NULL, NULL, 0, NULL, NULL, NULL },
};

/* Local macros end here: the unit test builds several tables in one
 * translation unit. */
#undef BOOL_JSON
#undef INT_JSON
#undef J
#undef JSN
#undef JV
#undef NL
#undef NUM32_JSON
#undef OPT
#undef STR_TEXT
#undef TIME_JSON
#undef TXT
#undef U32_TEXT

/* The job_info_t members each text getter reads ("" = none), so that
 * squeue asks the controller for those fields only (a job has ~100; the
 * default format reads 15).  A getter not listed here gets every field.
 * test_cli_needs renders each listed row from full records and from
 * records that carry only these members: the two must agree. */
#define RUN_SECS "job_state,start_time,end_time,pre_sus_time,suspend_time"
static const struct {
	cli_text_f  text;
	const char *needs;
} job_needs[] = {
	{ t_job_id, "job_id" },
	{ t_name, "name" },
	{ t_array_id, "job_id,array_job_id,array_task_id,array_task_str,"
		      "het_job_id,het_job_offset" },
	{ t_show_het_id, "het_job_id" },
	{ t_show_het_offset, "het_job_id,het_job_offset" },
	{ t_het_set, "het_job_id_set" },
	{ t_array_job, "job_id,array_job_id" },
	{ t_array_task, "array_job_id,array_task_id,array_task_str" },
	{ t_user, "user_name,user_id" },
	{ t_uid, "user_id" },
	{ t_group, "group_name,group_id" },
	{ t_gid, "group_id" },
	{ t_prio, "priority" },
	{ t_prio_float, "priority" },
	{ t_nice, "nice" },
	{ t_account, "account" },
	{ t_qos, "qos" },
	{ t_state, "job_state" },
	{ t_state_compact, "job_state" },
	{ t_reason, "state_desc,state_reason" },
	{ t_reason_list, "job_state,nodes,state_desc,state_reason" },
	{ t_dependency, "dependency" },
	{ t_requeue, "requeue" },
	{ t_restarts, "restart_cnt" },
	{ t_batch, "batch_flag" },
	{ t_reboot, "reboot" },
	{ t_exit_raw, "exit_code" },
	{ t_derived_raw, "derived_ec" },
	{ t_runtime, RUN_SECS },
	{ t_time_used, RUN_SECS },
	{ t_limit, "time_limit" },
	{ t_time_left, "time_limit," RUN_SECS },
	{ t_time_min, "time_min" },
	{ t_submit, "submit_time" },
	{ t_eligible, "eligible_time" },
	{ t_accrue, "accrue_time" },
	{ t_start, "start_time" },
	{ t_end, "end_time" },
	{ t_deadline, "deadline" },
	{ t_suspend, "suspend_time" },
	{ t_sched_eval, "last_sched_eval" },
	{ t_partition, "partition" },
	{ t_req_nodes, "req_nodes" },
	{ t_exc_nodes, "exc_nodes" },
	{ t_nodes, "nodes" },
	{ t_batch_host, "batch_host" },
	{ t_sched_nodes, "sched_nodes" },
	{ t_num_nodes, "num_nodes" },
	{ t_num_cpus, "num_cpus" },
	{ t_num_tasks, "num_tasks,num_nodes" },
	{ t_cpt, "cpus_per_task" },
	{ t_min_cpus, "min_cpus_node" },
	{ t_min_mem, "pn_min_memory" },
	{ t_tmp_disk, "pn_min_tmp_disk" },
	{ t_features, "features" },
	{ t_shared, "shared" },
	{ t_contiguous, "contiguous" },
	{ t_licenses, "licenses" },
	{ t_licenses_alloc, "licenses_alloc" },
	{ t_command, "command" },
	{ t_work_dir, "work_dir" },
	{ t_comment, "comment" },
	{ t_admin_comment, "admin_comment" },
	{ t_gres, "gres" },
	{ t_gres_na, "gres" },
	{ t_resv, "reservation" },
	{ t_wckey, "wckey" },
	{ t_cluster, "cluster" },
	{ t_submit_line, "submit_line" },
	{ t_tres_req, "tres_req_str" },
	{ t_tres_alloc, "tres_alloc_str" },
	{ t_array_str, "array_task_str" },
	{ t_na, "" },
	{ t_empty, "" },
	{ t_star, "" },
	{ t_null, "" },
	{ t_sct, "" },
	{ t_reqbsct, "" },
	{ t_delay_boot, "" },
};
#undef RUN_SECS

int cli_job_field_needs(const cli_field_t *f, fields_sel_t *sel)
{
	for (size_t i = 0; i < sizeof(job_needs) / sizeof(job_needs[0]); i++)
		if (job_needs[i].text == f->text)
			return fields_sel_add_list(sel, job_info_fields,
						   job_needs[i].needs);
	return -1;
}
