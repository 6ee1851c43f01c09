/* rest_req.h — one HTTP request as a handler sees it, and the answer it
 * builds.
 *
 * The server (rest_server.c) reads the request on its event loop, copies
 * what a handler needs into a rest_req_t, and hands it to a worker thread;
 * the handler runs there (it may block on slurmctld or slurmdbd) and fills
 * resp and status; the loop sends the answer.  A handler reads only the
 * rest_req_t: never libevent's objects, which belong to the loop.
 */
#ifndef SLUICE_REST_REQ_H
#define SLUICE_REST_REQ_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define REST_MAX_PATH_PARAMS 2
#define REST_MAX_QUERY 64

enum rest_method {
	REST_GET = 1,
	REST_POST = 2,
	REST_DELETE = 4,
};

typedef struct {
	char *name, *value;
} rest_kv_t;

typedef struct rest_req {
	/* what was asked */
	enum rest_method method;
	int         ver;               /* data_parser version 40..43 */
	char       *path;              /* decoded, as sent */
	const char *plugin;            /* "slurm" or "slurmdb" */
	char       *param[REST_MAX_PATH_PARAMS];  /* {job_id} ... */
	rest_kv_t   query[REST_MAX_QUERY];
	size_t      nquery;
	char       *body;              /* NUL-terminated copy, or NULL */
	size_t      body_len;
	/* who asked */
	uid_t       uid;
	gid_t       gid;
	char        user[64];
	char        group[64];
	char       *token;             /* auth/jwt: sent with each message */
	bool        act_as;            /* user is not the token's (a root or
					* SlurmUser token naming X-SLURM-USER-NAME) */
	char        source[80];        /* peer, for meta.client and logs */
	const char *resp_schema;       /* the answer's schema in ver */
	/* the answer */
	int          status;           /* HTTP status */
	json_object *resp;             /* the envelope, payload added by the handler */
	char        *raw;              /* or a ready body (the OpenAPI text,
					* a job list written job by job):
					* already in ver's shape */
	size_t       raw_len;
} rest_req_t;

struct evhttp_uri;

/* A query parameter's value ("" for a bare flag), or NULL if absent. */
const char *rest_query(const rest_req_t *r, const char *name);
/* r's path and query parameters from uri, percent-decoded (in the query
 * '+' is a space, and a bare name is a flag: value "").  -1 if the path,
 * a name or a value holds a control character (NUL, newline, ...), a name
 * is empty, or there are more than REST_MAX_QUERY parameters; r->path is
 * set either way (as sent when it could not be decoded). */
int  rest_req_set_uri(rest_req_t *r, const struct evhttp_uri *uri);
/* Free what r holds (not r itself). */
void rest_req_clear(rest_req_t *r);

#endif
