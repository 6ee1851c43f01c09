/* uid_cache.h — passwd lookups by user name and uid (and group names by
 * gid), remembered for a while.
 *
 * A command asks about the same user several times while it starts
 * (slurm.conf's SlurmUser and SlurmdUser, then the submitting user), and each
 * getpwnam()/getpwuid() re-reads /etc/passwd (or asks NSS).  Answers are kept
 * per process for UID_CACHE_TTL seconds, so a daemon that reloads slurm.conf
 * later still sees a changed passwd database.  Unknown users are not
 * remembered.  A uid's name is what getpwuid() gives (its first passwd
 * entry), whatever names sharing that uid were looked up before.
 * Thread-safe.
 */
#ifndef SLUICE_UID_CACHE_H
#define SLUICE_UID_CACHE_H

#include <stddef.h>
#include <sys/types.h>

#define UID_CACHE_TTL 60

/* 0 with *uid (and *gid when not NULL) set, or -1: no such user. */
int uid_cache_by_name(const char *name, uid_t *uid, gid_t *gid);
/* 0 with the user's name in buf (truncated to len - 1), or -1: no passwd
 * entry for uid. */
int uid_cache_name(uid_t uid, char *buf, size_t len);
/* The same for a group: 0 with gid's name (getgrgid()) in buf, or -1. */
int gid_cache_name(gid_t gid, char *buf, size_t len);

#endif
