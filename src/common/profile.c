/* profile.c — --profile, --acctg-freq and AcctGatherProfileType
 * (profile.h). */
#include "common/profile.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
	const char *name;
	uint32_t    bit;
} kinds[] = {
	{ "energy", PROFILE_ENERGY }, { "task", PROFILE_TASK },
	{ "lustre", PROFILE_LUSTRE }, { "network", PROFILE_NETWORK },
};
#define KIND_CNT (sizeof(kinds) / sizeof(kinds[0]))

int profile_parse(const char *s, uint32_t *out, char *why, size_t len)
{
	uint32_t p = 0;
	const char *item = s;

	if (!s || !*s) {
		snprintf(why, len, "--profile needs a value: all, none or "
			 "a list of energy and task");
		return -1;
	}
	if (!strcasecmp(s, "all")) {
		*out = PROFILE_ALL;
		return 0;
	}
	if (!strcasecmp(s, "none")) {
		*out = PROFILE_NONE;
		return 0;
	}
	while (*item) {
		size_t n = strcspn(item, ",");
		size_t k;

		for (k = 0; k < KIND_CNT; k++)
			if (strlen(kinds[k].name) == n &&
			    !strncasecmp(item, kinds[k].name, n))
				break;
		if (k == KIND_CNT) {
			snprintf(why, len, "invalid --profile=%s: '%.*s' is "
				 "not one of all, none, energy, task, lustre "
				 "and network", s, (int)n, item);
			return -1;
		}
		if (kinds[k].bit & (PROFILE_LUSTRE | PROFILE_NETWORK)) {
			snprintf(why, len, "--profile=%.*s is not supported: "
				 "Sluice's nodes gather task and energy "
				 "samples only", (int)n, item);
			return -1;
		}
		p |= kinds[k].bit;
		item += n;
		if (*item == ',' && *++item == '\0') {
			snprintf(why, len, "invalid --profile=%s: empty item",
				 s);
			return -1;
		}
	}
	*out = p;
	return 0;
}

const char *profile_str(uint32_t p)
{
	static char buf[64];

	if (p == PROFILE_NOT_SET)
		return "NotSet";
	if (p & PROFILE_NONE || !(p & ~PROFILE_NONE))
		return "None";
	snprintf(buf, sizeof(buf), "%s%s%s",
		 p & PROFILE_ENERGY ? "Energy" : "",
		 (p & PROFILE_ENERGY) && (p & PROFILE_TASK) ? "," : "",
		 p & PROFILE_TASK ? "Task" : "");
	return buf;
}

/* "task=5" -> 0 with the name's length and value; -1 if malformed. */
static int freq_item(const char *item, size_t n, size_t *name_len,
		     long *val)
{
	const char *eq = memchr(item, '=', n);
	const char *num = eq ? eq + 1 : item;
	size_t numlen = n - (size_t)(num - item);
	char tmp[16];
	char *end;

	*name_len = eq ? (size_t)(eq - item) : 0;
	if ((eq && !*name_len) || !numlen || numlen >= sizeof(tmp))
		return -1;
	memcpy(tmp, num, numlen);
	tmp[numlen] = '\0';
	for (size_t i = 0; i < numlen; i++)
		if (!isdigit((unsigned char)tmp[i]))
			return -1;
	*val = strtol(tmp, &end, 10);
	return *val > 65535 ? -1 : 0;
}

int acctg_freq_check(const char *s, char *why, size_t len)
{
	static const char *const types[] = { "task", "energy", "network",
					     "filesystem" };
	const char *item = s;

	if (!s || !*s) {
		snprintf(why, len, "--acctg-freq needs a value "
			 "(<datatype>=<seconds>[,...])");
		return -1;
	}
	while (*item) {
		size_t n = strcspn(item, ","), nl, t;
		long v;

		if (freq_item(item, n, &nl, &v) < 0) {
			snprintf(why, len, "invalid --acctg-freq=%s: '%.*s' "
				 "is not <datatype>=<seconds 0-65535>", s,
				 (int)n, item);
			return -1;
		}
		for (t = 0; nl && t < sizeof(types) / sizeof(types[0]); t++)
			if (strlen(types[t]) == nl &&
			    !strncasecmp(item, types[t], nl))
				break;
		if (nl && t == sizeof(types) / sizeof(types[0])) {
			snprintf(why, len, "invalid --acctg-freq=%s: '%.*s' "
				 "is not one of task, energy, network and "
				 "filesystem", s, (int)nl, item);
			return -1;
		}
		item += n;
		if (*item == ',' && !*++item) {
			snprintf(why, len, "invalid --acctg-freq=%s: empty "
				 "item", s);
			return -1;
		}
	}
	return 0;
}

int acctg_freq_of(const char *spec, const char *type, int def)
{
	const char *item = spec;

	if (!spec)
		return def;
	while (*item) {
		size_t n = strcspn(item, ","), nl;
		long v;

		if (freq_item(item, n, &nl, &v) == 0 &&
		    ((!nl && !strcmp(type, "task")) ||
		     (nl == strlen(type) && !strncasecmp(item, type, nl))))
			return (int)v;
		item += n;
		if (*item == ',')
			item++;
	}
	return def;
}
