/* job_info.c — job states, reasons and the job record field tables. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/fname.h"
#include "common/job_info.h"
#include "common/parse_util.h"
#include "common/proto_version.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static const struct {
	const char *name;
	const char *compact;
} base_states[JOB_END] = {
	[JOB_PENDING]   = { "PENDING", "PD" },
	[JOB_RUNNING]   = { "RUNNING", "R" },
	[JOB_SUSPENDED] = { "SUSPENDED", "S" },
	[JOB_COMPLETE]  = { "COMPLETED", "CD" },
	[JOB_CANCELLED] = { "CANCELLED", "CA" },
	[JOB_FAILED]    = { "FAILED", "F" },
	[JOB_TIMEOUT]   = { "TIMEOUT", "TO" },
	[JOB_NODE_FAIL] = { "NODE_FAIL", "NF" },
	[JOB_PREEMPTED] = { "PREEMPTED", "PR" },
	[JOB_BOOT_FAIL] = { "BOOT_FAIL", "BF" },
	[JOB_DEADLINE]  = { "DEADLINE", "DL" },
	[JOB_OOM]       = { "OUT_OF_MEMORY", "OOM" },
};

/* Flag states that win over the base state when printed, in precedence. */
static const struct {
	uint32_t    flag;
	const char *name;
	const char *compact;
} flag_states[] = {
	{ JOB_COMPLETING, "COMPLETING", "CG" },
	{ JOB_STAGE_OUT, "STAGE_OUT", "SO" },
	{ JOB_CONFIGURING, "CONFIGURING", "CF" },
	{ JOB_RESIZING, "RESIZING", "RS" },
	{ JOB_REQUEUE, "REQUEUED", "RQ" },
	{ JOB_REQUEUE_FED, "REQUEUE_FED", "RF" },
	{ JOB_REQUEUE_HOLD, "REQUEUE_HOLD", "RH" },
	{ JOB_SPECIAL_EXIT, "SPECIAL_EXIT", "SE" },
	{ JOB_STOPPED, "STOPPED", "ST" },
	{ JOB_REVOKED, "REVOKED", "RV" },
	{ JOB_RESV_DEL_HOLD, "RESV_DEL_HOLD", "RD" },
	{ JOB_SIGNALING, "SIGNALING", "SI" },
};
#define N_FLAG_STATES (sizeof(flag_states) / sizeof(flag_states[0]))

static int flag_state_index(uint32_t state)
{
	for (size_t i = 0; i < N_FLAG_STATES; i++)
		if (state & flag_states[i].flag)
			return (int)i;
	return -1;
}

const char *job_state_string(uint32_t state)
{
	int f = flag_state_index(state);
	uint32_t base = state & JOB_STATE_BASE;

	if (f >= 0)
		return flag_states[f].name;
	if (base >= JOB_END)
		return "?";
	return base_states[base].name;
}

void job_exit_code_str(uint32_t status, char *buf, size_t len)
{
	uint32_t code = 0, sig = 0;

	if (status != NO_VAL32) {
		if ((status & 0x7f) && (status & 0x7f) != 0x7f)
			sig = status & 0x7f;
		code = (status >> 8) & 0xff;
	}
	snprintf(buf, len, "%u:%u", code, sig);
}

const char *job_state_string_compact(uint32_t state)
{
	int f = flag_state_index(state);
	uint32_t base = state & JOB_STATE_BASE;

	if (f >= 0)
		return flag_states[f].compact;
	if (base >= JOB_END)
		return "?";
	return base_states[base].compact;
}

int job_state_strings(uint32_t state, const char *out[8])
{
	int n = 0;
	uint32_t base = state & JOB_STATE_BASE;

	out[n++] = base < JOB_END ? base_states[base].name : "?";
	for (size_t i = 0; i < N_FLAG_STATES && n < 7; i++)
		if (state & flag_states[i].flag)
			out[n++] = flag_states[i].name;
	out[n] = NULL;
	return n;
}

int job_state_from_string(const char *s, uint32_t *state)
{
	if (!s)
		return -1;
	for (uint32_t i = 0; i < JOB_END; i++) {
		if (!strcasecmp(s, base_states[i].name) ||
		    !strcasecmp(s, base_states[i].compact)) {
			*state = i;
			return 0;
		}
	}
	for (size_t i = 0; i < N_FLAG_STATES; i++) {
		if (!strcasecmp(s, flag_states[i].name) ||
		    !strcasecmp(s, flag_states[i].compact)) {
			*state = flag_states[i].flag;
			return 0;
		}
	}
	if (!strcasecmp(s, "COMPLETE")) {   /* accepted spelling */
		*state = JOB_COMPLETE;
		return 0;
	}
	return -1;
}

bool job_state_is_finished(uint32_t state)
{
	return (state & JOB_STATE_BASE) >= JOB_COMPLETE &&
	       !(state & JOB_COMPLETING);
}

static const char *const reasons[REASON_END] = {
	[WAIT_NO_REASON] = "None",
	[WAIT_PRIORITY] = "Priority",
	[WAIT_DEPENDENCY] = "Dependency",
	[WAIT_RESOURCES] = "Resources",
	[WAIT_PART_NODE_LIMIT] = "PartitionNodeLimit",
	[WAIT_PART_TIME_LIMIT] = "PartitionTimeLimit",
	[WAIT_PART_DOWN] = "PartitionDown",
	[WAIT_PART_INACTIVE] = "PartitionInactive",
	[WAIT_HELD] = "JobHeldAdmin",
	[WAIT_TIME] = "BeginTime",
	[WAIT_LICENSES] = "Licenses",
	[WAIT_ASSOC_JOB_LIMIT] = "AssociationJobLimit",
	[WAIT_RESERVATION] = "Reservation",
	[WAIT_NODE_NOT_AVAIL] = "ReqNodeNotAvail",
	[WAIT_HELD_USER] = "JobHeldUser",
	[WAIT_FRONT_END] = "FrontEndDown",
	[FAIL_DOWN_PARTITION] = "PartitionDown",
	[FAIL_DOWN_NODE] = "NodeDown",
	[FAIL_BAD_CONSTRAINTS] = "BadConstraints",
	[FAIL_SYSTEM] = "SystemFailure",
	[FAIL_LAUNCH] = "JobLaunchFailure",
	[FAIL_EXIT_CODE] = "NonZeroExitCode",
	[FAIL_TIMEOUT] = "TimeLimit",
	[FAIL_INACTIVE_LIMIT] = "InactiveLimit",
	[FAIL_ACCOUNT] = "InvalidAccount",
	[FAIL_QOS] = "InvalidQOS",
	[WAIT_QOS_THRES] = "QOSUsageThreshold",
	[WAIT_DEP_INVALID] = "DependencyNeverSatisfied",
	[FAIL_SIGNAL] = "RaisedSignal",
	[FAIL_OOM] = "OutOfMemory",
	[WAIT_PROLOG] = "Prolog",
	[WAIT_CLEANING] = "Cleaning",
	[WAIT_ARRAY_TASK_LIMIT] = "JobArrayTaskLimit",
	[WAIT_ACCOUNTING_POLICY] = "AccountingPolicy",
	[WAIT_RESV_DELETED] = "ReservationDeleted",
	[FAIL_DEADLINE] = "DeadLine",
	[WAIT_MAX_REQUEUE] = "JobHoldMaxRequeue",
	[WAIT_PART_CONFIG] = "PartitionConfig",
	[WAIT_BURST_BUFFER_RESOURCE] = "BurstBufferResources",
	[WAIT_POWER_NOT_AVAIL] = "PowerNotAvail",
	[WAIT_NODE_STATE_CHANGE] = "NodeStateChange",
	[WAIT_CONSTRAINTS] = "Constraints",
	[WAIT_ASSOC_GRP_CPU] = "AssocGrpCpuLimit",
	[WAIT_ASSOC_GRP_MEM] = "AssocGrpMemLimit",
	[WAIT_ASSOC_GRP_NODE] = "AssocGrpNodeLimit",
	[WAIT_ASSOC_GRP_JOBS] = "AssocGrpJobsLimit",
	[WAIT_ASSOC_GRP_SUBMIT] = "AssocGrpSubmitJobsLimit",
	[WAIT_ASSOC_GRP_WALL] = "AssocGrpWallLimit",
	[WAIT_ASSOC_MAX_JOBS] = "AssocMaxJobsLimit",
	[WAIT_ASSOC_MAX_SUBMIT] = "AssocMaxSubmitJobLimit",
	[WAIT_ASSOC_MAX_CPU_PER_JOB] = "AssocMaxCpuPerJobLimit",
	[WAIT_ASSOC_MAX_MEM_PER_JOB] = "AssocMaxMemPerJob",
	[WAIT_ASSOC_MAX_NODE_PER_JOB] = "AssocMaxNodePerJobLimit",
	[WAIT_ASSOC_MAX_CPU_PER_NODE] = "AssocMaxCpuPerNode",
	[WAIT_ASSOC_MAX_MEM_PER_NODE] = "AssocMaxMemPerNode",
	[WAIT_ASSOC_MAX_WALL_PER_JOB] = "AssocMaxWallDurationPerJobLimit",
	[WAIT_QOS_GRP_CPU] = "QOSGrpCpuLimit",
	[WAIT_QOS_GRP_MEM] = "QOSGrpMemLimit",
	[WAIT_QOS_GRP_NODE] = "QOSGrpNodeLimit",
	[WAIT_QOS_GRP_JOBS] = "QOSGrpJobsLimit",
	[WAIT_QOS_GRP_SUBMIT] = "QOSGrpSubmitJobsLimit",
	[WAIT_QOS_MAX_CPU_PER_JOB] = "QOSMaxCpuPerJobLimit",
	[WAIT_QOS_MAX_MEM_PER_JOB] = "QOSMaxMemoryPerJob",
	[WAIT_QOS_MAX_NODE_PER_JOB] = "QOSMaxNodePerJobLimit",
	[WAIT_QOS_MAX_CPU_PER_USER] = "QOSMaxCpuPerUserLimit",
	[WAIT_QOS_MAX_MEM_PER_USER] = "QOSMaxMemoryPerUser",
	[WAIT_QOS_MAX_NODE_PER_USER] = "QOSMaxNodePerUserLimit",
	[WAIT_QOS_MAX_JOBS_PER_USER] = "QOSMaxJobsPerUserLimit",
	[WAIT_QOS_MAX_SUBMIT_PER_USER] = "QOSMaxSubmitJobPerUserLimit",
	[WAIT_QOS_MAX_WALL_PER_JOB] = "QOSMaxWallDurationPerJobLimit",
	[WAIT_ASSOC_GRP_CPU_MIN] = "AssocGrpCPUMinutesLimit",
	[WAIT_ASSOC_GRP_MEM_MIN] = "AssocGrpMemMinutes",
	[WAIT_ASSOC_GRP_NODE_MIN] = "AssocGrpNodeMinutes",
	[WAIT_ASSOC_GRP_CPU_RUN_MIN] = "AssocGrpCPURunMinutesLimit",
	[WAIT_ASSOC_GRP_MEM_RUN_MIN] = "AssocGrpMemRunMinutes",
	[WAIT_ASSOC_GRP_NODE_RUN_MIN] = "AssocGrpNodeRunMinutes",
	[WAIT_ASSOC_MAX_CPU_MINS_PER_JOB] = "AssocMaxCpuMinutesPerJobLimit",
	[WAIT_ASSOC_MAX_MEM_MINS_PER_JOB] = "AssocMaxMemMinutesPerJob",
	[WAIT_ASSOC_MAX_NODE_MINS_PER_JOB] = "AssocMaxNodeMinutesPerJob",
	[WAIT_QOS_GRP_CPU_MIN] = "QOSGrpCPUMinutesLimit",
	[WAIT_QOS_GRP_MEM_MIN] = "QOSGrpMemoryMinutes",
	[WAIT_QOS_GRP_NODE_MIN] = "QOSGrpNodeMinutes",
	[WAIT_QOS_GRP_CPU_RUN_MIN] = "QOSGrpCPURunMinutesLimit",
	[WAIT_QOS_GRP_MEM_RUN_MIN] = "QOSGrpMemoryRunMinutes",
	[WAIT_QOS_GRP_NODE_RUN_MIN] = "QOSGrpNodeRunMinutes",
	[WAIT_QOS_MAX_CPU_MINS_PER_JOB] = "QOSMaxCpuMinutesPerJobLimit",
	[WAIT_QOS_MAX_MEM_MINS_PER_JOB] = "QOSMaxMemoryMinutesPerJob",
	[WAIT_QOS_MAX_NODE_MINS_PER_JOB] = "QOSMaxNodeMinutesPerJob",
	[WAIT_QOS_GRP_WALL] = "QOSGrpWallLimit",
};

const char *job_reason_string(uint32_t reason)
{
	if (reason >= REASON_END || !reasons[reason])
		return "?";
	return reasons[reason];
}

int job_reason_from_string(const char *s)
{
	if (!s)
		return -1;
	for (int i = 0; i < REASON_END; i++)
		if (reasons[i] && !strcasecmp(s, reasons[i]))
			return i;
	return -1;
}

#define D(m, t) FIELD(job_desc_t, m, t)
const field_desc_t job_desc_fields[] = {
	D(name, FT_STR), D(partition, FT_STR), D(account, FT_STR), D(qos, FT_STR),
	D(comment, FT_STR), D(work_dir, FT_STR), D(std_out, FT_STR),
	D(std_err, FT_STR), D(std_in, FT_STR), D(script, FT_STR),
	D(argv, FT_STRLIST), D(environment, FT_STRLIST), D(user_name, FT_STR),
	D(user_id, FT_U32), D(group_id, FT_U32), D(min_nodes, FT_U32),
	D(max_nodes, FT_U32), D(num_tasks, FT_U32), D(cpus_per_task, FT_U16),
	D(ntasks_per_node, FT_U16), D(min_cpus, FT_U32),
	D(pn_min_memory, FT_U64), D(mem_per_cpu, FT_BOOL),
	D(time_limit, FT_U32), D(time_min, FT_U32), D(begin_time, FT_TIME),
	D(hold, FT_BOOL), D(nice, FT_U32), D(priority, FT_U32),
	D(req_nodes, FT_STR), D(exc_nodes, FT_STR), D(features, FT_STR),
	D(shared, FT_U16), D(contiguous, FT_U16), D(requeue, FT_U16),
	D(open_mode, FT_U16), D(submit_host, FT_STR), D(submit_line, FT_STR),
	D(array_inx, FT_STR), D(dependency, FT_STR), D(gres, FT_STR),
	D(licenses, FT_STR), D(reservation, FT_STR), D(wckey, FT_STR),
	D(mail_type, FT_STR), D(mail_user, FT_STR), D(export_env, FT_STR),
	D(kill_on_node_fail, FT_U16), D(tmp_disk, FT_U32),
	D(immediate, FT_U16), D(warn_signal, FT_U16), D(warn_time, FT_U16),
	D(deadline, FT_TIME), D(ntasks_per_core, FT_U32),
	D(sockets_per_node, FT_U16), D(cores_per_socket, FT_U16),
	D(threads_per_core, FT_U16), D(cpus_per_tres, FT_STR),
	D(mem_per_tres, FT_STR), D(tres_per_task, FT_STR),
	D(container, FT_STR), D(spank_env, FT_STR),
	D(kill_inv_dep, FT_U16), D(warn_flags, FT_U16),
	D(tres_per_job, FT_STR), D(bitflags, FT_U32),
	D(profile, FT_U32), D(acctg_freq, FT_STR),
	D(req_switch, FT_U32), D(wait4switch, FT_U32),
	D(segment_size, FT_U16), D(alloc_resp_port, FT_U16),
#ifdef SLUICE_PROTO_NEXT
	FIELD_SINCE(job_desc_t, proto_next, FT_U32, PROTO_25_11, NO_VAL32),
#endif
	FIELD_END
};
#undef D

#define J(m, t) FIELD(job_info_t, m, t)
const field_desc_t job_info_fields[] = {
	J(job_id, FT_U32), J(array_job_id, FT_U32), J(array_task_id, FT_U32),
	J(array_task_str, FT_STR), J(array_max_tasks, FT_U32), J(name, FT_STR),
	J(user_id, FT_U32), J(user_name, FT_STR), J(group_id, FT_U32),
	J(group_name, FT_STR), J(partition, FT_STR), J(account, FT_STR),
	J(qos, FT_STR), J(comment, FT_STR), J(job_state, FT_U32),
	J(state_reason, FT_U32), J(state_desc, FT_STR), J(priority, FT_U32),
	J(nice, FT_U32), J(held_by_user, FT_BOOL), J(nodes, FT_STR),
	J(sched_nodes, FT_STR), J(batch_host, FT_STR), J(num_nodes, FT_U32),
	J(max_nodes, FT_U32), J(num_cpus, FT_U32), J(num_tasks, FT_U32),
	J(cpus_per_task, FT_U16), J(ntasks_per_node, FT_U16),
	J(min_cpus_node, FT_U32), J(pn_min_memory, FT_U64),
	J(mem_per_cpu, FT_BOOL), J(pn_min_tmp_disk, FT_U32),
	J(time_limit, FT_U32), J(time_min, FT_U32), J(submit_time, FT_TIME),
	J(eligible_time, FT_TIME), J(accrue_time, FT_TIME),
	J(start_time, FT_TIME), J(end_time, FT_TIME), J(suspend_time, FT_TIME),
	J(pre_sus_time, FT_TIME), J(last_sched_eval, FT_TIME),
	J(deadline, FT_TIME), J(work_dir, FT_STR), J(std_out, FT_STR),
	J(std_err, FT_STR), J(std_in, FT_STR), J(command, FT_STR),
	J(submit_line, FT_STR), J(alloc_node, FT_STR), J(alloc_sid, FT_U32),
	J(exit_code, FT_U32), J(derived_ec, FT_U32), J(req_nodes, FT_STR),
	J(exc_nodes, FT_STR), J(features, FT_STR), J(dependency, FT_STR),
	J(shared, FT_U16), J(contiguous, FT_U16), J(requeue, FT_U16),
	J(restart_cnt, FT_U32), J(batch_flag, FT_BOOL), J(reboot, FT_BOOL),
	J(tres_req_str, FT_STR), J(tres_alloc_str, FT_STR), J(gres, FT_STR),
	J(licenses, FT_STR), J(reservation, FT_STR), J(wckey, FT_STR),
	J(mail_type, FT_STR), J(mail_user, FT_STR),
	J(cpus_per_node_str, FT_STR), J(container, FT_STR), J(cluster, FT_STR),
	J(sched_name, FT_STR), J(billable_tres, FT_DOUBLE),
	J(kill_inv_dep, FT_U16), J(warn_signal, FT_U16), J(warn_time, FT_U16),
	J(warn_flags, FT_U16), J(warn_sent, FT_BOOL), J(suspend_start, FT_TIME),
	J(tres_per_job, FT_STR), J(tres_per_task, FT_STR), J(bitflags, FT_U32),
	J(alloc_detail, FT_STR), J(gres_alloc, FT_STR),
	J(preemptable_time, FT_TIME), J(preempt_time, FT_TIME),
	J(preempt_susp, FT_BOOL), J(cpus_per_tres, FT_STR),
	J(mem_per_tres, FT_STR), J(licenses_alloc, FT_STR),
	J(admin_comment, FT_STR),
	J(profile, FT_U32), J(acctg_freq, FT_STR), J(cronspec, FT_STR),
	J(req_switch, FT_U32), J(wait4switch, FT_U32),
	J(segment_size, FT_U16),
	J(het_job_id, FT_U32), J(het_job_offset, FT_U32),
	J(het_job_id_set, FT_STR),
	J(resp_host, FT_STR), J(alloc_resp_port, FT_U16),
#ifdef SLUICE_PROTO_NEXT
	FIELD_SINCE(job_info_t, proto_next, FT_U32, PROTO_25_11, NO_VAL32),
#endif
	FIELD_END
};
#undef J

void job_desc_init(job_desc_t *d)
{
	memset(d, 0, sizeof(*d));
	d->user_id = NO_VAL32;
	d->group_id = NO_VAL32;
	d->min_nodes = NO_VAL32;
	d->max_nodes = NO_VAL32;
	d->num_tasks = NO_VAL32;
	d->cpus_per_task = NO_VAL16;
	d->ntasks_per_node = NO_VAL16;
	d->min_cpus = NO_VAL32;
	d->pn_min_memory = NO_VAL64;
	d->time_limit = NO_VAL32;
	d->time_min = NO_VAL32;
	d->nice = NO_VAL32;
	d->priority = NO_VAL32;
	d->shared = JOB_SHARED_UNSET;
	d->contiguous = NO_VAL16;
	d->requeue = NO_VAL16;
	d->kill_on_node_fail = NO_VAL16;
	d->tmp_disk = NO_VAL32;
	d->warn_signal = NO_VAL16;
	d->warn_time = NO_VAL16;
	d->kill_inv_dep = NO_VAL16;
	d->ntasks_per_core = NO_VAL32;
	d->sockets_per_node = NO_VAL16;
	d->cores_per_socket = NO_VAL16;
	d->threads_per_core = NO_VAL16;
#ifdef SLUICE_PROTO_NEXT
	d->proto_next = PROTO_OWN;
#endif
}

void job_desc_free_members(job_desc_t *d)
{
	if (d)
		fields_free(job_desc_fields, d);
}

void job_info_free_members(job_info_t *j)
{
	if (j)
		fields_free(job_info_fields, j);
}

char *job_info_std_path(const job_info_t *j, int which)
{
	const char *pat = which == 0 ? j->std_in
			  : which == 1 ? j->std_out : j->std_err;
	fname_ctx_t fc = {
		.job_id = j->job_id,
		.array_job_id = j->array_job_id,
		.array_task_id = j->array_job_id ? j->array_task_id : NO_VAL32,
		.step_id = FNAME_BATCH_STEP,
		.restart_cnt = j->restart_cnt,
		.job_name = j->name,
		.user_name = j->user_name,
		.node_name = j->batch_host,
	};
	char *exp, *path = NULL;

	if (which == 2 && !pat)
		pat = j->std_out;
	if (!pat) {
		if (which == 0)
			return xstrdup("/dev/null");
		if (!j->batch_flag)
			return NULL;
		pat = fname_default_batch(j->array_job_id);
	}
	exp = fname_expand(pat, &fc);
	if (exp && exp[0] != '/' && j->work_dir)
		xstrfmtcat(&path, "%s/%s", j->work_dir, exp);
	else
		path = xstrdup(exp);
	xfree(exp);
	return path;
}
