/* rest_list.h — an answer whose payload is one long list (jobs, nodes),
 * written item by item.
 *
 * The envelope (r->resp, with the members the handler added) is shaped
 * for the version once; then each item is built from the field tables,
 * shaped with the version's item schema, written and freed while it is
 * still in the CPU's caches.  No tree of every item is ever built (50,000
 * jobs took gigabytes and four passes over memory that way).  The text
 * becomes r->raw, which rest_route_run() then sends as it is.
 */
#ifndef SLUICE_REST_LIST_H
#define SLUICE_REST_LIST_H

#include <json-c/json.h>

#include "restd/rest_req.h"

/* Calls fn once per item of msg with the item's object (fn takes it). */
typedef void (*rest_list_each_f)(const void *msg,
				 void (*fn)(json_object *item, void *arg),
				 void *arg);

/* r->raw = r->resp (viewed) with "key": [each item of msg]. */
void rest_list_write(rest_req_t *r, const char *key, rest_list_each_f each,
		     const void *msg);

#endif
