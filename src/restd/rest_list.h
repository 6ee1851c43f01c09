/* rest_list.h — an answer whose payload is one long list (jobs, nodes),
 * written record by record with no tree.
 *
 * The envelope (r->resp, with the members the handler added) is shaped
 * for the version once; then each record is written from its field table
 * (cli_fields.h) by the version's plan (rest_plan.h): each row's value is
 * made and written at once, in the version's shape.  No object of a
 * whole record, let alone of every record, is built (50,000 jobs took
 * gigabytes and four passes over memory as one tree).  The text becomes
 * r->raw, which rest_route_run() then sends as it is.
 */
#ifndef SLUICE_REST_LIST_H
#define SLUICE_REST_LIST_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/cli_fields.h"
#include "restd/rest_req.h"

/* cnt records of size bytes each at recs, described by tab. */
typedef struct {
	const cli_field_t *tab;
	const void        *recs;
	size_t             size;
	uint32_t           cnt;
} rest_list_recs_t;

/* r->raw = r->resp (viewed) with "key": [every record]. */
void rest_list_write(rest_req_t *r, const char *key,
		     const rest_list_recs_t *l);

/* The "[...]" text of the records as version ver's member key of schema
 * shows them: by the plan, or (tree=true, and when tab cannot be planned)
 * as each record's object viewed and serialized: the reference the plan's
 * text equals (tests/unit/test_rest_list.c).  Caller frees. */
char *rest_list_items(int ver, const char *schema, const char *key,
		      const rest_list_recs_t *l, const cli_ctx_t *ctx,
		      bool tree, size_t *len);

#endif
