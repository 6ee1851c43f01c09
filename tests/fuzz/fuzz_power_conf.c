/* fuzz_power_conf.c — libFuzzer harness for the power saving keys
 * (src/ctld/power_conf.c: SuspendExcNodes groups with ":N" counts,
 * SuspendExcParts, SuspendExcStates, SlurmctldParameters power words).
 * Each input is appended to a small slurm.conf (nodes and partitions the
 * exclusions may name), loaded, and handed to power_conf_parse. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/conf.h"
#include "../../src/ctld/power_conf.c"

static char dir[] = "/tmp/fuzz_power_conf.XXXXXX";
static char path[sizeof(dir) + 16];

static const char base[] =
	"ClusterName=f\nSlurmctldHost=localhost\n"
	"SuspendProgram=/bin/true\nResumeProgram=/bin/true\n"
	"NodeName=n[1-8] CPUs=1\nNodeName=c[1-4] CPUs=1 State=CLOUD\n"
	"PartitionName=p1 Nodes=n[1-8] Default=YES\n"
	"PartitionName=p2 Nodes=c[1-4]\n";

static void fuzz_cleanup(void)
{
	unlink(path);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void) argc;
	(void) argv;
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/slurm.conf", dir);
	atexit(fuzz_cleanup);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512] = "";
	slurm_conf_t *c;
	power_conf_t pc;
	FILE *fp = fopen(path, "w");

	if (!fp)
		abort();
	fputs(base, fp);
	if (size && fwrite(data, 1, size, fp) != size)
		abort();
	fclose(fp);
	if (!(c = conf_load(path, err, sizeof(err))))
		return 0;
	err[0] = '\0';
	if (power_conf_parse(c, &pc, err, sizeof(err)) == 0) {
		for (size_t i = 0; i < pc.exc_cnt; i++)
			if (!pc.exc[i].nodes)
				abort();
		power_conf_free(&pc);
	} else if (!err[0]) {
		abort();   /* a refusal always says why */
	}
	conf_destroy(c);
	return 0;
}
