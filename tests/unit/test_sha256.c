/* test_sha256.c — the built-in SHA-256 against FIPS 180-4's examples
 * and OpenSSL's digest of the same bytes, split at every offset. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <openssl/evp.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fips_examples),
		cmocka_unit_test(test_matches_openssl_split),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
