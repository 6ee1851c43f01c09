/* gres_detect.c — gres.conf at slurmd start, AutoDetect=nvml (gres_detect.h). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/gres.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurmd/gres_detect.h"

#define NVML_LIB "libnvidia-ml.so.1"

typedef int (*nvml_init_fn)(void);
typedef int (*nvml_count_fn)(unsigned int *);
typedef int (*nvml_shutdown_fn)(void);

/* GPUs NVML sees, or -1 (logged) when the library or a call fails. */
static int _nvml_count(void)
{
	void *h = dlopen(NVML_LIB, RTLD_NOW | RTLD_LOCAL);
	nvml_init_fn init;
	nvml_count_fn count;
	nvml_shutdown_fn shut;
	unsigned int n = 0;
	int rc;

	if (!h) {
		info("gpu/nvml: AutoDetect=nvml: cannot load %s (%s); "
		     "using the GPUs of gres.conf", NVML_LIB, dlerror());
		return -1;
	}
	init = (nvml_init_fn) dlsym(h, "nvmlInit_v2");
	count = (nvml_count_fn) dlsym(h, "nvmlDeviceGetCount_v2");
	shut = (nvml_shutdown_fn) dlsym(h, "nvmlShutdown");
	if (!init || !count || !shut) {
		info("gpu/nvml: AutoDetect=nvml: %s lacks nvmlInit_v2/"
		     "nvmlDeviceGetCount_v2; using the GPUs of gres.conf",
		     NVML_LIB);
		dlclose(h);
		return -1;
	}
	if ((rc = init()) != 0) {
		info("gpu/nvml: AutoDetect=nvml: nvmlInit failed (%d); using "
		     "the GPUs of gres.conf", rc);
		dlclose(h);
		return -1;
	}
	rc = count(&n);
	shut();
	dlclose(h);
	if (rc != 0) {
		info("gpu/nvml: AutoDetect=nvml: nvmlDeviceGetCount failed "
		     "(%d); using the GPUs of gres.conf", rc);
		return -1;
	}
	return (int) n;
}

int gres_detect_at_start(const slurm_conf_t *conf, const conf_node_t *node,
			 char **cores, char *err, size_t errlen)
{
	char *path = conf_sibling_path(conf, "gres.conf");
	gres_conf_t *g = gres_conf_load(path, node->name, err, errlen);
	uint32_t dev[64], ncores = (uint32_t) (node->sockets ? node->sockets :
					       1) * (node->cores_per_socket ?
						     node->cores_per_socket : 1);
	size_t gpus;
	int seen;

	*cores = NULL;
	if (!g) {
		xfree(path);
		return -1;
	}
	if (gres_conf_check_cores(g, ncores, err, errlen) < 0) {
		char *tmp = xstrdup_printf("%s %s", path, err);

		snprintf(err, errlen, "%s", tmp);
		xfree(tmp);
		xfree(path);
		gres_conf_destroy(g);
		return -1;
	}
	xfree(path);
	gpus = gres_conf_gpu_devices(g, dev, 64);
	if (g->autodetect && strcasecmp(g->autodetect, "off") &&
	    strcasecmp(g->autodetect, "nvml"))
		info("gres.conf: AutoDetect=%s: Sluice detects GPUs through "
		     "nvml only; using the GPUs of gres.conf", g->autodetect);
	if (g->autodetect && !strcasecmp(g->autodetect, "nvml") &&
	    (seen = _nvml_count()) >= 0) {
		if ((size_t) seen != gpus)
			error("gpu/nvml: NVML sees %d GPUs, gres.conf names "
			      "%zu on %s; jobs get the devices of gres.conf",
			      seen, gpus, node->name);
		else
			info("gpu/nvml: %d GPUs, as gres.conf names", seen);
	}
	*cores = gres_conf_cores_msg(g);
	gres_conf_destroy(g);
	return 0;
}
