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
