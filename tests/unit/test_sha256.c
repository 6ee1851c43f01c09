/* test_sha256.c — the built-in SHA-256 against FIPS 180-4's examples
 * and OpenSSL's digest of the same bytes, split at every offset; its
 * HMAC-SHA-256 against RFC 4231's test cases and OpenSSL's HMAC. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "common/sha256.h"

static void hex(const uint8_t d[SHA256_LEN], char out[65])
{
	for (int i = 0; i < SHA256_LEN; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

static void check(const char *msg, size_t len, const char *want)
{
	uint8_t d[SHA256_LEN];
	char h[65];

	sha256(msg, len, d);
	hex(d, h);
	assert_string_equal(h, want);
}

static void test_fips_examples(void **st)
{
	check("abc", 3,
	      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	check("", 0,
	      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	check("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
	      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void test_matches_openssl_split(void **st)
{
	uint8_t data[300], a[SHA256_LEN], b[SHA256_LEN];
	unsigned int n;

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t) (i * 7 + 3);
	for (size_t len = 0; len <= sizeof(data); len += 13) {
		EVP_Digest(data, len, b, &n, EVP_sha256(), NULL);
		for (size_t cut = 0; cut <= len; cut += 5) {
			sha256_t s;

			sha256_init(&s);
			sha256_update(&s, data, cut);
			sha256_update(&s, data + cut, len - cut);
			sha256_final(&s, a);
			assert_memory_equal(a, b, SHA256_LEN);
		}
	}
}

static void check_hmac(const void *key, size_t klen, const char *msg,
		       size_t mlen, const char *want)
{
	hmac_sha256_key_t k;
	uint8_t d[SHA256_LEN];
	char h[65];

	hmac_sha256_key(&k, key, klen);
	hmac_sha256(&k, msg, mlen, d);
	hex(d, h);
	h[strlen(want)] = '\0';        /* case 5: truncated to 128 bits */
	assert_string_equal(h, want);
}

static void test_hmac_rfc4231(void **st)
{
	uint8_t k[131], m[50];
	const char *big = "This is a test using a larger than block-size key "
		"and a larger than block-size data. The key needs to be hashed "
		"before being used by the HMAC algorithm.";

	memset(k, 0x0b, 20);                                    /* case 1 */
	check_hmac(k, 20, "Hi There", 8,
		   "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
	check_hmac("Jefe", 4, "what do ya want for nothing?", 28,  /* case 2 */
		   "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
	memset(k, 0xaa, 20);                                    /* case 3 */
	memset(m, 0xdd, 50);
	check_hmac(k, 20, (const char *)m, 50,
		   "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
	for (int i = 0; i < 25; i++)                            /* case 4 */
		k[i] = (uint8_t)(i + 1);
	memset(m, 0xcd, 50);
	check_hmac(k, 25, (const char *)m, 50,
		   "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b");
	memset(k, 0x0c, 20);                                    /* case 5 */
	check_hmac(k, 20, "Test With Truncation", 20,
		   "a3b6167473100ee06e0c796c2955552b");
	memset(k, 0xaa, 131);                                   /* case 6 */
	check_hmac(k, 131, "Test Using Larger Than Block-Size Key - Hash Key First",
		   54, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
	check_hmac(k, 131, big, strlen(big),                    /* case 7 */
		   "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
}

/* Every key length around the block size, every message length, split. */
static void test_hmac_matches_openssl(void **st)
{
	uint8_t key[140], data[200], a[SHA256_LEN], b[SHA256_LEN];
	unsigned int n;

	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(i * 13 + 1);
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 5 + 11);
	for (size_t kl = 0; kl <= sizeof(key); kl += 7) {
		hmac_sha256_key_t k;

		hmac_sha256_key(&k, key, kl);
		for (size_t len = 0; len <= sizeof(data); len += 17) {
			sha256_t s;

			HMAC(EVP_sha256(), key, (int)kl, data, len, b, &n);
			assert_int_equal(n, SHA256_LEN);
			hmac_sha256_init(&k, &s);
			sha256_update(&s, data, len / 3);
			sha256_update(&s, data + len / 3, len - len / 3);
			hmac_sha256_final(&k, &s, a);
			assert_memory_equal(a, b, SHA256_LEN);
		}
	}
}

static void test_equal(void **st)
{
	assert_true(sha256_equal("abcd", "abcd", 4));
	assert_false(sha256_equal("abcd", "abce", 4));
	assert_false(sha256_equal("xbcd", "abcd", 4));
	assert_true(sha256_equal("a", "b", 0));
}

/* The SHA instructions (when the CPU has them) and portable C agree on
 * every length and split; both against OpenSSL above. */
static void test_accel_and_c_agree(void **st)
{
	uint8_t data[1000], a[SHA256_LEN], b[SHA256_LEN];

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 31 + 7);
	for (size_t len = 0; len <= sizeof(data); len += 37) {
		sha256_use_accel(0);
		sha256(data, len, a);
		if (!sha256_use_accel(1))
			skip();
		sha256(data, len, b);
		assert_memory_equal(a, b, SHA256_LEN);
	}
}

static int group_teardown(void **st)
{
	(void)st;
	sha256_use_accel(1);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fips_examples),
		cmocka_unit_test(test_matches_openssl_split),
		cmocka_unit_test(test_hmac_rfc4231),
		cmocka_unit_test(test_hmac_matches_openssl),
		cmocka_unit_test(test_equal),
		cmocka_unit_test(test_accel_and_c_agree),
	};
	int rc = cmocka_run_group_tests_name("accelerated", tests, NULL, NULL);

	/* everything again with the portable code */
	sha256_use_accel(0);
	return rc | cmocka_run_group_tests_name("portable C", tests, NULL,
						group_teardown);
}
