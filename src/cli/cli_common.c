/* cli_common.c — what every command does first (logging, slurm.conf,
 * auth) and the one way commands talk to the controller.
 */
#include "cli/cli_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/auth.h"
#include "common/conf_files.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

static struct {
	char prog[64];
	slurm_conf_t *conf;
} cli;

static log_level_t cli_level(int verbosity)
{
	int l = LOG_LEVEL_INFO + verbosity;

	if (l < LOG_LEVEL_QUIET)
		l = LOG_LEVEL_QUIET;
	if (l > LOG_LEVEL_DEBUG5)
		l = LOG_LEVEL_DEBUG5;
	return (log_level_t)l;
}

static void cli_set_prog(const char *prog)
{
	const char *slash = prog ? strrchr(prog, '/') : NULL;

	snprintf(cli.prog, sizeof(cli.prog), "%s",
		 slash ? slash + 1 : (prog ? prog : "slurm"));
}

void cli_init_noconf(const char *prog, int verbosity)
{
	log_options_t opts = {
		.stderr_level = cli_level(verbosity),
		.file_level = LOG_LEVEL_QUIET,
		.stderr_timestamps = false,
		.stderr_prefix = true,
	};

	cli_set_prog(prog);
	log_init(cli.prog, opts, NULL);
}

const slurm_conf_t *cli_conf_load(char *err, size_t errlen)
{
	const char *srv = getenv("SLURM_CONF_SERVER");
	const char *env = getenv("SLURM_CONF");

	char *dns;

	if (cli.conf)
		return cli.conf;
	/* configless commands: SLURM_CONF wins, then the controllers of
	 * SLURM_CONF_SERVER, then the default slurm.conf, then a configless
	 * node's or login node's cache (/run/slurm/conf), then the
	 * controllers of the DNS SRV record _slurmctld._tcp */
	if (env && *env)
		cli.conf = conf_load(NULL, err, errlen);
	else if (srv && *srv)
		cli.conf = cli_conf_fetch(srv, err, errlen);
	else if (access(conf_default_path(), F_OK) == 0)
		cli.conf = conf_load(NULL, err, errlen);
	else if (access(CLI_CONF_CACHE "/slurm.conf", F_OK) == 0) {
		conf_set_include_dir(CLI_CONF_CACHE);
		cli.conf = conf_load(CLI_CONF_CACHE "/slurm.conf", err,
				     errlen);
	} else if ((dns = conf_files_srv_lookup())) {
		cli.conf = cli_conf_fetch(dns, err, errlen);
		xfree(dns);
	} else
		cli.conf = conf_load(NULL, err, errlen);
	return cli.conf;
}

void cli_init(const char *prog, int verbosity)
{
	static bool auth_ready;
	char err[512] = "";
	int rc;

	cli_init_noconf(prog, verbosity);
	if (auth_ready)
		return;
	if (!cli_conf_load(err, sizeof(err))) {
		error("%s", err[0] ? err : "Unable to process configuration file");
		exit(1);
	}
	auth_set_context(cli.conf->path, cli.conf->slurm_user_id, 0);
	rc = auth_init(cli.conf->auth_type, cli.conf->auth_info,
		       cli.conf->plugin_dir);
	if (rc != 0) {
		error("auth_init(%s) failed: %s",
		      cli.conf->auth_type ? cli.conf->auth_type : "auth/munge",
		      slurm_strerror(rc));
		exit(1);
	}
	/* auth/jwt: with SLURM_JWT set, every request carries the token
	 * instead of an AuthType credential (msg.h), as Slurm's commands */
	msg_auth_jwt_set_process(getenv("SLURM_JWT"));
	/* the controller's reply MAC'd under a key our credential sealed,
	 * not MUNGE'd again (net.h) */
	net_rpc_sessions(NET_SESSIONS_ONE);
	auth_ready = true;
}

const slurm_conf_t *cli_conf(void)
{
	return cli.conf;
}

const char *cli_prog(void)
{
	return cli.prog[0] ? cli.prog : "slurm";
}

bool cli_err_is_transport(int rc)
{
	switch (rc) {
	case SLURM_COMMUNICATIONS_CONNECTION_ERROR:
	case SLURM_COMMUNICATIONS_SEND_ERROR:
	case SLURM_COMMUNICATIONS_RECEIVE_ERROR:
	case SLURM_COMMUNICATIONS_SHUTDOWN_ERROR:
	case SLURMCTLD_COMMUNICATIONS_CONNECTION_ERROR:
	case SLURMCTLD_COMMUNICATIONS_SEND_ERROR:
	case SLURMCTLD_COMMUNICATIONS_RECEIVE_ERROR:
	case SLURMCTLD_COMMUNICATIONS_SHUTDOWN_ERROR:
	case SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT:
	case SLURM_PROTOCOL_SOCKET_IMPL_ZERO_RECV_LENGTH:
	case SLURM_PROTOCOL_SOCKET_IMPL_NEGATIVE_RECV_LENGTH:
	case SLURM_PROTOCOL_SOCKET_IMPL_NOT_ALL_DATA_SENT:
	case SLURM_PROTOCOL_SOCKET_ZERO_BYTES_SENT:
		return true;
	default:
		return false;
	}
}

static int cli_timeout_ms(void)
{
	int t = cli.conf && cli.conf->message_timeout ?
		cli.conf->message_timeout : 10;

	return t * 1000;
}

static bool told_to_back_off(const slurm_msg_t *resp)
{
	const return_code_msg_t *r = resp->data;

	return resp->type == RESPONSE_SLURM_RC && r &&
	       r->rc == SLURMCTLD_COMMUNICATIONS_BACKOFF;
}

static int ctld_rpc_once(uint16_t type, const void *req, slurm_msg_t *resp);

/* The controller rate-limits users (SlurmctldParameters=rl_enable): when
 * told to back off, sleep a second and ask again, for up to
 * CLI_BACKOFF_MAX_S seconds. */
#define CLI_BACKOFF_MAX_S 300

int cli_ctld_rpc(uint16_t type, const void *req, slurm_msg_t *resp)
{
	int rc;

	for (int waited = 0;; waited++) {
		rc = ctld_rpc_once(type, req, resp);
		if (rc || !told_to_back_off(resp) || waited >= CLI_BACKOFF_MAX_S)
			return rc;
		debug("%s: controller asked us to back off, retrying in 1 s",
		      msg_type_name(type));
		msg_free(resp);
		sleep(1);
	}
}

static bool in_standby(const slurm_msg_t *resp)
{
	const return_code_msg_t *r = resp->data;

	return resp->type == RESPONSE_SLURM_RC && r &&
	       r->rc == ESLURM_IN_STANDBY_MODE;
}

/* One pass over the SlurmctldHost list in order: a controller that cannot
 * be reached, or that answers it is in standby mode, passes the request on
 * to the next.  *standby: some controller answered "standby". */
static struct {
	char     *host;     /* another cluster's controller (-M) */
	uint16_t  port;
} remote;

void cli_ctld_set_remote(const char *host, uint16_t port)
{
	xfree(remote.host);
	remote.host = host ? xstrdup(host) : NULL;
	remote.port = port;
}

static int ctld_rpc_pass(uint16_t type, const void *req, slurm_msg_t *resp,
			 bool *standby)
{
	int rc = SLURM_COMMUNICATIONS_CONNECTION_ERROR;

	*standby = false;
	if (remote.host) {
		debug2("sending %s to %s:%u", msg_type_name(type),
		       remote.host, remote.port);
		return net_rpc_session(remote.host, remote.port, type, req,
				       resp, cli_timeout_ms());
	}
	for (size_t i = 0; i < cli.conf->ctld_host_cnt; i++) {
		const char *addr = cli.conf->ctld_addrs ?
			cli.conf->ctld_addrs[i] : NULL;

		if (!addr)
			addr = cli.conf->ctld_hosts[i];
		debug2("sending %s to %s:%u", msg_type_name(type), addr,
		       cli.conf->slurmctld_port);
		rc = net_rpc_session(addr, cli.conf->slurmctld_port, type,
				     req, resp, cli_timeout_ms());
		if (rc == 0 && in_standby(resp) &&
		    i + 1 < cli.conf->ctld_host_cnt) {
			debug("%s: controller %s is in standby mode",
			      msg_type_name(type), addr);
			*standby = true;
			msg_free(resp);
			memset(resp, 0, sizeof(*resp));
			continue;
		}
		if (rc == 0 && in_standby(resp))
			*standby = true;
		if (rc == 0 || !cli_err_is_transport(rc))
			return rc;
		debug("%s: controller %s:%u: %s", msg_type_name(type), addr,
		      cli.conf->slurmctld_port, slurm_strerror(rc));
	}
	return rc;
}

/* Did no controller get the request?  Connect failed (refused: none
 * listens, e.g. one restarting) or the connection was reset before the
 * request was read (net.c): then it can be sent again without doing
 * anything twice. */
static bool cli_not_delivered(int rc)
{
	return rc == SLURM_COMMUNICATIONS_CONNECTION_ERROR ||
	       rc == SLURMCTLD_COMMUNICATIONS_CONNECTION_ERROR;
}

/* As Slurm: a pass over every SlurmctldHost where none could be reached
 * is repeated once a second for up to MessageTimeout, so that commands
 * ride through a controller restart.  With several SlurmctldHost entries
 * a pass where none answered for any transport reason (timed out, cut)
 * is retried the same way (a hand-over in progress).  While no
 * controller is in control but one is standing by (the primary died, a
 * backup has not taken over yet), wait and ask again, as Slurm does, for
 * up to 1.5 x SlurmctldTimeout (+ MessageTimeout: a hand-over by
 * scontrol takeover, where the controllers trade places). */
static int ctld_rpc_once(uint16_t type, const void *req, slurm_msg_t *resp)
{
	int rc = SLURM_COMMUNICATIONS_CONNECTION_ERROR;
	int limit, nap;
	time_t start = time(NULL);
	bool standby;

	memset(resp, 0, sizeof(*resp));
	if (!cli.conf)
		return rc;
	limit = cli.conf->slurmctld_timeout ? cli.conf->slurmctld_timeout : 120;
	nap = limit / 2 > 5 ? 5 : (limit / 2 ? limit / 2 : 1);
	limit += limit / 2 + cli_timeout_ms() / 1000;   /* + a hand-over */
	for (;;) {
		rc = ctld_rpc_pass(type, req, resp, &standby);
		if ((cli_not_delivered(rc) ||
		     (cli_err_is_transport(rc) && cli.conf->ctld_host_cnt > 1)) &&
		    time(NULL) - start < cli_timeout_ms() / 1000) {
			/* none answered: a hand-over in progress (the old
			 * controller gone, the new one starting, or the
			 * standby closing its port to serve) */
			debug("%s: no controller answers, retrying in 1 s",
			      msg_type_name(type));
			sleep(1);
			continue;
		}
		if (!standby || (rc == 0 && !in_standby(resp)) ||
		    cli.conf->ctld_host_cnt < 2 ||
		    time(NULL) - start >= limit)
			return rc;
		debug("%s: primary not responding, backup not in control; "
		      "retrying in %d s", msg_type_name(type), nap);
		if (rc == 0)
			msg_free(resp);
		memset(resp, 0, sizeof(*resp));
		sleep((unsigned) nap);
	}
}

int cli_ctld_rpc_at(size_t inx, uint16_t type, const void *req,
		    slurm_msg_t *resp)
{
	const char *addr;

	memset(resp, 0, sizeof(*resp));
	if (!cli.conf || inx >= cli.conf->ctld_host_cnt)
		return SLURM_COMMUNICATIONS_CONNECTION_ERROR;
	addr = cli.conf->ctld_addrs && cli.conf->ctld_addrs[inx] ?
		cli.conf->ctld_addrs[inx] : cli.conf->ctld_hosts[inx];
	debug2("sending %s to %s:%u", msg_type_name(type), addr,
	       cli.conf->slurmctld_port);
	return net_rpc_session(addr, cli.conf->slurmctld_port, type, req,
			       resp, cli_timeout_ms());
}

int cli_resp_rc(const slurm_msg_t *resp)
{
	const return_code_msg_t *r;

	if (!resp || resp->type != RESPONSE_SLURM_RC || !resp->data)
		return 0;
	r = resp->data;
	return r->rc;
}

int cli_ctld_rpc_rc(uint16_t type, const void *req, int *rc)
{
	slurm_msg_t resp;
	int err = cli_ctld_rpc(type, req, &resp);

	if (err)
		return err;
	if (resp.type != RESPONSE_SLURM_RC) {
		*rc = SLURM_UNEXPECTED_MSG_ERROR;
	} else {
		const return_code_msg_t *r = resp.data;

		*rc = cli_resp_rc(&resp);
		/* Text for the user (a job_submit plugin's message). */
		if (r && r->msg && *r->msg)
			fprintf(stderr, "%s\n", r->msg);
	}
	msg_free(&resp);
	return 0;
}

int cli_ctld_load(uint16_t type, const void *req, uint16_t reply,
		  slurm_msg_t *resp, const char *what)
{
	int err = cli_ctld_rpc(type, req, resp), rc;

	if (err) {
		fprintf(stderr, "%s error: %s\n", what, cli_comm_strerror(err));
		return 1;
	}
	if (resp->type != reply || !resp->data) {
		rc = cli_resp_rc(resp);
		msg_free(resp);
		fprintf(stderr, "%s error: %s\n", what,
			slurm_strerror(rc ? rc : SLURM_UNEXPECTED_MSG_ERROR));
		return 1;
	}
	return 0;
}

const char *cli_comm_strerror(int err)
{
	switch (err) {
	case SLURM_COMMUNICATIONS_CONNECTION_ERROR:
	case SLURMCTLD_COMMUNICATIONS_CONNECTION_ERROR:
		return "Unable to contact slurm controller (connect failure)";
	case SLURM_COMMUNICATIONS_SEND_ERROR:
	case SLURMCTLD_COMMUNICATIONS_SEND_ERROR:
		return "Unable to contact slurm controller (send failure)";
	case SLURM_COMMUNICATIONS_RECEIVE_ERROR:
	case SLURMCTLD_COMMUNICATIONS_RECEIVE_ERROR:
		return "Unable to contact slurm controller (receive failure)";
	case SLURM_COMMUNICATIONS_SHUTDOWN_ERROR:
	case SLURMCTLD_COMMUNICATIONS_SHUTDOWN_ERROR:
		return "Unable to contact slurm controller (shutdown failure)";
	default:
		return slurm_strerror(err);
	}
}

int cli_het_comp(const char *spec, uint32_t *job_id, const char **rest)
{
	job_info_request_msg_t req = { .job_id_cnt = 1, .user_id = NO_VAL32 };
	const job_info_msg_t *m;
	slurm_msg_t resp;
	unsigned long lead, off;
	uint32_t id32;
	char *end;
	int rc = -1;

	if (!strchr(spec, '+'))
		return 1;
	lead = strtoul(spec, &end, 10);
	if (end == spec || *end != '+' || !lead || lead >= NO_VAL32)
		return -1;
	spec = end + 1;
	off = strtoul(spec, &end, 10);
	if (end == spec || (*end && *end != '.') || off >= NO_VAL32)
		return -1;
	id32 = (uint32_t) lead;
	req.job_ids = &id32;
	if (cli_ctld_rpc(REQUEST_JOB_INFO, &req, &resp))
		return -1;
	m = resp.type == RESPONSE_JOB_INFO ? resp.data : NULL;
	for (uint32_t i = 0; m && i < m->cnt; i++)
		if (m->jobs[i].het_job_id == id32 &&
		    m->jobs[i].het_job_offset == off) {
			*job_id = m->jobs[i].job_id;
			*rest = end;
			rc = 0;
		}
	msg_free(&resp);
	return rc;
}
