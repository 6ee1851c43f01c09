/* dbd_conf.c — the slurmdbd.conf parser (see dbd_conf.h). */
#include <ctype.h>
#include <errno.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "dbd/dbd_conf.h"

#ifndef SLUICE_SYSCONFDIR
#define SLUICE_SYSCONFDIR "/etc/slurm"
#endif

#define DBD_CONF_MAX_LINE 8192

typedef struct {
	dbd_conf_t *c;
	char       *err;
	size_t      errlen;
	size_t      line;
} dbd_parse_t;

typedef int (*dbd_set_f)(dbd_parse_t *p, const char *key, const char *val,
			 size_t off);

typedef struct {
	const char *name;
	dbd_set_f   set;
	size_t      off;        /* member of dbd_conf_t, or purge kind */
	const char *why;        /* set_warn, set_refuse: the reason */
} dbd_key_t;

static int dbd_fail(dbd_parse_t *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int dbd_fail(dbd_parse_t *p, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (p->err && p->errlen)
		snprintf(p->err, p->errlen, "%s:%zu: %s", p->c->path, p->line,
			 msg);
	return -1;
}

/* ---- value setters ---- */

static int set_str(dbd_parse_t *p, const char *key, const char *val,
		   size_t off)
{
	char **dst = (char **)((char *)p->c + off);

	xfree(*dst);
	*dst = xstrdup(val);
	return 0;
}

static int set_port(dbd_parse_t *p, const char *key, const char *val,
		    size_t off)
{
	uint32_t v;

	if (parse_u32(val, &v) < 0 || v == 0 || v > 65535)
		return dbd_fail(p, "invalid value \"%s\" for %s", val, key);
	*(uint16_t *)((char *)p->c + off) = (uint16_t)v;
	return 0;
}

static int set_u16(dbd_parse_t *p, const char *key, const char *val,
		   size_t off)
{
	uint32_t v;

	if (parse_u32(val, &v) < 0 || v > 65535)
		return dbd_fail(p, "invalid value \"%s\" for %s", val, key);
	*(uint16_t *)((char *)p->c + off) = (uint16_t)v;
	return 0;
}

static int set_u32(dbd_parse_t *p, const char *key, const char *val,
		   size_t off)
{
	uint32_t v;

	if (parse_u32(val, &v) < 0)
		return dbd_fail(p, "invalid value \"%s\" for %s", val, key);
	*(uint32_t *)((char *)p->c + off) = v;
	return 0;
}

static int set_bool(dbd_parse_t *p, const char *key, const char *val,
		    size_t off)
{
	if (parse_bool(val, (bool *)((char *)p->c + off)) < 0)
		return dbd_fail(p, "invalid value \"%s\" for %s", val, key);
	return 0;
}

static int set_level(dbd_parse_t *p, const char *key, const char *val,
		     size_t off)
{
	int l = log_level_from_string(val);

	if (l < 0)
		return dbd_fail(p, "invalid value \"%s\" for %s", val, key);
	p->c->debug_level = l;
	return 0;
}

static int set_storage_type(dbd_parse_t *p, const char *key,
			    const char *val, size_t off)
{
	if (xstrcasecmp(val, "accounting_storage/mysql"))
		return dbd_fail(p, "invalid value \"%s\" for %s (only "
				"accounting_storage/mysql is supported)",
				val, key);
	return set_str(p, key, "accounting_storage/mysql", off);
}

static int set_auth_type(dbd_parse_t *p, const char *key, const char *val,
			 size_t off)
{
	if (!xstrcaseprefix(val, "auth/") || !val[5])
		return dbd_fail(p, "invalid value \"%s\" for %s", val, key);
	return set_str(p, key, val, off);
}

static int set_slurm_user(dbd_parse_t *p, const char *key, const char *val,
			  size_t off)
{
	struct passwd *pw = getpwnam(val);

	if (!pw)
		return dbd_fail(p, "%s: unknown user \"%s\"", key, val);
	p->c->slurm_user_id = pw->pw_uid;
	return set_str(p, key, val, off);
}

static int set_purge(dbd_parse_t *p, const char *key, const char *val,
		     size_t kind)
{
	if (dbd_conf_parse_purge(val, &p->c->purge[kind]) < 0)
		return dbd_fail(p, "invalid value \"%s\" for %s", val, key);
	return 0;
}

/* ArchiveJobs=yes ...: the kind's records are written to ArchiveDir
 * before Purge*After removes them (dbd_archive.h). */
static int set_archive(dbd_parse_t *p, const char *key, const char *val,
		       size_t kind)
{
	bool on;

	if (parse_bool(val, &on) < 0)
		return dbd_fail(p, "invalid value \"%s\" for %s", val, key);
	if (on)
		p->c->archive |= 1u << kind;
	else
		p->c->archive &= ~(1u << kind);
	return 0;
}

/* Slurm runs ArchiveScript instead of its own archiving; Sluice has only
 * its own, so a script that a site relies on is refused, not skipped. */
static int set_archive_script(dbd_parse_t *p, const char *key,
			      const char *val, size_t off)
{
	return dbd_fail(p, "%s is not supported: slurmdbd writes the "
			"archives itself (ArchiveDir, Archive*=yes)", key);
}

static int set_private(dbd_parse_t *p, const char *key, const char *val,
		       size_t off)
{
	uint32_t bits;

	if (dbd_conf_parse_private(val, &bits) < 0)
		return dbd_fail(p, "invalid value \"%s\" for %s", val, key);
	p->c->private_data |= bits;
	return 0;
}

/* The reason of a set_warn/set_refuse key. */
static const char *why_of(const char *key);

static void add_warning(dbd_parse_t *p, const char *key, const char *val,
			const char *why)
{
	char *w = xstrdup_printf("%s:%zu: %s=%s is not acted on: %s",
				 p->c->path, p->line, key, val, why);

	p->c->warnings = xstrarray_append(p->c->warnings, w);
	xfree(w);
}

/* A key Slurm acts on and Sluice does not, where going on is safe: the
 * daemon starts and logs it once (slurmdbd.c). */
static int set_warn(dbd_parse_t *p, const char *key, const char *val,
		    size_t off)
{
	add_warning(p, key, val, why_of(key));
	return 0;
}

/* The same for a boolean whose "no" is what Sluice does. */
static int set_warn_yes(dbd_parse_t *p, const char *key, const char *val,
			size_t off)
{
	bool on;

	if (parse_bool(val, &on) < 0)
		return dbd_fail(p, "invalid value \"%s\" for %s", val, key);
	if (on)
		add_warning(p, key, val, why_of(key));
	return 0;
}

/* A key whose absence Sluice's behaviour matches and whose presence it
 * cannot honour: the file is refused. */
static int set_refuse(dbd_parse_t *p, const char *key, const char *val,
		      size_t off)
{
	return dbd_fail(p, "%s is not supported: %s", key, why_of(key));
}

/* DebugFlags: the names of slurmdbd.conf(5); DB_ARCHIVE and DB_QUERY
 * log, the others are accepted and warned about. */
static int set_debug_flags(dbd_parse_t *p, const char *key, const char *val,
			   size_t off)
{
	static const char *const known[] = {
		"DB_ARCHIVE", "DB_ASSOC", "DB_EVENT", "DB_JOB", "DB_QOS",
		"DB_QUERY", "DB_RESERVATION", "DB_RESOURCE", "DB_STEP",
		"DB_TRES", "DB_USAGE", "DB_WCKEY", "AUDIT_RPCS", "FEDERATION",
		"NETWORK", "NETWORK_RAW", "TLS",
	};
	char **w = xstrsplit(val, ",", NULL), *quiet = NULL;
	int rc = 0;

	for (size_t i = 0; w[i] && !rc; i++) {
		bool ok = false;

		for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); k++)
			ok |= !xstrcasecmp(w[i], known[k]);
		if (!ok)
			rc = dbd_fail(p, "invalid value \"%s\" for %s", w[i],
				      key);
		else if (!xstrcasecmp(w[i], "DB_ARCHIVE"))
			p->c->debug_flags |= DBD_FLAG_DB_ARCHIVE;
		else if (!xstrcasecmp(w[i], "DB_QUERY"))
			p->c->debug_flags |= DBD_FLAG_DB_QUERY;
		else
			xstrfmtcat(&quiet, "%s%s", quiet ? "," : "", w[i]);
	}
	if (!rc && quiet)
		add_warning(p, key, quiet, "slurmdbd logs DB_ARCHIVE and "
			    "DB_QUERY only");
	xfree(quiet);
	xstrarray_free(w);
	return rc;
}

/* MaxQueryTimeRange: as MaxTime ("INFINITE", minutes, "d-hh:mm:ss"). */
static int set_query_range(dbd_parse_t *p, const char *key, const char *val,
			   size_t off)
{
	uint32_t min;

	if (parse_duration_min(val, &min) < 0)
		return dbd_fail(p, "invalid value \"%s\" for %s", val, key);
	p->c->max_query_range = min == INFINITE32 || min > UINT32_MAX / 60 ?
				0 : min * 60;
	return 0;
}

/* StorageParameters: SSL_CA=, SSL_CAPATH=, SSL_CERT=, SSL_KEY=,
 * SSL_CIPHER= for the MariaDB connection. */
static int set_storage_params(dbd_parse_t *p, const char *key,
			      const char *val, size_t off)
{
	static const struct { const char *word; size_t off; } words[] = {
		{ "SSL_CA", offsetof(dbd_conf_t, ssl_ca) },
		{ "SSL_CAPATH", offsetof(dbd_conf_t, ssl_capath) },
		{ "SSL_CERT", offsetof(dbd_conf_t, ssl_cert) },
		{ "SSL_KEY", offsetof(dbd_conf_t, ssl_key) },
		{ "SSL_CIPHER", offsetof(dbd_conf_t, ssl_cipher) },
	};
	char **w = xstrsplit(val, ",", NULL);
	int rc = 0;

	for (size_t i = 0; w[i] && !rc; i++) {
		char *eq = strchr(w[i], '=');
		bool ok = false;

		if (eq)
			*eq = '\0';
		for (size_t k = 0; eq && k < sizeof(words) / sizeof(words[0]);
		     k++)
			if (!xstrcasecmp(w[i], words[k].word) && eq[1]) {
				char **dst = (char **)((char *)p->c +
						       words[k].off);

				xfree(*dst);
				*dst = xstrdup(eq + 1);
				ok = true;
			}
		if (!ok && eq)
			*eq = '=';
		if (!ok)
			rc = dbd_fail(p, "invalid value \"%s\" for %s "
				      "(SSL_CA=, SSL_CAPATH=, SSL_CERT=, "
				      "SSL_KEY=, SSL_CIPHER=)", w[i], key);
	}
	xstrarray_free(w);
	return rc;
}

/* LogTimeFormat: Sluice's log lines carry ISO 8601 times with
 * milliseconds, Slurm's default. */
static int set_log_time_format(dbd_parse_t *p, const char *key,
			       const char *val, size_t off)
{
	if (xstrcasecmp(val, "iso8601_ms"))
		return dbd_fail(p, "invalid value \"%s\" for %s (only "
				"iso8601_ms is supported)", val, key);
	return 0;
}

#define S(name, member) { name, set_str, offsetof(dbd_conf_t, member) }
#define K(name, fn, member) { name, fn, offsetof(dbd_conf_t, member) }
#define P(name, kind) { name, set_purge, kind }
#define A(name, kind) { name, set_archive, kind }
#define W(name, why) { name, set_warn, 0, why }
#define WY(name, why) { name, set_warn_yes, 0, why }
#define R(name, why) { name, set_refuse, 0, why }

static const dbd_key_t dbd_keys[] = {
	WY("AllowNoDefAcct", "a user still needs a default account"),
	WY("AllResourcesAbsolute", "a resource's cluster share is a percentage "
	   "unless sacctmgr is given Allowed="),
	S("ArchiveDir", archive_dir),
	A("ArchiveEvents", DBD_PURGE_EVENT), A("ArchiveJobs", DBD_PURGE_JOB),
	A("ArchiveResvs", DBD_PURGE_RESV),
	K("ArchiveScript", set_archive_script, archive_dir),
	A("ArchiveSteps", DBD_PURGE_STEP),
	A("ArchiveSuspend", DBD_PURGE_SUSPEND), A("ArchiveTXN", DBD_PURGE_TXN),
	A("ArchiveUsage", DBD_PURGE_USAGE),
	S("AuthAltParameters", auth_alt_params),
	S("AuthAltTypes", auth_alt_types),
	S("AuthInfo", auth_info),
	K("AuthType", set_auth_type, auth_type),
	K("CommitDelay", set_u32, commit_delay),
	W("CommunicationParameters", "slurmdbd sets no keepalive and binds "
	  "DbdAddr"),
	S("DbdAddr", dbd_addr),
	R("DbdBackupHost", "there is no backup slurmdbd (a second one would "
	  "run as a primary on the same database)"),
	S("DbdHost", dbd_host),
	K("DbdPort", set_port, dbd_port),
	K("DebugFlags", set_debug_flags, debug_flags),
	K("DebugLevel", set_level, debug_level),
	W("DebugLevelSyslog", "slurmdbd logs to LogFile (or standard error) "
	  "only"),
	W("DefaultQOS", "new associations get the QOS sacctmgr gives them"),
	S("LogFile", log_file),
	K("LogTimeFormat", set_log_time_format, log_file),
	K("MaxQueryTimeRange", set_query_range, max_query_range),
	K("MessageTimeout", set_u16, message_timeout),
	R("Parameters", "user names are kept in lower case (no "
	  "PreserveCaseUser)"),
	S("PidFile", pid_file),
	S("PluginDir", plugin_dir),
	R("PreserveCaseUser", "user names are kept in lower case"),
	K("PrivateData", set_private, private_data),
	P("PurgeEventAfter", DBD_PURGE_EVENT),
	P("PurgeJobAfter", DBD_PURGE_JOB),
	P("PurgeResvAfter", DBD_PURGE_RESV),
	P("PurgeStepAfter", DBD_PURGE_STEP),
	P("PurgeSuspendAfter", DBD_PURGE_SUSPEND),
	P("PurgeTXNAfter", DBD_PURGE_TXN),
	P("PurgeUsageAfter", DBD_PURGE_USAGE),
	K("SlurmUser", set_slurm_user, slurm_user),
	R("StorageBackupHost", "slurmdbd does not fail over to a second "
	  "database server"),
	S("StorageHost", storage_host),
	S("StorageLoc", storage_loc),
	K("StorageParameters", set_storage_params, ssl_ca),
	S("StoragePass", storage_pass),
	K("StoragePort", set_port, storage_port),
	K("StorageType", set_storage_type, storage_type),
	S("StorageUser", storage_user),
	W("TCPTimeout", "connections use MessageTimeout"),
	WY("TrackSlurmctldDown", "a controller that is down is not recorded "
	   "as its nodes being down"),
	K("TrackWCKey", set_bool, track_wckey),
	{ NULL, NULL, 0, NULL }
};

static const char *why_of(const char *key)
{
	for (const dbd_key_t *k = dbd_keys; k->name; k++)
		if (!xstrcasecmp(k->name, key))
			return k->why ? k->why : "";
	return "";
}

#undef S
#undef K
#undef P
#undef A
#undef W
#undef WY
#undef R

/* ---- public value parsers ---- */

int dbd_conf_parse_purge(const char *s, dbd_purge_t *out)
{
	static const struct { const char *word; dbd_purge_unit_t unit; } u[] = {
		{ "hour", DBD_PURGE_HOURS }, { "hours", DBD_PURGE_HOURS },
		{ "day", DBD_PURGE_DAYS }, { "days", DBD_PURGE_DAYS },
		{ "month", DBD_PURGE_MONTHS }, { "months", DBD_PURGE_MONTHS },
	};
	unsigned long n;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || n > 0xffffffffUL)
		return -1;
	if (!*end) {
		out->count = (uint32_t)n;
		out->unit = DBD_PURGE_MONTHS;
		return 0;
	}
	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		if (!xstrcasecmp(end, u[i].word)) {
			out->count = (uint32_t)n;
			out->unit = u[i].unit;
			return 0;
		}
	}
	return -1;
}

int dbd_conf_parse_private(const char *s, uint32_t *out)
{
	static const struct { const char *word; uint32_t bit; } w[] = {
		{ "accounts", DBD_PRIVATE_ACCOUNTS },
		{ "events", DBD_PRIVATE_EVENTS },
		{ "jobs", DBD_PRIVATE_JOBS },
		{ "reservations", DBD_PRIVATE_RESERVATIONS },
		{ "usage", DBD_PRIVATE_USAGE },
		{ "users", DBD_PRIVATE_USERS },
	};
	char **items = xstrsplit(s, ",", NULL);
	uint32_t bits = 0;
	int rc = 0;

	for (size_t i = 0; items[i] && rc == 0; i++) {
		size_t j;

		for (j = 0; j < sizeof(w) / sizeof(w[0]); j++)
			if (!xstrcasecmp(items[i], w[j].word))
				break;
		if (j == sizeof(w) / sizeof(w[0]))
			rc = -1;
		else
			bits |= w[j].bit;
	}
	xstrarray_free(items);
	if (rc == 0)
		*out = bits;
	return rc;
}

/* ---- the file ---- */

static void dbd_conf_defaults(dbd_conf_t *c)
{
	char host[256] = "localhost";

	if (gethostname(host, sizeof(host) - 1) < 0)
		snprintf(host, sizeof(host), "localhost");
	c->dbd_host = xstrdup(host);
	c->dbd_port = 6819;
	c->storage_type = xstrdup("accounting_storage/mysql");
	c->storage_host = xstrdup("localhost");
	c->storage_port = 3306;
	c->storage_loc = xstrdup("slurm_acct_db");
	c->slurm_user = xstrdup("root");
	c->slurm_user_id = 0;
	c->auth_type = xstrdup("auth/munge");
	c->debug_level = LOG_LEVEL_INFO;
	c->pid_file = xstrdup("/var/run/slurmdbd.pid");
	c->archive_dir = xstrdup("/tmp");
	c->message_timeout = 10;
}

static const dbd_key_t *dbd_key_find(const char *key)
{
	for (const dbd_key_t *k = dbd_keys; k->name; k++)
		if (!xstrcasecmp(k->name, key))
			return k;
	return NULL;
}

/* Strip a comment ('#', "\#" escapes it) in place. */
static void dbd_strip(char *s)
{
	char *out = s;

	for (char *p = s; *p; p++) {
		if (*p == '\\' && p[1]) {
			*out++ = *++p;
			continue;
		}
		if (*p == '#')
			break;
		*out++ = *p;
	}
	*out = '\0';
}

/* One "K=V" at *pp; advances *pp.  0, or -1 with the error set. */
static int dbd_pair(dbd_parse_t *p, const char **pp)
{
	const char *s = *pp, *k = s, *v;
	const dbd_key_t *key;
	char *name, *val;
	int rc;

	while (isalnum((unsigned char)*s) || *s == '_')
		s++;
	if (s == k || *s != '=')
		return dbd_fail(p, "parse error near \"%.40s\"", k);
	name = xstrndup(k, (size_t)(s - k));
	s++;
	if (*s == '"') {
		v = ++s;
		while (*s && *s != '"')
			s++;
		if (!*s) {
			rc = dbd_fail(p, "unterminated quote in value of %s",
				      name);
			xfree(name);
			return rc;
		}
		val = xstrndup(v, (size_t)(s - v));
		s++;
	} else {
		v = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		val = xstrndup(v, (size_t)(s - v));
	}
	key = dbd_key_find(name);
	if (!key)
		rc = dbd_fail(p, "unknown key \"%s\"", name);
	else
		rc = key->set(p, key->name, val, key->off);
	xfree(name);
	xfree(val);
	*pp = s;
	return rc;
}

static int dbd_line(dbd_parse_t *p, char *line)
{
	const char *s;

	dbd_strip(line);
	s = line;
	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			return 0;
		if (dbd_pair(p, &s) < 0)
			return -1;
	}
}

static int dbd_read(dbd_parse_t *p, FILE *fp)
{
	char buf[DBD_CONF_MAX_LINE];

	while (fgets(buf, sizeof(buf), fp)) {
		size_t n = strlen(buf);

		p->line++;
		if (n == sizeof(buf) - 1 && buf[n - 1] != '\n')
			return dbd_fail(p, "line too long");
		if (dbd_line(p, buf) < 0)
			return -1;
	}
	return 0;
}

/* Defaults that depend on other keys. */
static void dbd_conf_finish(dbd_conf_t *c)
{
	if (!c->dbd_addr)
		c->dbd_addr = xstrdup(c->dbd_host);
	if (!c->storage_user)
		c->storage_user = xstrdup(c->slurm_user);
}

char *dbd_conf_default_path(void)
{
	const char *env = getenv("SLURM_CONF");
	const char *slash;

	if (!env || !*env)
		return xstrdup(SLUICE_SYSCONFDIR "/slurmdbd.conf");
	slash = strrchr(env, '/');
	if (!slash)
		return xstrdup("slurmdbd.conf");
	return xstrdup_printf("%.*s/slurmdbd.conf", (int)(slash - env), env);
}

dbd_conf_t *dbd_conf_load(const char *path, char *err, size_t errlen)
{
	dbd_conf_t *c = xmalloc(sizeof(*c));
	dbd_parse_t p = { .c = c, .err = err, .errlen = errlen };
	FILE *fp;
	int rc = -1;

	if (err && errlen)
		err[0] = '\0';
	c->path = path ? xstrdup(path) : dbd_conf_default_path();
	dbd_conf_defaults(c);
	fp = fopen(c->path, "r");
	if (!fp) {
		if (err && errlen)
			snprintf(err, errlen, "Unable to open %s: %s", c->path,
				 strerror(errno));
		goto out;
	}
	rc = dbd_read(&p, fp);
	fclose(fp);
	if (rc == 0)
		dbd_conf_finish(c);
out:
	if (rc < 0) {
		dbd_conf_destroy(c);
		return NULL;
	}
	return c;
}

void dbd_conf_destroy(dbd_conf_t *c)
{
	if (!c)
		return;
	xfree(c->path);
	xfree(c->dbd_host);
	xfree(c->dbd_addr);
	xfree(c->storage_type);
	xfree(c->storage_host);
	xfree(c->storage_user);
	xfree(c->storage_pass);
	xfree(c->storage_loc);
	xfree(c->slurm_user);
	xfree(c->auth_type);
	xfree(c->auth_info);
	xfree(c->auth_alt_types);
	xfree(c->auth_alt_params);
	xfree(c->log_file);
	xfree(c->pid_file);
	xfree(c->plugin_dir);
	xfree(c->archive_dir);
	xfree(c->ssl_ca);
	xfree(c->ssl_capath);
	xfree(c->ssl_cert);
	xfree(c->ssl_key);
	xfree(c->ssl_cipher);
	xstrarray_free(c->warnings);
	xfree(c);
}
