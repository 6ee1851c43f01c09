/* sim_ctld.c — the controller's loop, agent and script store as
 * sluice-sim needs them (sim_ctld.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <uthash.h>

#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/agent.h"
#include "ctld/controller.h"
#include "ctld/job_files.h"
#include "sim/sim_ctld.h"

typedef struct {
	uint32_t       id;
	char          *name;        /* NULL: a group, named by its number */
	UT_hash_handle hh;
} name_t;

typedef struct {
	agent_rpc_done_f done;
	void            *arg;
	uint32_t         job_id;
} launch_t;

static struct {
	const slurm_conf_t *conf;
	launch_t *launched;
	size_t    launched_cnt, launched_cap;
	uint32_t *term;
	size_t    term_cnt, term_cap;
	uint64_t  messages;
	name_t   *users, *groups;
	struct glist *glists;
} sc;

/* getgrouplist() answers, per user name and primary group. */
typedef struct glist {
	char          *key;         /* "name:gid" */
	gid_t         *groups;
	int            cnt;
	UT_hash_handle hh;
} glist_t;

int __real_getgrouplist(const char *user, gid_t group, gid_t *groups,
			int *ngroups);
int __wrap_getgrouplist(const char *user, gid_t group, gid_t *groups,
			int *ngroups);

/* The controller asks for a user's groups at every launch (the launch
 * message carries them): NSS once per user here. */
int __wrap_getgrouplist(const char *user, gid_t group, gid_t *groups,
			int *ngroups)
{
	char *key = xstrdup_printf("%s:%u", user, (unsigned) group);
	glist_t *g;
	int n;

	HASH_FIND_STR(sc.glists, key, g);
	if (!g) {
		int cnt = 64;

		g = xmalloc(sizeof(*g));
		g->groups = xcalloc((size_t) cnt, sizeof(gid_t));
		if (__real_getgrouplist(user, group, g->groups, &cnt) < 0) {
			g->groups = xrealloc(g->groups,
					     (size_t) cnt * sizeof(gid_t));
			if (__real_getgrouplist(user, group, g->groups,
						&cnt) < 0)
				cnt = 0;
		}
		if (cnt <= 0) {         /* not a user here: the group alone */
			g->groups[0] = group;
			cnt = 1;
		}
		g->cnt = cnt;
		g->key = key;
		HASH_ADD_KEYPTR(hh, sc.glists, g->key, strlen(g->key), g);
	} else {
		xfree(key);
	}
	n = *ngroups;
	*ngroups = g->cnt;
	if (n < g->cnt)
		return -1;
	memcpy(groups, g->groups, (size_t) g->cnt * sizeof(gid_t));
	return g->cnt;
}

int __real_uid_cache_name(uid_t uid, char *buf, size_t len);
int __real_gid_cache_name(gid_t gid, char *buf, size_t len);
int __wrap_uid_cache_name(uid_t uid, char *buf, size_t len);
int __wrap_gid_cache_name(gid_t gid, char *buf, size_t len);

static void _name_add(name_t **h, uint32_t id, const char *name)
{
	name_t *n;

	HASH_FIND(hh, *h, &id, sizeof(id), n);
	if (n)
		return;
	n = xmalloc(sizeof(*n));
	n->id = id;
	n->name = xstrdup(name);
	HASH_ADD(hh, *h, id, sizeof(n->id), n);
}

static void _names_free(name_t **h)
{
	name_t *n, *tmp;

	HASH_ITER(hh, *h, n, tmp) {
		HASH_DEL(*h, n);
		xfree(n->name);
		xfree(n);
	}
}

void sim_ctld_add_user(uint32_t uid, const char *name)
{
	_name_add(&sc.users, uid, name);
}

void sim_ctld_add_group(uint32_t gid)
{
	_name_add(&sc.groups, gid, NULL);
}

void sim_ctld_forget_users(void)
{
	glist_t *g, *tmp;

	_names_free(&sc.users);
	_names_free(&sc.groups);
	HASH_ITER(hh, sc.glists, g, tmp) {
		HASH_DEL(sc.glists, g);
		xfree(g->key);
		xfree(g->groups);
		xfree(g);
	}
}

int __wrap_uid_cache_name(uid_t uid, char *buf, size_t len)
{
	uint32_t id = uid;
	name_t *n;

	HASH_FIND(hh, sc.users, &id, sizeof(id), n);
	if (!n)
		return __real_uid_cache_name(uid, buf, len);
	snprintf(buf, len, "%s", n->name);
	return 0;
}

int __wrap_gid_cache_name(gid_t gid, char *buf, size_t len)
{
	uint32_t id = gid;
	name_t *n;

	HASH_FIND(hh, sc.groups, &id, sizeof(id), n);
	if (!n)
		return __real_gid_cache_name(gid, buf, len);
	snprintf(buf, len, "%u", (unsigned) gid);
	return 0;
}

void sim_ctld_set_conf(const slurm_conf_t *c)
{
	sc.conf = c;
}

uint32_t *sim_ctld_take_launched(size_t *cnt)
{
	size_t n = sc.launched_cnt;
	uint32_t *ids = xcalloc(n + 1, sizeof(*ids));

	/* answered before taken: a done may start nothing new */
	for (size_t i = 0; i < n; i++) {
		ids[i] = sc.launched[i].job_id;
		if (sc.launched[i].done)
			sc.launched[i].done(0, sc.launched[i].arg);
	}
	sc.launched_cnt = 0;
	*cnt = n;
	return ids;
}

uint32_t *sim_ctld_take_terminated(size_t *cnt)
{
	uint32_t *ids = sc.term;

	*cnt = sc.term_cnt;
	sc.term = NULL;
	sc.term_cnt = sc.term_cap = 0;
	return ids;
}

uint64_t sim_ctld_messages(void)
{
	return sc.messages;
}

static void _note_term(uint32_t job_id)
{
	if (sc.term_cnt == sc.term_cap) {
		sc.term_cap = sc.term_cap ? 2 * sc.term_cap : 256;
		sc.term = xrealloc(sc.term, sc.term_cap * sizeof(*sc.term));
	}
	sc.term[sc.term_cnt++] = job_id;
}

/* ---- controller.h ---- */

const slurm_conf_t *ctld_conf(void) { return sc.conf; }
struct event_base *ctld_base(void) { return NULL; }
time_t ctld_boot_time(void) { return 0; }
bool ctld_is_operator(uid_t uid) { return uid == 0; }
bool ctld_hides(uint32_t what, uid_t uid)
{
	(void) what;
	(void) uid;
	return false;
}
void ctld_shutdown(void) { }
int ctld_reconfigure(void) { return 0; }
void ctld_set_debug_level(int level) { (void) level; }
int ctld_debug_level(void) { return 3; }
void ctld_restart_from_disk(void) { }
bool ctld_restarting(void) { return false; }

/* ---- agent.h ---- */

int agent_init(struct event_base *base, int threads)
{
	(void) base;
	(void) threads;
	return 0;
}
void agent_fini(void) { }
unsigned agent_pending(void) { return 0; }
/* Worker jobs (checkpoint dumps, output relays, energy polls): none of
 * them happen without nodes. */
void agent_queue_work(agent_work_f work, agent_done_f done, void *arg)
{
	(void) work;
	(void) done;
	(void) arg;
}

void agent_send_rc(const char *host, uint16_t port, uint16_t type, void *req,
		   int timeout_ms, agent_rpc_done_f done, void *arg)
{
	(void) host;
	(void) port;
	(void) timeout_ms;
	sc.messages++;
	if (type == REQUEST_BATCH_JOB_LAUNCH) {
		launch_t *l;

		if (sc.launched_cnt == sc.launched_cap) {
			sc.launched_cap = sc.launched_cap ?
				2 * sc.launched_cap : 256;
			sc.launched = xrealloc(sc.launched, sc.launched_cap *
					       sizeof(*sc.launched));
		}
		l = &sc.launched[sc.launched_cnt++];
		l->done = done;
		l->arg = arg;
		l->job_id = ((batch_launch_msg_t *) req)->job_id;
	} else if (type == REQUEST_TERMINATE_JOB) {
		_note_term(((node_signal_msg_t *) req)->job_id);
		if (done)
			done(0, arg);
	} else if (done) {
		done(0, arg);
	}
	msg_body_free(type, req);
}

void agent_send_tree(char * const *names, char * const *addrs, uint32_t cnt,
		     uint16_t type, void *req, uint16_t tree_width,
		     int timeout_ms)
{
	(void) names;
	(void) addrs;
	(void) tree_width;
	(void) timeout_ms;
	sc.messages += cnt;
	if (type == REQUEST_TERMINATE_JOB)
		_note_term(((node_signal_msg_t *) req)->job_id);
	msg_body_free(type, req);
}

/* The ping sweep: every virtual node answers at once. */
void agent_send_tree_cb(char * const *names, char * const *addrs,
			uint32_t cnt, uint16_t type, void *req,
			uint16_t tree_width, int timeout_ms,
			agent_tree_done_f done, void *arg)
{
	int *rc = xcalloc(cnt + 1, sizeof(int));

	(void) names;
	(void) addrs;
	(void) tree_width;
	(void) timeout_ms;
	sc.messages += cnt;
	msg_body_free(type, req);
	if (done)
		done(rc, cnt, arg);
	xfree(rc);
}

/* ---- job_files.h: no scripts kept ---- */

int job_files_start(const char *dir)
{
	(void) dir;
	return 0;
}
void job_files_stop(void) { }
void job_files_save(const char *dir, uint32_t job_id, const char *script,
		    char *const *env)
{
	(void) dir;
	(void) job_id;
	(void) script;
	(void) env;
}
int job_files_replay(const void *data, uint32_t len)
{
	(void) data;
	(void) len;
	return 0;
}
int job_files_read(const char *dir, uint32_t job_id, char **script,
		   char ***env)
{
	(void) dir;
	(void) job_id;
	*script = xstrdup("#!/bin/sh\n# sluice-sim\n");
	*env = NULL;
	return 0;
}
void job_files_remove(const char *dir, uint32_t job_id)
{
	(void) dir;
	(void) job_id;
}
void job_files_kick(void) { }
int job_files_flush(void) { return 0; }
uint32_t job_files_entry_id(const char *name)
{
	(void) name;
	return 0;
}
