/* state_save.c — snapshot and per-job files in StateSaveLocation.
 *
 * Snapshot "ctld_state": packstr(magic), pack16(version), pack_time(saved),
 * packstr(cluster), pack32(next job id), node states, job records.  It is
 * written to "ctld_state.new", fsync'd, renamed, and the directory fsync'd.
 * Job scripts and environments are written without fsync at submit; the
 * next snapshot write syncs the file system first, so they are on disk
 * before the submit is acknowledged.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/controller.h"
#include "ctld/job_mgr.h"
#include "ctld/node_mgr.h"
#include "ctld/state_save.h"

#define STATE_MAGIC "SLUICE_CTLD_STATE"
#define STATE_FILE  "ctld_state"
#define CLUSTER_FILE "clustername"

static int _mkdir_p(const char *path, mode_t mode)
{
	char *p = xstrdup(path), *s;
	int rc = 0;

	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, mode) < 0 && errno != EEXIST)
			rc = -1;
		*s = '/';
	}
	if (mkdir(p, mode) < 0 && errno != EEXIST)
		rc = -1;
	else
		rc = 0;
	xfree(p);
	return rc;
}

static char *_read_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *data = NULL;
	size_t cap = 0, n = 0;
	ssize_t r;

	if (fd < 0)
		return NULL;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			size_t ncap = cap ? cap * 2 : 65536;

			data = xrealloc_sz(data, cap, ncap);
			cap = ncap;
		}
		r = read(fd, data + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += r;
	}
	close(fd);
	if (r < 0) {
		xfree(data);
		return NULL;
	}
	data[n] = '\0';
	*len = n;
	return data;
}

/* Write data to path durably-ish (fsync when sync). */
static int _write_file(const char *path, const void *data, size_t len,
		       bool sync, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	const char *p = data;
	int rc = -1;

	if (fd < 0)
		return -1;
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			goto out;
		p += w;
		len -= w;
	}
	if (sync && fsync(fd) < 0)
		goto out;
	rc = 0;
out:
	close(fd);
	return rc;
}

int state_save_init(const char *dir, const char *cluster, char *err,
		    size_t errlen)
{
	char *path = NULL, *old;
	size_t len;
	int rc = -1;

	if (!dir || !*dir) {
		snprintf(err, errlen, "StateSaveLocation is not set");
		return -1;
	}
	if (_mkdir_p(dir, 0755) < 0) {
		snprintf(err, errlen, "Unable to create StateSaveLocation %s: %s",
			 dir, strerror(errno));
		return -1;
	}
	if (access(dir, W_OK | X_OK) < 0) {
		snprintf(err, errlen, "StateSaveLocation %s is not writable by uid %u: %s",
			 dir, (unsigned) geteuid(), strerror(errno));
		return -1;
	}
	path = xstrdup_printf("%s/%s", dir, CLUSTER_FILE);
	old = _read_file(path, &len);
	if (old) {
		xstrtrim(old);
		if (cluster && *old && strcmp(old, cluster)) {
			snprintf(err, errlen,
				 "CLUSTER NAME MISMATCH.\nslurmctld was started "
				 "with \"ClusterName=%s\", but the state files "
				 "in StateSaveLocation belong to cluster \"%s\".\n"
				 "Sharing a StateSaveLocation between clusters "
				 "WILL CAUSE CORRUPTION.\nRemove %s to override "
				 "this check if the ClusterName was changed on "
				 "purpose.", cluster, old, path);
			xfree(old);
			goto out;
		}
		xfree(old);
	} else if (cluster) {
		char *line = xstrdup_printf("%s\n", cluster);

		if (_write_file(path, line, strlen(line), true, 0644) < 0) {
			snprintf(err, errlen, "Unable to write %s: %s", path,
				 strerror(errno));
			xfree(line);
			goto out;
		}
		xfree(line);
	}
	rc = 0;
out:
	xfree(path);
	return rc;
}

buf_t *state_save_pack(void)
{
	static size_t last_len = 64 * 1024;
	buf_t *b = buf_create(last_len + last_len / 8);

	packstr(b, STATE_MAGIC);
	pack16(b, STATE_SAVE_VERSION);
	pack_time(b, time(NULL));
	packstr(b, ctld_conf()->cluster_name);
	pack32(b, job_mgr_next_id());
	node_mgr_pack_state(b);
	job_mgr_pack_state(b);
	last_len = buf_len(b);
	return b;
}

static void _fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return;
	fsync(fd);
	close(fd);
}

int state_save_write(const char *dir, const buf_t *b)
{
	char *tmp = xstrdup_printf("%s/%s.new", dir, STATE_FILE);
	char *path = xstrdup_printf("%s/%s", dir, STATE_FILE);
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = -1;

	if (dfd >= 0) {
		syncfs(dfd);    /* job scripts written at submit */
		close(dfd);
	}
	if (_write_file(tmp, buf_data(b), buf_len(b), true, 0600) < 0)
		goto out;
	if (rename(tmp, path) < 0)
		goto out;
	_fsync_dir(dir);
	rc = 0;
out:
	if (rc < 0)
		error_errno("state save to %s", path);
	xfree(tmp);
	xfree(path);
	return rc;
}

static int _unpack_header(buf_t *b, char *err, size_t errlen)
{
	char *magic = NULL, *cluster = NULL;
	uint16_t ver;
	time_t saved;
	uint32_t next_id;
	int rc = -1;

	if (unpackstr(b, &magic) < 0 || xstrcmp(magic, STATE_MAGIC)) {
		snprintf(err, errlen, "state file has no valid header");
		goto out;
	}
	if (unpack16(b, &ver) < 0 || ver > STATE_SAVE_VERSION || ver < 1) {
		snprintf(err, errlen, "state file version %u not supported", ver);
		goto out;
	}
	if (unpack_time(b, &saved) < 0 || unpackstr(b, &cluster) < 0 ||
	    unpack32(b, &next_id) < 0) {
		snprintf(err, errlen, "state file header truncated");
		goto out;
	}
	if (cluster && ctld_conf()->cluster_name &&
	    strcmp(cluster, ctld_conf()->cluster_name)) {
		snprintf(err, errlen, "state file belongs to cluster %s",
			 cluster);
		goto out;
	}
	job_mgr_set_next_id(next_id);
	rc = 0;
out:
	xfree(magic);
	xfree(cluster);
	return rc;
}

int state_save_load(const char *dir, char *err, size_t errlen)
{
	char *path = xstrdup_printf("%s/%s", dir, STATE_FILE);
	size_t len = 0;
	char *data = _read_file(path, &len);
	buf_t *b = NULL;
	int rc = -1;

	if (!data) {
		rc = errno == ENOENT ? 1 : -1;
		if (rc < 0)
			snprintf(err, errlen, "Unable to read %s: %s", path,
				 strerror(errno));
		else
			info("No state file %s to recover", path);
		goto out;
	}
	b = buf_view(data, len);
	if (_unpack_header(b, err, errlen) < 0)
		goto out;
	if (node_mgr_unpack_state(b) < 0 || job_mgr_unpack_state(b) < 0) {
		snprintf(err, errlen, "Incomplete or corrupt state file %s",
			 path);
		goto out;
	}
	info("Recovered state of %u jobs from %s", job_mgr_count(), path);
	rc = 0;
out:
	if (b)
		buf_destroy(b);
	xfree(data);
	xfree(path);
	return rc;
}

static char *_job_dir(const char *dir, uint32_t job_id)
{
	return xstrdup_printf("%s/hash.%u/job.%u", dir, job_id % 10, job_id);
}

int state_save_job_files(const char *dir, uint32_t job_id,
			 const char *script, char *const *env)
{
	char *jd = _job_dir(dir, job_id), *path = NULL, *blob = NULL;
	size_t blen = 0, i;
	int rc = -1;

	if (_mkdir_p(jd, 0700) < 0)
		goto out;
	path = xstrdup_printf("%s/script", jd);
	if (_write_file(path, script ? script : "", script ? strlen(script) : 0,
			false, 0600) < 0)
		goto out;
	xfree(path);
	for (i = 0; env && env[i]; i++) {
		size_t l = strlen(env[i]) + 1;

		blob = xrealloc_sz(blob, blen, blen + l);
		memcpy(blob + blen, env[i], l);
		blen += l;
	}
	path = xstrdup_printf("%s/environment", jd);
	if (_write_file(path, blob ? blob : "", blen, false, 0600) < 0)
		goto out;
	rc = 0;
out:
	if (rc < 0)
		error_errno("Unable to save script of JobId=%u in %s", job_id, jd);
	xfree(blob);
	xfree(path);
	xfree(jd);
	return rc;
}

int state_save_read_job_files(const char *dir, uint32_t job_id,
			      char **script, char ***env)
{
	char *jd = _job_dir(dir, job_id);
	char *path = xstrdup_printf("%s/script", jd), *blob;
	size_t len = 0, off = 0;
	int rc = -1;

	*script = _read_file(path, &len);
	*env = NULL;
	if (!*script)
		goto out;
	xfree(path);
	path = xstrdup_printf("%s/environment", jd);
	blob = _read_file(path, &len);
	if (!blob)
		goto out;
	*env = xcalloc(1, sizeof(char *));
	while (off < len) {
		*env = xstrarray_append(*env, blob + off);
		off += strlen(blob + off) + 1;
	}
	xfree(blob);
	rc = 0;
out:
	if (rc < 0) {
		error("Unable to read script of JobId=%u from %s", job_id, jd);
		xfree(*script);
	}
	xfree(path);
	xfree(jd);
	return rc;
}

void state_save_remove_job_files(const char *dir, uint32_t job_id)
{
	char *jd = _job_dir(dir, job_id);
	char *p = xstrdup_printf("%s/script", jd);

	unlink(p);
	xfree(p);
	p = xstrdup_printf("%s/environment", jd);
	unlink(p);
	xfree(p);
	rmdir(jd);
	xfree(jd);
}
