/* demo_spank.c — the test suite's SPANK plugin.
 *
 * Registers --demo-opt=ARG and shows every callback at work:
 *   allocator  the value goes to the job as a job-control variable
 *              (SLURM_SPANK_DEMO_JC) as well as the option itself;
 *   remote     user_init sets DEMO_SPANK_USER_INIT in the job env,
 *              task_init_privileged records its euid, task_init sets
 *              DEMO_SPANK_OPT (the option's value), DEMO_SPANK_ITEMS (the
 *              items it could read) and, with the "prepend" argument,
 *              prepends "/usr/bin/env DEMO_SPANK_WRAPPED=1" to the task.
 * local      (srun) local_user_init logs the job items it may read.
 * Each callback logs "demo_spank: <callback> ...": with slurm_info in
 * slurmstepd (the node's log), slurm_verbose in commands (sbatch -v).
 *
 * plugstack.conf arguments: "fail_init" (init returns -1),
 * "fail_remote_init" (only in slurmstepd), "prepend",
 * "prepend_path" (the wrapper as "env", found in the job's PATH),
 * "fail_task_init" (task_init returns -1), "fail_job_prolog".
 * job_prolog and job_epilog log the job id, uid and SPANK_DEMO_JC (the
 * job-control variable set in sbatch, as the Prolog environment has it).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <slurm/spank.h>

SPANK_PLUGIN(demo_spank, 1)

#define LOG(...)                                                \
	do {                                                    \
		if (spank_context() == S_CTX_REMOTE ||          \
		    spank_context() == S_CTX_JOB_SCRIPT)        \
			slurm_info(__VA_ARGS__);                \
		else                                            \
			slurm_verbose(__VA_ARGS__);             \
	} while (0)

static char opt_value[256];
static int opt_seen;
static int opt_remote;

static int has_arg(int ac, char **av, const char *word)
{
	for (int i = 0; i < ac; i++)
		if (!strcmp(av[i], word))
			return 1;
	return 0;
}

static int demo_opt_cb(int val, const char *optarg, int remote)
{
	if (optarg && !strcmp(optarg, "fail"))
		return -1;
	snprintf(opt_value, sizeof(opt_value), "%s", optarg ? optarg : "");
	opt_seen = 1;
	opt_remote = remote;
	return 0;
}

static struct spank_option demo_opt = {
	"demo-opt", "ARG", "Demo option handled by demo_spank (test plugin)",
	1, 7, demo_opt_cb,
};

int slurm_spank_init(spank_t sp, int ac, char **av)
{
	spank_err_t rc;

	LOG("demo_spank: init ctx=%d remote=%d", (int)spank_context(),
		   spank_remote(sp));
	if (has_arg(ac, av, "fail_init") ||
	    (spank_remote(sp) && has_arg(ac, av, "fail_remote_init"))) {
		slurm_error("demo_spank: failing init as asked");
		return -1;
	}
	rc = spank_option_register(sp, &demo_opt);
	if (rc != ESPANK_SUCCESS) {
		slurm_error("demo_spank: register: %s", spank_strerror(rc));
		return -1;
	}
	return 0;
}

int slurm_spank_init_post_opt(spank_t sp, int ac, char **av)
{
	char *arg = NULL;
	int got = spank_option_getopt(sp, &demo_opt, &arg) == ESPANK_SUCCESS;

	LOG("demo_spank: init_post_opt ctx=%d opt=%s getopt=%d",
		   (int)spank_context(), opt_seen ? opt_value : "(none)", got);
	if (opt_seen && spank_context() == S_CTX_ALLOCATOR)
		spank_job_control_setenv(sp, "DEMO_JC", opt_value, 1);
	return 0;
}

/* srun, once its step exists: the job items the local context has */
int slurm_spank_local_user_init(spank_t sp, int ac, char **av)
{
	uint32_t job = 0, step = 0, nn = 0, ttc = 0, nid = 0;
	int argc = 0;
	char **argv = NULL;
	spank_err_t remote_only;

	spank_get_item(sp, S_JOB_ID, &job);
	spank_get_item(sp, S_JOB_STEPID, &step);
	spank_get_item(sp, S_JOB_NNODES, &nn);
	spank_get_item(sp, S_JOB_TOTAL_TASK_COUNT, &ttc);
	spank_get_item(sp, S_JOB_ARGV, &argc, &argv);
	remote_only = spank_get_item(sp, S_JOB_NODEID, &nid);
	LOG("demo_spank: local_user_init job=%u step=%u nnodes=%u ttasks=%u "
	    "argv0=%s nodeid=%s opt=%s", job, step, nn, ttc,
	    argc > 0 ? argv[0] : "?",
	    remote_only == ESPANK_NOT_REMOTE ? "not_remote" : "?",
	    opt_seen ? opt_value : "(none)");
	return 0;
}

int slurm_spank_user_init(spank_t sp, int ac, char **av)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%u", (unsigned)geteuid());
	LOG("demo_spank: user_init euid=%s", buf);
	spank_setenv(sp, "DEMO_SPANK_USER_INIT", buf, 1);
	return 0;
}

int slurm_spank_task_init_privileged(spank_t sp, int ac, char **av)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%u", (unsigned)geteuid());
	LOG("demo_spank: task_init_privileged euid=%s", buf);
	spank_setenv(sp, "DEMO_SPANK_PRIV_EUID", buf, 1);
	return 0;
}

/* "uid=.. gid=.. job=.. step=.. nnodes=.. nodeid=.. ..." */
static void items(spank_t sp, char *buf, size_t len)
{
	uid_t uid = 0;
	gid_t gid = 0;
	uint32_t job = 0, step = 0, nn = 0, nid = 0, ltc = 0, ttc = 0;
	uint32_t gtid = 0, restart = 0, arr = 0, arrt = 0;
	uint16_t ncpus = 0;
	uint32_t cpt = 0, p2g = 0, p2l = 0, l2g = 0, g2l = 0, l2g_bad = 0;
	uint64_t mem = 0, smem = 0;
	int argc = 0, tid = -1, ngids = 0, gid_in = 0, nolocal;
	char **argv = NULL, **env = NULL, *ver = NULL;
	char *jcores = NULL, *scores = NULL, *vmaj = NULL, *vmin = NULL;
	char *vmic = NULL;
	gid_t *gids = NULL;
	pid_t pid = 0;

	spank_get_item(sp, S_JOB_UID, &uid);
	spank_get_item(sp, S_JOB_GID, &gid);
	spank_get_item(sp, S_JOB_ID, &job);
	spank_get_item(sp, S_JOB_STEPID, &step);
	spank_get_item(sp, S_JOB_NNODES, &nn);
	spank_get_item(sp, S_JOB_NODEID, &nid);
	spank_get_item(sp, S_JOB_LOCAL_TASK_COUNT, &ltc);
	spank_get_item(sp, S_JOB_TOTAL_TASK_COUNT, &ttc);
	spank_get_item(sp, S_JOB_NCPUS, &ncpus);
	spank_get_item(sp, S_JOB_ARGV, &argc, &argv);
	spank_get_item(sp, S_JOB_ENV, &env);
	spank_get_item(sp, S_TASK_ID, &tid);
	spank_get_item(sp, S_TASK_GLOBAL_ID, &gtid);
	spank_get_item(sp, S_TASK_PID, &pid);
	spank_get_item(sp, S_SLURM_VERSION, &ver);
	spank_get_item(sp, S_SLURM_RESTART_COUNT, &restart);
	spank_get_item(sp, S_JOB_ARRAY_ID, &arr);
	spank_get_item(sp, S_JOB_ARRAY_TASK_ID, &arrt);
	spank_get_item(sp, S_JOB_ALLOC_MEM, &mem);
	spank_get_item(sp, S_STEP_ALLOC_MEM, &smem);
	spank_get_item(sp, S_JOB_ALLOC_CORES, &jcores);
	spank_get_item(sp, S_STEP_ALLOC_CORES, &scores);
	spank_get_item(sp, S_STEP_CPUS_PER_TASK, &cpt);
	spank_get_item(sp, S_SLURM_VERSION_MAJOR, &vmaj);
	spank_get_item(sp, S_SLURM_VERSION_MINOR, &vmin);
	spank_get_item(sp, S_SLURM_VERSION_MICRO, &vmic);
	if (spank_get_item(sp, S_JOB_SUPPLEMENTARY_GIDS, &gids, &ngids))
		ngids = -1;
	for (int i = 0; i < ngids; i++)
		if (gids[i] == gid)
			gid_in = 1;
	if (spank_get_item(sp, S_JOB_PID_TO_GLOBAL_ID, getpid(), &p2g))
		p2g = UINT32_MAX;
	if (spank_get_item(sp, S_JOB_PID_TO_LOCAL_ID, getpid(), &p2l))
		p2l = UINT32_MAX;
	if (spank_get_item(sp, S_JOB_LOCAL_TO_GLOBAL_ID, (uint32_t)tid, &l2g))
		l2g = UINT32_MAX;
	if (spank_get_item(sp, S_JOB_GLOBAL_TO_LOCAL_ID, gtid, &g2l))
		g2l = UINT32_MAX;
	/* a task id not on this node has no local id */
	nolocal = spank_get_item(sp, S_JOB_LOCAL_TO_GLOBAL_ID, ltc, &l2g_bad)
		  == ESPANK_NOEXIST;
	snprintf(buf, len, "uid=%u gid=%u job=%u step=0x%x nnodes=%u "
		 "nodeid=%u ltasks=%u ttasks=%u ncpus=%u argc=%d env=%s "
		 "task=%d gtask=%u pid=%s version=%s restart=%u array=%u "
		 "arraytask=%u mem=%llu stepmem=%llu jobcores=%s stepcores=%s "
		 "cpt=%u major=%s minor=%s micro=%s ngids=%d gidin=%d "
		 "pid2g=%d pid2l=%d l2g=%d g2l=%d l2gpast=%s",
		 (unsigned)uid, (unsigned)gid, job,
		 step, nn, nid, ltc, ttc, ncpus, argc, env ? "yes" : "no", tid,
		 gtid, pid == getpid() ? "self" : "other", ver ? ver : "?",
		 restart, arr, arrt, (unsigned long long)mem,
		 (unsigned long long)smem, jcores ? jcores : "none",
		 scores ? scores : "none", cpt, vmaj ? vmaj : "?",
		 vmin ? vmin : "?", vmic ? vmic : "?", ngids, gid_in,
		 (int)p2g, (int)p2l, (int)l2g, (int)g2l,
		 nolocal ? "noexist" : "found");
}

int slurm_spank_task_init(spank_t sp, int ac, char **av)
{
	static const char *wrap[] = { "/usr/bin/env", "DEMO_SPANK_WRAPPED=1" };
	static const char *path_wrap[] = { "env", "DEMO_SPANK_WRAPPED=path" };
	char buf[1024];

	LOG("demo_spank: task_init euid=%u", (unsigned)geteuid());
	if (has_arg(ac, av, "fail_task_init"))
		return -1;
	if (opt_seen) {
		spank_setenv(sp, "DEMO_SPANK_OPT", opt_value, 1);
		spank_setenv(sp, "DEMO_SPANK_OPT_REMOTE",
			     opt_remote ? "1" : "0", 1);
	}
	items(sp, buf, sizeof(buf));
	spank_setenv(sp, "DEMO_SPANK_ITEMS", buf, 1);
	if (spank_setenv(sp, "DEMO_SPANK_ITEMS", "x", 0) == ESPANK_ENV_EXISTS)
		spank_setenv(sp, "DEMO_SPANK_NO_OVERWRITE", "ok", 1);
	if (has_arg(ac, av, "prepend"))
		spank_prepend_task_argv(sp, 2, wrap);
	if (has_arg(ac, av, "prepend_path"))
		spank_prepend_task_argv(sp, 2, path_wrap);
	return 0;
}

int slurm_spank_task_post_fork(spank_t sp, int ac, char **av)
{
	pid_t pid = 0;

	spank_get_item(sp, S_TASK_PID, &pid);
	LOG("demo_spank: task_post_fork pid=%d", (int)pid);
	return 0;
}

int slurm_spank_task_exit(spank_t sp, int ac, char **av)
{
	int status = -1;

	spank_get_item(sp, S_TASK_EXIT_STATUS, &status);
	LOG("demo_spank: task_exit status=%d", status);
	return 0;
}

int slurm_spank_exit(spank_t sp, int ac, char **av)
{
	LOG("demo_spank: exit ctx=%d", (int)spank_context());
	return 0;
}

int slurm_spank_slurmd_exit(spank_t sp, int ac, char **av)
{
	LOG("demo_spank: slurmd_exit ctx=%d", (int)spank_context());
	return 0;
}

static int job_script(spank_t sp, const char *what)
{
	uint32_t job = 0;
	uid_t uid = 0;
	const char *jc = getenv("SPANK_DEMO_JC");

	spank_get_item(sp, S_JOB_ID, &job);
	spank_get_item(sp, S_JOB_UID, &uid);
	LOG("demo_spank: %s ctx=%d job=%u uid=%u jc=%s", what,
	    (int)spank_context(), job, (unsigned)uid, jc ? jc : "(none)");
	return 0;
}

int slurm_spank_job_prolog(spank_t sp, int ac, char **av)
{
	job_script(sp, "job_prolog");
	return has_arg(ac, av, "fail_job_prolog") ? -1 : 0;
}

int slurm_spank_job_epilog(spank_t sp, int ac, char **av)
{
	return job_script(sp, "job_epilog");
}
