/* dbd_batch.c — batched INSERTs of outbox records and SELECTs back into
 * record arrays (dbd_batch.h). */
#include <string.h>

#include "common/xmalloc.h"
#include "common/xstring.h"
#include "dbd/dbd_batch.h"

#define BATCH_ROWS_MAX  1000
#define BATCH_SQL_MAX   (2u * 1024 * 1024)

void dbd_batch_open_row(dbd_batch_t *b, const char *head)
{
	if (!b->sql)
		b->sql = xstrdup(head);
	else
		xstrcatc(&b->sql, ',');
	xstrcatc(&b->sql, '(');
}

int dbd_batch_close_row(dbd_db_t *db, dbd_batch_t *b)
{
	if (++b->rows >= BATCH_ROWS_MAX || strlen(b->sql) >= BATCH_SQL_MAX)
		return dbd_batch_flush(db, b);
	return 0;
}

int dbd_batch_flush(dbd_db_t *db, dbd_batch_t *b)
{
	int rc;

	if (!b->sql)
		return 0;
	/* the same (epoch, seq) again: a batch resent, already stored */
	xstrcat(&b->sql, " ON DUPLICATE KEY UPDATE seq=seq");
	rc = dbd_db_exec(db, b->sql);
	dbd_batch_drop(b);
	return rc;
}

void dbd_batch_drop(dbd_batch_t *b)
{
	xfree(b->sql);
	b->rows = 0;
}

typedef struct {
	uint32_t        min_cols;
	size_t          size;
	dbd_rec_fill_f  fill;
	char           *recs;
	uint32_t        cnt;
	uint32_t        cap;
} fill_t;

static void fill_row(void *arg, const char *const *cells, uint32_t cols)
{
	fill_t *f = arg;
	char *rec;

	if (cols < f->min_cols)
		return;
	if (f->cnt == f->cap) {
		uint32_t cap = f->cap ? f->cap * 2 : 256;

		f->recs = xrealloc_sz(f->recs, f->cap * f->size,
				      cap * f->size);
		f->cap = cap;
	}
	rec = f->recs + (size_t)f->cnt++ * f->size;
	memset(rec, 0, f->size);
	f->fill(rec, cells);
}

int dbd_select_recs(dbd_db_t *db, const char *sql, uint32_t min_cols,
		    size_t size, dbd_rec_fill_f fill,
		    const field_desc_t *fields, void **recs, uint32_t *cnt)
{
	fill_t f = { .min_cols = min_cols, .size = size, .fill = fill };

	*recs = NULL;
	*cnt = 0;
	if (dbd_db_select_each(db, sql, fill_row, &f) < 0) {
		for (uint32_t i = 0; i < f.cnt; i++)
			fields_free(fields, f.recs + (size_t)i * size);
		xfree(f.recs);
		return -1;
	}
	*recs = f.recs;
	*cnt = f.cnt;
	return 0;
}
