/* sbcast — transmit a file to the nodes allocated to a job.
 *
 * The controller gives a credential for the job's nodes (or one step's,
 * -j JOB.STEP); the file goes to every node in blocks (-s, default the
 * file's size or 8 MB) along the slurmd tree (-F fanout), each node's
 * slurmd writing it as the job's user (cli_bcast.h).  Options and
 * messages are Slurm 25.05's; SBCAST_* variables set defaults.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli/cli_bcast.h"
#include "cli/cli_common.h"
#include "common/bcast_block.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static struct {
	cli_bcast_opts_t b;
	char *job_arg;            /* -j as given */
	int   verbose;
	bool  compress_set;       /* -C or SBCAST_COMPRESS given */
	bool  send_libs_set;
} opt;

static void usage(FILE *f)
{
	fprintf(f, "Usage: sbcast [--exclude] [-CfFjpvV] [--send-libs] "
		"SOURCE DEST\n");
}

static void help(void)
{
	printf(
"Usage: sbcast [OPTIONS] SOURCE DEST\n"
"  -C, --compress[=lib]  compress the file being transmitted\n"
"  --exclude=<path_list> shared object paths to be excluded\n"
"  -f, --force           replace destination file as required\n"
"  -F, --fanout=num      specify message fanout\n"
"  -j, --jobid=#[+#][.#] specify job ID with optional hetjob offset and/or step ID\n"
"  -p, --preserve        preserve modes and times of source file\n"
"  --send-libs[=yes|no]  autodetect and broadcast executable's shared objects\n"
"  -s, --size=num        block size in bytes (rounded off)\n"
"  -t, --timeout=secs    specify message timeout (seconds)\n"
"  -v, --verbose         provide detailed event logging\n"
"  -V, --version         print version information and exit\n"
"\n"
"Help options:\n"
"  --help                show this help message\n"
"  --usage               display brief usage message\n");
}

enum { O_EXCLUDE = 0x100, O_SEND_LIBS, O_HELP, O_USAGE };

static void _compress(const char *arg)
{
	opt.compress_set = true;
	if (bcast_compress_parse(arg, &opt.b.compress) < 0) {
		error("Compression type '%s' unknown, disabling compression "
		      "support.", arg);
		opt.b.compress = BCAST_COMPRESS_NONE;
	}
}

static void _send_libs(const char *arg)
{
	opt.send_libs_set = true;
	if (!arg || !strcasecmp(arg, "yes") || !strcasecmp(arg, "y"))
		opt.b.send_libs = true;
	else if (!strcasecmp(arg, "no") || !strcasecmp(arg, "n"))
		opt.b.send_libs = false;
	else
		error("Ignoring unrecognized --send-libs value '%s'", arg);
}

static int _num(const char *arg, const char *what, uint32_t *out)
{
	if (parse_u32(arg, out) < 0) {
		error("Invalid %s value: %s", what, arg);
		return -1;
	}
	return 0;
}

/* One option (from the command line or an SBCAST_* variable). */
static int _opt(int c, const char *arg)
{
	uint32_t v;

	switch (c) {
	case 'C': _compress(arg); break;
	case 'f': opt.b.force = true; break;
	case 'p': opt.b.preserve = true; break;
	case 'F':
		if (_num(arg, "fanout", &v) < 0)
			return -1;
		opt.b.fanout = (uint16_t) (v > BCAST_MAX_FANOUT ?
					   BCAST_MAX_FANOUT : v);
		break;
	case 's':
		if (cli_bcast_size(arg, &opt.b.block_size) < 0) {
			error("Invalid size value: %s", arg);
			return -1;
		}
		break;
	case 't':
		if (_num(arg, "timeout", &v) < 0)
			return -1;
		opt.b.timeout = v > INT_MAX / 1000 ? INT_MAX / 1000 : (int) v;
		break;
	case 'j':
		xfree(opt.job_arg);
		opt.job_arg = xstrdup(arg);
		break;
	case O_EXCLUDE:
		xfree(opt.b.exclude);
		opt.b.exclude = xstrdup(arg);
		break;
	case O_SEND_LIBS: _send_libs(arg); break;
	default: return -1;
	}
	return 0;
}

static void _env(void)
{
	static const struct { const char *name; int opt; bool flag; } vars[] = {
		{ "SBCAST_COMPRESS", 'C', false },
		{ "SBCAST_EXCLUDE", O_EXCLUDE, false },
		{ "SBCAST_FANOUT", 'F', false },
		{ "SBCAST_FORCE", 'f', true },
		{ "SBCAST_PRESERVE", 'p', true },
		{ "SBCAST_SEND_LIBS", O_SEND_LIBS, false },
		{ "SBCAST_SIZE", 's', false },
		{ "SBCAST_TIMEOUT", 't', false },
	};
	const char *v;

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		if (!(v = getenv(vars[i].name)))
			continue;
		if (vars[i].flag)
			_opt(vars[i].opt, NULL);
		else if (_opt(vars[i].opt, v) < 0)
			exit(1);
	}
	if ((v = getenv("SLURM_JOB_ID")) && *v)
		opt.job_arg = xstrdup(v);
}

static int _parse(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "compress", optional_argument, NULL, 'C' },
		{ "exclude", required_argument, NULL, O_EXCLUDE },
		{ "force", no_argument, NULL, 'f' },
		{ "fanout", required_argument, NULL, 'F' },
		{ "jobid", required_argument, NULL, 'j' },
		{ "preserve", no_argument, NULL, 'p' },
		{ "send-libs", optional_argument, NULL, O_SEND_LIBS },
		{ "size", required_argument, NULL, 's' },
		{ "timeout", required_argument, NULL, 't' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, O_HELP },
		{ "usage", no_argument, NULL, O_USAGE },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "C::fF:j:ps:t:vV", longs,
				NULL)) != -1) {
		switch (c) {
		case 'v': opt.verbose++; break;
		case 'V': printf("slurm %s\n", SLUICE_VERSION_STRING); exit(0);
		case O_HELP: help(); exit(0);
		case O_USAGE: usage(stdout); exit(0);
		default:
			if (c == '?' || _opt(c, optarg) < 0) {
				fprintf(stderr, "Try \"sbcast --help\" for "
					"more information\n");
				exit(1);
			}
		}
	}
	return optind;
}

/* DEST as the nodes get it: absolute (relative to BcastParameters'
 * DestDir, else to our directory), and a directory (ending in '/') gets
 * slurm_bcast_JOB[.STEP]_ + node name. */
static char *_dest(const char *dest, const sbcast_cred_msg_t *cred,
		   const char *dest_dir, uint16_t *flags)
{
	char cwd[PATH_MAX];
	char *d;

	if (dest[0] == '/') {
		d = xstrdup(dest);
	} else if (dest_dir) {
		d = xstrdup_printf("%s/%s", dest_dir, dest);
	} else {
		if (!getcwd(cwd, sizeof(cwd)))
			snprintf(cwd, sizeof(cwd), "/tmp");
		d = xstrdup_printf("%s/%s", cwd, dest);
	}
	if (d[strlen(d) - 1] == '/') {
		if (cred->step_id == NO_VAL32)
			xstrfmtcat(&d, "slurm_bcast_%u_", cred->job_id);
		else
			xstrfmtcat(&d, "slurm_bcast_%u.%u_", cred->job_id,
				   cred->step_id);
		*flags |= BCAST_FLAG_NODE_SUFFIX;
	}
	return d;
}

/* BcastParameters: Compression= and send_libs where neither the
 * command line nor the environment said; DestDir= for a relative DEST. */
static void _conf_defaults(bcast_params_t *bp)
{
	char err[256] = "";

	if (bcast_params_parse(cli_conf()->bcast_params, bp, err,
			       sizeof(err)) < 0)
		error("%s", err);
	if (!opt.compress_set && bp->compress >= 0)
		opt.b.compress = (uint16_t) bp->compress;
	if (!opt.send_libs_set && bp->send_libs)
		opt.b.send_libs = true;
}

int main(int argc, char **argv)
{
	uint32_t job, het, step;
	sbcast_cred_msg_t *cred;
	uint16_t flags = 0;
	bcast_params_t bp;
	char *dest, *libdir;
	int first, fd, rc;

	cli_init_noconf("sbcast", 0);
	_env();
	first = _parse(argc, argv);
	cli_init("sbcast", opt.verbose);
	_conf_defaults(&bp);
	if (argc - first != 2) {
		fprintf(stderr, "Need two file names, have %d names\n",
			argc - first);
		fprintf(stderr, "Try \"sbcast --help\" for more information\n");
		return 1;
	}
	if (!opt.job_arg) {
		error("Need a job id to run this command.  Run from within a "
		      "Slurm job or use the --jobid option.");
		return 1;
	}
	if (cli_bcast_job_arg(opt.job_arg, &job, &het, &step) < 0) {
		error("Invalid job id %s", opt.job_arg);
		return 1;
	}
	fd = open(argv[first], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		error("Can't open `%s`: %s", argv[first], strerror(errno));
		return 255;
	}
	if (!(cred = cli_bcast_cred(job, het, step, opt.job_arg)))
		return 255;
	dest = _dest(argv[first + 1], cred, bp.dest_dir, &flags);
	verbose("sbcast: %s to %s on node(s) %s", argv[first], dest,
		cred->node_list);
	rc = cli_bcast_send(&opt.b, cred, fd, argv[first], dest, flags);
	if (!rc && opt.b.send_libs) {
		libdir = xstrdup_printf("%s_libs", dest);
		rc = cli_bcast_libs(&opt.b, cred, argv[first], libdir, flags);
		xfree(libdir);
	}
	close(fd);
	xfree(dest);
	msg_body_free(RESPONSE_SBCAST_CRED, cred);
	xfree(opt.job_arg);
	xfree(opt.b.exclude);
	/* a node's error code is the exit status, as Slurm's (13 for
	 * EACCES); a local failure 255 */
	bcast_params_free(&bp);
	return rc < 0 ? 255 : rc & 0xff;
}
