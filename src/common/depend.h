/* depend.h — job dependency expressions, as sbatch --dependency and
 * scontrol update Dependency= take them and scontrol/squeue show them.
 *
 *   afterok:12:13,afterany:14       every entry must be satisfied
 *   afterok:12?afternotok:13        any one entry is enough
 *   after:12+5                      12 started (or was cancelled) 5 min ago
 *   singleton                       no other job of this name and user runs
 *   12:13                           old form of afterany:12:13
 *   afterok:12_3, afterok:12_*      an array task, all tasks of an array
 *
 * A list holds one entry per job id.  depend_string() prints it the way
 * Slurm shows it, each entry with its state: "afterok:12(unfulfilled)";
 * that form parses back (with_state) and is what the controller saves.
 * Pure text in, text out: the controller decides what the states are.
 */
#ifndef SLUICE_DEPEND_H
#define SLUICE_DEPEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
	DEPEND_AFTER = 1,
	DEPEND_AFTER_ANY,
	DEPEND_AFTER_NOT_OK,
	DEPEND_AFTER_OK,
	DEPEND_AFTER_CORR,
	DEPEND_BURST_BUFFER,
	DEPEND_SINGLETON,
} depend_type_t;

typedef enum {
	DEPEND_UNFULFILLED = 0,
	DEPEND_FULFILLED,
	DEPEND_FAILED,
} depend_state_t;

#define DEPEND_ALL_TASKS 0xffffffffu   /* "12_*" */
#define DEPEND_NO_TASK   0xfffffffeu   /* "12" */
#define DEPEND_MAX       1000          /* entries in one list */

typedef struct {
	uint16_t type;       /* depend_type_t */
	uint16_t state;      /* depend_state_t */
	uint32_t job_id;     /* 0 for singleton */
	uint32_t task_id;    /* DEPEND_NO_TASK, DEPEND_ALL_TASKS or a task */
	uint32_t minutes;    /* "+N" delay */
} depend_t;

typedef struct {
	depend_t *e;
	uint32_t  cnt;
	bool      any;       /* '?' list: one satisfied entry is enough */
} depend_list_t;

/* Parse s into *out (zeroed first).  with_state accepts the "(state)"
 * suffixes of depend_string().  0, or -1 with a reason in err (if given)
 * and *out empty. */
int         depend_parse(const char *s, bool with_state, depend_list_t *out,
			 char *err, size_t errlen);
/* "afterok:12(unfulfilled),singleton(unfulfilled)"; NULL if empty.
 * Caller frees (xfree). */
char       *depend_string(const depend_list_t *l);
void        depend_list_free(depend_list_t *l);
const char *depend_type_name(uint16_t type);
const char *depend_state_name(uint16_t state);

#endif
