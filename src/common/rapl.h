/* rapl.h — acct_gather_energy/rapl: a node's energy from the Linux
 * powercap RAPL counters.
 *
 * The counters are the package zones <root>/intel-rapl:N/energy_uj
 * (microjoules, wrapping at max_energy_range_uj); their subzones
 * (intel-rapl:N:M: cores, dram) are parts of the package and not added.
 * root is /sys/class/powercap; the environment variable
 * SLUICE_POWERCAP_DIR replaces it (a testing aid: the integration tests
 * give slurmd a fake sysfs tree whose counters they advance).
 *
 * A reader is opened once, then polled: each poll adds every zone's
 * increase since the previous poll (one wrap-around at most between two
 * polls) to a running total.  Poll often enough that a counter cannot wrap
 * twice (at 200 W a 262 kJ range lasts ~20 minutes).
 */
#ifndef SLUICE_RAPL_H
#define SLUICE_RAPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct rapl rapl_t;

/* The counters under the powercap root, read once (NULL if there are none:
 * *why, xmalloc'd, says what was missing). */
rapl_t     *rapl_open(char **why);
/* Read the counters; 0, or -1 if one could not be read (the total is
 * left as it was). */
int         rapl_poll(rapl_t *r);
/* Microjoules since rapl_open. */
uint64_t    rapl_total_uj(const rapl_t *r);
/* Power between the last two polls, in watts (0 before two polls). */
uint32_t    rapl_current_watts(const rapl_t *r);
/* The energy_uj paths read, space-separated. */
const char *rapl_paths(const rapl_t *r);
void        rapl_close(rapl_t *r);

/* The powercap root in use. */
const char *rapl_root(void);

/* One sysfs value: decimal digits, an optional newline, nothing else.
 * 0 and *out, or -1. */
int         rapl_parse_value(const char *text, size_t len, uint64_t *out);
/* The increase from prev to cur of a counter wrapping at range (0: no
 * range known: a decrease counts as 0). */
uint64_t    rapl_delta(uint64_t prev, uint64_t cur, uint64_t range);

#endif
