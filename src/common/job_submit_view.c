/* job_submit_view.c — see job_submit_view.h. */
#include "common/job_submit_view.h"

#include <stddef.h>

#define D(m, t) FIELD(job_submit_view_t, m, t)
const field_desc_t job_submit_view_fields[] = {
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
	D(container, FT_STR),
	D(kill_inv_dep, FT_U16), D(warn_flags, FT_U16),
	D(tres_per_job, FT_STR), D(bitflags, FT_U32),
	D(profile, FT_U32), D(acctg_freq, FT_STR),
	D(req_switch, FT_U32), D(wait4switch, FT_U32),
	D(segment_size, FT_U16), D(client_version, FT_U16),
	FIELD_END
};
#undef D
