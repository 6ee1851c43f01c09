/* fuzz_step_gres.c — arbitrary text as a step's GRES request (srun's
 * tres_per_step, tres_per_node and tres_per_task, split at newlines):
 * either ESLURM_INVALID_GRES with nothing kept, or a request whose
 * GPUs, when picked on a synthetic 2-node job, are the job's free ones
 * of the asked count, and whose non-GPU part is the job's or an error.
 *
 * Build: CC=clang cmake -DSLUICE_FUZZ=ON ...
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/ctld/step_gres.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s, *part[3] = { NULL, NULL, NULL }, *p, *o;
	step_gres_req_t q;
	uint16_t tasks[2] = { 1, 2 };
	uint64_t job[2] = { 0x0f, 0xf0 }, typed[2] = { UINT64_MAX, 0x30 };
	uint64_t busy[2] = { 0x01, 0x10 }, out[2];
	int rc;

	if (size > 4096)
		return 0;
	s = xmalloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';
	p = s;
	for (int k = 0; k < 3 && p; k++) {
		part[k] = p;
		if ((p = strchr(p, '\n')))
			*p++ = '\0';
	}
	rc = step_gres_parse(part[0], part[1], part[2], &q);
	if (rc) {
		if (rc != ESLURM_INVALID_GRES || q.type || q.other ||
		    q.mode != STEP_GRES_ALL)
			abort();
		xfree(s);
		return 0;
	}
	if (q.per_node > 64 || q.per_task > 64 || q.per_step > 64)
		abort();
	if (q.mode == STEP_GRES_ASK) {
		rc = step_gres_pick(&q, 2, tasks, job, typed, busy, out);
		if (rc && rc != ESLURM_INVALID_GRES && rc != ESLURM_NODES_BUSY)
			abort();
		for (int i = 0; !rc && i < 2; i++) {
			uint32_t want = q.per_node;

			if (tasks[i] * q.per_task > want)
				want = tasks[i] * q.per_task;
			if ((out[i] & ~(job[i] & typed[i] & ~busy[i])) ||
			    (uint32_t) __builtin_popcountll(out[i]) < want)
				abort();
		}
	}
	o = step_gres_other(&q, "nic:2,shard:3@0/4,mps:50@1/100", &rc);
	if (rc && o)
		abort();
	if (rc && rc != ESLURM_INVALID_GRES && rc != ESLURM_NOT_SUPPORTED)
		abort();
	xfree(o);
	step_gres_req_free(&q);
	xfree(s);
	return 0;
}
