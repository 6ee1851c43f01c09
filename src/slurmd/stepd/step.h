/* step.h — slurmstepd for one node's share of an srun step (-s mode).
 *
 * Life: read REQUEST_LAUNCH_TASKS from slurmd (already checked), listen
 * on <spool>/<node>_<job>.<step>, connect back to srun and send IO_INIT,
 * fork the node's tasks as the user and answer slurmd; then forward the
 * tasks' output to srun line by line, srun's stdin and signals to the
 * tasks, and each task's exit.  Once every task ended and its output is
 * sent: REQUEST_STEP_COMPLETE to the controller, IO_DONE to srun, exit.
 * If srun goes away first, the tasks are killed.
 */
#ifndef SLUICE_STEPD_STEP_H
#define SLUICE_STEPD_STEP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/conf.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "slurmd/common/ctld_send.h"

struct event_base;
struct event;
struct bufferevent;
struct evbuffer;
struct step;
struct cgroup_step;
#define STEP_MAX_ATTACH 16        /* sattach clients at once (step_attach.h) */

typedef struct step_pmi step_pmi_t;
typedef struct step_pmix step_pmix_t;

/* A task's usage (step_acct.c); KB and microseconds. */
typedef struct {
	uint64_t user_usec;       /* at exit */
	uint64_t sys_usec;
	uint64_t cpu_usec;        /* user+sys, sampled or at exit */
	uint64_t rss_kb;          /* last sample */
	uint64_t vsize_kb;
	uint64_t max_rss_kb;
	uint64_t max_vsize_kb;
	uint64_t read_bytes;      /* last sample: /proc/<pid>/io summed */
	uint64_t write_bytes;
} step_usage_t;

typedef struct {
	struct step     *st;
	uint32_t         gtid;
	uint32_t         lid;
	pid_t            pid;
	int              in_fd;       /* our end of its stdin, or -1 */
	int              out_fd;      /* our ends of stdout/stderr, or -1 */
	int              err_fd;
	struct event    *out_ev;
	struct event    *err_ev;
	struct evbuffer *out_buf;     /* partial line not yet sent */
	struct evbuffer *err_buf;
	bool             exited;
	bool             exit_sent;
	int              status;
	step_usage_t     usage;
	char           **pmix_env;    /* PMIX_* for the child (--mpi=pmix) */
	bool             pty;         /* --pty: out_fd is the terminal master */
	int              pty_slave;   /* until the child has it */
	bool             pid_sent;    /* --debugger-test: stopped, told srun */
} step_task_t;

typedef struct step {
	slurm_conf_t       *conf;
	char               *node_name;
	char               *spool_dir;
	char               *sock_path;
	launch_tasks_request_msg_t *m;
	uint32_t            ntasks;       /* on this node */
	step_task_t        *tasks;
	struct event_base  *base;
	struct bufferevent *srun;         /* NULL once srun is gone */
	struct bufferevent *attach[STEP_MAX_ATTACH]; /* sattach clients */
	net_server_t       *server;
	ctld_sender_t      *sender;
	int                 ack_pipe[2];
	struct event       *ack_ev;
	struct event       *chld_ev;
	struct event       *kill_ev;
	int                 open_fds;     /* task output fds still open */
	bool                completing;   /* step complete queued */
	bool                leaving;      /* acknowledged: IO_DONE sent */
	uint32_t            worst;        /* largest task wait status */
	step_pmi_t         *pmi;          /* --mpi=pmi2, or NULL */
	step_pmix_t        *pmix;         /* --mpi=pmix, or NULL */
	bool                acct_on;      /* JobAcctGatherType samples */
	bool                acct_cg_told; /* jobacct_gather/cgroup: logged */
	struct event       *acct_ev;      /* sampling timer */
	struct step_energy *energy;       /* step_energy.h, or NULL */
	uint32_t            node_cpus;    /* the step's CPUs here (cred) */
	char               *cpu_ids;      /* their node CPU ids, or NULL */
	char               *gpu_idx;      /* its GPUs here (cred), or NULL */
	struct task_gpus   *gpus;         /* task_gpus.h, or NULL */
	char               *gids;         /* the user's groups (cred), or NULL */
	struct cgroup_step *cg;           /* cgroup_stepd.h, or NULL */
	int                 jc_fd;        /* job_container.h, while tasks
					   * start; else -1 */
	bool                oom_told;
	uint64_t            mem_mb;       /* the step's memory here (cred),
					   * 0: none */
	bool                mem_killed;   /* OverMemoryKill: over mem_mb */
	struct step_profile *prof;        /* --profile=task (step_profile.h) */
	char               *acctg_freq;   /* the job's --acctg-freq, or NULL */
} step_t;

/* Run a step stepd; returns the process exit code. */
int  step_main(const char *conf_file, const char *node_name, int verbose);

/* step_task.c: fork every local task (0 or a slurm_err_t), read their
 * output, reap them. */
int  step_tasks_start(step_t *st);
void step_tasks_reap(step_t *st);
/* Signal every task's process group and the step's other processes. */
void step_tasks_signal(step_t *st, int sig);
/* Stdin from srun: task IO_ALL_TASKS = all; len 0 = EOF. */
void step_tasks_stdin(step_t *st, uint32_t task, const void *p, size_t len);
void step_tasks_free(step_t *st);

/* step.c: frames to srun (dropped if srun is gone); output, exits and
 * IO_DONE also to sattach clients. */
void step_send(step_t *st, uint16_t type, uint32_t task, const void *p,
	       size_t len);
/* A task exited or an output fd closed: finish when all is over. */
void step_check_done(step_t *st);
/* After IO_DONE: leave once srun and sattach clients have it all. */
void step_maybe_leave(step_t *st);

#endif
