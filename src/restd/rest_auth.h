/* rest_auth.h — who sent a request (rest_auth/local, rest_auth/jwt).
 *
 * rest_auth/jwt: the token comes in X-SLURM-USER-TOKEN or as
 * "Authorization: Bearer <token>" (both at once is refused); slurmrestd
 * does not hold the key: it sends the token with every message it makes
 * for the request, and slurmctld or slurmdbd verifies it (a refused
 * token comes back as an authentication error: 401).  Here a token is only
 * checked for form, and its user ("sun") read for meta and logs; an
 * X-SLURM-USER-NAME that names someone else is refused.
 * rest_auth/local: on a unix socket only, a peer whose uid (SO_PEERCRED)
 * is slurmrestd's own; its messages carry slurmrestd's own MUNGE
 * credential, which is that user's.
 */
#ifndef SLUICE_REST_AUTH_H
#define SLUICE_REST_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "restd/rest_req.h"

typedef struct {
	const char *user_name;       /* X-SLURM-USER-NAME */
	const char *token;           /* X-SLURM-USER-TOKEN */
	const char *authorization;   /* Authorization */
	bool        unix_peer;       /* a unix socket: peer_uid is known */
	uid_t       peer_uid;
	gid_t       peer_gid;
} rest_auth_in_t;

/* -a: "rest_auth/local,rest_auth/jwt" (or "local", "jwt"); NULL: both.
 * -1 if one is unknown. */
int  rest_auth_set_plugins(const char *list);
/* SlurmUser's uid: its tokens (and root's) may name another user. */
void rest_auth_set_slurm_user(uid_t uid);
/* Fill r's uid, gid, user, group and token; 0, or -1 with why. */
int  rest_auth(rest_req_t *r, const rest_auth_in_t *in, char *why,
	       size_t len);
/* The "sun" claim of a token's payload, unverified, into buf; -1 if the
 * token is not three base64url parts with a JSON object payload (valid
 * UTF-8) whose sun is a non-empty string that fits buf, without control
 * characters. */
int  rest_auth_jwt_user(const char *token, char *buf, size_t len);

#endif
