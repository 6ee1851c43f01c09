/* auth_token.h — scontrol token: the controller mints auth/jwt tokens
 * (REQUEST_AUTH_TOKEN), as Slurm's: for the caller, or for any user when
 * root or SlurmUser asks; lifespan 1800 s unless asked, at most
 * AuthAltParameters max_token_lifespan= for other users; none at all
 * without AuthAltTypes=auth/jwt, and only for root and SlurmUser with
 * disable_token_creation. */
#ifndef SLUICE_CTLD_AUTH_TOKEN_H
#define SLUICE_CTLD_AUTH_TOKEN_H

#include "common/net.h"

void auth_token_rpc(net_conn_t *c, slurm_msg_t *m);

#endif
