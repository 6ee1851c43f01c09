/* scontrol — view and change the controller's state.
 *
 * Commands: show job|node|partition|config|hostnames|hostlist|
 * hostlistsorted, update, hold, uhold, release, ping, reconfigure,
 * shutdown, version.  Keywords are case-insensitive and may be
 * abbreviated.  With no command, commands are read from stdin.
 * Updating commands live in cli_scontrol_update.c.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/cli_opt.h"
#include "cli/cli_output.h"
#include "cli/cli_lic.h"
#include "cli/cli_topo.h"
#include "cli/cli_resv.h"
#include "cli/cli_scontrol.h"
#include "cli/cli_ping.h"
#include "cli/cli_show.h"
#include "cli/cli_show_step.h"
#include "common/array_spec.h"
#include "common/hostlist.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

static struct {
	bool one_liner;
	bool detail;
	bool all;
	bool future;              /* -F: FUTURE nodes too */
	bool json;
	bool yaml;
	bool quiet;
	int  verbose;
	bool conf_loaded;
} sc;

typedef int (*sc_cmd_f)(int argc, char **argv);

static void need_conf(void)
{
	if (sc.conf_loaded)
		return;
	cli_init("scontrol", sc.verbose - (sc.quiet ? 1 : 0));
	sc.conf_loaded = true;
}

static int load_error(const char *what, int err, int rc)
{
	fprintf(stderr, "%s error: %s\n", what,
		err ? cli_comm_strerror(err) : slurm_strerror(rc));
	return 1;
}

/* ---- show job ---- */

/* "123" or "123_4": base id and task (NO_VAL32 if none); -1 if bad. */
static int job_id_parse(const char *s, uint32_t *id, uint32_t *task)
{
	char *end;
	unsigned long v;

	*task = NO_VAL32;
	if (!isdigit((unsigned char)s[0]))
		return -1;
	v = strtoul(s, &end, 10);
	if (!v || v >= NO_VAL32)
		return -1;
	*id = (uint32_t)v;
	if (*end == '_' && isdigit((unsigned char)end[1])) {
		*task = (uint32_t)strtoul(end + 1, &end, 10);
	}
	return *end ? -1 : 0;
}

/* A task not started yet is shown through its array's pending record
 * (as that task). */
static bool job_selected(const job_info_t *j, uint32_t id, uint32_t task)
{
	if (task == NO_VAL32)          /* a hetjob's leader: every component */
		return j->job_id == id || j->array_job_id == id ||
		       j->het_job_id == id;
	if (j->array_job_id != id)
		return false;
	if (j->array_task_id == NO_VAL32)
		return !job_state_is_finished(j->job_state) &&
		       array_spec_contains(j->array_task_str, task);
	return j->array_task_id == task;
}

static int print_jobs(const job_info_msg_t *m, const char *arg,
		      uint32_t id, uint32_t task)
{
	job_info_msg_t sel = { .last_update = m->last_update };

	sel.jobs = xcalloc(m->cnt + 1, sizeof(job_info_t));
	for (uint32_t i = 0; i < m->cnt; i++) {
		if (arg && !job_selected(&m->jobs[i], id, task))
			continue;
		sel.jobs[sel.cnt] = m->jobs[i];   /* shallow */
		if (task != NO_VAL32)
			sel.jobs[sel.cnt].array_task_id = task;
		sel.cnt++;
	}
	if (arg && !sel.cnt && task != NO_VAL32) {
		xfree(sel.jobs);
		printf("Job %s not found\n", arg);
		return 1;
	}
	if (arg && !sel.cnt) {
		xfree(sel.jobs);
		return load_error("slurm_load_jobs", 0, ESLURM_INVALID_JOB_ID);
	}
	if (sc.json || sc.yaml)
		cli_print_jobs_json(stdout, &sel, sc.yaml);
	else if (!sel.cnt)
		printf("No jobs in the system\n");
	for (uint32_t i = 0; !sc.json && !sc.yaml && i < sel.cnt; i++)
		cli_show_job(stdout, &sel.jobs[i], sc.one_liner, sc.detail);
	xfree(sel.jobs);
	return 0;
}

static int show_jobs(const char *arg)
{
	uint32_t id = 0, task = NO_VAL32;
	job_info_request_msg_t req = {
		.user_id = NO_VAL32,
		.show_flags = SHOW_ALL | (sc.detail ? SHOW_DETAIL : 0),
	};
	slurm_msg_t resp;
	int err, rc;

	if (arg && job_id_parse(arg, &id, &task) < 0)
		return load_error("slurm_load_jobs", 0, ESLURM_INVALID_JOB_ID);
	if (arg) {
		req.job_ids = &id;
		req.job_id_cnt = 1;
	}
	if ((err = cli_ctld_rpc(REQUEST_JOB_INFO, &req, &resp)))
		return load_error("slurm_load_jobs", err, 0);
	if (resp.type != RESPONSE_JOB_INFO || !resp.data) {
		rc = cli_resp_rc(&resp);
		msg_free(&resp);
		return load_error("slurm_load_jobs", 0,
				  rc ? rc : SLURM_UNEXPECTED_MSG_ERROR);
	}
	rc = print_jobs(resp.data, arg, id, task);
	msg_free(&resp);
	return rc;
}

/* ---- show node / partition ---- */

static int info_rpc(uint16_t type, uint16_t reply, slurm_msg_t *resp,
		    const char *what)
{
	info_request_msg_t req = { .show_flags = sc.all ? SHOW_ALL : 0 };
	int err, rc;

	if (type == REQUEST_NODE_INFO)
		req.show_flags = SHOW_ALL;
	if ((err = cli_ctld_rpc(type, &req, resp)))
		return load_error(what, err, 0);
	if (resp->type != reply || !resp->data) {
		rc = cli_resp_rc(resp);
		msg_free(resp);
		return load_error(what, 0, rc ? rc : SLURM_UNEXPECTED_MSG_ERROR);
	}
	return 0;
}

static int show_nodes(const char *arg)
{
	node_info_msg_t sel = { 0 };
	hostlist_t *want = NULL;
	slurm_msg_t resp;
	const node_info_msg_t *m;

	if (arg && !(want = hostlist_parse(arg, NULL, 0))) {
		printf("Node %s not found\n", arg);
		return 1;
	}
	if (info_rpc(REQUEST_NODE_INFO, RESPONSE_NODE_INFO, &resp,
		     "slurm_load_node")) {
		hostlist_destroy(want);
		return 1;
	}
	m = resp.data;
	sel.last_update = m->last_update;
	sel.nodes = xcalloc(m->cnt + 1, sizeof(node_info_t));
	for (uint32_t i = 0; i < m->cnt; i++) {
		const node_info_t *n = &m->nodes[i];

		/* FUTURE nodes only with -F, as Slurm */
		if ((n->node_state & NODE_STATE_BASE) == NODE_STATE_FUTURE &&
		    !sc.future)
			continue;
		if (!want || hostlist_find(want, n->name) >= 0)
			sel.nodes[sel.cnt++] = *n;
	}
	if (arg && !sel.cnt)
		printf("Node %s not found\n", arg);
	else if (sc.json || sc.yaml)
		cli_print_nodes_json(stdout, &sel, sc.yaml);
	else if (!sel.cnt)
		printf("No nodes in the system\n");
	for (uint32_t i = 0; !sc.json && !sc.yaml && i < sel.cnt; i++)
		cli_show_node(stdout, &sel.nodes[i], sc.one_liner, sc.detail);
	xfree(sel.nodes);
	msg_free(&resp);
	hostlist_destroy(want);
	return arg && !sel.cnt ? 1 : 0;
}

static int show_parts(const char *arg)
{
	part_info_msg_t sel = { 0 };
	slurm_msg_t resp;
	const part_info_msg_t *m;

	if (info_rpc(REQUEST_PARTITION_INFO, RESPONSE_PARTITION_INFO, &resp,
		     "slurm_load_partitions"))
		return 1;
	m = resp.data;
	sel.last_update = m->last_update;
	sel.parts = xcalloc(m->cnt + 1, sizeof(part_info_t));
	for (uint32_t i = 0; i < m->cnt; i++)
		if (!arg || !xstrcmp(arg, m->parts[i].name))
			sel.parts[sel.cnt++] = m->parts[i];
	if (arg && !sel.cnt)
		printf("Partition %s not found\n", arg);
	else if (sc.json || sc.yaml)
		cli_print_parts_json(stdout, &sel, sc.yaml);
	else if (!sel.cnt)
		printf("No partitions in the system\n");
	for (uint32_t i = 0; !sc.json && !sc.yaml && i < sel.cnt; i++)
		cli_show_part(stdout, &sel.parts[i], sc.one_liner);
	xfree(sel.parts);
	msg_free(&resp);
	return arg && !sel.cnt ? 1 : 0;
}

/* ---- ping and config ---- */

static int ping_ctlds(void)
{
	int down = 0;
	json_object *pings = cli_ping_ctlds(&down);

	if (sc.json || sc.yaml) {
		json_object *doc = cli_output_doc("pings", pings, 0);

		json_object_object_del(doc, "last_update");
		cli_output_doc_print(stdout, doc, sc.yaml);
		return down ? 1 : 0;
	}
	for (size_t i = 0; i < json_object_array_length(pings); i++) {
		json_object *p = json_object_array_get_idx(pings, i), *v;
		const char *host = "", *mode = "", *up = "";

		if (json_object_object_get_ex(p, "hostname", &v))
			host = json_object_get_string(v);
		if (json_object_object_get_ex(p, "mode", &v))
			mode = json_object_get_string(v);
		if (json_object_object_get_ex(p, "pinged", &v))
			up = json_object_get_string(v);
		printf("Slurmctld(%s) at %s is %s\n", mode, host, up);
	}
	json_object_put(pings);
	return down ? 1 : 0;
}

/* Is SlurmctldHost[i] up and standing by (not in control)? */
static bool ctld_standing_by(size_t i)
{
	slurm_msg_t resp;
	const control_status_msg_t *st;
	bool standby;

	if (cli_ctld_rpc_at(i, REQUEST_CONTROL_STATUS, NULL, &resp))
		return false;
	st = resp.data;
	standby = resp.type == RESPONSE_CONTROL_STATUS && st &&
		  !st->control_time;
	msg_free(&resp);
	return standby;
}

/* scontrol takeover [INDEX]: tell a standby controller to take control
 * (it asks the one in control to hand over).  Without INDEX, the first
 * controller of the list that is standing by (Slurm: INDEX=1, which is
 * the same while the primary is in control). */
static int cmd_takeover(int argc, char **argv)
{
	const slurm_conf_t *c;
	slurm_msg_t resp;
	size_t inx = 1;
	int err, rc;

	if (argc > 1) {
		fprintf(stderr, "takeover: too many arguments\n");
		return 1;
	}
	need_conf();
	c = cli_conf();
	if (argc > 0) {
		char *end;
		long v = strtol(argv[0], &end, 10);

		if (*end || v < 0 || (size_t) v >= c->ctld_host_cnt ||
		    end == argv[0]) {
			fprintf(stderr, "invalid takeover index: %s\n", argv[0]);
			return 1;
		}
		inx = (size_t) v;
	} else {
		for (size_t i = 0; i < c->ctld_host_cnt; i++)
			if (ctld_standing_by(i)) {
				inx = i;
				break;
			}
	}
	if (inx >= c->ctld_host_cnt)
		return load_error("slurm_takeover", 0, ESLURM_DISABLED);
	err = cli_ctld_rpc_at(inx, REQUEST_TAKEOVER, NULL, &resp);
	rc = err ? 0 : cli_resp_rc(&resp);
	if (!err)
		msg_free(&resp);
	if (err || rc)
		return load_error("slurm_takeover", err, rc);
	return 0;
}

static int cmd_ping(int argc, char **argv)
{
	need_conf();
	return ping_ctlds();
}

static int show_config(void)
{
	slurm_msg_t resp;
	const config_info_msg_t *m;
	char when[64];
	int err, rc;

	if ((err = cli_ctld_rpc(REQUEST_BUILD_INFO, NULL, &resp)))
		return load_error("slurm_load_ctl_conf", err, 0);
	if (resp.type != RESPONSE_BUILD_INFO || !resp.data) {
		rc = cli_resp_rc(&resp);
		msg_free(&resp);
		return load_error("slurm_load_ctl_conf", 0,
				  rc ? rc : SLURM_UNEXPECTED_MSG_ERROR);
	}
	m = resp.data;
	fmt_time(m->last_update ? m->last_update : time(NULL), when,
		 sizeof(when));
	printf("Configuration data as of %s\n", when);
	for (uint32_t i = 0; i < m->cnt; i++)
		printf("%-23s = %s\n", m->keys[i],
		       m->values[i] ? m->values[i] : "(null)");
	msg_free(&resp);
	printf("\n");
	return ping_ctlds();
}

/* ---- hostlists (no controller needed) ---- */

static char *hostlist_arg(const char *arg)
{
	FILE *f;
	char line[4096], *out = NULL;

	if (!arg)
		arg = getenv("SLURM_JOB_NODELIST");
	if (!arg || arg[0] != '/')
		return xstrdup(arg);
	if (!(f = fopen(arg, "r"))) {
		error("Unable to open file %s", arg);
		return NULL;
	}
	while (fgets(line, sizeof(line), f)) {
		xstrtrim(line);
		if (*line)
			xstrfmtcat(&out, "%s%s", out ? "," : "", line);
	}
	fclose(f);
	return out;
}

static int show_hostlist(const char *arg, int mode)
{
	char *expr = hostlist_arg(arg), err[256] = "", *s;
	hostlist_t *hl;

	if (!expr) {
		if (!arg)
			error("Hostlist is not specified and "
			      "SLURM_JOB_NODELIST is not set");
		return 1;
	}
	if (!(hl = hostlist_parse(expr, err, sizeof(err)))) {
		error("Invalid hostlist: %s", expr);
		xfree(expr);
		return 1;
	}
	if (mode == 0) {
		for (size_t i = 0; i < hostlist_count(hl); i++)
			printf("%s\n", hostlist_nth(hl, i));
	} else {
		if (mode == 2)
			hostlist_uniq(hl);
		s = hostlist_ranged(hl);
		printf("%s\n", s);
		xfree(s);
	}
	hostlist_destroy(hl);
	xfree(expr);
	return 0;
}

/* ---- show dispatch ---- */

static cli_doc_t show_doc(void)
{
	return sc.yaml ? CLI_DOC_YAML : sc.json ? CLI_DOC_JSON : CLI_DOC_NONE;
}

static int cmd_show(int argc, char **argv)
{
	const char *what, *arg;

	if (argc < 1) {
		fprintf(stderr, "too few arguments for keyword:show\n");
		return 1;
	}
	what = argv[0];
	arg = argc > 1 ? argv[1] : NULL;
	if (!strcasecmp(what, "hostnames") || scontrol_kw(what, "hostnames", 5))
		return show_hostlist(arg, 0);
	if (!strcasecmp(what, "hostlist"))
		return show_hostlist(arg, 1);
	if (scontrol_kw(what, "hostlistsorted", 9))
		return show_hostlist(arg, 2);
	need_conf();
	if (scontrol_kw(what, "jobs", 1) || !strcasecmp(what, "jobid"))
		return show_jobs(arg);
	if (scontrol_kw(what, "nodes", 1) || !strcasecmp(what, "nodename"))
		return show_nodes(arg);
	if (scontrol_kw(what, "partitions", 2) ||
	    !strcasecmp(what, "partitionname"))
		return show_parts(arg);
	if (scontrol_kw(what, "config", 1))
		return show_config();
	if (scontrol_kw(what, "assoc_mgr", 2))
		return scontrol_show_assoc_mgr(argc - 1, argv + 1);
	if (scontrol_kw(what, "steps", 4))
		return cli_show_steps(arg, sc.one_liner, show_doc());
	if (scontrol_kw(what, "reservations", 3) ||
	    !strcasecmp(what, "reservationname"))
		return scontrol_resv_show(arg, sc.one_liner, show_doc());
	if (scontrol_kw(what, "daemons", 1))
		return scontrol_show_daemons(argc - 1, argv + 1);
	if (scontrol_kw(what, "aliases", 2))
		return scontrol_show_aliases(argc - 1, argv + 1);
	if (scontrol_kw(what, "slurmd", 2))
		return scontrol_show_slurmd(argc - 1, argv + 1);
	if (scontrol_kw(what, "licenses", 3))
		return scontrol_lic_show(arg, sc.one_liner, show_doc());
	if (scontrol_kw(what, "topology", 1))
		return scontrol_topo_show(arg);
	/* "lic=name", "licenses=name" */
	if (strchr(what, '=') && !strncasecmp(what, "lic", 3)) {
		char *kw = xstrndup(what, (size_t) (strchr(what, '=') - what));
		bool ok = scontrol_kw(kw, "licenses", 3);

		xfree(kw);
		if (ok)
			return scontrol_lic_show(strchr(what, '=') + 1,
						 sc.one_liner, show_doc());
	}
	fprintf(stderr, "invalid entity:%s for keyword:show \n", what);
	return 1;
}

/* ---- other commands ---- */

static int cmd_update(int argc, char **argv)
{
	need_conf();
	return scontrol_update(argc, argv, sc.quiet);
}

static int cmd_create(int argc, char **argv)
{
	if (argc < 1) {
		fprintf(stderr, "too few arguments for keyword:create\n");
		return 1;
	}
	if (scontrol_is_node_entity(argv[0])) {
		need_conf();
		return scontrol_node_create(argc, argv);
	}
	for (int i = 0; i < argc; i++)
		if (scontrol_is_part_word(argv[i])) {
			need_conf();
			return scontrol_part_create(argc, argv);
		}
	if (strchr(argv[0], '=') &&
	    !xstrcaseprefix(argv[0], "reservation")) {
		fprintf(stderr, "scontrol: error: Invalid creation entity: "
			"%s\n", argv[0]);
		return 1;
	}
	if (scontrol_kw(argv[0], "partitionname", 3)) {
		/* a partition without its name */
		fprintf(stderr, "scontrol: error: Invalid input: %s  "
			"Request aborted\n", argv[0]);
		return 1;
	}
	if (!scontrol_kw(argv[0], "reservation", 3)) {
		fprintf(stderr, "scontrol: error: Invalid creation entity: "
			"%s\n", argv[0]);
		return 1;
	}
	need_conf();
	return scontrol_resv_create(argc - 1, argv + 1, sc.quiet);
}

static int cmd_delete(int argc, char **argv)
{
	if (argc < 1) {
		fprintf(stderr, "too few arguments for delete keyword\n");
		return 1;
	}
	if (!strchr(argv[0], '=') && argc < 2) {
		fprintf(stderr, "scontrol: error: Proper format is 'delete "
			"<ENTITY>=<ID>' or 'delete <ENTITY> <ID>'\n");
		return 1;
	}
	if (xstrcaseprefix(argv[0], "partition")) {
		need_conf();
		return scontrol_part_delete(argc, argv);
	}
	if (scontrol_is_node_entity(argv[0])) {
		need_conf();
		return scontrol_node_delete(argc, argv);
	}
	if (!xstrcaseprefix(argv[0], "reservation")) {
		fprintf(stderr, "scontrol: error: Invalid deletion entity: "
			"%s\n", argv[0]);
		return 1;
	}
	need_conf();
	return scontrol_resv_delete(argc, argv);
}

static int cmd_hold(int argc, char **argv)
{
	need_conf();
	return scontrol_hold("hold", argc, argv, sc.quiet);
}

static int cmd_uhold(int argc, char **argv)
{
	need_conf();
	return scontrol_hold("uhold", argc, argv, sc.quiet);
}

static int cmd_release(int argc, char **argv)
{
	need_conf();
	return scontrol_hold("release", argc, argv, sc.quiet);
}

#define JOBCTL_CMD(fn, op) \
static int fn(int argc, char **argv) \
{ \
	need_conf(); \
	return scontrol_jobctl(op, argc, argv, sc.quiet); \
}
JOBCTL_CMD(cmd_requeue, "requeue")
JOBCTL_CMD(cmd_requeuehold, "requeuehold")
JOBCTL_CMD(cmd_suspend, "suspend")
JOBCTL_CMD(cmd_resume, "resume")
JOBCTL_CMD(cmd_top, "top")
JOBCTL_CMD(cmd_checkpoint, "checkpoint")

/* scontrol token [lifespan=N] [username=U]: an auth/jwt token from the
 * controller, printed as Slurm's: SLURM_JWT=<token>. */
static int cmd_token(int argc, char **argv)
{
	token_request_msg_t r = { 0 };
	slurm_msg_t resp;
	int err;

	for (int i = 0; i < argc; i++) {
		if (!strncasecmp(argv[i], "lifespan=", 9)) {
			char *end;
			unsigned long v;

			errno = 0;
			v = strtoul(argv[i] + 9, &end, 10);
			if (errno || end == argv[i] + 9 || *end || !v ||
			    v > INT32_MAX || argv[i][9] == '-') {
				fprintf(stderr, "Invalid lifespan value: %s\n",
					argv[i] + 9);
				return 1;
			}
			r.lifespan = (uint32_t)v;
		} else if (!strncasecmp(argv[i], "username=", 9) &&
			   argv[i][9]) {
			r.username = argv[i] + 9;
		} else {
			fprintf(stderr, "Invalid option: `%s`\n", argv[i]);
			return 1;
		}
	}
	need_conf();
	err = cli_ctld_rpc(REQUEST_AUTH_TOKEN, &r, &resp);
	if (err) {
		error("slurm_fetch_token: error receiving response: %s",
		      cli_comm_strerror(err));
		return 1;
	}
	if (resp.type == RESPONSE_SLURM_RC) {
		error("slurm_fetch_token: error with request: %s",
		      slurm_strerror(((return_code_msg_t *)resp.data)->rc));
		msg_free(&resp);
		return 1;
	}
	if (resp.type != RESPONSE_AUTH_TOKEN || !resp.data ||
	    !((token_response_msg_t *)resp.data)->token) {
		error("slurm_fetch_token: no token returned");
		msg_free(&resp);
		return 1;
	}
	printf("SLURM_JWT=%s\n", ((token_response_msg_t *)resp.data)->token);
	msg_free(&resp);
	return 0;
}

static int cmd_write(int argc, char **argv)
{
	need_conf();
	return scontrol_write(argc, argv, sc.quiet);
}

static int cmd_completing(int argc, char **argv)
{
	need_conf();
	return scontrol_completing(argc, argv);
}

#define LOCAL_CMD(fn, impl) \
static int fn(int argc, char **argv) \
{ \
	need_conf(); \
	return impl(argc, argv); \
}
LOCAL_CMD(cmd_listpids, scontrol_listpids)
LOCAL_CMD(cmd_listjobs, scontrol_listjobs)
LOCAL_CMD(cmd_liststeps, scontrol_liststeps)
LOCAL_CMD(cmd_pidinfo, scontrol_pidinfo)
LOCAL_CMD(cmd_notify, scontrol_notify)

static int cmd_errnumstr(int argc, char **argv)
{
	return scontrol_errnumstr(argc, argv);
}

static int cmd_setdebug(int argc, char **argv)
{
	need_conf();
	return scontrol_setdebug(argv[-1], argc, argv, sc.quiet);
}

static int cmd_setdebugflags(int argc, char **argv)
{
	need_conf();
	return scontrol_setdebugflags(argv[-1], argc, argv, sc.quiet);
}

static int cmd_track(int argc, char **argv)
{
	need_conf();
	return scontrol_track(argc, argv);
}

static int cmd_wait_job(int argc, char **argv)
{
	need_conf();
	return scontrol_wait_job(argc, argv, sc.quiet);
}

static int cmd_reboot(int argc, char **argv)
{
	need_conf();
	return scontrol_reboot(argc, argv);
}

static int cmd_power(int argc, char **argv)
{
	need_conf();
	return scontrol_power(argc, argv, sc.quiet);
}

static int cmd_cancel_reboot(int argc, char **argv)
{
	need_conf();
	return scontrol_cancel_reboot(argc, argv, sc.quiet);
}

static int cmd_reconfigure(int argc, char **argv)
{
	int rc = 0, err;

	need_conf();
	err = cli_ctld_rpc_rc(REQUEST_RECONFIGURE, NULL, &rc);
	if (err || rc)
		return load_error("slurm_reconfigure", err, rc);
	return 0;
}

static int cmd_shutdown(int argc, char **argv)
{
	shutdown_msg_t m = { .options = 0 };
	int rc = 0, err = 0, ok = 0;

	if (argc > 0 && (!strcasecmp(argv[0], "slurmctld") ||
			 !strcasecmp(argv[0], "controller"))) {
		m.options = 1;
	} else if (argc > 0) {
		fprintf(stderr, "invalid shutdown argument:%s\n", argv[0]);
		return 1;
	}
	need_conf();
	if (cli_conf()->ctld_host_cnt < 2) {
		err = cli_ctld_rpc_rc(REQUEST_SHUTDOWN, &m, &rc);
		if (err || rc)
			return load_error("slurm_shutdown", err, rc);
		return 0;
	}
	/* every controller: the one in control and those standing by */
	for (size_t i = 0; i < cli_conf()->ctld_host_cnt; i++) {
		slurm_msg_t resp;
		int e = cli_ctld_rpc_at(i, REQUEST_SHUTDOWN, &m, &resp);

		if (e) {
			err = err ? err : e;
			continue;
		}
		rc = cli_resp_rc(&resp);
		msg_free(&resp);
		if (!rc)
			ok++;
	}
	if (!ok)
		return load_error("slurm_shutdown", rc ? 0 : err, rc);
	return 0;
}

static int cmd_version(int argc, char **argv)
{
	printf("slurm %s\n", SLUICE_VERSION_STRING);
	return 0;
}

/* Settings that the options also set, as interactive commands. */
static int cmd_oneliner(int argc, char **argv)
{
	sc.one_liner = true;
	return 0;
}

static int cmd_details(int argc, char **argv)
{
	sc.detail = true;
	return 0;
}

static int cmd_all(int argc, char **argv)
{
	sc.all = true;
	return 0;
}

static int cmd_quiet(int argc, char **argv)
{
	sc.quiet = true;
	return 0;
}

static int cmd_help(int argc, char **argv)
{
	fputs(scontrol_usage_text, stdout);
	return 0;
}

static const struct {
	const char *name;
	size_t      min;
	sc_cmd_f    fn;
} commands[] = {
	{ "oneliner", 3, cmd_oneliner },
	{ "details", 3, cmd_details },
	{ "all", 3, cmd_all },
	{ "quiet", 4, cmd_quiet },
	{ "help", 2, cmd_help },
	{ "show", 3, cmd_show },
	{ "update", 1, cmd_update },
	{ "create", 2, cmd_create },
	{ "delete", 3, cmd_delete },
	{ "hold", 2, cmd_hold },
	{ "uhold", 2, cmd_uhold },
	{ "release", 3, cmd_release },
	{ "checkpoint", 2, cmd_checkpoint },
	{ "requeue", 3, cmd_requeue },
	{ "requeuehold", 8, cmd_requeuehold },
	{ "resume", 3, cmd_resume },
	{ "suspend", 2, cmd_suspend },
	{ "top", 3, cmd_top },
	{ "ping", 2, cmd_ping },
	{ "reboot", 3, cmd_reboot },
	{ "power", 2, cmd_power },
	{ "reconfigure", 3, cmd_reconfigure },
	{ "setdebugflags", 9, cmd_setdebugflags },
	{ "setdebug", 2, cmd_setdebug },
	{ "cancel_reboot", 3, cmd_cancel_reboot },
	{ "completing", 2, cmd_completing },
	{ "listpids", 5, cmd_listpids },
	{ "listjobs", 5, cmd_listjobs },
	{ "liststeps", 5, cmd_liststeps },
	{ "pidinfo", 3, cmd_pidinfo },
	{ "notify", 1, cmd_notify },
	{ "shutdown", 3, cmd_shutdown },
	{ "takeover", 3, cmd_takeover },
	{ "token", 3, cmd_token },
	{ "track", 3, cmd_track },
	{ "version", 4, cmd_version },
	{ "write", 2, cmd_write },
	{ "errnumstr", 2, cmd_errnumstr },
	{ "wait_job", 2, cmd_wait_job },
};

static int run_command(int argc, char **argv)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (scontrol_kw(argv[0], commands[i].name, commands[i].min))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "invalid keyword: %s\n", argv[0]);
	return 1;
}

/* No command on the command line: one command per line of stdin. */
static int run_interactive(void)
{
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;
	bool tty = isatty(STDIN_FILENO);

	for (;;) {
		char **args;

		if (tty) {
			printf("scontrol: ");
			fflush(stdout);
		}
		if (getline(&line, &cap, stdin) < 0)
			break;
		args = cli_opt_split_directive(line, strlen(line));
		if (args[0] && (!strcasecmp(args[0], "quit") ||
				!strcasecmp(args[0], "exit"))) {
			xstrarray_free(args);
			break;
		}
		if (args[0])
			rc = run_command((int)xstrarray_len(args), args);
		xstrarray_free(args);
	}
	free(line);
	return rc;
}

/* ---- options ---- */

enum { OPT_JSON = 0x100, OPT_YAML, OPT_USAGE };

static const struct option long_opts[] = {
	{ "all", no_argument, NULL, 'a' },
	{ "cluster", required_argument, NULL, 'M' },
	{ "clusters", required_argument, NULL, 'M' },
	{ "details", no_argument, NULL, 'd' },
	{ "future", no_argument, NULL, 'F' },
	{ "help", no_argument, NULL, 'h' },
	{ "json", optional_argument, NULL, OPT_JSON },
	{ "oneliner", no_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'Q' },
	{ "usage", no_argument, NULL, OPT_USAGE },
	{ "verbose", no_argument, NULL, 'v' },
	{ "version", no_argument, NULL, 'V' },
	{ "yaml", optional_argument, NULL, OPT_YAML },
	{ NULL, 0, NULL, 0 }
};

/* The index of the command word when it is setdebug or setdebugflags,
 * whose argument may start with '-' ("setdebugflags -Backfill"); else
 * argc. */
static int options_end(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-')
			continue;
		if (scontrol_kw(argv[i], "setdebug", 2) ||
		    scontrol_kw(argv[i], "setdebugflags", 9))
			return i;
		break;
	}
	return argc;
}

static const char *clusters;   /* -M */

static void parse_opts(int argc, char **argv)
{
	int c;

	argv[0] = "scontrol";   /* getopt's messages read "scontrol: ..." */
	argc = options_end(argc, argv);
	while ((c = getopt_long(argc, argv, "adFhM:oQvV", long_opts, NULL)) != -1) {
		switch (c) {
		case 'a': sc.all = true; break;
		case 'M': clusters = optarg; break;
		case 'd': sc.detail = true; break;
		case 'F': sc.future = true; break;
		case 'o': sc.one_liner = true; break;
		case 'Q': sc.quiet = true; break;
		case 'v': sc.verbose++; break;
		case OPT_JSON: sc.json = true; break;
		case OPT_YAML: sc.yaml = true; break;
		case 'h':
		case OPT_USAGE:
			fputs(scontrol_usage_text, stdout);
			exit(0);
		case 'V':
			printf("slurm %s\n", SLUICE_VERSION_STRING);
			exit(0);
		default:
			fprintf(stderr,
				"Try \"scontrol --help\" for more information\n");
			exit(1);
		}
	}
}

int main(int argc, char **argv)
{
	cli_init_noconf("scontrol", 0);
	parse_opts(argc, argv);
	cli_init_noconf("scontrol", sc.verbose - (sc.quiet ? 1 : 0));
	/* -M: every request of this run goes to that cluster's controller */
	if (clusters) {
		need_conf();
		if (cli_check_clusters(clusters, NULL) < 0)
			return 1;
	}
	if (optind >= argc)
		return run_interactive();
	return run_command(argc - optind, argv + optind);
}
