/* rest_server.c — listeners, the evhttp loop and the worker pool. */
#include "restd/rest_server.h"

#include <errno.h>
#include <malloc.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/thread.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/log.h"
#include "common/msg.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "restd/rest_auth.h"
#include "restd/rest_resp.h"
#include "restd/rest_route.h"
#include "restd/rest_spec.h"
#include "restd/rest_ui.h"
#include "slurm/slurm_errno.h"

/* A request between the loop and a worker. */
typedef struct job {
	struct job           *next;
	struct evhttp_request *req;
	rest_req_t            r;
	const char           *text;   /* the answer's bytes */
	size_t                len;
} job_t;

typedef struct {
	job_t          *head, *tail;
} queue_t;

static struct {
	struct event_base *base;
	struct evhttp     *http;
	struct event      *done_ev, *sig_int, *sig_term;
	pthread_mutex_t    lock;
	pthread_cond_t     wake;
	queue_t            waiting, done;
	pthread_t         *workers;
	int                nworkers;
	bool               stopping;
	bool               pretty;
	char              *openapi_json;   /* built once */
	char             **unix_paths;
	int                nunix;
} srv = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.wake = PTHREAD_COND_INITIALIZER,
};

static void queue_push(queue_t *q, job_t *j)
{
	j->next = NULL;
	if (q->tail)
		q->tail->next = j;
	else
		q->head = j;
	q->tail = j;
}

static job_t *queue_take_all(queue_t *q)
{
	job_t *j = q->head;

	q->head = q->tail = NULL;
	return j;
}

static job_t *queue_pop(queue_t *q)
{
	job_t *j = q->head;

	if (j && !(q->head = j->next))
		q->tail = NULL;
	return j;
}

static void job_free(job_t *j)
{
	rest_req_clear(&j->r);
	xfree(j);
}

/* ---- answering (loop thread) ---- */

static const char *reason_of(int status)
{
	switch (status) {
	case 200: return "OK";
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 413: return "Payload Too Large";
	case 501: return "Not Implemented";
	case 503: return "Service Unavailable";
	default:  return status < 400 ? "OK" : "Internal Server Error";
	}
}

static void free_answer(const void *data, size_t len, void *arg)
{
	(void)data;
	(void)len;
	job_free(arg);
}

/* Bodies above this are sent chunked. */
#define CHUNK_ABOVE (256 * 1024)

static void answer(job_t *j)
{
	struct evkeyvalq *h = evhttp_request_get_output_headers(j->req);
	struct evbuffer *b = evbuffer_new();
	int status = j->r.status ? j->r.status : 200;

	evhttp_add_header(h, "Content-Type", "application/json");
	if (evhttp_request_get_command(j->req) == EVHTTP_REQ_HEAD) {
		/* headers only: evhttp sends whatever the buffer holds, and a
		 * keep-alive client would read it as its next answer */
		evhttp_send_reply(j->req, status, reason_of(status), b);
		evbuffer_free(b);
		job_free(j);
		return;
	}
	if (j->len > CHUNK_ABOVE) {
		evhttp_send_reply_start(j->req, status, reason_of(status));
		evbuffer_add_reference(b, j->text, j->len, free_answer, j);
		evhttp_send_reply_chunk(j->req, b);
		evhttp_send_reply_end(j->req);
	} else {
		evbuffer_add_reference(b, j->text, j->len, free_answer, j);
		evhttp_send_reply(j->req, status, reason_of(status), b);
	}
	evbuffer_free(b);
}

static void on_done(evutil_socket_t fd, short what, void *arg)
{
	job_t *j;

	(void)fd;
	(void)what;
	(void)arg;
	pthread_mutex_lock(&srv.lock);
	j = queue_take_all(&srv.done);
	pthread_mutex_unlock(&srv.lock);
	while (j) {
		job_t *next = j->next;

		answer(j);
		j = next;
	}
}

/* Answers above this give their memory back to the system once sent on:
 * each worker thread has its own malloc arena, which would otherwise keep
 * the largest document it ever built. */
#define TRIM_ABOVE (256 * 1024)

/* Turn r's answer into bytes (resp serialized, or raw as it is). */
static void finish(job_t *j)
{
	rest_req_t *r = &j->r;
	const char *text;
	size_t len;

	if (r->raw) {
		j->text = r->raw;
		j->len = r->raw_len;
		return;
	}
	text = json_object_to_json_string_length(r->resp,
		srv.pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
		JSON_C_TO_STRING_NOSLASHESCAPE :
		JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
	/* Keep the bytes, free the tree here: freeing a large document
	 * (one object per field of every job) costs as much as building
	 * it, and in the loop thread it would hold up every connection. */
	r->raw = xmalloc(len + 1);
	memcpy(r->raw, text, len + 1);
	r->raw_len = len;
	json_object_put(r->resp);
	r->resp = NULL;
	if (len > TRIM_ABOVE)
		malloc_trim(0);   /* give the tree's pages back */
	j->text = r->raw;
	j->len = r->raw_len;
}

/* ---- workers ---- */

static void *worker(void *arg)
{
	(void)arg;
	for (;;) {
		job_t *j;

		pthread_mutex_lock(&srv.lock);
		while (!srv.waiting.head && !srv.stopping)
			pthread_cond_wait(&srv.wake, &srv.lock);
		if (srv.stopping && !srv.waiting.head) {
			pthread_mutex_unlock(&srv.lock);
			return NULL;
		}
		j = queue_pop(&srv.waiting);
		pthread_mutex_unlock(&srv.lock);

		rest_route_run(&j->r);
		finish(j);
		debug("%s %s from %s (%s): %d", j->r.method == REST_GET ? "GET" :
		      j->r.method == REST_POST ? "POST" :
		      j->r.method == REST_DELETE ? "DELETE" : "?", j->r.path,
		      j->r.source, j->r.user, j->r.status);

		pthread_mutex_lock(&srv.lock);
		queue_push(&srv.done, j);
		pthread_mutex_unlock(&srv.lock);
		event_active(srv.done_ev, EV_READ, 0);
	}
}

/* ---- reading a request (loop thread) ---- */

static int peer_of(struct evhttp_request *req, rest_req_t *r,
		   rest_auth_in_t *in)
{
	struct evhttp_connection *c = evhttp_request_get_connection(req);
	struct bufferevent *bev = c ? evhttp_connection_get_bufferevent(c) :
		NULL;
	int fd = bev ? bufferevent_getfd(bev) : -1;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (fd < 0)
		return -1;
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0 &&
	    ss.ss_family == AF_UNIX) {
		in->unix_peer = msg_peer_cred(fd, &in->peer_uid,
					      &in->peer_gid) == 0;
		snprintf(r->source, sizeof(r->source), "unix:%d",
			 (int)in->peer_uid);
	} else {
		char *addr = NULL;
		ev_uint16_t port = 0;

		evhttp_connection_get_peer(c, &addr, &port);
		snprintf(r->source, sizeof(r->source), "[%s]:%u",
			 addr ? addr : "?", (unsigned)port);
	}
	return 0;
}

static enum rest_method method_of(struct evhttp_request *req)
{
	switch (evhttp_request_get_command(req)) {
	case EVHTTP_REQ_GET: return REST_GET;
	case EVHTTP_REQ_POST: return REST_POST;
	case EVHTTP_REQ_DELETE: return REST_DELETE;
	default: return 0;
	}
}

/* An answer made on the loop (refused before any worker saw it). */
static void answer_now(job_t *j, int http, int rc, const char *fmt,
		       const char *arg)
{
	if (!j->r.resp)
		j->r.resp = rest_resp_new(&j->r);
	rest_error_http(&j->r, http, rc, "rest", fmt, arg);
	finish(j);
	answer(j);
}

static bool is_openapi(const char *path)
{
	return !strcmp(path, "/openapi") || !strcmp(path, "/openapi/") ||
	       !strcmp(path, "/openapi.json") || !strcmp(path, "/openapi/v3") ||
	       !strcmp(path, "/openapi/v3/");
}

static void on_request(struct evhttp_request *req, void *arg)
{
	const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
	struct evkeyvalq *hin = evhttp_request_get_input_headers(req);
	struct evbuffer *body = evhttp_request_get_input_buffer(req);
	job_t *j = xmalloc(sizeof(*j));
	rest_req_t *r = &j->r;
	rest_auth_in_t in = { 0 };
	size_t blen;
	char why[256];

	(void)arg;
	j->req = req;
	r->method = method_of(req);
	r->ver = REST_VER_MAX;
	r->plugin = "slurm";
	peer_of(req, r, &in);
	if (rest_req_set_uri(r, uri) < 0) {
		answer_now(j, 400, ESLURM_REST_INVALID_QUERY, "%s",
			   "The request's path or query is not valid");
		return;
	}
	if (rest_ui_match(r->path)) {   /* static files: no authentication */
		rest_ui_answer(req, r->path);
		job_free(j);
		return;
	}
	if (is_openapi(r->path) && r->method == REST_GET) {
		r->raw = xstrdup(srv.openapi_json);
		r->raw_len = strlen(r->raw);
		finish(j);
		answer(j);
		return;
	}
	in.user_name = evhttp_find_header(hin, "X-SLURM-USER-NAME");
	in.token = evhttp_find_header(hin, "X-SLURM-USER-TOKEN");
	in.authorization = evhttp_find_header(hin, "Authorization");
	if (rest_auth(r, &in, why, sizeof(why)) < 0) {
		info("Authentication failure for %s from %s: %s", r->path,
		     r->source, why);
		answer_now(j, 401, SLURM_PROTOCOL_AUTHENTICATION_ERROR,
			   "Authentication failure: %s", why);
		return;
	}
	if ((blen = evbuffer_get_length(body))) {
		r->body = xmalloc(blen + 1);
		evbuffer_remove(body, r->body, blen);
		r->body_len = blen;
	}
	pthread_mutex_lock(&srv.lock);
	queue_push(&srv.waiting, j);
	pthread_cond_signal(&srv.wake);
	pthread_mutex_unlock(&srv.lock);
}

/* ---- listeners ---- */

static int listen_unix(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		error("unix socket path too long: %s", path);
		return -1;
	}
	strcpy(sa.sun_path, path);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0) {
		error_errno("socket(%s)", path);
		return -1;
	}
	(void)unlink(path);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(fd, 1024) < 0) {
		error_errno("Unable to listen on unix:%s", path);
		close(fd);
		return -1;
	}
	evutil_make_socket_nonblocking(fd);
	if (!evhttp_accept_socket_with_handle(srv.http, fd)) {
		error("Unable to serve unix:%s", path);
		close(fd);
		return -1;
	}
	srv.unix_paths = xrealloc(srv.unix_paths,
				  (size_t)(srv.nunix + 1) * sizeof(char *));
	srv.unix_paths[srv.nunix++] = xstrdup(path);
	info("listening on unix:%s", path);
	return 0;
}

static int listen_tcp(const char *spec)
{
	char *host = xstrdup(spec), *colon = strrchr(host, ':'), *end;
	const char *h;
	long port;
	int rc = -1;

	if (!colon) {
		error("Unable to parse listen address %s: expected [host]:port "
		      "or unix:/path", spec);
		goto out;
	}
	*colon = '\0';
	port = strtol(colon + 1, &end, 10);
	if (end == colon + 1 || *end || port <= 0 || port > 65535) {
		error("Invalid port in listen address %s", spec);
		goto out;
	}
	h = host;
	if (*h == '[' && h[strlen(h) - 1] == ']') {     /* [::1]:6820 */
		h++;
		host[strlen(host) - 1] = '\0';
	}
	if (!*h)
		h = "0.0.0.0";
	if (!evhttp_bind_socket_with_handle(srv.http, h, (ev_uint16_t)port)) {
		error("Unable to bind listen address %s: %s", spec,
		      strerror(errno));
		goto out;
	}
	info("listening on %s:%ld", h, port);
	rc = 0;
out:
	xfree(host);
	return rc;
}

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
	(void)what;
	(void)arg;
	info("caught %s, shutting down", sig == SIGINT ? "SIGINT" : "SIGTERM");
	event_base_loopexit(srv.base, NULL);
}

int rest_server_init(const rest_server_opts_t *o, char **listen, int n)
{
	if (evthread_use_pthreads() < 0 || !(srv.base = event_base_new()) ||
	    !(srv.http = evhttp_new(srv.base))) {
		error("Unable to start the HTTP server");
		return -1;
	}
	srv.pretty = getenv("SLURMRESTD_JSON") &&
		     strstr(getenv("SLURMRESTD_JSON"), "pretty");
	evhttp_set_gencb(srv.http, on_request, NULL);
	evhttp_set_max_body_size(srv.http, (ev_ssize_t)o->max_body);
	evhttp_set_max_headers_size(srv.http, 64 * 1024);
	evhttp_set_timeout(srv.http, o->timeout);
	evhttp_set_allowed_methods(srv.http, EVHTTP_REQ_GET | EVHTTP_REQ_POST |
				   EVHTTP_REQ_HEAD | EVHTTP_REQ_PUT |
				   EVHTTP_REQ_DELETE | EVHTTP_REQ_OPTIONS |
				   EVHTTP_REQ_TRACE | EVHTTP_REQ_CONNECT |
				   EVHTTP_REQ_PATCH);
	for (int i = 0; i < n; i++) {
		int rc = !strncmp(listen[i], "unix:", 5) ?
			listen_unix(listen[i] + 5) : listen_tcp(listen[i]);

		if (rc < 0)
			return -1;
	}
	srv.openapi_json = rest_spec_openapi(rest_route_versions(),
					     rest_route_served);
	srv.done_ev = event_new(srv.base, -1, 0, on_done, NULL);
	srv.sig_int = evsignal_new(srv.base, SIGINT, on_signal, NULL);
	srv.sig_term = evsignal_new(srv.base, SIGTERM, on_signal, NULL);
	event_add(srv.sig_int, NULL);
	event_add(srv.sig_term, NULL);
	srv.nworkers = o->threads;
	srv.workers = xcalloc((size_t)o->threads, sizeof(pthread_t));
	for (int i = 0; i < o->threads; i++)
		if (pthread_create(&srv.workers[i], NULL, worker, NULL)) {
			error("Unable to start worker thread %d", i);
			return -1;
		}
	return 0;
}

int rest_server_run(void)
{
	return event_base_dispatch(srv.base) < 0 ? -1 : 0;
}

void rest_server_fini(void)
{
	pthread_mutex_lock(&srv.lock);
	srv.stopping = true;
	pthread_cond_broadcast(&srv.wake);
	pthread_mutex_unlock(&srv.lock);
	for (int i = 0; i < srv.nworkers; i++)
		pthread_join(srv.workers[i], NULL);
	xfree(srv.workers);
	for (int i = 0; i < srv.nunix; i++) {
		(void)unlink(srv.unix_paths[i]);
		xfree(srv.unix_paths[i]);
	}
	xfree(srv.unix_paths);
	if (srv.http)
		evhttp_free(srv.http);
	if (srv.done_ev)
		event_free(srv.done_ev);
	if (srv.sig_int)
		event_free(srv.sig_int);
	if (srv.sig_term)
		event_free(srv.sig_term);
	if (srv.base)
		event_base_free(srv.base);
	xfree(srv.openapi_json);
}
