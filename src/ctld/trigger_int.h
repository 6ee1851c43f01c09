/* trigger_int.h — inside the trigger module: the table (trigger.c) as
 * its RPCs (trigger_rpc.c) see it.  The loop owns all of it. */
#ifndef SLUICE_CTLD_TRIGGER_INT_H
#define SLUICE_CTLD_TRIGGER_INT_H

#include <stdint.h>
#include <time.h>

#include "common/msg_types.h"

typedef enum { T_ARMED = 0, T_WAITING, T_RUNNING } tstate_t;

typedef struct trig {
	trigger_info_t info;
	tstate_t       state;
	time_t         fire_at;      /* T_WAITING: when to run */
	time_t         last_run;     /* idle triggers: not again before
				      * offset more seconds */
	char          *arg;          /* T_WAITING: the program's argument */
	struct trig   *next;
} trig_t;

/* Events Sluice's controller never sees happen (trigger_rpc_set warns). */
#define TRIG_NEVER_SEEN                                                        \
	(TRIGGER_TYPE_PRI_CTLD_RES_OP | TRIGGER_TYPE_PRI_CTLD_ACCT_FULL |      \
	 TRIGGER_TYPE_BU_CTLD_FAIL | TRIGGER_TYPE_BU_CTLD_RES_OP |              \
	 TRIGGER_TYPE_PRI_DB_FAIL | TRIGGER_TYPE_PRI_DB_RES_OP)

/* The table, in id order: walk with ->next. */
trig_t     *trigger_first(void);
uint32_t    trigger_new_id(void);
/* Add at the end; take out and free.  trigger_remove journals; after
 * trigger_append call trigger_changed. */
void        trigger_append(trig_t *t);
void        trigger_remove(trig_t *t);
void        trigger_changed(void);
/* "down", "primary_slurmctld_failure", ...; "unknown" for several. */
const char *trigger_type_name(uint32_t type);

#endif
