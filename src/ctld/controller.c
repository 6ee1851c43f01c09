/* controller.c — slurmctld: options, start-up, the event loop, signals,
 * timers, reconfigure and shutdown. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/thread.h>

#include "common/daemon.h"
#include "common/daemon_notify.h"
#include "common/auth.h"
#include "common/conf_files.h"
#include "common/jwt.h"
#include "common/log.h"
#include "common/net.h"
#include "common/privs.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/crontab.h"
#include "ctld/trigger.h"
#include "common/debug_flags.h"
#include "ctld/acct_job.h"
#include "ctld/acct_storage.h"
#include "ctld/agent.h"
#include "ctld/assoc_mgr.h"
#include "ctld/fairshare.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/conf_serve.h"
#include "ctld/ha.h"
#include "ctld/job_inactive.h"
#include "ctld/job_mgr.h"
#include "ctld/job_submit_plugin.h"
#include "ctld/ctld_plugins.h"
#include "ctld/jobcomp.h"
#include "ctld/node_health.h"
#include "ctld/node_mgr.h"
#include "ctld/node_reboot.h"
#include "ctld/part_mgr.h"
#include "ctld/rate_limit.h"
#include "ctld/power_save.h"
#include "ctld/lic_mgr.h"
#include "ctld/recover.h"
#include "ctld/resv_mgr.h"
#include "ctld/resv_ports.h"
#include "ctld/rpc.h"
#include "ctld/sched.h"
#include "ctld/site_factor.h"
#include "ctld/state_save.h"
#include "ctld/stats.h"
#include "ctld/user_groups.h"
#include "ctld/topo_mgr.h"
#include "slurm/slurm_errno.h"

#define AGENT_THREADS 8
#define RESTART_ENV     "SLUICE_CTLD_RESTART"
#define LISTEN_FD_ENV   "SLUICE_CTLD_LISTEN_FD"
#define RESTART_POLL_MS 10
#define RESTART_WAIT_MS 3000    /* for replies owed before re-executing */

typedef struct {
	bool  foreground;
	bool  systemd;        /* --systemd: no detach, sd_notify readiness */
	bool  clear_state;
	bool  ignore_state_errors;
	int   verbose;
	char *conf_path;
	char *log_file;
} ctld_opts_t;

static struct {
	ctld_opts_t        opts;
	slurm_conf_t      *conf;
	struct event_base *base;
	net_server_t      *server;
	struct event      *tick_ev;
	struct event      *sig_ev[4];
	recover_t          recovered;
	time_t             boot_time;
	time_t             last_ping;
	uint32_t           private_data;   /* PRIVATE_DATA_* */
	int                debug_level;    /* scontrol setdebug; -1: the
					    * config's */
	bool               stopping;
	bool               restarting;     /* ctld_restart_from_disk() */
	bool               restarted;      /* this image is such a restart */
	bool               warm;           /* state was recovered */
	struct event      *restart_ev;
	unsigned           restart_waited; /* ms */
	char             **argv;
} ctld;

const slurm_conf_t *ctld_conf(void)
{
	return ctld.conf;
}

struct event_base *ctld_base(void)
{
	return ctld.base;
}

time_t ctld_boot_time(void)
{
	return ctld.boot_time;
}

/* root, SlurmUser and accounting Operators/Administrators (rpc.c
 * decides). */
bool ctld_is_operator(uid_t uid)
{
	return rpc_privilege(uid) >= RPC_PRIV_OPERATOR;
}

bool ctld_hides(uint32_t what, uid_t uid)
{
	return (ctld.private_data & what) && !ctld_is_operator(uid);
}

static void _usage(FILE *out)
{
	fprintf(out,
"Usage: slurmctld [OPTIONS]\n"
"  -c            Do not recover state from last checkpoint.\n"
"  -D            Run daemon in foreground, with logging copied to stderr.\n"
"  -f file       Use specified file for slurmctld configuration.\n"
"  -h            Print this help message.\n"
"  -i            Ignore errors found while reading in state files on startup.\n"
"  -L logfile    Log messages to the specified file.\n"
"  -v            Verbose mode. Multiple -v's increase verbosity.\n"
"  -V            Print version information and exit.\n"
"  --systemd     Started by systemd (Type=notify): stay in the foreground\n"
"                and tell it when ready.\n");
}

static void _parse_opts(int argc, char **argv, ctld_opts_t *o)
{
	static const struct option lopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "systemd", no_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	while ((c = getopt_long(argc, argv, "cDf:hiL:RsvV", lopts, NULL)) != -1) {
		switch (c) {
		case 'S': o->systemd = true; break;
		case 'c': o->clear_state = true; break;
		case 'D': o->foreground = true; break;
		case 'f': o->conf_path = xstrdup(optarg); break;
		case 'h': _usage(stdout); exit(0);
		case 'i': o->ignore_state_errors = true; break;
		case 'L': o->log_file = xstrdup(optarg); break;
		case 'R': case 's': break;
		case 'v': o->verbose++; break;
		case 'V': printf("slurm %s\n", SLUICE_VERSION_STRING); exit(0);
		default: _usage(stderr); exit(1);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "slurmctld: error: Unknown argument: %s\n",
			argv[optind]);
		_usage(stderr);
		exit(1);
	}
}

static slurm_conf_t *_load_conf(const char *path, char *err, size_t errlen)
{
	char abs[PATH_MAX];

	if (path && path[0] != '/' && realpath(path, abs))
		path = abs;
	return conf_load(path, err, errlen);
}

static log_level_t _file_level(void)
{
	int l = ctld.debug_level >= 0 ? ctld.debug_level :
		ctld.conf->slurmctld_debug + ctld.opts.verbose;

	return l > LOG_LEVEL_DEBUG5 ? LOG_LEVEL_DEBUG5 : l;
}

static void _setup_log(void)
{
	log_options_t lo = { .stderr_level = LOG_LEVEL_ERROR,
			     .file_level = _file_level(),
			     .stderr_timestamps = true };
	const char *file = ctld.opts.log_file ? ctld.opts.log_file :
		ctld.conf->slurmctld_log_file;

	if (ctld.opts.foreground)
		lo.stderr_level = _file_level();
	else if (!file)
		lo.stderr_level = LOG_LEVEL_QUIET;
	if (log_init("slurmctld", lo, file) < 0)
		error("Unable to open log file %s", file);
}

/* ---- loop events ---- */

static void _tick(evutil_socket_t fd, short what, void *arg)
{
	time_t now = time(NULL);
	uint16_t period = ctld.conf->slurmd_timeout / 3;

	if (!period)
		period = 1;
	if (!ha_lease_check()) {
		error("The controller lease in %s was taken by another "
		      "controller: stopping at once, writing nothing",
		      ctld.conf->state_save_location);
		_exit(1);
	}
	resv_mgr_tick(now);
	job_mgr_tick(now);
	if (now - ctld.last_ping >= period) {
		ctld.last_ping = now;
		node_mgr_ping(now);
	}
	node_health_tick(now);
	node_reboot_tick(now);
	power_save_tick(now);
	trigger_tick(now);
	if (now % 5 == 0)
		sched_trigger();
}

static void _on_signal(evutil_socket_t sig, short what, void *arg)
{
	if (sig == SIGHUP) {
		info("Reconfigure signal (SIGHUP) received");
		ctld_reconfigure();
		return;
	}
	info("Terminate signal (SIGINT or SIGTERM) received");
	ctld_shutdown();
}

bool ctld_restarting(void)
{
	return ctld.restarting;
}

/* Re-execute on the same pid, listening socket and lease: the new image
 * recovers StateSaveLocation like any start, so its memory is exactly
 * what was journaled.  Nothing is saved first. */
static void _reexec(void)
{
	char v[16];
	int fd = net_server_fd(ctld.server);

	snprintf(v, sizeof(v), "%d", fd);
	if (fd < 0 || fcntl(fd, F_SETFD, 0) < 0 ||
	    setenv(LISTEN_FD_ENV, v, 1) < 0 || ha_restart_keep_lease() < 0 ||
	    setenv(RESTART_ENV, "1", 1) < 0)
		error_errno("Unable to keep the listening socket and the "
			    "lease across the restart");
	commit_quiesce();
	info("Restarting from the state in %s", ctld.conf->state_save_location);
	execv("/proc/self/exe", ctld.argv);
	/* the state in memory is not the acknowledged one: never go on */
	fatal("Unable to restart from the state in %s: %s",
	      ctld.conf->state_save_location, strerror(errno));
}

/* Wait until every reply owed (the refusals among them) has left. */
static void _restart_poll(evutil_socket_t fd, short what, void *arg)
{
	struct timeval tv = { 0, RESTART_POLL_MS * 1000 };

	if (net_server_owing(ctld.server) &&
	    ctld.restart_waited < RESTART_WAIT_MS) {
		ctld.restart_waited += RESTART_POLL_MS;
		evtimer_add(ctld.restart_ev, &tv);
		return;
	}
	_reexec();
}

void ctld_restart_from_disk(void)
{
	struct timeval now = { 0, 0 };

	if (ctld.restarting)
		return;
	ctld.restarting = true;
	error("The controller's memory holds changes that are not in %s: "
	      "restarting from the state there, without saving",
	      ctld.conf->state_save_location);
	net_server_pause(ctld.server);  /* new clients wait in the backlog */
	ctld.restart_ev = evtimer_new(ctld.base, _restart_poll, NULL);
	if (!ctld.restart_ev)
		_reexec();
	evtimer_add(ctld.restart_ev, &now);
}

void ctld_shutdown(void)
{
	struct timeval tv = { 0, 200000 };

	if (ctld.stopping)
		return;
	ctld.stopping = true;
	/* refused at connect from now on: the commands retry (cli_common.c)
	 * until the next controller listens, instead of waiting in the
	 * backlog of one that will not answer */
	net_server_stop_accepting(ctld.server);
	event_base_loopexit(ctld.base, &tv);
}

/* Every slurmd reads slurm.conf again too (its Prolog, Epilog and other
 * programs), as Slurm's scontrol reconfigure does; FUTURE nodes have none. */
static void _reconfigure_nodes(void)
{
	const config_files_msg_t *files = conf_serve_files();

	for (size_t i = 0; i < node_mgr_count(); i++) {
		const node_record_t *r = node_mgr_at(i);
		config_files_msg_t *m = NULL;

		if ((r->info.node_state & NODE_STATE_BASE) == NODE_STATE_FUTURE)
			continue;
		/* configless: the files go with it (a slurmd that reads its
		 * own slurm.conf ignores them) */
		if (files)
			m = conf_files_copy(files);
		agent_send_rc(r->info.node_addr, r->info.port,
			      m ? REQUEST_RECONFIGURE_WITH_CONFIG :
			      REQUEST_RECONFIGURE, m,
			      ctld.conf->message_timeout * 1000, NULL, NULL);
	}
	conf_serve_push_sackds(ctld.conf->message_timeout * 1000);
}

int ctld_reconfigure(void)
{
	char err[512] = "";
	rl_conf_t rl;
	uint32_t private_data;
	uint16_t old_inactive;
	slurm_conf_t *nc = _load_conf(ctld.conf->path, err, sizeof(err));

	if (!nc) {
		error("Reconfigure failed, keeping the old config: %s", err);
		return SLURM_ERROR;
	}
	if (conf_parse_rl(nc->slurmctld_params, &rl, err, sizeof(err)) < 0 ||
	    conf_parse_private_data(nc->private_data, &private_data, err,
				    sizeof(err)) < 0 ||
	    ctld_plugins_check(nc, err, sizeof(err)) < 0 ||
	    part_mgr_check_qos(nc, err, sizeof(err)) < 0) {
		error("Reconfigure failed, keeping the old config: %s", err);
		conf_destroy(nc);
		return SLURM_ERROR;
	}
	if (power_save_check(nc, err, sizeof(err)) < 0) {
		error("Reconfigure failed, keeping the old config: %s", err);
		conf_destroy(nc);
		return SLURM_ERROR;
	}
	if (node_mgr_reconfig(nc, err, sizeof(err)) < 0 ||
	    topo_mgr_init(nc, err, sizeof(err)) < 0 ||
	    part_mgr_init(nc, err, sizeof(err)) < 0) {
		error("Reconfigure failed, keeping the old config: %s", err);
		node_mgr_reconfig(ctld.conf, err, sizeof(err));
		conf_destroy(nc);
		return SLURM_ERROR;
	}
	if (conf_serve_reload(nc, err, sizeof(err)) < 0)
		error("Reconfigure: configless: %s; the files served stay as "
		      "they were", err);
	/* the key and the token rules are read once, at start */
	if (xstrcmp(nc->auth_alt_types, ctld.conf->auth_alt_types) ||
	    xstrcmp(nc->auth_alt_params, ctld.conf->auth_alt_params))
		info("AuthAltTypes/AuthAltParameters changed: that takes "
		     "effect when slurmctld restarts");
	if (!acct_storage_same(nc))
		info("AccountingStorageType changed: that takes effect when "
		     "slurmctld restarts");
	conf_log_not_in_force(nc, ctld.conf);
	power_save_configure(nc, err, sizeof(err));   /* checked above */
	if (lic_mgr_init(nc, err, sizeof(err)) < 0)   /* checked by the parse */
		error("Reconfigure: %s; the licenses stay as they were", err);
	old_inactive = ctld.conf->inactive_limit;
	conf_destroy(ctld.conf);
	ctld.conf = nc;
	job_inactive_reconfig(old_inactive);
	rl_configure(&rl);
	ctld.private_data = private_data;
	if (job_submit_plugin_init(nc, err, sizeof(err)) < 0)
		error("Reconfigure: %s; job submissions are refused until it loads", err);
	if (jobcomp_init(nc, err, sizeof(err)) < 0)
		error("Reconfigure: %s; ended jobs are not recorded until it loads", err);
	if (site_factor_init(nc, err, sizeof(err)) < 0)
		error("Reconfigure: %s; pending jobs keep their site factors, new ones get 0, until it loads", err);
	job_mgr_reattach_parts();
	part_mgr_qos_reloaded(NULL);
	ctld.debug_level = -1;          /* as Slurm: setdebug is undone */
	log_set_levels(ctld.opts.foreground ? _file_level() : LOG_LEVEL_QUIET,
		       _file_level());
	debug_flags_set_conf(nc->debug_flags);
	resv_ports_config(nc->mpi_params);
	if (!ctld.opts.log_file && nc->slurmctld_log_file)
		log_reopen(nc->slurmctld_log_file);
	info("Reconfigured from %s", nc->path);
	trigger_reconfig();
	crontab_check_conf();
	commit_dirty();
	assoc_mgr_reconfig(nc);
	sched_reconfig();
	user_groups_flush();            /* as Slurm: groups looked up again */
	_reconfigure_nodes();
	return SLURM_SUCCESS;
}

void ctld_set_debug_level(int level)
{
	ctld.debug_level = level;
	log_set_levels(ctld.opts.foreground ? _file_level() : LOG_LEVEL_QUIET,
		       _file_level());
}

int ctld_debug_level(void)
{
	return ctld.debug_level >= 0 ? ctld.debug_level :
	       ctld.conf->slurmctld_debug;
}

static int _add_events(void)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	struct timeval one = { 1, 0 };
	size_t i;

	ctld.tick_ev = event_new(ctld.base, -1, EV_PERSIST, _tick, NULL);
	event_add(ctld.tick_ev, &one);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		ctld.sig_ev[i] = evsignal_new(ctld.base, sigs[i], _on_signal,
					      NULL);
		event_add(ctld.sig_ev[i], NULL);
	}
	return 0;
}

/* The listening socket of the image we replaced (ctld_restart_from_disk)
 * or -1. */
static int _inherited_listen_fd(void)
{
	const char *v = getenv(LISTEN_FD_ENV);
	char *end = NULL;
	long fd = v ? strtol(v, &end, 10) : -1;

	unsetenv(LISTEN_FD_ENV);
	if (!v || !end || *end || fd < 0 || fcntl((int) fd, F_GETFD) < 0)
		return -1;
	fcntl((int) fd, F_SETFD, FD_CLOEXEC);
	return (int) fd;
}

static void _listen(void)
{
	int fd = _inherited_listen_fd();

	if (fd < 0)
		fd = net_listen_tcp(ha_listen_addr(),
				    ctld.conf->slurmctld_port);

	if (fd < 0)
		fatal("Unable to bind listen port (%s:%u): %s",
		      ha_listen_addr() ? ha_listen_addr() : "*",
		      ctld.conf->slurmctld_port, strerror(errno));
	ctld.server = net_server_create(ctld.base, fd, rpc_dispatch, NULL,
					ctld.conf->message_timeout * 1000);
	if (!ctld.server)
		fatal("Unable to serve on port %u", ctld.conf->slurmctld_port);
}

static void _init_state(void)
{
	const slurm_conf_t *c = ctld.conf;
	char err[512] = "";
	int rc;

	if (node_mgr_init(c) < 0)
		fatal("Unable to build the node table");
	if (conf_serve_reload(c, err, sizeof(err)) < 0)
		fatal("configless: %s", err);
	if (lic_mgr_init(c, err, sizeof(err)) < 0)
		fatal("%s", err);
	if (part_mgr_init(c, err, sizeof(err)) < 0)
		fatal("%s", err);
	if (power_save_configure(c, err, sizeof(err)) < 0)
		fatal("%s", err);
	if (topo_mgr_init(c, err, sizeof(err)) < 0)
		fatal("%s", err);
	job_mgr_init();
	if (ctld.opts.clear_state) {
		info("Not recovering state (-c)");
		ctld.recovered.next_gen = recover_next_gen(c->state_save_location);
		return;
	}
	rc = recover_state(c->state_save_location, &ctld.recovered, err,
			   sizeof(err));
	if (rc < 0 && !ctld.opts.ignore_state_errors)
		fatal("%s (use -i to ignore, -c to start without state)", err);
	if (rc < 0) {
		error("Ignoring unreadable state: %s", err);
		ctld.recovered.next_gen = recover_next_gen(c->state_save_location);
	}
	ctld.warm = rc == 0;
	part_mgr_refresh_totals();
}

static void _start(void)
{
	const slurm_conf_t *c = ctld.conf;
	char err[512] = "";

	rl_conf_t rl;

	if (conf_parse_rl(c->slurmctld_params, &rl, err, sizeof(err)) < 0 ||
	    conf_parse_private_data(c->private_data, &ctld.private_data, err,
				    sizeof(err)) < 0)
		fatal("%s", err);
	rl_configure(&rl);
	if (ctld_plugins_check(c, err, sizeof(err)) < 0 ||
	    job_submit_plugin_init(c, err, sizeof(err)) < 0 ||
	    jobcomp_init(c, err, sizeof(err)) < 0 ||
	    site_factor_init(c, err, sizeof(err)) < 0)
		fatal("%s", err);
	if (state_save_init(c->state_save_location, c->cluster_name, err,
			    sizeof(err)) < 0) {
		if (!ctld.restarted)     /* it was checked before: the disk */
			fatal("%s", err);
		error("%s", err);
	}
	ctld.boot_time = time(NULL);
	stats_init(ctld.boot_time);
	_init_state();
	/* After a restart the slurmds are up and will not register on their
	 * own: ask them at the first tick (nodes are UNKNOWN until they
	 * register, and no job starts on them), as Slurm's controller does,
	 * instead of after SlurmdTimeout/3.  A cold start waits for the
	 * slurmds' own registration. */
	ctld.last_ping = ctld.warm ? 0 : ctld.boot_time;
	if (acct_init(c, err, sizeof(err)) < 0)      /* after the fork */
		fatal("%s", err);
	acct_resync();
	ctld.base = event_base_new();
	if (!ctld.base)
		fatal("event_base_new failed");
	if (assoc_mgr_init(c, ctld.base, err, sizeof(err)) < 0)
		fatal("%s", err);
	/* QOS= without slurmdbd: logged.  Unknown to the saved copy while
	 * slurmdbd does not answer (assoc_mgr_init stops on it otherwise):
	 * logged by part_mgr_qos_reloaded, and looked up again at each
	 * reload */
	(void)part_mgr_check_qos(c, err, sizeof(err));
	part_mgr_qos_reloaded(NULL);
	assoc_mgr_on_reload(part_mgr_qos_reloaded, NULL);
	lic_mgr_remote_reloaded(NULL);  /* the snapshot loaded at start */
	assoc_mgr_on_reload(lic_mgr_remote_reloaded, NULL);
	if (acct_enabled() && fairshare_init(c, err, sizeof(err)) < 0)
		fatal("%s", err);
	if (commit_init(ctld.base, &ctld.recovered, ctld.restarted) < 0)
		fatal("Unable to save state in %s", c->state_save_location);
	if (agent_init(ctld.base, AGENT_THREADS) < 0 ||
	    sched_init(ctld.base) < 0)
		fatal("Unable to start the controller's workers");
	_listen();
	_add_events();
	job_mgr_relaunch_running();     /* not those in PrologSlurmctld: */
	job_mgr_launch_recover();
}

static void _stop(void)
{
	size_t i;

	info("Saving all slurm state");
	commit_sync();
	if (ctld.server)
		net_server_destroy(ctld.server);
	agent_fini();
	fairshare_fini();
	acct_fini();
	assoc_mgr_fini();
	sched_fini();
	resv_mgr_fini();
	trigger_fini();
	crontab_fini();
	commit_fini();
	rl_fini();
	conf_serve_fini();
	job_submit_plugin_fini();
	jobcomp_fini();
	site_factor_fini();
	lic_mgr_fini();
	if (ctld.tick_ev)
		event_free(ctld.tick_ev);
	for (i = 0; i < 4; i++)
		if (ctld.sig_ev[i])
			event_free(ctld.sig_ev[i]);
	daemon_remove_pidfile(ctld.conf->slurmctld_pid_file);
	ha_lease_release();
	info("Slurmctld shutdown completing");
}

/* Detach, then become the controller: at once if the lease is free (the
 * primary), else after standby mode hands us the lease.  false: told to
 * shut down while standing by. */
static bool _become_controller(void)
{
	char err[512] = "";
	int r = 0;

	if (ha_init(ctld.conf, err, sizeof(err)) < 0)
		fatal("%s", err);
	if (!ctld.opts.foreground && !ctld.opts.systemd && !ha_reexeced())
		daemon_detach();
	auth_set_context(ctld.conf->path, ctld.conf->slurm_user_id, 1);
	if (auth_init(ctld.conf->auth_type, ctld.conf->auth_info,
		      ctld.conf->plugin_dir) != 0)
		fatal("failed to initialize auth plugin %s",
		      ctld.conf->auth_type);
	/* AuthAltTypes=auth/jwt: tokens from scontrol token, SLURM_JWT and
	 * slurmrestd; the key defaults to StateSaveLocation/jwt_hs256.key */
	if (jwt_setup(ctld.conf->auth_alt_types, ctld.conf->auth_alt_params,
		      ctld.conf->state_save_location,
		      ctld.conf->slurm_user_id, err, sizeof(err)) < 0)
		fatal("%s", err);
	/* auth/slurm: tokens for users' commands on this host too */
	if (auth_serve() != 0)
		error("%s: no local token service from slurmctld",
		      ctld.conf->auth_type);
	evthread_use_pthreads();
	if (!ha_start_standby()) {
		/* one controller: a previous one may still be saving */
		for (int i = 0; i < 50 && (r = ha_lease_try()) == 0 &&
		     ctld.conf->ctld_host_cnt <= 1; i++)
			usleep(100000);
		if (r < 0)
			fatal("Unable to take the controller lease in %s",
			      ctld.conf->state_save_location);
		if (r == 0 && ctld.conf->ctld_host_cnt <= 1)
			fatal("Another slurmctld holds the controller lease in "
			      "%s (StateSaveLocation is in use)",
			      ctld.conf->state_save_location);
		if (r == 0)
			info("Another controller is in control (it holds the "
			     "lease in %s): starting in standby mode",
			     ctld.conf->state_save_location);
	}
	/* Only now: a process refused above must not overwrite the pid file
	 * of the controller that holds the lease. */
	daemon_write_pidfile(ctld.conf->slurmctld_pid_file);
	if (r == 1)
		return true;
	if (ctld.opts.systemd)      /* a backup is ready when standing by */
		daemon_notify_ready("slurmctld in standby mode");
	return ha_standby_run() == 0;
}

int main(int argc, char **argv)
{
	char err[1024] = "", abs[PATH_MAX];
	log_options_t lo = { .stderr_level = LOG_LEVEL_INFO,
			     .file_level = LOG_LEVEL_QUIET,
			     .stderr_prefix = true };

	/* Large buffers (a squeue reply over 50,000 jobs is tens of MB) are
	 * mapped and given back when freed; glibc's default raises its
	 * threshold after the first such free and keeps the memory. */
	mallopt(M_MMAP_THRESHOLD, 256 * 1024);
	_parse_opts(argc, argv, &ctld.opts);
	ctld.debug_level = -1;
	ctld.argv = argv;
	ctld.restarted = getenv(RESTART_ENV) != NULL;
	unsetenv(RESTART_ENV);
	if (ctld.opts.conf_path && ctld.opts.conf_path[0] != '/' &&
	    realpath(ctld.opts.conf_path, abs)) {
		xfree(ctld.opts.conf_path);
		ctld.opts.conf_path = xstrdup(abs);
	}
	log_init("slurmctld", lo, NULL);
	ctld.conf = _load_conf(ctld.opts.conf_path, err, sizeof(err));
	if (!ctld.conf) {
		fprintf(stderr, "slurmctld: fatal: %s\n", err);
		return 1;
	}
	daemon_ignore_signals();
	_setup_log();
	debug_flags_set_conf(ctld.conf->debug_flags);
	resv_ports_config(ctld.conf->mpi_params);
	if (privs_become_user(ctld.conf->slurm_user, ctld.conf->slurm_user_id,
			      err, sizeof(err)) < 0)
		fatal("%s", err);
	if (!_become_controller()) {
		daemon_remove_pidfile(ctld.conf->slurmctld_pid_file);
		info("Slurmctld shutdown completing");
		return 0;
	}
	_start();
	ha_set_control_time(time(NULL));
	trigger_ctld_start(ha_index());
	crontab_check_conf();
	info("slurmctld version %s started on cluster %s",
	     SLUICE_VERSION_STRING, ctld.conf->cluster_name);
	if (ctld.opts.systemd)
		daemon_notify_ready("slurmctld is in control");
	conf_log_not_in_force(ctld.conf, NULL);
	sched_trigger();
	event_base_dispatch(ctld.base);
	if (ctld.opts.systemd)
		daemon_notify_stopping();
	_stop();
	if (ha_relinquishing())
		ha_reexec_standby(argv);
	return 0;
}
