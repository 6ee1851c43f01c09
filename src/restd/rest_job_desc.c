/* rest_job_desc.c — the job_desc_msg property table and its walk.
 *
 * Each row is one property: the data_parser versions that have it, the
 * converter (rest_job_conv.c) that checks its value and stores it, and
 * the job_desc_t field it lands in.  A converter fills the field as
 * sbatch's option setter does (cli_opt_set.c), so the controller sees
 * the same request for "tasks": 4 as for --ntasks=4.  Rows marked UPD
 * may appear in a job update (rest_job_update.c).  doc/rest.md lists
 * the table.
 */
#include <stddef.h>
#include <string.h>

#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "restd/rest_job_desc_int.h"
#include "restd/rest_val.h"
#include "slurm/slurm_errno.h"

#define VER_MIN 40
#define VER_MAX 43

/* ---- the table ---- */

#define OFF(f) offsetof(job_desc_t, f)
#define ALLV 40, 43
#define U16 1, 0xfffd
#define U32 1, (int64_t) NO_VAL32 - 1
#define NOARGS 0, 0, 0, NULL
#define S(name, f, upd) { name, ALLV, rest_cv_str, OFF(f), 0, 0, NULL, upd }
#define RF(name) { name, ALLV, rest_cv_refuse, NOARGS, false }
#define RFV(name, v0, v1) { name, v0, v1, rest_cv_refuse, NOARGS, false }
#define UPD true
#define NOU false

static const rest_jd_prop_t jd_props[] = {
	S("account", account, UPD),
	{ "account_gather_frequency", ALLV, rest_cv_acctg_freq, 0, 0, 0, NULL,
	  NOU },
	RF("admin_comment"),
	S("allocation_node_list", submit_host, NOU),
	RF("allocation_node_port"),
	{ "argv", ALLV, rest_cv_strlist, OFF(argv), 0, 0, NULL, NOU },
	{ "array", ALLV, rest_cv_array, OFF(array_inx), 0, 0, NULL, NOU },
	RF("batch_features"),
	{ "begin_time", ALLV, rest_cv_stamp, OFF(begin_time), 0, 0, NULL, UPD },
	RF("burst_buffer"),
	RF("cluster_constraint"),
	{ "clusters", ALLV, rest_cv_refuse, 0, 0, 0,
	  "not supported by Sluice (one cluster, no federation)", NOU },
	S("comment", comment, UPD),
	S("constraints", features, UPD),
	S("container", container, NOU),
	RF("container_id"),
	{ "contiguous", ALLV, rest_cv_bool16, OFF(contiguous), 0, 0, "flag",
	  NOU },
	RF("core_specification"),
	{ "cores_per_socket", 40, 40, rest_cv_u16, OFF(cores_per_socket), U16,
	  NULL, NOU },
	RF("cpu_binding"),
	RF("cpu_binding_flags"),
	RF("cpu_frequency"),
	{ "cpus_per_task", ALLV, rest_cv_u16, OFF(cpus_per_task), U16, NULL, NOU },
	S("cpus_per_tres", cpus_per_tres, NOU),
	RF("crontab"),
	{ "current_working_directory", ALLV, rest_cv_dir, OFF(work_dir), 0, 0,
	  NULL, NOU },
	{ "deadline", ALLV, rest_cv_stamp, OFF(deadline), 0, 0, NULL, NOU },
	RF("delay_boot"),
	S("dependency", dependency, UPD),
	RF("distribution"),
	RF("distribution_plane_size"),
	RF("end_time"),
	{ "environment", ALLV, rest_cv_env, OFF(environment), 0, 0, NULL, NOU },
	{ "excluded_nodes", ALLV, rest_cv_csv, OFF(exc_nodes), 0, 0, NULL, UPD },
	{ "exclusive", 40, 41, rest_cv_exclusive, OFF(shared), 0, 0, NULL, NOU },
	RF("extra"),
	{ "flags", ALLV, rest_cv_job_flags, OFF(bitflags), 0, 0, NULL, NOU },
	{ "group_id", ALLV, rest_cv_group, OFF(group_id), 0, 0, NULL, NOU },
	{ "hetjob_group", ALLV, rest_cv_refuse, 0, 0, 0,
	  "heterogeneous jobs are not supported by Sluice", NOU },
	{ "hold", ALLV, rest_cv_hold, OFF(hold), 0, 0, NULL, UPD },
	{ "immediate", ALLV, rest_cv_refuse, 0, 0, 0,
	  "not supported by Sluice for a batch job (as sbatch)", NOU },
	{ "job_id", ALLV, rest_cv_job_id, 0, 0, 0, NULL, UPD },
	{ "kill_on_node_fail", ALLV, rest_cv_bool16, OFF(kill_on_node_fail), 0, 0,
	  NULL, NOU },
	{ "kill_warning_delay", ALLV, rest_cv_noval, OFF(warn_time), 0, 0xfffd,
	  NULL, NOU },
	{ "kill_warning_flags", ALLV, rest_cv_warn_flags, OFF(warn_flags), 0, 0,
	  NULL, NOU },
	{ "kill_warning_signal", ALLV, rest_cv_signal, OFF(warn_signal), 0, 0,
	  NULL, NOU },
	S("licenses", licenses, NOU),
	{ "mail_type", ALLV, rest_cv_mail_type, OFF(mail_type), 0, 0, NULL, NOU },
	S("mail_user", mail_user, NOU),
	RF("maximum_cpus"),
	{ "maximum_nodes", ALLV, rest_cv_u32, OFF(max_nodes), U32, NULL, UPD },
	RF("mcs_label"),
	RF("memory_binding"),
	RF("memory_binding_type"),
	{ "memory_per_cpu", ALLV, rest_cv_mem, OFF(pn_min_memory), 0, 0, "cpu",
	  NOU },
	{ "memory_per_node", ALLV, rest_cv_mem, OFF(pn_min_memory), 0, 0, NULL,
	  NOU },
	{ "memory_per_tres", ALLV, rest_cv_mem_tres, OFF(mem_per_tres), 0, 0, NULL,
	  NOU },
	RF("minimum_boards_per_node"),
	{ "minimum_cpus", ALLV, rest_cv_min_cpus, OFF(min_cpus), 0,
	  (int64_t) NO_VAL32 - 1, NULL, NOU },
	{ "minimum_cpus_per_node", ALLV, rest_cv_min_cpus, OFF(min_cpus), 0,
	  (int64_t) NO_VAL32 - 1, NULL, NOU },
	{ "minimum_nodes", ALLV, rest_cv_u32, OFF(min_nodes), U32, NULL, UPD },
	RF("minimum_sockets_per_board"),
	S("name", name, UPD),
	RF("network"),
	{ "nice", ALLV, rest_cv_nice, OFF(nice), 0, 0, NULL, UPD },
	{ "nodes", ALLV, rest_cv_nodes, OFF(min_nodes), 0, 0, NULL, UPD },
	RF("ntasks_per_tres"),
	RFV("oom_kill_step", 42, 43),
	{ "open_mode", ALLV, rest_cv_open_mode, OFF(open_mode), 0, 0, NULL, NOU },
	RF("overcommit"),
	{ "oversubscribe", 40, 41, rest_cv_oversubscribe, OFF(shared), 0, 0, NULL,
	  NOU },
	S("partition", partition, UPD),
	{ "power_flags", ALLV, rest_cv_ignore, 0, 0, 0, NULL, NOU },
	RF("prefer"),
	{ "priority", ALLV, rest_cv_priority, OFF(priority), 0, 0, NULL, UPD },
	{ "profile", ALLV, rest_cv_profile, 0, 0, 0, NULL, NOU },
	S("qos", qos, UPD),
	RF("reboot"),
	{ "requeue", ALLV, rest_cv_bool16, OFF(requeue), 0, 0, NULL, UPD },
	{ "required_nodes", ALLV, rest_cv_csv, OFF(req_nodes), 0, 0, NULL, UPD },
	RF("required_switches"),
	S("reservation", reservation, UPD),
	RF("reserve_ports"),
	RFV("resv_mpi_ports", 41, 41),
	{ "rlimits", ALLV, rest_cv_refuse, 0, 0, 0, "not supported by Sluice "
	  "(the job takes the node's limits)", NOU },
	S("script", script, NOU),
	RFV("segment_size", 41, 43),
	RF("selinux_context"),
	{ "shared", ALLV, rest_cv_shared, OFF(shared), 0, 0, NULL, NOU },
	RF("site_factor"),
	{ "sockets_per_node", ALLV, rest_cv_u16, OFF(sockets_per_node), U16, NULL,
	  NOU },
	RF("spank_environment"),
	S("standard_error", std_err, NOU),
	S("standard_input", std_in, NOU),
	S("standard_output", std_out, NOU),
	{ "tasks", ALLV, rest_cv_u32, OFF(num_tasks), U32, NULL, NOU },
	RF("tasks_per_board"),
	{ "tasks_per_core", ALLV, rest_cv_u32, OFF(ntasks_per_core), U32, NULL,
	  NOU },
	{ "tasks_per_node", ALLV, rest_cv_u16, OFF(ntasks_per_node), U16, NULL,
	  NOU },
	RF("tasks_per_socket"),
	{ "temporary_disk_per_node", ALLV, rest_cv_u32, OFF(tmp_disk), 0,
	  (int64_t) UINT32_MAX - 2, NULL, NOU },
	RF("thread_specification"),
	{ "threads_per_core", ALLV, rest_cv_u16, OFF(threads_per_core), U16, NULL,
	  NOU },
	{ "time_limit", ALLV, rest_cv_time, OFF(time_limit), 0,
	  (int64_t) NO_VAL32 - 1, NULL, UPD },
	{ "time_minimum", ALLV, rest_cv_time, OFF(time_min), 0,
	  (int64_t) NO_VAL32 - 1, NULL, NOU },
	RF("tres_bind"),
	RF("tres_freq"),
	S("tres_per_job", tres_per_job, NOU),
	S("tres_per_node", gres, NOU),
	RF("tres_per_socket"),
	S("tres_per_task", tres_per_task, NOU),
	{ "user_id", ALLV, rest_cv_user, OFF(user_id), 0, 0, NULL, NOU },
	RF("wait_all_nodes"),
	RF("wait_for_switch"),
	S("wckey", wckey, NOU),
	{ "x11", ALLV, rest_cv_x11, NOARGS, false },
	{ "x11_magic_cookie", ALLV, rest_cv_x11, NOARGS, false },
	{ "x11_target_host", ALLV, rest_cv_x11, NOARGS, false },
	{ "x11_target_port", ALLV, rest_cv_x11, NOARGS, false },
};
#define N_PROPS (sizeof(jd_props) / sizeof(jd_props[0]))

static const rest_jd_prop_t *prop_find(const char *name, int ver)
{
	for (size_t i = 0; i < N_PROPS; i++)
		if (!strcmp(jd_props[i].name, name) &&
		    ver >= jd_props[i].vmin && ver <= jd_props[i].vmax)
			return &jd_props[i];
	return NULL;
}

bool rest_jd_version_ok(int ver)
{
	return ver >= VER_MIN && ver <= VER_MAX;
}

/* ---- checks across properties (as cli_opt_validate) ---- */

static int jd_check(rest_jd_ctx_t *c, const char *base)
{
	job_desc_t *d = c->d;
	char *path = NULL;
	int rc = 0;

	if (c->mem_kinds == RJ_MEM_TRES) {
		d->pn_min_memory = NO_VAL64;   /* as --mem-per-gpu */
		d->mem_per_cpu = false;
	}
	if (__builtin_popcount(c->mem_kinds) > 1) {
		rc = rest_val_fail(c->err, base, "memory_per_node, "
				   "memory_per_cpu and memory_per_tres are "
				   "mutually exclusive");
	} else if (d->deadline && d->begin_time &&
		   d->begin_time > d->deadline) {
		path = xstrdup_printf("%s.begin_time", base);
		rc = rest_val_fail(c->err, path, "Incompatible begin and "
				   "deadline time specification");
	} else if (d->min_nodes != NO_VAL32 && d->max_nodes != NO_VAL32 &&
		   d->max_nodes < d->min_nodes) {
		path = xstrdup_printf("%s.maximum_nodes", base);
		rc = rest_val_fail(c->err, path, "Maximum node count %u is "
				   "less than minimum node count %u",
				   d->max_nodes, d->min_nodes);
	}
	xfree(path);
	if (rc || c->x->update)
		return rc;
	/* --signal=SIG without @time warns 60 s before the limit */
	if (d->warn_signal != NO_VAL16 && d->warn_time == NO_VAL16)
		d->warn_time = 60;
	if (d->num_tasks != NO_VAL32 && d->min_nodes != NO_VAL32 &&
	    d->num_tasks < d->min_nodes) {
		path = xstrdup_printf("%s.tasks", base);
		rest_warn(c->warnings, path, "can't run %u processes on %u "
			  "nodes, setting nnodes to %u", d->num_tasks,
			  d->min_nodes, d->num_tasks);
		xfree(path);
		d->min_nodes = d->num_tasks;
		if (d->max_nodes != NO_VAL32 && d->max_nodes > d->num_tasks)
			d->max_nodes = d->num_tasks;
	}
	return 0;
}

/* ---- the walk ---- */

int rest_jd_walk(json_object *job, const char *base, int ver, job_desc_t *d,
		 rest_jd_extra_t *x, json_object *warnings, char **err)
{
	rest_jd_ctx_t c = {
		.d = d, .x = x, .ver = ver, .warnings = warnings, .err = err,
	};

	if (!job || !json_object_is_type(job, json_type_object)) {
		rest_val_fail(err, base, "expected an object");
		return ESLURM_REST_FAIL_PARSING;
	}
	json_object_object_foreach(job, key, val) {
		const rest_jd_prop_t *p = prop_find(key, ver);
		char *path = xstrdup_printf("%s.%s", base, key);
		int rc = 0;

		if (!p)
			rest_warn(warnings, path, "Ignoring unknown field "
				  "\"%s\" of type %s in job_desc_msg", key,
				  json_type_to_name(json_object_get_type(val)));
		else if (!val || json_object_is_type(val, json_type_null))
			;   /* null: not given */
		else if (x->update && !p->upd) {
			if (!rest_val_is_empty(val))   /* empty: asks nothing */
				rc = rest_jd_refuse(&c, path, "not supported "
						    "by Sluice in a job "
						    "update");
		} else {
			c.rc = ESLURM_REST_FAIL_PARSING;
			rc = p->conv(p, val, path, &c);
		}
		xfree(path);
		if (rc)
			return c.rc;
	}
	return jd_check(&c, base) ? ESLURM_REST_FAIL_PARSING : 0;
}
