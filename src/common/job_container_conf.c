/* job_container_conf.c — reading job_container.conf (see
 * job_container_conf.h). */
#define _GNU_SOURCE
#include "common/job_container_conf.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common/conf_text.h"
#include "common/hostlist.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define JC_CONF_MAX_BYTES (1024 * 1024)
#define JC_MAX_WORDS      64

typedef enum { K_PATH, K_BOOL, K_DIRS, K_WAIT, K_NODE } kkind_t;

typedef struct {
	const char *name;
	kkind_t     kind;
	size_t      off;
} jkey_t;

#define O(f) offsetof(jc_conf_t, f)

static const jkey_t keys[] = {
	{ "AutoBasePath",       K_BOOL, O(auto_base_path) },
	{ "BasePath",           K_PATH, O(base_path) },
	{ "CloneNSScript",      K_PATH, O(clone_script) },
	{ "CloneNSScript_Wait", K_WAIT, O(clone_script_wait) },
	{ "CloneNSEpilog",      K_PATH, O(clone_epilog) },
	{ "CloneNSEpilog_Wait", K_WAIT, O(clone_epilog_wait) },
	{ "Dirs",               K_DIRS, 0 },
	{ "EntireStepInNS",     K_BOOL, O(entire_step) },
	{ "InitScript",         K_PATH, O(init_script) },
	{ "NodeName",           K_NODE, 0 },
	{ "Shared",             K_BOOL, O(shared) },
};

void jc_conf_free(jc_conf_t *c)
{
	xfree(c->base_path);
	xfree(c->init_script);
	xfree(c->clone_script);
	xfree(c->clone_epilog);
	for (size_t i = 0; i < c->dir_cnt; i++)
		xfree(c->dirs[i]);
	memset(c, 0, sizeof(*c));
}

/* An absolute path without a ".." component. */
static bool clean_abs_path(const char *p)
{
	const char *s = p;

	if (p[0] != '/')
		return false;
	while ((s = strstr(s, ".."))) {
		bool start = s == p || s[-1] == '/';
		bool end = s[2] == '\0' || s[2] == '/';

		if (start && end)
			return false;
		s += 2;
	}
	return true;
}

static int set_dirs(jc_conf_t *c, const char *v, char *why, size_t wlen)
{
	char *copy = xstrdup(v), *save = NULL;
	char *d[JC_MAX_DIRS];
	size_t n = 0;

	for (char *t = strtok_r(copy, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		size_t l = strlen(t);

		while (l > 1 && t[l - 1] == '/')
			t[--l] = '\0';
		if (!clean_abs_path(t) || !strcmp(t, "/")) {
			snprintf(why, wlen, "%.64s is not an absolute path "
				 "below / without \"..\"", t);
			goto error;
		}
		if (n == JC_MAX_DIRS) {
			snprintf(why, wlen, "more than %d directories",
				 JC_MAX_DIRS);
			goto error;
		}
		for (size_t i = 0; i < n; i++)
			if (!strcmp(d[i], t)) {
				snprintf(why, wlen, "%.64s given twice", t);
				goto error;
			}
		d[n++] = xstrdup(t);
	}
	if (!n) {
		snprintf(why, wlen, "a comma-separated list of paths expected");
		goto error;
	}
	for (size_t i = 0; i < c->dir_cnt; i++)
		xfree(c->dirs[i]);
	memcpy(c->dirs, d, n * sizeof(d[0]));
	c->dir_cnt = n;
	xfree(copy);
	return 0;
error:
	for (size_t i = 0; i < n; i++)
		xfree(d[i]);
	xfree(copy);
	return -1;
}

static int set_value(jc_conf_t *c, const jkey_t *k, const char *v,
		     char *why, size_t wlen)
{
	char *base = (char *) c;
	uint32_t u;
	bool b;

	switch (k->kind) {
	case K_BOOL:
		if (parse_bool(v, &b) < 0) {
			snprintf(why, wlen, "true or false expected");
			return -1;
		}
		*(bool *) (base + k->off) = b;
		return 0;
	case K_PATH:
		if (!(k->off == O(base_path) && !strcasecmp(v, "none")) &&
		    !clean_abs_path(v)) {
			snprintf(why, wlen, "an absolute path without \"..\" "
				 "expected");
			return -1;
		}
		xfree(*(char **) (base + k->off));
		*(char **) (base + k->off) = xstrdup(v);
		return 0;
	case K_WAIT:
		if (parse_u32(v, &u) < 0 || u > 86400) {
			snprintf(why, wlen, "seconds (0-86400) expected");
			return -1;
		}
		*(uint32_t *) (base + k->off) = u;
		return 0;
	case K_DIRS:
		return set_dirs(c, v, why, wlen);
	case K_NODE:
		return 0;
	}
	return -1;
}

static const jkey_t *find_key(const char *name)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcasecmp(keys[i].name, name))
			return &keys[i];
	return NULL;
}

/* Does the line (its words) name node in NodeName=?  -1 on a bad list. */
static int line_nodes(char **w, size_t n, const char *node, bool *has,
		      bool *match, char *why, size_t wlen)
{
	*has = *match = false;
	for (size_t i = 0; i < n; i++) {
		char herr[256] = "";
		hostlist_t *hl;

		if (strncasecmp(w[i], "NodeName=", 9))
			continue;
		if (*has) {
			snprintf(why, wlen, "NodeName given twice");
			return -1;
		}
		*has = true;
		if (!w[i][9]) {
			snprintf(why, wlen, "NodeName: no value");
			return -1;
		}
		if (!(hl = hostlist_parse_max(w[i] + 9, 65536, herr,
					      sizeof(herr)))) {
			snprintf(why, wlen, "NodeName=%.64s: %s", w[i] + 9,
				 herr);
			return -1;
		}
		*match = node && hostlist_find(hl, node) >= 0;
		hostlist_destroy(hl);
	}
	return 0;
}

/* Apply one line's words to c. */
static int apply_words(jc_conf_t *c, char **w, size_t n, const char *fname,
		       int line, char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++) {
		char *eq = strchr(w[i], '='), why[160];
		const jkey_t *k;

		if (!eq)
			return conf_text_fail(err, errlen, fname, line,
					      "Parsing error at unrecognized "
					      "key: %.64s", w[i]);
		*eq = '\0';
		k = find_key(w[i]);
		if (!k) {
			conf_text_fail(err, errlen, fname, line, "Parsing "
				       "error at unrecognized key: %.64s",
				       w[i]);
			*eq = '=';
			return -1;
		}
		*eq = '=';
		if (!eq[1])
			return conf_text_fail(err, errlen, fname, line,
					      "%s: no value", k->name);
		if (set_value(c, k, eq + 1, why, sizeof(why)) < 0)
			return conf_text_fail(err, errlen, fname, line,
					      "%s=%.64s: %s", k->name, eq + 1,
					      why);
	}
	return 0;
}

/* Split s into words at blanks; -1 past JC_MAX_WORDS. */
static int split_words(char *s, char **w, size_t *n)
{
	char *save = NULL;

	*n = 0;
	for (char *t = strtok_r(s, " \t\r\v\f", &save); t;
	     t = strtok_r(NULL, " \t\r\v\f", &save)) {
		if (*n == JC_MAX_WORDS)
			return -1;
		w[(*n)++] = t;
	}
	return 0;
}

typedef struct {
	jc_conf_t  *c;
	const char *fname;
	const char *node;
	int         pass;
	char       *err;
	size_t      errlen;
} jc_parse_t;

/* One line of a pass (conf_text_lines): pass 0 applies lines without
 * NodeName (and checks the others), pass 1 applies node's lines. */
static int parse_line(char *s, int line, void *arg)
{
	jc_parse_t *p = arg;
	char *w[JC_MAX_WORDS], why[320];
	size_t wn;
	bool has, match;
	int rc = 0;

	if (split_words(s, w, &wn) < 0)
		rc = conf_text_fail(p->err, p->errlen, p->fname, line,
				    "more than %d words", JC_MAX_WORDS);
	else if (line_nodes(w, wn, p->node, &has, &match, why,
			    sizeof(why)) < 0)
		rc = conf_text_fail(p->err, p->errlen, p->fname, line, "%s",
				    why);
	else if (p->pass == 0 && has) {
		jc_conf_t scratch = { 0 };

		rc = apply_words(&scratch, w, wn, p->fname, line, p->err,
				 p->errlen);
		jc_conf_free(&scratch);
	} else if ((p->pass == 0 && !has) || (p->pass == 1 && match))
		rc = apply_words(p->c, w, wn, p->fname, line, p->err,
				 p->errlen);
	return rc;
}

static int parse_pass(const char *text, size_t len, const char *fname,
		      const char *node, int pass, jc_conf_t *c, char *err,
		      size_t errlen)
{
	jc_parse_t p = { c, fname, node, pass, err, errlen };

	return conf_text_lines(text, len, fname, parse_line, &p, err, errlen);
}

int jc_conf_parse_text(const char *text, size_t len, const char *fname,
		       const char *node, jc_conf_t *c, char *err,
		       size_t errlen)
{
	char why[160];

	memset(c, 0, sizeof(*c));
	c->clone_script_wait = c->clone_epilog_wait = JC_DEFAULT_WAIT;
	if (parse_pass(text, len, fname, node, 0, c, err, errlen) < 0 ||
	    (node && parse_pass(text, len, fname, node, 1, c, err,
				errlen) < 0))
		goto error;
	if (!c->dir_cnt && set_dirs(c, JC_DEFAULT_DIRS, why,
				    sizeof(why)) < 0)
		goto error;
	for (size_t i = 0; c->base_path && i < c->dir_cnt; i++) {
		if (strcmp(c->base_path, c->dirs[i]))
			continue;
		snprintf(err, errlen, "%s: BasePath=%s is also in Dirs",
			 fname, c->base_path);
		goto error;
	}
	return 0;
error:
	jc_conf_free(c);
	return -1;
}

int jc_conf_load(const char *path, const char *node, jc_conf_t *c,
		 char *err, size_t errlen)
{
	char *text;
	size_t n;
	int rc;

	memset(c, 0, sizeof(*c));
	if (conf_text_read(path, JC_CONF_MAX_BYTES, &text, &n, err,
			   errlen) < 0)
		return -1;
	rc = jc_conf_parse_text(text, n, path, node, c, err, errlen);
	xfree(text);
	return rc;
}

bool jc_conf_active(const jc_conf_t *c)
{
	return c->base_path && strcasecmp(c->base_path, "none");
}

char *jc_conf_base_path(const jc_conf_t *c, const char *node)
{
	char host[256] = "", *out = NULL;
	bool h_done = false, n_done = false;

	if (!c->base_path)
		return NULL;
	if (gethostname(host, sizeof(host) - 1) < 0)
		host[0] = '\0';
	for (const char *p = c->base_path; *p; p++) {
		if (p[0] == '%' && p[1] == 'h' && !h_done) {
			xstrcat(&out, host);
			h_done = true;
			p++;
		} else if (p[0] == '%' && p[1] == 'n' && !n_done) {
			xstrcat(&out, node ? node : "");
			n_done = true;
			p++;
		} else
			xstrcatc(&out, *p);
	}
	return out;
}
