/* cli_ping.c — pinging each SlurmctldHost. */
#include "cli/cli_ping.h"

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "cli/cli_common.h"
#include "common/msg.h"
#include "common/msg_types.h"
#include "common/net.h"

static const char *ctld_role(size_t i, char *buf, size_t len)
{
	if (i == 0)
		return "primary";
	if (i == 1)
		return "backup";
	snprintf(buf, len, "backup%zu", i);
	return buf;
}

static json_object *ping_json(const char *host, const char *role, size_t i,
			      bool up, long latency_us)
{
	json_object *p = json_object_new_object();

	json_object_object_add(p, "hostname", json_object_new_string(host));
	json_object_object_add(p, "pinged",
			       json_object_new_string(up ? "UP" : "DOWN"));
	json_object_object_add(p, "responding", json_object_new_boolean(up));
	json_object_object_add(p, "latency", json_object_new_int64(latency_us));
	json_object_object_add(p, "mode", json_object_new_string(role));
	json_object_object_add(p, "primary", json_object_new_boolean(i == 0));
	return p;
}

json_object *cli_ping_ctlds(int *down)
{
	const slurm_conf_t *c = cli_conf();
	json_object *pings = json_object_new_array();

	*down = 0;
	for (size_t i = 0; c && i < c->ctld_host_cnt; i++) {
		slurm_msg_t resp;
		struct timespec t0, t1;
		int err, rc;
		char role[32];

		clock_gettime(CLOCK_MONOTONIC, &t0);
		err = cli_ctld_rpc_at(i, REQUEST_PING, NULL, &resp);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		rc = err ? 0 : cli_resp_rc(&resp);
		if (!err)
			msg_free(&resp);
		if (err || rc)
			(*down)++;
		json_object_array_add(pings, ping_json(
			c->ctld_hosts[i], ctld_role(i, role, sizeof(role)), i,
			!(err || rc),
			(t1.tv_sec - t0.tv_sec) * 1000000L +
			(t1.tv_nsec - t0.tv_nsec) / 1000));
	}
	return pings;
}

json_object *cli_ping_dbd(bool *up)
{
	const slurm_conf_t *c = cli_conf();
	const char *host = c && c->accounting_storage_host ?
		c->accounting_storage_host : "localhost";
	json_object *p = json_object_new_object();
	struct timespec t0, t1;
	slurm_msg_t resp = { 0 };
	int rc;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = c ? net_rpc(host, c->accounting_storage_port, REQUEST_PING, NULL,
			 &resp, c->message_timeout * 1000) : -1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (rc == 0)
		rc = cli_resp_rc(&resp);
	msg_free(&resp);
	*up = rc == 0;
	json_object_object_add(p, "hostname", json_object_new_string(host));
	json_object_object_add(p, "responding", json_object_new_boolean(*up));
	json_object_object_add(p, "latency", json_object_new_int64(
		(t1.tv_sec - t0.tv_sec) * 1000000L +
		(t1.tv_nsec - t0.tv_nsec) / 1000));
	json_object_object_add(p, "primary", json_object_new_boolean(1));
	return p;
}
