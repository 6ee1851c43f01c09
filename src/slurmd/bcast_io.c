/* bcast_io.c — sbcast and sgather work as the user (bcast_io.h). */
#define _GNU_SOURCE     /* setresuid, setresgid */
#include "slurmd/bcast_io.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/bcast_block.h"

int bcast_io_become(uid_t uid, gid_t gid, const gid_t *groups, int ngroups)
{
	if (geteuid() != 0)
		return geteuid() == uid ? 0 : -1;
	if (setgroups((size_t) ngroups, groups) < 0 ||
	    setresgid(gid, gid, gid) < 0 || setresuid(uid, uid, uid) < 0)
		return -1;
	if (uid != 0 && (setuid(0) == 0 || geteuid() != uid))
		return -1;      /* no way back */
	return 0;
}

static int _write_all(int fd, const void *p, size_t n, off_t off)
{
	const char *c = p;

	while (n) {
		ssize_t w = off < 0 ? write(fd, c, n) : pwrite(fd, c, n, off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return errno;
		if (w == 0)
			return EIO;
		c += w;
		n -= (size_t) w;
		if (off >= 0)
			off += w;
	}
	return 0;
}

static int _mkdir_parent(const char *path)
{
	char dir[PATH_MAX];
	char *slash;

	if (strlen(path) >= sizeof(dir))
		return ENAMETOOLONG;
	strcpy(dir, path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return errno;
	return 0;
}

/* The last block: the source's mode (as Slurm: with or without -p), and
 * with -p its times. */
static int _finish(int fd, const file_bcast_msg_t *m)
{
	if (fchmod(fd, (mode_t) (m->mode & 07777)) < 0)
		return errno;
	if (m->flags & BCAST_FLAG_PRESERVE) {
		struct timespec ts[2] = { { .tv_sec = m->atime },
					  { .tv_sec = m->mtime } };

		if (futimens(fd, ts) < 0)
			return errno;
	}
	return 0;
}

int bcast_io_write_block(const file_bcast_msg_t *m, const char *path)
{
	const void *bytes = m->data;
	void *plain = NULL;
	int fd, err, flags = O_WRONLY | O_NOCTTY | O_CLOEXEC;

	if (m->compress != BCAST_COMPRESS_NONE) {
		plain = malloc(m->block_len ? m->block_len : 1);
		if (!plain)
			return ENOMEM;
		if (bcast_decompress(m->compress, m->data, m->data_len, plain,
				     m->block_len)) {
			free(plain);
			return EBADMSG;
		}
		bytes = plain;
	}
	if ((m->flags & BCAST_FLAG_MKDIR) && (err = _mkdir_parent(path))) {
		free(plain);
		return err;
	}
	if (m->block_no == 1)
		flags |= O_CREAT | ((m->flags & BCAST_FLAG_FORCE) ? O_TRUNC :
				    O_EXCL);
	fd = open(path, flags, 0700);
	if (fd < 0) {
		free(plain);
		return errno;
	}
	err = _write_all(fd, bytes, m->block_len, (off_t) m->offset);
	if (!err && (m->flags & BCAST_FLAG_LAST))
		err = _finish(fd, m);
	if (close(fd) < 0 && !err)
		err = errno;
	free(plain);
	return err;
}

/* ---- sgather ---- */

static void _answer(int fd, bcast_io_hdr_t *h, const void *data)
{
	if (_write_all(fd, h, sizeof(*h), -1) == 0 && h->len)
		_write_all(fd, data, h->len, -1);
}

/* the list walk's state (one walk per child) */
static struct {
	char   *buf;
	size_t  len;
	size_t  root_len;
	int     err;
} walk;

static int _list_one(const char *path, const struct stat *st, int type,
		     struct FTW *f)
{
	const char *rel = path + walk.root_len;
	size_t n;

	if (type != FTW_F || !S_ISREG(st->st_mode))
		return 0;
	while (*rel == '/')
		rel++;
	n = strlen(rel) + 1;
	if (walk.len + n > BCAST_LIST_MAX) {
		walk.err = E2BIG;
		return 1;
	}
	memcpy(walk.buf + walk.len, rel, n);
	walk.len += n;
	return 0;
}

static int _remove_one(const char *path, const struct stat *st, int type,
		       struct FTW *f)
{
	if ((type == FTW_DP ? rmdir(path) : unlink(path)) < 0 && !walk.err)
		walk.err = errno;
	return 0;
}

static void _list(int fd, const file_gather_msg_t *m, bcast_io_hdr_t *h)
{
	walk.buf = malloc(BCAST_LIST_MAX);
	walk.root_len = strlen(m->fname);
	if (!walk.buf) {
		h->err = ENOMEM;
	} else if (nftw(m->fname, _list_one, 16, FTW_PHYS) < 0) {
		h->err = errno;
	} else {
		h->err = walk.err;
		h->len = h->err ? 0 : (uint32_t) walk.len;
	}
	_answer(fd, h, walk.buf);
}

static void _read(int fd, const file_gather_msg_t *m, bcast_io_hdr_t *h,
		  const struct stat *st)
{
	char *buf = malloc(m->max_len ? m->max_len : 1), *z = NULL;
	uint32_t zlen = 0;
	size_t n = 0;
	int in = open(m->fname, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);

	if (!buf || in < 0) {
		h->err = buf ? errno : ENOMEM;
		_answer(fd, h, NULL);
		return;
	}
	while (n < m->max_len) {
		ssize_t r = pread(in, buf + n, m->max_len - n,
				  (off_t) (m->offset + n));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			h->err = errno;
			_answer(fd, h, NULL);
			return;
		}
		if (r == 0)
			break;
		n += (size_t) r;
	}
	h->block_len = h->len = (uint32_t) n;
	if (m->compress != BCAST_COMPRESS_NONE &&
	    bcast_compress(m->compress, buf, (uint32_t) n, &z, &zlen) == 0) {
		h->compress = m->compress;
		h->len = zlen;
		_answer(fd, h, z);
		return;
	}
	_answer(fd, h, buf);
}

void bcast_io_gather(int fd, const file_gather_msg_t *m)
{
	bcast_io_hdr_t h = { 0 };
	struct stat st;

	if (((m->flags & GATHER_FLAG_REMOVE) ? lstat(m->fname, &st) :
	     stat(m->fname, &st)) < 0) {
		h.err = errno;
		_answer(fd, &h, NULL);
		return;
	}
	h.mode = (uint32_t) st.st_mode;
	h.size = (uint64_t) st.st_size;
	h.atime = st.st_atime;
	h.mtime = st.st_mtime;
	if (m->flags & GATHER_FLAG_REMOVE) {
		if (S_ISDIR(st.st_mode))
			h.err = nftw(m->fname, _remove_one, 16,
				     FTW_DEPTH | FTW_PHYS) < 0 ? errno :
				walk.err;
		else if (unlink(m->fname) < 0)
			h.err = errno;
		_answer(fd, &h, NULL);
		return;
	}
	if (m->flags & GATHER_FLAG_LIST) {
		_list(fd, m, &h);
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		h.err = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		_answer(fd, &h, NULL);
		return;
	}
	_read(fd, m, &h, &st);
}
