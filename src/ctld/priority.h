/* priority.h — PriorityType: job priorities.  Built in: priority/basic
 * (FIFO: each new job just below the previous one; the default) and
 * priority/multifactor (weighted age, fair-share, job size, partition,
 * QOS, TRES, minus nice), recomputed for pending jobs every
 * PriorityCalcPeriod.  Any other name is PluginDir/priority_<name>.so
 * exporting priority_ops_t (ctld/priority_plugin.h): its ops see job
 * views (common/job_view.h), not the controller's records.
 *
 * Every op runs on the controller's loop thread and must not block:
 * new_job on each submission, recalc over the whole pending queue every
 * PriorityCalcPeriod (in batches of PRIORITY_RECALC_BATCH views), factors
 * per job of a sprio request.
 *
 * Fair-share comes from a hook the accounting side installs; without one
 * the factor is 1.0.  A priority set by an operator (sbatch --priority,
 * scontrol update Priority=) is kept as set.
 */
#ifndef SLUICE_CTLD_PRIORITY_H
#define SLUICE_CTLD_PRIORITY_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "common/msg_types.h"
#include "common/net.h"
#include "common/plugin_ctx.h"
#include "ctld/priority_plugin.h"

struct event_base;
struct job_record;

/* Weights and options of priority/multifactor, from slurm.conf. */
typedef struct {
	uint32_t w_age, w_fs, w_js, w_part, w_qos, w_assoc;
	uint32_t w_tres_cpu, w_tres_mem, w_tres_node;
	uint32_t max_age;          /* s */
	uint32_t calc_period;      /* s */
	bool     favor_small;
	bool     accrue_always;    /* PriorityFlags=ACCRUE_ALWAYS */
	bool     calc_running;     /* PriorityFlags=CALCULATE_RUNNING */
	char    *tres;             /* PriorityWeightTRES as configured */
} priority_conf_t;

/* Read the Priority* keys of conf into pc (free with priority_conf_free).
 * -1 + err on a bad value. */
int  priority_conf_load(const slurm_conf_t *conf, priority_conf_t *pc,
			char *err, size_t errlen);
void priority_conf_free(priority_conf_t *pc);


/* Factors of j at now (out's norm_* and weighted values).  Pure: used
 * by the controller and by unit tests on synthetic jobs. */
uint32_t priority_compute(const priority_conf_t *pc,
			  const priority_totals_t *tot,
			  const struct job_record *j, time_t now,
			  priority_factors_t *out);

/* Views per recalc call (bounds the memory of a pass). */
#define PRIORITY_RECALC_BATCH 256

/* The type with its built-ins (ctld_plugins.c checks a new config). */
extern const plugin_type_t priority_plugin_type;

/* Fair-share factor in [0,1] of a job's user/account (acct installs). */
typedef double (*priority_fairshare_f)(uint32_t uid, const char *account);
void priority_set_fairshare_hook(priority_fairshare_f f);

/* Load PriorityType from ctld_conf() (at reconfigure: an init that fails
 * keeps the old plugin) and arm the recalc timer on base. */
void priority_init(struct event_base *base);
void priority_fini(void);
void priority_reconfig(void);
/* The plugin has factors (sprio shows them). */
bool priority_is_multifactor(void);
/* Priority of a new job before nice: basic counts down, multifactor
 * computes. */
uint32_t priority_new_job(struct job_record *j, time_t now);
/* Recompute every pending job's priority and resort the queue. */
void priority_recalc(time_t now);

/* REQUEST_PRIORITY_FACTORS (sprio). */
void priority_rpc_factors(net_conn_t *c, slurm_msg_t *m);

#endif
