/* fuzz_dbd_conf.c — libFuzzer harness for the slurmdbd.conf parser: each
 * input is written to a private temp file and loaded, then freed.  The
 * parser is built into slurmdbd only, so it is compiled in here. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dbd/dbd_conf.c"

static char dir[] = "/tmp/fuzz_dbd_conf.XXXXXX";
static char path[sizeof(dir) + 16];

static void fuzz_dbd_conf_cleanup(void)
{
	unlink(path);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/slurmdbd.conf", dir);
	atexit(fuzz_dbd_conf_cleanup);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	dbd_conf_t *c;
	FILE *fp = fopen(path, "w");

	if (!fp)
		abort();
	if (size && fwrite(data, 1, size, fp) != size)
		abort();
	fclose(fp);
	c = dbd_conf_load(path, err, sizeof(err));
	dbd_conf_destroy(c);
	return 0;
}
