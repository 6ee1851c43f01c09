/* dbd_archive_file.c — archive files: JSON lines (dbd_archive_file.h). */
#include "dbd/dbd_archive_file.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "common/xstring.h"

/* ---- writing ---- */

struct archive_writer {
	FILE     *f;
	char     *tmp;       /* where it is written */
	char     *name;      /* what it becomes, without a ".N" */
	uint64_t  rows;
	bool      failed;    /* a write failed: errno kept in err_no */
	int       err_no;
};

static void iso_time(char *out, size_t len, time_t t)
{
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(out, len, "%Y-%m-%dT%H:%M:%S", &tm);
}

/* A name made only of what a file name may hold ('/' would escape the
 * directory). */
static bool name_ok(const char *s)
{
	return s && *s && !strchr(s, '/') && strcmp(s, ".") &&
	       strcmp(s, "..");
}

static void put_line(archive_writer_t *w, json_object *o)
{
	const char *s = json_object_to_json_string_ext(
		o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);

	if (!w->failed && (fputs(s, w->f) == EOF || fputc('\n', w->f) == EOF)) {
		w->failed = true;
		w->err_no = errno ? errno : EIO;
	}
	json_object_put(o);
}

archive_writer_t *archive_writer_open(const char *dir, const char *cluster,
				      const char *kind, time_t start,
				      time_t end, char *err, size_t errlen)
{
	char t0[32], t1[32];
	archive_writer_t *w;
	json_object *h;
	int fd;

	if (!name_ok(cluster) || !name_ok(kind)) {
		snprintf(err, errlen, "cluster name \"%s\" cannot be part of "
			 "a file name", cluster ? cluster : "");
		return NULL;
	}
	iso_time(t0, sizeof(t0), start);
	iso_time(t1, sizeof(t1), end);
	w = xmalloc(sizeof(*w));
	w->name = xstrdup_printf("%s/%s_%s_archive_%s_%s", dir, cluster, kind,
				 t0, t1);
	w->tmp = xstrdup_printf("%s/.%s_%s_archive.%ld.tmp", dir, cluster,
				kind, (long)getpid());
	fd = open(w->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || !(w->f = fdopen(fd, "w"))) {
		snprintf(err, errlen, "cannot create %s: %s", w->tmp,
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		xfree(w->name);
		xfree(w->tmp);
		xfree(w);
		return NULL;
	}
	h = json_object_new_object();
	json_object_object_add(h, "sluice_archive",
			       json_object_new_int(ARCHIVE_VERSION));
	json_object_object_add(h, "cluster", json_object_new_string(cluster));
	json_object_object_add(h, "kind", json_object_new_string(kind));
	json_object_object_add(h, "start", json_object_new_int64(start));
	json_object_object_add(h, "end", json_object_new_int64(end));
	put_line(w, h);
	return w;
}

int archive_writer_table(archive_writer_t *w, const char *table,
			 const char *const *cols, uint32_t ncols)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();

	for (uint32_t i = 0; i < ncols; i++)
		json_object_array_add(a, json_object_new_string(cols[i]));
	json_object_object_add(o, "table", json_object_new_string(table));
	json_object_object_add(o, "columns", a);
	put_line(w, o);
	return w->failed ? -1 : 0;
}

int archive_writer_row(archive_writer_t *w, const char *const *cells,
		       uint32_t ncells)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();

	for (uint32_t i = 0; i < ncells; i++)
		json_object_array_add(a, cells[i] ?
				      json_object_new_string(cells[i]) : NULL);
	json_object_object_add(o, "row", a);
	put_line(w, o);
	w->rows++;
	return w->failed ? -1 : 0;
}

uint64_t archive_writer_rows(const archive_writer_t *w)
{
	return w->rows;
}

/* Link the whole file to its name, or to name.N if taken: never over an
 * archive already there. */
static int give_name(archive_writer_t *w, char **path)
{
	char *p = xstrdup(w->name);

	for (int n = 2; link(w->tmp, p) < 0; n++) {
		if (errno != EEXIST || n > 1000) {
			xfree(p);
			return -1;
		}
		xfree(p);
		p = xstrdup_printf("%s.%d", w->name, n);
	}
	if (path)
		*path = p;
	else
		xfree(p);
	return 0;
}

int archive_writer_close(archive_writer_t *w, bool keep, char **path,
			 char *err, size_t errlen)
{
	int rc = 0;

	if (keep) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "rows",
				       json_object_new_int64((int64_t)w->rows));
		put_line(w, o);
		if (!w->failed && (fflush(w->f) || fsync(fileno(w->f)))) {
			w->failed = true;
			w->err_no = errno;
		}
	}
	if (fclose(w->f) && !w->failed) {
		w->failed = true;
		w->err_no = errno;
	}
	if (keep && w->failed) {
		snprintf(err, errlen, "cannot write %s: %s", w->tmp,
			 strerror(w->err_no));
		rc = -1;
	} else if (keep && give_name(w, path) < 0) {
		snprintf(err, errlen, "cannot name the archive %s: %s",
			 w->name, strerror(errno));
		rc = -1;
	}
	unlink(w->tmp);
	xfree(w->tmp);
	xfree(w->name);
	xfree(w);
	return rc;
}

/* ---- reading ---- */

static int bad_line(archive_reader_t *r, char *err, size_t errlen,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int bad_line(archive_reader_t *r, char *err, size_t errlen,
		const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "line %" PRIu64 ": %s", r->lineno, msg);
	return -1;
}

/* The next line as a JSON object (caller puts it); NULL at end of file
 * (*eof) or on error (err set). */
static json_object *read_obj(archive_reader_t *r, bool *eof, char *err,
			     size_t errlen)
{
	struct json_tokener *tok;
	json_object *o;
	ssize_t n;

	*eof = false;
	errno = 0;
	n = getline(&r->line, &r->cap, r->f);
	if (n < 0) {
		if (errno) {
			bad_line(r, err, errlen, "%s", strerror(errno));
			return NULL;
		}
		*eof = true;
		return NULL;
	}
	r->lineno++;
	if ((size_t)n > ARCHIVE_LINE_MAX) {
		bad_line(r, err, errlen, "longer than %u bytes", ARCHIVE_LINE_MAX);
		return NULL;
	}
	if (n && r->line[n - 1] == '\n')
		r->line[--n] = '\0';
	if (memchr(r->line, '\0', (size_t)n)) {
		bad_line(r, err, errlen, "not text");
		return NULL;
	}
	tok = json_tokener_new();
	o = json_tokener_parse_ex(tok, r->line, (int)n);
	if (!o || json_tokener_get_error(tok) != json_tokener_success ||
	    (size_t)tok->char_offset != (size_t)n ||
	    !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		json_tokener_free(tok);
		bad_line(r, err, errlen, "not a JSON object");
		return NULL;
	}
	json_tokener_free(tok);
	return o;
}

static const char *get_str(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static bool get_int(json_object *o, const char *key, int64_t *out)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_int))
		return false;
	*out = json_object_get_int64(v);
	return true;
}

int archive_reader_open(archive_reader_t *r, FILE *f, char *err,
			size_t errlen)
{
	json_object *h;
	int64_t version = 0;
	bool eof;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	r->f = f;
	if (!(h = read_obj(r, &eof, err, errlen))) {
		if (eof)
			bad_line(r, err, errlen, "empty file");
	} else if (!get_int(h, "sluice_archive", &version) ||
		   !get_str(h, "cluster") || !get_str(h, "kind") ||
		   !get_int(h, "start", &r->start) ||
		   !get_int(h, "end", &r->end)) {
		bad_line(r, err, errlen, "not a Sluice archive header");
	} else if (version != ARCHIVE_VERSION) {
		bad_line(r, err, errlen, "archive version %" PRId64 " (this "
			 "slurmdbd reads %d)", version, ARCHIVE_VERSION);
	} else {
		r->cluster = xstrdup(get_str(h, "cluster"));
		r->kind = xstrdup(get_str(h, "kind"));
		rc = 0;
	}
	json_object_put(h);
	if (rc < 0)
		archive_reader_close(r);
	return rc;
}

static void drop_row(archive_reader_t *r)
{
	json_object_put(r->row_obj);
	r->row_obj = NULL;
	r->ncells = 0;
}

static void drop_table(archive_reader_t *r)
{
	for (uint32_t i = 0; i < r->ncols; i++)
		xfree(r->cols[i]);
	r->ncols = 0;
	xfree(r->table);
}

static int take_table(archive_reader_t *r, json_object *o, char *err,
		      size_t errlen)
{
	json_object *a;
	size_t n;

	drop_table(r);
	if (!json_object_object_get_ex(o, "columns", &a) ||
	    !json_object_is_type(a, json_type_array))
		return bad_line(r, err, errlen, "a table without columns");
	n = json_object_array_length(a);
	if (n == 0 || n > ARCHIVE_COLS_MAX)
		return bad_line(r, err, errlen, "%zu columns (1 to %d)", n,
			    ARCHIVE_COLS_MAX);
	for (size_t i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(a, i);

		if (!json_object_is_type(c, json_type_string) ||
		    !json_object_get_string_len(c))
			return bad_line(r, err, errlen, "column %zu is not a "
				    "name", i + 1);
		r->cols[r->ncols++] = xstrdup(json_object_get_string(c));
	}
	r->table = xstrdup(get_str(o, "table"));
	return 0;
}

static int take_row(archive_reader_t *r, json_object *o, char *err,
		    size_t errlen)
{
	json_object *a;
	size_t n;

	if (!r->table)
		return bad_line(r, err, errlen, "a row before any table");
	json_object_object_get_ex(o, "row", &a);
	if (!json_object_is_type(a, json_type_array))
		return bad_line(r, err, errlen, "a row that is not a list");
	n = json_object_array_length(a);
	if (n != r->ncols)
		return bad_line(r, err, errlen, "%zu cells in a row of %s (%u "
			    "columns)", n, r->table, r->ncols);
	for (size_t i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(a, i);

		if (c && !json_object_is_type(c, json_type_string))
			return bad_line(r, err, errlen, "cell %zu is neither text "
				    "nor null", i + 1);
		r->cells[i] = c ? json_object_get_string(c) : NULL;
	}
	r->ncells = (uint32_t)n;
	r->row_obj = json_object_get(o);
	r->rows++;
	return 0;
}

int archive_reader_next(archive_reader_t *r, archive_event_t *ev,
			char *err, size_t errlen)
{
	json_object *o;
	int64_t total;
	bool eof;
	int rc = 1;

	drop_row(r);
	if (!(o = read_obj(r, &eof, err, errlen))) {
		if (!eof)
			return -1;
		if (!r->ended)
			return bad_line(r, err, errlen, "the file ends before its "
				    "row count: it was cut short");
		return 0;
	}
	if (r->ended)
		rc = bad_line(r, err, errlen, "more after the row count");
	else if (get_str(o, "table")) {
		rc = take_table(r, o, err, errlen) ? -1 : 1;
		*ev = ARCHIVE_EV_TABLE;
	} else if (json_object_object_get_ex(o, "row", NULL)) {
		rc = take_row(r, o, err, errlen) ? -1 : 1;
		*ev = ARCHIVE_EV_ROW;
	} else if (get_int(o, "rows", &total)) {
		if (total < 0 || (uint64_t)total != r->rows)
			rc = bad_line(r, err, errlen, "the file says %" PRId64
				  " rows, it holds %" PRIu64, total, r->rows);
		r->ended = true;
		*ev = ARCHIVE_EV_END;
	} else {
		rc = bad_line(r, err, errlen, "neither a table, a row nor the "
			  "row count");
	}
	json_object_put(o);
	return rc;
}

void archive_reader_close(archive_reader_t *r)
{
	drop_row(r);
	drop_table(r);
	free(r->line);
	xfree(r->cluster);
	xfree(r->kind);
	memset(r, 0, sizeof(*r));
}
