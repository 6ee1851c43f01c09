/* sackd.c — the login-node daemon (Slurm's Auth and Cred Kiosk Daemon).
 *
 * A login node runs no slurmd.  sackd gives its commands what a slurmd
 * would:
 *
 *  - configless: the controller's slurm.conf and the files beside it,
 *    fetched from --conf-server (or the DNS SRV record _slurmctld._tcp)
 *    and cached in $RUNTIME_DIRECTORY/conf (default /run/slurm/conf),
 *    where the commands look when there is no slurm.conf of their own
 *    (cli_common.c).  sackd registers with the controller
 *    (REQUEST_SACKD_REGISTER, unless --disable-reconfig) and listens on
 *    --port (default SlurmdPort) for the files of each scontrol
 *    reconfigure (REQUEST_RECONFIGURE_WITH_CONFIG, from root or
 *    SlurmUser only).  SIGHUP fetches them again.
 *  - auth/slurm: the local token service (auth_slurm.h), so that users'
 *    commands, which cannot read slurm.key, get their credentials.
 *
 * Without --conf-server and with a slurm.conf of its own (-f, SLURM_CONF
 * or the default path) sackd only serves tokens.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/event.h>
#include <getopt.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/auth.h"
#include "common/conf.h"
#include "common/conf_files.h"
#include "common/daemon.h"
#include "common/daemon_notify.h"
#include "common/debug_flags.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#define SACKD_RUN_DIR        "/run/slurm"
#define SACKD_RETRY_SEC      10
#define SACKD_CONN_TIMEOUT   30000

typedef struct {
	const char *conf_file;     /* -f */
	const char *conf_server;   /* --conf-server host[:port][,host2] */
	const char *authinfo;      /* --authinfo: MUNGE before slurm.conf */
	const char *key_file;      /* --key-file: auth/slurm's key */
	bool        foreground;    /* -D */
	bool        systemd;       /* --systemd */
	bool        no_reconfig;   /* --disable-reconfig */
	int         verbose;
	long        port;          /* --port, 0: SlurmdPort */
} opts_t;

static struct {
	opts_t             o;
	char              *run_dir;   /* $RUNTIME_DIRECTORY or /run/slurm */
	char              *cache_dir; /* configless: run_dir/conf */
	char              *servers;   /* configless: where from */
	slurm_conf_t      *conf;
	struct event_base *base;
	net_server_t      *server;
} sk;

static void usage(FILE *out)
{
	fprintf(out,
"Usage: sackd [OPTIONS]\n"
"  --authinfo info       AuthInfo (MUNGE socket=) used to fetch the\n"
"                        configuration from --conf-server.\n"
"  --conf-server host[:port]\n"
"                        Fetch slurm.conf and its files from the controller\n"
"                        (configless) and keep them in\n"
"                        $RUNTIME_DIRECTORY/conf (/run/slurm/conf).\n"
"  -D                    Run in the foreground, logging to stderr.\n"
"  --disable-reconfig    Fetch the configuration once; do not register for\n"
"                        the files of later reconfigures.\n"
"  -f config             Read configuration from the specified file.\n"
"  -h                    Print this help message.\n"
"  --key-file file       auth/slurm key (default slurm.key beside\n"
"                        slurm.conf).\n"
"  --port number         Port to take reconfigure updates on (default\n"
"                        SlurmdPort).\n"
"  --systemd             Started by systemd (Type=notify).\n"
"  -v                    Verbose mode. Multiple -v's increase verbosity.\n"
"  -V                    Print version information and exit.\n");
}

static void _bad_opt(const char *what)
{
	fprintf(stderr, "sackd: fatal: %s\n", what);
	exit(1);
}

static void parse_opts(int argc, char **argv, opts_t *o)
{
	static const struct option lopts[] = {
		{ "authinfo", required_argument, NULL, 'A' },
		{ "ca-cert-file", required_argument, NULL, 'C' },
		{ "conf-server", required_argument, NULL, 'R' },
		{ "disable-reconfig", no_argument, NULL, 'X' },
		{ "jwks-file", required_argument, NULL, 'J' },
		{ "key-file", required_argument, NULL, 'K' },
		{ "port", required_argument, NULL, 'P' },
		{ "systemd", no_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 }
	};
	char *end;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "Df:hvV", lopts, NULL)) != -1) {
		switch (c) {
		case 'A': o->authinfo = optarg; break;
		case 'C':
			_bad_opt("--ca-cert-file: TLS is not supported by this "
				 "build (no tls plugin)");
			break;
		case 'R': o->conf_server = optarg; break;
		case 'X': o->no_reconfig = true; break;
		case 'J':
			_bad_opt("--jwks-file: auth/slurm JWKS key sets are not "
				 "supported; give the key with --key-file");
			break;
		case 'K': o->key_file = optarg; break;
		case 'P':
			errno = 0;
			o->port = strtol(optarg, &end, 10);
			if (errno || *end || o->port < 1 || o->port > 65535) {
				fprintf(stderr, "sackd: fatal: Invalid port "
					"number %s\n", optarg);
				exit(1);
			}
			break;
		case 'S': o->systemd = true; break;
		case 'D': o->foreground = true; break;
		case 'f': o->conf_file = optarg; break;
		case 'h': usage(stdout); exit(0);
		case 'v': o->verbose++; break;
		case 'V': printf("slurm %s\n", SLUICE_VERSION_STRING); exit(0);
		default:
			if (strchr("fARJKPC", optopt))
				fprintf(stderr, "sackd: option requires an "
					"argument -- '%c'\n", optopt);
			else
				fprintf(stderr, "sackd: invalid option -- "
					"'%c'\n", optopt);
			usage(stderr);
			exit(1);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "sackd: error: Unknown parameter: %s\n",
			argv[optind]);
		usage(stderr);
		exit(1);
	}
	if (o->conf_server && o->conf_file)
		_bad_opt("-f and --conf-server exclude each other");
}

static void setup_logging(int level)
{
	log_options_t lo = { 0 };

	if (level > LOG_LEVEL_DEBUG5)
		level = LOG_LEVEL_DEBUG5;
	/* in the foreground and under systemd (its journal) on stderr */
	lo.stderr_level = (sk.o.foreground || sk.o.systemd) ? level
							    : LOG_LEVEL_QUIET;
	lo.file_level = LOG_LEVEL_QUIET;
	lo.stderr_timestamps = !sk.o.systemd;
	log_init("sackd", lo, NULL);
}

/* configless when asked (--conf-server), or when there is no slurm.conf
 * of our own and DNS names the controllers (as slurmd). */
static char *_servers(void)
{
	const char *env = getenv("SLURM_CONF");
	char *srv;

	if (sk.o.conf_server)
		return xstrdup(sk.o.conf_server);
	if (sk.o.conf_file || (env && *env) ||
	    access(conf_default_path(), F_OK) == 0)
		return NULL;
	if ((srv = conf_files_srv_lookup()))
		info("configless: controllers from DNS SRV _slurmctld._tcp: %s",
		     srv);
	return srv;
}

/* The files from the controller (registering for later ones unless
 * --disable-reconfig).  wait: retry until a controller answers (start);
 * else one round (SIGHUP).  NULL when none answered. */
static config_files_msg_t *_fetch(bool wait)
{
	config_files_msg_t *m = NULL;
	char err[512];
	int rc;

	for (;;) {
		if (sk.o.no_reconfig)
			rc = conf_files_fetch(sk.servers, 0, NULL, &m, err,
					      sizeof(err));
		else
			rc = conf_files_register(sk.servers,
						 (uint16_t) sk.o.port, &m,
						 err, sizeof(err));
		if (!rc)
			return m;
		if (rc == ESLURM_CONFIGLESS_DISABLED)
			fatal("configless: %s", err);
		if (!wait) {
			error("configless: failed to load configs from %s (%s)",
			      sk.servers, err);
			return NULL;
		}
		error("_establish_config_source: failed to load configs from "
		      "%s (%s). Retrying in %d seconds.", sk.servers, err,
		      SACKD_RETRY_SEC);
		sleep(SACKD_RETRY_SEC);
	}
}

/* Read the cached (or own) slurm.conf; NULL with err. */
static slurm_conf_t *_load(char *err, size_t errlen)
{
	char *path;
	slurm_conf_t *c;

	if (!sk.cache_dir)
		return conf_load(sk.o.conf_file, err, errlen);
	path = xstrdup_printf("%s/slurm.conf", sk.cache_dir);
	c = conf_load(path, err, errlen);
	xfree(path);
	return c;
}

/* New files into the cache, then slurm.conf read again.  0 or -1. */
static int _take_files(const config_files_msg_t *m)
{
	char err[1024] = "";
	slurm_conf_t *c;

	if (conf_files_write(m, sk.cache_dir, err, sizeof(err)) < 0) {
		error("configless: %s", err);
		return -1;
	}
	if (!(c = _load(err, sizeof(err)))) {
		error("Reconfigure failed, keeping the old config: %s", err);
		return -1;
	}
	conf_destroy(sk.conf);
	sk.conf = c;
	debug_flags_set_conf(c->debug_flags);
	info("configless: %zu configuration files cached in %s",
	     conf_files_count(m), sk.cache_dir);
	return 0;
}

static void on_request(net_conn_t *conn, slurm_msg_t *msg, void *arg)
{
	(void) arg;
	if (msg->auth_uid != 0 && msg->auth_uid != sk.conf->slurm_user_id) {
		error("security violation: %s from uid %u at %s",
		      msg_type_name(msg->type), (unsigned) msg->auth_uid,
		      msg->peer);
		net_reply_rc(conn, ESLURM_ACCESS_DENIED);
		return;
	}
	if (msg->type != REQUEST_RECONFIGURE_WITH_CONFIG || !msg->data) {
		error("unexpected %s from %s", msg_type_name(msg->type),
		      msg->peer);
		net_reply_rc(conn, SLURM_UNEXPECTED_MSG_ERROR);
		return;
	}
	info("Reconfigure request (with the configuration files) from %s",
	     msg->peer);
	net_reply_rc(conn, _take_files(msg->data) ? SLURM_ERROR
						  : SLURM_SUCCESS);
}

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
	config_files_msg_t *m;
	char err[1024] = "";
	slurm_conf_t *c;

	(void) what; (void) arg;
	if (sig != SIGHUP) {
		info("Caught signal %d, shutting down", (int) sig);
		event_base_loopexit(sk.base, NULL);
		return;
	}
	info("Reconfigure signal (SIGHUP) received");
	if (sk.cache_dir) {
		if ((m = _fetch(false))) {
			_take_files(m);
			conf_files_free(m);
		}
		return;
	}
	if (!(c = _load(err, sizeof(err)))) {
		error("Reconfigure failed, keeping the old config: %s", err);
		return;
	}
	conf_destroy(sk.conf);
	sk.conf = c;
	debug_flags_set_conf(c->debug_flags);
}

static int mkdir_p(const char *path, mode_t mode)
{
	char *p = xstrdup(path);
	int rc = 0;

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, mode) < 0 && errno != EEXIST)
			rc = -1;
		*s = '/';
	}
	if (mkdir(p, mode) < 0 && errno != EEXIST)
		rc = -1;
	xfree(p);
	return rc;
}

/* AuthInfo for sackd's own auth plugin: slurm.conf's, with the token
 * service's socket in the run directory (unless AuthInfo names one) and
 * --key-file's key (else, configless, slurm.key beside the default
 * slurm.conf: the controller does not serve it). */
static char *_auth_info(void)
{
	const char *ai = sk.conf->auth_info;
	char *s = xstrdup(ai);
	char *conf_dir;

	if (!sk.conf->auth_type || strcmp(sk.conf->auth_type, "auth/slurm")) {
		if (sk.o.key_file)
			error("--key-file: %s has no key; not used",
			      sk.conf->auth_type ? sk.conf->auth_type
						 : "auth/munge");
		return s;
	}
	if (!ai || !strstr(ai, "socket="))
		xstrfmtcat(&s, "%ssocket=%s/sack.socket", s && *s ? "," : "",
			   sk.run_dir);
	if (sk.o.key_file)
		xstrfmtcat(&s, ",key=%s", sk.o.key_file);
	else if (sk.cache_dir && (!ai || !strstr(ai, "key="))) {
		conf_dir = xstrdup(conf_default_path());
		xstrfmtcat(&s, ",key=%s/slurm.key", dirname(conf_dir));
		xfree(conf_dir);
	}
	return s;
}

static void start_auth(void)
{
	char *ai = _auth_info();

	auth_set_context(sk.conf->path, sk.conf->slurm_user_id, 1);
	if (auth_init(sk.conf->auth_type, ai, sk.conf->plugin_dir) != 0)
		fatal("unable to initialize %s (AuthInfo %s)",
		      sk.conf->auth_type ? sk.conf->auth_type : "auth/munge",
		      ai);
	if (auth_serve() != 0)
		fatal("%s: cannot start the local token service",
		      sk.conf->auth_type);
	if (sk.conf->auth_type && !strcmp(sk.conf->auth_type, "auth/slurm"))
		info("auth/slurm: serving tokens to this host's commands");
	xfree(ai);
}

/* configless start: the files into the cache, read from there. */
static void establish(void)
{
	config_files_msg_t *m;

	if (auth_init("auth/munge", sk.o.authinfo, NULL) != SLURM_SUCCESS)
		fatal("configless: cannot initialize auth/munge%s%s",
		      sk.o.authinfo ? " with --authinfo " : "",
		      sk.o.authinfo ? sk.o.authinfo : "");
	m = _fetch(true);
	auth_fini();            /* then slurm.conf's AuthType */
	sk.cache_dir = xstrdup_printf("%s/conf", sk.run_dir);
	if (mkdir_p(sk.run_dir, 0755) < 0)
		fatal("unable to create %s: %m", sk.run_dir);
	if (_take_files(m) < 0)
		fatal("configless: the controller's files are unusable");
	conf_set_include_dir(sk.cache_dir);
	conf_files_free(m);
}

static int run(int fd)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	struct event *ev[3];

	sk.base = event_base_new();
	if (!sk.base)
		fatal("event_base_new failed");
	for (int i = 0; i < 3; i++) {
		ev[i] = evsignal_new(sk.base, sigs[i], on_signal, NULL);
		evsignal_add(ev[i], NULL);
	}
	if (fd >= 0 && !(sk.server = net_server_create(sk.base, fd,
						       on_request, NULL,
						       SACKD_CONN_TIMEOUT)))
		fatal("unable to serve on port %ld", sk.o.port);
	info("sackd version %s started", SLUICE_VERSION_STRING);
	if (sk.o.systemd)
		daemon_notify_ready("sackd is serving");
	event_base_dispatch(sk.base);
	if (sk.o.systemd)
		daemon_notify_stopping();
	info("sackd shutting down");
	if (sk.server)
		net_server_destroy(sk.server);
	for (int i = 0; i < 3; i++)
		event_free(ev[i]);
	event_base_free(sk.base);
	return 0;
}

int main(int argc, char **argv)
{
	const char *rd = getenv("RUNTIME_DIRECTORY");
	char err[1024] = "";
	int fd = -1;

	parse_opts(argc, argv, &sk.o);
	setup_logging(LOG_LEVEL_INFO + sk.o.verbose);
	/* systemd may list several (RuntimeDirectory=a b): the first */
	sk.run_dir = rd && *rd ? xstrndup(rd, strcspn(rd, ":"))
			       : xstrdup(SACKD_RUN_DIR);
	if (sk.run_dir[0] != '/')
		fatal("RUNTIME_DIRECTORY=%s is not an absolute path",
		      sk.run_dir);
	daemon_ignore_signals();
	signal(SIGUSR2, SIG_IGN);       /* as Slurm's sackd */
	sk.servers = _servers();
	if (sk.servers) {
		if (!sk.o.port && !sk.o.no_reconfig) {
			/* SlurmdPort is in the files: fetch them once to
			 * know where to listen, then register there */
			sk.o.no_reconfig = true;
			establish();
			sk.o.no_reconfig = false;
			sk.o.port = sk.conf->slurmd_port;
		}
		if (!sk.o.no_reconfig &&
		    (fd = net_listen_tcp(NULL, (uint16_t) sk.o.port)) < 0)
			fatal("unable to bind listen port (*:%ld): %m",
			      sk.o.port);
		if (!sk.conf || !sk.o.no_reconfig)
			establish();
	} else if (!(sk.conf = _load(err, sizeof(err)))) {
		fprintf(stderr, "sackd: error: %s\n", err);
		fprintf(stderr, "sackd: fatal: Unable to process configuration "
			"file\n");
		exit(1);
	}
	debug_flags_set_conf(sk.conf->debug_flags);
	setup_logging(sk.conf->slurmd_debug + sk.o.verbose);
	if (mkdir_p(sk.run_dir, 0755) < 0)
		fatal("unable to create %s: %m", sk.run_dir);
	/* detached first: the token service is a thread, which a fork
	 * would leave behind */
	if (!sk.o.foreground && !sk.o.systemd)
		daemon_detach();
	start_auth();
	run(fd);
	auth_fini();
	conf_destroy(sk.conf);
	xfree(sk.servers);
	xfree(sk.cache_dir);
	xfree(sk.run_dir);
	log_fini();
	return 0;
}
