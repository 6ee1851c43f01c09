/* fuzz_acct_outbox.c — libFuzzer harness for the accounting outbox file
 * (what slurmctld reads back after a crash) and the records in it: the
 * input is parsed as a file (header, then frames until a torn or corrupt
 * one), and each frame's record is unpacked by its kind and freed. */
#include <stddef.h>
#include <stdint.h>

#include "common/acct_rec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t epoch;
	size_t off;

	/* With or without a valid header, walk the frames. */
	off = acct_outbox_header_parse(data, size, &epoch) == 0 ?
		ACCT_OUTBOX_HDR_LEN : 0;
	while (off < size) {
		acct_frame_t f;
		size_t n = acct_frame_decode(data + off, size - off, &f);
		void *rec;

		if (!n)
			break;
		rec = acct_rec_unpack(f.kind, f.data, f.len);
		acct_rec_free(f.kind, rec);
		acct_frame_free_members(&f);
		off += n;
	}
	/* The bytes as a bare record of every kind. */
	for (uint16_t k = 1; k < ACCT_REC_KIND_END; k++)
		acct_rec_free(k, acct_rec_unpack(k, data, (uint32_t)size));
	return 0;
}
