/* cli_sreport_rep.c — sreport's reports from slurmdbd's figures
 * (cli_sreport.h): cluster Utilization, AccountUtilizationByUser,
 * UserUtilizationByAccount, AccountUtilizationByQOS, user TopUsage, job
 * SizesByAccount; the wckey reports are in cli_sreport_wckey.c. */
#include <inttypes.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli_sreport.h"
#include "cli/cli_sreport_int.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

/* ---- slurmdbd's answer, parsed ---- */

static int col_index(const table_resp_msg_t *r, const char *name)
{
	for (int i = 0; r->cols && r->cols[i]; i++)
		if (!strcmp(r->cols[i], name))
			return i;
	return -1;
}

static sr_acct_t *acct_find(sr_data_t *d, const char *name)
{
	for (uint32_t i = 0; i < d->nacct; i++)
		if (!strcmp(d->accts[i].name, name))
			return &d->accts[i];
	return NULL;
}

static int parse(const table_resp_msg_t *r, sr_data_t *d)
{
	int ck = col_index(r, "kind"), ca = col_index(r, "account"),
	    cp = col_index(r, "parent"), cu = col_index(r, "uid"),
	    cc = col_index(r, "cpus"), cs = col_index(r, "secs"),
	    cn = col_index(r, "count");
	size_t ncols = xstrarray_len(r->cols);
	size_t rows = ncols ? xstrarray_len(r->cells) / ncols : 0;

	if (ck < 0 || ca < 0 || cp < 0 || cu < 0 || cc < 0 || cs < 0 ||
	    cn < 0)
		return -1;
	for (size_t i = 0; i < rows; i++) {
		char **c = &r->cells[i * ncols];
		uint64_t secs = strtoull(c[cs], NULL, 10);

		if (!strcmp(c[ck], "cap")) {
			d->cap = secs;
			d->cpus = strtoull(c[cc], NULL, 10);
		} else if (!strcmp(c[ck], "down")) {
			d->down = secs;
		} else if (!strcmp(c[ck], "alloc")) {
			d->alloc = secs;
		} else if (!strcmp(c[ck], "plan")) {
			d->plan = secs;
		} else if (!strcmp(c[ck], "pdown")) {
			d->pdown = secs;
		} else if (!strcmp(c[ck], "over")) {
			d->over = secs;
		} else if (!strcmp(c[ck], "acct")) {
			d->accts = xrealloc(d->accts, (d->nacct + 1) *
					    sizeof(sr_acct_t));
			d->accts[d->nacct++] = (sr_acct_t){
				.name = c[ca], .parent = c[cp] };
		} else if (!strcmp(c[ck], "use") || !strcmp(c[ck], "size") ||
			   !strcmp(c[ck], "wuse") || !strcmp(c[ck], "wsize") ||
			   !strcmp(c[ck], "quse")) {
			d->uses = xrealloc(d->uses, (d->nuse + 1) *
					   sizeof(sr_use_t));
			d->uses[d->nuse++] = (sr_use_t){
				.account = c[ca], .key = c[cp],
				.uid = (uint32_t)strtoul(c[cu], NULL, 10),
				.cpus = (uint32_t)strtoul(c[cc], NULL, 10),
				.secs = secs,
				.count = strtoull(c[cn], NULL, 10) };
		}
	}
	/* each account's own usage, then summed up the tree */
	for (uint32_t i = 0; i < d->nuse; i++) {
		sr_acct_t *a = acct_find(d, d->uses[i].account);

		if (a) {
			a->secs += d->uses[i].secs;
			a->count += d->uses[i].count;
		}
	}
	for (uint32_t i = 0; i < d->nacct; i++) {
		sr_acct_t *a = &d->accts[i];
		uint32_t guard = 0;

		for (sr_acct_t *p = a; p && guard++ <= d->nacct;
		     p = p->parent[0] && strcmp(p->name, "root") ?
			     acct_find(d, p->parent) : NULL) {
			p->sub_secs += a->secs;
			p->sub_count += a->count;
		}
	}
	return 0;
}

static void data_free(sr_data_t *d)
{
	xfree(d->accts);
	xfree(d->uses);
}

/* Login and "Proper Name" (GECOS up to its first comma). */
void sr_user_names(uint32_t uid, char **login, char **proper)
{
	struct passwd *pw = getpwuid((uid_t)uid);

	if (!pw) {
		*login = xstrdup_printf("%u", uid);
		*proper = xstrdup("");
		return;
	}
	*login = xstrdup(pw->pw_name);
	*proper = xstrndup(pw->pw_gecos ? pw->pw_gecos : "",
			   pw->pw_gecos ? strcspn(pw->pw_gecos, ",") : 0);
}

/* -T's TRES k (cpu when -T was not given). */
static const char *tres_k(const sreport_t *o, uint32_t k)
{
	return o->ntres ? o->tres_name[k] : "cpu";
}

void sr_usage_banner(const sreport_t *o, const char *title)
{
	char units[128];
	bool cpu = !o->ntres || (o->ntres == 1 && o->tres[0] == 1);
	const char *tu = sr_time_units(o->tf, false);

	if (cpu || o->tf == SR_TIME_PERCENT)
		snprintf(units, sizeof(units), "Usage reported in %s",
			 sr_time_units(o->tf, true));
	else
		snprintf(units, sizeof(units), "Usage reported in TRES %s", tu);
	sr_banner(o, title, units);
}

/* ---- cluster Utilization ---- */

static const sr_field_t util_fields[] = {
	SR_F("Cluster", "Cluster", 9, false),
	SR_F("Allocated", "Allocated", 8, true),
	SR_F("Down", "Down", 8, true),
	SR_F("PlannedDown", "PLND Down", 8, true),
	SR_F("Idle", "Idle", 8, true),
	SR_F("Planned", "Planned", 8, true),
	SR_F("Reported", "Reported", 8, true),
	SR_F("OverCommitted", "Over Comm", 8, true),
	SR_F("TresCount", "TRES Count", 10, false),
	SR_F("TresName", "TRES Name", 14, false),
	SR_F("Energy", "Energy", 8, true),
	SR_F(NULL, NULL, 0, false)
};
static const char *const util_default[] = {
	"Cluster", "Allocated", "Down", "PlannedDown", "Idle", "Planned",
	"Reported", NULL
};
static const char *const util_tres_default[] = {
	"Cluster", "TresName", "Allocated", "Down", "PlannedDown", "Idle",
	"Planned", "Reported", NULL
};

/* The cluster's row of one TRES (none if the cluster had none of it). */
static void util_row(const sreport_t *o, sr_table_t *t, const sr_data_t *d,
		     const char *tres)
{
	uint64_t down, pdown, alloc, avail, plan;
	char n[32];

	if (!d->cap)
		return;
	/* allocated first, as the roll-ups (doc/dev/accounting-schema.md) */
	alloc = d->alloc < d->cap ? d->alloc : d->cap;
	down = d->down < d->cap - alloc ? d->down : d->cap - alloc;
	pdown = d->pdown < d->cap - alloc - down ? d->pdown :
		d->cap - alloc - down;
	down += pdown;
	avail = d->cap - down - alloc;
	plan = d->plan < avail ? d->plan : avail;
	sr_table_row(t);
	sr_table_str(t, "Cluster", o->cluster);
	sr_table_secs_of(t, "Allocated", alloc, d->cap);
	sr_table_secs_of(t, "Down", down - pdown, d->cap);
	sr_table_secs_of(t, "PlannedDown", pdown, d->cap);
	sr_table_secs_of(t, "Idle", avail - plan, d->cap);
	sr_table_secs_of(t, "Planned", plan, d->cap);
	sr_table_secs_of(t, "Reported", d->cap, d->cap);
	sr_table_secs_of(t, "OverCommitted", d->plan - plan + d->over, d->cap);
	snprintf(n, sizeof(n), "%" PRIu64, d->cpus);
	sr_table_str(t, "TresCount", n);
	sr_table_str(t, "TresName", tres);
}

static int cluster_util(const sreport_t *o, sr_data_t *d, uint32_t nd)
{
	sr_table_t t = { 0 };
	char *title = sr_window(o, "Cluster Utilization", false);
	int rc = sr_table_cols(&t, util_fields, o->ntres ? util_tres_default :
			       util_default, o->format);

	sr_usage_banner(o, title);
	xfree(title);
	t.total = d[0].cap;
	for (uint32_t k = 0; k < nd; k++)
		util_row(o, &t, &d[k], tres_k(o, k));
	sr_table_print(o, &t);
	sr_table_free(&t);
	return rc;
}

/* ---- association reports ---- */

static const sr_field_t assoc_fields[] = {
	SR_F("Accounts", "Account", 15, false),
	SR_F("Cluster", "Cluster", 9, false),
	SR_F("Login", "Login", 9, false),
	SR_F("Proper", "Proper Name", 15, false),
	SR_F("Used", "Used", 8, true),
	SR_F("Energy", "Energy", 8, true),
	SR_F("TresCount", "TRES Count", 10, false),
	SR_F("TresName", "TRES Name", 14, false),
	SR_F(NULL, NULL, 0, false)
};
static const sr_field_t assoc_tree_fields[] = {
	SR_F("Accounts", "Account", -20, false),
	SR_F("Cluster", "Cluster", 9, false),
	SR_F("Login", "Login", 9, false),
	SR_F("Proper", "Proper Name", 15, false),
	SR_F("Used", "Used", 8, true),
	SR_F("Energy", "Energy", 8, true),
	SR_F("TresCount", "TRES Count", 10, false),
	SR_F("TresName", "TRES Name", 14, false),
	SR_F(NULL, NULL, 0, false)
};
static const sr_field_t qos_fields[] = {
	SR_F("Accounts", "Account", 15, false),
	SR_F("Cluster", "Cluster", 9, false),
	SR_F("QOS", "QOS", 9, false),
	SR_F("Used", "Used", 8, true),
	SR_F("Energy", "Energy", 8, true),
	SR_F("TresCount", "TRES Count", 10, false),
	SR_F("TresName", "TRES Name", 14, false),
	SR_F(NULL, NULL, 0, false)
};
static const sr_field_t qos_tree_fields[] = {
	SR_F("Accounts", "Account", -20, false),
	SR_F("Cluster", "Cluster", 9, false),
	SR_F("QOS", "QOS", 9, false),
	SR_F("Used", "Used", 8, true),
	SR_F("Energy", "Energy", 8, true),
	SR_F("TresCount", "TRES Count", 10, false),
	SR_F("TresName", "TRES Name", 14, false),
	SR_F(NULL, NULL, 0, false)
};
static const char *const acct_qos_default[] = {
	"Cluster", "Accounts", "QOS", "Used", "Energy", NULL
};
static const char *const acct_qos_tres_default[] = {
	"Cluster", "Accounts", "QOS", "TresName", "Used", NULL
};
static const char *const acct_user_default[] = {
	"Cluster", "Accounts", "Login", "Proper", "Used", "Energy", NULL
};
static const char *const user_acct_default[] = {
	"Cluster", "Login", "Proper", "Accounts", "Used", "Energy", NULL
};
/* with -T: a TRES Name column instead of Energy (a TRES itself) */
static const char *const acct_user_tres_default[] = {
	"Cluster", "Accounts", "Login", "Proper", "TresName", "Used", NULL
};
static const char *const user_acct_tres_default[] = {
	"Cluster", "Login", "Proper", "Accounts", "TresName", "Used", NULL
};

/* The figures of every TRES asked for: d[k] for TRES k. */
typedef struct {
	sr_data_t *d;
	uint32_t   n;
	uint32_t   k0;           /* d[0] is -T's TRES k0 */
} sr_multi_t;

static void assoc_row_of(const sreport_t *o, sr_table_t *t, const char *acct,
			 uint32_t uid, bool user, uint64_t secs,
			 const char *tres, uint64_t total)
{
	sr_table_row(t);
	sr_table_str(t, "Cluster", o->cluster);
	sr_table_str(t, "Accounts", acct);
	if (user) {
		char *login, *proper;

		sr_user_names(uid, &login, &proper);
		sr_table_str(t, "Login", login);
		sr_table_str(t, "Proper", proper);
		xfree(login);
		xfree(proper);
	}
	sr_table_secs_of(t, "Used", secs, total);
	sr_table_secs(t, "Energy", 0);
	sr_table_str(t, "TresCount", "");
	sr_table_str(t, "TresName", tres);
}

/* An account's row (uses NULL) or a user's in it, once per TRES. */
static void multi_rows(const sreport_t *o, const sr_multi_t *m,
		       sr_table_t *t, const char *shown, const char *acct,
		       const sr_use_t *use)
{
	for (uint32_t k = 0; k < m->n; k++) {
		sr_data_t *d = &m->d[k];
		uint64_t secs = 0;

		if (!use) {
			sr_acct_t *a = acct_find(d, acct);

			secs = a ? a->sub_secs : 0;
		} else {
			for (uint32_t i = 0; i < d->nuse; i++)
				if (d->uses[i].uid == use->uid &&
				    !strcmp(d->uses[i].account, acct))
					secs += d->uses[i].secs;
		}
		assoc_row_of(o, t, shown, use ? use->uid : 0, use != NULL,
			     secs, tres_k(o, m->k0 + k), d->cap);
	}
}

/* AccountUtilizationByQOS: an account's row (qos NULL) or its row per
 * QOS it ran under, of TRES m->k0 (percentages of the table's total). */
static void qos_row(const sreport_t *o, const sr_multi_t *m,
		    sr_table_t *t, const char *acct, const char *qos,
		    uint64_t secs)
{
	assoc_row_of(o, t, acct, 0, false, secs, tres_k(o, m->k0),
		     m->d->cap);
	if (qos)
		sr_table_str(t, "QOS", qos);
}

static int by_key(const void *a, const void *b)
{
	return strcmp((*(const sr_use_t *const *)a)->key,
		      (*(const sr_use_t *const *)b)->key);
}

static int by_name(const void *a, const void *b)
{
	return strcmp((*(const sr_acct_t *const *)a)->name,
		      (*(const sr_acct_t *const *)b)->name);
}

static int by_login(const void *a, const void *b)
{
	const sr_use_t *x = *(const sr_use_t *const *)a;
	const sr_use_t *y = *(const sr_use_t *const *)b;
	struct passwd *p;
	char *nx, *ny;
	int rc;

	p = getpwuid(x->uid);
	nx = p ? xstrdup(p->pw_name) : xstrdup_printf("%u", x->uid);
	p = getpwuid(y->uid);
	ny = p ? xstrdup(p->pw_name) : xstrdup_printf("%u", y->uid);
	rc = strcmp(nx, ny);
	xfree(nx);
	xfree(ny);
	return rc;
}

/* One account, its users, then the accounts below it. */
static void acct_visit(const sreport_t *o, const sr_multi_t *m,
		       sr_table_t *t, sr_acct_t *a, int depth)
{
	sr_data_t *d = &m->d[0];
	const sr_use_t **users;
	sr_acct_t **kids = xcalloc(d->nacct + 1, sizeof(*kids));
	bool by_qos = o->kind == SR_ACCT_BY_QOS, ran = false;
	uint32_t nu = 0, nk = 0, nuse = 0;
	char *name;

	/* shown if it ran jobs with any of the TRES; its users: those
	 * of every TRES, once each */
	for (uint32_t k = 0; k < m->n; k++) {
		sr_acct_t *x = acct_find(&m->d[k], a->name);

		ran |= x && x->sub_count;
		nuse += m->d[k].nuse;
	}
	users = xcalloc(nuse + 1, sizeof(*users));
	if (!ran || depth > 64)
		goto out;
	name = o->tree ? xstrdup_printf("%*s%s", depth, "", a->name) :
		xstrdup(a->name);
	if (!o->users && by_qos)
		qos_row(o, m, t, name, NULL, a->sub_secs);
	else if (!o->users)
		multi_rows(o, m, t, name, a->name, NULL);
	for (uint32_t k = 0; k < m->n; k++)
		for (uint32_t i = 0; i < m->d[k].nuse; i++) {
			const sr_use_t *u = &m->d[k].uses[i];
			bool seen = false;

			if (strcmp(u->account, a->name))
				continue;
			for (uint32_t j = 0; j < nu && k; j++)
				seen |= users[j]->uid == u->uid;
			if (!seen)
				users[nu++] = u;
		}
	qsort(users, nu, sizeof(*users), by_qos ? by_key : by_login);
	xfree(name);
	name = o->tree ? xstrdup_printf("%*s%s", depth + 1, "", a->name) :
		xstrdup(a->name);
	for (uint32_t i = 0; i < nu; i++)
		if (by_qos)
			qos_row(o, m, t, name, users[i]->key,
				users[i]->secs);
		else
			multi_rows(o, m, t, name, a->name, users[i]);
	xfree(name);
	for (uint32_t i = 0; i < d->nacct; i++)
		if (!strcmp(d->accts[i].parent, a->name) &&
		    strcmp(d->accts[i].name, a->name))
			kids[nk++] = &d->accts[i];
	qsort(kids, nk, sizeof(*kids), by_name);
	for (uint32_t i = 0; i < nk; i++)
		acct_visit(o, m, t, kids[i], depth + 1);
out:
	xfree(users);
	xfree(kids);
}

static int acct_by_user(const sreport_t *o, sr_data_t *d, uint32_t nd)
{
	sr_multi_t m = { d, nd, 0 };
	sr_table_t t = { 0 };
	bool by_qos = o->kind == SR_ACCT_BY_QOS;
	char *title = sr_window(o, by_qos ? "Cluster/Account/QOS Utilization" :
				"Cluster/Account/User Utilization", true);
	int rc = by_qos ?
		sr_table_cols(&t, o->tree ? qos_tree_fields : qos_fields,
			      o->ntres ? acct_qos_tres_default :
			      acct_qos_default, o->format) :
		sr_table_cols(&t, o->tree ? assoc_tree_fields : assoc_fields,
			      o->ntres ? acct_user_tres_default :
			      acct_user_default, o->format);

	sr_usage_banner(o, title);
	xfree(title);
	t.total = d->cap;
	/* by QOS: the tree once per TRES (its rows carry one figure) */
	for (uint32_t k = 0; k < (by_qos ? nd : 1); k++) {
		if (by_qos)
			m = (sr_multi_t){ &d[k], 1, k };
		if (o->accounts) {
			for (size_t i = 0; o->accounts[i]; i++) {
				sr_acct_t *a = acct_find(m.d,
							 o->accounts[i]);

				if (a)
					acct_visit(o, &m, &t, a, 0);
			}
		} else if (acct_find(m.d, "root")) {
			acct_visit(o, &m, &t, acct_find(m.d, "root"), 0);
		}
	}
	sr_table_print(o, &t);
	sr_table_free(&t);
	return rc;
}

typedef struct {
	uint32_t uid;
	char    *accounts;       /* "a" or "a, b" (Group) */
	uint64_t secs;
} sr_urow_t;

static int by_usage(const void *a, const void *b)
{
	const sr_urow_t *x = a, *y = b;

	return x->secs < y->secs ? 1 : x->secs > y->secs ? -1 : 0;
}

/* UserUtilizationByAccount and TopUsage: one row per user and account
 * (or per user with Group), most usage first. */
/* Row r's usage of TRES k: its user's in its account (or, grouped,
 * in every account). */
static uint64_t urow_secs(const sr_data_t *d, const sr_urow_t *r, bool grp)
{
	uint64_t secs = 0;

	for (uint32_t i = 0; i < d->nuse; i++)
		if (d->uses[i].uid == r->uid &&
		    (grp || !strcmp(d->uses[i].account, r->accounts)))
			secs += d->uses[i].secs;
	return secs;
}

static int user_rows(const sreport_t *o, sr_data_t *all, uint32_t nd,
		     bool top)
{
	sr_data_t *d = &all[0];
	sr_table_t t = { 0 };
	sr_urow_t *rows;
	uint32_t n = 0, limit, nuse = 0;
	char *title;
	int rc = sr_table_cols(&t, assoc_fields, o->ntres ?
			       user_acct_tres_default : user_acct_default,
			       o->format);

	if (top) {
		char what[64];

		snprintf(what, sizeof(what), "Top %u Users", o->top_count);
		title = sr_window(o, what, true);
	} else {
		title = sr_window(o, "Cluster/User/Account Utilization", true);
	}
	sr_usage_banner(o, title);
	xfree(title);
	for (uint32_t k = 0; k < nd; k++)
		nuse += all[k].nuse;
	rows = xcalloc(nuse + 1, sizeof(*rows));
	for (uint32_t i = 0; i < d->nuse; i++) {
		const sr_use_t *u = &d->uses[i];
		uint32_t k = n;

		if (!u->count)
			continue;
		if (top && o->group)
			for (k = 0; k < n && rows[k].uid != u->uid; k++)
				;
		if (k == n) {
			rows[n++] = (sr_urow_t){ .uid = u->uid,
				.accounts = xstrdup(u->account) };
		} else {
			xstrfmtcat(&rows[k].accounts, ", %s", u->account);
		}
		rows[k].secs += u->secs;
	}
	/* users with none of the first TRES but some of another */
	for (uint32_t k = 1; k < nd; k++)
		for (uint32_t i = 0; i < all[k].nuse; i++) {
			const sr_use_t *u = &all[k].uses[i];
			uint32_t j;

			for (j = 0; j < n; j++)
				if (rows[j].uid == u->uid &&
				    ((top && o->group) ||
				     !strcmp(rows[j].accounts, u->account)))
					break;
			if (u->count && j == n)
				rows[n++] = (sr_urow_t){ .uid = u->uid,
					.accounts = xstrdup(u->account) };
		}
	qsort(rows, n, sizeof(*rows), by_usage);
	limit = top && o->top_count < n ? o->top_count : n;
	t.total = d->cap;
	for (uint32_t i = 0; i < limit; i++)
		for (uint32_t k = 0; k < nd; k++)
			assoc_row_of(o, &t, rows[i].accounts, rows[i].uid,
				     true, k ? urow_secs(&all[k], &rows[i],
							 top && o->group) :
				     rows[i].secs, tres_k(o, k), all[k].cap);
	for (uint32_t i = 0; i < n; i++)
		xfree(rows[i].accounts);
	xfree(rows);
	sr_table_print(o, &t);
	sr_table_free(&t);
	return rc;
}

/* ---- job SizesByAccount ---- */

static const sr_field_t size_fields[] = {
	SR_F("Cluster", "Cluster", 9, false),
	SR_F("Account", "Account", 9, false),
	SR_F(NULL, NULL, 0, false)
};
static const char *const size_default[] = { "Cluster", "Account", NULL };
static const sr_field_t size_wckey_fields[] = {
	SR_F("Cluster", "Cluster", 9, false),
	SR_F("Wckey", "WCKey", 15, false),
	SR_F(NULL, NULL, 0, false)
};
static const char *const size_wckey_default[] = { "Cluster", "Wckey",
						   NULL };
static const sr_field_t size_acct_wckey_fields[] = {
	SR_F("Cluster", "Cluster", 9, false),
	SR_F("Account", "Account:WCKey", 20, false),
	SR_F(NULL, NULL, 0, false)
};

/* SizesByWckey / SizesByAccountAndWckey: the row a job counts in. */
static char *size_key(const sreport_t *o, const sr_use_t *u)
{
	if (o->kind == SR_JOB_SIZES_WCKEY)
		return xstrdup(u->key);
	return xstrdup_printf("%s:%s", u->account, u->key);
}

static bool wckey_wanted(const sreport_t *o, const char *w)
{
	if (!o->wckeys)
		return true;
	for (size_t i = 0; o->wckeys[i]; i++)
		if (!strcmp(o->wckeys[i], w))
			return true;
	return false;
}

/* Jobs of account a (and below it unless flat) by size bin. */
static void size_sums(const sreport_t *o, sr_data_t *d, const char *a,
		      bool flat, uint64_t *bins)
{
	for (uint32_t i = 0; i < d->nuse; i++) {
		const sr_use_t *u = &d->uses[i];
		sr_acct_t *p = acct_find(d, u->account);
		bool in = !strcmp(u->account, a);
		uint32_t b = 0, guard = 0;

		if (o->kind != SR_JOB_SIZES) {
			char *k = size_key(o, u);

			in = !strcmp(k, a);
			flat = true;
			xfree(k);
		}
		while (!in && !flat && p && p->parent[0] &&
		       strcmp(p->name, "root") && guard++ <= d->nacct) {
			p = acct_find(d, p->parent);
			in = p && !strcmp(p->name, a);
		}
		if (!in && !flat && !strcmp(a, "root"))
			in = true;   /* every job is below root */
		if (!in)
			continue;
		while (b < o->grouping_cnt && u->cpus >= o->grouping[b])
			b++;
		bins[b] += o->job_count ? u->count : u->secs;
	}
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *size_text(const sreport_t *o, uint64_t v, uint64_t total)
{
	double pct = total ? (double)v * 100.0 / (double)total : 0;

	if (o->job_count)
		return xstrdup_printf("%" PRIu64, v);
	switch (o->tf) {
	case SR_TIME_SECS:
		return xstrdup_printf("%" PRIu64, v);
	case SR_TIME_HOURS:
		return xstrdup_printf("%" PRIu64, (v + 1800) / 3600);
	case SR_TIME_PERCENT:
		return xstrdup_printf("%.2f%%", pct);
	case SR_TIME_SECPER:
		return xstrdup_printf("%" PRIu64 "(%.2f%%)", v, pct);
	case SR_TIME_MINPER:
		return xstrdup_printf("%" PRIu64 "(%.2f%%)", (v + 30) / 60, pct);
	case SR_TIME_HOURPER:
		return xstrdup_printf("%" PRIu64 "(%.2f%%)", (v + 1800) / 3600,
				      pct);
	default:
		return xstrdup_printf("%" PRIu64, (v + 30) / 60);
	}
}

static int job_sizes(const sreport_t *o, sr_data_t *d)
{
	static sr_field_t bin_field = SR_F("bin", "", 13, false);
	static sr_field_t pct_field = SR_F("pct", "% of cluster", 12, false);
	uint32_t nb = o->grouping_cnt + 1;
	sr_field_t *bf = xcalloc(nb, sizeof(sr_field_t));
	char **heads = xcalloc(nb + 1, sizeof(char *));
	char **names = NULL, *title = sr_window(o, "Job Sizes", true);
	char units[128];
	uint64_t grand = 0;
	sr_table_t t = { 0 };
	int rc = o->kind == SR_JOB_SIZES_WCKEY ?
		sr_table_cols(&t, size_wckey_fields, size_wckey_default,
			      o->format) :
		o->kind == SR_JOB_SIZES_ACCT_WCKEY ?
		sr_table_cols(&t, size_acct_wckey_fields, size_default,
			      o->format) :
		sr_table_cols(&t, size_fields, size_default, o->format);
	uint32_t fixed = t.ncols;
	bool cpu = !o->ntres || !strcmp(tres_k(o, 0), "cpu");

	if (o->job_count)
		snprintf(units, sizeof(units), "%s%s%sUnits are in number of "
			 "jobs ran", cpu ? "" : "TRES type is ",
			 cpu ? "" : tres_k(o, 0), cpu ? "" : "\n");
	else
		snprintf(units, sizeof(units), "%s%s%sTime reported in %s",
			 cpu ? "" : "TRES type is ", cpu ? "" : tres_k(o, 0),
			 cpu ? "" : "\n", sr_time_units(o->tf, false));
	sr_banner(o, title, units);
	xfree(title);
	for (uint32_t b = 0; b < nb; b++) {
		bf[b] = bin_field;
		if (b == o->grouping_cnt)
			heads[b] = xstrdup_printf(">= %u %s",
						  b ? o->grouping[b - 1] : 0,
						  cpu ? "CPUs" : "TRES");
		else
			heads[b] = xstrdup_printf("%u-%u %s",
				b ? o->grouping[b - 1] : 0,
				o->grouping[b] - 1, cpu ? "CPUs" : "TRES");
		bf[b].f.header = heads[b];
		sr_table_add(&t, &bf[b], 13);
	}
	sr_table_add(&t, &pct_field, 12);
	for (uint32_t i = 0; i < d->nuse; i++)
		grand += o->job_count ? d->uses[i].count : d->uses[i].secs;
	/* which accounts (wckeys, account:wckey pairs) get a row */
	if (o->kind != SR_JOB_SIZES) {
		for (uint32_t i = 0; i < d->nuse; i++) {
			char *k = size_key(o, &d->uses[i]);
			bool seen = !wckey_wanted(o, d->uses[i].key);

			for (size_t n = 0; names && names[n]; n++)
				seen |= !strcmp(names[n], k);
			if (!seen)
				names = xstrarray_append(names, k);
			xfree(k);
		}
		if (names)
			qsort(names, xstrarray_len(names), sizeof(*names),
			      by_str);
	} else if (o->flat) {
		for (uint32_t i = 0; i < d->nuse; i++) {
			bool seen = false;

			for (size_t k = 0; names && names[k]; k++)
				seen |= !strcmp(names[k], d->uses[i].account);
			if (!seen)
				names = xstrarray_append(names,
							 d->uses[i].account);
		}
	} else if (o->accounts) {
		names = xstrarray_dup(o->accounts);
	} else if (d->nuse) {
		names = xstrarray_append(NULL, "root");
	}
	for (size_t k = 0; names && names[k]; k++) {
		uint64_t *bins = xcalloc(nb, sizeof(uint64_t)), sum = 0;

		size_sums(o, d, names[k], o->flat, bins);
		sr_table_row(&t);
		sr_table_str(&t, "Cluster", o->cluster);
		sr_table_str(&t, "Account", names[k]);
		sr_table_str(&t, "Wckey", names[k]);
		for (uint32_t b = 0; b < nb; b++) {
			char *v = size_text(o, bins[b], grand);

			t.cells[(size_t)(t.rows - 1) * t.ncols + fixed + b]
				.text = v;
			sum += bins[b];
		}
		t.cells[(size_t)(t.rows - 1) * t.ncols + fixed + nb].text =
			xstrdup_printf("%.2f%%", grand ? (double)sum * 100.0 /
				       (double)grand : 0.0);
		xfree(bins);
	}
	xstrarray_free(names);
	sr_table_print(o, &t);
	sr_table_free(&t);
	xstrarray_free(heads);
	xfree(bf);
	return rc;
}

int sr_report(const sreport_t *o, table_resp_msg_t *const *r, uint32_t n)
{
	sr_data_t *d;
	int rc = 0;

	if (o->kind == SR_RESV_UTIL)
		return sr_resv_util(o, r[0]);
	d = xcalloc(n + 1, sizeof(*d));
	for (uint32_t k = 0; k < n && !rc; k++)
		if (parse(r[k], &d[k]) < 0) {
			error("Unexpected answer from slurmdbd");
			rc = -1;
		}
	switch (rc ? 0 : o->kind) {
	case 0:
		break;
	case SR_CLUSTER_UTIL:
		rc = cluster_util(o, d, n);
		break;
	case SR_ACCT_BY_USER:
		rc = acct_by_user(o, d, n);
		break;
	case SR_ACCT_BY_QOS:
		rc = acct_by_user(o, d, n);
		break;
	case SR_USER_BY_WCKEY:
	case SR_WCKEY_BY_USER:
		rc = sr_wckey_usage(o, d, n);
		break;
	case SR_USER_BY_ACCT:
		rc = user_rows(o, d, n, false);
		break;
	case SR_USER_TOP:
		rc = user_rows(o, d, n, true);
		break;
	default:
		rc = job_sizes(o, &d[0]);
	}
	for (uint32_t k = 0; k < n; k++)
		data_free(&d[k]);
	xfree(d);
	return rc;
}
