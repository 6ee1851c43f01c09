/* job_rec.h — a job record as the snapshot and the journal hold it.
 *
 * Format 2 (JREC_JOB payload version 2, snapshot version 3): a tagged
 * record (common/tagrec.h), magic "JOB2": every job_info_t field by its
 * name, the controller's own fields ("job.argv", ...), and when it holds
 * nodes "job.alloc" (u32 count, then one tagged "JALN" record per node),
 * for an array "job.array" (a tagged "JARR" record).  Fields it lacks keep
 * the defaults of a new record; fields this controller does not know are
 * skipped.  Format 1 (payload version 1, snapshots up to version 2): the
 * positional record of main before it, read only.  See
 * doc/dev/state-format.md.
 */
#ifndef SLUICE_CTLD_JOB_REC_H
#define SLUICE_CTLD_JOB_REC_H

#include <stdint.h>

#include "common/pack.h"
#include "ctld/job_mgr.h"

#define JOB_REC_VERSION 2           /* written; 1 is read too */

void          job_rec_pack(buf_t *b, const job_record_t *j);
/* The job id a record names, without reading the rest (0 if it names
 * none): the ids of records recovery could not replay. */
uint32_t      job_rec_id(const void *data, uint32_t len, uint16_t version);
/* One record of the given format at b's cursor; NULL if malformed. */
job_record_t *job_rec_unpack(buf_t *b, uint16_t version);

#endif
