/* dbd_conf_show.c — slurmdbd's configuration as "sacctmgr show
 * configuration" prints it (Slurm's keys, order and words: "(null)"
 * for a value not set, "No" for a feature Sluice's slurmdbd does not
 * have, durations in "secs"). */
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>

#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "dbd/dbd_conf.h"
#include "dbd/dbd_db.h"

static void kv(config_info_msg_t *m, const char *k, const char *v)
{
	m->keys = xrealloc(m->keys, (m->cnt + 2) * sizeof(char *));
	m->values = xrealloc(m->values, (m->cnt + 2) * sizeof(char *));
	m->keys[m->cnt] = xstrdup(k);
	m->values[m->cnt] = xstrdup(v ? v : "(null)");
	m->cnt++;
	m->keys[m->cnt] = m->values[m->cnt] = NULL;
}

static void kvf(config_info_msg_t *m, const char *k, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void kvf(config_info_msg_t *m, const char *k, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	kv(m, k, buf);
}

static void purge(config_info_msg_t *m, const char *k, const dbd_purge_t *p)
{
	static const char *const units[] = { "", "hours", "days", "months" };

	if (!p->count || p->unit < DBD_PURGE_HOURS ||
	    p->unit > DBD_PURGE_MONTHS)
		kv(m, k, "NONE");
	else
		kvf(m, k, "%u %s", p->count, units[p->unit]);
}

static const char *yes(const dbd_conf_t *c, dbd_purge_kind_t k)
{
	return c->archive & (1u << k) ? "Yes" : "No";
}

config_info_msg_t *dbd_conf_show(const dbd_conf_t *c, time_t boot)
{
	static const char *const purge_keys[DBD_PURGE_CNT] = {
		"PurgeEventAfter", "PurgeJobAfter", "PurgeResvAfter",
		"PurgeStepAfter", "PurgeSuspendAfter", "PurgeTXNAfter",
		"PurgeUsageAfter",
	};
	config_info_msg_t *m = xmalloc(sizeof(*m));
	char buf[64];

	m->last_update = time(NULL);
	kv(m, "AllowNoDefAcct", "No");
	kv(m, "ArchiveDir", c->archive_dir ? c->archive_dir : "/tmp");
	kv(m, "ArchiveEvents", yes(c, DBD_PURGE_EVENT));
	kv(m, "ArchiveJobs", yes(c, DBD_PURGE_JOB));
	kv(m, "ArchiveResvs", yes(c, DBD_PURGE_RESV));
	kv(m, "ArchiveScript", NULL);
	kv(m, "ArchiveSteps", yes(c, DBD_PURGE_STEP));
	kv(m, "ArchiveSuspend", yes(c, DBD_PURGE_SUSPEND));
	kv(m, "ArchiveTXN", yes(c, DBD_PURGE_TXN));
	kv(m, "ArchiveUsage", yes(c, DBD_PURGE_USAGE));
	kv(m, "AuthAltTypes", c->auth_alt_types);
	kv(m, "AuthAltParameters", c->auth_alt_params);
	kv(m, "AuthInfo", c->auth_info);
	kv(m, "AuthType", c->auth_type);
	fmt_time(boot, buf, sizeof(buf));
	kv(m, "BOOT_TIME", buf);
	if (c->commit_delay)
		kvf(m, "CommitDelay", "%u", c->commit_delay);
	else
		kv(m, "CommitDelay", "No");
	kv(m, "CommunicationParameters", NULL);
	kv(m, "DbdAddr", c->dbd_addr ? c->dbd_addr : c->dbd_host);
	kv(m, "DbdBackupHost", NULL);
	kv(m, "DbdHost", c->dbd_host);
	kvf(m, "DbdPort", "%u", c->dbd_port);
	kv(m, "DebugFlags", NULL);
	kv(m, "DebugLevel", log_level_to_string(c->debug_level));
	kv(m, "DebugLevelSyslog", NULL);
	kv(m, "DefaultQOS", NULL);
	kv(m, "LogFile", c->log_file);
	if (c->max_query_range)
		kvf(m, "MaxQueryTimeRange", "%u secs", c->max_query_range);
	else
		kv(m, "MaxQueryTimeRange", "UNLIMITED");
	kvf(m, "MessageTimeout", "%u secs", c->message_timeout);
	kv(m, "Parameters", NULL);
	kv(m, "PidFile", c->pid_file);
	kv(m, "PluginDir", c->plugin_dir);
	kv(m, "PrivateData", c->private_data ? "restricted" : "none");
	for (int i = 0; i < DBD_PURGE_CNT; i++)
		purge(m, purge_keys[i], &c->purge[i]);
	kv(m, "SLURMDBD_CONF", c->path);
	kv(m, "SLURMDBD_VERSION", SLUICE_VERSION_STRING);
	kvf(m, "SlurmUser", "%s(%u)", c->slurm_user ? c->slurm_user : "root",
	    (unsigned)c->slurm_user_id);
	kv(m, "StorageBackupHost", NULL);
	kv(m, "StorageHost", c->storage_host);
	kv(m, "StorageLoc", c->storage_loc);
	kv(m, "StorageParameters", NULL);
	kvf(m, "StoragePort", "%u", c->storage_port);
	kv(m, "StorageType", c->storage_type);
	kv(m, "StorageUser", c->storage_user);
	kv(m, "TCPTimeout", "2 secs");
	kv(m, "TrackWCKey", c->track_wckey ? "Yes" : "No");
	kv(m, "TrackSlurmctldDown", "No");
	return m;
}
