/* billing.c — see billing.h. */
#include "ctld/billing.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* "0.25" / "0.25G" for memory: weight per MB. */
static int _weight(const char *v, size_t n, int mem, double *out)
{
	char buf[64], *end;
	double w, per_mb = 1.0;

	if (!n || n >= sizeof(buf))
		return -1;
	memcpy(buf, v, n);
	buf[n] = 0;
	errno = 0;
	w = strtod(buf, &end);
	if (end == buf || errno || !isfinite(w) || w < 0)
		return -1;
	if (mem && *end && !end[1]) {
		switch (*end) {
		case 'k': case 'K': per_mb = 1024.0; break;
		case 'm': case 'M': per_mb = 1.0; break;
		case 'g': case 'G': per_mb = 1.0 / 1024; break;
		case 't': case 'T': per_mb = 1.0 / (1024.0 * 1024); break;
		default: return -1;
		}
		end++;
	}
	if (*end)
		return -1;
	*out = w * per_mb;
	return 0;
}

int billing_parse(const char *str, billing_t *b, char *err, size_t errlen)
{
	billing_t w = { 0 };
	const char *p = str;

	while (p && *p) {
		size_t n = strcspn(p, ","), kn;
		const char *eq = memchr(p, '=', n);
		double *dst = NULL;
		int mem = 0;

		kn = eq ? (size_t) (eq - p) : 0;
		if (eq && kn == 3 && !strncasecmp(p, "CPU", 3))
			dst = &w.cpu;
		else if (eq && kn == 3 && !strncasecmp(p, "Mem", 3))
			dst = &w.mem_mb, mem = 1;
		else if (eq && kn == 4 && !strncasecmp(p, "Node", 4))
			dst = &w.node;
		else if (eq && kn == 8 && !strncasecmp(p, "GRES/gpu", 8))
			dst = &w.gpu;
		if (!dst || _weight(eq + 1, n - kn - 1, mem, dst) < 0) {
			snprintf(err, errlen, "TRESBillingWeights: invalid "
				 "entry \"%.*s\" (CPU, Mem, Node or GRES/gpu "
				 "with a weight, as \"CPU=1.0,Mem=0.25G\")",
				 (int) n, p);
			return -1;
		}
		w.set = 1;
		p += n;
		if (*p && !*++p) {
			snprintf(err, errlen, "TRESBillingWeights: empty entry "
				 "after \",\"");
			return -1;
		}
	}
	*b = w;
	return 0;
}

uint64_t billing_of(const billing_t *b, uint64_t cpus, uint64_t mem_mb,
		    uint64_t nodes, uint64_t gpus)
{
	double v;

	if (!b || !b->set)
		return cpus;
	v = b->cpu * (double) cpus + b->mem_mb * (double) mem_mb +
	    b->node * (double) nodes + b->gpu * (double) gpus;
	return v > 0 ? (uint64_t) (v + 1e-9) : 0;   /* 0.7 * 10 is 7 */
}
