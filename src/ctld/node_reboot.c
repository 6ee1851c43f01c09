/* node_reboot.c — scontrol reboot, cancel_reboot, RebootProgram runs and
 * their timeout (node_reboot.h). */
#include "ctld/node_reboot.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/agent.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/node_state.h"
#include "ctld/sched.h"
#include "slurm/slurm_errno.h"

#define BASE(n) ((n)->info.node_state & NODE_STATE_BASE)
#define REBOOT_FLAGS (NODE_STATE_REBOOT_REQUESTED | NODE_STATE_REBOOT_ISSUED)

static const char *rb_program(void)
{
	const char *p = conf_get(ctld_conf(), "RebootProgram");

	return p && *p && strcmp(p, "(null)") ? p : NULL;
}

/* ResumeTimeout in seconds ("60 sec" as show config prints it); 0 none. */
static long rb_resume_timeout(void)
{
	const char *v = conf_get(ctld_conf(), "ResumeTimeout");

	return v ? strtol(v, NULL, 10) : 60;
}

/* "<reason> : <what>", as Slurm appends each step of a reboot. */
static void rb_append_reason(node_record_t *n, const char *what)
{
	char *r = n->info.reason && *n->info.reason ?
		xstrdup_printf("%s : %s", n->info.reason, what) : xstrdup(what);

	node_state_set_reason(n, r, n->info.reason_uid ? n->info.reason_uid :
			      ctld_conf()->slurm_user_id);
	xfree(r);
}

static void rb_set_flags(node_record_t *n, uint32_t on, uint32_t off)
{
	uint32_t st = (n->info.node_state | on) & ~off;

	if (st != n->info.node_state)
		node_mgr_saved_touch();
	n->info.node_state = st;
}

static void rb_set_next(node_record_t *n, uint32_t next, bool asap)
{
	if (n->info.next_state != next || n->reboot_asap != asap)
		node_mgr_saved_touch();
	n->info.next_state = next;
	n->reboot_asap = asap;
}

/* ---- scontrol reboot ---- */

static void rb_request(node_record_t *n, const reboot_msg_t *r, uint32_t uid)
{
	bool asap = r->flags & REBOOT_FLAGS_ASAP;
	uint32_t next = r->next_state ? r->next_state :
			asap ? NODE_RESUME : 0;

	rb_set_flags(n, NODE_STATE_REBOOT_REQUESTED, 0);
	rb_set_next(n, next, asap);
	if (asap)
		node_state_set_drain(n, true);
	if (r->reason && *r->reason)
		node_state_set_reason(n, r->reason, uid);
	else if (!n->info.reason || !*n->info.reason)
		node_state_set_reason(n, asap ? "Reboot ASAP" :
				      "reboot requested", uid);
	node_state_refresh(n);
}

void node_reboot_rpc(net_conn_t *c, slurm_msg_t *m)
{
	reboot_msg_t *r = m->data;
	char *bad = NULL, *names;
	bitmap_t *b;
	long i;

	if (!rb_program()) {
		error("%s: RebootProgram isn't defined", __func__);
		net_reply_rc(c, SLURM_ERROR);
		return;
	}
	if (!r || !r->node_list || !*r->node_list) {
		net_reply_rc(c, ESLURM_INVALID_NODE_NAME);
		return;
	}
	if (r->next_state && r->next_state != NODE_RESUME &&
	    r->next_state != NODE_STATE_DOWN) {
		net_reply_rc(c, ESLURM_INVALID_NODE_STATE);
		return;
	}
	if (!strcasecmp(r->node_list, "ALL")) {
		b = node_mgr_all();     /* not MaxNodeCount's vacant slots */
	} else if (!(b = node_mgr_bitmap(r->node_list, &bad))) {
		info("%s: node %s does not exist", __func__, bad ? bad : "");
		xfree(bad);
		net_reply_rc(c, ESLURM_INVALID_NODE_NAME);
		return;
	}
	for (i = bitmap_first_set(b); i >= 0; i = bitmap_next_set(b, i + 1)) {
		node_record_t *n = node_mgr_at(i);

		/* a reboot sent already, or a node not in use: as is */
		if ((n->info.node_state & NODE_STATE_REBOOT_ISSUED) ||
		    BASE(n) == NODE_STATE_FUTURE) {
			bitmap_clear(b, i);
			continue;
		}
		rb_request(n, r, m->auth_uid);
	}
	names = node_mgr_names(b);
	if (names && *names)
		info("reboot request queued for nodes %s", names);
	xfree(names);
	bitmap_destroy(b);
	node_reboot_tick(time(NULL));    /* the idle ones go now */
	commit_dirty();
	commit_reply_rc(c, SLURM_SUCCESS, NULL);
}

/* ---- cancel ---- */

int node_reboot_cancel(node_record_t *n)
{
	char *st;

	if (!(n->info.node_state & NODE_STATE_REBOOT_REQUESTED)) {
		st = node_state_string_long(n->info.node_state &
					    NODE_STATE_BASE);
		info("Invalid node state transition requested for node %s "
		     "from=%s to=CANCEL_REBOOT", n->info.name, st);
		xfree(st);
		return ESLURM_INVALID_NODE_STATE;
	}
	rb_set_flags(n, 0, NODE_STATE_REBOOT_REQUESTED);
	if (n->reboot_asap) {
		node_state_set_drain(n, false);
		node_state_set_reason(n, NULL, 0);
	} else if (!xstrcmp(n->info.reason, "reboot requested")) {
		node_state_set_reason(n, NULL, 0);
	}
	rb_set_next(n, 0, false);
	node_state_refresh(n);
	info("reboot cancelled for node %s", n->info.name);
	return 0;
}

/* ---- issue and time out ---- */

static void rb_sent(int rc, void *arg)
{
	char *name = arg;

	if (rc)
		error("Reboot request for node %s failed: %s", name,
		      slurm_strerror(rc));
	xfree(name);
}

static bool rb_free_to_reboot(const node_record_t *n)
{
	uint32_t st = n->info.node_state;

	if (BASE(n) == NODE_STATE_DOWN)
		return true;
	return BASE(n) == NODE_STATE_IDLE && !n->job_cnt && !n->comp_cnt &&
	       !(st & (NODE_STATE_COMPLETING | NODE_STATE_NO_RESPOND));
}

static void rb_issue(node_record_t *n, time_t now)
{
	reboot_msg_t *r = xmalloc(sizeof(*r));

	rb_set_flags(n, NODE_STATE_REBOOT_ISSUED, NODE_STATE_REBOOT_REQUESTED);
	node_state_set_base(n, NODE_STATE_DOWN);
	n->boot_req_time = now;
	rb_append_reason(n, "reboot issued");
	node_state_refresh(n);
	r->node_list = xstrdup(n->info.name);
	r->flags = n->reboot_asap ? REBOOT_FLAGS_ASAP : 0;
	r->next_state = n->info.next_state;
	info("Rebooting node %s (RebootProgram sent to its slurmd)",
	     n->info.name);
	agent_send_rc(n->info.node_addr, n->info.port, REQUEST_REBOOT_NODES, r,
		      ctld_conf()->message_timeout * 1000, rb_sent,
		      xstrdup(n->info.name));
	commit_dirty();
}

static void rb_timed_out(node_record_t *n)
{
	char *r = n->info.reason && *n->info.reason ?
		xstrdup_printf("%s : reboot timed out", n->info.reason) :
		xstrdup("reboot timed out");

	error("Node %s did not reboot within ResumeTimeout, setting DOWN",
	      n->info.name);
	rb_set_flags(n, 0, REBOOT_FLAGS);
	rb_set_next(n, 0, false);
	n->boot_req_time = 0;
	node_state_set_drain(n, false);
	node_state_set_down(n, r, n->info.reason_uid ? n->info.reason_uid :
			    ctld_conf()->slurm_user_id);
	xfree(r);
}

void node_reboot_tick(time_t now)
{
	long tmo = rb_resume_timeout();
	size_t i;

	for (i = 0; i < node_mgr_count(); i++) {
		node_record_t *n = node_mgr_at(i);
		uint32_t st = n->info.node_state;

		if (!(st & REBOOT_FLAGS))
			continue;
		if ((st & NODE_STATE_REBOOT_ISSUED) && tmo > 0 &&
		    now - n->boot_req_time > tmo)
			rb_timed_out(n);
		else if (!(st & NODE_STATE_REBOOT_ISSUED) &&
			 rb_free_to_reboot(n))
			rb_issue(n, now);
	}
}

/* ---- the node is back ---- */

static void rb_rebooted(node_record_t *n, bool valid)
{
	uint32_t next = n->info.next_state;
	bool asap = n->reboot_asap;

	info("Node %s rebooted", n->info.name);
	rb_set_flags(n, 0, REBOOT_FLAGS);
	rb_set_next(n, 0, false);
	n->boot_req_time = 0;
	if (next == NODE_STATE_DOWN) {
		node_state_set_drain(n, false);
		rb_append_reason(n, "reboot complete");
		return;                  /* stays DOWN */
	}
	if (asap || next == NODE_RESUME)
		node_state_set_drain(n, false);
	if (!valid)                      /* drained by _check_low */
		return;
	node_state_set_base(n, NODE_STATE_IDLE);
	n->down_no_resp = false;
	if (!(n->info.node_state & NODE_STATE_DRAIN))
		node_state_set_reason(n, NULL, 0);
	node_state_refresh(n);
	sched_trigger();
}

bool node_reboot_registered(node_record_t *n, time_t boot_time, bool valid)
{
	if (!(n->info.node_state & NODE_STATE_REBOOT_ISSUED))
		return false;
	if (boot_time > n->boot_req_time) {
		rb_rebooted(n, valid);
		commit_dirty();
	} else {
		debug("Node %s registered without rebooting (boot time %ld, "
		      "reboot sent %ld): still waiting", n->info.name,
		      (long) boot_time, (long) n->boot_req_time);
	}
	return true;
}
