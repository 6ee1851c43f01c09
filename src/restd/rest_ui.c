/* rest_ui.c — the web view's static files under /ui/ (rest_ui.h). */
#include "restd/rest_ui.h"

#include <errno.h>
#include <event2/buffer.h>
#include <event2/http.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define UI_PREFIX "/ui"
#define UI_INDEX "index.html"

static char *ui_root;          /* realpath of the directory, or NULL */

/* Sent with every /ui answer: the page loads nothing from elsewhere, is
 * never framed, and no type is guessed. */
static const struct {
	const char *name, *value;
} ui_headers[] = {
	{ "Content-Security-Policy", "default-src 'self'; base-uri 'none'; "
	  "form-action 'self'; frame-ancestors 'none'" },
	{ "X-Content-Type-Options", "nosniff" },
	{ "X-Frame-Options", "DENY" },
	{ "Referrer-Policy", "no-referrer" },
};

static const struct {
	const char *ext, *type;
} ui_types[] = {
	{ "html", "text/html; charset=utf-8" },
	{ "js", "text/javascript; charset=utf-8" },
	{ "mjs", "text/javascript; charset=utf-8" },
	{ "css", "text/css; charset=utf-8" },
	{ "json", "application/json" },
	{ "map", "application/json" },
	{ "svg", "image/svg+xml" },
	{ "png", "image/png" },
	{ "ico", "image/x-icon" },
	{ "woff2", "font/woff2" },
	{ "woff", "font/woff" },
	{ "txt", "text/plain; charset=utf-8" },
	{ "webmanifest", "application/manifest+json" },
};

const char *rest_ui_content_type(const char *name)
{
	const char *slash = strrchr(name, '/');
	const char *dot = strrchr(slash ? slash + 1 : name, '.');

	if (dot)
		for (size_t i = 0; i < sizeof(ui_types) / sizeof(ui_types[0]);
		     i++)
			if (!strcasecmp(dot + 1, ui_types[i].ext))
				return ui_types[i].type;
	return "application/octet-stream";
}

/* The part of path under /ui/ ("" for /ui and /ui/), or NULL. */
static const char *ui_rel(const char *path)
{
	size_t n = strlen(UI_PREFIX);

	if (strncmp(path, UI_PREFIX, n))
		return NULL;
	if (!path[n])
		return path + n;
	return path[n] == '/' ? path + n + 1 : NULL;
}

/* Each component of rel: none empty in the middle, none hidden (which
 * also refuses "." and ".."), no backslash. */
static int ui_rel_ok(const char *rel)
{
	const char *p = rel;

	if (strchr(rel, '\\'))
		return -1;
	while (*p) {
		const char *end = strchr(p, '/');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == 0 && end)
			return -1;              /* "//" */
		if (p[0] == '.')
			return -1;              /* ".", "..", ".hidden" */
		if (!end)
			break;
		p = end + 1;
	}
	return 0;
}

int rest_ui_resolve(const char *root, const char *path, char *out,
		    size_t outlen)
{
	const char *rel = path ? ui_rel(path) : NULL;
	size_t rlen = root ? strlen(root) : 0;
	char want[PATH_MAX], real[PATH_MAX];
	struct stat st;
	int n;

	if (!rel || !rlen || ui_rel_ok(rel) < 0)
		return -1;
	n = snprintf(want, sizeof(want), "%s/%s%s", root, rel,
		     (!*rel || rel[strlen(rel) - 1] == '/') ? UI_INDEX : "");
	if (n < 0 || (size_t)n >= sizeof(want))
		return -1;
	if (!realpath(want, real))
		return -1;
	/* inside root, whatever symlinks said on the way */
	if (strncmp(real, root, rlen) ||
	    (real[rlen] != '/' && strcmp(root, "/")))
		return -1;
	if (stat(real, &st) < 0 || !S_ISREG(st.st_mode))
		return -1;
	if (strlen(real) >= outlen)
		return -1;
	strcpy(out, real);
	return 0;
}

int rest_ui_init(const char *dir)
{
	char real[PATH_MAX];
	struct stat st;

	rest_ui_fini();
	errno = 0;
	if (!dir || !*dir)
		return 0;
	if (!realpath(dir, real) || stat(real, &st) < 0 ||
	    !S_ISDIR(st.st_mode)) {
		error("web view directory %s: %s", dir,
		      errno ? strerror(errno) : "not a directory");
		return -1;
	}
	ui_root = xstrdup(real);
	info("serving the web view from %s under %s/", ui_root, UI_PREFIX);
	return 0;
}

void rest_ui_fini(void)
{
	xfree(ui_root);
}

bool rest_ui_match(const char *path)
{
	return ui_root && path && ui_rel(path);
}

static void ui_reply(struct evhttp_request *req, int code, const char *why,
		     const char *type, struct evbuffer *b)
{
	struct evkeyvalq *h = evhttp_request_get_output_headers(req);

	for (size_t i = 0; i < sizeof(ui_headers) / sizeof(ui_headers[0]); i++)
		evhttp_add_header(h, ui_headers[i].name, ui_headers[i].value);
	evhttp_add_header(h, "Content-Type", type);
	evhttp_send_reply(req, code, why, b);
}

static void ui_error(struct evhttp_request *req, int code, const char *why)
{
	struct evbuffer *b = evbuffer_new();

	if (evhttp_request_get_command(req) != EVHTTP_REQ_HEAD)
		evbuffer_add_printf(b, "%d %s\n", code, why);
	if (code == 405)
		evhttp_add_header(evhttp_request_get_output_headers(req),
				  "Allow", "GET, HEAD");
	ui_reply(req, code, why, "text/plain; charset=utf-8", b);
	evbuffer_free(b);
}

void rest_ui_answer(struct evhttp_request *req, const char *path)
{
	enum evhttp_cmd_type cmd = evhttp_request_get_command(req);
	char file[PATH_MAX];
	struct evbuffer *b;
	struct stat st;
	int fd;

	if (cmd != EVHTTP_REQ_GET && cmd != EVHTTP_REQ_HEAD) {
		ui_error(req, 405, "Method Not Allowed");
		return;
	}
	if (rest_ui_resolve(ui_root, path, file, sizeof(file)) < 0 ||
	    (fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) < 0) {
		debug("web view: no file for %s", path);
		ui_error(req, 404, "Not Found");
		return;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		ui_error(req, 404, "Not Found");
		return;
	}
	/* hashed bundles never change under one name; the page itself may */
	evhttp_add_header(evhttp_request_get_output_headers(req),
			  "Cache-Control", strstr(path, "/assets/") ?
			  "public, max-age=31536000, immutable" : "no-cache");
	b = evbuffer_new();
	if (cmd == EVHTTP_REQ_HEAD) {
		/* the length, not the bytes: evhttp would send whatever b held,
		 * and a keep-alive client would read it as the next answer */
		char len[32];

		snprintf(len, sizeof(len), "%lld", (long long)st.st_size);
		evhttp_add_header(evhttp_request_get_output_headers(req),
				  "Content-Length", len);
		close(fd);
	} else if (st.st_size && evbuffer_add_file(b, fd, 0, st.st_size) < 0) {
		close(fd);
		evbuffer_free(b);
		ui_error(req, 500, "Internal Server Error");
		return;
	} else if (!st.st_size) {
		close(fd);
	}
	ui_reply(req, 200, "OK", rest_ui_content_type(file), b);
	evbuffer_free(b);
}
