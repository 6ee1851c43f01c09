/* fuzz_assoc_state.c — arbitrary bytes as the controller's saved
 * association cache (StateSaveLocation/assoc_mgr_state): the header and
 * checksum, then the four packed lists, then (when they unpack) the
 * snapshot built from them.  Input: with the first byte odd the checksum
 * is made right first, so the list unpacker and the snapshot builder see
 * the mutated bytes. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/ctld_world.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	dbd_acct_resp_msg_t *lists[AM_LIST_CNT];
	uint8_t *copy;

	if (size < 1)
		return 0;
	copy = malloc(size);
	memcpy(copy, data + 1, size - 1);
	if ((data[0] & 1) && size - 1 >= 16) {
		uint32_t crc = crc32c(0, copy + 16, size - 1 - 16);
		uint32_t len = (uint32_t)(size - 1 - 16);

		for (int i = 0; i < 4; i++) {
			copy[8 + i] = (uint8_t)(crc >> (24 - 8 * i));
			copy[12 + i] = (uint8_t)(len >> (24 - 8 * i));
		}
	}
	if (am_unpack_lists(copy, size - 1, lists) == 0) {
		snap_free(snap_build(lists));
		for (int i = 0; i < AM_LIST_CNT; i++)
			msg_body_free(RESPONSE_DBD_ACCT, lists[i]);
	}
	free(copy);
	return 0;
}
