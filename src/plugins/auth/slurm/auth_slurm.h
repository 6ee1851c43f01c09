/* auth_slurm.h — AuthType=auth/slurm, inside the plugin: tokens
 * (token.c) and the local token service that serves processes without the
 * key (sack.c).
 *
 * A token is ASCII, no NUL:
 *
 *     sl1.<uid>.<gid>.<expiry>.<nonce: 32 hex>.<mac: 64 hex>
 *
 * mac = HMAC-SHA-256(key, everything before the mac, dot included ||
 * the 32-byte message digest): the token says who, until when, and for
 * which message; the nonce makes every token different, and the verifier
 * remembers each token until it expires (replay cache).
 */
#ifndef SLUICE_AUTH_SLURM_H
#define SLUICE_AUTH_SLURM_H

#include <stdint.h>
#include <sys/types.h>

#include "common/auth.h"

#define SACK_DEFAULT_SOCKET "/run/slurm/sack.socket"
#define TOKEN_MAX_LEN 160
#define TOKEN_MAX_TTL 3600

/* token.c: need the key (token_have_key()). */
int  token_load_key(const char *path, uid_t slurm_user, char *err, size_t errlen);
int  token_have_key(void);
void token_set_ttl(int ttl);
/* A token for uid/gid over digest into out (>= TOKEN_MAX_LEN + 1). */
int  token_make(uid_t uid, gid_t gid, const uint8_t digest[AUTH_DIGEST_LEN],
		char *out, size_t outlen);
/* 0 and uid/gid, or ESLURM_AUTH_CRED_INVALID and *why. */
int  token_check(const char *tok, uint32_t len,
		 const uint8_t digest[AUTH_DIGEST_LEN], uid_t *uid, gid_t *gid,
		 const char **why);
void token_fini(void);

/* sack.c: the service (in a daemon that has the key) and its client. */
int  sack_serve(const char *path);
void sack_stop(void);
int  sack_create(const char *path, const uint8_t digest[AUTH_DIGEST_LEN],
		 char **cred, uint32_t *len);
int  sack_verify(const char *path, const char *cred, uint32_t len,
		 const uint8_t digest[AUTH_DIGEST_LEN], uid_t *uid, gid_t *gid,
		 const char **why);

#endif
