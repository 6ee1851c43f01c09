/* ctld_stubs.h — the controller's loop (controller.c) and its RPC agent
 * (agent.c) replaced by stubs, for programs that run the controller's
 * modules without daemons: test_sched, test_backfill, sched_bench.
 *
 * Include once, after the ctld headers (or sources).  `conf` is the
 * configuration the modules see; `sent_rpcs` counts what they would have
 * sent to slurmd's.
 */
#ifndef SLUICE_TESTS_CTLD_STUBS_H
#define SLUICE_TESTS_CTLD_STUBS_H

#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "ctld/agent.h"
#include "ctld/controller.h"

static slurm_conf_t *conf;
static unsigned sent_rpcs;

const slurm_conf_t *ctld_conf(void) { return conf; }
struct event_base *ctld_base(void) { return NULL; }
time_t ctld_boot_time(void) { return 0; }
bool ctld_is_operator(uid_t uid) { return uid == 0; }
bool ctld_hides(uint32_t what, uid_t uid) { (void) what; (void) uid; return false; }
void ctld_shutdown(void) { }
int ctld_reconfigure(void) { return 0; }
void ctld_set_debug_level(int level) { (void) level; }
int ctld_debug_level(void) { return 3; }
void ctld_restart_from_disk(void) { }
bool ctld_restarting(void) { return false; }

int agent_init(struct event_base *base, int threads) { (void) base; (void) threads; return 0; }
void agent_fini(void) { }
unsigned agent_pending(void) { return 0; }
void agent_queue_work(agent_work_f work, agent_done_f done, void *arg)
{
	(void) work; (void) done; (void) arg;
}
void agent_send_rc(const char *host, uint16_t port, uint16_t type, void *req,
		   int timeout_ms, agent_rpc_done_f done, void *arg)
{
	(void) host; (void) port; (void) timeout_ms; (void) done; (void) arg;
	sent_rpcs++;
	msg_body_free(type, req);
}
void agent_send_tree(char * const *names, char * const *addrs, uint32_t cnt,
		     uint16_t type, void *req, uint16_t tree_width,
		     int timeout_ms)
{
	(void) names; (void) addrs; (void) tree_width; (void) timeout_ms;
	sent_rpcs += cnt;
	msg_body_free(type, req);
}
/* Every node answers at once (the ping sweep's nodes respond). */
void agent_send_tree_cb(char * const *names, char * const *addrs,
			uint32_t cnt, uint16_t type, void *req,
			uint16_t tree_width, int timeout_ms,
			agent_tree_done_f done, void *arg)
{
	int *rc = xcalloc(cnt + 1, sizeof(int));

	(void) names; (void) addrs; (void) tree_width; (void) timeout_ms;
	sent_rpcs += cnt;
	msg_body_free(type, req);
	if (done)
		done(rc, cnt, arg);
	xfree(rc);
}

#endif
