/* cli_scontrol_update.c — scontrol update (jobs, nodes) and
 * hold/uhold/release, with Slurm's messages.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli/cli_common.h"
#include "cli/cli_resv.h"
#include "cli/cli_scontrol.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/node_info.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

bool scontrol_kw(const char *word, const char *kw, size_t min)
{
	size_t n = strlen(word);

	return n >= min && n <= strlen(kw) && !strncasecmp(word, kw, n);
}

/* Split "Key=Value" into key (copied) and value (pointer into arg). */
static char *split_kv(const char *arg, const char **val)
{
	const char *eq = strchr(arg, '=');

	if (!eq) {
		*val = NULL;
		return xstrdup(arg);
	}
	*val = eq + 1;
	return xstrndup(arg, (size_t)(eq - arg));
}

static int update_rc(int err, int rc, bool quiet)
{
	if (err) {
		if (!quiet)
			fprintf(stderr, "slurm_update error: %s\n",
				cli_comm_strerror(err));
		return 1;
	}
	if (rc) {
		if (!quiet)
			fprintf(stderr, "slurm_update error: %s\n",
				slurm_strerror(rc));
		return 1;
	}
	return 0;
}

static int bad_value(const char *key, const char *val)
{
	fprintf(stderr, "Invalid input: %s=%s\n", key, val ? val : "");
	fprintf(stderr, "Request aborted\n");
	return -1;
}

/* ---- nodes ---- */

static const struct {
	const char *name;
	uint32_t    state;
	bool        need_reason;
} node_states[] = {
	{ "DOWN", NODE_STATE_DOWN, true },
	{ "DRAIN", NODE_STATE_DRAIN, true },
	{ "FAIL", NODE_STATE_FAIL, true },
	{ "RESUME", NODE_RESUME, false },
	{ "UNDRAIN", NODE_STATE_UNDRAIN, false },
	{ "CANCEL_REBOOT", NODE_STATE_REBOOT_CANCEL, false },
	{ "IDLE", NODE_STATE_IDLE, false },
	{ "NORESP", NODE_STATE_NO_RESPOND, false },
	{ "FUTURE", NODE_STATE_FUTURE, false },
};

/* State=POWER_* go as scontrol power does (REQUEST_POWER_NODES). */
static const struct {
	const char *name;
	uint16_t    flags;
} power_states[] = {
	{ "POWER_DOWN", POWER_FLAGS_DOWN },
	{ "POWER_DOWN_ASAP", POWER_FLAGS_DOWN | POWER_FLAGS_ASAP },
	{ "POWER_DOWN_FORCE", POWER_FLAGS_DOWN | POWER_FLAGS_FORCE },
	{ "POWER_UP", POWER_FLAGS_UP },
};

static uint16_t power_state_value(const char *val)
{
	for (size_t i = 0; i < sizeof(power_states) / sizeof(power_states[0]);
	     i++)
		if (val && !strcasecmp(val, power_states[i].name))
			return power_states[i].flags;
	return 0;
}

static int node_state_value(const char *val, uint32_t *state, bool *reason)
{
	for (size_t i = 0; i < sizeof(node_states) / sizeof(node_states[0]); i++) {
		if (val && !strcasecmp(val, node_states[i].name)) {
			*state = node_states[i].state;
			*reason = node_states[i].need_reason;
			return 0;
		}
	}
	fprintf(stderr, "Invalid input: State=%s\n", val ? val : "");
	fprintf(stderr, "Request aborted\n");
	fprintf(stderr, "Valid states are: NoResp DRAIN FAIL FUTURE RESUME "
		"POWER_DOWN POWER_UP UNDRAIN CANCEL_REBOOT DOWN IDLE\n");
	return -1;
}

static int node_kv(node_update_msg_t *u, const char *key, const char *val,
		   bool *need_reason, uint16_t *power)
{
	long w;
	char *end;

	if (!xstrcasecmp(key, "NodeName")) {
		xfree(u->node_names);
		u->node_names = xstrdup(val);
	} else if (!xstrcasecmp(key, "State") && power_state_value(val)) {
		*power = power_state_value(val);
	} else if (!xstrcasecmp(key, "State")) {
		if (node_state_value(val, &u->node_state, need_reason) < 0)
			return -1;
	} else if (!xstrcasecmp(key, "NodeAddr")) {
		xfree(u->node_addr);
		u->node_addr = xstrdup(val);
	} else if (!xstrcasecmp(key, "NodeHostname")) {
		xfree(u->node_hostname);
		u->node_hostname = xstrdup(val);
	} else if (!xstrcasecmp(key, "Reason")) {
		xfree(u->reason);
		u->reason = xstrdup(val);
	} else if (!xstrcasecmp(key, "Features") ||
		   !xstrcasecmp(key, "AvailableFeatures")) {
		xfree(u->features);
		u->features = xstrdup(val);
	} else if (!xstrcasecmp(key, "Gres")) {
		xfree(u->gres);
		u->gres = xstrdup(val);
	} else if (!xstrcasecmp(key, "Comment")) {
		xfree(u->comment);
		u->comment = xstrdup(val);
	} else if (!xstrcasecmp(key, "Weight")) {
		w = val ? strtol(val, &end, 10) : -1;
		if (!val || *end || w < 0)
			return bad_value(key, val);
		u->weight = (uint32_t)w;
	} else {
		fprintf(stderr, "Update of this parameter is not supported: %s=%s\n",
			key, val ? val : "");
		fprintf(stderr, "Request aborted\n");
		return -1;
	}
	return 0;
}

static int update_node(int argc, char **argv, bool quiet)
{
	node_update_msg_t u = {
		.node_state = NO_VAL32, .weight = NO_VAL32,
		.reason_uid = NO_VAL32,
	};
	bool need_reason = false;
	uint16_t power = 0;
	int rc = 1, remote = 0, err;

	for (int i = 0; i < argc; i++) {
		const char *val;
		char *key = split_kv(argv[i], &val);
		int r = node_kv(&u, key, val, &need_reason, &power);

		xfree(key);
		if (r < 0)
			goto cleanup;
	}
	if (need_reason && (!u.reason || !*u.reason)) {
		fprintf(stderr, "You must specify a reason when DOWNING or "
			"DRAINING a node. Request denied\n");
		goto cleanup;
	}
	if (power) {
		power_msg_t p = { .node_list = u.node_names,
				  .reason = u.reason, .flags = power };

		err = cli_ctld_rpc_rc(REQUEST_POWER_NODES, &p, &remote);
		rc = update_rc(err, remote, quiet);
		goto cleanup;
	}
	err = cli_ctld_rpc_rc(REQUEST_UPDATE_NODE, &u, &remote);
	rc = update_rc(err, remote, quiet);
cleanup:
	xfree(u.node_addr);
	xfree(u.node_hostname);
	xfree(u.node_names);
	xfree(u.reason);
	xfree(u.features);
	xfree(u.gres);
	xfree(u.comment);
	return rc;
}

/* ---- jobs ---- */

static int job_u32(const char *key, const char *val, uint32_t *out)
{
	char *end;
	unsigned long v;

	if (!val || !*val || !isdigit((unsigned char)val[0]))
		return bad_value(key, val);
	v = strtoul(val, &end, 10);
	if (*end || v >= NO_VAL32)
		return bad_value(key, val);
	*out = (uint32_t)v;
	return 0;
}

static int job_nodes(job_update_msg_t *u, const char *key, const char *val)
{
	char *min_s = xstrdup(val ? val : ""), *max_s = strchr(min_s, '-');
	int rc = 0;

	if (max_s)
		*max_s++ = '\0';
	if (job_u32(key, min_s, &u->min_nodes) < 0 ||
	    (max_s && job_u32(key, max_s, &u->max_nodes) < 0))
		rc = -1;
	xfree(min_s);
	return rc;
}

static int job_nice(job_update_msg_t *u, const char *key, const char *val)
{
	char *end;
	long v = val ? strtol(val, &end, 10) : 0;

	if (!val || !*val || *end || v <= -(long)(NICE_OFFSET - 3) ||
	    v >= (long)(NICE_OFFSET - 3))
		return bad_value(key, val);
	u->nice = NICE_OFFSET + (uint32_t)v;
	return 0;
}

/* TimeLimit=, or TimeLimit+= / TimeLimit-= relative to the job's
 * current limit (*delta_sign set, resolved once the job is known). */
static int job_time(job_update_msg_t *u, const char *key, const char *val,
		    int *delta_sign)
{
	size_t n = strlen(key);

	if (n && (key[n - 1] == '+' || key[n - 1] == '-'))
		*delta_sign = key[n - 1] == '+' ? 1 : -1;
	if (!val || parse_duration_min(val, &u->time_limit) < 0 ||
	    u->time_limit == NO_VAL32 ||
	    (*delta_sign && u->time_limit == INFINITE32)) {
		fprintf(stderr, "Invalid TimeLimit value\n");
		return -1;
	}
	return 0;
}

/* The job's time limit now, for TimeLimit+= / -=; 0 or -1. */
static int job_current_limit(const char *id, uint32_t *limit)
{
	job_info_request_msg_t req = { .user_id = NO_VAL32 };
	slurm_msg_t resp = { 0 };
	uint32_t jid;
	int rc = -1;

	if (!id || parse_u32(id, &jid) < 0)
		return -1;
	req.job_ids = &jid;
	req.job_id_cnt = 1;
	if (cli_ctld_rpc(REQUEST_JOB_INFO, &req, &resp))
		return -1;
	if (resp.type == RESPONSE_JOB_INFO && resp.data &&
	    ((job_info_msg_t *) resp.data)->cnt == 1) {
		*limit = ((job_info_msg_t *) resp.data)->jobs[0].time_limit;
		rc = 0;
	}
	msg_free(&resp);
	return rc;
}

static int job_begin(job_update_msg_t *u, const char *key, const char *val)
{
	if (!val || parse_time(val, time(NULL), &u->begin_time) < 0) {
		fprintf(stderr, "Invalid StartTime value\n");
		return -1;
	}
	return 0;
}

static void job_str(char **field, const char *val)
{
	xfree(*field);
	*field = xstrdup(val ? val : "");
}

static int job_kv(job_update_msg_t *u, const char *key, const char *val,
		  int *delta_sign)
{
	int r;

	if (!xstrcasecmp(key, "JobId")) {
		job_str(&u->job_id_str, val);
		return 0;
	}
	if (!xstrcasecmp(key, "TimeLimit") || !xstrcasecmp(key, "TimeLimit+") ||
	    !xstrcasecmp(key, "TimeLimit-"))
		return job_time(u, key, val, delta_sign);
	if (!xstrcasecmp(key, "Priority"))
		return job_u32(key, val, &u->priority);
	if (!xstrcasecmp(key, "Nice"))
		return job_nice(u, key, val);
	if (!xstrcasecmp(key, "NumNodes") || !xstrcasecmp(key, "ReqNodes"))
		return job_nodes(u, key, val);
	if (!xstrcasecmp(key, "StartTime") || !xstrcasecmp(key, "BeginTime"))
		return job_begin(u, key, val);
	if (!xstrcasecmp(key, "ArrayTaskThrottle"))
		return job_u32(key, val, &u->array_max_tasks);
	if (!xstrcasecmp(key, "Name") || !xstrcasecmp(key, "JobName"))
		job_str(&u->name, val);
	else if (!xstrcasecmp(key, "Comment"))
		job_str(&u->comment, val);
	else if (!xstrcasecmp(key, "Reservation") ||
		 !xstrcasecmp(key, "ReservationName"))
		job_str(&u->reservation, val);
	else if (!xstrcasecmp(key, "Partition"))
		job_str(&u->partition, val);
	else if (!xstrcasecmp(key, "Features"))
		job_str(&u->features, val);
	else if (!xstrcasecmp(key, "Licenses"))
		job_str(&u->licenses, val);
	else if (!xstrcasecmp(key, "ExcNodeList"))
		job_str(&u->exc_nodes, val);
	else if (!xstrcasecmp(key, "ReqNodeList") ||
		 !xstrcasecmp(key, "NodeList"))
		job_str(&u->req_nodes, val);
	else if (!xstrcasecmp(key, "Dependency"))
		job_str(&u->dependency, val);
	else if (!xstrcasecmp(key, "Account"))
		job_str(&u->account, val);
	else if (!xstrcasecmp(key, "QOS"))
		job_str(&u->qos, val);
	else if (!xstrcasecmp(key, "Requeue"))
		u->requeue = val && !strcmp(val, "0") ? 0 : 1;
	else if ((r = scontrol_job_kv_more(u, key, val)) <= 0)
		return r;
	else {
		fprintf(stderr, "Update of this parameter is not supported: %s=%s\n",
			key, val ? val : "");
		fprintf(stderr, "Request aborted\n");
		return -1;
	}
	return 0;
}

/* The job's record now (free with job_info_free_members), or -1. */
static int job_lookup(const char *id, job_info_t *out)
{
	job_info_request_msg_t req = { .user_id = NO_VAL32 };
	slurm_msg_t resp = { 0 };
	uint32_t jid;
	int rc = -1;

	if (!id || parse_u32(id, &jid) < 0)
		return -1;
	req.job_ids = &jid;
	req.job_id_cnt = 1;
	if (cli_ctld_rpc(REQUEST_JOB_INFO, &req, &resp))
		return -1;
	if (resp.type == RESPONSE_JOB_INFO && resp.data &&
	    ((job_info_msg_t *) resp.data)->cnt == 1) {
		fields_copy(job_info_fields, out,
			    &((job_info_msg_t *) resp.data)->jobs[0]);
		rc = 0;
	}
	msg_free(&resp);
	return rc;
}

/* As Slurm's scontrol: a size change made from inside a job's
 * environment writes slurm_job_<id>_resize.sh and .csh in the working
 * directory, for the job's script to take the new SLURM_* values. */
static void job_resize_scripts(const char *id)
{
	job_info_t j = { 0 };
	char sh[64], csh[64];
	FILE *f, *g;

	if (!getenv("SLURM_JOBID") && !getenv("SLURM_JOB_ID"))
		return;
	if (job_lookup(id, &j) < 0)
		return;
	if ((j.job_state & JOB_STATE_BASE) != JOB_RUNNING || !j.nodes)
		goto out;
	snprintf(sh, sizeof(sh), "slurm_job_%u_resize.sh", j.job_id);
	snprintf(csh, sizeof(csh), "slurm_job_%u_resize.csh", j.job_id);
	if (!(f = fopen(sh, "w"))) {
		fprintf(stderr, "Could not create file %s: %m\n", sh);
		goto out;
	}
	if (!(g = fopen(csh, "w"))) {
		fprintf(stderr, "Could not create file %s: %m\n", csh);
		fclose(f);
		goto out;
	}
	fprintf(f, "export SLURM_NODELIST=\"%s\"\n"
		"export SLURM_JOB_NODELIST=\"%s\"\n"
		"export SLURM_NNODES=%u\n"
		"export SLURM_JOB_NUM_NODES=%u\n"
		"export SLURM_JOB_CPUS_PER_NODE=\"%s\"\n"
		"unset SLURM_NPROCS\n"
		"unset SLURM_NTASKS\n"
		"unset SLURM_TASKS_PER_NODE\n", j.nodes, j.nodes,
		j.num_nodes, j.num_nodes,
		j.cpus_per_node_str ? j.cpus_per_node_str : "");
	fprintf(g, "setenv SLURM_NODELIST \"%s\"\n"
		"setenv SLURM_JOB_NODELIST \"%s\"\n"
		"setenv SLURM_NNODES %u\n"
		"setenv SLURM_JOB_NUM_NODES %u\n"
		"setenv SLURM_JOB_CPUS_PER_NODE \"%s\"\n"
		"unsetenv SLURM_NPROCS\n"
		"unsetenv SLURM_NTASKS\n"
		"unsetenv SLURM_TASKS_PER_NODE\n", j.nodes, j.nodes,
		j.num_nodes, j.num_nodes,
		j.cpus_per_node_str ? j.cpus_per_node_str : "");
	fclose(f);
	fclose(g);
	printf("To reset Slurm environment variables, execute\n"
	       "  For bash or sh shells:  . ./%s\n"
	       "  For csh shells:         source ./%s\n", sh, csh);
out:
	fields_free(job_info_fields, &j);
}

static int update_job(int argc, char **argv, bool quiet)
{
	job_update_msg_t u;
	int rc = 1, remote = 0, err, delta = 0;
	uint32_t now_limit;

	job_update_init(&u);
	for (int i = 0; i < argc; i++) {
		const char *val;
		char *key = split_kv(argv[i], &val);
		int r = job_kv(&u, key, val, &delta);

		xfree(key);
		if (r < 0)
			goto cleanup;
	}
	if (delta) {
		if (job_current_limit(u.job_id_str, &now_limit) < 0 ||
		    now_limit == INFINITE32 || now_limit == NO_VAL32) {
			fprintf(stderr, "Invalid TimeLimit value\n");
			goto cleanup;
		}
		if (delta < 0)
			u.time_limit = u.time_limit >= now_limit ? 1 :
				now_limit - u.time_limit;
		else
			u.time_limit += now_limit;
	}
	err = cli_ctld_rpc_rc(REQUEST_UPDATE_JOB, &u, &remote);
	if (err || remote) {
		if (!quiet)
			fprintf(stderr, "%s for job %s\n",
				err ? cli_comm_strerror(err) :
				slurm_strerror(remote),
				u.job_id_str ? u.job_id_str : "");
		rc = 1;
	} else {
		rc = 0;
		if (u.min_nodes != NO_VAL32 || u.req_nodes)
			job_resize_scripts(u.job_id_str);
	}
cleanup:
	job_update_free_members(&u);
	return rc;
}

int scontrol_update(int argc, char **argv, bool quiet)
{
	/* "update job 12 Key=Value..." is taken as "update JobId=12 ..." */
	if (argc >= 2 && (!strcasecmp(argv[0], "job") ||
			  !strcasecmp(argv[0], "jobid")) && !strchr(argv[1], '=')) {
		char *id = xstrdup_printf("JobId=%s", argv[1]);
		char **v = xcalloc((size_t) argc, sizeof(*v));
		int rc;

		v[0] = id;
		for (int i = 2; i < argc; i++)
			v[i - 1] = argv[i];
		rc = update_job(argc - 1, v, quiet);
		xfree(id);
		xfree(v);
		return rc;
	}
	for (int i = 0; i < argc; i++) {
		if (xstrcaseprefix(argv[i], "ReservationName=") ||
		    xstrcaseprefix(argv[i], "Reservation="))
			return scontrol_resv_update(argc, argv, quiet);
		if (xstrcaseprefix(argv[i], "NodeName="))
			return update_node(argc, argv, quiet);
		if (scontrol_is_part_word(argv[i]))
			return scontrol_part_update(argc, argv);
		if (xstrcaseprefix(argv[i], "JobId="))
			return update_job(argc, argv, quiet);
	}
	if (argc == 0)
		fprintf(stderr, "too few arguments for keyword:update\n");
	else
		fprintf(stderr, "No valid entity in update command\n"
			"Input line must include \"NodeName\", \"PartitionName\", "
			"\"JobId\" or \"ReservationName\"\n");
	return 1;
}

/* ---- hold / uhold / release ---- */

/* One hold/release request; 0 or 1. */
static int hold_one(const char *op, const char *id, bool quiet)
{
	job_hold_msg_t h = {
		.job_id_str = (char *)id,
		.hold = strcmp(op, "release") != 0,
		.user_hold = !strcmp(op, "uhold"),
	};
	int remote = 0, err = cli_ctld_rpc_rc(REQUEST_JOB_HOLD, &h, &remote);

	if (err) {
		if (!quiet)
			fprintf(stderr, "slurm_suspend error: %s\n",
				cli_comm_strerror(err));
		return 1;
	}
	if (remote) {
		if (!quiet) {
			fprintf(stderr, "%s for job %s\n",
				slurm_strerror(remote), id);
			fprintf(stderr, "slurm_suspend error: %s\n",
				slurm_strerror(remote));
		}
		return 1;
	}
	return 0;
}

/* "jobname=X": every job of that name that has not finished (as Slurm:
 * other users' jobs answer their error, no match is no error). */
static int hold_by_name(const char *op, const char *name, bool quiet)
{
	job_info_request_msg_t req = { .user_id = NO_VAL32 };
	slurm_msg_t resp = { 0 };
	job_info_msg_t *m;
	int rc = 0, err = cli_ctld_rpc(REQUEST_JOB_INFO, &req, &resp);

	if (err) {
		if (!quiet)
			fprintf(stderr, "slurm_load_jobs error: %s\n",
				cli_comm_strerror(err));
		return 1;
	}
	m = resp.type == RESPONSE_JOB_INFO ? resp.data : NULL;
	for (uint32_t k = 0; m && k < m->cnt; k++) {
		const job_info_t *j = &m->jobs[k];
		char id[32];

		if (xstrcmp(j->name, name) || job_state_is_finished(j->job_state) ||
		    (j->job_state & JOB_STATE_BASE) >= JOB_COMPLETE)
			continue;
		if (j->array_job_id && j->array_task_id != NO_VAL32)
			snprintf(id, sizeof(id), "%u_%u", j->array_job_id,
				 j->array_task_id);
		else
			snprintf(id, sizeof(id), "%u", j->job_id);
		if (hold_one(op, id, quiet))
			rc = 1;
	}
	msg_free(&resp);
	return rc;
}

/* Job ids may be given as separate words or a comma-separated list. */
int scontrol_hold(const char *op, int argc, char **argv, bool quiet)
{
	int rc = 0;

	if (argc == 0) {
		fprintf(stderr, "too few arguments for keyword:%s\n", op);
		return 1;
	}
	for (int i = 0; i < argc; i++) {
		char **ids;

		if (!strncasecmp(argv[i], "jobname=", 8)) {
			if (hold_by_name(op, argv[i] + 8, quiet))
				rc = 1;
			continue;
		}
		ids = xstrsplit(argv[i], ",", NULL);

		for (size_t k = 0; ids[k]; k++)
			if (hold_one(op, ids[k], quiet))
				rc = 1;
		xstrarray_free(ids);
	}
	return rc;
}
