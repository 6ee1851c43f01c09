/* dbd_archive_file.h — the archive files slurmdbd writes before it purges
 * records (ArchiveJobs=yes ..., sacctmgr archive dump) and reads back
 * (sacctmgr archive load).  No database here: dbd_archive.c moves rows
 * between these files and the tables.
 *
 * A file is JSON, one object per line:
 *   {"sluice_archive":1,"cluster":"c","kind":"job","start":T0,"end":T1}
 *   {"table":"job_table","columns":["job_db_inx","cluster",...]}
 *   {"row":["17","c",...,null]}          (cells as text, NULL as null)
 *   ... more tables, each followed by its rows ...
 *   {"rows":N}                           (every row of the file: a file
 *                                         cut short lacks it)
 * The file is written under a temporary name, synced and renamed, so a
 * file with its final name is whole.
 */
#ifndef SLUICE_DBD_ARCHIVE_FILE_H
#define SLUICE_DBD_ARCHIVE_FILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define ARCHIVE_VERSION   1
#define ARCHIVE_COLS_MAX  64          /* a table's columns */
#define ARCHIVE_LINE_MAX  (16u << 20) /* one line (a row) */

/* ---- writing ---- */

typedef struct archive_writer archive_writer_t;

/* Start "<dir>/<cluster>_<kind>_archive_<start>_<end>" (times as
 * 2026-12-01T00:00:00, local; ".2", ".3"... if that name is taken) under
 * a temporary name.  NULL with err set. */
archive_writer_t *archive_writer_open(const char *dir, const char *cluster,
				      const char *kind, time_t start,
				      time_t end, char *err, size_t errlen);
/* A table's section: its column names, then its rows. */
int  archive_writer_table(archive_writer_t *w, const char *table,
			  const char *const *cols, uint32_t ncols);
int  archive_writer_row(archive_writer_t *w, const char *const *cells,
			uint32_t ncells);
uint64_t archive_writer_rows(const archive_writer_t *w);
/* keep: end the file, sync it and give it its name (the path, xmalloc'd,
 * in *path if not NULL); else remove it.  0, or -1 with err set (the
 * file removed). */
int  archive_writer_close(archive_writer_t *w, bool keep, char **path,
			  char *err, size_t errlen);

/* ---- reading ---- */

typedef enum {
	ARCHIVE_EV_TABLE = 1,   /* table, cols, ncols set */
	ARCHIVE_EV_ROW,         /* cells, ncells set (ncells == ncols) */
	ARCHIVE_EV_END,         /* the row count matched: the file is whole */
} archive_event_t;

typedef struct {
	FILE        *f;
	char        *line;
	size_t       cap;
	uint64_t     lineno;
	uint64_t     rows;
	bool         ended;
	/* the header */
	char        *cluster;
	char        *kind;
	int64_t      start, end;
	/* the current table and row */
	char        *table;
	char        *cols[ARCHIVE_COLS_MAX];
	uint32_t     ncols;
	const char  *cells[ARCHIVE_COLS_MAX];
	uint32_t     ncells;
	void        *row_obj;       /* json_object of the current row */
} archive_reader_t;

/* Read the header line of f.  0, or -1 with err ("line 1: ...") and
 * nothing held. */
int  archive_reader_open(archive_reader_t *r, FILE *f, char *err,
			 size_t errlen);
/* The next section, row or the end: 1 with *ev set, 0 at end of file
 * after ARCHIVE_EV_END, or -1 with err naming the line (a malformed
 * line, a row before any table or of the wrong width, a file cut
 * short, anything after the count). */
int  archive_reader_next(archive_reader_t *r, archive_event_t *ev,
			 char *err, size_t errlen);
/* Frees what the reader holds (not the FILE). */
void archive_reader_close(archive_reader_t *r);

#endif
