/* fuzz_msg_session.c — a session's framing (msg.h) from arbitrary bytes:
 * the input is a stream of messages on one connection whose session is
 * open under a fixed key, decoded as slurmctld's server does
 * (msg_decode_session) and as slurmrestd checks replies (msg_decode with
 * its session set).  The first byte's low bit says whether to write the
 * right sequence and MAC into each credential before decoding (so the
 * fuzzer gets past the MAC into the body unpackers and the sequence
 * logic); otherwise the bytes are taken as they are.  No auth plugin is
 * loaded: an opening (keyed MUNGE credential) is refused without one.
 *
 * Invariants checked (abort on violation): a refused message leaves the
 * session as it was; an accepted one names the session's uid; a message
 * with the bytes as given (no MAC written) is never accepted unless its
 * MAC happens to be right (2^-256).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/msg.h"
#include "common/msg_types.h"
#include "common/pack.h"
#include "common/xmalloc.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	log_options_t quiet = { LOG_LEVEL_QUIET, LOG_LEVEL_QUIET, false, false };

	(void)argc;
	(void)argv;
	log_init("fuzz_msg_session", quiet, NULL);
	return 0;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	msg_session_t srv, cli;
	bool fix;
	size_t off = 1;

	if (size < 1)
		return 0;
	fix = data[0] & 1;
	memset(&srv, 0, sizeof(srv));
	for (int i = 0; i < MSG_SESSION_KEY_LEN; i++)
		srv.key[i] = (uint8_t)(i * 7 + 1);
	srv.uid = 4242;
	srv.gid = 4243;
	srv.open = true;
	cli = srv;

	while (size - off >= MSG_HEADER_LEN) {
		uint8_t raw[MSG_HEADER_LEN], *rest;
		msg_header_t h;
		slurm_msg_t m;
		msg_session_t before = srv;
		size_t need;
		int rc;

		memcpy(raw, data + off, MSG_HEADER_LEN);
		off += MSG_HEADER_LEN;
		if (msg_header_parse(raw, &h) != 0)
			break;
		need = (size_t)h.cred_len + h.body_len;
		if (fix && h.cred_len < MSG_SESSION_CRED_LEN &&
		    h.cred_len + h.body_len <= size - off) {
			/* make room for a MAC credential out of the body */
			uint32_t take = MSG_SESSION_CRED_LEN - h.cred_len;

			if (h.body_len < take)
				break;
			h.cred_len += take;
			h.body_len -= take;
			put_be32(raw + 10, h.cred_len);
			put_be32(raw + 14, h.body_len);
		}
		if (need > size - off)
			break;
		rest = xmalloc(need + 1);
		memcpy(rest, data + off, need);
		off += need;
		if (fix && h.cred_len == MSG_SESSION_CRED_LEN) {
			uint8_t digest[32];

			raw[8] = 0;
			raw[9] = MSG_FLAG_SESSION_MAC;
			h.flags = MSG_FLAG_SESSION_MAC;
			msg_digest_of(raw, rest + h.cred_len, h.body_len, digest);
			msg_session_cred(&srv, 'Q', srv.seq, digest, rest);
		}
		memset(&m, 0, sizeof(m));
		rc = msg_decode_session(raw, &h, rest, rest + h.cred_len, &srv,
					&m);
		if (rc != 0 && memcmp(&before, &srv, sizeof(srv)))
			abort();        /* a refusal changed the session */
		if (rc == 0 && (m.auth_uid != 4242 || m.auth_gid != 4243))
			abort();        /* a session speaks only for its uid */
		if (rc == 0 && !fix)
			abort();        /* a MAC nobody computed was taken */
		if (rc == 0)
			srv.seq++;      /* answered */
		msg_free(&m);

		/* the same bytes as a reply to slurmrestd's session */
		memset(&m, 0, sizeof(m));
		msg_session_client(&cli);
		rc = msg_decode(raw, &h, rest, rest + h.cred_len, &m);
		msg_session_client(NULL);
		if (rc == 0 && !fix)
			abort();
		msg_free(&m);
		xfree(rest);
	}
	return 0;
}
