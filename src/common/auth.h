/* auth.h — message authentication (AuthType=auth/munge, auth/slurm).
 *
 * The credential binds a message: it carries a SHA-256 digest of the
 * message's header and body, so it cannot be moved to another message, and
 * a replay cache (MUNGE's, or auth/slurm's in the verifying process)
 * rejects a second use.  auth_verify() tells the receiver the sender's uid
 * and gid.
 */
#ifndef SLUICE_AUTH_H
#define SLUICE_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define AUTH_DIGEST_LEN 32
/* A session key sealed inside a credential (create_keyed). */
#define AUTH_KEY_LEN    32

/* A plugin of type "auth" exports this as its ops; bump the version on
 * any change of the table.  2: create_keyed / verify_keyed. */
#define AUTH_OPS_VERSION 2
typedef struct {
	int  (*init)(const char *auth_info);
	/* Create a credential over digest; *cred malloc'd, *len its length. */
	int  (*create)(const uint8_t digest[AUTH_DIGEST_LEN], char **cred, uint32_t *len);
	/* 0 if cred is valid and carries digest; sets uid/gid.  Else a
	 * slurm_err_t (ESLURM_AUTH_CRED_INVALID, ...) and *why a short text. */
	int  (*verify)(const char *cred, uint32_t len,
		       const uint8_t digest[AUTH_DIGEST_LEN],
		       uid_t *uid, gid_t *gid, const char **why);
	void (*fini)(void);
	/* Optional: serve credentials to local processes that cannot make
	 * their own (auth/slurm's token service).  0 or a slurm_err_t. */
	int  (*serve)(void);
	/* Optional: a credential over digest that also carries key, readable
	 * only by uid reader (the receiving daemon's), and kept secret from
	 * anyone who sees the bytes on the wire: MUNGE's payload (encrypted,
	 * decode restricted to reader).  A plugin that cannot keep the key
	 * secret leaves both NULL (no sessions, msg.h).  verify_keyed checks
	 * such a credential and gives back key; plain verify refuses it. */
	int  (*create_keyed)(const uint8_t digest[AUTH_DIGEST_LEN],
			     const uint8_t key[AUTH_KEY_LEN], uid_t reader,
			     char **cred, uint32_t *len);
	int  (*verify_keyed)(const char *cred, uint32_t len,
			     const uint8_t digest[AUTH_DIGEST_LEN],
			     uint8_t key[AUTH_KEY_LEN], uid_t *uid, gid_t *gid,
			     const char **why);
} auth_ops_t;

/* What the process is, for plugins that read a key: the configuration
 * file it loaded (auth/slurm's key defaults to slurm.key beside it),
 * SlurmUser's uid (may own the key) and whether it must hold the key
 * itself (daemons) or may ask a local token service (commands).
 * Optional; call before auth_init(). */
void auth_set_context(const char *conf_path, uid_t slurm_user_id, int daemon);
const char *auth_context_conf_path(void);
uid_t       auth_context_slurm_user(void);
int         auth_context_daemon(void);

/* Load the plugin named by auth_type ("auth/munge") with auth_info
 * ("socket=/path" or NULL).  Process-wide; called once at start. */
int  auth_init(const char *auth_type, const char *auth_info, const char *plugin_dir);
int  auth_create(const uint8_t digest[AUTH_DIGEST_LEN], char **cred, uint32_t *len);
int  auth_verify(const char *cred, uint32_t len, const uint8_t digest[AUTH_DIGEST_LEN],
		 uid_t *uid, gid_t *gid, const char **why);
void auth_fini(void);
/* Keyed credentials (auth_ops_t.create_keyed): whether the plugin makes
 * them, and the calls. */
bool auth_can_key(void);
int  auth_create_keyed(const uint8_t digest[AUTH_DIGEST_LEN],
		       const uint8_t key[AUTH_KEY_LEN], uid_t reader,
		       char **cred, uint32_t *len);
int  auth_verify_keyed(const char *cred, uint32_t len,
		       const uint8_t digest[AUTH_DIGEST_LEN],
		       uint8_t key[AUTH_KEY_LEN], uid_t *uid, gid_t *gid,
		       const char **why);
/* Start the plugin's local token service if it has one (slurmd). */
int  auth_serve(void);

#endif
