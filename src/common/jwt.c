/* jwt.c — HS256 JSON Web Tokens (jwt.h).
 *
 * libjwt signs and checks the signature.  Before it sees a token, the
 * token's shape is checked here (three base64url parts, a JSON object in
 * the first two, alg HS256) so that a refusal says which way the token is
 * bad: libjwt answers EINVAL to all of them.  The claims are read from the
 * payload parsed here (json-c), after libjwt has accepted the signature.
 */
#include "common/jwt.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>
#include <jwt.h>

#include "common/b64url.h"
#include "common/log.h"
#include "common/msg.h"
#include "common/uid_cache.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define KEY_MAX   (1024 * 1024)
#define KEY_WEAK  32              /* fewer bytes: a warning */
#define USER_MAX  256

static struct {
	unsigned char *key;
	size_t         key_len;
	uid_t          slurm_user;    /* may act as another user */
	jwt_params_t   params;
	bool           enabled;
} jw;

static __thread char why_buf[256];

/* ---- AuthAltTypes / AuthAltParameters ---- */

void jwt_params_free(jwt_params_t *p)
{
	xfree(p->jwt_key);
	memset(p, 0, sizeof(*p));
}

static int param_one(const char *opt, jwt_params_t *p, char *err,
		     size_t errlen)
{
	char *end;
	long v;

	if (!strncasecmp(opt, "jwt_key=", 8)) {
		if (opt[8] != '/') {
			snprintf(err, errlen, "AuthAltParameters jwt_key=%s: "
				 "an absolute path is required", opt + 8);
			return -1;
		}
		xfree(p->jwt_key);
		p->jwt_key = xstrdup(opt + 8);
		return 0;
	}
	if (!strncasecmp(opt, "max_token_lifespan=", 19)) {
		errno = 0;
		v = strtol(opt + 19, &end, 10);
		if (errno || end == opt + 19 || *end || v < 1 || v > INT32_MAX) {
			snprintf(err, errlen, "AuthAltParameters "
				 "max_token_lifespan=%s: a number of seconds "
				 "(1 or more) is required", opt + 19);
			return -1;
		}
		p->max_token_lifespan = (int)v;
		return 0;
	}
	if (!strcasecmp(opt, "disable_token_creation")) {
		p->disable_token_creation = true;
		return 0;
	}
	snprintf(err, errlen, "AuthAltParameters option '%s' is not "
		 "supported (supported: jwt_key=, max_token_lifespan=, "
		 "disable_token_creation)", opt);
	return -1;
}

int jwt_params_parse(const char *text, jwt_params_t *p, char *err,
		     size_t errlen)
{
	char *copy, *save = NULL, *opt;
	int rc = 0;

	memset(p, 0, sizeof(*p));
	if (!text)
		return 0;
	copy = xstrdup(text);
	for (opt = strtok_r(copy, ",", &save); opt && !rc;
	     opt = strtok_r(NULL, ",", &save))
		rc = param_one(opt, p, err, errlen);
	xfree(copy);
	return rc;
}

int jwt_alt_types(const char *alt_types, char *err, size_t errlen)
{
	char *copy, *save = NULL, *t;
	int rc = 0;

	if (!alt_types || !*alt_types)
		return 0;
	copy = xstrdup(alt_types);
	for (t = strtok_r(copy, ",", &save); t && rc >= 0;
	     t = strtok_r(NULL, ",", &save)) {
		if (!strcmp(t, "auth/jwt")) {
			rc = 1;
			continue;
		}
		snprintf(err, errlen, "cannot create auth context for %s "
			 "(AuthAltTypes: only auth/jwt is supported)", t);
		rc = -1;
	}
	xfree(copy);
	return rc;
}

int jwt_setup(const char *alt_types, const char *alt_params,
	      const char *default_key_dir, uid_t slurm_user, char *err,
	      size_t errlen)
{
	jwt_params_t p;
	char *path;
	int rc = jwt_alt_types(alt_types, err, errlen);

	if (rc <= 0)
		return rc < 0 ? -1 : 1;
	if (jwt_params_parse(alt_params, &p, err, errlen) < 0) {
		jwt_params_free(&p);
		return -1;
	}
	if (p.jwt_key)
		path = xstrdup(p.jwt_key);
	else if (default_key_dir)
		path = xstrdup_printf("%s/%s", default_key_dir,
				      JWT_DEFAULT_KEY_NAME);
	else {
		snprintf(err, errlen, "AuthAltTypes=auth/jwt needs "
			 "AuthAltParameters=jwt_key=PATH");
		jwt_params_free(&p);
		return -1;
	}
	rc = jwt_key_load(path, slurm_user, err, errlen);
	xfree(path);
	if (rc < 0) {
		jwt_params_free(&p);
		return -1;
	}
	jwt_params_free(&jw.params);
	jw.params = p;
	jw.slurm_user = slurm_user;
	jw.enabled = true;
	msg_auth_jwt_accept(jwt_verify_cred);
	return 0;
}

bool jwt_enabled(void)
{
	return jw.enabled;
}

const jwt_params_t *jwt_params(void)
{
	return &jw.params;
}

/* ---- the key ---- */

int jwt_key_set(const void *key, size_t len)
{
	if (!key || !len || len > KEY_MAX)
		return -1;
	jwt_key_clear();
	jw.key = xmalloc(len);
	memcpy(jw.key, key, len);
	jw.key_len = len;
	return 0;
}

void jwt_key_clear(void)
{
	if (jw.key) {
		memset(jw.key, 0, jw.key_len);
		xfree(jw.key);
	}
	jw.key_len = 0;
}

int jwt_key_load(const char *path, uid_t slurm_user, char *err, size_t errlen)
{
	struct stat st;
	unsigned char *buf = NULL;
	size_t got = 0;
	int fd, rc = -1;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "auth/jwt: cannot open jwt_key file %s: "
			 "%s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "auth/jwt: jwt_key file %s is not a "
			 "regular file", path);
		goto out;
	}
	if (st.st_mode & 0066) {
		snprintf(err, errlen, "auth/jwt: jwt_key file %s is readable "
			 "or writable by group or other (mode %04o): refusing "
			 "it (chmod 0400 %s)", path,
			 (unsigned)(st.st_mode & 07777), path);
		goto out;
	}
	if (st.st_uid != 0 && st.st_uid != slurm_user) {
		snprintf(err, errlen, "auth/jwt: jwt_key file %s is owned by "
			 "uid %u, not by root or SlurmUser (uid %u): refusing "
			 "it", path, (unsigned)st.st_uid, (unsigned)slurm_user);
		goto out;
	}
	if (st.st_size < 1 || st.st_size > KEY_MAX) {
		snprintf(err, errlen, "auth/jwt: jwt_key file %s has %jd "
			 "bytes: a key has 1 to %d (dd if=/dev/random of=%s "
			 "bs=32 count=1)", path, (intmax_t)st.st_size, KEY_MAX,
			 path);
		goto out;
	}
	buf = xmalloc((size_t)st.st_size);
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			snprintf(err, errlen, "auth/jwt: cannot read jwt_key "
				 "file %s: %s", path,
				 n ? strerror(errno) : "short read");
			goto out;
		}
		got += (size_t)n;
	}
	if (got < KEY_WEAK)
		info("auth/jwt: jwt_key file %s has only %zu bytes; 32 random "
		     "bytes or more are recommended", path, got);
	rc = jwt_key_set(buf, got);
out:
	if (buf) {
		memset(buf, 0, got);
		xfree(buf);
	}
	close(fd);
	return rc;
}

/* ---- making ---- */

char *jwt_create(const char *user, time_t now, int lifespan)
{
	jwt_t *j = NULL;
	char *s, *out = NULL;

	if (!jw.key || !user || !*user || lifespan < 1)
		return NULL;
	if (jwt_new(&j) ||
	    jwt_add_grant_int(j, "iat", (long)now) ||
	    jwt_add_grant_int(j, "exp", (long)now + lifespan) ||
	    jwt_add_grant(j, "sun", user) ||
	    jwt_set_alg(j, JWT_ALG_HS256, jw.key, (int)jw.key_len))
		goto out;
	if ((s = jwt_encode_str(j))) {
		out = xstrdup(s);
		free(s);
	}
out:
	jwt_free(j);
	return out;
}

/* ---- checking ---- */

/* A base64url part holding a JSON object, or NULL. */
static json_object *part_json(const char *s, size_t n)
{
	json_tokener *tok;
	json_object *o = NULL;
	size_t len = 0;
	char *txt = b64url_decode(s, n, &len);

	if (!txt || !len || strlen(txt) != len) {
		xfree(txt);
		return NULL;
	}
	tok = json_tokener_new();
	if (tok) {
		o = json_tokener_parse_ex(tok, txt, (int)len);
		if (o && (json_tokener_get_parse_end(tok) != len ||
			  !json_object_is_type(o, json_type_object))) {
			json_object_put(o);
			o = NULL;
		}
		json_tokener_free(tok);
	}
	xfree(txt);
	return o;
}

static const char *why_fmt(const char *fmt, const char *arg)
{
	snprintf(why_buf, sizeof(why_buf), fmt, arg);
	return why_buf;
}

/* An integer claim: 0 and *v, 1 missing, -1 not an integer. */
static int claim_int(json_object *payload, const char *name, int64_t *v)
{
	json_object *o;

	if (!json_object_object_get_ex(payload, name, &o) || !o)
		return 1;
	if (!json_object_is_type(o, json_type_int))
		return -1;
	*v = json_object_get_int64(o);
	return 0;
}

/* The header's shape and algorithm, the payload's shape: NULL when
 * they are right (*payload set), else the reason. */
static const char *check_shape(const char *t, size_t len,
			       json_object **payload)
{
	const char *d1 = memchr(t, '.', len), *d2, *alg;
	json_object *head, *a;

	*payload = NULL;
	d2 = d1 ? memchr(d1 + 1, '.', len - (size_t)(d1 + 1 - t)) : NULL;
	if (!d1 || !d2 || memchr(d2 + 1, '.', len - (size_t)(d2 + 1 - t)))
		return "malformed token: not three base64url parts";
	if (!(head = part_json(t, (size_t)(d1 - t))))
		return "malformed token: header is not base64url JSON";
	if (!json_object_object_get_ex(head, "alg", &a) ||
	    !json_object_is_type(a, json_type_string)) {
		json_object_put(head);
		return "malformed token: no alg in header";
	}
	alg = json_object_get_string(a);
	if (strcmp(alg, "HS256")) {
		const char *w = why_fmt("wrong algorithm: alg %.40s (only HS256 "
					"is accepted)", alg);

		json_object_put(head);
		return w;
	}
	json_object_put(head);
	*payload = part_json(d1 + 1, (size_t)(d2 - d1 - 1));
	if (!*payload)
		return "malformed token: payload is not base64url JSON";
	for (const char *p = d2 + 1; p < t + len; p++)
		if (b64url_value((unsigned char)*p) < 0) {
			json_object_put(*payload);
			*payload = NULL;
			return "malformed token: signature is not base64url";
		}
	return NULL;
}

static const char *check_claims(json_object *payload, time_t now,
				char *user, size_t ulen)
{
	json_object *sun;
	int64_t exp = 0, iat = 0;
	int rc;

	if ((rc = claim_int(payload, "exp", &exp)))
		return rc > 0 ? "no exp claim" : "malformed token: exp is not "
						 "a number";
	if ((rc = claim_int(payload, "iat", &iat)))
		return rc > 0 ? "no iat claim" : "malformed token: iat is not "
						 "a number";
	if (exp <= (int64_t)now)
		return "token expired";
	if (iat > (int64_t)now + JWT_IAT_SKEW)
		return "token issued in the future (iat)";
	if (!json_object_object_get_ex(payload, "sun", &sun) || !sun ||
	    !json_object_is_type(sun, json_type_string) ||
	    !json_object_get_string_len(sun))
		return "no sun (user name) claim";
	if ((size_t)json_object_get_string_len(sun) >= ulen ||
	    strlen(json_object_get_string(sun)) !=
	    (size_t)json_object_get_string_len(sun))
		return "malformed token: bad sun claim";
	memcpy(user, json_object_get_string(sun),
	       (size_t)json_object_get_string_len(sun) + 1);
	return NULL;
}

int jwt_verify(const char *token, size_t len, time_t now, char *user,
	       size_t ulen, const char **why)
{
	json_object *payload = NULL;
	jwt_t *j = NULL;
	char *t;

	*why = NULL;
	if (!jw.key) {
		*why = "auth/jwt has no key";
		return -1;
	}
	if (!token || !len || len > JWT_MAX_LEN || memchr(token, '\0', len)) {
		*why = "malformed token: empty, too long or not text";
		return -1;
	}
	if ((*why = check_shape(token, len, &payload)))
		return -1;
	t = xstrndup(token, len);
	if (jwt_decode(&j, t, jw.key, (int)jw.key_len) || !j ||
	    jwt_get_alg(j) != JWT_ALG_HS256)
		*why = "bad signature";
	else
		*why = check_claims(payload, now, user, ulen);
	if (j)
		jwt_free(j);
	xfree(t);
	json_object_put(payload);
	return *why ? -1 : 0;
}

int jwt_verify_cred(const char *token, size_t len, uid_t *uid, gid_t *gid,
		    const char **why)
{
	const char *sp = token ? memchr(token, ' ', len) : NULL;
	char user[USER_MAX], as[USER_MAX];
	size_t tlen = sp ? (size_t)(sp - token) : len;
	uid_t u;
	gid_t g;

	if (jwt_verify(token, tlen, time(NULL), user, sizeof(user), why) < 0)
		return -1;
	if (uid_cache_by_name(user, &u, &g) < 0) {
		*why = why_fmt("unknown user '%.64s' (sun)", user);
		return -1;
	}
	if (sp) {
		size_t alen = len - tlen - 1;

		if (!alen || alen >= sizeof(as) || memchr(sp + 1, '\0', alen) ||
		    memchr(sp + 1, ' ', alen)) {
			*why = "malformed credential: bad user name after the "
			       "token";
			return -1;
		}
		memcpy(as, sp + 1, alen);
		as[alen] = '\0';
		if (strcmp(as, user) && u != 0 && u != jw.slurm_user) {
			snprintf(why_buf, sizeof(why_buf), "token of user "
				 "'%.64s' may not act as '%.64s' (only root's "
				 "and SlurmUser's may)", user, as);
			*why = why_buf;
			return -1;
		}
		if (uid_cache_by_name(as, &u, &g) < 0) {
			*why = why_fmt("unknown user '%.64s'", as);
			return -1;
		}
	}
	*uid = u;
	*gid = g;
	return 0;
}
