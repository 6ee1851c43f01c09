/* fuzz_fairshare_state.c — arbitrary bytes as the controller's saved
 * fair-share usage (StateSaveLocation/fairshare_state): each line through
 * the loader, then the usage it produced through the decay and the
 * saver's formatting. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CTLD_WORLD_REAL_FAIRSHARE
#include "../unit/ctld_world.h"
#include "../../src/ctld/fairshare.c"
#include "../../src/ctld/fairtree.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *save = NULL, *line;

	memcpy(text, data, size);
	text[size] = '\0';
	fs.half_life = 3600;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		load_line(line);
	for (size_t i = 0; i < fs.nu; i++)
		(void)decayed(&fs.u[i], fs.u[i].ts + 60);
	xfree(fs.u);
	xfree(fs.ended);
	memset(&fs, 0, sizeof(fs));
	free(text);
	return 0;
}
