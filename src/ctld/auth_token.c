/* auth_token.c — REQUEST_AUTH_TOKEN (auth_token.h).  Runs on the loop
 * thread: a token is one HMAC, and nothing is saved. */
#include "ctld/auth_token.h"

#include <string.h>
#include <time.h>

#include "common/jwt.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/uid_cache.h"
#include "common/xmalloc.h"
#include "ctld/rpc.h"
#include "slurm/slurm_errno.h"

#define NAME_MAX_LEN 255

static int refuse(net_conn_t *c, const slurm_msg_t *m, int rc,
		  const char *why)
{
	error("REQUEST_AUTH_TOKEN from uid=%u: %s", (unsigned)m->auth_uid,
	      why);
	net_reply_rc(c, rc);
	return rc;
}

void auth_token_rpc(net_conn_t *c, slurm_msg_t *m)
{
	const token_request_msg_t *r = m->data;
	const jwt_params_t *p = jwt_params();
	bool slurm = rpc_privilege(m->auth_uid) == RPC_PRIV_SLURM;
	token_response_msg_t resp = { 0 };
	char own[NAME_MAX_LEN + 1];
	const char *user;
	uid_t uid;
	int lifespan;

	if (!jwt_enabled()) {
		refuse(c, m, ESLURM_AUTH_UNABLE_TO_GENERATE_TOKEN,
		       "auth/jwt is not configured (AuthAltTypes=auth/jwt)");
		return;
	}
	if (p->disable_token_creation && !slurm) {
		refuse(c, m, ESLURM_ACCESS_DENIED, "token creation is "
		       "disabled (AuthAltParameters=disable_token_creation)");
		return;
	}
	if (uid_cache_name(m->auth_uid, own, sizeof(own)) < 0) {
		refuse(c, m, ESLURM_USER_ID_MISSING, "no user name for uid");
		return;
	}
	user = r && r->username && *r->username ? r->username : own;
	if (strcmp(user, own) && !slurm) {
		refuse(c, m, ESLURM_USER_ID_MISSING, "only root and SlurmUser "
		       "may ask for another user's token");
		return;
	}
	if (strlen(user) > NAME_MAX_LEN ||
	    uid_cache_by_name(user, &uid, NULL) < 0) {
		refuse(c, m, ESLURM_USER_ID_MISSING, "unknown user name");
		return;
	}
	lifespan = r && r->lifespan ? (int)(r->lifespan > INT32_MAX / 2 ?
					    INT32_MAX / 2 : r->lifespan) :
		   JWT_DEFAULT_LIFESPAN;
	if (p->max_token_lifespan && !slurm) {
		if (r && r->lifespan &&
		    r->lifespan > (uint32_t)p->max_token_lifespan) {
			refuse(c, m, ESLURM_INVALID_TIME_LIMIT, "lifespan "
			       "over AuthAltParameters max_token_lifespan");
			return;
		}
		if (lifespan > p->max_token_lifespan)
			lifespan = p->max_token_lifespan;
	}
	resp.token = jwt_create(user, time(NULL), lifespan);
	if (!resp.token) {
		refuse(c, m, ESLURM_AUTH_UNABLE_TO_GENERATE_TOKEN,
		       "libjwt could not make the token");
		return;
	}
	info("auth/jwt: token for user %s (lifespan %d s) made for uid=%u",
	     user, lifespan, (unsigned)m->auth_uid);
	net_reply(c, RESPONSE_AUTH_TOKEN, &resp);
	memset(resp.token, 0, strlen(resp.token));
	xfree(resp.token);
}
