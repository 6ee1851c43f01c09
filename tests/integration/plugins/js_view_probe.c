/* js_view_probe.c — a job_submit plugin built in tests against a job view
 * header: with -I tests/fixtures/job_submit_view_v1 against view 1 (the
 * fixture), with -I src against the current one.  -DPROBE_NAME names it;
 * -DPROBE_CLAIM=n makes it claim ops version n instead of its header's.
 * submit appends "<name>:v<its view>" (and the client's protocol version
 * from view 2 on) to the job's comment, and refuses a job named
 * "refuse-<name>" with a message; it also sets --time-min to 1 minute to
 * show that a number it changes reaches the job.
 */
#include <stdio.h>
#include <string.h>

#include "job_submit_plugin.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#ifndef PROBE_CLAIM
#define PROBE_CLAIM JOB_SUBMIT_OPS_VERSION
#endif
#if JOB_SUBMIT_OPS_VERSION >= 2
typedef job_submit_view_t probe_desc_t;
#else
typedef job_desc_t probe_desc_t;
#endif
#define STR2(x) #x
#define STR(x) STR2(x)

static int probe_submit(probe_desc_t *d, const part_info_t *parts,
			size_t part_cnt, uint32_t uid, char **user_msg)
{
	char refuse[64], add[64];

	(void) parts; (void) part_cnt; (void) uid;
	snprintf(refuse, sizeof(refuse), "refuse-%s", STR(PROBE_NAME));
	if (d->name && !strcmp(d->name, refuse)) {
		*user_msg = xstrdup_printf("%s refuses this job",
					   STR(PROBE_NAME));
		return ESLURM_ACCESS_DENIED;
	}
#if JOB_SUBMIT_OPS_VERSION >= 2
	snprintf(add, sizeof(add), "%s:v%d:%x", STR(PROBE_NAME),
		 JOB_SUBMIT_OPS_VERSION, (unsigned) d->client_version);
#else
	snprintf(add, sizeof(add), "%s:v%d", STR(PROBE_NAME),
		 JOB_SUBMIT_OPS_VERSION);
#endif
	if (d->comment && *d->comment) {
		char *c = xstrdup_printf("%s,%s", d->comment, add);

		xfree(d->comment);
		d->comment = c;
	} else {
		xfree(d->comment);
		d->comment = xstrdup(add);
	}
	d->time_min = 1;
	return 0;
}

static const job_submit_ops_t ops = { .submit = probe_submit };

const struct sluice_plugin sluice_plugin = {
	.type = "job_submit", .name = STR(PROBE_NAME),
	.abi_version = SLUICE_PLUGIN_ABI, .ops_version = PROBE_CLAIM,
	.ops = &ops,
};
