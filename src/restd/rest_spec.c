/* rest_spec.c — the compiled-in REST references and the OpenAPI document
 * built from them.
 */
#include "restd/rest_spec.h"

#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "restd/rest_val.h"

extern const char rest_spec_v40[], rest_spec_v41[], rest_spec_v42[],
	rest_spec_v43[];

static const char *const spec_text[] = {
	rest_spec_v40, rest_spec_v41, rest_spec_v42, rest_spec_v43,
};

#define NVER (REST_VER_MAX - REST_VER_MIN + 1)

static json_object *spec[NVER];

static json_object *doc_of(int ver)
{
	if (ver < REST_VER_MIN || ver > REST_VER_MAX)
		return NULL;
	return spec[ver - REST_VER_MIN];
}

/* Operations whose answer is not the schema the references name: what
 * Slurm's handler really sends (a cli_schemas type) replaces it, so the
 * view of the answer and /openapi/v3 both say what is sent.  jobs/state:
 * the references name openapi_job_info_resp, but the handler sends
 * openapi_job_state_resp (jobs[]{job_id, state[]}); viewed as a job_info,
 * each job lost its state. */
static const struct {
	const char *plugin;
	const char *tmpl;       /* after "/<plugin>/v0.0.4N/" */
	const char *method;
	const char *schema;     /* after "v0.0.4N_" */
} answers_sent[] = {
	{ "slurm", "jobs/state/", "get", "openapi_job_state_resp" },
};

static void correct_answers(int ver, json_object *doc)
{
	for (size_t i = 0; i < sizeof(answers_sent) / sizeof(answers_sent[0]);
	     i++) {
		char path[128], name[128];
		json_object *paths, *ops, *op, *resp;

		snprintf(path, sizeof(path), "/%s/v0.0.%d/%s",
			 answers_sent[i].plugin, ver, answers_sent[i].tmpl);
		snprintf(name, sizeof(name), "v0.0.%d_%s", ver,
			 answers_sent[i].schema);
		if (!json_object_object_get_ex(doc, "paths", &paths) ||
		    !json_object_object_get_ex(paths, path, &ops) ||
		    !json_object_object_get_ex(ops, answers_sent[i].method,
					       &op) ||
		    !json_object_object_get_ex(op, "responses", &resp))
			continue;
		json_object_object_add(resp, "200",
				       json_object_new_string(name));
		json_object_object_add(resp, "default",
				       json_object_new_string(name));
	}
}

int rest_spec_init(void)
{
	for (int i = 0; i < NVER; i++) {
		if (spec[i])
			continue;
		spec[i] = json_tokener_parse(spec_text[i]);
		if (!spec[i]) {
			error("REST reference v0.0.%d does not parse",
			      REST_VER_MIN + i);
			return -1;
		}
		correct_answers(REST_VER_MIN + i, spec[i]);
	}
	return 0;
}

void rest_spec_fini(void)
{
	for (int i = 0; i < NVER; i++) {
		json_object_put(spec[i]);
		spec[i] = NULL;
	}
}

json_object *rest_spec_op(int ver, const char *tmpl, const char *method)
{
	return rest_json_get(rest_json_get(rest_json_get(doc_of(ver), "paths"), tmpl), method);
}

json_object *rest_spec_schema(int ver, const char *name)
{
	json_object *d = doc_of(ver), *s;

	if ((s = rest_json_get(rest_json_get(d, "schemas"), name)))
		return s;
	return rest_json_get(rest_json_get(d, "cli_schemas"), name);
}

json_object *rest_spec_deref(int ver, json_object *node)
{
	for (int i = 0; node && i < 8; i++) {
		json_object *r = rest_json_get(node, "$ref");

		if (!r)
			return node;
		node = rest_spec_schema(ver, json_object_get_string(r));
	}
	return node;
}

json_object *rest_spec_list_item(int ver, const char *schema,
				 const char *member)
{
	json_object *list = rest_spec_deref(ver, rest_json_get(rest_json_get(
		rest_spec_deref(ver, rest_spec_schema(ver, schema)), "properties"),
		member));

	return rest_spec_deref(ver, rest_json_get(list, "items"));
}

const char *rest_spec_op_response(json_object *op)
{
	return json_object_get_string(rest_json_get(rest_json_get(op, "responses"), "200"));
}

const char *rest_spec_op_request(json_object *op)
{
	json_object *r = rest_json_get(op, "request");

	return r && json_object_is_type(r, json_type_string) ?
		json_object_get_string(r) : NULL;
}

/* ---- the OpenAPI 3.0.3 document ---- */

static json_object *ref_to(const char *name)
{
	json_object *o = json_object_new_object();
	char *r = xstrdup_printf("#/components/schemas/%s", name);

	json_object_object_add(o, "$ref", json_object_new_string(r));
	xfree(r);
	return o;
}

static void copy_key(json_object *dst, json_object *src, const char *key)
{
	json_object *v = rest_json_get(src, key);

	if (v)
		json_object_object_add(dst, key, json_object_get(v));
}

/* Mark the schema called name and every schema it reaches in seen. */
static void reach_name(int ver, const char *name, json_object *seen);

static void reach(int ver, json_object *node, json_object *seen)
{
	json_object *props = rest_json_get(node, "properties");

	if (rest_json_get(node, "$ref")) {
		reach_name(ver, json_object_get_string(rest_json_get(node, "$ref")),
			   seen);
		return;
	}
	if (props) {
		json_object_object_foreach(props, k, v) {
			(void)k;
			reach(ver, v, seen);
		}
	}
	if (rest_json_get(node, "items"))
		reach(ver, rest_json_get(node, "items"), seen);
}

static void reach_name(int ver, const char *name, json_object *seen)
{
	if (!name || rest_json_get(seen, name))
		return;
	json_object_object_add(seen, name, json_object_new_boolean(1));
	reach(ver, rest_spec_schema(ver, name), seen);
}

/* A compact schema node as an OpenAPI schema object.  Required entries
 * naming nested members ("nodes/count") are a quirk of Slurm's generator
 * that no validator can check against a property: they are left out. */
static json_object *conv_schema(json_object *node)
{
	json_object *o, *props, *req;

	if (rest_json_get(node, "$ref"))
		return ref_to(json_object_get_string(rest_json_get(node, "$ref")));
	o = json_object_new_object();
	copy_key(o, node, "type");
	copy_key(o, node, "format");
	copy_key(o, node, "enum");
	copy_key(o, node, "default");
	copy_key(o, node, "deprecated");
	if ((props = rest_json_get(node, "properties"))) {
		json_object *p = json_object_new_object();

		json_object_object_foreach(props, k, v)
			json_object_object_add(p, k, conv_schema(v));
		json_object_object_add(o, "properties", p);
	}
	if ((req = rest_json_get(node, "required")) &&
	    json_object_array_length(req)) {
		json_object *r = json_object_new_array();

		for (size_t i = 0; i < json_object_array_length(req); i++) {
			const char *n = json_object_get_string(
				json_object_array_get_idx(req, i));

			if (!strchr(n, '/') && rest_json_get(props, n))
				json_object_array_add(
					r, json_object_new_string(n));
		}
		if (json_object_array_length(r))
			json_object_object_add(o, "required", r);
		else
			json_object_put(r);
	}
	if (rest_json_get(node, "items"))
		json_object_object_add(o, "items",
				       conv_schema(rest_json_get(node, "items")));
	return o;
}

static json_object *conv_param(json_object *p)
{
	json_object *o = json_object_new_object(), *s;
	const char *in = json_object_get_string(rest_json_get(p, "in"));

	copy_key(o, p, "name");
	copy_key(o, p, "in");
	if (in && !strcmp(in, "path"))
		json_object_object_add(o, "required",
				       json_object_new_boolean(1));
	else
		copy_key(o, p, "required");
	copy_key(o, p, "deprecated");
	copy_key(o, p, "allowEmptyValue");
	json_object_object_add(o, "style", json_object_new_string(
		in && !strcmp(in, "path") ? "simple" : "form"));
	json_object_object_add(o, "explode", json_object_new_boolean(0));
	s = json_object_new_object();
	json_object_object_add(s, "type", json_object_new_string("string"));
	copy_key(s, p, "enum");
	json_object_object_add(o, "schema", s);
	return o;
}

static json_object *content_of(const char *schema)
{
	json_object *c = json_object_new_object(), *m = json_object_new_object();

	json_object_object_add(m, "schema", ref_to(schema));
	json_object_object_add(c, "application/json", m);
	return c;
}

static json_object *conv_op(json_object *op)
{
	json_object *o = json_object_new_object(), *params, *resp, *r;
	const char *req = rest_spec_op_request(op);
	const char *res = rest_spec_op_response(op);

	copy_key(o, op, "operationId");
	copy_key(o, op, "tags");
	copy_key(o, op, "deprecated");
	params = json_object_new_array();
	r = rest_json_get(op, "parameters");
	for (size_t i = 0; r && i < json_object_array_length(r); i++)
		json_object_array_add(params,
				      conv_param(json_object_array_get_idx(r, i)));
	json_object_object_add(o, "parameters", params);
	if (req) {
		json_object *b = json_object_new_object();

		json_object_object_add(b, "content", content_of(req));
		json_object_object_add(b, "required",
				       json_object_new_boolean(1));
		json_object_object_add(o, "requestBody", b);
	}
	resp = json_object_new_object();
	for (int i = 0; i < 2; i++) {
		json_object *x = json_object_new_object();

		json_object_object_add(x, "description", json_object_new_string(
			i ? "an error, with the same envelope" : "success"));
		if (res)
			json_object_object_add(x, "content", content_of(res));
		json_object_object_add(resp, i ? "default" : "200", x);
	}
	json_object_object_add(o, "responses", resp);
	return o;
}

static json_object *info_block(void)
{
	json_object *info = json_object_new_object();

	json_object_object_add(info, "title",
			       json_object_new_string("Slurm REST API"));
	json_object_object_add(info, "description", json_object_new_string(
		"Sluice's slurmrestd: Slurm 25.05's REST API"));
	json_object_object_add(info, "version",
			       json_object_new_string("Slurm-25.05.0"));
	return info;
}

char *rest_spec_openapi(unsigned ver_mask, rest_spec_served_f served)
{
	json_object *out = json_object_new_object();
	json_object *paths = json_object_new_object();
	json_object *schemas = json_object_new_object();
	json_object *comp = json_object_new_object();
	json_object *servers = json_object_new_array();
	json_object *srv = json_object_new_object();
	json_object *tags = json_object_new_array();
	json_object *sec = NULL, *secs = NULL;
	char *text;

	for (int ver = REST_VER_MIN; ver <= REST_VER_MAX; ver++) {
		json_object *d = doc_of(ver), *seen;

		if (!d || !(ver_mask & (1u << (ver - REST_VER_MIN))))
			continue;
		if (!sec) {
			sec = rest_json_get(d, "security");
			secs = rest_json_get(d, "security_schemes");
		}
		seen = json_object_new_object();
		json_object_object_foreach(rest_json_get(d, "paths"), tmpl, ops) {
			json_object *p = NULL;

			json_object_object_foreach(ops, method, op) {
				if (!served(ver, tmpl, method))
					continue;
				if (!p)
					p = json_object_new_object();
				json_object_object_add(p, method, conv_op(op));
				reach_name(ver, rest_spec_op_request(op), seen);
				reach_name(ver, rest_spec_op_response(op), seen);
			}
			if (p)
				json_object_object_add(paths, tmpl, p);
		}
		json_object_object_foreach(seen, name, unused) {
			(void)unused;
			json_object_object_add(schemas, name, conv_schema(
				rest_spec_schema(ver, name)));
		}
		json_object_put(seen);
	}
	json_object_object_add(out, "openapi", json_object_new_string("3.0.3"));
	json_object_object_add(out, "info", info_block());
	json_object_object_add(srv, "url", json_object_new_string("/"));
	json_object_array_add(servers, srv);
	json_object_object_add(out, "servers", servers);
	for (int i = 0; i < 2; i++) {
		json_object *t = json_object_new_object();

		json_object_object_add(t, "name", json_object_new_string(
			i ? "slurmdb" : "slurm"));
		json_object_array_add(tags, t);
	}
	json_object_object_add(out, "tags", tags);
	if (sec)
		json_object_object_add(out, "security", json_object_get(sec));
	json_object_object_add(out, "paths", paths);
	json_object_object_add(comp, "schemas", schemas);
	if (secs)
		json_object_object_add(comp, "securitySchemes",
				       json_object_get(secs));
	json_object_object_add(out, "components", comp);
	text = xstrdup(json_object_to_json_string_ext(
		out, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(out);
	return text;
}
