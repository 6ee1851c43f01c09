/* test_rest_job_desc.c — REST job descriptions (job/submit, job/{id}
 * update, job/allocate) into Sluice's requests.
 *
 * Bad bodies first (each with the error it must name), then every
 * refused property, then realistic submits for each data_parser version
 * compared field by field with what sbatch's option parser fills for the
 * same options: the controller must not tell them apart.  The option
 * parser lives in the commands' library, so its sources are compiled in
 * here as test_cli_opt does.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "common/profile.h"

#include "../../src/cli/cli_env.c"
#include "../../src/cli/cli_opt.c"
#include "../../src/cli/cli_opt_help.c"
#include "../../src/cli/cli_opt_raw.c"
#include "../../src/cli/cli_opt_set.c"

#include "restd/rest_job_desc.h"
#include "slurm/slurm_errno.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const int versions[] = { 40, 41, 42, 43 };

/* Parse text as a submit body; returns the code, *err as given. */
static int submit_text(const char *text, int ver, job_desc_t *d,
		       json_object *warnings, char **err)
{
	json_object *body = json_tokener_parse(text);
	int rc;

	if (!body && strcmp(text, "null"))
		fail_msg("test body is not JSON: %s", text);
	rc = rest_job_submit_parse(body, ver, d, warnings, err);
	json_object_put(body);
	return rc;
}

/* A job description left as job_desc_init makes it. */
static void assert_pristine(const job_desc_t *d)
{
	job_desc_t z;

	job_desc_init(&z);
	if (memcmp(&z, d, sizeof(z)))
		fail_msg("a failed parse left fields set");
}

/* ---- bad bodies ---- */

static const struct {
	int ver;
	const char *body;
	int rc;
	const char *err;   /* expected *err, exactly */
} bad_bodies[] = {
	{ 43, "[]", ESLURM_REST_FAIL_PARSING, "body: expected a JSON object" },
	{ 43, "null", ESLURM_REST_FAIL_PARSING, "body: expected a JSON object" },
	{ 39, "{\"script\":\"#!/bin/sh\\n\",\"job\":{}}",
	  ESLURM_REST_FAIL_PARSING, "version: data_parser v0.0.39 is not served" },
	{ 43, "{\"script\":\"#!/bin/sh\\n\"}", ESLURM_REST_INVALID_JOBS_DESC,
	  "job: Jobs description entry not found, empty or not dictionary or "
	  "list" },
	{ 43, "{\"script\":\"#!/bin/sh\\n\",\"job\":[]}",
	  ESLURM_REST_FAIL_PARSING, "job: expected an object" },
	{ 43, "{\"job\":{\"name\":\"x\"}}", ESLURM_JOB_SCRIPT_MISSING,
	  "script: Job script not specified" },
	{ 43, "{\"script\":\"\",\"job\":{\"name\":\"x\"}}",
	  ESLURM_JOB_SCRIPT_MISSING, "script: Job script not specified" },
	{ 43, "{\"script\":true,\"job\":{}}", ESLURM_REST_FAIL_PARSING,
	  "script: expected a string" },
	{ 43, "{\"script\":[],\"job\":{}}", ESLURM_REST_FAIL_PARSING,
	  "script: expected a string" },
	{ 43, "{\"script\":\"#!/bin/sh\\n\",\"job\":{\"script\":\"#!/bin/"
	  "bash\\n\"}}", ESLURM_REST_FAIL_PARSING,
	  "script: differs from job.script (give one of them)" },
	{ 43, "{\"script\":\"#!/bin/sh\\n\",\"jobs\":{}}",
	  ESLURM_REST_INVALID_JOBS_DESC,
	  "jobs: expected an array of job descriptions" },
	{ 43, "{\"script\":\"#!/bin/sh\\n\",\"jobs\":[{},{}]}",
	  ESLURM_NOT_SUPPORTED,
	  "jobs: heterogeneous jobs are not supported by Sluice" },
	{ 43, "{\"script\":\"#!/bin/sh\\n\",\"job\":{},\"jobs\":[{}]}",
	  ESLURM_REST_INVALID_JOBS_DESC, "jobs: give either job or jobs, not "
	  "both" },
	{ 43, "{\"script\":\"#!/bin/sh\\n\",\"jobs\":[{\"tasks\":\"x\"}]}",
	  ESLURM_REST_FAIL_PARSING, "jobs[0].tasks: expected an integer" },
};

/* One job_desc_msg member with a bad value, and the error it gives. */
static const struct {
	const char *member;   /* "name": value */
	const char *err;
} bad_members[] = {
	{ "\"time_limit\":\"abc\"",
	  "job.time_limit: expected an integer or {set,infinite,number}" },
	{ "\"time_limit\":[60]",
	  "job.time_limit: expected an integer or {set,infinite,number}" },
	{ "\"time_limit\":-5", "job.time_limit: -5 is out of range (0 to "
	  "4294967293)" },
	{ "\"time_limit\":1.5",
	  "job.time_limit: expected an integer or {set,infinite,number}" },
	{ "\"time_limit\":{\"set\":true,\"number\":\"x\"}",
	  "job.time_limit: expected an integer" },
	{ "\"time_limit\":{\"set\":\"maybe\",\"number\":5}",
	  "job.time_limit: expected true or false" },
	{ "\"time_limit\":{\"sett\":true}", "job.time_limit: unknown member "
	  "\"sett\" (expected {set,infinite,number})" },
	{ "\"time_limit\":99999999999999999999999",
	  "job.time_limit: expected an integer or {set,infinite,number}" },
	{ "\"time_limit\":4294967294", "job.time_limit: 4294967294 is out of "
	  "range (0 to 4294967293)" },
	{ "\"memory_per_node\":9223372036854775807",
	  "job.memory_per_node: expected an integer or {set,infinite,number}" },
	{ "\"memory_per_node\":1e300",
	  "job.memory_per_node: expected an integer or {set,infinite,number}" },
	{ "\"memory_per_node\":\"18446744073709551615\"",
	  "job.memory_per_node: expected an integer or {set,infinite,number}" },
	{ "\"memory_per_node\":{\"infinite\":true}", "job.memory_per_node: "
	  "expected a number of megabytes, not infinite" },
	{ "\"memory_per_node\":100,\"memory_per_cpu\":10", "job: "
	  "memory_per_node, memory_per_cpu and memory_per_tres are mutually "
	  "exclusive" },
	{ "\"memory_per_cpu\":100,\"memory_per_tres\":\"gres/gpu:10\"", "job: "
	  "memory_per_node, memory_per_cpu and memory_per_tres are mutually "
	  "exclusive" },
	{ "\"tasks\":0", "job.tasks: 0 is out of range (1 to 4294967293)" },
	{ "\"tasks\":4294967294", "job.tasks: 4294967294 is out of range (1 "
	  "to 4294967293)" },
	{ "\"tasks\":true", "job.tasks: expected an integer" },
	{ "\"cpus_per_task\":70000", "job.cpus_per_task: 70000 is out of range "
	  "(1 to 65533)" },
	{ "\"nice\":2147483647", "job.nice: 2147483647 is out of range "
	  "(-2147483645 to 2147483645)" },
	{ "\"nodes\":\"4-2\"", "job.nodes: Maximum node count 2 is less than "
	  "minimum node count 4" },
	{ "\"nodes\":\"x\"", "job.nodes: expected a node count or range such "
	  "as \"2\" or \"2-4\"" },
	{ "\"nodes\":\"99999999999\"", "job.nodes: expected a node count or "
	  "range such as \"2\" or \"2-4\"" },
	{ "\"minimum_nodes\":4,\"maximum_nodes\":2", "job.maximum_nodes: "
	  "Maximum node count 2 is less than minimum node count 4" },
	{ "\"memory_per_tres\":\"gres/gpu:1\",\"minimum_nodes\":4,"
	  "\"maximum_nodes\":2", "job.maximum_nodes: Maximum node count 2 is "
	  "less than minimum node count 4" },
	{ "\"minimum_cpus\":4,\"minimum_cpus_per_node\":2",
	  "job.minimum_cpus_per_node: differs from the other minimum CPU "
	  "count given" },
	{ "\"environment\":\"A=B\"",
	  "job.environment: expected an array of strings" },
	{ "\"environment\":[\"A=B\",\"NOEQUALS\"]",
	  "job.environment[1]: expected \"NAME=value\"" },
	{ "\"environment\":[\"=x\"]",
	  "job.environment[0]: expected \"NAME=value\"" },
	{ "\"environment\":[1]", "job.environment[0]: expected a string" },
	{ "\"environment\":[\"A=\\u0000B\"]",
	  "job.environment[0]: contains a NUL byte" },
	{ "\"argv\":{}", "job.argv: expected an array of strings" },
	{ "\"name\":\"a\\u0000b\"", "job.name: contains a NUL byte" },
	{ "\"name\":{}", "job.name: expected a string" },
	{ "\"excluded_nodes\":{}", "job.excluded_nodes: expected an array of "
	  "strings or a comma-separated string" },
	{ "\"shared\":[\"none\",\"user\"]", "job.shared: expected one value" },
	{ "\"shared\":[\"bogus\"]", "job.shared: unknown flag \"bogus\"" },
	{ "\"shared\":5", "job.shared: expected an array of flag names" },
	{ "\"open_mode\":[\"APPEND\",\"TRUNCATE\"]",
	  "job.open_mode: expected one value" },
	{ "\"mail_type\":[\"SOMETIMES\"]",
	  "job.mail_type: unknown flag \"SOMETIMES\"" },
	{ "\"flags\":[\"KILL_INVALID_DEPENDENCY\","
	  "\"NO_KILL_INVALID_DEPENDENCY\"]", "job.flags: "
	  "KILL_INVALID_DEPENDENCY and NO_KILL_INVALID_DEPENDENCY both given" },
	{ "\"flags\":[\"NOPE\"]", "job.flags: unknown flag \"NOPE\"" },
	{ "\"kill_warning_signal\":\"NOSUCH\"",
	  "job.kill_warning_signal: unknown signal \"NOSUCH\"" },
	{ "\"kill_warning_signal\":70000",
	  "job.kill_warning_signal: unknown signal \"70000\"" },
	{ "\"kill_warning_delay\":70000", "job.kill_warning_delay: 70000 is "
	  "out of range (0 to 65533)" },
	{ "\"begin_time\":\"garbage\"",
	  "job.begin_time: Invalid time specification \"garbage\"" },
	{ "\"begin_time\":{\"infinite\":true}",
	  "job.begin_time: expected a time, not infinite" },
	{ "\"begin_time\":2000000000,\"deadline\":1900000000",
	  "job.begin_time: Incompatible begin and deadline time "
	  "specification" },
	{ "\"current_working_directory\":\"relative/dir\"",
	  "job.current_working_directory: expected an absolute path" },
	{ "\"array\":\"\"", "job.array: Invalid job array specification" },
	{ "\"user_id\":\"no_such_user_xyz\"",
	  "job.user_id: unknown user \"no_such_user_xyz\"" },
	{ "\"group_id\":\"no_such_group_xyz\"",
	  "job.group_id: unknown group \"no_such_group_xyz\"" },
	{ "\"hold\":\"maybe\"", "job.hold: expected true or false" },
	{ "\"requeue\":2", "job.requeue: expected true or false" },
	{ "\"priority\":-1", "job.priority: -1 is out of range (0 to "
	  "4294967293)" },
	{ "\"profile\":[\"SOMETIMES\"]",
	  "job.profile: unknown flag \"SOMETIMES\"" },
	{ "\"account_gather_frequency\":\"task=x\"",
	  "job.account_gather_frequency: invalid --acctg-freq=task=x: "
	  "'task=x' is not <datatype>=<seconds 0-65535>" },
};

static void test_bad_bodies(void **state)
{
	for (size_t i = 0; i < N(bad_bodies); i++) {
		job_desc_t d;
		char *err = NULL;
		int rc = submit_text(bad_bodies[i].body, bad_bodies[i].ver, &d,
				     NULL, &err);

		if (rc != bad_bodies[i].rc || !err ||
		    strcmp(err, bad_bodies[i].err))
			fail_msg("%s: rc %d err \"%s\", wanted %d \"%s\"",
				 bad_bodies[i].body, rc, err ? err : "(null)",
				 bad_bodies[i].rc, bad_bodies[i].err);
		assert_pristine(&d);
		xfree(err);
	}
}

static void test_bad_members(void **state)
{
	for (size_t v = 0; v < N(versions); v++) {
		for (size_t i = 0; i < N(bad_members); i++) {
			char *text = xstrdup_printf(
				"{\"script\":\"#!/bin/sh\\n\",\"job\":{"
				"\"name\":\"ok\",%s}}", bad_members[i].member);
			job_desc_t d;
			char *err = NULL;
			int rc = submit_text(text, versions[v], &d, NULL, &err);

			if (rc != ESLURM_REST_FAIL_PARSING || !err ||
			    strcmp(err, bad_members[i].err))
				fail_msg("v%d %s: rc %d err \"%s\", wanted "
					 "\"%s\"", versions[v],
					 bad_members[i].member, rc,
					 err ? err : "(null)",
					 bad_members[i].err);
			assert_pristine(&d);
			xfree(err);
			xfree(text);
		}
	}
}

/* ---- refusals: a value Sluice cannot act on, in every version that
 * has the property; an empty value asks nothing and passes ---- */

static const struct {
	const char *name;
	const char *value;
	const char *empty;      /* a value that asks nothing, or NULL */
	int vmin, vmax;
	const char *err;        /* NULL: "job.<name>: not supported by Sluice" */
} refused[] = {
	{ "admin_comment", "\"x\"", "\"\"", 40, 43, NULL },
	{ "allocation_node_port", "5000", "0", 40, 43, NULL },
	{ "batch_features", "\"f\"", "\"\"", 40, 43, NULL },
	{ "burst_buffer", "\"#BB create\"", "\"\"", 40, 43, NULL },
	{ "cluster_constraint", "\"c\"", "\"\"", 40, 43, NULL },
	{ "clusters", "\"other\"", "\"\"", 40, 43, "job.clusters: not "
	  "supported by Sluice (one cluster, no federation)" },
	{ "container_id", "\"c1\"", "\"\"", 40, 43, NULL },
	{ "core_specification", "2", "0", 40, 43, NULL },
	{ "cpu_binding", "\"cores\"", "\"\"", 40, 43, NULL },
	{ "cpu_binding_flags", "[\"CPU_BIND_TO_CORES\"]", "[]", 40, 43, NULL },
	{ "cpu_frequency", "\"high\"", "\"\"", 40, 43, NULL },
	{ "crontab", "{\"minute\":\"5\"}", "{}", 40, 43, NULL },
	{ "delay_boot", "60", "0", 40, 43, NULL },
	{ "distribution", "\"cyclic\"", "\"\"", 40, 43, NULL },
	{ "distribution_plane_size", "{\"set\":true,\"number\":4}",
	  "{\"set\":false}", 40, 43, NULL },
	{ "end_time", "2000000000", "0", 40, 43, NULL },
	{ "extra", "\"x\"", "\"\"", 40, 43, NULL },
	{ "flags", "[\"TEST_NOW_ONLY\"]", "[]", 40, 43,
	  "job.flags: TEST_NOW_ONLY: not supported by Sluice" },
	{ "flags", "[\"SPREAD_JOB\",\"GRES_BINDING_ENFORCED\"]", NULL, 40, 43,
	  "job.flags: GRES_BINDING_ENFORCED: not supported by Sluice" },
	{ "hetjob_group", "1", "0", 40, 43, "job.hetjob_group: heterogeneous "
	  "jobs are not supported by Sluice" },
	{ "immediate", "true", "false", 40, 43, "job.immediate: not supported "
	  "by Sluice for a batch job (as sbatch)" },
	{ "job_id", "1234", "0", 40, 43, "job.job_id: a submitted job cannot "
	  "choose its job id in Sluice" },
	{ "kill_warning_flags", "[\"ARRAY_TASK\"]", "[]", 40, 43,
	  "job.kill_warning_flags: ARRAY_TASK: not supported by Sluice" },
	{ "maximum_cpus", "8", "0", 40, 43, NULL },
	{ "mcs_label", "\"m\"", "\"\"", 40, 43, NULL },
	{ "memory_binding", "\"local\"", "\"\"", 40, 43, NULL },
	{ "memory_binding_type", "[\"LOCAL\"]", "[\"NONE\"]", 40, 43, NULL },
	{ "minimum_boards_per_node", "1", "0", 40, 43, NULL },
	{ "minimum_sockets_per_board", "1", "0", 40, 43, NULL },
	{ "network", "\"ib\"", "\"\"", 40, 43, NULL },
	{ "ntasks_per_tres", "2", "0", 40, 43, NULL },
	{ "oom_kill_step", "1", "0", 42, 43, NULL },
	{ "overcommit", "true", "false", 40, 43, NULL },
	{ "prefer", "\"fast\"", "\"\"", 40, 43, NULL },
	{ "profile", "[\"LUSTRE\"]", "[\"NOT_SET\"]", 40, 43,
	  "job.profile: LUSTRE: not supported by Sluice" },
	{ "reboot", "true", "false", 40, 43, NULL },
	{ "required_switches", "2", "{\"set\":false}", 40, 43, NULL },
	{ "reserve_ports", "2", "0", 40, 43, NULL },
	{ "resv_mpi_ports", "2", "0", 41, 41, NULL },
	{ "rlimits", "{\"nofile\":{\"set\":true,\"number\":1024}}", "{}", 40,
	  43, "job.rlimits: not supported by Sluice (the job takes the node's "
	  "limits)" },
	{ "segment_size", "4", "{\"set\":false}", 41, 43, NULL },
	{ "selinux_context", "\"ctx\"", "\"\"", 40, 43, NULL },
	{ "site_factor", "10", "0", 40, 43, NULL },
	{ "spank_environment", "[\"A=B\"]", "[]", 40, 43, NULL },
	{ "tasks_per_board", "1", "0", 40, 43, NULL },
	{ "tasks_per_socket", "1", "0", 40, 43, NULL },
	{ "thread_specification", "1", "0", 40, 43, NULL },
	{ "tres_bind", "\"gres/gpu:closest\"", "\"\"", 40, 43, NULL },
	{ "tres_freq", "\"gpu:high\"", "\"\"", 40, 43, NULL },
	{ "tres_per_socket", "\"gres/gpu:1\"", "\"\"", 40, 43, NULL },
	{ "wait_all_nodes", "true", "false", 40, 43, NULL },
	{ "wait_for_switch", "10", "0", 40, 43, NULL },
};

static int submit_member(int ver, const char *name, const char *value,
			 job_desc_t *d, json_object *w, char **err)
{
	char *text = xstrdup_printf("{\"script\":\"#!/bin/sh\\n\",\"job\":"
				    "{\"%s\":%s}}", name, value);
	int rc = submit_text(text, ver, d, w, err);

	xfree(text);
	return rc;
}

static void test_refused(void **state)
{
	for (size_t i = 0; i < N(refused); i++) {
		for (int ver = refused[i].vmin; ver <= refused[i].vmax; ver++) {
			char *want = refused[i].err ? xstrdup(refused[i].err) :
				xstrdup_printf("job.%s: not supported by Sluice",
					       refused[i].name);
			json_object *w = json_object_new_array();
			job_desc_t d;
			char *err = NULL;
			int rc = submit_member(ver, refused[i].name,
					       refused[i].value, &d, w, &err);

			if (rc != ESLURM_NOT_SUPPORTED || !err ||
			    strcmp(err, want))
				fail_msg("v%d %s=%s: rc %d err \"%s\", wanted "
					 "\"%s\"", ver, refused[i].name,
					 refused[i].value, rc,
					 err ? err : "(null)", want);
			assert_pristine(&d);
			xfree(err);
			if (refused[i].empty) {
				rc = submit_member(ver, refused[i].name,
						   refused[i].empty, &d, w, &err);
				if (rc)
					fail_msg("v%d %s=%s refused: %s", ver,
						 refused[i].name,
						 refused[i].empty, err);
				job_desc_free_members(&d);
			}
			/* never "unknown" where the version has it */
			assert_int_equal(json_object_array_length(w), 0);
			json_object_put(w);
			xfree(want);
		}
	}
}

/* x11*: no display to relay from a REST submission: Slurm's
 * ESLURM_X11_NOT_AVAIL, nothing set; an empty value asks nothing. */
static void test_x11_refused(void **state)
{
	static const struct {
		const char *name, *value, *empty;
	} x[] = {
		{ "x11", "[\"BATCH_NODE\"]", "[]" },
		{ "x11_magic_cookie", "\"c\"", "\"\"" },
		{ "x11_target_host", "\"h\"", "\"\"" },
		{ "x11_target_port", "6000", "0" },
	};

	for (size_t i = 0; i < N(x); i++) {
		for (int ver = 40; ver <= 43; ver++) {
			char *want = xstrdup_printf("job.%s: X11 forwarding "
						    "not available (use srun "
						    "or salloc --x11)",
						    x[i].name);
			job_desc_t d;
			json_object *w = json_object_new_array();
			char *err = NULL;
			int rc = submit_member(ver, x[i].name, x[i].value,
					       &d, w, &err);

			if (rc != ESLURM_X11_NOT_AVAIL || !err ||
			    strcmp(err, want))
				fail_msg("v%d %s: rc %d \"%s\"", ver,
					 x[i].name, rc, err ? err : "");
			assert_pristine(&d);
			xfree(err);
			rc = submit_member(ver, x[i].name, x[i].empty, &d, w,
					   &err);
			if (rc)
				fail_msg("v%d %s empty: %s", ver, x[i].name,
					 err ? err : "");
			job_desc_free_members(&d);
			json_object_put(w);
			xfree(want);
		}
	}
}

/* A property of another version is unknown: skipped with Slurm's
 * warning, not an error. */
static void test_unknown_fields_warn(void **state)
{
	static const struct {
		int ver;
		const char *member;
		const char *source;
	} cases[] = {
		{ 42, "\"exclusive\":[\"user\"]", "job.exclusive" },
		{ 43, "\"oversubscribe\":true", "job.oversubscribe" },
		{ 41, "\"cores_per_socket\":2", "job.cores_per_socket" },
		{ 40, "\"segment_size\":2", "job.segment_size" },
		{ 43, "\"resv_mpi_ports\":2", "job.resv_mpi_ports" },
		{ 40, "\"oom_kill_step\":1", "job.oom_kill_step" },
		{ 43, "\"no_such_thing\":\"x\"", "job.no_such_thing" },
	};

	for (size_t i = 0; i < N(cases); i++) {
		char *text = xstrdup_printf("{\"script\":\"#!/bin/sh\\n\","
					    "\"job\":{%s}}", cases[i].member);
		json_object *w = json_object_new_array(), *e, *f;
		job_desc_t d;
		char *err = NULL;

		if (submit_text(text, cases[i].ver, &d, w, &err))
			fail_msg("v%d %s: %s", cases[i].ver, cases[i].member,
				 err);
		assert_int_equal(json_object_array_length(w), 1);
		e = json_object_array_get_idx(w, 0);
		assert_true(json_object_object_get_ex(e, "source", &f));
		assert_string_equal(json_object_get_string(f), cases[i].source);
		assert_true(json_object_object_get_ex(e, "description", &f));
		assert_non_null(strstr(json_object_get_string(f),
				       "Ignoring unknown field"));
		assert_int_equal(d.shared, JOB_SHARED_UNSET);
		assert_int_equal(d.cores_per_socket, NO_VAL16);
		job_desc_free_members(&d);
		json_object_put(w);
		xfree(text);
	}
}

static void test_unknown_top_level_warns(void **state)
{
	json_object *w = json_object_new_array(), *e, *f;
	job_desc_t d;
	char *err = NULL;

	assert_int_equal(submit_text("{\"script\":\"#!/bin/sh\\n\",\"job\":{},"
				     "\"extra_thing\":1}", 43, &d, w, &err), 0);
	assert_int_equal(json_object_array_length(w), 1);
	e = json_object_array_get_idx(w, 0);
	assert_true(json_object_object_get_ex(e, "source", &f));
	assert_string_equal(json_object_get_string(f), "extra_thing");
	assert_string_equal(d.script, "#!/bin/sh\n");
	job_desc_free_members(&d);
	json_object_put(w);
}

/* The table knows exactly the properties each version's schema has
 * (tests/unit/data/rest/job_desc_props.txt, from Slurm's documents):
 * the others are unknown there, with Slurm's warning. */
static void test_schema_properties(void **state)
{
	const char *dir = getenv("SLUICE_TEST_DATA");
	char *path, line[256], *names[600];
	int vers[600];
	size_t n = 0;
	FILE *f;

	assert_non_null(dir);
	path = xstrdup_printf("%s/rest/job_desc_props.txt", dir);
	assert_non_null(f = fopen(path, "r"));
	while (fgets(line, sizeof(line), f) && n < N(names)) {
		char name[200];

		if (line[0] == '#' || sscanf(line, "%d %199s", &vers[n],
					     name) != 2)
			continue;
		names[n++] = xstrdup(name);
	}
	fclose(f);
	xfree(path);
	assert_true(n > 400);
	for (size_t i = 0; i < n; i++) {
		for (size_t v = 0; v < N(versions); v++) {
			json_object *w = json_object_new_array();
			bool listed = false;
			job_desc_t d;
			char *err = NULL;

			for (size_t k = 0; k < n && !listed; k++)
				listed = vers[k] == versions[v] &&
					 !strcmp(names[k], names[i]);
			if (submit_member(versions[v], names[i], "null", &d, w,
					  &err))
				fail_msg("v%d %s: null refused: %s",
					 versions[v], names[i], err);
			if (listed != !json_object_array_length(w))
				fail_msg("v0.0.%d %s: %s", versions[v],
					 names[i], listed ? "unknown to the "
					 "parser" : "known, not in the schema");
			job_desc_free_members(&d);
			json_object_put(w);
		}
	}
	for (size_t i = 0; i < n; i++)
		xfree(names[i]);
}

/* ---- the same job through REST and through sbatch's options ---- */

static void compare_descs(const job_desc_t *a, const job_desc_t *b,
			  const char *what)
{
	for (const field_desc_t *f = job_desc_fields; f->name; f++) {
		const char *pa = (const char *) a + f->offset;
		const char *pb = (const char *) b + f->offset;
		bool same = true;

		switch (f->type) {
		case FT_STR:
			same = !xstrcmp(*(char *const *) pa,
					*(char *const *) pb);
			if (!same)
				fail_msg("%s: %s differs: \"%s\" vs \"%s\"",
					 what, f->name, *(char *const *) pa,
					 *(char *const *) pb);
			break;
		case FT_STRLIST: {
			char *const *la = *(char **const *) pa;
			char *const *lb = *(char **const *) pb;
			size_t n = xstrarray_len(la);

			same = n == xstrarray_len(lb);
			for (size_t i = 0; same && i < n; i++)
				same = !strcmp(la[i], lb[i]);
			break;
		}
		case FT_U8: same = *(uint8_t *) pa == *(uint8_t *) pb; break;
		case FT_U16: same = *(uint16_t *) pa == *(uint16_t *) pb; break;
		case FT_U32: same = *(uint32_t *) pa == *(uint32_t *) pb; break;
		case FT_U64: same = *(uint64_t *) pa == *(uint64_t *) pb; break;
		case FT_BOOL: same = *(bool *) pa == *(bool *) pb; break;
		case FT_TIME: same = *(time_t *) pa == *(time_t *) pb; break;
		default: same = !memcmp(pa, pb, sizeof(double)); break;
		}
		if (!same)
			fail_msg("%s: field %s differs", what, f->name);
	}
	assert_int_equal(a->mem_per_cpu, b->mem_per_cpu);
}

/* What sbatch's option parser makes of argv (then fill_desc's parts the
 * options do not set, taken from the REST result). */
static void sbatch_desc(const char **args, const job_desc_t *rest,
			cli_job_opts_t *o)
{
	int argc = 0, first;

	cli_opt_init(o, CLI_CMD_SBATCH, "sbatch");
	o->quiet_getopt = true;
	while (args[argc])
		argc++;
	if (cli_opt_parse_argv(o, argc, (char **) args, &first) < 0 ||
	    cli_opt_validate(o) < 0)
		fail_msg("sbatch options refused");
	assert_int_equal(first, argc);
	o->desc.script = xstrdup(rest->script);
	o->desc.environment = xstrarray_dup(rest->environment);
	o->desc.argv = xstrarray_dup(rest->argv);
}

static const char *const common_args[] = {
	"sbatch", "-p", "debug", "-A", "acct", "--array=0-15%4",
	"-d", "afterok:12:13", "-D", "/tmp/work", "-t", "90",
	"--time-min=30", "-N", "2-4", "-n", "8", "-c", "2",
	"--ntasks-per-node=4", "--gres=gres/gpu:1", "--gpus=4",
	"-x", "n5,n6", "-w", "n1,n2", "-C", "fast&big", "-q", "normal",
	"-H", "--begin=2030-01-02T03:04:05", "--deadline=2030-02-01T00:00:00",
	"--nice=10", "-o", "out-%j.txt", "-e", "err-%j.txt",
	"--mail-type=BEGIN,END,TIME_LIMIT_90", "--mail-user=a@b.c",
	"--no-requeue", "--open-mode=append", "--signal=B:USR1@120",
	"--spread-job", "--kill-on-invalid-dep=yes", "--comment=c",
	"--wckey=w", "-L", "lic:2", "--reservation=r1", "--tmp=100",
	"--threads-per-core=1", "--contiguous", "--no-kill",
	"--sockets-per-node=2", "--ntasks-per-core=1", "--mincpus=4",
	"--cpus-per-gpu=3", "--gpus-per-task=1",
	"--mem=2048", "--exclusive=user",
};

static time_t deadline_epoch(void)
{
	time_t t;

	assert_int_equal(parse_time("2030-02-01T00:00:00", time(NULL), &t), 0);
	return t;
}

/* The version's own spellings of the same request. */
static char *rest_body(int ver, const char *name)
{
	const char *shared, *csv, *tl, *mem;

	switch (ver) {
	case 40:
		shared = "\"exclusive\":[\"user\"],\"cores_per_socket\":1";
		csv = "\"excluded_nodes\":\"n5,n6\","
		      "\"required_nodes\":[\"n1\",\"n2\"]";
		tl = "{\"set\":true,\"infinite\":false,\"number\":90}";
		mem = "2048";
		break;
	case 41:
		shared = "\"shared\":[\"user\"],\"oversubscribe\":false";
		csv = "\"excluded_nodes\":[\"n5\",\"n6\"],"
		      "\"required_nodes\":[\"n1\",\"n2\"]";
		tl = "90";
		mem = "{\"set\":true,\"number\":2048}";
		break;
	case 42:
		shared = "\"shared\":[\"user\"]";
		csv = "\"excluded_nodes\":[\"n5\",\"n6\"],"
		      "\"required_nodes\":\"n1,n2\"";
		tl = "\"90\"";
		mem = "{\"number\":2048}";
		break;
	default:
		shared = "\"shared\":[\"user\"]";
		csv = "\"excluded_nodes\":[\"n5\",\"n6\"],"
		      "\"required_nodes\":[\"n1\",\"n2\"]";
		tl = "{\"set\":true,\"number\":90}";
		mem = "{\"set\":true,\"infinite\":false,\"number\":2048}";
		break;
	}
	return xstrdup_printf(
		"{\"script\":\"#!/bin/sh\\nsrun hostname\\n\",\"job\":{"
		"\"name\":\"%s\",\"partition\":\"debug\",\"account\":\"acct\","
		"\"array\":\"0-15%%4\",\"dependency\":\"afterok:12:13\","
		"\"environment\":[\"PATH=/bin:/usr/bin\",\"LANG=C.UTF-8\"],"
		"\"argv\":[\"a1\",\"a2\"],"
		"\"current_working_directory\":\"/tmp/work\","
		"\"time_limit\":%s,\"time_minimum\":30,"
		"\"memory_per_node\":%s,\"nodes\":\"2-4\",\"tasks\":8,"
		"\"cpus_per_task\":2,\"tasks_per_node\":4,"
		"\"tres_per_node\":\"gres/gpu:1\",\"tres_per_job\":\"gres/gpu:4\","
		"\"tres_per_task\":\"gres/gpu:1\","
		"\"cpus_per_tres\":\"gres/gpu:3\",%s,"
		"\"constraints\":\"fast&big\",\"qos\":\"normal\",\"hold\":true,"
		"\"begin_time\":\"2030-01-02T03:04:05\","
		"\"deadline\":{\"set\":true,\"number\":%lld},"
		"\"nice\":10,\"standard_output\":\"out-%%j.txt\","
		"\"standard_error\":\"err-%%j.txt\","
		"\"mail_type\":[\"BEGIN\",\"END\",\"TIME=90%%\"],"
		"\"mail_user\":\"a@b.c\",%s,\"requeue\":false,"
		"\"open_mode\":[\"APPEND\"],\"kill_warning_signal\":\"SIGUSR1\","
		"\"kill_warning_delay\":{\"set\":true,\"number\":120},"
		"\"kill_warning_flags\":[\"BATCH_JOB\"],"
		"\"flags\":[\"SPREAD_JOB\",\"KILL_INVALID_DEPENDENCY\"],"
		"\"comment\":\"c\",\"wckey\":\"w\",\"licenses\":\"lic:2\","
		"\"reservation\":\"r1\",\"temporary_disk_per_node\":100,"
		"\"threads_per_core\":1,\"contiguous\":true,"
		"\"kill_on_node_fail\":false,\"sockets_per_node\":2,"
		"\"tasks_per_core\":1,\"minimum_cpus_per_node\":4,"
		"\"power_flags\":[],\"priority\":null,"
		"\"job_id\":0,\"burst_buffer\":\"\"}}",
		name, tl, mem, csv, (long long) deadline_epoch(), shared);
}

static void test_same_as_sbatch(void **state)
{
	static const char *const names[] = {
		"plain", "h\\u00e9llo w\\u00f6rld", "\\u540d\\u524d-\\ud83d\\ude80",
		"tab\there",
	};
	static const char *const expect[] = {
		"plain", "h\xc3\xa9llo w\xc3\xb6rld",
		"\xe5\x90\x8d\xe5\x89\x8d-\xf0\x9f\x9a\x80", "tab\there",
	};

	for (size_t v = 0; v < N(versions); v++) {
		int ver = versions[v];
		char *text = rest_body(ver, names[v]);
		const char *args[N(common_args) + 4];
		size_t n = 0;
		json_object *w = json_object_new_array();
		cli_job_opts_t o;
		job_desc_t d;
		char *err = NULL, what[32];

		if (submit_text(text, ver, &d, w, &err))
			fail_msg("v%d: %s", ver, err);
		assert_int_equal(json_object_array_length(w), 0);
		for (size_t i = 0; i < N(common_args); i++)
			args[n++] = common_args[i];
		args[n++] = "-J";
		args[n++] = expect[v];
		if (ver == 40)
			args[n++] = "--cores-per-socket=1";
		args[n] = NULL;
		sbatch_desc(args, &d, &o);
		snprintf(what, sizeof(what), "v0.0.%d", ver);
		compare_descs(&d, &o.desc, what);
		/* spot checks of what both agree on */
		assert_string_equal(d.name, expect[v]);
		assert_string_equal(d.array_inx, "0-15%4");
		assert_string_equal(d.environment[1], "LANG=C.UTF-8");
		assert_int_equal(d.time_limit, 90);
		assert_int_equal(d.pn_min_memory, 2048);
		assert_false(d.mem_per_cpu);
		assert_int_equal(d.min_nodes, 2);
		assert_int_equal(d.max_nodes, 4);
		assert_int_equal(d.shared, JOB_SHARED_USER);
		assert_int_equal(d.warn_signal, SIGUSR1);
		assert_int_equal(d.warn_flags, KILL_JOB_BATCH);
		assert_string_equal(d.mail_type, "BEGIN,END,TIME_LIMIT_90");
		assert_string_equal(d.exc_nodes, "n5,n6");
		assert_true(d.hold);
		job_desc_free_members(&d);
		cli_opt_free(&o);
		json_object_put(w);
		xfree(text);
	}
}

/* Every spelling of a no_val number, and what each means. */
static void test_noval_forms(void **state)
{
	static const struct {
		const char *value;
		uint32_t limit;
	} cases[] = {
		{ "60", 60 }, { "\"60\"", 60 }, { "60.0", 60 },
		{ "{\"set\":true,\"infinite\":false,\"number\":60}", 60 },
		{ "{\"number\":60}", 60 }, { "{\"set\":true}", INFINITE32 },
		{ "{\"set\":false,\"number\":60}", NO_VAL32 },
		{ "{\"set\":false}", NO_VAL32 }, { "{}", NO_VAL32 },
		{ "{\"infinite\":true}", INFINITE32 },
		{ "{\"set\":true,\"infinite\":true,\"number\":5}", INFINITE32 },
		{ "\"infinite\"", INFINITE32 }, { "\"UNLIMITED\"", INFINITE32 },
		{ "0", INFINITE32 },   /* as --time=0 */
		{ "null", NO_VAL32 }, { "4294967293", 4294967293u },
	};

	for (size_t v = 0; v < N(versions); v++) {
		for (size_t i = 0; i < N(cases); i++) {
			job_desc_t d;
			char *err = NULL;

			if (submit_member(versions[v], "time_limit",
					  cases[i].value, &d, NULL, &err))
				fail_msg("%s: %s", cases[i].value, err);
			if (d.time_limit != cases[i].limit)
				fail_msg("%s gave %u", cases[i].value,
					 d.time_limit);
			job_desc_free_members(&d);
		}
	}
}

static void test_values(void **state)
{
	job_desc_t d;
	char *err = NULL;
	json_object *w = json_object_new_array();

	/* the job's own script, memory per CPU, a begin time in seconds,
	 * --priority=TOP, exclusive, a bare signal, fewer tasks than nodes */
	assert_int_equal(submit_text(
		"{\"job\":{\"script\":\"#!/bin/sh\\ntrue\\n\","
		"\"memory_per_cpu\":{\"set\":true,\"number\":512},"
		"\"begin_time\":1900000000,\"priority\":{\"infinite\":true},"
		"\"shared\":[\"none\"],\"kill_warning_signal\":\"10\","
		"\"minimum_nodes\":4,\"tasks\":2,\"user_id\":\"0\","
		"\"group_id\":\"root\",\"open_mode\":\"truncate\","
		"\"flags\":\"NO_KILL_INVALID_DEPENDENCY\","
		"\"memory_per_tres\":null,\"nice\":-5,\"contiguous\":false,"
		"\"requeue\":false,\"profile\":[\"TASK\",\"ENERGY\"],"
		"\"account_gather_frequency\":\"task=5\"}}", 43, &d, w,
		&err), 0);
	assert_string_equal(d.script, "#!/bin/sh\ntrue\n");
	assert_int_equal(d.profile, PROFILE_TASK | PROFILE_ENERGY);
	assert_string_equal(d.acctg_freq, "task=5");
	assert_int_equal(d.pn_min_memory, 512);
	assert_true(d.mem_per_cpu);
	assert_int_equal(d.begin_time, 1900000000);
	assert_int_equal(d.priority, NO_VAL32 - 1);
	assert_int_equal(d.shared, JOB_SHARED_NONE);
	assert_int_equal(d.warn_signal, 10);
	assert_int_equal(d.warn_time, 60);
	assert_int_equal(d.min_nodes, 2);   /* as sbatch: nnodes lowered */
	assert_int_equal(d.user_id, 0);
	assert_int_equal(d.group_id, 0);
	assert_int_equal(d.open_mode, 2);
	assert_int_equal(d.kill_inv_dep, 0);
	assert_int_equal(d.nice, NICE_OFFSET - 5);
	assert_int_equal(d.contiguous, NO_VAL16);   /* no --contiguous */
	assert_int_equal(d.requeue, 0);             /* --no-requeue */
	assert_int_equal(json_object_array_length(w), 1);
	job_desc_free_members(&d);
	json_object_put(w);

	/* memory_per_tres as --mem-per-gpu; empty strings ask nothing */
	assert_int_equal(submit_text(
		"{\"script\":\"#!/bin/sh\\n\",\"job\":{\"memory_per_tres\":"
		"\"gres/gpu:1024\",\"partition\":\"\",\"excluded_nodes\":[]}}",
		41, &d, NULL, &err), 0);
	assert_string_equal(d.mem_per_tres, "gres/gpu:1024");
	assert_int_equal(d.pn_min_memory, NO_VAL64);
	assert_null(d.partition);
	assert_null(d.exc_nodes);
	job_desc_free_members(&d);

	/* one-element jobs list is the job */
	assert_int_equal(submit_text(
		"{\"script\":\"#!/bin/sh\\n\",\"jobs\":[{\"tasks\":3}]}",
		42, &d, NULL, &err), 0);
	assert_int_equal(d.num_tasks, 3);
	job_desc_free_members(&d);
}

/* ---- update ---- */

static void test_update(void **state)
{
	static const struct {
		const char *body;
		int rc;
		const char *err;
	} bad[] = {
		{ "{\"tasks\":4}", ESLURM_NOT_SUPPORTED,
		  "job.tasks: not supported by Sluice in a job update" },
		{ "{\"environment\":[\"A=B\"]}", ESLURM_NOT_SUPPORTED,
		  "job.environment: not supported by Sluice in a job update" },
		{ "{\"time_limit\":\"x\"}", ESLURM_REST_FAIL_PARSING,
		  "job.time_limit: expected an integer or {set,infinite,number}" },
		{ "{\"burst_buffer\":\"x\"}", ESLURM_NOT_SUPPORTED,
		  "job.burst_buffer: not supported by Sluice in a job update" },
		{ "[]", ESLURM_REST_FAIL_PARSING, "job: expected an object" },
	};
	job_update_msg_t u;
	json_object *job;
	char *err = NULL;
	int hold;

	for (size_t i = 0; i < N(bad); i++) {
		job = json_tokener_parse(bad[i].body);
		if (rest_job_update_parse(job, 43, &u, &hold, NULL, &err) !=
		    bad[i].rc || strcmp(err, bad[i].err))
			fail_msg("%s: \"%s\"", bad[i].body, err);
		assert_null(u.name);
		assert_int_equal(u.time_limit, NO_VAL32);
		json_object_put(job);
		xfree(err);
	}

	job = json_tokener_parse(
		"{\"job_id\":\"12\",\"time_limit\":{\"set\":true,\"number\":30},"
		"\"name\":\"n\",\"hold\":false,\"excluded_nodes\":[],"
		"\"reservation\":\"\",\"priority\":7,\"nodes\":\"1-2\","
		"\"requeue\":true,\"qos\":\"high\",\"tasks\":0,"
		"\"begin_time\":1900000000,\"nice\":3}");
	assert_int_equal(rest_job_update_parse(job, 40, &u, &hold, NULL, &err),
			 0);
	assert_string_equal(u.job_id_str, "12");
	assert_int_equal(u.time_limit, 30);
	assert_string_equal(u.name, "n");
	assert_int_equal(hold, 0);
	assert_string_equal(u.exc_nodes, "");    /* cleared */
	assert_string_equal(u.reservation, "");  /* out of its reservation */
	assert_int_equal(u.priority, 7);
	assert_int_equal(u.min_nodes, 1);
	assert_int_equal(u.max_nodes, 2);
	assert_int_equal(u.requeue, 1);
	assert_string_equal(u.qos, "high");
	assert_int_equal(u.begin_time, 1900000000);
	assert_int_equal(u.nice, NICE_OFFSET + 3);
	assert_null(u.partition);
	assert_int_equal(u.array_max_tasks, NO_VAL32);
	job_update_free_members(&u);
	json_object_put(job);

	/* TimeLimit=0 as scontrol sends it (a submit's 0 is no limit) */
	job = json_tokener_parse("{\"hold\":true,\"time_limit\":0}");
	assert_int_equal(rest_job_update_parse(job, 43, &u, &hold, NULL, &err),
			 0);
	assert_int_equal(hold, 1);
	assert_int_equal(u.time_limit, 0);
	assert_null(u.job_id_str);
	job_update_free_members(&u);
	json_object_put(job);
}

/* ---- allocate ---- */

static void test_alloc(void **state)
{
	static const struct {
		const char *body;
		int rc;
		const char *err;
	} bad[] = {
		{ "{\"job\":{\"script\":\"#!/bin/sh\\n\"}}",
		  ESLURM_REST_FAIL_PARSING,
		  "job.script: an allocation runs no script (use job/submit)" },
		{ "{\"job\":{\"array\":\"1-3\"}}", ESLURM_REST_FAIL_PARSING,
		  "job.array: an allocation cannot be a job array (as salloc)" },
		{ "{\"hetjob\":[{},{}]}", ESLURM_NOT_SUPPORTED,
		  "hetjob: heterogeneous jobs are not supported by Sluice" },
		{ "{}", ESLURM_REST_INVALID_JOBS_DESC, "job: Jobs description "
		  "entry not found, empty or not dictionary or list" },
		{ "{\"job\":{\"tasks\":-1}}", ESLURM_REST_FAIL_PARSING,
		  "job.tasks: -1 is out of range (1 to 4294967293)" },
	};
	job_desc_t d;
	json_object *body;
	char *err = NULL;

	for (size_t i = 0; i < N(bad); i++) {
		body = json_tokener_parse(bad[i].body);
		if (rest_job_alloc_parse(body, 43, &d, NULL, &err) != bad[i].rc ||
		    strcmp(err, bad[i].err))
			fail_msg("%s: \"%s\"", bad[i].body, err);
		assert_pristine(&d);
		json_object_put(body);
		xfree(err);
	}
	body = json_tokener_parse("{\"hetjob\":[{\"tasks\":2,\"time_limit\":5,"
				  "\"environment\":[\"A=1\"]}]}");
	assert_int_equal(rest_job_alloc_parse(body, 41, &d, NULL, &err), 0);
	assert_int_equal(d.num_tasks, 2);
	assert_int_equal(d.time_limit, 5);
	assert_null(d.script);
	job_desc_free_members(&d);
	json_object_put(body);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_bad_members),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_x11_refused),
		cmocka_unit_test(test_unknown_fields_warn),
		cmocka_unit_test(test_unknown_top_level_warns),
		cmocka_unit_test(test_schema_properties),
		cmocka_unit_test(test_same_as_sbatch),
		cmocka_unit_test(test_noval_forms),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_update),
		cmocka_unit_test(test_alloc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
