/* site_factor_percpu.c — an example PrioritySiteFactorPlugin built outside
 * Sluice's tree (see Makefile and doc/plugins.md).
 *
 *     PriorityType=priority/multifactor
 *     PrioritySiteFactorPlugin=site_factor/percpu
 *     PrioritySiteFactorParameters=per_cpu=100,max=100000
 *
 * Each pending job's site factor is per_cpu times the CPUs it asks for
 * (at most max): a site that wants wide jobs to start first.  sprio shows
 * it in the SITE column; it is added to the priority as it is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctld/site_factor.h"
#include "common/log.h"

static int32_t per_cpu = 100;
static int32_t max_factor = 100000;

/* "per_cpu=100,max=100000": 0, or -1 with err. */
static int parse_params(const char *params, char *err, size_t errlen)
{
	char *copy, *save = NULL, *item;
	int rc = 0;

	if (!params)
		return 0;
	copy = strdup(params);
	for (item = strtok_r(copy, ",", &save); item && !rc;
	     item = strtok_r(NULL, ",", &save)) {
		char *end = NULL;
		long v;

		if (!strncmp(item, "per_cpu=", 8))
			v = strtol(item + 8, &end, 10);
		else if (!strncmp(item, "max=", 4))
			v = strtol(item + 4, &end, 10);
		else
			end = item;
		if (!end || *end || end == item || v < 0 || v > 1000000000) {
			snprintf(err, errlen, "PrioritySiteFactorParameters: "
				 "bad item \"%s\" (per_cpu=N,max=N)", item);
			rc = -1;
		} else if (item[0] == 'p') {
			per_cpu = (int32_t) v;
		} else {
			max_factor = (int32_t) v;
		}
	}
	free(copy);
	return rc;
}

static int percpu_init(const slurm_conf_t *conf, char *err, size_t errlen)
{
	if (parse_params(conf->site_factor_params, err, errlen) < 0)
		return -1;
	info("site_factor/percpu: per_cpu=%d max=%d", per_cpu, max_factor);
	return 0;
}

static int32_t factor_of(const job_view_t *job)
{
	int64_t f = (int64_t) per_cpu * job->num_cpus;

	return f > max_factor ? max_factor : (int32_t) f;
}

static void percpu_set(const job_view_t *job, int32_t *factor)
{
	*factor = factor_of(job);
}

static void percpu_update(site_factor_job_t *jobs, size_t cnt)
{
	for (size_t i = 0; i < cnt; i++)
		jobs[i].factor = factor_of(jobs[i].job);
}

static const site_factor_ops_t ops = {
	.init = percpu_init,
	.set = percpu_set,
	.update = percpu_update,
};

const struct sluice_plugin sluice_plugin = {
	.type = "site_factor",
	.name = "percpu",
	.abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = SITE_FACTOR_OPS_VERSION,
	.ops = &ops,
};
