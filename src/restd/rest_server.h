/* rest_server.h — slurmrestd's HTTP side: listeners, the event loop and
 * the worker threads.
 *
 * The loop (libevent evhttp: HTTP/1.1, keep-alive) reads each request,
 * authenticates it (rest_auth.h), and queues it for one of the workers,
 * which run it (rest_route.h: may block on slurmctld/slurmdbd) and queue
 * the answer back; the loop sends it (chunked when large).  So a slow
 * controller, a slow client or many idle connections never stop the loop.
 */
#ifndef SLUICE_REST_SERVER_H
#define SLUICE_REST_SERVER_H

#include <stddef.h>

typedef struct {
	int    threads;          /* -t: workers */
	size_t max_body;         /* bytes; larger bodies get 413 */
	int    max_connections;  /* open client connections at once */
	int    timeout;          /* seconds a connection may sit idle */
} rest_server_opts_t;

/* Listen on each address: "[host]:port", ":port", "unix:/path".  0, or -1
 * (logged) if one cannot be bound; binding happens before privileges are
 * dropped. */
int  rest_server_init(const rest_server_opts_t *o, char **listen, int n);
/* Serve until SIGINT/SIGTERM. */
int  rest_server_run(void);
void rest_server_fini(void);

#endif
