/* power_conf.h — the power saving keys of slurm.conf, read and checked
 * (for power_save.c; parse once per load or reconfigure). */
#ifndef SLUICE_CTLD_POWER_CONF_H
#define SLUICE_CTLD_POWER_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/conf.h"

typedef struct {
	char     *nodes;        /* hostlist expression */
	uint32_t  keep_up;      /* ":N": at least N of them stay up; 0 all */
} power_exc_t;

typedef struct {
	char        *suspend_prog;     /* NULL: not set */
	char        *resume_prog;
	char        *resume_fail_prog;
	bool         enabled;          /* both programs set and executable */
	uint32_t     suspend_time;     /* s, INFINITE32: never */
	uint16_t     suspend_timeout;  /* s */
	uint16_t     resume_timeout;   /* s */
	uint16_t     suspend_rate;     /* nodes a minute, 0: no limit */
	uint16_t     resume_rate;
	power_exc_t *exc;              /* SuspendExcNodes groups */
	size_t       exc_cnt;
	char       **exc_parts;        /* SuspendExcParts names (NULL ended) */
	uint32_t     exc_flags;        /* SuspendExcStates as node flags */
	bool         exc_down;         /* ... DOWN */
	uint32_t     interval;         /* power_save_interval, s (10) */
	uint32_t     min_interval;     /* power_save_min_interval, s (0) */
	bool         idle_on_suspend;  /* idle_on_node_suspend */
	bool         cloud_reg_addrs;
	bool         cloud_dns;
} power_conf_t;

/* 0, or -1 with err (Slurm's words where it has them). */
int  power_conf_parse(const slurm_conf_t *conf, power_conf_t *out,
		      char *err, size_t errlen);
void power_conf_free(power_conf_t *c);

#endif
