/* dbd_private.c — AdminLevel and PrivateData (dbd_private.h). */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>

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

void dbd_private_own_only(const dbd_acct_ctx_t *ctx, char ***users)
{
	char num[16];

	xstrarray_free(*users);
	snprintf(num, sizeof(num), "%u", (unsigned)ctx->uid);
	*users = xstrarray_append(NULL, num);
}
