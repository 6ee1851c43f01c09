/* spool.h — names and housekeeping in SlurmdSpoolDir, shared by slurmd and
 * slurmstepd.
 *
 *     <spool>/job00012/slurm_script   the batch script (owned by the user)
 *     <spool>/<node>_12.batch         the batch stepd's Unix socket
 *
 * The sockets are how a restarted slurmd finds the jobs still running: a
 * socket that accepts a connection has a live stepd behind it.
 * Returned strings are xmalloc'd; the caller xfree()s them.
 */
#ifndef SLUICE_SLURMD_SPOOL_H
#define SLUICE_SLURMD_SPOOL_H

#include <stdbool.h>
#include <stdint.h>

char *spool_job_dir(const char *spool, uint32_t job_id);
char *spool_script_path(const char *spool, uint32_t job_id);
char *spool_step_socket(const char *spool, const char *node, uint32_t job_id);

/* True if a stepd answers on the socket at path. */
bool spool_step_alive(const char *path);
/* Job ids with a live batch stepd of node; stale sockets are removed.
 * Returns the count; *ids is xmalloc'd (NULL when none). */
uint32_t spool_live_jobs(const char *spool, const char *node, uint32_t **ids);
/* Remove job directories of node's spool that no live stepd owns. */
void spool_clear_stale(const char *spool, const char *node);
/* rm -r of path without following symbolic links; 0 or -1. */
int spool_remove_tree(const char *path);

#endif
