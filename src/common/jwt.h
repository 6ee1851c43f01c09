/* jwt.h — JSON Web Tokens as Slurm's auth/jwt: HS256, claims iat, exp and
 * sun (the Slurm user name), made and checked with libjwt.
 *
 * A daemon with AuthAltTypes=auth/jwt (slurmctld, slurmdbd) calls
 * jwt_setup() once at start, before any thread checks a token; the key
 * and the parameters are only read after that, so jwt_create() and
 * jwt_verify*() may run on any thread at once.  The module is its own
 * library (slurmjwt), linked by the daemons only: commands send a token
 * as it is (msg.h) and never load libjwt or libcrypto.
 *
 * Who frees what: jwt_create() returns a string the caller xfree()s;
 * jwt_verify() writes the user name into the caller's buffer; every
 * *why is a static or thread-local string, valid until the thread's next
 * call.
 */
#ifndef SLUICE_JWT_H
#define SLUICE_JWT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#define JWT_DEFAULT_LIFESPAN 1800      /* scontrol token without lifespan= */
#define JWT_IAT_SKEW         60        /* iat may be this far ahead of now */
#define JWT_MAX_LEN          8192      /* a longer token is refused */
#define JWT_DEFAULT_KEY_NAME "jwt_hs256.key"

/* AuthAltParameters, parsed. */
typedef struct {
	char *jwt_key;                 /* jwt_key=PATH, or NULL */
	int   max_token_lifespan;      /* max_token_lifespan=N; 0 = none */
	bool  disable_token_creation;
} jwt_params_t;

/* Parse "jwt_key=/p,max_token_lifespan=N,disable_token_creation" (NULL:
 * nothing set).  0, or -1 with err filled (an unknown or bad option);
 * jwt_params_free() either way. */
int  jwt_params_parse(const char *text, jwt_params_t *p, char *err,
		      size_t errlen);
void jwt_params_free(jwt_params_t *p);

/* Whether a comma-separated AuthAltTypes names auth/jwt: 1 yes, 0 not
 * set, -1 a type that is not auth/jwt (err says which). */
int  jwt_alt_types(const char *alt_types, char *err, size_t errlen);

/* AuthAltTypes/AuthAltParameters of a daemon: 0 auth/jwt enabled (key
 * loaded, the message layer accepts tokens), 1 not configured, -1 error
 * (err says why, with the key's path: the daemon refuses to start).
 * default_key_dir: where jwt_hs256.key is without jwt_key= (slurmctld's
 * StateSaveLocation; NULL: jwt_key= is required). */
int  jwt_setup(const char *alt_types, const char *alt_params,
	       const char *default_key_dir, uid_t slurm_user, char *err,
	       size_t errlen);
bool jwt_enabled(void);
const jwt_params_t *jwt_params(void);

/* The key: from a file that is a regular file, not readable or writable
 * by group or other, owned by root or slurm_user; or from memory (tests,
 * fuzzing).  0, or -1 with err filled. */
int  jwt_key_load(const char *path, uid_t slurm_user, char *err,
		  size_t errlen);
int  jwt_key_set(const void *key, size_t len);
void jwt_key_clear(void);

/* A token for user, issued at now, expiring lifespan seconds later.
 * NULL (no key, or libjwt failed). */
char *jwt_create(const char *user, time_t now, int lifespan);

/* Check token (len bytes, not NUL-terminated) at now: 0 and the sun
 * claim copied into user, or -1 and *why: malformed, wrong algorithm,
 * bad signature, expired, issued in the future, no sun. */
int  jwt_verify(const char *token, size_t len, time_t now, char *user,
		size_t ulen, const char **why);
/* The message layer's check (msg_auth_jwt_accept) of a credential
 * "<token>" or "<token> <user>": jwt_verify() now, then the user from the
 * passwd database: the token's, or user when the token is root's or
 * SlurmUser's or names user itself (slurmrestd acting for a user). */
int  jwt_verify_cred(const char *token, size_t len, uid_t *uid, gid_t *gid,
		     const char **why);

#endif
