/* job_seg.c — job files in append-only segments (job_seg.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#include <uthash.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/job_seg.h"

#define SEG_MAGIC   0x4a46494cu          /* "JFIL" */
#define SEG_HDR     12                   /* magic, job id, length */
#define SEG_PREFIX  "job_files."
#define SEG_ROLL    (16u * 1024 * 1024)  /* a new segment after this */
#define SEG_MAX_REC (64u * 1024 * 1024)  /* a record longer is damage */
#define SEG_COMPACT (1024u * 1024)       /* compact when over this and */
					 /* under a quarter live */

typedef struct seg {
	uint32_t        n;
	uint64_t        size;      /* bytes of whole records */
	uint64_t        live;      /* of them, in the index */
	UT_hash_handle  hh;
} seg_t;

typedef struct {
	uint32_t        id;
	uint32_t        seg;
	uint64_t        off;       /* of the record's bytes */
	uint32_t        len;
	UT_hash_handle  hh;
} loc_t;

static struct {
	pthread_mutex_t  mu;       /* index and segs (readers vs writer) */
	loc_t           *index;
	seg_t           *segs;
	char            *dir;
	int              fd;       /* the writer's current segment, or -1 */
	uint32_t         cur;      /* its number; the next is cur + 1 */
} sg = { .mu = PTHREAD_MUTEX_INITIALIZER, .fd = -1 };

static char *_seg_path(uint32_t n)
{
	return xstrdup_printf("%s/%s%u", sg.dir, SEG_PREFIX, n);
}

static uint32_t _seg_u32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void _seg_put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

/* Under sg.mu. */
static seg_t *_seg_get(uint32_t n, bool add)
{
	seg_t *s;

	HASH_FIND(hh, sg.segs, &n, sizeof(n), s);
	if (!s && add) {
		s = xmalloc(sizeof(*s));
		s->n = n;
		HASH_ADD(hh, sg.segs, n, sizeof(n), s);
	}
	return s;
}

/* Under sg.mu: id's record is at (n, off, len) now. */
static void _seg_index(uint32_t id, uint32_t n, uint64_t off, uint32_t len)
{
	loc_t *l;
	seg_t *s;

	HASH_FIND(hh, sg.index, &id, sizeof(id), l);
	if (l) {
		if ((s = _seg_get(l->seg, false)))
			s->live -= l->len + SEG_HDR;
	} else {
		l = xmalloc(sizeof(*l));
		l->id = id;
		HASH_ADD(hh, sg.index, id, sizeof(id), l);
	}
	l->seg = n;
	l->off = off;
	l->len = len;
	_seg_get(n, true)->live += len + SEG_HDR;
}

static void _seg_unlink(seg_t *s)
{
	char *p = _seg_path(s->n);

	if (unlink(p) < 0 && errno != ENOENT)
		error_errno("Unable to remove %s", p);
	xfree(p);
	HASH_DEL(sg.segs, s);
	xfree(s);
}

/* ---- opening: what is there ---- */

/* Index segment n's records that live() keeps; its size is where the
 * last whole record ends. */
static void _seg_scan(uint32_t n, job_seg_live_f live, void *arg)
{
	char *p = _seg_path(n);
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	uint64_t off = 0, end = 0;
	struct stat st;
	uint8_t h[SEG_HDR];
	seg_t *s;

	pthread_mutex_lock(&sg.mu);
	s = _seg_get(n, true);
	pthread_mutex_unlock(&sg.mu);
	if (fd >= 0 && fstat(fd, &st) == 0)
		end = (uint64_t)st.st_size;
	while (fd >= 0 && off < end && pread(fd, h, sizeof(h), (off_t)off) ==
	       (ssize_t)sizeof(h)) {
		uint32_t id = _seg_u32(h + 4), len = _seg_u32(h + 8);

		if (_seg_u32(h) != SEG_MAGIC || len > SEG_MAX_REC ||
		    off + SEG_HDR + len > end) {
			info("%s: records end at byte %llu (a write cut "
			     "short)", p, (unsigned long long)off);
			break;
		}
		pthread_mutex_lock(&sg.mu);
		if (live(id, arg))
			_seg_index(id, n, off + SEG_HDR, len);
		pthread_mutex_unlock(&sg.mu);
		off += SEG_HDR + len;
	}
	if (fd >= 0)
		close(fd);
	s->size = off;
	xfree(p);
}

int job_seg_open(const char *dir, job_seg_live_f live, void *arg)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	seg_t *s, *tmp;

	xfree(sg.dir);
	sg.dir = xstrdup(dir);
	sg.fd = -1;
	sg.cur = 0;
	if (!d) {
		error_errno("Unable to read %s", dir);
		return -1;
	}
	while ((e = readdir(d))) {
		char *end;
		unsigned long n;

		if (strncmp(e->d_name, SEG_PREFIX, strlen(SEG_PREFIX)))
			continue;
		errno = 0;
		n = strtoul(e->d_name + strlen(SEG_PREFIX), &end, 10);
		if (errno || *end || !n || n >= UINT32_MAX)
			continue;
		_seg_scan((uint32_t)n, live, arg);
		if (n > sg.cur)
			sg.cur = (uint32_t)n;
	}
	closedir(d);
	pthread_mutex_lock(&sg.mu);
	HASH_ITER(hh, sg.segs, s, tmp)
		if (!s->live)
			_seg_unlink(s);
	pthread_mutex_unlock(&sg.mu);
	return 0;
}

void job_seg_close(void)
{
	loc_t *l, *lt;
	seg_t *s, *st;

	if (sg.fd >= 0)
		close(sg.fd);
	sg.fd = -1;
	pthread_mutex_lock(&sg.mu);
	HASH_ITER(hh, sg.index, l, lt) {
		HASH_DEL(sg.index, l);
		xfree(l);
	}
	HASH_ITER(hh, sg.segs, s, st) {
		HASH_DEL(sg.segs, s);
		xfree(s);
	}
	pthread_mutex_unlock(&sg.mu);
	xfree(sg.dir);
}

/* ---- the writer ---- */

static int _seg_roll(void)
{
	uint32_t n = sg.cur + 1;
	char *p = _seg_path(n);

	if (sg.fd >= 0)
		close(sg.fd);
	sg.fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC,
		     0600);
	if (sg.fd < 0) {
		error_errno("Unable to create %s", p);
		xfree(p);
		return -1;
	}
	xfree(p);
	sg.cur = n;
	pthread_mutex_lock(&sg.mu);
	_seg_get(n, true);
	pthread_mutex_unlock(&sg.mu);
	return 0;
}

/* Append one record to the current segment; its offset in *off. */
static int _seg_write(uint32_t id, const uint8_t *data, size_t len,
		      uint64_t *off)
{
	uint8_t h[SEG_HDR];
	struct iovec iov[2] = { { h, SEG_HDR }, { (void *)data, len } };
	seg_t *s;
	ssize_t w;

	pthread_mutex_lock(&sg.mu);
	s = sg.fd >= 0 ? _seg_get(sg.cur, false) : NULL;
	pthread_mutex_unlock(&sg.mu);
	if ((!s || s->size >= SEG_ROLL) && _seg_roll() < 0)
		return -1;
	pthread_mutex_lock(&sg.mu);
	s = _seg_get(sg.cur, true);
	pthread_mutex_unlock(&sg.mu);
	_seg_put32(h, SEG_MAGIC);
	_seg_put32(h + 4, id);
	_seg_put32(h + 8, (uint32_t)len);
	do
		w = writev(sg.fd, iov, 2);
	while (w < 0 && errno == EINTR);
	if (w != (ssize_t)(len + SEG_HDR)) {
		int err = w < 0 ? errno : EIO;

		/* whatever was written ends this segment's records */
		close(sg.fd);
		sg.fd = -1;
		errno = err;
		return -1;
	}
	*off = s->size + SEG_HDR;
	pthread_mutex_lock(&sg.mu);
	s->size += len + SEG_HDR;
	pthread_mutex_unlock(&sg.mu);
	return 0;
}

int job_seg_append(uint32_t id, const uint8_t *data, size_t len)
{
	uint64_t off;

	if (len > SEG_MAX_REC) {
		errno = EFBIG;
		return -1;
	}
	if (_seg_write(id, data, len, &off) < 0)
		return -1;
	pthread_mutex_lock(&sg.mu);
	_seg_index(id, sg.cur, off, (uint32_t)len);
	pthread_mutex_unlock(&sg.mu);
	return 0;
}

/* Copy segment s's live records to the current segment, sync it, and
 * unlink s.  Under no lock; s is not the current segment. */
static void _seg_compact(uint32_t n)
{
	char *p = _seg_path(n);
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	loc_t *l, *lt;
	bool ok = fd >= 0;
	seg_t *s;

	pthread_mutex_lock(&sg.mu);
	HASH_ITER(hh, sg.index, l, lt) {
		uint8_t *buf;
		uint64_t off;
		uint32_t id = l->id, len = l->len;

		if (!ok || l->seg != n)
			continue;
		buf = xmalloc(len);
		ok = pread(fd, buf, len, (off_t)l->off) == (ssize_t)len;
		pthread_mutex_unlock(&sg.mu);
		ok = ok && _seg_write(id, buf, len, &off) == 0;
		pthread_mutex_lock(&sg.mu);
		if (ok)
			_seg_index(id, sg.cur, off, len);
		xfree(buf);
	}
	pthread_mutex_unlock(&sg.mu);
	if (fd >= 0)
		close(fd);
	/* the copies are on disk before the original goes */
	if (ok && sg.fd >= 0 && fdatasync(sg.fd) < 0)
		ok = false;
	pthread_mutex_lock(&sg.mu);
	if (ok && (s = _seg_get(n, false)) && !s->live)
		_seg_unlink(s);
	else if (!ok)
		error_errno("Unable to compact %s (kept)", p);
	pthread_mutex_unlock(&sg.mu);
	xfree(p);
}

bool job_seg_remove(uint32_t id)
{
	uint32_t compact = 0;
	loc_t *l;
	seg_t *s;

	pthread_mutex_lock(&sg.mu);
	HASH_FIND(hh, sg.index, &id, sizeof(id), l);
	if (!l) {
		pthread_mutex_unlock(&sg.mu);
		return false;
	}
	HASH_DEL(sg.index, l);
	if ((s = _seg_get(l->seg, false))) {
		s->live -= l->len + SEG_HDR;
		if (s->n != sg.cur || sg.fd < 0) {
			if (!s->live)
				_seg_unlink(s);
			else if (s->size > SEG_COMPACT &&
				 s->live * 4 < s->size)
				compact = s->n;
		}
	}
	xfree(l);
	pthread_mutex_unlock(&sg.mu);
	if (compact)
		_seg_compact(compact);
	return true;
}

/* ---- readers ---- */

int job_seg_read(uint32_t id, char **data, size_t *len)
{
	for (int tries = 0; tries < 3; tries++) {
		uint32_t n = 0, l_len = 0;
		uint64_t off = 0;
		char *p;
		loc_t *l;
		int fd;

		pthread_mutex_lock(&sg.mu);
		HASH_FIND(hh, sg.index, &id, sizeof(id), l);
		if (l) {
			n = l->seg;
			off = l->off;
			l_len = l->len;
		}
		pthread_mutex_unlock(&sg.mu);
		if (!l)
			return 1;
		p = _seg_path(n);
		fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd < 0 && errno == ENOENT) {   /* compacted meanwhile */
			xfree(p);
			continue;
		}
		*data = xmalloc(l_len + 1);
		if (fd < 0 || pread(fd, *data, l_len, (off_t)off) !=
		    (ssize_t)l_len) {
			error_errno("Unable to read the files of JobId=%u "
				    "from %s", id, p);
			if (fd >= 0)
				close(fd);
			xfree(*data);
			xfree(p);
			return -1;
		}
		close(fd);
		xfree(p);
		*len = l_len;
		return 0;
	}
	error("Unable to read the files of JobId=%u: moved while read", id);
	return -1;
}

unsigned job_seg_count(void)
{
	unsigned n;

	pthread_mutex_lock(&sg.mu);
	n = HASH_COUNT(sg.segs);
	pthread_mutex_unlock(&sg.mu);
	return n;
}
