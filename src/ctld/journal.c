/* journal.c — journal record format and files (journal.h).
 *
 * File header: "SLJOURN\n" (8), u16 version, u16 0, u64 generation,
 * u32 CRC-32C of the 20 bytes before it.
 * Record header: u32 magic "JREC", u16 type, u16 version, u64 seq,
 * u32 payload length, u32 CRC-32C of bytes 4..19 of the header and the
 * payload.  All big-endian.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/crc32c.h"
#include "common/fd.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/journal.h"

#define FILE_MAGIC  "SLJOURN\n"
#define REC_MAGIC   0x4a524543u     /* "JREC" */
#define FILE_PREFIX "ctld_journal."

struct journal_file {
	int      fd;
	uint64_t gen;
	size_t   size;
	bool     sync;
	char    *path;
};

static void _put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void _put32(uint8_t *p, uint32_t v)
{
	_put16(p, v >> 16);
	_put16(p + 2, v);
}

static void _put64(uint8_t *p, uint64_t v)
{
	_put32(p, v >> 32);
	_put32(p + 4, v);
}

static uint16_t _get16(const uint8_t *p)
{
	return (uint16_t) (p[0] << 8 | p[1]);
}

static uint32_t _get32(const uint8_t *p)
{
	return (uint32_t) _get16(p) << 16 | _get16(p + 2);
}

static uint64_t _get64(const uint8_t *p)
{
	return (uint64_t) _get32(p) << 32 | _get32(p + 4);
}

void journal_frame(buf_t *b, uint16_t type, uint16_t version, uint64_t seq,
		   const void *payload, uint32_t len)
{
	uint8_t h[JOURNAL_REC_HDR_LEN];
	uint32_t crc;

	_put32(h, REC_MAGIC);
	_put16(h + 4, type);
	_put16(h + 6, version);
	_put64(h + 8, seq);
	_put32(h + 16, len);
	crc = crc32c(0, h + 4, 16);
	crc = crc32c(crc, payload, len);
	_put32(h + 20, crc);
	packraw(b, h, sizeof(h));
	if (len)
		packraw(b, payload, len);
}

static void _file_header(uint8_t *h, uint64_t gen)
{
	memcpy(h, FILE_MAGIC, 8);
	_put16(h + 8, JOURNAL_VERSION);
	_put16(h + 10, 0);
	_put64(h + 12, gen);
	_put32(h + 20, crc32c(0, h, 20));
}

int journal_check_header(const uint8_t *data, size_t len, uint64_t *gen,
			 char *why, size_t whylen)
{
	uint16_t ver;

	if (len < JOURNAL_HDR_LEN) {
		snprintf(why, whylen, "file header incomplete (%zu of %d bytes)",
			 len, JOURNAL_HDR_LEN);
		return -1;
	}
	if (memcmp(data, FILE_MAGIC, 8) ||
	    _get32(data + 20) != crc32c(0, data, 20)) {
		snprintf(why, whylen, "no valid journal file header");
		return -1;
	}
	ver = _get16(data + 8);
	if (ver < 1 || ver > JOURNAL_VERSION) {
		snprintf(why, whylen, "journal format version %u not supported "
			 "(this slurmctld reads 1 to %d)", ver, JOURNAL_VERSION);
		return -1;
	}
	*gen = _get64(data + 12);
	return 0;
}

static bool _all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* Is there an intact record at off? */
static bool _intact_at(const uint8_t *data, size_t len, size_t off,
		       journal_rec_t *rec)
{
	const uint8_t *h = data + off;
	uint32_t n, crc;

	if (len - off < JOURNAL_REC_HDR_LEN || _get32(h) != REC_MAGIC)
		return false;
	n = _get32(h + 16);
	if (n > JOURNAL_MAX_REC || len - off - JOURNAL_REC_HDR_LEN < n)
		return false;
	crc = crc32c(0, h + 4, 16);
	crc = crc32c(crc, h + JOURNAL_REC_HDR_LEN, n);
	if (crc != _get32(h + 20))
		return false;
	rec->type = _get16(h + 4);
	rec->version = _get16(h + 6);
	rec->seq = _get64(h + 8);
	rec->len = n;
	rec->data = h + JOURNAL_REC_HDR_LEN;
	return true;
}

/* Why the record at off is bad, and whether it looks torn (the end of
 * what was written) or damaged (bad bytes before the end). */
static int _classify(const uint8_t *data, size_t len, size_t off,
		     char *why, size_t whylen)
{
	size_t left = len - off;
	const uint8_t *h = data + off;
	uint32_t n;

	if (_all_zero(h, left)) {
		snprintf(why, whylen, "%zu zero bytes where a record should "
			 "start", left);
		return JOURNAL_TORN;
	}
	if (left < JOURNAL_REC_HDR_LEN) {
		snprintf(why, whylen, "record header incomplete (%zu of %d "
			 "bytes)", left, JOURNAL_REC_HDR_LEN);
		return JOURNAL_TORN;
	}
	if (_get32(h) != REC_MAGIC) {
		snprintf(why, whylen, "no record magic");
		return JOURNAL_DAMAGED;
	}
	n = _get32(h + 16);
	if (n > JOURNAL_MAX_REC) {
		snprintf(why, whylen, "record length %u too large", n);
		return JOURNAL_DAMAGED;
	}
	if (left - JOURNAL_REC_HDR_LEN < n) {
		snprintf(why, whylen, "record seq %llu incomplete (%zu of %u "
			 "payload bytes)", (unsigned long long) _get64(h + 8),
			 left - JOURNAL_REC_HDR_LEN, n);
		return JOURNAL_TORN;
	}
	snprintf(why, whylen, "record seq %llu (%u bytes) fails its checksum",
		 (unsigned long long) _get64(h + 8), n);
	return left == JOURNAL_REC_HDR_LEN + n ? JOURNAL_TORN : JOURNAL_DAMAGED;
}

int journal_next(const uint8_t *data, size_t len, size_t *off,
		 journal_rec_t *rec, char *why, size_t whylen)
{
	uint64_t first, last;
	int what;

	if (*off >= len)
		return JOURNAL_END;
	if (_intact_at(data, len, *off, rec)) {
		*off += JOURNAL_REC_HDR_LEN + rec->len;
		return JOURNAL_REC;
	}
	what = _classify(data, len, *off, why, whylen);
	/* intact records after it: not the tail, whatever it looks like */
	if (what == JOURNAL_TORN &&
	    journal_count_after(data, len, *off, &first, &last))
		what = JOURNAL_DAMAGED;
	return what;
}

size_t journal_each_after(const uint8_t *data, size_t len, size_t off,
			  void (*each)(const journal_rec_t *r, void *arg),
			  void *arg)
{
	journal_rec_t r;
	size_t cnt = 0;

	while (off + JOURNAL_REC_HDR_LEN <= len) {
		if (!_intact_at(data, len, off, &r)) {
			off++;
			continue;
		}
		cnt++;
		if (each)
			each(&r, arg);
		off += JOURNAL_REC_HDR_LEN + r.len;
	}
	return cnt;
}

typedef struct {
	uint64_t *first, *last;
	size_t    n;
} first_last_t;

static void _first_last(const journal_rec_t *r, void *arg)
{
	first_last_t *fl = arg;

	if (!fl->n++)
		*fl->first = r->seq;
	*fl->last = r->seq;
}

size_t journal_count_after(const uint8_t *data, size_t len, size_t off,
			   uint64_t *first, uint64_t *last)
{
	first_last_t fl = { first, last, 0 };

	*first = *last = 0;
	return journal_each_after(data, len, off + 1, _first_last, &fl);
}

/* ---- files ---- */

char *journal_path(const char *dir, uint64_t gen)
{
	return xstrdup_printf("%s/" FILE_PREFIX "%llu", dir,
			      (unsigned long long) gen);
}

static int _gen_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

	return x < y ? -1 : x > y;
}

/* "ctld_journal.<digits>" -> gen. */
static bool _parse_name(const char *name, uint64_t *gen)
{
	const char *p = name + strlen(FILE_PREFIX);
	char *end;

	if (strncmp(name, FILE_PREFIX, strlen(FILE_PREFIX)) || *p < '0' ||
	    *p > '9')
		return false;
	errno = 0;
	*gen = strtoull(p, &end, 10);
	return !*end && !errno;
}

int journal_list(const char *dir, uint64_t **gens, size_t *cnt)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0, cap = 0;
	uint64_t gen;

	*gens = NULL;
	*cnt = 0;
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (!_parse_name(e->d_name, &gen))
			continue;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 8;

			*gens = xrealloc_sz(*gens, cap * sizeof(uint64_t),
					    ncap * sizeof(uint64_t));
			cap = ncap;
		}
		(*gens)[n++] = gen;
	}
	closedir(d);
	if (n)
		qsort(*gens, n, sizeof(uint64_t), _gen_cmp);
	*cnt = n;
	return 0;
}

static void _jfile_fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (fsync(fd) < 0)
		error_errno("fsync of %s", dir);
	close(fd);
}

journal_file_t *journal_create(const char *dir, uint64_t gen, bool sync)
{
	journal_file_t *f = xmalloc(sizeof(*f));
	uint8_t h[JOURNAL_HDR_LEN];
	int e;

	f->path = journal_path(dir, gen);
	f->gen = gen;
	f->sync = sync;
	f->fd = open(f->path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND |
		     O_CLOEXEC, 0600);
	if (f->fd < 0)
		goto fail;
	_file_header(h, gen);
	if (fd_write_all(f->fd, h, sizeof(h)) < 0 || (sync && fsync(f->fd) < 0))
		goto fail;
	f->size = sizeof(h);
	if (sync)
		_jfile_fsync_dir(dir);
	return f;
fail:
	e = errno;
	if (f->fd >= 0) {
		close(f->fd);
		unlink(f->path);
	}
	xfree(f->path);
	xfree(f);
	errno = e;
	return NULL;
}

int journal_append(journal_file_t *f, const void *data, size_t len)
{
	int e;

	if (!len)
		return 0;
	if (fd_write_all(f->fd, data, len) == 0 &&
	    (!f->sync || fdatasync(f->fd) == 0)) {
		f->size += len;
		return 0;
	}
	e = errno;
	if (ftruncate(f->fd, f->size) < 0)
		error_errno("Unable to cut %s back to %zu bytes", f->path,
			    f->size);
	errno = e;
	return -1;
}

uint64_t journal_gen(const journal_file_t *f)
{
	return f->gen;
}

size_t journal_size(const journal_file_t *f)
{
	return f->size;
}

void journal_close(journal_file_t *f)
{
	if (!f)
		return;
	if (f->fd >= 0)
		close(f->fd);
	xfree(f->path);
	xfree(f);
}

void journal_remove_before(const char *dir, uint64_t gen)
{
	uint64_t *gens;
	size_t cnt;

	if (journal_list(dir, &gens, &cnt) < 0)
		return;
	for (size_t i = 0; i < cnt && gens[i] < gen; i++) {
		char *p = journal_path(dir, gens[i]);

		if (unlink(p) < 0 && errno != ENOENT)
			error_errno("Unable to remove old journal %s", p);
		else
			debug2("Removed journal %s (in the snapshot)", p);
		xfree(p);
	}
	xfree(gens);
}
