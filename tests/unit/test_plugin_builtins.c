/* test_plugin_builtins.c — every plugin type's built-ins are of their
 * type, for this ABI and for the type's current ops version.  A built-in
 * is compiled with its type's header, so anything else is a build bug
 * (an ops table changed, its <TYPE>_OPS_VERSION bumped, a built-in left
 * behind): plugin_ctx_create() refuses it at run time, this fails first.
 * Also: the check itself names the built-in and both versions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cli/cli_filter.h"
#include "common/acct_gather_energy.h"
#include "common/fixed_plugins.h"
#include "common/mpi_plugin.h"
#include "common/plugin_ctx.h"
#include "common/prep.h"
#include "ctld/acct_storage.h"
#include "ctld/ctld_plugins.h"
#include "ctld/job_submit_plugin.h"
#include "ctld/jobcomp.h"
#include "ctld/preempt.h"
#include "ctld/priority.h"
#include "ctld/sched_plugin.h"
#include "ctld/select_plugin.h"
#include "ctld/site_factor.h"
#include "ctld/topo_mgr.h"
#include "slurmd/common/node_plugins.h"

/* Every type with built-ins (auth, burst_buffer and node_features have
 * none).  A new type goes here. */
static const plugin_type_t *const types[] = {
	&acct_gather_energy_type, &switch_type, &job_container_type,
	&cred_type, &launch_type, &mpi_type, &prep_type,
	&acct_storage_plugin_type, &mcs_plugin_type,
	&job_submit_plugin_type, &jobcomp_plugin_type,
	&preempt_plugin_type, &priority_plugin_type, &sched_plugin_type,
	&select_plugin_type, &site_factor_plugin_type,
	&topology_plugin_type, &cli_filter_type, &proctrack_type,
	&task_type, &jobacct_gather_type, NULL,
};

static const int ops;

/* bad first: each way a built-in can be stale */
static void test_stale_builtins_are_refused(void **state)
{
	const struct sluice_plugin good = {
		.type = "t", .name = "good", .abi_version = SLUICE_PLUGIN_ABI,
		.ops_version = 3, .ops = &ops };
	struct sluice_plugin bad = good;
	const struct sluice_plugin *const list[] = { &good, &bad, NULL };
	const plugin_type_t t = { .type = "t", .key = "TKey",
				  .ops_version = 3, .builtins = list };
	char err[512];

	(void) state;
	bad.name = "stale";
	bad.ops_version = 2;
	assert_int_equal(plugin_ctx_check_builtins(&t, err, sizeof(err)),
			 -1);
	assert_string_equal(err, "built-in t/stale has t ops version 2, "
			    "this is 3 (a build bug: not updated with its "
			    "header)");
	/* the context refuses too, even for another name of the type */
	assert_null(plugin_ctx_create(&t, "good", NULL, NULL, err,
				      sizeof(err)));
	assert_non_null(strstr(err, "TKey: cannot create t context: "
			       "built-in t/stale has t ops version 2"));
	bad.ops_version = 4;     /* newer than the type is as wrong */
	assert_int_equal(plugin_ctx_check_builtins(&t, err, sizeof(err)),
			 -1);
	bad.ops_version = 3;
	bad.abi_version = SLUICE_PLUGIN_ABI - 1;
	assert_int_equal(plugin_ctx_check_builtins(&t, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "has t ABI 0x"));
	bad.abi_version = SLUICE_PLUGIN_ABI;
	bad.type = "u";
	assert_int_equal(plugin_ctx_check_builtins(&t, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "is of type u"));
	bad.type = "t";
	bad.ops = NULL;
	assert_int_equal(plugin_ctx_check_builtins(&t, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "has no ops"));
	bad.ops = &ops;
	assert_int_equal(plugin_ctx_check_builtins(&t, err, sizeof(err)),
			 0);
}

static void test_every_type_builtins_are_current(void **state)
{
	size_t n = 0;

	(void) state;
	for (size_t i = 0; types[i]; i++) {
		char err[512] = "";

		if (plugin_ctx_check_builtins(types[i], err, sizeof(err)))
			fail_msg("%s (%s): %s", types[i]->type, types[i]->key,
				 err);
		for (size_t k = 0; types[i]->builtins &&
		     types[i]->builtins[k]; k++)
			n++;
	}
	assert_true(n >= 40);    /* the list above is not empty by mistake */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stale_builtins_are_refused),
		cmocka_unit_test(test_every_type_builtins_are_current),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
