/* acct_probe.c — an accounting_storage plugin built in tests against the
 * installed headers (ctld/acct_storage.h, common/acct_rec.h), whose
 * records are frozen under ACCT_STORAGE_OPS_VERSION
 * (tests/fixtures/plugin_abi).  record() appends "job <id> <name> <uid>
 * <state>" for every job record to -DPROBE_OUT; -DPROBE_CLAIM=n makes it
 * claim ops version n instead of its header's; -DPROBE_NAME names it.
 */
#include <stdio.h>

#include "ctld/acct_storage.h"
#include "common/acct_rec.h"

#ifndef PROBE_CLAIM
#define PROBE_CLAIM ACCT_STORAGE_OPS_VERSION
#endif
#define STR2(x) #x
#define STR(x) STR2(x)

static uint32_t seen;

static void probe_record(uint16_t kind, const void *rec)
{
	const acct_job_rec_t *j = rec;
	FILE *f;

	if (kind != ACCT_REC_JOB)
		return;
	f = fopen(STR(PROBE_OUT), "a");
	if (!f)
		return;
	fprintf(f, "job %u %s %u %u\n", j->job_id, j->name ? j->name : "-",
		j->uid, j->state);
	fclose(f);
	seen++;
}

static uint32_t probe_depth(void)
{
	return 0;
}

static const acct_storage_ops_t ops = {
	.record = probe_record, .depth = probe_depth,
};

const struct sluice_plugin sluice_plugin = {
	.type = "accounting_storage", .name = STR(PROBE_NAME),
	.abi_version = SLUICE_PLUGIN_ABI, .ops_version = PROBE_CLAIM,
	.ops = &ops,
};
