/* debug_flags.h — slurm.conf DebugFlags: a bit per subsystem, and
 * log_flag(FLAG, fmt, ...) which, when FLAG is set in this process, logs
 * "FLAG: ..." at info level whatever SlurmctldDebug/SlurmdDebug say, as
 * Slurm's does.  Each daemon sets its flags from the config at start and
 * reconfigure; `scontrol setdebugflags` changes the controller's at run
 * time (ctld/debug_rpc.c).
 */
#ifndef SLUICE_DEBUG_FLAGS_H
#define SLUICE_DEBUG_FLAGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/log.h"

/* Slurm 25.05's flags, in the order `scontrol show config` prints them. */
typedef enum {
	DEBUG_FLAG_ACCRUE, DEBUG_FLAG_AGENT, DEBUG_FLAG_AUDIT_RPCS,
	DEBUG_FLAG_AUDIT_TLS, DEBUG_FLAG_BACKFILL, DEBUG_FLAG_BACKFILL_MAP,
	DEBUG_FLAG_BURST_BUF, DEBUG_FLAG_CGROUP, DEBUG_FLAG_CONMGR,
	DEBUG_FLAG_CPU_BIND, DEBUG_FLAG_CPU_FREQ, DEBUG_FLAG_DATA,
	DEBUG_FLAG_DB_AGENT, DEBUG_FLAG_DEPENDENCY, DEBUG_FLAG_ESEARCH,
	DEBUG_FLAG_ENERGY, DEBUG_FLAG_FEDR, DEBUG_FLAG_FRONT_END,
	DEBUG_FLAG_GANG, DEBUG_FLAG_GLOB_SILENCE, DEBUG_FLAG_GRES,
	DEBUG_FLAG_HETJOB, DEBUG_FLAG_JAG, DEBUG_FLAG_JOBCOMP,
	DEBUG_FLAG_JOB_CONT, DEBUG_FLAG_LICENSE, DEBUG_FLAG_NET,
	DEBUG_FLAG_NET_RAW, DEBUG_FLAG_NODE_FEATURES, DEBUG_FLAG_NO_CONF_HASH,
	DEBUG_FLAG_POWER, DEBUG_FLAG_PRIO, DEBUG_FLAG_PROFILE,
	DEBUG_FLAG_PROTOCOL, DEBUG_FLAG_RESERVATION, DEBUG_FLAG_ROUTE,
	DEBUG_FLAG_SCRIPT, DEBUG_FLAG_SELECT_TYPE, DEBUG_FLAG_STEPS,
	DEBUG_FLAG_SWITCH, DEBUG_FLAG_TLS, DEBUG_FLAG_TRACE_JOBS,
	DEBUG_FLAG_TRIGGERS,
	DEBUG_FLAG_CNT
} debug_flag_t;

#define DEBUG_FLAG_BIT(f) (UINT64_C(1) << (f))

/* The running process's flags (read by log_flag; set with
 * debug_flags_set). */
extern uint64_t debug_flags_now;

#define debug_flag_on(f) ((debug_flags_now & DEBUG_FLAG_BIT(DEBUG_FLAG_##f)) != 0)
#define log_flag(f, fmt, ...)                                                  \
	do {                                                                   \
		if (debug_flag_on(f))                                          \
			info(#f ": " fmt, ##__VA_ARGS__);                      \
	} while (0)

/* "Backfill,Steps" (case-insensitive, ',' separated; empty: none) into
 * *mask.  -1 on an unknown name, which is copied to bad; *mask unchanged. */
int         debug_flags_parse(const char *list, uint64_t *mask, char *bad,
			      size_t badlen);
/* "Backfill,Steps" in table order; NULL when mask is 0.  Caller frees. */
char       *debug_flags_string(uint64_t mask);
/* The config name of one flag ("TraceJobs"). */
const char *debug_flag_name(debug_flag_t f);
void        debug_flags_set(uint64_t mask);
/* Set from a config value already checked by the parser (bad names
 * skipped). */
void        debug_flags_set_conf(const char *list);

#endif
