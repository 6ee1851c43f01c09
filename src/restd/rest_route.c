/* rest_route.c — the operation table and the dispatch of one request. */
#include "restd/rest_route.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/msg.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "restd/rest_handlers.h"
#include "restd/rest_resp.h"
#include "restd/rest_spec.h"
#include "restd/rest_view.h"
#include "slurm/slurm_errno.h"

typedef void (*rest_handler_f)(rest_req_t *r);

typedef struct {
	const char      *plugin;
	const char      *tmpl;      /* as the spec writes it after the version */
	enum rest_method method;
	rest_handler_f   fn;
} route_t;

static const route_t routes[] = {
	{ "slurm", "ping/",                 REST_GET,    rest_op_ping },
	{ "slurm", "diag/",                 REST_GET,    rest_op_diag },
	{ "slurm", "jobs/",                 REST_GET,    rest_op_jobs },
	{ "slurm", "jobs/",                 REST_DELETE, rest_op_jobs_delete },
	{ "slurm", "jobs/state/",           REST_GET,    rest_op_jobs_state },
	{ "slurm", "job/submit",            REST_POST,   rest_op_job_submit },
	{ "slurm", "job/allocate",          REST_POST,   rest_op_job_allocate },
	{ "slurm", "job/{job_id}",          REST_GET,    rest_op_job_get },
	{ "slurm", "job/{job_id}",          REST_POST,   rest_op_job_update },
	{ "slurm", "job/{job_id}",          REST_DELETE, rest_op_job_delete },
	{ "slurm", "nodes/",                REST_GET,    rest_op_nodes },
	{ "slurm", "nodes/",                REST_POST,   rest_op_nodes_update },
	{ "slurm", "node/{node_name}",      REST_GET,    rest_op_node_get },
	{ "slurm", "node/{node_name}",      REST_POST,   rest_op_node_update },
	{ "slurm", "node/{node_name}",      REST_DELETE, rest_op_node_delete },
	{ "slurm", "partitions/",           REST_GET,    rest_op_partitions },
	{ "slurm", "partition/{partition_name}", REST_GET, rest_op_partition_get },
	{ "slurm", "reservations/",         REST_GET,    rest_op_reservations },
	{ "slurm", "reservations/",         REST_POST,   rest_op_reservations_post },
	{ "slurm", "reservation",           REST_POST,   rest_op_reservation_post },
	{ "slurm", "reservation/{reservation_name}", REST_GET,
	  rest_op_reservation_get },
	{ "slurm", "reservation/{reservation_name}", REST_DELETE,
	  rest_op_reservation_delete },
	{ "slurm", "licenses/",             REST_GET,    rest_op_licenses },
	{ "slurm", "reconfigure/",          REST_GET,    rest_op_reconfigure },
	{ "slurm", "shares",                REST_GET,    rest_op_shares },
	{ "slurmdb", "ping/",               REST_GET,    rest_op_dbd_ping },
	{ "slurmdb", "jobs/",               REST_GET,    rest_op_dbd_jobs },
	{ "slurmdb", "job/{job_id}",        REST_GET,    rest_op_dbd_job_get },
	{ "slurmdb", "accounts/",           REST_GET,    rest_op_dbd_accounts },
	{ "slurmdb", "account/{account_name}", REST_GET, rest_op_dbd_account_get },
	{ "slurmdb", "users/",              REST_GET,    rest_op_dbd_users },
	{ "slurmdb", "user/{name}",         REST_GET,    rest_op_dbd_user_get },
	{ "slurmdb", "associations/",       REST_GET,    rest_op_dbd_assocs },
	{ "slurmdb", "association/",        REST_GET,    rest_op_dbd_assocs },
	{ "slurmdb", "qos/",                REST_GET,    rest_op_dbd_qos },
	{ "slurmdb", "qos/{qos}",           REST_GET,    rest_op_dbd_qos_get },
	{ "slurmdb", "clusters/",           REST_GET,    rest_op_dbd_clusters },
	{ "slurmdb", "cluster/{cluster_name}", REST_GET, rest_op_dbd_cluster_get },
	{ "slurmdb", "tres/",               REST_GET,    rest_op_dbd_tres },
	{ "slurmdb", "config",              REST_GET,    rest_op_dbd_config },
	{ "slurmdb", "account/{account_name}", REST_DELETE,
	  rest_op_dbd_account_delete },
	{ "slurmdb", "user/{name}",         REST_DELETE, rest_op_dbd_user_delete },
	{ "slurmdb", "qos/{qos}",           REST_DELETE, rest_op_dbd_qos_delete },
	{ "slurmdb", "cluster/{cluster_name}", REST_DELETE,
	  rest_op_dbd_cluster_delete },
	{ "slurmdb", "associations/",       REST_DELETE,
	  rest_op_dbd_assocs_delete },
	{ "slurmdb", "association/",        REST_DELETE,
	  rest_op_dbd_assocs_delete },
	{ "slurmdb", "accounts/",           REST_POST,   rest_op_dbd_accounts_post },
	{ "slurmdb", "users/",              REST_POST,   rest_op_dbd_users_post },
	{ "slurmdb", "qos/",                REST_POST,   rest_op_dbd_qos_post },
	{ "slurmdb", "associations/",       REST_POST,   rest_op_dbd_assocs_post },
	{ "slurmdb", "clusters/",           REST_POST,   rest_op_dbd_clusters_post },
	{ "slurmdb", "tres/",               REST_POST,   rest_op_dbd_tres_post },
	{ "slurmdb", "config",              REST_POST,   rest_op_dbd_config_post },
	{ "slurmdb", "accounts_association/", REST_POST,
	  rest_op_dbd_accounts_assoc_post },
	{ "slurmdb", "users_association/",  REST_POST,
	  rest_op_dbd_users_assoc_post },
	{ "slurmdb", "diag/",               REST_GET,    rest_op_dbd_diag },
	{ "slurmdb", "instances/",          REST_GET,    rest_op_dbd_instances },
	{ "slurmdb", "instance/",           REST_GET,    rest_op_dbd_instances },
	{ "slurmdb", "wckeys/",             REST_GET,    rest_op_dbd_wckeys },
	{ "slurmdb", "wckeys/",             REST_POST,   rest_op_dbd_wckeys_post },
	{ "slurmdb", "wckey/{id}",          REST_GET,    rest_op_dbd_wckey_get },
	{ "slurmdb", "wckey/{id}",          REST_DELETE, rest_op_dbd_wckey_delete },
};

#define NROUTES (sizeof(routes) / sizeof(routes[0]))

/* Sluice's own operations (doc/rest.md "Sluice endpoints"): under
 * /sluice/v1/, outside Slurm's references, so not in /openapi/v3 and not
 * shaped by a version's view; answered in v0.0.43's envelope.  Served
 * with the plugin that reaches the daemon they ask. */
#define SLUICE_PREFIX "/sluice/v1/"
static const route_t sluice_routes[] = {
	{ "slurmdb", "job/{job_id}/metrics", REST_GET,
	  rest_op_sluice_job_metrics },
	{ "slurmdb", "job/{job_id}/profile", REST_GET,
	  rest_op_sluice_job_profile },
	{ "slurm", "job/{job_id}/requeue", REST_POST,
	  rest_op_sluice_job_requeue },
	{ "slurm", "job/{job_id}/output", REST_GET,
	  rest_op_sluice_job_output },
};

static unsigned versions_on = (1u << (REST_VER_MAX - REST_VER_MIN + 1)) - 1;
static bool ctld_on = true, dbd_on = true;

static const char *method_name(enum rest_method m)
{
	switch (m) {
	case REST_GET: return "get";
	case REST_POST: return "post";
	case REST_DELETE: return "delete";
	}
	return "";
}

static bool plugin_on(const char *plugin)
{
	return !strcmp(plugin, "slurm") ? ctld_on : dbd_on;
}

static bool version_on(int ver)
{
	return ver >= REST_VER_MIN && ver <= REST_VER_MAX &&
	       (versions_on & (1u << (ver - REST_VER_MIN)));
}

/* "/slurm/v0.0.43/" + tmpl */
static void spec_tmpl(char *buf, size_t len, const route_t *rt, int ver)
{
	snprintf(buf, len, "/%s/v0.0.%d/%s", rt->plugin, ver, rt->tmpl);
}

bool rest_route_served(int ver, const char *tmpl, const char *method)
{
	char buf[256];

	if (!version_on(ver))
		return false;
	for (size_t i = 0; i < NROUTES; i++) {
		if (!plugin_on(routes[i].plugin) ||
		    strcmp(method_name(routes[i].method), method))
			continue;
		spec_tmpl(buf, sizeof(buf), &routes[i], ver);
		if (!strcmp(buf, tmpl))
			return true;
	}
	return false;
}

/* Match "job/123" against "job/{job_id}" (trailing '/' ignored on both),
 * filling params.  rest has no leading '/'. */
static bool match(const char *tmpl, const char *rest, char **param)
{
	int np = 0;

	for (;;) {
		size_t tl = strcspn(tmpl, "/"), rl = strcspn(rest, "/");

		if (!tl && !rl)
			return true;
		if (!tl || !rl)
			return false;
		if (tmpl[0] == '{') {
			if (np >= REST_MAX_PATH_PARAMS)
				return false;
			param[np++] = xstrndup(rest, rl);
		} else if (tl != rl || strncmp(tmpl, rest, tl)) {
			return false;
		}
		tmpl += tl + (tmpl[tl] == '/');
		rest += rl + (rest[rl] == '/');
	}
}

/* Split "/slurm/v0.0.43/rest": plugin and version (two digits, as the
 * spec writes them); NULL if not ours. */
static const char *split(const char *path, int *ver, const char **plugin)
{
	static const char *const plugins[] = { "slurm", "slurmdb" };

	for (size_t i = 0; i < 2; i++) {
		size_t n = strlen(plugins[i]);
		const char *v;

		if (path[0] != '/' || strncmp(path + 1, plugins[i], n) ||
		    strncmp(path + 1 + n, "/v0.0.", 6))
			continue;
		v = path + 1 + n + 6;
		if (v[0] < '1' || v[0] > '9' || v[1] < '0' || v[1] > '9' ||
		    (v[2] && v[2] != '/'))
			return NULL;
		*ver = (v[0] - '0') * 10 + (v[1] - '0');
		*plugin = plugins[i];
		return v[2] ? v + 3 : v + 2;
	}
	return NULL;
}

/* The route of (plugin, ver, method, rest); its params into param (the
 * caller frees them).  NULL with 404 or 405 in *status if none. */
static const route_t *find(const char *plugin, int ver, enum rest_method m,
			   const char *rest, char **param, int *status)
{
	bool path_known = false;

	*status = 404;
	for (size_t i = 0; i < NROUTES; i++) {
		const route_t *rt = &routes[i];
		char *p[REST_MAX_PATH_PARAMS] = { 0 };
		char tmpl[256];

		if (strcmp(rt->plugin, plugin) || !plugin_on(rt->plugin))
			continue;
		spec_tmpl(tmpl, sizeof(tmpl), rt, ver);
		if (!match(rt->tmpl, rest, p)) {
			for (int k = 0; k < REST_MAX_PATH_PARAMS; k++)
				xfree(p[k]);
			continue;
		}
		if (!rest_spec_op(ver, tmpl, method_name(rt->method)) ||
		    rt->method != m) {
			/* the path exists (in some method of this version) */
			if (rest_spec_op(ver, tmpl, "get") ||
			    rest_spec_op(ver, tmpl, "post") ||
			    rest_spec_op(ver, tmpl, "delete"))
				path_known = true;
			for (int k = 0; k < REST_MAX_PATH_PARAMS; k++)
				xfree(p[k]);
			continue;
		}
		memcpy(param, p, sizeof(p));
		*status = 200;
		return rt;
	}
	if (path_known)
		*status = 405;
	return NULL;
}

static const route_t *parse(const char *path, enum rest_method m, int *ver,
			    const char **plugin, char **param, int *status)
{
	int v = REST_VER_MAX;
	const char *pl = "slurm", *rest = split(path, &v, &pl);
	const route_t *rt = NULL;

	*status = 404;
	if (rest && version_on(v))
		rt = find(pl, v, m, rest, param, status);
	if (rest) {
		*ver = v;
		*plugin = pl;
	}
	return rt;
}

int rest_route_parse(const char *path, enum rest_method method, int *ver,
		     const char **plugin, char *param[REST_MAX_PATH_PARAMS])
{
	int status;

	parse(path, method, ver, plugin, param, &status);
	return status;
}

static void run_as_user(rest_req_t *r, const route_t *rt)
{
#ifdef MSG_FLAG_JWT
	if (r->token && r->act_as)
		msg_auth_jwt_set_as(r->token, r->user);
	else if (r->token)
		msg_auth_jwt_set(r->token);
#else
	if (r->token) {
		rest_error_http(r, 401, SLURM_PROTOCOL_AUTHENTICATION_ERROR,
				"rest_auth/jwt",
				"auth/jwt is not available in this build");
		return;
	}
#endif
	rt->fn(r);
#ifdef MSG_FLAG_JWT
	if (r->token)
		msg_auth_jwt_clear();
#endif
}

/* A /sluice/v1/ path: its route, or NULL with 404/405 in *status. */
static const route_t *find_sluice(const char *path, enum rest_method m,
				  char **param, int *status)
{
	const char *rest = path + strlen(SLUICE_PREFIX);

	*status = 404;
	for (size_t i = 0; i < sizeof(sluice_routes) / sizeof(*sluice_routes);
	     i++) {
		const route_t *rt = &sluice_routes[i];
		char *p[REST_MAX_PATH_PARAMS] = { 0 };

		if (!plugin_on(rt->plugin) || !match(rt->tmpl, rest, p))
			continue;
		if (rt->method != m) {
			*status = 405;
			for (int k = 0; k < REST_MAX_PATH_PARAMS; k++)
				xfree(p[k]);
			continue;
		}
		memcpy(param, p, sizeof(p));
		*status = 200;
		return rt;
	}
	return NULL;
}

void rest_route_run(rest_req_t *r)
{
	const route_t *rt;
	char tmpl[256];
	int status;

	r->status = 200;
	r->plugin = "slurm";
	r->ver = REST_VER_MAX;
	for (int k = 0; k < REST_MAX_PATH_PARAMS; k++)
		xfree(r->param[k]);
	if (!strncmp(r->path, SLUICE_PREFIX, strlen(SLUICE_PREFIX)))
		rt = find_sluice(r->path, r->method, r->param, &status);
	else
		rt = parse(r->path, r->method, &r->ver, &r->plugin, r->param,
			   &status);
	r->resp = rest_resp_new(r);
	if (!rt) {
		if (status == 405)
			rest_error_http(r, 405, ESLURM_REST_INVALID_QUERY,
					"rest", "Method not allowed for %s",
					r->path);
		else
			rest_error_http(r, 404, ESLURM_REST_INVALID_QUERY,
					"rest", "Unable to find requested URL: %s",
					r->path);
		return;
	}
	if (rt >= sluice_routes && rt < sluice_routes + sizeof(sluice_routes) /
					   sizeof(*sluice_routes)) {
		run_as_user(r, rt);
		return;
	}
	spec_tmpl(tmpl, sizeof(tmpl), rt, r->ver);
	r->resp_schema = rest_spec_op_response(rest_spec_op(
		r->ver, tmpl, method_name(rt->method)));
	run_as_user(r, rt);
	if (!r->raw)
		r->resp = rest_view(r->ver, r->resp_schema, r->resp);
}

static int set_list(const char *list, const char *const *names, size_t n,
		    unsigned *mask)
{
	char *copy, *save, *t;
	int rc = 0;

	*mask = 0;
	if (!list || !*list) {
		*mask = (1u << n) - 1;
		return 0;
	}
	copy = xstrdup(list);
	for (t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < n; i++) {
			const char *nm = names[i], *slash = strchr(nm, '/');

			if (!strcmp(t, nm) || (slash && !strcmp(t, slash + 1)))
				break;
		}
		if (i == n) {
			rc = -1;
			break;
		}
		*mask |= 1u << i;
	}
	xfree(copy);
	return rc;
}

int rest_route_set_plugins(const char *list)
{
	static const char *const names[] = {
		"openapi/slurmctld", "openapi/slurmdbd",
	};
	unsigned m;

	if (set_list(list, names, 2, &m) < 0)
		return -1;
	ctld_on = m & 1;
	dbd_on = m & 2;
	return 0;
}

int rest_route_set_versions(const char *list)
{
	static const char *const names[] = {
		"data_parser/v0.0.40", "data_parser/v0.0.41",
		"data_parser/v0.0.42", "data_parser/v0.0.43",
	};

	return set_list(list, names, 4, &versions_on);
}

unsigned rest_route_versions(void)
{
	return versions_on;
}
