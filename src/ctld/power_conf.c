/* power_conf.c — the power saving keys of slurm.conf (power_conf.h). */
#include "ctld/power_conf.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common/hostlist.h"
#include "common/log.h"
#include "common/node_info.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

/* A program key: NULL when not set. */
static char *pc_prog(const slurm_conf_t *c, const char *key)
{
	const char *v = conf_get_set(c, key);

	return v && *v ? xstrdup(v) : NULL;
}

/* A number key as scontrol show config prints it ("60 sec"). */
static long pc_num(const slurm_conf_t *c, const char *key, long dflt)
{
	const char *v = conf_get(c, key);

	if (!v || !isdigit((unsigned char) *v))
		return dflt;
	return strtol(v, NULL, 10);
}

static uint32_t pc_suspend_time(const slurm_conf_t *c)
{
	const char *v = conf_get_set(c, "SuspendTime");

	if (!v || !isdigit((unsigned char) *v))   /* INFINITE, NONE, -1 */
		return INFINITE32;
	return (uint32_t) strtoul(v, NULL, 10);
}

/* SuspendExcNodes: "n[1-8]:2,m5": groups split at the commas outside
 * brackets, each maybe with ":count" (that many stay powered up). */
static int pc_exc_nodes(const slurm_conf_t *c, power_conf_t *out, char *err,
			size_t errlen)
{
	const char *v = conf_get_set(c, "SuspendExcNodes"), *p, *start;
	int depth = 0;

	if (!v || !*v)
		return 0;
	for (p = start = v;; p++) {
		if (*p == '[')
			depth++;
		else if (*p == ']')
			depth--;
		if (*p && (*p != ',' || depth))
			continue;
		if (p > start) {
			char *g = xstrndup(start, (size_t) (p - start)), *colon;
			char herr[128];
			hostlist_t *hl;
			power_exc_t *e;

			colon = strrchr(g, ':');
			out->exc = xrealloc(out->exc, (out->exc_cnt + 1) *
					    sizeof(*out->exc));
			e = &out->exc[out->exc_cnt++];
			e->keep_up = 0;
			if (colon) {
				char *end;
				unsigned long n;

				*colon = '\0';
				errno = 0;
				n = strtoul(colon + 1, &end, 10);
				if (!colon[1] || *end || errno || n > 1000000) {
					snprintf(err, errlen, "Invalid "
						 "SuspendExcNodes %s", v);
					e->nodes = g;
					return -1;
				}
				e->keep_up = (uint32_t) n;
			}
			e->nodes = g;
			if (!(hl = hostlist_parse(g, herr, sizeof(herr)))) {
				snprintf(err, errlen, "Invalid SuspendExcNodes "
					 "%s: %s", v, herr);
				return -1;
			}
			for (size_t i = 0; i < hostlist_count(hl); i++) {
				bool known = false;

				for (size_t k = 0; k < c->node_cnt && !known; k++)
					known = !strcmp(c->nodes[k].name,
							hostlist_nth(hl, i));
				if (!known) {
					snprintf(err, errlen, "Invalid "
						 "SuspendExcNodes %s: node %s "
						 "does not exist", v,
						 hostlist_nth(hl, i));
					hostlist_destroy(hl);
					return -1;
				}
			}
			hostlist_destroy(hl);
		}
		if (!*p)
			break;
		start = p + 1;
	}
	return 0;
}

static int pc_exc_parts(const slurm_conf_t *c, power_conf_t *out, char *err,
			size_t errlen)
{
	const char *v = conf_get_set(c, "SuspendExcParts");
	size_t n = 0;

	if (!v || !*v)
		return 0;
	out->exc_parts = xstrsplit(v, ",", &n);
	for (size_t i = 0; i < n; i++) {
		bool known = false;

		for (size_t k = 0; k < c->part_cnt && !known; k++)
			known = !strcmp(c->parts[k].name, out->exc_parts[i]);
		if (!known) {
			snprintf(err, errlen, "Invalid SuspendExcParts %s: "
				 "partition %s does not exist", v,
				 out->exc_parts[i]);
			return -1;
		}
	}
	return 0;
}

static int pc_exc_states(const slurm_conf_t *c, power_conf_t *out, char *err,
			 size_t errlen)
{
	static const struct {
		const char *name;
		uint32_t    flag;       /* 0: DOWN */
	} states[] = {
		{ "CLOUD", NODE_STATE_CLOUD }, { "DOWN", 0 },
		{ "DRAIN", NODE_STATE_DRAIN },
		{ "DYNAMIC_FUTURE", NODE_STATE_DYNAMIC_FUTURE },
		{ "DYNAMIC_NORM", NODE_STATE_DYNAMIC_NORM },
		{ "FAIL", NODE_STATE_FAIL },
		{ "INVALID_REG", NODE_STATE_INVALID_REG },
		{ "MAINTENANCE", NODE_STATE_MAINT },
		{ "NOT_RESPONDING", NODE_STATE_NO_RESPOND },
		{ "PERFCTRS", NODE_STATE_NET },
		{ "PLANNED", NODE_STATE_PLANNED },
		{ "RESERVED", NODE_STATE_RES },
	};
	const char *v = conf_get_set(c, "SuspendExcStates");
	char **w;
	size_t n = 0;
	int rc = 0;

	if (!v || !*v)
		return 0;
	w = xstrsplit(v, ",", &n);
	for (size_t i = 0; i < n && !rc; i++) {
		size_t k;

		for (k = 0; k < sizeof(states) / sizeof(states[0]); k++)
			if (!strcasecmp(w[i], states[k].name))
				break;
		if (k == sizeof(states) / sizeof(states[0])) {
			snprintf(err, errlen, "Invalid SuspendExcStates %s: "
				 "%s is not a node state it takes", v, w[i]);
			rc = -1;
		} else if (!states[k].flag) {
			out->exc_down = true;
		} else {
			out->exc_flags |= states[k].flag;
		}
	}
	xstrarray_free(w);
	return rc;
}

static int pc_u32(const char *key, const char *val, uint32_t *out, char *err,
		  size_t errlen)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = val ? strtoul(val, &end, 10) : 0;
	if (!val || !*val || *end || errno || v > 86400) {
		snprintf(err, errlen, "SlurmctldParameters: invalid %s value "
			 "\"%s\"", key, val ? val : "");
		return -1;
	}
	*out = (uint32_t) v;
	return 0;
}

static int pc_ctld_params(const slurm_conf_t *c, power_conf_t *out,
			  char *err, size_t errlen)
{
	char **w;
	size_t n = 0;
	int rc = 0;

	if (!c->slurmctld_params)
		return 0;
	w = xstrsplit(c->slurmctld_params, ",", &n);
	for (size_t i = 0; i < n && !rc; i++) {
		char *val = strchr(w[i], '=');

		if (val)
			*val++ = '\0';
		if (!strcasecmp(w[i], "power_save_interval"))
			rc = pc_u32(w[i], val, &out->interval, err, errlen);
		else if (!strcasecmp(w[i], "power_save_min_interval"))
			rc = pc_u32(w[i], val, &out->min_interval, err, errlen);
		else if (!strcasecmp(w[i], "idle_on_node_suspend"))
			out->idle_on_suspend = true;
		else if (!strcasecmp(w[i], "cloud_reg_addrs"))
			out->cloud_reg_addrs = true;
		else if (!strcasecmp(w[i], "cloud_dns"))
			out->cloud_dns = true;
	}
	xstrarray_free(w);
	if (!rc && !out->interval)
		out->interval = 1;
	return rc;
}

/* Both programs set: they must be executable files (Slurm's words). */
static void pc_enabled(power_conf_t *out)
{
	if (!out->suspend_prog && !out->resume_prog)
		return;
	if (!out->suspend_prog || access(out->suspend_prog, X_OK) < 0) {
		error("power_save module disabled, invalid SuspendProgram %s",
		      out->suspend_prog ? out->suspend_prog : "(null)");
		return;
	}
	if (!out->resume_prog || access(out->resume_prog, X_OK) < 0) {
		error("power_save module disabled, invalid ResumeProgram %s",
		      out->resume_prog ? out->resume_prog : "(null)");
		return;
	}
	out->enabled = true;
}

int power_conf_parse(const slurm_conf_t *c, power_conf_t *out, char *err,
		     size_t errlen)
{
	memset(out, 0, sizeof(*out));
	out->suspend_prog = pc_prog(c, "SuspendProgram");
	out->resume_prog = pc_prog(c, "ResumeProgram");
	out->resume_fail_prog = pc_prog(c, "ResumeFailProgram");
	out->suspend_time = pc_suspend_time(c);
	out->suspend_timeout = (uint16_t) pc_num(c, "SuspendTimeout", 30);
	out->resume_timeout = (uint16_t) pc_num(c, "ResumeTimeout", 60);
	out->suspend_rate = (uint16_t) pc_num(c, "SuspendRate", 60);
	out->resume_rate = (uint16_t) pc_num(c, "ResumeRate", 300);
	out->interval = 10;
	if (pc_exc_nodes(c, out, err, errlen) < 0 ||
	    pc_exc_parts(c, out, err, errlen) < 0 ||
	    pc_exc_states(c, out, err, errlen) < 0 ||
	    pc_ctld_params(c, out, err, errlen) < 0) {
		power_conf_free(out);
		return -1;
	}
	if (out->resume_fail_prog && access(out->resume_fail_prog, X_OK) < 0)
		error("ResumeFailProgram %s is not an executable file",
		      out->resume_fail_prog);
	pc_enabled(out);
	return 0;
}

void power_conf_free(power_conf_t *c)
{
	xfree(c->suspend_prog);
	xfree(c->resume_prog);
	xfree(c->resume_fail_prog);
	for (size_t i = 0; i < c->exc_cnt; i++)
		xfree(c->exc[i].nodes);
	xfree(c->exc);
	xstrarray_free(c->exc_parts);
	memset(c, 0, sizeof(*c));
}
