/* sched_params.c — SchedulerParameters (sched_params.h). */
#include <stdio.h>
#include <string.h>

#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/sched_params.h"

void sched_params_defaults(sched_params_t *p, uint16_t message_timeout)
{
	memset(p, 0, sizeof(*p));
	p->backfill = true;
	p->sched_interval = 60;
	p->default_queue_depth = 100;
	p->sched_min_interval = 2;
	p->max_sched_time = message_timeout / 2 ? message_timeout / 2 : 1;
	p->bf_interval = 30;
	p->bf_window = 1440;
	p->bf_resolution = 60;
	p->bf_max_job_test = 500;
	p->bf_yield_interval = 10000;
	p->bf_yield_sleep = 0;
	p->max_switch_wait = 300;
}

typedef struct {
	const char *key;
	size_t      off;
	uint32_t    min, max;
} sched_key_t;

#define K(k, m, lo, hi) { k, offsetof(sched_params_t, m), lo, hi }
static const sched_key_t sched_keys[] = {
	K("sched_interval", sched_interval, 0, 86400),
	K("default_queue_depth", default_queue_depth, 0, 1000000),
	K("sched_min_interval", sched_min_interval, 0, 1000000),
	K("max_sched_time", max_sched_time, 1, 3600),
	K("bf_interval", bf_interval, 1, 10800),
	K("bf_window", bf_window, 1, 43200),
	K("bf_resolution", bf_resolution, 1, 3600),
	K("bf_max_job_test", bf_max_job_test, 1, 1000000),
	K("bf_max_job_user", bf_max_job_user, 0, 1000000),
	K("bf_yield_interval", bf_yield_interval, 1, 10000000),
	K("bf_yield_sleep", bf_yield_sleep, 0, 10000000),
	K("max_switch_wait", max_switch_wait, 0, 100000000),
};
#undef K

static int _sp_param(sched_params_t *p, const char *item, char *err,
		  size_t errlen)
{
	const char *eq = strchr(item, '=');
	size_t klen = eq ? (size_t) (eq - item) : strlen(item);
	uint32_t v;

	if (klen == 11 && !strncmp(item, "bf_continue", klen)) {
		p->bf_continue = true;
		return 0;
	}
	if (klen == 11 && !strncmp(item, "bf_licenses", klen)) {
		p->bf_licenses = true;
		return 0;
	}
	for (size_t i = 0; i < sizeof(sched_keys) / sizeof(sched_keys[0]); i++) {
		const sched_key_t *k = &sched_keys[i];

		if (strlen(k->key) != klen || strncmp(item, k->key, klen))
			continue;
		if (!eq || parse_u32(eq + 1, &v) < 0 || v < k->min ||
		    v > k->max) {
			snprintf(err, errlen, "Invalid SchedulerParameters %s "
				 "(must be %u..%u)", item, k->min, k->max);
			return -1;
		}
		*(uint32_t *) ((char *) p + k->off) = v;
		return 0;
	}
	return 0;   /* keys for features we do not have are ignored */
}

int sched_params_parse(const char *str, uint16_t message_timeout,
		       sched_params_t *p, char *err, size_t errlen)
{
	sched_params_t n;
	char **items;
	int rc = 0;

	sched_params_defaults(&n, message_timeout);
	items = xstrsplit(str ? str : "", ",", NULL);
	for (size_t i = 0; items[i] && !rc; i++)
		if (*items[i])
			rc = _sp_param(&n, items[i], err, errlen);
	xstrarray_free(items);
	if (!rc)
		*p = n;
	return rc;
}
