/* gres_detect.h — slurmd's check of gres.conf at start, and
 * AutoDetect=nvml: the NVIDIA management library is loaded at run time
 * (dlopen libnvidia-ml.so.1), never linked; when it is absent, one log
 * line says so and the GPUs are those gres.conf names. */
#ifndef SLUICE_SLURMD_GRES_DETECT_H
#define SLUICE_SLURMD_GRES_DETECT_H

#include "common/conf.h"

/* Read gres.conf for node (errors logged with file and line) and, with
 * AutoDetect=nvml, count the GPUs NVML sees and compare them with it. */
void gres_detect_at_start(const slurm_conf_t *conf, const char *node);

#endif
