/* token.c — auth/slurm tokens: the key, making and checking tokens, and
 * the replay cache (auth_slurm.h).
 *
 * The key is read once at init and kept as HMAC-SHA-256's inner and outer
 * states.  Making and checking may run on any thread at once: the key is
 * only read after init, the nonce counter is atomic and the replay cache
 * has its own lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <uthash.h>

#include "common/log.h"
#include "common/sha256.h"
#include "common/xmalloc.h"
#include "slurm/slurm_errno.h"

#include "auth_slurm.h"

#define KEY_MIN 32
#define KEY_MAX (1024 * 1024)
#define PREFIX "sl1."
#define NONCE_HEX 32
#define MAC_HEX 64

static struct {
	hmac_sha256_key_t key;
	int               have_key;
	int               ttl;
	uint8_t           nonce_rand[8];
	uint32_t          nonce_ctr;       /* atomic */
} tk = { .ttl = 60 };

/* ---- the key ---- */

int token_load_key(const char *path, uid_t slurm_user, char *err, size_t errlen)
{
	struct stat st;
	uint8_t *buf = NULL;
	ssize_t n = 0, got;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = -1;

	if (fd < 0) {
		snprintf(err, errlen, "cannot open key file %s: %s", path,
			 strerror(errno));
		return -errno;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "key file %s is not a regular file", path);
		goto out;
	}
	if (st.st_mode & 0077) {
		snprintf(err, errlen, "key file %s is accessible by group or "
			 "others (mode %04o): refusing it; it must be readable "
			 "by its owner (root or SlurmUser) only: chmod 0600 %s",
			 path, (unsigned)(st.st_mode & 07777), path);
		goto out;
	}
	if (st.st_uid != 0 && st.st_uid != slurm_user) {
		snprintf(err, errlen, "key file %s is owned by uid %u, not by "
			 "root or SlurmUser (uid %u): refusing it", path,
			 (unsigned)st.st_uid, (unsigned)slurm_user);
		goto out;
	}
	if (st.st_size < KEY_MIN || st.st_size > KEY_MAX) {
		snprintf(err, errlen, "key file %s has %jd bytes: a key has %d "
			 "to %d (e.g. dd if=/dev/random of=%s bs=1024 count=1)",
			 path, (intmax_t)st.st_size, KEY_MIN, KEY_MAX, path);
		goto out;
	}
	buf = xmalloc(st.st_size);
	while (n < st.st_size &&
	       (got = read(fd, buf + n, st.st_size - n)) > 0)
		n += got;
	if (n != st.st_size) {
		snprintf(err, errlen, "cannot read key file %s", path);
		goto out;
	}
	hmac_sha256_key(&tk.key, buf, n);
	if (getrandom(tk.nonce_rand, sizeof(tk.nonce_rand), 0) !=
	    (ssize_t)sizeof(tk.nonce_rand)) {
		snprintf(err, errlen, "getrandom: %s", strerror(errno));
		goto out;
	}
	tk.have_key = 1;
	rc = 0;
out:
	if (buf) {
		explicit_bzero(buf, st.st_size);
		xfree(buf);
	}
	close(fd);
	return rc;
}

int token_have_key(void)
{
	return tk.have_key;
}

void token_set_ttl(int ttl)
{
	tk.ttl = ttl;
}

/* ---- making ---- */

static void _hex(const uint8_t *d, size_t n, char *out)
{
	static const char h[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = h[d[i] >> 4];
		out[2 * i + 1] = h[d[i] & 15];
	}
	out[2 * n] = '\0';
}

static void _mac(const char *signed_part, size_t len,
		 const uint8_t digest[AUTH_DIGEST_LEN], uint8_t mac[SHA256_LEN])
{
	sha256_t s;

	hmac_sha256_init(&tk.key, &s);
	sha256_update(&s, signed_part, len);
	sha256_update(&s, digest, AUTH_DIGEST_LEN);
	hmac_sha256_final(&tk.key, &s, mac);
}

int token_make(uid_t uid, gid_t gid, const uint8_t digest[AUTH_DIGEST_LEN],
	       char *out, size_t outlen)
{
	uint8_t nonce[NONCE_HEX / 2], mac[SHA256_LEN];
	uint32_t pid = (uint32_t)getpid(),
		 ctr = __atomic_add_fetch(&tk.nonce_ctr, 1, __ATOMIC_RELAXED);
	char nhex[NONCE_HEX + 1];
	int n;

	if (!tk.have_key || outlen < TOKEN_MAX_LEN + 1)
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	/* random per process start, pid (a fork without exec differs), count */
	memcpy(nonce, tk.nonce_rand, 8);
	memcpy(nonce + 8, &pid, 4);
	memcpy(nonce + 12, &ctr, 4);
	_hex(nonce, sizeof(nonce), nhex);
	n = snprintf(out, outlen, PREFIX "%u.%u.%jd.%s.", (unsigned)uid,
		     (unsigned)gid, (intmax_t)(time(NULL) + tk.ttl), nhex);
	if (n < 0 || (size_t)n + MAC_HEX + 1 > outlen)
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	_mac(out, n, digest, mac);
	_hex(mac, sizeof(mac), out + n);
	return SLURM_SUCCESS;
}

/* ---- the replay cache: every token seen until it expires ---- */

typedef struct seen {
	uint8_t        id[16];      /* the mac's first half */
	time_t         expiry;
	struct seen   *next;        /* in arrival order */
	UT_hash_handle hh;
} seen_t;

static struct {
	pthread_mutex_t lock;
	seen_t         *by_id;
	seen_t         *head, *tail;
} rc_ = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Forget expired tokens from the front (arrival order is nearly expiry
 * order: every host uses its own ttl, so some stay a little longer). */
static void _expire(time_t now)
{
	while (rc_.head && rc_.head->expiry < now) {
		seen_t *s = rc_.head;

		rc_.head = s->next;
		if (!rc_.head)
			rc_.tail = NULL;
		HASH_DEL(rc_.by_id, s);
		xfree(s);
	}
}

/* 1 if the token was seen before; else remembers it. */
static int _replayed(const uint8_t mac[SHA256_LEN], time_t expiry, time_t now)
{
	seen_t *s;
	int seen;

	pthread_mutex_lock(&rc_.lock);
	_expire(now);
	HASH_FIND(hh, rc_.by_id, mac, 16, s);
	seen = s != NULL;
	if (!seen) {
		s = xmalloc(sizeof(*s));
		memcpy(s->id, mac, 16);
		s->expiry = expiry;
		HASH_ADD(hh, rc_.by_id, id, 16, s);
		if (rc_.tail)
			rc_.tail->next = s;
		else
			rc_.head = s;
		rc_.tail = s;
	}
	pthread_mutex_unlock(&rc_.lock);
	return seen;
}

/* ---- checking ---- */

/* A decimal number up to INT64_MAX ending at '.'; *p moves past it. */
static int _num(const char **p, const char *end, int64_t *v)
{
	const char *s = *p;
	int64_t x = 0;
	int digits = 0;

	while (s < end && *s >= '0' && *s <= '9') {
		int d = *s++ - '0';

		if (x > (INT64_MAX - d) / 10)
			return -1;      /* would overflow (found by fuzz_auth_token) */
		x = x * 10 + d;
		digits++;
	}
	if (!digits || s >= end || *s != '.')
		return -1;
	*p = s + 1;
	*v = x;
	return 0;
}

static int _hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int token_check(const char *tok, uint32_t len,
		const uint8_t digest[AUTH_DIGEST_LEN], uid_t *uid, gid_t *gid,
		const char **why)
{
	const char *p = tok, *end = tok + len, *mac_at;
	uint8_t want[SHA256_LEN], got[SHA256_LEN];
	int64_t u, g, exp;
	time_t now;

	*why = "malformed credential";
	if (!tk.have_key) {
		*why = "no key to check the credential with";
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	}
	if (len > TOKEN_MAX_LEN || len < sizeof(PREFIX) - 1 ||
	    memcmp(p, PREFIX, sizeof(PREFIX) - 1))
		return ESLURM_AUTH_CRED_INVALID;
	p += sizeof(PREFIX) - 1;
	if (_num(&p, end, &u) || _num(&p, end, &g) || _num(&p, end, &exp) ||
	    u > UINT32_MAX - 1 || g > UINT32_MAX - 1)
		return ESLURM_AUTH_CRED_INVALID;
	if (end - p != NONCE_HEX + 1 + MAC_HEX || p[NONCE_HEX] != '.')
		return ESLURM_AUTH_CRED_INVALID;
	for (int i = 0; i < NONCE_HEX; i++)
		if (_hexval(p[i]) < 0)
			return ESLURM_AUTH_CRED_INVALID;
	mac_at = p + NONCE_HEX + 1;
	for (int i = 0; i < SHA256_LEN; i++) {
		int hi = _hexval(mac_at[2 * i]), lo = _hexval(mac_at[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return ESLURM_AUTH_CRED_INVALID;
		got[i] = (uint8_t)(hi << 4 | lo);
	}
	_mac(tok, mac_at - tok, digest, want);
	if (!sha256_equal(want, got, SHA256_LEN)) {
		*why = "invalid credential (another key, or another message)";
		return ESLURM_AUTH_CRED_INVALID;
	}
	now = time(NULL);
	if (exp < now) {
		*why = "credential expired";
		return ESLURM_AUTH_CRED_INVALID;
	}
	if (exp > now + TOKEN_MAX_TTL + 60) {
		*why = "credential rewound (expiry too far ahead: clocks differ?)";
		return ESLURM_AUTH_CRED_INVALID;
	}
	if (_replayed(got, exp, now)) {
		*why = "credential replayed";
		return ESLURM_AUTH_CRED_INVALID;
	}
	*uid = (uid_t)u;
	*gid = (gid_t)g;
	*why = NULL;
	return SLURM_SUCCESS;
}

void token_fini(void)
{
	pthread_mutex_lock(&rc_.lock);
	_expire((time_t)INT64_MAX);
	pthread_mutex_unlock(&rc_.lock);
	explicit_bzero(&tk.key, sizeof(tk.key));
	tk.have_key = 0;
	tk.ttl = 60;
}
