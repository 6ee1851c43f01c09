/* comm_params.h — slurm.conf CommunicationParameters and
 * JobAcctGatherParams: the words Sluice acts on, parsed once.
 *
 * Words that are not acted on have their own rows in conf_use.c (warned
 * or refused when the file is read); here they are skipped.
 */
#ifndef SLUICE_COMM_PARAMS_H
#define SLUICE_COMM_PARAMS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
	int  keepalive_time;     /* keepalivetime=: seconds; -1 unset */
	int  keepalive_intvl;    /* keepaliveinterval= */
	int  keepalive_probes;   /* keepaliveprobes= */
	bool no_ctld_in_addr_any; /* slurmctld binds its SlurmctldHost address */
	bool no_in_addr_any;     /* every daemon binds its own address */
} comm_params_t;

/* 0, or -1 with err naming the bad word (p is then the defaults). */
int comm_params_parse(const char *val, comm_params_t *p, char *err,
		      size_t errlen);

enum {
	JAG_PARAM_NO_SHARED        = 1 << 0, /* RSS without shared pages */
	JAG_PARAM_USE_PSS          = 1 << 1, /* PSS instead of RSS */
	JAG_PARAM_OVER_MEMORY_KILL = 1 << 2, /* kill a step over its --mem */
};

/* JobAcctGatherParams words -> JAG_PARAM_* (unknown words skipped). */
unsigned jag_params_parse(const char *val);

#include <stdint.h>

/* MpiParams=ports=12000-12999: 0 with *lo..*hi (both 0 when not set), or
 * -1 with err. */
int mpi_params_ports(const char *val, uint16_t *lo, uint16_t *hi,
		     char *err, size_t errlen);

#endif
