/* assoc_mgr_wckey.c — the workload characterization keys of the
 * association snapshot (assoc_mgr.h): slurmdbd's wckeys of this cluster
 * ("show wckey where cluster=<this>"), each a (name, user) pair with its
 * id; a user's default is the one marked isdef. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/assoc_mgr_int.h"

struct am_wckey {
	char     *name;
	char     *user;
	uint32_t  id;
	bool      is_def;
};

static int wk_col(const dbd_acct_resp_msg_t *r, const char *name)
{
	for (int c = 0; r->cols && r->cols[c]; c++)
		if (!strcmp(r->cols[c], name))
			return c;
	return -1;
}

void am_wckey_build(am_snap_t *s, const dbd_acct_resp_msg_t *r)
{
	size_t ncols = xstrarray_len(r ? r->cols : NULL);
	size_t rows = ncols ? xstrarray_len(r->cells) / ncols : 0;
	int name, user, id, def;

	s->wckeys = NULL;
	s->wckey_cnt = 0;
	if (!rows)
		return;
	name = wk_col(r, "wckey");
	user = wk_col(r, "user");
	id = wk_col(r, "id");
	def = wk_col(r, "isdef");         /* a slurmdbd before defaults */
	if (name < 0 || user < 0 || id < 0) {
		error("assoc_mgr: wckey list without wckey, user or id; no "
		      "wckeys");
		return;
	}
	s->wckeys = xcalloc(rows, sizeof(*s->wckeys));
	for (size_t i = 0; i < rows; i++) {
		char *const *row = r->cells + i * ncols;
		am_wckey_t *w = &s->wckeys[s->wckey_cnt];
		char *end = NULL;
		unsigned long n = strtoul(row[id], &end, 10);

		if (!*row[name] || *end || !n || n > UINT32_MAX)
			continue;
		w->name = xstrdup(row[name]);
		w->user = xstrdup(row[user]);
		w->id = (uint32_t) n;
		w->is_def = def >= 0 && !strcmp(row[def], "1");
		s->wckey_cnt++;
	}
}

void am_wckey_free(am_snap_t *s)
{
	for (size_t i = 0; i < s->wckey_cnt; i++) {
		xfree(s->wckeys[i].name);
		xfree(s->wckeys[i].user);
	}
	xfree(s->wckeys);
	s->wckey_cnt = 0;
}

uint32_t assoc_mgr_wckey_id(const char *user, const char *name)
{
	am_snap_t *s = am_snap();

	if (!s || !user || !name)
		return 0;
	for (size_t i = 0; i < s->wckey_cnt; i++)
		if (!strcasecmp(s->wckeys[i].user, user) &&
		    !strcasecmp(s->wckeys[i].name, name))
			return s->wckeys[i].id;
	return 0;
}

const char *assoc_mgr_wckey_default(const char *user)
{
	am_snap_t *s = am_snap();

	if (!s || !user)
		return NULL;
	for (size_t i = 0; i < s->wckey_cnt; i++)
		if (s->wckeys[i].is_def && !strcasecmp(s->wckeys[i].user, user))
			return s->wckeys[i].name;
	return NULL;
}
