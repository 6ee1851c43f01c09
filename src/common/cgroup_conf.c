/* cgroup_conf.c — reading cgroup.conf (see cgroup_conf.h). */
#define _GNU_SOURCE
#include "common/cgroup_conf.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/conf_text.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define CGROUP_CONF_MAX_BYTES (1024 * 1024)

typedef enum {
	K_BOOL, K_PCT, K_MB, K_STR, K_PLUGIN, K_SWAPPINESS,
	K_NOTE,         /* accepted, no effect: note says why (logged) */
	K_U32,
} kkind_t;

typedef struct {
	const char *name;
	kkind_t     kind;
	size_t      off;
	const char *note;    /* K_NOTE; also for accepted keys, logged */
} ckey_t;

#define O(f) offsetof(cgroup_conf_t, f)

static const ckey_t keys[] = {
	{ "CgroupAutomount",        K_BOOL,       O(automount),
	  "slurmd uses the cgroup hierarchy the machine has mounted and "
	  "never mounts one" },
	{ "CgroupMountpoint",       K_STR,        O(mountpoint) },
	{ "CgroupPlugin",           K_PLUGIN,     O(plugin) },
	{ "ConstrainCores",         K_BOOL,       O(constrain_cores) },
	{ "ConstrainDevices",       K_BOOL,       O(constrain_devices) },
	{ "ConstrainRAMSpace",      K_BOOL,       O(constrain_ram) },
	{ "ConstrainSwapSpace",     K_BOOL,       O(constrain_swap) },
	{ "AllowedRAMSpace",        K_PCT,        O(allowed_ram) },
	{ "AllowedSwapSpace",       K_PCT,        O(allowed_swap) },
	{ "MaxRAMPercent",          K_PCT,        O(max_ram_percent) },
	{ "MaxSwapPercent",         K_PCT,        O(max_swap_percent) },
	{ "MinRAMSpace",            K_MB,         O(min_ram_mb) },
	{ "MemorySwappiness",       K_SWAPPINESS, O(swappiness) },
	{ "IgnoreSystemd",          K_BOOL,       O(ignore_systemd) },
	{ "SignalChildrenProcesses", K_BOOL,      O(signal_children) },
	{ "EnableControllers",      K_BOOL,       O(enable_controllers) },
#define NO_SYSTEMD "slurmd makes its cgroups itself, never through " \
		   "systemd (as with IgnoreSystemd=yes)"
	{ "SystemdTimeout",         K_U32,        O(systemd_timeout),
	  NO_SYSTEMD },
	{ "IgnoreSystemdOnFailure", K_NOTE,       0, NO_SYSTEMD },
#define DEFUNCT "defunct in Slurm 25.05"
	{ "AllowedKmemSpace",       K_NOTE,       0, DEFUNCT },
	{ "ConstrainKmemSpace",     K_NOTE,       0, DEFUNCT },
	{ "MaxKmemPercent",         K_NOTE,       0, DEFUNCT },
	{ "MinKmemSpace",           K_NOTE,       0, DEFUNCT },
	{ "CgroupReleaseAgentDir",  K_NOTE,       0, DEFUNCT },
	{ "TaskAffinity",           K_NOTE,       0, DEFUNCT },
};

void cgroup_conf_defaults(cgroup_conf_t *c)
{
	*c = (cgroup_conf_t) {
		.mountpoint = xstrdup("/sys/fs/cgroup"),
		.allowed_ram = 100.0,
		.allowed_swap = 0.0,
		.max_ram_percent = 100.0,
		.max_swap_percent = 100.0,
		.min_ram_mb = 30,
		.swappiness = -1,
	};
}

void cgroup_conf_free(cgroup_conf_t *c)
{
	xfree(c->mountpoint);
	xfree(c->notes);
}

/* "95", "95.5", "95%" -> percent in [0, max]. */
static int parse_pct(const char *v, double max, double *out)
{
	char *end;
	double d;

	if (!*v || isspace((unsigned char) *v))
		return -1;
	errno = 0;
	d = strtod(v, &end);
	if (end == v || errno || !isfinite(d))
		return -1;
	if (*end == '%')
		end++;
	if (*end || d < 0 || d > max)
		return -1;
	*out = d;
	return 0;
}

static int set_value(cgroup_conf_t *c, const ckey_t *k, const char *v,
		     char *why, size_t wlen)
{
	char *base = (char *) c;
	bool b;
	uint64_t mb;
	uint32_t u;

	switch (k->kind) {
	case K_BOOL:
		if (parse_bool(v, &b) < 0) {
			snprintf(why, wlen, "yes or no expected");
			return -1;
		}
		*(bool *) (base + k->off) = b;
		return 0;
	case K_PCT:
		/* AllowedSwapSpace may exceed 100 (of the RAM limit) */
		if (parse_pct(v, k->off == O(allowed_swap) ? 1e6 : 100.0,
			      (double *) (base + k->off)) < 0) {
			snprintf(why, wlen, "a percentage expected%s",
				 k->off == O(allowed_swap) ? "" : " (0-100)");
			return -1;
		}
		return 0;
	case K_MB:
		if (parse_mem_mb(v, &mb) < 0) {
			snprintf(why, wlen, "a size in MB expected");
			return -1;
		}
		*(uint64_t *) (base + k->off) = mb;
		return 0;
	case K_STR:
		if (!*v || v[0] != '/') {
			snprintf(why, wlen, "an absolute path expected");
			return -1;
		}
		xfree(*(char **) (base + k->off));
		*(char **) (base + k->off) = xstrdup(v);
		return 0;
	case K_PLUGIN:
		if (!strcasecmp(v, "autodetect"))
			c->plugin = CGROUP_PLUGIN_AUTO;
		else if (!strcasecmp(v, "cgroup/v1"))
			c->plugin = CGROUP_PLUGIN_V1;
		else if (!strcasecmp(v, "cgroup/v2"))
			c->plugin = CGROUP_PLUGIN_V2;
		else {
			snprintf(why, wlen, "autodetect, cgroup/v1 or cgroup/v2 expected");
			return -1;
		}
		return 0;
	case K_SWAPPINESS:
		if (parse_u32(v, &u) < 0 || u > 100) {
			snprintf(why, wlen, "0-100 expected");
			return -1;
		}
		c->swappiness = (int32_t) u;
		return 0;
	case K_U32:
		if (parse_u32(v, (uint32_t *) (base + k->off)) < 0) {
			snprintf(why, wlen, "a number expected");
			return -1;
		}
		return 0;
	case K_NOTE:
		return 0;
	}
	return -1;
}

typedef struct {
	cgroup_conf_t *c;
	const char    *fname;
	char          *err;
	size_t         errlen;
} cg_parse_t;

/* One non-comment line: "Key=Value" (spaces around '=' allowed). */
static int parse_line(char *s, int line, void *arg)
{
	cg_parse_t *p = arg;
	char *key, *val, why[128];
	const ckey_t *k = NULL;

	if (conf_text_kv(s, &key, &val) < 0)
		return conf_text_fail(p->err, p->errlen, p->fname, line,
				      "Parsing error at unrecognized key: "
				      "%.64s", s);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcasecmp(keys[i].name, key))
			k = &keys[i];
	if (!k)
		return conf_text_fail(p->err, p->errlen, p->fname, line,
				      "Parsing error at unrecognized key: "
				      "%.64s", key);
	if (!*val)
		return conf_text_fail(p->err, p->errlen, p->fname, line,
				      "%s: no value", k->name);
	if (set_value(p->c, k, val, why, sizeof(why)) < 0)
		return conf_text_fail(p->err, p->errlen, p->fname, line,
				      "%s=%.64s: %s", k->name, val, why);
	if (k->note)
		xstrfmtcat(&p->c->notes, "%s%s:%d: %s has no effect: %s",
			   p->c->notes ? "\n" : "", p->fname, line, k->name,
			   k->note);
	return 0;
}

int cgroup_conf_parse_text(const char *text, size_t len, const char *fname,
			   cgroup_conf_t *c, char *err, size_t errlen)
{
	cg_parse_t p = { c, fname, err, errlen };

	cgroup_conf_defaults(c);
	if (conf_text_lines(text, len, fname, parse_line, &p, err,
			    errlen) < 0) {
		cgroup_conf_free(c);
		cgroup_conf_defaults(c);
		return -1;
	}
	return 0;
}

int cgroup_conf_load(const char *path, cgroup_conf_t *c, char *err,
		     size_t errlen)
{
	char *text;
	size_t n;
	int rc;

	if (conf_text_read(path, CGROUP_CONF_MAX_BYTES, &text, &n, err,
			   errlen) < 0) {
		cgroup_conf_defaults(c);
		return errno == ENOENT ? 0 : -1;
	}
	rc = cgroup_conf_parse_text(text, n, path, c, err, errlen);
	xfree(text);
	return rc;
}
