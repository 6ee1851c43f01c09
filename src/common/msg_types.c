/* msg_types.c — the message table: one row per message type.  The info
 * lists' bodies are in msg_job_list.c, slurmdbd's record arrays in
 * msg_dbd.c. */
#include <string.h>

#include "common/msg_types.h"
#include "common/msg_types_int.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define F(st, m, t) FIELD(st, m, t)

static const field_desc_t return_code_fields[] = {
	{ "rc", FT_U32, offsetof(return_code_msg_t, rc) },
	F(return_code_msg_t, msg, FT_STR),
	FIELD_END
};

#define R(m, t) F(node_registration_msg_t, m, t)
static const field_desc_t registration_fields[] = {
	R(node_name, FT_STR), R(version, FT_STR), R(arch, FT_STR),
	R(os, FT_STR), R(hostname, FT_STR), R(cpus, FT_U16),
	R(boards, FT_U16), R(sockets, FT_U16), R(cores, FT_U16),
	R(threads, FT_U16), R(real_memory, FT_U64), R(free_mem, FT_U64),
	R(tmp_disk, FT_U32), R(cpu_load, FT_U32), R(boot_time, FT_TIME),
	R(slurmd_start_time, FT_TIME), R(config_hash, FT_U32),
	R(startup, FT_BOOL), R(gres_cores, FT_STR),
#ifdef SLUICE_PROTO_NEXT
	FIELD_SINCE(node_registration_msg_t, proto_next, FT_STR, PROTO_25_11,
		    0),
#endif
	FIELD_END
};
#undef R

static const field_desc_t shutdown_fields[] = {
	F(shutdown_msg_t, options, FT_U16),
	FIELD_END
};

static const field_desc_t control_status_fields[] = {
	F(control_status_msg_t, backup_inx, FT_U16),
	F(control_status_msg_t, control_time, FT_TIME),
	F(control_status_msg_t, lease_epoch, FT_U32),
	FIELD_END
};

static const field_desc_t resv_name_fields[] = {
	FIELD(resv_name_msg_t, name, FT_STR),
	FIELD_END
};

static const field_desc_t info_request_fields[] = {
	F(info_request_msg_t, show_flags, FT_U16),
	F(info_request_msg_t, last_update, FT_TIME),
	F(info_request_msg_t, name, FT_STR),
	FIELD_END
};

static const field_desc_t will_run_fields[] = {
	F(will_run_response_msg_t, job_id, FT_U32),
	F(will_run_response_msg_t, start_time, FT_TIME),
	F(will_run_response_msg_t, proc_cnt, FT_U32),
	F(will_run_response_msg_t, node_list, FT_STR),
	F(will_run_response_msg_t, part_name, FT_STR),
	FIELD_END
};

static const field_desc_t submit_response_fields[] = {
	F(submit_response_msg_t, job_id, FT_U32),
	F(submit_response_msg_t, step_id, FT_U32),
	{ "error_code", FT_U32, offsetof(submit_response_msg_t, error_code) },
	F(submit_response_msg_t, job_submit_user_msg, FT_STR),
	FIELD_END
};

#define U(m, t) F(job_update_msg_t, m, t)
static const field_desc_t job_update_fields[] = {
	U(job_id_str, FT_STR), U(time_limit, FT_U32), U(priority, FT_U32),
	U(nice, FT_U32), U(min_nodes, FT_U32), U(max_nodes, FT_U32),
	U(name, FT_STR), U(comment, FT_STR), U(partition, FT_STR),
	U(features, FT_STR), U(exc_nodes, FT_STR), U(req_nodes, FT_STR),
	U(dependency, FT_STR), U(account, FT_STR), U(qos, FT_STR),
	U(begin_time, FT_TIME), U(requeue, FT_U16),
	U(array_max_tasks, FT_U32), U(reservation, FT_STR),
	U(licenses, FT_STR),
	U(min_mem_node, FT_U64), U(min_mem_cpu, FT_U64), U(num_tasks, FT_U32),
	U(cpus_per_task, FT_U16), U(gres, FT_STR), U(wckey, FT_STR),
	U(std_out, FT_STR), U(std_err, FT_STR), U(std_in, FT_STR),
	U(work_dir, FT_STR), U(shared, FT_U16), U(contiguous, FT_U16),
	U(mail_type, FT_STR), U(mail_user, FT_STR), U(deadline, FT_TIME),
	U(time_min, FT_U32), U(admin_comment, FT_STR),
	FIELD_END
};

void job_update_init(job_update_msg_t *u)
{
	memset(u, 0, sizeof(*u));
	u->time_limit = NO_VAL32;
	u->priority = NO_VAL32;
	u->nice = NO_VAL32;
	u->min_nodes = NO_VAL32;
	u->max_nodes = NO_VAL32;
	u->requeue = NO_VAL16;
	u->array_max_tasks = NO_VAL32;
	u->min_mem_node = NO_VAL64;
	u->min_mem_cpu = NO_VAL64;
	u->num_tasks = NO_VAL32;
	u->cpus_per_task = NO_VAL16;
	u->shared = NO_VAL16;
	u->contiguous = NO_VAL16;
	u->time_min = NO_VAL32;
}

void job_update_free_members(job_update_msg_t *u)
{
	if (!u)
		return;
	fields_free(job_update_fields, u);
	job_update_init(u);
}
#undef U

#define N(m, t) F(node_update_msg_t, m, t)
static const field_desc_t node_update_fields[] = {
	N(node_names, FT_STR), N(node_state, FT_U32), N(reason, FT_STR),
	N(reason_uid, FT_U32), N(features, FT_STR), N(gres, FT_STR),
	N(weight, FT_U32), N(comment, FT_STR), N(node_addr, FT_STR),
	N(node_hostname, FT_STR),
	FIELD_END
};
#undef N

#define S(m, t) F(job_signal_msg_t, m, t)
static const field_desc_t job_signal_fields[] = {
	S(job_id_str, FT_STR), S(job_id, FT_U32), S(step_id, FT_U32),
	S(signal, FT_U16), S(flags, FT_U16), S(cancel, FT_BOOL),
	FIELD_END
};
#undef S

static const field_desc_t job_hold_fields[] = {
	F(job_hold_msg_t, job_id_str, FT_STR),
	F(job_hold_msg_t, hold, FT_BOOL),
	F(job_hold_msg_t, user_hold, FT_BOOL),
	FIELD_END
};

static const field_desc_t suspend_fields[] = {
	F(suspend_msg_t, job_id_str, FT_STR),
	F(suspend_msg_t, op, FT_U16),
	FIELD_END
};

static const field_desc_t requeue_fields[] = {
	F(requeue_msg_t, job_id_str, FT_STR),
	F(requeue_msg_t, flags, FT_U32),
	FIELD_END
};

static const field_desc_t token_request_fields[] = {
	F(token_request_msg_t, username, FT_STR),
	F(token_request_msg_t, lifespan, FT_U32),
	FIELD_END
};

#define S(m, t) F(slurmd_status_msg_t, m, t)
static const field_desc_t slurmd_status_fields[] = {
	S(step_list, FT_STR), S(cpus, FT_U16), S(boards, FT_U16),
	S(sockets, FT_U16), S(cores, FT_U16), S(threads, FT_U16),
	S(real_memory, FT_U64), S(tmp_disk, FT_U32), S(booted, FT_TIME),
	S(last_ctld_msg, FT_TIME), S(pid, FT_U32), S(debug, FT_U16),
	S(hostname, FT_STR), S(log_file, FT_STR), S(version, FT_STR),
	FIELD_END
};
#undef S

static const field_desc_t token_response_fields[] = {
	F(token_response_msg_t, token, FT_STR),
	FIELD_END
};

static const field_desc_t batch_script_request_fields[] = {
	F(batch_script_request_msg_t, job_id, FT_STR),
	FIELD_END
};

static const field_desc_t batch_script_fields[] = {
	F(batch_script_msg_t, script, FT_STR),
	FIELD_END
};

static const field_desc_t job_track_fields[] = {
	F(job_track_msg_t, job_id, FT_U32), F(job_track_msg_t, kind, FT_U16),
	F(job_track_msg_t, name, FT_STR), F(job_track_msg_t, step, FT_U64),
	F(job_track_msg_t, value, FT_DOUBLE), F(job_track_msg_t, text, FT_STR),
	FIELD_END
};

#define O(m, t) F(job_output_request_msg_t, m, t)
static const field_desc_t job_output_request_fields[] = {
	O(job_id, FT_U32), O(stream, FT_U16), O(bytes, FT_U32),
	O(offset, FT_U64),
	FIELD_END
};
#undef O

#define O(m, t) F(job_output_read_msg_t, m, t)
static const field_desc_t job_output_read_fields[] = {
	O(job_id, FT_U32), O(uid, FT_U32), O(gid, FT_U32), O(path, FT_STR),
	O(bytes, FT_U32), O(offset, FT_U64),
	FIELD_END
};
#undef O

static const field_desc_t top_job_fields[] = {
	F(top_job_msg_t, job_id_str, FT_STR),
	FIELD_END
};

#define K(m, t) F(kill_jobs_msg_t, m, t)
static const field_desc_t kill_jobs_fields[] = {
	K(job_ids, FT_STRLIST), K(signal, FT_U16), K(flags, FT_U16),
	K(cancel, FT_BOOL), K(verbose, FT_BOOL), K(users, FT_STRLIST),
	K(names, FT_STRLIST), K(partitions, FT_STRLIST),
	K(states, FT_STRLIST), K(nodelist, FT_STR), K(accounts, FT_STRLIST),
	K(qos, FT_STRLIST), K(wckeys, FT_STRLIST),
	FIELD_END
};
#undef K

static const field_desc_t kill_jobs_resp_job_fields[] = {
	F(kill_jobs_resp_job_t, job_id_str, FT_STR),
	{ "error_code", FT_U32, offsetof(kill_jobs_resp_job_t, error_code) },
	F(kill_jobs_resp_job_t, error_msg, FT_STR),
	FIELD_END
};

#define B(m, t) F(batch_launch_msg_t, m, t)
static const field_desc_t batch_launch_fields[] = {
	B(job_id, FT_U32), B(array_job_id, FT_U32), B(array_task_id, FT_U32),
	B(uid, FT_U32), B(gid, FT_U32), B(user_name, FT_STR),
	B(job_name, FT_STR), B(partition, FT_STR), B(account, FT_STR),
	B(qos, FT_STR), B(nodes, FT_STR), B(num_nodes, FT_U32),
	B(cpus_per_node, FT_STR), B(cpus_on_node, FT_U16),
	B(num_tasks, FT_U32), B(cpus_per_task, FT_U16),
	B(ntasks_per_node, FT_U16), B(tasks_per_node, FT_STR),
	B(mem_per_node, FT_U64), B(mem_per_cpu, FT_U64),
	B(time_limit, FT_U32), B(start_time, FT_TIME), B(work_dir, FT_STR),
	B(std_out, FT_STR), B(std_err, FT_STR), B(std_in, FT_STR),
	B(open_mode, FT_U16), B(script, FT_STR), B(argv, FT_STRLIST),
	B(environment, FT_STRLIST), B(submit_dir, FT_STR),
	B(submit_host, FT_STR), B(cluster_name, FT_STR),
	B(restart_cnt, FT_U32), B(cpu_bind, FT_STR), B(nice, FT_U32),
	B(gpu_idx, FT_STR), B(gids, FT_STR), B(group_name, FT_STR),
	B(profile, FT_U32), B(acctg_freq, FT_STR), B(gres_alloc, FT_STR),
	B(container, FT_STR),
	FIELD_END
};
#undef B

#define G(m, t) F(node_signal_msg_t, m, t)
static const field_desc_t node_signal_fields[] = {
	G(job_id, FT_U32), G(step_id, FT_U32), G(signal, FT_U16),
	G(flags, FT_U16), G(kill_wait, FT_U16), G(job_state, FT_U32),
	G(nodes, FT_STR), G(uid, FT_U32), G(gid, FT_U32),
	G(user_name, FT_STR),
	FIELD_END
};
#undef G

#define G(m, t) F(prolog_launch_msg_t, m, t)
static const field_desc_t prolog_launch_fields[] = {
	G(job_id, FT_U32), G(uid, FT_U32), G(gid, FT_U32),
	G(user_name, FT_STR), G(partition, FT_STR), G(account, FT_STR),
	G(nodes, FT_STR), G(cluster_name, FT_STR), G(job_cpus, FT_STR),
	G(ncpus, FT_U32), G(mem_mb, FT_U64), G(prolog_flags, FT_U32),
	FIELD_END
};
#undef G

#define G(m, t) F(extern_pid_msg_t, m, t)
static const field_desc_t extern_pid_fields[] = {
	G(job_id, FT_U32), G(pid, FT_U32), G(uid, FT_U32),
	FIELD_END
};
#undef G

#define C(m, t) F(batch_complete_msg_t, m, t)
static const field_desc_t batch_complete_fields[] = {
	C(job_id, FT_U32), C(job_rc, FT_U32),
	{ "slurm_rc", FT_U32, offsetof(batch_complete_msg_t, slurm_rc) },
	C(node_name, FT_STR), C(user_cpu_usec, FT_U64),
	C(sys_cpu_usec, FT_U64), C(max_rss_kb, FT_U64),
	C(consumed_energy, FT_U64), C(flags, FT_U16),
	FIELD_END
};
#undef C

static const field_desc_t energy_fields[] = {
	F(acct_gather_energy_msg_t, current_watts, FT_U32),
	F(acct_gather_energy_msg_t, ave_watts, FT_U32),
	F(acct_gather_energy_msg_t, consumed_energy, FT_U64),
	F(acct_gather_energy_msg_t, poll_time, FT_TIME),
	FIELD_END
};

static const field_desc_t epilog_complete_fields[] = {
	F(epilog_complete_msg_t, job_id, FT_U32),
	{ "rc", FT_U32, offsetof(epilog_complete_msg_t, rc) },
	F(epilog_complete_msg_t, node_name, FT_STR),
	FIELD_END
};

static const field_desc_t dbd_acct_fields[] = {
	F(dbd_acct_msg_t, op, FT_U16),
	F(dbd_acct_msg_t, entity, FT_U16),
	F(dbd_acct_msg_t, flags, FT_U16),
	F(dbd_acct_msg_t, names, FT_STRLIST),
	F(dbd_acct_msg_t, where, FT_STRLIST),
	F(dbd_acct_msg_t, set, FT_STRLIST),
	FIELD_END
};

static const field_desc_t dbd_acct_resp_fields[] = {
	{ "rc", FT_U32, offsetof(dbd_acct_resp_msg_t, rc) },
	F(dbd_acct_resp_msg_t, msg, FT_STR),
	F(dbd_acct_resp_msg_t, cols, FT_STRLIST),
	F(dbd_acct_resp_msg_t, cells, FT_STRLIST),
	FIELD_END
};

#define SC(m, t) F(job_step_create_request_msg_t, m, t)
static const field_desc_t step_create_fields[] = {
	SC(job_id, FT_U32), SC(min_nodes, FT_U32), SC(num_tasks, FT_U32),
	SC(cpus_per_task, FT_U16), SC(ntasks_per_node, FT_U16),
	SC(task_dist, FT_U16), SC(plane_size, FT_U16), SC(relative, FT_U16),
	SC(mem_per_node, FT_U64), SC(exact, FT_BOOL), SC(overlap, FT_BOOL),
	SC(node_list, FT_STR), SC(exc_nodes, FT_STR), SC(name, FT_STR),
	SC(host, FT_STR), SC(srun_pid, FT_U32), SC(overcommit, FT_BOOL),
	SC(resv_ports, FT_U16), SC(container, FT_STR), SC(step_id, FT_U32),
	SC(tres_per_step, FT_STR), SC(tres_per_node, FT_STR),
	SC(tres_per_task, FT_STR),
	FIELD_END
};
#undef SC

#define SR(m, t) F(job_step_create_response_msg_t, m, t)
static const field_desc_t step_create_resp_fields[] = {
	SR(job_id, FT_U32), SR(step_id, FT_U32), SR(node_list, FT_STR),
	SR(node_names, FT_STRLIST), SR(node_addrs, FT_STRLIST),
	SR(tasks_per_node, FT_STR), SR(cpus_per_node, FT_STR),
	SR(num_tasks, FT_U32), SR(cpus_per_task, FT_U16),
	SR(cred_payload, FT_STR), SR(cred_sigs, FT_STRLIST),
	SR(resv_ports, FT_STR),
	FIELD_END
};
#undef SR

static const field_desc_t step_complete_fields[] = {
	F(step_complete_msg_t, job_id, FT_U32),
	F(step_complete_msg_t, step_id, FT_U32),
	F(step_complete_msg_t, node_name, FT_STR),
	F(step_complete_msg_t, step_rc, FT_U32),
	F(step_complete_msg_t, user_cpu_usec, FT_U64),
	F(step_complete_msg_t, sys_cpu_usec, FT_U64),
	F(step_complete_msg_t, max_rss_kb, FT_U64),
	F(step_complete_msg_t, max_rss_task, FT_U32),
	F(step_complete_msg_t, tot_rss_kb, FT_U64),
	F(step_complete_msg_t, max_vsize_kb, FT_U64),
	F(step_complete_msg_t, max_vsize_task, FT_U32),
	F(step_complete_msg_t, tot_vsize_kb, FT_U64),
	F(step_complete_msg_t, ntasks, FT_U32),
	F(step_complete_msg_t, min_cpu_usec, FT_U64),
	F(step_complete_msg_t, min_cpu_task, FT_U32),
	F(step_complete_msg_t, consumed_energy, FT_U64),
	FIELD_END
};

static const field_desc_t complete_alloc_fields[] = {
	F(complete_job_alloc_msg_t, job_id, FT_U32),
	F(complete_job_alloc_msg_t, job_rc, FT_U32),
	FIELD_END
};

static const field_desc_t step_info_request_fields[] = {
	F(job_step_info_request_msg_t, job_id, FT_U32),
	F(job_step_info_request_msg_t, step_id, FT_U32),
	F(job_step_info_request_msg_t, user_id, FT_U32),
	FIELD_END
};

#define SL(m, t) F(step_layout_msg_t, m, t)
static const field_desc_t step_layout_fields[] = {
	SL(job_id, FT_U32), SL(step_id, FT_U32), SL(node_list, FT_STR),
	SL(node_cnt, FT_U32), SL(task_cnt, FT_U32), SL(tasks_per_node, FT_STR),
	SL(task_dist, FT_U16), SL(plane_size, FT_U16),
	FIELD_END
};
#undef SL

#define RA(m, t) F(reattach_tasks_msg_t, m, t)
static const field_desc_t reattach_fields[] = {
	RA(job_id, FT_U32), RA(step_id, FT_U32), RA(user_id, FT_U32),
	RA(host, FT_STR), RA(port, FT_U16), RA(io_key, FT_STR),
	FIELD_END
};
#undef RA

#define FW(m, t) F(forward_msg_t, m, t)
static const field_desc_t forward_fields[] = {
	FW(type, FT_U16), FW(tree_width, FT_U16), FW(timeout_ms, FT_U32),
	FW(orig_uid, FT_U32), FW(names, FT_STRLIST),
	FW(body, FT_STR), FW(bodies, FT_STRLIST), FW(body_version, FT_U16),
	FIELD_END
};
#undef FW

#define FR(m, t) F(forward_resp_msg_t, m, t)
static const field_desc_t forward_resp_fields[] = {
	FR(names, FT_STRLIST), FR(rcs, FT_STR),
	FIELD_END
};
#undef FR

#define LT(m, t) F(launch_tasks_request_msg_t, m, t)
static const field_desc_t launch_tasks_fields[] = {
	LT(job_id, FT_U32), LT(step_id, FT_U32), LT(uid, FT_U32),
	LT(gid, FT_U32), LT(user_name, FT_STR), LT(cred_payload, FT_STR),
	LT(cred_sig, FT_STR), LT(node_list, FT_STR), LT(node_id, FT_U32),
	LT(num_tasks, FT_U32), LT(gtids, FT_STR), LT(cpus_per_task, FT_U16),
	LT(argv, FT_STRLIST), LT(env, FT_STRLIST), LT(cwd, FT_STR),
	LT(srun_host, FT_STR), LT(srun_port, FT_U16), LT(io_key, FT_STR),
	LT(ofname, FT_STR), LT(efname, FT_STR), LT(ifname, FT_STR),
	LT(input_task, FT_U32), LT(flags, FT_U16), LT(kill_wait, FT_U32),
	LT(pmi_mapping, FT_STR), LT(cpu_bind, FT_STR), LT(task_prolog, FT_STR),
	LT(task_epilog, FT_STR),
	LT(multi_prog, FT_STR), LT(pty_rows, FT_U16), LT(pty_cols, FT_U16),
	LT(container, FT_STR),
	LT(x11, FT_U16), LT(x11_host, FT_STR), LT(x11_port, FT_U16),
	LT(x11_cookie, FT_STR), LT(x11_screen, FT_U16),
	LT(pmi_jobid, FT_STR), LT(node_offset, FT_U32),
	FIELD_END
};
#undef LT
static const field_desc_t dbd_records_resp_fields[] = {
	{ "rc", FT_U32, offsetof(dbd_records_resp_msg_t, rc) },
	F(dbd_records_resp_msg_t, acked_seq, FT_U64),
	F(dbd_records_resp_msg_t, msg, FT_STR),
	F(dbd_records_resp_msg_t, set_aside, FT_U32),
	FIELD_END
};

#define RP(m, t) F(dbd_report_msg_t, m, t)
static const field_desc_t dbd_report_fields[] = {
	RP(report, FT_U16), RP(cluster, FT_STR), RP(start, FT_TIME),
	RP(end, FT_TIME), RP(users, FT_STRLIST), RP(accounts, FT_STRLIST),
	RP(tres_id, FT_U32),
	FIELD_END
};
#undef RP

static const field_desc_t share_request_fields[] = {
	F(share_request_msg_t, accounts, FT_STRLIST),
	F(share_request_msg_t, users, FT_STRLIST),
	F(share_request_msg_t, flags, FT_U16),
	FIELD_END
};

static const field_desc_t assoc_mgr_info_fields[] = {
	F(assoc_mgr_info_request_msg_t, accounts, FT_STRLIST),
	F(assoc_mgr_info_request_msg_t, users, FT_STRLIST),
	F(assoc_mgr_info_request_msg_t, qos, FT_STRLIST),
	F(assoc_mgr_info_request_msg_t, flags, FT_U16),
	FIELD_END
};

static const field_desc_t table_resp_fields[] = {
	{ "rc", FT_U32, offsetof(table_resp_msg_t, rc) },
	F(table_resp_msg_t, msg, FT_STR),
	F(table_resp_msg_t, cols, FT_STRLIST),
	F(table_resp_msg_t, cells, FT_STRLIST),
	FIELD_END
};

/* ---- bodies with arrays ---- */

static void registration_pack(buf_t *b, const void *data)
{
	const node_registration_msg_t *m = data;

	fields_pack(b, registration_fields, m);
	pack32_array(b, m->job_ids, m->job_cnt);
	/* slurmd -Z's line last: a registration from a slurmd built before
	 * dynamic nodes (none there) still reads */
	if (m->dyn_conf)
		packstr(b, m->dyn_conf);
}

static void registration_free(void *data)
{
	node_registration_msg_t *m = data;

	fields_free(registration_fields, m);
	xfree(m->job_ids);
	xfree(m->dyn_conf);
	xfree(m);
}

static int registration_unpack(buf_t *b, void **data)
{
	node_registration_msg_t *m = xmalloc(sizeof(*m));

	if (fields_unpack(b, registration_fields, m) < 0) {
		xfree(m);
		return -1;
	}
	if (unpack32_array(b, &m->job_ids, &m->job_cnt, PACK_MAX_ARRAY_LEN) < 0 ||
	    (buf_remaining(b) && unpackstr(b, &m->dyn_conf) < 0)) {
		registration_free(m);
		return -1;
	}
	*data = m;
	return 0;
}

static void config_info_pack(buf_t *b, const void *data)
{
	const config_info_msg_t *m = data;

	pack_time(b, m->last_update);
	packstr_array(b, m->keys, m->cnt);
	packstr_array(b, m->values, m->cnt);
}

static void config_info_free(void *data)
{
	config_info_msg_t *m = data;

	if (m->keys)
		xstrarray_free(m->keys);
	if (m->values)
		xstrarray_free(m->values);
	xfree(m);
}

static int config_info_unpack(buf_t *b, void **data)
{
	config_info_msg_t *m = xmalloc(sizeof(*m));
	uint32_t nv = 0;

	if (unpack_time(b, &m->last_update) < 0 ||
	    unpackstr_array(b, &m->keys, &m->cnt, PACK_MAX_ARRAY_LEN) < 0 ||
	    unpackstr_array(b, &m->values, &nv, PACK_MAX_ARRAY_LEN) < 0 ||
	    nv != m->cnt) {
		config_info_free(m);
		return -1;
	}
	*data = m;
	return 0;
}

static void job_info_request_pack(buf_t *b, const void *data)
{
	const job_info_request_msg_t *m = data;

	pack16(b, m->show_flags);
	pack_time(b, m->last_update);
	pack32_array(b, m->job_ids, m->job_id_cnt);
	pack32(b, m->user_id);
	fields_sel_pack(b, &m->fields);
}

static void job_info_request_free(void *data)
{
	job_info_request_msg_t *m = data;

	xfree(m->job_ids);
	xfree(m);
}

static int job_info_request_unpack(buf_t *b, void **data)
{
	job_info_request_msg_t *m = xmalloc(sizeof(*m));

	if (unpack16(b, &m->show_flags) < 0 ||
	    unpack_time(b, &m->last_update) < 0 ||
	    unpack32_array(b, &m->job_ids, &m->job_id_cnt, PACK_MAX_ARRAY_LEN) < 0 ||
	    unpack32(b, &m->user_id) < 0 ||
	    fields_sel_unpack(b, &m->fields) < 0) {
		job_info_request_free(m);
		return -1;
	}
	*data = m;
	return 0;
}

/* RESPONSE_KILL_JOBS: count, then each entry by its field table. */
static void kill_jobs_resp_pack(buf_t *b, const void *data)
{
	const kill_jobs_resp_msg_t *m = data;

	pack32(b, m->cnt);
	for (uint32_t i = 0; i < m->cnt; i++)
		fields_pack(b, kill_jobs_resp_job_fields, &m->jobs[i]);
}

static void kill_jobs_resp_free(void *data)
{
	kill_jobs_resp_msg_t *m = data;

	for (uint32_t i = 0; i < m->cnt; i++)
		fields_free(kill_jobs_resp_job_fields, &m->jobs[i]);
	xfree(m->jobs);
	xfree(m);
}

static int kill_jobs_resp_unpack(buf_t *b, void **data)
{
	kill_jobs_resp_msg_t *m = xmalloc(sizeof(*m));
	uint32_t cnt;

	if (unpack32(b, &cnt) < 0)
		goto error;
	/* An entry takes at least 12 bytes (three u32s). */
	if (cnt > PACK_MAX_ARRAY_LEN || cnt > buf_remaining(b) / 12)
		goto error;
	m->jobs = xcalloc(cnt ? cnt : 1, sizeof(*m->jobs));
	for (m->cnt = 0; m->cnt < cnt; m->cnt++)
		if (fields_unpack(b, kill_jobs_resp_job_fields,
				  &m->jobs[m->cnt]) < 0)
			goto error;
	*data = m;
	return 0;
error:
	kill_jobs_resp_free(m);
	return -1;
}

static const field_desc_t prio_req_fields[] = {
	F(priority_factors_request_msg_t, job_ids, FT_STRLIST),
	F(priority_factors_request_msg_t, users, FT_STRLIST),
	F(priority_factors_request_msg_t, partitions, FT_STRLIST),
	FIELD_END
};

#define P(m, t) F(priority_factors_t, m, t)
static const field_desc_t prio_factor_fields[] = {
	P(job_id, FT_U32), P(user_id, FT_U32), P(user_name, FT_STR),
	P(partition, FT_STR), P(qos, FT_STR), P(account, FT_STR),
	P(priority, FT_U32), P(site, FT_DOUBLE), P(age, FT_DOUBLE),
	P(fairshare, FT_DOUBLE), P(job_size, FT_DOUBLE), P(part, FT_DOUBLE),
	P(qos_f, FT_DOUBLE), P(assoc, FT_DOUBLE),
	{ "nice", FT_U32, offsetof(priority_factors_t, nice) },
	P(tres, FT_STR), P(norm_age, FT_DOUBLE), P(norm_fairshare, FT_DOUBLE),
	P(norm_job_size, FT_DOUBLE), P(norm_part, FT_DOUBLE),
	P(norm_qos, FT_DOUBLE), P(norm_assoc, FT_DOUBLE), P(norm_tres, FT_STR),
	FIELD_END
};
#undef P

#define W(m, t) F(priority_factors_msg_t, m, t)
static const field_desc_t prio_resp_fields[] = {
	W(last_update, FT_TIME), W(weight_age, FT_U32), W(weight_fs, FT_U32),
	W(weight_js, FT_U32), W(weight_part, FT_U32), W(weight_qos, FT_U32),
	W(weight_assoc, FT_U32), W(weight_tres, FT_STR), W(multifactor, FT_BOOL),
	FIELD_END
};
#undef W

static const field_desc_t stats_req_fields[] = {
	F(stats_info_request_msg_t, command_id, FT_U16),
	FIELD_END
};

static const field_desc_t stats_row_fields[] = {
	F(stats_rpc_row_t, name, FT_STR), F(stats_rpc_row_t, id, FT_U32),
	F(stats_rpc_row_t, count, FT_U32), F(stats_rpc_row_t, total_usec, FT_U64),
	FIELD_END
};

#define T(m, t) F(stats_info_response_msg_t, m, t)
static const field_desc_t stats_resp_fields[] = {
	T(req_time, FT_TIME), T(req_time_start, FT_TIME),
	T(server_thread_count, FT_U32), T(agent_queue_size, FT_U32),
	T(agent_count, FT_U32), T(agent_thread_count, FT_U32),
	T(dbd_agent_queue_size, FT_U32), T(jobs_submitted, FT_U32),
	T(jobs_started, FT_U32), T(jobs_completed, FT_U32),
	T(jobs_canceled, FT_U32), T(jobs_failed, FT_U32),
	T(job_states_ts, FT_TIME), T(jobs_pending, FT_U32),
	T(jobs_running, FT_U32), T(schedule_cycle_max, FT_U32),
	T(schedule_cycle_last, FT_U32), T(schedule_cycle_counter, FT_U32),
	T(schedule_cycle_sum, FT_U64), T(schedule_cycle_depth, FT_U64),
	T(schedule_queue_len, FT_U32), T(bf_backfilled_jobs, FT_U32),
	T(bf_last_backfilled_jobs, FT_U32), T(bf_cycle_counter, FT_U32),
	T(bf_cycle_sum, FT_U64), T(bf_cycle_last, FT_U32),
	T(bf_cycle_max, FT_U32), T(bf_last_depth, FT_U32),
	T(bf_last_depth_try, FT_U32), T(bf_depth_sum, FT_U64),
	T(bf_depth_try_sum, FT_U64), T(bf_queue_len, FT_U32),
	T(bf_queue_len_sum, FT_U64), T(bf_table_size, FT_U32),
	T(bf_table_size_sum, FT_U64), T(bf_when_last_cycle, FT_TIME),
	T(bf_active, FT_BOOL), T(backfill, FT_BOOL),
	T(dbd_set_aside, FT_U32),
	FIELD_END
};
#undef T

/* Rows (count, then each row by its table) of a record with two row
 * lists or one list after fixed fields. */
static void rows_pack(buf_t *b, const field_desc_t *f, const void *rows,
		      size_t size, uint32_t cnt)
{
	pack32(b, cnt);
	for (uint32_t i = 0; i < cnt; i++)
		fields_pack(b, f, (const char *) rows + i * size);
}

static void rows_free(const field_desc_t *f, void *rows, size_t size,
		      uint32_t cnt)
{
	for (uint32_t i = 0; i < cnt; i++)
		fields_free(f, (char *) rows + i * size);
	xfree(rows);
}

/* Every row takes at least 4 bytes: a cheap cap before allocating. */
static int rows_unpack(buf_t *b, const field_desc_t *f, void **rows,
		       size_t size, uint32_t *cnt)
{
	uint32_t n;

	*rows = NULL;
	*cnt = 0;
	if (unpack32(b, &n) < 0 || n > PACK_MAX_ARRAY_LEN ||
	    n > buf_remaining(b) / 4)
		return -1;
	*rows = xcalloc(n ? n : 1, size);
	for (; *cnt < n; (*cnt)++)
		if (fields_unpack(b, f, (char *) *rows + *cnt * size) < 0)
			return -1;
	return 0;
}

static void prio_resp_pack(buf_t *b, const void *data)
{
	const priority_factors_msg_t *m = data;

	fields_pack(b, prio_resp_fields, m);
	rows_pack(b, prio_factor_fields, m->jobs, sizeof(*m->jobs), m->cnt);
}

static void prio_resp_free(void *data)
{
	priority_factors_msg_t *m = data;

	fields_free(prio_resp_fields, m);
	rows_free(prio_factor_fields, m->jobs, sizeof(*m->jobs), m->cnt);
	xfree(m);
}

static int prio_resp_unpack(buf_t *b, void **data)
{
	priority_factors_msg_t *m = xmalloc(sizeof(*m));

	if (fields_unpack(b, prio_resp_fields, m) < 0) {
		xfree(m);
		return -1;
	}
	if (rows_unpack(b, prio_factor_fields, (void **) &m->jobs,
			sizeof(*m->jobs), &m->cnt) < 0) {
		prio_resp_free(m);
		return -1;
	}
	*data = m;
	return 0;
}

static void stats_resp_pack(buf_t *b, const void *data)
{
	const stats_info_response_msg_t *m = data;

	fields_pack(b, stats_resp_fields, m);
	rows_pack(b, stats_row_fields, m->rpc_types, sizeof(stats_rpc_row_t),
		  m->rpc_type_cnt);
	rows_pack(b, stats_row_fields, m->rpc_users, sizeof(stats_rpc_row_t),
		  m->rpc_user_cnt);
}

static void stats_resp_free(void *data)
{
	stats_info_response_msg_t *m = data;

	fields_free(stats_resp_fields, m);
	rows_free(stats_row_fields, m->rpc_types, sizeof(stats_rpc_row_t),
		  m->rpc_type_cnt);
	rows_free(stats_row_fields, m->rpc_users, sizeof(stats_rpc_row_t),
		  m->rpc_user_cnt);
	xfree(m);
}

static int stats_resp_unpack(buf_t *b, void **data)
{
	stats_info_response_msg_t *m = xmalloc(sizeof(*m));

	if (fields_unpack(b, stats_resp_fields, m) < 0) {
		xfree(m);
		return -1;
	}
	if (rows_unpack(b, stats_row_fields, (void **) &m->rpc_types,
			sizeof(stats_rpc_row_t), &m->rpc_type_cnt) < 0 ||
	    rows_unpack(b, stats_row_fields, (void **) &m->rpc_users,
			sizeof(stats_rpc_row_t), &m->rpc_user_cnt) < 0) {
		stats_resp_free(m);
		return -1;
	}
	*data = m;
	return 0;
}

static const field_desc_t dbd_track_fields[] = {
	{ "rc", FT_U32, offsetof(dbd_track_msg_t, rc) },
	FIELD_END
};

static void dbd_track_pack(buf_t *b, const void *data)
{
	const dbd_track_msg_t *m = data;

	fields_pack(b, dbd_track_fields, m);
	rows_pack(b, acct_track_rec_fields, m->recs, sizeof(*m->recs), m->cnt);
}

static void dbd_track_free(void *data)
{
	dbd_track_msg_t *m = data;

	rows_free(acct_track_rec_fields, m->recs, sizeof(*m->recs), m->cnt);
	xfree(m);
}

static int dbd_track_unpack(buf_t *b, void **data)
{
	dbd_track_msg_t *m = xmalloc(sizeof(*m));

	if (fields_unpack(b, dbd_track_fields, m) < 0) {
		xfree(m);
		return -1;
	}
	if (rows_unpack(b, acct_track_rec_fields, (void **) &m->recs,
			sizeof(*m->recs), &m->cnt) < 0) {
		dbd_track_free(m);
		return -1;
	}
	*data = m;
	return 0;
}

static const field_desc_t lic_row_fields[] = {
	F(license_info_t, name, FT_STR), F(license_info_t, total, FT_U32),
	F(license_info_t, in_use, FT_U32), F(license_info_t, reserved, FT_U32),
	F(license_info_t, remote, FT_BOOL),
	FIELD_END
};

static void lic_resp_pack(buf_t *b, const void *data)
{
	const license_info_msg_t *m = data;

	pack_time(b, m->last_update);
	rows_pack(b, lic_row_fields, m->lics, sizeof(license_info_t), m->cnt);
}

static void lic_resp_free(void *data)
{
	license_info_msg_t *m = data;

	rows_free(lic_row_fields, m->lics, sizeof(license_info_t), m->cnt);
	xfree(m);
}

static int lic_resp_unpack(buf_t *b, void **data)
{
	license_info_msg_t *m = xmalloc(sizeof(*m));

	if (unpack_time(b, &m->last_update) < 0) {
		xfree(m);
		return -1;
	}
	if (rows_unpack(b, lic_row_fields, (void **) &m->lics,
			sizeof(license_info_t), &m->cnt) < 0) {
		lic_resp_free(m);
		return -1;
	}
	*data = m;
	return 0;
}

#define ROW_FIELDS(t, st, f) { t, #t, sizeof(st), f, NULL, NULL, NULL }
#define ROW_FUNCS(t, st, p) { t, #t, sizeof(st), NULL, p##_pack, p##_unpack, p##_free }
#define ROW_EMPTY(t) { t, #t, 0, NULL, NULL, NULL, NULL }

static const msg_desc_t table[] = {
	ROW_FUNCS(MESSAGE_NODE_REGISTRATION, node_registration_msg_t, registration),
	ROW_EMPTY(REQUEST_RECONFIGURE),
	ROW_FIELDS(REQUEST_SHUTDOWN, shutdown_msg_t, shutdown_fields),
	ROW_EMPTY(REQUEST_PING),
	ROW_EMPTY(ACCOUNTING_UPDATE_MSG),
	ROW_EMPTY(REQUEST_CONTROL),
	ROW_EMPTY(REQUEST_TAKEOVER),
	ROW_EMPTY(REQUEST_DAEMON_STATUS),
	ROW_FIELDS(RESPONSE_SLURMD_STATUS, slurmd_status_msg_t,
		   slurmd_status_fields),
	ROW_FIELDS(REQUEST_REBOOT_NODES, reboot_msg_t, msg_reboot_fields),
	ROW_FIELDS(REQUEST_CONFIG, config_request_msg_t,
		   msg_config_request_fields),
	ROW_FIELDS(RESPONSE_CONFIG, config_files_msg_t,
		   msg_config_files_fields),
	ROW_FIELDS(REQUEST_RECONFIGURE_WITH_CONFIG, config_files_msg_t,
		   msg_config_files_fields),
	ROW_FIELDS(REQUEST_SACKD_REGISTER, sackd_register_msg_t,
		   msg_sackd_register_fields),
	ROW_FIELDS(REQUEST_STEP_PIDS, step_pids_request_msg_t,
		   msg_step_pids_request_fields),
	ROW_FUNCS(RESPONSE_STEP_PIDS, step_pids_msg_t, msg_step_pids),
	ROW_FIELDS(REQUEST_JOB_NOTIFY, job_notify_msg_t, msg_job_notify_fields),
	ROW_FIELDS(SRUN_USER_MSG, job_notify_msg_t, msg_job_notify_fields),
	ROW_FIELDS(SRUN_JOB_COMPLETE, srun_job_complete_msg_t,
		   msg_srun_job_complete_fields),
	ROW_FIELDS(REQUEST_CREATE_NODE, dyn_node_msg_t, msg_dyn_node_fields),
	ROW_FIELDS(REQUEST_DELETE_NODE, dyn_node_msg_t, msg_dyn_node_fields),
	ROW_FIELDS(REQUEST_POWER_NODES, power_msg_t, msg_power_fields),
	ROW_EMPTY(REQUEST_CONTROL_STATUS),
	ROW_FIELDS(RESPONSE_CONTROL_STATUS, control_status_msg_t, control_status_fields),
	ROW_EMPTY(REQUEST_NODE_REGISTRATION_STATUS),
	ROW_EMPTY(REQUEST_HEALTH_CHECK),
	ROW_EMPTY(REQUEST_ACCT_GATHER_UPDATE),
	ROW_FIELDS(RESPONSE_ACCT_GATHER_UPDATE, acct_gather_energy_msg_t,
		   energy_fields),
	ROW_EMPTY(REQUEST_BUILD_INFO),
	ROW_FUNCS(RESPONSE_BUILD_INFO, config_info_msg_t, config_info),
	ROW_FUNCS(REQUEST_JOB_INFO, job_info_request_msg_t, job_info_request),
	ROW_FUNCS(RESPONSE_JOB_INFO, job_info_msg_t, msg_job_list),
	ROW_FIELDS(REQUEST_NODE_INFO, info_request_msg_t, info_request_fields),
	ROW_FUNCS(RESPONSE_NODE_INFO, node_info_msg_t, msg_node_list),
	ROW_FIELDS(REQUEST_PARTITION_INFO, info_request_msg_t, info_request_fields),
	ROW_FUNCS(RESPONSE_PARTITION_INFO, part_info_msg_t, msg_part_list),
	ROW_FIELDS(REQUEST_RESERVATION_INFO, info_request_msg_t, info_request_fields),
	ROW_FUNCS(RESPONSE_RESERVATION_INFO, resv_info_msg_t, msg_resv_list),
	ROW_FIELDS(REQUEST_CREATE_RESERVATION, resv_desc_t, resv_desc_fields),
	ROW_FIELDS(RESPONSE_CREATE_RESERVATION, resv_name_msg_t, resv_name_fields),
	ROW_FIELDS(REQUEST_UPDATE_RESERVATION, resv_desc_t, resv_desc_fields),
	ROW_FIELDS(REQUEST_CREATE_PARTITION, part_update_msg_t,
		   msg_part_update_fields),
	ROW_FIELDS(REQUEST_UPDATE_PARTITION, part_update_msg_t,
		   msg_part_update_fields),
	ROW_FIELDS(REQUEST_DELETE_PARTITION, part_update_msg_t,
		   msg_part_update_fields),
	ROW_FIELDS(REQUEST_DELETE_RESERVATION, resv_name_msg_t, resv_name_fields),
	ROW_FIELDS(REQUEST_UPDATE_JOB, job_update_msg_t, job_update_fields),
	ROW_FIELDS(REQUEST_UPDATE_NODE, node_update_msg_t, node_update_fields),
	ROW_FIELDS(REQUEST_SUBMIT_BATCH_JOB, job_desc_t, job_desc_fields),
	ROW_FIELDS(RESPONSE_SUBMIT_BATCH_JOB, submit_response_msg_t, submit_response_fields),
	ROW_FUNCS(REQUEST_SUBMIT_BATCH_HET_JOB, het_job_desc_msg_t, msg_het_job_desc),
	ROW_FUNCS(REQUEST_HET_JOB_ALLOCATION, het_job_desc_msg_t, msg_het_job_desc),
	ROW_FIELDS(REQUEST_JOB_WILL_RUN, job_desc_t, job_desc_fields),
	ROW_FIELDS(RESPONSE_JOB_WILL_RUN, will_run_response_msg_t, will_run_fields),
	ROW_FIELDS(REQUEST_BATCH_JOB_LAUNCH, batch_launch_msg_t, batch_launch_fields),
	ROW_FIELDS(REQUEST_CANCEL_JOB, job_signal_msg_t, job_signal_fields),
	ROW_FIELDS(REQUEST_COMPLETE_BATCH_SCRIPT, batch_complete_msg_t, batch_complete_fields),
	ROW_FIELDS(REQUEST_JOB_HOLD, job_hold_msg_t, job_hold_fields),
	ROW_FIELDS(REQUEST_SUSPEND, suspend_msg_t, suspend_fields),
	ROW_FIELDS(REQUEST_JOB_REQUEUE, requeue_msg_t, requeue_fields),
	ROW_FIELDS(REQUEST_TOP_JOB, top_job_msg_t, top_job_fields),
	ROW_FIELDS(REQUEST_JOB_TRACK, job_track_msg_t, job_track_fields),
	ROW_FIELDS(REQUEST_JOB_OUTPUT, job_output_request_msg_t,
		   job_output_request_fields),
	ROW_FUNCS(RESPONSE_JOB_OUTPUT, job_output_msg_t, msg_job_output),
	ROW_FUNCS(REQUEST_CHECKPOINT, checkpoint_msg_t, msg_ckpt),
	ROW_FUNCS(REQUEST_CHECKPOINT_TASKS, checkpoint_tasks_msg_t,
		  msg_ckpt_tasks),
	ROW_FIELDS(REQUEST_JOB_OUTPUT_READ, job_output_read_msg_t,
		   job_output_read_fields),
	ROW_FIELDS(REQUEST_SBCAST_CRED, sbcast_cred_request_msg_t,
		   msg_sbcast_cred_req_fields),
	ROW_FIELDS(RESPONSE_SBCAST_CRED, sbcast_cred_msg_t,
		   msg_sbcast_cred_fields),
	ROW_FUNCS(REQUEST_FILE_BCAST, file_bcast_msg_t, msg_file_bcast),
	ROW_FIELDS(REQUEST_FILE_GATHER, file_gather_msg_t,
		   msg_file_gather_fields),
	ROW_FUNCS(RESPONSE_FILE_GATHER, file_gather_resp_msg_t,
		  msg_file_gather_resp),
	ROW_FIELDS(REQUEST_ALLOC_HEARTBEAT, alloc_heartbeat_msg_t,
		   msg_alloc_heartbeat_fields),
	ROW_FIELDS(RESPONSE_ALLOC_HEARTBEAT, alloc_heartbeat_resp_msg_t,
		   msg_alloc_heartbeat_resp_fields),
	ROW_FIELDS(REQUEST_STEP_ABORT, step_abort_msg_t,
		   msg_step_abort_fields),
	ROW_FIELDS(REQUEST_DBD_ARCHIVE, dbd_archive_msg_t,
		   msg_dbd_archive_fields),
	ROW_FUNCS(REQUEST_DBD_TRACK, dbd_job_cond_msg_t, msg_dbd_job_cond),
	ROW_EMPTY(REQUEST_DBD_CONFIG),
	ROW_EMPTY(REQUEST_DBD_STATS),
	ROW_FIELDS(RESPONSE_DBD_STATS, table_resp_msg_t, table_resp_fields),
	ROW_EMPTY(REQUEST_DBD_CLEAR_STATS),
	ROW_FUNCS(RESPONSE_DBD_TRACK, dbd_track_msg_t, dbd_track),
	ROW_FUNCS(REQUEST_JOB_PROFILE, job_profile_msg_t, msg_job_profile),
	ROW_FUNCS(REQUEST_DBD_PROFILE, dbd_job_cond_msg_t, msg_dbd_job_cond),
	ROW_FUNCS(RESPONSE_DBD_PROFILE, dbd_profile_msg_t, msg_dbd_profile),
	ROW_FIELDS(REQUEST_BATCH_SCRIPT, batch_script_request_msg_t,
		   batch_script_request_fields),
	ROW_FIELDS(RESPONSE_BATCH_SCRIPT, batch_script_msg_t,
		   batch_script_fields),
	ROW_FIELDS(REQUEST_AUTH_TOKEN, token_request_msg_t, token_request_fields),
	ROW_FIELDS(RESPONSE_AUTH_TOKEN, token_response_msg_t, token_response_fields),
	ROW_FIELDS(REQUEST_SIGNAL_JOB, node_signal_msg_t, node_signal_fields),
	ROW_FIELDS(REQUEST_TERMINATE_JOB, node_signal_msg_t, node_signal_fields),
	ROW_FIELDS(MESSAGE_EPILOG_COMPLETE, epilog_complete_msg_t, epilog_complete_fields),
	ROW_FIELDS(REQUEST_LAUNCH_PROLOG, prolog_launch_msg_t, prolog_launch_fields),
	ROW_FIELDS(REQUEST_COMPLETE_PROLOG, epilog_complete_msg_t, epilog_complete_fields),
	ROW_FIELDS(REQUEST_ADD_EXTERN_PID, extern_pid_msg_t, extern_pid_fields),
	ROW_FIELDS(RESPONSE_SLURM_RC, return_code_msg_t, return_code_fields),
	ROW_FIELDS(REQUEST_DBD_ACCT, dbd_acct_msg_t, dbd_acct_fields),
	ROW_FIELDS(RESPONSE_DBD_ACCT, dbd_acct_resp_msg_t, dbd_acct_resp_fields),
	ROW_FUNCS(REQUEST_DBD_RECORDS, dbd_records_msg_t, msg_dbd_records),
	ROW_FIELDS(RESPONSE_DBD_RECORDS, dbd_records_resp_msg_t, dbd_records_resp_fields),
	ROW_FUNCS(REQUEST_DBD_JOBS, dbd_job_cond_msg_t, msg_dbd_job_cond),
	ROW_FUNCS(RESPONSE_DBD_JOBS, dbd_jobs_msg_t, msg_dbd_jobs),
	ROW_FIELDS(REQUEST_DBD_REPORT, dbd_report_msg_t, dbd_report_fields),
	ROW_FIELDS(RESPONSE_DBD_REPORT, table_resp_msg_t, table_resp_fields),
	ROW_FIELDS(REQUEST_DBD_ROLLUP, dbd_report_msg_t, dbd_report_fields),
	ROW_FUNCS(REQUEST_TRIGGER_SET, trigger_info_msg_t, msg_trigger),
	ROW_FUNCS(REQUEST_TRIGGER_GET, trigger_info_msg_t, msg_trigger),
	ROW_FUNCS(REQUEST_TRIGGER_CLEAR, trigger_info_msg_t, msg_trigger),
	ROW_FUNCS(RESPONSE_TRIGGER_GET, trigger_info_msg_t, msg_trigger),
	ROW_FUNCS(REQUEST_UPDATE_CRONTAB, crontab_update_msg_t, msg_crontab_update),
	ROW_FUNCS(RESPONSE_UPDATE_CRONTAB, crontab_update_resp_msg_t,
		  msg_crontab_update_resp),
	ROW_FIELDS(REQUEST_CRONTAB, crontab_request_msg_t, msg_crontab_request_fields),
	ROW_FIELDS(RESPONSE_CRONTAB, crontab_resp_msg_t, msg_crontab_resp_fields),
	ROW_FIELDS(REQUEST_SHARE_INFO, share_request_msg_t, share_request_fields),
	ROW_FIELDS(RESPONSE_SHARE_INFO, table_resp_msg_t, table_resp_fields),
	ROW_FIELDS(REQUEST_ASSOC_MGR_INFO, assoc_mgr_info_request_msg_t,
		   assoc_mgr_info_fields),
	ROW_FIELDS(RESPONSE_ASSOC_MGR_INFO, table_resp_msg_t, table_resp_fields),
	ROW_FIELDS(REQUEST_KILL_JOBS, kill_jobs_msg_t, kill_jobs_fields),
	ROW_FUNCS(RESPONSE_KILL_JOBS, kill_jobs_resp_msg_t, kill_jobs_resp),
	ROW_FIELDS(REQUEST_PRIORITY_FACTORS, priority_factors_request_msg_t, prio_req_fields),
	ROW_FUNCS(RESPONSE_PRIORITY_FACTORS, priority_factors_msg_t, prio_resp),
	ROW_FIELDS(REQUEST_STATS_INFO, stats_info_request_msg_t, stats_req_fields),
	ROW_FUNCS(RESPONSE_STATS_INFO, stats_info_response_msg_t, stats_resp),
	ROW_FIELDS(REQUEST_LICENSE_INFO, info_request_msg_t, info_request_fields),
	ROW_FUNCS(RESPONSE_LICENSE_INFO, license_info_msg_t, lic_resp),
	ROW_FIELDS(REQUEST_TOPO_INFO, info_request_msg_t, info_request_fields),
	ROW_FIELDS(RESPONSE_TOPO_INFO, topo_info_msg_t, msg_topo_fields),
	ROW_FIELDS(REQUEST_SET_DEBUG_LEVEL, set_debug_level_msg_t,
		   msg_set_debug_level_fields),
	ROW_FIELDS(REQUEST_SET_DEBUG_FLAGS, set_debug_flags_msg_t,
		   msg_set_debug_flags_fields),
	ROW_FIELDS(REQUEST_RESOURCE_ALLOCATION, job_desc_t, job_desc_fields),
	ROW_FIELDS(RESPONSE_RESOURCE_ALLOCATION, submit_response_msg_t, submit_response_fields),
	ROW_FIELDS(REQUEST_JOB_STEP_CREATE, job_step_create_request_msg_t, step_create_fields),
	ROW_FIELDS(RESPONSE_JOB_STEP_CREATE, job_step_create_response_msg_t, step_create_resp_fields),
	ROW_FIELDS(REQUEST_STEP_COMPLETE, step_complete_msg_t, step_complete_fields),
	ROW_FIELDS(REQUEST_COMPLETE_JOB_ALLOCATION, complete_job_alloc_msg_t, complete_alloc_fields),
	ROW_FIELDS(REQUEST_JOB_STEP_INFO, job_step_info_request_msg_t, step_info_request_fields),
	ROW_FUNCS(RESPONSE_JOB_STEP_INFO, job_step_info_msg_t, msg_step_list),
	ROW_FIELDS(REQUEST_LAUNCH_TASKS, launch_tasks_request_msg_t, launch_tasks_fields),
	ROW_FIELDS(REQUEST_JOB_STEP_STAT, job_step_info_request_msg_t, step_info_request_fields),
	ROW_FIELDS(RESPONSE_JOB_STEP_STAT, step_complete_msg_t, step_complete_fields),
	ROW_FIELDS(REQUEST_STEP_LAYOUT, job_step_info_request_msg_t, step_info_request_fields),
	ROW_FIELDS(RESPONSE_STEP_LAYOUT, step_layout_msg_t, step_layout_fields),
	ROW_FIELDS(REQUEST_REATTACH_TASKS, reattach_tasks_msg_t, reattach_fields),
	ROW_FIELDS(REQUEST_FORWARD, forward_msg_t, forward_fields),
	ROW_FIELDS(RESPONSE_FORWARD, forward_resp_msg_t, forward_resp_fields),
};
#define TABLE_LEN (sizeof(table) / sizeof(table[0]))

const msg_desc_t *msg_desc_find(uint16_t type)
{
	for (size_t i = 0; i < TABLE_LEN; i++)
		if (table[i].type == type)
			return &table[i];
	return NULL;
}

size_t msg_desc_count(void)
{
	return TABLE_LEN;
}

const msg_desc_t *msg_desc_at(size_t i)
{
	return i < TABLE_LEN ? &table[i] : NULL;
}

const char *msg_type_name(uint16_t type)
{
	const msg_desc_t *d = msg_desc_find(type);

	return d ? d->name : "unknown";
}

int msg_body_pack(uint16_t type, const void *data, buf_t *b)
{
	const msg_desc_t *d = msg_desc_find(type);

	if (!d)
		return -1;
	if (!d->size)
		return 0;
	if (!data)
		return -1;
	if (d->fields)
		fields_pack(b, d->fields, data);
	else
		d->pack(b, data);
	return 0;
}

int msg_body_unpack(uint16_t type, buf_t *b, void **data)
{
	const msg_desc_t *d = msg_desc_find(type);
	void *body = NULL;

	*data = NULL;
	if (!d)
		return -1;
	if (!d->size)
		return buf_remaining(b) ? -1 : 0;
	if (d->fields) {
		body = xmalloc(d->size);
		if (fields_unpack(b, d->fields, body) < 0) {
			xfree(body);
			return -1;
		}
	} else if (d->unpack(b, &body) < 0) {
		return -1;
	}
	if (buf_remaining(b)) {          /* trailing bytes: not our message */
		msg_body_free(type, body);
		return -1;
	}
	*data = body;
	return 0;
}

void msg_body_free(uint16_t type, void *data)
{
	const msg_desc_t *d = msg_desc_find(type);

	if (!d || !data)
		return;
	if (d->fields) {
		fields_free(d->fields, data);
		xfree(data);
	} else if (d->free) {
		d->free(data);
	} else {
		xfree(data);
	}
}
