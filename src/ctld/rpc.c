/* rpc.c — the controller's dispatch table (rpc.h).
 *
 * One row per request type: the handler, the least privilege of its
 * caller, which PrivateData bit hides what it answers (refused whole, or
 * filtered record by record through rpc_viewer/rpc_hides_job), and
 * CHANGE: the request changes the state that StateSaveLocation holds, so
 * its handler answers through commit.h (the reply leaves once the change
 * is journaled), and while the journal cannot be written (commit_broken())
 * it is refused with ESLURM_WRITING_TO_FILE before its handler runs:
 * nothing changes that would not be saved.  Node messages (registration,
 * completion, epilog) are operator-only: slurmd runs as root or
 * SlurmUser; slurmd sends a refused one again.  A registration is a
 * report of what is, not a change asked for: it is taken and saved with
 * the next snapshot.  MAY_CHANGE: the handler decides, for the part of
 * the request that is a change asked for (a slurmd -Z registering a new
 * dynamic node): it refuses that part itself while commit_broken() and
 * answers it through commit.h; the rest is answered at once.
 */
#include <errno.h>
#include <stdbool.h>
#include <errno.h>
#include <stddef.h>
#include <time.h>

#include "common/acct_limits.h"
#include "common/debug_flags.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "ctld/assoc_mgr.h"
#include "ctld/auth_token.h"
#include "ctld/bcast_cred.h"
#include "ctld/commit.h"
#include "ctld/config_info.h"
#include "ctld/conf_serve.h"
#include "ctld/controller.h"
#include "ctld/debug_rpc.h"
#include "ctld/fairshare.h"
#include "ctld/ha.h"
#include "ctld/job_info_rpc.h"
#include "ctld/job_inactive.h"
#include "ctld/het_job.h"
#include "ctld/job_mgr.h"
#include "ctld/job_notify.h"
#include "ctld/job_nprolog.h"
#include "ctld/job_output.h"
#include "ctld/job_profile.h"
#include "ctld/job_track.h"
#include "ctld/job_will_run.h"
#include "ctld/lic_mgr.h"
#include "ctld/node_dyn.h"
#include "ctld/node_mgr.h"
#include "ctld/node_reboot.h"
#include "ctld/topo_mgr.h"
#include "ctld/part_mgr.h"
#include "ctld/priority.h"
#include "ctld/rate_limit.h"
#include "ctld/power_save.h"
#include "ctld/resv_mgr.h"
#include "ctld/rpc.h"
#include "ctld/stats.h"
#include "ctld/job_ckpt.h"
#include "ctld/crontab.h"
#include "ctld/trigger.h"
#include "ctld/step_mgr.h"
#include "slurm/slurm_errno.h"

typedef void (*rpc_handler_f)(net_conn_t *c, slurm_msg_t *m);

/* What a row's PrivateData bit does to a user it applies to. */
typedef enum {
	RPC_PD_REFUSE,        /* the whole answer: refused */
	RPC_PD_FILTER,        /* other users' records: left out */
} rpc_pd_t;

typedef struct {
	uint16_t      type;
	rpc_priv_t    need;           /* the caller's least privilege */
	rpc_handler_f handler;
	uint32_t      private_data;   /* PRIVATE_DATA_* that applies */
	rpc_pd_t      pd;             /* and how */
	bool          change;         /* CHANGE: journaled, refused while
				       * the journal cannot be written */
	bool          may_change;     /* MAY_CHANGE: the handler decides */
	int           deny_rc;        /* what a caller below need gets
				       * (0: ESLURM_USER_ID_MISSING) */
} rpc_row_t;

#define CHANGE .change = true
#define MAY_CHANGE .may_change = true

rpc_priv_t rpc_privilege(uid_t uid)
{
	const slurm_conf_t *c = ctld_conf();
	assoc_user_t *u;

	if (uid == 0 || (c && uid == c->slurm_user_id))
		return RPC_PRIV_SLURM;
	u = assoc_mgr_loaded() ? assoc_mgr_user(uid) : NULL;
	if (!u)
		return RPC_PRIV_USER;
	return u->admin_level == ASSOC_ADMIN_SUPER ? RPC_PRIV_ADMIN :
	       u->admin_level == ASSOC_ADMIN_OPERATOR ? RPC_PRIV_OPERATOR :
	       RPC_PRIV_USER;
}

static void _ping(net_conn_t *c, slurm_msg_t *m)
{
	net_reply_rc(c, SLURM_SUCCESS);
}

static void _reconfigure(net_conn_t *c, slurm_msg_t *m)
{
	info("Processing Reconfiguration Request from uid=%u",
	     (unsigned) m->auth_uid);
	net_reply_rc(c, ctld_reconfigure());
}

static void _shutdown(net_conn_t *c, slurm_msg_t *m)
{
	shutdown_msg_t *s = m->data;

	info("Shutdown request from uid=%u", (unsigned) m->auth_uid);
	if (!s || s->options != 1)
		node_mgr_shutdown_slurmds();
	net_reply_rc(c, SLURM_SUCCESS);
	ctld_shutdown();
}

static const rpc_row_t rpc_table[] = {
	{ REQUEST_SUBMIT_BATCH_JOB,      RPC_PRIV_USER, job_mgr_rpc_submit,
	  CHANGE },
	{ REQUEST_SUBMIT_BATCH_HET_JOB,  RPC_PRIV_USER, het_job_rpc_submit,
	  CHANGE },
	{ REQUEST_HET_JOB_ALLOCATION,    RPC_PRIV_USER, het_job_rpc_allocate,
	  CHANGE },
	{ REQUEST_JOB_WILL_RUN,          RPC_PRIV_USER, job_mgr_rpc_will_run },
	{ REQUEST_JOB_INFO,              RPC_PRIV_USER, job_mgr_rpc_info,
	  PRIVATE_DATA_JOBS, RPC_PD_FILTER },
	{ REQUEST_BATCH_SCRIPT,          RPC_PRIV_USER,
	  job_mgr_rpc_batch_script },
	{ REQUEST_NODE_INFO,             RPC_PRIV_USER, node_mgr_rpc_info,
	  PRIVATE_DATA_NODES },
	{ REQUEST_PARTITION_INFO,        RPC_PRIV_USER, part_mgr_rpc_info,
	  PRIVATE_DATA_PARTITIONS },
	/* the reservations the user may use (resv_rpc.c), as Slurm */
	{ REQUEST_RESERVATION_INFO,      RPC_PRIV_USER, resv_mgr_rpc_info,
	  PRIVATE_DATA_RESERVATIONS, RPC_PD_FILTER },
	{ REQUEST_CREATE_RESERVATION,    RPC_PRIV_OPERATOR, resv_mgr_rpc_create,
	  CHANGE },
	{ REQUEST_UPDATE_RESERVATION,    RPC_PRIV_OPERATOR, resv_mgr_rpc_update,
	  CHANGE },
	{ REQUEST_DELETE_RESERVATION,    RPC_PRIV_OPERATOR, resv_mgr_rpc_delete,
	  CHANGE },
	{ REQUEST_BUILD_INFO,            RPC_PRIV_USER, config_info_rpc },
	{ REQUEST_LICENSE_INFO,          RPC_PRIV_USER, lic_mgr_rpc_info },
	{ REQUEST_TOPO_INFO,             RPC_PRIV_USER, topo_mgr_rpc_info },
	{ REQUEST_CANCEL_JOB,            RPC_PRIV_USER, job_mgr_rpc_cancel,
	  CHANGE },
	{ REQUEST_KILL_JOBS,             RPC_PRIV_USER, job_mgr_rpc_kill_jobs,
	  CHANGE },
	{ REQUEST_JOB_HOLD,              RPC_PRIV_USER, job_mgr_rpc_hold,
	  CHANGE },
	{ REQUEST_UPDATE_JOB,            RPC_PRIV_USER, job_mgr_rpc_update,
	  CHANGE },
	{ REQUEST_SUSPEND,               RPC_PRIV_USER, job_mgr_rpc_suspend,
	  CHANGE },
	{ REQUEST_JOB_REQUEUE,           RPC_PRIV_USER, job_mgr_rpc_requeue,
	  CHANGE },
	{ REQUEST_CHECKPOINT,            RPC_PRIV_USER, job_ckpt_rpc,
	  CHANGE },
	{ REQUEST_TOP_JOB,               RPC_PRIV_USER, job_mgr_rpc_top,
	  CHANGE },
	{ REQUEST_PING,                  RPC_PRIV_USER, _ping },
	{ REQUEST_AUTH_TOKEN,            RPC_PRIV_USER, auth_token_rpc },
	{ REQUEST_CONTROL_STATUS,        RPC_PRIV_USER, ha_rpc_control_status },
	{ REQUEST_CONTROL,               RPC_PRIV_SLURM,  ha_rpc_control },
	{ REQUEST_TAKEOVER,              RPC_PRIV_SLURM,  ha_rpc_takeover },
	{ REQUEST_PRIORITY_FACTORS,      RPC_PRIV_USER, priority_rpc_factors,
	  PRIVATE_DATA_JOBS, RPC_PD_FILTER },
	/* the user's own associations (fairshare.c), as Slurm */
	{ REQUEST_SHARE_INFO,            RPC_PRIV_USER, fairshare_rpc_share_info,
	  PRIVATE_DATA_USAGE, RPC_PD_FILTER },
	{ REQUEST_STATS_INFO,            RPC_PRIV_USER, stats_rpc_info },
	{ REQUEST_ASSOC_MGR_INFO,        RPC_PRIV_USER, assoc_mgr_rpc_show },
	{ REQUEST_UPDATE_NODE,           RPC_PRIV_ADMIN,  node_mgr_rpc_update,
	  CHANGE },
	/* as Slurm: root, SlurmUser and AdminLevel=Admin; a refused reboot
	 * is answered EACCES ("Permission denied") */
	{ REQUEST_REBOOT_NODES,          RPC_PRIV_ADMIN, node_reboot_rpc,
	  CHANGE, .deny_rc = EACCES },
	/* scontrol power: root, SlurmUser and AdminLevel=Admin */
	{ REQUEST_POWER_NODES,           RPC_PRIV_ADMIN, power_save_rpc,
	  CHANGE },
	/* partitions: as Slurm, root, SlurmUser and AdminLevel=Admin */
	{ REQUEST_CREATE_PARTITION,      RPC_PRIV_ADMIN,  part_mgr_rpc_create,
	  CHANGE },
	{ REQUEST_UPDATE_PARTITION,      RPC_PRIV_ADMIN,  part_mgr_rpc_update,
	  CHANGE },
	{ REQUEST_DELETE_PARTITION,      RPC_PRIV_ADMIN,  part_mgr_rpc_delete,
	  CHANGE },
	/* dynamic nodes: as Slurm, root, SlurmUser and AdminLevel=Admin */
	{ REQUEST_CREATE_NODE,           RPC_PRIV_ADMIN,  node_dyn_rpc_create,
	  CHANGE },
	{ REQUEST_DELETE_NODE,           RPC_PRIV_ADMIN,  node_dyn_rpc_delete,
	  CHANGE },
	{ REQUEST_RECONFIGURE,           RPC_PRIV_ADMIN,  _reconfigure },
	/* configless: any authenticated user, as Slurm (the commands
	 * with SLURM_CONF_SERVER ask too); refused when not enabled */
	{ REQUEST_CONFIG,                RPC_PRIV_USER, conf_serve_rpc },
	/* sackd runs as root or SlurmUser: the controller will connect
	 * back to where it asks from */
	{ REQUEST_SACKD_REGISTER,        RPC_PRIV_SLURM, conf_serve_rpc_sackd },
	/* not saved: a reconfigure or restart restores the config's */
	{ REQUEST_SET_DEBUG_LEVEL,       RPC_PRIV_ADMIN,  debug_rpc_set_level,
	  .deny_rc = EACCES },
	{ REQUEST_SET_DEBUG_FLAGS,       RPC_PRIV_ADMIN,  debug_rpc_set_flags,
	  .deny_rc = EACCES },
	{ REQUEST_SHUTDOWN,              RPC_PRIV_ADMIN,  _shutdown },
	/* a new dynamic node's (slurmd -Z) waits for its JREC_DYN_NODES */
	{ MESSAGE_NODE_REGISTRATION,     RPC_PRIV_SLURM,  node_mgr_rpc_register,
	  MAY_CHANGE },
	{ REQUEST_COMPLETE_BATCH_SCRIPT, RPC_PRIV_SLURM,  job_mgr_rpc_complete,
	  CHANGE },
	{ MESSAGE_EPILOG_COMPLETE,       RPC_PRIV_SLURM,  job_mgr_rpc_epilog,
	  CHANGE },
	{ REQUEST_COMPLETE_PROLOG,       RPC_PRIV_SLURM,  job_nprolog_rpc_complete,
	  CHANGE },
	{ REQUEST_RESOURCE_ALLOCATION,   RPC_PRIV_USER, job_mgr_rpc_allocate,
	  CHANGE },
	{ REQUEST_COMPLETE_JOB_ALLOCATION, RPC_PRIV_USER, job_mgr_rpc_complete_alloc,
	  CHANGE },
	{ REQUEST_JOB_STEP_CREATE,       RPC_PRIV_USER, step_mgr_rpc_create,
	  CHANGE },
	{ REQUEST_JOB_STEP_INFO,         RPC_PRIV_USER, step_mgr_rpc_info,
	  PRIVATE_DATA_JOBS, RPC_PD_FILTER },
	{ REQUEST_STEP_LAYOUT,           RPC_PRIV_USER, step_mgr_rpc_layout,
	  PRIVATE_DATA_JOBS, RPC_PD_FILTER },
	{ REQUEST_STEP_COMPLETE,         RPC_PRIV_SLURM,  step_mgr_rpc_complete,
	  CHANGE },
	/* the step's user or an operator (step_abort.c) */
	{ REQUEST_STEP_ABORT,            RPC_PRIV_USER,   step_mgr_rpc_abort,
	  CHANGE },
	{ ACCOUNTING_UPDATE_MSG,         RPC_PRIV_SLURM,  assoc_mgr_rpc_update },
	/* run tracking: not journaled, outboxed to slurmdbd (job_track.h);
	 * the reply waits for the outbox's fdatasync */
	{ REQUEST_JOB_TRACK,             RPC_PRIV_USER, job_track_rpc,
	  CHANGE },
	/* profiled steps' samples from their stepd: outboxed to slurmdbd
	 * like run tracking (job_profile.h) */
	{ REQUEST_JOB_PROFILE,           RPC_PRIV_SLURM, job_profile_rpc,
	  CHANGE },
	/* the job's user, operators, root and SlurmUser only, whatever
	 * PrivateData says (job_output.h); answered when the node is */
	{ REQUEST_JOB_OUTPUT,            RPC_PRIV_USER, job_output_rpc },
	/* sbcast/sgather: the job's user, operators, root and SlurmUser
	 * (bcast_cred.h); nothing changes, nothing journaled */
	{ REQUEST_SBCAST_CRED,           RPC_PRIV_USER, bcast_cred_rpc },
	/* scontrol notify: the job's user, operators (job_notify.c);
	 * nothing saved */
	{ REQUEST_JOB_NOTIFY,            RPC_PRIV_USER, job_notify_rpc },
	/* InactiveLimit: in memory only, not journaled (job_inactive.h) */
	{ REQUEST_ALLOC_HEARTBEAT,       RPC_PRIV_USER,
	  job_inactive_rpc_heartbeat },
	/* a user's own crontab; operators anyone's (crontab.c) */
	{ REQUEST_UPDATE_CRONTAB,        RPC_PRIV_USER, crontab_rpc_update,
	  CHANGE },
	{ REQUEST_CRONTAB,               RPC_PRIV_USER, crontab_rpc_get },
	/* who may set, see and clear which trigger: trigger.c */
	{ REQUEST_TRIGGER_SET,           RPC_PRIV_USER, trigger_rpc_set,
	  CHANGE },
	{ REQUEST_TRIGGER_GET,           RPC_PRIV_USER, trigger_rpc_get },
	{ REQUEST_TRIGGER_CLEAR,         RPC_PRIV_USER, trigger_rpc_clear,
	  CHANGE },
};

static const rpc_row_t *_find(uint16_t type)
{
	for (size_t i = 0; i < sizeof(rpc_table) / sizeof(rpc_table[0]); i++)
		if (rpc_table[i].type == type)
			return &rpc_table[i];
	return NULL;
}

/* A string longer than its accounting column (acct_limits.h) is refused
 * here, for every request type that carries one, before any handler. */
static bool _too_long(net_conn_t *conn, const slurm_msg_t *msg)
{
	char *why = NULL;
	int rc = acct_limits_msg(msg->type, msg->data, &why);

	if (!rc)
		return false;
	info("%s from uid=%u peer=%s: %s: %s", msg_type_name(msg->type),
	     (unsigned) msg->auth_uid, msg->peer, slurm_strerror(rc),
	     why ? why : "");
	xfree(why);
	net_reply_rc(conn, rc);
	return true;
}

rpc_viewer_t rpc_viewer(const slurm_msg_t *m)
{
	const rpc_row_t *row = _find(m->type);
	rpc_viewer_t v = { .uid = m->auth_uid };
	assoc_user_t *u;

	v.hide = row && row->private_data && row->pd == RPC_PD_FILTER &&
		 ctld_hides(row->private_data, m->auth_uid);
	if (v.hide && (row->private_data & PRIVATE_DATA_JOBS) &&
	    assoc_mgr_loaded() && (u = assoc_mgr_user(m->auth_uid)))
		v.coord = u->coord_accts && u->coord_accts[0];
	return v;
}

bool rpc_hides_job(const rpc_viewer_t *v, const job_record_t *j)
{
	return v->hide && j->info.user_id != v->uid &&
	       !(v->coord && assoc_mgr_is_coord(v->uid, j->info.account));
}

void rpc_dispatch(net_conn_t *conn, slurm_msg_t *msg, void *arg)
{
	const rpc_row_t *row = _find(msg->type);
	uint64_t t0 = stats_now_usec();
	uint16_t type = msg->type;
	uint32_t uid = msg->auth_uid;
	rpc_priv_t priv;

	debug2("Processing RPC: %s from uid=%u peer=%s",
	       msg_type_name(msg->type), (unsigned) msg->auth_uid, msg->peer);
	log_flag(PROTOCOL, "%s: received opcode %s from %s uid %u", __func__,
		 msg_type_name(msg->type), msg->peer,
		 (unsigned) msg->auth_uid);
	if (!row) {
		error("invalid RPC msg_type=%u from uid=%u peer=%s", msg->type,
		      (unsigned) msg->auth_uid, msg->peer);
		net_reply_rc(conn, SLURM_UNEXPECTED_MSG_ERROR);
		return;
	}
	if (ha_relinquishing() && type != REQUEST_PING &&
	    type != REQUEST_CONTROL_STATUS && type != REQUEST_CONTROL) {
		/* handing over: the next controller will answer */
		net_reply_rc(conn, ESLURM_IN_STANDBY_MODE);
		return;
	}
	priv = rpc_privilege(msg->auth_uid);
	if (priv < RPC_PRIV_OPERATOR && !rl_allow(msg->auth_uid, time(NULL))) {
		net_reply_rc(conn, SLURMCTLD_COMMUNICATIONS_BACKOFF);
		return;
	}
	if (priv < row->need) {
		error("Security violation, %s RPC from uid=%u peer=%s",
		      msg_type_name(msg->type), (unsigned) msg->auth_uid,
		      msg->peer);
		net_reply_rc(conn, row->deny_rc ? row->deny_rc :
				   ESLURM_USER_ID_MISSING);
		return;
	}
	if (row->private_data && row->pd == RPC_PD_REFUSE &&
	    ctld_hides(row->private_data, msg->auth_uid)) {
		error("Security violation, %s RPC from uid=%u peer=%s (PrivateData)",
		      msg_type_name(msg->type), (unsigned) msg->auth_uid,
		      msg->peer);
		net_reply_rc(conn, ESLURM_ACCESS_DENIED);
		return;
	}
	if (ctld_restarting() && !row->change) {
		/* memory is not what is on disk: let the restarted controller
		 * answer (the client sees a restart) */
		net_conn_drop(conn);
		return;
	}
	if (_too_long(conn, msg))
		return;
	if (row->change && commit_broken()) {
		error("%s RPC from uid=%u peer=%s refused: state cannot be "
		      "saved in %s", msg_type_name(msg->type),
		      (unsigned) msg->auth_uid, msg->peer,
		      ctld_conf()->state_save_location);
		net_reply_rc(conn, ESLURM_WRITING_TO_FILE);
		return;
	}
	commit_handling(row->change ? 1 : row->may_change ? 2 : 0);
	row->handler(conn, msg);
	commit_handling(-1);
	stats_rpc(type, uid, stats_now_usec() - t0);
}
