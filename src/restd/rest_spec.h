/* rest_spec.h — the REST API each data_parser version serves, as data.
 *
 * The compact references in src/restd/spec/ (paths, parameters, schemas of
 * Slurm 25.05's v0.0.40..v0.0.43) are compiled into the daemon.  They drive
 * three things, so those cannot disagree: which operations a version has
 * (a route of rest_route.c is served in a version only if the version has
 * the operation), the view of a response for that version (rest_view.h),
 * and the OpenAPI 3 document served at /openapi/v3.
 */
#ifndef SLUICE_REST_SPEC_H
#define SLUICE_REST_SPEC_H

#include <json-c/json.h>
#include <stdbool.h>

#define REST_VER_MIN 40
#define REST_VER_MAX 43

/* Parse the compiled-in documents; -1 (logged) if one does not parse. */
int  rest_spec_init(void);
void rest_spec_fini(void);

/* The operation of version ver at the spec's path template (e.g.
 * "/slurm/v0.0.43/job/{job_id}") and lower-case method; NULL if none. */
json_object *rest_spec_op(int ver, const char *tmpl, const char *method);
/* A schema by name (in schemas or cli_schemas); NULL if none. */
json_object *rest_spec_schema(int ver, const char *name);
/* node with its "$ref"s followed (a chain of at most 8). */
json_object *rest_spec_deref(int ver, json_object *node);
/* The schema of one item of schema's list member (e.g. the job_info of
 * openapi_job_info_resp's "jobs"), $refs resolved; NULL if none. */
json_object *rest_spec_list_item(int ver, const char *schema,
				 const char *member);
/* The response schema name of an operation. */
const char  *rest_spec_op_response(json_object *op);
/* The request body schema name of an operation, or NULL. */
const char  *rest_spec_op_request(json_object *op);

/* Which (version, template, method) this server answers. */
typedef bool (*rest_spec_served_f)(int ver, const char *tmpl,
				   const char *method);

/* The OpenAPI 3.0.3 document of what is served, as JSON text (xmalloc'd):
 * every version whose bit (1 << (ver - REST_VER_MIN)) is in ver_mask, only
 * the operations served() accepts, and the schemas they reach. */
char *rest_spec_openapi(unsigned ver_mask, rest_spec_served_f served);

#endif
