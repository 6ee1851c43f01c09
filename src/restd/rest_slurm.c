/* rest_slurm.c — /slurm/v0.0.4N/ operations on nodes, partitions, the
 * controller itself (ping, reconfigure) and licenses.  Jobs are in
 * rest_slurm_job.c.  Each asks slurmctld with the ordinary message, as the
 * request's user, and builds its payload with the commands' field tables.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli/cli_common.h"
#include "cli/cli_diag.h"
#include "cli/cli_lic.h"
#include "cli/cli_shares.h"
#include "cli/cli_fields.h"
#include "common/parse_util.h"
#include "cli/cli_ping.h"
#include "cli/cli_show.h"
#include "common/hostlist.h"
#include "common/msg.h"
#include "common/msg_types.h"
#include "common/node_info.h"
#include "common/uid_cache.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "restd/rest_ctld.h"
#include "restd/rest_handlers.h"
#include "restd/rest_list.h"
#include "restd/rest_resp.h"
#include "restd/rest_resv.h"
#include "restd/rest_val.h"
#include "slurm/slurm_errno.h"

/* Move doc's member key (and last_update) into r->resp. */
static void take(rest_req_t *r, json_object *doc, const char *key)
{
	const char *keys[] = { key, "last_update", "last_backfill" };

	for (size_t i = 0; i < 3; i++) {
		json_object *v = rest_json_get(doc, keys[i]);

		if (v)
			json_object_object_add(r->resp, keys[i],
					       json_object_get(v));
	}
	json_object_put(doc);
}

void rest_op_ping(rest_req_t *r)
{
	int down;

	json_object_object_add(r->resp, "pings", cli_ping_ctlds(&down));
}

void rest_op_reconfigure(rest_req_t *r)
{
	rest_ctld_rc(r, REQUEST_RECONFIGURE, NULL, "slurm_reconfigure");
}

void rest_op_licenses(rest_req_t *r)
{
	info_request_msg_t req = { 0 };
	const license_info_msg_t *m;
	slurm_msg_t resp;

	if (rest_ctld_info(r, REQUEST_LICENSE_INFO, &req,
			   RESPONSE_LICENSE_INFO, &resp, "slurm_load_licenses"))
		return;
	m = resp.data;
	json_object_object_add(r->resp, "licenses", cli_lic_json(m, NULL));
	json_object_object_add(r->resp, "last_update",
			       cli_json_time(m->last_update));
	msg_free(&resp);
}

/* ---- nodes ---- */

static void nodes_answer(rest_req_t *r, const char *name)
{
	info_request_msg_t req = { .show_flags = SHOW_ALL };
	node_info_msg_t sel = { 0 };
	const node_info_msg_t *m;
	hostlist_t *want = NULL;
	slurm_msg_t resp;

	if (name && !(want = hostlist_parse(name, NULL, 0))) {
		rest_error(r, ESLURM_INVALID_NODE_NAME, "slurm_load_node",
			   "Invalid node name %s", name);
		return;
	}
	if (rest_ctld_info(r, REQUEST_NODE_INFO, &req, RESPONSE_NODE_INFO,
			   &resp, "slurm_load_node")) {
		hostlist_destroy(want);
		return;
	}
	m = resp.data;
	sel.last_update = m->last_update;
	sel.nodes = xcalloc(m->cnt + 1, sizeof(node_info_t));
	for (uint32_t i = 0; i < m->cnt; i++)
		if (!want || hostlist_find(want, m->nodes[i].name) >= 0)
			sel.nodes[sel.cnt++] = m->nodes[i];
	if (want && !sel.cnt)
		rest_error(r, ESLURM_INVALID_NODE_NAME, "slurm_load_node",
			   "Unable to query node %s", name);
	else {
		json_object_object_add(r->resp, "last_update",
				       cli_json_time(sel.last_update));
		rest_list_write(r, "nodes", &(rest_list_recs_t){
			cli_node_fields, sel.nodes, sizeof(*sel.nodes),
			sel.cnt });
	}
	xfree(sel.nodes);
	msg_free(&resp);
	hostlist_destroy(want);
}

void rest_op_nodes(rest_req_t *r)
{
	nodes_answer(r, NULL);
}

void rest_op_node_get(rest_req_t *r)
{
	nodes_answer(r, r->param[0]);
}

void rest_op_node_delete(rest_req_t *r)
{
	rest_error_http(r, 501, ESLURM_ACCESS_DENIED, "slurm_delete_node",
			"Deleting node %s: Sluice has no dynamic nodes",
			r->param[0]);
}

/* The update_node_msg body: state[], reason, comment, features, gres,
 * weight.  Anything else in it is refused by name. */
static const struct {
	const char *name;
	uint32_t    state;
} node_state_names[] = {
	{ "DOWN", NODE_STATE_DOWN }, { "DRAIN", NODE_STATE_DRAIN },
	{ "FAIL", NODE_STATE_FAIL }, { "RESUME", NODE_RESUME },
	{ "UNDRAIN", NODE_STATE_UNDRAIN }, { "IDLE", NODE_STATE_IDLE },
	{ "FUTURE", NODE_STATE_FUTURE },
};

static int node_update_state(rest_req_t *r, json_object *v,
			     node_update_msg_t *u)
{
	if (!json_object_is_type(v, json_type_array) ||
	    json_object_array_length(v) != 1) {
		rest_error(r, ESLURM_REST_FAIL_PARSING, "slurm_update_node",
			   "state: expected one state in a list, as [\"DRAIN\"]");
		return -1;
	}
	v = json_object_array_get_idx(v, 0);
	for (size_t i = 0; i < sizeof(node_state_names) /
				sizeof(node_state_names[0]); i++) {
		if (!strcasecmp(json_object_get_string(v),
				node_state_names[i].name)) {
			u->node_state = node_state_names[i].state;
			return 0;
		}
	}
	rest_error(r, ESLURM_REST_FAIL_PARSING, "slurm_update_node",
		   "state: %s is not a state a node can be set to",
		   json_object_get_string(v));
	return -1;
}

/* A member a client sends in a full object but that asks for nothing:
 * "", [], {"set": false}. */
static bool empty_value(json_object *v)
{
	json_object *set;

	if (!v || json_object_is_type(v, json_type_null))
		return true;
	if (json_object_is_type(v, json_type_string))
		return !*json_object_get_string(v);
	if (json_object_is_type(v, json_type_array))
		return json_object_array_length(v) == 0;
	if (json_object_is_type(v, json_type_object) &&
	    json_object_object_get_ex(v, "set", &set))
		return !json_object_get_boolean(set);
	return false;
}

/* A hostlist_string or csv_string: "a,b" or ["a", "b"]. */
static char *joined(json_object *v)
{
	char *s = NULL;

	if (!json_object_is_type(v, json_type_array))
		return xstrdup(json_object_get_string(v));
	for (size_t i = 0; i < json_object_array_length(v); i++) {
		if (i)
			xstrcatc(&s, ',');
		xstrcat(&s, json_object_get_string(
			json_object_array_get_idx(v, i)));
	}
	return s;
}

static int node_update_parse(rest_req_t *r, json_object *b,
			     node_update_msg_t *u)
{
	if (!json_object_is_type(b, json_type_object)) {
		rest_error(r, ESLURM_REST_FAIL_PARSING, "slurm_update_node",
			   "the body must be an update_node_msg object");
		return -1;
	}
	json_object_object_foreach(b, k, v) {
		const char *s = json_object_get_string(v);

		if (empty_value(v))
			continue;
		if (!strcmp(k, "state")) {
			if (node_update_state(r, v, u) < 0)
				return -1;
		} else if (!strcmp(k, "reason")) {
			u->reason = xstrdup(s);
		} else if (!strcmp(k, "comment")) {
			u->comment = xstrdup(s);
		} else if (!strcmp(k, "features")) {
			u->features = joined(v);
		} else if (!strcmp(k, "gres")) {
			u->gres = xstrdup(s);
		} else if (!strcmp(k, "name")) {
			xfree(u->node_names);
			u->node_names = joined(v);
		} else if (!strcmp(k, "weight")) {
			json_object *n = rest_json_get(v, "number");

			u->weight = (uint32_t)json_object_get_int64(n ? n : v);
		} else if (!strcmp(k, "reason_uid")) {
			/* the controller records the caller as the reason's
			 * author, as for scontrol: naming anyone else would
			 * be ignored, so it is refused */
			uid_t uid;

			if ((uid_cache_by_name(s, &uid, NULL) < 0 &&
			     strtoul(s, NULL, 10) != r->uid) ||
			    (uid_cache_by_name(s, &uid, NULL) == 0 &&
			     uid != r->uid)) {
				rest_error(r, ESLURM_REST_FAIL_PARSING,
					   "slurm_update_node",
					   "reason_uid: Sluice records the "
					   "caller, %s, as the reason's author",
					   r->user);
				return -1;
			}
		} else {
			rest_error(r, ESLURM_REST_FAIL_PARSING,
				   "slurm_update_node",
				   "%s: not supported by Sluice's node update",
				   k);
			return -1;
		}
	}
	return 0;
}

static void node_update(rest_req_t *r, const char *path_name)
{
	node_update_msg_t u = { .node_state = NO_VAL32, .weight = NO_VAL32 };
	json_object *b = rest_ctld_body(r, "slurm_update_node");

	if (!b)
		return;
	if (node_update_parse(r, b, &u) == 0) {
		if (path_name) {
			xfree(u.node_names);
			u.node_names = xstrdup(path_name);
		}
		if (!u.node_names || !*u.node_names)
			rest_error(r, ESLURM_INVALID_NODE_NAME,
				   "slurm_update_node", "No node name given");
		else if ((u.node_state == NODE_STATE_DOWN ||
			  u.node_state == NODE_STATE_DRAIN ||
			  u.node_state == NODE_STATE_FAIL) && !u.reason)
			rest_error(r, ESLURM_REST_FAIL_PARSING,
				   "slurm_update_node",
				   "You must specify a reason when DOWNING or "
				   "DRAINING a node");
		else
			rest_ctld_rc(r, REQUEST_UPDATE_NODE, &u,
				     "slurm_update_node");
	}
	xfree(u.node_names);
	xfree(u.reason);
	xfree(u.comment);
	xfree(u.features);
	xfree(u.gres);
	json_object_put(b);
}

void rest_op_nodes_update(rest_req_t *r)
{
	node_update(r, NULL);
}

void rest_op_node_update(rest_req_t *r)
{
	node_update(r, r->param[0]);
}

/* ---- partitions ---- */

static void parts_answer(rest_req_t *r, const char *name)
{
	info_request_msg_t req = { .show_flags = SHOW_ALL };
	part_info_msg_t sel = { 0 };
	const part_info_msg_t *m;
	slurm_msg_t resp;

	if (rest_ctld_info(r, REQUEST_PARTITION_INFO, &req,
			   RESPONSE_PARTITION_INFO, &resp,
			   "slurm_load_partitions"))
		return;
	m = resp.data;
	sel.last_update = m->last_update;
	sel.parts = xcalloc(m->cnt + 1, sizeof(part_info_t));
	for (uint32_t i = 0; i < m->cnt; i++)
		if (!name || !strcmp(name, m->parts[i].name))
			sel.parts[sel.cnt++] = m->parts[i];
	if (name && !sel.cnt)
		rest_error(r, ESLURM_INVALID_PARTITION_NAME,
			   "slurm_load_partitions",
			   "Unable to find partition %s", name);
	else
		take(r, cli_parts_doc(&sel), "partitions");
	xfree(sel.parts);
	msg_free(&resp);
}

void rest_op_partitions(rest_req_t *r)
{
	parts_answer(r, NULL);
}

void rest_op_partition_get(rest_req_t *r)
{
	parts_answer(r, r->param[0]);
}

/* ---- diag ---- */

void rest_op_diag(rest_req_t *r)
{
	stats_info_request_msg_t req = { 0 };
	slurm_msg_t resp;

	if (rest_ctld_info(r, REQUEST_STATS_INFO, &req, RESPONSE_STATS_INFO,
			   &resp, "slurm_get_statistics"))
		return;
	json_object_object_add(r->resp, "statistics", cli_diag_json(resp.data));
	msg_free(&resp);
}

/* ---- shares ---- */

static char **csv_list(const char *csv)
{
	char **list = NULL, *copy, *save, *t;

	if (!csv || !*csv)
		return NULL;
	copy = xstrdup(csv);
	for (t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
		list = xstrarray_append(list, t);
	xfree(copy);
	return list;
}

void rest_op_shares(rest_req_t *r)
{
	share_request_msg_t req = {
		.accounts = csv_list(rest_query(r, "accounts")),
		.users = csv_list(rest_query(r, "users")),
	};
	slurm_msg_t resp;

	if (!req.users)
		req.flags = SHARE_ALL_USERS;
	if (rest_ctld_info(r, REQUEST_SHARE_INFO, &req, RESPONSE_SHARE_INFO,
			   &resp, "slurm_associations_get_shares") == 0) {
		json_object_object_add(r->resp, "shares",
				       cli_shares_json(resp.data));
		msg_free(&resp);
	}
	xstrarray_free(req.accounts);
	xstrarray_free(req.users);
}

/* ---- reservations ---- */

static void resvs_answer(rest_req_t *r, const char *name)
{
	info_request_msg_t req = { .show_flags = SHOW_ALL };
	const resv_info_msg_t *m;
	slurm_msg_t resp;
	bool *want = NULL;
	uint32_t n = 0;

	if (rest_ctld_info(r, REQUEST_RESERVATION_INFO, &req,
			   RESPONSE_RESERVATION_INFO, &resp,
			   "slurm_load_reservations"))
		return;
	m = resp.data;
	if (name) {
		want = xcalloc(m->cnt + 1, sizeof(bool));
		for (uint32_t i = 0; i < m->cnt; i++)
			if (!xstrcmp(m->resvs[i].name, name))
				n += want[i] = true;
	}
	if (name && !n)
		rest_error(r, ESLURM_RESERVATION_INVALID,
			   "slurm_load_reservations",
			   "Unable to find reservation %s", name);
	else
		take(r, cli_resvs_doc(m, want), "reservations");
	xfree(want);
	msg_free(&resp);
}

void rest_op_reservations(rest_req_t *r)
{
	resvs_answer(r, NULL);
}

void rest_op_reservation_get(rest_req_t *r)
{
	resvs_answer(r, r->param[0]);
}

void rest_op_reservation_delete(rest_req_t *r)
{
	resv_name_msg_t req = { .name = r->param[0] };

	rest_ctld_rc(r, REQUEST_DELETE_RESERVATION, &req,
		     "slurm_delete_reservation");
}

/* POST reservation / reservations (v0.0.43): create each reservation,
 * or update it when one of that name exists, as scontrol would. */
static bool resv_exists(rest_req_t *r, const char *name)
{
	info_request_msg_t req = { .show_flags = SHOW_ALL };
	const resv_info_msg_t *m;
	slurm_msg_t resp;
	bool found = false;

	if (!name || rest_ctld_info(r, REQUEST_RESERVATION_INFO, &req,
				    RESPONSE_RESERVATION_INFO, &resp,
				    "slurm_load_reservations"))
		return false;
	m = resp.data;
	for (uint32_t i = 0; i < m->cnt && !found; i++)
		found = !xstrcmp(m->resvs[i].name, name);
	msg_free(&resp);
	return found;
}

static int resv_one(rest_req_t *r, json_object *o, json_object *done)
{
	resv_desc_t d;
	char *err = NULL;
	int rc = rest_resv_parse(o, &d, &err);

	if (rc) {
		rest_error_http(r, 400, rc, "slurm_create_reservation", "%s",
				err ? err : slurm_strerror(rc));
		xfree(err);
		return rc;
	}
	if (resv_exists(r, d.name)) {
		rc = rest_ctld_rc(r, REQUEST_UPDATE_RESERVATION, &d,
				  "slurm_update_reservation");
	} else {
		slurm_msg_t resp;

		if (rest_ctld_info(r, REQUEST_CREATE_RESERVATION, &d,
				   RESPONSE_CREATE_RESERVATION, &resp,
				   "slurm_create_reservation") == 0) {
			const resv_name_msg_t *n = resp.data;

			json_object_object_add(o, "name",
					       json_object_new_string(n->name));
			msg_free(&resp);
		} else {
			rc = SLURM_ERROR;
		}
	}
	if (!rc)
		json_object_array_add(done, json_object_get(o));
	fields_free(resv_desc_fields, &d);
	return rc;
}

void rest_op_reservation_post(rest_req_t *r)
{
	json_object *b = rest_ctld_body(r, "slurm_create_reservation");
	json_object *done = json_object_new_array();

	json_object_object_add(r->resp, "reservations", done);
	if (b)
		resv_one(r, b, done);
	json_object_put(b);
}

void rest_op_reservations_post(rest_req_t *r)
{
	json_object *b = rest_ctld_body(r, "slurm_create_reservation");
	json_object *done = json_object_new_array(), *list = NULL;

	json_object_object_add(r->resp, "reservations", done);
	if (!b)
		return;
	if (!json_object_object_get_ex(b, "reservations", &list) ||
	    !json_object_is_type(list, json_type_array)) {
		rest_error_http(r, 400, ESLURM_REST_FAIL_PARSING,
				"slurm_create_reservation",
				"reservations: expected a list");
	} else {
		for (size_t i = 0; i < json_object_array_length(list); i++)
			if (resv_one(r, json_object_array_get_idx(list, i),
				     done))
				break;
	}
	json_object_put(b);
}
