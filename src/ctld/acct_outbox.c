/* acct_outbox.c — durable accounting queue (acct_outbox.h). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/fd.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/acct_outbox.h"

#define OUTBOX_FILE     "acct_outbox"
#define REWRITE_MIN     (1u << 20)     /* acked bytes before a rewrite */

static struct {
	pthread_mutex_t mutex;
	pthread_cond_t  cond;
	char           *path;
	int             fd;
	uint64_t        epoch;
	uint64_t        next_seq;
	acct_frame_t   *q;             /* q[head..cnt) pending */
	size_t          head, cnt, cap;
	size_t          file_len;      /* bytes in the file */
	size_t          acked_bytes;   /* of those, acknowledged records */
	bool            file_bad;      /* a write failed: rewrite whole */
	bool            woken;
} ob = { .mutex = PTHREAD_MUTEX_INITIALIZER,
	 .cond = PTHREAD_COND_INITIALIZER, .fd = -1 };

static size_t frame_disk_len(const acct_frame_t *f)
{
	return ACCT_FRAME_HDR_LEN + ACCT_FRAME_FIXED + f->len;
}

static void queue_push(const acct_frame_t *f)
{
	if (ob.cnt == ob.cap) {
		if (ob.head > ob.cap / 2) {
			memmove(ob.q, ob.q + ob.head,
				(ob.cnt - ob.head) * sizeof(*ob.q));
			ob.cnt -= ob.head;
			ob.head = 0;
		} else {
			ob.cap = ob.cap ? ob.cap * 2 : 256;
			ob.q = xrealloc(ob.q, ob.cap * sizeof(*ob.q));
		}
	}
	ob.q[ob.cnt++] = *f;
}

static uint64_t new_epoch(void)
{
	uint64_t e = 0;

	if (getrandom(&e, sizeof(e), 0) != sizeof(e) || !e)
		e = ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid();
	return e;
}

static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* Write header + pending records to path.tmp, fsync, rename.  Leaves
 * ob.fd open on the new file.  Caller holds the mutex (or is alone). */
static int rewrite_file(void)
{
	char *tmp = xstrdup_printf("%s.new", ob.path);
	uint8_t hdr[ACCT_OUTBOX_HDR_LEN];
	size_t len = ACCT_OUTBOX_HDR_LEN;
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int rc = -1;

	if (fd < 0)
		goto out;
	acct_outbox_header(hdr, ob.epoch);
	if (fd_write_all(fd, hdr, sizeof(hdr)) < 0)
		goto out;
	for (size_t i = ob.head; i < ob.cnt; i++) {
		size_t n;
		uint8_t *bytes = acct_frame_encode(&ob.q[i], &n);
		int w = fd_write_all(fd, bytes, n);

		xfree(bytes);
		if (w < 0)
			goto out;
		len += n;
	}
	if (fsync(fd) < 0 || rename(tmp, ob.path) < 0)
		goto out;
	if (ob.fd >= 0)
		close(ob.fd);
	ob.fd = open(ob.path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (ob.fd < 0)
		goto out;
	ob.file_len = len;
	ob.acked_bytes = 0;
	ob.file_bad = false;
	rc = 0;
out:
	if (rc < 0)
		error("acct_outbox: unable to write %s: %s", tmp,
		      strerror(errno));
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	xfree(tmp);
	return rc;
}

static int read_file(uint8_t **data, size_t *len)
{
	int fd = open(ob.path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	size_t got = 0;

	*data = NULL;
	*len = 0;
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return -1;
	}
	*data = xmalloc((size_t)st.st_size + 1);
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, *data + got, (size_t)st.st_size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	*len = got;
	return 0;
}

/* Load the frames of an existing file of format; returns how many bytes
 * are valid (the rest is a torn tail). */
static size_t load_frames(const uint8_t *data, size_t len, uint32_t format)
{
	size_t off = ACCT_OUTBOX_HDR_LEN;

	while (off < len) {
		acct_frame_t f;
		size_t n = acct_frame_decode(data + off, len - off, format,
					     &f);

		if (!n)
			break;
		if (f.seq >= ob.next_seq)
			ob.next_seq = f.seq + 1;
		queue_push(&f);
		off += n;
	}
	return off;
}

int acct_outbox_open(const char *dir, char *err, size_t errlen)
{
	uint8_t *data;
	size_t len, valid = 0;
	uint32_t format = ACCT_OUTBOX_VERSION;
	int hdr = -1;

	ob.path = xstrdup_printf("%s/%s", dir, OUTBOX_FILE);
	ob.next_seq = 1;
	if (read_file(&data, &len) < 0) {
		snprintf(err, errlen, "Unable to read %s: %s", ob.path,
			 strerror(errno));
		return -1;
	}
	if (data)
		hdr = acct_outbox_header_parse(data, len, &ob.epoch, &format);
	if (hdr == -2) {
		/* A newer slurmctld's (rolled back with records waiting):
		 * its records are not ours to read or to drop. */
		snprintf(err, errlen, "%s is of format %u, written by a newer "
			 "slurmctld (this one reads formats %u to %u): start "
			 "the newer slurmctld until its accounting records "
			 "reach slurmdbd (the file is left as it is)",
			 ob.path, format, ACCT_OUTBOX_V1, ACCT_OUTBOX_VERSION);
		xfree(data);
		xfree(ob.path);
		return -1;
	}
	if (hdr == 0)
		valid = load_frames(data, len, format);
	if (data && !valid) {
		char *bad = xstrdup_printf("%s.corrupt", ob.path);

		error("acct_outbox: %s has no valid header, moved to %s",
		      ob.path, bad);
		rename(ob.path, bad);
		xfree(bad);
	}
	/* With nothing left to send, numbering starts again at 1: that must
	 * be a new epoch, or slurmdbd would skip the new records as already
	 * stored. */
	if (valid && ob.cnt && format != ACCT_OUTBOX_VERSION) {
		/* An older format's records, kept with their (lack of a)
		 * version: new ones are not appended to it. */
		info("acct_outbox: %s: %zu records of format %u rewritten as "
		     "format %u", ob.path, ob.cnt, format, ACCT_OUTBOX_VERSION);
		if (rewrite_file() == 0)
			sync_dir(dir);
	} else if (valid && ob.cnt) {
		if (valid < len) {
			error("acct_outbox: %s: cutting a torn record at "
			      "byte %zu (%zu bytes dropped)", ob.path, valid,
			      len - valid);
			if (truncate(ob.path, (off_t)valid) < 0)
				error("acct_outbox: truncate %s: %s", ob.path,
				      strerror(errno));
		}
		ob.fd = open(ob.path, O_WRONLY | O_APPEND | O_CLOEXEC);
		ob.file_len = valid;
		if (ob.cnt)
			info("acct_outbox: %zu accounting records waiting for "
			     "slurmdbd", ob.cnt);
	} else {
		ob.epoch = new_epoch();
		if (rewrite_file() == 0)
			sync_dir(dir);
	}
	xfree(data);
	if (ob.fd < 0) {
		snprintf(err, errlen, "Unable to open %s: %s", ob.path,
			 strerror(errno));
		return -1;
	}
	return 0;
}

void acct_outbox_close(void)
{
	pthread_mutex_lock(&ob.mutex);
	for (size_t i = ob.head; i < ob.cnt; i++)
		acct_frame_free_members(&ob.q[i]);
	xfree(ob.q);
	ob.head = ob.cnt = ob.cap = 0;
	if (ob.fd >= 0) {
		fsync(ob.fd);
		close(ob.fd);
	}
	ob.fd = -1;
	xfree(ob.path);
	pthread_mutex_unlock(&ob.mutex);
}

void acct_outbox_append(uint16_t kind, const void *rec)
{
	acct_frame_t f;
	uint8_t *bytes;
	size_t n;

	pthread_mutex_lock(&ob.mutex);
	acct_frame_build(&f, ob.next_seq++, kind, rec);
	bytes = acct_frame_encode(&f, &n);
	if (ob.fd < 0 || fd_write_all(ob.fd, bytes, n) < 0) {
		if (!ob.file_bad)
			error("acct_outbox: write to %s failed: %s", ob.path,
			      strerror(errno));
		ob.file_bad = true;
	} else {
		ob.file_len += n;
	}
	xfree(bytes);
	queue_push(&f);
	pthread_cond_signal(&ob.cond);
	pthread_mutex_unlock(&ob.mutex);
}

uint32_t acct_outbox_take(acct_frame_t **out, uint32_t max, int wait_ms)
{
	uint32_t n;

	*out = NULL;
	pthread_mutex_lock(&ob.mutex);
	if (ob.head == ob.cnt && wait_ms > 0 && !ob.woken) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += wait_ms / 1000;
		ts.tv_nsec += (long)(wait_ms % 1000) * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&ob.cond, &ob.mutex, &ts);
	}
	ob.woken = false;
	n = (uint32_t)(ob.cnt - ob.head);
	if (n > max)
		n = max;
	if (n) {
		*out = xmalloc(n * sizeof(acct_frame_t));
		memcpy(*out, ob.q + ob.head, n * sizeof(acct_frame_t));
	}
	pthread_mutex_unlock(&ob.mutex);
	return n;
}

void acct_outbox_ack(uint64_t seq)
{
	pthread_mutex_lock(&ob.mutex);
	while (ob.head < ob.cnt && ob.q[ob.head].seq <= seq) {
		ob.acked_bytes += frame_disk_len(&ob.q[ob.head]);
		acct_frame_free_members(&ob.q[ob.head]);
		ob.head++;
	}
	if (ob.head == ob.cnt) {
		ob.head = ob.cnt = 0;
		if (!ob.file_bad && ob.fd >= 0 &&
		    ftruncate(ob.fd, ACCT_OUTBOX_HDR_LEN) == 0) {
			ob.file_len = ACCT_OUTBOX_HDR_LEN;
			ob.acked_bytes = 0;
		} else {
			rewrite_file();
		}
	} else if (ob.file_bad || (ob.acked_bytes >= REWRITE_MIN &&
				   ob.acked_bytes * 2 >= ob.file_len)) {
		rewrite_file();
	}
	pthread_mutex_unlock(&ob.mutex);
}

void acct_outbox_sync(void)
{
	int fd;

	pthread_mutex_lock(&ob.mutex);
	fd = ob.fd >= 0 ? dup(ob.fd) : -1;
	pthread_mutex_unlock(&ob.mutex);
	if (fd >= 0) {
		fdatasync(fd);
		close(fd);
	}
}

static atomic_bool sync_wanted;

void acct_outbox_want_sync(void)
{
	atomic_store(&sync_wanted, true);
}

bool acct_outbox_sync_wanted(void)
{
	return atomic_exchange(&sync_wanted, false);
}

void acct_outbox_wake(void)
{
	pthread_mutex_lock(&ob.mutex);
	ob.woken = true;
	pthread_cond_broadcast(&ob.cond);
	pthread_mutex_unlock(&ob.mutex);
}

uint64_t acct_outbox_epoch(void)
{
	return ob.epoch;
}

uint32_t acct_outbox_depth(void)
{
	uint32_t n;

	pthread_mutex_lock(&ob.mutex);
	n = (uint32_t)(ob.cnt - ob.head);
	pthread_mutex_unlock(&ob.mutex);
	return n;
}
