/* fuzz_acct_outbox.c — libFuzzer harness for the accounting outbox file
 * (what slurmctld reads back after a crash) and the records in it.  The
 * first input byte picks the version: bit 7 the file format (1 or 2)
 * when the rest has no valid header, the low bits the protocol version
 * (of 23.11 .. 26.05 and 0, unversioned) a bare record is read at.  The
 * rest is parsed as a file (header, then frames until a torn or corrupt
 * one), each frame's record unpacked by its kind and its own version and
 * freed, then as a bare record of every kind at the picked version. */
#include <stddef.h>
#include <stdint.h>

#include "common/acct_rec.h"

static const uint16_t versions[] = {
	ACCT_REC_UNVERSIONED, 0x2311, PROTO_24_05, PROTO_24_11, PROTO_25_05,
	PROTO_25_11, 0x2605,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t epoch;
	uint32_t format;
	uint16_t v;
	size_t off;

	if (!size)
		return 0;
	v = versions[(data[0] & 0x7f) % (sizeof(versions) /
					  sizeof(versions[0]))];
	format = data[0] & 0x80 ? ACCT_OUTBOX_V1 : ACCT_OUTBOX_VERSION;
	data++;
	size--;
	/* With or without a valid header, walk the frames. */
	off = acct_outbox_header_parse(data, size, &epoch, &format) == 0 ?
		ACCT_OUTBOX_HDR_LEN : 0;
	while (off < size) {
		acct_frame_t f;
		size_t n = acct_frame_decode(data + off, size - off, format,
					     &f);
		void *rec;

		if (!n)
			break;
		rec = acct_rec_unpack(f.kind, f.version, f.data, f.len);
		acct_rec_free(f.kind, rec);
		acct_frame_free_members(&f);
		off += n;
	}
	/* The bytes as a bare record of every kind. */
	for (uint16_t k = 1; k < ACCT_REC_KIND_END; k++)
		acct_rec_free(k, acct_rec_unpack(k, v, data, (uint32_t)size));
	return 0;
}
