/* container_spank.c — a container plugin in the shape of NVIDIA's pyxis,
 * built against <slurm/spank.h> only: it shows the hook points such a
 * plugin uses, with a directory standing in for the container runtime.
 *
 *   --container-image=NAME   (srun, salloc, sbatch; letters, digits and
 *                            ._:/- only, checked where the option is
 *                            given: a bad name stops the command)
 *   --container-mounts=SRC:DST[,...]
 *
 * init           registers the options in every context
 * init_post_opt  allocator/local: checks the image name (-1: refused)
 * user_init      remote, as the user, once per step on each node: "imports"
 *                the image into ROOT/<job>.<step>.<node> (a directory with an
 *                "image" file) — where pyxis runs enroot create
 * task_init      remote, in each task: "enters" it: PYXIS_ROOT, PYXIS_IMAGE,
 *                PYXIS_MOUNTS in the task's environment and the task's
 *                working directory inside it — where pyxis setns()es
 * exit           remote: removes the directory again
 *
 * plugstack.conf argument: root=DIR (where containers are made; default
 * /tmp).  Each remote hook logs "container_spank: <hook> ..." to the
 * node's log.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <slurm/spank.h>

SPANK_PLUGIN(container_spank, 1)

static char image[256];
static char mounts[1024];
static char root[512] = "/tmp";
static char dir[768];

static int image_cb(int val, const char *optarg, int remote)
{
	(void)val;
	(void)remote;
	if (!optarg || !*optarg || strlen(optarg) >= sizeof(image))
		return -1;
	snprintf(image, sizeof(image), "%s", optarg);
	return 0;
}

static int mounts_cb(int val, const char *optarg, int remote)
{
	(void)val;
	(void)remote;
	if (!optarg || !strchr(optarg, ':') || strlen(optarg) >= sizeof(mounts))
		return -1;
	snprintf(mounts, sizeof(mounts), "%s", optarg);
	return 0;
}

static struct spank_option opts[] = {
	{ "container-image", "NAME", "[container_spank] the image to run "
	  "the step in", 1, 0, image_cb },
	{ "container-mounts", "SRC:DST[,...]", "[container_spank] bind "
	  "mounts into the container", 1, 1, mounts_cb },
	SPANK_OPTIONS_TABLE_END
};

static int image_ok(const char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._:/-", *s))
			return 0;
	return 1;
}

int slurm_spank_init(spank_t sp, int ac, char **av)
{
	for (int i = 0; i < ac; i++)
		if (!strncmp(av[i], "root=", 5))
			snprintf(root, sizeof(root), "%s", av[i] + 5);
	for (struct spank_option *o = opts; o->name; o++)
		if (spank_option_register(sp, o) != ESPANK_SUCCESS)
			return -1;
	return 0;
}

int slurm_spank_init_post_opt(spank_t sp, int ac, char **av)
{
	(void)ac;
	(void)av;
	if (!image[0] || spank_remote(sp))
		return 0;
	if (!image_ok(image)) {
		slurm_error("container_spank: invalid image name \"%s\"", image);
		return -1;
	}
	return 0;
}

int slurm_spank_user_init(spank_t sp, int ac, char **av)
{
	uint32_t job = 0, step = 0, node = 0;
	char path[900];
	FILE *f;

	(void)ac;
	(void)av;
	if (!image[0])
		return 0;
	spank_get_item(sp, S_JOB_ID, &job);
	spank_get_item(sp, S_JOB_STEPID, &step);
	spank_get_item(sp, S_JOB_NODEID, &node);
	/* the node's own storage (ROOT may be shared by the test's nodes) */
	snprintf(dir, sizeof(dir), "%s/%u.%u.%u", root, job, step, node);
	if (mkdir(dir, 0700) < 0) {
		slurm_error("container_spank: cannot create %s", dir);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/image", dir);
	f = fopen(path, "w");
	if (!f) {
		slurm_error("container_spank: cannot write %s", path);
		return -1;
	}
	fprintf(f, "%s\n", image);
	fclose(f);
	slurm_info("container_spank: user_init job=%u step=%u uid=%u "
		   "image=%s", job, step, (unsigned)geteuid(), image);
	return 0;
}

int slurm_spank_task_init(spank_t sp, int ac, char **av)
{
	uint32_t rank = 0;

	(void)ac;
	(void)av;
	if (!image[0])
		return 0;
	spank_get_item(sp, S_TASK_GLOBAL_ID, &rank);
	if (spank_setenv(sp, "PYXIS_ROOT", dir, 1) != ESPANK_SUCCESS ||
	    spank_setenv(sp, "PYXIS_IMAGE", image, 1) != ESPANK_SUCCESS ||
	    (mounts[0] &&
	     spank_setenv(sp, "PYXIS_MOUNTS", mounts, 1) != ESPANK_SUCCESS))
		return -1;
	if (chdir(dir) < 0)
		return -1;
	slurm_info("container_spank: task_init rank=%u in %s", rank, dir);
	return 0;
}

int slurm_spank_exit(spank_t sp, int ac, char **av)
{
	char path[900];

	(void)ac;
	(void)av;
	if (!spank_remote(sp) || !dir[0])
		return 0;
	snprintf(path, sizeof(path), "%s/image", dir);
	unlink(path);
	if (rmdir(dir) == 0)
		slurm_info("container_spank: exit removed %s", dir);
	return 0;
}
