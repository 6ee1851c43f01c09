/* auth.h — message authentication (AuthType=auth/munge).
 *
 * The credential binds a message: it carries a SHA-256 digest of the
 * message's header and body, so it cannot be moved to another message, and
 * MUNGE's replay cache rejects a second use.  auth_verify() tells the
 * receiver the sender's uid and gid.
 */
#ifndef SLUICE_AUTH_H
#define SLUICE_AUTH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define AUTH_DIGEST_LEN 32

/* A plugin of type "auth" exports this as its ops. */
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
} auth_ops_t;

/* Load the plugin named by auth_type ("auth/munge") with auth_info
 * ("socket=/path" or NULL).  Process-wide; called once at start. */
int  auth_init(const char *auth_type, const char *auth_info, const char *plugin_dir);
int  auth_create(const uint8_t digest[AUTH_DIGEST_LEN], char **cred, uint32_t *len);
int  auth_verify(const char *cred, uint32_t len, const uint8_t digest[AUTH_DIGEST_LEN],
		 uid_t *uid, gid_t *gid, const char **why);
void auth_fini(void);

#endif
