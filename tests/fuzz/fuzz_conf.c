/* fuzz_conf.c — libFuzzer harness for the slurm.conf parser: each input is
 * written to a private temp file and loaded, then the result is freed. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/conf.h"

static char dir[] = "/tmp/fuzz_conf.XXXXXX";
static char path[sizeof(dir) + 16];

static void fuzz_conf_cleanup(void)
{
	unlink(path);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/slurm.conf", dir);
	atexit(fuzz_conf_cleanup);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	slurm_conf_t *c;
	FILE *fp = fopen(path, "w");

	if (!fp)
		abort();
	if (size && fwrite(data, 1, size, fp) != size)
		abort();
	fclose(fp);
	c = conf_load(path, err, sizeof(err));
	if (c) {
		/* Walk what callers walk. */
		for (size_t i = 0; i < c->node_cnt; i++)
			(void)conf_find_node(c, c->nodes[i].name);
		for (size_t i = 0; i < c->part_cnt; i++)
			(void)conf_find_part(c, c->parts[i].name);
		(void)conf_get(c, "SlurmctldPort");
		conf_destroy(c);
	} else if (!err[0]) {
		abort();   /* a failed load always says why */
	}
	return 0;
}
