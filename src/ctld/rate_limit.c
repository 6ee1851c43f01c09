/* rate_limit.c — see rate_limit.h.
 *
 * The table is a fixed array indexed by a hash of the uid; a slot holds
 * one user.  A user landing on a slot held by another takes it over with
 * a full bucket, as if new: with the default 8192 slots that only happens
 * on sites with thousands of users sending at once, and errs on the side
 * of letting a request through.
 */
#include "ctld/rate_limit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

typedef struct {
	uid_t    uid;
	bool     used;
	uint32_t tokens;
	time_t   last_refill;
} rl_slot_t;

static struct {
	rl_conf_t  conf;
	rl_slot_t *table;
	time_t     log_second;
	int32_t    logged;          /* lines logged in log_second */
	uint64_t   refused;         /* for the log */
} rl;

static int parse_u32(const char *key, const char *val, uint32_t min,
		     uint32_t *out, char *err, size_t errlen)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = val ? strtoul(val, &end, 10) : 0;
	if (!val || !*val || *end || errno || v < min || v > UINT32_MAX) {
		snprintf(err, errlen,
			 "SlurmctldParameters: invalid %s value \"%s\"", key,
			 val ? val : "");
		return -1;
	}
	*out = (uint32_t) v;
	return 0;
}

int rl_parse(const char *params, rl_conf_t *out, char *err, size_t errlen)
{
	char *copy, *save = NULL, *tok;
	int rc = 0;

	*out = (rl_conf_t) { .bucket_size = 30, .refill_rate = 10,
			     .refill_period = 1, .table_size = 8192,
			     .log_freq = 0 };
	if (!params)
		return 0;
	copy = xstrdup(params);
	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		char *val = strchr(tok, '=');

		if (val)
			*val++ = '\0';
		if (!strcasecmp(tok, "rl_enable")) {
			out->enable = true;
		} else if (!strcasecmp(tok, "rl_bucket_size")) {
			rc = parse_u32(tok, val, 1, &out->bucket_size, err, errlen);
		} else if (!strcasecmp(tok, "rl_refill_rate")) {
			rc = parse_u32(tok, val, 1, &out->refill_rate, err, errlen);
		} else if (!strcasecmp(tok, "rl_refill_period")) {
			rc = parse_u32(tok, val, 1, &out->refill_period, err, errlen);
		} else if (!strcasecmp(tok, "rl_table_size")) {
			rc = parse_u32(tok, val, 1, &out->table_size, err, errlen);
			if (!rc && out->table_size > (1u << 24)) {
				snprintf(err, errlen, "SlurmctldParameters: rl_table_size %u is too large",
					 out->table_size);
				rc = -1;
			}
		} else if (!strcasecmp(tok, "rl_log_freq")) {
			char *end;
			long v = val ? strtol(val, &end, 10) : 0;

			if (!val || !*val || *end || v < -1 || v > INT32_MAX) {
				snprintf(err, errlen,
					 "SlurmctldParameters: invalid rl_log_freq value \"%s\"",
					 val ? val : "");
				rc = -1;
			} else {
				out->log_freq = (int32_t) v;
			}
		}
	}
	xfree(copy);
	return rc;
}

void rl_configure(const rl_conf_t *c)
{
	if (!rl.table || rl.conf.table_size != c->table_size) {
		xfree(rl.table);
		rl.table = xcalloc(c->table_size, sizeof(*rl.table));
	}
	rl.conf = *c;
	if (c->enable)
		info("RPC rate limiting: bucket %u, %u token(s) every %u s, %u table slots",
		     c->bucket_size, c->refill_rate, c->refill_period,
		     c->table_size);
}

void rl_fini(void)
{
	xfree(rl.table);
	memset(&rl, 0, sizeof(rl));
}

static void refill(rl_slot_t *s, time_t now)
{
	uint64_t periods, tokens;

	if (now <= s->last_refill)
		return;
	periods = (uint64_t)(now - s->last_refill) / rl.conf.refill_period;
	if (!periods)
		return;
	tokens = s->tokens + periods * rl.conf.refill_rate;
	s->tokens = tokens > rl.conf.bucket_size ? rl.conf.bucket_size :
		    (uint32_t) tokens;
	s->last_refill += (time_t)(periods * rl.conf.refill_period);
}

static void log_refusal(uid_t uid, time_t now)
{
	rl.refused++;
	if (rl.conf.log_freq < 0)
		return;
	if (now != rl.log_second) {
		rl.log_second = now;
		rl.logged = 0;
	}
	if (rl.conf.log_freq && rl.logged >= rl.conf.log_freq)
		return;
	rl.logged++;
	info("RPC rate limit exceeded by uid %u, telling it to back off (%llu refused so far)",
	     (unsigned) uid, (unsigned long long) rl.refused);
}

bool rl_allow(uid_t uid, time_t now)
{
	rl_slot_t *s;

	if (!rl.conf.enable || !rl.table)
		return true;
	s = &rl.table[((uint32_t) uid * 2654435761u) % rl.conf.table_size];
	if (!s->used || s->uid != uid) {
		*s = (rl_slot_t) { .uid = uid, .used = true,
				   .tokens = rl.conf.bucket_size,
				   .last_refill = now };
	}
	refill(s, now);
	if (s->tokens) {
		s->tokens--;
		return true;
	}
	log_refusal(uid, now);
	return false;
}
