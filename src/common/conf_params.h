/* conf_params.h — slurm.conf values that are lists of words:
 * PrivateData, AccountingStorageEnforce and the rl_* keys of
 * SlurmctldParameters.
 *
 * conf_keys checks them when the file is read (a bad value is an error
 * naming the file and line); slurmctld reads them again from the stored
 * strings to act on them.
 */
#ifndef SLUICE_CONF_PARAMS_H
#define SLUICE_CONF_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* PrivateData=: what it hides from users who are not operators. */
enum {
	PRIVATE_DATA_JOBS         = 1 << 0,
	PRIVATE_DATA_NODES        = 1 << 1,
	PRIVATE_DATA_PARTITIONS   = 1 << 2,
	PRIVATE_DATA_USAGE        = 1 << 3,
	PRIVATE_DATA_USERS        = 1 << 4,
	PRIVATE_DATA_ACCOUNTS     = 1 << 5,
	PRIVATE_DATA_RESERVATIONS = 1 << 6,
	PRIVATE_DATA_EVENTS       = 1 << 7,
};

/* "jobs,nodes" / "all" / "none" -> PRIVATE_DATA_* bits.  0, or -1 with
 * a message in err naming the unknown word. */
int conf_parse_private_data(const char *val, uint32_t *out, char *err,
			    size_t errlen);

/* AccountingStorageEnforce=associations,limits,qos,safe,... */
enum {
	ACCT_ENFORCE_ASSOCS  = 0x01,
	ACCT_ENFORCE_LIMITS  = 0x02,
	ACCT_ENFORCE_QOS     = 0x04,
	ACCT_ENFORCE_SAFE    = 0x08,
	ACCT_ENFORCE_WCKEYS  = 0x10,
	ACCT_ENFORCE_NOJOBS  = 0x20,
	ACCT_ENFORCE_NOSTEPS = 0x40,
};

/* PrologFlags= (Slurm 22.05's words; Contain implies Alloc). */
enum {
	PROLOG_FLAG_ALLOC      = 1 << 0,
	PROLOG_FLAG_CONTAIN    = 1 << 1,
	PROLOG_FLAG_DEFERBATCH = 1 << 2,
	PROLOG_FLAG_NOHOLD     = 1 << 3,
	PROLOG_FLAG_FORCE_REQUEUE_ON_FAIL = 1 << 4,
	PROLOG_FLAG_SERIAL     = 1 << 5,
	PROLOG_FLAG_X11        = 1 << 6,
};
/* "Alloc,Contain" -> PROLOG_FLAG_* bits.  0, or -1 with a message in
 * err naming the unknown word. */
int conf_parse_prolog_flags(const char *val, uint32_t *out, char *err,
			    size_t errlen);

/* AccountingStoreFlags= : what slurmdbd keeps beyond the job record. */
enum {
	ACCT_STORE_JOB_COMMENT = 1 << 0,   /* the job's comment */
	ACCT_STORE_JOB_ENV     = 1 << 1,   /* a batch job's environment */
	ACCT_STORE_JOB_EXTRA   = 1 << 2,   /* the extra field (Sluice has none) */
	ACCT_STORE_JOB_SCRIPT  = 1 << 3,   /* a batch job's script */
	ACCT_STORE_NO_STDIO    = 1 << 4,   /* no stdin/out/err paths */
};
/* "job_script,job_env" -> ACCT_STORE_* bits.  0, or -1 with a message in
 * err naming the unknown word. */
int conf_parse_acct_store_flags(const char *val, uint32_t *out, char *err,
				size_t errlen);

/* As Slurm: limits, qos and safe imply associations; safe implies
 * limits; "all" is everything but nojobs/nosteps; "none"/"0" nothing.
 * 0, or -1 with a message in err naming the unknown word. */
int conf_parse_acct_enforce(const char *val, uint32_t *out, char *err,
			    size_t errlen);

/* RequeueExit=/RequeueExitHold=: exit codes 0-255 as "1-9,18".  Sets
 * bit c of out (256 bits) for each code listed; NULL or "" lists none.
 * 0, or -1 with a message in err naming the key and the bad word. */
int conf_parse_exit_list(const char *key, const char *val, uint8_t out[32],
			 char *err, size_t errlen);
static inline bool conf_exit_listed(const uint8_t bits[32], unsigned code)
{
	return code < 256 && (bits[code / 8] >> (code % 8)) & 1;
}

/* Per-user RPC rate limiting (SlurmctldParameters=rl_enable,...). */
typedef struct {
	bool     enable;          /* rl_enable */
	uint32_t bucket_size;     /* rl_bucket_size (30) */
	uint32_t refill_rate;     /* rl_refill_rate (10) */
	uint32_t refill_period;   /* rl_refill_period, seconds (1) */
	uint32_t table_size;      /* rl_table_size (8192) */
	int32_t  log_freq;        /* rl_log_freq: lines a second, -1 none, 0 all */
} rl_conf_t;

/* The rl_* keys of a SlurmctldParameters value (NULL: defaults,
 * disabled).  Other keys are left to their readers.  0, or -1 with a
 * message in err. */
int conf_parse_rl(const char *params, rl_conf_t *out, char *err,
		  size_t errlen);

#endif
