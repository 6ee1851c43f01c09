/* cli_sreport_out.c — sreport's columns, time formats and printing
 * (cli_sreport.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli_sreport.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

/* ---- time formats ---- */

static const struct {
	const char *name;
	size_t      min;          /* shortest accepted abbreviation */
	sr_time_t   tf;
	const char *units;
} time_fmts[] = {
	{ "SecPer", 4, SR_TIME_SECPER, "Seconds/Percentage of Total" },
	{ "MinPer", 4, SR_TIME_MINPER, "Minutes/Percentage of Total" },
	{ "HourPer", 5, SR_TIME_HOURPER, "Hours/Percentage of Total" },
	{ "Seconds", 1, SR_TIME_SECS, "Seconds" },
	{ "Minutes", 1, SR_TIME_MINS, "Minutes" },
	{ "Hours", 1, SR_TIME_HOURS, "Hours" },
	{ "Percent", 1, SR_TIME_PERCENT, "Percentage of Total" },
};
#define TIME_FMT_CNT (sizeof(time_fmts) / sizeof(time_fmts[0]))

int sr_time_parse(const char *s)
{
	size_t n = strlen(s);

	for (size_t i = 0; i < TIME_FMT_CNT; i++)
		if (n >= time_fmts[i].min && n <= strlen(time_fmts[i].name) &&
		    !strncasecmp(s, time_fmts[i].name, n))
			return time_fmts[i].tf;
	return -1;
}

const char *sr_time_units(sr_time_t tf, bool cpu)
{
	static char buf[64];

	for (size_t i = 0; i < TIME_FMT_CNT; i++)
		if (time_fmts[i].tf == tf) {
			if (!cpu || tf == SR_TIME_PERCENT)
				return time_fmts[i].units;
			snprintf(buf, sizeof(buf), "CPU %s",
				 time_fmts[i].units);
			return buf;
		}
	return "";
}

static bool with_percent(sr_time_t tf)
{
	return tf == SR_TIME_SECPER || tf == SR_TIME_MINPER ||
	       tf == SR_TIME_HOURPER;
}

/* A usage value as text. */
static char *usage_text(sr_time_t tf, uint64_t secs, uint64_t total)
{
	double pct = total ? (double)secs * 100.0 / (double)total : 0;
	uint64_t v = secs;

	switch (tf) {
	case SR_TIME_MINS:
	case SR_TIME_MINPER:
		v = (secs + 30) / 60;
		break;
	case SR_TIME_HOURS:
	case SR_TIME_HOURPER:
		v = (secs + 1800) / 3600;
		break;
	default:
		break;
	}
	if (tf == SR_TIME_PERCENT)
		return xstrdup_printf("%.2f%%", pct);
	if (with_percent(tf))
		return xstrdup_printf("%" PRIu64 "(%.2f%%)", v, pct);
	return xstrdup_printf("%" PRIu64, v);
}

/* Usage columns are at least 8 wide, wider when the seconds need it,
 * and 9 more with a percentage after the value. */
static int usage_width(sr_time_t tf, uint64_t max_secs)
{
	int w = 8;

	for (uint64_t order = 100000000; max_secs >= order; order *= 10) {
		w++;
		if (order > UINT64_MAX / 10)
			break;
	}
	return with_percent(tf) ? w + 9 : w;
}

/* ---- the table ---- */

void sr_table_add(sr_table_t *t, const sr_field_t *f, int width)
{
	t->tab.cols = xrealloc(t->tab.cols, (t->tab.cnt + 1) *
			       sizeof(*t->tab.cols));
	t->tab.cols[t->tab.cnt].field = &f->f;
	t->tab.cols[t->tab.cnt].width = width;
	t->tab.cols[t->tab.cnt].set = false;
	t->ncols = (uint32_t)++t->tab.cnt;
}

static const sr_field_t *sr_field_of(const cli_field_t *f)
{
	return (const sr_field_t *)f;
}

/* Slurm's sreport: an unknown name is reported and the others kept. */
int sr_table_cols(sr_table_t *t, const sr_field_t *fields,
		  const char *const *defaults, const char *format)
{
	char **items = format ? xstrsplit(format, ",", NULL) :
		       xstrarray_dup((char *const *)defaults);
	char *bad = NULL;
	int rc = 0;

	memset(&t->tab, 0, sizeof(t->tab));
	for (size_t i = 0; items[i]; i++) {
		if (cli_table_add(&t->tab, CLI_TABLE(fields), NULL, items[i],
				  &bad) < 0) {
			fprintf(stderr, " Unknown field '%s'\n", bad);
			xfree(bad);
			rc = -1;
		}
	}
	t->ncols = (uint32_t)t->tab.cnt;
	xstrarray_free(items);
	return rc;
}

void sr_table_row(sr_table_t *t)
{
	t->cells = xrealloc(t->cells, (size_t)(t->rows + 1) * t->ncols *
			    sizeof(sr_cell_t));
	memset(&t->cells[(size_t)t->rows * t->ncols], 0,
	       t->ncols * sizeof(sr_cell_t));
	t->rows++;
}

static sr_cell_t *cell_of(sr_table_t *t, const char *col)
{
	if (!t->rows)
		return NULL;
	for (uint32_t c = 0; c < t->ncols; c++)
		if (!strcasecmp(t->tab.cols[c].field->name, col))
			return &t->cells[(size_t)(t->rows - 1) * t->ncols + c];
	return NULL;
}

void sr_table_str(sr_table_t *t, const char *col, const char *v)
{
	sr_cell_t *c = cell_of(t, col);

	if (c) {
		xfree(c->text);
		c->text = xstrdup(v ? v : "");
	}
}

void sr_table_secs(sr_table_t *t, const char *col, uint64_t secs)
{
	sr_cell_t *c = cell_of(t, col);

	if (c)
		c->secs = secs;
}

void sr_table_secs_of(sr_table_t *t, const char *col, uint64_t secs,
		      uint64_t total)
{
	sr_cell_t *c = cell_of(t, col);

	if (c) {
		c->secs = secs;
		c->total = total;
	}
}

void sr_table_free(sr_table_t *t)
{
	for (size_t i = 0; i < (size_t)t->rows * t->ncols; i++)
		xfree(t->cells[i].text);
	xfree(t->cells);
	cli_table_free(&t->tab);
	memset(t, 0, sizeof(*t));
}

/* ---- printing ---- */

#define DASHES "----------------------------------------" \
	       "----------------------------------------"

char *sr_window(const sreport_t *o, const char *what, bool secs)
{
	char s[64], e[64];
	char *out;

	fmt_time(o->start, s, sizeof(s));
	fmt_time(o->end - 1, e, sizeof(e));
	out = xstrdup_printf("%s %s - %s", what, s, e);
	if (secs)
		xstrfmtcat(&out, " (%lld secs)",
			   (long long)(o->end - o->start));
	return out;
}

void sr_banner(const sreport_t *o, const char *title, const char *units)
{
	if (o->noheader)
		return;
	printf("%s\n%s\n%s\n%s\n", DASHES, title, units, DASHES);
}

void sr_table_print(const sreport_t *o, sr_table_t *t)
{
	cli_table_opt_t out = { .noheader = o->noheader,
				.parsable = o->parsable };
	char **texts = xcalloc(t->ncols + 1, sizeof(char *));

	/* usage columns: as wide as their largest value needs */
	for (uint32_t c = 0; c < t->ncols; c++) {
		uint64_t max = 0;

		if (!sr_field_of(t->tab.cols[c].field)->usage)
			continue;
		for (uint32_t r = 0; r < t->rows; r++) {
			uint64_t v = t->cells[(size_t)r * t->ncols + c].secs;

			if (v > max)
				max = v;
		}
		t->tab.cols[c].width = usage_width(o->tf, max);
	}
	cli_table_header(stdout, &t->tab, &out);
	for (uint32_t r = 0; r < t->rows; r++) {
		for (uint32_t c = 0; c < t->ncols; c++) {
			const sr_cell_t *cl = &t->cells[(size_t)r * t->ncols +
							c];

			texts[c] = sr_field_of(t->tab.cols[c].field)->usage ?
				usage_text(o->tf, cl->secs, cl->total ?
					   cl->total : t->total) :
				xstrdup(cl->text ? cl->text : "");
		}
		cli_table_row_texts(stdout, &t->tab, &out,
				    (const char *const *)texts);
		for (uint32_t c = 0; c < t->ncols; c++)
			xfree(texts[c]);
	}
	xfree(texts);
}
