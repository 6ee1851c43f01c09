/* rest_list_bench — slurmrestd's GET jobs / GET nodes text alone, in
 * process: the records written by the version's plan (rest_plan.h)
 * against the old path (each record's json-c object, viewed, serialized),
 * CPU seconds of each for the same records, and whether the texts are
 * equal.  The records are tests/unit/rest_list_data.h's.
 *
 *   rest_list_bench [JOBS [NODES [VERSIONS [plan]]]]
 *   (50000 4096 40,41,42,43; plan: time the plan alone, for perf record)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli_fields.h"
#include "common/xmalloc.h"
#include "restd/rest_list.h"
#include "restd/rest_plan.h"
#include "restd/rest_spec.h"
#include "../unit/rest_list_data.h"

static double cpu_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* 0 if the two paths wrote the same text. */
static int plan_only;

static int one(int ver, const char *schema, const char *key,
	       const rest_list_recs_t *l, const cli_ctx_t *ctx)
{
	char name[128], *a, *b;
	size_t alen, blen;
	double t0, t1, t2;
	int rc;

	snprintf(name, sizeof(name), "v0.0.%d_%s", ver, schema);
	rest_plan_get(ver, name, key, l->tab);   /* planned once, not timed */
	t0 = cpu_s();
	a = plan_only ? NULL
		      : rest_list_items(ver, name, key, l, ctx, true, &alen);
	t1 = cpu_s();
	b = rest_list_items(ver, name, key, l, ctx, false, &blen);
	t2 = cpu_s();
	if (plan_only) {
		printf("%-5s v0.0.%d %6u records: plan %.3f s\n", key, ver,
		       l->cnt, t2 - t1);
		xfree(b);
		return 0;
	}
	rc = alen != blen || memcmp(a, b, alen);
	printf("%-5s v0.0.%d %6u records: tree+view %.3f s, plan %.3f s "
	       "(%.1fx), %.0f bytes/record, %s\n", key, ver, l->cnt,
	       t1 - t0, t2 - t1, (t1 - t0) / (t2 - t1 > 0 ? t2 - t1 : 1e-9),
	       (double)blen / (l->cnt ? l->cnt : 1),
	       rc ? "TEXTS DIFFER" : "same text");
	xfree(a);
	xfree(b);
	return rc;
}

int main(int argc, char **argv)
{
	uint32_t njobs = argc > 1 ? (uint32_t)atoi(argv[1]) : 50000;
	uint32_t nnodes = argc > 2 ? (uint32_t)atoi(argv[2]) : 4096;
	const char *vers = argc > 3 ? argv[3] : "40,41,42,43";
	cli_ctx_t ctx = { .now = time(NULL), .slurmd_port = 6818 };
	job_info_t *jobs = rld_jobs(njobs);
	node_info_t *nodes = rld_nodes(nnodes);
	rest_list_recs_t lj = { cli_job_fields, jobs, sizeof(*jobs), njobs };
	rest_list_recs_t ln = { cli_node_fields, nodes, sizeof(*nodes),
				nnodes };
	int rc = 0;

	plan_only = argc > 4 && !strcmp(argv[4], "plan");

	if (rest_spec_init() < 0)
		return 2;
	for (const char *v = vers; *v; v += strcspn(v, ","), v += !!*v) {
		int ver = atoi(v + strcspn(v, "0123456789")) % 100;

		if (ver < REST_VER_MIN || ver > REST_VER_MAX)
			continue;
		if (njobs)
			rc |= one(ver, "openapi_job_info_resp", "jobs", &lj,
				  &ctx);
		if (nnodes)
			rc |= one(ver, "openapi_nodes_resp", "nodes", &ln,
				  &ctx);
	}
	rest_plan_fini();
	rest_spec_fini();
	xfree(jobs);
	xfree(nodes);
	return rc;
}
