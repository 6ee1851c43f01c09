/* cli_shares.h — the fair-share table: sshare's columns and its --json,
 * and slurmrestd's GET shares (Slurm 25.05's shares_resp_msg), from one
 * set of rows.
 *
 * A record is one line of the controller's RESPONSE_SHARE_INFO table (an
 * account, or a user under an account).  cli_share_fields are cli_table.h
 * rows (sshare -o names, widths, text) that also carry the line's JSON
 * member (assoc_shares_obj); rows without a name are JSON members only.
 */
#ifndef SLUICE_CLI_SHARES_H
#define SLUICE_CLI_SHARES_H

#include <json-c/json.h>
#include <stdbool.h>

#include "cli/cli_fields.h"
#include "common/msg_types.h"

typedef struct {
	const table_resp_msg_t *t;
	char                  **c;          /* the line's cells */
	int                     depth;
	bool                    user;       /* a user line */
	const char             *parent;     /* the account above, or "" */
	bool                    flat;       /* -U: accounts not indented */
} cli_share_rec_t;

extern const cli_field_t cli_share_fields[];

/* Column name's index in t, or -1. */
int  cli_shares_col(const table_resp_msg_t *t, const char *name);
/* Line i of t as a record; parents[] carries the account of each depth
 * from line to line (start it zeroed, release with
 * cli_shares_parents_free). */
#define CLI_SHARES_MAX_DEPTH 64
void cli_shares_rec(cli_share_rec_t *rec, const table_resp_msg_t *t,
		    size_t i, char *parents[CLI_SHARES_MAX_DEPTH]);
void cli_shares_parents_free(char *parents[CLI_SHARES_MAX_DEPTH]);
/* Lines in t. */
size_t cli_shares_count(const table_resp_msg_t *t);

/* {"shares": [assoc_shares_obj...], "total_shares": N} from the
 * controller's RESPONSE_SHARE_INFO table. */
json_object *cli_shares_json(const table_resp_msg_t *t);

#endif
