/* trigger_rpc.c — strigger's requests (trigger.h): who may set, see and
 * clear which trigger, and the checks of a trigger to set.
 *
 * Root and SlurmUser set any trigger.  When SlurmUser is root, others may
 * set job triggers on their own jobs (operators on any); never node,
 * controller or database ones.  When SlurmUser is not root, the
 * controller cannot become another user to run a program: only
 * SlurmUser and root set triggers.  The program must be an executable
 * regular file owned by the trigger's owner or root.  Everyone sees
 * every trigger (as Slurm); a user clears only their own (root,
 * SlurmUser and operators any).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/bitmap.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/job_mgr.h"
#include "ctld/node_mgr.h"
#include "ctld/rpc.h"
#include "ctld/trigger.h"
#include "ctld/trigger_int.h"
#include "slurm/slurm_errno.h"


static bool _trr_super(uid_t uid)
{
	return rpc_privilege(uid) == RPC_PRIV_SLURM;
}

/* The program of t: absolute, a regular file with an execute bit, owned
 * by the trigger's owner or root.  0 or ESLURM_ACCESS_DENIED (logged). */
static int _trr_check_program(const trigger_info_t *t)
{
	char **w = xstrsplit(t->program ? t->program : "", " \t", NULL);
	struct stat st;
	int rc = 0;

	if (!w[0] || w[0][0] != '/' || stat(w[0], &st) < 0) {
		info("trigger program %s not found",
		     w[0] ? w[0] : "(null)");
		rc = ESLURM_ACCESS_DENIED;
	} else if (!S_ISREG(st.st_mode) || !(st.st_mode & 0111)) {
		info("trigger program %s not executable", w[0]);
		rc = ESLURM_ACCESS_DENIED;
	} else if (st.st_uid != 0 && st.st_uid != t->user_id) {
		info("trigger program %s owned by uid %u, not by the "
		     "trigger's owner uid %u", w[0], (unsigned) st.st_uid,
		     (unsigned) t->user_id);
		rc = ESLURM_ACCESS_DENIED;
	}
	xstrarray_free(w);
	return rc;
}

static bool _trr_same(const trigger_info_t *a, const trigger_info_t *b)
{
	return a->res_type == b->res_type && a->trig_type == b->trig_type &&
	       a->offset == b->offset && a->user_id == b->user_id &&
	       a->flags == b->flags && !xstrcmp(a->res_id, b->res_id) &&
	       !xstrcmp(a->program, b->program);
}

/* Check one trigger to set (its owner filled in).  0 or an error. */
static int _trr_check_set(const trigger_info_t *t, uid_t uid)
{
	bitmap_t *bm;
	char *bad = NULL;
	int rc;

	if (!t->trig_type || !t->program || !*t->program ||
	    strlen(t->program) > TRIGGER_PROGRAM_MAX ||
	    t->offset > TRIGGER_OFFSET_MAX || t->offset < -TRIGGER_OFFSET_MAX)
		return SLURM_ERROR;
	if (t->res_type == TRIGGER_RES_TYPE_JOB) {
		char *end = NULL;
		unsigned long id = strtoul(t->res_id ? t->res_id : "", &end,
					   10);
		job_record_t *j = (end && !*end && id) ?
			job_mgr_find((uint32_t) id) : NULL;

		if (!j)
			return ESLURM_INVALID_JOB_ID;
		if (!_trr_super(uid) && !ctld_is_operator(uid) &&
		    j->info.user_id != uid) {
			info("trigger set by uid %u on job %lu of uid %u "
			     "refused", (unsigned) uid, id,
			     (unsigned) j->info.user_id);
			return ESLURM_ACCESS_DENIED;
		}
	} else if (!_trr_super(uid)) {
		error("Security violation, REQUEST_TRIGGER_SET RPC from "
		      "uid=%u (only SlurmUser and root set node, daemon and "
		      "database triggers)", (unsigned) uid);
		return ESLURM_ACCESS_DENIED;
	} else if (t->res_type == TRIGGER_RES_TYPE_NODE && t->res_id &&
		   strcmp(t->res_id, "*")) {
		bm = node_mgr_bitmap(t->res_id, &bad);
		bitmap_destroy(bm);
		if (!bm || bad) {
			xfree(bad);
			return ESLURM_INVALID_NODE_NAME;
		}
	} else if (t->res_type < TRIGGER_RES_TYPE_NODE ||
		   t->res_type > TRIGGER_RES_TYPE_DATABASE) {
		return SLURM_ERROR;
	}
	if ((rc = _trr_check_program(t)))
		return rc;
	for (trig_t *o = trigger_first(); o; o = o->next)
		if (_trr_same(&o->info, t))
			return ESLURM_TRIGGER_DUP;
	return 0;
}

void trigger_rpc_set(net_conn_t *c, slurm_msg_t *m)
{
	trigger_info_msg_t *req = m->data;
	uid_t uid = m->auth_uid;
	const slurm_conf_t *conf = ctld_conf();
	uint32_t never = 0;
	int rc = 0;

	if (!req || !req->cnt) {
		net_reply_rc(c, SLURM_ERROR);
		return;
	}
	/* SlurmUser cannot become another user to run the program: then
	 * only it (and root) may set triggers, as Slurm */
	if (conf->slurm_user_id != 0 && !_trr_super(uid)) {
		error("Security violation, REQUEST_TRIGGER_SET RPC from "
		      "uid=%u (SlurmUser is not root)", (unsigned) uid);
		net_reply_rc(c, ESLURM_ACCESS_DENIED);
		return;
	}
	for (uint32_t i = 0; i < req->cnt && !rc; i++) {
		trigger_info_t *t = &req->triggers[i];

		t->user_id = uid;
		t->group_id = m->auth_gid;
		t->flags &= TRIGGER_FLAG_PERM;
		rc = _trr_check_set(t, uid);
	}
	if (rc) {
		info("REQUEST_TRIGGER_SET from uid=%u: %s", (unsigned) uid,
		     slurm_strerror(rc));
		net_reply_rc(c, rc);
		return;
	}
	for (uint32_t i = 0; i < req->cnt; i++) {
		trig_t *t = xmalloc(sizeof(*t));

		t->info = req->triggers[i];     /* takes its strings */
		memset(&req->triggers[i], 0, sizeof(req->triggers[i]));
		t->info.trig_id = trigger_new_id();
		never |= t->info.trig_type & TRIG_NEVER_SEEN;
		trigger_append(t);
		info("trigger %u set by uid %u: %s %s %s", t->info.trig_id,
		     (unsigned) uid, trigger_type_name(t->info.trig_type),
		     t->info.res_id ? t->info.res_id : "*", t->info.program);
	}
	trigger_changed();
	if (never) {
		char *msg = xstrdup_printf("Sluice's controller does not see "
					   "the event %s happen: this "
					   "trigger never fires",
					   trigger_type_name(never & -never));

		commit_reply_rc(c, SLURM_SUCCESS, msg);
		xfree(msg);
		return;
	}
	commit_reply_rc(c, SLURM_SUCCESS, NULL);
}

/* Does t match filter f (0 / NULL / NO_VAL32: trr_any)? */
static bool _trr_match(const trigger_info_t *t, const trigger_info_t *f)
{
	if (f->trig_id && t->trig_id != f->trig_id)
		return false;
	if (f->user_id != NO_VAL32 && t->user_id != f->user_id)
		return false;
	if (f->res_type == TRIGGER_RES_TYPE_JOB && f->res_id &&
	    (t->res_type != TRIGGER_RES_TYPE_JOB ||
	     xstrcmp(t->res_id, f->res_id)))
		return false;
	return true;
}

static const trigger_info_t trr_any = { .user_id = NO_VAL32 };

void trigger_rpc_get(net_conn_t *c, slurm_msg_t *m)
{
	trigger_info_msg_t *req = m->data, out = { 0 };
	const trigger_info_t *f = req && req->cnt ? &req->triggers[0] : &trr_any;
	size_t n = 0;

	for (trig_t *t = trigger_first(); t; t = t->next)
		n++;
	out.triggers = xcalloc(n ? n : 1, sizeof(*out.triggers));
	for (trig_t *t = trigger_first(); t; t = t->next)
		if (_trr_match(&t->info, f))
			out.triggers[out.cnt++] = t->info;  /* shallow */
	net_reply(c, RESPONSE_TRIGGER_GET, &out);
	xfree(out.triggers);
}

void trigger_rpc_clear(net_conn_t *c, slurm_msg_t *m)
{
	trigger_info_msg_t *req = m->data;
	uid_t uid = m->auth_uid;
	bool all = _trr_super(uid) || ctld_is_operator(uid);
	const trigger_info_t *f;
	trig_t *t, *next;
	int n = 0;

	if (!req || !req->cnt) {
		net_reply_rc(c, ESRCH);
		return;
	}
	f = &req->triggers[0];
	if (!f->trig_id && f->user_id == NO_VAL32 &&
	    !(f->res_type == TRIGGER_RES_TYPE_JOB && f->res_id)) {
		net_reply_rc(c, ESRCH);   /* clears nothing unnamed */
		return;
	}
	for (t = trigger_first(); t; t = next) {
		next = t->next;
		if (!_trr_match(&t->info, f) || (!all && t->info.user_id != uid))
			continue;
		info("trigger %u cleared by uid %u", t->info.trig_id,
		     (unsigned) uid);
		trigger_remove(t);
		n++;
	}
	if (!n) {
		net_reply_rc(c, ESRCH);
		return;
	}
	commit_reply_rc(c, SLURM_SUCCESS, NULL);
}
