/* cli_opt_raw.c — job options by long name, as given: what cli_filter
 * plugins read and write (cli_opt.h: cli_opt_raw_get, cli_opt_set_named).
 *
 * The option table's setters turn a value into the request; this keeps
 * the text each row was last applied with, so a filter sees "--time 13"
 * as time = "13".  Rows that set the same thing (--mem, --mem-per-cpu)
 * share an id: applying one forgets the others' text.
 */
#include <string.h>

#include "cli/cli_opt.h"
#include "cli/cli_opt_int.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

void cli_opt_raw_note(cli_job_opts_t *o, const cli_opt_def_t *d,
		      const char *arg)
{
	size_t row = (size_t) (d - cli_opt_table);

	if (row >= cli_opt_table_len)
		return;
	if (!o->raw)
		o->raw = xcalloc(cli_opt_table_len, sizeof(char *));
	for (size_t i = 0; i < cli_opt_table_len; i++)
		if (cli_opt_table[i].id == d->id)
			xfree(o->raw[i]);
	o->raw[row] = xstrdup(arg ? arg : "set");
}

void cli_opt_raw_free(cli_job_opts_t *o)
{
	if (!o->raw)
		return;
	for (size_t i = 0; i < cli_opt_table_len; i++)
		xfree(o->raw[i]);
	xfree(o->raw);
}

static const cli_opt_def_t *raw_row(const cli_job_opts_t *o,
				    const char *name)
{
	for (size_t i = 0; i < cli_opt_table_len; i++) {
		const cli_opt_def_t *d = &cli_opt_table[i];

		if ((d->cmds & o->cmd) && !strcmp(d->name, name))
			return d;
	}
	return NULL;
}

const char *cli_opt_raw_get(const cli_job_opts_t *o, const char *name)
{
	const cli_opt_def_t *d = name ? raw_row(o, name) : NULL;

	if (!d || !o->raw)
		return NULL;
	return o->raw[d - cli_opt_table];
}

int cli_opt_set_named(cli_job_opts_t *o, const char *name, const char *arg,
		      cli_src_t src)
{
	const cli_opt_def_t *d = name ? raw_row(o, name) : NULL;

	if (!d)
		return 1;
	return cli_opt_apply(o, d, arg, src) < 0 ? -1 : 0;
}

const char *cli_opt_name_at(const cli_job_opts_t *o, size_t i)
{
	for (size_t k = 0; k < cli_opt_table_len; k++) {
		if (!(cli_opt_table[k].cmds & o->cmd))
			continue;
		if (!i--)
			return cli_opt_table[k].name;
	}
	return NULL;
}
