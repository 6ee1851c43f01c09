/* x11_fwd.h — what srun, salloc and slurmstepd share for --x11.
 *
 * srun listens on a TCP port of its host; each node's step slurmstepd
 * chosen by the --x11 word listens on 127.0.0.1:6000+N (display N, from
 * X11_DISPLAY_OFFSET up) and gives its tasks DISPLAY=localhost:N.S with
 * the user's cookie in an xauth file.  For each X client that connects
 * there, the stepd connects to srun and sends one line, the cookie in hex
 * and '\n' (srun drops a connection that does not show it); from then on
 * both sides relay bytes: srun to its own $DISPLAY.
 */
#ifndef SLUICE_X11_FWD_H
#define SLUICE_X11_FWD_H

#include <stddef.h>
#include <stdint.h>

/* --x11 words (as Slurm's x11 flags) */
enum {
	X11_FORWARD_ALL   = 0x0001,
	X11_FORWARD_BATCH = 0x0002,
	X11_FORWARD_FIRST = 0x0004,
	X11_FORWARD_LAST  = 0x0008,
};

#define X11_TCP_PORT_OFFSET 6000
#define X11_DISPLAY_OFFSET  10
#define X11_DISPLAY_MAX     1000    /* displays tried from the offset */
#define X11_COOKIE_MAX      512     /* hex characters */

/* "all", "first", "last" (NULL or "": all): X11_FORWARD_*, or 0. */
uint16_t x11_flags_parse(const char *word);
const char *x11_flags_name(uint16_t flags);

/* DISPLAY value "[host][/unix]:N[.S]": *host (NULL for a local socket;
 * caller frees), display number and screen.  0, or -1 if malformed. */
int x11_display_parse(const char *display, char **host, int *num,
		      int *screen);
/* Connected socket to the X server of DISPLAY (its unix socket
 * /tmp/.X11-unix/XN, or TCP 6000+N on host), or -1 with errno. */
int x11_display_connect(const char *display);
/* The MIT-MAGIC-COOKIE-1 of DISPLAY, in hex, from `xauth list DISPLAY`
 * (XAUTHORITY applies); NULL when there is none.  Caller frees. */
char *x11_cookie_get(const char *display);
/* A cookie as xauth prints it: 1 to X11_COOKIE_MAX hex digits, even. */
int x11_cookie_valid(const char *cookie);

#endif
