/* sha256.h — SHA-256 (FIPS 180-4), for message and credential digests.
 * Built in rather than taken from libcrypto: loading and initialising
 * OpenSSL cost every command about a millisecond of CPU at start. */
#ifndef SLUICE_COMMON_SHA256_H
#define SLUICE_COMMON_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_LEN 32

typedef struct {
	uint32_t h[8];
	uint64_t bytes;        /* total input so far */
	uint8_t  block[64];
	size_t   fill;         /* bytes waiting in block */
} sha256_t;

void sha256_init(sha256_t *s);
void sha256_update(sha256_t *s, const void *data, size_t len);
void sha256_final(sha256_t *s, uint8_t out[SHA256_LEN]);
/* One call: out = SHA-256(data). */
void sha256(const void *data, size_t len, uint8_t out[SHA256_LEN]);

#endif
