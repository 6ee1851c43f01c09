/* hwinfo.h — what this machine is: CPU topology and memory (hwloc), boot
 * time, architecture and OS, for registration and `slurmd -C`. */
#ifndef SLUICE_SLURMD_HWINFO_H
#define SLUICE_SLURMD_HWINFO_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

typedef struct {
	char     *hostname;      /* short host name */
	uint16_t  cpus;          /* logical processors (PUs) */
	uint16_t  boards;
	uint16_t  sockets;       /* total */
	uint16_t  cores;         /* per socket */
	uint16_t  threads;       /* per core */
	uint64_t  real_memory;   /* MB */
	time_t    boot_time;
	uint32_t  uptime;        /* seconds */
	char     *arch;          /* uname machine */
	char     *os;            /* "Linux <release> <version>" */
} hwinfo_t;

/* 0, or -1 if hwloc fails (fields then hold safe defaults). */
int      hwinfo_detect(hwinfo_t *hw);
void     hwinfo_free(hwinfo_t *hw);
/* The two lines `slurmd -C` prints. */
void     hwinfo_print(const hwinfo_t *hw, FILE *out);
/* Current free memory in MB and load average * 100. */
uint64_t hwinfo_free_mem_mb(void);
uint32_t hwinfo_cpu_load(void);

#endif
