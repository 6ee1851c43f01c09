/* b64url.h — base64url (RFC 4648 §5, no padding), as JSON Web Tokens
 * carry their parts.  Decoding only: tokens are made by libjwt. */
#ifndef SLUICE_B64URL_H
#define SLUICE_B64URL_H

#include <stddef.h>

/* The value (0..63) of one base64url character, or -1. */
int   b64url_value(unsigned char c);
/* Decode n characters into an xmalloc'd NUL-terminated buffer (*outlen
 * bytes before the NUL); NULL if a character is not of the alphabet or
 * n is a length no encoding has (n % 4 == 1). */
char *b64url_decode(const char *s, size_t n, size_t *outlen);

#endif
