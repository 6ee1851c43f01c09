/* cli_format.c — parse -o and -O format strings into columns. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "cli/cli_format.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

void cli_format_free(cli_format_t *fmt)
{
	for (size_t i = 0; i < fmt->cnt; i++)
		xfree(fmt->cols[i].suffix);
	xfree(fmt->cols);
	xfree(fmt->prefix);
	fmt->cnt = 0;
}

static cli_col_t *add_col(cli_format_t *fmt, const cli_field_t *f)
{
	cli_col_t *c;

	fmt->cols = xrealloc_sz(fmt->cols, fmt->cnt * sizeof(*c),
				(fmt->cnt + 1) * sizeof(*c));
	c = &fmt->cols[fmt->cnt++];
	c->field = f;
	return c;
}

/* Literal text goes to the last column's suffix, or the prefix. */
static void add_text(cli_format_t *fmt, const char *s, size_t n)
{
	if (!n)
		return;
	if (fmt->cnt)
		xstrncat(&fmt->cols[fmt->cnt - 1].suffix, s, n);
	else
		xstrncat(&fmt->prefix, s, n);
}

/* Digits at *p as a width; clamps to CLI_FORMAT_MAX_WIDTH. */
static int read_width(const char **p)
{
	long w = 0;

	while (isdigit((unsigned char)**p)) {
		if (w <= CLI_FORMAT_MAX_WIDTH)
			w = w * 10 + (**p - '0');
		(*p)++;
	}
	return w > CLI_FORMAT_MAX_WIDTH ? CLI_FORMAT_MAX_WIDTH : (int)w;
}

/* One "%[.][#][width]X" spec at *p (just past '%'); advances *p. */
static int parse_spec(cli_format_t *fmt, const char **p,
		      const cli_field_t *tab, const char *what)
{
	const char *start = *p - 1;
	bool right = false, fit = false;
	const cli_field_t *f;
	cli_col_t *c;
	int width;

	if (**p == '%') {
		add_text(fmt, "%", 1);
		(*p)++;
		return 0;
	}
	if (**p == '.') {
		right = true;
		(*p)++;
	}
	if (**p == '#') {
		fit = true;
		(*p)++;
	}
	width = read_width(p);
	if (!**p) {
		add_text(fmt, start, strlen(start));
		return 0;
	}
	f = cli_field_by_letter(tab, **p);
	if (!f) {
		error("Invalid %s format specification: %c", what, **p);
		(*p)++;
		add_text(fmt, start, (size_t)(*p - start));
		return 1;
	}
	(*p)++;
	c = add_col(fmt, f);
	c->width = width;
	c->right = right;
	c->fit = fit;
	return 0;
}

int cli_format_parse(cli_format_t *fmt, const char *spec,
		     const cli_field_t *tab, const char *what)
{
	const char *p = spec ? spec : "";
	int bad = 0;

	memset(fmt, 0, sizeof(*fmt));
	while (*p) {
		const char *pct = strchr(p, '%');

		if (!pct) {
			add_text(fmt, p, strlen(p));
			break;
		}
		add_text(fmt, p, (size_t)(pct - p));
		p = pct + 1;
		bad += parse_spec(fmt, &p, tab, what);
	}
	return bad;
}

/* "name[:[.][size][suffix]]" */
static int parse_long_item(cli_format_t *fmt, const char *item,
			   const cli_field_t *tab, const char *what)
{
	char *name = xstrdup(item), *colon = strchr(name, ':');
	const cli_field_t *f;
	cli_col_t *c;
	int rc = 0;

	if (colon)
		*colon = '\0';
	xstrtrim(name);
	if (!*name)
		goto out;
	f = cli_field_by_name(tab, name);
	if (!f) {
		error("Invalid %s format specification: %s", what, name);
		rc = 1;
		goto out;
	}
	c = add_col(fmt, f);
	c->width = CLI_FORMAT_LONG_DEFAULT_WIDTH;
	c->right = false;
	if (colon) {
		const char *p = colon + 1;

		if (*p == '.') {
			c->right = true;
			p++;
		}
		c->width = read_width(&p);
		if (*p)
			c->suffix = xstrdup(p);
	}
out:
	xfree(name);
	return rc;
}

int cli_format_parse_long(cli_format_t *fmt, const char *spec,
			  const cli_field_t *tab, const char *what)
{
	const char *p = spec ? spec : "";
	int bad = 0;

	memset(fmt, 0, sizeof(*fmt));
	while (*p) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		char *item = xstrndup(p, n);

		bad += parse_long_item(fmt, item, tab, what);
		xfree(item);
		p += n;
		if (*p == ',')
			p++;
	}
	return bad;
}

bool cli_format_has(const cli_format_t *fmt, char letter)
{
	for (size_t i = 0; i < fmt->cnt; i++)
		if (fmt->cols[i].field->letter == letter)
			return true;
	return false;
}

void cli_format_cell(char **line, const char *text, int width, bool right)
{
	size_t len = text ? strlen(text) : 0;

	if (!text)
		text = "";
	if (width <= 0) {
		xstrcat(line, text);
		return;
	}
	if (len > (size_t)width)
		len = (size_t)width;
	/* the cell whole at once: squeue writes one per column per job */
	size_t old = *line ? strlen(*line) : 0, pad = (size_t)width - len;
	char *p;

	*line = xrealloc(*line, old + (size_t)width + 1);
	p = *line + old;
	if (right) {
		memset(p, ' ', pad);
		p += pad;
	}
	memcpy(p, text, len);
	p += len;
	if (!right) {
		memset(p, ' ', pad);
		p += pad;
	}
	*p = '\0';
}
