/* license.h — license lists as slurm.conf and the commands write them.
 *
 * Licenses=fluent:30,ansys (slurm.conf: a count per name, 1 if left out)
 * and -L/--licenses=fluent:2,ansys (a job: all of them) or
 * fluent:2|ansys (any one of them).  A list is a plain array the caller
 * owns; lic_list_free frees it.  Pure parsing: no controller state.
 */
#ifndef SLUICE_LICENSE_H
#define SLUICE_LICENSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LIC_NAME_MAX  64        /* bytes of a name */
#define LIC_COUNT_MAX 1000000000u

typedef struct {
	char     *name;
	uint32_t  count;
} lic_item_t;

typedef struct {
	lic_item_t *items;
	size_t      cnt;
	bool        any;             /* '|': one of the items will do */
} lic_list_t;

/* slurm.conf Licenses=: "name[:count],..." with distinct names, counts
 * 0..LIC_COUNT_MAX.  0, or -1 with err set and *l empty. */
int   lic_conf_parse(const char *s, lic_list_t *l, char *err, size_t errlen);
/* A job's request: "name[:count]" joined by ',' (all) or '|' (any), not
 * both; counts 1..LIC_COUNT_MAX; a name given twice under ',' adds up.
 * 0, or -1 with err set and *l empty. */
int   lic_req_parse(const char *s, lic_list_t *l, char *err, size_t errlen);
/* "a:2,b:1" (or "a:2|b:1" for any); NULL for an empty list.  xfree. */
char *lic_list_string(const lic_list_t *l);
/* The item called name, or NULL. */
const lic_item_t *lic_list_find(const lic_list_t *l, const char *name);
void  lic_list_free(lic_list_t *l);

#endif
