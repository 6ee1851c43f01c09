/* cli_sreport_wckey.c — sreport's cluster UserUtilizationByWckey and
 * WCKeyUtilizationByUser (cli_sreport.h) from slurmdbd's "wuse" rows:
 * CPU-seconds and jobs per (user, wckey) in the window. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli_sreport_int.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static const sr_field_t wckey_fields[] = {
	SR_F("Cluster", "Cluster", 9, false),
	SR_F("Login", "Login", 9, false),
	SR_F("Proper", "Proper Name", 15, false),
	SR_F("Wckey", "WCKey", 15, false),
	SR_F("Used", "Used", 8, true),
	SR_F("Energy", "Energy", 8, true),
	SR_F("TresCount", "TRES Count", 10, false),
	SR_F("TresName", "TRES Name", 14, false),
	SR_F(NULL, NULL, 0, false)
};
static const char *const user_wckey_default[] = {
	"Cluster", "Login", "Proper", "Wckey", "Used", NULL
};
static const char *const wckey_user_default[] = {
	"Cluster", "Wckey", "Login", "Proper", "Used", NULL
};
/* with -T: a TRES Name column before Used */
static const char *const user_wckey_tres_default[] = {
	"Cluster", "Login", "Proper", "Wckey", "TresName", "Used", NULL
};
static const char *const wckey_user_tres_default[] = {
	"Cluster", "Wckey", "Login", "Proper", "TresName", "Used", NULL
};

typedef struct {
	const sr_use_t *u;
	char           *login;
} urow_t;

static int by_usage(const void *a, const void *b)
{
	const urow_t *x = a, *y = b;

	if (x->u->secs != y->u->secs)
		return x->u->secs < y->u->secs ? 1 : -1;
	return strcmp(x->login, y->login);
}

static int by_wckey_login(const void *a, const void *b)
{
	const urow_t *x = a, *y = b;
	int rc = strcmp(x->u->key, y->u->key);

	return rc ? rc : strcmp(x->login, y->login);
}

static bool wanted(const sreport_t *o, const char *w)
{
	if (!o->wckeys)
		return true;
	for (size_t i = 0; o->wckeys[i]; i++)
		if (!strcmp(o->wckeys[i], w))
			return true;
	return false;
}

static void one_row(const sreport_t *o, sr_table_t *t, const char *wckey,
		    const char *login, const char *proper, uint64_t secs,
		    const char *tres, uint64_t total)
{
	sr_table_row(t);
	sr_table_str(t, "Cluster", o->cluster);
	sr_table_str(t, "Wckey", wckey);
	sr_table_str(t, "Login", login);
	sr_table_str(t, "Proper", proper);
	sr_table_secs_of(t, "Used", secs, total);
	sr_table_secs(t, "Energy", 0);
	sr_table_str(t, "TresCount", "");
	sr_table_str(t, "TresName", tres);
}

/* The rows of one TRES's figures d. */
static void tres_rows(const sreport_t *o, sr_table_t *t,
		      const sr_data_t *d, const char *tres)
{
	bool by_user = o->kind == SR_USER_BY_WCKEY;
	urow_t *rows = xcalloc(d->nuse + 1, sizeof(*rows));
	uint32_t n = 0;

	for (uint32_t i = 0; i < d->nuse; i++) {
		const sr_use_t *u = &d->uses[i];
		char *proper;

		if (!u->count || !wanted(o, u->key))
			continue;

		rows[n].u = u;
		sr_user_names(u->uid, &rows[n].login, &proper);
		xfree(proper);
		n++;
	}
	qsort(rows, n, sizeof(*rows), by_user ? by_usage : by_wckey_login);
	for (uint32_t i = 0; i < n; i++) {
		const char *w = rows[i].u->key;
		char *login, *proper;

		/* WCKeyUtilizationByUser: each wckey's total first */
		if (!by_user && (!i || strcmp(rows[i - 1].u->key, w))) {
			uint64_t sum = 0;

			for (uint32_t k = i; k < n &&
			     !strcmp(rows[k].u->key, w); k++)
				sum += rows[k].u->secs;
			one_row(o, t, w, "", "", sum, tres, d->cap);
		}
		sr_user_names(rows[i].u->uid, &login, &proper);
		one_row(o, t, w, login, proper, rows[i].u->secs, tres,
			d->cap);
		xfree(login);
		xfree(proper);
	}
	for (uint32_t i = 0; i < n; i++)
		xfree(rows[i].login);
	xfree(rows);
}

int sr_wckey_usage(const sreport_t *o, const sr_data_t *d, uint32_t nd)
{
	bool by_user = o->kind == SR_USER_BY_WCKEY;
	sr_table_t t = { 0 };
	char *title = sr_window(o, by_user ? "Cluster/User/WCKey Utilization" :
				"Cluster/WCKey/User Utilization", true);
	int rc = sr_table_cols(&t, wckey_fields, by_user ?
			       (o->ntres ? user_wckey_tres_default :
				user_wckey_default) :
			       (o->ntres ? wckey_user_tres_default :
				wckey_user_default), o->format);

	sr_usage_banner(o, title);
	xfree(title);
	t.total = d[0].cap;
	for (uint32_t k = 0; k < nd; k++)
		tres_rows(o, &t, &d[k], o->ntres ? o->tres_name[k] : "cpu");
	sr_table_print(o, &t);
	sr_table_free(&t);
	return rc;
}
