/* test_node_plugins.c — the node's plugin types: slurmd's check of every
 * type (slurmd/common/node_plugins.h), the one-implementation types
 * (fixed_plugins.h), mpi (mpi_plugin.h), prep (prep.h) and
 * acct_gather_energy (acct_gather_energy.h).  Bad names first. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/acct_gather_energy.h"
#include "common/fixed_plugins.h"
#include "common/msg_types.h"
#include "common/mpi_plugin.h"
#include "common/prep.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurmd/common/node_plugins.h"

static char tmpdir[64];
static char conf_path[96];

static int setup_dir(void **state)
{
	(void) state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_node_plugins.XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(conf_path, sizeof(conf_path), "%s/slurm.conf", tmpdir);
	return 0;
}

static int remove_dir(void **state)
{
	char *cmd = xstrdup_printf("rm -rf '%s'", tmpdir);
	int rc = system(cmd);

	(void) state;
	xfree(cmd);
	return rc == 0 ? 0 : -1;
}

/* A configuration with Sluice's defaults, PluginDir the temp dir. */
static void conf_init(slurm_conf_t *c)
{
	memset(c, 0, sizeof(*c));
	c->path = conf_path;
	c->plugin_dir = tmpdir;
	c->proctrack_type = "proctrack/cgroup";
	c->task_plugin = "task/none";
	c->job_acct_gather_type = "jobacct_gather/none";
	c->acct_gather_energy_type = "acct_gather_energy/none";
	c->mpi_default = "none";
	c->prep_plugins = "prep/script";
	c->switch_type = "switch/none";
	c->job_container_type = "job_container/none";
	c->cred_type = "cred/munge";
}

static void set_field(slurm_conf_t *c, const char *key, char *v)
{
	if (!strcmp(key, "ProctrackType")) c->proctrack_type = v;
	else if (!strcmp(key, "TaskPlugin")) c->task_plugin = v;
	else if (!strcmp(key, "JobAcctGatherType")) c->job_acct_gather_type = v;
	else if (!strcmp(key, "AcctGatherEnergyType"))
		c->acct_gather_energy_type = v;
	else if (!strcmp(key, "MpiDefault")) c->mpi_default = v;
	else if (!strcmp(key, "PrEpPlugins")) c->prep_plugins = v;
	else if (!strcmp(key, "SwitchType")) c->switch_type = v;
	else if (!strcmp(key, "JobContainerType")) c->job_container_type = v;
	else if (!strcmp(key, "CredType")) c->cred_type = v;
	else fail_msg("no key %s", key);
}

static void test_unknown_names(void **state)
{
	static const struct { const char *key, *value, *want; } bad[] = {
		{ "ProctrackType", "proctrack/sgi_job",
		  "ProctrackType: cannot create proctrack context for "
		  "proctrack/sgi_job" },
		{ "TaskPlugin", "task/affinity,task/nosuch",
		  "cannot create task context for task/nosuch" },
		{ "TaskPlugin", "task/affinity,task/affinity",
		  "task/affinity is listed twice" },
		{ "JobAcctGatherType", "jobacct_gather/aix",
		  "cannot create jobacct_gather context for "
		  "jobacct_gather/aix" },
		{ "AcctGatherEnergyType", "acct_gather_energy/ipmi",
		  "cannot create acct_gather_energy context for "
		  "acct_gather_energy/ipmi" },
		{ "MpiDefault", "pmi3", "cannot create mpi context for mpi/pmi3" },
		{ "MpiDefault", "pmi2,pmix", "MpiDefault takes one plugin" },
		{ "PrEpPlugins", "prep/script,prep/nosuch",
		  "cannot create prep context for prep/nosuch" },
		{ "SwitchType", "switch/hpe_slingshot",
		  "cannot create switch context for switch/hpe_slingshot" },
		{ "JobContainerType", "job_container/cncu",
		  "cannot create job_container context for "
		  "job_container/cncu" },
		{ "CredType", "cred/none",
		  "cannot create cred context for cred/none" },
		{ "ProctrackType", "task/affinity",
		  "\"task/affinity\" is not a proctrack plugin" },
	};
	slurm_conf_t c;
	char err[1024];

	(void) state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		conf_init(&c);
		set_field(&c, bad[i].key, (char *) bad[i].value);
		err[0] = '\0';
		assert_int_equal(node_plugins_check(&c, err, sizeof(err)), -1);
		if (!strstr(err, bad[i].want))
			fail_msg("%s=%s: got \"%s\"", bad[i].key,
				 bad[i].value, err);
	}
}

static void test_builtins_resolve(void **state)
{
	static const struct { const char *key, *value; } good[] = {
		{ "ProctrackType", "proctrack/linuxproc" },
		{ "ProctrackType", "proctrack/pgid" },
		{ "ProctrackType", "cgroup" },
		{ "TaskPlugin", "task/affinity,task/cgroup" },
		{ "TaskPlugin", "task/cgroup,affinity" },
		{ "JobAcctGatherType", "jobacct_gather/linux" },
		{ "JobAcctGatherType", "jobacct_gather/cgroup" },
		{ "AcctGatherEnergyType", "acct_gather_energy/rapl" },
		{ "MpiDefault", "pmi2" },
		{ "MpiDefault", "mpi/pmix_v4" },
		{ "PrEpPlugins", "" },
		{ "SwitchType", "" },
	};
	slurm_conf_t c;
	char err[1024] = "";

	(void) state;
	conf_init(&c);
	assert_int_equal(node_plugins_check(&c, err, sizeof(err)), 0);
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		conf_init(&c);
		set_field(&c, good[i].key, (char *) good[i].value);
		if (node_plugins_check(&c, err, sizeof(err)) < 0)
			fail_msg("%s=%s: %s", good[i].key, good[i].value, err);
	}
}

/* A .so of the given type in the temp dir (against the source headers). */
static bool build_so(const char *type, const char *name, unsigned ops_ver)
{
	char *src = xstrdup_printf("%s/%s_%s.c", tmpdir, type, name);
	char *so = xstrdup_printf("%s/%s_%s.so", tmpdir, type, name);
	char *cmd = xstrdup_printf("cc -shared -fPIC -I'%s' -o '%s' '%s' "
				   "2>/dev/null", SLUICE_SRC_DIR, so, src);
	FILE *f = fopen(src, "w");
	bool ok;

	assert_non_null(f);
	fprintf(f, "#include \"common/plugin.h\"\n"
		   "static const struct { int x; } ops = { 1 };\n"
		   "const struct sluice_plugin sluice_plugin = {\n"
		   " .type = \"%s\", .name = \"%s\", .abi_version = %uu,\n"
		   " .ops_version = %uu, .ops = &ops };\n",
		type, name, SLUICE_PLUGIN_ABI, ops_ver);
	fclose(f);
	ok = system(cmd) == 0;
	xfree(cmd);
	xfree(src);
	xfree(so);
	return ok;
}

static void test_fixed_types_refuse_a_so(void **state)
{
	slurm_conf_t c;
	char err[1024] = "";

	(void) state;
	if (!build_so("switch", "site", FIXED_OPS_VERSION))
		skip();
	conf_init(&c);
	c.switch_type = "switch/site";
	assert_int_equal(node_plugins_check(&c, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot create switch context for "
				    "switch/site: Sluice implements "
				    "SwitchType itself"));
	/* the same .so passes a type that loads plugins */
	assert_true(build_so("proctrack", "site", 1));
	conf_init(&c);
	c.proctrack_type = "proctrack/site";
	assert_int_equal(node_plugins_check(&c, err, sizeof(err)), 0);
	/* an ops version this slurmd does not call */
	assert_true(build_so("task", "old", 99));
	conf_init(&c);
	c.task_plugin = "task/affinity,task/old";
	assert_int_equal(node_plugins_check(&c, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "ops version 99"));
}

static void test_mpi(void **state)
{
	uint16_t f = 7;
	char err[512] = "", *list, *p;
	FILE *x;

	(void) state;
	assert_int_equal(mpi_plugin_flags("pmi3", true, tmpdir, &f, err,
					  sizeof(err)), -1);
	assert_non_null(strstr(err, "--mpi: cannot create mpi context for "
				    "mpi/pmi3"));
	assert_int_equal(f, 7);
	assert_int_equal(mpi_plugin_flags("pmi2", true, tmpdir, &f, err,
					  sizeof(err)), 0);
	assert_int_equal(f, LAUNCH_PMI);
	assert_int_equal(mpi_plugin_flags("mpi/pmix", true, tmpdir, &f, err,
					  sizeof(err)), 0);
	assert_int_equal(f, LAUNCH_PMIX);
	assert_int_equal(mpi_plugin_flags("pmix_v4", true, tmpdir, &f, err,
					  sizeof(err)), 0);
	assert_int_equal(f, LAUNCH_PMIX);
	assert_int_equal(mpi_plugin_flags(NULL, true, tmpdir, &f, err,
					  sizeof(err)), 0);
	assert_int_equal(f, 0);
	/* --mpi=list: the built-ins and what PluginDir holds */
	p = xstrdup_printf("%s/mpi_cray_shasta.so", tmpdir);
	x = fopen(p, "w");
	assert_non_null(x);
	fclose(x);
	xfree(p);
	list = mpi_plugin_list(tmpdir);
	assert_string_equal(list, "MPI plugin types are...\n"
				  "\tcray_shasta\n\tnone\n\tpmi2\n\tpmix\n"
				  "specific pmix plugin versions available: "
				  "pmix_v4\n");
	xfree(list);
}

static void test_prep(void **state)
{
	slurm_conf_t c;

	(void) state;
	conf_init(&c);
	c.prolog = "/etc/slurm/prolog.sh";
	c.epilog_slurmctld = "/etc/slurm/ectld.sh";
	assert_string_equal(prep_program(&c, PREP_PROLOG),
			    "/etc/slurm/prolog.sh");
	assert_null(prep_program(&c, PREP_EPILOG));
	assert_string_equal(prep_program(&c, PREP_EPILOG_SLURMCTLD),
			    "/etc/slurm/ectld.sh");
	/* PrEpPlugins without prep/script: the programs do not run */
	c.prep_plugins = "";
	assert_null(prep_program(&c, PREP_PROLOG));
	/* a name that does not resolve runs nothing */
	c.prep_plugins = "prep/nosuch";
	assert_null(prep_program(&c, PREP_PROLOG));
	c.prep_plugins = "script";
	assert_string_equal(prep_program(&c, PREP_PROLOG),
			    "/etc/slurm/prolog.sh");
}

/* cgroup.conf beside slurm.conf is read with the node's plugins */
static void test_cgroup_conf_checked(void **state)
{
	char *path = xstrdup_printf("%s/cgroup.conf", tmpdir), err[1024];
	slurm_conf_t c;
	FILE *f = fopen(path, "w");

	(void) state;
	assert_non_null(f);
	fputs("ConstrainCores=maybe\n", f);
	fclose(f);
	conf_init(&c);
	assert_int_equal(node_plugins_check(&c, err, sizeof(err)), -1);
	if (!strstr(err, "cgroup.conf"))
		fail_msg("got \"%s\"", err);
	unlink(path);
	assert_int_equal(node_plugins_check(&c, err, sizeof(err)), 0);
	xfree(path);
}

static void test_energy(void **state)
{
	slurm_conf_t c;

	(void) state;
	conf_init(&c);
	assert_false(acct_gather_energy_gathers(&c));
	c.acct_gather_energy_type = "acct_gather_energy/rapl";
	assert_true(acct_gather_energy_gathers(&c));
	c.acct_gather_energy_type = "acct_gather_energy/ipmi";
	assert_false(acct_gather_energy_gathers(&c));
	c.acct_gather_energy_type = NULL;
	assert_false(acct_gather_energy_gathers(&c));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unknown_names),
		cmocka_unit_test(test_builtins_resolve),
		cmocka_unit_test(test_fixed_types_refuse_a_so),
		cmocka_unit_test(test_mpi),
		cmocka_unit_test(test_prep),
		cmocka_unit_test(test_cgroup_conf_checked),
		cmocka_unit_test(test_energy),
	};

	return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
