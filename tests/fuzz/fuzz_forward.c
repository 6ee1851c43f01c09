/* fuzz_forward.c — a REQUEST_FORWARD's packed request (hex text) as a
 * slurmd unpacks it before acting on it or passing it on
 * (fwd_unpack_hex).  The first byte picks the request type, the second
 * the protocol version it is packed at; what unpacks must pack back (at
 * that version) to text that unpacks and packs to the same text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/forward.h"
#include "common/msg_types.h"
#include "common/proto_version.h"
#include "common/xmalloc.h"

static const uint16_t types[] = {
	REQUEST_LAUNCH_TASKS, REQUEST_TERMINATE_JOB, REQUEST_SIGNAL_JOB,
	REQUEST_FORWARD, REQUEST_REATTACH_TASKS, RESPONSE_FORWARD,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint16_t versions[] = {
		PROTO_24_05, PROTO_24_11, PROTO_25_05, PROTO_25_11, 0,
	};
	uint16_t type, v;
	char *text;
	void *msg = NULL;

	if (size < 2)
		return 0;
	type = types[data[0] % (sizeof(types) / sizeof(types[0]))];
	v = versions[data[1] % (sizeof(versions) / sizeof(versions[0]))];
	text = xmalloc(size);
	memcpy(text, data + 2, size - 2);
	text[size - 2] = '\0';
	if (fwd_unpack_hex(type, text, v, &msg) == 0) {
		char *again = fwd_pack_hex(type, msg, v);
		void *msg2 = NULL;
		char *third;

		if (!again || fwd_unpack_hex(type, again, v, &msg2) < 0)
			abort();
		third = fwd_pack_hex(type, msg2, v);
		if (!third || strcmp(third, again))
			abort();
		xfree(third);
		xfree(again);
		msg_body_free(type, msg2);
		msg_body_free(type, msg);
	}
	xfree(text);
	return 0;
}
