/* fuzz_auth_token.c — arbitrary bytes into auth/slurm's token checker
 * (the credential field of every message under AuthType=auth/slurm).
 * Input: a 32-byte message digest, then the token.  A fixed key, so the
 * seed corpus holds tokens that verify; what passes must name the uid and
 * gid written in it, and the same token must not pass twice (replay).
 *
 * Build: CC=clang cmake -DSLUICE_FUZZ=ON
 *        -DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link,address,undefined ...
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xstring.h"

#include "../../src/plugins/auth/slurm/token.c"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char path[] = "/tmp/fuzz_auth_token.XXXXXX", err[256];
	uint8_t key[64];
	int fd = mkstemp(path);

	(void)argc;
	(void)argv;
	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(i * 7 + 1);
	if (fd < 0 || write(fd, key, sizeof(key)) != sizeof(key) ||
	    token_load_key(path, getuid(), err, sizeof(err)) < 0) {
		fprintf(stderr, "fuzz_auth_token: %s\n", err);
		abort();
	}
	close(fd);
	unlink(path);
	token_set_ttl(TOKEN_MAX_TTL);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *why = NULL;
	uid_t uid = 7;
	gid_t gid = 7;
	unsigned long u, g;
	char *t;

	if (size < AUTH_DIGEST_LEN || size - AUTH_DIGEST_LEN > 4096)
		return 0;
	t = xmalloc(size - AUTH_DIGEST_LEN + 1);      /* may hold NULs */
	memcpy(t, data + AUTH_DIGEST_LEN, size - AUTH_DIGEST_LEN);
	if (token_check(t, (uint32_t)(size - AUTH_DIGEST_LEN), data, &uid,
			&gid, &why) == 0) {
		if (why || sscanf(t, "sl1.%lu.%lu.", &u, &g) != 2 ||
		    u != uid || g != gid)
			abort();
		if (token_check(t, (uint32_t)(size - AUTH_DIGEST_LEN), data,
				&uid, &gid, &why) == 0)
			abort();
	} else if (!why) {
		abort();
	}
	xfree(t);
	return 0;
}
