/* rest_view.h — a response as one data_parser version shows it.
 *
 * Responses are built once, in v0.0.43's layout, from the commands' field
 * tables (cli_fields.h): the same description squeue --json and scontrol
 * show walk.  An older version is a view of that document through its own
 * schema (rest_spec.h): members the version does not have are dropped,
 * members it requires and the document lacks are added empty, numbers and
 * {set,infinite,number} objects are converted where versions differ, and
 * flag values unknown to the version are left out.  So a response always
 * has the shape the served OpenAPI document promises.
 */
#ifndef SLUICE_REST_VIEW_H
#define SLUICE_REST_VIEW_H

#include <json-c/json.h>

/* Shape doc as schema (a name in version ver's spec) says.  Consumes doc;
 * returns the shaped document (doc itself, changed, or a new object). */
json_object *rest_view(int ver, const char *schema, json_object *doc);
/* The same with the schema node itself (rest_spec_list_item()). */
json_object *rest_view_node(int ver, json_object *node, json_object *doc);
/* What the view adds for a required member the document lacks: the empty
 * value of schema node (an object with its own required members). */
json_object *rest_view_empty(int ver, json_object *node);

#endif
