/* config_info.c — REQUEST_BUILD_INFO for `scontrol show config`: the
 * config's key/values plus what only the running controller knows
 * (BOOT_TIME, NEXT_JOB_ID, SLURM_CONF, SLURM_VERSION), each placed where
 * Slurm's case-insensitive ordering puts it. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/debug_flags.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/config_info.h"
#include "ctld/controller.h"
#include "ctld/job_mgr.h"

typedef struct {
	char   **keys;
	char   **values;
	uint32_t cnt;
} kvlist_t;

static void _push(kvlist_t *l, const char *k, const char *v)
{
	l->keys = xrealloc(l->keys, (l->cnt + 2) * sizeof(char *));
	l->values = xrealloc(l->values, (l->cnt + 2) * sizeof(char *));
	l->keys[l->cnt] = xstrdup(k);
	l->values[l->cnt] = xstrdup(v ? v : "(null)");
	l->cnt++;
	l->keys[l->cnt] = l->values[l->cnt] = NULL;
}

/* The runtime keys, sorted case-insensitively. */
static void _runtime(const char *out[4][2], char bufs[4][64])
{
	const slurm_conf_t *c = ctld_conf();

	fmt_time(ctld_boot_time(), bufs[0], sizeof(bufs[0]));
	snprintf(bufs[1], sizeof(bufs[1]), "%u", job_mgr_next_id());
	out[0][0] = "BOOT_TIME";     out[0][1] = bufs[0];
	out[1][0] = "NEXT_JOB_ID";   out[1][1] = bufs[1];
	out[2][0] = "SLURM_CONF";    out[2][1] = c->path;
	out[3][0] = "SLURM_VERSION"; out[3][1] = SLUICE_VERSION_STRING;
}

/* What scontrol setdebug/setdebugflags changed shows as it is now. */
static const char *_running(const char *key, const char *value)
{
	static char *flags;

	if (!strcasecmp(key, "SlurmctldDebug"))
		return log_level_to_string((log_level_t) ctld_debug_level());
	if (strcasecmp(key, "DebugFlags"))
		return value;
	xfree(flags);
	flags = debug_flags_string(debug_flags_now);
	return flags ? flags : "(null)";
}

void config_info_rpc(net_conn_t *conn, slurm_msg_t *msg)
{
	const slurm_conf_t *c = ctld_conf();
	const char *rt[4][2];
	char bufs[4][64];
	kvlist_t l = { 0 };
	config_info_msg_t resp = { 0 };
	size_t i, r = 0, kv_cnt;
	const conf_kv_t *kv = conf_kv(c, &kv_cnt, NULL);

	_runtime(rt, bufs);
	for (i = 0; i < kv_cnt; i++) {
		const char *k = kv[i].key;
		bool dup = false;

		while (r < 4 && strcasecmp(rt[r][0], k) < 0) {
			_push(&l, rt[r][0], rt[r][1]);
			r++;
		}
		for (size_t q = 0; q < 4; q++)
			if (!strcasecmp(rt[q][0], k))
				dup = true;
		if (!dup)
			_push(&l, k, _running(k, kv[i].value));
	}
	for (; r < 4; r++)
		_push(&l, rt[r][0], rt[r][1]);
	resp.keys = l.keys;
	resp.values = l.values;
	resp.cnt = l.cnt;
	resp.last_update = time(NULL);
	net_reply(conn, RESPONSE_BUILD_INFO, &resp);
	xstrarray_free(l.keys);
	xstrarray_free(l.values);
}
