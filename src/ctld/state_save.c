/* state_save.c — snapshot, journal records of changes, and per-job
 * files in StateSaveLocation.
 *
 * Snapshot "ctld_state" (doc/dev/state-format.md): packstr(magic),
 * pack16(version), pack_time(saved),
 * packstr(cluster), [v2: pack64(last journal seq in it), pack64(first
 * journal generation to replay after it)], pack32(next job id), node
 * states, job records, [v4: u16 reservation format, the reservation
 * table (resv_mgr_pack_state)], [v5: u16 partition changes format,
 * the run-time partition changes (part_mgr_pack_state)], [v9, after the
 * next job id and before the node states: u16 dynamic node format, the
 * dynamic nodes (node_dyn_pack_state)], [v6: u16 trigger format, the
 * trigger table (trigger_pack_state)], [v7: u16 crontab format, every
 * user's crontab (crontab_pack_state)], [v2: u32 CRC-32C of all the
 * bytes before].  It is
 * written to "ctld_state.new", fsync'd, renamed, and the directory fsync'd.
 * Job scripts and environments go into the journal (JREC_JOB_FILES) and
 * into their own files (job_files.h); a snapshot write first waits for
 * those files and syncs the file system, so they stay on disk when the
 * journal is removed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/crc32c.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/controller.h"
#include "ctld/job_files.h"
#include "ctld/job_mgr.h"
#include "ctld/journal.h"
#include "ctld/node_dyn.h"
#include "ctld/node_mgr.h"
#include "ctld/part_mgr.h"
#include "ctld/resv_mgr.h"
#include "ctld/state_save.h"
#include "ctld/crontab.h"
#include "ctld/trigger.h"

#define STATE_MAGIC "SLUICE_CTLD_STATE"
#define STATE_FILE  "ctld_state"
#define CLUSTER_FILE "clustername"

/* What the journal has of the state besides job records. */
static struct {
	buf_t   **files;        /* JREC_JOB_FILES payloads not yet framed */
	size_t    files_cnt, files_cap;
	buf_t    *nodes;        /* node states as last journaled */
	uint64_t  nodes_gen;    /* node_mgr_saved_gen() when packed */
	uint32_t  next_id;      /* next job id as last journaled */
} ss;

static int _mkdir_p(const char *path, mode_t mode)
{
	char *p, *s;
	int rc = 0;

	/* the usual case (a job's directory in an existing hash.N): one
	 * call, not one per component */
	if (mkdir(path, mode) == 0 || errno == EEXIST)
		return 0;
	p = xstrdup(path);

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

char *state_save_read_file(const char *path, size_t *len)
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
	old = state_save_read_file(path, &len);
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

struct state_pack {
	buf_t      *b;          /* header, nodes, jobs so far */
	buf_t      *tail;       /* the tables after the jobs, as of seq */
	job_pack_t *jobs;
};

static size_t last_len = 64 * 1024, last_per_job = 512;

/* Room for the whole snapshot at once: a buffer grown while the jobs are
 * packed in slices would copy itself inside one of them. */
static size_t _pack_size(void)
{
	size_t by_jobs = (size_t) job_mgr_count() * last_per_job;

	by_jobs += by_jobs / 8 + 64 * 1024;
	return by_jobs > last_len + last_len / 8 ? by_jobs :
	       last_len + last_len / 8;
}

state_pack_t *state_save_pack_begin(uint64_t seq, uint64_t gen)
{
	state_pack_t *sp = xmalloc(sizeof(*sp));
	buf_t *b = sp->b = buf_create(_pack_size());

	packstr(b, STATE_MAGIC);
	pack16(b, STATE_SAVE_VERSION);
	pack_time(b, time(NULL));
	packstr(b, ctld_conf()->cluster_name);
	pack64(b, seq);
	pack64(b, gen);
	pack32(b, job_mgr_next_id());
	pack16(b, DYN_NODE_STATE_VERSION);  /* version 9 */
	node_dyn_pack_state(b);
	node_mgr_pack_state(b);
	sp->jobs = job_mgr_pack_begin(b);
	b = sp->tail = buf_create(16 * 1024);
	pack16(b, RESV_STATE_VERSION);      /* version 4 */
	resv_mgr_pack_state(b);
	pack16(b, PART_STATE_VERSION);      /* version 5 */
	part_mgr_pack_state(b);
	pack16(b, TRIGGER_STATE_VERSION);   /* version 6 */
	trigger_pack_state(b);
	pack16(b, CRONTAB_STATE_VERSION);   /* version 7 */
	crontab_pack_state(b);
	return sp;
}

buf_t *state_save_pack_step(state_pack_t *sp, size_t max)
{
	buf_t *b = sp->b;

	if (!job_mgr_pack_some(sp->jobs, b, max))
		return NULL;
	if (job_mgr_count())
		last_per_job = (buf_len(b) + job_mgr_count() - 1) /
			       job_mgr_count();
	job_mgr_pack_end(sp->jobs, b);
	packbuf(b, sp->tail);
	buf_destroy(sp->tail);
	last_len = buf_len(b) + 4;
	xfree(sp);
	return b;
}

void state_save_pack_seal(buf_t *b)
{
	pack32(b, crc32c(0, buf_data(b), buf_len(b)));
}

void state_save_pack_abort(state_pack_t *sp)
{
	if (!sp)
		return;
	job_mgr_pack_end(sp->jobs, NULL);
	buf_destroy(sp->tail);
	buf_destroy(sp->b);
	xfree(sp);
}

buf_t *state_save_pack(uint64_t seq, uint64_t gen)
{
	buf_t *b = state_save_pack_step(state_save_pack_begin(seq, gen),
					SIZE_MAX);

	state_save_pack_seal(b);
	return b;
}

/* ---- journal records of what changed ---- */

static void _frame_buf(buf_t *b, uint16_t type, uint16_t version,
		       uint64_t *seq, const buf_t *p)
{
	journal_frame(b, type, version, ++*seq, buf_data(p), buf_len(p));
}

/* Node states: one record with all of them whenever they differ from
 * the last one journaled.  O(1) per commit while node_mgr_saved_gen()
 * stands still; Debug builds repack anyway and abort if a change slipped
 * past node_mgr_saved_touch() (the whole test suite checks that). */
static void _pack_nodes_change(buf_t *b, uint64_t *seq)
{
	uint64_t gen = node_mgr_saved_gen();
	buf_t *n;

	if (ss.nodes && gen == ss.nodes_gen) {
#ifndef NDEBUG
		n = buf_create(256);
		node_mgr_pack_state(n);
		if (buf_len(ss.nodes) != buf_len(n) ||
		    memcmp(buf_data(ss.nodes), buf_data(n), buf_len(n))) {
			error("BUG: saved node state changed without "
			      "node_mgr_saved_touch()");
			abort();
		}
		buf_destroy(n);
#endif
		return;
	}
	n = buf_create(256);
	node_mgr_pack_state(n);
	ss.nodes_gen = gen;
	if (ss.nodes && buf_len(ss.nodes) == buf_len(n) &&
	    !memcmp(buf_data(ss.nodes), buf_data(n), buf_len(n))) {
		buf_destroy(n);
		return;
	}
	if (b)
		_frame_buf(b, JREC_NODES, NODE_STATE_VERSION, seq, n);
	if (ss.nodes)
		buf_destroy(ss.nodes);
	ss.nodes = n;
}

void state_save_pack_changes(buf_t *b, uint64_t *seq)
{
	uint32_t next = job_mgr_next_id();

	/* scripts first: a job record in the journal has its files */
	for (size_t i = 0; i < ss.files_cnt; i++) {
		_frame_buf(b, JREC_JOB_FILES, 1, seq, ss.files[i]);
		buf_destroy(ss.files[i]);
	}
	ss.files_cnt = 0;
	job_files_kick();       /* their own files (and removals) now */
	if (node_dyn_take_dirty()) {    /* before the jobs that use them */
		buf_t *d = buf_create(256);

		node_dyn_pack_state(d);
		_frame_buf(b, JREC_DYN_NODES, DYN_NODE_STATE_VERSION, seq, d);
		buf_destroy(d);
	}
	job_mgr_pack_changes(b, seq);
	_pack_nodes_change(b, seq);
	if (resv_mgr_take_dirty()) {
		buf_t *r = buf_create(1024);

		resv_mgr_pack_state(r);
		_frame_buf(b, JREC_RESV, RESV_STATE_VERSION, seq, r);
		buf_destroy(r);
	}
	if (part_mgr_take_dirty()) {
		buf_t *r = buf_create(256);

		part_mgr_pack_state(r);
		_frame_buf(b, JREC_PARTS, PART_STATE_VERSION, seq, r);
		buf_destroy(r);
	}
	if (trigger_take_dirty()) {
		buf_t *t = buf_create(256);

		trigger_pack_state(t);
		_frame_buf(b, JREC_TRIGGERS, TRIGGER_STATE_VERSION, seq, t);
		buf_destroy(t);
	}
	if (crontab_take_dirty()) {
		buf_t *t = buf_create(256);

		crontab_pack_state(t);
		_frame_buf(b, JREC_CRONTAB, CRONTAB_STATE_VERSION, seq, t);
		buf_destroy(t);
	}
	if (next != ss.next_id) {
		uint8_t v[4] = { next >> 24, next >> 16, next >> 8, next };

		journal_frame(b, JREC_NEXT_ID, 1, ++*seq, v, sizeof(v));
		ss.next_id = next;
	}
}

void state_save_changes_reset(void)
{
	for (size_t i = 0; i < ss.files_cnt; i++)
		buf_destroy(ss.files[i]);
	ss.files_cnt = 0;
	job_mgr_changes_reset();
	_pack_nodes_change(NULL, NULL);
	resv_mgr_take_dirty();
	part_mgr_take_dirty();
	trigger_take_dirty();
	crontab_take_dirty();
	ss.next_id = job_mgr_next_id();
}

void state_save_fini(void)
{
	state_save_changes_reset();
	xfree(ss.files);
	ss.files_cap = 0;
	if (ss.nodes)
		buf_destroy(ss.nodes);
	ss.nodes = NULL;
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

	/* the job files the journal being let go holds are on disk */
	if (job_files_flush() < 0) {
		errno = EIO;
		goto out;
	}
	if (dfd >= 0 && syncfs(dfd) < 0)
		goto out;
	if (_write_file(tmp, buf_data(b), buf_len(b), true, 0600) < 0)
		goto out;
	if (rename(tmp, path) < 0)
		goto out;
	_fsync_dir(dir);
	rc = 0;
out:
	if (dfd >= 0)
		close(dfd);
	if (rc < 0)
		error_errno("state save to %s", path);
	xfree(tmp);
	xfree(path);
	return rc;
}

int state_save_unpack_header(buf_t *b, uint64_t *seq, uint64_t *gen,
			     char *err, size_t errlen)
{
	char *magic = NULL, *cluster = NULL;
	uint16_t ver;
	time_t saved;
	uint32_t next_id, crc;
	int rc = -1;

	*seq = *gen = 0;
	if (unpackstr(b, &magic) < 0 || xstrcmp(magic, STATE_MAGIC)) {
		snprintf(err, errlen, "state file has no valid header");
		goto out;
	}
	if (unpack16(b, &ver) < 0) {
		snprintf(err, errlen, "state file header truncated");
		goto out;
	}
	if (ver < STATE_SAVE_OLDEST) {
		snprintf(err, errlen, "state file version %u is older than "
			 "the oldest this slurmctld reads (%u to %u): "
			 "StateSaveLocation was written by a release too old "
			 "to upgrade from directly and is left untouched: run "
			 "an intermediate release on it first", ver,
			 STATE_SAVE_OLDEST, STATE_SAVE_VERSION);
		goto out;
	}
	if (ver > STATE_SAVE_VERSION) {
		snprintf(err, errlen, "state file version %u is newer than "
			 "this slurmctld's %u: StateSaveLocation was written "
			 "by a newer slurmctld and is left untouched: run that "
			 "slurmctld (or a release that reads it)", ver,
			 STATE_SAVE_VERSION);
		goto out;
	}
	if (ver >= 2) {
		size_t len = buf_len(b);
		const uint8_t *d = buf_data(b);

		crc = len >= 4 ? (uint32_t) d[len - 4] << 24 |
			(uint32_t) d[len - 3] << 16 |
			(uint32_t) d[len - 2] << 8 | d[len - 1] : 0;
		if (len < 4 || crc32c(0, d, len - 4) != crc) {
			snprintf(err, errlen, "state file fails its checksum");
			goto out;
		}
	}
	if (unpack_time(b, &saved) < 0 || unpackstr(b, &cluster) < 0 ||
	    (ver >= 2 && (unpack64(b, seq) < 0 || unpack64(b, gen) < 0)) ||
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
	rc = ver;
out:
	xfree(magic);
	xfree(cluster);
	return rc;
}

void state_save_queue_job_files(buf_t *payload)
{
	if (ss.files_cnt == ss.files_cap) {
		size_t ncap = ss.files_cap ? ss.files_cap * 2 : 64;

		ss.files = xrealloc_sz(ss.files, ss.files_cap * sizeof(buf_t *),
				       ncap * sizeof(buf_t *));
		ss.files_cap = ncap;
	}
	ss.files[ss.files_cnt++] = payload;
}
