/* cli_fields_step.c — a running step as the controller reports it
 * (job_step_info_t), described once: scontrol show step's layout (as
 * 22.05 prints it) and the 25.05 "steps" JSON members (v0.0.43
 * openapi_step_info_msg). */
#include <stdio.h>
#include <string.h>

#include "cli/cli_fields.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define ST(r) ((const job_step_info_t *)(r))
#define TXT(fn) static void fn(char **o, const void *r, const cli_ctx_t *c)
#define JSN(fn) CLI_JSON_OBJ(fn, r, c)

#define STR_TEXT(fn, m) \
	TXT(fn) { (void)c; if (ST(r)->m && *ST(r)->m) xstrcat(o, ST(r)->m); }
#define U32_TEXT(fn, m) \
	TXT(fn) { (void)c; xstrfmtcat(o, "%u", ST(r)->m); }
#define INT_JSON(fn, m) \
	JSN(fn) { (void)c; return json_object_new_int64((int64_t)ST(r)->m); }

/* The batch and extern steps hold no CPUs, TRES or layout of their own
 * (as 22.05 shows them). */
static bool special(const job_step_info_t *s)
{
	return s->step_id == SLURM_BATCH_SCRIPT ||
	       s->step_id == SLURM_EXTERN_CONT;
}

TXT(si_id)
{
	(void)c;
	if (ST(r)->step_id == SLURM_BATCH_SCRIPT)
		xstrfmtcat(o, "%u.batch", ST(r)->job_id);
	else if (ST(r)->step_id == SLURM_EXTERN_CONT)
		xstrfmtcat(o, "%u.extern", ST(r)->job_id);
	else
		xstrfmtcat(o, "%u.%u", ST(r)->job_id, ST(r)->step_id);
}

U32_TEXT(si_uid, user_id)

TXT(si_user)
{
	(void)c;
	if (ST(r)->user_name && *ST(r)->user_name)
		xstrcat(o, ST(r)->user_name);
	else
		cli_fmt_uid(o, ST(r)->user_id);
}

TXT(si_start) { (void)c; cli_fmt_time(o, ST(r)->start_time, "Unknown"); }
JSN(sj_start) { (void)c; return cli_json_time(ST(r)->start_time); }

TXT(si_limit)
{
	char buf[32];

	(void)c;
	fmt_time_limit(ST(r)->time_limit, buf, sizeof(buf));
	xstrcat(o, buf);
}

JSN(sj_limit) { (void)c; return cli_json_num32(ST(r)->time_limit); }

JSN(sj_running)
{
	time_t start = ST(r)->start_time;

	return cli_json_num64(start && c->now > start
			      ? (uint64_t)(c->now - start) : 0);
}

TXT(si_state) { (void)r; (void)c; xstrcat(o, "RUNNING"); }

JSN(sj_state)
{
	json_object *a = json_object_new_array();

	(void)r;
	(void)c;
	json_object_array_add(a, json_object_new_string("RUNNING"));
	return a;
}

STR_TEXT(si_partition, partition)
STR_TEXT(si_nodes, nodes)
STR_TEXT(si_name, name)
U32_TEXT(si_node_cnt, node_cnt)
U32_TEXT(si_tasks, num_tasks)
INT_JSON(sj_tasks, num_tasks)

TXT(si_cpus)
{
	(void)c;
	xstrfmtcat(o, "%u", special(ST(r)) ? 0 : ST(r)->num_cpus);
}

JSN(sj_cpus)
{
	(void)c;
	return json_object_new_int64(special(ST(r)) ? 0 : ST(r)->num_cpus);
}

TXT(si_tres)
{
	(void)c;
	if (special(ST(r)))
		return;
	if (ST(r)->tres && *ST(r)->tres)   /* with gres/gpu=N */
		xstrcat(o, ST(r)->tres);
	else
		xstrfmtcat(o, "cpu=%u,node=%u", ST(r)->num_cpus,
			   ST(r)->node_cnt);
}

TXT(si_cpufreq) { (void)r; (void)c; xstrcat(o, "Default"); }

TXT(si_dist)
{
	uint16_t d = ST(r)->task_dist;

	(void)c;
	if (special(ST(r)))
		return;
	xstrcat(o, d == STEP_DIST_CYCLIC ? "Cyclic"
		   : d == STEP_DIST_PLANE ? "Plane" : "Block");
}

TXT(si_srun)
{
	(void)c;
	xstrfmtcat(o, "%s:%u", ST(r)->srun_host ? ST(r)->srun_host : "(null)",
		   ST(r)->srun_host ? ST(r)->srun_pid : 0);
}

STR_TEXT(si_srun_host, srun_host)
INT_JSON(sj_srun_pid, srun_pid)
TXT(si_none) { (void)o; (void)r; (void)c; }

JSN(sj_array_job)
{
	(void)c;
	return json_object_new_int64(ST(r)->array_job_id);
}

JSN(sj_array_task)
{
	(void)c;
	return json_object_new_int64(ST(r)->array_job_id
				     ? ST(r)->array_task_id : NO_VAL32);
}

JSN(sj_unset32) { (void)r; (void)c; return cli_json_num32(NO_VAL32); }

#define NL CF_SHOW_NL
#define OPT CF_SHOW_OPT

const cli_field_t cli_step_info_fields[] = {
	{ 0, NULL, NULL, "StepId", 0, si_id, "id", NULL },
	{ 0, NULL, NULL, "UserId", 0, si_uid, NULL, NULL },
	{ 0, NULL, NULL, "StartTime", 0, si_start, "time/start", sj_start },
	{ 0, NULL, NULL, "TimeLimit", 0, si_limit, "time/limit", sj_limit },
	{ 0, NULL, NULL, "State", NL, si_state, "state", sj_state },
	{ 0, NULL, NULL, "Partition", 0, si_partition, "partition", NULL },
	{ 0, NULL, NULL, "NodeList", 0, si_nodes, "nodes", NULL },
	{ 0, NULL, NULL, "Nodes", NL, si_node_cnt, NULL, NULL },
	{ 0, NULL, NULL, "CPUs", 0, si_cpus, "number_cpus", sj_cpus },
	{ 0, NULL, NULL, "Tasks", 0, si_tasks, "number_tasks", sj_tasks },
	{ 0, NULL, NULL, "Name", 0, si_name, "name", NULL },
	{ 0, NULL, NULL, "Network", 0, si_none, "network", NULL },
	{ 0, NULL, NULL, "TRES", NL, si_tres, "tres/allocation", NULL },
	{ 0, NULL, NULL, "ResvPorts", NL, si_none, "reserved_ports", NULL },
	{ 0, NULL, NULL, "CPUFreqReq", NL, si_cpufreq, NULL, NULL },
	{ 0, NULL, NULL, "Dist", OPT, si_dist, "task/distribution", NULL },
	{ 0, NULL, NULL, "SrunHost:Pid", NL, si_srun, NULL, NULL },

	/* JSON only */
	{ 0, NULL, NULL, NULL, 0, si_none, "array/job_id", sj_array_job },
	{ 0, NULL, NULL, NULL, 0, si_none, "array/task_id", sj_array_task },
	{ 0, NULL, NULL, NULL, 0, si_none, "cluster", NULL },
	{ 0, NULL, NULL, NULL, 0, si_none, "container", NULL },
	{ 0, NULL, NULL, NULL, 0, si_none, "container_id", NULL },
	{ 0, NULL, NULL, NULL, 0, si_none, "cpu/frequency/min", sj_unset32 },
	{ 0, NULL, NULL, NULL, 0, si_none, "cpu/frequency/max", sj_unset32 },
	{ 0, NULL, NULL, NULL, 0, si_none, "cpu/frequency/governor",
	  sj_unset32 },
	{ 0, NULL, NULL, NULL, 0, si_srun_host, "srun/host", NULL },
	{ 0, NULL, NULL, NULL, 0, si_none, "srun/pid", sj_srun_pid },
	{ 0, NULL, NULL, NULL, 0, si_none, "stderr", NULL },
	{ 0, NULL, NULL, NULL, 0, si_none, "stderr_expanded", NULL },
	{ 0, NULL, NULL, NULL, 0, si_none, "stdin", NULL },
	{ 0, NULL, NULL, NULL, 0, si_none, "stdin_expanded", NULL },
	{ 0, NULL, NULL, NULL, 0, si_none, "stdout", NULL },
	{ 0, NULL, NULL, NULL, 0, si_none, "stdout_expanded", NULL },
	{ 0, NULL, NULL, NULL, 0, si_none, "submit_line", NULL },
	{ 0, NULL, NULL, NULL, 0, si_none, "time/running", sj_running },
	{ 0, NULL, NULL, NULL, 0, si_none, "tres/binding", NULL },
	{ 0, NULL, NULL, NULL, 0, si_none, "tres/frequency", NULL },
	{ 0, NULL, NULL, NULL, 0, si_none, "tres/per/cpu", NULL },
	{ 0, NULL, NULL, NULL, 0, si_none, "tres/per/memory", NULL },
	{ 0, NULL, NULL, NULL, 0, si_none, "tres/per/node", NULL },
	{ 0, NULL, NULL, NULL, 0, si_none, "tres/per/socket", NULL },
	{ 0, NULL, NULL, NULL, 0, si_none, "tres/per/step", NULL },
	{ 0, NULL, NULL, NULL, 0, si_none, "tres/per/task", NULL },
	{ 0, NULL, NULL, NULL, 0, si_user, "user", NULL },
	{ 0, NULL, NULL, NULL, 0, NULL, NULL, NULL },
};

/* Local macros end here (as the other tables). */
#undef INT_JSON
#undef JSN
#undef NL
#undef OPT
#undef ST
#undef STR_TEXT
#undef TXT
#undef U32_TEXT
