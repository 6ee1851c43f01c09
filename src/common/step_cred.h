/* step_cred.h — job step credentials: what the controller grants a step
 * and what slurmd checks before it runs anything.
 *
 * The controller packs a step_cred_t (the payload, sent hex-encoded) and
 * signs a SHA-256 digest of it with the auth plugin (a MUNGE credential),
 * once per node of the step: every slurmd verifies its own signature, so
 * MUNGE's replay cache refuses a signature shown twice.  A verifier
 * requires the signer to be root or SlurmUser, the digest to match the
 * payload (a changed node list breaks it), the credential not to have
 * expired, and its node to be one of the step's.
 */
#ifndef SLUICE_STEP_CRED_H
#define SLUICE_STEP_CRED_H

#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#define STEP_CRED_TTL 120          /* seconds a credential is good for */

typedef struct {
	uint32_t  job_id;
	uint32_t  step_id;
	uint32_t  uid;
	uint32_t  gid;
	char     *user_name;
	char     *node_list;      /* the step's nodes, ranged */
	char     *cpus_per_node;  /* "2,2,1" in node order */
	uint64_t  mem_per_node;   /* MB, 0 = no limit */
	time_t    expiry;
	char     *job_node_list;  /* the allocation */
	char     *cpu_ids;        /* the step's node CPU ids in node order,
				     ';'-separated ("0-1;2;"), an empty item
				     when unknown */
	char     *gpu_idx;        /* the job's GPUs (gres indexes) on each
				     step node, ';'-separated ("0;1-2;") */
	char     *gids;           /* the user's groups ("27,100"), looked up
				     by the controller; NULL: unknown there,
				     the node asks NSS */
	uint32_t  profile;        /* the job's --profile (profile.h) */
	char     *acctg_freq;     /* the job's --acctg-freq, or NULL */
} step_cred_t;

/* Item node_id of cpu_ids / gpu_idx, xmalloc'd; NULL if empty or
 * missing. */
char *step_cred_node_cpus(const step_cred_t *c, uint32_t node_id);
char *step_cred_node_gpus(const step_cred_t *c, uint32_t node_id);

/* Hex of the packed payload (caller xfree()s). */
char *step_cred_encode(const step_cred_t *c);
/* Signature over a payload (hex text as sent); *sig xmalloc'd.
 * 0 or a slurm_err_t. */
int   step_cred_sign(const char *payload_hex, char **sig);
/* Check sig over payload_hex as described above for node `node` at time
 * now; signer must be uid 0 or slurm_uid.  On success *out holds the
 * decoded credential (step_cred_free).  Else a slurm_err_t
 * (ESLURMD_INVALID_JOB_CREDENTIAL, ESLURMD_CREDENTIAL_EXPIRED,
 * ESLURMD_CREDENTIAL_REPLAYED) and *why says what failed. */
int   step_cred_verify(const char *payload_hex, const char *sig,
		       uid_t slurm_uid, const char *node, time_t now,
		       step_cred_t **out, const char **why);
/* Decode only (no signature check): for tests and fuzzing.  NULL if bad. */
step_cred_t *step_cred_decode(const char *payload_hex);
void  step_cred_free(step_cred_t *c);

#endif
