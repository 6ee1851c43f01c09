/* crc32c.c — CRC-32C, table driven, eight bytes a step (crc32c.h). */
#include <pthread.h>

#include "common/crc32c.h"

#define POLY 0x82f63b78u        /* reflected Castagnoli polynomial */

static uint32_t table[8][256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void _make_tables(void)
{
	for (uint32_t n = 0; n < 256; n++) {
		uint32_t c = n;

		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ POLY : c >> 1;
		table[0][n] = c;
	}
	for (uint32_t n = 0; n < 256; n++)
		for (int k = 1; k < 8; k++)
			table[k][n] = (table[k - 1][n] >> 8) ^
				      table[0][table[k - 1][n] & 0xff];
}

uint32_t crc32c(uint32_t crc, const void *data, size_t len)
{
	const uint8_t *p = data;

	pthread_once(&once, _make_tables);
	crc = ~crc;
	while (len >= 8) {
		uint32_t lo = crc ^ ((uint32_t) p[0] | (uint32_t) p[1] << 8 |
				     (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24);
		crc = table[7][lo & 0xff] ^ table[6][(lo >> 8) & 0xff] ^
		      table[5][(lo >> 16) & 0xff] ^ table[4][lo >> 24] ^
		      table[3][p[4]] ^ table[2][p[5]] ^ table[1][p[6]] ^
		      table[0][p[7]];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = (crc >> 8) ^ table[0][(crc ^ *p++) & 0xff];
	return ~crc;
}
