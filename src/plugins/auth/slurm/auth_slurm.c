/* auth_slurm.c — AuthType=auth/slurm: HMAC-SHA-256 tokens from a shared
 * key file, no round trip to munged (Slurm 23.11's auth/slurm; the token
 * format is Sluice's own).
 *
 * AuthInfo is a comma-separated list: "key=PATH" (default slurm.key beside
 * slurm.conf), "socket=PATH" (the local token service, default
 * /run/slurm/sack.socket), "ttl=N" (token lifetime in seconds, default
 * 60, at most 3600); other options are ignored (cred_expire=... is the
 * controller's).  A process that can read the key makes and checks tokens
 * itself; one that cannot (a command run by a user) asks the local token
 * service (sack.c), which slurmd runs.  Daemons must read the key: one
 * that cannot refuses to start.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/auth.h"
#include "common/log.h"
#include "common/plugin.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#include "auth_slurm.h"

static char *key_path;
static char *sack_path;

static int _option(const char *opt)
{
	char *end;
	long v;

	if (!strncmp(opt, "key=", 4) && opt[4]) {
		xfree(key_path);
		key_path = xstrdup(opt + 4);
	} else if (!strncmp(opt, "socket=", 7) && opt[7]) {
		xfree(sack_path);
		sack_path = xstrdup(opt + 7);
	} else if (!strncmp(opt, "ttl=", 4)) {
		v = strtol(opt + 4, &end, 10);
		if (end == opt + 4 || *end || v < 1 || v > TOKEN_MAX_TTL)
			goto bad;
		token_set_ttl((int)v);
	} else if (!strncmp(opt, "key=", 4) || !strncmp(opt, "socket=", 7)) {
		goto bad;
	} else {
		debug("auth/slurm: ignoring AuthInfo option \"%s\"", opt);
	}
	return SLURM_SUCCESS;
bad:
	error("auth/slurm: invalid AuthInfo option \"%s\"", opt);
	return SLURM_ERROR;
}

/* slurm.key beside the configuration file. */
static char *_default_key(void)
{
	const char *conf = auth_context_conf_path();
	const char *env = getenv("SLURM_CONF");
	const char *slash;

	if (!conf || !*conf)
		conf = env && *env ? env : "/etc/slurm/slurm.conf";
	slash = strrchr(conf, '/');
	if (!slash)
		return xstrdup("slurm.key");
	return xstrdup_printf("%.*s/slurm.key", (int)(slash - conf), conf);
}

static int slurm_init(const char *auth_info)
{
	char **opts = auth_info ? xstrsplit(auth_info, ",", NULL) : NULL;
	char err[512];
	int rc = SLURM_SUCCESS, e;

	for (size_t i = 0; opts && opts[i] && rc == SLURM_SUCCESS; i++)
		rc = _option(xstrtrim(opts[i]));
	xstrarray_free(opts);
	if (rc)
		goto fail;
	if (!key_path)
		key_path = _default_key();
	if (!sack_path)
		sack_path = xstrdup(SACK_DEFAULT_SOCKET);
	e = token_load_key(key_path, auth_context_slurm_user(), err, sizeof(err));
	if (e == 0)
		return SLURM_SUCCESS;
	/* a command run by a user: the local token service has the key */
	if ((e == -EACCES || e == -ENOENT) && !auth_context_daemon()) {
		debug("auth/slurm: %s; using the token service on %s", err,
		      sack_path);
		return SLURM_SUCCESS;
	}
	error("auth/slurm: %s", err);
	rc = SLURM_ERROR;
fail:
	/* auth.c unloads a plugin whose init failed without calling fini */
	xfree(key_path);
	xfree(sack_path);
	token_set_ttl(60);
	return rc;
}

static int slurm_create(const uint8_t digest[AUTH_DIGEST_LEN], char **cred,
			uint32_t *len)
{
	char tok[TOKEN_MAX_LEN + 1];
	int rc;

	*cred = NULL;
	*len = 0;
	if (!token_have_key())
		return sack_create(sack_path, digest, cred, len);
	rc = token_make(geteuid(), getegid(), digest, tok, sizeof(tok));
	if (rc)
		return rc;
	*len = (uint32_t)strlen(tok);
	*cred = xstrndup(tok, *len);
	return SLURM_SUCCESS;
}

static int slurm_verify(const char *cred, uint32_t len,
			const uint8_t digest[AUTH_DIGEST_LEN], uid_t *uid,
			gid_t *gid, const char **why)
{
	*why = NULL;
	if (!cred || !len || memchr(cred, '\0', len)) {
		*why = "malformed credential";
		return ESLURM_AUTH_CRED_INVALID;
	}
	if (!token_have_key())
		return sack_verify(sack_path, cred, len, digest, uid, gid, why);
	return token_check(cred, len, digest, uid, gid, why);
}

/* slurmd: serve the processes of this host that cannot read the key. */
static int slurm_serve(void)
{
	if (!token_have_key())
		return SLURM_SUCCESS;
	return sack_serve(sack_path);
}

static void slurm_fini(void)
{
	sack_stop();
	token_fini();
	xfree(key_path);
	xfree(sack_path);
}

static const auth_ops_t ops = {
	.init = slurm_init,
	.create = slurm_create,
	.verify = slurm_verify,
	.fini = slurm_fini,
	.serve = slurm_serve,
};

const struct sluice_plugin sluice_plugin = {
	.type = "auth",
	.name = "slurm",
	.abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = AUTH_OPS_VERSION,
	.ops = &ops,
};
