/* auth.c — the process's auth plugin (AuthType) and calls through it.
 *
 * auth_init() runs once at start, before any thread calls auth_create()
 * or auth_verify(); after that the loaded ops are only read, so the calls
 * need no lock.  The plugin's own calls are thread-safe.
 */
#include "common/auth.h"

#include <stdbool.h>
#include <string.h>

#include "common/log.h"
#include "common/plugin_ctx.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

static plugin_ctx_t *auth_plugin;
static const auth_ops_t *auth_ops;
static struct {
	char *conf_path;
	uid_t slurm_user;
	int   daemon;
} ctx;

void auth_set_context(const char *conf_path, uid_t slurm_user_id, int daemon)
{
	xfree(ctx.conf_path);
	ctx.conf_path = xstrdup(conf_path);
	ctx.slurm_user = slurm_user_id;
	ctx.daemon = daemon;
}

const char *auth_context_conf_path(void)
{
	return ctx.conf_path;
}

uid_t auth_context_slurm_user(void)
{
	return ctx.slurm_user;
}

int auth_context_daemon(void)
{
	return ctx.daemon;
}

static const plugin_type_t auth_type_desc = {
	.type = "auth", .key = "AuthType", .ops_version = AUTH_OPS_VERSION,
};

int auth_init(const char *auth_type, const char *auth_info,
	      const char *plugin_dir)
{
	char err[1024];
	int rc;

	if (!auth_type || !*auth_type)
		auth_type = "auth/munge";
	if (auth_plugin) {
		if (!strcmp(plugin_ctx_names(auth_plugin), auth_type))
			return SLURM_SUCCESS;
		error("AuthType=%s requested but %s is already loaded",
		      auth_type, plugin_ctx_names(auth_plugin));
		return ESLURM_INVALID_AUTHTYPE_CHANGE;
	}
	auth_plugin = plugin_ctx_create(&auth_type_desc, auth_type,
					plugin_dir, NULL, err, sizeof(err));
	if (!auth_plugin || !plugin_ctx_count(auth_plugin)) {
		error("%s", auth_plugin ? "AuthType is empty" : err);
		plugin_ctx_destroy(auth_plugin);
		auth_plugin = NULL;
		return SLURM_PLUGIN_NAME_INVALID;
	}
	auth_ops = plugin_ctx_ops(auth_plugin, 0);
	rc = auth_ops->init ? auth_ops->init(auth_info) : SLURM_SUCCESS;
	if (rc != SLURM_SUCCESS) {
		error("%s: initialisation failed (AuthInfo=%s)", auth_type,
		      auth_info ? auth_info : "");
		auth_ops = NULL;
		plugin_ctx_destroy(auth_plugin);
		auth_plugin = NULL;
	}
	return rc;
}

int auth_create(const uint8_t digest[AUTH_DIGEST_LEN], char **cred,
		uint32_t *len)
{
	*cred = NULL;
	*len = 0;
	if (!auth_ops) {
		error("auth_create: no auth plugin loaded (auth_init not called)");
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	}
	return auth_ops->create(digest, cred, len);
}

int auth_verify(const char *cred, uint32_t len,
		const uint8_t digest[AUTH_DIGEST_LEN], uid_t *uid, gid_t *gid,
		const char **why)
{
	*why = NULL;
	if (!auth_ops) {
		*why = "no auth plugin loaded";
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	}
	if (!cred || !len) {
		*why = "no credential";
		return ESLURM_AUTH_CRED_INVALID;
	}
	return auth_ops->verify(cred, len, digest, uid, gid, why);
}

void auth_fini(void)
{
	if (!auth_plugin)
		return;
	if (auth_ops && auth_ops->fini)
		auth_ops->fini();
	auth_ops = NULL;
	plugin_ctx_destroy(auth_plugin);
	auth_plugin = NULL;
}

int auth_serve(void)
{
	if (!auth_ops || !auth_ops->serve)
		return SLURM_SUCCESS;
	return auth_ops->serve();
}

bool auth_can_key(void)
{
	return auth_ops && auth_ops->create_keyed && auth_ops->verify_keyed;
}

int auth_create_keyed(const uint8_t digest[AUTH_DIGEST_LEN],
		      const uint8_t key[AUTH_KEY_LEN], uid_t reader,
		      char **cred, uint32_t *len)
{
	*cred = NULL;
	*len = 0;
	if (!auth_can_key()) {
		error("auth_create_keyed: the auth plugin cannot seal a key");
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	}
	return auth_ops->create_keyed(digest, key, reader, cred, len);
}

int auth_verify_keyed(const char *cred, uint32_t len,
		      const uint8_t digest[AUTH_DIGEST_LEN],
		      uint8_t key[AUTH_KEY_LEN], uid_t *uid, gid_t *gid,
		      const char **why)
{
	*why = NULL;
	if (!auth_can_key()) {
		*why = "keyed credential, but the auth plugin has no keys";
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	}
	if (!cred || !len) {
		*why = "no credential";
		return ESLURM_AUTH_CRED_INVALID;
	}
	return auth_ops->verify_keyed(cred, len, digest, key, uid, gid, why);
}
