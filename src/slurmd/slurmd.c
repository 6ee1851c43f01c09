/* slurmd.c — the node daemon: options, start-up, event loop.
 *
 * slurmd registers with the controller, answers its pings, and starts one
 * slurmstepd per batch job; everything else about a job happens in its
 * stepd, which outlives a slurmd restart.  The loop never blocks for long:
 * messages to the controller go through a sender thread (ctld_send.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/comm_params.h"
#include "common/debug_flags.h"
#include "common/daemon.h"
#include "common/daemon_notify.h"
#include "common/auth.h"
#include "common/log.h"
#include "common/spank.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurmd/gres_detect.h"
#include "slurmd/common/node_plugins.h"
#include "slurmd/common/job_container.h"
#include "slurmd/common/spool.h"
#include "slurmd/configless.h"
#include "slurmd/dynamic.h"
#include "slurmd/energy_rapl.h"
#include "slurmd/epilog.h"
#include "slurmd/health.h"
#include "slurmd/reboot.h"
#include "slurmd/req.h"
#include "slurmd/slurmd.h"
#include "slurmd/stepd_spawn.h"

#define SLURMD_CONN_TIMEOUT_MS 30000

typedef struct {
	const char *conf_file;
	const char *node_name;
	const char *log_file;
	bool        foreground;
	bool        systemd;     /* --systemd: no detach, sd_notify */
	bool        clear;
	bool        print_hw;
	int         verbose;
	const char *conf_server; /* --conf-server host[:port][,host2] */
	const char *authinfo;    /* --authinfo: MUNGE before slurm.conf */
	bool        dynamic;     /* -Z */
	const char *dyn_conf;    /* --conf "CPUs=4 RealMemory=2000 ..." */
} opts_t;

static void usage(FILE *out)
{
	fprintf(out,
"Usage: slurmd [OPTIONS]\n"
"  --authinfo info  AuthInfo (MUNGE socket=) used to fetch the configuration\n"
"                from --conf-server.\n"
"  -c            Clear spool files of jobs that no longer run.\n"
"  --conf node_parameters  With -Z: this node's parameters as on a\n"
"                NodeName line (CPUs=4 RealMemory=2000 Features=f1 ...).\n"
"  --conf-server host[:port][,host2[:port]]\n"
"                Fetch slurm.conf and its files from the controller\n"
"                (configless).\n"
"  -C            Print node configuration information and exit.\n"
"  -D            Run daemon in foreground, with logging copied to stdout.\n"
"  -f config     Read configuration from the specified file.\n"
"  -h            Print this help message.\n"
"  -L logfile    Log messages to the specified file.\n"
"  -N node_name  Run the daemon for specified nodename.\n"
"  -v            Verbose mode. Multiple -v's increase verbosity.\n"
"  -V            Print version information and exit.\n"
"  -Z            Start as a dynamic node (not in slurm.conf; see --conf).\n"
"  --systemd     Started by systemd (Type=notify): stay in the foreground\n"
"                and tell it when ready.\n");
}

static void parse_opts(int argc, char **argv, opts_t *o)
{
	static const struct option lopts[] = {
		{ "systemd", no_argument, NULL, 'S' },
		{ "conf-server", required_argument, NULL, 'R' },
		{ "conf", required_argument, NULL, 'Q' },
		{ "authinfo", required_argument, NULL, 'A' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "cCDf:hL:N:vVZ", lopts,
				NULL)) != -1) {
		switch (c) {
		case 'S': o->systemd = true; break;
		case 'R': o->conf_server = optarg; break;
		case 'Q': o->dyn_conf = optarg; break;
		case 'A': o->authinfo = optarg; break;
		case 'Z': o->dynamic = true; break;
		case 'c': o->clear = true; break;
		case 'C': o->print_hw = true; break;
		case 'D': o->foreground = true; break;
		case 'f': o->conf_file = optarg; break;
		case 'h': usage(stdout); exit(0);
		case 'L': o->log_file = optarg; break;
		case 'N': o->node_name = optarg; break;
		case 'v': o->verbose++; break;
		case 'V': printf("slurm %s\n", SLUICE_VERSION_STRING); exit(0);
		default:
			if (optopt == 'f' || optopt == 'L' || optopt == 'N' ||
			    optopt == 'R' || optopt == 'Q' || optopt == 'A')
				fprintf(stderr, "slurmd: option requires an argument -- '%c'\n",
					optopt);
			else
				fprintf(stderr, "slurmd: invalid option -- '%c'\n",
					optopt);
			usage(stderr);
			exit(1);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "slurmd: error: Unknown parameter: %s\n",
			argv[optind]);
		usage(stderr);
		exit(1);
	}
}

static const conf_node_t *find_my_node(const slurm_conf_t *conf,
				       const char *name, const char *host)
{
	if (name)
		return conf_find_node(conf, name);
	for (size_t i = 0; i < conf->node_cnt; i++) {
		const conf_node_t *n = &conf->nodes[i];

		if (!xstrcmp(n->hostname, host) || !xstrcmp(n->name, host))
			return n;
	}
	return NULL;
}

static char *stepd_path(void)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		return xstrdup(SLUICE_SBINDIR "/slurmstepd");
	self[n] = '\0';
	return xstrdup_printf("%s/slurmstepd", dirname(self));
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

static void setup_logging(slurmd_t *sd, const opts_t *o)
{
	int level = sd->conf->slurmd_debug + o->verbose;
	log_options_t lo = { 0 };

	if (level > LOG_LEVEL_DEBUG5)
		level = LOG_LEVEL_DEBUG5;
	if (o->log_file)
		sd->log_file = xstrdup(o->log_file);
	else if (sd->conf->slurmd_log_file)
		sd->log_file = conf_expand_node_path(sd->conf->slurmd_log_file,
						     sd->node->name);
	lo.stderr_level = o->foreground ? level : LOG_LEVEL_QUIET;
	lo.file_level = level;
	lo.stderr_timestamps = true;
	if (log_init("slurmd", lo, sd->log_file) < 0)
		error("could not open log file %s: %m", sd->log_file);
}

/* -Z: this node's line from the hardware and --conf; the controller
 * adds the node when it registers (dynamic.h). */
static void load_dynamic(slurmd_t *sd, const opts_t *o)
{
	const char *name = o->node_name ? o->node_name : sd->hw.hostname;
	char err[1024] = "";

	if (conf_find_node(sd->conf, name)) {
		fprintf(stderr, "slurmd: fatal: -Z: node %s is in %s: a "
			"dynamic node is not\n", name, sd->conf->path);
		exit(1);
	}
	sd->dyn_line = dynamic_node_line(name, &sd->hw, o->dyn_conf, err,
					 sizeof(err));
	if (sd->dyn_line)
		sd->dyn_node = dynamic_node_parse(sd->conf, sd->dyn_line, err,
						  sizeof(err));
	if (!sd->dyn_node) {
		fprintf(stderr, "slurmd: fatal: -Z: %s\n", err);
		exit(1);
	}
	sd->node = sd->dyn_node;
}

static void load_config(slurmd_t *sd, const opts_t *o)
{
	char err[1024] = "";
	char real[PATH_MAX];

	sd->conf = conf_load(o->conf_file, err, sizeof(err));
	if (!sd->conf) {
		fprintf(stderr, "slurmd: error: %s\n", err);
		fprintf(stderr, "slurmd: fatal: Unable to process configuration file\n");
		exit(1);
	}
	debug_flags_set_conf(sd->conf->debug_flags);
	if (o->dynamic)
		load_dynamic(sd, o);
	else if (o->dyn_conf) {
		fprintf(stderr, "slurmd: fatal: --conf is only valid with -Z\n");
		exit(1);
	}
	if (!sd->node)
		sd->node = find_my_node(sd->conf, o->node_name, sd->hw.hostname);
	if (!sd->node) {
		fprintf(stderr, "slurmd: fatal: Unable to determine this slurmd's NodeName\n");
		exit(1);
	}
	sd->conf_path = xstrdup(realpath(sd->conf->path, real) ? real
							       : sd->conf->path);
	sd->spool_dir = conf_expand_node_path(sd->conf->slurmd_spool_dir ?
					      sd->conf->slurmd_spool_dir :
					      "/var/spool/slurmd",
					      sd->node->name);
}

/* Every plugin type of the node resolves, or slurmd does not start. */
static void check_plugins(const slurmd_t *sd, const opts_t *o)
{
	char err[1024] = "";

	if (node_plugins_check(sd->conf, err, sizeof(err)) == 0) {
		node_plugins_log_notes(sd->conf);
		return;
	}
	if (!o->foreground)       /* the log is not on stderr */
		fprintf(stderr, "slurmd: fatal: %s\n", err);
	fatal("%s", err);
}

static char *write_pid_file(const slurmd_t *sd)
{
	char *path;

	if (!sd->conf->slurmd_pid_file)
		return NULL;
	path = conf_expand_node_path(sd->conf->slurmd_pid_file, sd->node->name);
	if (daemon_write_pidfile(path) < 0)
		xfree(path);
	return path;
}

/* slurmstepd, Epilog and HealthCheckProgram processes are our children. */
static void reap_children(slurmd_t *sd)
{
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		if (!epilog_reaped(sd, pid, status) &&
		    !health_reaped(sd, pid, status) &&
		    !reboot_reaped(sd, pid, status))
			debug2("child %d ended, status 0x%x", (int) pid,
			       status);
	}
}

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
	slurmd_t *sd = arg;

	switch (sig) {
	case SIGCHLD:
		reap_children(sd);
		break;
	case SIGHUP:
		info("Reconfigure signal (SIGHUP) received");
		slurmd_reconfigure(sd);
		break;
	default:
		info("caught signal %d, shutting down", (int) sig);
		event_base_loopexit(sd->base, NULL);
	}
}

/* CommunicationParameters=NoInAddrAny: the node's own address (NodeAddr),
 * else any. */
static const char *_bind_addr(const slurmd_t *sd)
{
	comm_params_t p;
	char err[256];

	if (comm_params_parse(sd->conf->comm_params, &p, err,
			      sizeof(err)) < 0 || !p.no_in_addr_any)
		return NULL;
	return sd->node->addr;
}

int slurmd_reconfigure(slurmd_t *sd)
{
	char err[1024] = "";
	slurm_conf_t *nc = conf_load(sd->conf_path, err, sizeof(err));
	const conf_node_t *node;

	if (!nc) {
		error("Reconfigure failed, keeping the old config: %s", err);
		return SLURM_ERROR;
	}
	node = sd->dyn_node ? sd->dyn_node : conf_find_node(nc, sd->node->name);
	if (!node) {
		error("Reconfigure failed, keeping the old config: node %s "
		      "is not in %s", sd->node->name, sd->conf_path);
		conf_destroy(nc);
		return SLURM_ERROR;
	}
	if (node_plugins_check(nc, err, sizeof(err)) < 0) {
		error("Reconfigure failed, keeping the old config: %s", err);
		conf_destroy(nc);
		return SLURM_ERROR;
	}
	/* what was set up from the old one at start (the server, the
	 * credential context) may still point into it: keep it */
	sd->old_confs = xrealloc(sd->old_confs, (sd->old_conf_cnt + 1) *
				 sizeof(*sd->old_confs));
	sd->old_confs[sd->old_conf_cnt++] = sd->conf;
	sd->conf = nc;
	debug_flags_set_conf(nc->debug_flags);
	sd->node = node;
	if (sd->log_file)
		log_reopen(sd->log_file);
	info("Reconfigured from %s", sd->conf_path);
	conf_log_not_in_force(nc, sd->old_confs[sd->old_conf_cnt - 1]);
	node_plugins_log_notes(nc);
	return SLURM_SUCCESS;
}

void slurmd_shutdown(slurmd_t *sd)
{
	struct timeval tv = { 0, 200000 };

	event_base_loopexit(sd->base, &tv);
}

static int run(slurmd_t *sd, int listen_fd, bool notify)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGCHLD, SIGHUP };
	struct event *ev[4];
	int timeout = SLURMD_CONN_TIMEOUT_MS;
	spank_stack_t *spank;

	sd->base = event_base_new();
	if (!sd->base)
		fatal("event_base_new failed");
	for (int i = 0; i < 4; i++) {
		ev[i] = evsignal_new(sd->base, sigs[i], on_signal, sd);
		evsignal_add(ev[i], NULL);
	}
	sd->server = net_server_create(sd->base, listen_fd, req_handle, sd,
				       timeout);
	if (!sd->server)
		fatal("unable to serve on port %u", sd->node->port);
	sd->sender = ctld_sender_create(sd->conf);
	if (!sd->sender)
		fatal("unable to start the controller sender");
	slurmd_register_init(sd);
	/* SPANK plugins' slurmd context: init now, slurmd_exit at the end */
	spank = spank_stack_create(S_CTX_SLURMD, sd->conf->plugstack_config,
				   sd->conf->plugin_dir, NULL);
	if (!spank || spank_stack_call(spank, SPANK_CB_INIT, NULL, NULL) < 0)
		fatal("Failed to initialize plugin stack");
	health_run_sync(sd);        /* before registering, as Slurm does */
	slurmd_register(sd, true);
	info("slurmd version %s started", SLUICE_VERSION_STRING);
	if (notify)
		daemon_notify_ready("slurmd is serving");
	conf_log_not_in_force(sd->conf, NULL);
	sd->energy = energy_node_start(sd->conf, sd->base);
	event_base_dispatch(sd->base);
	if (notify)
		daemon_notify_stopping();
	energy_node_stop(sd->energy);
	sd->energy = NULL;

	info("slurmd shutting down");
	stepd_spawn_fini();
	spank_stack_call(spank, SPANK_CB_SLURMD_EXIT, NULL, NULL);
	spank_stack_destroy(spank);
	ctld_sender_flush(sd->sender, 1000);
	net_server_destroy(sd->server);
	ctld_sender_destroy(sd->sender);
	for (int i = 0; i < 4; i++)
		event_free(ev[i]);
	health_fini(sd);
	event_base_free(sd->base);
	return 0;
}

int main(int argc, char **argv)
{
	opts_t o = { 0 };
	slurmd_t sd = { 0 };
	char *conf_path_buf = NULL;
	char *pid_file, err[1024] = "";
	int fd;

	parse_opts(argc, argv, &o);
	hwinfo_detect(&sd.hw);
	if (o.print_hw) {
		hwinfo_print(&sd.hw, stdout);
		return 0;
	}
	{
		char *servers = configless_servers(o.conf_server, o.conf_file);

		if (servers) {
			sd.cache_dir = configless_establish(servers, o.authinfo,
							    o.node_name,
							    sd.hw.hostname);
			o.conf_file = conf_path_buf = xstrdup_printf(
				"%s/slurm.conf", sd.cache_dir);
			xfree(servers);
		}
	}
	load_config(&sd, &o);
	sd.verbose = o.verbose;
	sd.start_time = time(NULL);
	sd.stepd_path = stepd_path();
	setup_logging(&sd, &o);
	check_plugins(&sd, &o);
	if (gres_detect_at_start(sd.conf, sd.node, &sd.gres_cores, err,
				 sizeof(err)) < 0) {
		if (!o.foreground)
			fprintf(stderr, "slurmd: fatal: gres.conf: %s\n", err);
		fatal("gres.conf: %s", err);
	}
	if (job_container_node_init(sd.conf, sd.node->name, err,
				    sizeof(err)) < 0) {
		if (!o.foreground)
			fprintf(stderr, "slurmd: fatal: %s\n", err);
		fatal("%s", err);
	}
	daemon_ignore_signals();
	if (mkdir_p(sd.spool_dir, 0755) < 0)
		fatal("unable to create spool directory %s: %m", sd.spool_dir);
	auth_set_context(sd.conf->path, sd.conf->slurm_user_id, 1);
	if (auth_init(sd.conf->auth_type, sd.conf->auth_info,
		      sd.conf->plugin_dir) != 0)
		fatal("unable to initialize %s", sd.conf->auth_type);
	if (access(sd.stepd_path, X_OK) < 0)
		error("%s: %m (batch jobs cannot start)", sd.stepd_path);
	fd = net_listen_tcp(_bind_addr(&sd), sd.node->port);
	if (fd < 0)
		fatal("unable to bind listen port (%s:%u): %m",
		      _bind_addr(&sd) ? _bind_addr(&sd) : "*", sd.node->port);
	if (o.clear)
		spool_clear_stale(sd.spool_dir, sd.node->name);
	if (!o.foreground && !o.systemd)
		daemon_detach();
	/* after detaching: the token service is a thread, which the fork
	 * would leave behind */
	if (auth_serve() != 0)
		error("%s: no local token service from this slurmd: commands "
		      "run by users on this host cannot authenticate",
		      sd.conf->auth_type);
	pid_file = write_pid_file(&sd);
	info("node %s: CPUs=%u Boards=%u Sockets=%u Cores=%u Threads=%u "
	     "Memory=%llu, spool %s, port %u", sd.node->name, sd.hw.cpus,
	     sd.hw.boards, sd.hw.sockets, sd.hw.cores, sd.hw.threads,
	     (unsigned long long) sd.hw.real_memory, sd.spool_dir,
	     sd.node->port);

	run(&sd, fd, o.systemd);

	job_container_node_fini(sd.conf, sd.node->name);
	daemon_remove_pidfile(pid_file);
	xfree(pid_file);
	auth_fini();
	hwinfo_free(&sd.hw);
	xfree(sd.conf_path);
	xfree(conf_path_buf);
	xfree(sd.cache_dir);
	xfree(sd.dyn_line);
	if (sd.dyn_node)
		conf_node_line_free(sd.dyn_node, 1);
	xfree(sd.spool_dir);
	xfree(sd.log_file);
	xfree(sd.stepd_path);
	xfree(sd.epilogs);
	conf_destroy(sd.conf);
	for (size_t i = 0; i < sd.old_conf_cnt; i++)
		conf_destroy(sd.old_confs[i]);
	xfree(sd.old_confs);
	log_fini();
	return 0;
}
