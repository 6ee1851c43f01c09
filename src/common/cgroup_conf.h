/* cgroup_conf.h — cgroup.conf: how task/cgroup and proctrack/cgroup
 * constrain a job (Slurm 25.05's keys).
 *
 * One "Key=Value" per line ('#' comments, blank lines, keys are
 * case-insensitive).  An unknown key or a bad value is an error naming
 * the file and line; nothing is returned then.  A missing file means the
 * defaults (nothing constrained).
 */
#ifndef SLUICE_CGROUP_CONF_H
#define SLUICE_CGROUP_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
	CGROUP_PLUGIN_AUTO = 0,   /* autodetect */
	CGROUP_PLUGIN_V1,
	CGROUP_PLUGIN_V2,
} cgroup_plugin_t;

typedef struct {
	char           *mountpoint;        /* CgroupMountpoint (/sys/fs/cgroup) */
	cgroup_plugin_t plugin;            /* CgroupPlugin */
	bool            automount;         /* CgroupAutomount (accepted) */
	bool            constrain_cores;   /* ConstrainCores */
	bool            constrain_ram;     /* ConstrainRAMSpace */
	bool            constrain_swap;    /* ConstrainSwapSpace */
	bool            constrain_devices; /* ConstrainDevices */
	bool            ignore_systemd;    /* IgnoreSystemd (accepted) */
	double          allowed_ram;       /* AllowedRAMSpace, percent (100) */
	double          allowed_swap;      /* AllowedSwapSpace, percent (0) */
	double          max_ram_percent;   /* MaxRAMPercent (100) */
	double          max_swap_percent;  /* MaxSwapPercent (100) */
	uint64_t        min_ram_mb;        /* MinRAMSpace, MB (30) */
	int32_t         swappiness;        /* MemorySwappiness, -1 = unset */
	/* SignalChildrenProcesses: signals other than SIGKILL reach every
	 * process of a step, not only its tasks (proctrack/cgroup) */
	bool            signal_children;
	bool            enable_controllers; /* EnableControllers (always) */
	uint32_t        systemd_timeout;   /* SystemdTimeout (no effect) */
	/* "file:line: Key has no effect: why" lines for the daemon to log
	 * once; NULL when none */
	char           *notes;
} cgroup_conf_t;

/* Defaults into c (nothing constrained). */
void cgroup_conf_defaults(cgroup_conf_t *c);
/* Parse text (fname for messages).  0, or -1 with "fname:line: ..." in
 * err and c left with defaults only. */
int  cgroup_conf_parse_text(const char *text, size_t len, const char *fname,
			    cgroup_conf_t *c, char *err, size_t errlen);
/* Read a file; a missing file gives the defaults.  0 or -1 as above. */
int  cgroup_conf_load(const char *path, cgroup_conf_t *c, char *err,
		      size_t errlen);
void cgroup_conf_free(cgroup_conf_t *c);

#endif
