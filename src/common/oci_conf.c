/* oci_conf.c — reading oci.conf (see oci_conf.h). */
#define _GNU_SOURCE
#include "common/oci_conf.h"

#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "common/conf_text.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define OCI_CONF_MAX_BYTES (1024 * 1024)

typedef enum { K_STR, K_PATH, K_BOOL, K_REGEX, K_ENVFILE, K_HOOKS,
	       K_SCRUN, K_SCRUN_LIST } kkind_t;

typedef struct {
	const char *name;
	kkind_t     kind;
	size_t      off;
} okey_t;

#define O(f) offsetof(oci_conf_t, f)

static const okey_t keys[] = {
	{ "ContainerPath",        K_PATH,       O(container_path) },
	{ "CreateEnvFile",        K_ENVFILE,    O(create_env_file) },
	{ "DebugFlags",           K_SCRUN,      O(debug_flags) },
	{ "DisableCleanup",       K_BOOL,       O(disable_cleanup) },
	{ "DisableHooks",         K_HOOKS,      O(disable_hooks) },
	{ "EnvExclude",           K_REGEX,      O(env_exclude) },
	{ "FileDebug",            K_SCRUN,      O(file_debug) },
	{ "IgnoreFileConfigJson", K_BOOL,       O(ignore_config_json) },
	{ "MountSpoolDir",        K_PATH,       O(mount_spool_dir) },
	{ "RunTimeCreate",        K_STR,        O(rt_create) },
	{ "RunTimeDelete",        K_STR,        O(rt_delete) },
	{ "RunTimeEnvExclude",    K_REGEX,      O(rt_env_exclude) },
	{ "RunTimeKill",          K_STR,        O(rt_kill) },
	{ "RunTimeQuery",         K_STR,        O(rt_query) },
	{ "RunTimeRun",           K_STR,        O(rt_run) },
	{ "RunTimeStart",         K_STR,        O(rt_start) },
	{ "SrunArgs",             K_SCRUN_LIST, O(srun_args) },
	{ "SrunPath",             K_SCRUN,      O(srun_path) },
	{ "StdIODebug",           K_SCRUN,      O(stdio_debug) },
	{ "SyslogDebug",          K_SCRUN,      O(syslog_debug) },
};

/* OCI runtime-spec hook names (DisableHooks) */
static const char *const hook_names[] = {
	"prestart", "createRuntime", "createContainer", "startContainer",
	"poststart", "poststop",
};

void oci_conf_free(oci_conf_t *c)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (keys[i].kind == K_BOOL || keys[i].kind == K_ENVFILE)
			continue;
		xfree(*(char **) ((char *) c + keys[i].off));
	}
	xfree(c->notes);
	memset(c, 0, sizeof(*c));
}

static bool has_ctl(const char *s)
{
	for (; *s; s++)
		if (iscntrl((unsigned char) *s) && *s != '\t')
			return true;
	return false;
}

int oci_bundle_path_check(const char *p, char *why, size_t wlen)
{
	const char *s = p;

	if (!p || p[0] != '/') {
		snprintf(why, wlen, "not an absolute path");
		return -1;
	}
	if (has_ctl(p)) {
		snprintf(why, wlen, "control character in path");
		return -1;
	}
	while ((s = strstr(s, ".."))) {
		if ((s == p || s[-1] == '/') && (s[2] == '\0' || s[2] == '/')) {
			snprintf(why, wlen, "\"..\" in path");
			return -1;
		}
		s += 2;
	}
	return 0;
}

/* glibc's regcomp() takes memory exponential in stacked repetitions
 * ("a++++...", "(a{255}){255}"): an expression here is short, with no
 * quantifier right after another and bounds of at most 255. */
#define OCI_REGEX_MAX 1024
static int check_regex_shape(const char *v, char *why, size_t wlen)
{
	bool prev_q = false;

	if (strlen(v) > OCI_REGEX_MAX) {
		snprintf(why, wlen, "longer than %d characters", OCI_REGEX_MAX);
		return -1;
	}
	for (const char *p = v; *p; p++) {
		bool q = *p == '*' || *p == '+' || *p == '?' || *p == '{';

		if (*p == '\\' && p[1]) {
			p++;
			prev_q = false;
			continue;
		}
		if (q && prev_q) {
			snprintf(why, wlen, "repeated quantifier");
			return -1;
		}
		if (*p == '{') {
			char *end;
			long n = strtol(p + 1, &end, 10);

			if (n > 255 || (*end == ',' &&
					strtol(end + 1, &end, 10) > 255)) {
				snprintf(why, wlen, "repetition bound over 255");
				return -1;
			}
			while (*p && *p != '}')
				p++;
			if (!*p)
				break;
		}
		prev_q = q;
	}
	return 0;
}

static int check_hooks(const char *v, char *why, size_t wlen)
{
	char *copy = xstrdup(v), *save = NULL;
	int rc = 0;

	for (char *t = strtok_r(copy, ",", &save); t && !rc;
	     t = strtok_r(NULL, ",", &save)) {
		bool known = false;

		for (size_t i = 0; i < sizeof(hook_names) / sizeof(*hook_names);
		     i++)
			known |= !strcasecmp(t, hook_names[i]);
		if (!known) {
			snprintf(why, wlen, "unknown hook type %.32s", t);
			rc = -1;
		}
	}
	xfree(copy);
	return rc;
}

static int set_value(oci_conf_t *c, const okey_t *k, const char *v,
		     char *why, size_t wlen)
{
	char **sp = (char **) ((char *) c + k->off);
	regex_t re;
	bool b;

	switch (k->kind) {
	case K_BOOL:
		if (parse_bool(v, &b) < 0) {
			snprintf(why, wlen, "true or false expected");
			return -1;
		}
		*(bool *) ((char *) c + k->off) = b;
		return 0;
	case K_ENVFILE:
		if (!strcasecmp(v, "null") || !strcasecmp(v, "true"))
			c->create_env_file = OCI_ENV_FILE_NULL;
		else if (!strcasecmp(v, "newline"))
			c->create_env_file = OCI_ENV_FILE_NEWLINE;
		else if (!strcasecmp(v, "disabled") || !strcasecmp(v, "false"))
			c->create_env_file = OCI_ENV_FILE_DISABLED;
		else {
			snprintf(why, wlen, "null, newline or disabled "
				 "expected");
			return -1;
		}
		return 0;
	case K_PATH:
		if (v[0] != '/') {
			snprintf(why, wlen, "an absolute path expected");
			return -1;
		}
		break;
	case K_REGEX:
		if (check_regex_shape(v, why, wlen) < 0)
			return -1;
		if (regcomp(&re, v, REG_EXTENDED | REG_NOSUB) != 0) {
			snprintf(why, wlen, "not a valid regular expression");
			return -1;
		}
		regfree(&re);
		break;
	case K_HOOKS:
		if (check_hooks(v, why, wlen) < 0)
			return -1;
		break;
	case K_SCRUN_LIST:
		if (*sp) {
			xstrcatc(sp, '\n');
			xstrcat(sp, v);
			return 0;
		}
		break;
	case K_STR:
	case K_SCRUN:
		break;
	}
	xfree(*sp);
	*sp = xstrdup(v);
	return 0;
}

typedef struct {
	oci_conf_t *c;
	const char *fname;
	char       *err;
	size_t      errlen;
} oci_parse_t;

/* One non-comment line (conf_text_lines). */
static int parse_line(char *s, int line, void *arg)
{
	oci_parse_t *p = arg;
	const char *fname = p->fname;
	char *key, *val, why[160], *err = p->err;
	size_t errlen = p->errlen, n;
	oci_conf_t *c = p->c;
	const okey_t *k = NULL;

	if (conf_text_kv(s, &key, &val) < 0)
		return conf_text_fail(err, errlen, fname, line, "Parsing error "
				      "at unrecognized key: %.64s", s);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcasecmp(keys[i].name, key))
			k = &keys[i];
	if (!k)
		return conf_text_fail(err, errlen, fname, line, "Parsing error "
				      "at unrecognized key: %.64s", key);
	n = strlen(val);
	if (val[0] == '"') {
		if (n < 2 || val[n - 1] != '"' ||
		    memchr(val + 1, '"', n - 2))
			return conf_text_fail(err, errlen, fname, line,
					      "%s: unbalanced quotes",
					      k->name);
		val[n - 1] = '\0';
		val++;
	} else if (strchr(val, '"'))
		return conf_text_fail(err, errlen, fname, line,
				      "%s: unbalanced quotes", k->name);
	if (!*val)
		return conf_text_fail(err, errlen, fname, line,
				      "%s: no value", k->name);
	if (has_ctl(val))
		return conf_text_fail(err, errlen, fname, line, "%s: control "
				      "character in value", k->name);
	if (set_value(c, k, val, why, sizeof(why)) < 0)
		return conf_text_fail(err, errlen, fname, line,
				      "%s=%.64s: %s", k->name, val, why);
	if (k->kind == K_SCRUN || k->kind == K_SCRUN_LIST)
		xstrfmtcat(&c->notes, "%s%s:%d: %s has no effect: it is for "
			   "scrun, which Sluice does not have",
			   c->notes ? "\n" : "", fname, line, k->name);
	return 0;
}

/* The rules between keys, once the file is read. */
static int check_whole(const oci_conf_t *c, const char *fname, char *err,
		       size_t errlen)
{
	if (c->ignore_config_json)
		return conf_text_fail(err, errlen, fname, 0,
				      "IgnoreFileConfigJson=true is not "
				      "supported: Sluice runs the bundle's "
				      "config.json");
	if (c->rt_run && (c->rt_create || c->rt_start))
		return conf_text_fail(err, errlen, fname, 0,
				      "RunTimeRun is mutually exclusive with "
				      "RunTimeCreate and RunTimeStart");
	if (!c->rt_run && !(c->rt_create && c->rt_start))
		return conf_text_fail(err, errlen, fname, 0,
				      "RunTimeRun, or RunTimeCreate and "
				      "RunTimeStart, must be set");
	return 0;
}

int oci_conf_parse_text(const char *text, size_t len, const char *fname,
			oci_conf_t *c, char *err, size_t errlen)
{
	oci_parse_t p = { c, fname, err, errlen };

	memset(c, 0, sizeof(*c));
	if (conf_text_lines(text, len, fname, parse_line, &p, err,
			    errlen) < 0) {
		oci_conf_free(c);
		return -1;
	}
	if (check_whole(c, fname, err, errlen) < 0) {
		oci_conf_free(c);
		return -1;
	}
	if (!c->mount_spool_dir)
		c->mount_spool_dir = xstrdup(OCI_DEFAULT_MOUNT_SPOOL);
	return 0;
}

int oci_conf_load(const char *path, oci_conf_t *c, char *err, size_t errlen)
{
	char *text;
	size_t n;
	int rc;

	memset(c, 0, sizeof(*c));
	if (conf_text_read(path, OCI_CONF_MAX_BYTES, &text, &n, err,
			   errlen) < 0)
		return -1;
	rc = oci_conf_parse_text(text, n, path, c, err, errlen);
	xfree(text);
	return rc;
}

bool oci_conf_present(const char *path)
{
	struct stat st;

	return path && stat(path, &st) == 0;
}
