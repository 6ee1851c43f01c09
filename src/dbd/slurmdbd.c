/* slurmdbd.c — the accounting daemon: options, start-up, the event loop,
 * signals and shutdown.  Requests arrive through net_server on the loop;
 * anything that touches MariaDB goes to the worker thread (dbd_worker). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <event2/event.h>
#include <event2/thread.h>

#include "common/auth.h"
#include "common/daemon.h"
#include "common/daemon_notify.h"
#include "common/jwt.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/privs.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "dbd/dbd_stats.h"
#include "dbd/dbd_conf.h"
#include "dbd/dbd_db.h"
#include "dbd/dbd_notify.h"
#include "dbd/dbd_worker.h"
#include "slurm/slurm_errno.h"

#define DB_WAIT_S 60

typedef struct {
	bool  foreground;
	bool  systemd;        /* --systemd: no detach, sd_notify */
	int   verbose;
	char *conf_path;
} dbd_opts_t;

static struct {
	dbd_opts_t         opts;
	dbd_conf_t        *conf;
	struct event_base *base;
	net_server_t      *server;
	struct event      *sig_ev[3];
	time_t             boot_time;
} dbd;

static void usage(FILE *out)
{
	fprintf(out,
"Usage: slurmdbd [OPTIONS]\n"
"  -D            Run daemon in foreground, with logging copied to stderr.\n"
"  -f file       Use specified file for slurmdbd configuration.\n"
"  -h            Print this help message.\n"
"  -v            Verbose mode. Multiple -v's increase verbosity.\n"
"  -V            Print version information and exit.\n"
"  --systemd     Started by systemd (Type=notify): stay in the foreground\n"
"                and tell it when ready.\n");
}

static void parse_opts(int argc, char **argv, dbd_opts_t *o)
{
	static const struct option lopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "systemd", no_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	while ((c = getopt_long(argc, argv, "Df:hvV", lopts, NULL)) != -1) {
		switch (c) {
		case 'S': o->systemd = true; break;
		case 'D': o->foreground = true; break;
		case 'f': o->conf_path = xstrdup(optarg); break;
		case 'h': usage(stdout); exit(0);
		case 'v': o->verbose++; break;
		case 'V': printf("slurm %s\n", SLUICE_VERSION_STRING); exit(0);
		default: usage(stderr); exit(1);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "slurmdbd: error: Unknown argument: %s\n",
			argv[optind]);
		usage(stderr);
		exit(1);
	}
}

static log_level_t file_level(void)
{
	int l = dbd.conf->debug_level + dbd.opts.verbose;

	return l > LOG_LEVEL_DEBUG5 ? LOG_LEVEL_DEBUG5 : l;
}

static void setup_log(void)
{
	log_options_t lo = { .stderr_level = LOG_LEVEL_ERROR,
			     .file_level = file_level(),
			     .stderr_timestamps = true };
	const char *file = dbd.conf->log_file;

	if (dbd.opts.foreground)
		lo.stderr_level = file_level();
	else if (!file)
		lo.stderr_level = LOG_LEVEL_QUIET;
	if (log_init("slurmdbd", lo, file) < 0)
		error("Unable to open log file %s", file);
}

/* The file holds StoragePass: warn when others may read it. */
static void check_conf_mode(void)
{
	struct stat st;

	if (stat(dbd.conf->path, &st) == 0 && (st.st_mode & 077))
		info("%s file %s should be 600 is %o accessible for group or "
		     "others", "slurmdbd.conf", dbd.conf->path,
		     (unsigned)(st.st_mode & 0777));
}

/* ---- requests ---- */

/* Only root and SlurmUser stop the daemon; it answers first, then stops
 * as on SIGTERM. */
static void shutdown_request(net_conn_t *conn, const slurm_msg_t *msg)
{
	struct timeval tv = { 0, 100000 };

	if (msg->auth_uid != 0 && msg->auth_uid != dbd.conf->slurm_user_id) {
		error("Security violation, REQUEST_SHUTDOWN from uid %u",
		      (unsigned)msg->auth_uid);
		net_reply_rc(conn, ESLURM_ACCESS_DENIED);
		return;
	}
	info("Shutdown request received from uid %u",
	     (unsigned)msg->auth_uid);
	net_reply_rc(conn, SLURM_SUCCESS);
	event_base_loopexit(dbd.base, &tv);
}

static void dispatch_one(net_conn_t *conn, slurm_msg_t *msg)
{
	switch (msg->type) {
	case REQUEST_DBD_STATS:         /* the worker checks the user */
	case REQUEST_DBD_CLEAR_STATS:
		dbd_worker_submit(conn, msg);
		return;
	case REQUEST_DBD_ACCT:
	case REQUEST_DBD_RECORDS:
	case REQUEST_DBD_JOBS:
	case REQUEST_DBD_REPORT:
	case REQUEST_DBD_ROLLUP:
	case REQUEST_DBD_TRACK:
	case REQUEST_DBD_PROFILE:
	case REQUEST_DBD_ARCHIVE:
		if (!msg->data) {
			net_reply_rc(conn, SLURM_PROTOCOL_INSANE_MSG_LENGTH);
			return;
		}
		dbd_worker_submit(conn, msg);
		return;
	case REQUEST_PING:
		net_reply_rc(conn, SLURM_SUCCESS);
		return;
	case REQUEST_DBD_CONFIG: {      /* sacctmgr show configuration */
		config_info_msg_t *ci = dbd_conf_show(dbd.conf,
						      dbd.boot_time);

		net_reply(conn, RESPONSE_BUILD_INFO, ci);
		msg_body_free(RESPONSE_BUILD_INFO, ci);
		return;
	}
	case REQUEST_SHUTDOWN:          /* sacctmgr shutdown */
		shutdown_request(conn, msg);
		return;
	default:
		error("%s from %s uid %u is not for slurmdbd",
		      msg_type_name(msg->type), msg->peer,
		      (unsigned)msg->auth_uid);
		net_reply_rc(conn, SLURM_UNEXPECTED_MSG_ERROR);
	}
}

/* What the worker runs it counts itself (sacctmgr show stats); the
 * rest is counted here. */
static void dispatch(net_conn_t *conn, slurm_msg_t *msg, void *arg)
{
	uint64_t t0 = dbd_stats_now_usec();
	uint16_t type = msg->type;
	uint32_t uid = msg->auth_uid;

	dispatch_one(conn, msg);
	if (!dbd_worker_runs(type))
		dbd_stats_rpc(type, uid, dbd_stats_now_usec() - t0);
}

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
	struct timeval tv = { 0, 100000 };

	if (sig == SIGHUP) {
		info("Reconfigure signal (SIGHUP) received: reopening the log");
		log_reopen(dbd.conf->log_file);
		return;
	}
	info("Terminate signal (SIGINT or SIGTERM) received");
	event_base_loopexit(dbd.base, &tv);
}

static void add_signals(void)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		dbd.sig_ev[i] = evsignal_new(dbd.base, sigs[i], on_signal,
					     NULL);
		event_add(dbd.sig_ev[i], NULL);
	}
}

static void listen_port(void)
{
	const char *addr = dbd.conf->dbd_addr;
	int fd;

	/* DbdAddr names this host; listen on every address unless it is a
	 * loopback one (tests, single-host setups). */
	if (addr && strncmp(addr, "127.", 4) && strcmp(addr, "localhost"))
		addr = NULL;
	fd = net_listen_tcp(addr, dbd.conf->dbd_port);
	if (fd < 0)
		fatal("Unable to bind listen port (%u): %s",
		      dbd.conf->dbd_port, strerror(errno));
	dbd.server = net_server_create(dbd.base, fd, dispatch, NULL,
				       dbd.conf->message_timeout * 1000);
	if (!dbd.server)
		fatal("Unable to serve on port %u", dbd.conf->dbd_port);
}

static void start(void)
{
	const dbd_conf_t *c = dbd.conf;
	char err[512] = "";
	dbd_db_t *db;

	auth_set_context(c->path, c->slurm_user_id, 1);
	if (auth_init(c->auth_type, c->auth_info, c->plugin_dir) != 0)
		fatal("failed to initialize auth plugin %s", c->auth_type);
	/* AuthAltTypes=auth/jwt: slurmdbd has no StateSaveLocation, so
	 * AuthAltParameters=jwt_key= names the key */
	if (jwt_setup(c->auth_alt_types, c->auth_alt_params, NULL,
		      c->slurm_user_id, err, sizeof(err)) < 0)
		fatal("%s", err);
	db = dbd_db_open(c, DB_WAIT_S);
	if (!db)
		fatal("Unable to connect to database %s on %s:%u",
		      c->storage_loc, c->storage_host, c->storage_port);
	evthread_use_pthreads();
	dbd.base = event_base_new();
	if (!dbd.base)
		fatal("event_base_new failed");
	listen_port();
	if (dbd_notify_init() < 0 || dbd_worker_init(dbd.base, db, c) < 0)
		fatal("Unable to start the database worker");
	add_signals();
	info("slurmdbd version %s started", SLUICE_VERSION_STRING);
	if (dbd.opts.systemd)
		daemon_notify_ready("slurmdbd is serving");
}

static void stop(void)
{
	if (dbd.server)
		net_server_destroy(dbd.server);
	dbd_worker_fini();
	dbd_stats_fini();
	dbd_notify_fini();
	for (size_t i = 0; i < 3; i++)
		if (dbd.sig_ev[i])
			event_free(dbd.sig_ev[i]);
	if (dbd.base)
		event_base_free(dbd.base);
	daemon_remove_pidfile(dbd.conf->pid_file);
	info("slurmdbd shutdown completing");
}

int main(int argc, char **argv)
{
	char err[1024] = "";
	log_options_t lo = { .stderr_level = LOG_LEVEL_INFO,
			     .file_level = LOG_LEVEL_QUIET,
			     .stderr_prefix = true };

	dbd.boot_time = time(NULL);
	parse_opts(argc, argv, &dbd.opts);
	log_init("slurmdbd", lo, NULL);
	dbd.conf = dbd_conf_load(dbd.opts.conf_path, err, sizeof(err));
	if (!dbd.conf) {
		fprintf(stderr, "slurmdbd: fatal: %s\n", err);
		return 1;
	}
	daemon_ignore_signals();
	setup_log();
	check_conf_mode();
	for (size_t i = 0; dbd.conf->warnings && dbd.conf->warnings[i]; i++)
		info("warning: %s", dbd.conf->warnings[i]);
	if (!dbd.opts.foreground && !dbd.opts.systemd)
		daemon_detach();
	daemon_write_pidfile(dbd.conf->pid_file);
	if (privs_become_user(dbd.conf->slurm_user, dbd.conf->slurm_user_id,
			      err, sizeof(err)) < 0)
		fatal("%s", err);
	start();
	event_base_dispatch(dbd.base);
	if (dbd.opts.systemd)
		daemon_notify_stopping();
	stop();
	dbd_conf_destroy(dbd.conf);
	xfree(dbd.opts.conf_path);
	log_fini();
	return 0;
}
