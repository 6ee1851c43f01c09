/* fuzz_jwt.c — arbitrary bytes into auth/jwt's token check (the
 * credential of every MSG_FLAG_JWT message a slurmctld or slurmdbd with
 * AuthAltTypes=auth/jwt takes, and slurmrestd's X-SLURM-USER-TOKEN) and
 * into the AuthAltParameters parser.
 *
 * Input: a first byte choosing the target ('P': AuthAltParameters, else
 * the token), then the text.  A fixed key, so the seed corpus holds
 * tokens that verify; a token that passes must name a user (a non-empty
 * sun, NUL-free) and pass again (no hidden state); the parser either
 * fails with a reason or leaves a lifespan of 1 or more.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/jwt.h"
#include "common/xmalloc.h"

#define NOW ((time_t)1800000000)

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char key[] = "0123456789abcdef0123456789abcdef";

	(void)argc;
	(void)argv;
	if (jwt_key_set(key, sizeof(key) - 1) < 0)
		abort();
	return 0;
}

static void fuzz_params(const uint8_t *data, size_t size)
{
	char *text = xmalloc(size + 1), err[256] = "";
	jwt_params_t p;

	memcpy(text, data, size);       /* stops at an embedded NUL */
	if (jwt_params_parse(text, &p, err, sizeof(err)) < 0) {
		if (!err[0])
			abort();
	} else if (p.max_token_lifespan < 0 ||
		   (p.jwt_key && p.jwt_key[0] != '/')) {
		abort();
	}
	jwt_params_free(&p);
	xfree(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char user[256], again[256];
	const char *why = NULL;

	if (size < 1 || size > 16384)
		return 0;
	if (data[0] == 'P') {
		fuzz_params(data + 1, size - 1);
		return 0;
	}
	if (jwt_verify((const char *)data + 1, size - 1, NOW, user,
		       sizeof(user), &why) == 0) {
		if (why || !user[0] ||
		    jwt_verify((const char *)data + 1, size - 1, NOW, again,
			       sizeof(again), &why) != 0 ||
		    strcmp(user, again))
			abort();
	} else if (!why || !why[0]) {
		abort();
	}
	return 0;
}
