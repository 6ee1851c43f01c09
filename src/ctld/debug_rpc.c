/* debug_rpc.c — REQUEST_SET_DEBUG_LEVEL and REQUEST_SET_DEBUG_FLAGS
 * (debug_rpc.h).  rpc.c has already refused callers that are not
 * administrators (EACCES, as Slurm). */
#include "ctld/debug_rpc.h"

#include "common/debug_flags.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "ctld/controller.h"
#include "slurm/slurm_errno.h"

void debug_rpc_set_level(net_conn_t *conn, slurm_msg_t *msg)
{
	const set_debug_level_msg_t *m = msg->data;
	int level;

	if (!m) {
		net_reply_rc(conn, SLURM_ERROR);
		return;
	}
	/* as Slurm: a level past the last is the last */
	level = m->debug_level > LOG_LEVEL_DEBUG5 ? LOG_LEVEL_DEBUG5 :
		(int) m->debug_level;
	ctld_set_debug_level(level);
	info("Set debug level to '%s'", log_level_to_string(level));
	net_reply_rc(conn, SLURM_SUCCESS);
}

void debug_rpc_set_flags(net_conn_t *conn, slurm_msg_t *msg)
{
	const set_debug_flags_msg_t *m = msg->data;
	uint64_t all = DEBUG_FLAG_BIT(DEBUG_FLAG_CNT) - 1, now;
	char *names;

	if (!m || ((m->debug_flags_plus | m->debug_flags_minus) & ~all)) {
		net_reply_rc(conn, SLURM_ERROR);
		return;
	}
	now = (debug_flags_now & ~m->debug_flags_minus) | m->debug_flags_plus;
	debug_flags_set(now);
	names = debug_flags_string(now);
	info("Set DebugFlags to %s", names ? names : "none");
	xfree(names);
	net_reply_rc(conn, SLURM_SUCCESS);
}
