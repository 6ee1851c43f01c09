/* cli_resv.h — reservations in the commands: scontrol create, update,
 * delete and show reservation, and sinfo -T.  Each returns the
 * command's exit code and prints its own messages as 22.05 words them.
 */
#ifndef SLUICE_CLI_RESV_H
#define SLUICE_CLI_RESV_H

#include <stdbool.h>

#include "cli/cli_show.h"
#include "common/resv_info.h"

/* argv: the "Key=Value" words after "create reservation". */
int  scontrol_resv_create(int argc, char **argv, bool quiet);
/* argv: the words after "update" (one is ReservationName=). */
int  scontrol_resv_update(int argc, char **argv, bool quiet);
/* argv: the words after "delete" ("ReservationName=R"). */
int  scontrol_resv_delete(int argc, char **argv);
/* name NULL: all. */
int  scontrol_resv_show(const char *name, bool one_liner, cli_doc_t doc);
/* sinfo -T. */
int  sinfo_resv(bool header);

/* Parse "Key=Value" words into d; 0, or -1 with the bad word in *bad
 * and what is wrong in *why (static text). */
int  cli_resv_parse(int argc, char **argv, resv_desc_t *d, bool update,
		    const char **bad, const char **why);

#endif
