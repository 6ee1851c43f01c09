/* dbd_private.c — AdminLevel and PrivateData (dbd_private.h). */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "common/xstring.h"
#include "dbd/dbd_private.h"

int dbd_admin_level(dbd_db_t *db, const dbd_conf_t *conf, uid_t uid)
{
	struct passwd pw, *res = NULL;
	char buf[4096];
	dbd_rows_t rows;
	char *sql;
	int level = DBD_ADMIN_NONE;

	if (uid == 0 || uid == conf->slurm_user_id)
		return DBD_ADMIN_SUPER;
	if (getpwuid_r(uid, &pw, buf, sizeof(buf), &res) != 0 || !res)
		return DBD_ADMIN_NONE;
	sql = xstrdup("SELECT admin_level FROM user_table WHERE deleted=0 "
		      "AND name=");
	dbd_db_quote(db, &sql, pw.pw_name);
	if (dbd_db_select(db, sql, &rows) == 0) {
		if (rows.rows)
			level = atoi(dbd_rows_get(&rows, 0, 0));
		dbd_rows_free(&rows);
	}
	xfree(sql);
	return level;
}

bool dbd_private_limits(dbd_db_t *db, const dbd_acct_ctx_t *ctx,
			uint32_t what)
{
	if (!(ctx->conf->private_data & what))
		return false;
	return dbd_admin_level(db, ctx->conf, ctx->uid) < DBD_ADMIN_OPERATOR;
}

char *dbd_user_name(uid_t uid)
{
	struct passwd pw, *res = NULL;
	char buf[4096];

	if (getpwuid_r(uid, &pw, buf, sizeof(buf), &res) != 0 || !res)
		return NULL;
	return xstrdup(pw.pw_name);
}

char **dbd_coord_accounts(dbd_db_t *db, uid_t uid)
{
	char *name = dbd_user_name(uid);
	char **accts = NULL;
	dbd_rows_t rows;
	char *sql;

	if (!name)
		return NULL;
	sql = xstrdup("SELECT acct FROM coord_table WHERE deleted=0 AND "
		      "user_name=");
	dbd_db_quote(db, &sql, name);
	xfree(name);
	if (dbd_db_select(db, sql, &rows) == 0) {
		for (uint32_t i = 0; i < rows.rows; i++)
			accts = xstrarray_append(accts,
						 dbd_rows_get(&rows, i, 0));
		dbd_rows_free(&rows);
	}
	xfree(sql);
	/* breadth first down the account tree */
	for (size_t i = 0; accts && accts[i] && i < 10000; i++) {
		sql = xstrdup("SELECT DISTINCT acct FROM assoc_table WHERE "
			      "deleted=0 AND user_name='' AND parent_acct=");
		dbd_db_quote(db, &sql, accts[i]);
		if (dbd_db_select(db, sql, &rows) == 0) {
			for (uint32_t k = 0; k < rows.rows; k++) {
				const char *a = dbd_rows_get(&rows, k, 0);
				bool seen = false;

				for (size_t j = 0; accts[j] && !seen; j++)
					seen = !strcmp(accts[j], a);
				if (!seen)
					accts = xstrarray_append(accts, a);
			}
			dbd_rows_free(&rows);
		}
		xfree(sql);
	}
	return accts;
}

void dbd_private_where(dbd_db_t *db, uid_t uid, const char *own,
		       const char *acct_col, char **sql)
{
	char **accts = acct_col ? dbd_coord_accounts(db, uid) : NULL;

	xstrfmtcat(sql, " AND (%s", own);
	if (accts && accts[0]) {
		xstrfmtcat(sql, " OR %s IN (", acct_col);
		for (size_t i = 0; accts[i]; i++) {
			if (i)
				xstrcatc(sql, ',');
			dbd_db_quote(db, sql, accts[i]);
		}
		xstrcatc(sql, ')');
	}
	xstrcatc(sql, ')');
	xstrarray_free(accts);
}
