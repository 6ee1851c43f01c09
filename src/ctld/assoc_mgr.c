/* assoc_mgr.c — the association/QOS/user cache (assoc_mgr.h): the
 * snapshot, its lookups, the loader thread and the saved copy.
 * Counters and limits are in assoc_limits.c. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <event2/event.h>
#include <uthash.h>

#include "common/crc32c.h"
#include "common/conf_params.h"
#include "common/fd.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/tres_limit.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/acct_storage.h"
#include "ctld/assoc_mgr.h"
#include "ctld/assoc_mgr_int.h"
#include "ctld/controller.h"
#include "ctld/part_mgr.h"
#include "ctld/rpc.h"
#include "slurm/slurm_errno.h"

#define AM_STATE_FILE    "assoc_mgr_state"
#define AM_STATE_MAGIC   "SLASSOC1"
#define RETRY_S       5
#define FIRST_WAIT_MS 3000

/* What is asked of slurmdbd, in this order (the saved file too). */
static const uint16_t list_entities[AM_LIST_CNT] = {
	DBD_ENT_QOS, DBD_ENT_USER, DBD_ENT_ASSOC, DBD_ENT_COORD,
	DBD_ENT_RESOURCE, DBD_ENT_WCKEY
};

typedef struct {
	void (*cb)(void *arg);
	void *arg;
} reload_cb_t;

static struct {
	am_snap_t         *snap;       /* loop thread */
	uint64_t           gen;
	uint32_t           enforce;
	char              *cluster;
	char              *host;
	uint16_t           port;
	char              *state_path;
	int                timeout_ms;
	struct event      *install_ev;
	reload_cb_t       *cbs;
	size_t             cb_cnt;
	/* loader thread */
	pthread_t          thread;
	bool               started;
	pthread_mutex_t    mutex;
	pthread_cond_t     cond;
	bool               stopping;
	bool               refresh;
	am_snap_t         *incoming;   /* built, waiting for the loop */
} am = { .mutex = PTHREAD_MUTEX_INITIALIZER,
	 .cond = PTHREAD_COND_INITIALIZER };

/* ---- building a snapshot from the lists ---- */

static const char *cell(const dbd_acct_resp_msg_t *r, size_t row,
			const char *col)
{
	size_t ncols = 0;

	while (r->cols && r->cols[ncols])
		ncols++;
	for (size_t c = 0; c < ncols; c++)
		if (!strcmp(r->cols[c], col))
			return r->cells[row * ncols + c];
	return "";
}

static size_t row_cnt(const dbd_acct_resp_msg_t *r)
{
	size_t ncols = 0, ncells = 0;

	while (r->cols && r->cols[ncols])
		ncols++;
	while (r->cells && r->cells[ncells])
		ncells++;
	return ncols ? ncells / ncols : 0;
}

static uint64_t num(const char *s)
{
	char *end;
	unsigned long long v;

	if (!s || !*s)
		return ASSOC_NO_LIMIT;
	errno = 0;
	v = strtoull(s, &end, 10);
	return (*end || errno) ? ASSOC_NO_LIMIT : v;
}

static void tres(const char *s, assoc_tres_t *t)
{
	tres_limit_get(s, t->v);
}

static bool tres_set(const assoc_tres_t *t)
{
	for (int k = 0; k < ASSOC_TRES_CNT; k++)
		if (t->v[k] != ASSOC_NO_LIMIT)
			return true;
	return false;
}

static char **name_list(const char *s)
{
	char **v = xstrsplit(s ? s : "", ",", NULL);

	for (size_t i = 0; v[i]; i++)
		xstrtolower(v[i]);
	return v;
}

static uid_t uid_of(const char *name)
{
	struct passwd pw, *res = NULL;
	char buf[4096];

	if (getpwnam_r(name, &pw, buf, sizeof(buf), &res) || !res)
		return (uid_t)-1;
	return res->pw_uid;
}

static void build_qos(am_snap_t *s, const dbd_acct_resp_msg_t *r)
{
	size_t n = row_cnt(r);

	s->qos = xcalloc(n + 1, sizeof(*s->qos));
	for (size_t i = 0; i < n; i++) {
		assoc_qos_t *q = xmalloc(sizeof(*q));
		const char *uf = cell(r, i, "usagefactor");

		q->id = (uint32_t)num(cell(r, i, "id"));
		q->name = xstrtolower(xstrdup(cell(r, i, "name")));
		q->priority = (uint32_t)num(cell(r, i, "priority"));
		if (q->priority == UINT32_MAX)
			q->priority = 0;
		q->usage_factor = *uf ? strtod(uf, NULL) : 1.0;
		q->flags = (strstr(cell(r, i, "flags"), "DenyOnLimit") ?
			    ASSOC_QOS_DENY_ON_LIMIT : 0) |
			(strstr(cell(r, i, "flags"), "OverPartQOS") ?
			 ASSOC_QOS_OVER_PART_QOS : 0);
		q->grace_time = num(cell(r, i, "gracetime"));
		if (q->grace_time == ASSOC_NO_LIMIT)
			q->grace_time = 0;
		q->preempt = name_list(cell(r, i, "preempt"));
		q->grp_jobs = num(cell(r, i, "grpjobs"));
		q->grp_submit = num(cell(r, i, "grpsubmit"));
		q->grp_wall = num(cell(r, i, "grpwall"));
		q->max_jobs_pu = num(cell(r, i, "maxjobspu"));
		q->max_submit_pu = num(cell(r, i, "maxsubmitpu"));
		q->max_wall = num(cell(r, i, "maxwall"));
		tres(cell(r, i, "grptres"), &q->grp_tres);
		tres(cell(r, i, "maxtres"), &q->max_tres);
		tres(cell(r, i, "maxtrespu"), &q->max_tres_pu);
		tres(cell(r, i, "grptresmins"), &q->grp_tres_mins);
		tres(cell(r, i, "grptresrunmins"), &q->grp_tres_run_mins);
		tres(cell(r, i, "maxtresmins"), &q->max_tres_mins);
		q->has_limits = q->grp_jobs != ASSOC_NO_LIMIT ||
			q->max_jobs_pu != ASSOC_NO_LIMIT ||
			q->max_wall != ASSOC_NO_LIMIT ||
			q->grp_wall != ASSOC_NO_LIMIT ||
			tres_set(&q->grp_tres) || tres_set(&q->max_tres) ||
			tres_set(&q->max_tres_pu) ||
			tres_set(&q->grp_tres_mins) ||
			tres_set(&q->grp_tres_run_mins) ||
			tres_set(&q->max_tres_mins);
		if (q->grp_wall != ASSOC_NO_LIMIT ||
		    tres_set(&q->grp_tres_mins) ||
		    tres_set(&q->grp_tres_run_mins))
			s->time_limited = true;
		s->qos[s->qos_cnt++] = q;
	}
}

static void build_users(am_snap_t *s, const dbd_acct_resp_msg_t *r,
			const dbd_acct_resp_msg_t *coords)
{
	size_t n = row_cnt(r), nc = row_cnt(coords);

	s->users = xcalloc(n + 1, sizeof(*s->users));
	for (size_t i = 0; i < n; i++) {
		assoc_user_t *u = xmalloc(sizeof(*u));
		const char *admin = cell(r, i, "admin");

		u->name = xstrdup(cell(r, i, "user"));
		u->uid = uid_of(u->name);
		u->default_acct = xstrdup(cell(r, i, "defacct"));
		u->admin_level = !strcmp(admin, "Administrator") ?
			ASSOC_ADMIN_SUPER : !strcmp(admin, "Operator") ?
			ASSOC_ADMIN_OPERATOR : ASSOC_ADMIN_NONE;
		for (size_t k = 0; k < nc; k++)
			if (!strcmp(cell(coords, k, "user"), u->name))
				u->coord_accts = xstrarray_append(
					u->coord_accts,
					cell(coords, k, "account"));
		s->users[s->user_cnt++] = u;
	}
}

static void build_assocs(am_snap_t *s, const dbd_acct_resp_msg_t *r)
{
	size_t n = row_cnt(r);

	s->assocs = xcalloc(n + 1, sizeof(*s->assocs));
	for (size_t i = 0; i < n; i++) {
		assoc_rec_t *a = xmalloc(sizeof(*a));
		uint64_t shares = num(cell(r, i, "share"));

		a->id = (uint32_t)num(cell(r, i, "id"));
		a->acct = xstrdup(cell(r, i, "account"));
		a->user = xstrdup(cell(r, i, "user"));
		a->partition = xstrdup(cell(r, i, "partition"));
		a->parent_acct = xstrdup(cell(r, i, "parentname"));
		a->uid = a->user[0] ? uid_of(a->user) : (uid_t)-1;
		a->shares = shares == ASSOC_NO_LIMIT ? 1 : (uint32_t)shares;
		a->grp_jobs = num(cell(r, i, "grpjobs"));
		a->grp_submit = num(cell(r, i, "grpsubmit"));
		a->grp_wall = num(cell(r, i, "grpwall"));
		a->max_jobs = num(cell(r, i, "maxjobs"));
		a->max_submit = num(cell(r, i, "maxsubmit"));
		a->max_wall = num(cell(r, i, "maxwall"));
		tres(cell(r, i, "grptres"), &a->grp_tres);
		tres(cell(r, i, "maxtres"), &a->max_tres);
		tres(cell(r, i, "maxtrespn"), &a->max_tres_pn);
		tres(cell(r, i, "grptresmins"), &a->grp_tres_mins);
		tres(cell(r, i, "grptresrunmins"), &a->grp_tres_run_mins);
		tres(cell(r, i, "maxtresmins"), &a->max_tres_mins);
		a->qos = name_list(cell(r, i, "qos"));
		a->def_qos = xstrtolower(xstrdup(cell(r, i, "defqos")));
		if (a->grp_jobs != ASSOC_NO_LIMIT ||
		    a->max_jobs != ASSOC_NO_LIMIT ||
		    a->max_wall != ASSOC_NO_LIMIT || tres_set(&a->grp_tres) ||
		    tres_set(&a->max_tres) || tres_set(&a->max_tres_pn) ||
		    a->grp_wall != ASSOC_NO_LIMIT ||
		    tres_set(&a->grp_tres_mins) ||
		    tres_set(&a->grp_tres_run_mins) ||
		    tres_set(&a->max_tres_mins))
			s->assocs_limited = true;
		s->assocs[s->assoc_cnt++] = a;
	}
}

static uint64_t first_set(const assoc_rec_t *a, size_t off)
{
	for (int depth = 0; a && depth < 64; a = a->parent, depth++) {
		uint64_t v = *(const uint64_t *)((const char *)a + off);

		if (v != ASSOC_NO_LIMIT)
			return v;
	}
	return ASSOC_NO_LIMIT;
}

/* The limits in force of a (its own or inherited), computed once. */
static void inherit(assoc_rec_t *a)
{
	a->eff_max_jobs = first_set(a, offsetof(assoc_rec_t, max_jobs));
	a->eff_max_submit = first_set(a, offsetof(assoc_rec_t, max_submit));
	a->eff_max_wall = first_set(a, offsetof(assoc_rec_t, max_wall));
	for (int k = 0; k < ASSOC_TRES_CNT; k++) {
		a->eff_max_tres.v[k] = first_set(a, offsetof(assoc_rec_t,
						     max_tres.v[k]));
		a->eff_max_tres_pn.v[k] = first_set(a, offsetof(assoc_rec_t,
							max_tres_pn.v[k]));
		a->eff_max_tres_mins.v[k] = first_set(a,
			offsetof(assoc_rec_t, max_tres_mins.v[k]));
	}
	/* time-based Grp limits; not enforced on root (as Slurm) */
	for (const assoc_rec_t *x = a; x && x->parent; x = x->parent)
		if (x->grp_wall != ASSOC_NO_LIMIT ||
		    tres_set(&x->grp_tres_mins) ||
		    tres_set(&x->grp_tres_run_mins)) {
			a->time_limited = true;
			break;
		}
	for (const assoc_rec_t *x = a; x; x = x->parent)
		if (x->grp_jobs != ASSOC_NO_LIMIT ||
		    x->grp_submit != ASSOC_NO_LIMIT ||
		    tres_set(&x->grp_tres)) {
			a->grp_limited = true;
			break;
		}
}

/* Hash indexes and parent links. */
static void index_snap(am_snap_t *s)
{
	for (size_t i = 0; i < s->qos_cnt; i++) {
		am_index_add(&s->qos_by_name, s->qos[i]->name, s->qos[i]);
		am_index_add_id(&s->qos_by_id, s->qos[i]->id, s->qos[i]);
	}
	for (size_t i = 0; i < s->user_cnt; i++) {
		am_index_add(&s->user_by_name, s->users[i]->name,
			     s->users[i]);
		if (s->users[i]->uid != (uid_t)-1)
			am_index_add_id(&s->user_by_uid, s->users[i]->uid,
					s->users[i]);
	}
	for (size_t i = 0; i < s->assoc_cnt; i++) {
		assoc_rec_t *a = s->assocs[i];
		char *key = xstrdup_printf("%s|%s|%s", a->user, a->acct,
					   a->partition);

		am_index_add(&s->assoc_by_key, key, a);
		if (a->partition[0])
			s->has_part_assocs = true;
		am_index_add_id(&s->assoc_by_id, a->id, a);
		xfree(key);
	}
	for (size_t i = 0; i < s->assoc_cnt; i++) {
		assoc_rec_t *a = s->assocs[i];
		const char *up = a->user[0] ? a->acct : a->parent_acct;
		char *key = xstrdup_printf("|%s|", up);

		if (up[0] && (a->user[0] || strcmp(a->acct, up)))
			a->parent = am_index_find(s->assoc_by_key, key);
		xfree(key);
	}
	for (size_t i = 0; i < s->assoc_cnt; i++) {
		inherit(s->assocs[i]);
		if (s->assocs[i]->time_limited)
			s->time_limited = true;
	}
	for (size_t i = 0; i < s->qos_cnt; i++)
		if (s->qos[i]->priority > s->qos_max_prio)
			s->qos_max_prio = s->qos[i]->priority;
}

static am_snap_t *snap_build(dbd_acct_resp_msg_t *lists[AM_LIST_CNT])
{
	am_snap_t *s = xmalloc(sizeof(*s));

	build_qos(s, lists[0]);
	build_users(s, lists[1], lists[3]);
	build_assocs(s, lists[2]);
	am_remote_build(s, lists[4]);
	am_wckey_build(s, lists[5]);
	index_snap(s);
	return s;
}

static void snap_free(am_snap_t *s)
{
	if (!s)
		return;
	am_index_free(&s->qos_by_name);
	am_index_free(&s->qos_by_id);
	am_index_free(&s->user_by_name);
	am_index_free(&s->user_by_uid);
	am_index_free(&s->assoc_by_key);
	am_index_free(&s->assoc_by_id);
	for (size_t i = 0; i < s->qos_cnt; i++) {
		xfree(s->qos[i]->name);
		xstrarray_free(s->qos[i]->preempt);
		xfree(s->qos[i]);
	}
	for (size_t i = 0; i < s->user_cnt; i++) {
		xfree(s->users[i]->name);
		xfree(s->users[i]->default_acct);
		xstrarray_free(s->users[i]->coord_accts);
		xfree(s->users[i]);
	}
	for (size_t i = 0; i < s->assoc_cnt; i++) {
		assoc_rec_t *a = s->assocs[i];

		xfree(a->acct);
		xfree(a->user);
		xfree(a->partition);
		xfree(a->parent_acct);
		xstrarray_free(a->qos);
		xfree(a->def_qos);
		xfree(a);
	}
	xfree(s->qos);
	xfree(s->users);
	xfree(s->assocs);
	am_remote_free(s);
	am_wckey_free(s);
	am_usage_free(s);
	xfree(s);
}

/* ---- the saved copy: magic, crc32c and length of the body, then per
 * list its length and its packed RESPONSE_DBD_ACCT ---- */

static buf_t *pack_lists(dbd_acct_resp_msg_t *lists[AM_LIST_CNT])
{
	buf_t *body = buf_create(4096), *out = buf_create(4096);

	for (int i = 0; i < AM_LIST_CNT; i++) {
		buf_t *one = buf_create(1024);

		msg_body_pack(RESPONSE_DBD_ACCT, lists[i], one);
		pack32(body, (uint32_t)buf_len(one));
		packbuf(body, one);
		buf_destroy(one);
	}
	packraw(out, AM_STATE_MAGIC, 8);
	pack32(out, crc32c(0, buf_data(body), buf_len(body)));
	pack32(out, (uint32_t)buf_len(body));
	packbuf(out, body);
	buf_destroy(body);
	return out;
}

static int save_lists(dbd_acct_resp_msg_t *lists[AM_LIST_CNT])
{
	buf_t *b = pack_lists(lists);
	char *tmp = xstrdup_printf("%s.new", am.state_path);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int rc = -1;

	if (fd >= 0) {
		rc = fd_write_all(fd, buf_data(b), buf_len(b));
		if (rc == 0)
			rc = fsync(fd);
		close(fd);
		if (rc == 0)
			rc = rename(tmp, am.state_path);
	}
	if (rc < 0)
		error("assoc_mgr: unable to save %s: %s", am.state_path,
		      strerror(errno));
	xfree(tmp);
	buf_destroy(b);
	return rc;
}

int am_unpack_lists(const void *data, size_t len,
		    dbd_acct_resp_msg_t *lists[AM_LIST_CNT])
{
	const uint8_t *p = data;
	buf_t *b = buf_view(data, len);
	uint32_t crc, blen;
	int rc = -1;

	memset(lists, 0, sizeof(*lists) * AM_LIST_CNT);
	if (len < 16 || memcmp(data, AM_STATE_MAGIC, 8))
		goto out;
	buf_set_offset(b, 8);
	if (unpack32(b, &crc) < 0 || unpack32(b, &blen) < 0 ||
	    blen != buf_remaining(b) || crc32c(0, p + 16, blen) != crc)
		goto out;
	for (int i = 0; i < AM_LIST_CNT; i++) {
		uint32_t n;
		size_t off;
		buf_t *one;
		void *msg = NULL;
		int urc;

		if (i >= AM_LIST_MIN && !buf_remaining(b)) {
			/* saved before remote licenses or wckeys: none */
			for (; i < AM_LIST_CNT; i++)
				lists[i] = xmalloc(sizeof(*lists[i]));
			break;
		}
		if (unpack32(b, &n) < 0 || n > buf_remaining(b))
			goto out;
		off = buf_offset(b);
		one = buf_view(p + off, n);
		urc = msg_body_unpack(RESPONSE_DBD_ACCT, one, &msg);
		buf_destroy(one);
		if (urc < 0)
			goto out;
		lists[i] = msg;
		buf_set_offset(b, off + n);
	}
	rc = buf_remaining(b) ? -1 : 0;
out:
	buf_destroy(b);
	if (rc < 0)
		for (int k = 0; k < AM_LIST_CNT; k++) {
			msg_body_free(RESPONSE_DBD_ACCT, lists[k]);
			lists[k] = NULL;
		}
	return rc;
}

static am_snap_t *load_file(const char *path)
{
	dbd_acct_resp_msg_t *lists[AM_LIST_CNT];
	am_snap_t *s = NULL;
	struct stat st;
	uint8_t *data;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || st.st_size > (64 << 20) || st.st_size < 16) {
		close(fd);
		return NULL;
	}
	data = xmalloc(st.st_size);
	if (read(fd, data, st.st_size) == st.st_size &&
	    am_unpack_lists(data, st.st_size, lists) == 0) {
		s = snap_build(lists);
		for (int i = 0; i < AM_LIST_CNT; i++)
			msg_body_free(RESPONSE_DBD_ACCT, lists[i]);
	} else {
		error("assoc_mgr: %s is damaged; ignoring it", path);
	}
	close(fd);
	xfree(data);
	return s;
}

/* ---- fetching from slurmdbd (loader thread, or start) ---- */

static int fetch_one(uint16_t entity, dbd_acct_resp_msg_t **out)
{
	char *where[2] = { NULL, NULL };
	dbd_acct_msg_t req = { .op = DBD_OP_LIST, .entity = entity };
	slurm_msg_t resp;
	int rc;

	if (entity == DBD_ENT_ASSOC || entity == DBD_ENT_RESOURCE ||
	    entity == DBD_ENT_WCKEY) {
		where[0] = xstrdup_printf("cluster=%s", am.cluster);
		req.where = where;
	}
	if (entity == DBD_ENT_RESOURCE)
		req.flags = DBD_ACCT_WITH_ASSOC;   /* each cluster's share */
	rc = net_rpc(am.host, am.port, REQUEST_DBD_ACCT, &req, &resp,
		     am.timeout_ms);
	xfree(where[0]);
	if (rc)
		return rc;
	if (resp.type == RESPONSE_DBD_ACCT && resp.data &&
	    !((dbd_acct_resp_msg_t *)resp.data)->rc) {
		*out = resp.data;
		resp.data = NULL;
	} else if ((entity == DBD_ENT_RESOURCE || entity == DBD_ENT_WCKEY) &&
		   resp.type == RESPONSE_DBD_ACCT) {
		/* a slurmdbd without resources or wckeys: none */
		*out = xmalloc(sizeof(dbd_acct_resp_msg_t));
	} else {
		rc = SLURM_UNEXPECTED_MSG_ERROR;
	}
	msg_free(&resp);
	return rc;
}

static am_snap_t *fetch(void)
{
	dbd_acct_resp_msg_t *lists[AM_LIST_CNT] = { 0 };
	am_snap_t *s = NULL;
	int rc = 0;

	for (int i = 0; i < AM_LIST_CNT && !rc; i++)
		rc = fetch_one(list_entities[i], &lists[i]);
	if (!rc) {
		save_lists(lists);
		s = snap_build(lists);
	} else {
		debug("assoc_mgr: slurmdbd %s:%u: %s", am.host, am.port,
		      slurm_strerror(rc));
	}
	for (int i = 0; i < AM_LIST_CNT; i++)
		msg_body_free(RESPONSE_DBD_ACCT, lists[i]);
	return s;
}

/* ---- installing a snapshot (loop thread) ---- */

static void install(am_snap_t *s)
{
	am_snap_t *old = am.snap;

	am.snap = s;
	am.gen++;
	am_usage_recount(s);
	snap_free(old);
	for (size_t i = 0; i < am.cb_cnt; i++)
		am.cbs[i].cb(am.cbs[i].arg);
	debug("assoc_mgr: %zu associations, %zu QOS, %zu users (generation "
	      "%llu)", s->assoc_cnt, s->qos_cnt, s->user_cnt,
	      (unsigned long long)am.gen);
}

static void on_install(evutil_socket_t fd, short what, void *arg)
{
	am_snap_t *s;

	pthread_mutex_lock(&am.mutex);
	s = am.incoming;
	am.incoming = NULL;
	pthread_mutex_unlock(&am.mutex);
	if (s)
		install(s);
}

static void *loader_main(void *arg)
{
	bool ok = true;

	(void)arg;
	pthread_mutex_lock(&am.mutex);
	while (!am.stopping) {
		struct timespec until;
		am_snap_t *s;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += ok ? ASSOC_MGR_REFRESH_S : RETRY_S;
		while (!am.refresh && !am.stopping &&
		       pthread_cond_timedwait(&am.cond, &am.mutex,
					      &until) != ETIMEDOUT)
			;
		if (am.stopping)
			break;
		am.refresh = false;
		pthread_mutex_unlock(&am.mutex);
		s = fetch();
		if (!s && ok)
			error("assoc_mgr: slurmdbd %s:%u unreachable; using "
			      "the cached associations", am.host, am.port);
		ok = s != NULL;
		pthread_mutex_lock(&am.mutex);
		if (s) {
			snap_free(am.incoming);
			am.incoming = s;
			event_active(am.install_ev, EV_READ, 0);
		}
	}
	pthread_mutex_unlock(&am.mutex);
	return NULL;
}

static int start_loader(struct event_base *base)
{
	sigset_t all, old;
	int rc;

	am.install_ev = event_new(base, -1, 0, on_install, NULL);
	if (!am.install_ev)
		return -1;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&am.thread, NULL, loader_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc)
		return -1;
	am.started = true;
	return 0;
}

/* ---- life ---- */

/* At start, before the loader runs: slurmdbd, waiting a little. */
static am_snap_t *fetch_first(void)
{
	int saved = am.timeout_ms;
	am_snap_t *s;

	am.timeout_ms = FIRST_WAIT_MS;
	s = fetch();
	am.timeout_ms = saved;
	return s;
}

int assoc_mgr_init(const slurm_conf_t *c, struct event_base *base,
		   char *err, size_t errlen)
{
	am_snap_t *s;
	bool from_file = true;

	if (conf_parse_acct_enforce(c->accounting_storage_enforce,
				    &am.enforce, err, errlen) < 0)
		return -1;
	if (!acct_storage_dbd_assocs()) {
		if (am.enforce & ACCT_ENFORCE_ASSOCS)
			info("AccountingStorageEnforce without "
			     "accounting_storage/slurmdbd: nothing enforced");
		am.enforce = 0;
		return 0;
	}
	am.cluster = xstrdup(c->cluster_name);
	am.host = xstrdup(c->accounting_storage_host ?
			  c->accounting_storage_host : "localhost");
	am.port = c->accounting_storage_port;
	am.timeout_ms = c->message_timeout * 1000;
	am.state_path = xstrdup_printf("%s/%s", c->state_save_location,
				       AM_STATE_FILE);
	s = load_file(am.state_path);
	if (!s) {
		/* nothing saved: wait a little for slurmdbd, so that the
		 * first jobs are not refused for want of a snapshot */
		s = fetch_first();
		if (!s)
			error("assoc_mgr: no associations yet (slurmdbd %s:%u "
			      "unreachable, nothing saved)", am.host, am.port);
		from_file = false;
	}
	if (s)
		install(s);
	/* a partition's QOS= unknown to the saved copy may be newer than
	 * it: slurmdbd decides (Slurm stops on an unknown one) */
	if (s && part_mgr_check_qos(c, err, errlen) < 0) {
		if (from_file && (s = fetch_first()))
			install(s);
		if (s && part_mgr_check_qos(c, err, errlen) < 0)
			return -1;
	}
	if (base && start_loader(base) < 0) {
		snprintf(err, errlen, "Unable to start the association loader");
		return -1;
	}
	if (am.started)
		assoc_mgr_refresh();
	return 0;
}

void assoc_mgr_fini(void)
{
	if (am.started) {
		pthread_mutex_lock(&am.mutex);
		am.stopping = true;
		pthread_cond_signal(&am.cond);
		pthread_mutex_unlock(&am.mutex);
		pthread_join(am.thread, NULL);
		am.started = false;
	}
	if (am.install_ev)
		event_free(am.install_ev);
	am.install_ev = NULL;
	snap_free(am.incoming);
	snap_free(am.snap);
	am.incoming = am.snap = NULL;
	xfree(am.cluster);
	xfree(am.host);
	xfree(am.state_path);
	xfree(am.cbs);
	am.cb_cnt = 0;
	am.stopping = false;
}

void assoc_mgr_reconfig(const slurm_conf_t *c)
{
	char err[256];
	uint32_t flags;

	if (!am.started && !am.snap)
		return;                 /* accounting off */
	if (conf_parse_acct_enforce(c->accounting_storage_enforce, &flags,
				    err, sizeof(err)) == 0)
		am.enforce = flags;
	assoc_mgr_refresh();
}

void assoc_mgr_refresh(void)
{
	pthread_mutex_lock(&am.mutex);
	am.refresh = true;
	pthread_cond_signal(&am.cond);
	pthread_mutex_unlock(&am.mutex);
}

void assoc_mgr_rpc_update(net_conn_t *c, slurm_msg_t *m)
{
	debug("ACCOUNTING_UPDATE_MSG from uid=%u peer=%s",
	      (unsigned)m->auth_uid, m->peer);
	assoc_mgr_refresh();
	net_reply_rc(c, SLURM_SUCCESS);
}

int am_install_lists(dbd_acct_resp_msg_t *lists[AM_LIST_CNT])
{
	install(snap_build(lists));
	return 0;
}

void am_set_enforce(uint32_t flags)
{
	am.enforce = flags;
}

/* ---- queries ---- */

bool assoc_mgr_loaded(void)
{
	return am.snap != NULL;
}

uint32_t assoc_mgr_enforce(void)
{
	return am.enforce;
}

uint64_t assoc_mgr_generation(void)
{
	return am.gen;
}

void assoc_mgr_on_reload(void (*cb)(void *arg), void *arg)
{
	am.cbs = xrealloc(am.cbs, (am.cb_cnt + 1) * sizeof(*am.cbs));
	am.cbs[am.cb_cnt].cb = cb;
	am.cbs[am.cb_cnt++].arg = arg;
}

am_snap_t *am_snap(void)
{
	return am.snap;
}

assoc_user_t *assoc_mgr_user(uid_t uid)
{
	return am.snap ? am_index_find_id(am.snap->user_by_uid, uid) : NULL;
}

assoc_user_t *assoc_mgr_user_name(const char *name)
{
	return am.snap && name ? am_index_find(am.snap->user_by_name, name) :
		NULL;
}

/* "user|acct|part" (no snprintf: this is on the scheduler's path). */
static assoc_rec_t *find_key(const char *user, const char *acct,
			     const char *part)
{
	const char *parts[3] = { user, acct, part ? part : "" };
	char key[200];
	size_t n = 0;

	for (int i = 0; i < 3; i++) {
		size_t len = strlen(parts[i]);

		if (n + len + 2 > sizeof(key))
			return NULL;
		memcpy(key + n, parts[i], len);
		n += len;
		key[n++] = i < 2 ? '|' : '\0';
	}
	return am_index_find(am.snap->assoc_by_key, key);
}

assoc_rec_t *assoc_mgr_find(uid_t uid, const char *acct, const char *part)
{
	assoc_user_t *u = assoc_mgr_user(uid);
	assoc_rec_t *a = NULL;
	char lower[80];

	if (!u)
		return NULL;
	if (!acct || !*acct)
		acct = u->default_acct;
	if (strpbrk(acct, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")) {
		if (strlen(acct) >= sizeof(lower))
			return NULL;
		for (size_t i = 0; ; i++) {
			lower[i] = (char)(acct[i] >= 'A' && acct[i] <= 'Z' ?
					  acct[i] + 32 : acct[i]);
			if (!acct[i])
				break;
		}
		acct = lower;
	}
	if (part && *part && am.snap->has_part_assocs)
		a = find_key(u->name, acct, part);
	return a ? a : find_key(u->name, acct, "");
}

assoc_rec_t *assoc_mgr_find_id(uint32_t id)
{
	return am.snap ? am_index_find_id(am.snap->assoc_by_id, id) : NULL;
}

assoc_rec_t *assoc_mgr_find_acct(const char *acct)
{
	return am.snap && acct ? find_key("", acct, "") : NULL;
}

assoc_rec_t **assoc_mgr_all(size_t *cnt)
{
	*cnt = am.snap ? am.snap->assoc_cnt : 0;
	return am.snap ? am.snap->assocs : NULL;
}

assoc_admin_t assoc_mgr_admin_level(uid_t uid)
{
	assoc_user_t *u;

	if (rpc_privilege(uid) == RPC_PRIV_SLURM)
		return ASSOC_ADMIN_SUPER;
	u = assoc_mgr_user(uid);
	return u ? u->admin_level : ASSOC_ADMIN_NONE;
}

bool assoc_mgr_is_coord(uid_t uid, const char *acct)
{
	assoc_user_t *u = assoc_mgr_user(uid);

	if (!u || !u->coord_accts || !acct)
		return false;
	for (assoc_rec_t *a = assoc_mgr_find_acct(acct); a; a = a->parent)
		for (size_t i = 0; u->coord_accts[i]; i++)
			if (!strcmp(u->coord_accts[i], a->acct))
				return true;
	return false;
}

assoc_qos_t *assoc_mgr_qos(const char *name)
{
	return am.snap && name ? am_index_find(am.snap->qos_by_name, name) :
		NULL;
}

assoc_qos_t *assoc_mgr_qos_id(uint32_t id)
{
	return am.snap ? am_index_find_id(am.snap->qos_by_id, id) : NULL;
}

uint32_t assoc_mgr_qos_max_priority(void)
{
	return am.snap ? am.snap->qos_max_prio : 0;
}

/* ---- indexes ---- */

struct am_index {
	char          *key;
	uint64_t       id;
	void          *val;
	UT_hash_handle hh;
};

void am_index_add(am_index_t **ix, const char *key, void *val)
{
	am_index_t *e;

	HASH_FIND_STR(*ix, key, e);
	if (e)
		return;                 /* first one wins */
	e = xmalloc(sizeof(*e));
	e->key = xstrdup(key);
	e->val = val;
	HASH_ADD_KEYPTR(hh, *ix, e->key, strlen(e->key), e);
}

void am_index_add_id(am_index_t **ix, uint64_t id, void *val)
{
	am_index_t *e;

	HASH_FIND(hh, *ix, &id, sizeof(id), e);
	if (e)
		return;
	e = xmalloc(sizeof(*e));
	e->id = id;
	e->val = val;
	HASH_ADD(hh, *ix, id, sizeof(id), e);
}

void *am_index_find(am_index_t *ix, const char *key)
{
	am_index_t *e;

	HASH_FIND_STR(ix, key, e);
	return e ? e->val : NULL;
}

void *am_index_find_id(am_index_t *ix, uint64_t id)
{
	am_index_t *e;

	HASH_FIND(hh, ix, &id, sizeof(id), e);
	return e ? e->val : NULL;
}

void am_index_free(am_index_t **ix)
{
	am_index_t *e, *tmp;

	HASH_ITER(hh, *ix, e, tmp) {
		HASH_DEL(*ix, e);
		xfree(e->key);
		xfree(e);
	}
}
