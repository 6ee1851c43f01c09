/* rest_resp.c — the response envelope and its errors and warnings. */
#include "restd/rest_resp.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli_common.h"
#include "cli/cli_output.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"
#include "restd/rest_val.h"

json_object *rest_resp_new(const rest_req_t *r)
{
	json_object *doc = cli_output_doc("x", json_object_new_array(), 0);
	json_object *meta = rest_json_get(doc, "meta");
	json_object *plugin = rest_json_get(meta, "plugin");
	json_object *client = json_object_new_object();
	bool db = r->plugin && !strcmp(r->plugin, "slurmdb");
	char parser[32];

	json_object_object_del(doc, "x");
	json_object_object_del(doc, "last_update");
	snprintf(parser, sizeof(parser), "data_parser/v0.0.%d", r->ver);
	json_object_object_add(plugin, "type", json_object_new_string(
		db ? "openapi/slurmdbd" : "openapi/slurmctld"));
	json_object_object_add(plugin, "name", json_object_new_string(
		db ? "Slurm OpenAPI slurmdbd" : "Slurm OpenAPI slurmctld"));
	json_object_object_add(plugin, "data_parser",
			       json_object_new_string(parser));
	/* what slurm.conf configures ("" without accounting): a client
	 * (the web view) knows from it whether /slurmdb/ can answer */
	json_object_object_add(plugin, "accounting_storage",
			       json_object_new_string(
				       cli_conf() &&
				       cli_conf()->accounting_storage_type ?
				       cli_conf()->accounting_storage_type :
				       ""));
	json_object_object_add(client, "source",
			       json_object_new_string(r->source));
	json_object_object_add(client, "user", json_object_new_string(r->user));
	json_object_object_add(client, "group",
			       json_object_new_string(r->group));
	json_object_object_add(meta, "client", client);
	return doc;
}

int rest_http_status(int rc)
{
	switch (rc) {
	case SLURM_SUCCESS:
		return 200;
	case SLURM_PROTOCOL_AUTHENTICATION_ERROR:
	case ESLURM_AUTH_CRED_INVALID:
		return 401;
	case ESLURM_ACCESS_DENIED:
	case ESLURM_USER_ID_MISSING:
		return 403;
	case ESLURM_INVALID_JOB_ID:
	case ESLURM_INVALID_NODE_NAME:
	case ESLURM_INVALID_PARTITION_NAME:
	case ESLURM_RESERVATION_INVALID:
	case ESLURM_REST_EMPTY_RESULT:
		return 404;
	case ESLURM_REST_INVALID_QUERY:
	case ESLURM_REST_FAIL_PARSING:
	case ESLURM_REST_INVALID_JOBS_DESC:
		return 400;
	case SLURMCTLD_COMMUNICATIONS_BACKOFF:
	case SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT:
	case ESLURM_DB_CONNECTION:
	case ESLURM_IN_STANDBY_MODE:
		return 503;
	default:
		if (cli_err_is_transport(rc))
			return 503;     /* no controller answered */
		/* the controller refused the request itself */
		return rc >= 2000 && rc < 3000 ? 400 : 500;
	}
}

size_t rest_utf8_seq(const unsigned char *s)
{
	unsigned c = s[0], lo = 0x80, hi = 0xbf;
	size_t n;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/* Make s valid UTF-8 in place, each byte of a bad sequence becoming '?':
 * descriptions quote what the client sent (a path, a header), and the
 * answer must stay valid JSON text. */
static char *utf8_clean(char *s)
{
	unsigned char *p = (unsigned char *)s;

	while (*p) {
		size_t n = rest_utf8_seq(p);

		if (n) {
			p += n;
		} else {
			*p++ = '?';
		}
	}
	return s;
}

static json_object *errors_of(rest_req_t *r, const char *key)
{
	json_object *a = rest_json_get(r->resp, key);

	if (!a) {
		a = json_object_new_array();
		json_object_object_add(r->resp, key, a);
	}
	return a;
}

static void add_error(rest_req_t *r, int http, int rc, const char *source,
		      const char *fmt, va_list ap)
{
	json_object *e = json_object_new_object();
	char *desc = NULL;

	if (fmt) {
		char buf[1024];

		vsnprintf(buf, sizeof(buf), fmt, ap);
		desc = xstrdup(utf8_clean(buf));
	}
	json_object_object_add(e, "description", json_object_new_string(
		desc ? desc : slurm_strerror(rc)));
	json_object_object_add(e, "source", json_object_new_string(
		source ? source : ""));
	json_object_object_add(e, "error", json_object_new_string(
		slurm_strerror(rc)));
	json_object_object_add(e, "error_number", json_object_new_int(rc));
	json_object_array_add(errors_of(r, "errors"), e);
	if (r->status < 400)
		r->status = http;
	/* the description may quote a body ("reason": "a\nb"): one line */
	for (char *c = desc; c && *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = ' ';
	verbose("%s %s from %s (user %s): %d %s: %s", source ? source : "",
		r->path, r->source, r->user, r->status, slurm_strerror(rc),
		desc ? desc : "");
	xfree(desc);
}

void rest_error(rest_req_t *r, int rc, const char *source,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_error(r, rest_http_status(rc), rc, source, fmt, ap);
	va_end(ap);
}

void rest_error_http(rest_req_t *r, int http, int rc, const char *source,
		     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_error(r, http, rc, source, fmt, ap);
	va_end(ap);
}

void rest_warning(rest_req_t *r, const char *source, const char *fmt, ...)
{
	json_object *w = json_object_new_object();
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_object_object_add(w, "description",
			       json_object_new_string(utf8_clean(buf)));
	json_object_object_add(w, "source", json_object_new_string(
		source ? source : ""));
	json_object_array_add(errors_of(r, "warnings"), w);
}
