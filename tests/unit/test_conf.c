/* test_conf.c — slurm.conf parsing: bad files first (each error names
 * file:line and key), then syntax, records, defaults and the kv list. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "common/conf.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static char tmpdir[] = "/tmp/test_conf.XXXXXX";

static char *data_path(const char *name)
{
	const char *dir = getenv("SLUICE_TEST_DATA");

	return xstrdup_printf("%s/conf/%s", dir ? dir : "tests/unit/data", name);
}

/* Write text to tmpdir/name and return the path. */
static char *write_conf(const char *name, const char *text)
{
	char *path = xstrdup_printf("%s/%s", tmpdir, name);
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	return path;
}

static slurm_conf_t *load_text(const char *text, char *err, size_t len)
{
	char *path = write_conf("t.conf", text);
	slurm_conf_t *c = conf_load(path, err, len);

	xfree(path);
	return c;
}

static void test_bad_files(void **state)
{
	static const struct {
		const char *text;
		const char *want;   /* substring of the error */
	} cases[] = {
		{ "ClusterName=x\n\nFoo=bar\n", "t.conf:3: unknown key \"Foo\"" },
		{ "MaxJobCount=abc\n", "t.conf:1: invalid value \"abc\" for MaxJobCount" },
		{ "KillWait=-1\n", "KillWait" },
		{ "KillWait=70000\n", "KillWait" },
		{ "SlurmctldPort=70000\n", "SlurmctldPort" },
		{ "SlurmctldPort=6818-6817\n", "SlurmctldPort" },
		{ "SlurmctldPort=a-b\n", "SlurmctldPort" },
		{ "SrunPortRange=60000\n", "SrunPortRange" },
		{ "SlurmctldDebug=loud\n", "SlurmctldDebug" },
		{ "SlurmUser=no_such_user_xyz\n", "t.conf:1: SlurmUser: unknown user" },
		{ "UsePAM=maybe\n", "UsePAM" },
		{ "DefMemPerCPU=lots\n", "DefMemPerCPU" },
		{ "EnforcePartLimits=SOME\n", "EnforcePartLimits" },
		{ "PrivateData=jobs,bogus\n", "t.conf:1: PrivateData: unknown value \"bogus\"" },
		{ "\nAccountingStorageEnforce=associations,limitz\n",
		  "t.conf:2: AccountingStorageEnforce: bad value 'limitz'" },
		{ "PrologFlags=Alloc,Contian\n", "t.conf:1: PrologFlags: unknown value \"Contian\"" },
		{ "SlurmctldParameters=rl_enable,rl_bucket_size=0\n",
		  "t.conf:1: SlurmctldParameters: invalid rl_bucket_size value \"0\"" },
		{ "SuspendTime=soon\n", "SuspendTime" },
		{ "PriorityDecayHalfLife=abc\n", "PriorityDecayHalfLife" },
		{ "FirstJobId=100\nMaxJobId=10\n", "FirstJobId" },
		{ "PreemptType=preempt/partition_prio\n",
		  "PreemptType and PreemptMode values incompatible" },
		{ "PreemptType=preempt/qos\nPreemptMode=off\n",
		  "PreemptType and PreemptMode values incompatible" },
		{ "SlurmctldHost=a(b\n", "t.conf:1: invalid value \"a(b\" for SlurmctldHost" },
		{ "SlurmctldHost=a\nSlurmctldHost=a(10.0.0.1)\n",
		  "t.conf:2: SlurmctldHost \"a\" is given more than once" },
		{ "garbage here\n", "t.conf:1: parse error" },
		{ "Include /dev/null\n", "t.conf:1: /dev/null is not a regular file" },
		{ "Include /\n", "t.conf:1: / is not a regular file" },
		{ "ClusterName=\"open\n", "t.conf:1: unterminated quote" },
		{ "\nNodeName=n[1-\n", "t.conf:2: invalid value \"n[1-\" for NodeName" },
		{ "NodeName=n1 Colour=red\n", "t.conf:1: unknown key \"Colour\"" },
		{ "NodeName=n1 CPUs=many\n", "invalid value \"many\" for CPUs" },
		{ "NodeName=n1 RealMemory=lots\n", "RealMemory" },
		{ "NodeName=n1 State=SIDEWAYS\n", "State" },
		{ "NodeName=n[1-4] Port=1-3\n", "Port count" },
		{ "NodeName=n1 Port=99999\n", "Port" },
		{ "NodeName=n1 Port=abc\n", "Port" },
		{ "NodeName=n[1-2] NodeAddr=a,b,c\n", "NodeAddr count" },
		{ "NodeName=n[1-3] NodeHostname=h[1-2]\n", "NodeHostname count" },
		{ "NodeName=n1\nNodeName=n[0-2]\n", "t.conf:2: node \"n1\" is defined more than once" },
		{ "NodeName=DEFAULT NodeAddr=x\n", "NodeAddr not allowed" },
		{ "NodeName=n[1-200000]\n", "names more than 131072 hosts" },
		{ "NodeName=a[1-100]b[1-100]c[1-100]\n", "names more than" },
		{ "NodeName=a[1-100000]\nNodeName=b[1-100000]\n", "t.conf:2: more than 131072 nodes" },
		{ "NodeName=n1\nPartitionName=p Nodes=x[1-9999999]\n", "names more than" },
		{ "NodeName=ALL\n", "reserved" },
		{ "NodeName=\n", "empty value" },
		{ "PartitionName=p MaxTime=abc\n", "t.conf:1: invalid value \"abc\" for MaxTime" },
		{ "PartitionName=p DefaultTime=x\n", "DefaultTime" },
		{ "PartitionName=p State=SIDEWAYS\n", "State" },
		{ "PartitionName=p OverSubscribe=MAYBE\n", "OverSubscribe" },
		{ "PartitionName=p OverSubscribe=YES:x\n", "OverSubscribe" },
		{ "PartitionName=p Shared=FORCE:0\n", "invalid value \"FORCE:0\"" },
		{ "PartitionName=p MaxNodes=lots\n", "MaxNodes" },
		{ "PartitionName=p Hidden=perhaps\n", "Hidden" },
		{ "PartitionName=p PreemptMode=NICELY\n", "PreemptMode" },
		{ "PartitionName=p Color=red\n", "unknown key \"Color\"" },
		{ "PartitionName=DEFAULT MaxTime=zzz\n", "MaxTime" },
		{ "PartitionName=p\nPartitionName=p\n", "t.conf:2: partition \"p\" is defined more than once" },
		{ "NodeName=n1\n\nPartitionName=p Nodes=n[1-2]\n",
		  "t.conf:3: unknown node \"n2\" in Nodes" },
		{ "NodeName=n1\nDownNodes=n9\n", "t.conf:2: DownNodes: unknown node \"n9\"" },
		{ "NodeName=n1\nDownNodes=n1 State=HAPPY\n", "State" },
		{ "NodeSet=s Colour=x\n", "Colour" },
		{ "FrontendName=f Port=x\n",
		  "t.conf:1: FrontendName=f: not supported: Sluice has no front end nodes" },
	};
	char err[512];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		slurm_conf_t *c;

		err[0] = '\0';
		c = load_text(cases[i].text, err, sizeof(err));
		if (c) {
			conf_destroy(c);
			fail_msg("accepted: %s", cases[i].text);
		}
		if (!strstr(err, cases[i].want))
			fail_msg("case %zu: error \"%s\" lacks \"%s\"", i, err,
				 cases[i].want);
	}
}

static void test_unknown_key_names_file_line(void **state)
{
	char *path = data_path("bad_key.conf");
	char *want = xstrdup_printf("%s:4: unknown key \"Foo\"", path);
	char err[512];

	assert_null(conf_load(path, err, sizeof(err)));
	assert_string_equal(err, want);
	xfree(want);
	xfree(path);
}

static void test_missing_file(void **state)
{
	char err[512];

	assert_null(conf_load("/nonexistent/slurm.conf", err, sizeof(err)));
	assert_non_null(strstr(err, "/nonexistent/slurm.conf"));
}

static void test_include_missing(void **state)
{
	char *path = data_path("include_missing.conf");
	char *want = xstrdup_printf("%s:2: Include \"nothere.conf\"", path);
	char err[512];

	assert_null(conf_load(path, err, sizeof(err)));
	if (strncmp(err, want, strlen(want)))
		fail_msg("error \"%s\" does not start with \"%s\"", err, want);
	xfree(want);
	xfree(path);
}

static void test_include_nested(void **state)
{
	char *path = data_path("include_main.conf");
	char err[512] = "";
	slurm_conf_t *c = conf_load(path, err, sizeof(err));

	if (!c)
		fail_msg("%s", err);
	assert_int_equal(c->node_cnt, 3);
	/* sub/nodes.conf includes more.conf (b1) before defining a[1-2]. */
	assert_string_equal(c->nodes[0].name, "b1");
	assert_int_equal(c->nodes[0].cpus, 8);
	assert_string_equal(c->nodes[1].name, "a1");
	assert_int_equal(c->part_cnt, 1);
	assert_string_equal(c->parts[0].name, "p1");
	assert_true(c->parts[0].is_default);
	conf_destroy(c);
	xfree(path);
}

/* conf_unchanged follows slurm.conf and each file it includes. */
static void test_unchanged(void **state)
{
	char *inc = write_conf("unch_nodes.conf",
			       "NodeName=u1 CPUs=2\n");
	char *main_path = write_conf("unch.conf",
				     "ClusterName=u\nInclude unch_nodes.conf\n"
				     "PartitionName=p Nodes=u1\n");
	struct timespec later[2] = { { .tv_nsec = UTIME_OMIT },
				     { .tv_sec = 2000000000 } };
	char err[512] = "";
	slurm_conf_t *c = conf_load(main_path, err, sizeof(err));

	(void) state;
	if (!c)
		fail_msg("%s", err);
	assert_int_equal(c->file_cnt, 2);
	assert_true(conf_unchanged(c));
	/* the included file touched: changed */
	assert_int_equal(utimensat(AT_FDCWD, inc, later, 0), 0);
	assert_false(conf_unchanged(c));
	conf_destroy(c);
	assert_non_null(c = conf_load(main_path, err, sizeof(err)));
	assert_true(conf_unchanged(c));
	/* slurm.conf rewritten (another inode), then removed */
	xfree(main_path);
	main_path = write_conf("unch.conf.new", "ClusterName=u\n");
	assert_int_equal(rename(main_path, c->path), 0);
	assert_false(conf_unchanged(c));
	unlink(c->path);
	assert_false(conf_unchanged(c));
	conf_destroy(c);
	unlink(inc);
	xfree(inc);
	xfree(main_path);
}

static void test_include_loop(void **state)
{
	char err[512] = "";
	char *p = write_conf("loop.conf", "Include loop.conf\n");

	assert_null(conf_load(p, err, sizeof(err)));
	assert_non_null(strstr(err, "nested too deeply"));
	xfree(p);
}

static void test_defaults(void **state)
{
	char *path = data_path("minimal.conf");
	char err[512] = "";
	slurm_conf_t *c = conf_load(path, err, sizeof(err));

	if (!c)
		fail_msg("%s", err);
	assert_int_equal(c->slurmctld_port, 6817);
	assert_int_equal(c->slurmd_port, 6818);
	assert_int_equal(c->slurmd_timeout, 300);
	assert_int_equal(c->slurmctld_timeout, 120);
	assert_int_equal(c->message_timeout, 10);
	assert_int_equal(c->kill_wait, 30);
	assert_int_equal(c->min_job_age, 300);
	assert_int_equal(c->first_job_id, 1);
	assert_int_equal(c->max_job_id, 67043328);
	assert_int_equal(c->max_job_count, 10000);
	assert_int_equal(c->max_array_size, 1001);
	assert_int_equal(c->tree_width, 50);   /* 22.05 (oracle) */
	assert_int_equal(c->return_to_service, 0);
	assert_true(c->job_requeue);
	assert_string_equal(c->auth_type, "auth/munge");
	assert_string_equal(c->select_type, "select/cons_tres");
	assert_string_equal(c->scheduler_type, "sched/backfill");
	assert_string_equal(c->priority_type, "priority/basic");
	assert_string_equal(c->proctrack_type, "proctrack/cgroup");
	assert_string_equal(c->state_save_location, "/var/spool/slurmctld");
	assert_string_equal(c->slurmd_spool_dir, "/var/spool/slurmd");
	assert_string_equal(c->slurm_user, "root");
	assert_int_equal(c->slurm_user_id, 0);
	assert_string_equal(c->enforce_part_limits, "NO");
	assert_int_equal(c->slurmctld_debug, 3);
	assert_int_equal(c->slurmd_debug, 3);
	assert_int_equal(c->ctld_host_cnt, 1);
	assert_string_equal(c->ctld_hosts[0], "ctl");
	assert_string_equal(c->ctld_addrs[0], "ctl");
	/* Node defaults: one CPU, 1 MB, SlurmdPort. */
	assert_int_equal(c->node_cnt, 1);
	assert_int_equal(c->nodes[0].cpus, 1);
	assert_int_equal(c->nodes[0].real_memory, 1);
	assert_int_equal(c->nodes[0].weight, 1);
	assert_int_equal(c->nodes[0].port, 6818);
	assert_string_equal(c->nodes[0].addr, "n1");
	assert_string_equal(c->nodes[0].hostname, "n1");
	/* Partition defaults. */
	assert_string_equal(c->parts[0].state, "UP");
	assert_int_equal(c->parts[0].max_time, INFINITE32);
	assert_int_equal(c->parts[0].default_time, NO_VAL32);
	assert_int_equal(c->parts[0].max_nodes, INFINITE32);
	assert_string_equal(c->parts[0].oversubscribe, "NO");
	assert_int_equal(c->parts[0].priority_tier, 1);
	assert_false(c->parts[0].is_default);
	conf_destroy(c);
	xfree(path);
}

static void test_full(void **state)
{
	char *path = data_path("full.conf");
	char err[512] = "";
	slurm_conf_t *c = conf_load(path, err, sizeof(err));
	const conf_node_t *n;
	const conf_part_t *p;

	if (!c)
		fail_msg("%s", err);
	assert_string_equal(c->cluster_name, "Test");
	assert_int_equal(c->ctld_host_cnt, 2);
	assert_string_equal(c->ctld_addrs[0], "10.0.0.1");
	assert_string_equal(c->ctld_hosts[1], "ctl2");
	assert_int_equal(c->slurmctld_port, 6817);
	assert_int_equal(c->slurmd_port, 7000);
	assert_int_equal(c->slurmctld_debug, 6);
	assert_int_equal(c->slurmd_debug, 3);
	assert_int_equal(c->kill_wait, 45);
	assert_int_equal(c->def_mem_per_cpu, 2048);
	assert_string_equal(c->scheduler_parameters,
			    "bf_interval=30,default_queue_depth=200");
	assert_string_equal(c->mail_prog, "/usr/bin/mail");
	assert_string_equal(conf_get(c, "MailDomain"), "example.org");
	assert_string_equal(conf_get(c, "HealthCheckProgram"), "/bin/check#3");

	assert_int_equal(c->node_cnt, 7);
	n = conf_find_node(c, "n3");
	assert_non_null(n);
	assert_string_equal(n->hostname, "host3");
	assert_string_equal(n->addr, "10.1.0.3");
	assert_int_equal(n->port, 17003);
	assert_int_equal(n->cpus, 4);
	assert_int_equal(n->sockets, 4);
	assert_int_equal(n->cores_per_socket, 1);
	assert_int_equal(n->real_memory, 8192);
	assert_string_equal(n->state, "UNKNOWN");
	n = conf_find_node(c, "n4");
	assert_string_equal(n->state, "DRAIN");
	assert_string_equal(n->reason, "bad fan");
	n = conf_find_node(c, "big02");
	assert_non_null(n);
	/* A later DEFAULT merges with the earlier one. */
	assert_int_equal(n->real_memory, 16384);
	/* CPUs=4 from DEFAULT fits no socket/core/thread product: reset. */
	assert_int_equal(n->cpus, 32);
	assert_int_equal(n->sockets, 2);
	assert_int_equal(n->weight, 10);
	assert_string_equal(n->features, "fast,gpu");
	assert_string_equal(n->gres, "gpu:2");
	assert_int_equal(n->port, 7000);
	n = conf_find_node(c, "one");
	assert_string_equal(n->hostname, "box");
	assert_string_equal(n->addr, "box");
	assert_int_equal(n->port, 18000);
	assert_null(conf_find_node(c, "n5"));

	assert_int_equal(c->part_cnt, 3);
	p = conf_find_part(c, "debug");
	assert_true(p->is_default);
	assert_int_equal(p->max_time, 1440);
	assert_int_equal(p->default_time, 30);
	assert_string_equal(p->nodes, "n[1-4]");
	p = conf_find_part(c, "big");
	assert_int_equal(p->max_time, INFINITE32);
	assert_string_equal(p->oversubscribe, "FORCE:2");
	assert_null(p->allow_accounts);
	assert_null(p->allow_qos);      /* ALL */
	p = conf_find_part(c, "all");
	/* Only the first Default=YES partition is the default. */
	assert_false(p->is_default);
	assert_true(p->hidden);
	assert_int_equal(p->priority_tier, 5);
	assert_string_equal(p->nodes, "n[1-4],big[01-02],one");
	assert_null(conf_find_part(c, "nope"));
	conf_destroy(c);
	xfree(path);
}

static void test_topology(void **state)
{
	static const struct {
		const char *line;
		unsigned cpus, sockets, cores, threads;
	} cases[] = {
		{ "NodeName=x CPUs=8", 8, 8, 1, 1 },
		{ "NodeName=x Sockets=2 CoresPerSocket=4 ThreadsPerCore=2", 16, 2, 4, 2 },
		{ "NodeName=x CoresPerSocket=4", 4, 1, 4, 1 },
		{ "NodeName=x CPUs=16 CoresPerSocket=4 ThreadsPerCore=2", 16, 2, 4, 2 },
		{ "NodeName=x Boards=2 SocketsPerBoard=2 CoresPerSocket=2", 8, 4, 2, 1 },
		{ "NodeName=x Procs=6", 6, 6, 1, 1 },
		{ "NodeName=DEFAULT CPUs=2\nNodeName=x Procs=6", 6, 6, 1, 1 },
		{ "NodeName=x CPUs=7 Sockets=2 CoresPerSocket=2", 4, 2, 2, 1 },
	};
	char err[512];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *text = xstrdup_printf("%s\n", cases[i].line);
		slurm_conf_t *c = load_text(text, err, sizeof(err));

		if (!c)
			fail_msg("%s: %s", cases[i].line, err);
		if (c->nodes[0].cpus != cases[i].cpus ||
		    c->nodes[0].sockets != cases[i].sockets ||
		    c->nodes[0].cores_per_socket != cases[i].cores ||
		    c->nodes[0].threads_per_core != cases[i].threads)
			fail_msg("%s: got cpus=%u sockets=%u cores=%u threads=%u",
				 cases[i].line, c->nodes[0].cpus,
				 c->nodes[0].sockets,
				 c->nodes[0].cores_per_socket,
				 c->nodes[0].threads_per_core);
		conf_destroy(c);
		xfree(text);
	}
}

/* Resumable jobs: a bad CheckpointType or a relative JobCheckpointDir
 * stops the load; the defaults are checkpoint/signal, 60 s and unset. */
static void test_checkpoint_keys(void **state)
{
	static const struct {
		const char *text;
		const char *want;
	} bad[] = {
		{ "CheckpointType=checkpoint/blcr\n",
		  "invalid CheckpointType \"checkpoint/blcr\": use "
		  "checkpoint/signal or checkpoint/criu" },
		{ "JobCheckpointDir=ckpt\n",
		  "JobCheckpointDir \"ckpt\" is not an absolute path" },
		{ "CheckpointWait=soon\n", "CheckpointWait" },
		{ "PartitionName=p Nodes=ALL PreemptMode=SNAPSHOT\n",
		  "PreemptMode" },
	};
	char err[512];
	slurm_conf_t *c;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		c = load_text(bad[i].text, err, sizeof(err));
		if (c)
			fail_msg("accepted: %s", bad[i].text);
		if (!strstr(err, bad[i].want))
			fail_msg("%s: got \"%s\", want \"%s\"", bad[i].text,
				 err, bad[i].want);
	}
	c = load_text("ClusterName=x\n", err, sizeof(err));
	if (!c)
		fail_msg("%s", err);
	assert_string_equal(c->checkpoint_type, "checkpoint/signal");
	assert_int_equal(c->checkpoint_wait, 60);
	assert_null(c->job_checkpoint_dir);
	conf_destroy(c);
	c = load_text("CheckpointType=checkpoint/criu\nCheckpointWait=5\n"
		      "JobCheckpointDir=/shared/ckpt\n"
		      "PartitionName=p Nodes=ALL PreemptMode=CHECKPOINT\n",
		      err, sizeof(err));
	if (!c)
		fail_msg("%s", err);
	assert_string_equal(c->checkpoint_type, "checkpoint/criu");
	assert_int_equal(c->checkpoint_wait, 5);
	assert_string_equal(c->job_checkpoint_dir, "/shared/ckpt");
	conf_destroy(c);
}

static void test_syntax(void **state)
{
	char err[512] = "";
	slurm_conf_t *c = load_text(
		"  clustername=\"my cluster\"   # trailing comment\n"
		"SLURMCTLDHOST=a \\\n"
		"  SlurmctldHost=b(10.9.9.9)\n"
		"\n"
		"# only a comment\n"
		"Prolog=/etc/prolog\\#1\n"
		"SelectTypeParameters=cr_core\n"
		"EnforcePartLimits=yes\n"
		"OverTimeLimit=unlimited\n"
		"SuspendTime=none\n"
		"SlurmdUser=0\n"
		"ControlMachine=old\n",
		err, sizeof(err));

	if (!c)
		fail_msg("%s", err);
	assert_string_equal(c->cluster_name, "my cluster");
	assert_int_equal(c->ctld_host_cnt, 2);
	assert_string_equal(c->ctld_hosts[1], "b");
	assert_string_equal(c->ctld_addrs[1], "10.9.9.9");
	assert_string_equal(c->prolog, "/etc/prolog#1");
	assert_string_equal(c->select_type_parameters, "CR_CORE");
	assert_string_equal(c->enforce_part_limits, "ALL");
	assert_int_equal(c->over_time_limit, INFINITE16);
	assert_string_equal(conf_get(c, "SlurmctldHost[0]"), "a");
	assert_string_equal(conf_get(c, "SlurmctldHost[1]"), "b(10.9.9.9)");
	assert_string_equal(conf_get(c, "SuspendTime"), "INFINITE");
	assert_string_equal(conf_get(c, "OverTimeLimit"), "UNLIMITED");
	assert_string_equal(conf_get(c, "EnforcePartLimits"), "ALL");
	assert_string_equal(conf_get(c, "SlurmdUser"), "root(0)");
	conf_destroy(c);

	/* localhost stands for this host's name. */
	c = load_text("SlurmctldHost=localhost\n", err, sizeof(err));
	if (!c)
		fail_msg("%s", err);
	assert_string_not_equal(c->ctld_hosts[0], "localhost");
	assert_string_equal(c->ctld_addrs[0], "localhost");
	conf_destroy(c);

	/* Old names when there is no SlurmctldHost. */
	c = load_text("ControlMachine=m1\nControlAddr=10.0.0.5\n"
		      "BackupController=m2\n", err, sizeof(err));
	if (!c)
		fail_msg("%s", err);
	assert_int_equal(c->ctld_host_cnt, 2);
	assert_string_equal(c->ctld_hosts[0], "m1");
	assert_string_equal(c->ctld_addrs[0], "10.0.0.5");
	assert_string_equal(c->ctld_addrs[1], "m2");
	conf_destroy(c);
}

static void test_times_and_memory(void **state)
{
	static const struct {
		const char *max_time;
		uint32_t minutes;
	} cases[] = {
		{ "UNLIMITED", INFINITE32 }, { "INFINITE", INFINITE32 },
		{ "60", 60 }, { "1:30:00", 90 }, { "2-00:00:00", 2880 },
		{ "1-12", 2160 }, { "0:30", 1 },
	};
	char err[512];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *text = xstrdup_printf("PartitionName=p MaxTime=%s "
					    "DefMemPerNode=4G MaxMemPerCPU=512\n",
					    cases[i].max_time);
		slurm_conf_t *c = load_text(text, err, sizeof(err));

		if (!c)
			fail_msg("%s: %s", text, err);
		if (c->parts[0].max_time != cases[i].minutes)
			fail_msg("MaxTime=%s gave %u", cases[i].max_time,
				 c->parts[0].max_time);
		assert_int_equal(c->parts[0].def_mem_per_node, 4096);
		assert_int_equal(c->parts[0].max_mem_per_cpu, 512);
		conf_destroy(c);
		xfree(text);
	}
}

static void test_partition_defaults_and_flags(void **state)
{
	char err[512] = "";
	slurm_conf_t *c = load_text(
		"NodeName=n[1-3]\n"
		"PartitionName=DEFAULT State=DOWN AllowGroups=ALL MaxNodes=2\n"
		"PartitionName=a Nodes=n1 Shared=YES RootOnly=yes LLN=YES\n"
		"PartitionName=DEFAULT MaxNodes=UNLIMITED\n"
		"PartitionName=b Nodes=\"n2 n3\" Priority=7 OverSubscribe=EXCLUSIVE"
		" AllowGroups=wheel,users DenyAccounts=Foo PreemptMode=suspend,gang\n",
		err, sizeof(err));
	const conf_part_t *p;

	if (!c)
		fail_msg("%s", err);
	p = conf_find_part(c, "a");
	assert_string_equal(p->state, "DOWN");
	assert_int_equal(p->max_nodes, 2);
	assert_string_equal(p->oversubscribe, "YES:4");
	assert_true(p->root_only);
	assert_true(p->lln);
	assert_null(p->allow_groups);
	p = conf_find_part(c, "b");
	assert_string_equal(p->state, "DOWN");
	assert_int_equal(p->max_nodes, INFINITE32);
	assert_int_equal(p->priority_tier, 7);
	assert_int_equal(p->priority_job_factor, 7);
	assert_string_equal(p->oversubscribe, "EXCLUSIVE");
	assert_string_equal(p->allow_groups, "wheel,users");
	assert_string_equal(p->deny_accounts, "foo");
	assert_string_equal(p->preempt_mode, "SUSPEND,GANG");
	assert_string_equal(p->nodes, "n2,n3");
	conf_destroy(c);
}

static void test_nodeset(void **state)
{
	char err[512] = "";
	slurm_conf_t *c = load_text(
		"NodeName=DEFAULT Features=cpu\n"
		"NodeName=n[1-2] Feature=gpu\nNodeName=n3\n"
		"NodeSet=gpus Feature=gpu\n"
		"NodeSet=rest Nodes=n3\n"
		"PartitionName=p Nodes=gpus,rest\n",
		err, sizeof(err));

	if (!c)
		fail_msg("%s", err);
	/* the controller gets node names; a node added later with Feature
	 * gpu joins (nodeset_features), not any node (nodes_all) */
	assert_string_equal(c->parts[0].nodes, "n[1-3]");
	assert_string_equal(c->parts[0].nodeset_features, "gpu");
	assert_false(c->parts[0].nodes_all);
	assert_string_equal(c->nodes[0].features, "gpu");
	assert_string_equal(c->nodes[2].features, "cpu");
	conf_destroy(c);

	c = load_text("NodeName=n1\nNodeSet=all Nodes=ALL\n"
		      "PartitionName=p Nodes=all\nPartitionName=q Nodes=ALL\n"
		      "PartitionName=r Nodes=n1\n", err, sizeof(err));
	if (!c)
		fail_msg("%s", err);
	assert_true(c->parts[0].nodes_all);
	assert_true(c->parts[1].nodes_all);
	assert_false(c->parts[2].nodes_all);
	assert_null(c->parts[2].nodeset_features);
	conf_destroy(c);
}

/* The kv list follows `scontrol show config` order and value formats. */
static void test_kv(void **state)
{
	static const char *const order[] = {
		"AccountingStorageBackupHost", "AccountingStorageEnforce",
		"AccountingStorageHost", "AccountingStorageExternalHost",
		"AccountingStorageParameters", "AccountingStoragePort",
		"AccountingStorageTRES", "AccountingStorageType",
	};
	static const struct {
		const char *key, *value;
	} want[] = {
		{ "AccountingStorageEnforce", "none" },
		{ "AccountingStoragePort", "0" },
		{ "AuthType", "auth/munge" },
		{ "BatchStartTimeout", "10 sec" },
		{ "ClusterName", "(null)" },
		{ "DefMemPerNode", "UNLIMITED" },
		{ "DisableRootJobs", "No" },
		{ "EnforcePartLimits", "NO" },
		{ "EpilogMsgTime", "2000 usec" },
		{ "FirstJobId", "1" },
		{ "HASH_VAL", "Match" },
		{ "JobRequeue", "1" },
		{ "KillWait", "30 sec" },
		{ "MaxDBDMsgs", "20004" },
		{ "MaxJobCount", "10000" },
		{ "MaxJobId", "67043328" },
		{ "MaxNodeCount", "1" },
		{ "MessageTimeout", "10 sec" },
		{ "MinJobAge", "300 sec" },
		{ "OverTimeLimit", "0 min" },
		{ "PreemptExemptTime", "00:00:00" },
		{ "PreemptMode", "OFF" },
		{ "PriorityType", "priority/basic" },
		{ "ResumeRate", "300 nodes/min" },
		{ "ReturnToService", "0" },
		{ "SelectType", "select/cons_tres" },
		{ "SlurmUser", "root(0)" },
		{ "SlurmctldDebug", "info" },
		{ "SlurmctldHost[0]", "ctl" },
		{ "SlurmctldPort", "6817" },
		{ "SlurmctldSyslogDebug", "(null)" },
		{ "SlurmdPort", "6818" },
		{ "SlurmdTimeout", "300 sec" },
		{ "SrunPortRange", "0-0" },
		{ "SuspendTime", "INFINITE" },
		{ "TaskPluginParam", "(null type)" },
		{ "TreeWidth", "50" },
		{ "UsePam", "No" },
		{ "VSizeFactor", "0 percent" },
		{ "slurmdtimeout", "300 sec" },
	};
	char *path = data_path("minimal.conf");
	char err[512] = "";
	slurm_conf_t *c = conf_load(path, err, sizeof(err));
	const conf_kv_t *kv;
	size_t kv_cnt, show_cnt;

	if (!c)
		fail_msg("%s", err);
	kv = conf_kv(c, &kv_cnt, &show_cnt);
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		assert_string_equal(kv[i].key, order[i]);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const char *v = conf_get(c, want[i].key);

		if (!v || strcmp(v, want[i].value))
			fail_msg("%s = \"%s\", want \"%s\"", want[i].key,
				 v ? v : "NULL", want[i].value);
	}
	assert_null(conf_get(c, "PriorityWeightAge"));
	assert_null(conf_get(c, "NoSuchKey"));
	assert_int_equal(show_cnt, kv_cnt);
	conf_destroy(c);
	xfree(path);
}

static void test_kv_full(void **state)
{
	static const struct {
		const char *key, *value;
	} want[] = {
		{ "ClusterName", "Test" },
		{ "SlurmctldHost[0]", "ctl1(10.0.0.1)" },
		{ "SlurmctldHost[1]", "ctl2" },
		{ "SlurmctldPort", "6817-6818" },
		{ "SlurmdDebug", "info" },
		{ "SlurmctldDebug", "debug2" },
		{ "DefMemPerCPU", "2048" },
		{ "MaxMemPerNode", "UNLIMITED" },
		{ "MaxJobCount", "100000" },
		{ "MaxDBDMsgs", "200028" },
		{ "MaxNodeCount", "7" },
		{ "PriorityWeightAge", "1000" },
		{ "PriorityDecayHalfLife", "7-00:00:00" },
		{ "PriorityCalcPeriod", "00:05:00" },
		{ "PriorityWeightFairShare", "0" },
		{ "AccountingStoragePass", "/run/munge/munge.socket.2" },
	};
	char *path = data_path("full.conf");
	char err[512] = "";
	slurm_conf_t *c = conf_load(path, err, sizeof(err));
	const conf_kv_t *kv;
	size_t kv_cnt, show_cnt;

	if (!c)
		fail_msg("%s", err);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const char *v = conf_get(c, want[i].key);

		if (!v || strcmp(v, want[i].value))
			fail_msg("%s = \"%s\", want \"%s\"", want[i].key,
				 v ? v : "NULL", want[i].value);
	}
	/* Hidden keys come after what scontrol prints. */
	kv = conf_kv(c, &kv_cnt, &show_cnt);
	assert_true(show_cnt < kv_cnt);
	for (size_t i = 0; i < show_cnt; i++)
		assert_string_not_equal(kv[i].key, "AccountingStoragePass");
	conf_destroy(c);
	xfree(path);
}

/* The reference cluster's `scontrol show config`, key by key and in order
 * (less the controller's runtime keys). */
static void test_kv_matches_oracle(void **state)
{
	char *path = data_path("oracle.conf");
	char *want = data_path("oracle_show_config.txt");
	char err[512] = "", line[1024];
	slurm_conf_t *c = conf_load(path, err, sizeof(err));
	FILE *fp = fopen(want, "r");
	const conf_kv_t *kv;
	size_t i = 0, kv_cnt, show_cnt;

	if (!c)
		fail_msg("%s", err);
	kv = conf_kv(c, &kv_cnt, &show_cnt);
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp)) {
		char *eq = strstr(line, " = "), *key, *val;

		assert_non_null(eq);
		line[strcspn(line, "\n")] = '\0';
		key = xstrndup(line, strcspn(line, " "));
		val = eq + 3;
		if (i >= show_cnt)
			fail_msg("missing %s", key);
		if (strcmp(kv[i].key, key) || strcmp(kv[i].value, val))
			fail_msg("line %zu: got %s = \"%s\", want %s = \"%s\"",
				 i + 1, kv[i].key, kv[i].value, key, val);
		xfree(key);
		i++;
	}
	fclose(fp);
	assert_int_equal(i, show_cnt);
	assert_int_equal(c->node_cnt, 4);
	assert_int_equal(c->nodes[3].port, 26825);
	assert_string_equal(c->nodes[3].addr, "127.0.0.1");
	assert_string_equal(c->nodes[3].hostname, "vm");
	conf_destroy(c);
	xfree(path);
	xfree(want);
}

static void test_slurm_conf_env(void **state)
{
	char *path = data_path("minimal.conf");
	char err[512] = "";
	slurm_conf_t *c;

	setenv("SLURM_CONF", path, 1);
	assert_string_equal(conf_default_path(), path);
	c = conf_load(NULL, err, sizeof(err));
	if (!c)
		fail_msg("%s", err);
	assert_string_equal(c->path, path);
	assert_int_equal(c->node_cnt, 1);
	conf_destroy(c);
	unsetenv("SLURM_CONF");
	assert_string_not_equal(conf_default_path(), path);
	xfree(path);
}

static void test_paths(void **state)
{
	char host[256], *s, *dot;
	slurm_conf_t c = { .path = "/etc/slurm/slurm.conf" };

	gethostname(host, sizeof(host));
	if ((dot = strchr(host, '.')))
		*dot = '\0';
	s = conf_expand_node_path("/var/spool/%n/x%%y", "n7");
	assert_string_equal(s, "/var/spool/n7/x%y");
	xfree(s);
	s = conf_expand_node_path("/log/%h.log", "n7");
	assert_non_null(strstr(s, host));
	xfree(s);
	s = conf_expand_node_path("/plain", "n7");
	assert_string_equal(s, "/plain");
	xfree(s);
	s = conf_sibling_path(&c, "gres.conf");
	assert_string_equal(s, "/etc/slurm/gres.conf");
	xfree(s);
}

/* etc/slurm.conf.example loads (with a SlurmUser that exists here). */
static void test_example(void **state)
{
	char *src = data_path("../../../../etc/slurm.conf.example");
	char *text = NULL, *at, *path, line[1024], err[512] = "";
	FILE *fp = fopen(src, "r");
	slurm_conf_t *c;

	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp))
		xstrcat(&text, line);
	fclose(fp);
	at = strstr(text, "SlurmUser=slurm\n");
	assert_non_null(at);
	memcpy(at, "SlurmUser=root \n", 16);
	path = write_conf("example.conf", text);
	c = conf_load(path, err, sizeof(err));
	if (!c)
		fail_msg("%s", err);
	assert_int_equal(c->node_cnt, 8);
	assert_int_equal(c->part_cnt, 3);
	assert_int_equal(c->ctld_host_cnt, 2);
	assert_int_equal(conf_find_node(c, "gpu02")->real_memory, 512000);
	assert_string_equal(conf_find_part(c, "debug")->nodes,
			    "cn[01-06],gpu[01-02]");
	conf_destroy(c);
	xfree(path);
	xfree(text);
	xfree(src);
}

static int setup(void **state)
{
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char *cmd = xstrdup_printf("rm -rf '%s'", tmpdir);
	int rc = system(cmd);

	xfree(cmd);
	return rc == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_unknown_key_names_file_line),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_include_missing),
		cmocka_unit_test(test_include_loop),
		cmocka_unit_test(test_include_nested),
		cmocka_unit_test(test_unchanged),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_topology),
		cmocka_unit_test(test_syntax),
		cmocka_unit_test(test_times_and_memory),
		cmocka_unit_test(test_partition_defaults_and_flags),
		cmocka_unit_test(test_nodeset),
		cmocka_unit_test(test_kv),
		cmocka_unit_test(test_kv_full),
		cmocka_unit_test(test_kv_matches_oracle),
		cmocka_unit_test(test_slurm_conf_env),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_example),
		cmocka_unit_test(test_checkpoint_keys),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
