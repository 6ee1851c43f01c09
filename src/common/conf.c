/* conf.c — slurm.conf: read lines, split pairs, follow Include, dispatch.
 *
 * A logical line is one or more physical lines joined where a line ends in
 * an odd number of backslashes.  '#' starts a comment unless escaped; "\x"
 * stands for x.  A line is a run of Key=Value pairs (value in double quotes
 * when it holds spaces), or "Include FILE".  Scalar keys go to conf_keys.c,
 * records (NodeName=...) to conf_nodes.c.  Nothing half-built escapes: on
 * any error conf_load() frees everything and returns NULL.
 */
#include "common/conf.h"
#include "common/conf_internal.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/comm_params.h"
#include "common/conf_params.h"
#include "common/net.h"
#include "common/rlimits.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define CONF_MAX_INCLUDE_DEPTH 16
#define CONF_MAX_LINE          (1024 * 1024)

static int conf_read_file(conf_state_t *st, const char *path);

/* One file conf_load read, as it was then. */
typedef struct {
	char           *path;
	dev_t           dev;
	ino_t           ino;
	off_t           size;
	struct timespec mtime;
} conf_file_id_t;

static void conf_file_note(slurm_conf_t *c, const char *path,
			   const struct stat *sb)
{
	conf_file_id_t *f;

	c->files = xrealloc(c->files, (c->file_cnt + 1) * sizeof(*f));
	f = (conf_file_id_t *) c->files + c->file_cnt++;
	*f = (conf_file_id_t) { .path = xstrdup(path), .dev = sb->st_dev,
				.ino = sb->st_ino, .size = sb->st_size,
				.mtime = sb->st_mtim };
}

const char *conf_file_at(const slurm_conf_t *c, size_t i)
{
	return c && i < c->file_cnt ? ((const conf_file_id_t *) c->files)[i].path
				    : NULL;
}

static char *include_dir;     /* conf_set_include_dir() */

void conf_set_include_dir(const char *dir)
{
	xfree(include_dir);
	include_dir = xstrdup(dir);
}

bool conf_unchanged(const slurm_conf_t *c)
{
	const conf_file_id_t *f = c->files;
	struct stat sb;

	if (!c->file_cnt)
		return false;
	for (size_t i = 0; i < c->file_cnt; i++, f++) {
		if (stat(f->path, &sb) < 0 || sb.st_dev != f->dev ||
		    sb.st_ino != f->ino || sb.st_size != f->size ||
		    sb.st_mtim.tv_sec != f->mtime.tv_sec ||
		    sb.st_mtim.tv_nsec != f->mtime.tv_nsec)
			return false;
	}
	return true;
}
static int conf_check_preempt(conf_state_t *st);
static int conf_check_checkpoint(conf_state_t *st);
static int conf_check_lists(conf_state_t *st);

/* CommunicationParameters' keepalive, for this process's connections
 * (the value was checked by conf_check_lists). */
static void conf_apply_comm_params(const slurm_conf_t *c)
{
	comm_params_t p;
	char err[256];

	if (comm_params_parse(c->comm_params, &p, err, sizeof(err)) == 0)
		net_set_keepalive(p.keepalive_time, p.keepalive_intvl,
				  p.keepalive_probes);
}

int conf_fail(conf_state_t *st, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (st->err && st->errlen) {
		if (st->where)
			snprintf(st->err, st->errlen, "%s: %s", st->where, msg);
		else
			snprintf(st->err, st->errlen, "%s", msg);
	}
	return -1;
}

void conf_pairs_add(conf_pairs_t *p, const char *key, const char *value)
{
	p->v = xrealloc(p->v, (p->cnt + 1) * sizeof(*p->v));
	p->v[p->cnt].key = xstrdup(key);
	p->v[p->cnt].value = xstrdup(value);
	p->cnt++;
}

void conf_pairs_set(conf_pairs_t *p, const char *key, const char *value)
{
	for (size_t i = 0; i < p->cnt; i++) {
		if (!strcasecmp(p->v[i].key, key)) {
			xfree(p->v[i].value);
			p->v[i].value = xstrdup(value);
			return;
		}
	}
	conf_pairs_add(p, key, value);
}

const char *conf_pairs_get(const conf_pairs_t *p, const char *key)
{
	for (size_t i = 0; i < p->cnt; i++)
		if (!strcasecmp(p->v[i].key, key))
			return p->v[i].value;
	return NULL;
}

void conf_pairs_free(conf_pairs_t *p)
{
	for (size_t i = 0; i < p->cnt; i++) {
		xfree(p->v[i].key);
		xfree(p->v[i].value);
	}
	xfree(p->v);
	p->cnt = 0;
}

void conf_recs_free(conf_recs_t *r)
{
	for (size_t i = 0; i < r->cnt; i++) {
		xfree(r->v[i].where);
		conf_pairs_free(&r->v[i].pairs);
	}
	xfree(r->v);
	r->cnt = 0;
}

const char *conf_default_path(void)
{
	const char *env = getenv("SLURM_CONF");

	if (env && *env)
		return env;
	return SLUICE_SYSCONFDIR "/slurm.conf";
}

/* Strip comments and escapes in place: "\#" is '#', "\x" is x. */
static void conf_strip(char *s)
{
	char *out = s;

	for (char *p = s; *p; p++) {
		if (*p == '\\' && p[1]) {
			*out++ = *++p;
			continue;
		}
		if (*p == '#')
			break;
		*out++ = *p;
	}
	*out = '\0';
}

static bool conf_is_key_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_' || ch == '.';
}

/* Split "K=V K2="v 2"" into pairs; -1 on text that is not a pair. */
static int conf_split(conf_state_t *st, const char *s, conf_pairs_t *out)
{
	const char *p = s;

	while (*p) {
		const char *k, *v;
		char *key, *val;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		k = p;
		while (conf_is_key_char(*p))
			p++;
		if (p == k || *p != '=')
			return conf_fail(st, "parse error near \"%.40s\"", k);
		key = xstrndup(k, (size_t)(p - k));
		p++;
		if (*p == '"') {
			v = ++p;
			while (*p && *p != '"')
				p++;
			if (!*p) {
				xfree(key);
				return conf_fail(st, "unterminated quote in value of %.100s",
						 k);
			}
			val = xstrndup(v, (size_t)(p - v));
			p++;
		} else {
			v = p;
			while (*p && !isspace((unsigned char)*p))
				p++;
			val = xstrndup(v, (size_t)(p - v));
		}
		conf_pairs_add(out, key, val);
		xfree(key);
		xfree(val);
	}
	return 0;
}

static char *conf_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/* "Include FILE": %c is the lower-cased ClusterName; relative names are
 * taken from the including file's directory. */
static int conf_include(conf_state_t *st, const char *from, const char *arg)
{
	char *name = xstrdup(arg), *path = NULL, *p;
	int rc = -1;

	xstrtrim(name);
	if (name[0] == '"' && strlen(name) > 1 && name[strlen(name) - 1] == '"') {
		name[strlen(name) - 1] = '\0';
		memmove(name, name + 1, strlen(name));
	}
	if (!*name) {
		conf_fail(st, "Include without a file name");
		goto out;
	}
	while ((p = strstr(name, "%c"))) {
		char *lc = xstrdup(st->c->cluster_name ? st->c->cluster_name : "");
		char *n = xstrndup(name, (size_t)(p - name));

		xstrcat(&n, xstrtolower(lc));
		xstrcat(&n, p + 2);
		xfree(lc);
		xfree(name);
		name = n;
	}
	if (include_dir) {              /* configless: served by base name */
		const char *b = strrchr(name, '/');

		path = xstrdup_printf("%s/%s", include_dir, b ? b + 1 : name);
	} else if (name[0] == '/') {
		path = xstrdup(name);
	} else {
		char *dir = conf_dirname(from);

		path = xstrdup_printf("%s/%s", dir, name);
		xfree(dir);
	}
	if (st->depth >= CONF_MAX_INCLUDE_DEPTH) {
		conf_fail(st, "Include \"%s\": nested too deeply", name);
		goto out;
	}
	if (access(path, R_OK) < 0) {
		conf_fail(st, "Include \"%s\": cannot open %s: %s", name, path,
			  strerror(errno));
		goto out;
	}
	st->depth++;
	rc = conf_read_file(st, path);
	st->depth--;
out:
	xfree(name);
	xfree(path);
	return rc;
}

static bool conf_is_include(const char *s, const char **arg)
{
	while (isspace((unsigned char)*s))
		s++;
	if (strncasecmp(s, "include", 7) || !isspace((unsigned char)s[7]))
		return false;
	*arg = s + 7;
	return true;
}

/* Dispatch the pairs of one line: scalars one by one; a record key takes
 * the rest of the line. */
static int conf_dispatch(conf_state_t *st, conf_pairs_t *pairs)
{
	for (size_t i = 0; i < pairs->cnt; i++) {
		const char *key = pairs->v[i].key, *val = pairs->v[i].value;
		int idx;

		if (conf_is_record_key(key)) {
			conf_pairs_t rec = { .v = pairs->v + i,
					     .cnt = pairs->cnt - i };
			return conf_record(st, &rec);
		}
		if (!strcasecmp(key, "SlurmctldHost")) {
			st->ctld_raw = xstrarray_append(st->ctld_raw, val);
			st->ctld_where = xstrarray_append(st->ctld_where,
							  st->where);
			continue;
		}
		idx = conf_key_find(key);
		if (idx < 0)
			return conf_fail(st, "unknown key \"%s\"", key);
		if (conf_key_set(st, idx, val) < 0)
			return -1;
		xfree(st->raw[idx]);
		st->raw[idx] = xstrdup(val);
		xfree(st->raw_where[idx]);
		st->raw_where[idx] = xstrdup(st->where);
	}
	return 0;
}

static int conf_line(conf_state_t *st, const char *path, char *line)
{
	conf_pairs_t pairs = { 0 };
	const char *arg;
	int rc;

	conf_strip(line);
	if (conf_is_include(line, &arg))
		return conf_include(st, path, arg);
	if (conf_split(st, line, &pairs) < 0) {
		rc = -1;
		goto out;
	}
	rc = conf_dispatch(st, &pairs);
out:
	conf_pairs_free(&pairs);
	return rc;
}

/* Ends in an odd number of backslashes: drop the last, continue. */
static bool conf_continues(char *s, size_t *len)
{
	size_t n = 0;

	while (n < *len && s[*len - 1 - n] == '\\')
		n++;
	if (!(n & 1))
		return false;
	s[--(*len)] = '\0';
	return true;
}

static void conf_chomp(char *s, size_t *len)
{
	while (*len && (s[*len - 1] == '\n' || s[*len - 1] == '\r'))
		s[--(*len)] = '\0';
}

static int conf_read_lines(conf_state_t *st, const char *path, FILE *fp)
{
	char *buf = NULL, *logical = NULL, *saved_where = st->where;
	size_t cap = 0, lineno = 0, first = 0;
	ssize_t got;
	int rc = 0;

	while ((got = getline(&buf, &cap, fp)) >= 0) {
		size_t len = (size_t)got;

		lineno++;
		conf_chomp(buf, &len);
		if (!logical)
			first = lineno;
		if (conf_continues(buf, &len)) {
			xstrcat(&logical, buf);
			if (!logical)
				logical = xstrdup("");
			if (strlen(logical) > CONF_MAX_LINE)
				goto too_long;
			continue;
		}
		xstrcat(&logical, buf);
		st->where = xstrdup_printf("%s:%zu", path, first);
		rc = conf_line(st, path, logical ? logical : "");
		xfree(st->where);
		xfree(logical);
		if (rc < 0)
			goto out;
	}
	if (logical) {
		st->where = xstrdup_printf("%s:%zu", path, first);
		rc = conf_line(st, path, logical);
		xfree(st->where);
	}
	goto out;
too_long:
	st->where = xstrdup_printf("%s:%zu", path, first);
	rc = conf_fail(st, "line too long");
	xfree(st->where);
out:
	st->where = saved_where;
	xfree(logical);
	free(buf);
	return rc;
}

static int conf_read_file(conf_state_t *st, const char *path)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat sb;
	FILE *fp;
	int rc;

	if (fd < 0)
		return conf_fail(st, "cannot open %s: %s", path,
				 strerror(errno));
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return conf_fail(st, "%s is not a regular file", path);
	}
	conf_file_note(st->c, path, &sb);
	if (!(fp = fdopen(fd, "r"))) {
		close(fd);
		return conf_fail(st, "cannot read %s: %s", path,
				 strerror(errno));
	}
	rc = conf_read_lines(st, path, fp);
	fclose(fp);
	return rc;
}

static void conf_state_free(conf_state_t *st)
{
	size_t n = conf_key_count();

	for (size_t i = 0; i < n; i++) {
		if (st->raw)
			xfree(st->raw[i]);
		if (st->raw_where)
			xfree(st->raw_where[i]);
	}
	xfree(st->raw);
	xfree(st->raw_where);
	conf_pairs_free(&st->node_dflt);
	conf_pairs_free(&st->part_dflt);
	conf_recs_free(&st->parts);
	conf_recs_free(&st->nodesets);
	conf_recs_free(&st->downs);
	if (st->part_where) {
		for (size_t i = 0; i < st->c->part_cnt; i++)
			xfree(st->part_where[i]);
		xfree(st->part_where);
	}
	xstrarray_free(st->ctld_raw);
	xstrarray_free(st->ctld_where);
	xstrarray_free(st->notes);
	conf_node_index_free(&st->node_idx);
	xfree(st->where);
}

conf_node_t *conf_node_line(const slurm_conf_t *c, const char *line,
			    size_t *cnt, char *err, size_t errlen)
{
	conf_state_t st = { .err = err, .errlen = errlen };
	conf_pairs_t pairs = { 0 };
	char *copy = xstrdup(line ? line : "");
	conf_node_t *out = NULL;

	*cnt = 0;
	st.c = xmalloc(sizeof(*st.c));
	st.c->slurmd_port = c ? c->slurmd_port : 6818;
	conf_strip(copy);
	if (conf_split(&st, copy, &pairs) < 0)
		goto out;
	if (!pairs.cnt || strcasecmp(pairs.v[0].key, "NodeName")) {
		conf_fail(&st, "the line must start with NodeName=");
		goto out;
	}
	if (!strcasecmp(pairs.v[0].value, "DEFAULT") ||
	    !strcasecmp(pairs.v[0].value, "ALL")) {
		conf_fail(&st, "NodeName=%s is reserved", pairs.v[0].value);
		goto out;
	}
	if (conf_record(&st, &pairs) < 0)
		goto out;
	for (size_t i = 0; i < st.c->node_cnt; i++)
		if (!st.c->nodes[i].port)
			st.c->nodes[i].port = st.c->slurmd_port;
	out = st.c->nodes;
	*cnt = st.c->node_cnt;
	st.c->nodes = NULL;
	st.c->node_cnt = 0;
out:
	conf_pairs_free(&pairs);
	conf_pairs_free(&st.node_dflt);
	conf_node_index_free(&st.node_idx);
	xstrarray_free(st.notes);
	for (size_t i = 0; i < st.c->node_cnt; i++)
		conf_node_free(&st.c->nodes[i]);
	xfree(st.c->nodes);
	xfree(st.c);
	xfree(copy);
	return out;
}

void conf_node_line_free(conf_node_t *v, size_t cnt)
{
	for (size_t i = 0; i < cnt; i++)
		conf_node_free(&v[i]);
	xfree(v);
}

slurm_conf_t *conf_load(const char *path, char *err, size_t errlen)
{
	conf_state_t st = { .err = err, .errlen = errlen };
	slurm_conf_t *c = xmalloc(sizeof(*c));
	int rc;

	if (err && errlen)
		err[0] = '\0';
	st.c = c;
	c->path = xstrdup(path ? path : conf_default_path());
	st.raw = xcalloc(conf_key_count(), sizeof(char *));
	st.raw_where = xcalloc(conf_key_count(), sizeof(char *));
	conf_keys_defaults(&st);
	rc = conf_read_file(&st, c->path);
	if (!rc)
		rc = conf_keys_finish(&st);
	if (!rc)
		rc = conf_records_finish(&st);
	if (!rc) {
		c->node_index = st.node_idx;
		st.node_idx = NULL;
		rc = conf_check_preempt(&st);
	}
	if (!rc)
		rc = conf_check_checkpoint(&st);
	if (!rc)
		rc = conf_check_lists(&st);
	if (!rc)
		rc = conf_check_scalars(&st);
	if (!rc) {              /* for conf_kv() and conf_key_where(), later */
		c->raw = st.raw;
		st.raw = NULL;
		c->raw_where = st.raw_where;
		st.raw_where = NULL;
		c->notes = st.notes;
		st.notes = NULL;
		if (st.ctld_where)
			c->ctld_where = xstrdup(st.ctld_where[0]);
	}
	conf_state_free(&st);
	if (rc < 0) {
		conf_destroy(c);
		return NULL;
	}
	conf_apply_comm_params(c);
	return c;
}

/* As Slurm: a preemption plugin with PreemptMode=OFF is refused.  Unset,
 * PreemptType is preempt/none and PreemptMode OFF. */
static int conf_check_preempt(conf_state_t *st)
{
	int ti = conf_key_find("PreemptType"), mi = conf_key_find("PreemptMode");
	const char *type = ti < 0 ? NULL : st->raw[ti];
	const char *mode = mi < 0 ? NULL : st->raw[mi];

	if (type && strcasecmp(type, "preempt/none") &&
	    (!mode || !strcasecmp(mode, "OFF"))) {
		xfree(st->where);
		return conf_fail(st, "PreemptType and PreemptMode values "
				 "incompatible");
	}
	return 0;
}

/* CheckpointType names one of the two ways a job is checkpointed;
 * JobCheckpointDir is a path every node sees. */
static int conf_check_checkpoint(conf_state_t *st)
{
	int ti = conf_key_find("CheckpointType");
	int di = conf_key_find("JobCheckpointDir");
	const char *type = ti < 0 ? NULL : st->raw[ti];
	const char *dir = di < 0 ? NULL : st->raw[di];

	if (type && strcasecmp(type, "checkpoint/signal") &&
	    strcasecmp(type, "checkpoint/criu")) {
		xfree(st->where);
		return conf_fail(st, "invalid CheckpointType \"%s\": use "
				 "checkpoint/signal or checkpoint/criu", type);
	}
	if (dir && dir[0] != '/') {
		xfree(st->where);
		return conf_fail(st, "JobCheckpointDir \"%s\" is not an "
				 "absolute path", dir);
	}
	return 0;
}

/* Keys whose values are lists read by the daemons and commands while
 * they run: checked here, so a bad word stops the load at its line. */
static int conf_check_lists(conf_state_t *st)
{
	static const char *const keys[] = {
		"RequeueExit", "RequeueExitHold", "PropagateResourceLimits",
		"PropagateResourceLimitsExcept", "CommunicationParameters",
		"MpiParams",
	};
	char msg[256];
	comm_params_t cp;
	uint16_t lo, hi;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		int k = conf_key_find(keys[i]);
		const char *v = k < 0 ? NULL : st->raw[k];
		uint8_t bits[32];
		unsigned mask;
		int rc;

		if (!v)
			continue;
		if (i < 2)
			rc = conf_parse_exit_list(keys[i], v, bits, msg,
						  sizeof(msg));
		else if (i < 4)
			rc = rlimits_parse(keys[i], v, &mask, msg, sizeof(msg));
		else if (i == 4)
			rc = comm_params_parse(v, &cp, msg, sizeof(msg));
		else
			rc = mpi_params_ports(v, &lo, &hi, msg, sizeof(msg));
		if (rc < 0) {
			xfree(st->where);
			st->where = xstrdup(st->raw_where[k]);
			return conf_fail(st, "%s", msg);
		}
	}
	return 0;
}

void conf_destroy(slurm_conf_t *c)
{
	if (!c)
		return;
	conf_keys_free(c);
	conf_node_index_free(&c->node_index);
	xfree(c->path);
	for (size_t i = 0; i < c->file_cnt; i++)
		xfree(((conf_file_id_t *) c->files)[i].path);
	xfree(c->files);
	for (size_t i = 0; i < c->ctld_host_cnt; i++) {
		xfree(c->ctld_hosts[i]);
		xfree(c->ctld_addrs[i]);
	}
	xfree(c->ctld_hosts);
	xfree(c->ctld_addrs);
	for (size_t i = 0; i < c->node_cnt; i++)
		conf_node_free(&c->nodes[i]);
	xfree(c->nodes);
	for (size_t i = 0; i < c->part_cnt; i++)
		conf_part_free(&c->parts[i]);
	xfree(c->parts);
	for (size_t i = 0; i < c->kv_cnt; i++) {
		xfree(c->kv[i].key);
		xfree(c->kv[i].value);
	}
	xfree(c->kv);
	if (c->raw) {
		for (size_t i = 0; i < conf_key_count(); i++)
			xfree(c->raw[i]);
		xfree(c->raw);
	}
	if (c->raw_where) {
		for (size_t i = 0; i < conf_key_count(); i++)
			xfree(c->raw_where[i]);
		xfree(c->raw_where);
	}
	xfree(c->ctld_where);
	xstrarray_free(c->notes);
	xfree(c);
}

const conf_node_t *conf_find_node(const slurm_conf_t *c, const char *name)
{
	long i;

	if (!c || !name)
		return NULL;
	if (c->node_index) {
		i = conf_node_index_find(c->node_index, name);
		return i < 0 ? NULL : &c->nodes[i];
	}
	for (size_t j = 0; j < c->node_cnt; j++)   /* built by hand */
		if (!strcmp(c->nodes[j].name, name))
			return &c->nodes[j];
	return NULL;
}

const conf_part_t *conf_find_part(const slurm_conf_t *c, const char *name)
{
	if (!c || !name)
		return NULL;
	for (size_t i = 0; i < c->part_cnt; i++)
		if (!strcmp(c->parts[i].name, name))
			return &c->parts[i];
	return NULL;
}

/* Guards building the list; a conf is shared by the daemons' threads. */
static pthread_mutex_t conf_kv_lock = PTHREAD_MUTEX_INITIALIZER;

const conf_kv_t *conf_kv(const slurm_conf_t *c, size_t *cnt,
			 size_t *show_cnt)
{
	slurm_conf_t *w = (slurm_conf_t *)c;   /* the cache inside c */

	pthread_mutex_lock(&conf_kv_lock);
	if (!w->kv_built) {
		conf_keys_build_kv(w);
		w->kv_built = true;
	}
	pthread_mutex_unlock(&conf_kv_lock);
	*cnt = c->kv_cnt;
	if (show_cnt)
		*show_cnt = c->kv_show_cnt;
	return c->kv;
}

const char *conf_get(const slurm_conf_t *c, const char *key)
{
	const conf_kv_t *kv;
	size_t n;

	if (!c || !key)
		return NULL;
	kv = conf_kv(c, &n, NULL);
	for (size_t i = 0; i < n; i++)
		if (!strcasecmp(kv[i].key, key))
			return kv[i].value;
	return NULL;
}

const char *conf_get_set(const slurm_conf_t *c, const char *key)
{
	int idx = key ? conf_key_find(key) : -1;

	return c && c->raw && idx >= 0 ? c->raw[idx] : NULL;
}

static void conf_short_hostname(char *buf, size_t len)
{
	char *dot;

	if (gethostname(buf, len) < 0)
		snprintf(buf, len, "localhost");
	buf[len - 1] = '\0';
	if ((dot = strchr(buf, '.')))
		*dot = '\0';
}

char *conf_expand_node_path(const char *pattern, const char *node_name)
{
	char host[256];
	char *out = xstrdup("");

	if (!pattern)
		return NULL;
	conf_short_hostname(host, sizeof(host));
	for (const char *p = pattern; *p; p++) {
		if (*p != '%' || !p[1]) {
			xstrcatc(&out, *p);
			continue;
		}
		p++;
		if (*p == 'n')
			xstrcat(&out, node_name ? node_name : host);
		else if (*p == 'h')
			xstrcat(&out, host);
		else if (*p == '%')
			xstrcatc(&out, '%');
		else {
			xstrcatc(&out, '%');
			xstrcatc(&out, *p);
		}
	}
	return out;
}

char *conf_sibling_path(const slurm_conf_t *c, const char *file)
{
	char *dir, *out;

	if (!file)
		return NULL;
	if (file[0] == '/')
		return xstrdup(file);
	dir = conf_dirname(c && c->path ? c->path : conf_default_path());
	out = xstrdup_printf("%s/%s", dir, file);
	xfree(dir);
	return out;
}
