/* topo_conf.c — reading topology.conf (see topo_conf.h).
 *
 * Each line is read into a switch or a block as written; then the whole
 * file is checked and the switch tree resolved: children by name, one
 * parent each, no loop (a depth-first walk colours switches), levels
 * from the leaves up (a leaf is 0, a parent one more than its highest
 * child), and no node under two leaf switches or in two blocks.
 */
#define _GNU_SOURCE
#include "common/topo_conf.h"

#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/hostlist.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define TOPO_CONF_MAX_BYTES (16 * 1024 * 1024)
#define TOPO_MAX_NODES      (1u << 20)

static int _fail(char *err, size_t errlen, const char *fname, int line,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int _fail(char *err, size_t errlen, const char *fname, int line,
		 const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (err && errlen)
		snprintf(err, errlen, "%s:%d: %s", fname, line, msg);
	return -1;
}

/* Room for one more element after cnt (zeroed). */
static void *_push(void *p, size_t cnt, size_t sz)
{
	return xrealloc_sz(p, cnt * sz, (cnt + 1) * sz);
}

void topo_conf_free(topo_conf_t *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->sw_cnt; i++) {
		xfree(c->sw[i].name);
		xfree(c->sw[i].nodes);
		xfree(c->sw[i].switches);
		xfree(c->sw[i].child);
	}
	for (size_t i = 0; i < c->blk_cnt; i++) {
		xfree(c->blk[i].name);
		xfree(c->blk[i].nodes);
	}
	xfree(c->sw);
	xfree(c->blk);
	xfree(c->block_sizes);
	memset(c, 0, sizeof(*c));
}

long topo_conf_switch(const topo_conf_t *c, const char *name)
{
	for (size_t i = 0; i < c->sw_cnt; i++)
		if (!strcmp(c->sw[i].name, name))
			return (long) i;
	return -1;
}

static long _block(const topo_conf_t *c, const char *name)
{
	for (size_t i = 0; i < c->blk_cnt; i++)
		if (!strcmp(c->blk[i].name, name))
			return (long) i;
	return -1;
}

/* "4,16,64" ascending, each >= 1. */
static int _block_sizes(topo_conf_t *c, const char *v)
{
	char *dup = xstrdup(v), *save = NULL, *tok;
	uint32_t n;

	for (tok = strtok_r(dup, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (parse_u32(tok, &n) < 0 || !n || n > TOPO_MAX_NODES ||
		    (c->bs_cnt && n <= c->block_sizes[c->bs_cnt - 1]) ||
		    c->bs_cnt >= 64) {
			xfree(dup);
			return -1;
		}
		c->block_sizes = _push(c->block_sizes, c->bs_cnt,
					 sizeof(uint32_t));
		c->block_sizes[c->bs_cnt++] = n;
	}
	xfree(dup);
	return c->bs_cnt ? 0 : -1;
}

typedef struct {
	char *name, *nodes, *switches, *speed;
	bool  is_block, bs;
} line_t;

static void _line_free(line_t *l)
{
	xfree(l->name);
	xfree(l->nodes);
	xfree(l->switches);
	xfree(l->speed);
}

/* One key of a line; -1 with why. */
static int _key(line_t *l, const char *k, const char *v, char *why,
		size_t wlen)
{
	char **slot = NULL;

	if (!strcasecmp(k, "SwitchName") || !strcasecmp(k, "BlockName")) {
		if (l->name) {
			snprintf(why, wlen, "a second name on one line");
			return -1;
		}
		l->is_block = !strcasecmp(k, "BlockName");
		slot = &l->name;
	} else if (!strcasecmp(k, "Nodes")) {
		slot = &l->nodes;
	} else if (!strcasecmp(k, "Switches")) {
		slot = &l->switches;
	} else if (!strcasecmp(k, "LinkSpeed")) {
		slot = &l->speed;
	} else if (!strcasecmp(k, "BlockSizes")) {
		l->bs = true;
		slot = &l->speed;     /* kept as text, parsed by the caller */
	} else {
		snprintf(why, wlen, "unknown key %s", k);
		return -1;
	}
	if (*slot) {
		snprintf(why, wlen, "%s given twice", k);
		return -1;
	}
	if (!*v) {
		snprintf(why, wlen, "%s has no value", k);
		return -1;
	}
	*slot = xstrdup(v);
	return 0;
}

/* Count the names of a hostlist expression; -1 if malformed. */
static long _names(const char *expr, char *why, size_t wlen)
{
	hostlist_t *hl = hostlist_parse_max(expr, TOPO_MAX_NODES, why, wlen);
	long n;

	if (!hl)
		return -1;
	n = (long) hostlist_count(hl);
	hostlist_destroy(hl);
	return n;
}

static int _add_switch(topo_conf_t *c, line_t *l, int line, char *why,
		       size_t wlen)
{
	topo_switch_conf_t *s;
	uint32_t speed = 1;

	if (l->nodes && l->switches) {
		snprintf(why, wlen, "switch %s has both Nodes= and Switches=",
			 l->name);
		return -1;
	}
	if (!l->nodes && !l->switches) {
		snprintf(why, wlen, "switch %s has neither Nodes= nor "
			 "Switches=", l->name);
		return -1;
	}
	if (l->speed && parse_u32(l->speed, &speed) < 0) {
		snprintf(why, wlen, "LinkSpeed=%s is not a number", l->speed);
		return -1;
	}
	if (topo_conf_switch(c, l->name) >= 0) {
		snprintf(why, wlen, "switch %s defined twice", l->name);
		return -1;
	}
	if (_names(l->nodes ? l->nodes : l->switches, why, wlen) < 0)
		return -1;
	if (c->sw_cnt >= TOPO_CONF_MAX_ITEMS) {
		snprintf(why, wlen, "too many switches");
		return -1;
	}
	c->sw = _push(c->sw, c->sw_cnt, sizeof(*c->sw));
	s = &c->sw[c->sw_cnt++];
	s->name = l->name;
	s->nodes = l->nodes;
	s->switches = l->switches;
	s->link_speed = speed;
	s->line = line;
	s->parent = -1;
	l->name = l->nodes = l->switches = NULL;
	return 0;
}

static int _add_block(topo_conf_t *c, line_t *l, int line, char *why,
		      size_t wlen)
{
	topo_block_conf_t *b;
	long n;

	if (l->switches || l->speed) {
		snprintf(why, wlen, "block %s takes Nodes= only", l->name);
		return -1;
	}
	if (!l->nodes) {
		snprintf(why, wlen, "block %s has no Nodes=", l->name);
		return -1;
	}
	if (_block(c, l->name) >= 0) {
		snprintf(why, wlen, "block %s defined twice", l->name);
		return -1;
	}
	if ((n = _names(l->nodes, why, wlen)) < 0)
		return -1;
	if (c->blk_cnt >= TOPO_CONF_MAX_ITEMS) {
		snprintf(why, wlen, "too many blocks");
		return -1;
	}
	c->blk = _push(c->blk, c->blk_cnt, sizeof(*c->blk));
	b = &c->blk[c->blk_cnt++];
	b->name = l->name;
	b->nodes = l->nodes;
	b->node_cnt = (uint32_t) n;
	b->line = line;
	l->name = l->nodes = NULL;
	return 0;
}

/* Words of one line (comment cut, not empty). */
static int _parse_line(topo_conf_t *c, char *s, const char *fname, int line,
		       char *err, size_t errlen)
{
	char why[256] = "", *save = NULL, *tok;
	line_t l = { 0 };
	int rc = -1;

	for (tok = strtok_r(s, " \t\r\v\f", &save); tok;
	     tok = strtok_r(NULL, " \t\r\v\f", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq) {
			snprintf(why, sizeof(why), "%s: Key=Value expected",
				 tok);
			goto out;
		}
		*eq = '\0';
		if (_key(&l, tok, eq + 1, why, sizeof(why)) < 0)
			goto out;
	}
	if (l.bs) {
		if (l.name || l.nodes || l.switches) {
			snprintf(why, sizeof(why), "BlockSizes= goes on a line "
				 "of its own");
			goto out;
		}
		if (c->bs_line) {
			snprintf(why, sizeof(why), "BlockSizes= given twice");
			goto out;
		}
		if (_block_sizes(c, l.speed) < 0) {
			snprintf(why, sizeof(why), "BlockSizes=%s: ascending "
				 "node counts expected", l.speed);
			goto out;
		}
		c->bs_line = line;
		rc = 0;
		goto out;
	}
	if (!l.name) {
		snprintf(why, sizeof(why), "SwitchName= or BlockName= "
			 "expected");
		goto out;
	}
	rc = l.is_block ? _add_block(c, &l, line, why, sizeof(why)) :
		_add_switch(c, &l, line, why, sizeof(why));
out:
	_line_free(&l);
	if (rc < 0)
		return _fail(err, errlen, fname, line, "%s", why);
	return 0;
}

/* Children by name, one parent each. */
static int _link(topo_conf_t *c, const char *fname, char *err, size_t errlen)
{
	char why[256];

	for (size_t i = 0; i < c->sw_cnt; i++) {
		topo_switch_conf_t *s = &c->sw[i];
		hostlist_t *hl;

		if (!s->switches)
			continue;
		hl = hostlist_parse_max(s->switches, TOPO_CONF_MAX_ITEMS, why,
					sizeof(why));
		if (!hl)
			return _fail(err, errlen, fname, s->line, "%s", why);
		s->child = xcalloc(hostlist_count(hl) + 1, sizeof(uint32_t));
		for (size_t k = 0; k < hostlist_count(hl); k++) {
			const char *n = hostlist_nth(hl, k);
			long ci = topo_conf_switch(c, n);

			if (ci < 0 || (size_t) ci == i) {
				_fail(err, errlen, fname, s->line,
				      ci < 0 ? "switch %s: child switch %s is "
				      "not defined" : "switch %s is its own "
				      "child%s", s->name, ci < 0 ? n : "");
				hostlist_destroy(hl);
				return -1;
			}
			if (c->sw[ci].parent >= 0) {
				int pl = c->sw[c->sw[ci].parent].line;

				_fail(err, errlen, fname, s->line,
				      "switch %s is under both %s (line %d) "
				      "and %s", n,
				      c->sw[c->sw[ci].parent].name, pl,
				      s->name);
				hostlist_destroy(hl);
				return -1;
			}
			c->sw[ci].parent = (int32_t) i;
			s->child[s->child_cnt++] = (uint32_t) ci;
		}
		hostlist_destroy(hl);
	}
	return 0;
}

/* Levels from the leaves up; a loop (every switch in it has a parent, so
 * it is never reached from a top switch) is an error. */
static int _levels(topo_conf_t *c, const char *fname, char *err,
		   size_t errlen)
{
	uint32_t *stack = xcalloc(c->sw_cnt + 1, sizeof(uint32_t));
	uint8_t *seen = xcalloc(c->sw_cnt + 1, 1);
	size_t sp, reached = 0;

	/* post-order over each top switch: a child's level is known first */
	for (size_t top = 0; top < c->sw_cnt; top++) {
		if (c->sw[top].parent >= 0)
			continue;
		sp = 0;
		stack[sp++] = (uint32_t) top;
		while (sp) {
			uint32_t i = stack[sp - 1];
			topo_switch_conf_t *s = &c->sw[i];
			bool pushed = false;

			if (!seen[i]) {
				seen[i] = 1;
				reached++;
				for (uint32_t k = 0; k < s->child_cnt; k++) {
					stack[sp++] = s->child[k];
					pushed = true;
				}
				if (pushed)
					continue;
			}
			sp--;
			s->level = 0;
			for (uint32_t k = 0; k < s->child_cnt; k++)
				if (c->sw[s->child[k]].level + 1 > s->level)
					s->level = c->sw[s->child[k]].level + 1;
		}
	}
	xfree(stack);
	if (reached < c->sw_cnt) {
		for (size_t i = 0; i < c->sw_cnt; i++)
			if (!seen[i]) {
				int line = c->sw[i].line;
				const char *n = c->sw[i].name;

				xfree(seen);
				return _fail(err, errlen, fname, line,
					     "switch %s is in a loop", n);
			}
	}
	xfree(seen);
	return 0;
}

/* One node name under one leaf switch / in one block only. */
typedef struct {
	char  *name;
	int    line;
	size_t owner;
} owner_t;

static int _cmp_owner(const void *a, const void *b)
{
	const owner_t *x = a, *y = b;
	int r = strcmp(x->name, y->name);

	if (r)
		return r;
	return x->line < y->line ? -1 : (x->line > y->line);
}

static int _unique_nodes(topo_conf_t *c, const char *fname, char *err,
			 size_t errlen)
{
	owner_t *o = NULL;
	size_t cnt = 0, cap = 0, items = c->blk_cnt ? c->blk_cnt : c->sw_cnt;
	char why[256];
	int rc = 0;

	for (size_t i = 0; i < items; i++) {
		const char *expr = c->blk_cnt ? c->blk[i].nodes :
			c->sw[i].nodes;
		int line = c->blk_cnt ? c->blk[i].line : c->sw[i].line;
		hostlist_t *hl;

		if (!expr)
			continue;
		hl = hostlist_parse_max(expr, TOPO_MAX_NODES, why,
					sizeof(why));
		if (!hl || cnt + hostlist_count(hl) > TOPO_MAX_NODES) {
			if (hl)
				hostlist_destroy(hl);
			rc = _fail(err, errlen, fname, line, "too many nodes");
			goto out;
		}
		for (size_t k = 0; k < hostlist_count(hl); k++) {
			if (cnt == cap) {
				o = xrealloc_sz(o, cap * sizeof(*o),
						(cap ? cap * 2 : 64) *
						sizeof(*o));
				cap = cap ? cap * 2 : 64;
			}
			o[cnt].name = xstrdup(hostlist_nth(hl, k));
			o[cnt].line = line;
			o[cnt++].owner = i;
		}
		hostlist_destroy(hl);
	}
	if (cnt)
		qsort(o, cnt, sizeof(*o), _cmp_owner);
	for (size_t k = 1; k < cnt; k++) {
		if (strcmp(o[k].name, o[k - 1].name))
			continue;
		if (o[k].owner == o[k - 1].owner) {
			rc = _fail(err, errlen, fname, o[k].line,
				   "node %s listed twice", o[k].name);
		} else if (c->blk_cnt) {
			rc = _fail(err, errlen, fname, o[k].line,
				   "node %s is in blocks %s (line %d) and %s",
				   o[k].name, c->blk[o[k - 1].owner].name,
				   o[k - 1].line, c->blk[o[k].owner].name);
		} else {
			rc = _fail(err, errlen, fname, o[k].line,
				   "node %s is under leaf switches %s (line "
				   "%d) and %s", o[k].name,
				   c->sw[o[k - 1].owner].name, o[k - 1].line,
				   c->sw[o[k].owner].name);
		}
		break;
	}
out:
	for (size_t k = 0; k < cnt; k++)
		xfree(o[k].name);
	xfree(o);
	return rc;
}

/* BlockSizes: given, or the smallest block doubled while the blocks
 * hold it; every block holds at least the smallest. */
static int _blocks(topo_conf_t *c, const char *fname, char *err,
		   size_t errlen)
{
	uint32_t min = UINT32_MAX;
	uint64_t total = 0;

	if (!c->blk_cnt) {
		if (c->bs_line)
			return _fail(err, errlen, fname, c->bs_line,
				     "BlockSizes= without any BlockName=");
		return 0;
	}
	if (c->sw_cnt)
		return _fail(err, errlen, fname, c->sw[0].line,
			     "SwitchName= and BlockName= in one file");
	for (size_t i = 0; i < c->blk_cnt; i++) {
		if (c->blk[i].node_cnt < min)
			min = c->blk[i].node_cnt;
		total += c->blk[i].node_cnt;
	}
	if (!c->bs_line) {
		for (uint64_t s = min; s && s <= total && c->bs_cnt < 64;
		     s *= 2) {
			c->block_sizes = _push(c->block_sizes, c->bs_cnt,
					       sizeof(uint32_t));
			c->block_sizes[c->bs_cnt++] = (uint32_t) s;
		}
		return 0;
	}
	for (size_t i = 0; i < c->blk_cnt; i++)
		if (c->blk[i].node_cnt < c->block_sizes[0])
			return _fail(err, errlen, fname, c->blk[i].line,
				     "block %s has %u nodes, fewer than the "
				     "base block size %u (BlockSizes=)",
				     c->blk[i].name, c->blk[i].node_cnt,
				     c->block_sizes[0]);
	return 0;
}

int topo_conf_parse_text(const char *text, size_t len, const char *fname,
			 topo_conf_t *c, char *err, size_t errlen)
{
	char *buf, *line, *next;
	int lineno = 0, rc = 0;

	memset(c, 0, sizeof(*c));
	if (len > TOPO_CONF_MAX_BYTES)
		return _fail(err, errlen, fname, 0, "file too large");
	buf = xmalloc(len + 1);
	memcpy(buf, text, len);
	buf[len] = '\0';
	for (line = buf; line && rc == 0; line = next) {
		char *hash, *p;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (strlen(line) != (size_t) ((next ? next - 1 : buf + len) -
					      line)) {
			rc = _fail(err, errlen, fname, lineno,
				   "NUL byte in line");
			break;
		}
		if ((hash = strchr(line, '#')))
			*hash = '\0';
		for (p = line; *p == ' ' || *p == '\t' || *p == '\r'; p++)
			;
		if (!*p)
			continue;
		rc = _parse_line(c, p, fname, lineno, err, errlen);
	}
	xfree(buf);
	if (rc == 0 && !c->sw_cnt && !c->blk_cnt)
		rc = _fail(err, errlen, fname, c->bs_line ? c->bs_line : lineno,
			   c->bs_line ? "BlockSizes= without any BlockName=" :
			   "no SwitchName= or BlockName= line");
	if (rc == 0)
		rc = _link(c, fname, err, errlen);
	if (rc == 0)
		rc = _levels(c, fname, err, errlen);
	if (rc == 0)
		rc = _unique_nodes(c, fname, err, errlen);
	if (rc == 0)
		rc = _blocks(c, fname, err, errlen);
	if (rc < 0)
		topo_conf_free(c);
	return rc;
}

int topo_conf_load(const char *path, topo_conf_t *c, char *err,
		   size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0, cap = 0, n;
	int rc;

	memset(c, 0, sizeof(*c));
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	do {
		if (len + 4096 > cap) {
			cap = cap ? cap * 2 : 8192;
			text = xrealloc(text, cap);
		}
		n = fread(text + len, 1, cap - len, f);
		len += n;
	} while (n && len <= TOPO_CONF_MAX_BYTES);
	fclose(f);
	rc = topo_conf_parse_text(text ? text : "", len, path, c, err,
				  errlen);
	xfree(text);
	return rc;
}
