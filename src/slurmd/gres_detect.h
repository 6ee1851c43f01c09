/* gres_detect.h — slurmd's check of gres.conf at start, and
 * AutoDetect=nvml: the NVIDIA management library is loaded at run time
 * (dlopen libnvidia-ml.so.1), never linked; when it is absent, one log
 * line says so and the GPUs are those gres.conf names. */
#ifndef SLUICE_SLURMD_GRES_DETECT_H
#define SLUICE_SLURMD_GRES_DETECT_H

#include "common/conf.h"

/* Read gres.conf for node and, with AutoDetect=nvml, count the GPUs NVML
 * sees and compare them with it.  *cores gets the GPUs' Cores= as the
 * registration carries them (gres.h gres_conf_cores_msg; caller frees),
 * NULL if none is bound.  -1 with "<file> line N: why" in err when the
 * file is bad or a Cores= is past the node's cores (slurmd stops). */
int gres_detect_at_start(const slurm_conf_t *conf, const conf_node_t *node,
			 char **cores, char *err, size_t errlen);

#endif
