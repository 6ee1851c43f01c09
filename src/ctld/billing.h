/* billing.h — a partition's TRESBillingWeights: what a job's billing TRES
 * (scontrol's billing=, sacct's AllocTRES, the fair-share usage) is.
 *
 * "CPU=1.0,Mem=0.25G,Node=2,GRES/gpu=4": billing is the sum of each
 * weight times the job's count of that TRES (memory in MB, or per the
 * suffix's unit: K M G T), cut to a whole number as Slurm prints it.
 * Without weights billing is the CPU count.  Pure: no daemon state.
 */
#ifndef SLUICE_CTLD_BILLING_H
#define SLUICE_CTLD_BILLING_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
	double cpu, mem_mb, node, gpu;   /* weight per CPU, MB, node, GPU */
	int    set;                      /* weights were given */
} billing_t;

/* str NULL or "": no weights (billing = CPUs).  0, or -1 with err naming
 * the bad entry; *b untouched then. */
int      billing_parse(const char *str, billing_t *b, char *err,
		       size_t errlen);
uint64_t billing_of(const billing_t *b, uint64_t cpus, uint64_t mem_mb,
		    uint64_t nodes, uint64_t gpus);

#endif
