/* privs.c — see privs.h. */
#include "common/privs.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"

int privs_become_user(const char *name, uid_t uid, char *err, size_t errlen)
{
	struct passwd *pw;

	if (getuid() != 0 || geteuid() != 0 || uid == 0)
		return 0;
	pw = getpwuid(uid);
	if (!pw) {
		snprintf(err, errlen, "SlurmUser %s (uid %u) has no passwd entry",
			 name ? name : "?", (unsigned) uid);
		return -1;
	}
	if (initgroups(pw->pw_name, pw->pw_gid) < 0 ||
	    setgid(pw->pw_gid) < 0 || setuid(uid) < 0) {
		snprintf(err, errlen, "Can not become SlurmUser %s (uid %u): %s",
			 pw->pw_name, (unsigned) uid, strerror(errno));
		return -1;
	}
	if (setuid(0) == 0) {          /* must be gone for good */
		snprintf(err, errlen, "Still able to regain root after becoming %s",
			 pw->pw_name);
		return -1;
	}
	debug("running as SlurmUser %s (uid %u gid %u)", pw->pw_name,
	      (unsigned) uid, (unsigned) pw->pw_gid);
	return 0;
}
