/* cgroup_devices.c — the device files a step may not open
 * (cgroup_devices.h). */
#define _GNU_SOURCE
#include "slurmd/stepd/cgroup_devices.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "common/bitmap.h"
#include "common/gres.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define MAX_GPUS 64

static void add_line(char ***v, size_t *n, const char *file)
{
	struct stat sb;

	if (stat(file, &sb) < 0) {
		error("ConstrainDevices: %s: %m", file);
		return;
	}
	if (!S_ISCHR(sb.st_mode) && !S_ISBLK(sb.st_mode)) {
		error("ConstrainDevices: %s is not a device file", file);
		return;
	}
	*v = xrealloc(*v, (*n + 2) * sizeof(char *));
	(*v)[(*n)++] = xstrdup_printf("%c %u:%u rwm",
				      S_ISCHR(sb.st_mode) ? 'c' : 'b',
				      major(sb.st_rdev), minor(sb.st_rdev));
	(*v)[*n] = NULL;
}

char **cgroup_devices_deny(const slurm_conf_t *conf, const char *node,
			   const char *gpu_idx)
{
	char err[256], *path = conf_sibling_path(conf, "gres.conf");
	gres_conf_t *g = gres_conf_load(path, node, err, sizeof(err));
	bitmap_t *own = gpu_idx && *gpu_idx ?
			bitmap_from_str(gpu_idx, MAX_GPUS) : NULL;
	char **deny = NULL;
	size_t n = 0, idx = 0;

	if (!g)
		error("ConstrainDevices: %s", err);
	for (size_t i = 0; g && i < g->cnt; i++) {
		const gres_conf_rec_t *r = &g->v[i];

		bool ended = !r->files;

		if (strcmp(r->name, "gpu"))
			continue;
		for (uint64_t k = 0; k < r->count; k++, idx++) {
			const char *file = ended ? NULL : r->files[k];

			if (!file) {
				ended = true;
				continue;
			}
			if (own && idx < MAX_GPUS && bitmap_test(own, idx))
				continue;
			add_line(&deny, &n, file);
		}
	}
	bitmap_destroy(own);
	gres_conf_destroy(g);
	xfree(path);
	return deny;
}
