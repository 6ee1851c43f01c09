/* fuzz_step_io.c — what a node or srun receives about a step from
 * outside: the hex step credential payload (step_cred_decode; its
 * signature is checked by MUNGE, not fuzzed) and the srun <-> slurmstepd
 * frame headers (io_frame_get).  A decoded credential must re-encode to
 * the same text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/io_frame.h"
#include "common/step_cred.h"
#include "common/xmalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xmalloc(size + 1);
	step_cred_t *c;
	io_frame_t f;

	if (size >= IO_FRAME_HDR && io_frame_get(data, &f) == 0) {
		uint8_t back[IO_FRAME_HDR];

		io_frame_put(back, &f);
		if (memcmp(back, data, IO_FRAME_HDR))
			abort();
	}
	memcpy(text, data, size);
	text[size] = '\0';
	if ((c = step_cred_decode(text))) {
		char *again = step_cred_encode(c);

		if (strcmp(again, text))
			abort();
		xfree(again);
		step_cred_free(c);
	}
	xfree(text);
	return 0;
}
