/* cli_sacctmgr_conf.c — `sacctmgr show configuration`: the accounting
 * settings of this host's slurm.conf, then slurmdbd's own
 * (REQUEST_DBD_CONFIG), in Slurm's layout. */
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli/cli_common.h"
#include "cli/cli_sacctmgr.h"
#include "common/conf.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

bool cli_sacctmgr_is_config(int argc, char **argv)
{
	size_t n = argc >= 2 ? strlen(argv[1]) : 0;

	return argc >= 2 && (!strcasecmp(argv[0], "show") ||
			     !strcasecmp(argv[0], "list")) &&
	       n >= 4 && n <= 13 && !strncasecmp(argv[1], "configuration", n);
}

static void line(const char *k, const char *v)
{
	printf("%-22s = %s\n", k, v ? v : "(null)");
}

static const char *set_or(const slurm_conf_t *c, const char *key,
			  const char *dflt)
{
	const char *v = conf_get_set(c, key);

	return v ? v : dflt;
}

static void local_part(const slurm_conf_t *c)
{
	struct passwd *pw = getpwuid(c->slurm_user_id);
	char buf[128];

	line("AccountingStorageBackupHost",
	     conf_get_set(c, "AccountingStorageBackupHost"));
	line("AccountingStorageHost", c->accounting_storage_host ?
	     c->accounting_storage_host : "localhost");
	line("AccountingStorageParameters",
	     conf_get_set(c, "AccountingStorageParameters"));
	line("AccountingStoragePass",
	     conf_get_set(c, "AccountingStoragePass"));
	snprintf(buf, sizeof(buf), "%u", c->accounting_storage_port);
	line("AccountingStoragePort", buf);
	line("AccountingStorageType", c->accounting_storage_type ?
	     c->accounting_storage_type : "accounting_storage/none");
	line("AccountingStorageUser",
	     set_or(c, "AccountingStorageUser", "N/A"));
	line("AuthType", c->auth_type);
	snprintf(buf, sizeof(buf), "%u sec", c->message_timeout);
	line("MessageTimeout", buf);
	line("PluginDir", c->plugin_dir);
	line("PrivateData", set_or(c, "PrivateData", "none"));
	snprintf(buf, sizeof(buf), "%s(%u)", pw ? pw->pw_name : "?",
		 (unsigned)c->slurm_user_id);
	line("SlurmUserId", buf);
	line("SLURM_CONF", c->path);
	line("SLURM_VERSION", SLUICE_VERSION_STRING);
	line("TCPTimeout", "2 sec");
	line("TrackWCKey", set_or(c, "TrackWCKey", "No"));
}

int cli_sacctmgr_config(int argc, char **argv)
{
	const slurm_conf_t *c = cli_conf();
	const char *host = c->accounting_storage_host ?
		c->accounting_storage_host : "localhost";
	const config_info_msg_t *m;
	slurm_msg_t resp = { 0 };
	char now[32];
	int rc;

	if (argc > 2) {
		fprintf(stderr, " Unknown condition: %s\n", argv[2]);
		return 1;
	}
	fmt_time(time(NULL), now, sizeof(now));
	printf("Configuration data as of %s\n", now);
	local_part(c);
	rc = net_rpc(host, c->accounting_storage_port, REQUEST_DBD_CONFIG,
		     NULL, &resp, c->message_timeout * 1000);
	if (rc) {
		error("slurmdbd: Sending message to %s:%u failed: %s", host,
		      c->accounting_storage_port, slurm_strerror(rc));
		return 1;
	}
	if (resp.type != RESPONSE_BUILD_INFO) {
		rc = cli_resp_rc(&resp);
		fprintf(stderr, " Problem getting slurmdbd's configuration: "
			"%s\n", slurm_strerror(rc ? rc :
					       SLURM_UNEXPECTED_MSG_ERROR));
		msg_free(&resp);
		return 1;
	}
	m = resp.data;
	printf("\nSlurmDBD configuration:\n");
	for (uint32_t i = 0; i < m->cnt; i++)
		line(m->keys[i], m->values[i]);
	msg_free(&resp);
	return 0;
}
