/* stepd.h — one batch job's slurmstepd: its state and life cycle.
 *
 * Life of a batch stepd:
 *   start    read the launch message from slurmd, open <spool>/<node>_<id>.batch,
 *            fork the script (task.h), tell slurmd the verdict;
 *   running  serve signal/terminate requests (server.h);
 *   ended    the script exited: REQUEST_COMPLETE_BATCH_SCRIPT to the
 *            controller (retried until acknowledged), leftovers killed;
 *   finish   after REQUEST_TERMINATE_JOB and once no process of the job is
 *            left: MESSAGE_EPILOG_COMPLETE, socket and job dir removed, exit.
 * stepd is a child subreaper, so processes that escape the script's session
 * are re-parented to it and stay findable (proctrack.h).
 */
#ifndef SLUICE_STEPD_STEPD_H
#define SLUICE_STEPD_STEPD_H

#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "common/conf.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "slurmd/common/ctld_send.h"
#include "slurmd/common/script.h"

struct event_base;
struct event;

typedef struct {
	slurm_conf_t       *conf;
	char               *conf_path;
	char               *node_name;
	char               *spool_dir;
	char               *sock_path;
	char               *job_dir;
	batch_launch_msg_t *job;         /* the launch message */
	char               *user_name;
	char               *group_name;

	pid_t               task_pid;    /* the batch script; its session id */
	bool                task_done;
	int                 task_status; /* wait() status */
	struct rusage       task_ru;
	int                 err_fd;      /* the task's stderr, or -1 */

	pid_t               epilog_pid;  /* Epilog running, or 0 */
	bool                terminating; /* REQUEST_TERMINATE_JOB received */
	bool                finishing;
	bool                node_done;   /* the controller counts this node
					  * done (TERM_NODE_DONE): no
					  * epilog report */
	uint16_t            kill_wait;

	struct event_base  *base;
	net_server_t       *server;
	ctld_sender_t      *sender;
	int                 ack_pipe[2]; /* sender -> loop: completion acked */
	struct event       *ack_ev;
	struct event       *sig_ev[2];   /* SIGCHLD, SIGTERM */
	struct event       *kill_ev;     /* SIGKILL after kill_wait */
	struct event       *poll_ev;     /* are all processes gone? */
	struct event       *linger_ev;   /* give up waiting for terminate */
	struct cgroup_step *cg;          /* cgroup.h, or NULL */
	struct step_energy *energy;      /* step_energy.h, or NULL */
	struct step        *prof;        /* --profile=task: the script as a
					  * step (step_profile.h), or NULL */
} stepd_t;

/* Who the job is, for the Prolog and Epilog (script.h). */
void stepd_script_info(const stepd_t *sd, const char *context,
		       script_info_t *info);

/* Deliver sig as a signal request asks (flags KILL_JOB_BATCH ...). */
int  stepd_signal(stepd_t *sd, int sig, uint16_t flags);
/* End the job: SIGCONT+SIGTERM now, SIGKILL after kill_wait seconds,
 * epilog complete once nothing is left.  job_state (JOB_CANCELLED,
 * JOB_TIMEOUT, ...) says why; a running script's stderr gets Slurm's
 * "*** JOB n ON node CANCELLED AT time ***" line. */
void stepd_terminate(stepd_t *sd, uint16_t kill_wait, uint32_t job_state);

#endif
