/* conf_text.h — what reading every small configuration file shares
 * (cgroup.conf, oci.conf, job_container.conf, topology.conf): the file
 * read whole under a size cap, its lines with the comment cut, and errors
 * as "file:line: message". */
#ifndef SLUICE_COMMON_CONF_TEXT_H
#define SLUICE_COMMON_CONF_TEXT_H

#include <stddef.h>

/* "fname:line: msg" into err ("fname: msg" when line <= 0); returns -1. */
int conf_text_fail(char *err, size_t errlen, const char *fname, int line,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Read path whole into *text (NUL-terminated; xfree it) when it is at
 * most max bytes.  0; -1 with err "path: <strerror>" (errno kept) or
 * "path: larger than <max> bytes" (errno EFBIG). */
int conf_text_read(const char *path, size_t max, char **text, size_t *len,
		   char *err, size_t errlen);

/* Called with each line that is not blank once its comment ('#' outside
 * double quotes) is cut and the blanks around it trimmed; the line may be
 * changed.  Returns 0, or -1 with err set (conf_text_fail). */
typedef int (*conf_text_line_fn)(char *line, int lineno, void *arg);

/* fn for each line of text (len bytes).  A NUL byte in a line is refused
 * ("fname:N: NUL byte in line").  0, or the first -1 of fn. */
int conf_text_lines(const char *text, size_t len, const char *fname,
		    conf_text_line_fn fn, void *arg, char *err,
		    size_t errlen);

/* "Key = Value": s cut at its first '=', blanks around both trimmed.
 * 0, or -1 when s has no '='. */
int conf_text_kv(char *s, char **key, char **val);

#endif
