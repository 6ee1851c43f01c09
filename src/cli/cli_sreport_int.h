/* cli_sreport_int.h — what the report builders share (cli_sreport_rep.c,
 * cli_sreport_wckey.c): slurmdbd's answer, parsed. */
#ifndef SLUICE_CLI_SREPORT_INT_H
#define SLUICE_CLI_SREPORT_INT_H

#include "cli/cli_sreport.h"

typedef struct {
	char     *name;
	char     *parent;
	uint64_t  secs;          /* jobs of this account itself */
	uint64_t  count;
	uint64_t  sub_secs;      /* with every account below it */
	uint64_t  sub_count;
} sr_acct_t;

/* A "use", "size", "wuse", "wsize" or "quse" row (msg_types.h). */
typedef struct {
	const char *account;
	const char *key;         /* wckey or QOS ("" for the others) */
	uint32_t    uid;
	uint32_t    cpus;
	uint64_t    secs;
	uint64_t    count;
} sr_use_t;

typedef struct {
	uint64_t   cap, down, pdown, alloc, plan, over;
	uint64_t   cpus;
	sr_acct_t *accts;
	uint32_t   nacct;
	sr_use_t  *uses;
	uint32_t   nuse;
} sr_data_t;

/* Login and "Proper Name" (GECOS up to its first comma); caller frees. */
void sr_user_names(uint32_t uid, char **login, char **proper);
/* The banner with "Usage reported in CPU Minutes" (or the -t units). */
void sr_usage_banner(const sreport_t *o, const char *title);
/* UserUtilizationByWckey and WCKeyUtilizationByUser: d[k] the figures
 * of -T's TRES k (n of them), rows of each TRES after the other's. */
int  sr_wckey_usage(const sreport_t *o, const sr_data_t *d, uint32_t n);
/* reservation Utilization from DBD_REPORT_RESV_COLS rows
 * (cli_sreport_resv.c). */
int  sr_resv_util(const sreport_t *o, const table_resp_msg_t *r);

/* One request to slurmdbd answered by resp_type: the answer's body
 * (the caller frees it), or NULL after Slurm's "Problem talking to the
 * database" error. */
void *sreport_dbd_call(uint16_t type, void *req, uint16_t resp_type);

#endif
