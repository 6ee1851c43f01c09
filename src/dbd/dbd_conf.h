/* dbd_conf.h — slurmdbd.conf: parse and hold.
 *
 * dbd_conf_load() reads the file named by its argument, or slurmdbd.conf
 * next to slurm.conf (the directory of $SLURM_CONF, else the compiled-in
 * sysconfdir).  One "Key=Value" pair per line or several separated by
 * spaces; keys are case-insensitive; '#' starts a comment; values may be
 * quoted.  An unknown key or a bad value fails the whole load with
 * "file:line: message" in err and NULL returned.  The caller frees the
 * result with dbd_conf_destroy().
 */
#ifndef SLUICE_DBD_CONF_H
#define SLUICE_DBD_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* PrivateData bits. */
enum {
	DBD_PRIVATE_ACCOUNTS     = 0x01,
	DBD_PRIVATE_EVENTS       = 0x02,
	DBD_PRIVATE_JOBS         = 0x04,
	DBD_PRIVATE_RESERVATIONS = 0x08,
	DBD_PRIVATE_USAGE        = 0x10,
	DBD_PRIVATE_USERS        = 0x20,
};

/* A Purge*After value: 0 = keep forever. */
typedef enum {
	DBD_PURGE_HOURS = 1,
	DBD_PURGE_DAYS,
	DBD_PURGE_MONTHS,
} dbd_purge_unit_t;

typedef struct {
	uint32_t         count;
	dbd_purge_unit_t unit;
} dbd_purge_t;

typedef enum {
	DBD_PURGE_EVENT,
	DBD_PURGE_JOB,
	DBD_PURGE_RESV,
	DBD_PURGE_STEP,
	DBD_PURGE_SUSPEND,
	DBD_PURGE_TXN,
	DBD_PURGE_USAGE,
	DBD_PURGE_CNT
} dbd_purge_kind_t;

typedef struct {
	char       *path;             /* the file read */
	char       *dbd_host;         /* DbdHost (default: this host's name) */
	char       *dbd_addr;         /* DbdAddr (default: DbdHost) */
	uint16_t    dbd_port;         /* DbdPort (6819) */
	char       *storage_type;     /* accounting_storage/mysql */
	char       *storage_host;     /* StorageHost (localhost) */
	uint16_t    storage_port;     /* StoragePort (3306) */
	char       *storage_user;     /* StorageUser (SlurmUser) */
	char       *storage_pass;     /* StoragePass, may be NULL */
	char       *storage_loc;      /* StorageLoc (slurm_acct_db) */
	char       *slurm_user;       /* SlurmUser (root) */
	uid_t       slurm_user_id;
	char       *auth_type;        /* AuthType (auth/munge) */
	char       *auth_info;        /* AuthInfo, may be NULL */
	char       *auth_alt_types;   /* AuthAltTypes (auth/jwt), or NULL */
	char       *auth_alt_params;  /* AuthAltParameters (jwt_key=...) */
	char       *log_file;         /* LogFile, NULL = syslog/stderr */
	int         debug_level;      /* DebugLevel (info) as log_level_t */
	char       *pid_file;         /* PidFile (/var/run/slurmdbd.pid) */
	char       *plugin_dir;       /* PluginDir, NULL = built-in default */
	char       *archive_dir;      /* ArchiveDir (/tmp) */
	dbd_purge_t purge[DBD_PURGE_CNT];
	uint32_t    archive;          /* Archive*=yes: 1 << dbd_purge_kind_t */
	uint32_t    private_data;     /* DBD_PRIVATE_* bits */
	bool        track_wckey;      /* TrackWCKey */
	uint16_t    message_timeout;  /* MessageTimeout (10 s) */
	uint32_t    max_query_range;  /* MaxQueryTimeRange, seconds; 0 =
				       * INFINITE */
	uint32_t    debug_flags;      /* DebugFlags: DBD_FLAG_* */
	/* StorageParameters: the TLS files of the MariaDB connection */
	char       *ssl_ca, *ssl_capath, *ssl_cert, *ssl_key, *ssl_cipher;
	/* What the file sets that slurmdbd does not act on, each
	 * "slurmdbd.conf:LINE: Key=Value: why" (logged at start). */
	char      **warnings;
	uint32_t    commit_delay;     /* CommitDelay (0 s) */
} dbd_conf_t;

/* DebugFlags slurmdbd acts on (the others are warned about). */
enum {
	DBD_FLAG_DB_ARCHIVE = 0x1,  /* archive files written and loaded */
	DBD_FLAG_DB_QUERY   = 0x2,  /* every SQL statement */
};

/* path NULL: slurmdbd.conf beside slurm.conf. */
dbd_conf_t *dbd_conf_load(const char *path, char *err, size_t errlen);
void        dbd_conf_destroy(dbd_conf_t *c);
/* The path dbd_conf_load(NULL) would read; caller frees. */
char       *dbd_conf_default_path(void);

/* "12month", "30days", "24hours", "6" (months); -1 if malformed. */
int dbd_conf_parse_purge(const char *s, dbd_purge_t *out);
/* "jobs,users" -> DBD_PRIVATE_* bits; -1 on an unknown word. */
int dbd_conf_parse_private(const char *s, uint32_t *out);

#endif
