/* job_files.h — batch jobs' scripts and environments in StateSaveLocation.
 *
 * A submit's script and environment go into the journal as a
 * JREC_JOB_FILES record (so they are on disk when the submit is
 * acknowledged) and, appended by a writer thread without fsync, into a
 * segment file shared by many jobs (job_seg.h): no inode per job, and
 * nothing of it on the loop.  Until the writer has appended it the job's
 * files are read from memory.  Before a snapshot lets the journal
 * holding a record go, state_save_write() calls job_files_flush() and
 * then syncs the file system, so a job's files are always in the journal
 * or in a segment.
 *
 * A record holds u16 format (1), the journal record's payload (u32 job
 * id, script, environment list) and a CRC-32C of the bytes before it.
 * The replay of a journal writes the same bytes to a file of the job's
 * own, hash.<id % 10>/job.<id>.files; files of the layout before
 * (hash.N/job.ID/{script,environment}) are read and removed as well.
 *
 * Before job_files_start() and after job_files_stop() (recovery,
 * shutdown) every call does its I/O at once on the caller's thread.
 *
 * SLUICE_JOB_FILES_HOLD=1 in slurmctld's environment makes the writer
 * wait for a flush (tests: a crash then finds scripts only in the
 * journal or in files a snapshot flushed).
 */
#ifndef SLUICE_CTLD_JOB_FILES_H
#define SLUICE_CTLD_JOB_FILES_H

#include <stdint.h>

/* The writer thread for StateSaveLocation dir.  0 or -1 (logged). */
int  job_files_start(const char *dir);
/* Write everything queued, then stop the writer. */
void job_files_stop(void);

/* Loop: queue the journal record and the file of a new batch job. */
void job_files_save(const char *dir, uint32_t job_id, const char *script,
		    char *const *env);
/* Recovery (before job_files_start): queue the file of a JREC_JOB_FILES
 * payload for the writer; job_files_read finds it meanwhile, and a
 * replayed job the journal then purged is dropped at start.  0 or -1. */
int  job_files_replay(const void *data, uint32_t len);
/* A job's script and environment (caller frees: script xfree, env
 * xstrarray_free).  0, or -1 (logged). */
int  job_files_read(const char *dir, uint32_t job_id, char **script,
		    char ***env);
/* The job's files go (after any write of them still queued). */
void job_files_remove(const char *dir, uint32_t job_id);

/* Loop: the journal records of what was queued are framed (a commit
 * starts): wake the writer. */
void job_files_kick(void);

/* Any thread but the writer: return once every file queued before the
 * call is written (not synced).  -1 if one could not be written: it
 * stays queued, and in memory, for the next try. */
int  job_files_flush(void);

/* Job id of a hash.N directory entry ("job.7", "job.7.files"), or 0. */
uint32_t job_files_entry_id(const char *name);

#endif
