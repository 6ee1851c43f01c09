/* cli_format.h — squeue/sinfo format strings turned into columns.
 *
 * Short form (-o/--format, SQUEUE_FORMAT, SINFO_FORMAT):
 *     "%.18i %9P|%j"   text and "%[.][width]letter" specs; '.' right-
 *     justifies; a width pads and cuts to exactly that many characters;
 *     no width prints the whole value; "%%" is a literal '%'.  Text after
 *     a spec (up to the next '%') is that column's suffix, text before the
 *     first spec the line's prefix.  sinfo's "%#N" means "as wide as the
 *     widest value and the header, at least 9".
 * Long form (-O/--Format, SQUEUE_FORMAT2):
 *     "JobID:10,Name,State:.8|"   name[:[.][size][suffix]] per column,
 *     names case-insensitive; no ':' means the default width (20), a ':'
 *     with no size means no padding; the suffix follows the column.
 *
 * Unknown letters are kept as literal text and unknown names dropped;
 * each is reported with error("Invalid <what> format specification: X")
 * and counted in the return value.
 */
#ifndef SLUICE_CLI_FORMAT_H
#define SLUICE_CLI_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/cli_fields.h"

#define CLI_FORMAT_MAX_WIDTH 4096
#define CLI_FORMAT_LONG_DEFAULT_WIDTH 20
#define CLI_FORMAT_AUTO_MIN 9

typedef struct {
	const cli_field_t *field;
	int    width;        /* 0 = whole value */
	bool   right;
	bool   fit;          /* '#': widen to the longest value */
	char  *suffix;       /* text after the column, may be NULL */
} cli_col_t;

typedef struct {
	char      *prefix;   /* text before the first column, may be NULL */
	cli_col_t *cols;
	size_t     cnt;
} cli_format_t;

/* Parse into fmt (zeroed or freed first).  Returns the number of invalid
 * specifications (0 = all good); fmt holds the valid columns either way. */
int  cli_format_parse(cli_format_t *fmt, const char *spec,
		      const cli_field_t *tab, const char *what);
int  cli_format_parse_long(cli_format_t *fmt, const char *spec,
			   const cli_field_t *tab, const char *what);
void cli_format_free(cli_format_t *fmt);

/* True if some column shows field f (by letter). */
bool cli_format_has(const cli_format_t *fmt, char letter);

/* One cell: text padded/cut to width, appended to *line. */
void cli_format_cell(char **line, const char *text, int width, bool right);

#endif
