/* affinity.c — node CPU ids onto machine CPUs, --cpu-bind (affinity.h). */
#define _GNU_SOURCE
#include "slurmd/stepd/affinity.h"

#include <sched.h>
#include <stdlib.h>

#include "common/bitmap.h"
#include "common/xmalloc.h"

/* The machine CPUs this process may use, in order. */
static int avail_cpus(int **out)
{
	cpu_set_t set;
	int n = 0;

	*out = NULL;
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return 0;
	*out = xcalloc(CPU_SETSIZE, sizeof(int));
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			(*out)[n++] = c;
	return n;
}

char *affinity_map_cpus(const char *node_cpus, uint32_t ncpus)
{
	bitmap_t *in = NULL, *out = bitmap_create(CPU_SETSIZE);
	int *avail, n = avail_cpus(&avail);
	char *s = NULL;

	if (node_cpus && *node_cpus)
		in = bitmap_from_str(node_cpus, 4096);
	if (n > 0) {
		if (in) {
			for (long i = bitmap_first_set(in); i >= 0;
			     i = bitmap_next_set(in, (size_t) i + 1))
				bitmap_set(out, (size_t) avail[i % n]);
		} else {
			for (uint32_t i = 0; i < (ncpus ? ncpus : 1); i++)
				bitmap_set(out, (size_t) avail[i % n]);
		}
	}
	if (bitmap_count(out))
		s = bitmap_to_str(out);
	bitmap_destroy(in);
	bitmap_destroy(out);
	xfree(avail);
	return s;
}
