/* rest_resp.h — the envelope every REST response has, and its errors.
 *
 * Every openapi_*_resp object carries meta (plugin, client, command,
 * slurm version and cluster), errors[] and warnings[] beside its payload.
 * Handlers add their payload members to r->resp and report failures with
 * rest_error(), which also picks the HTTP status.
 */
#ifndef SLUICE_REST_RESP_H
#define SLUICE_REST_RESP_H

#include <stddef.h>

#include "restd/rest_req.h"

/* The envelope for r (meta filled from r's plugin, version and caller). */
json_object *rest_resp_new(const rest_req_t *r);
/* Append {description, source, error, error_number} to r->resp's errors;
 * the first error sets r->status (rest_http_status(rc)) unless a handler
 * set one already.  description may be NULL: the code's text is used. */
void rest_error(rest_req_t *r, int rc, const char *source,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* rest_error() with an explicit HTTP status. */
void rest_error_http(rest_req_t *r, int http, int rc, const char *source,
		     const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void rest_warning(rest_req_t *r, const char *source, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The HTTP status for a Slurm error code: 401 not authenticated, 403 not
 * permitted, 404 no such object, 400 a bad request, 503 no controller or
 * database answered, 500 anything else. */
int  rest_http_status(int rc);
/* Length of the valid UTF-8 sequence at s (RFC 3629: no overlong forms,
 * surrogates or code points past U+10FFFF), or 0.  Reads no further than
 * a NUL. */
size_t rest_utf8_seq(const unsigned char *s);

#endif
