/* slurmrestd.c — the REST API daemon: options, who it runs as, start-up.
 *
 *   slurmrestd [OPTIONS...] <[host]:port|unix:/path/to/socket>...
 *
 * It talks to slurmctld and slurmdbd with the ordinary messages, as each
 * request's user (rest_auth.h), and holds no privilege of its own: it
 * refuses to run as root or as SlurmUser, as Slurm's does.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/cli_output.h"
#include "common/auth.h"
#include "common/daemon.h"
#include "common/log.h"
#include "common/net.h"
#include "common/uid_cache.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "restd/rest_auth.h"
#include "restd/rest_route.h"
#include "restd/rest_server.h"
#include "restd/rest_spec.h"
#include "restd/rest_ui.h"
#include "slurm/slurm_errno.h"

/* As Slurm's slurmrestd: bodies up to 50 MiB. */
#define DEFAULT_MAX_BODY (50u * 1024 * 1024)

typedef struct {
	char  *auth, *parsers, *plugins, *conf, *user, *group, *ui_dir;
	int    threads, verbose;
	size_t max_body;
	bool   gen_spec;
} opts_t;

static void usage(FILE *out)
{
	fprintf(out,
"Usage: slurmrestd [OPTIONS] [host]:port|unix:/path/to/socket ...\n"
"  -a plugins    REST authentication plugins: rest_auth/local,rest_auth/jwt\n"
"                (default: both; \"list\" lists them)\n"
"  -d parsers    data_parser plugins: data_parser/v0.0.40..v0.0.43\n"
"                (default: all; \"list\" lists them)\n"
"  -f file       read Slurm configuration from file\n"
"  -g group      change to group after binding the listeners\n"
"  -h            print this help message\n"
"  -s plugins    OpenAPI plugins: openapi/slurmctld,openapi/slurmdbd\n"
"                (default: both; \"list\" lists them)\n"
"  -t threads    worker threads (default 20)\n"
"  -u user       change to user after binding the listeners\n"
"  -v            verbose mode; more -v's increase verbosity\n"
"  -V            print version information and exit\n"
"  --generate-openapi-spec   print the OpenAPI document and exit\n"
"  --max-body-size=BYTES     refuse larger request bodies with 413\n"
"                            (default 52428800)\n"
"  --ui-dir=DIR              serve the web view's files in DIR under /ui/\n"
"                            (default: off; also SLURMRESTD_UI_DIR)\n");
}

static void list_and_exit(const char *what)
{
	if (!strcmp(what, "a"))
		printf("slurmrestd: Possible REST authentication plugins:\n"
		       "rest_auth/local\nrest_auth/jwt\n");
	else if (!strcmp(what, "d"))
		printf("slurmrestd: Possible data_parser plugins:\n"
		       "data_parser/v0.0.40\ndata_parser/v0.0.41\n"
		       "data_parser/v0.0.42\ndata_parser/v0.0.43\n");
	else
		printf("slurmrestd: Possible OpenAPI plugins:\n"
		       "openapi/slurmctld\nopenapi/slurmdbd\n");
	exit(0);
}

enum { OPT_GEN_SPEC = 0x100, OPT_MAX_BODY, OPT_UI_DIR };

static void parse_opts(int argc, char **argv, opts_t *o)
{
	static const struct option lopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "generate-openapi-spec", no_argument, NULL, OPT_GEN_SPEC },
		{ "max-body-size", required_argument, NULL, OPT_MAX_BODY },
		{ "ui-dir", required_argument, NULL, OPT_UI_DIR },
		{ NULL, 0, NULL, 0 }
	};
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "a:d:f:g:hs:t:u:vV", lopts,
				NULL)) != -1) {
		switch (c) {
		case 'a':
			if (!strcmp(optarg, "list"))
				list_and_exit("a");
			o->auth = xstrdup(optarg);
			break;
		case 'd':
			if (!strcmp(optarg, "list"))
				list_and_exit("d");
			o->parsers = xstrdup(optarg);
			break;
		case 's':
			if (!strcmp(optarg, "list"))
				list_and_exit("s");
			o->plugins = xstrdup(optarg);
			break;
		case 'f': o->conf = xstrdup(optarg); break;
		case 'g': o->group = xstrdup(optarg); break;
		case 'u': o->user = xstrdup(optarg); break;
		case 'h': usage(stdout); exit(0);
		case 'v': o->verbose++; break;
		case 'V': printf("slurm %s\n", SLUICE_VERSION_STRING); exit(0);
		case 't':
			o->threads = (int)strtol(optarg, &end, 10);
			if (*end || o->threads < 1 || o->threads > 1024) {
				fprintf(stderr, "slurmrestd: error: Invalid "
					"thread count: %s\n", optarg);
				exit(1);
			}
			break;
		case OPT_GEN_SPEC: o->gen_spec = true; break;
		case OPT_MAX_BODY:
			errno = 0;
			o->max_body = strtoull(optarg, &end, 10);
			/* digits only, 1 byte to 2 GiB (an int's worth:
			 * what evhttp and the parsers take) */
			if (*end || !o->max_body || errno ||
			    !isdigit((unsigned char)*optarg) ||
			    o->max_body > INT32_MAX) {
				fprintf(stderr, "slurmrestd: error: Invalid "
					"--max-body-size: %s\n", optarg);
				exit(1);
			}
			break;
		case OPT_UI_DIR: o->ui_dir = xstrdup(optarg); break;
		default: usage(stderr); exit(1);
		}
	}
}

/* -u/-g: become that user and group once the listeners are bound. */
static void drop_privileges(const opts_t *o)
{
	uid_t uid;
	gid_t gid;
	char *end;

	if (o->group) {
		struct group *g = getgrnam(o->group);

		gid = g ? g->gr_gid : (gid_t)strtoul(o->group, &end, 10);
		if (!g && *end)
			fatal("Unable to find group %s", o->group);
		if (setgroups(0, NULL) < 0 || setgid(gid) < 0)
			fatal("Unable to change to group %s: %s", o->group, strerror(errno));
	}
	if (o->user) {
		if (uid_cache_by_name(o->user, &uid, NULL) < 0) {
			uid = (uid_t)strtoul(o->user, &end, 10);
			if (*end)
				fatal("Unable to find user %s", o->user);
		}
		if (setuid(uid) < 0)
			fatal("Unable to change to user %s: %s", o->user, strerror(errno));
	}
}

/* As Slurm's: never as root or SlurmUser (a request would carry their
 * credential), unless SLURMRESTD_SECURITY=disable_user_check. */
static void check_user(const slurm_conf_t *c)
{
	const char *sec = getenv("SLURMRESTD_SECURITY");

	if (sec && strstr(sec, "disable_user_check"))
		return;
	if (getuid() == 0 || geteuid() == 0)
		fatal("slurmrestd should not be run as the root user.");
	if (getgid() == 0 || getegid() == 0)
		fatal("slurmrestd should not be run with the root group.");
	if (c && c->slurm_user_id && getuid() == c->slurm_user_id)
		fatal("slurmrestd should not be run as SlurmUser");
}

/* Room for many idle keep-alive connections. */
static void raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static void start_logging(int verbose)
{
	const char *env = getenv("SLURMRESTD_DEBUG");
	int level = LOG_LEVEL_INFO + verbose;
	log_options_t lo = {
		.stderr_timestamps = true,
		.file_level = LOG_LEVEL_QUIET,
	};

	if (env && log_level_from_string(env) >= 0)
		level = log_level_from_string(env);
	if (level > LOG_LEVEL_DEBUG5)
		level = LOG_LEVEL_DEBUG5;
	lo.stderr_level = (log_level_t)level;
	log_init("slurmrestd", lo, NULL);
}

int main(int argc, char **argv)
{
	opts_t o = { .threads = 20, .max_body = DEFAULT_MAX_BODY };
	rest_server_opts_t so;
	const slurm_conf_t *c;
	char err[512] = "";
	char **listen;
	int nlisten, rc;

	parse_opts(argc, argv, &o);
	start_logging(o.verbose);
	daemon_ignore_signals();
	if (o.conf)
		setenv("SLURM_CONF", o.conf, 1);
	if (rest_spec_init() < 0)
		return 1;
	if (rest_auth_set_plugins(o.auth ? o.auth :
				  getenv("SLURMRESTD_AUTH_TYPES")) < 0)
		fatal("Unknown REST authentication plugin in %s", o.auth);
	if (rest_route_set_versions(o.parsers) < 0)
		fatal("Unknown data_parser plugin in %s", o.parsers);
	if (rest_route_set_plugins(o.plugins) < 0)
		fatal("Unknown OpenAPI plugin in %s", o.plugins);
	if (o.gen_spec) {
		char *s = rest_spec_openapi(rest_route_versions(),
					    rest_route_served);

		puts(s);
		xfree(s);
		return 0;
	}
	listen = argv + optind;
	nlisten = argc - optind;
	if (!nlisten && getenv("SLURMRESTD_LISTEN")) {
		static char *one[1];

		one[0] = getenv("SLURMRESTD_LISTEN");
		listen = one;
		nlisten = 1;
	}
	if (!nlisten)
		fatal("no listen address given: slurmrestd [host]:port or "
		      "unix:/path (Sluice has no inetd mode)");
	if (!(c = cli_conf_load(err, sizeof(err))))
		fatal("%s", err[0] ? err : "Unable to process configuration file");
	cli_output_set_cluster(c->cluster_name);
	if (rest_ui_init(o.ui_dir ? o.ui_dir : getenv("SLURMRESTD_UI_DIR")) < 0)
		fatal("Unable to serve the web view");
	rest_auth_set_slurm_user(c->slurm_user_id);
	so = (rest_server_opts_t){
		.threads = o.threads, .max_body = o.max_body, .timeout = 60,
	};
	raise_nofile();
	if (rest_server_init(&so, listen, nlisten) < 0)
		fatal("Unable to start listening");
	drop_privileges(&o);
	check_user(c);
	auth_set_context(c->path, c->slurm_user_id, 0);
	if ((rc = auth_init(c->auth_type, c->auth_info, c->plugin_dir)))
		fatal("auth_init(%s) failed: %s", c->auth_type,
		      slurm_strerror(rc));
	/* one connection and MUNGE credential per worker, not per call */
	net_rpc_sessions(NET_SESSIONS_KEEP);
	info("slurmrestd version %s started with %d worker threads",
	     SLUICE_VERSION_STRING, o.threads);
	rc = rest_server_run();
	rest_server_fini();
	rest_ui_fini();
	rest_spec_fini();
	info("slurmrestd shutdown completed");
	return rc ? 1 : 0;
}
