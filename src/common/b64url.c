/* b64url.c — base64url decoding. */
#include "common/b64url.h"

#include <stdint.h>

#include "common/xmalloc.h"

int b64url_value(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '-')
		return 62;
	if (c == '_')
		return 63;
	return -1;
}

char *b64url_decode(const char *s, size_t n, size_t *outlen)
{
	char *out;
	uint32_t acc = 0;
	size_t o = 0;
	int bits = 0;

	if (n % 4 == 1)
		return NULL;
	out = xmalloc(n / 4 * 3 + 4);
	for (size_t i = 0; i < n; i++) {
		int v = b64url_value((unsigned char)s[i]);

		if (v < 0) {
			xfree(out);
			return NULL;
		}
		acc = (acc << 6) | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[o++] = (char)((acc >> bits) & 0xff);
		}
	}
	out[o] = '\0';
	*outlen = o;
	return out;
}
