/* rlimits.c — see rlimits.h. */
#include "common/rlimits.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>

#include "common/xmalloc.h"
#include "common/xstring.h"

#define ENV_PREFIX "SLURM_RLIMIT_"

static const struct {
	const char *name;
	int         res;
} lims[RLIMITS_CNT] = {
	{ "CPU", RLIMIT_CPU },         { "FSIZE", RLIMIT_FSIZE },
	{ "DATA", RLIMIT_DATA },       { "STACK", RLIMIT_STACK },
	{ "CORE", RLIMIT_CORE },       { "RSS", RLIMIT_RSS },
	{ "NPROC", RLIMIT_NPROC },     { "NOFILE", RLIMIT_NOFILE },
	{ "MEMLOCK", RLIMIT_MEMLOCK }, { "AS", RLIMIT_AS },
};

static int lim_index(const char *name, size_t n)
{
	for (int i = 0; i < RLIMITS_CNT; i++)
		if (strlen(lims[i].name) == n &&
		    !strncasecmp(lims[i].name, name, n))
			return i;
	return -1;
}

int rlimits_parse(const char *key, const char *list, unsigned *mask,
		  char *err, size_t errlen)
{
	const char *p = list;
	unsigned m = 0;

	if (!list || !strcasecmp(list, "NONE")) {
		*mask = 0;
		return 0;
	}
	if (!strcasecmp(list, "ALL")) {
		*mask = (1u << RLIMITS_CNT) - 1;
		return 0;
	}
	for (;;) {
		size_t n = strcspn(p, ","), wn = n;
		const char *w = p;
		int i;

		/* "RLIMIT_NOFILE" is accepted for "NOFILE", as Slurm */
		if (wn > 7 && !strncasecmp(w, "RLIMIT_", 7)) {
			w += 7;
			wn -= 7;
		}
		if ((i = lim_index(w, wn)) < 0) {
			snprintf(err, errlen, "%s: unknown resource limit "
				 "\"%.*s\" (AS CORE CPU DATA FSIZE MEMLOCK "
				 "NOFILE NPROC RSS STACK, ALL or NONE)", key,
				 (int)n, p);
			return -1;
		}
		m |= 1u << i;
		p += n;
		if (!*p++)
			break;
	}
	*mask = m;
	return 0;
}

int rlimits_conf_mask(const char *prop, const char *except, unsigned *mask,
		      char *err, size_t errlen)
{
	unsigned in, out;

	if (rlimits_parse("PropagateResourceLimits", prop ? prop : "ALL", &in,
			  err, errlen) < 0 ||
	    rlimits_parse("PropagateResourceLimitsExcept", except, &out, err,
			  errlen) < 0)
		return -1;
	*mask = in & ~out;
	return 0;
}

unsigned rlimits_conf_bits(const char *prop, const char *except)
{
	char err[256];
	unsigned mask;

	return rlimits_conf_mask(prop, except, &mask, err, sizeof(err)) < 0 ?
	       0 : mask;
}

char **rlimits_to_env(char **env, unsigned mask, int user,
		      rlimits_setenv_f setf)
{
	for (int i = 0; i < RLIMITS_CNT; i++) {
		struct rlimit rl;
		char name[32], val[32];

		if (!(mask & (1u << i)) || getrlimit(lims[i].res, &rl) < 0)
			continue;
		snprintf(name, sizeof(name), ENV_PREFIX "%s", lims[i].name);
		snprintf(val, sizeof(val), "%s%llu", user ? "U" : "",
			 (unsigned long long)rl.rlim_cur);
		env = setf(env, name, val);
	}
	return env;
}

/* "NOFILE=1024" or "NOFILE=U1024" (after the prefix) into r. */
static void take_one(const char *s, unsigned conf_mask, rlimits_req_t *r)
{
	const char *eq = strchr(s, '=');
	bool user;
	char *end;
	unsigned long long v;
	int i;

	if (!eq || (i = lim_index(s, (size_t)(eq - s))) < 0)
		return;
	user = eq[1] == 'U';
	errno = 0;
	v = strtoull(eq + 1 + user, &end, 10);
	if (errno || end == eq + 1 + user || *end)
		return;
	if (!user && !(conf_mask & (1u << i)))
		return;
	r->mask |= 1u << i;
	if (user)
		r->user |= 1u << i;
	r->val[i] = v;
}

void rlimits_take(char **env, unsigned conf_mask, rlimits_req_t *r)
{
	size_t out = 0;

	memset(r, 0, sizeof(*r));
	for (size_t in = 0; env && env[in]; in++) {
		if (strncmp(env[in], ENV_PREFIX, strlen(ENV_PREFIX))) {
			env[out++] = env[in];
			continue;
		}
		take_one(env[in] + strlen(ENV_PREFIX), conf_mask, r);
		xfree(env[in]);
	}
	if (env)
		env[out] = NULL;
}

void rlimits_set(rlimits_req_t *r)
{
	for (int i = 0; i < RLIMITS_CNT; i++) {
		struct rlimit rl;

		r->err[i] = 0;
		if (!(r->mask & (1u << i)))
			continue;
		if (getrlimit(lims[i].res, &rl) < 0) {
			r->err[i] = errno;
			continue;
		}
		if (rl.rlim_cur == (rlim_t)r->val[i])
			continue;
		rl.rlim_cur = (rlim_t)r->val[i];
		if (rl.rlim_max != RLIM_INFINITY &&
		    (rl.rlim_cur == RLIM_INFINITY || rl.rlim_max < rl.rlim_cur))
			rl.rlim_max = rl.rlim_cur;
		if (setrlimit(lims[i].res, &rl) < 0)
			r->err[i] = errno;
	}
}

void rlimits_report(const rlimits_req_t *r, int fd)
{
	for (int i = 0; i < RLIMITS_CNT; i++) {
		char v[32];

		if (!r->err[i] || !(r->user & (1u << i)))
			continue;
		if ((rlim_t)r->val[i] == RLIM_INFINITY)
			snprintf(v, sizeof(v), "'unlimited'");
		else
			snprintf(v, sizeof(v), "%llu", r->val[i]);
		dprintf(fd, "slurmstepd: error: Can't propagate RLIMIT_%s of "
			"%s from submit host: %s\n", lims[i].name, v,
			strerror(r->err[i]));
	}
}
