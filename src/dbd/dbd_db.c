/* dbd_db.c — MariaDB connection, schema migrations, query helpers. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <mysql.h>
#include <errmsg.h>

#include "common/acct_limits.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "dbd/dbd_db.h"

struct dbd_db {
	MYSQL            *my;
	const dbd_conf_t *conf;
	bool              in_txn;
	unsigned int      last_errno;     /* of the last failed statement */
	char              last_error[512];
};

/* ---- the schema: migrations in order; version N = first N applied ----
 *
 * DDL commits on its own in MariaDB, so a migration interrupted half way
 * is simply run again: every statement must be safe to repeat (IF NOT
 * EXISTS, INSERT IGNORE). */

#define TIME_COLS \
	"creation_time BIGINT NOT NULL DEFAULT 0, " \
	"mod_time BIGINT NOT NULL DEFAULT 0, " \
	"deleted TINYINT NOT NULL DEFAULT 0"
#define LIMIT_COLS \
	"grp_jobs INT UNSIGNED NULL, grp_submit INT UNSIGNED NULL, " \
	"grp_wall INT UNSIGNED NULL, max_jobs INT UNSIGNED NULL, " \
	"max_submit INT UNSIGNED NULL, max_wall INT UNSIGNED NULL"

static const char *const schema_v1[] = {
	"CREATE TABLE IF NOT EXISTS cluster_table (name VARCHAR(64) NOT NULL PRIMARY KEY, "
	"control_host VARCHAR(255) NOT NULL DEFAULT '', "
	"control_port INT UNSIGNED NOT NULL DEFAULT 0, "
	"rpc_version SMALLINT UNSIGNED NOT NULL DEFAULT 0, "
	TIME_COLS ") ENGINE=InnoDB",

	"CREATE TABLE IF NOT EXISTS acct_table (name VARCHAR(64) NOT NULL PRIMARY KEY, "
	"description TEXT NOT NULL, organization TEXT NOT NULL, "
	TIME_COLS ") ENGINE=InnoDB",

	"CREATE TABLE IF NOT EXISTS user_table (name VARCHAR(64) NOT NULL PRIMARY KEY, "
	"admin_level TINYINT UNSIGNED NOT NULL DEFAULT 1, "
	"default_acct VARCHAR(64) NOT NULL DEFAULT '', "
	TIME_COLS ") ENGINE=InnoDB",

	"CREATE TABLE IF NOT EXISTS qos_table (id INT UNSIGNED NOT NULL AUTO_INCREMENT "
	"PRIMARY KEY, name VARCHAR(64) NOT NULL UNIQUE, "
	"description TEXT NOT NULL, priority INT UNSIGNED NOT NULL DEFAULT 0, "
	"usage_factor DOUBLE NOT NULL DEFAULT 1, "
	"flags INT UNSIGNED NOT NULL DEFAULT 0, "
	LIMIT_COLS ", " TIME_COLS ") ENGINE=InnoDB",

	"CREATE TABLE IF NOT EXISTS assoc_table (id INT UNSIGNED NOT NULL AUTO_INCREMENT "
	"PRIMARY KEY, cluster VARCHAR(64) NOT NULL, acct VARCHAR(64) NOT NULL, "
	"user_name VARCHAR(64) NOT NULL DEFAULT '', "
	"`partition` VARCHAR(64) NOT NULL DEFAULT '', "
	"parent_acct VARCHAR(64) NOT NULL DEFAULT '', "
	"shares INT UNSIGNED NOT NULL DEFAULT 1, priority INT UNSIGNED NULL, "
	LIMIT_COLS ", qos TEXT NOT NULL, "
	"def_qos VARCHAR(64) NOT NULL DEFAULT '', " TIME_COLS ", "
	"UNIQUE KEY assoc_key (cluster, acct, user_name, `partition`)) "
	"ENGINE=InnoDB",

	/* Job and step records (filled by the controller, later). */
	"CREATE TABLE IF NOT EXISTS job_table (job_db_inx BIGINT UNSIGNED NOT NULL "
	"AUTO_INCREMENT PRIMARY KEY, cluster VARCHAR(64) NOT NULL, "
	"id_job INT UNSIGNED NOT NULL, id_array_job INT UNSIGNED NOT NULL "
	"DEFAULT 0, id_array_task INT UNSIGNED NOT NULL DEFAULT 4294967294, "
	"time_submit BIGINT NOT NULL, time_eligible BIGINT NOT NULL DEFAULT 0, "
	"time_start BIGINT NOT NULL DEFAULT 0, time_end BIGINT NOT NULL "
	"DEFAULT 0, job_name TEXT NOT NULL, id_user INT UNSIGNED NOT NULL, "
	"id_group INT UNSIGNED NOT NULL, account VARCHAR(64) NOT NULL "
	"DEFAULT '', `partition` VARCHAR(64) NOT NULL DEFAULT '', "
	"qos VARCHAR(64) NOT NULL DEFAULT '', id_assoc INT UNSIGNED NOT NULL "
	"DEFAULT 0, state INT UNSIGNED NOT NULL, exit_code INT UNSIGNED NOT "
	"NULL DEFAULT 0, derived_ec INT UNSIGNED NOT NULL DEFAULT 0, "
	"timelimit INT UNSIGNED NOT NULL DEFAULT 0, nodelist TEXT NOT NULL, "
	"nodes_alloc INT UNSIGNED NOT NULL DEFAULT 0, cpus_req INT UNSIGNED "
	"NOT NULL DEFAULT 0, tres_alloc TEXT NOT NULL, tres_req TEXT NOT NULL, "
	"work_dir TEXT NOT NULL, reason INT UNSIGNED NOT NULL DEFAULT 0, "
	"comment TEXT NULL, mod_time BIGINT NOT NULL DEFAULT 0, "
	"UNIQUE KEY job_key (cluster, id_job, time_submit), "
	"KEY job_end (cluster, time_end)) ENGINE=InnoDB",

	"CREATE TABLE IF NOT EXISTS step_table (job_db_inx BIGINT UNSIGNED NOT NULL, "
	"id_step INT NOT NULL, step_name TEXT NOT NULL, "
	"time_start BIGINT NOT NULL DEFAULT 0, time_end BIGINT NOT NULL "
	"DEFAULT 0, state INT UNSIGNED NOT NULL, exit_code INT UNSIGNED NOT "
	"NULL DEFAULT 0, nodelist TEXT NOT NULL, nodes_alloc INT UNSIGNED NOT "
	"NULL DEFAULT 0, tasks INT UNSIGNED NOT NULL DEFAULT 0, "
	"tres_alloc TEXT NOT NULL, user_sec BIGINT UNSIGNED NOT NULL DEFAULT 0, "
	"user_usec INT UNSIGNED NOT NULL DEFAULT 0, sys_sec BIGINT UNSIGNED "
	"NOT NULL DEFAULT 0, sys_usec INT UNSIGNED NOT NULL DEFAULT 0, "
	"max_rss BIGINT UNSIGNED NOT NULL DEFAULT 0, max_vsize BIGINT UNSIGNED "
	"NOT NULL DEFAULT 0, PRIMARY KEY (job_db_inx, id_step)) ENGINE=InnoDB",

	/* What every database starts with. */
	"INSERT IGNORE INTO acct_table (name, description, organization, "
	"creation_time, mod_time) VALUES ('root', 'default root account', "
	"'root', UNIX_TIMESTAMP(), UNIX_TIMESTAMP())",
	"INSERT IGNORE INTO user_table (name, admin_level, default_acct, "
	"creation_time, mod_time) VALUES ('root', 3, 'root', "
	"UNIX_TIMESTAMP(), UNIX_TIMESTAMP())",
	"INSERT IGNORE INTO qos_table (name, description, creation_time, mod_time) "
	"VALUES ('normal', 'Normal QOS default', UNIX_TIMESTAMP(), "
	"UNIX_TIMESTAMP())",
	NULL
};

/* v2: what the controller sends (accounting records). */
static const char *const schema_v2[] = {
	"ALTER TABLE job_table "
	"ADD COLUMN IF NOT EXISTS requid INT UNSIGNED NOT NULL DEFAULT 4294967294, "
	"ADD COLUMN IF NOT EXISTS cpus_alloc INT UNSIGNED NOT NULL DEFAULT 0, "
	"ADD COLUMN IF NOT EXISTS req_mem BIGINT UNSIGNED NOT NULL DEFAULT 0, "
	"ADD COLUMN IF NOT EXISTS mem_per_cpu TINYINT NOT NULL DEFAULT 0, "
	"ADD COLUMN IF NOT EXISTS submit_line TEXT NULL, "
	"ADD COLUMN IF NOT EXISTS constraints TEXT NULL, "
	"ADD COLUMN IF NOT EXISTS restart_cnt INT UNSIGNED NOT NULL DEFAULT 0, "
	"ADD COLUMN IF NOT EXISTS priority INT UNSIGNED NOT NULL DEFAULT 0",
	"CREATE INDEX IF NOT EXISTS job_submit ON job_table (cluster, time_submit)",
	"CREATE INDEX IF NOT EXISTS job_user ON job_table (id_user, time_submit)",
	"CREATE INDEX IF NOT EXISTS job_array ON job_table (cluster, id_array_job)",
	"CREATE INDEX IF NOT EXISTS job_name ON job_table (job_name(64))",
	"ALTER TABLE step_table "
	"ADD COLUMN IF NOT EXISTS requid INT UNSIGNED NOT NULL DEFAULT 4294967294, "
	"ADD COLUMN IF NOT EXISTS cpus_alloc INT UNSIGNED NOT NULL DEFAULT 0, "
	"ADD COLUMN IF NOT EXISTS ave_rss BIGINT UNSIGNED NOT NULL DEFAULT 0, "
	"ADD COLUMN IF NOT EXISTS ave_vsize BIGINT UNSIGNED NOT NULL DEFAULT 0",
	"CREATE TABLE IF NOT EXISTS event_table (cluster VARCHAR(64) NOT NULL, "
	"node_name VARCHAR(64) NOT NULL, time_start BIGINT NOT NULL, "
	"time_end BIGINT NOT NULL DEFAULT 0, state INT UNSIGNED NOT NULL "
	"DEFAULT 0, reason TEXT NOT NULL, reason_uid INT UNSIGNED NOT NULL "
	"DEFAULT 4294967294, tres TEXT NOT NULL, "
	"PRIMARY KEY (cluster, node_name, time_start)) ENGINE=InnoDB",
	"CREATE TABLE IF NOT EXISTS outbox_table (cluster VARCHAR(64) NOT NULL "
	"PRIMARY KEY, epoch BIGINT UNSIGNED NOT NULL, last_seq BIGINT "
	"UNSIGNED NOT NULL) ENGINE=InnoDB",
	NULL
};

/* v3: the pending tasks of an array's meta record (sacct's "7_[1-5]"). */
static const char *const schema_v3[] = {
	"ALTER TABLE job_table "
	"ADD COLUMN IF NOT EXISTS array_task_str TEXT NULL",
	NULL
};

/* v4: what the controller's association cache enforces (TRES limits,
 * QOS preemption, grace time, flags) and coordinators. */
static const char *const schema_v4[] = {
	"ALTER TABLE assoc_table "
	"ADD COLUMN IF NOT EXISTS grp_tres TEXT NOT NULL DEFAULT '', "
	"ADD COLUMN IF NOT EXISTS max_tres TEXT NOT NULL DEFAULT '', "
	"ADD COLUMN IF NOT EXISTS max_tres_pn TEXT NOT NULL DEFAULT ''",
	"ALTER TABLE qos_table "
	"ADD COLUMN IF NOT EXISTS preempt TEXT NOT NULL DEFAULT '', "
	"ADD COLUMN IF NOT EXISTS grace_time INT UNSIGNED NULL, "
	"ADD COLUMN IF NOT EXISTS grp_tres TEXT NOT NULL DEFAULT '', "
	"ADD COLUMN IF NOT EXISTS max_tres TEXT NOT NULL DEFAULT '', "
	"ADD COLUMN IF NOT EXISTS max_tres_pu TEXT NOT NULL DEFAULT ''",
	"CREATE TABLE IF NOT EXISTS coord_table (user_name VARCHAR(64) NOT "
	"NULL, acct VARCHAR(64) NOT NULL, " TIME_COLS ", "
	"PRIMARY KEY (user_name, acct)) ENGINE=InnoDB",
	NULL
};

/* v5: time-based limits (TRES-minutes): GrpTRESMins, GrpTRESRunMins,
 * MaxTRESMins (per job) of associations and QOS. */
static const char *const schema_v5[] = {
	"ALTER TABLE assoc_table "
	"ADD COLUMN IF NOT EXISTS grp_tres_mins TEXT NOT NULL DEFAULT '', "
	"ADD COLUMN IF NOT EXISTS grp_tres_run_mins TEXT NOT NULL DEFAULT '', "
	"ADD COLUMN IF NOT EXISTS max_tres_mins TEXT NOT NULL DEFAULT ''",
	"ALTER TABLE qos_table "
	"ADD COLUMN IF NOT EXISTS grp_tres_mins TEXT NOT NULL DEFAULT '', "
	"ADD COLUMN IF NOT EXISTS grp_tres_run_mins TEXT NOT NULL DEFAULT '', "
	"ADD COLUMN IF NOT EXISTS max_tres_mins TEXT NOT NULL DEFAULT ''",
	NULL
};

/* v6: sreport's roll-ups (dbd_rollup.h).  Per cluster and TRES (1 =
 * cpu) and per (account, user): usage in TRES-seconds by hour, day and
 * month; rollup_table holds how far each cluster is rolled up. */
#define CLUSTER_USAGE(t) \
	"CREATE TABLE IF NOT EXISTS " t " (cluster VARCHAR(64) NOT NULL, " \
	"time_start BIGINT NOT NULL, id_tres INT UNSIGNED NOT NULL, " \
	"count BIGINT UNSIGNED NOT NULL DEFAULT 0, " \
	"alloc_secs BIGINT UNSIGNED NOT NULL DEFAULT 0, " \
	"down_secs BIGINT UNSIGNED NOT NULL DEFAULT 0, " \
	"pdown_secs BIGINT UNSIGNED NOT NULL DEFAULT 0, " \
	"idle_secs BIGINT UNSIGNED NOT NULL DEFAULT 0, " \
	"plan_secs BIGINT UNSIGNED NOT NULL DEFAULT 0, " \
	"over_secs BIGINT UNSIGNED NOT NULL DEFAULT 0, " \
	"total_secs BIGINT UNSIGNED NOT NULL DEFAULT 0, " \
	"mod_time BIGINT NOT NULL DEFAULT 0, " \
	"PRIMARY KEY (cluster, time_start, id_tres)) ENGINE=InnoDB"
#define ASSOC_USAGE(t) \
	"CREATE TABLE IF NOT EXISTS " t " (cluster VARCHAR(64) NOT NULL, " \
	"time_start BIGINT NOT NULL, acct VARCHAR(64) NOT NULL, " \
	"id_user INT UNSIGNED NOT NULL, id_tres INT UNSIGNED NOT NULL, " \
	"alloc_secs BIGINT UNSIGNED NOT NULL DEFAULT 0, " \
	"job_cnt BIGINT UNSIGNED NOT NULL DEFAULT 0, " \
	"mod_time BIGINT NOT NULL DEFAULT 0, " \
	"PRIMARY KEY (cluster, time_start, acct, id_user, id_tres)) " \
	"ENGINE=InnoDB"
static const char *const schema_v6[] = {
	CLUSTER_USAGE("cluster_usage_hour_table"),
	CLUSTER_USAGE("cluster_usage_day_table"),
	CLUSTER_USAGE("cluster_usage_month_table"),
	ASSOC_USAGE("assoc_usage_hour_table"),
	ASSOC_USAGE("assoc_usage_day_table"),
	ASSOC_USAGE("assoc_usage_month_table"),
	"CREATE TABLE IF NOT EXISTS rollup_table (cluster VARCHAR(64) NOT "
	"NULL PRIMARY KEY, hour_last BIGINT NOT NULL DEFAULT 0, "
	"day_last BIGINT NOT NULL DEFAULT 0, month_last BIGINT NOT NULL "
	"DEFAULT 0, mod_time BIGINT NOT NULL DEFAULT 0) ENGINE=InnoDB",
	NULL
};

/* v7: a step's energy (acct_gather_energy/rapl), joules. */
static const char *const schema_v7[] = {
	"ALTER TABLE step_table "
	"ADD COLUMN IF NOT EXISTS consumed_energy BIGINT UNSIGNED NOT NULL "
	"DEFAULT 0",
	NULL
};

/* v8: reservations the controller reports (sacctmgr show reservation);
 * a row per occurrence, keyed like Slurm's reservation table. */
static const char *const schema_v8[] = {
	"CREATE TABLE IF NOT EXISTS resv_table (cluster VARCHAR(64) NOT NULL, "
	"id_resv INT UNSIGNED NOT NULL, time_start BIGINT NOT NULL, "
	"time_end BIGINT NOT NULL DEFAULT 0, deleted TINYINT NOT NULL "
	"DEFAULT 0, resv_name TEXT NOT NULL, nodelist TEXT NOT NULL, "
	"tres TEXT NOT NULL, flags BIGINT UNSIGNED NOT NULL DEFAULT 0, "
	"users TEXT NOT NULL, accounts TEXT NOT NULL, "
	"unused_wall DOUBLE NOT NULL DEFAULT 0, "
	"PRIMARY KEY (cluster, id_resv, time_start)) ENGINE=InnoDB",
	NULL
};

/* v9: sacct's window query (cluster, time_submit range) returns rows in
 * its ORDER BY (time_submit, id_job) straight from the index, without a
 * sort; the (cluster, time_submit) index is a prefix of it. */
static const char *const schema_v9[] = {
	"CREATE INDEX IF NOT EXISTS job_submit_id ON job_table "
	"(cluster, time_submit, id_job)",
	"DROP INDEX IF EXISTS job_submit ON job_table",
	NULL
};

/* v10: every table in utf8mb4; every string column's type comes from
 * the one table of limits (acct_limits.h), so what slurmctld and slurmdbd
 * accept at entry always fits; and the set-aside table, where a record the database refused
 * for its content is kept (dbd_jobs.h). */
typedef struct {
	const char  *table;
	const char  *column;
	acct_limit_t lim;
	const char  *rest;          /* NULL-ness and default */
} schema_col_t;

#define NN "NOT NULL"
#define ND "NOT NULL DEFAULT ''"
static const schema_col_t schema_cols[] = {
	{ "cluster_table", "name", ACCT_LIM_CLUSTER, NN },
	{ "acct_table", "name", ACCT_LIM_ACCOUNT, NN },
	{ "acct_table", "description", ACCT_LIM_DESCRIPTION, NN },
	{ "acct_table", "organization", ACCT_LIM_ORGANIZATION, NN },
	{ "user_table", "name", ACCT_LIM_USER, NN },
	{ "user_table", "default_acct", ACCT_LIM_ACCOUNT, ND },
	{ "qos_table", "name", ACCT_LIM_QOS, NN },
	{ "qos_table", "description", ACCT_LIM_DESCRIPTION, NN },
	{ "qos_table", "preempt", ACCT_LIM_QOS_LIST, ND },
	{ "assoc_table", "cluster", ACCT_LIM_CLUSTER, NN },
	{ "assoc_table", "acct", ACCT_LIM_ACCOUNT, NN },
	{ "assoc_table", "user_name", ACCT_LIM_USER, ND },
	{ "assoc_table", "`partition`", ACCT_LIM_PARTITION, ND },
	{ "assoc_table", "parent_acct", ACCT_LIM_ACCOUNT, ND },
	{ "assoc_table", "qos", ACCT_LIM_QOS_LIST, NN },
	{ "assoc_table", "def_qos", ACCT_LIM_QOS, ND },
	{ "coord_table", "user_name", ACCT_LIM_USER, NN },
	{ "coord_table", "acct", ACCT_LIM_ACCOUNT, NN },
	{ "job_table", "cluster", ACCT_LIM_CLUSTER, NN },
	{ "job_table", "job_name", ACCT_LIM_JOB_NAME, NN },
	{ "job_table", "account", ACCT_LIM_ACCOUNT, ND },
	{ "job_table", "`partition`", ACCT_LIM_PARTITION, ND },
	{ "job_table", "qos", ACCT_LIM_QOS, ND },
	{ "job_table", "work_dir", ACCT_LIM_PATH, NN },
	{ "job_table", "comment", ACCT_LIM_COMMENT, "NULL" },
	{ "job_table", "submit_line", ACCT_LIM_SUBMIT_LINE, "NULL" },
	{ "job_table", "constraints", ACCT_LIM_CONSTRAINTS, "NULL" },
	{ "job_table", "array_task_str", ACCT_LIM_ARRAY, "NULL" },
	{ "step_table", "step_name", ACCT_LIM_STEP_NAME, NN },
	{ "event_table", "cluster", ACCT_LIM_CLUSTER, NN },
	{ "event_table", "reason", ACCT_LIM_NODE_REASON, NN },
	{ "resv_table", "cluster", ACCT_LIM_CLUSTER, NN },
	{ "resv_table", "resv_name", ACCT_LIM_RESV_NAME, NN },
	{ "resv_table", "users", ACCT_LIM_RESV_USERS, NN },
	{ "resv_table", "accounts", ACCT_LIM_RESV_ACCOUNTS, NN },
	{ "outbox_table", "cluster", ACCT_LIM_CLUSTER, NN },
	{ "rollup_table", "cluster", ACCT_LIM_CLUSTER, NN },
	{ NULL, NULL, 0, NULL }
};
#undef NN
#undef ND

/* Tables of the database not in utf8mb4 (a server whose default was
 * latin1 made them so): a job named in any language would be refused. */
static char **utf8_tables(dbd_db_t *db)
{
	dbd_rows_t rows;
	char **out = NULL;
	char *sql = xstrdup_printf("SELECT TABLE_NAME FROM "
				   "information_schema.TABLES WHERE "
				   "TABLE_SCHEMA='%s' AND TABLE_COLLATION NOT "
				   "LIKE 'utf8mb4%%'", db->conf->storage_loc);

	if (dbd_db_select(db, sql, &rows) == 0) {
		for (uint32_t i = 0; i < rows.rows; i++) {
			char *stmt = xstrdup_printf(
				"ALTER TABLE `%s` CONVERT TO CHARACTER SET "
				"utf8mb4", dbd_rows_get(&rows, i, 0));

			out = xstrarray_append(out, stmt);
			xfree(stmt);
		}
		dbd_rows_free(&rows);
	}
	xfree(sql);
	sql = xstrdup_printf("ALTER DATABASE `%s` CHARACTER SET utf8mb4",
			     db->conf->storage_loc);
	out = xstrarray_append(out, sql);
	xfree(sql);
	return out;
}

static char **schema_v10(dbd_db_t *db)
{
	char **out = utf8_tables(db);
	char *sql = NULL;
	const char *table = NULL;

	for (const schema_col_t *c = schema_cols; ; c++) {
		if (sql && (!c->table || strcmp(c->table, table))) {
			out = xstrarray_append(out, sql);
			xfree(sql);
		}
		if (!c->table)
			break;
		if (!sql)
			sql = xstrdup_printf("ALTER TABLE %s ", c->table);
		else
			xstrcat(&sql, ", ");
		table = c->table;
		xstrfmtcat(&sql, "MODIFY %s %s %s", c->column,
			   acct_limit_sql_type(c->lim), c->rest);
	}
	sql = xstrdup_printf(
		"CREATE TABLE IF NOT EXISTS set_aside_table (cluster %s NOT "
		"NULL, epoch BIGINT UNSIGNED NOT NULL, seq BIGINT UNSIGNED "
		"NOT NULL, kind SMALLINT UNSIGNED NOT NULL, id_job INT "
		"UNSIGNED NOT NULL DEFAULT 0, time_submit BIGINT NOT NULL "
		"DEFAULT 0, id_user INT UNSIGNED NOT NULL "
		"DEFAULT 4294967294, user_name %s NOT NULL DEFAULT '', "
		"account %s NOT NULL DEFAULT '', "
		"time_set BIGINT NOT NULL, db_errno INT UNSIGNED NOT NULL, "
		"db_error %s NOT NULL, record LONGBLOB NOT NULL, "
		"PRIMARY KEY (cluster, epoch, seq)) ENGINE=InnoDB",
		acct_limit_sql_type(ACCT_LIM_CLUSTER),
		acct_limit_sql_type(ACCT_LIM_USER),
		acct_limit_sql_type(ACCT_LIM_ACCOUNT),
		acct_limit_sql_type(ACCT_LIM_DB_ERROR));
	out = xstrarray_append(out, sql);
	xfree(sql);
	return out;
}

/* v11: batch scripts and environments (AccountingStoreFlags=job_script,
 * job_env), kept byte for byte, one row per job submission. */
static char **schema_v11(dbd_db_t *db)
{
	char **out = NULL;
	char *sql = xstrdup_printf(
		"CREATE TABLE IF NOT EXISTS job_script_table (cluster %s NOT "
		"NULL, id_job INT UNSIGNED NOT NULL, time_submit BIGINT NOT "
		"NULL, script LONGBLOB, env LONGBLOB, PRIMARY KEY (cluster, "
		"id_job, time_submit)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
		acct_limit_sql_type(ACCT_LIM_CLUSTER));

	(void) db;
	out = xstrarray_append(out, sql);
	xfree(sql);
	return out;
}

/* v12: run tracking (sacct --metrics): what a job logged, in the order
 * logged; keyed by the outbox record that carried it. */
static char **schema_v12(dbd_db_t *db)
{
	char *sql = xstrdup_printf(
		"CREATE TABLE IF NOT EXISTS track_table (cluster %s NOT NULL, "
		"id_job INT UNSIGNED NOT NULL, time_submit BIGINT NOT NULL, "
		"epoch BIGINT UNSIGNED NOT NULL, seq BIGINT UNSIGNED NOT NULL, "
		"kind SMALLINT UNSIGNED NOT NULL, name %s NOT NULL, "
		"step BIGINT UNSIGNED NOT NULL DEFAULT 0, value DOUBLE NOT "
		"NULL DEFAULT 0, text %s NULL, time_logged BIGINT NOT NULL, "
		"PRIMARY KEY (cluster, epoch, seq), KEY track_job (cluster, "
		"id_job, time_submit)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
		acct_limit_sql_type(ACCT_LIM_CLUSTER),
		acct_limit_sql_type(ACCT_LIM_PATH),
		acct_limit_sql_type(ACCT_LIM_TRACK_TEXT));
	char **out = xstrarray_append(NULL, sql);

	xfree(sql);
	return out;
}

/* v13: job profiles (sacct --profile): usage samples of --profile=task
 * steps, one row a node and time; keyed by the outbox record. */
static char **schema_v13(dbd_db_t *db)
{
	char *sql = xstrdup_printf(
		"CREATE TABLE IF NOT EXISTS profile_table (cluster %s NOT "
		"NULL, id_job INT UNSIGNED NOT NULL, time_submit BIGINT NOT "
		"NULL, epoch BIGINT UNSIGNED NOT NULL, seq BIGINT UNSIGNED "
		"NOT NULL, id_step INT NOT NULL, node VARCHAR(64) NOT NULL, "
		"time_sample BIGINT NOT NULL, ntasks INT UNSIGNED NOT NULL "
		"DEFAULT 0, cpu_usec BIGINT UNSIGNED NOT NULL DEFAULT 0, "
		"cpu_util DOUBLE NOT NULL DEFAULT 0, rss_kb BIGINT UNSIGNED "
		"NOT NULL DEFAULT 0, vsize_kb BIGINT UNSIGNED NOT NULL "
		"DEFAULT 0, read_bytes BIGINT UNSIGNED NOT NULL DEFAULT 0, "
		"write_bytes BIGINT UNSIGNED NOT NULL DEFAULT 0, energy_j "
		"BIGINT UNSIGNED NULL, PRIMARY KEY (cluster, epoch, seq), "
		"KEY profile_job (cluster, id_job, time_submit)) "
		"ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
		acct_limit_sql_type(ACCT_LIM_CLUSTER));
	char **out = xstrarray_append(NULL, sql);

	(void) db;
	xfree(sql);
	return out;
}

/* v14: sacctmgr's transactions (every committed add, modify and
 * delete), workload characterization keys, and remote licenses
 * (resources, and the share of each a cluster may use). */
static char **schema_v14(dbd_db_t *db)
{
	const char *cl = acct_limit_sql_type(ACCT_LIM_CLUSTER);
	const char *us = acct_limit_sql_type(ACCT_LIM_USER);
	char **out = NULL;
	char *sql;

	(void) db;
	sql = xstrdup_printf(
		"CREATE TABLE IF NOT EXISTS txn_table (id BIGINT UNSIGNED NOT "
		"NULL AUTO_INCREMENT PRIMARY KEY, time_stamp BIGINT NOT NULL, "
		"action VARCHAR(64) NOT NULL, actor %s NOT NULL, cluster %s "
		"NOT NULL DEFAULT '', name TEXT NOT NULL, info TEXT NOT NULL, "
		"KEY txn_time (time_stamp)) ENGINE=InnoDB DEFAULT "
		"CHARSET=utf8mb4", us, cl);
	out = xstrarray_append(out, sql);
	xfree(sql);
	sql = xstrdup_printf(
		"CREATE TABLE IF NOT EXISTS wckey_table (id INT UNSIGNED NOT "
		"NULL AUTO_INCREMENT PRIMARY KEY, name %s NOT NULL, cluster %s "
		"NOT NULL, user_name %s NOT NULL, " TIME_COLS ", UNIQUE KEY "
		"wckey_key (name, cluster, user_name)) ENGINE=InnoDB DEFAULT "
		"CHARSET=utf8mb4", acct_limit_sql_type(ACCT_LIM_WCKEY), cl, us);
	out = xstrarray_append(out, sql);
	xfree(sql);
	out = xstrarray_append(out,
		"CREATE TABLE IF NOT EXISTS res_table (id INT UNSIGNED NOT "
		"NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(64) NOT NULL, "
		"server VARCHAR(64) NOT NULL, type SMALLINT UNSIGNED NOT NULL "
		"DEFAULT 1, count INT UNSIGNED NOT NULL DEFAULT 0, manager "
		"VARCHAR(64) NOT NULL DEFAULT '', description TEXT NOT NULL, "
		TIME_COLS ", UNIQUE KEY res_key (name, server)) ENGINE=InnoDB "
		"DEFAULT CHARSET=utf8mb4");
	sql = xstrdup_printf(
		"CREATE TABLE IF NOT EXISTS res_clus_table (res_id INT "
		"UNSIGNED NOT NULL, cluster %s NOT NULL, percent_allowed "
		"SMALLINT UNSIGNED NOT NULL DEFAULT 0, allowed INT UNSIGNED "
		"NULL, " TIME_COLS ", PRIMARY KEY (res_id, cluster)) "
		"ENGINE=InnoDB DEFAULT CHARSET=utf8mb4", cl);
	out = xstrarray_append(out, sql);
	xfree(sql);
	return out;
}

/* v15: the job's --container bundle, for sacct's Container. */
static char **schema_v15(dbd_db_t *db)
{
	char *sql = xstrdup_printf("ALTER TABLE job_table ADD COLUMN IF NOT "
				   "EXISTS container %s NULL",
				   acct_limit_sql_type(ACCT_LIM_PATH));
	char **out = xstrarray_append(NULL, sql);

	(void) db;
	xfree(sql);
	return out;
}

/* v16: a job's workload characterization key (TrackWCKey), its id, and
 * the reservation it ran in (sreport reservation Utilization); a user's
 * default wckey. */
static char **schema_v16(dbd_db_t *db)
{
	char **out = NULL;
	char *sql;

	(void) db;
	sql = xstrdup_printf(
		"ALTER TABLE job_table "
		"ADD COLUMN IF NOT EXISTS wckey %s NOT NULL DEFAULT '', "
		"ADD COLUMN IF NOT EXISTS id_wckey INT UNSIGNED NOT NULL "
		"DEFAULT 0, "
		"ADD COLUMN IF NOT EXISTS id_resv INT UNSIGNED NOT NULL "
		"DEFAULT 0", acct_limit_sql_type(ACCT_LIM_WCKEY));
	out = xstrarray_append(out, sql);
	xfree(sql);
	out = xstrarray_append(out,
		"ALTER TABLE wckey_table ADD COLUMN IF NOT EXISTS is_def "
		"TINYINT NOT NULL DEFAULT 0");
	return out;
}

/* v17: hetjob components (sacct "123+1", -j 123 names them all). */
static const char *const schema_v17[] = {
	"ALTER TABLE job_table "
	"ADD COLUMN IF NOT EXISTS het_job_id INT UNSIGNED NOT NULL DEFAULT 0, "
	"ADD COLUMN IF NOT EXISTS het_job_offset INT UNSIGNED NOT NULL "
	"DEFAULT 4294967294",
	"CREATE INDEX IF NOT EXISTS job_het ON job_table (cluster, het_job_id)",
	NULL
};

/* v18: sacct -s STATE reads the jobs of that state that ended in the
 * window (tests/perf/bench_acct.py: without it MariaDB walked half the
 * table by submit time to skip a sort). */
static const char *const schema_v18[] = {
	"CREATE INDEX IF NOT EXISTS job_state_end ON job_table "
	"(cluster, state, time_end)",
	NULL
};

/* v19: how long each job was suspended (sacct Suspended); while it is
 * suspended, the moment from which now minus it is that time. */
static const char *const schema_v19[] = {
	"ALTER TABLE job_table ADD COLUMN IF NOT EXISTS time_suspended "
	"BIGINT NOT NULL DEFAULT 0",
	NULL
};

/* v20: PurgeStepAfter and its chunks read the steps started before the
 * cut (without it, the whole step_table at every purge pass). */
static const char *const schema_v20[] = {
	"CREATE INDEX IF NOT EXISTS step_start ON step_table (time_start)",
	NULL
};

/* v21: sacct --name ranges on the name and the window's end time (the
 * jobs still in the system and those that ended after the window's
 * start) instead of reading every job of that name (tests/perf/
 * bench_acct.py, a name shared by 37,000 of 1,000,000 jobs: 3 s). */
static const char *const schema_v21[] = {
	"CREATE INDEX IF NOT EXISTS job_name_end ON job_table "
	"(job_name(64), time_end)",
	"DROP INDEX IF EXISTS job_name ON job_table",
	NULL
};

/* v22 (issues 30 and 31): a step's --container bundle (sacct Container
 * on step rows); and sacct's plain -S/-E window bounded on both sides.
 * span_cls is the bit length of a finished job's time_end - time_submit
 * (0 while time_end is 0), so a job of class k that ended at or after S
 * was submitted after S - 2^k: the window reads, per class, the jobs
 * submitted in [S - 2^k, E] (dbd_query.c span_bound()), not every job
 * that ended after S or every one submitted before E.  Generated by
 * MariaDB, so no path that changes time_end can leave it stale. */
static char **schema_v22(dbd_db_t *db)
{
	char *sql = xstrdup_printf("ALTER TABLE step_table ADD COLUMN IF NOT "
				   "EXISTS container %s NULL",
				   acct_limit_sql_type(ACCT_LIM_PATH));
	char **out = xstrarray_append(NULL, sql);

	(void) db;
	xfree(sql);
	out = xstrarray_append(out, "ALTER TABLE job_table ADD COLUMN IF NOT "
			       "EXISTS span_cls TINYINT UNSIGNED AS (IF("
			       "time_end = 0, 0, LENGTH(BIN(GREATEST("
			       "time_end - time_submit, 0))))) PERSISTENT");
	out = xstrarray_append(out, "CREATE INDEX IF NOT EXISTS job_span ON "
			       "job_table (cluster, span_cls, time_submit, "
			       "time_end)");
	return out;
}

/* v23 (issue 31): the TRES table.  Slurm's fixed ids 1-8 (fs/disk,
 * vmem and pages are listed but never counted: no record carries them),
 * a deleted "dynamic_offset" row at 1000 so that the TRES controllers
 * register (gres/gpu, license/matlab, ...: dbd_tres.c) get ids from 1001
 * on, as Slurm's.  The roll-ups count every TRES of this table. */
static const char *const schema_v23[] = {
	"CREATE TABLE IF NOT EXISTS tres_table ("
	"creation_time BIGINT NOT NULL DEFAULT 0, "
	"deleted TINYINT NOT NULL DEFAULT 0, "
	"id INT UNSIGNED NOT NULL AUTO_INCREMENT, "
	"type VARCHAR(64) NOT NULL, name VARCHAR(64) NOT NULL DEFAULT '', "
	"PRIMARY KEY (id), UNIQUE KEY tres_type_name (type, name)) "
	"ENGINE=InnoDB AUTO_INCREMENT=1001",
	"INSERT IGNORE INTO tres_table (creation_time, deleted, id, type, "
	"name) VALUES (UNIX_TIMESTAMP(), 0, 1, 'cpu', ''), "
	"(UNIX_TIMESTAMP(), 0, 2, 'mem', ''), "
	"(UNIX_TIMESTAMP(), 0, 3, 'energy', ''), "
	"(UNIX_TIMESTAMP(), 0, 4, 'node', ''), "
	"(UNIX_TIMESTAMP(), 0, 5, 'billing', ''), "
	"(UNIX_TIMESTAMP(), 0, 6, 'fs', 'disk'), "
	"(UNIX_TIMESTAMP(), 0, 7, 'vmem', ''), "
	"(UNIX_TIMESTAMP(), 0, 8, 'pages', ''), "
	"(UNIX_TIMESTAMP(), 1, 1000, 'dynamic_offset', '')",
	NULL
};

/* v24 (issue 31): sacct's plain window read from the index alone.
 * job_span found the window's rows, then looked each up in the table (three
 * pages a row: 43,000 lookups, most of a one-day window's 350 ms over
 * 1,000,000 jobs; doc/dev/perf.md).  job_window has job_span's columns
 * first (it serves every query job_span did), then those the window's
 * test and `sacct -X -o JobID,State` (the form scripts poll) read, and
 * the account (-A tested in the index): such a query reads no row.  About
 * 30 bytes more a job than job_span. */
static const char *const schema_v24[] = {
	"CREATE INDEX IF NOT EXISTS job_window ON job_table (cluster, "
	"span_cls, time_submit, time_end, time_eligible, id_job, "
	"id_array_job, id_array_task, state, requid, het_job_id, "
	"het_job_offset, account)",
	"DROP INDEX IF EXISTS job_span ON job_table",
	NULL
};

/* A migration: fixed statements, or ones built from tables. */
static const struct {
	const char *const *stmts;
	char             **(*build)(dbd_db_t *db);
} migrations[] = {
	{ schema_v1, NULL },
	{ schema_v2, NULL },
	{ schema_v3, NULL },
	{ schema_v4, NULL },
	{ schema_v5, NULL },
	{ schema_v6, NULL },
	{ schema_v7, NULL },
	{ schema_v8, NULL },
	{ schema_v9, NULL },
	{ NULL, schema_v10 },
	{ NULL, schema_v11 },
	{ NULL, schema_v12 },
	{ NULL, schema_v13 },
	{ NULL, schema_v14 },
	{ NULL, schema_v15 },
	{ NULL, schema_v16 },
	{ schema_v17, NULL },
	{ schema_v18, NULL },
	{ schema_v19, NULL },
	{ schema_v20, NULL },
	{ schema_v21, NULL },
	{ NULL, schema_v22 },
	{ schema_v23, NULL },
	{ schema_v24, NULL },
};
#define MIGRATION_CNT ((int)(sizeof(migrations) / sizeof(migrations[0])))

int dbd_db_schema_version(void)
{
	return MIGRATION_CNT;
}

/* ---- connection ---- */

static MYSQL *db_connect(const dbd_conf_t *c)
{
	MYSQL *my = mysql_init(NULL);
	unsigned int timeout = 10;
	my_bool off = 0;

	if (!my)
		return NULL;
	mysql_options(my, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
	mysql_options(my, MYSQL_OPT_RECONNECT, &off);
	mysql_options(my, MYSQL_SET_CHARSET_NAME, "utf8mb4");
	/* StorageParameters: TLS to the database server */
	if (c->ssl_ca)
		mysql_options(my, MYSQL_OPT_SSL_CA, c->ssl_ca);
	if (c->ssl_capath)
		mysql_options(my, MYSQL_OPT_SSL_CAPATH, c->ssl_capath);
	if (c->ssl_cert)
		mysql_options(my, MYSQL_OPT_SSL_CERT, c->ssl_cert);
	if (c->ssl_key)
		mysql_options(my, MYSQL_OPT_SSL_KEY, c->ssl_key);
	if (c->ssl_cipher)
		mysql_options(my, MYSQL_OPT_SSL_CIPHER, c->ssl_cipher);
	if (!mysql_real_connect(my, c->storage_host, c->storage_user,
				c->storage_pass, NULL, c->storage_port, NULL,
				0)) {
		error("mysql_real_connect %s:%u as %s: %s", c->storage_host,
		      c->storage_port, c->storage_user, mysql_error(my));
		mysql_close(my);
		return NULL;
	}
	return my;
}

/* StorageLoc goes into SQL as an identifier: letters, digits, '_' only. */
static bool db_name_ok(const char *s)
{
	if (!s || !*s || strlen(s) > 64)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

static int db_use(dbd_db_t *db)
{
	char *sql = xstrdup_printf("CREATE DATABASE IF NOT EXISTS `%s` "
				   "CHARACTER SET utf8mb4",
				   db->conf->storage_loc);
	int rc = mysql_query(db->my, sql);

	xfree(sql);
	if (rc == 0)
		rc = mysql_select_db(db->my, db->conf->storage_loc);
	if (rc != 0)
		error("Unable to use database %s: %s", db->conf->storage_loc,
		      mysql_error(db->my));
	return rc ? -1 : 0;
}

static int db_current_version(dbd_db_t *db, int *version)
{
	dbd_rows_t r = { 0 };

	if (dbd_db_exec(db, "CREATE TABLE IF NOT EXISTS schema_version "
			"(version INT UNSIGNED NOT NULL) ENGINE=InnoDB") < 0 ||
	    dbd_db_select(db, "SELECT MAX(version) FROM schema_version",
			  &r) < 0)
		return -1;
	*version = r.rows ? atoi(dbd_rows_get(&r, 0, 0)) : 0;
	dbd_rows_free(&r);
	return 0;
}

/* Apply every migration past the stored version, recording each. */
static int db_migrate(dbd_db_t *db)
{
	int version;

	if (db_current_version(db, &version) < 0)
		return -1;
	if (version > MIGRATION_CNT) {
		error("Database %s has schema version %d, newer than this "
		      "slurmdbd's %d", db->conf->storage_loc, version,
		      MIGRATION_CNT);
		return -1;
	}
	for (int v = version; v < MIGRATION_CNT; v++) {
		char *sql;
		int rc;

		info("Upgrading database %s to schema version %d",
		     db->conf->storage_loc, v + 1);
		if (migrations[v].build) {
			char **stmts = migrations[v].build(db);

			rc = 0;
			for (size_t i = 0; stmts && stmts[i] && !rc; i++)
				rc = dbd_db_exec(db, stmts[i]);
			xstrarray_free(stmts);
			if (rc < 0)
				return -1;
		}
		for (const char *const *s = migrations[v].stmts; s && *s; s++)
			if (dbd_db_exec(db, *s) < 0)
				return -1;
		sql = xstrdup_printf("INSERT INTO schema_version VALUES (%d)",
				     v + 1);
		rc = dbd_db_exec(db, sql);
		xfree(sql);
		if (rc < 0)
			return -1;
	}
	return 0;
}

dbd_db_t *dbd_db_open(const dbd_conf_t *conf, int wait_s)
{
	dbd_db_t *db;
	time_t until = time(NULL) + wait_s;
	MYSQL *my;

	if (!db_name_ok(conf->storage_loc)) {
		error("StorageLoc \"%s\" is not a valid database name",
		      conf->storage_loc);
		return NULL;
	}
	while (!(my = db_connect(conf))) {
		if (time(NULL) >= until)
			return NULL;
		sleep(2);
	}
	db = xmalloc(sizeof(*db));
	db->my = my;
	db->conf = conf;
	if (db_use(db) < 0 || db_migrate(db) < 0) {
		dbd_db_close(db);
		return NULL;
	}
	verbose("Accounting storage MYSQL plugin loaded, database %s schema "
		"version %d", conf->storage_loc, MIGRATION_CNT);
	return db;
}

void dbd_db_close(dbd_db_t *db)
{
	if (!db)
		return;
	if (db->my)
		mysql_close(db->my);
	xfree(db);
}

static bool db_gone(unsigned int err)
{
	return err == CR_SERVER_GONE_ERROR || err == CR_SERVER_LOST ||
	       err == CR_CONNECTION_ERROR;
}

static int db_reconnect(dbd_db_t *db)
{
	MYSQL *my = db_connect(db->conf);

	if (!my)
		return -1;
	mysql_close(db->my);
	db->my = my;
	if (mysql_select_db(my, db->conf->storage_loc) != 0) {
		error("Unable to use database %s: %s", db->conf->storage_loc,
		      mysql_error(my));
		return -1;
	}
	info("Reconnected to the database");
	return 0;
}

int dbd_db_exec(dbd_db_t *db, const char *sql)
{
	if (dbd_db_debug(db, DBD_FLAG_DB_QUERY))
		info("DB_QUERY: %s", sql);
	else
		debug3("query: %s", sql);
	if (mysql_query(db->my, sql) == 0)
		return 0;
	if (!db->in_txn && db_gone(mysql_errno(db->my)) &&
	    db_reconnect(db) == 0 && mysql_query(db->my, sql) == 0)
		return 0;
	db->last_errno = mysql_errno(db->my);
	snprintf(db->last_error, sizeof(db->last_error), "%s",
		 mysql_error(db->my));
	error("mysql query failed: %s (%u): %.300s", db->last_error,
	      db->last_errno, sql);
	return -1;
}

unsigned int dbd_db_errno(const dbd_db_t *db)
{
	return db->last_errno;
}

const char *dbd_db_error(const dbd_db_t *db)
{
	return db->last_error;
}

/* MariaDB's server errors about a value, not about the server. */
bool dbd_db_content_error(unsigned int err)
{
	switch (err) {
	case 1048:      /* ER_BAD_NULL_ERROR */
	case 1263:      /* ER_WARN_NULL_TO_NOTNULL */
	case 1264:      /* ER_WARN_DATA_OUT_OF_RANGE */
	case 1265:      /* WARN_DATA_TRUNCATED */
	case 1292:      /* ER_TRUNCATED_WRONG_VALUE */
	case 1300:      /* ER_INVALID_CHARACTER_STRING */
	case 1366:      /* ER_TRUNCATED_WRONG_VALUE_FOR_FIELD */
	case 1406:      /* ER_DATA_TOO_LONG */
	case 1690:      /* ER_DATA_OUT_OF_RANGE */
		return true;
	default:
		return false;
	}
}

int dbd_db_savepoint(dbd_db_t *db, const char *name)
{
	char sql[96];

	snprintf(sql, sizeof(sql), "SAVEPOINT %s", name);
	return dbd_db_exec(db, sql);
}

int dbd_db_rollback_to(dbd_db_t *db, const char *name)
{
	char sql[96];

	snprintf(sql, sizeof(sql), "ROLLBACK TO SAVEPOINT %s", name);
	return dbd_db_exec(db, sql);
}

void dbd_db_quote_bin(char **sql, const void *data, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = data;
	char *buf;

	if (!len) {
		xstrcat(sql, "''");
		return;
	}
	buf = xmalloc(2 * len + 4);
	buf[0] = 'X';
	buf[1] = '\'';
	for (size_t i = 0; i < len; i++) {
		buf[2 + 2 * i] = hex[p[i] >> 4];
		buf[3 + 2 * i] = hex[p[i] & 15];
	}
	buf[2 + 2 * len] = '\'';
	buf[3 + 2 * len] = '\0';
	xstrcat(sql, buf);
	xfree(buf);
}

int dbd_db_select(dbd_db_t *db, const char *sql, dbd_rows_t *out)
{
	static char null_cell[1];
	MYSQL_RES *res;
	MYSQL_ROW row;
	size_t i = 0;

	memset(out, 0, sizeof(*out));
	if (dbd_db_exec(db, sql) < 0)
		return -1;
	res = mysql_store_result(db->my);
	if (!res) {
		error("mysql_store_result: %s", mysql_error(db->my));
		return -1;
	}
	out->res = res;
	out->rows = (uint32_t)mysql_num_rows(res);
	out->cols = mysql_num_fields(res);
	out->cells = xcalloc((size_t)out->rows * out->cols + 1,
			     sizeof(char *));
	while ((row = mysql_fetch_row(res)))
		for (uint32_t c = 0; c < out->cols; c++)
			out->cells[i++] = row[c] ? row[c] : null_cell;
	return 0;
}

static int select_each(dbd_db_t *db, const char *sql, dbd_row_f fn,
		       void *arg, bool nulls)
{
	const char *cells[64];
	MYSQL_RES *res;
	MYSQL_ROW row;
	uint32_t cols;
	int rc = 0;

	if (dbd_db_exec(db, sql) < 0)
		return -1;
	res = mysql_use_result(db->my);
	if (!res) {
		error("mysql_use_result: %s", mysql_error(db->my));
		return -1;
	}
	cols = mysql_num_fields(res);
	if (cols > sizeof(cells) / sizeof(cells[0])) {
		error("%s: %u columns, at most %zu", __func__, cols,
		      sizeof(cells) / sizeof(cells[0]));
		rc = -1;
	}
	/* Read every row even after an error: the connection needs it. */
	while ((row = mysql_fetch_row(res))) {
		if (rc)
			continue;
		for (uint32_t c = 0; c < cols; c++)
			cells[c] = row[c] || nulls ? row[c] : "";
		fn(arg, cells, cols);
	}
	if (mysql_errno(db->my)) {
		error("mysql_fetch_row: %s", mysql_error(db->my));
		rc = -1;
	}
	mysql_free_result(res);
	return rc;
}

int dbd_db_select_each(dbd_db_t *db, const char *sql, dbd_row_f fn,
		       void *arg)
{
	return select_each(db, sql, fn, arg, false);
}

int dbd_db_select_each_null(dbd_db_t *db, const char *sql, dbd_row_f fn,
			    void *arg)
{
	return select_each(db, sql, fn, arg, true);
}

void dbd_rows_free(dbd_rows_t *r)
{
	if (r->res)
		mysql_free_result(r->res);
	xfree(r->cells);
	r->res = NULL;
	r->rows = r->cols = 0;
}

const char *dbd_rows_get(const dbd_rows_t *r, uint32_t row, uint32_t col)
{
	if (row >= r->rows || col >= r->cols)
		return "";
	return r->cells[(size_t)row * r->cols + col];
}

uint64_t dbd_db_affected(dbd_db_t *db)
{
	return (uint64_t)mysql_affected_rows(db->my);
}

bool dbd_db_debug(const dbd_db_t *db, uint32_t flag)
{
	return db && db->conf && (db->conf->debug_flags & flag);
}

uint64_t dbd_db_insert_id(dbd_db_t *db)
{
	return (uint64_t)mysql_insert_id(db->my);
}

int dbd_db_begin(dbd_db_t *db)
{
	db->last_errno = 0;
	db->last_error[0] = '\0';
	if (dbd_db_exec(db, "START TRANSACTION") < 0)
		return -1;
	db->in_txn = true;
	return 0;
}

int dbd_db_commit(dbd_db_t *db)
{
	int rc = dbd_db_exec(db, "COMMIT");

	db->in_txn = false;
	return rc;
}

void dbd_db_rollback(dbd_db_t *db)
{
	if (mysql_query(db->my, "ROLLBACK") != 0)
		error("ROLLBACK failed: %s", mysql_error(db->my));
	db->in_txn = false;
}

void dbd_db_quote(dbd_db_t *db, char **sql, const char *value)
{
	size_t n;
	char *esc;

	if (!value) {
		xstrcat(sql, "NULL");
		return;
	}
	n = strlen(value);
	esc = xmalloc(2 * n + 1);
	mysql_real_escape_string(db->my, esc, value, (unsigned long)n);
	xstrcatc(sql, '\'');
	xstrcat(sql, esc);
	xstrcatc(sql, '\'');
	xfree(esc);
}

void dbd_db_in(dbd_db_t *db, char **sql, const char *col, char **values)
{
	if (!values || !values[0]) {
		xstrcat(sql, "1");
		return;
	}
	xstrfmtcat(sql, "%s IN (", col);
	for (size_t i = 0; values[i]; i++) {
		if (i)
			xstrcatc(sql, ',');
		dbd_db_quote(db, sql, values[i]);
	}
	xstrcatc(sql, ')');
}
