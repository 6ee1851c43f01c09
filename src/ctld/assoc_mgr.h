/* assoc_mgr.h — the controller's cache of accounting policy: the
 * associations of this cluster (account tree and user associations), the
 * QOS, the users (DefaultAccount, AdminLevel) and the coordinators, with
 * running counters per association and per QOS.
 *
 * Where it comes from: a loader thread asks slurmdbd for the lists
 * (REQUEST_DBD_ACCT, DBD_OP_LIST of QOS, users, associations,
 * coordinators) at start, whenever slurmdbd says something changed
 * (ACCOUNTING_UPDATE_MSG after every committed sacctmgr change) and every
 * ASSOC_MGR_REFRESH_S seconds.  Each snapshot that loads is saved to
 * StateSaveLocation/assoc_mgr_state; while slurmdbd is away the
 * controller works from that file.
 *
 * Threads and lifetimes: everything below is for the loop thread only.  A
 * new snapshot replaces the records between two events (never inside
 * one), so a pointer returned here is valid until the caller returns to
 * the event loop.  Keep data of your own per record by id (assoc->id,
 * qos->id), not by pointer, and rebuild it in an assoc_mgr_on_reload()
 * callback.  Strings are lower case (Slurm's accounting names are).
 *
 * Limits hold ASSOC_NO_LIMIT when not set.  Counters (assoc_usage_t) are
 * kept by the job lists: a job counts as submitted while pending or
 * running and as running while it holds nodes; an association's counters
 * include every association below it.
 */
#ifndef SLUICE_CTLD_ASSOC_MGR_H
#define SLUICE_CTLD_ASSOC_MGR_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <time.h>

#include "common/conf.h"
#include "common/conf_params.h"
#include "common/msg_types.h"
#include "common/net.h"

struct event_base;
struct job_record;
struct part_record;

#define ASSOC_NO_LIMIT     UINT64_MAX
#define ASSOC_MGR_REFRESH_S 300

/* AdminLevel, same numbers as slurmdbd stores. */
typedef enum {
	ASSOC_ADMIN_NONE = 1,
	ASSOC_ADMIN_OPERATOR,
	ASSOC_ADMIN_SUPER,          /* Administrator */
} assoc_admin_t;

/* The TRES the limits know. */
enum { ASSOC_TRES_CPU, ASSOC_TRES_MEM /* MB */, ASSOC_TRES_NODE,
       ASSOC_TRES_CNT };
typedef struct {
	uint64_t v[ASSOC_TRES_CNT];  /* ASSOC_NO_LIMIT = not set */
} assoc_tres_t;

/* Counters: jobs pending or running, jobs running, TRES they hold. */
typedef struct {
	uint32_t submit_jobs;
	uint32_t run_jobs;
	uint64_t run_tres[ASSOC_TRES_CNT];
} assoc_usage_t;

/* Time-based usage, refreshed at most once a second while a time-based
 * limit is set: running jobs' remaining TRES-seconds (GrpTRESRunMins),
 * decayed CPU-seconds and wall-seconds (GrpTRESMins, GrpWall; from the
 * fair-share usage, so PriorityDecayHalfLife applies). */
typedef struct {
	uint64_t run_secs[ASSOC_TRES_CNT];
	double   used_cpu_secs;
	double   used_wall_secs;
} assoc_time_usage_t;

/* QOS flags. */
enum { ASSOC_QOS_DENY_ON_LIMIT = 0x01,
       ASSOC_QOS_OVER_PART_QOS = 0x02 };  /* its limits win over a
					    * partition QOS's */

typedef struct assoc_qos {
	uint32_t      id;
	char         *name;
	uint32_t      priority;       /* Priority (QOS factor) */
	double        usage_factor;   /* UsageFactor, 1.0 default */
	uint32_t      flags;          /* ASSOC_QOS_* */
	uint64_t      grace_time;     /* GraceTime, seconds */
	char        **preempt;        /* Preempt: QOS names it may preempt */
	uint64_t      grp_jobs, grp_submit, grp_wall;   /* wall: minutes */
	uint64_t      max_jobs_pu, max_submit_pu, max_wall;
	assoc_tres_t  grp_tres, max_tres, max_tres_pu;
	/* TRES-minutes: GrpTRESMins (decayed usage), GrpTRESRunMins
	 * (running jobs' remaining), MaxTRESMins(PerJob) */
	assoc_tres_t  grp_tres_mins, grp_tres_run_mins, max_tres_mins;
	bool          has_limits;     /* any of the limits above set */
	assoc_usage_t usage;          /* every job of the QOS */
	assoc_time_usage_t tusage;    /* time-based usage (assoc_limits.c) */
} assoc_qos_t;

typedef struct assoc_rec {
	uint32_t          id;
	char             *acct;
	char             *user;       /* "" for an account's association */
	char             *partition;  /* "" = any */
	char             *parent_acct;
	struct assoc_rec *parent;     /* the account association above;
				       * NULL for root */
	uid_t             uid;        /* user's uid, (uid_t)-1 if unknown */
	uint32_t          shares;     /* Fairshare (raw shares) */
	uint64_t          grp_jobs, grp_submit, grp_wall;
	uint64_t          max_jobs, max_submit, max_wall;
	assoc_tres_t      grp_tres, max_tres, max_tres_pn;
	assoc_tres_t      grp_tres_mins, grp_tres_run_mins, max_tres_mins;
	/* in force: its own Max* limits, else the nearest account's */
	uint64_t          eff_max_jobs, eff_max_submit, eff_max_wall;
	assoc_tres_t      eff_max_tres, eff_max_tres_pn, eff_max_tres_mins;
	bool              grp_limited; /* a Grp* limit here or above */
	bool              time_limited; /* GrpTRES(Run)Mins/GrpWall here or
					 * above (not on root) */
	char            **qos;        /* QOS it may use (names) */
	char             *def_qos;    /* "" = none */
	assoc_usage_t     usage;      /* its jobs and those below it */
	assoc_time_usage_t tusage;    /* time-based usage, same */
} assoc_rec_t;

typedef struct {
	char        *name;            /* user name */
	uid_t        uid;             /* (uid_t)-1 if not a local user */
	char        *default_acct;
	assoc_admin_t admin_level;
	char       **coord_accts;     /* accounts it coordinates */
} assoc_user_t;

/* ---- life ---- */

/* Read the saved snapshot, start the loader (accounting via slurmdbd
 * only; otherwise the cache stays empty and nothing is enforced).
 * base is the loop (NULL: no loader thread, only the saved file).
 * 0 or -1 with err (also: a partition's QOS= that slurmdbd does not know
 * under AccountingStorageEnforce=qos, part_mgr_check_qos). */
int  assoc_mgr_init(const slurm_conf_t *c, struct event_base *base,
		    char *err, size_t errlen);
void assoc_mgr_fini(void);
/* Reload now (ACCOUNTING_UPDATE_MSG). */
void assoc_mgr_refresh(void);
/* scontrol reconfigure: AccountingStorageEnforce again (the accounting
 * storage itself is read at start only), and a reload. */
void assoc_mgr_reconfig(const slurm_conf_t *c);
/* ACCOUNTING_UPDATE_MSG handler (rpc.c). */
void assoc_mgr_rpc_update(net_conn_t *c, slurm_msg_t *m);
/* REQUEST_ASSOC_MGR_INFO (scontrol show assoc_mgr; assoc_mgr_show.c). */
void assoc_mgr_rpc_show(net_conn_t *c, slurm_msg_t *m);

/* Has a snapshot been loaded (from slurmdbd or the saved file)? */
bool     assoc_mgr_loaded(void);
/* AccountingStorageEnforce flags in force (ACCT_ENFORCE_*,
 * conf_params.h) (0 without a snapshot unless
 * associations are enforced: then nobody may submit). */
uint32_t assoc_mgr_enforce(void);
/* Snapshot generation: grows by one at every reload. */
uint64_t assoc_mgr_generation(void);
/* Remote licenses (sacctmgr resource) this cluster may use: "name@server"
 * and its share of the count (Allowed=, or Count x PercentAllowed). */
typedef struct {
	char     *name;
	uint32_t  count;
} assoc_remote_lic_t;
const assoc_remote_lic_t *assoc_mgr_remote_licenses(size_t *cnt);
/* TrackWCKey: the id of user's wckey name on this cluster (0 if the
 * user has no such wckey); the user's default wckey (NULL if none). */
uint32_t    assoc_mgr_wckey_id(const char *user, const char *name);
const char *assoc_mgr_wckey_default(const char *user);
/* Called (loop thread) after each new snapshot is in place. */
void     assoc_mgr_on_reload(void (*cb)(void *arg), void *arg);

/* ---- lookups ---- */

/* The association a job of uid in account acct (NULL/"" = the user's
 * default) and partition part (NULL = any) runs under: the user's
 * partition association if there is one, else its account one.  NULL if
 * the user has none there. */
assoc_rec_t  *assoc_mgr_find(uid_t uid, const char *acct, const char *part);
assoc_rec_t  *assoc_mgr_find_id(uint32_t id);
/* Account association (user ""). */
assoc_rec_t  *assoc_mgr_find_acct(const char *acct);
/* Every association, in no particular order (fair-share walks these). */
assoc_rec_t **assoc_mgr_all(size_t *cnt);

assoc_user_t *assoc_mgr_user(uid_t uid);
assoc_user_t *assoc_mgr_user_name(const char *name);
/* AdminLevel of uid: root and SlurmUser are Administrators. */
assoc_admin_t assoc_mgr_admin_level(uid_t uid);
/* Does uid coordinate acct or an account above it? */
bool          assoc_mgr_is_coord(uid_t uid, const char *acct);

assoc_qos_t  *assoc_mgr_qos(const char *name);
assoc_qos_t  *assoc_mgr_qos_id(uint32_t id);
/* Highest QOS Priority (the QOS factor's denominator), 0 if none. */
uint32_t      assoc_mgr_qos_max_priority(void);
/* The QOS a partition's QOS= names (any case), NULL if none or unknown.
 * Its limits apply to every job of the partition besides the job's own
 * QOS (assoc_limits.c); it is not the job's QOS. */
assoc_qos_t  *assoc_mgr_part_qos(const struct part_record *p);

/* ---- jobs (assoc_limits.c) ---- */

/* At submit: fill the default account and QOS into the request, check
 * the association, QOS and submit limits (part: the job's partition, NULL
 * = none; its QOS's limits too) against *time_limit, the job's limit.
 * With limits enforced, a request that gave no time limit gets the
 * MaxWall of its QOS (else of its association), at most the partition's
 * MaxTime, in *time_limit, as Slurm does.  0, or a Slurm error with *msg
 * (caller frees) for the user. */
int      assoc_mgr_submit_check(job_desc_t *d, uid_t uid,
				const struct part_record *part,
				uint32_t *time_limit, char **msg);
/* Scheduler: WAIT_NO_REASON, or the AssocMax*, AssocGrp* or QOS* reason that
 * keeps the job pending now.  The QOS* limits are those of the job's
 * partition QOS and of its own QOS: for each limit, the partition QOS's
 * where it sets one, else the job QOS's; the other way round when the
 * job's QOS has OverPartQOS.  Each counts against its own QOS's usage. */
uint32_t assoc_mgr_job_reason(struct job_record *j, time_t now);
/* sshare -l: an association's GrpTRESMins ("cpu=100,mem=2000", "" if
 * none) and its running jobs' remaining TRES-minutes
 * ("cpu=N,mem=N,energy=0,node=N,billing=N,fs/disk=0,vmem=0,pages=0").
 * Caller frees. */
char    *assoc_mgr_grp_tres_mins_str(const assoc_rec_t *a);
char    *assoc_mgr_tres_run_mins_str(assoc_rec_t *a, time_t now);
/* A running job the time-based limits end now (Slurm's
 * acct_policy_job_time_out): its association's (or an account's above
 * it) or QOS's GrpTRESMins (cpu) or GrpWall reached, or its own
 * TRES x minutes run reaching MaxTRESMins(PerJob).  Logs why. */
bool     assoc_mgr_job_time_out(struct job_record *j, time_t now);
/* Job lists (job_mgr.c): the job became pending (+1) or left it (-1),
 * started running (+1) or stopped (-1). */
void     assoc_mgr_job_pending(struct job_record *j, int delta);
void     assoc_mgr_job_running(struct job_record *j, int delta);

#endif
