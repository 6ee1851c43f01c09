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
/* The CPU's SHA instructions when it has them (the default) or portable
 * C (tests compare both); 1 if the instructions are in use. */
int  sha256_use_accel(int on);

/* HMAC-SHA-256 (RFC 2104, test vectors RFC 4231).  The key is absorbed
 * once (hmac_sha256_key); each message then costs two SHA-256 runs over
 * the message plus two blocks, from the saved inner/outer states. */
typedef struct {
	sha256_t inner;        /* state after key ^ ipad */
	sha256_t outer;        /* state after key ^ opad */
} hmac_sha256_key_t;

void hmac_sha256_key(hmac_sha256_key_t *k, const void *key, size_t key_len);
/* Start a MAC: *s continues from the key's inner state. */
void hmac_sha256_init(const hmac_sha256_key_t *k, sha256_t *s);
void hmac_sha256_final(const hmac_sha256_key_t *k, sha256_t *s,
		       uint8_t out[SHA256_LEN]);
/* One call: out = HMAC-SHA-256(key, data). */
void hmac_sha256(const hmac_sha256_key_t *k, const void *data, size_t len,
		 uint8_t out[SHA256_LEN]);
/* Constant-time comparison of n bytes: 1 if equal. */
int  sha256_equal(const void *a, const void *b, size_t n);

#endif
