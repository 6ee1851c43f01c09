/* dbd_acct_int.h — shared by the dbd_acct*.c files only.
 *
 * A request is parsed into a dbd_req_t; each entity is described once by
 * a dbd_entity_desc_t (its tables, its list columns, the conditions a
 * "where" may use, the settings a "set" may change), and the generic list,
 * modify and delete code walks those descriptions.
 */
#ifndef SLUICE_DBD_ACCT_INT_H
#define SLUICE_DBD_ACCT_INT_H

#include <stdbool.h>
#include <time.h>

#include "dbd/dbd_acct.h"

typedef struct {
	dbd_db_t              *db;
	const dbd_acct_ctx_t  *ctx;
	const dbd_acct_msg_t  *req;
	dbd_acct_resp_msg_t   *resp;
	char                 **cells;      /* rows being built */
	size_t                 ncells;
	time_t                 now;
	bool                   warned;     /* done, but not all of it */
	const struct dbd_cond *conds_first; /* looked up before the entity's */
	char                 **coord_accts; /* a coordinator's modify: every
					     * association changed must be
					     * in these accounts */
} dbd_req_t;

/* A list column: its name in the response and its SQL expression. */
typedef struct {
	const char *name;
	const char *expr;
} dbd_col_t;

/* A "where" key: SQL with one %s that receives the quoted value list. */
typedef struct dbd_cond {
	const char *key;
	const char *sql;
} dbd_cond_t;

typedef enum {
	SET_STR = 1,       /* text */
	SET_NUM,           /* number, -1 = unset (NULL) */
	SET_SHARES,        /* number, -1 = 1 */
	SET_WALL,          /* duration in minutes, -1 = unset */
	SET_ADMIN,         /* AdminLevel */
	SET_QOSLIST,       /* names of existing QOS */
	SET_ACCOUNT,       /* name of an existing account */
	SET_TRES,          /* TRES limit list (tres_limit.h) */
	SET_DOUBLE,        /* floating point number */
	SET_SECS,          /* duration in seconds, -1 = unset */
	SET_QOSFLAGS,      /* QOS Flags=DenyOnLimit,... */
	SET_WCKEY,         /* a user's DefaultWCKey (wckey_table.is_def) */
} dbd_set_type_t;

/* A "set" key: which column of which table it changes. */
typedef struct {
	const char     *key;
	dbd_set_type_t  type;
	bool            on_assoc;   /* assoc_table, not the entity's table */
	const char     *column;
} dbd_setting_t;

typedef struct {
	uint16_t             entity;
	const char          *what;       /* "accounts" for messages */
	const char          *table;      /* main table ("assoc_table") */
	const char          *from;       /* FROM clause for lists */
	const char          *alive;      /* "x.deleted=0" */
	const char          *order;      /* ORDER BY */
	const char          *key_expr;   /* what identifies a row: "a.name" */
	const char          *assoc_match; /* assoc_table rows of the matched
					     keys, %s = quoted keys */
	const dbd_col_t     *cols;
	const dbd_cond_t    *conds;
	const dbd_setting_t *sets;
} dbd_entity_desc_t;

const dbd_entity_desc_t *dbd_entity_find(uint16_t entity);

/* ---- request helpers (dbd_acct.c) ---- */

/* Value of "key=..." among kvs (the last one), or NULL. */
const char *dbd_kv_get(char *const *kvs, const char *key);
/* Comma list of key's value, lower-cased; NULL if the key is absent. */
char      **dbd_kv_list(char *const *kvs, const char *key);
/* Set rc and message (printf-style) of the response. */
int   dbd_req_fail(dbd_req_t *r, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Note a part of the request that could not be done (one more line of
 * the response's message); the rest is still committed and the caller
 * is told with rc SLURM_ERROR. */
void  dbd_req_warn(dbd_req_t *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Fail after warnings: add a last line to them; returns -1. */
int   dbd_req_fail_warned(dbd_req_t *r, const char *last);
/* Name the response's columns (NULL-terminated list of names). */
void  dbd_req_cols(dbd_req_t *r, const char *const *cols);
/* Append one cell / one changed-record row (kind, name, cluster,
 * account, user; NULL = ""). */
void  dbd_req_cell(dbd_req_t *r, const char *v);
void  dbd_req_change(dbd_req_t *r, const char *kind, const char *name,
		     const char *cluster, const char *acct, const char *user);
/* Names matched by where as a list of quoted values "'a','b'". */
int   dbd_req_match(dbd_req_t *r, const dbd_entity_desc_t *e,
		    dbd_rows_t *rows);
/* Append " AND ..." for every where condition; -1 on an unknown key. */
int   dbd_req_where_sql(dbd_req_t *r, const dbd_entity_desc_t *e,
			char **sql);
/* Quoted comma list of strings ("'a','b'"). */
char *dbd_req_quoted(dbd_req_t *r, char *const *values);
/* Convert a set value to SQL for its column; -1 (rc set) if bad. */
int   dbd_req_set_value(dbd_req_t *r, const dbd_setting_t *s,
			const char *val, char **sql);
/* Does a live row exist: SELECT 1 FROM table WHERE <cond>. -1 on error. */
int   dbd_req_exists(dbd_req_t *r, const char *sql);

/* ---- operations ---- */
int dbd_acct_list(dbd_req_t *r);          /* dbd_acct_list.c */
int dbd_acct_modify(dbd_req_t *r);        /* dbd_acct_mod.c */
int dbd_acct_delete(dbd_req_t *r);
int dbd_acct_add(dbd_req_t *r);           /* dbd_acct_add.c */

#endif
