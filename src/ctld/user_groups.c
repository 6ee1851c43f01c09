/* user_groups.c — cached supplementary groups (user_groups.h). */
#define _GNU_SOURCE
#include "ctld/user_groups.h"

#include <grp.h>
#include <time.h>
#include <uthash.h>

#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/controller.h"

typedef struct {
	uid_t          uid;       /* key */
	gid_t          gid;
	char          *groups;
	time_t         expires;
	UT_hash_handle hh;
} ug_entry_t;

static ug_entry_t *cache;

static char *lookup(const char *user_name, gid_t gid)
{
	int n = 64;
	gid_t *g = xcalloc((size_t)n, sizeof(*g));
	char *s = NULL;

	if (getgrouplist(user_name, gid, g, &n) < 0) {
		g = xrealloc(g, (size_t)(n + 1) * sizeof(*g));
		if (getgrouplist(user_name, gid, g, &n) < 0)
			n = 0;
	}
	for (int i = 0; i < n; i++)
		xstrfmtcat(&s, "%s%u", i ? "," : "", (unsigned)g[i]);
	xfree(g);
	return s;
}

char *user_groups_str(const char *user_name, uid_t uid, gid_t gid)
{
	time_t now = time(NULL);
	uint16_t ttl = ctld_conf()->group_update_time;
	ug_entry_t *e;

	if (!user_name || !*user_name)
		return NULL;
	HASH_FIND(hh, cache, &uid, sizeof(uid), e);
	if (!e || e->gid != gid || (ttl && e->expires <= now)) {
		if (!e) {
			e = xmalloc(sizeof(*e));
			e->uid = uid;
			HASH_ADD(hh, cache, uid, sizeof(e->uid), e);
		}
		xfree(e->groups);
		e->groups = lookup(user_name, gid);
		e->gid = gid;
		e->expires = now + ttl;
	}
	return xstrdup(e->groups);
}

void user_groups_flush(void)
{
	ug_entry_t *e, *tmp;

	HASH_ITER(hh, cache, e, tmp) {
		HASH_DEL(cache, e);
		xfree(e->groups);
		xfree(e);
	}
}
