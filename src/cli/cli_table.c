/* cli_table.c — accounting-style tables (cli_table.h). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli_table.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

/* The row that ends a table; rows without a name before it are JSON
 * members only (no column). */
static bool table_end(const cli_field_t *f)
{
	return !f->name && !f->text && !f->json;
}

const cli_field_t *cli_table_find(const void *tab, size_t stride,
				  const cli_alias_t *aliases,
				  const char *name, size_t n)
{
	const cli_field_t *prefix = NULL, *f;

	for (size_t i = 0; !table_end(f = cli_table_at(tab, stride, i)); i++) {
		if (!f->name)
			continue;
		if (strlen(f->name) == n && !strncasecmp(f->name, name, n))
			return f;
		if (!prefix && n && !strncasecmp(f->name, name, n))
			prefix = f;
	}
	for (const cli_alias_t *a = aliases; a && a->alias; a++)
		if (strlen(a->alias) == n && !strncasecmp(a->alias, name, n))
			return cli_table_find(tab, stride, NULL, a->name,
					      strlen(a->name));
	return prefix;
}

/* "%N" after a name: N in *w (0 leaves the default, as Slurm's
 * sacctmgr, sshare and sreport do); -1 if it is not a number in range. */
static int read_width(const char *pct, int *w)
{
	char *end;
	long v = strtol(pct + 1, &end, 10);

	if (*end || end == pct + 1 || v > CLI_TABLE_MAX_WIDTH ||
	    v < -CLI_TABLE_MAX_WIDTH)
		return -1;
	if (v)
		*w = (int)v;
	return 0;
}

int cli_table_parse(cli_table_t *t, const void *tab, size_t stride,
		    const cli_alias_t *aliases, const char *spec, char **bad)
{
	memset(t, 0, sizeof(*t));
	if (cli_table_add(t, tab, stride, aliases, spec, bad) < 0) {
		cli_table_free(t);
		return -1;
	}
	return 0;
}

int cli_table_add(cli_table_t *t, const void *tab, size_t stride,
		  const cli_alias_t *aliases, const char *spec, char **bad)
{
	char **items = xstrsplit(spec ? spec : "", ",", NULL);
	size_t n = t->cnt;

	t->cols = xrealloc(t->cols, (n + xstrarray_len(items) + 1) *
			   sizeof(cli_tcol_t));
	*bad = NULL;
	for (size_t i = 0; items[i]; i++) {
		char *name = items[i] + strspn(items[i], " \t"),
		     *pct = strchr(name, '%');
		size_t len = pct ? (size_t)(pct - name) : strlen(name);
		const cli_field_t *f;

		if (!len)
			continue;
		f = cli_table_find(tab, stride, aliases, name, len);
		if (!f) {
			*bad = xstrndup(name, len);
			break;
		}
		t->cols[n].field = f;
		t->cols[n].width = f->width;
		t->cols[n].set = pct != NULL;
		if (pct && read_width(pct, &t->cols[n].width) < 0) {
			*bad = xstrdup(name);
			break;
		}
		n++;
	}
	xstrarray_free(items);
	if (*bad)
		return -1;      /* t as it was */
	t->cnt = n;
	return 0;
}

void cli_table_free(cli_table_t *t)
{
	xfree(t->cols);
	xfree(t->line);
	xfree(t->text);
	t->cnt = 0;
}

static const char *delim_of(const cli_table_opt_t *o)
{
	return o->delim ? o->delim : "|";
}

static const char *header_of(const cli_field_t *f)
{
	return f->header ? f->header : f->name;
}

static void spaces(char **line, int n)
{
	static const char sp[] = "                                ";

	for (; n > 0; n -= (int)sizeof(sp) - 1)
		xstrncat(line, sp, n < (int)sizeof(sp) - 1 ?
			 (size_t)n : sizeof(sp) - 1);
}

/* text in a column of width (< 0: left-justified), cut to width - 1 and
 * a '+' when longer (to width without a mark if no_mark), then a blank. */
static void cell(char **line, const char *text, int width, bool no_mark)
{
	int w = width < 0 ? -width : width;
	int len = (int)strlen(text);

	if (!w) {
		xstrcat(line, text);
	} else if (len > w) {
		if (no_mark) {
			xstrncat(line, text, (size_t)w);
		} else {
			xstrncat(line, text, (size_t)(w - 1));
			xstrcatc(line, '+');
		}
	} else {
		if (width > 0)
			spaces(line, w - len);
		xstrcat(line, text);
		if (width < 0)
			spaces(line, w - len);
	}
	xstrcatc(line, ' ');
}

/* A parsable value and its delimiter (after the last one only for -p). */
static void pcell(char **line, const char *text, const cli_table_opt_t *o,
		  bool last)
{
	xstrcat(line, text);
	if (!last || o->parsable == 1)
		xstrcat(line, delim_of(o));
}

void cli_table_header(FILE *out, const cli_table_t *t,
		      const cli_table_opt_t *o)
{
	char *line = NULL, *dash = NULL;

	if (o->noheader)
		return;
	for (size_t i = 0; i < t->cnt; i++) {
		const char *name = header_of(t->cols[i].field);
		int width = t->cols[i].width, w = width < 0 ? -width : width;

		if (o->parsable) {
			pcell(&line, name, o, i + 1 == t->cnt);
			continue;
		}
		xstrfmtcat(&line, width < 0 ? "%-*.*s " : "%*.*s ", w, w, name);
		for (int k = 0; k < w; k++)
			xstrcatc(&dash, '-');
		xstrcatc(&dash, ' ');
	}
	fprintf(out, "%s\n", line ? line : "");
	if (dash)
		fprintf(out, "%s\n", dash);
	xfree(line);
	xfree(dash);
}

void cli_table_row(FILE *out, cli_table_t *t, const cli_table_opt_t *o,
		   const void *rec, const cli_ctx_t *ctx)
{
	if (t->line)
		t->line[0] = '\0';
	for (size_t i = 0; i < t->cnt; i++) {
		const cli_tcol_t *c = &t->cols[i];

		if (t->text)
			t->text[0] = '\0';
		c->field->text(&t->text, rec, ctx);
		if (o->parsable)
			pcell(&t->line, t->text ? t->text : "", o,
			      i + 1 == t->cnt);
		else
			cell(&t->line, t->text ? t->text : "", c->width,
			     o->no_mark);
	}
	fputs(t->line ? t->line : "", out);
	fputc('\n', out);
}

void cli_table_row_texts(FILE *out, cli_table_t *t, const cli_table_opt_t *o,
			 const char *const *texts)
{
	if (t->line)
		t->line[0] = '\0';
	for (size_t i = 0; i < t->cnt; i++) {
		const char *v = texts[i] ? texts[i] : "";

		if (o->parsable)
			pcell(&t->line, v, o, i + 1 == t->cnt);
		else
			cell(&t->line, v, t->cols[i].width, o->no_mark);
	}
	fputs(t->line ? t->line : "", out);
	fputc('\n', out);
}

char *cli_table_text(const cli_field_t *f, const void *rec,
		     const cli_ctx_t *ctx)
{
	char *out = NULL;

	f->text(&out, rec, ctx);
	return out ? out : xstrdup("");
}

void cli_table_help(FILE *out, const void *tab, size_t stride)
{
	const cli_field_t *f;
	size_t k = 0;

	for (size_t i = 0; !table_end(f = cli_table_at(tab, stride, i)); i++)
		if (f->name)
			fprintf(out, "%-20s%s", f->name,
				k++ % 4 == 3 ? "\n" : "");
	if (k % 4)
		fputc('\n', out);
}
