/* slurmd.h — the node daemon's state, shared by its modules.
 *
 * One slurmd_t per process, owned by main() and used only on the event
 * loop thread (the controller sender has its own thread and queue).
 */
#ifndef SLUICE_SLURMD_SLURMD_H
#define SLUICE_SLURMD_SLURMD_H

#include <stdbool.h>
#include <sys/types.h>
#include <time.h>

#include "common/conf.h"
#include "common/net.h"
#include "slurmd/common/ctld_send.h"
#include "slurmd/hwinfo.h"

struct event_base;

typedef struct {
	pid_t    pid;
	uint32_t job_id;
} slurmd_epilog_t;

/* A batch run this slurmd launched: job id, the start time and restart
 * count the controller gave it (a requeued job may start again within
 * the same second), and whether the controller has ended it since. */
typedef struct {
	uint32_t job_id;
	time_t   start_time;
	uint32_t restart_cnt;
	bool     ended;
} slurmd_run_t;

#define SLURMD_RUNS 4096

typedef struct {
	slurm_conf_t       *conf;
	slurm_conf_t      **old_confs;   /* replaced by reconfigures, kept
					  * to the end (see slurmd_reconfigure) */
	size_t              old_conf_cnt;
	const conf_node_t  *node;        /* this node's NodeName line */
	char               *cache_dir;   /* configless: SlurmdSpoolDir/
					  * conf-cache, else NULL */
	char               *dyn_line;    /* -Z: the NodeName line registered */
	char               *gres_cores;  /* gres.conf GPUs' Cores= as
					  * registered (gres_detect.h) */
	conf_node_t        *dyn_node;    /* -Z: node points here */
	char               *conf_path;   /* absolute, passed to slurmstepd */
	char               *spool_dir;   /* SlurmdSpoolDir, %n/%h expanded */
	char               *log_file;    /* for slurmstepd too */
	char               *stepd_path;  /* slurmstepd next to slurmd */
	int                 verbose;     /* -v count, passed to slurmstepd */
	hwinfo_t            hw;
	time_t              start_time;
	time_t              last_ctld_msg; /* from root/SlurmUser */
	struct event_base  *base;
	net_server_t       *server;
	ctld_sender_t      *sender;
	slurmd_epilog_t    *epilogs;     /* Epilogs running (epilog.h) */
	size_t              epilog_cnt;
	slurmd_run_t        runs[SLURMD_RUNS];  /* recent launches, a ring */
	size_t              run_next;
	struct energy_node *energy;      /* energy_rapl.h, or NULL */
} slurmd_t;

/* TmpFS's size in MB (0 if it cannot be read). */
uint32_t slurmd_tmp_disk_mb(const slurm_conf_t *conf);
/* Queue a MESSAGE_NODE_REGISTRATION (retried until acknowledged). */
void slurmd_register(slurmd_t *sd, bool startup);
/* Once the sender exists: registrations list the jobs running when they
 * are sent, not when queued. */
void slurmd_register_init(slurmd_t *sd);
/* Queue a MESSAGE_EPILOG_COMPLETE for job_id. */
void slurmd_epilog_complete(slurmd_t *sd, uint32_t job_id, int rc);
/* Leave the event loop soon (after pending replies are flushed). */
void slurmd_shutdown(slurmd_t *sd);
/* scontrol reconfigure (REQUEST_RECONFIGURE from the controller) or
 * SIGHUP: read slurm.conf again, so the programs it names (Prolog,
 * Epilog, HealthCheckProgram, UnkillableStepProgram, ...) are the new
 * ones for what starts next.  SLURM_SUCCESS, or an error with the old
 * config kept. */
int  slurmd_reconfigure(slurmd_t *sd);

#endif
