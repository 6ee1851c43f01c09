/* fuzz_forward.c — a REQUEST_FORWARD's packed request (hex text) as a
 * slurmd unpacks it before acting on it or passing it on
 * (fwd_unpack_hex).  The first byte picks the request type; what unpacks
 * must pack back to text that unpacks and packs to the same text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/forward.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"

static const uint16_t types[] = {
	REQUEST_LAUNCH_TASKS, REQUEST_TERMINATE_JOB, REQUEST_SIGNAL_JOB,
	REQUEST_FORWARD, REQUEST_REATTACH_TASKS, RESPONSE_FORWARD,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint16_t type;
	char *text;
	void *msg = NULL;

	if (!size)
		return 0;
	type = types[data[0] % (sizeof(types) / sizeof(types[0]))];
	text = xmalloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	if (fwd_unpack_hex(type, text, &msg) == 0) {
		char *again = fwd_pack_hex(type, msg);
		void *msg2 = NULL;
		char *third;

		if (!again || fwd_unpack_hex(type, again, &msg2) < 0)
			abort();
		third = fwd_pack_hex(type, msg2);
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
