/* auth_munge.c — AuthType=auth/munge: MUNGE credentials whose payload is
 * the message digest (keyed: the digest and a session key, msg.h).
 *
 * AuthInfo is a comma-separated list: "socket=PATH" (munged's socket),
 * "ttl=N" (credential lifetime in seconds); other options are ignored.
 * Every call makes its own munge context, so create and verify may run on
 * any thread at once; the options are set once in init and only read.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <munge.h>

#include "common/auth.h"
#include "common/log.h"
#include "common/plugin.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#define ENCODE_TRIES 3

static char *munge_socket;      /* NULL = libmunge's default */
static int   munge_ttl;         /* 0 = munged's default */

static int parse_option(const char *opt)
{
	char *end;
	long v;

	if (!strncmp(opt, "socket=", 7)) {
		if (!opt[7])
			goto bad;
		xfree(munge_socket);
		munge_socket = xstrdup(opt + 7);
	} else if (!strncmp(opt, "ttl=", 4)) {
		v = strtol(opt + 4, &end, 10);
		if (end == opt + 4 || *end || v < 0 || v > 86400 * 365)
			goto bad;
		munge_ttl = (int)v;
	} else {
		debug("auth/munge: ignoring AuthInfo option \"%s\"", opt);
	}
	return SLURM_SUCCESS;
bad:
	error("auth/munge: invalid AuthInfo option \"%s\"", opt);
	return SLURM_ERROR;
}

static int munge_init(const char *auth_info)
{
	char **opts = auth_info ? xstrsplit(auth_info, ",", NULL) : NULL;
	int rc = SLURM_SUCCESS;

	for (size_t i = 0; opts && opts[i] && rc == SLURM_SUCCESS; i++)
		rc = parse_option(xstrtrim(opts[i]));
	xstrarray_free(opts);
	return rc;
}

static munge_ctx_t ctx_create(void)
{
	munge_ctx_t ctx = munge_ctx_create();

	if (!ctx)
		return NULL;
	if (munge_socket &&
	    munge_ctx_set(ctx, MUNGE_OPT_SOCKET, munge_socket) != EMUNGE_SUCCESS)
		goto fail;
	if (munge_ttl && munge_ctx_set(ctx, MUNGE_OPT_TTL, munge_ttl) != EMUNGE_SUCCESS)
		goto fail;
	return ctx;
fail:
	munge_ctx_destroy(ctx);
	return NULL;
}

/* A credential over payload (plen bytes); reader >= 0: only that uid
 * may decode it (MUNGE_OPT_UID_RESTRICTION). */
static int encode_payload(const void *payload, int plen, long reader,
			  char **cred, uint32_t *len)
{
	munge_ctx_t ctx = ctx_create();
	munge_err_t e = EMUNGE_NO_MEMORY;
	char *c = NULL;
	int rc = SLURM_PROTOCOL_AUTHENTICATION_ERROR;

	*cred = NULL;
	*len = 0;
	if (!ctx) {
		error("Munge encode failed: cannot create a munge context");
		return rc;
	}
	if (reader >= 0 &&
	    munge_ctx_set(ctx, MUNGE_OPT_UID_RESTRICTION, (uid_t)reader) !=
	    EMUNGE_SUCCESS) {
		error("Munge encode failed: %s", munge_ctx_strerror(ctx));
		goto out;
	}
	for (int i = 0; i < ENCODE_TRIES; i++) {
		e = munge_encode(&c, ctx, payload, plen);
		if (e != EMUNGE_SOCKET)
			break;
		usleep(10000 << i);
	}
	if (e != EMUNGE_SUCCESS) {
		error("Munge encode failed: %s", munge_ctx_strerror(ctx));
		goto out;
	}
	*len = (uint32_t)strlen(c);
	*cred = xstrndup(c, *len);
	rc = SLURM_SUCCESS;
out:
	free(c);
	munge_ctx_destroy(ctx);
	return rc;
}

static int munge_create(const uint8_t digest[AUTH_DIGEST_LEN], char **cred,
			uint32_t *len)
{
	return encode_payload(digest, AUTH_DIGEST_LEN, -1, cred, len);
}

/* The payload is digest then key: MUNGE encrypts it, and only reader's
 * munged client may decode it. */
static int munge_create_keyed(const uint8_t digest[AUTH_DIGEST_LEN],
			      const uint8_t key[AUTH_KEY_LEN], uid_t reader,
			      char **cred, uint32_t *len)
{
	uint8_t p[AUTH_DIGEST_LEN + AUTH_KEY_LEN];
	int rc;

	memcpy(p, digest, AUTH_DIGEST_LEN);
	memcpy(p + AUTH_DIGEST_LEN, key, AUTH_KEY_LEN);
	rc = encode_payload(p, (int)sizeof(p), (long)reader, cred, len);
	memset(p, 0, sizeof(p));
	return rc;
}

static const char *decode_why(munge_err_t e)
{
	switch (e) {
	case EMUNGE_CRED_REPLAYED:
		return "credential replayed";
	case EMUNGE_CRED_EXPIRED:
		return "credential expired";
	case EMUNGE_CRED_REWOUND:
		return "credential rewound";
	case EMUNGE_CRED_INVALID:
		return "invalid credential";
	default:
		return munge_strerror(e);
	}
}

/* key NULL: a plain credential (payload: the digest); else a keyed one
 * (digest then key), the key copied out. */
static int verify_payload(const char *cred, uint32_t len,
			  const uint8_t digest[AUTH_DIGEST_LEN],
			  uint8_t *key, uid_t *uid, gid_t *gid,
			  const char **why)
{
	int want = AUTH_DIGEST_LEN + (key ? AUTH_KEY_LEN : 0);

	munge_ctx_t ctx = NULL;
	char *c = NULL;
	void *payload = NULL;
	int plen = 0, rc = ESLURM_AUTH_CRED_INVALID;
	munge_err_t e;

	*why = NULL;
	if (!cred || !len || memchr(cred, '\0', len)) {
		*why = "malformed credential";
		return rc;
	}
	if (!(ctx = ctx_create())) {
		*why = "cannot create a munge context";
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	}
	c = xstrndup(cred, len);
	e = munge_decode(c, ctx, &payload, &plen, uid, gid);
	if (e != EMUNGE_SUCCESS) {
		*why = decode_why(e);
		goto out;
	}
	if (plen != want || memcmp(payload, digest, AUTH_DIGEST_LEN)) {
		*why = plen == AUTH_DIGEST_LEN + AUTH_KEY_LEN && !key ?
			"keyed credential outside a session" :
			plen == AUTH_DIGEST_LEN && key ?
			"session opened without a key" : "payload mismatch";
		goto out;
	}
	if (key)
		memcpy(key, (uint8_t *)payload + AUTH_DIGEST_LEN, AUTH_KEY_LEN);
	rc = SLURM_SUCCESS;
out:
	if (payload)
		memset(payload, 0, (size_t)plen);
	free(payload);
	xfree(c);
	munge_ctx_destroy(ctx);
	return rc;
}

static int munge_verify(const char *cred, uint32_t len,
			const uint8_t digest[AUTH_DIGEST_LEN], uid_t *uid,
			gid_t *gid, const char **why)
{
	return verify_payload(cred, len, digest, NULL, uid, gid, why);
}

static int munge_verify_keyed(const char *cred, uint32_t len,
			      const uint8_t digest[AUTH_DIGEST_LEN],
			      uint8_t key[AUTH_KEY_LEN], uid_t *uid,
			      gid_t *gid, const char **why)
{
	return verify_payload(cred, len, digest, key, uid, gid, why);
}

static void munge_fini(void)
{
	xfree(munge_socket);
	munge_ttl = 0;
}

static const auth_ops_t ops = {
	.init = munge_init,
	.create = munge_create,
	.verify = munge_verify,
	.fini = munge_fini,
	.create_keyed = munge_create_keyed,
	.verify_keyed = munge_verify_keyed,
};

const struct sluice_plugin sluice_plugin = {
	.type = "auth",
	.name = "munge",
	.abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = AUTH_OPS_VERSION,
	.ops = &ops,
};
