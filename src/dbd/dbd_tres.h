/* dbd_tres.h — the TRES table (schema v23): Slurm's fixed ids (cpu 1,
 * mem 2, energy 3, node 4, billing 5, fs/disk 6, vmem 7, pages 8) and
 * ids from 1001 for the names a controller registers with its cluster's
 * TRES (gres/gpu, gres/gpu:a100, license/matlab, bb/..., fs/..., ic/...).
 * A TRES is named "type" or "type/name"; records carry TRES as strings
 * "cpu=4,mem=2G,node=1,gres/gpu=2" (memory in MB, a unit may follow).
 *
 * Lists are loaded by the caller (who frees them); nothing here keeps
 * state between calls.
 */
#ifndef SLUICE_DBD_TRES_H
#define SLUICE_DBD_TRES_H

#include <stdint.h>

#include "dbd/dbd_db.h"

#define DBD_TRES_CPU    1
#define DBD_TRES_MEM    2
#define DBD_TRES_OFFSET 1000    /* registered TRES: ids above it */

typedef struct {
	uint32_t id;
	char    *name;              /* "cpu", "gres/gpu:a100" */
} dbd_tres_t;

typedef struct {
	dbd_tres_t *v;
	uint32_t    n;
} dbd_tres_list_t;

/* The live TRES in id order.  0 or -1 (database error; *out empty). */
int  dbd_tres_load(dbd_db_t *db, dbd_tres_list_t *out);
void dbd_tres_list_free(dbd_tres_list_t *l);
/* Name of id in l, NULL if it has none. */
const char *dbd_tres_list_name(const dbd_tres_list_t *l, uint32_t id);
/* Position in l of the TRES named name[0..len), -1 if absent. */
int  dbd_tres_list_find(const dbd_tres_list_t *l, const char *name,
			size_t len);

/* Give ids to the names of tres ("cpu=8,gres/gpu=4,license/x=2") that
 * the table does not have (only types Slurm registers: gres, license,
 * bb, fs, ic; the fixed ones exist).  Inside the caller's transaction.
 * 0 or -1. */
int  dbd_tres_register(dbd_db_t *db, const char *tres);

/* Count of the TRES called name in tres (memory in MB); 0 if absent. */
uint64_t dbd_tres_count(const char *tres, const char *name);
/* A count string "2G" -> MB (no unit: as written). */
uint64_t dbd_tres_value(const char *v, char **end);
/* SQL for that count in TRES string column col (appended to *sql). */
void dbd_tres_sql(dbd_db_t *db, char **sql, const char *col,
		  const char *name);

#endif
