/* dbd_batch.h — the two halves of a table the controller's outbox fills
 * (track_table, profile_table): a multi-row INSERT built a record at a
 * time, and a SELECT read back into an array of records. */
#ifndef SLUICE_DBD_BATCH_H
#define SLUICE_DBD_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "common/fields.h"
#include "dbd/dbd_db.h"

/* A multi-row INSERT whose rows carry their outbox (epoch, seq) as the
 * key: a batch resent is stored once. */
typedef struct {
	char     *sql;
	uint32_t  rows;
} dbd_batch_t;

/* Start a row: head ("INSERT INTO t (cols) VALUES ") the first time,
 * a comma after, then "(".  The caller appends the values and ")". */
void dbd_batch_open_row(dbd_batch_t *b, const char *head);
/* The row is complete: run the statement once it holds 1,000 rows or
 * 2 MiB.  0 or -1. */
int  dbd_batch_close_row(dbd_db_t *db, dbd_batch_t *b);
/* Run what is pending (nothing: 0).  0 or -1; empty after either. */
int  dbd_batch_flush(dbd_db_t *db, dbd_batch_t *b);
/* Forget what is pending (the transaction rolled back). */
void dbd_batch_drop(dbd_batch_t *b);

/* SELECT sql into an array of records of size bytes: fill sets one from
 * a row's cells (the record zeroed; rows of fewer than min_cols cells are
 * skipped).  0 with *recs (xfree) and *cnt, or -1 with none (what was
 * read is freed with fields). */
typedef void (*dbd_rec_fill_f)(void *rec, const char *const *cells);
int  dbd_select_recs(dbd_db_t *db, const char *sql, uint32_t min_cols,
		     size_t size, dbd_rec_fill_f fill,
		     const field_desc_t *fields, void **recs, uint32_t *cnt);

#endif
