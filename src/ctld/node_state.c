/* node_state.c — node state machine: registration, ping and not
 * responding, DOWN, drain/resume updates, node info (node_mgr.h). */
#include <inttypes.h>
#include <string.h>

#include "common/acct_gather_energy.h"
#include "common/log.h"
#include "common/msg.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/trigger.h"
#include "ctld/acct_job.h"
#include "ctld/agent.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/job_mgr.h"
#include "ctld/node_dyn.h"
#include "ctld/node_mgr.h"
#include "ctld/node_reboot.h"
#include "ctld/node_state.h"
#include "ctld/power_save.h"
#include "ctld/resv_mgr.h"
#include "ctld/sched.h"
#include "slurm/slurm_errno.h"

#define BASE(n) ((n)->info.node_state & NODE_STATE_BASE)

/* The DRAIN flag: touches the saved node states when it changes. */
static void _set_drain(node_record_t *n, bool on)
{
	if (!(n->info.node_state & NODE_STATE_DRAIN) != !on)
		node_mgr_saved_touch();
	if (on)
		n->info.node_state |= NODE_STATE_DRAIN;
	else
		n->info.node_state &= ~NODE_STATE_DRAIN;
}

static void _set_no_resp(node_record_t *n, bool no_resp)
{
	if (n->down_no_resp != no_resp)
		node_mgr_saved_touch();
	n->down_no_resp = no_resp;
}

static void _set_base(node_record_t *n, uint32_t base)
{
	if ((BASE(n) == NODE_STATE_DOWN) != (base == NODE_STATE_DOWN))
		node_mgr_saved_touch();
	n->info.node_state = (n->info.node_state & ~NODE_STATE_BASE) | base;
	trigger_node_state(n);          /* before its jobs are requeued */
}

void node_state_refresh(node_record_t *n)
{
	uint32_t base = BASE(n);

	if (base == NODE_STATE_IDLE || base == NODE_STATE_MIXED ||
	    base == NODE_STATE_ALLOCATED) {
		if (!n->info.alloc_cpus)
			base = NODE_STATE_IDLE;
		else if (n->info.alloc_cpus >= n->info.cpus)
			base = NODE_STATE_ALLOCATED;
		else
			base = NODE_STATE_MIXED;
		_set_base(n, base);
	}
	if (n->comp_cnt)
		n->info.node_state |= NODE_STATE_COMPLETING;
	else
		n->info.node_state &= ~NODE_STATE_COMPLETING;
	trigger_node_state(n);          /* down, up, drained ... */
}

static void _put_reason(node_record_t *n, const char *reason, uint32_t uid)
{
	node_mgr_saved_touch();
	xfree(n->info.reason);
	n->info.reason = xstrdup(reason);
	n->info.reason_uid = reason ? uid : 0;
	n->info.reason_time = reason ? time(NULL) : 0;
}

/* A new reason: also an accounting event (the old one ends). */
static void _set_reason(node_record_t *n, const char *reason, uint32_t uid)
{
	char *old = n->info.reason;
	time_t old_time = n->info.reason_time;

	if (!old && !reason)
		return;
	n->info.reason = NULL;
	_put_reason(n, reason, uid);
	acct_node_reason(n, old, old_time);
	xfree(old);
}

void node_state_carry(node_record_t *n, const node_record_t *old)
{
	node_mgr_saved_touch();
	n->info.node_state = old->info.node_state;
	_put_reason(n, old->info.reason, old->info.reason_uid);
	n->info.reason_time = old->info.reason_time;
	n->down_no_resp = old->down_no_resp;
	n->last_response = old->last_response;
	n->boot_req_time = old->boot_req_time;
	n->reboot_asap = old->reboot_asap;
	n->info.next_state = old->info.next_state;
	n->power_time = old->power_time;
	if (old->info.node_state & NODE_STATE_CLOUD)
		node_mgr_set_addr(n, old->info.node_addr,
				  old->info.node_hostname);
	xfree(n->info.version);
	n->info.version = xstrdup(old->info.version);
	xfree(n->info.arch);
	n->info.arch = xstrdup(old->info.arch);
	xfree(n->info.os);
	n->info.os = xstrdup(old->info.os);
	n->info.boot_time = old->info.boot_time;
	n->info.slurmd_start_time = old->info.slurmd_start_time;
	node_state_refresh(n);
}

bool node_state_worth_saving(const node_record_t *n)
{
	return BASE(n) == NODE_STATE_DOWN ||
	       (n->info.node_state & (NODE_STATE_DRAIN |
				      NODE_STATE_REBOOT_REQUESTED |
				      NODE_STATE_REBOOT_ISSUED |
				      NODE_STATE_CLOUD | POWER_STATE_FLAGS)) ||
	       n->info.reason;
}

void node_state_restore(node_record_t *n, uint32_t state, const char *reason,
			uint32_t uid, time_t when, bool no_resp)
{
	uint32_t base = (state & NODE_STATE_BASE) == NODE_STATE_DOWN ?
		NODE_STATE_DOWN : NODE_STATE_UNKNOWN;

	node_mgr_saved_touch();
	n->info.node_state = base | (state & NODE_STATE_DRAIN);
	_put_reason(n, reason, uid);
	n->info.reason_time = when;
	n->down_no_resp = no_resp;
}

/* ---- DOWN ---- */

static void _set_down(node_record_t *n, const char *reason, uint32_t uid,
		      bool no_resp)
{
	_set_base(n, NODE_STATE_DOWN);
	_set_reason(n, reason, uid);
	_set_no_resp(n, no_resp);
	job_mgr_node_fail(n);
	node_state_refresh(n);
	commit_dirty();
	sched_trigger();
}

void node_state_set_drain(node_record_t *n, bool on)
{
	_set_drain(n, on);
}

void node_state_set_base(node_record_t *n, uint32_t base)
{
	_set_base(n, base);
}

void node_state_set_reason(node_record_t *n, const char *reason,
			   uint32_t uid)
{
	_set_reason(n, reason, uid);
}

void node_state_set_down(node_record_t *n, const char *reason, uint32_t uid)
{
	_set_down(n, reason, uid, false);
}

static void _return_to_service(node_record_t *n)
{
	_set_base(n, NODE_STATE_IDLE);
	if (n->down_no_resp || !(n->info.node_state & NODE_STATE_DRAIN))
		_set_reason(n, NULL, 0);
	_set_no_resp(n, false);
	node_state_refresh(n);
	info("node %s returned to service", n->info.name);
}

/* ---- registration ---- */

static char *_low_resources(const node_record_t *n,
			    const node_registration_msg_t *r)
{
	uint32_t cfg = n->cfg_sockets * n->cfg_cores * n->cfg_threads;
	uint32_t rep = (r->sockets ? r->sockets : 1) *
		       (r->cores ? r->cores : 1) * (r->threads ? r->threads : 1);
	const char *sp = conf_get(ctld_conf(), "SlurmdParameters");
	char *why = NULL;

	/* config_overrides: slurm.conf's node sizes win over the hardware */
	if (sp && strstr(sp, "config_overrides"))
		return NULL;

	if (rep < cfg)
		xstrcat(&why, "Low socket*core*thread count");
	if (r->cpus < n->cfg_cpus)
		xstrfmtcat(&why, "%sLow CPUs", why ? ", " : "");
	if (r->real_memory < n->cfg_memory)
		xstrfmtcat(&why, "%sLow RealMemory (reported:%" PRIu64
			   " < 100.00%% of configured:%" PRIu64 ")",
			   why ? ", " : "", r->real_memory, n->cfg_memory);
	if (r->tmp_disk < n->info.tmp_disk)
		xstrfmtcat(&why, "%sLow TmpDisk (reported:%u < 100.00%% of "
			   "configured:%u)", why ? ", " : "", r->tmp_disk,
			   n->info.tmp_disk);
	return why;
}

static void _record_registration(node_record_t *n,
				 const node_registration_msg_t *r)
{
	node_info_t *i = &n->info;

	xfree(i->arch);
	i->arch = xstrdup(r->arch);
	xfree(i->os);
	i->os = xstrdup(r->os);
	xfree(i->version);
	i->version = xstrdup(r->version);
	if (r->hostname) {
		xfree(i->node_hostname);
		i->node_hostname = xstrdup(r->hostname);
	}
	i->boot_time = r->boot_time;
	i->slurmd_start_time = r->slurmd_start_time;
	i->free_mem = r->free_mem;
	i->cpu_load = r->cpu_load;
	node_mgr_set_gres_cores(n, r->gres_cores);
	n->last_response = time(NULL);
	if (!i->last_busy)
		i->last_busy = n->last_response;
}

static void _terminate_stray(node_record_t *n, uint32_t job_id)
{
	node_signal_msg_t *s = xmalloc(sizeof(*s));

	s->job_id = job_id;
	s->step_id = NO_VAL32;
	s->signal = 9;
	s->kill_wait = ctld_conf()->kill_wait;
	s->job_state = JOB_CANCELLED;
	s->nodes = xstrdup(n->info.name);
	s->uid = s->gid = NO_VAL32;     /* user_name NULL: not known */
	info("Killing unknown JobId=%u on node %s", job_id, n->info.name);
	agent_send_rc(n->info.node_addr, n->info.port, REQUEST_TERMINATE_JOB, s,
		      ctld_conf()->message_timeout * 1000, NULL, NULL);
}

/* Drain a node that registers with less than slurm.conf says; false if
 * so (not a valid configuration: a DOWN node stays DOWN). */
static bool _check_low(node_record_t *n, const node_registration_msg_t *r)
{
	char *why = _low_resources(n, r);

	if (!why)
		return true;
	if (!(n->info.node_state & NODE_STATE_DRAIN) ||
	    xstrcmp(why, n->info.reason)) {
		error("Setting node %s state to DRAIN with reason:%s",
		      n->info.name, why);
		_set_drain(n, true);
		_set_reason(n, why, ctld_conf()->slurm_user_id);
	}
	xfree(why);
	return false;
}

void node_mgr_drain(node_record_t *n, const char *reason, uint32_t uid)
{
	_set_drain(n, true);
	_set_reason(n, reason, uid);
	node_state_refresh(n);
	commit_dirty();
}

void node_mgr_rpc_register(net_conn_t *c, slurm_msg_t *m)
{
	node_registration_msg_t *r = m->data;
	node_record_t *n = r ? node_mgr_find(r->node_name) : NULL;
	uint16_t rts = ctld_conf()->return_to_service;
	bool valid, was_usable;
	uint32_t i;

	bool created = false;

	if (!n && r && r->dyn_conf) {           /* slurmd -Z */
		int rc;

		/* a new node is a change asked for (rpc.c MAY_CHANGE): not
		 * made while it could not be saved; slurmd sends it again */
		if (commit_broken()) {
			error("Dynamic node registration of %s from %s refused: "
			      "state cannot be saved in %s", r->node_name
			      ? r->node_name : "(null)", m->peer,
			      ctld_conf()->state_save_location);
			net_reply_rc(c, ESLURM_WRITING_TO_FILE);
			return;
		}
		if ((rc = node_dyn_register(r, m->peer, &n))) {
			net_reply_rc(c, rc);
			return;
		}
		created = true;
	}
	if (!n) {
		error("Node %s not found (registration from %s)",
		      r && r->node_name ? r->node_name : "(null)", m->peer);
		net_reply_rc(c, ESLURM_INVALID_NODE_NAME);
		return;
	}
	{
		char pv[16];

		debug("Node %s registered (startup=%d) from %s, protocol "
		      "version %s", n->info.name, r->startup, m->peer,
		      proto_str(m->version, pv, sizeof(pv)));
	}
	was_usable = node_mgr_usable(n);
	_record_registration(n, r);
	if (n->info.node_state & NODE_STATE_NO_RESPOND) {
		n->info.node_state &= ~NODE_STATE_NO_RESPOND;
		info("Node %s now responding", n->info.name);
	}
	valid = _check_low(n, r);
	power_save_registered(n, m->peer);
	/* A node being rebooted: node_reboot.c decides (back with a later
	 * boot time, or still waiting).  ReturnToService: 0 a DOWN node
	 * stays DOWN until an admin resumes it; 1 it returns if it was DOWN
	 * for not responding; 2 it returns whatever the reason; either only
	 * with a valid configuration */
	if (node_reboot_registered(n, r->boot_time, valid)) {
		/* done */
	} else if (BASE(n) == NODE_STATE_UNKNOWN ||
		   (BASE(n) == NODE_STATE_FUTURE && n->dyn_line)) {
		/* a dynamic node made FUTURE waits for this slurmd */
		_set_base(n, NODE_STATE_IDLE);
	} else if (BASE(n) == NODE_STATE_DOWN && valid &&
		   ((rts == 1 && n->down_no_resp) || rts == 2)) {
		_return_to_service(n);
	}
	node_state_refresh(n);
	for (i = 0; i < r->job_cnt && r->job_ids; i++)
		if (!job_mgr_on_node(r->job_ids[i], n))
			_terminate_stray(n, r->job_ids[i]);
	job_mgr_check_missing(n, r->job_ids, r->job_ids ? r->job_cnt : 0);
	commit_dirty();
	/* a pass only for a node that is new, restarted, or usable now (or
	 * no longer): the same node registering again (asked by a ping)
	 * changes nothing a pass sees, and 16,384 nodes registering at
	 * once would ask for 16,384 passes over every node */
	if (created || r->startup || node_mgr_usable(n) != was_usable)
		sched_trigger();
	/* acknowledged means on disk: the new node's JREC_DYN_NODES first
	 * (a controller killed before it has none, and slurmd, unanswered,
	 * registers it again with the next one) */
	if (created)
		commit_reply_rc(c, SLURM_SUCCESS, NULL);
	else
		net_reply_rc(c, SLURM_SUCCESS);
}

/* ---- ping ---- */

static void _not_responding(node_record_t *n, time_t now)
{
	uint16_t tmo = ctld_conf()->slurmd_timeout;

	if (power_save_no_ping(n))      /* off, or on its way up or down */
		return;
	if (!(n->info.node_state & NODE_STATE_NO_RESPOND)) {
		n->info.node_state |= NODE_STATE_NO_RESPOND;
		debug("Node %s not responding", n->info.name);
	}
	if (!tmo || now - n->last_response < tmo || BASE(n) == NODE_STATE_DOWN)
		return;
	error("Nodes %s not responding, setting DOWN", n->info.name);
	_set_down(n, "Not responding", ctld_conf()->slurm_user_id, true);
}

/* acct_gather_energy/rapl: after each answered ping the node's energy
 * (REQUEST_ACCT_GATHER_UPDATE) is asked for on a worker, stored on the
 * loop (scontrol show node CurrentWatts, AveWatts). */
typedef struct {
	uint32_t gen;
	uint32_t index;
	char    *addr;
	uint16_t port;
	int      timeout_ms;
	int      rc;
	acct_gather_energy_msg_t e;
} energy_arg_t;

static void _energy_work(void *arg)
{
	energy_arg_t *a = arg;
	slurm_msg_t resp = { 0 };

	a->rc = net_rpc(a->addr, a->port, REQUEST_ACCT_GATHER_UPDATE, NULL,
			&resp, a->timeout_ms);
	if (!a->rc && resp.type == RESPONSE_ACCT_GATHER_UPDATE && resp.data)
		a->e = *(const acct_gather_energy_msg_t *) resp.data;
	else if (!a->rc)
		a->rc = SLURM_UNEXPECTED_MSG_ERROR;
	msg_free(&resp);
}

static void _energy_done(void *arg)
{
	energy_arg_t *a = arg;
	node_record_t *n = node_mgr_at(a->index);

	if (!a->rc && a->gen == node_mgr_generation() && n) {
		n->info.current_watts = a->e.current_watts;
		n->info.ave_watts = a->e.ave_watts;
		n->info.consumed_energy = a->e.consumed_energy;
	}
	xfree(a->addr);
	xfree(a);
}

static void _energy_ask(const node_record_t *n)
{
	energy_arg_t *a;

	if (!acct_gather_energy_gathers(ctld_conf()))
		return;
	a = xmalloc(sizeof(*a));
	a->gen = node_mgr_generation();
	a->index = n->index;
	a->addr = xstrdup(n->info.node_addr);
	a->port = n->info.port;
	a->timeout_ms = ctld_conf()->message_timeout * 1000;
	agent_queue_work(_energy_work, _energy_done, a);
}

static void _ping_answer(uint32_t gen, uint32_t index, int rc)
{
	node_record_t *n = node_mgr_at(index);
	time_t now = time(NULL);

	if (gen != node_mgr_generation() || !n)
		return;
	n->ping_pending = false;
	if (rc) {
		_not_responding(n, now);
		return;
	}
	n->last_response = now;
	if (n->info.node_state & NODE_STATE_NO_RESPOND) {
		n->info.node_state &= ~NODE_STATE_NO_RESPOND;
		info("Node %s now responding", n->info.name);
		sched_trigger();
	}
	_energy_ask(n);
}

/* One sweep's pings of one type, sent along the TreeWidth tree (as
 * Slurm's agent does): at most TreeWidth connections from here, and
 * every node's answer comes back in one RESPONSE_FORWARD per subtree. */
typedef struct {
	uint32_t  gen;
	uint32_t  cnt;
	uint32_t *index;
} ping_tree_t;

static void _ping_tree_done(const int *rc, uint32_t cnt, void *arg)
{
	ping_tree_t *p = arg;

	for (uint32_t i = 0; i < cnt && i < p->cnt; i++)
		_ping_answer(p->gen, p->index[i], rc[i]);
	xfree(p->index);
	xfree(p);
}

static void _ping_tree(uint32_t *index, uint32_t cnt, uint16_t type)
{
	ping_tree_t *p;
	char **names, **addrs;

	if (!cnt) {
		xfree(index);
		return;
	}
	p = xmalloc(sizeof(*p));
	p->gen = node_mgr_generation();
	p->cnt = cnt;
	p->index = index;
	names = xcalloc(cnt + 1, sizeof(char *));
	addrs = xcalloc(cnt + 1, sizeof(char *));
	for (uint32_t i = 0; i < cnt; i++) {
		node_record_t *n = node_mgr_at(index[i]);

		n->ping_pending = true;
		names[i] = n->info.name;
		addrs[i] = xstrdup_printf("%s:%u", n->info.node_addr,
					  n->info.port);
	}
	agent_send_tree_cb(names, addrs, cnt, type, NULL,
			   ctld_conf()->tree_width,
			   ctld_conf()->message_timeout * 1000,
			   _ping_tree_done, p);
	for (uint32_t i = 0; i < cnt; i++)
		xfree(addrs[i]);
	xfree(addrs);
	xfree(names);
}

/* One node now (an admin's resume): a tree of one. */
static void _ping_one(node_record_t *n)
{
	uint32_t *index = xmalloc(sizeof(uint32_t));
	uint32_t base = BASE(n);

	index[0] = n->index;
	_ping_tree(index, 1, base == NODE_STATE_UNKNOWN ||
		   base == NODE_STATE_DOWN ?
		   REQUEST_NODE_REGISTRATION_STATUS : REQUEST_PING);
}

void node_mgr_ping(time_t now)
{
	size_t cnt = node_mgr_count();
	uint32_t *ping = xcalloc(cnt + 1, sizeof(uint32_t));
	uint32_t *reg = xcalloc(cnt + 1, sizeof(uint32_t));
	uint32_t np = 0, nr = 0;

	for (size_t i = 0; i < cnt; i++) {
		node_record_t *n = node_mgr_at(i);
		uint32_t base = BASE(n);

		if (base == NODE_STATE_FUTURE || n->ping_pending ||
		    power_save_no_ping(n))
			continue;
		/* a node not (yet) registered is asked to register */
		if (base == NODE_STATE_UNKNOWN || base == NODE_STATE_DOWN)
			reg[nr++] = (uint32_t) i;
		else
			ping[np++] = (uint32_t) i;
	}
	_ping_tree(ping, np, REQUEST_PING);
	_ping_tree(reg, nr, REQUEST_NODE_REGISTRATION_STATUS);
}

void node_mgr_shutdown_slurmds(void)
{
	size_t i;

	for (i = 0; i < node_mgr_count(); i++) {
		node_record_t *n = node_mgr_at(i);
		shutdown_msg_t *s;

		if (BASE(n) == NODE_STATE_FUTURE || BASE(n) == NODE_STATE_DOWN)
			continue;
		s = xmalloc(sizeof(*s));
		agent_send_rc(n->info.node_addr, n->info.port, REQUEST_SHUTDOWN,
			      s, ctld_conf()->message_timeout * 1000, NULL, NULL);
	}
}

/* ---- scontrol update node ---- */

static int _check_update(const node_update_msg_t *u)
{
	uint32_t st = u->node_state;

	if (st == NO_VAL32 || st == NODE_RESUME || st == NODE_STATE_UNDRAIN ||
	    st == NODE_STATE_IDLE || st == NODE_STATE_REBOOT_CANCEL)
		return 0;
	if (st == NODE_STATE_DRAIN || st == NODE_STATE_DOWN ||
	    st == (NODE_STATE_DOWN | NODE_STATE_DRAIN))
		return (u->reason && *u->reason) ? 0 : ESLURM_INVALID_NODE_STATE;
	return ESLURM_INVALID_NODE_STATE;
}

static const char *_state_word(const node_record_t *n)
{
	bool busy = n->info.alloc_cpus || n->comp_cnt;

	if (BASE(n) == NODE_STATE_DOWN)
		return "DOWN";
	if (n->info.node_state & NODE_STATE_DRAIN)
		return busy ? "DRAINING" : "DRAINED";
	return busy ? "ALLOCATED" : "IDLE";
}

static int _resume(node_record_t *n)
{
	uint32_t st = n->info.node_state;

	if (BASE(n) != NODE_STATE_DOWN && !(st & (NODE_STATE_DRAIN | NODE_STATE_FAIL)))
		return ESLURM_INVALID_NODE_STATE;
	_set_drain(n, false);
	n->info.node_state &= ~NODE_STATE_FAIL;
	if (st & NODE_STATE_REBOOT_ISSUED) {
		/* the admin says it is back: the reboot is not waited for */
		node_mgr_saved_touch();
		n->info.node_state &= ~NODE_STATE_REBOOT_ISSUED;
		n->info.next_state = 0;
		n->reboot_asap = false;
		n->boot_req_time = 0;
	}
	if (BASE(n) == NODE_STATE_DOWN &&
	    (st & NODE_STATE_POWERED_DOWN)) {
		_set_base(n, NODE_STATE_IDLE);      /* resumed when needed */
		_set_no_resp(n, false);
	} else if (BASE(n) == NODE_STATE_DOWN) {
		_set_base(n, NODE_STATE_IDLE);
		/* usable once its slurmd answers */
		n->info.node_state |= NODE_STATE_NO_RESPOND;
		n->last_response = time(NULL);
		_set_no_resp(n, false);
		if (!n->ping_pending)
			_ping_one(n);
	}
	_set_reason(n, NULL, 0);
	return 0;
}

static int _update_one(node_record_t *n, const node_update_msg_t *u,
		       uint32_t uid)
{
	uint32_t st = u->node_state, ruid = u->reason_uid != NO_VAL32 &&
		u->reason_uid ? u->reason_uid : uid;
	int rc = 0;

	if (u->weight != NO_VAL32 && u->weight != 0)
		n->info.weight = u->weight;
	if (u->comment) {
		xfree(n->info.comment);
		n->info.comment = xstrdup(u->comment);
	}
	if (u->features) {
		xfree(n->info.features);
		n->info.features = xstrdup(u->features);
	}
	if (u->node_addr || u->node_hostname) {
		node_mgr_set_addr(n, u->node_addr, u->node_hostname);
		info("update_node: node %s NodeAddr=%s NodeHostname=%s",
		     n->info.name, n->info.node_addr, n->info.node_hostname);
	}
	if (st == NODE_STATE_REBOOT_CANCEL) {
		rc = node_reboot_cancel(n);
	} else if (st == NODE_RESUME || st == NODE_STATE_IDLE) {
		rc = _resume(n);
		if (rc && st == NODE_STATE_IDLE)
			rc = 0;
	} else if (st == NODE_STATE_UNDRAIN) {
		_set_drain(n, false);
		_set_reason(n, NULL, 0);
	} else if (st & NODE_STATE_DRAIN) {
		_set_drain(n, true);
		_set_reason(n, u->reason, ruid);
	}
	if ((st & NODE_STATE_BASE) == NODE_STATE_DOWN && st != NO_VAL32) {
		info("Killing jobs on node %s set DOWN", n->info.name);
		_set_down(n, u->reason, ruid, false);
	} else if (st == NO_VAL32 && u->reason) {
		_set_reason(n, u->reason, ruid);
	}
	node_state_refresh(n);
	if (st != NO_VAL32 && !rc)
		info("update_node: node %s state set to %s", n->info.name,
		     _state_word(n));
	if (u->reason && !rc)
		info("update_node: node %s reason set to: %s", n->info.name,
		     u->reason);
	return rc;
}

void node_mgr_rpc_update(net_conn_t *c, slurm_msg_t *m)
{
	node_update_msg_t *u = m->data;
	char *bad = NULL;
	bitmap_t *b;
	long i;
	int rc;

	if (!u || !u->node_names) {
		net_reply_rc(c, ESLURM_INVALID_NODE_NAME);
		return;
	}
	b = node_mgr_bitmap(u->node_names, &bad);
	if (!b) {
		info("update_node: node %s does not exist", bad ? bad : "");
		xfree(bad);
		net_reply_rc(c, ESLURM_INVALID_NODE_NAME);
		return;
	}
	rc = _check_update(u);
	for (i = bitmap_first_set(b); !rc && i >= 0; i = bitmap_next_set(b, i + 1))
		rc = _update_one(node_mgr_at(i), u, m->auth_uid);
	bitmap_destroy(b);
	sched_trigger();
	commit_reply_rc(c, rc, NULL);
}

/* ---- info ---- */

void node_mgr_rpc_info(net_conn_t *c, slurm_msg_t *m)
{
	info_request_msg_t *r = m->data;
	node_info_msg_t resp = { .last_update = time(NULL) };
	size_t i, cnt = node_mgr_count();

	if (r && r->name && *r->name) {
		node_record_t *n = node_mgr_find(r->name);

		if (!n) {
			net_reply_rc(c, ESLURM_INVALID_NODE_NAME);
			return;
		}
		resp.cnt = 1;
		resp.nodes = xmalloc(sizeof(node_info_t));
		resp.nodes[0] = n->info;
		resp.nodes[0].node_state |= resv_mgr_node_flags(n->index,
								resp.last_update);
	} else {
		resp.nodes = xcalloc(cnt + 1, sizeof(node_info_t));
		for (i = 0; i < cnt; i++) {
			if (node_mgr_at(i)->vacant)     /* MaxNodeCount room */
				continue;
			resp.nodes[resp.cnt] = node_mgr_at(i)->info;
			resp.nodes[resp.cnt++].node_state |=
				resv_mgr_node_flags(i, resp.last_update);
		}
	}
	net_reply(c, RESPONSE_NODE_INFO, &resp);   /* packed now: shallow copies */
	xfree(resp.nodes);
}
