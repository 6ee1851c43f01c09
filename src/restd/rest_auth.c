/* rest_auth.c — rest_auth/local and rest_auth/jwt. */
#include "restd/rest_auth.h"

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common/b64url.h"
#include "common/uid_cache.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define REST_MAX_TOKEN 8192

static bool local_on = true, jwt_on = true;
static uid_t slurm_user;

void rest_auth_set_slurm_user(uid_t uid)
{
	slurm_user = uid;
}

int rest_auth_set_plugins(const char *list)
{
	char *copy, *save, *t;
	int rc = 0;

	if (!list || !*list)
		return 0;
	local_on = jwt_on = false;
	copy = xstrdup(list);
	for (t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (!strcmp(t, "rest_auth/local") || !strcmp(t, "local"))
			local_on = true;
		else if (!strcmp(t, "rest_auth/jwt") || !strcmp(t, "jwt"))
			jwt_on = true;
		else
			rc = -1;
	}
	xfree(copy);
	return rc;
}


/* A token's payload: one JSON object, valid UTF-8, nothing but white
 * space after it. */
static json_object *payload_parse(const char *text, size_t n)
{
	struct json_tokener *tok = json_tokener_new_ex(16);
	json_object *o;
	size_t end;

	json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
				    JSON_TOKENER_VALIDATE_UTF8);
	o = json_tokener_parse_ex(tok, text, (int)n);
	end = json_tokener_get_parse_end(tok);
	while (o && end < n && text[end] && strchr(" \t\r\n", text[end]))
		end++;
	if (o && (end != n ||
		  !json_object_is_type(o, json_type_object))) {
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(tok);
	return o;
}

/* A user name of n bytes fits a buffer of len and holds no NUL or other
 * control character (it is logged). */
static bool user_name_ok(const char *s, size_t n, size_t len)
{
	if (!n || n >= len)
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return false;
	return true;
}

int rest_auth_jwt_user(const char *token, char *buf, size_t len)
{
	const char *p1, *p2;
	char *payload;
	json_object *o, *sun;
	size_t n = 0;
	int rc = -1;

	if (!token || strlen(token) > REST_MAX_TOKEN ||
	    !(p1 = strchr(token, '.')) || !(p2 = strchr(p1 + 1, '.')) ||
	    strchr(p2 + 1, '.') || p1 == token || p2 == p1 + 1)
		return -1;
	payload = b64url_decode(p1 + 1, (size_t)(p2 - p1 - 1), &n);
	if (!payload || !n) {
		xfree(payload);
		return -1;
	}
	o = payload_parse(payload, n);
	if (o && json_object_object_get_ex(o, "sun", &sun) &&
	    json_object_is_type(sun, json_type_string) &&
	    user_name_ok(json_object_get_string(sun),
			 (size_t)json_object_get_string_len(sun), len)) {
		memcpy(buf, json_object_get_string(sun),
		       (size_t)json_object_get_string_len(sun) + 1);
		rc = 0;
	}
	json_object_put(o);
	xfree(payload);
	return rc;
}

static int auth_jwt(rest_req_t *r, const rest_auth_in_t *in, char *why,
		    size_t len)
{
	const char *tok = in->token;
	uid_t uid;
	gid_t gid;

	if (in->token && in->authorization) {
		snprintf(why, len, "both X-SLURM-USER-TOKEN and Authorization "
			 "sent: send one");
		return -1;
	}
	if (!tok) {
		if (strncasecmp(in->authorization, "Bearer ", 7)) {
			snprintf(why, len, "Authorization is not a Bearer token");
			return -1;
		}
		tok = in->authorization + 7;
		while (*tok == ' ')
			tok++;
	}
	if (rest_auth_jwt_user(tok, r->user, sizeof(r->user)) < 0) {
		snprintf(why, len, "malformed token");
		return -1;
	}
	if (in->user_name && strlen(in->user_name) >= sizeof(r->user)) {
		snprintf(why, len, "X-SLURM-USER-NAME is too long");
		return -1;
	}
	if (in->user_name && *in->user_name &&
	    strcmp(in->user_name, r->user)) {
		/* as Slurm: only a token of root or SlurmUser may act as
		 * another user (the controller checks it again) */
		if (uid_cache_by_name(r->user, &uid, NULL) < 0 ||
		    (uid != 0 && uid != slurm_user)) {
			snprintf(why, len, "X-SLURM-USER-NAME %s is not the "
				 "token's user %s", in->user_name, r->user);
			return -1;
		}
		snprintf(r->user, sizeof(r->user), "%s", in->user_name);
		r->act_as = true;
	}
	if (uid_cache_by_name(r->user, &uid, &gid) < 0) {
		snprintf(why, len, "the token's user %s is unknown", r->user);
		return -1;
	}
	r->uid = uid;
	r->gid = gid;
	r->token = xstrdup(tok);
	return 0;
}

int rest_auth(rest_req_t *r, const rest_auth_in_t *in, char *why, size_t len)
{
	int rc;

	if (in->token || in->authorization) {
		if (!jwt_on) {
			snprintf(why, len, "rest_auth/jwt is not enabled");
			return -1;
		}
		rc = auth_jwt(r, in, why, len);
	} else if (!in->unix_peer) {
		snprintf(why, len, local_on ?
			 "no token, and rest_auth/local works only on a unix "
			 "socket" : "no token");
		return -1;
	} else if (!local_on) {
		snprintf(why, len, "rest_auth/local is not enabled");
		return -1;
	} else if (in->peer_uid != getuid()) {
		snprintf(why, len, "rest_auth/local: peer uid %u is not "
			 "slurmrestd's uid %u", (unsigned)in->peer_uid,
			 (unsigned)getuid());
		return -1;
	} else {
		if (in->user_name && *in->user_name) {
			uid_t u;

			if (uid_cache_by_name(in->user_name, &u, NULL) < 0 ||
			    u != in->peer_uid) {
				snprintf(why, len, "rest_auth/local: "
					 "X-SLURM-USER-NAME %s is not the "
					 "peer's user", in->user_name);
				return -1;
			}
		}
		r->uid = in->peer_uid;
		r->gid = in->peer_gid;
		if (uid_cache_name(r->uid, r->user, sizeof(r->user)) < 0)
			snprintf(r->user, sizeof(r->user), "%u",
				 (unsigned)r->uid);
		rc = 0;
	}
	if (rc == 0 && gid_cache_name(r->gid, r->group, sizeof(r->group)) < 0)
		snprintf(r->group, sizeof(r->group), "%u", (unsigned)r->gid);
	return rc;
}
