/* fuzz_cli_defaults.c — libFuzzer harness for cli_filter/user_defaults'
 * line parser (~/.slurm/defaults is the user's text): any line must be
 * taken, skipped or refused cleanly, and what it returns must point into
 * the line.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../../src/cli/cli_filter_user_defaults.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = xmalloc(size + 1), *key = NULL, *value = NULL;
	char err[256];
	int rc;

	memcpy(line, data, size);
	line[size] = '\0';
	rc = cli_filter_defaults_line(line, "sbatch", "c1", &key, &value, err,
				      sizeof(err));
	if (rc == 1 && (key < line || key > line + size || value < line ||
			value > line + size || !*key))
		__builtin_trap();
	xfree(line);
	return 0;
}
