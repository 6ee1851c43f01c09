/* state_save.h — the controller's snapshot in StateSaveLocation.
 *
 * File "ctld_state": a header (magic string, format version, time,
 * cluster name) then next job id, node states, job records.  Job scripts
 * and environments live beside it in hash.<id%10>/job.<id>/ (written once
 * at submit, removed at purge).
 */
#ifndef SLUICE_CTLD_STATE_SAVE_H
#define SLUICE_CTLD_STATE_SAVE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/pack.h"

#define STATE_SAVE_VERSION 1

/* mkdir -p the state dir; refuse a dir of another cluster.  0, or -1
 * with a message in err. */
int    state_save_init(const char *dir, const char *cluster, char *err,
		       size_t errlen);
/* Pack the whole snapshot (loop thread). */
buf_t *state_save_pack(void);
/* Write a packed snapshot durably (any thread).  0 or -1 (errno). */
int    state_save_write(const char *dir, const buf_t *b);
/* Load at start.  0; 1 if there is no state; -1 with a message in err. */
int    state_save_load(const char *dir, char *err, size_t errlen);

/* Per-job files.  0 or -1 (logged). */
int    state_save_job_files(const char *dir, uint32_t job_id,
			    const char *script, char *const *env);
/* Read them back; caller frees (script xfree, env xstrarray_free). */
int    state_save_read_job_files(const char *dir, uint32_t job_id,
				 char **script, char ***env);
void   state_save_remove_job_files(const char *dir, uint32_t job_id);

#endif
