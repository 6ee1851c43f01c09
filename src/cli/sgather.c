/* sgather — transmit a file from the nodes allocated to a job.
 *
 * The reverse of sbcast: with the job's sbcast credential, each node's
 * slurmd reads SOURCE as the job's user (REQUEST_FILE_GATHER, bcast.h
 * in slurmd) piece by piece, and sgather writes it here as DEST.<node>;
 * then, unless --keep, the node removes SOURCE.  -r copies a directory
 * (every regular file under it), -C compresses the pieces (lz4), -p
 * keeps the mode and times.  Options are Slurm 25.05's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli_bcast.h"
#include "cli/cli_common.h"
#include "common/bcast_block.h"
#include "common/log.h"
#include "common/net.h"
#include "common/parse_util.h"
#include "common/step_cred.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#define GATHER_PIECE (4u << 20)

static struct {
	uint16_t compress;
	bool     force, preserve, keep, recursive;
	int      timeout;
	uint16_t fanout;
	char    *job_arg;
	int      verbose;
} opt;

/* One node's side of the transfer. */
typedef struct {
	const sbcast_cred_msg_t *cred;
	const step_cred_t       *c;
	const char              *node;
	char                     host[256];
	uint16_t                 port;
	int                      timeout_ms;
} peer_t;

static void usage(FILE *f)
{
	fprintf(f, "Usage: sgather [-CfFjkprtvV] SOURCE DEST\n");
}

static void help(void)
{
	printf(
"Usage: sgather [OPTIONS] SOURCE DEST\n"
"  -C, --compress[=lib]  compress the file being transmitted\n"
"  -f, --force           replace destination file as required\n"
"  -F, --fanout=num      specify message fanout\n"
"  -j, --jobid=#[.#]     specify job ID with optional step ID\n"
"  -k, --keep            do not remove the source file after copying\n"
"  -p, --preserve        preserve modes and times of source file\n"
"  -r, --recursive       copy directories recursively\n"
"  -t, --timeout=secs    specify message timeout (seconds)\n"
"  -v, --verbose         provide detailed event logging\n"
"  -V, --version         print version information and exit\n"
"\n"
"Help options:\n"
"  --help                show this help message\n"
"  --usage               display brief usage message\n");
}

enum { O_HELP = 0x100, O_USAGE };

static int _parse(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "compress", optional_argument, NULL, 'C' },
		{ "force", no_argument, NULL, 'f' },
		{ "fanout", required_argument, NULL, 'F' },
		{ "jobid", required_argument, NULL, 'j' },
		{ "keep", no_argument, NULL, 'k' },
		{ "preserve", no_argument, NULL, 'p' },
		{ "recursive", no_argument, NULL, 'r' },
		{ "timeout", required_argument, NULL, 't' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, O_HELP },
		{ "usage", no_argument, NULL, O_USAGE },
		{ NULL, 0, NULL, 0 },
	};
	uint32_t v;
	int c;

	while ((c = getopt_long(argc, argv, "C::fF:j:kprt:vV", longs,
				NULL)) != -1) {
		switch (c) {
		case 'C':
			if (bcast_compress_parse(optarg, &opt.compress) < 0) {
				error("Compression type '%s' unknown, "
				      "disabling compression support.", optarg);
				opt.compress = BCAST_COMPRESS_NONE;
			}
			break;
		case 'f': opt.force = true; break;
		case 'k': opt.keep = true; break;
		case 'p': opt.preserve = true; break;
		case 'r': opt.recursive = true; break;
		case 'F':
		case 't':
			if (parse_u32(optarg, &v) < 0) {
				error("Invalid %s value: %s", c == 'F' ?
				      "fanout" : "timeout", optarg);
				exit(1);
			}
			if (c == 'F')
				opt.fanout = (uint16_t) (v > 8 ? 8 : v);
			else
				opt.timeout = v > 100000 ? 100000 : (int) v;
			break;
		case 'j':
			xfree(opt.job_arg);
			opt.job_arg = xstrdup(optarg);
			break;
		case 'v': opt.verbose++; break;
		case 'V': printf("slurm %s\n", SLUICE_VERSION_STRING); exit(0);
		case O_HELP: help(); exit(0);
		case O_USAGE: usage(stdout); exit(0);
		default:
			fprintf(stderr, "Try \"sgather --help\" for more "
				"information\n");
			exit(1);
		}
	}
	return optind;
}

static void _node_error(const peer_t *p, const char *path, int rc)
{
	error("REQUEST_FILE_GATHER(%s): %s: %s", p->node, path,
	      cli_err_is_transport(rc) ? cli_comm_strerror(rc) :
	      slurm_strerror(rc));
}

/* One request to the node: 0 with *out (RESPONSE_FILE_GATHER), or an
 * error code. */
static int _ask(const peer_t *p, const char *path, uint64_t offset,
		uint16_t flags, file_gather_resp_msg_t **out)
{
	file_gather_msg_t q = {
		.job_id = p->cred->job_id, .step_id = p->cred->step_id,
		.uid = p->c->uid, .gid = p->c->gid, .fname = (char *) path,
		.offset = offset, .max_len = GATHER_PIECE, .flags = flags,
		.compress = opt.compress,
		.cred_payload = p->cred->cred_payload,
	};
	slurm_msg_t resp = { 0 };
	int rc;

	for (size_t i = 0; p->cred->node_names[i]; i++)
		if (!strcmp(p->cred->node_names[i], p->node))
			q.cred_sig = p->cred->cred_sigs[i];
	*out = NULL;
	rc = net_rpc(p->host, p->port, REQUEST_FILE_GATHER, &q, &resp,
		     p->timeout_ms);
	if (rc)
		return rc;
	if (resp.type == RESPONSE_FILE_GATHER && resp.data) {
		*out = resp.data;
		resp.data = NULL;
	} else {
		rc = cli_resp_rc(&resp);
		if (!rc)
			rc = SLURM_UNEXPECTED_MSG_ERROR;
	}
	msg_free(&resp);
	return rc;
}

static int _mkdirs(const char *path)
{
	char *d = xstrdup(path);
	int rc = 0;

	for (char *s = strchr(d + 1, '/'); s && !rc; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(d, 0700) < 0 && errno != EEXIST)
			rc = -1;
		*s = '/';
	}
	xfree(d);
	return rc;
}

/* Bring path from the node into local file dest. */
static int _fetch(const peer_t *p, const char *path, const char *dest)
{
	file_gather_resp_msg_t *r = NULL;
	uint64_t off = 0, size = 0;
	char *plain = NULL;
	int fd = -1, rc, ret = -1;

	do {
		const char *bytes;

		if ((rc = _ask(p, path, off, 0, &r))) {
			_node_error(p, path, rc);
			goto out;
		}
		if (fd < 0) {
			size = r->file_size;
			fd = open(dest, O_WRONLY | O_CREAT | O_CLOEXEC |
				  (opt.force ? O_TRUNC : O_EXCL), 0600);
			if (fd < 0) {
				error("Can't open `%s`: %s", dest,
				      strerror(errno));
				goto out;
			}
		}
		bytes = r->data;
		if (r->compress != BCAST_COMPRESS_NONE) {
			plain = xmalloc(r->block_len + 1);
			if (bcast_decompress(r->compress, r->data, r->data_len,
					     plain, r->block_len)) {
				error("%s: bad compressed data from %s", path,
				      p->node);
				goto out;
			}
			bytes = plain;
		} else if (r->data_len != r->block_len) {
			goto out;
		}
		if (r->block_len &&
		    pwrite(fd, bytes, r->block_len, (off_t) off) !=
		    (ssize_t) r->block_len) {
			error("Can't write `%s`: %s", dest, strerror(errno));
			goto out;
		}
		off += r->block_len;
		xfree(plain);
		if (!r->block_len || off >= size)
			break;
		msg_body_free(RESPONSE_FILE_GATHER, r);
		r = NULL;
	} while (1);
	if (opt.preserve && r) {
		struct timespec ts[2] = { { .tv_sec = r->atime },
					  { .tv_sec = r->mtime } };

		if (fchmod(fd, r->mode & 07777) < 0 || futimens(fd, ts) < 0)
			error("Can't preserve modes of `%s`: %s", dest,
			      strerror(errno));
	}
	ret = 0;
out:
	xfree(plain);
	if (r)
		msg_body_free(RESPONSE_FILE_GATHER, r);
	if (fd >= 0)
		close(fd);
	return ret;
}

/* SOURCE from one node to DEST.<node>. */
static int _gather_node(const peer_t *p, const char *src, const char *dest)
{
	char *local = xstrdup_printf("%s.%s", dest, p->node);
	file_gather_resp_msg_t *r = NULL;
	int rc, ret = 0;

	if (!opt.recursive) {
		ret = _fetch(p, src, local);
	} else if ((rc = _ask(p, src, 0, GATHER_FLAG_LIST, &r))) {
		_node_error(p, src, rc);
		ret = -1;
	} else {
		for (size_t i = 0; r->names && r->names[i] && !ret; i++) {
			const char *nm = r->names[i];

			/* paths under SOURCE only: nothing that climbs out */
			if (nm[0] == '/' || !strcmp(nm, "..") ||
			    !strncmp(nm, "../", 3) || strstr(nm, "/../") ||
			    (strlen(nm) >= 3 &&
			     !strcmp(nm + strlen(nm) - 3, "/.."))) {
				error("%s: bad path from %s: %s", src, p->node,
				      nm);
				ret = -1;
				break;
			}
			char *from = *r->names[i] ?
				xstrdup_printf("%s/%s", src, r->names[i]) :
				xstrdup(src);
			char *to = *r->names[i] ?
				xstrdup_printf("%s/%s", local, r->names[i]) :
				xstrdup(local);

			if (_mkdirs(to) < 0) {
				error("Can't create the directories of `%s`: "
				      "%s", to, strerror(errno));
				ret = -1;
			} else {
				ret = _fetch(p, from, to);
			}
			xfree(from);
			xfree(to);
		}
		msg_body_free(RESPONSE_FILE_GATHER, r);
		r = NULL;
	}
	if (!ret && !opt.keep) {
		if ((rc = _ask(p, src, 0, GATHER_FLAG_REMOVE, &r))) {
			_node_error(p, src, rc);
			ret = -1;
		}
		if (r)
			msg_body_free(RESPONSE_FILE_GATHER, r);
	}
	if (!ret)
		verbose("sgather: %s:%s to %s", p->node, src, local);
	xfree(local);
	return ret;
}

static int _split(const char *addr, char *host, size_t len, uint16_t *port)
{
	const char *colon = addr ? strrchr(addr, ':') : NULL;

	if (!colon || (size_t) (colon - addr) >= len)
		return -1;
	memcpy(host, addr, (size_t) (colon - addr));
	host[colon - addr] = '\0';
	*port = (uint16_t) atoi(colon + 1);
	return *port ? 0 : -1;
}

int main(int argc, char **argv)
{
	uint32_t job, het, step;
	sbcast_cred_msg_t *cred;
	step_cred_t *c;
	char *dest, cwd[PATH_MAX];
	const char *env;
	int first, ret = 0;

	cli_init_noconf("sgather", 0);
	if ((env = getenv("SLURM_JOB_ID")) && *env)
		opt.job_arg = xstrdup(env);
	first = _parse(argc, argv);
	cli_init("sgather", opt.verbose);
	if (argc - first != 2) {
		fprintf(stderr, "Need two file names, have %d names\n",
			argc - first);
		fprintf(stderr, "Try \"sgather --help\" for more "
			"information\n");
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
	if (argv[first][0] != '/') {
		error("SOURCE must be an absolute path: %s", argv[first]);
		return 1;
	}
	if (!(cred = cli_bcast_cred(job, het, step, opt.job_arg)))
		return 255;
	if (!(c = step_cred_decode(cred->cred_payload))) {
		msg_body_free(RESPONSE_SBCAST_CRED, cred);
		return 255;
	}
	if (argv[first + 1][0] == '/' || !getcwd(cwd, sizeof(cwd)))
		dest = xstrdup(argv[first + 1]);
	else
		dest = xstrdup_printf("%s/%s", cwd, argv[first + 1]);
	for (size_t i = 0; cred->node_names[i]; i++) {
		const slurm_conf_t *conf = cli_conf();
		peer_t p = { .cred = cred, .c = c,
			     .node = cred->node_names[i],
			     .timeout_ms = (opt.timeout ? opt.timeout :
					    conf->message_timeout ?
					    conf->message_timeout : 10) *
					   1000 };

		if (_split(cred->node_addrs[i], p.host, sizeof(p.host),
			   &p.port) < 0) {
			_node_error(&p, argv[first], ESLURM_INVALID_NODE_NAME);
			ret = -1;
			continue;
		}
		if (_gather_node(&p, argv[first], dest) < 0)
			ret = -1;
	}
	xfree(dest);
	step_cred_free(c);
	msg_body_free(RESPONSE_SBCAST_CRED, cred);
	xfree(opt.job_arg);
	return ret ? 255 : 0;
}
