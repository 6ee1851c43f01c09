/* dbd_tres.c — the TRES table (dbd_tres.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "dbd/dbd_tres.h"

#define TRES_NAME_MAX 64

int dbd_tres_load(dbd_db_t *db, dbd_tres_list_t *out)
{
	dbd_rows_t rows;

	memset(out, 0, sizeof(*out));
	if (dbd_db_select(db, "SELECT id, IF(name='', type, CONCAT(type, "
			  "'/', name)) FROM tres_table WHERE deleted=0 "
			  "ORDER BY id", &rows) < 0)
		return -1;
	out->v = xcalloc(rows.rows + 1, sizeof(*out->v));
	for (uint32_t i = 0; i < rows.rows; i++) {
		out->v[i].id = (uint32_t)strtoul(dbd_rows_get(&rows, i, 0),
						 NULL, 10);
		out->v[i].name = xstrdup(dbd_rows_get(&rows, i, 1));
	}
	out->n = rows.rows;
	dbd_rows_free(&rows);
	return 0;
}

void dbd_tres_list_free(dbd_tres_list_t *l)
{
	for (uint32_t i = 0; i < l->n; i++)
		xfree(l->v[i].name);
	xfree(l->v);
	l->n = 0;
}

const char *dbd_tres_list_name(const dbd_tres_list_t *l, uint32_t id)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (l->v[i].id == id)
			return l->v[i].name;
	return NULL;
}

int dbd_tres_list_find(const dbd_tres_list_t *l, const char *name,
		       size_t len)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (!strncmp(l->v[i].name, name, len) && !l->v[i].name[len])
			return (int)i;
	return -1;
}

/* A name a controller may register: type/name, a type Slurm knows, a
 * name of letters, digits and "_-.:". */
static bool registrable(const char *s, size_t len)
{
	static const char *const types[] = { "gres/", "license/", "bb/",
					     "fs/", "ic/", NULL };
	size_t t = 0;

	if (!len || len > TRES_NAME_MAX)
		return false;
	for (size_t i = 0; types[i] && !t; i++)
		if (!strncmp(s, types[i], strlen(types[i])))
			t = strlen(types[i]);
	if (!t || t == len)
		return false;
	for (size_t i = t; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV"
			     "WXYZ0123456789_-.:", s[i]))
			return false;
	return true;
}

int dbd_tres_register(dbd_db_t *db, const char *tres)
{
	dbd_tres_list_t known;
	int rc = 0;

	if (!tres || !*tres)
		return 0;
	if (dbd_tres_load(db, &known) < 0)
		return -1;
	for (const char *p = tres; !rc && p && *p;
	     p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		size_t len = strcspn(p, "=,");
		const char *slash = memchr(p, '/', len);
		char *type, *name, *sql;

		if (!registrable(p, len) || dbd_tres_list_find(&known, p,
							       len) >= 0)
			continue;
		type = xstrndup(p, (size_t)(slash - p));
		name = xstrndup(slash + 1, len - (size_t)(slash - p) - 1);
		sql = xstrdup_printf("INSERT INTO tres_table (creation_time, "
				     "type, name) VALUES (%" PRId64 ",",
				     (int64_t)time(NULL));
		dbd_db_quote(db, &sql, type);
		xstrcatc(&sql, ',');
		dbd_db_quote(db, &sql, name);
		xstrcat(&sql, ") ON DUPLICATE KEY UPDATE deleted=0");
		rc = dbd_db_exec(db, sql);
		if (!rc)
			info("TRES %s/%s registered", type, name);
		xfree(sql);
		xfree(type);
		xfree(name);
		dbd_tres_list_free(&known);
		if (!rc && dbd_tres_load(db, &known) < 0)
			return -1;
	}
	dbd_tres_list_free(&known);
	return rc;
}

uint64_t dbd_tres_value(const char *v, char **end)
{
	char *e;
	uint64_t n = strtoull(v, &e, 10);

	if (end)
		*end = e;
	switch (*e) {
	case 'K': case 'k': return n / 1024;
	case 'G': case 'g': return n * 1024;
	case 'T': case 't': return n << 20;
	case 'P': case 'p': return n << 30;
	default: return n;
	}
}

uint64_t dbd_tres_count(const char *tres, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = tres; p && *p; p = strchr(p, ',') ?
	     strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, name, n) && p[n] == '=')
			return dbd_tres_value(p + n + 1, NULL);
	return 0;
}

void dbd_tres_sql(dbd_db_t *db, char **sql, const char *col,
		  const char *name)
{
	char *key = xstrdup_printf(",%s=", name), *q = NULL, *v;

	dbd_db_quote(db, &q, key);
	v = xstrdup_printf("SUBSTRING_INDEX(SUBSTRING_INDEX(CONCAT(',', %s, "
			   "','), %s, -1), ',', 1)", col, q);
	/* absent: the inner SUBSTRING_INDEX keeps the whole string,
	 * which does not start with a digit */
	xstrfmtcat(sql, "(IF(LOCATE(%s, CONCAT(',', %s)) = 0, 0, "
		   "CAST(%s AS UNSIGNED) * CASE UPPER(RIGHT(%s, 1)) WHEN 'G' "
		   "THEN 1024 WHEN 'T' THEN 1048576 WHEN 'P' THEN 1073741824 "
		   "ELSE 1 END DIV IF(UPPER(RIGHT(%s, 1)) = 'K', 1024, 1)))",
		   q, col, v, v, v);
	xfree(v);
	xfree(q);
	xfree(key);
}
