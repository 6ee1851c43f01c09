/* fuzz_dbd_tres.c — the TRES strings slurmdbd reads from a controller's
 * records (dbd_tres.c, compiled in): the cluster registration whose
 * names get ids (dbd_tres_register) and the counts the roll-ups and
 * sreport take from jobs' AllocTRES (dbd_tres_count).  The database is
 * stubbed: the table holds the fixed TRES and every INSERT is checked
 * to carry a name that passed the checks. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/xmalloc.h"
#include "common/xstring.h"
#include "dbd/dbd_tres.c"

void dbd_db_quote(dbd_db_t *db, char **sql, const char *value)
{
	(void)db;
	/* registered names hold no quote: a quote here is a bug */
	if (strpbrk(value, "'\\"))
		__builtin_trap();
	xstrfmtcat(sql, "'%s'", value);
}

int dbd_db_select(dbd_db_t *db, const char *sql, dbd_rows_t *out)
{
	static const char *const fixed[] = { "1", "cpu", "2", "mem",
					     "6", "fs/disk" };

	(void)db;
	(void)sql;
	memset(out, 0, sizeof(*out));
	out->rows = 3;
	out->cols = 2;
	out->cells = xcalloc(7, sizeof(char *));
	for (size_t i = 0; i < 6; i++)
		out->cells[i] = xstrdup(fixed[i]);
	return 0;
}

void dbd_rows_free(dbd_rows_t *r)
{
	for (size_t i = 0; r->cells && i < (size_t)r->rows * r->cols; i++)
		xfree(r->cells[i]);
	xfree(r->cells);
}

const char *dbd_rows_get(const dbd_rows_t *r, uint32_t row, uint32_t col)
{
	return r->cells[(size_t)row * r->cols + col];
}

int dbd_db_exec(dbd_db_t *db, const char *sql)
{
	(void)db;
	(void)sql;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = xmalloc(size + 1), *sql = NULL;

	memcpy(s, data, size);
	(void)dbd_tres_register(NULL, s);
	(void)dbd_tres_count(s, "cpu");
	(void)dbd_tres_count(s, "gres/gpu");
	dbd_tres_sql(NULL, &sql, "t.tres_alloc", "gres/gpu");
	xfree(sql);
	xfree(s);
	return 0;
}
