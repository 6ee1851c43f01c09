/* conf_files.c — configless: collect, check, write and fetch the
 * configuration files (conf_files.h). */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <resolv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/conf_files.h"
#include "common/log.h"
#include "common/net.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

/* Files Slurm's controller serves beside slurm.conf when they exist. */
static const char *const siblings[] = {
	"acct_gather.conf", "cgroup.conf", "cli_filter.lua", "gres.conf",
	"helpers.conf", "job_container.conf", "mpi.conf", "oci.conf",
	"plugstack.conf", "scrun.lua", "topology.conf", NULL
};

#define CONF_FILES_MAX      64
#define CONF_FILE_MAX_BYTES (16u << 20)
#define CONF_FETCH_TIMEOUT  10000

static char *_read_file(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat sb;
	char *text;
	size_t off = 0;

	if (fd < 0 || fstat(fd, &sb) < 0) {
		snprintf(err, errlen, "cannot read %s: %s", path,
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if ((size_t) sb.st_size > CONF_FILE_MAX_BYTES) {
		snprintf(err, errlen, "%s: larger than %u bytes", path,
			 CONF_FILE_MAX_BYTES);
		close(fd);
		return NULL;
	}
	text = xmalloc((size_t) sb.st_size + 1);
	while (off < (size_t) sb.st_size) {
		ssize_t n = read(fd, text + off, (size_t) sb.st_size - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (size_t) n;
	}
	text[off] = '\0';
	close(fd);
	return text;
}

static const char *_base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

size_t conf_files_count(const config_files_msg_t *m)
{
	size_t n = 0;

	while (m && m->names && m->names[n])
		n++;
	return n;
}

static bool _has(const config_files_msg_t *m, const char *name)
{
	for (size_t i = 0; m->names && m->names[i]; i++)
		if (!strcmp(m->names[i], name))
			return true;
	return false;
}

static void _add(config_files_msg_t *m, const char *name, char *text)
{
	size_t n = conf_files_count(m);

	m->names = xrealloc(m->names, (n + 2) * sizeof(char *));
	m->texts = xrealloc(m->texts, (n + 2) * sizeof(char *));
	m->names[n] = xstrdup(name);
	m->texts[n] = text;
	m->names[n + 1] = m->texts[n + 1] = NULL;
}

config_files_msg_t *conf_files_collect(const slurm_conf_t *c, char *err,
				       size_t errlen)
{
	config_files_msg_t *m = xmalloc(sizeof(*m));
	const char *path;
	char *text;

	for (size_t i = 0; (path = conf_file_at(c, i)); i++) {
		const char *name = i ? _base(path) : "slurm.conf";

		if (_has(m, name))
			continue;
		if (!(text = _read_file(path, err, errlen))) {
			conf_files_free(m);
			return NULL;
		}
		_add(m, name, text);
	}
	for (size_t i = 0; siblings[i]; i++) {
		char ignore[256];
		bool plugstack = !strcmp(siblings[i], "plugstack.conf");
		char *p = conf_sibling_path(c, plugstack && c->plugstack_config ?
					    c->plugstack_config : siblings[i]);

		if (!_has(m, siblings[i]) && access(p, R_OK) == 0 &&
		    (text = _read_file(p, ignore, sizeof(ignore))))
			_add(m, siblings[i], text);
		xfree(p);
	}
	return m;
}

void conf_files_free(config_files_msg_t *m)
{
	if (!m)
		return;
	xstrarray_free(m->names);
	xstrarray_free(m->texts);
	xfree(m);
}

config_files_msg_t *conf_files_copy(const config_files_msg_t *m)
{
	config_files_msg_t *c = xmalloc(sizeof(*c));

	for (size_t i = 0; m && m->names && m->names[i] && m->texts[i]; i++)
		_add(c, m->names[i], xstrdup(m->texts[i]));
	return c;
}

static bool _plain_name(const char *s)
{
	return s && *s && !strchr(s, '/') && strcmp(s, ".") &&
	       strcmp(s, "..") && strlen(s) < 256;
}

int conf_files_check(const config_files_msg_t *m, char *err, size_t errlen)
{
	size_t n = conf_files_count(m), t = 0;

	while (m && m->texts && m->texts[t])
		t++;
	if (!m || n != t || n > CONF_FILES_MAX) {
		snprintf(err, errlen, "malformed configuration files message");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (!_plain_name(m->names[i])) {
			snprintf(err, errlen, "bad configuration file name "
				 "\"%s\"", m->names[i]);
			return -1;
		}
		for (size_t j = 0; j < i; j++)
			if (!strcmp(m->names[i], m->names[j])) {
				snprintf(err, errlen, "configuration file %s "
					 "sent twice", m->names[i]);
				return -1;
			}
	}
	if (!_has(m, "slurm.conf")) {
		snprintf(err, errlen, "no slurm.conf in the configuration "
			 "files");
		return -1;
	}
	return 0;
}

static int _mkdir_p(const char *path)
{
	char *p = xstrdup(path);
	int rc = 0;

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			rc = -1;
		*s = '/';
	}
	if (mkdir(p, 0755) < 0 && errno != EEXIST)
		rc = -1;
	xfree(p);
	return rc;
}

static int _write_one(const char *dir, const char *name, const char *text,
		      char *err, size_t errlen)
{
	char *tmp = xstrdup_printf("%s/.%s.new", dir, name);
	char *dst = xstrdup_printf("%s/%s", dir, name);
	size_t len = strlen(text), off = 0;
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int rc = -1;

	if (fd < 0)
		goto fail;
	while (off < len) {
		ssize_t n = write(fd, text + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto fail;
		off += (size_t) n;
	}
	if (fchmod(fd, 0644) < 0 || fsync(fd) < 0)
		goto fail;
	close(fd);
	fd = -1;
	if (rename(tmp, dst) < 0)
		goto fail;
	rc = 0;
	goto out;
fail:
	snprintf(err, errlen, "cannot write %s: %s", dst, strerror(errno));
	if (fd >= 0)
		close(fd);
	unlink(tmp);
out:
	xfree(tmp);
	xfree(dst);
	return rc;
}

/* A file the controller no longer serves leaves the cache too. */
static void _drop_others(const config_files_msg_t *m, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char *p;

		if (e->d_name[0] == '.' || _has(m, e->d_name))
			continue;
		p = xstrdup_printf("%s/%s", dir, e->d_name);
		if (unlink(p) == 0)
			debug("configless: %s is no longer served: removed", p);
		xfree(p);
	}
	if (d)
		closedir(d);
}

int conf_files_write(const config_files_msg_t *m, const char *dir, char *err,
		     size_t errlen)
{
	int dfd;

	if (conf_files_check(m, err, errlen) < 0)
		return -1;
	if (_mkdir_p(dir) < 0) {
		snprintf(err, errlen, "cannot create %s: %s", dir,
			 strerror(errno));
		return -1;
	}
	/* slurm.conf last: a reader that sees the new one sees the rest */
	for (size_t i = 0; m->names[i]; i++)
		if (strcmp(m->names[i], "slurm.conf") &&
		    _write_one(dir, m->names[i], m->texts[i], err, errlen) < 0)
			return -1;
	for (size_t i = 0; m->names[i]; i++)
		if (!strcmp(m->names[i], "slurm.conf") &&
		    _write_one(dir, m->names[i], m->texts[i], err, errlen) < 0)
			return -1;
	_drop_others(m, dir);
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;
}

/* "host", "host:port", "[v6]:port" -> host (xfree) and port. */
static char *_split_server(const char *s, uint16_t *port)
{
	const char *colon = NULL;
	char *host;

	*port = 6817;
	if (s[0] == '[' && strchr(s, ']')) {
		const char *end = strchr(s, ']');

		host = xstrndup(s + 1, (size_t) (end - s - 1));
		colon = end[1] == ':' ? end + 1 : NULL;
	} else if ((colon = strchr(s, ':')) && !strchr(colon + 1, ':')) {
		host = xstrndup(s, (size_t) (colon - s));
	} else {
		host = xstrdup(s);
		colon = NULL;
	}
	if (colon) {
		char *end;
		unsigned long p = strtoul(colon + 1, &end, 10);

		if (*end || !p || p > 65535) {
			xfree(host);
			return NULL;
		}
		*port = (uint16_t) p;
	}
	return host;
}

/* type/req to each server in turn until one answers RESPONSE_CONFIG. */
static int _fetch(const char *servers, uint16_t type, void *req,
		  config_files_msg_t **out, char *err, size_t errlen)
{
	char **list = xstrsplit(servers ? servers : "", ",", NULL);
	int rc = SLURM_COMMUNICATIONS_CONNECTION_ERROR;

	*out = NULL;
	snprintf(err, errlen, "no configuration server given");
	for (size_t i = 0; list[i] && !*out; i++) {
		slurm_msg_t resp;
		uint16_t port;
		char *host;

		xstrtrim(list[i]);
		if (!*list[i])
			continue;
		if (!(host = _split_server(list[i], &port))) {
			snprintf(err, errlen, "invalid configuration server "
				 "\"%s\"", list[i]);
			rc = SLURM_ERROR;
			continue;
		}
		rc = net_rpc(host, port, type, req, &resp,
			     CONF_FETCH_TIMEOUT);
		if (rc) {
			snprintf(err, errlen, "%s:%u: %s", host, port,
				 slurm_strerror(rc));
		} else if (resp.type == RESPONSE_SLURM_RC) {
			return_code_msg_t *r = resp.data;

			rc = r && r->rc ? r->rc : SLURM_UNEXPECTED_MSG_ERROR;
			snprintf(err, errlen, "%s:%u: %s", host, port,
				 slurm_strerror(rc));
		} else if (resp.type != RESPONSE_CONFIG ||
			   conf_files_check(resp.data, err, errlen) < 0) {
			rc = SLURM_UNEXPECTED_MSG_ERROR;
			if (resp.type != RESPONSE_CONFIG)
				snprintf(err, errlen, "%s:%u: unexpected "
					 "answer", host, port);
		} else {
			*out = resp.data;
			resp.data = NULL;
		}
		msg_free(&resp);
		xfree(host);
	}
	xstrarray_free(list);
	return *out ? SLURM_SUCCESS : rc;
}

int conf_files_fetch(const char *servers, uint32_t flags,
		     const char *node_name, config_files_msg_t **out,
		     char *err, size_t errlen)
{
	config_request_msg_t req = { .flags = flags,
				     .node_name = (char *) node_name };

	return _fetch(servers, REQUEST_CONFIG, &req, out, err, errlen);
}

int conf_files_register(const char *servers, uint16_t port,
			config_files_msg_t **out, char *err, size_t errlen)
{
	sackd_register_msg_t req = { .port = port };

	return _fetch(servers, REQUEST_SACKD_REGISTER, &req, out, err, errlen);
}

/* ---- DNS SRV ------------------------------------------------------- */

typedef struct {
	uint16_t prio, weight, port;
	char     host[256];
} srv_t;

/* The name at *off in ans (compression followed, at most 32 jumps);
 * *off moves past it in place.  -1 if malformed. */
static int _dn(const unsigned char *ans, size_t len, size_t *off,
	       char *out, size_t outlen)
{
	size_t p = *off, o = 0, end = 0;
	int jumps = 0;

	out[0] = '\0';
	for (;;) {
		unsigned l;

		if (p >= len)
			return -1;
		l = ans[p];
		if ((l & 0xc0) == 0xc0) {
			if (p + 1 >= len || ++jumps > 32)
				return -1;
			if (!end)
				end = p + 2;
			p = ((l & 0x3f) << 8) | ans[p + 1];
			continue;
		}
		if (l & 0xc0)
			return -1;
		p++;
		if (!l)
			break;
		if (p + l > len || o + l + 2 > outlen ||
		    memchr(ans + p, '\0', l))
			return -1;
		if (o)
			out[o++] = '.';
		memcpy(out + o, ans + p, l);
		o += l;
		out[o] = '\0';
		p += l;
	}
	*off = end ? end : p;
	return 0;
}

/* A target a host name could be: letters, digits, '-', '_' and '.' (a
 * label may hold any byte on the wire; ',' or ':' would split the list) */
static bool _host_ok(const char *h)
{
	if (!*h)
		return false;
	for (; *h; h++)
		if (!isalnum((unsigned char) *h) && !strchr("-_.", *h))
			return false;
	return true;
}

static int _srv_cmp(const void *a, const void *b)
{
	const srv_t *x = a, *y = b;

	if (x->prio != y->prio)
		return x->prio < y->prio ? -1 : 1;
	return x->weight > y->weight ? -1 : x->weight < y->weight;
}

#define GET16(p) ((uint16_t) (((p)[0] << 8) | (p)[1]))

char *conf_files_srv_parse(const unsigned char *ans, size_t len)
{
	size_t off = 12, qd, an, cnt = 0;
	srv_t *v;
	char name[256], *out = NULL;

	if (!ans || len < 12)
		return NULL;
	qd = GET16(ans + 4);
	an = GET16(ans + 6);
	if (an > 512)
		return NULL;
	for (size_t i = 0; i < qd; i++) {
		if (_dn(ans, len, &off, name, sizeof(name)) < 0 ||
		    off + 4 > len)
			return NULL;
		off += 4;
	}
	v = xcalloc(an + 1, sizeof(*v));
	for (size_t i = 0; i < an; i++) {
		uint16_t type, rdlen;
		size_t rd;

		if (_dn(ans, len, &off, name, sizeof(name)) < 0 ||
		    off + 10 > len)
			break;
		type = GET16(ans + off);
		rdlen = GET16(ans + off + 8);
		off += 10;
		if (off + rdlen > len)
			break;
		rd = off;
		off += rdlen;
		if (type != 33 || rdlen < 7)
			continue;
		v[cnt].prio = GET16(ans + rd);
		v[cnt].weight = GET16(ans + rd + 2);
		v[cnt].port = GET16(ans + rd + 4);
		rd += 6;
		if (_dn(ans, len, &rd, v[cnt].host,
			sizeof(v[cnt].host)) < 0 ||
		    !_host_ok(v[cnt].host) || !v[cnt].port)
			continue;
		cnt++;
	}
	qsort(v, cnt, sizeof(*v), _srv_cmp);
	for (size_t i = 0; i < cnt; i++)
		xstrfmtcat(&out, "%s%s:%u", i ? "," : "", v[i].host,
			   v[i].port);
	xfree(v);
	return out;
}

char *conf_files_srv_lookup(void)
{
	unsigned char ans[4096];
	int n = res_search("_slurmctld._tcp", C_IN, 33, ans, sizeof(ans));

	if (n <= 0) {
		debug("DNS SRV _slurmctld._tcp: no answer");
		return NULL;
	}
	return conf_files_srv_parse(ans, (size_t) n);
}
