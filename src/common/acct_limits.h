/* acct_limits.h — the longest string each field a job, step, reservation,
 * node event or association may carry: one table.
 *
 * The table decides three things, so they cannot drift apart: slurmdbd
 * builds its columns' types from it (acct_limit_sql_type), slurmctld and
 * slurmdbd refuse a request that carries a longer string where it enters
 * (acct_limits_msg, with the row's Slurm error), and so no record the
 * controller sends can be too long for its column.  Lengths are in bytes.
 */
#ifndef SLUICE_ACCT_LIMITS_H
#define SLUICE_ACCT_LIMITS_H

#include <stdint.h>

typedef enum {
	ACCT_LIM_CLUSTER,         /* names: VARCHAR columns */
	ACCT_LIM_ACCOUNT,
	ACCT_LIM_USER,
	ACCT_LIM_PARTITION,       /* a job's may be a list: "a,b" */
	ACCT_LIM_QOS,
	ACCT_LIM_WCKEY,
	ACCT_LIM_JOB_NAME,        /* text: TEXT columns */
	ACCT_LIM_STEP_NAME,
	ACCT_LIM_COMMENT,
	ACCT_LIM_SUBMIT_LINE,
	ACCT_LIM_CONSTRAINTS,
	ACCT_LIM_ARRAY,           /* --array and the pending tasks' string */
	ACCT_LIM_RESV_NAME,
	ACCT_LIM_RESV_USERS,
	ACCT_LIM_RESV_ACCOUNTS,
	ACCT_LIM_NODE_REASON,
	ACCT_LIM_DESCRIPTION,
	ACCT_LIM_ORGANIZATION,
	ACCT_LIM_QOS_LIST,        /* an association's QOS list */
	ACCT_LIM_DB_ERROR,        /* slurmdbd's note of a set-aside record */
	ACCT_LIM_PATH,            /* work dir, output files, container */
	ACCT_LIM_TRACK_NAME,      /* a tracked metric's or param's name */
	ACCT_LIM_TRACK_TEXT,      /* a tracked param's value */
	ACCT_LIM_OTHER,           /* every other string a request carries */
	ACCT_LIM_CNT
} acct_limit_t;

/* The most bytes field f may hold; its name in messages ("account"). */
uint32_t    acct_limit_max(acct_limit_t f);
const char *acct_limit_name(acct_limit_t f);
/* 0 if s (NULL is fine) fits f, else f's Slurm error. */
int         acct_limit_check(acct_limit_t f, const char *s);
/* The MariaDB column type that holds f: "VARCHAR(64)", "TEXT", ...
 * (static storage). */
const char *acct_limit_sql_type(acct_limit_t f);

/* Check every string a request of this message type carries (job, step,
 * reservation and node updates for slurmctld; sacctmgr's adds and
 * changes for slurmdbd).  0, or the Slurm error of the first field too
 * long, with *why (caller frees) saying which field, how long it is and
 * its limit.  Types without strings to check return 0. */
int acct_limits_msg(uint16_t type, const void *data, char **why);

#endif
