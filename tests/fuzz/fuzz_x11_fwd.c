/* fuzz_x11_fwd.c — what srun and slurmstepd parse for --x11 from the
 * outside: a DISPLAY value, a cookie (from xauth or a launch), a --x11
 * word; and slurm.conf's BcastParameters, which sbcast and srun parse.
 * The first byte picks which. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/bcast_block.h"
#include "common/x11_fwd.h"
#include "common/xmalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s, *host = NULL, err[256];
	int num, screen;
	bcast_params_t p;

	if (!size)
		return 0;
	s = xmalloc(size);
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	switch (data[0] % 4) {
	case 0:
		if (x11_display_parse(s, &host, &num, &screen) == 0 &&
		    (num < 0 || screen < 0 || screen > 255))
			abort();
		xfree(host);
		break;
	case 1:
		(void) x11_cookie_valid(s);
		break;
	case 2:
		(void) x11_flags_name(x11_flags_parse(s));
		break;
	default:
		(void) bcast_params_parse(s, &p, err, sizeof(err));
		bcast_params_free(&p);
		break;
	}
	xfree(s);
	return 0;
}
