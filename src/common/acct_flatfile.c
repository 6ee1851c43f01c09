/* acct_flatfile.c — Slurm's association flat file (acct_flatfile.h). */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/acct_flatfile.h"
#include "common/parse_util.h"
#include "common/tres_limit.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define FF_MAX_LINE   65536
#define FF_MAX_LINES  1000000
#define FF_SEP        '\x1f'

typedef enum {
	V_NUM = 1,     /* unsigned number */
	V_SHARES,      /* number or "parent" */
	V_WALL,        /* minutes or [days-]hh:mm:ss */
	V_TRES,        /* TRES list */
	V_NAME,        /* one name */
	V_NAMES,       /* comma list of names */
	V_TEXT,        /* free text */
	V_ADMIN,       /* None, Operator, Administrator */
	V_NODES,       /* a node count into a TRES (GrpNodes=) */
	V_CPUS,        /* a CPU count into a TRES (GrpCPUs=) */
} ff_vtype_t;

enum { W_ASSOC = 1, W_ENTITY, W_COORD };

#define K_ALL   ((1u << FF_CLUSTER) | (1u << FF_ACCOUNT) | (1u << FF_USER))
#define K_ACCT  (1u << FF_ACCOUNT)
#define K_USER  (1u << FF_USER)

typedef struct {
	const char *name;      /* as the file spells it (any case) */
	const char *key;       /* slurmdbd's key */
	ff_vtype_t  type;
	int         where;
	unsigned    kinds;
} ff_key_t;

static const ff_key_t keys[] = {
	{ "Fairshare", "fairshare", V_SHARES, W_ASSOC, K_ALL },
	{ "Share", "fairshare", V_SHARES, W_ASSOC, K_ALL },
	{ "GrpJobs", "grpjobs", V_NUM, W_ASSOC, K_ALL },
	{ "GrpSubmitJobs", "grpsubmitjobs", V_NUM, W_ASSOC, K_ALL },
	{ "GrpSubmit", "grpsubmitjobs", V_NUM, W_ASSOC, K_ALL },
	{ "GrpTRES", "grptres", V_TRES, W_ASSOC, K_ALL },
	{ "GrpTRESMins", "grptresmins", V_TRES, W_ASSOC, K_ALL },
	{ "GrpTRESRunMins", "grptresrunmins", V_TRES, W_ASSOC, K_ALL },
	{ "MaxTRESMinsPerJob", "maxtresmins", V_TRES, W_ASSOC, K_ALL },
	{ "MaxTRESMins", "maxtresmins", V_TRES, W_ASSOC, K_ALL },
	{ "GrpNodes", "grptres", V_NODES, W_ASSOC, K_ALL },
	{ "GrpCPUs", "grptres", V_CPUS, W_ASSOC, K_ALL },
	{ "GrpWall", "grpwall", V_WALL, W_ASSOC, K_ALL },
	{ "MaxJobs", "maxjobs", V_NUM, W_ASSOC, K_ALL },
	{ "MaxSubmitJobs", "maxsubmitjobs", V_NUM, W_ASSOC, K_ALL },
	{ "MaxSubmit", "maxsubmitjobs", V_NUM, W_ASSOC, K_ALL },
	{ "MaxTRESPerJob", "maxtres", V_TRES, W_ASSOC, K_ALL },
	{ "MaxTRES", "maxtres", V_TRES, W_ASSOC, K_ALL },
	{ "MaxNodesPerJob", "maxtres", V_NODES, W_ASSOC, K_ALL },
	{ "MaxCPUsPerJob", "maxtres", V_CPUS, W_ASSOC, K_ALL },
	{ "MaxTRESPerNode", "maxtrespn", V_TRES, W_ASSOC, K_ALL },
	{ "MaxWallDurationPerJob", "maxwall", V_WALL, W_ASSOC, K_ALL },
	{ "MaxWall", "maxwall", V_WALL, W_ASSOC, K_ALL },
	{ "Priority", "priority", V_NUM, W_ASSOC, K_ALL },
	{ "QOS", "qos", V_NAMES, W_ASSOC, K_ALL },
	{ "DefaultQOS", "defaultqos", V_NAME, W_ASSOC, K_ALL },
	{ "Description", "description", V_TEXT, W_ENTITY, K_ACCT },
	{ "Organization", "organization", V_TEXT, W_ENTITY, K_ACCT },
	{ "DefaultAccount", "defaultaccount", V_NAME, W_ENTITY, K_USER },
	{ "AdminLevel", "adminlevel", V_ADMIN, W_ENTITY, K_USER },
	{ "Coordinator", "coordinator", V_NAMES, W_COORD, K_USER },
	{ NULL, NULL, 0, 0, 0 }
};

typedef struct {
	ff_file_t *f;
	unsigned   line;
	char      *err;
	size_t     errlen;
	char      *parent;     /* the current Parent */
} ff_ctx_t;

__attribute__((format(printf, 2, 3)))
static int fail(ff_ctx_t *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* A name: no blanks, quotes, separators or control characters. */
static bool good_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || strchr("'\":,=#", *s) ||
		    (unsigned char)*s == 0x7f)
			return false;
	return true;
}

static bool good_text(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < ' ' || (unsigned char)*s == 0x7f)
			return false;
	return true;
}

/* A quoted or bare token at *p up to the next ':' (bare) or the closing
 * quote; *p is left after it.  NULL on an unterminated quote. */
static char *token(const char **p)
{
	const char *s = *p, *end;
	char *out;

	if (*s == '\'' || *s == '"') {
		end = strchr(s + 1, *s);
		if (!end)
			return NULL;
		out = xstrndup(s + 1, (size_t)(end - s - 1));
		*p = end + 1;
		return out;
	}
	end = strchr(s, ':');
	if (!end)
		end = s + strlen(s);
	out = xstrndup(s, (size_t)(end - s));
	*p = end;
	return out;
}

static char *trim(char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	return s;
}

static int check_names(ff_ctx_t *c, const char *key, char *v)
{
	char **items = xstrsplit(v, ",", NULL);
	int rc = 0;

	if (!items[0] || v[0] == ',' || v[strlen(v) - 1] == ',' ||
	    strstr(v, ",,"))
		rc = fail(c, "Bad value for %s: '%s'", key, v);
	for (size_t i = 0; rc == 0 && items[i]; i++)
		if (!good_name(items[i]))
			rc = fail(c, "Bad name in %s: '%s'", key, items[i]);
	xstrarray_free(items);
	xstrtolower(v);
	return rc;
}

/* Check v for k; the value slurmdbd gets (caller frees) or NULL. */
static char *value_for(ff_ctx_t *c, const ff_key_t *k, char *v)
{
	char tres_err[256];
	uint32_t n;
	char *canon;

	switch (k->type) {
	case V_NUM:
		if (parse_u32(v, &n) < 0)
			break;
		return xstrdup_printf("%u", n);
	case V_SHARES:
		if (!strcasecmp(v, "parent"))
			return xstrdup("parent");
		if (parse_u32(v, &n) < 0)
			break;
		return xstrdup_printf("%u", n);
	case V_WALL:
		if (parse_duration_min(v, &n) < 0)
			break;
		return xstrdup(v);
	case V_NODES:
	case V_CPUS:
		if (parse_u32(v, &n) < 0)
			break;
		return xstrdup_printf("%s=%u", k->type == V_NODES ? "node" :
				      "cpu", n);
	case V_TRES:
		canon = tres_limit_canon(v, tres_err, sizeof(tres_err));
		if (!canon || !*canon) {
			xfree(canon);
			break;
		}
		return canon;
	case V_NAME:
		if (!good_name(v))
			break;
		return xstrtolower(xstrdup(v));
	case V_NAMES:
		if (check_names(c, k->name, v) < 0)
			return NULL;
		return xstrdup(v);
	case V_TEXT:
		if (!good_text(v))
			break;
		return xstrdup(v);
	case V_ADMIN:
		if (!strcasecmp(v, "None") || !strcasecmp(v, "Operator") ||
		    !strcasecmp(v, "Administrator") || !strcasecmp(v, "Admin"))
			return xstrdup(v);
		fail(c, "Unknown AdminLevel: %s", v);
		return NULL;
	}
	fail(c, "Bad value for %s: '%s'", k->name, v);
	return NULL;
}

static const ff_key_t *key_find(const char *name)
{
	for (const ff_key_t *k = keys; k->name; k++)
		if (!strcasecmp(k->name, name))
			return k;
	return NULL;
}

static bool has_key(char **set, const char *key)
{
	size_t n = strlen(key);

	for (size_t i = 0; set && set[i]; i++)
		if (!strncmp(set[i], key, n) && set[i][n] == '=')
			return true;
	return false;
}

/* The options after the name: ":Key=Value:..." */
static int options(ff_ctx_t *c, ff_entry_t *e, const char *p)
{
	while (*p) {
		const ff_key_t *k;
		char *name, *v, *val, ***dst;
		const char *eq;

		if (*p != ':')
			return fail(c, "Bad format: '%s'", p);
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == ':')
			continue;
		eq = strchr(p, '=');
		if (!eq || memchr(p, ':', (size_t)(eq - p)))
			return fail(c, "Bad format: '%.*s'",
				    (int)strcspn(p, ":"), p);
		v = xstrndup(p, (size_t)(eq - p));
		name = xstrdup(trim(v));
		xfree(v);
		p = eq + 1;
		v = token(&p);
		if (!v) {
			fail(c, "Unterminated quote in %s", name);
			xfree(name);
			return -1;
		}
		while (*p == ' ' || *p == '\t')
			p++;
		k = key_find(name);
		if (!k || !(k->kinds & (1u << e->kind))) {
			fail(c, "Unknown option: %s=%s", name, v);
			xfree(name);
			xfree(v);
			return -1;
		}
		val = value_for(c, k, trim(v));
		xfree(v);
		xfree(name);
		if (!val)
			return -1;
		dst = k->where == W_ASSOC ? &e->assoc_set :
		      k->where == W_ENTITY ? &e->entity_set : NULL;
		if (!dst) {
			char **items = xstrsplit(val, ",", NULL);

			for (size_t i = 0; items[i]; i++)
				e->coords = xstrarray_append(e->coords,
							     items[i]);
			xstrarray_free(items);
			xfree(val);
			continue;
		}
		if (has_key(*dst, k->key)) {
			fail(c, "%s given twice", k->name);
			xfree(val);
			return -1;
		}
		v = xstrdup_printf("%s=%s", k->key, val);
		*dst = xstrarray_append(*dst, v);
		xfree(v);
		xfree(val);
	}
	return 0;
}

static ff_entry_t *find_entry(ff_file_t *f, ff_kind_t kind, const char *name,
			      const char *parent)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->e[i].kind == kind && !strcmp(f->e[i].name, name) &&
		    (!parent || !strcmp(f->e[i].parent, parent)))
			return &f->e[i];
	return NULL;
}

static int entry(ff_ctx_t *c, const char *title, char *name, const char *p)
{
	ff_file_t *f = c->f;
	ff_kind_t kind;
	ff_entry_t *e;

	if (!strcasecmp(title, "Cluster"))
		kind = FF_CLUSTER;
	else if (!strcasecmp(title, "Account"))
		kind = FF_ACCOUNT;
	else if (!strcasecmp(title, "User"))
		kind = FF_USER;
	else if (strcasecmp(title, "Parent"))
		return fail(c, "Unknown line type '%s' (Cluster, Parent, "
			    "Account or User)", title);
	else
		kind = 0;
	if (kind != FF_CLUSTER && !f->n)
		return fail(c, "You need to specify a cluster name first with "
			    "'Cluster - $NAME' in your file");
	xstrtolower(name);
	if (!kind) {
		if (*p)
			return fail(c, "A Parent line takes no options");
		if (strcmp(name, "root") &&
		    !find_entry(f, FF_ACCOUNT, name, NULL))
			return fail(c, "Parent '%s' is not an account defined "
				    "above", name);
		xfree(c->parent);
		c->parent = xstrdup(name);
		return 0;
	}
	if (kind == FF_CLUSTER && f->n)
		return fail(c, "Only one Cluster line may be given");
	if (kind == FF_ACCOUNT && (!strcmp(name, "root") ||
				   find_entry(f, FF_ACCOUNT, name, NULL)))
		return fail(c, "Account '%s' is defined twice", name);
	if (kind == FF_USER && find_entry(f, FF_USER, name, c->parent))
		return fail(c, "User '%s' is given twice under '%s'", name,
			    c->parent);
	f->e = xrealloc(f->e, (f->n + 1) * sizeof(ff_entry_t));
	e = &f->e[f->n++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->line = c->line;
	e->name = xstrdup(name);
	e->parent = xstrdup(kind == FF_CLUSTER ? "" : c->parent);
	return options(c, e, p);
}

/* One line (comment removed, not blank). */
static int parse_line(ff_ctx_t *c, char *s)
{
	char *title, *name;
	const char *p;
	int rc;

	while (*s == ' ' || *s == '\t')
		s++;
	title = s;
	while (isalpha((unsigned char)*s))
		s++;
	if (s == title)
		return fail(c, "Bad format: '%s'", title);
	title = xstrndup(title, (size_t)(s - title));
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s != '-') {
		rc = fail(c, "Bad format: expected '%s - name'", title);
		xfree(title);
		return rc;
	}
	s++;
	while (*s == ' ' || *s == '\t')
		s++;
	p = s;
	name = token(&p);
	if (!name) {
		xfree(title);
		return fail(c, "Unterminated quote in the name");
	}
	while (*p == ' ' || *p == '\t')
		p++;
	if (!good_name(trim(name)) || strlen(trim(name)) > 255) {
		rc = fail(c, "Bad name: '%s'", trim(name));
	} else {
		char *n = xstrdup(trim(name));

		rc = entry(c, title, n, p);
		xfree(n);
	}
	xfree(name);
	xfree(title);
	return rc;
}

/* Cut a '#' comment (outside quotes) and trailing blanks. */
static void strip(char *s)
{
	char q = 0;
	size_t n;

	for (char *p = s; *p; p++) {
		if (q) {
			if (*p == q)
				q = 0;
		} else if (*p == '\'' || *p == '"') {
			q = *p;
		} else if (*p == '#') {
			*p = '\0';
			break;
		}
	}
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
}

int ff_parse(const char *text, size_t len, ff_file_t *f, unsigned *line,
	     char *err, size_t errlen)
{
	ff_ctx_t c = { .f = f, .err = err, .errlen = errlen };
	size_t pos = 0;
	int rc = 0;

	memset(f, 0, sizeof(*f));
	c.parent = xstrdup("root");
	*line = 0;
	if (err && errlen)
		err[0] = '\0';
	while (pos < len && rc == 0) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
		char *s;

		c.line++;
		if (c.line > FF_MAX_LINES) {
			rc = fail(&c, "Too many lines");
			break;
		}
		if (n > FF_MAX_LINE || memchr(text + pos, '\0', n)) {
			rc = fail(&c, n > FF_MAX_LINE ? "Line too long" :
				  "NUL byte in the line");
			break;
		}
		s = xstrndup(text + pos, n);
		pos += n + (nl ? 1 : 0);
		strip(s);
		if (*s)
			rc = parse_line(&c, s);
		xfree(s);
	}
	if (rc == 0 && !f->n) {
		c.line = 0;
		rc = fail(&c, "No cluster given ('Cluster - $NAME')");
	}
	xfree(c.parent);
	if (rc < 0) {
		*line = c.line;
		ff_free(f);
	}
	return rc;
}

void ff_free(ff_file_t *f)
{
	for (size_t i = 0; f && i < f->n; i++) {
		xfree(f->e[i].name);
		xfree(f->e[i].parent);
		xstrarray_free(f->e[i].assoc_set);
		xstrarray_free(f->e[i].entity_set);
		xstrarray_free(f->e[i].coords);
	}
	if (f) {
		xfree(f->e);
		f->n = 0;
	}
}

/* ---- one operation as a string ---- */

static void enc_list(char **out, char tag, char *const *list)
{
	for (size_t i = 0; list && list[i]; i++)
		xstrfmtcat(out, "%c%c%s", FF_SEP, tag, list[i]);
}

char *ff_encode(unsigned line, const dbd_acct_msg_t *m)
{
	char *out = xstrdup_printf("%u %u %u", line, (unsigned)m->op,
				   (unsigned)m->entity);

	enc_list(&out, 'n', m->names);
	enc_list(&out, 'w', m->where);
	enc_list(&out, 's', m->set);
	return out;
}

int ff_decode(const char *s, unsigned *line, dbd_acct_msg_t *m)
{
	unsigned op, entity;
	char **parts;
	int rc = 0;

	memset(m, 0, sizeof(*m));
	if (!s || sscanf(s, "%u %u %u", line, &op, &entity) != 3 ||
	    op > 0xffff || entity > 0xffff)
		return -1;
	m->op = (uint16_t)op;
	m->entity = (uint16_t)entity;
	parts = xstrsplit(s, "\x1f", NULL);
	for (size_t i = 1; parts[i] && rc == 0; i++) {
		const char *v = parts[i] + 1;

		switch (parts[i][0]) {
		case 'n': m->names = xstrarray_append(m->names, v); break;
		case 'w': m->where = xstrarray_append(m->where, v); break;
		case 's': m->set = xstrarray_append(m->set, v); break;
		default: rc = -1;
		}
	}
	xstrarray_free(parts);
	if (rc < 0) {
		xstrarray_free(m->names);
		xstrarray_free(m->where);
		xstrarray_free(m->set);
		memset(m, 0, sizeof(*m));
	}
	return rc;
}
