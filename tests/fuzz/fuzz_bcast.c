/* fuzz_bcast.c — what slurmd does with an sbcast block or an sgather
 * request before anything runs as the user: unpack the body (first
 * byte picks REQUEST_FILE_BCAST, REQUEST_FILE_GATHER or
 * RESPONSE_FILE_GATHER), check it (bcast_block_check, bcast_gather_check,
 * bcast_block_sig) and decompress a block that passed into a buffer of
 * its stated size.  What unpacks must pack back to bytes that unpack
 * and pack the same. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/bcast_block.h"
#include "common/msg_types.h"
#include "common/pack.h"
#include "common/xmalloc.h"

static const uint16_t types[] = {
	REQUEST_FILE_BCAST, REQUEST_FILE_GATHER, RESPONSE_FILE_GATHER,
	REQUEST_SBCAST_CRED, RESPONSE_SBCAST_CRED,
};

static void _check(uint16_t type, void *msg)
{
	char why[256];

	if (type == REQUEST_FILE_BCAST) {
		file_bcast_msg_t *m = msg;

		(void) bcast_block_sig(m, "n1");
		if (bcast_block_check(m, why, sizeof(why)) == 0) {
			char *out = xmalloc(m->block_len + 1);

			(void) bcast_decompress(m->compress, m->data,
						m->data_len, out,
						m->block_len);
			xfree(out);
		}
	} else if (type == REQUEST_FILE_GATHER) {
		(void) bcast_gather_check(msg, why, sizeof(why));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint16_t type;
	void *msg = NULL, *msg2 = NULL;
	buf_t *b, *p1, *p2;

	if (!size)
		return 0;
	type = types[data[0] % (sizeof(types) / sizeof(types[0]))];
	b = buf_view(data + 1, size - 1);
	if (msg_body_unpack(type, b, &msg) == 0) {
		_check(type, msg);
		p1 = buf_create(256);
		if (msg_body_pack(type, msg, p1) < 0)
			abort();
		buf_destroy(b);
		b = buf_view(buf_data(p1), buf_len(p1));
		if (msg_body_unpack(type, b, &msg2) < 0)
			abort();
		p2 = buf_create(256);
		if (msg_body_pack(type, msg2, p2) < 0 ||
		    buf_len(p1) != buf_len(p2) ||
		    memcmp(buf_data(p1), buf_data(p2), buf_len(p1)))
			abort();
		buf_destroy(p2);
		buf_destroy(p1);
		msg_body_free(type, msg2);
		msg_body_free(type, msg);
	}
	buf_destroy(b);
	return 0;
}
