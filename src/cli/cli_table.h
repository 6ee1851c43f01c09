/* cli_table.h — Slurm's accounting-style tables over cli_field_t rows.
 *
 * sacct, sstat, sshare (and the commands that follow them) print the
 * same kind of table: columns chosen by "Name,Name%N,Name%-N" (names
 * case-insensitive, a unique prefix is enough, the first row wins when
 * several share it), each with its row's default width unless %N gives
 * one (< 0 left-justified; %0 keeps the default); a header line of names
 * cut to the width and a line of dashes; a value longer than its column
 * cut to width - 1 and marked '+'; a blank after every column.  -p/-P
 * print whole values with a delimiter after every value (-p) or between
 * them (-P), -n drops the header.  Every one of these is one function
 * here; a command brings only its rows.
 *
 * A command's row type may carry more than cli_field_t (sacct: the
 * record members a column reads, the JSON paths): it starts with a
 * cli_field_t and the table is passed with its row size (stride).  A
 * table ends with a row whose name, text and json are all NULL; a row
 * with no name before it is a JSON member only (not a column).  The JSON
 * of a record walks the same rows (cli_fields_json(), sacct_json_row()).
 */
#ifndef SLUICE_CLI_TABLE_H
#define SLUICE_CLI_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/cli_fields.h"

#define CLI_TABLE_MAX_WIDTH 4096

typedef struct {
	const cli_field_t *field;
	int                width;     /* < 0 left-justified, 0 whole */
	bool               set;       /* width given by %N */
} cli_tcol_t;

/* Another spelling of a row's name (sacctmgr's "Fairshare" for
 * "Share"), tried after the exact names and before prefixes. */
typedef struct {
	const char *alias, *name;
} cli_alias_t;

typedef struct {
	cli_tcol_t *cols;
	size_t      cnt;
	char       *line, *text;      /* scratch, reused row to row */
} cli_table_t;

typedef struct {
	bool        noheader;         /* -n */
	int         parsable;         /* 0 table, 1 -p, 2 -P */
	const char *delim;            /* --delimiter; NULL "|" */
	bool        no_mark;          /* cut long values without '+' */
} cli_table_opt_t;

/* The row named name (n bytes of it: exactly, else by an alias (list
 * ending with a NULL alias, or NULL), else the first whose name starts
 * with it); NULL if none. */
const cli_field_t *cli_table_find(const void *tab, size_t stride,
				  const cli_alias_t *aliases,
				  const char *name, size_t n);
/* Parse spec into t (zeroed first; more columns after those it has with
 * cli_table_add).  0, or -1 with *bad (xmalloc'd): the unknown name, or
 * the item whose width is not a number; t is then empty (parse) or as
 * it was before the call (add). */
int  cli_table_parse(cli_table_t *t, const void *tab, size_t stride,
		     const cli_alias_t *aliases, const char *spec, char **bad);
int  cli_table_add(cli_table_t *t, const void *tab, size_t stride,
		   const cli_alias_t *aliases, const char *spec, char **bad);
void cli_table_free(cli_table_t *t);

/* The header (names, then dashes unless parsable); nothing with -n. */
void cli_table_header(FILE *out, const cli_table_t *t,
		      const cli_table_opt_t *o);
/* One record's line. */
void cli_table_row(FILE *out, cli_table_t *t, const cli_table_opt_t *o,
		   const void *rec, const cli_ctx_t *ctx);
/* One line of texts already made (texts[i] for column i; NULL ""):
 * for a command whose cells are not a getter's (sreport). */
void cli_table_row_texts(FILE *out, cli_table_t *t, const cli_table_opt_t *o,
			 const char *const *texts);
/* A field's text for rec, "" for no value.  Caller frees. */
char *cli_table_text(const cli_field_t *f, const void *rec,
		     const cli_ctx_t *ctx);
/* --helpformat / -e: every name, four to a line in columns of 20. */
void cli_table_help(FILE *out, const void *tab, size_t stride);

/* A table's rows and their size, as the functions above take them. */
#define CLI_TABLE(tab) (tab), sizeof((tab)[0])

/* Row i of a table of stride-sized rows. */
static inline const cli_field_t *cli_table_at(const void *tab, size_t stride,
					      size_t i)
{
	return (const cli_field_t *)((const char *)tab + i * stride);
}

#endif
