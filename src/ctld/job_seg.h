/* job_seg.h — an append-only store of records by job id: the batch
 * scripts and environments of job_files.c, in a few segment files
 * (dir/job_files.<n>) instead of one file per job, so a submit costs
 * no inode.
 *
 * A record is u32 magic "JFIL", u32 job id, u32 length, then the bytes
 * (job_files.c's format: they carry their own CRC).  Records are appended, not synced
 * (the journal holds them until a snapshot, which syncs the file system
 * first); an index in memory says where each live one is.  A segment
 * whose records are all removed is unlinked; one mostly removed has its
 * live records copied to the current segment (synced) and is unlinked.
 *
 * job_seg_append() and job_seg_remove() are the writer thread's (or any
 * one thread's when it is not running); job_seg_read() may be called
 * from any thread.
 */
#ifndef SLUICE_CTLD_JOB_SEG_H
#define SLUICE_CTLD_JOB_SEG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/pack.h"

/* Is the record of id still needed (a job uses these files)? */
typedef bool (*job_seg_live_f)(uint32_t id, void *arg);

/* Scan dir's segments: index the records live() keeps (the last one of
 * an id wins), unlink segments with none.  Appends go to a new segment.
 * 0 or -1 (logged). */
int  job_seg_open(const char *dir, job_seg_live_f live, void *arg);
void job_seg_close(void);

/* Append id's record.  0, or -1 with errno (the next append starts a new
 * segment). */
int  job_seg_append(uint32_t id, const uint8_t *data, size_t len);
/* Forget id's record; false if there was none. */
bool job_seg_remove(uint32_t id);
/* id's record (xfree *data): 0, 1 if there is none, -1 (logged). */
int  job_seg_read(uint32_t id, char **data, size_t *len);
/* Segment files now (tests). */
unsigned job_seg_count(void);

#endif
