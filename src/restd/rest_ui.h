/* rest_ui.h — slurmrestd's static files: the web view under /ui/.
 *
 * Off unless a directory is given (--ui-dir or SLURMRESTD_UI_DIR).  The
 * files need no authentication (they hold no data); every API call the page
 * makes carries the user's token as any other client's.  Only regular files
 * inside the directory are served: a path with "..", a hidden component, or
 * one that resolves (through symlinks) outside the directory is 404.
 */
#ifndef SLUICE_REST_UI_H
#define SLUICE_REST_UI_H

#include <stdbool.h>
#include <stddef.h>

struct evhttp_request;

/* Serve dir under /ui/; NULL or "" leaves it off.  0, or -1 (logged) if
 * dir is not a directory. */
int  rest_ui_init(const char *dir);
void rest_ui_fini(void);
/* Whether path (decoded) is the web view's: "/ui" or "/ui/..." while on. */
bool rest_ui_match(const char *path);
/* Answer req for path (rest_ui_match was true): the file, 404 or 405. */
void rest_ui_answer(struct evhttp_request *req, const char *path);

/* The file a /ui path names under root (root as realpath gives it): its
 * resolved path in out, 0; -1 if it must not be served (traversal, hidden,
 * outside root, not a regular file, too long). */
int  rest_ui_resolve(const char *root, const char *path, char *out,
		     size_t outlen);
/* The Content-Type for a file name, by its extension. */
const char *rest_ui_content_type(const char *name);

#endif
