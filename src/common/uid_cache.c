/* uid_cache.c — see uid_cache.h.
 *
 * A handful of entries, replaced round-robin: a command needs two or three
 * users; slurmctld's submits name one user and group each, mostly the
 * same few in a row (with more users than slots a lookup simply goes to
 * NSS, as it did without the cache).
 */
#include "common/uid_cache.h"

#include <grp.h>
#include <pthread.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define UID_CACHE_SLOTS 8

typedef struct {
	bool   used;
	bool   by_uid;           /* from getpwuid: uid's first passwd entry */
	time_t at;               /* CLOCK_MONOTONIC seconds */
	uid_t  uid;
	gid_t  gid;
	char   name[256];        /* LOGIN_NAME_MAX */
} uid_cache_ent_t;

static struct {
	pthread_mutex_t lock;
	uid_cache_ent_t ent[UID_CACHE_SLOTS];
	unsigned        next;
	uid_cache_ent_t grp[UID_CACHE_SLOTS];   /* gid in .gid, by_uid unused */
	unsigned        grp_next;
} uc = { .lock = PTHREAD_MUTEX_INITIALIZER };

static time_t uc_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

static bool uc_fresh(const uid_cache_ent_t *e, time_t now)
{
	return e->used && now - e->at < UID_CACHE_TTL;
}

/* Called with the lock held. */
static void uc_store(const struct passwd *pw, bool by_uid, time_t now)
{
	uid_cache_ent_t *e = &uc.ent[uc.next++ % UID_CACHE_SLOTS];

	e->used = true;
	e->by_uid = by_uid;
	e->at = now;
	e->uid = pw->pw_uid;
	e->gid = pw->pw_gid;
	snprintf(e->name, sizeof(e->name), "%s", pw->pw_name);
}

/* The fresh entry for name (when name is set) or uid; called locked.  An
 * entry found by name does not answer for its uid: several names may share
 * a uid, and getpwuid() gives the first. */
static const uid_cache_ent_t *uc_find(const char *name, uid_t uid,
				      time_t now)
{
	for (size_t i = 0; i < UID_CACHE_SLOTS; i++) {
		const uid_cache_ent_t *e = &uc.ent[i];

		if (!uc_fresh(e, now))
			continue;
		if (name ? !strcmp(e->name, name) : e->by_uid && e->uid == uid)
			return e;
	}
	return NULL;
}

/* Fill *out from the cache or from NSS; -1 when there is no such user. */
static int uc_lookup(const char *name, uid_t uid, uid_cache_ent_t *out)
{
	struct passwd pwbuf, *pw = NULL;
	char buf[4096];
	const uid_cache_ent_t *e;
	time_t now = uc_now();

	pthread_mutex_lock(&uc.lock);
	if ((e = uc_find(name, uid, now))) {
		*out = *e;
		pthread_mutex_unlock(&uc.lock);
		return 0;
	}
	pthread_mutex_unlock(&uc.lock);
	/* NSS outside the lock: it may be slow (LDAP). */
	if (name)
		getpwnam_r(name, &pwbuf, buf, sizeof(buf), &pw);
	else
		getpwuid_r(uid, &pwbuf, buf, sizeof(buf), &pw);
	if (!pw)
		return -1;
	pthread_mutex_lock(&uc.lock);
	uc_store(pw, !name, now);
	pthread_mutex_unlock(&uc.lock);
	out->uid = pw->pw_uid;
	out->gid = pw->pw_gid;
	snprintf(out->name, sizeof(out->name), "%s", pw->pw_name);
	return 0;
}

int uid_cache_by_name(const char *name, uid_t *uid, gid_t *gid)
{
	uid_cache_ent_t e;

	if (!name || !*name || uc_lookup(name, 0, &e) < 0)
		return -1;
	*uid = e.uid;
	if (gid)
		*gid = e.gid;
	return 0;
}

int uid_cache_name(uid_t uid, char *buf, size_t len)
{
	uid_cache_ent_t e;

	if (uc_lookup(NULL, uid, &e) < 0)
		return -1;
	snprintf(buf, len, "%s", e.name);
	return 0;
}

int gid_cache_name(gid_t gid, char *buf, size_t len)
{
	struct group grbuf, *gr = NULL;
	char gbuf[4096];
	uid_cache_ent_t *e;
	time_t now = uc_now();

	pthread_mutex_lock(&uc.lock);
	for (size_t i = 0; i < UID_CACHE_SLOTS; i++) {
		e = &uc.grp[i];
		if (uc_fresh(e, now) && e->gid == gid) {
			snprintf(buf, len, "%s", e->name);
			pthread_mutex_unlock(&uc.lock);
			return 0;
		}
	}
	pthread_mutex_unlock(&uc.lock);
	getgrgid_r(gid, &grbuf, gbuf, sizeof(gbuf), &gr);
	if (!gr)
		return -1;
	pthread_mutex_lock(&uc.lock);
	e = &uc.grp[uc.grp_next++ % UID_CACHE_SLOTS];
	e->used = true;
	e->at = now;
	e->gid = gr->gr_gid;
	snprintf(e->name, sizeof(e->name), "%s", gr->gr_name);
	pthread_mutex_unlock(&uc.lock);
	snprintf(buf, len, "%s", gr->gr_name);
	return 0;
}
