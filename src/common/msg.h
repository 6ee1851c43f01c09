/* msg.h — message framing: header, credential, body.
 *
 * On the wire a message is
 *     header (MSG_HEADER_LEN bytes, big-endian):
 *         u32 magic, u16 protocol version, u16 type, u16 flags,
 *         u32 credential length, u32 body length
 *     credential (auth plugin bytes; its digest covers header + body)
 *     body (packed with the message table's pack function for type)
 * The receiver checks magic, version and both lengths against their caps
 * before reading further, authenticates before unpacking, and unpacks with
 * the table's bounds-checked unpacker.  A bad message is an error value,
 * never a crash.
 *
 * Versions (proto_version.h): the header's version is the one the body is
 * packed at.  A request goes at the sender's version (or lower, for a peer
 * known to be older); a version outside the receiver's window is refused
 * before the body is read, with RESPONSE_SLURM_RC
 * SLURM_PROTOCOL_VERSION_ERROR at the receiver's version (or the sender's
 * when that is older), which tells a newer sender what to retry at
 * (net.c) and an older one what to upgrade.  A reply is packed at its
 * request's version.  The body's version is the buffer's (buf_proto): a
 * body packed for an older peer carries it, and the header says so.
 *
 * On a unix socket (slurmd and its slurmstepds, pam_slurm_adopt) a message
 * may carry MSG_FLAG_PEER and no credential: its sender is the uid and
 * gid the kernel gives for the socket's peer (SO_PEERCRED), which nobody
 * can forge, and no MUNGE round trip is spent.  Such a message from a
 * TCP peer is refused as unauthenticated.
 *
 * auth/jwt (AuthAltTypes=auth/jwt in slurmctld and slurmdbd): a message
 * with MSG_FLAG_JWT carries a JSON Web Token as its credential instead of
 * the AuthType one.  A token is not bound to the message (that is JWT's
 * model): it names a user until it expires, and whoever holds it acts as
 * that user.  The daemon answers such a request with MSG_FLAG_JWT_REPLY:
 * the credential is HMAC-SHA-256 over the reply's digest keyed with the
 * request's token, which the sender checks with the token it sent, so a
 * command with SLURM_JWT needs no MUNGE at all.  A daemon that has not
 * called msg_auth_jwt_accept() refuses tokens; a process that sent no
 * token refuses MSG_FLAG_JWT_REPLY.
 */
#ifndef SLUICE_MSG_H
#define SLUICE_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/pack.h"
#include "common/proto_version.h"

#define MSG_MAGIC            0x534c5543u    /* "SLUC" */
#define MSG_PROTOCOL_VERSION PROTO_OWN      /* ours; see proto_version.h */
#define MSG_HEADER_LEN       18
#define MSG_MAX_CRED_LEN     8192
#define MSG_MAX_BODY_LEN     (512u * 1024 * 1024)

enum {
	MSG_FLAG_NONE = 0,
	MSG_FLAG_PEER = 0x0001,    /* no credential: the unix socket's peer */
};
/* auth/jwt's flags are macros, so that code can ask #ifdef MSG_FLAG_JWT */
#define MSG_FLAG_JWT       0x0002   /* the credential is a JWT (auth/jwt) */
#define MSG_FLAG_JWT_REPLY 0x0004   /* HMAC-SHA-256(request's JWT, digest) */
/* Sessions (below) */
#define MSG_FLAG_SESSION     0x0008 /* opens one: a keyed AuthType credential */
#define MSG_FLAG_SESSION_MAC 0x0010 /* in one: u64 seq + HMAC under its key */
#define MSG_SESSION_CRED_LEN 40     /* the MAC credential: 8 + 32 bytes */
#define MSG_SESSION_KEY_LEN  32

typedef struct {
	uint32_t magic;
	uint16_t version;
	uint16_t type;
	uint16_t flags;
	uint32_t cred_len;
	uint32_t body_len;
} msg_header_t;

typedef struct {
	uint16_t type;
	uint16_t flags;
	uint16_t version;      /* the protocol version it came at */
	uid_t    auth_uid;     /* set by msg_decode from the credential */
	gid_t    auth_gid;
	void    *data;         /* the type's struct (msg_types.h), or NULL */
	char     peer[64];     /* "127.0.0.1:40112" or "unix", for logs */
} slurm_msg_t;

/* Encode a whole message (header + credential + body) into *out.
 * Returns 0 or a slurm_err_t. */
int  msg_encode(uint16_t type, const void *data, buf_t **out);
/* msg_encode() for a body already packed with msg_body_pack(): lets one
 * thread pack (the owner of the data) and another sign.  Added by the
 * protocol layer for net.c's signing workers. */
int  msg_encode_packed(uint16_t type, const buf_t *body, buf_t **out);
/* The header and credential that go before body on the wire (the body is
 * sent as it is, not copied: a squeue reply is megabytes). */
int  msg_encode_prefix(uint16_t type, const buf_t *body, buf_t **prefix);
/* Parse and check a header: magic, version, type known, lengths in caps.
 * h is filled even when the version is refused
 * (SLURM_PROTOCOL_VERSION_ERROR). */
int  msg_header_parse(const uint8_t raw[MSG_HEADER_LEN], msg_header_t *h);
/* Log a header refused for its version (h->version from peer), naming
 * both versions and what to upgrade; text for the refusal's reply into
 * why (may be NULL). */
void msg_version_refused(const msg_header_t *h, const char *peer, char *why,
			 size_t len);
/* The version to answer a request of version v refused for it at: v when
 * older than ours (the peer reads its own), else ours. */
uint16_t msg_version_reply_to(uint16_t v);
/* Authenticate (credential vs digest of raw header + body), then unpack.
 * On success fills msg (type, uid/gid, data).  Returns 0 or a slurm_err_t
 * (SLURM_PROTOCOL_AUTHENTICATION_ERROR, SLURM_UNEXPECTED_MSG_ERROR, ...). */
int  msg_decode(const uint8_t raw_header[MSG_HEADER_LEN], const msg_header_t *h,
		const uint8_t *cred, const uint8_t *body, slurm_msg_t *msg);
/* The MSG_FLAG_PEER forms: encode without a credential; decode with the
 * sender the kernel named for a unix socket (uid/gid). */
int  msg_encode_peer(uint16_t type, const void *data, buf_t **out);
int  msg_encode_prefix_peer(uint16_t type, const buf_t *body, buf_t **prefix);
int  msg_decode_peer(const uint8_t raw_header[MSG_HEADER_LEN],
		     const msg_header_t *h, const uint8_t *body, uid_t uid,
		     gid_t gid, slurm_msg_t *msg);
/* The peer of a connected unix socket; -1 for any other socket. */
int  msg_peer_cred(int fd, uid_t *uid, gid_t *gid);
/* auth/jwt, sending: while a token is set on a thread (slurmrestd's
 * workers, for the user a request authenticated as), every message the
 * thread encodes carries it (MSG_FLAG_JWT) instead of an AuthType
 * credential, and replies to it are checked with it.  The process token
 * (a command's SLURM_JWT) applies to threads without their own.  The
 * token is copied; NULL or "" clears. */
void msg_auth_jwt_set(const char *token);
void msg_auth_jwt_clear(void);
void msg_auth_jwt_set_process(const char *token);
/* The same, acting as user (slurmrestd's X-SLURM-USER-NAME): the
 * credential is "<token> <user>"; the receiver takes it only when the
 * token is root's or SlurmUser's, or names user itself (Slurm's rule). */
void msg_auth_jwt_set_as(const char *token, const char *user);
/* The credential this thread sends ("<token>" or "<token> <user>"), or
 * NULL. */
const char *msg_auth_jwt(void);
/* auth/jwt, receiving: f checks a credential (jwt.h's jwt_verify_cred):
 * 0 with uid/gid, or -1 with *why.  Set once at start, before any thread
 * decodes; without it MSG_FLAG_JWT is refused. */
typedef int (*msg_jwt_verify_f)(const char *token, size_t len, uid_t *uid,
				gid_t *gid, const char **why);
void msg_auth_jwt_accept(msg_jwt_verify_f f);
/* msg_encode_prefix() for the reply to a MSG_FLAG_JWT request that
 * carried token (len bytes): MSG_FLAG_JWT_REPLY. */
int  msg_encode_prefix_jwt_reply(uint16_t type, const buf_t *body,
				 const char *token, size_t len,
				 buf_t **prefix);

/* Sessions: many requests on one connection, one MUNGE round trip.
 *
 * A client (slurmrestd) opens a session with a request flagged
 * MSG_FLAG_SESSION whose credential is the AuthType's keyed credential
 * (auth.h create_keyed): MUNGE's encrypted payload carries the digest and
 * a random 32-byte key, decodable only by SlurmUser's uid.  The server
 * takes the sender's uid and gid and the key from it.  Every later
 * message on that connection, both ways, is flagged MSG_FLAG_SESSION_MAC
 * and its credential is
 *     u64 seq (big-endian) || HMAC-SHA-256(key, "sluice-session-1" ||
 *                                          dir || seq || digest)
 * dir 'Q' for requests, 'R' for replies, digest the message digest as
 * for any credential (header with cred_len 0, then body).  Request n (the
 * opening one is 0) is answered by reply n; the server takes request
 * n + 1 next and nothing else, so a message cannot be replayed,
 * reordered, reflected or moved to another connection (each has its own
 * key).  The uid is the opening credential's for the connection's life:
 * a session never speaks for another user.  A message that fails these
 * checks is logged and the connection closed. */
typedef struct {
	uint8_t  key[MSG_SESSION_KEY_LEN];
	uint64_t seq;           /* the request expected / outstanding */
	uid_t    uid;           /* server: the opening credential's */
	gid_t    gid;
	bool     open;          /* established (its first reply made/seen) */
} msg_session_t;

/* Client: while s is set on the thread, every message it encodes belongs
 * to s (opening it when !s->open) and replies are checked against it.
 * NULL clears.  The caller advances s (msg_session_advance) once the
 * reply is taken. */
void msg_session_client(msg_session_t *s);
void msg_session_advance(msg_session_t *s);
/* Server: authenticate and unpack a request on a connection with session
 * state s (zeroed for a new connection): the opening, a session message,
 * or (no session flags, s not open) any message msg_decode takes. */
int  msg_decode_session(const uint8_t raw_header[MSG_HEADER_LEN],
			const msg_header_t *h, const uint8_t *cred,
			const uint8_t *body, msg_session_t *s,
			slurm_msg_t *msg);
/* Server: the header and credential of the reply to request s->seq. */
int  msg_encode_prefix_session(uint16_t type, const buf_t *body,
			       const msg_session_t *s, buf_t **prefix);
/* The MAC credential of a message (for tests and the fuzz harness). */
void msg_session_cred(const msg_session_t *s, char dir, uint64_t seq,
		      const uint8_t digest[32], uint8_t out[MSG_SESSION_CRED_LEN]);
/* The digest a credential covers (header as sent, cred_len taken as 0). */
void msg_digest_of(const uint8_t raw_header[MSG_HEADER_LEN],
		   const uint8_t *body, uint32_t body_len, uint8_t digest[32]);

/* Free msg->data with the table's free function. */
void msg_free(slurm_msg_t *msg);

/* Blocking helpers on a connected socket, for commands, slurmd and stepd.
 * msg_send_fd_peer: MSG_FLAG_PEER (unix sockets only).  msg_recv_fd
 * takes either form (MSG_FLAG_PEER only on a unix socket). */
int  msg_send_fd(int fd, uint16_t type, const void *data, int timeout_ms);
int  msg_send_fd_peer(int fd, uint16_t type, const void *data,
		      int timeout_ms);
/* The same at protocol version version (0: ours), for an older peer. */
int  msg_send_fd_at(int fd, uint16_t type, const void *data,
		    uint16_t version, bool peer, int timeout_ms);
int  msg_recv_fd(int fd, slurm_msg_t *msg, int timeout_ms);

#endif
