/* rest_route.h — which handler answers which path.
 *
 * One table row per operation: plugin ("slurm", "slurmdb"), the path
 * template after "/<plugin>/v0.0.4N/" as the spec writes it ("job/{job_id}"),
 * the method and the handler.  A row is served in a version only if that
 * version's spec has the operation (rest_spec.h), so /openapi/v3 lists
 * exactly what answers.
 */
#ifndef SLUICE_REST_ROUTE_H
#define SLUICE_REST_ROUTE_H

#include <stdbool.h>

#include "restd/rest_req.h"

/* Run r: match its path and method (404/405 otherwise), call the handler
 * on this (worker) thread as r's user, and shape r->resp for r's version.
 * Always leaves an answer in r (status, resp or raw). */
void rest_route_run(rest_req_t *r);

/* Match path and method against the table without running anything:
 * 200 with the version, plugin and path parameters (param[i] xmalloc'd,
 * the caller frees them), or 404 or 405 (param untouched).  ver and
 * plugin are set whenever the path names a plugin and version. */
int  rest_route_parse(const char *path, enum rest_method method, int *ver,
		      const char **plugin, char *param[REST_MAX_PATH_PARAMS]);

/* Whether the spec template (e.g. "/slurm/v0.0.43/jobs/") and method
 * ("get") of version ver is served: rest_spec_openapi()'s filter. */
bool rest_route_served(int ver, const char *tmpl, const char *method);

/* Which plugins (-s) are served: "openapi/slurmctld", "openapi/slurmdbd";
 * NULL or "" serves both.  -1 if one is unknown. */
int  rest_route_set_plugins(const char *list);
/* Which versions (-d: "data_parser/v0.0.43,...", or "v0.0.43"); NULL or ""
 * for all.  -1 if one is unknown. */
int  rest_route_set_versions(const char *list);
unsigned rest_route_versions(void);   /* bit (ver - REST_VER_MIN) */

#endif
