/* job_files.c — batch jobs' scripts and environments (job_files.h).
 *
 * The loop queues operations (write a job's file, remove it) for one
 * writer thread that does them in order.  A write stays in the pending
 * table, where job_files_read() finds it, until its file is written; a
 * write that failed stays there too, and job_files_flush() queues it
 * again.  One mutex guards the queue and the table; only the writer
 * touches the files while it runs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <uthash.h>
#include <utlist.h>

#include "common/crc32c.h"
#include "common/log.h"
#include "common/pack.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/job_files.h"
#include "ctld/job_mgr.h"
#include "ctld/job_array.h"
#include "ctld/job_seg.h"
#include "ctld/state_save.h"

#define FILES_FORMAT 1
#define MAX_ENV      PACK_MAX_ARRAY_LEN

typedef struct jf_op {
	uint32_t        job_id;
	buf_t          *file;      /* the file's bytes; NULL: remove */
	uint64_t        seq;       /* when queued */
	bool            hashed;    /* in jf.pending */
	UT_hash_handle  hh;
	struct jf_op      *next, *prev;
} jf_op_t;

static struct {
	pthread_mutex_t  mu;
	pthread_cond_t   cond;
	jf_op_t            *queue;     /* FIFO, the writer takes the head */
	jf_op_t            *failed;    /* writes that failed, for the next flush */
	jf_op_t            *pending;   /* writes not on disk yet, by job id */
	uint64_t         queued;    /* seq of the last op queued */
	uint64_t         done;      /* seq of the last op the writer finished */
	pthread_t        thread;
	bool             up, stop;
	bool             hold;      /* SLUICE_JOB_FILES_HOLD: only on flush */
	unsigned         flushing;  /* callers of job_files_flush() waiting */
	char            *dir;
} jf = { .mu = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };

/* ---- the files ---- */

static char *_jf_path(const char *dir, uint32_t id)
{
	return xstrdup_printf("%s/hash.%u/job.%u.files", dir, id % 10, id);
}

/* The file's bytes around a record payload. */
static buf_t *_jf_file_of(const void *payload, size_t len)
{
	buf_t *f = buf_create(len + 8);

	pack16(f, FILES_FORMAT);
	packraw(f, payload, len);
	pack32(f, crc32c(0, buf_data(f), buf_len(f)));
	return f;
}

static int _jf_write_all(int fd, const uint8_t *p, size_t len)
{
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		len -= w;
	}
	return 0;
}

static int _jf_write(const char *dir, uint32_t id, const buf_t *f)
{
	char *path = _jf_path(dir, id);
	int fd, rc = -1, err;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 && errno == ENOENT) {         /* hash.N not made yet */
		char *hd = xstrdup_printf("%s/hash.%u", dir, id % 10);

		if (mkdir(hd, 0700) == 0 || errno == EEXIST)
			fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
				  0600);
		xfree(hd);
	}
	if (fd >= 0) {
		rc = _jf_write_all(fd, buf_data(f), buf_len(f));
		err = errno;
		if (close(fd) < 0 && !rc) {
			rc = -1;
			err = errno;
		}
		errno = err;
	}
	if (rc < 0)
		error_errno("Unable to save the script of JobId=%u in %s", id,
			    path);
	xfree(path);
	return rc;
}

static void _jf_unlink_old_layout(const char *dir, uint32_t id)
{
	char *jd = xstrdup_printf("%s/hash.%u/job.%u", dir, id % 10, id);
	char *p = xstrdup_printf("%s/script", jd);

	unlink(p);
	xfree(p);
	p = xstrdup_printf("%s/environment", jd);
	unlink(p);
	xfree(p);
	rmdir(jd);
	xfree(jd);
}

static void _jf_remove(const char *dir, uint32_t id)
{
	char *path = _jf_path(dir, id);

	if (unlink(path) < 0 && errno == ENOENT)
		_jf_unlink_old_layout(dir, id);
	xfree(path);
}

/* A job's files wherever they are: its segment record, and a file of
 * its own (written by a journal replay, or by an earlier version). */
static void _jf_remove_any(const char *dir, uint32_t id)
{
	char *path;

	if (!job_seg_remove(id)) {
		_jf_remove(dir, id);
		return;
	}
	path = _jf_path(dir, id);
	(void)unlink(path);
	xfree(path);
}

/* Script and environment of a payload (u32 id, script, env list). */
static int _jf_unpack_payload(buf_t *b, uint32_t *id, char **script,
			   char ***env)
{
	uint32_t n;

	*script = NULL;
	*env = NULL;
	if (unpack32(b, id) < 0 || unpackstr(b, script) < 0 ||
	    unpackstr_array(b, env, &n, MAX_ENV) < 0) {
		xfree(*script);
		xstrarray_free(*env);
		*env = NULL;
		return -1;
	}
	if (!*env)
		*env = xcalloc(1, sizeof(char *));
	return 0;
}

/* A file's bytes (format, payload, CRC) into script and env. */
static int _jf_parse_file(const uint8_t *data, size_t len, uint32_t want,
		       char **script, char ***env)
{
	buf_t *b;
	uint16_t fmt;
	uint32_t crc, id;
	int rc = -1;

	if (len < 6 + 4)
		return -1;
	b = buf_view(data + len - 4, 4);
	unpack32(b, &crc);
	buf_destroy(b);
	if (crc != crc32c(0, data, len - 4))
		return -1;
	b = buf_view(data, len - 4);
	if (unpack16(b, &fmt) == 0 && fmt == FILES_FORMAT &&
	    _jf_unpack_payload(b, &id, script, env) == 0) {
		if (id == want && !buf_remaining(b))
			rc = 0;
		else {
			xfree(*script);
			xstrarray_free(*env);
			*env = NULL;
		}
	}
	buf_destroy(b);
	return rc;
}

static int _jf_read_old_layout(const char *dir, uint32_t id, char **script,
			    char ***env)
{
	char *jd = xstrdup_printf("%s/hash.%u/job.%u", dir, id % 10, id);
	char *path = xstrdup_printf("%s/script", jd), *blob;
	size_t len = 0, off = 0;
	int rc = -1;

	*env = NULL;
	if (!(*script = state_save_read_file(path, &len)))
		goto out;
	xfree(path);
	path = xstrdup_printf("%s/environment", jd);
	if (!(blob = state_save_read_file(path, &len))) {
		xfree(*script);
		goto out;
	}
	*env = xcalloc(1, sizeof(char *));
	while (off < len) {
		*env = xstrarray_append(*env, blob + off);
		off += strlen(blob + off) + 1;
	}
	xfree(blob);
	rc = 0;
out:
	xfree(path);
	xfree(jd);
	return rc;
}

static int _jf_read_disk(const char *dir, uint32_t id, char **script,
		      char ***env)
{
	char *path = _jf_path(dir, id), *data;
	size_t len = 0;
	int rc = -1;

	data = state_save_read_file(path, &len);
	if (data)
		rc = _jf_parse_file((const uint8_t *) data, len, id, script, env);
	else if (errno == ENOENT)
		rc = _jf_read_old_layout(dir, id, script, env);
	if (rc < 0)
		error("Unable to read the script of JobId=%u from %s%s", id,
		      path, data ? ": damaged" : "");
	xfree(data);
	xfree(path);
	return rc;
}

/* ---- the writer ---- */

static void _jf_op_free(jf_op_t *o)
{
	if (o->file)
		buf_destroy(o->file);
	xfree(o);
}

/* Under jf.mu. */
static void _jf_unhash(jf_op_t *o)
{
	if (o->hashed)
		HASH_DEL(jf.pending, o);
	o->hashed = false;
}

/* Under jf.mu: a removal makes a failed write of the same job moot. */
static void _jf_drop_failed(uint32_t id)
{
	jf_op_t *o, *tmp;

	DL_FOREACH_SAFE(jf.failed, o, tmp) {
		if (o->job_id != id)
			continue;
		DL_DELETE(jf.failed, o);
		_jf_unhash(o);
		_jf_op_free(o);
	}
}

static void *_jf_writer(void *unused)
{
	pthread_mutex_lock(&jf.mu);
	for (;;) {
		jf_op_t *o;
		int rc = 0;

		while ((!jf.queue || (jf.hold && !jf.flushing)) && !jf.stop)
			pthread_cond_wait(&jf.cond, &jf.mu);
		if (!(o = jf.queue))
			break;
		DL_DELETE(jf.queue, o);
		pthread_mutex_unlock(&jf.mu);
		if (o->file && (rc = job_seg_append(o->job_id,
						    buf_data(o->file),
						    buf_len(o->file))) < 0)
			error_errno("Unable to save the script of JobId=%u in "
				    "%s", o->job_id, jf.dir);
		else if (!o->file)
			_jf_remove_any(jf.dir, o->job_id);
		pthread_mutex_lock(&jf.mu);
		jf.done = o->seq;
		if (rc < 0) {
			DL_APPEND(jf.failed, o);
		} else {
			if (!o->file)
				_jf_drop_failed(o->job_id);
			_jf_unhash(o);
			_jf_op_free(o);
		}
		pthread_cond_broadcast(&jf.cond);
	}
	pthread_mutex_unlock(&jf.mu);
	return NULL;
}

/* Under jf.mu.  The writer is woken by job_files_kick(): once per
 * commit, not once per job. */
static void _jf_enqueue(jf_op_t *o)
{
	o->seq = ++jf.queued;
	DL_APPEND(jf.queue, o);
}

void job_files_kick(void)
{
	if (!jf.up)
		return;
	pthread_mutex_lock(&jf.mu);
	if (jf.queue)
		pthread_cond_broadcast(&jf.cond);
	pthread_mutex_unlock(&jf.mu);
}

/* The files ids the jobs use, sorted (job_seg_open's liveness). */
static uint32_t *_jf_ids;
static uint32_t _jf_nids;

static int _jf_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static bool _jf_in_use(uint32_t id, void *arg)
{
	(void)arg;
	return bsearch(&id, _jf_ids, _jf_nids, sizeof(id), _jf_cmp) != NULL;
}

static int _jf_open_segments(const char *dir)
{
	uint32_t cnt = 0;
	job_record_t *const *all = job_mgr_all(&cnt);
	jf_op_t *o, *tmp;
	int rc;

	_jf_ids = xcalloc(cnt + 1, sizeof(uint32_t));
	_jf_nids = 0;
	for (uint32_t i = 0; i < cnt; i++)
		if (all[i])
			_jf_ids[_jf_nids++] = job_array_files_id(all[i]);
	qsort(_jf_ids, _jf_nids, sizeof(uint32_t), _jf_cmp);
	rc = job_seg_open(dir, _jf_in_use, NULL);
	/* replayed files of jobs the journal then purged (or whose record
	 * was lost in a damaged tail) go; the rest are numbered again, so
	 * that a flush waits for the last op there is, not a dropped one */
	pthread_mutex_lock(&jf.mu);
	DL_FOREACH_SAFE(jf.queue, o, tmp) {
		if (!o->file || _jf_in_use(o->job_id, NULL))
			continue;
		DL_DELETE(jf.queue, o);
		_jf_unhash(o);
		_jf_op_free(o);
	}
	jf.queued = jf.done;
	DL_FOREACH(jf.queue, o)
		o->seq = ++jf.queued;
	pthread_mutex_unlock(&jf.mu);
	xfree(_jf_ids);
	_jf_nids = 0;
	return rc;
}

int job_files_start(const char *dir)
{
	if (jf.up)
		return 0;
	if (_jf_open_segments(dir) < 0)
		return -1;
	xfree(jf.dir);
	jf.dir = xstrdup(dir);
	jf.stop = false;
	jf.hold = getenv("SLUICE_JOB_FILES_HOLD") &&
		  strcmp(getenv("SLUICE_JOB_FILES_HOLD"), "0");
	if (jf.hold)
		error("SLUICE_JOB_FILES_HOLD is set: job files are written "
		      "only before a snapshot (for tests only)");
	if (pthread_create(&jf.thread, NULL, _jf_writer, NULL)) {
		error("Unable to start the job files writer");
		return -1;
	}
	jf.up = true;
	return 0;
}

void job_files_stop(void)
{
	jf_op_t *o, *tmp;

	if (!jf.up)
		return;
	pthread_mutex_lock(&jf.mu);
	jf.stop = true;
	pthread_cond_broadcast(&jf.cond);
	pthread_mutex_unlock(&jf.mu);
	pthread_join(jf.thread, NULL);
	jf.up = false;
	job_seg_close();
	/* what could not be written is in the journal, replayed at start */
	DL_FOREACH_SAFE(jf.failed, o, tmp) {
		DL_DELETE(jf.failed, o);
		_jf_unhash(o);
		_jf_op_free(o);
	}
}

/* ---- the loop's calls ---- */

void job_files_save(const char *dir, uint32_t job_id, const char *script,
		    char *const *env)
{
	buf_t *p = buf_create(1024 + (script ? strlen(script) : 0));
	jf_op_t *o, *old;

	pack32(p, job_id);
	packstr(p, script);
	packstr_list(p, env);
	o = xmalloc(sizeof(*o));
	o->job_id = job_id;
	o->file = _jf_file_of(buf_data(p), buf_len(p));
	state_save_queue_job_files(p);        /* the journal's, it frees p */
	if (!jf.up) {
		_jf_write(dir, job_id, o->file);
		_jf_op_free(o);
		return;
	}
	pthread_mutex_lock(&jf.mu);
	HASH_FIND(hh, jf.pending, &job_id, sizeof(job_id), old);
	if (old) {                 /* a job id given twice: the newer wins */
		error("JobId=%u: job files saved twice", job_id);
		_jf_unhash(old);
	}
	HASH_ADD(hh, jf.pending, job_id, sizeof(job_id), o);
	o->hashed = true;
	_jf_enqueue(o);
	pthread_mutex_unlock(&jf.mu);
}

int job_files_replay(const void *data, uint32_t len)
{
	buf_t *b = buf_view(data, len);
	uint32_t id = 0;
	jf_op_t *o, *old;
	int rc = unpack32(b, &id);

	buf_destroy(b);
	if (rc < 0)
		return -1;
	/* queued for the writer, which appends it to a segment when it
	 * starts (before the first snapshot lets this journal go): a file
	 * per job made here took most of a restart's time */
	o = xmalloc(sizeof(*o));
	o->job_id = id;
	o->file = _jf_file_of(data, len);
	pthread_mutex_lock(&jf.mu);
	HASH_FIND(hh, jf.pending, &id, sizeof(id), old);
	if (old && !jf.up) {        /* replayed twice: the later one wins */
		_jf_unhash(old);
		DL_DELETE(jf.queue, old);
		_jf_op_free(old);
	} else if (old) {
		_jf_unhash(old);
	}
	HASH_ADD(hh, jf.pending, job_id, sizeof(id), o);
	o->hashed = true;
	_jf_enqueue(o);
	pthread_mutex_unlock(&jf.mu);
	return 0;
}

int job_files_read(const char *dir, uint32_t job_id, char **script,
		   char ***env)
{
	jf_op_t *o;
	int rc = 1;

	pthread_mutex_lock(&jf.mu);
	HASH_FIND(hh, jf.pending, &job_id, sizeof(job_id), o);
	if (o)
		rc = _jf_parse_file(buf_data(o->file), buf_len(o->file), job_id,
				 script, env);
	pthread_mutex_unlock(&jf.mu);
	if (rc == 1) {
		char *data = NULL;
		size_t len = 0;

		rc = job_seg_read(job_id, &data, &len);
		if (rc == 0 && (rc = _jf_parse_file((const uint8_t *)data, len,
						   job_id, script, env)) < 0)
			error("Unable to read the script of JobId=%u from %s: "
			      "damaged", job_id, dir);
		xfree(data);
	}
	if (rc == 1)
		rc = _jf_read_disk(dir, job_id, script, env);
	return rc;
}

void job_files_remove(const char *dir, uint32_t job_id)
{
	jf_op_t *o;

	if (!jf.up) {
		pthread_mutex_lock(&jf.mu);
		_jf_drop_failed(job_id);
		HASH_FIND(hh, jf.pending, &job_id, sizeof(job_id), o);
		if (o) {                /* a replayed write not made yet */
			_jf_unhash(o);
			DL_DELETE(jf.queue, o);
			_jf_op_free(o);
		}
		pthread_mutex_unlock(&jf.mu);
		_jf_remove(dir, job_id);
		return;
	}
	o = xmalloc(sizeof(*o));
	o->job_id = job_id;
	pthread_mutex_lock(&jf.mu);
	_jf_enqueue(o);
	pthread_mutex_unlock(&jf.mu);
}

int job_files_flush(void)
{
	uint64_t target;
	jf_op_t *o, *tmp;
	int rc;

	if (!jf.up)
		return 0;
	pthread_mutex_lock(&jf.mu);
	DL_FOREACH_SAFE(jf.failed, o, tmp) {
		DL_DELETE(jf.failed, o);
		_jf_enqueue(o);
	}
	target = jf.queued;
	jf.flushing++;
	pthread_cond_broadcast(&jf.cond);
	while (jf.done < target)
		pthread_cond_wait(&jf.cond, &jf.mu);
	jf.flushing--;
	rc = jf.failed ? -1 : 0;
	pthread_mutex_unlock(&jf.mu);
	return rc;
}

uint32_t job_files_entry_id(const char *name)
{
	unsigned long id;
	char *end;

	if (strncmp(name, "job.", 4) || name[4] < '1' || name[4] > '9')
		return 0;
	errno = 0;
	id = strtoul(name + 4, &end, 10);
	if (errno || id > UINT32_MAX || (*end && strcmp(end, ".files")))
		return 0;
	return (uint32_t) id;
}
