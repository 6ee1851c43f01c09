/* fuzz_conf_params.c — libFuzzer harness for the list-valued slurm.conf
 * values: PrivateData, PrologFlags, SlurmctldParameters' rl_* keys,
 * RequeueExit and PropagateResourceLimits. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/conf_params.h"
#include "common/rlimits.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	char err[256];
	uint32_t bits;
	rl_conf_t rl;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	err[0] = '\0';
	if (conf_parse_private_data(s, &bits, err, sizeof(err)) < 0 && !err[0])
		abort();               /* a refusal always says why */
	err[0] = '\0';
	if (conf_parse_prolog_flags(s, &bits, err, sizeof(err)) < 0 && !err[0])
		abort();
	if (conf_parse_prolog_flags(s, &bits, err, sizeof(err)) == 0 &&
	    (bits & PROLOG_FLAG_CONTAIN) && !(bits & PROLOG_FLAG_ALLOC))
		abort();               /* Contain implies Alloc */
	err[0] = '\0';
	if (conf_parse_rl(s, &rl, err, sizeof(err)) < 0 && !err[0])
		abort();
	if (conf_parse_rl(s, &rl, err, sizeof(err)) == 0 &&
	    (!rl.bucket_size || !rl.refill_period || !rl.table_size))
		abort();               /* accepted values are usable */
	err[0] = '\0';
	{
		uint8_t codes[32];
		unsigned mask;

		if (conf_parse_exit_list("RequeueExit", s, codes, err,
					 sizeof(err)) < 0 && !err[0])
			abort();
		err[0] = '\0';
		if (rlimits_parse("PropagateResourceLimits", s, &mask, err,
				  sizeof(err)) < 0 && !err[0])
			abort();
		if (rlimits_parse("PropagateResourceLimits", s, &mask, err,
				  sizeof(err)) == 0 &&
		    (mask >> RLIMITS_CNT))
			abort();
	}
	free(s);
	return 0;
}
