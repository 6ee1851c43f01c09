/* spank_conf.c — reading plugstack.conf (see spank.h).
 *
 * Lines are "required|optional PATH [ARGS...]" or "include GLOB"; '#'
 * starts a comment; blank lines are skipped.  A relative PATH is looked
 * up in each PluginDir directory; a relative GLOB is taken against the
 * including file's directory.  As in Slurm, a line that is none of these
 * is logged ("spank: file:line: Invalid line. Ignoring.") and skipped;
 * what fails the whole file is an unreadable include, includes nested
 * too deep, or too many plugins.
 */
#define _GNU_SOURCE
#include "common/spank.h"

#include <ctype.h>
#include <errno.h>
#include <glob.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define SPANK_CONF_MAX_DEPTH   8
#define SPANK_CONF_MAX_BYTES   (1024 * 1024)
#define SPANK_CONF_MAX_PLUGINS 1024

typedef struct {
	const char *plugin_dir;
	spank_conf_t *c;
	char *err;
	size_t errlen;
	int depth;
} parse_ctx_t;

static int parse_text(parse_ctx_t *p, const char *text, size_t len,
		      const char *fname);

static void set_err(parse_ctx_t *p, const char *file, int line,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void set_err(parse_ctx_t *p, const char *file, int line,
		    const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (p->err && p->errlen)
		snprintf(p->err, p->errlen, "%s:%d: %s", file, line, msg);
}

static bool file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static char *default_plugin_dir(void)
{
	char *dirs = NULL;
	const char *env = getenv("SLUICE_PLUGIN_DIR");

	if (env && *env)
		xstrfmtcat(&dirs, "%s:", env);
#ifdef SLUICE_BUILD_PLUGINDIR
	xstrfmtcat(&dirs, "%s:", SLUICE_BUILD_PLUGINDIR);
#endif
#ifdef SLUICE_PLUGINDIR
	xstrcat(&dirs, SLUICE_PLUGINDIR);
#endif
	return dirs ? dirs : xstrdup("/usr/lib/slurm");
}

/* A relative plugin path: the first PluginDir entry that has it, else
 * the first directory (loading then reports the missing file). */
static char *resolve_plugin(const char *plugin_dir, const char *path)
{
	char *dirs, **list, *found = NULL;

	if (path[0] == '/')
		return xstrdup(path);
	dirs = plugin_dir && *plugin_dir ? xstrdup(plugin_dir)
					 : default_plugin_dir();
	list = xstrsplit(dirs, ":", NULL);
	for (size_t i = 0; list[i] && !found; i++) {
		char *cand = xstrdup_printf("%s/%s", list[i], path);

		if (file_exists(cand))
			found = cand;
		else
			xfree(cand);
	}
	if (!found)
		found = xstrdup_printf("%s/%s", list[0] ? list[0] : ".", path);
	xstrarray_free(list);
	xfree(dirs);
	return found;
}

static char *dir_of(const char *fname)
{
	const char *slash = strrchr(fname, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == fname)
		return xstrdup("/");
	return xstrndup(fname, (size_t)(slash - fname));
}

static char *read_file(const char *path, size_t *len, int *err)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t n = 0, got;

	if (!f) {
		*err = errno;
		return NULL;
	}
	buf = xmalloc(SPANK_CONF_MAX_BYTES + 1);
	while ((got = fread(buf + n, 1, SPANK_CONF_MAX_BYTES - n, f)) > 0)
		n += got;
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static int include_file(parse_ctx_t *p, const char *path, const char *from,
			int line)
{
	size_t len = 0;
	int e = 0, rc;
	char *text = read_file(path, &len, &e);

	if (!text) {
		set_err(p, from, line, "cannot read included file %s: %s",
			path, strerror(e));
		return -1;
	}
	rc = parse_text(p, text, len, path);
	xfree(text);
	return rc;
}

static int do_include(parse_ctx_t *p, char **w, const char *fname, int line)
{
	char *pat, *dir;
	glob_t g;
	int rc = 0, grc;

	if (p->depth >= SPANK_CONF_MAX_DEPTH) {
		set_err(p, fname, line, "includes nested too deep");
		return -1;
	}
	dir = dir_of(fname);
	pat = w[1][0] == '/' ? xstrdup(w[1]) :
		xstrdup_printf("%s/%s", dir, w[1]);
	grc = glob(pat, 0, NULL, &g);
	if (grc == 0) {
		p->depth++;
		for (size_t i = 0; i < g.gl_pathc && !rc; i++)
			rc = include_file(p, g.gl_pathv[i], fname, line);
		p->depth--;
		globfree(&g);
	} else if (grc != GLOB_NOMATCH) {
		set_err(p, fname, line, "include %s: cannot read directory",
			w[1]);
		rc = -1;
	}
	xfree(pat);
	xfree(dir);
	return rc;
}

static int add_plugin(parse_ctx_t *p, char **w, size_t n, const char *fname,
		      int line)
{
	spank_conf_t *c = p->c;
	spank_conf_entry_t *e;

	if (c->cnt >= SPANK_CONF_MAX_PLUGINS) {
		set_err(p, fname, line, "too many plugins");
		return -1;
	}
	c->ent = xrealloc_sz(c->ent, c->cnt * sizeof(*e),
			     (c->cnt + 1) * sizeof(*e));
	e = &c->ent[c->cnt++];
	e->required = !strcasecmp(w[0], "required");
	e->path = resolve_plugin(p->plugin_dir, w[1]);
	e->argc = (int)(n - 2);
	e->argv = xcalloc(n - 1, sizeof(char *));
	for (size_t i = 2; i < n; i++)
		e->argv[i - 2] = xstrdup(w[i]);
	e->file = xstrdup(fname);
	e->line = line;
	return 0;
}

/* One line (comment already cut). */
static int parse_line(parse_ctx_t *p, const char *s, const char *fname,
		      int line)
{
	size_t n = 0;
	char **w = xstrsplit(s, " \t\r\v\f", &n);
	int rc = 0;

	if (n == 0)
		goto out;
	if (!strcasecmp(w[0], "include") && n == 2)
		rc = do_include(p, w, fname, line);
	else if ((!strcasecmp(w[0], "required") ||
		  !strcasecmp(w[0], "optional")) && n >= 2)
		rc = add_plugin(p, w, n, fname, line);
	else
		error("spank: %s:%d: Invalid line. Ignoring.", fname, line);
out:
	xstrarray_free(w);
	return rc;
}

static int parse_text(parse_ctx_t *p, const char *text, size_t len,
		      const char *fname)
{
	size_t pos = 0;
	int line = 0;

	while (pos < len) {
		const char *s = text + pos;
		const char *nl = memchr(s, '\n', len - pos);
		size_t llen = nl ? (size_t)(nl - s) : len - pos;
		const char *hash = memchr(s, '#', llen);
		char *one;
		int rc;

		pos += llen + (nl ? 1 : 0);
		line++;
		if (hash)
			llen = (size_t)(hash - s);
		one = xstrndup(s, llen);   /* a NUL ends the line early */
		rc = parse_line(p, one, fname, line);
		xfree(one);
		if (rc < 0)
			return -1;
	}
	return 0;
}

int spank_conf_parse_text(const char *text, size_t len, const char *fname,
			  const char *plugin_dir, spank_conf_t *c,
			  char *err, size_t errlen)
{
	parse_ctx_t p = {
		.plugin_dir = plugin_dir, .c = c, .err = err, .errlen = errlen,
	};

	memset(c, 0, sizeof(*c));
	if (err && errlen)
		err[0] = '\0';
	if (parse_text(&p, text, len, fname ? fname : "plugstack.conf") < 0) {
		spank_conf_free(c);
		return -1;
	}
	return 0;
}

int spank_conf_parse_file(const char *path, const char *plugin_dir,
			  spank_conf_t *c, char *err, size_t errlen)
{
	size_t len = 0;
	int e = 0, rc;
	char *text;

	memset(c, 0, sizeof(*c));
	if (!path || !*path)
		return 0;
	text = read_file(path, &len, &e);
	if (!text) {
		if (e == ENOENT)
			return 0;
		if (err && errlen)
			snprintf(err, errlen, "Failed to open %s: %s", path,
				 strerror(e));
		return -1;
	}
	rc = spank_conf_parse_text(text, len, path, plugin_dir, c, err, errlen);
	xfree(text);
	return rc;
}

void spank_conf_free(spank_conf_t *c)
{
	for (size_t i = 0; i < c->cnt; i++) {
		spank_conf_entry_t *e = &c->ent[i];

		xfree(e->path);
		xstrarray_free(e->argv);
		xfree(e->file);
	}
	xfree(c->ent);
	c->cnt = 0;
}
