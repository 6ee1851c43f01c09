/* journal.h — the controller's append-only journal files.
 *
 * StateSaveLocation/ctld_journal.<gen>: a 24-byte file header, then
 * records.  Each record is a 24-byte header (magic, type, payload version,
 * sequence number, payload length, CRC-32C over all of it but the magic
 * and the checksum itself) and its payload.  Sequence numbers grow by one
 * per record across files; a snapshot (state_save.h) names the last
 * sequence number it contains and the first generation to replay after
 * it.  This module knows the format and the files, nothing of jobs.
 */
#ifndef SLUICE_CTLD_JOURNAL_H
#define SLUICE_CTLD_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/pack.h"

#define JOURNAL_VERSION     1
#define JOURNAL_HDR_LEN     24
#define JOURNAL_REC_HDR_LEN 24
#define JOURNAL_MAX_REC     (64u * 1024 * 1024)

/* Record types.  Payloads are pack.h encodings. */
enum {
	JREC_JOB = 1,     /* one whole job record (job_state.c) */
	JREC_PURGE,       /* u32 job id: the record is gone */
	JREC_NODES,       /* every saved node state (node_mgr_pack_state) */
	JREC_NEXT_ID,     /* u32 next job id */
	JREC_JOB_FILES,   /* u32 job id, script, environment */
	JREC_RESV,        /* every reservation (resv_mgr_pack_state) */
	JREC_TRIGGERS = 7, /* every trigger (trigger_pack_state) */
	JREC_PARTS = 8,   /* every run-time partition change
			   * (part_mgr_pack_state) */
	JREC_CRONTAB = 9, /* every user's crontab (crontab_pack_state) */
	JREC_DYN_NODES = 10, /* every dynamic node (node_dyn_pack_state);
			   * applied at once in replay: the jobs after it
			   * may name its nodes */
	JREC_TYPE_END
};

typedef struct {
	uint16_t       type;
	uint16_t       version;
	uint64_t       seq;
	uint32_t       len;
	const uint8_t *data;      /* points into the image read */
} journal_rec_t;

/* What journal_next() found. */
enum {
	JOURNAL_DAMAGED = -2,     /* a bad record with data after it */
	JOURNAL_TORN = -1,        /* the last record is incomplete or bad */
	JOURNAL_END = 0,
	JOURNAL_REC = 1,
};

/* Append one framed record to b. */
void journal_frame(buf_t *b, uint16_t type, uint16_t version, uint64_t seq,
		   const void *payload, uint32_t len);
/* The file header of an image: 0 and *gen, or -1 with why. */
int  journal_check_header(const uint8_t *data, size_t len, uint64_t *gen,
			  char *why, size_t whylen);
/* The record at *off (advanced past it): JOURNAL_REC, JOURNAL_END, or
 * JOURNAL_TORN / JOURNAL_DAMAGED with why (*off stays at the bad one). */
int  journal_next(const uint8_t *data, size_t len, size_t *off,
		  journal_rec_t *rec, char *why, size_t whylen);
/* Intact records after damage at off (found by their magic and
 * checksum), for the log: how many, first and last sequence number. */
size_t journal_count_after(const uint8_t *data, size_t len, size_t off,
			   uint64_t *first, uint64_t *last);
/* The same from off itself, calling each (may be NULL) on every intact
 * record found. */
size_t journal_each_after(const uint8_t *data, size_t len, size_t off,
			  void (*each)(const journal_rec_t *r, void *arg),
			  void *arg);

/* ---- files ---- */

typedef struct journal_file journal_file_t;

char           *journal_path(const char *dir, uint64_t gen);  /* xfree */
/* Generations of the journal files in dir, ascending (xfree *gens).
 * 0, or -1 if dir cannot be read. */
int             journal_list(const char *dir, uint64_t **gens, size_t *cnt);
/* Create dir/ctld_journal.<gen> with its header, durable (file and
 * directory synced unless !sync).  NULL with errno on failure. */
journal_file_t *journal_create(const char *dir, uint64_t gen, bool sync);
/* Write bytes at the end and fdatasync (unless !sync).  On failure the
 * file is cut back to where it was and -1 returned with errno. */
int             journal_append(journal_file_t *f, const void *data,
			       size_t len);
uint64_t        journal_gen(const journal_file_t *f);
size_t          journal_size(const journal_file_t *f);
void            journal_close(journal_file_t *f);
/* Remove every journal file of a generation below gen. */
void            journal_remove_before(const char *dir, uint64_t gen);

#endif
