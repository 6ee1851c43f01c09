/* assoc_mgr_res.c — the remote licenses of the association snapshot
 * (assoc_mgr.h): slurmdbd's resources with this cluster's share of
 * each, from "show resource withclusters where cluster=<this>". */
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/assoc_mgr_int.h"

static int col_of(const dbd_acct_resp_msg_t *r, const char *name)
{
	for (int c = 0; r->cols && r->cols[c]; c++)
		if (!strcmp(r->cols[c], name))
			return c;
	return -1;
}

void am_remote_build(am_snap_t *s, const dbd_acct_resp_msg_t *r)
{
	size_t ncols = xstrarray_len(r ? r->cols : NULL);
	size_t rows = ncols ? xstrarray_len(r->cells) / ncols : 0;
	int name, server, count;

	s->remote_lics = NULL;
	s->remote_lic_cnt = 0;
	if (!rows)
		return;
	name = col_of(r, "name");
	server = col_of(r, "server");
	count = col_of(r, "clustercount");
	if (name < 0 || server < 0 || count < 0) {
		error("assoc_mgr: resource list without name, server or "
		      "clustercount; no remote licenses");
		return;
	}
	s->remote_lics = xcalloc(rows + 1, sizeof(*s->remote_lics));
	for (size_t i = 0; i < rows; i++) {
		char *const *row = r->cells + i * ncols;
		assoc_remote_lic_t *l = &s->remote_lics[s->remote_lic_cnt];
		char *end = NULL;
		unsigned long long n = strtoull(row[count], &end, 10);

		if (!*row[name] || !*row[count] || *end || n > UINT32_MAX)
			continue;      /* no share for this cluster */
		l->name = xstrdup_printf("%s@%s", row[name], row[server]);
		l->count = (uint32_t) n;
		s->remote_lic_cnt++;
	}
}

void am_remote_free(am_snap_t *s)
{
	for (size_t i = 0; i < s->remote_lic_cnt; i++)
		xfree(s->remote_lics[i].name);
	xfree(s->remote_lics);
	s->remote_lic_cnt = 0;
}

const assoc_remote_lic_t *assoc_mgr_remote_licenses(size_t *cnt)
{
	am_snap_t *s = am_snap();

	*cnt = s ? s->remote_lic_cnt : 0;
	return s ? s->remote_lics : NULL;
}
