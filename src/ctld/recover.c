/* recover.c — snapshot load and journal replay at start (recover.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/controller.h"
#include "ctld/job_files.h"
#include "ctld/job_mgr.h"
#include "ctld/job_rec.h"
#include "ctld/journal.h"
#include "ctld/node_dyn.h"
#include "ctld/node_mgr.h"
#include "ctld/part_mgr.h"
#include "ctld/recover.h"
#include "ctld/resv_mgr.h"
#include "ctld/state_save.h"
#include "ctld/crontab.h"
#include "ctld/trigger.h"

#define STATE_FILE "ctld_state"

typedef struct {
	const char   *dir;
	/* The snapshot's jobs, in its order (an array: following a hash's
	 * chains through a million records waits on memory at each), and
	 * (job id << 32 | index) sorted, for the journal's records. */
	job_record_t **snap;
	uint64_t     *snap_ids;
	size_t        snap_cnt;
	job_record_t *jobs;      /* the journal's, by id (hh) */
	buf_t        *nodes;     /* last JREC_NODES payload */
	uint16_t      nodes_ver; /* its format */
	uint32_t      next_id;   /* last JREC_NEXT_ID, 0 = none */
	uint64_t      last;      /* last sequence number applied */
	uint32_t      applied;
	char         *path;      /* the journal file being read */
	uint32_t      lost_id;   /* highest job id of records not replayed */
	uint32_t      lost_next; /* highest JREC_NEXT_ID not replayed */
	bool          newer;     /* a record only a newer slurmctld writes */
	char          newer_why[320];
} replay_t;

/* _replay_file: a record of a newer slurmctld (rollback): the whole
 * StateSaveLocation is refused and left as it is, never cut as damage. */
#define REPLAY_NEWER 2

static int _u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

	return x < y ? -1 : x > y;
}

/* Index the snapshot's jobs by id.  The first duplicate id, or 0. */
static uint32_t _snap_index(replay_t *rp)
{
	size_t k;

	rp->snap_ids = xcalloc(rp->snap_cnt + 1, sizeof(*rp->snap_ids));
	for (k = 0; k < rp->snap_cnt; k++)
		rp->snap_ids[k] = (uint64_t) rp->snap[k]->info.job_id << 32 | k;
	qsort(rp->snap_ids, rp->snap_cnt, sizeof(*rp->snap_ids), _u64_cmp);
	for (k = 1; k < rp->snap_cnt; k++)
		if (rp->snap_ids[k] >> 32 == rp->snap_ids[k - 1] >> 32)
			return (uint32_t) (rp->snap_ids[k] >> 32);
	return 0;
}

/* Take the snapshot's record of job id out (the journal replaces or
 * purges it): freed. */
static void _snap_drop(replay_t *rp, uint32_t id)
{
	size_t lo = 0, hi = rp->snap_cnt;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t mid_id = (uint32_t) (rp->snap_ids[mid] >> 32);

		if (mid_id < id) {
			lo = mid + 1;
		} else if (mid_id > id) {
			hi = mid;
		} else {
			uint32_t idx = (uint32_t) rp->snap_ids[mid];

			if (rp->snap[idx])      /* not already replaced */
				job_mgr_free_job(rp->snap[idx]);
			rp->snap[idx] = NULL;
			return;
		}
	}
}

static void _put_job(replay_t *rp, job_record_t *j)
{
	job_record_t *old = NULL;

	_snap_drop(rp, j->info.job_id);
	HASH_FIND(hh, rp->jobs, &j->info.job_id, sizeof(uint32_t), old);
	if (old) {
		HASH_DEL(rp->jobs, old);
		job_mgr_free_job(old);
	}
	HASH_ADD(hh, rp->jobs, info.job_id, sizeof(uint32_t), j);
}

static void _drop_jobs(replay_t *rp)
{
	job_record_t *j, *tmp;

	for (size_t k = 0; k < rp->snap_cnt; k++)
		if (rp->snap[k])
			job_mgr_free_job(rp->snap[k]);
	xfree(rp->snap);
	xfree(rp->snap_ids);
	rp->snap_cnt = 0;
	HASH_ITER(hh, rp->jobs, j, tmp) {
		HASH_DEL(rp->jobs, j);
		job_mgr_free_job(j);
	}
}

/* 0, 1 if there is no snapshot, -1 (err). */
static int _load_snapshot(replay_t *rp, uint64_t *gen, char *err,
			  size_t errlen)
{
	char *path = xstrdup_printf("%s/%s", rp->dir, STATE_FILE);
	size_t len = 0;
	char *data = state_save_read_file(path, &len);
	buf_t *b = NULL;
	uint32_t cnt, k, dup;
	uint16_t rec_ver;
	int rc = -1, ver;

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
	ver = state_save_unpack_header(b, &rp->last, gen, err, errlen);
	if (ver < 0)
		goto out;
	rec_ver = ver >= 3 ? 2 : 1;     /* node and job record formats */
	if (ver >= STATE_SAVE_DYN_NODES) {
		uint16_t dv;

		if (unpack16(b, &dv) < 0 || node_dyn_unpack_state(b, dv) < 0)
			goto corrupt;
	}
	if (node_mgr_unpack_state(b, false, rec_ver) < 0 ||
	    unpack32(b, &cnt) < 0 ||
	    cnt > 64u * 1024 * 1024)
		goto corrupt;
	/* cnt is checked against what is left: a record is >= 4 bytes */
	if (cnt > buf_remaining(b) / 4)
		goto corrupt;
	rp->snap = xcalloc(cnt + 1, sizeof(*rp->snap));
	for (k = 0; k < cnt; k++) {
		job_record_t *j = job_rec_unpack(b, rec_ver);

		if (!j)
			goto corrupt;
		rp->snap[rp->snap_cnt++] = j;
	}
	dup = _snap_index(rp);
	if (dup) {
		error("Duplicate JobId=%u in the state file", dup);
		goto corrupt;
	}
	if (ver >= 4) {
		uint16_t rv;

		if (unpack16(b, &rv) < 0 || resv_mgr_unpack_state(b, rv) < 0)
			goto corrupt;
	}
	if (ver >= 5) {
		uint16_t pv;

		if (unpack16(b, &pv) < 0 || part_mgr_unpack_state(b, pv) < 0)
			goto corrupt;
	}
	if (ver >= 6) {
		uint16_t tv;

		if (unpack16(b, &tv) < 0 || trigger_unpack_state(b, tv) < 0)
			goto corrupt;
	}
	if (ver >= STATE_SAVE_CRONTAB) {
		uint16_t cv;

		if (unpack16(b, &cv) < 0 || crontab_unpack_state(b, cv) < 0)
			goto corrupt;
	}
	info("Recovered state of %u jobs from %s (format version %d, journal "
	     "seq %llu)", cnt, path, ver, (unsigned long long) rp->last);
	rc = 0;
	goto out;
corrupt:
	snprintf(err, errlen, "Incomplete or corrupt state file %s", path);
	_drop_jobs(rp);
out:
	if (b)
		buf_destroy(b);
	xfree(data);
	xfree(path);
	return rc;
}

static uint32_t _u32(const uint8_t *p)
{
	return (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16 |
	       (uint32_t) p[2] << 8 | p[3];
}

/* A record only a newer slurmctld writes: a type or a record version we
 * do not know.  Then why says so. */
static bool _newer(const journal_rec_t *r, char *why, size_t whylen)
{
	if (r->type >= JREC_TYPE_END || !r->type) {
		snprintf(why, whylen, "record seq %llu has unknown type %u "
			 "(written by a newer slurmctld?)",
			 (unsigned long long) r->seq, r->type);
		return true;
	}
	if (r->version > (r->type == JREC_JOB ? JOB_REC_VERSION :
			  r->type == JREC_NODES ? NODE_STATE_VERSION : 1)) {
		snprintf(why, whylen, "record seq %llu (type %u) has format "
			 "version %u (written by a newer slurmctld?)",
			 (unsigned long long) r->seq, r->type, r->version);
		return true;
	}
	return false;
}

/* Before anything is replayed (replaying writes job files): a record of
 * a newer slurmctld in any journal refuses the whole StateSaveLocation.
 * Only intact records count; damage is the replay's business. */
static bool _any_newer(const char *dir, char *err, size_t errlen)
{
	uint64_t *gens = NULL;
	size_t cnt = 0;
	bool found = false;

	journal_list(dir, &gens, &cnt);
	for (size_t i = 0; i < cnt && !found; i++) {
		char *path = journal_path(dir, gens[i]), why[256];
		size_t len = 0, off = JOURNAL_HDR_LEN;
		char *data = state_save_read_file(path, &len);
		uint64_t hgen = gens[i];
		journal_rec_t r;

		if (data && journal_check_header((uint8_t *) data, len, &hgen,
						 why, sizeof(why)) == 0) {
			while (journal_next((uint8_t *) data, len, &off, &r,
					    why, sizeof(why)) == JOURNAL_REC) {
				if (!_newer(&r, why, sizeof(why)))
					continue;
				snprintf(err, errlen, "journal %s: %s: "
					 "StateSaveLocation %s was written by "
					 "a newer slurmctld and is left "
					 "untouched: run that slurmctld (or a "
					 "release that reads it)", path, why,
					 dir);
				found = true;
				break;
			}
		}
		xfree(data);
		xfree(path);
	}
	xfree(gens);
	return found;
}

/* Apply one record to what is gathered.  0, or -1 with why. */
/* A record holding a whole table (reservations, run-time partitions,
 * triggers): its unpacker takes it all or refuses. */
static int _apply_table(const journal_rec_t *r, int (*unpack)(buf_t *, uint16_t),
			const char *what, char *why, size_t whylen)
{
	buf_t *b = buf_view(r->data, r->len);
	int rc = unpack(b, r->version) < 0 || buf_remaining(b) ? -1 : 0;

	buf_destroy(b);
	if (rc)
		snprintf(why, whylen, "%s record seq %llu malformed", what,
			 (unsigned long long) r->seq);
	return rc;
}

static int _apply(replay_t *rp, const journal_rec_t *r, char *why,
		  size_t whylen)
{
	job_record_t *j = NULL;
	buf_t *b;
	uint32_t id;

	if (_newer(r, why, whylen)) {
		rp->newer = true;
		return -1;
	}
	switch (r->type) {
	case JREC_JOB:
		b = buf_view(r->data, r->len);
		j = job_rec_unpack(b, r->version);
		if (j && buf_remaining(b)) {
			job_mgr_free_job(j);
			j = NULL;
		}
		buf_destroy(b);
		if (!j) {
			snprintf(why, whylen, "job record seq %llu malformed",
				 (unsigned long long) r->seq);
			return -1;
		}
		_put_job(rp, j);
		return 0;
	case JREC_PURGE:
		if (r->len != 4)
			break;
		id = _u32(r->data);
		_snap_drop(rp, id);
		HASH_FIND(hh, rp->jobs, &id, sizeof(uint32_t), j);
		if (j) {
			HASH_DEL(rp->jobs, j);
			job_mgr_free_job(j);
		}
		return 0;
	case JREC_NODES:
		if (rp->nodes)
			buf_destroy(rp->nodes);
		rp->nodes = buf_from_copy(r->data, r->len);
		rp->nodes_ver = r->version;
		return 0;
	case JREC_NEXT_ID:
		if (r->len != 4)
			break;
		rp->next_id = _u32(r->data);
		return 0;
	case JREC_RESV:
		return _apply_table(r, resv_mgr_unpack_state, "reservation", why, whylen);
	case JREC_PARTS:
		return _apply_table(r, part_mgr_unpack_state, "partition", why, whylen);
	case JREC_TRIGGERS:
		return _apply_table(r, trigger_unpack_state, "trigger", why, whylen);
	case JREC_CRONTAB:
		return _apply_table(r, crontab_unpack_state, "crontab",
				    why, whylen);
	case JREC_DYN_NODES:
		return _apply_table(r, node_dyn_unpack_state, "dynamic node",
				    why, whylen);
	case JREC_JOB_FILES:
		if (job_files_replay(r->data, r->len) < 0)
			error("Journal %s: job files record seq %llu not "
			      "restored", rp->path, (unsigned long long) r->seq);
		return 0;
	default:
		snprintf(why, whylen, "record seq %llu has unknown type %u "
			 "(written by a newer slurmctld?)",
			 (unsigned long long) r->seq, r->type);
		rp->newer = true;
		return -1;
	}
	snprintf(why, whylen, "record seq %llu (type %u) has length %u",
		 (unsigned long long) r->seq, r->type, r->len);
	return -1;
}

/* An intact record that is not replayed (after damage): the job ids it
 * names must not be given to new jobs (they may have been acknowledged). */
static void _note_lost(const journal_rec_t *r, void *arg)
{
	replay_t *rp = arg;
	uint32_t id = 0;

	switch (r->type) {
	case JREC_JOB:
		id = job_rec_id(r->data, r->len, r->version);
		break;
	case JREC_PURGE:
	case JREC_JOB_FILES:
		if (r->len >= 4)
			id = _u32(r->data);
		break;
	case JREC_NEXT_ID:
		if (r->len == 4 && _u32(r->data) > rp->lost_next)
			rp->lost_next = _u32(r->data);
		break;
	default:
		break;
	}
	if (id > rp->lost_id)
		rp->lost_id = id;
}

/* A whole journal file that follows the damage. */
static void _note_lost_file(replay_t *rp, const char *path)
{
	size_t len = 0;
	char *data = state_save_read_file(path, &len);

	if (data)
		journal_each_after((uint8_t *) data, len, JOURNAL_HDR_LEN,
				   _note_lost, rp);
	xfree(data);
}

static void _log_damage(replay_t *rp, const uint8_t *data, size_t len,
			size_t off, int what, const char *why)
{
	uint64_t first, last;
	size_t after;

	if (what == JOURNAL_TORN) {
		error("Journal %s: torn last record at offset %zu (%s): cut "
		      "%zu bytes; %u records before it kept (up to seq %llu)",
		      rp->path, off, why, len - off, rp->applied,
		      (unsigned long long) rp->last);
		return;
	}
	after = journal_count_after(data, len, off, &first, &last);
	journal_each_after(data, len, off, _note_lost, rp);
	error("Journal %s: damaged record at offset %zu (%s): replay stops "
	      "there; kept %u records up to seq %llu, cut %zu bytes holding "
	      "%zu intact records%s", rp->path, off, why, rp->applied,
	      (unsigned long long) rp->last, len - off, after,
	      after ? "" : " (none)");
	if (after)
		error("Journal %s: records seq %llu to %llu after the damage "
		      "are not replayed", rp->path, (unsigned long long) first,
		      (unsigned long long) last);
}

/* Replay one file.  0 to go on with the next; JOURNAL_TORN (cut at a
 * torn end) or JOURNAL_DAMAGED to stop. */
static int _replay_file(replay_t *rp, uint64_t gen)
{
	size_t len = 0, off = JOURNAL_HDR_LEN, at;
	char *data, why[256];
	uint64_t hgen;
	journal_rec_t r;
	int rc = JOURNAL_DAMAGED, what;

	rp->path = journal_path(rp->dir, gen);
	data = state_save_read_file(rp->path, &len);
	if (!data) {
		error_errno("Unable to read journal %s", rp->path);
		goto out;
	}
	why[0] = '\0';
	hgen = gen;
	if (journal_check_header((uint8_t *) data, len, &hgen, why,
				 sizeof(why)) < 0 || hgen != gen) {
		if (hgen != gen && !why[0])
			snprintf(why, sizeof(why), "header says generation %llu",
				 (unsigned long long) hgen);
		error("Journal %s: %s: cut %zu bytes, nothing replayed from it",
		      rp->path, why, len);
		goto out;
	}
	for (;;) {
		at = off;
		why[0] = '\0';
		what = journal_next((uint8_t *) data, len, &off, &r, why,
				    sizeof(why));
		if (what == JOURNAL_END) {
			rc = 0;
			break;
		}
		if (what != JOURNAL_REC) {
			_log_damage(rp, (uint8_t *) data, len, at, what, why);
			rc = what;
			break;
		}
		if (r.seq <= rp->last)
			continue;           /* already in the snapshot */
		if (r.seq != rp->last + 1) {
			snprintf(why, sizeof(why), "record seq %llu follows seq "
				 "%llu", (unsigned long long) r.seq,
				 (unsigned long long) rp->last);
			_log_damage(rp, (uint8_t *) data, len, at,
				    JOURNAL_DAMAGED, why);
			break;
		}
		if (_apply(rp, &r, why, sizeof(why)) < 0) {
			if (rp->newer) {
				snprintf(rp->newer_why, sizeof(rp->newer_why),
					 "journal %s: %s", rp->path, why);
				rc = REPLAY_NEWER;
				break;
			}
			_log_damage(rp, (uint8_t *) data, len, at,
				    JOURNAL_DAMAGED, why);
			break;
		}
		rp->last = r.seq;
		rp->applied++;
	}
out:
	xfree(data);
	xfree(rp->path);
	return rc;
}

/* Job ids named by records after the damage may have been given to jobs
 * a client was told about: the next job id goes past them. */
static void _skip_lost_ids(const replay_t *rp)
{
	uint32_t want = rp->lost_next, max = ctld_conf()->max_job_id;

	if (rp->lost_id && rp->lost_id + 1 > want)
		want = rp->lost_id + 1;
	if (want <= job_mgr_next_id() || (max && want > max))
		return;
	error("Journal: the records not replayed name JobIds up to %u: the "
	      "next JobId is %u, not %u", want - 1, want, job_mgr_next_id());
	job_mgr_set_next_id(want);
}

/* Job scripts and environments without a job record (lost to damage, or
 * written by a submit that crashed before its record was): removed. */
static void _remove_orphan_files(const char *dir)
{
	for (int h = 0; h < 10; h++) {
		char *hd = xstrdup_printf("%s/hash.%d", dir, h);
		DIR *d = opendir(hd);
		struct dirent *e;

		while (d && (e = readdir(d))) {
			uint32_t id = job_files_entry_id(e->d_name);

			if (!id || job_mgr_find(id))
				continue;
			info("Removing the script and environment of JobId=%u "
			     "(%s/%s): no such job", id, hd, e->d_name);
			job_files_remove(dir, id);
		}
		if (d)
			closedir(d);
		xfree(hd);
	}
}

/* The purge list's order (end time, then job id), copied out of the
 * records once: qsort reads its keys twenty times a record. */
typedef struct {
	time_t        end;
	uint32_t      job_id;
	job_record_t *j;
} end_key_t;

static int _end_cmp(const void *a, const void *b)
{
	const end_key_t *x = a, *y = b;

	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->job_id < y->job_id ? -1 : x->job_id > y->job_id;
}

/* Into the tables: nodes first (a job on a DOWN node ends), then the
 * jobs in end time order (the purge list is kept in that order).  The
 * snapshot's jobs are taken from their array, in the order read (that of
 * the records in memory); the journal's hash is dropped whole: deleting
 * record by record touches two neighbours each. */
static void _install(replay_t *rp)
{
	size_t n = rp->snap_cnt + HASH_COUNT(rp->jobs), k = 0;
	end_key_t *all = xcalloc(n + 1, sizeof(*all));
	job_record_t *j, *tmp;

	if (rp->nodes &&
	    node_mgr_unpack_state(rp->nodes, true, rp->nodes_ver) < 0)
		error("Journal: node states record malformed, ignored");
	if (rp->next_id)
		job_mgr_set_next_id(rp->next_id);
	_skip_lost_ids(rp);
	for (size_t i = 0; i < rp->snap_cnt; i++) {
		if (!(j = rp->snap[i]))
			continue;       /* replaced or purged by the journal */
		all[k].end = j->info.end_time;
		all[k].job_id = j->info.job_id;
		all[k++].j = j;
	}
	xfree(rp->snap);
	xfree(rp->snap_ids);
	rp->snap_cnt = 0;
	HASH_ITER(hh, rp->jobs, j, tmp) {
		all[k].end = j->info.end_time;
		all[k].job_id = j->info.job_id;
		all[k++].j = j;
	}
	HASH_CLEAR(hh, rp->jobs);
	qsort(all, k, sizeof(*all), _end_cmp);
	job_mgr_reserve((uint32_t) k);
	job_mgr_pending_bulk(true);
	for (size_t i = 0; i < k; i++)
		job_mgr_attach(all[i].j);
	job_mgr_pending_bulk(false);
	xfree(all);
	job_mgr_restore_priorities();
}

int recover_state(const char *dir, recover_t *r, char *err, size_t errlen)
{
	replay_t rp = { .dir = dir };
	uint64_t snap_gen = 0, *gens = NULL, first;
	size_t cnt = 0, i;
	int snap;

	memset(r, 0, sizeof(*r));
	if (_any_newer(dir, err, errlen))
		return -1;
	snap = _load_snapshot(&rp, &snap_gen, err, errlen);
	if (snap < 0)
		return -1;
	first = rp.last;
	journal_list(dir, &gens, &cnt);
	for (i = 0; i < cnt; i++) {
		int what;

		if (gens[i] < snap_gen)
			continue;        /* left over: all in the snapshot */
		what = _replay_file(&rp, gens[i]);
		if (what == REPLAY_NEWER) {
			snprintf(err, errlen, "%s: StateSaveLocation %s was "
				 "written by a newer slurmctld and is left "
				 "untouched: run that slurmctld (or a release "
				 "that reads it)", rp.newer_why, dir);
			xfree(gens);
			_drop_jobs(&rp);
			if (rp.nodes)
				buf_destroy(rp.nodes);
			return -1;
		}
		if (what == JOURNAL_DAMAGED ||
		    (what == JOURNAL_TORN && i + 1 < cnt))
			r->damaged_gen = gens[i];
		if (what) {
			for (i++; i < cnt; i++) {
				char *p = journal_path(dir, gens[i]);

				error("Journal %s not replayed (it follows the "
				      "damage)", p);
				_note_lost_file(&rp, p);
				xfree(p);
			}
			break;
		}
	}
	if (rp.applied)
		info("Replayed %u journal records (seq %llu to %llu)",
		     rp.applied, (unsigned long long) first + 1,
		     (unsigned long long) rp.last);
	r->seq = rp.last;
	r->replayed = rp.applied;
	r->next_gen = snap_gen ? snap_gen : 1;
	if (cnt && gens[cnt - 1] + 1 > r->next_gen)
		r->next_gen = gens[cnt - 1] + 1;
	xfree(gens);
	_install(&rp);
	_remove_orphan_files(dir);
	if (rp.nodes)
		buf_destroy(rp.nodes);
	if (snap == 1 && !rp.applied)
		return 1;
	info("Recovered state of %u jobs", job_mgr_count());
	return 0;
}

uint64_t recover_next_gen(const char *dir)
{
	uint64_t *gens = NULL, next = 1;
	size_t cnt = 0;

	if (journal_list(dir, &gens, &cnt) == 0 && cnt)
		next = gens[cnt - 1] + 1;
	xfree(gens);
	return next;
}

void recover_keep_damaged(const char *dir, uint64_t from_gen,
			  uint64_t before_gen)
{
	uint64_t *gens = NULL;
	size_t cnt = 0;

	if (!from_gen || journal_list(dir, &gens, &cnt) < 0)
		return;
	for (size_t i = 0; i < cnt; i++) {
		char *p, *q;

		if (gens[i] < from_gen || gens[i] >= before_gen)
			continue;
		p = journal_path(dir, gens[i]);
		q = xstrdup_printf("%s.damaged", p);
		if (rename(p, q) < 0)
			error_errno("Unable to rename %s", p);
		else
			info("Damaged journal kept as %s", q);
		xfree(p);
		xfree(q);
	}
	xfree(gens);
}
