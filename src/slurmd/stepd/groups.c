/* groups.c — a task's supplementary groups (groups.h). */
#define _GNU_SOURCE
#include "slurmd/stepd/groups.h"

#include <grp.h>
#include <pwd.h>
#include <stdlib.h>

#define MAX_GROUPS 1024

/* The groups the controller sent, into g; -1 if none came or they do
 * not fit (then NSS is asked). */
static int sent_groups(const char *list, gid_t *g, int max)
{
	int n = 0;

	for (const char *p = list; p && *p && n < max; n++) {
		char *end;
		unsigned long v = strtoul(p, &end, 10);

		if (end == p || (*end && *end != ','))
			return -1;
		g[n] = (gid_t) v;
		p = *end ? end + 1 : end;
	}
	return list && *list && n < max ? n : -1;
}

int stepd_set_groups(const char *list, const char *user_name, uid_t uid,
		     gid_t gid)
{
	gid_t groups[MAX_GROUPS];
	int n = sent_groups(list, groups, MAX_GROUPS);
	struct passwd *pw;

	if (n > 0)
		return setgroups((size_t) n, groups);
	if (!user_name && (pw = getpwuid(uid)))
		user_name = pw->pw_name;
	if (user_name && initgroups(user_name, gid) == 0)
		return 0;
	return setgroups(0, NULL);
}
