/* hostlist.h — Slurm hostlist expressions: "n[01-04,07],gpu1", "r[1-2]n[01-04]".
 *
 * A hostlist is an ordered list of host names.  Parsing keeps zero padding
 * ("n[01-03]" -> n01 n02 n03), accepts several bracket groups per name
 * (cartesian product, leftmost varies slowest) and rejects malformed or huge
 * ranges with a message.  hostlist_ranged() compresses back to the shortest
 * bracket form, merging runs of adjacent hosts with equal prefix and
 * compatible padding (n9,n10 -> n[9-10]; n02,n3 -> n[02,3]), as Slurm does.
 * Text after a closing bracket ("n[1-2]-ib") gives plain names n1-ib n2-ib.
 * Separators are commas and white space; empty items are skipped as Slurm
 * skips them, but an empty range inside brackets ("n[1,]") is an error.
 */
#ifndef SLUICE_HOSTLIST_H
#define SLUICE_HOSTLIST_H

#include <stdbool.h>
#include <stddef.h>

/* The most hosts a single expression may expand to. */
#define HOSTLIST_MAX_HOSTS (1u << 20)

typedef struct hostlist hostlist_t;

hostlist_t *hostlist_create(void);                      /* empty */
/* NULL on error, with a message in err ("Invalid range: ..."). */
hostlist_t *hostlist_parse(const char *expr, char *err, size_t errlen);
/* As hostlist_parse, but an expression naming more than max hosts is an
 * error ("Too many hosts ...") found before any name is built: for lists
 * from users, whose size the daemon bounds by what it could mean. */
hostlist_t *hostlist_parse_max(const char *expr, size_t max, char *err,
			       size_t errlen);
hostlist_t *hostlist_copy(const hostlist_t *hl);
void        hostlist_destroy(hostlist_t *hl);

size_t      hostlist_count(const hostlist_t *hl);
const char *hostlist_nth(const hostlist_t *hl, size_t i);
/* Index of name, or -1. */
long        hostlist_find(const hostlist_t *hl, const char *name);
void        hostlist_push_host(hostlist_t *hl, const char *name);
/* Append all hosts of expr; -1 (hl unchanged) on a malformed expr. */
int         hostlist_push(hostlist_t *hl, const char *expr, char *err, size_t errlen);
bool        hostlist_delete_host(hostlist_t *hl, const char *name);

/* Sort by prefix, then numerically by the numeric part, as Slurm does. */
void        hostlist_sort(hostlist_t *hl);
/* Sort and remove duplicates. */
void        hostlist_uniq(hostlist_t *hl);

/* Compressed form, order kept: "n[1-3,5]".  Caller frees. */
char       *hostlist_ranged(const hostlist_t *hl);
/* Comma-separated, no brackets: "n1,n2,n3".  Caller frees. */
char       *hostlist_deranged(const hostlist_t *hl);

/* One-shot helpers: expand/compress an expression; NULL + err on error. */
char       *hostlist_compress_expr(const char *expr, char *err, size_t errlen);

#endif
