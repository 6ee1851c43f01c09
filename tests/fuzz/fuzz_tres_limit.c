/* fuzz_tres_limit.c — sacctmgr's TRES limit strings (GrpTRES=...) as
 * slurmdbd canonicalizes them and the controller reads them back, and
 * AccountingStorageEnforce values. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/conf_params.h"
#include "common/tres_limit.h"
#include "common/xmalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = xmalloc(size + 1), *canon, err[256];
	uint64_t v[3];
	uint32_t flags;

	memcpy(s, data, size);
	canon = tres_limit_canon(s, err, sizeof(err));
	if (canon) {
		char *again = tres_limit_canon(canon, err, sizeof(err));

		/* the canonical form is a fixed point */
		if (!again || strcmp(again, canon))
			__builtin_trap();
		tres_limit_get(canon, v);
		xfree(again);
	}
	tres_limit_get(s, v);
	conf_parse_acct_enforce(s, &flags, err, sizeof(err));
	xfree(canon);
	xfree(s);
	return 0;
}
