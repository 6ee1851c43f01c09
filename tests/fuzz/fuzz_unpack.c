/* fuzz_unpack.c — arbitrary bytes into the message header parser and into
 * every message type's body unpacker.  Authentication is not fuzzed (it
 * needs munged); what an attacker controls after it is.
 *
 * The first byte picks the protocol version the body is read at (every
 * version this build knows, ours as 0, and one it does not): a body that
 * unpacks must pack again at that version into something that unpacks: a
 * mismatch between a type's pack and unpack aborts.
 *
 * Build: CC=clang cmake -DSLUICE_FUZZ=ON
 *        -DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link,address,undefined ...
 * (the flags instrument libslurmfull too, so coverage reaches pack.c).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/msg.h"
#include "common/msg_types.h"
#include "common/pack.h"

static uint16_t types[1024];
static size_t ntypes;

static void find_types(void)
{
	for (uint32_t t = 0; t <= UINT16_MAX && ntypes < 1024; t++)
		if (msg_desc_find((uint16_t)t))
			types[ntypes++] = (uint16_t)t;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	log_options_t quiet = { LOG_LEVEL_QUIET, LOG_LEVEL_QUIET, false, false };

	log_init("fuzz_unpack", quiet, NULL);
	find_types();
	return 0;
}

static const uint16_t versions[] = {
	0, PROTO_24_05, PROTO_24_11, PROTO_25_05, PROTO_25_11, 0x2611,
};

static void repack(uint16_t type, void *data, uint16_t v)
{
	buf_t *b = buf_create(0);
	void *again = NULL;

	buf_set_proto(b, v);
	if (msg_body_pack(type, data, b) < 0)
		abort();
	buf_set_offset(b, 0);
	if (msg_body_unpack(type, b, &again) < 0)
		abort();
	msg_body_free(type, again);
	buf_destroy(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	msg_header_t h;
	uint16_t v;

	if (size >= MSG_HEADER_LEN)
		msg_header_parse(data, &h);
	if (!size)
		return 0;
	v = versions[data[0] % (sizeof(versions) / sizeof(versions[0]))];
	data++;
	size--;
	for (size_t i = 0; i < ntypes; i++) {
		buf_t *b = buf_view(data, size);
		void *body = NULL;

		buf_set_proto(b, v);
		if (msg_body_unpack(types[i], b, &body) == 0) {
			repack(types[i], body, v);
			msg_body_free(types[i], body);
		}
		buf_destroy(b);
	}
	return 0;
}
