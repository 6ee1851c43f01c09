/* msg.c — message framing, authentication and blocking send/receive
 * (see msg.h).
 *
 * The digest that the credential carries is SHA-256 over the 18 header
 * bytes as sent, except that the credential-length field is taken as zero
 * (the credential's length cannot be known before the credential exists),
 * followed by the body.  So magic, version, type, flags, body length and
 * body are all bound to the credential.
 *
 * msg_decode() logs an authentication failure as
 *     "Authentication failure from <msg->peer>: <why>"
 * so a caller that knows its peer sets msg->peer before decoding; decode
 * keeps it.  Timeouts of 0 or less mean "wait forever".
 */
#define _GNU_SOURCE     /* struct ucred */
#include "common/msg.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>


#include "common/auth.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/sha256.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#define CRED_LEN_OFFSET 10      /* u32 magic, u16 version, u16 type, u16 flags */

/* ---- header and digest ---- */

static void header_write(uint8_t raw[MSG_HEADER_LEN], const msg_header_t *h)
{
	buf_t *b = buf_create(MSG_HEADER_LEN);

	pack32(b, h->magic);
	pack16(b, h->version);
	pack16(b, h->type);
	pack16(b, h->flags);
	pack32(b, h->cred_len);
	pack32(b, h->body_len);
	memcpy(raw, buf_data(b), MSG_HEADER_LEN);
	buf_destroy(b);
}

static void header_read(const uint8_t raw[MSG_HEADER_LEN], msg_header_t *h)
{
	buf_t *b = buf_view(raw, MSG_HEADER_LEN);

	unpack32(b, &h->magic);
	unpack16(b, &h->version);
	unpack16(b, &h->type);
	unpack16(b, &h->flags);
	unpack32(b, &h->cred_len);
	unpack32(b, &h->body_len);
	buf_destroy(b);
}

void msg_digest_of(const uint8_t raw_header[MSG_HEADER_LEN],
		   const uint8_t *body, uint32_t body_len, uint8_t digest[32])
{
	uint8_t hdr[MSG_HEADER_LEN];
	sha256_t sh;

	memcpy(hdr, raw_header, MSG_HEADER_LEN);
	memset(hdr + CRED_LEN_OFFSET, 0, 4);
	sha256_init(&sh);
	sha256_update(&sh, hdr, MSG_HEADER_LEN);
	if (body_len)
		sha256_update(&sh, body, body_len);
	sha256_final(&sh, digest);
}

static int msg_digest(const uint8_t raw_header[MSG_HEADER_LEN],
		      const uint8_t *body, uint32_t body_len,
		      uint8_t digest[AUTH_DIGEST_LEN])
{
	msg_digest_of(raw_header, body, body_len, digest);
	return 0;
}

int msg_header_parse(const uint8_t raw[MSG_HEADER_LEN], msg_header_t *h)
{
	header_read(raw, h);
	if (h->magic != MSG_MAGIC || !proto_supported(h->version))
		return SLURM_PROTOCOL_VERSION_ERROR;
	if (!msg_desc_find(h->type))
		return SLURM_UNEXPECTED_MSG_ERROR;
	if (h->cred_len > MSG_MAX_CRED_LEN || h->body_len > MSG_MAX_BODY_LEN)
		return SLURM_PROTOCOL_INSANE_MSG_LENGTH;
	return SLURM_SUCCESS;
}

uint16_t msg_version_reply_to(uint16_t v)
{
	return v && v < PROTO_OWN ? v : PROTO_OWN;
}

void msg_version_refused(const msg_header_t *h, const char *peer, char *why,
			 size_t len)
{
	char pv[16], own[16], old[16], txt[256];

	proto_str(h->version, pv, sizeof(pv));
	proto_str(PROTO_OWN, own, sizeof(own));
	proto_str(proto_oldest(), old, sizeof(old));
	if (h->version > PROTO_OWN)
		snprintf(txt, sizeof(txt), "%s speaks protocol version %s, "
			 "newer than this %s's %s (served: %s to %s): "
			 "upgrade %s first", peer, pv,
			 program_invocation_short_name, own, old, own,
			 program_invocation_short_name);
	else
		snprintf(txt, sizeof(txt), "%s speaks protocol version %s, "
			 "older than the oldest this %s %s serves (%s to %s): "
			 "upgrade the sender to %s or later", peer, pv,
			 program_invocation_short_name, own, old, own, old);
	error("%s (%s)", txt, msg_type_name(h->type));
	if (why)
		snprintf(why, len, "%s", txt);
}

/* ---- encode / decode ---- */

static void put_raw(buf_t *b, const void *p, size_t n)
{
	buf_t *v = buf_view(p, n);

	packbuf(b, v);
	buf_destroy(v);
}

static bool header_same(const msg_header_t *a, const msg_header_t *b)
{
	return a->magic == b->magic && a->version == b->version &&
	       a->type == b->type && a->flags == b->flags &&
	       a->cred_len == b->cred_len && a->body_len == b->body_len;
}

/* ---- auth/jwt: the token a thread sends, the check a daemon makes ---- */

static __thread char *jwt_thread;
static char *jwt_process;               /* set at start, then only read */
static msg_jwt_verify_f jwt_verify_fn;  /* the same */

void msg_auth_jwt_set(const char *token)
{
	xfree(jwt_thread);
	jwt_thread = token && *token ? xstrdup(token) : NULL;
}

void msg_auth_jwt_set_as(const char *token, const char *user)
{
	xfree(jwt_thread);
	if (token && *token)
		jwt_thread = user && *user ?
			xstrdup_printf("%s %s", token, user) : xstrdup(token);
}

void msg_auth_jwt_clear(void)
{
	xfree(jwt_thread);
}

void msg_auth_jwt_set_process(const char *token)
{
	xfree(jwt_process);
	jwt_process = token && *token ? xstrdup(token) : NULL;
}

const char *msg_auth_jwt(void)
{
	return jwt_thread ? jwt_thread : jwt_process;
}

void msg_auth_jwt_accept(msg_jwt_verify_f f)
{
	jwt_verify_fn = f;
}

static void jwt_reply_mac(const char *token, size_t len,
			  const uint8_t digest[AUTH_DIGEST_LEN],
			  uint8_t mac[SHA256_LEN])
{
	hmac_sha256_key_t k;

	hmac_sha256_key(&k, token, len);
	hmac_sha256(&k, digest, AUTH_DIGEST_LEN, mac);
	memset(&k, 0, sizeof(k));
}

/* ---- sessions (msg.h) ---- */

#define SESSION_LABEL "sluice-session-1"

static __thread msg_session_t *client_sess;

void msg_session_client(msg_session_t *s)
{
	client_sess = s;
}

void msg_session_advance(msg_session_t *s)
{
	s->open = true;
	s->seq++;
}

void msg_session_cred(const msg_session_t *s, char dir, uint64_t seq,
		      const uint8_t digest[32], uint8_t out[MSG_SESSION_CRED_LEN])
{
	hmac_sha256_key_t k;
	sha256_t sh;
	uint8_t be[8];

	for (int i = 0; i < 8; i++)
		be[i] = (uint8_t)(seq >> (56 - 8 * i));
	hmac_sha256_key(&k, s->key, MSG_SESSION_KEY_LEN);
	hmac_sha256_init(&k, &sh);
	sha256_update(&sh, SESSION_LABEL, sizeof(SESSION_LABEL) - 1);
	sha256_update(&sh, &dir, 1);
	sha256_update(&sh, be, 8);
	sha256_update(&sh, digest, AUTH_DIGEST_LEN);
	memcpy(out, be, 8);
	hmac_sha256_final(&k, &sh, out + 8);
	memset(&k, 0, sizeof(k));
}

/* A MSG_FLAG_SESSION_MAC credential: dir, the expected seq, the MAC. */
static int session_check(const msg_session_t *s, char dir,
			 const msg_header_t *h, const uint8_t *cred,
			 const uint8_t digest[AUTH_DIGEST_LEN],
			 const char **why)
{
	uint8_t want[MSG_SESSION_CRED_LEN];

	if (h->flags != MSG_FLAG_SESSION_MAC) {
		*why = "bad credential flags in a session";
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	}
	if (h->cred_len != MSG_SESSION_CRED_LEN) {
		*why = "session credential of the wrong length";
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	}
	msg_session_cred(s, dir, s->seq, digest, want);
	if (memcmp(cred, want, 8)) {
		*why = "session message out of sequence (replayed or lost)";
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	}
	if (!sha256_equal(cred + 8, want + 8, SHA256_LEN)) {
		*why = "session MAC does not match (forged or altered)";
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	}
	return SLURM_SUCCESS;
}

/* The credential: none (peer), the thread's token, a reply's MAC keyed
 * with the request's token or a session's key, a session's opening or
 * MAC, or the auth plugin's over the digest. */
static int make_cred(const uint8_t raw[MSG_HEADER_LEN], const msg_header_t *h,
		     const buf_t *body, const char *jwt, const char *reply_tok,
		     size_t reply_len, const msg_session_t *sess, char dir,
		     char **cred, uint32_t *cred_len)
{
	uint8_t digest[AUTH_DIGEST_LEN];

	*cred = NULL;
	*cred_len = 0;
	if (h->flags & MSG_FLAG_PEER)
		return SLURM_SUCCESS;   /* the kernel names the sender */
	if (jwt) {
		*cred_len = (uint32_t)strlen(jwt);
		*cred = xstrdup(jwt);
		return *cred_len > MSG_MAX_CRED_LEN ?
			SLURM_PROTOCOL_AUTHENTICATION_ERROR : SLURM_SUCCESS;
	}
	if (msg_digest(raw, buf_data(body), h->body_len, digest) < 0)
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	if (reply_tok) {
		*cred = xmalloc(SHA256_LEN);
		jwt_reply_mac(reply_tok, reply_len, digest, (uint8_t *)*cred);
		*cred_len = SHA256_LEN;
		return SLURM_SUCCESS;
	}
	if (sess && (h->flags & MSG_FLAG_SESSION_MAC)) {
		*cred = xmalloc(MSG_SESSION_CRED_LEN);
		msg_session_cred(sess, dir, sess->seq, digest, (uint8_t *)*cred);
		*cred_len = MSG_SESSION_CRED_LEN;
		return SLURM_SUCCESS;
	}
	if (sess) {                     /* opening: the key to SlurmUser */
		if (auth_create_keyed(digest, sess->key,
				      auth_context_slurm_user(), cred,
				      cred_len) != SLURM_SUCCESS ||
		    *cred_len > MSG_MAX_CRED_LEN)
			return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
		return SLURM_SUCCESS;
	}
	if (auth_create(digest, cred, cred_len) != SLURM_SUCCESS ||
	    *cred_len > MSG_MAX_CRED_LEN)
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	return SLURM_SUCCESS;
}

/* Header and credential for body into *out, with room for the body after
 * them when the caller appends it.  reply_tok: the reply to a request
 * that carried this token; srv_sess: the reply to a session's request. */
static int encode_head_as(uint16_t type, const buf_t *body, buf_t **out,
			  bool room_for_body, bool peer, const char *reply_tok,
			  size_t reply_len, const msg_session_t *srv_sess)
{
	const char *jwt = peer || reply_tok || srv_sess ? NULL : msg_auth_jwt();
	const msg_session_t *sess = peer || reply_tok ? NULL :
		srv_sess ? srv_sess : client_sess;
	msg_header_t h = { MSG_MAGIC,
			   buf_proto(body) ? buf_proto(body) : PROTO_OWN, type,
			   peer ? MSG_FLAG_PEER :
			   reply_tok ? MSG_FLAG_JWT_REPLY :
			   jwt ? MSG_FLAG_JWT :
			   srv_sess || (sess && sess->open) ?
			   MSG_FLAG_SESSION_MAC :
			   sess ? MSG_FLAG_SESSION : MSG_FLAG_NONE, 0, 0 };
	uint8_t raw[MSG_HEADER_LEN];
	char *cred = NULL;
	uint32_t cred_len = 0;
	buf_t *b;

	*out = NULL;
	if (jwt && sess) {              /* a session is the process's uid */
		error("%s: a session cannot carry an auth/jwt token",
		      msg_type_name(type));
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	}
	if (!msg_desc_find(type))
		return SLURM_UNEXPECTED_MSG_ERROR;
	if (buf_len(body) > MSG_MAX_BODY_LEN)
		return SLURM_PROTOCOL_INSANE_MSG_LENGTH;
	h.body_len = (uint32_t)buf_len(body);
	header_write(raw, &h);
	if (make_cred(raw, &h, body, jwt, reply_tok, reply_len,
		      jwt ? NULL : sess, srv_sess ? 'R' : 'Q', &cred,
		      &cred_len) != SLURM_SUCCESS) {
		xfree(cred);
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	}
	h.cred_len = cred_len;
	header_write(raw, &h);
	b = buf_create(MSG_HEADER_LEN + cred_len +
		       (room_for_body ? h.body_len : 0));
	put_raw(b, raw, MSG_HEADER_LEN);
	put_raw(b, cred, cred_len);
	xfree(cred);
	*out = b;
	return SLURM_SUCCESS;
}

static int encode_head(uint16_t type, const buf_t *body, buf_t **out,
		       bool room_for_body, bool peer)
{
	return encode_head_as(type, body, out, room_for_body, peer, NULL, 0,
			      NULL);
}

int msg_encode_prefix_session(uint16_t type, const buf_t *body,
			      const msg_session_t *s, buf_t **prefix)
{
	if (!s || !s->open) {
		*prefix = NULL;
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	}
	return encode_head_as(type, body, prefix, false, false, NULL, 0, s);
}

int msg_encode_prefix_jwt_reply(uint16_t type, const buf_t *body,
				const char *token, size_t len,
				buf_t **prefix)
{
	if (!token || !len) {
		*prefix = NULL;
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	}
	return encode_head_as(type, body, prefix, false, false, token, len,
			      NULL);
}

static int encode_packed(uint16_t type, const buf_t *body, buf_t **out,
			 bool peer)
{
	int rc = encode_head(type, body, out, true, peer);

	if (rc == SLURM_SUCCESS)
		packbuf(*out, body);
	return rc;
}

int msg_encode_packed(uint16_t type, const buf_t *body, buf_t **out)
{
	return encode_packed(type, body, out, false);
}

int msg_encode_prefix(uint16_t type, const buf_t *body, buf_t **prefix)
{
	return encode_head(type, body, prefix, false, false);
}

int msg_encode_prefix_peer(uint16_t type, const buf_t *body, buf_t **prefix)
{
	return encode_head(type, body, prefix, false, true);
}

static int encode(uint16_t type, const void *data, buf_t **out, bool peer,
		  uint16_t version)
{
	buf_t *body;
	int rc;

	*out = NULL;
	if (!msg_desc_find(type))
		return SLURM_UNEXPECTED_MSG_ERROR;
	body = buf_create(256);
	buf_set_proto(body, version);
	if (msg_body_pack(type, data, body) < 0) {
		error("cannot pack %s: no body given", msg_type_name(type));
		rc = SLURM_ERROR;
	} else {
		rc = encode_packed(type, body, out, peer);
	}
	buf_destroy(body);
	return rc;
}

int msg_encode(uint16_t type, const void *data, buf_t **out)
{
	return encode(type, data, out, false, 0);
}

int msg_encode_peer(uint16_t type, const void *data, buf_t **out)
{
	return encode(type, data, out, true, 0);
}

static int check_header(const uint8_t raw_header[MSG_HEADER_LEN],
			const msg_header_t *h)
{
	msg_header_t chk;
	int rc = msg_header_parse(raw_header, &chk);

	if (rc != SLURM_SUCCESS)
		return rc;
	if (!header_same(&chk, h))      /* h must describe raw_header */
		return SLURM_ERROR;
	return SLURM_SUCCESS;
}

/* body lies in *block (block NULL: in the caller's memory), which the
 * body's unpacker may keep (buf_view_in). */
static int unpack_as(const msg_header_t *h, const uint8_t *body,
		     void **block, uid_t uid, gid_t gid, slurm_msg_t *msg)
{
	void *data = NULL;
	buf_t *b;
	int rc;

	b = block ? buf_view_in(body, h->body_len, block) :
		buf_view(body, h->body_len);
	buf_set_proto(b, h->version);
	rc = msg_body_unpack(h->type, b, &data);
	buf_destroy(b);
	if (rc < 0) {
		error("%s from %s (uid %u): malformed body of %u bytes",
		      msg_type_name(h->type), msg->peer[0] ? msg->peer : "unknown peer",
		      (unsigned)uid, h->body_len);
		return SLURM_COMMUNICATIONS_RECEIVE_ERROR;
	}
	msg->type = h->type;
	msg->version = h->version;
	msg->flags = h->flags;
	msg->auth_uid = uid;
	msg->auth_gid = gid;
	msg->data = data;
	return SLURM_SUCCESS;
}

/* The credential names the sender: 0 with uid/gid, or a slurm_err_t
 * and *why. */
static int check_cred(const uint8_t raw_header[MSG_HEADER_LEN],
		      const msg_header_t *h, const uint8_t *cred,
		      const uint8_t *body, uid_t *uid, gid_t *gid,
		      const char **why)
{
	uint8_t digest[AUTH_DIGEST_LEN], mac[SHA256_LEN];
	const char *tok;

	if (h->flags & MSG_FLAG_PEER) {
		*why = "no credential";
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	}
	if ((h->flags & MSG_FLAG_JWT) && (h->flags & MSG_FLAG_JWT_REPLY)) {
		*why = "bad credential flags";
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	}
	if (h->flags & MSG_FLAG_SESSION) {
		*why = "session opened where sessions are not served";
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	}
	if (h->flags & MSG_FLAG_SESSION_MAC) {  /* a reply in our session */
		if (!client_sess) {
			*why = "session message outside a session";
			return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
		}
		msg_digest(raw_header, body, h->body_len, digest);
		if (session_check(client_sess, 'R', h, cred, digest, why))
			return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
		*uid = auth_context_slurm_user();   /* the daemon */
		*gid = 0;
		return SLURM_SUCCESS;
	}
	if (h->flags & MSG_FLAG_JWT) {
		if (!jwt_verify_fn) {
			*why = "auth/jwt token, but AuthAltTypes=auth/jwt is "
			       "not configured here";
			return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
		}
		if (jwt_verify_fn((const char *)cred, h->cred_len, uid, gid,
				  why) < 0)
			return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
		return SLURM_SUCCESS;
	}
	if (msg_digest(raw_header, body, h->body_len, digest) < 0)
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	if (h->flags & MSG_FLAG_JWT_REPLY) {
		if (!(tok = msg_auth_jwt())) {
			*why = "auth/jwt reply, but no token was sent";
			return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
		}
		jwt_reply_mac(tok, strlen(tok), digest, mac);
		if (h->cred_len != SHA256_LEN ||
		    !sha256_equal(mac, cred, SHA256_LEN)) {
			*why = "auth/jwt reply does not match the token sent";
			return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
		}
		*uid = auth_context_slurm_user();   /* the daemon */
		*gid = 0;
		return SLURM_SUCCESS;
	}
	return auth_verify((const char *)cred, h->cred_len, digest, uid, gid,
			   why);
}

static int decode(const uint8_t raw_header[MSG_HEADER_LEN],
		  const msg_header_t *h, const uint8_t *cred,
		  const uint8_t *body, void **block, slurm_msg_t *msg)
{
	const char *why = NULL;
	uid_t uid;
	gid_t gid;
	int rc;

	msg->data = NULL;
	if ((rc = check_header(raw_header, h)) != SLURM_SUCCESS)
		return rc;
	rc = check_cred(raw_header, h, cred, body, &uid, &gid, &why);
	if (rc != SLURM_SUCCESS) {
		error("Authentication failure from %s: %s",
		      msg->peer[0] ? msg->peer : "unknown peer",
		      why ? why : "unknown reason");
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	}
	return unpack_as(h, body, block, uid, gid, msg);
}

int msg_decode(const uint8_t raw_header[MSG_HEADER_LEN], const msg_header_t *h,
	       const uint8_t *cred, const uint8_t *body, slurm_msg_t *msg)
{
	return decode(raw_header, h, cred, body, NULL, msg);
}

/* A session's request, or its opening: 0 with uid/gid (and s set up on
 * an opening), or a slurm_err_t and *why. */
static int check_session(const uint8_t raw_header[MSG_HEADER_LEN],
			 const msg_header_t *h, const uint8_t *cred,
			 const uint8_t *body, msg_session_t *s, uid_t *uid,
			 gid_t *gid, const char **why)
{
	uint8_t digest[AUTH_DIGEST_LEN], key[MSG_SESSION_KEY_LEN];
	int rc;

	msg_digest(raw_header, body, h->body_len, digest);
	if (s->open) {
		if (!(h->flags & MSG_FLAG_SESSION_MAC)) {
			*why = "a message without the session's MAC in a session";
			return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
		}
		if (session_check(s, 'Q', h, cred, digest, why))
			return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
		*uid = s->uid;
		*gid = s->gid;
		return SLURM_SUCCESS;
	}
	if (h->flags & MSG_FLAG_SESSION_MAC) {
		*why = "session message on a connection with no session";
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	}
	if (h->flags != MSG_FLAG_SESSION) {
		*why = "bad credential flags for a session's opening";
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	}
	rc = auth_verify_keyed((const char *)cred, h->cred_len, digest, key,
			       uid, gid, why);
	if (rc != SLURM_SUCCESS)
		return rc;
	memcpy(s->key, key, sizeof(key));
	memset(key, 0, sizeof(key));
	s->uid = *uid;
	s->gid = *gid;
	s->seq = 0;
	s->open = true;
	return SLURM_SUCCESS;
}

int msg_decode_session(const uint8_t raw_header[MSG_HEADER_LEN],
		       const msg_header_t *h, const uint8_t *cred,
		       const uint8_t *body, msg_session_t *s,
		       slurm_msg_t *msg)
{
	const char *why = NULL;
	uid_t uid;
	gid_t gid;
	int rc;

	if (!s->open &&
	    !(h->flags & (MSG_FLAG_SESSION | MSG_FLAG_SESSION_MAC)))
		return decode(raw_header, h, cred, body, NULL, msg);
	msg->data = NULL;
	if ((rc = check_header(raw_header, h)) != SLURM_SUCCESS)
		return rc;
	rc = check_session(raw_header, h, cred, body, s, &uid, &gid, &why);
	if (rc != SLURM_SUCCESS) {
		error("Authentication failure from %s: %s",
		      msg->peer[0] ? msg->peer : "unknown peer",
		      why ? why : "unknown reason");
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	}
	return unpack_as(h, body, NULL, uid, gid, msg);
}

int msg_decode_peer(const uint8_t raw_header[MSG_HEADER_LEN],
		    const msg_header_t *h, const uint8_t *body, uid_t uid,
		    gid_t gid, slurm_msg_t *msg)
{
	int rc;

	msg->data = NULL;
	if ((rc = check_header(raw_header, h)) != SLURM_SUCCESS)
		return rc;
	if (!(h->flags & MSG_FLAG_PEER) || h->cred_len) {
		error("Authentication failure from %s: not a peer message",
		      msg->peer[0] ? msg->peer : "unknown peer");
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	}
	return unpack_as(h, body, NULL, uid, gid, msg);
}

int msg_peer_cred(int fd, uid_t *uid, gid_t *gid)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct ucred uc;
	socklen_t ul = sizeof(uc);

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0 ||
	    ss.ss_family != AF_UNIX ||
	    getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &ul) < 0 ||
	    ul != sizeof(uc))
		return -1;
	*uid = uc.uid;
	*gid = uc.gid;
	return 0;
}

void msg_free(slurm_msg_t *msg)
{
	if (!msg || !msg->data)
		return;
	msg_body_free(msg->type, msg->data);
	msg->data = NULL;
}

/* ---- blocking I/O ---- */

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait for fd to be ready for events until deadline (0 = none).
 * 0 ready, 1 timed out, -1 error. */
static int wait_fd(int fd, short events, long long deadline)
{
	struct pollfd p = { .fd = fd, .events = events };
	int left, n;

	for (;;) {
		left = -1;
		if (deadline) {
			long long d = deadline - now_ms();

			if (d <= 0)
				return 1;
			left = d > 60000 ? 60000 : (int)d;
		}
		n = poll(&p, 1, left);
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -1;
	}
}

static ssize_t fd_write(int fd, const uint8_t *p, size_t n)
{
	ssize_t w = send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);

	if (w < 0 && errno == ENOTSOCK)
		w = write(fd, p, n);
	return w;
}

static int write_all(int fd, const uint8_t *p, size_t n, long long deadline)
{
	while (n) {
		ssize_t w = fd_write(fd, p, n);

		if (w > 0) {
			p += w;
			n -= (size_t)w;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
			return SLURM_COMMUNICATIONS_SEND_ERROR;
		switch (wait_fd(fd, POLLOUT, deadline)) {
		case 0:
			break;
		case 1:
			return SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT;
		default:
			return SLURM_COMMUNICATIONS_SEND_ERROR;
		}
	}
	return SLURM_SUCCESS;
}

/* Read exactly n bytes.  *got counts what arrived (to tell a closed
 * connection from a truncated message). */
static int read_all(int fd, uint8_t *p, size_t n, long long deadline,
		    size_t *got)
{
	size_t done = 0;
	int rc = SLURM_SUCCESS;

	while (done < n) {
		int w = wait_fd(fd, POLLIN, deadline);
		ssize_t r;

		if (w) {
			rc = w == 1 ? SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT
				    : SLURM_COMMUNICATIONS_RECEIVE_ERROR;
			break;
		}
		r = read(fd, p + done, n - done);
		if (r < 0 && (errno == EINTR || errno == EAGAIN ||
			      errno == EWOULDBLOCK))
			continue;
		if (r < 0) {
			rc = SLURM_COMMUNICATIONS_RECEIVE_ERROR;
			break;
		}
		if (r == 0) {
			rc = ESLURM_PROTOCOL_INCOMPLETE_PACKET;
			break;
		}
		done += (size_t)r;
	}
	if (got)
		*got = done;
	return rc;
}

static long long deadline_of(int timeout_ms)
{
	return timeout_ms > 0 ? now_ms() + timeout_ms : 0;
}

static int send_fd(int fd, uint16_t type, const void *data, int timeout_ms,
		   bool peer, uint16_t version)
{
	buf_t *b = NULL;
	int rc = encode(type, data, &b, peer, version);

	if (rc == SLURM_SUCCESS)
		rc = write_all(fd, buf_data(b), buf_len(b), deadline_of(timeout_ms));
	buf_destroy(b);
	return rc;
}

int msg_send_fd(int fd, uint16_t type, const void *data, int timeout_ms)
{
	return send_fd(fd, type, data, timeout_ms, false, 0);
}

int msg_send_fd_peer(int fd, uint16_t type, const void *data, int timeout_ms)
{
	return send_fd(fd, type, data, timeout_ms, true, 0);
}

int msg_send_fd_at(int fd, uint16_t type, const void *data,
		   uint16_t version, bool peer, int timeout_ms)
{
	return send_fd(fd, type, data, timeout_ms, peer, version);
}

static void fd_peer(int fd, char *out, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char host[INET6_ADDRSTRLEN] = "";
	uint16_t port = 0;

	snprintf(out, len, "unknown");
	if (getpeername(fd, (struct sockaddr *)&ss, &sl) < 0)
		return;
	if (ss.ss_family == AF_INET) {
		struct sockaddr_in *in = (struct sockaddr_in *)&ss;

		inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
		port = ntohs(in->sin_port);
		snprintf(out, len, "%s:%u", host, port);
	} else if (ss.ss_family == AF_INET6) {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;

		inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
		port = ntohs(in6->sin6_port);
		snprintf(out, len, "[%s]:%u", host, port);
	} else if (ss.ss_family == AF_UNIX) {
		snprintf(out, len, "unix");
	}
}

int msg_recv_fd(int fd, slurm_msg_t *msg, int timeout_ms)
{
	long long deadline = deadline_of(timeout_ms);
	uint8_t raw[MSG_HEADER_LEN], *rest = NULL;
	void *block;
	msg_header_t h;
	size_t got = 0;
	int rc;

	memset(msg, 0, sizeof(*msg));
	fd_peer(fd, msg->peer, sizeof(msg->peer));
	rc = read_all(fd, raw, MSG_HEADER_LEN, deadline, &got);
	if (rc == ESLURM_PROTOCOL_INCOMPLETE_PACKET && got == 0)
		return SLURM_PROTOCOL_SOCKET_ZERO_BYTES_SENT;
	if (rc != SLURM_SUCCESS)
		return rc;
	rc = msg_header_parse(raw, &h);
	if (rc == SLURM_PROTOCOL_VERSION_ERROR && h.magic == MSG_MAGIC) {
		msg_version_refused(&h, msg->peer, NULL, 0);
		return rc;
	}
	if (rc != SLURM_SUCCESS) {
		error("bad message header from %s: %s", msg->peer,
		      slurm_strerror(rc));
		return rc;
	}
	/* One block for credential and body, which a big reply's unpacker
	 * keeps (its strings point into it): squeue's 10,000 jobs. */
	block = xmalloc_big((size_t)h.cred_len + h.body_len + 1);
	rest = block;
	rc = read_all(fd, rest, (size_t)h.cred_len + h.body_len, deadline, NULL);
	if (rc == SLURM_SUCCESS && (h.flags & MSG_FLAG_PEER)) {
		uid_t uid;
		gid_t gid;

		if (msg_peer_cred(fd, &uid, &gid) == 0) {
			rc = msg_decode_peer(raw, &h, rest + h.cred_len, uid,
					     gid, msg);
		} else {
			error("Authentication failure from %s: no credential",
			      msg->peer);
			rc = SLURM_PROTOCOL_AUTHENTICATION_ERROR;
		}
	} else if (rc == SLURM_SUCCESS) {
		rc = decode(raw, &h, rest, rest + h.cred_len, &block, msg);
	}
	xfree_big(block);
	return rc;
}
