/* agent.h — outbound work on worker threads.
 *
 * A few threads perform blocking calls (RPCs to slurmd with MessageTimeout,
 * or any work function) and hand each result back to the event loop, where
 * the done callback runs.  Worker threads never touch jobs, nodes or
 * partitions: everything they need travels in their argument.
 */
#ifndef SLUICE_CTLD_AGENT_H
#define SLUICE_CTLD_AGENT_H

#include <stdint.h>

struct event_base;

/* Runs on the loop thread.  rc: transport error (slurm_err_t) if the node
 * could not be reached, else the node's return code. */
typedef void (*agent_rpc_done_f)(int rc, void *arg);
typedef void (*agent_work_f)(void *arg);    /* worker thread */
typedef void (*agent_done_f)(void *arg);    /* loop thread */

int  agent_init(struct event_base *base, int threads);
/* Stop the threads after the queued work is done. */
void agent_fini(void);

/* Send req (type's body struct; ownership passes to the agent, which frees
 * it with msg_body_free) to host:port and expect RESPONSE_SLURM_RC.
 * done may be NULL. */
void agent_send_rc(const char *host, uint16_t port, uint16_t type, void *req,
		   int timeout_ms, agent_rpc_done_f done, void *arg);
/* Send the same req (ownership passes) to many nodes along a tree of
 * tree_width (common/forward.h): at most tree_width connections from
 * here, each first node passes it on to its group.  names/addrs
 * ("host:port") are copied.  A node that could not be reached or
 * refused is logged with its name. */
void agent_send_tree(char * const *names, char * const *addrs, uint32_t cnt,
		     uint16_t type, void *req, uint16_t tree_width,
		     int timeout_ms);
/* agent_send_tree, then done(rc, cnt, arg) on the loop with every node's
 * answer (rc[i] for names[i]: its return code, or the transport error);
 * done logs nothing, it is told. */
typedef void (*agent_tree_done_f)(const int *rc, uint32_t cnt, void *arg);
void agent_send_tree_cb(char * const *names, char * const *addrs,
			uint32_t cnt, uint16_t type, void *req,
			uint16_t tree_width, int timeout_ms,
			agent_tree_done_f done, void *arg);
/* Run work(arg) on a worker, then done(arg) on the loop. */
void agent_queue_work(agent_work_f work, agent_done_f done, void *arg);
/* Requests queued or running (for logs and tests). */
unsigned agent_pending(void);

#endif
