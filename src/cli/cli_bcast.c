/* cli_bcast.c — the job, its sbcast credential and sending a file to its
 * nodes (cli_bcast.h). */
#define _GNU_SOURCE
#include "cli/cli_bcast.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "common/bcast_block.h"
#include "common/forward.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/step_cred.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

/* BcastExclude's default (also when slurm.conf has none) */
#define BCAST_EXCLUDE_DEFAULT "/lib,/usr/lib,/lib64,/usr/lib64"

static int _u32(const char *s, size_t n, uint32_t *out)
{
	char buf[16], *end;
	unsigned long v;

	if (!n || n >= sizeof(buf) || s[0] < '0' || s[0] > '9')
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	v = strtoul(buf, &end, 10);
	if (errno || *end || v >= NO_VAL32)
		return -1;
	*out = (uint32_t) v;
	return 0;
}

int cli_bcast_job_arg(const char *arg, uint32_t *job, uint32_t *het,
		      uint32_t *step)
{
	size_t n = strcspn(arg, "+.");

	*het = *step = NO_VAL32;
	if (_u32(arg, n, job) < 0 || !*job)
		return -1;
	arg += n;
	if (*arg == '+') {
		n = strcspn(++arg, ".");
		if (_u32(arg, n, het) < 0)
			return -1;
		arg += n;
	}
	if (*arg == '.')
		return _u32(arg + 1, strlen(arg + 1), step);
	return *arg ? -1 : 0;
}

sbcast_cred_msg_t *cli_bcast_cred(uint32_t job, uint32_t het, uint32_t step,
				  const char *what)
{
	sbcast_cred_request_msg_t q = { .job_id = job, .het_offset = het,
					.step_id = step };
	slurm_msg_t resp = { 0 };
	sbcast_cred_msg_t *c;
	int rc = cli_ctld_rpc(REQUEST_SBCAST_CRED, &q, &resp);

	if (!rc && resp.type == RESPONSE_SBCAST_CRED && resp.data) {
		c = resp.data;
		resp.data = NULL;
		msg_free(&resp);
		if (c->node_names && c->node_names[0] && c->cred_sigs &&
		    xstrarray_len(c->cred_sigs) ==
		    xstrarray_len(c->node_names) &&
		    xstrarray_len(c->node_addrs) ==
		    xstrarray_len(c->node_names))
			return c;
		msg_body_free(RESPONSE_SBCAST_CRED, c);
		rc = ESLURM_INVALID_JOB_CREDENTIAL;
	} else if (!rc) {
		rc = cli_resp_rc(&resp);
		msg_free(&resp);
		if (!rc)
			rc = SLURM_UNEXPECTED_MSG_ERROR;
	}
	error("Slurm job %s lookup error: %s", what,
	      cli_err_is_transport(rc) ? cli_comm_strerror(rc) :
	      slurm_strerror(rc));
	return NULL;
}

int cli_bcast_size(const char *arg, uint32_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg || arg[0] == '-')
		return -1;
	if (*end == 'k' || *end == 'K')
		v *= 1024, end++;
	else if (*end == 'm' || *end == 'M')
		v *= 1024 * 1024, end++;
	if (*end || v > UINT32_MAX)
		return -1;
	*out = (uint32_t) v;
	return 0;
}

static uint32_t _block_size(const cli_bcast_opts_t *o, uint64_t size)
{
	uint64_t b = o->block_size ? o->block_size : BCAST_DEFAULT_BLOCK;

	if (b > size)
		b = size;
	if (b > BCAST_BLOCK_MAX)
		b = BCAST_BLOCK_MAX;
	return b ? (uint32_t) b : 1;
}

/* One block to every node: 0, or the first failed node's code (each
 * node's error printed). */
static int _send_block(const cli_bcast_opts_t *o,
		       const sbcast_cred_msg_t *cred, file_bcast_msg_t *m)
{
	uint32_t cnt = (uint32_t) xstrarray_len(cred->node_names);
	int *rcs = xcalloc(cnt + 1, sizeof(int)), ret = 0;
	const slurm_conf_t *conf = cli_conf();
	fwd_req_t fr = {
		.type = REQUEST_FILE_BCAST, .cnt = cnt,
		.names = cred->node_names, .addrs = cred->node_addrs,
		.data = m, .orig_uid = (uint32_t) getuid(),
		.tree_width = o->fanout ? o->fanout : BCAST_MAX_FANOUT,
		.timeout_ms = (o->timeout > 0 ? o->timeout :
			       conf->message_timeout ? conf->message_timeout :
			       10) * 1000,
	};

	fwd_send(&fr, rcs);
	for (uint32_t i = 0; i < cnt; i++) {
		if (!rcs[i])
			continue;
		error("REQUEST_FILE_BCAST(%s): %s", cred->node_names[i],
		      cli_err_is_transport(rcs[i]) ?
		      cli_comm_strerror(rcs[i]) : slurm_strerror(rcs[i]));
		if (!ret)
			ret = rcs[i];
	}
	xfree(rcs);
	return ret;
}

int cli_bcast_send(const cli_bcast_opts_t *o, const sbcast_cred_msg_t *cred,
		   int fd, const char *src, const char *dest, uint16_t flags)
{
	step_cred_t *c = step_cred_decode(cred->cred_payload);
	file_bcast_msg_t m = { 0 };
	struct stat st;
	uint32_t bs;
	char *buf = NULL, *z = NULL;
	int ret = -1;

	if (!c) {
		error("Slurm job %u: malformed credential", cred->job_id);
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		error("Can't open `%s`: %s", src,
		      S_ISDIR(st.st_mode) ? strerror(EISDIR) : strerror(errno));
		goto out;
	}
	bs = _block_size(o, (uint64_t) st.st_size);
	buf = xmalloc(bs);
	m.job_id = cred->job_id;
	m.step_id = cred->step_id;
	m.uid = c->uid;
	m.gid = c->gid;
	m.fname = (char *) dest;
	m.mode = (uint32_t) st.st_mode & 07777;
	m.atime = st.st_atim.tv_sec;
	m.mtime = st.st_mtim.tv_sec;
	m.file_size = (uint64_t) st.st_size;
	m.cred_payload = cred->cred_payload;
	m.node_names = cred->node_names;
	m.cred_sigs = cred->cred_sigs;
	debug("sbcast: %s to %s on %s, %u-byte blocks", src, dest,
	      cred->node_list, bs);
	do {
		uint64_t left = m.file_size - m.offset;
		uint32_t n = left < bs ? (uint32_t) left : bs, got = 0;

		while (got < n) {
			ssize_t r = pread(fd, buf + got, n - got,
					  (off_t) (m.offset + got));

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				error("Can't read `%s`: %s", src,
				      r < 0 ? strerror(errno) :
				      "file shrank while sent");
				ret = -1;
				goto out;
			}
			got += (uint32_t) r;
		}
		m.block_no++;
		m.block_len = n;
		m.flags = flags | (o->force ? BCAST_FLAG_FORCE : 0) |
			  (o->preserve ? BCAST_FLAG_PRESERVE : 0) |
			  (m.offset + n == m.file_size ? BCAST_FLAG_LAST : 0);
		xfree(z);
		if (o->compress != BCAST_COMPRESS_NONE &&
		    bcast_compress(o->compress, buf, n, &z, &m.data_len) == 0) {
			m.compress = o->compress;
			m.data = z;
		} else {
			m.compress = BCAST_COMPRESS_NONE;
			m.data = buf;
			m.data_len = n;
		}
		if ((ret = _send_block(o, cred, &m)))
			goto out;
		m.offset += n;
	} while (m.offset < m.file_size);
	ret = 0;
out:
	xfree(z);
	xfree(buf);
	step_cred_free(c);
	return ret;
}

/* ---- --send-libs ---- */

static bool _excluded(const char *lib, const char *exclude)
{
	char *list, *save = NULL;
	bool out = false;

	if (!exclude)
		exclude = cli_conf()->bcast_exclude ?
			  cli_conf()->bcast_exclude : BCAST_EXCLUDE_DEFAULT;
	if (!strcasecmp(exclude, "none"))
		return false;
	list = xstrdup(exclude);
	for (char *d = strtok_r(list, ",", &save); d && !out;
	     d = strtok_r(NULL, ",", &save)) {
		size_t n = strlen(d);

		while (n > 1 && d[n - 1] == '/')
			d[--n] = '\0';
		out = !strncmp(lib, d, n) && (lib[n] == '/' || n == 1);
	}
	xfree(list);
	return out;
}

/* ldd's answer for path: "name => /dir/lib.so (0x...)" lines. */
static char **_ldd(const char *path)
{
	char **libs = xcalloc(1, sizeof(char *)), line[PATH_MAX + 256];
	size_t n = 0;
	int pfd[2];
	pid_t pid;
	FILE *f;

	if (pipe(pfd) < 0)
		return libs;
	pid = fork();
	if (pid == 0) {
		dup2(pfd[1], STDOUT_FILENO);
		close(pfd[0]);
		close(pfd[1]);
		if (!freopen("/dev/null", "w", stderr))
			_exit(127);
		execlp("ldd", "ldd", path, (char *) NULL);
		_exit(127);
	}
	close(pfd[1]);
	if (pid < 0 || !(f = fdopen(pfd[0], "r"))) {
		close(pfd[0]);
		return libs;
	}
	while (fgets(line, sizeof(line), f)) {
		char *arrow = strstr(line, "=> /"), *end;

		if (!arrow)
			continue;
		end = strstr(arrow + 3, " (");
		if (!end)
			end = arrow + 3 + strcspn(arrow + 3, " \n");
		libs = xrealloc(libs, (n + 2) * sizeof(char *));
		libs[n++] = xstrndup(arrow + 3, (size_t) (end - arrow - 3));
		libs[n] = NULL;
	}
	fclose(f);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	return libs;
}

int cli_bcast_libs(const cli_bcast_opts_t *o, const sbcast_cred_msg_t *cred,
		   const char *src, const char *libdir, uint16_t flags)
{
	char **libs = _ldd(src);
	int ret = 0;

	for (size_t i = 0; libs[i] && !ret; i++) {
		const char *base = strrchr(libs[i], '/');
		char *dest;
		int fd;

		if (_excluded(libs[i], o->exclude))
			continue;
		fd = open(libs[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			error("Can't open `%s`: %s", libs[i], strerror(errno));
			ret = -1;
			break;
		}
		dest = xstrdup_printf("%s/%s", libdir, base + 1);
		verbose("sbcast: sending library %s to %s", libs[i], dest);
		ret = cli_bcast_send(o, cred, fd, libs[i], dest,
				     (flags & ~BCAST_FLAG_NODE_SUFFIX) |
				     BCAST_FLAG_MKDIR);
		xfree(dest);
		close(fd);
	}
	xstrarray_free(libs);
	return ret;
}
