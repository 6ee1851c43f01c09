/* config_info.h — `scontrol show config`: REQUEST_BUILD_INFO. */
#ifndef SLUICE_CTLD_CONFIG_INFO_H
#define SLUICE_CTLD_CONFIG_INFO_H

#include "common/net.h"

void config_info_rpc(net_conn_t *conn, slurm_msg_t *msg);

#endif
