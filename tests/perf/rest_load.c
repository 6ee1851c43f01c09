/* rest_load.c — an HTTP/1.1 load client for slurmrestd benchmarks
 * (bench_rest.py): CONNS persistent (keep-alive) connections, one thread
 * each, send N requests in all, each waiting for its answer before the
 * next.  Prints one line of `name=value` figures: requests, answers with
 * a 2xx status, wall seconds, requests/s, latency median / p95 / max (ms),
 * the client's own CPU seconds (so a reader can see it was not the
 * bottleneck), bytes of answer bodies and reconnects.
 *
 * Usage: rest_load [-c CONNS] [-n REQUESTS] [-m METHOD] [-b BODYFILE]
 *                  [-H 'Name: value']... ADDR PATH
 * ADDR is unix:/path/to/socket or HOST:PORT.  Answers are read by
 * Content-Length, chunked encoding, or until the server closes.  The first
 * non-2xx answer's status and body start go to stderr.
 */
#define _GNU_SOURCE   /* memmem, strcasestr */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define MAX_HEADERS 8

static struct {
	const char *addr, *path, *method;
	char       *body;
	size_t      body_len;
	const char *headers[MAX_HEADERS];
	int         nheaders;
	long        total;
	int         conns;
	char       *request;       /* the bytes sent for every request */
	size_t      request_len;
} opt = { .method = "GET", .total = 1000, .conns = 1 };

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static long next_req, ok, failed, reconnects;
static unsigned long long bytes_in;
static double *lat_ms;
static bool reported;

typedef struct {
	int    fd;
	char  *buf;
	size_t cap, start, end;   /* unread bytes are buf[start..end) */
} conn_t;

static double _now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int _connect(void)
{
	int fd;

	if (!strncmp(opt.addr, "unix:", 5)) {
		struct sockaddr_un sa = { .sun_family = AF_UNIX };

		if (strlen(opt.addr + 5) >= sizeof(sa.sun_path))
			return -1;
		strcpy(sa.sun_path, opt.addr + 5);
		if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) < 0)
			return -1;
		if (connect(fd, (struct sockaddr *) &sa, sizeof(sa)) < 0) {
			close(fd);
			return -1;
		}
		return fd;
	}
	struct sockaddr_in sa = { .sin_family = AF_INET };
	char host[64];
	const char *colon = strrchr(opt.addr, ':');
	int one = 1;

	if (!colon || (size_t) (colon - opt.addr) >= sizeof(host))
		return -1;
	memcpy(host, opt.addr, colon - opt.addr);
	host[colon - opt.addr] = '\0';
	sa.sin_port = htons(atoi(colon + 1));
	if (inet_pton(AF_INET, host[0] ? host : "127.0.0.1", &sa.sin_addr) != 1)
		return -1;
	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) < 0)
		return -1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(fd, (struct sockaddr *) &sa, sizeof(sa)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Read more bytes into c->buf; 0 at EOF, -1 on error. */
static ssize_t _fill(conn_t *c)
{
	ssize_t n;

	if (c->start > 0 && c->start == c->end)
		c->start = c->end = 0;
	if (c->end == c->cap) {
		if (c->start > 0) {
			memmove(c->buf, c->buf + c->start, c->end - c->start);
			c->end -= c->start;
			c->start = 0;
		} else {
			c->cap *= 2;
			c->buf = realloc(c->buf, c->cap);
			if (!c->buf)
				abort();
		}
	}
	do
		n = read(c->fd, c->buf + c->end, c->cap - c->end);
	while (n < 0 && errno == EINTR);
	if (n > 0)
		c->end += n;
	return n;
}

/* A line ending in CRLF at c->start (read more as needed); returns its
 * length without the CRLF and points *line at it, or -1. */
static long _line(conn_t *c, char **line)
{
	for (;;) {
		char *p = memmem(c->buf + c->start, c->end - c->start, "\r\n", 2);

		if (p) {
			*line = c->buf + c->start;
			*p = '\0';
			c->start = p + 2 - c->buf;
			return p - *line;
		}
		if (_fill(c) <= 0)
			return -1;
	}
}

/* Consume n body bytes (kept in the buffer only for an error report). */
static int _skip(conn_t *c, unsigned long long n, char *keep, size_t keeplen,
		 size_t *kept)
{
	while (n > 0) {
		size_t have = c->end - c->start, take;

		if (have == 0 && _fill(c) <= 0)
			return -1;
		have = c->end - c->start;
		take = have < n ? have : n;
		if (keep && *kept < keeplen) {
			size_t k = keeplen - *kept < take ? keeplen - *kept : take;

			memcpy(keep + *kept, c->buf + c->start, k);
			*kept += k;
		}
		c->start += take;
		n -= take;
	}
	return 0;
}

/* One answer: its status, or -1 if the connection broke.  *close is set
 * when the server will close the connection after it. */
static int _answer(conn_t *c, bool *close_after, unsigned long long *body,
		   char *keep, size_t keeplen)
{
	char *line;
	int status;
	long long length = -1;
	bool chunked = false;
	size_t kept = 0;

	*close_after = false;
	*body = 0;
	if (_line(c, &line) < 0 || sscanf(line, "HTTP/1.%*d %d", &status) != 1)
		return -1;
	for (;;) {
		long n = _line(c, &line);

		if (n < 0)
			return -1;
		if (n == 0)
			break;
		if (!strncasecmp(line, "content-length:", 15))
			length = atoll(line + 15);
		else if (!strncasecmp(line, "transfer-encoding:", 18) &&
			 strcasestr(line, "chunked"))
			chunked = true;
		else if (!strncasecmp(line, "connection:", 11) &&
			 strcasestr(line, "close"))
			*close_after = true;
	}
	if (chunked) {
		for (;;) {
			unsigned long long n;

			if (_line(c, &line) < 0)
				return -1;
			n = strtoull(line, NULL, 16);
			if (n == 0)
				break;
			if (_skip(c, n, keep, keeplen, &kept) < 0 ||
			    _line(c, &line) < 0)
				return -1;
			*body += n;
		}
		while (_line(c, &line) > 0)   /* trailers */
			;
	} else if (length >= 0) {
		if (_skip(c, length, keep, keeplen, &kept) < 0)
			return -1;
		*body = length;
	} else {
		for (;;) {   /* until the server closes */
			ssize_t n;

			c->start = c->end = 0;
			n = _fill(c);
			if (n < 0)
				return -1;
			if (n == 0)
				break;
			*body += n;
		}
		*close_after = true;
	}
	if (keep)
		keep[kept < keeplen ? kept : keeplen - 1] = '\0';
	return status;
}

static int _send_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= w;
	}
	return 0;
}

static void *_worker(void *arg)
{
	conn_t c = { .fd = -1, .cap = 1 << 16 };
	char keep[512];

	(void) arg;
	c.buf = malloc(c.cap);
	for (;;) {
		long i;
		double t0;
		int status;
		bool close_after = false;
		unsigned long long body = 0;

		pthread_mutex_lock(&mu);
		i = next_req < opt.total ? next_req++ : -1;
		pthread_mutex_unlock(&mu);
		if (i < 0)
			break;
		if (c.fd < 0) {
			if ((c.fd = _connect()) < 0) {
				fprintf(stderr, "rest_load: connect %s: %s\n",
					opt.addr, strerror(errno));
				exit(2);
			}
			c.start = c.end = 0;
		}
		t0 = _now();
		status = -1;
		if (_send_all(c.fd, opt.request, opt.request_len) == 0)
			status = _answer(&c, &close_after, &body, keep,
					 sizeof(keep));
		lat_ms[i] = (_now() - t0) * 1000.0;
		pthread_mutex_lock(&mu);
		if (status >= 200 && status < 300) {
			ok++;
			bytes_in += body;
		} else {
			failed++;
			if (!reported) {
				reported = true;
				fprintf(stderr, "rest_load: request %ld: %s %d: %s\n",
					i, status < 0 ? "connection broke" :
					"status", status,
					status < 0 ? "" : keep);
			}
		}
		if (status < 0 || close_after) {
			reconnects++;
			close(c.fd);
			c.fd = -1;
		}
		pthread_mutex_unlock(&mu);
	}
	if (c.fd >= 0)
		close(c.fd);
	free(c.buf);
	return NULL;
}

static int _cmp(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return x < y ? -1 : x > y;
}

static char *_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *s = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (s = malloc(n + 1)) &&
	    fread(s, 1, n, f) == (size_t) n) {
		s[n] = '\0';
		*len = n;
	} else {
		free(s);
		s = NULL;
	}
	fclose(f);
	return s;
}

static void _build_request(void)
{
	size_t cap = 4096 + opt.body_len;
	int n, i;

	opt.request = malloc(cap);
	n = snprintf(opt.request, cap, "%s %s HTTP/1.1\r\nHost: localhost\r\n"
		     "Accept: application/json\r\n", opt.method, opt.path);
	for (i = 0; i < opt.nheaders; i++)
		n += snprintf(opt.request + n, cap - n, "%s\r\n", opt.headers[i]);
	if (opt.body)
		n += snprintf(opt.request + n, cap - n,
			      "Content-Type: application/json\r\n"
			      "Content-Length: %zu\r\n", opt.body_len);
	n += snprintf(opt.request + n, cap - n, "\r\n");
	if (opt.body) {
		memcpy(opt.request + n, opt.body, opt.body_len);
		n += opt.body_len;
	}
	opt.request_len = n;
}

static void _usage(void)
{
	fprintf(stderr, "usage: rest_load [-c CONNS] [-n REQUESTS] [-m METHOD] "
		"[-b BODYFILE] [-H 'Name: value']... ADDR PATH\n");
	exit(2);
}

int main(int argc, char **argv)
{
	pthread_t *th;
	struct rusage ru;
	double t0, wall, cpu;
	int c, i;

	while ((c = getopt(argc, argv, "c:n:m:b:H:")) != -1) {
		switch (c) {
		case 'c': opt.conns = atoi(optarg); break;
		case 'n': opt.total = atol(optarg); break;
		case 'm': opt.method = optarg; break;
		case 'b':
			if (!(opt.body = _read_file(optarg, &opt.body_len))) {
				perror(optarg);
				return 2;
			}
			break;
		case 'H':
			if (opt.nheaders == MAX_HEADERS)
				_usage();
			opt.headers[opt.nheaders++] = optarg;
			break;
		default: _usage();
		}
	}
	if (argc - optind != 2 || opt.conns < 1 || opt.total < 1)
		_usage();
	opt.addr = argv[optind];
	opt.path = argv[optind + 1];
	_build_request();
	lat_ms = calloc(opt.total, sizeof(*lat_ms));
	th = calloc(opt.conns, sizeof(*th));
	if (!lat_ms || !th)
		return 2;
	t0 = _now();
	for (i = 0; i < opt.conns; i++)
		pthread_create(&th[i], NULL, _worker, NULL);
	for (i = 0; i < opt.conns; i++)
		pthread_join(th[i], NULL);
	wall = _now() - t0;
	getrusage(RUSAGE_SELF, &ru);
	cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	      ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	qsort(lat_ms, opt.total, sizeof(*lat_ms), _cmp);
	printf("requests=%ld ok=%ld failed=%ld seconds=%.3f rate=%.1f "
	       "median_ms=%.3f p95_ms=%.3f max_ms=%.3f client_cpu_s=%.3f "
	       "bytes_in=%llu reconnects=%ld\n",
	       opt.total, ok, failed, wall, opt.total / wall,
	       lat_ms[opt.total / 2], lat_ms[(long) (opt.total * 0.95)],
	       lat_ms[opt.total - 1], cpu, bytes_in, reconnects);
	return failed ? 1 : 0;
}
