/* dbd_db.h — slurmdbd's MariaDB access: one connection, the schema and
 * its migrations, and query helpers.
 *
 * Everything here blocks, so it runs on the dbd worker thread only (never
 * on the event loop).  Values from outside are put into SQL only through
 * dbd_db_quote(), which escapes them with the connection's character set;
 * table and column names come from this code alone.
 */
#ifndef SLUICE_DBD_DB_H
#define SLUICE_DBD_DB_H

#include <stdbool.h>
#include <stdint.h>

#include "dbd/dbd_conf.h"

typedef struct dbd_db dbd_db_t;

/* One result: rows x cols strings ("" for SQL NULL), read-only: they
 * point into the client library's copy of the result (res), not one
 * allocation per cell.  Free with dbd_rows_free(). */
typedef struct {
	char   **cells;
	uint32_t rows;
	uint32_t cols;
	void    *res;             /* MYSQL_RES that holds the cells */
} dbd_rows_t;

/* Connect to StorageHost:StoragePort as StorageUser, create StorageLoc if
 * needed and bring its schema to the current version.  Retries the
 * connection every 2 s up to wait_s seconds.  NULL on failure (logged). */
dbd_db_t *dbd_db_open(const dbd_conf_t *conf, int wait_s);
void      dbd_db_close(dbd_db_t *db);
/* The schema version this build creates. */
int       dbd_db_schema_version(void);

/* Run one statement; 0 or -1 (logged).  Reconnects once if the server
 * went away, outside a transaction. */
int  dbd_db_exec(dbd_db_t *db, const char *sql);
/* SELECT into rows; 0 or -1. */
int  dbd_db_select(dbd_db_t *db, const char *sql, dbd_rows_t *out);
void dbd_rows_free(dbd_rows_t *r);
/* SELECT, handing each row to fn as it arrives from the server (cells
 * as dbd_rows_t's, valid during the call only): no copy of the whole
 * result.  fn must not use db.  0 or -1. */
typedef void (*dbd_row_f)(void *arg, const char *const *cells,
			  uint32_t cols);
int  dbd_db_select_each(dbd_db_t *db, const char *sql, dbd_row_f fn,
			void *arg);
/* The same with a NULL cell passed as NULL (not ""). */
int  dbd_db_select_each_null(dbd_db_t *db, const char *sql, dbd_row_f fn,
			     void *arg);
const char *dbd_rows_get(const dbd_rows_t *r, uint32_t row, uint32_t col);
/* Rows changed by the last statement. */
uint64_t dbd_db_affected(dbd_db_t *db);
/* Is DebugFlags flag (DBD_FLAG_*) set for this connection's daemon? */
bool dbd_db_debug(const dbd_db_t *db, uint32_t flag);
/* The AUTO_INCREMENT value the last INSERT gave its row. */
uint64_t dbd_db_insert_id(dbd_db_t *db);

/* The error of the last statement that failed: MariaDB's number and
 * text ("Data too long for column 'account' at row 1"). */
unsigned int dbd_db_errno(const dbd_db_t *db);
const char  *dbd_db_error(const dbd_db_t *db);
/* Did the server refuse a value for its content (too long, truncated,
 * out of range, not valid in the column's character set), so that the
 * same statement would fail again however often it is retried? */
bool dbd_db_content_error(unsigned int err);
/* Inside a transaction: mark a point, and undo what followed it. */
int  dbd_db_savepoint(dbd_db_t *db, const char *name);
int  dbd_db_rollback_to(dbd_db_t *db, const char *name);

int  dbd_db_begin(dbd_db_t *db);
int  dbd_db_commit(dbd_db_t *db);
void dbd_db_rollback(dbd_db_t *db);

/* Append 'value' escaped and quoted (NULL appends NULL). */
void dbd_db_quote(dbd_db_t *db, char **sql, const char *value);
/* Append len bytes as a hexadecimal literal (X'...'). */
void dbd_db_quote_bin(char **sql, const void *data, size_t len);
/* Append "col IN ('a','b')" for a comma list, or "1" for an empty list. */
void dbd_db_in(dbd_db_t *db, char **sql, const char *col, char **values);

#endif
