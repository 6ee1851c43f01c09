/* slurm_version.h — the Slurm release whose behaviour Sluice matches.
 * Plugins built against Slurm's headers compare these numbers. */
#ifndef _SLURM_VERSION_H
#define _SLURM_VERSION_H

#define SLURM_VERSION_NUM(a, b, c) (((a) << 16) + ((b) << 8) + (c))
#define SLURM_VERSION_MAJOR(a) (((a) >> 16) & 0xff)
#define SLURM_VERSION_MINOR(a) (((a) >> 8) & 0xff)
#define SLURM_VERSION_MICRO(a) ((a) & 0xff)

#define SLURM_VERSION_NUMBER SLURM_VERSION_NUM(25, 5, 0)
#define SLURM_VERSION_STRING "25.05.0"

#endif
