/* recover.h — slurmctld start: load the snapshot, replay the journal.
 *
 * The snapshot's records and the journal's later records are gathered
 * first (the last record of each job wins, a purge drops it), then put in
 * the job and node tables once.  Replay stops at the first damaged
 * record: a torn last record (a crash while it was being written) is cut;
 * a bad record with data after it stops the replay there; either way
 * everything before it is kept and the log says what was left out.
 */
#ifndef SLUICE_CTLD_RECOVER_H
#define SLUICE_CTLD_RECOVER_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
	uint64_t seq;          /* last journal record recovered */
	uint64_t next_gen;     /* generation for the next journal file */
	uint64_t damaged_gen;  /* first journal file not wholly replayed (0) */
	uint32_t replayed;     /* journal records applied */
} recover_t;

/* 0; 1 if there was nothing to recover; -1 with a message in err when
 * the snapshot is unreadable (nothing is loaded then). */
int      recover_state(const char *dir, recover_t *r, char *err,
		       size_t errlen);
/* The generation after every journal file in dir (a start without
 * state must not replay old files later). */
uint64_t recover_next_gen(const char *dir);
/* Set the damaged journal files (generations from_gen to before_gen - 1)
 * aside, renamed *.damaged, once a new snapshot holds what was recovered
 * from them. */
void     recover_keep_damaged(const char *dir, uint64_t from_gen,
			      uint64_t before_gen);

#endif
