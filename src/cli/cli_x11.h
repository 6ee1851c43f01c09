/* cli_x11.h — srun's end of --x11 (common/x11_fwd.h): checks the user's
 * DISPLAY and cookie, then relays the nodes' X connections to it on a
 * thread of its own until srun ends. */
#ifndef SLUICE_CLI_X11_H
#define SLUICE_CLI_X11_H

#include <stdint.h>

typedef struct {
	uint16_t flags;           /* X11_FORWARD_*; 0 = no --x11 */
	char    *display;         /* $DISPLAY */
	char    *cookie;          /* its MIT-MAGIC-COOKIE-1, hex */
	int      screen;
	uint16_t port;            /* the relay's, once started */
} cli_x11_t;

/* $DISPLAY and its cookie, for a command (prog) asked --x11: 0, or -1
 * after Slurm's error ("No DISPLAY variable set, cannot setup x11
 * forwarding."). */
int  cli_x11_check(cli_x11_t *x, const char *prog, uint16_t flags);
/* Listen and start relaying (x->port set): 0 or -1 (error printed). */
int  cli_x11_start(cli_x11_t *x, const char *prog);
void cli_x11_free(cli_x11_t *x);
/* Inside an allocation made with salloc --x11 (which exports
 * CLI_X11_ENV to its command): cli_x11_check with its word.  0 when
 * there is none or all went well, -1 after an error. */
int  cli_x11_inherit(cli_x11_t *x, const char *prog);
/* Whether node (a NodeName of the step) forwards X11: every node, or the
 * first or last of the job's (SLURM_JOB_NODELIST). */
int  cli_x11_node_wanted(const cli_x11_t *x, const char *node);

#define CLI_X11_ENV "SLUICE_X11"

#endif
