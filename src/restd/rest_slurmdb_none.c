/* rest_slurmdb_none.c — /slurmdb/v0.0.4N/ operations Sluice's
 * slurmrestd does not serve: adding and deleting wckeys (sacctmgr does),
 * cloud instances (Sluice's controller records none), and the statistics
 * of slurmdbd's own RPCs (diag: sacctmgr show stats prints them).
 *
 * A list of what does not exist is answered truthfully (empty, whatever
 * the filters, as they filter nothing); a request that would create or
 * report something is refused with 501 and says why, never accepted. */
#include <string.h>

#include "restd/rest_ctld.h"
#include "restd/rest_handlers.h"
#include "restd/rest_resp.h"
#include "restd/rest_val.h"
#include "slurm/slurm_errno.h"

void rest_op_dbd_diag(rest_req_t *r)
{
	json_object_object_add(r->resp, "statistics", json_object_new_object());
	rest_error_http(r, 501, ESLURM_NOT_SUPPORTED, "slurmdb_get_stats",
			"Sluice's slurmrestd does not serve slurmdbd's "
			"statistics yet (sacctmgr show stats prints them)");
}

void rest_op_dbd_instances(rest_req_t *r)
{
	/* only a cloud (node_features/instance) controller records them */
	json_object_object_add(r->resp, "instances", json_object_new_array());
}

void rest_op_dbd_wckey_delete(rest_req_t *r)
{
	json_object_object_add(r->resp, "deleted_wckeys",
			       json_object_new_array());
	rest_error_http(r, 501, ESLURM_NOT_SUPPORTED, "slurmdb_wckeys_remove",
			"Nothing deleted: Sluice's slurmrestd does not delete "
			"wckeys yet (sacctmgr delete wckey does)");
}

void rest_op_dbd_wckeys_post(rest_req_t *r)
{
	json_object *body = rest_ctld_body(r, "slurmdb_wckeys_add"), *list;

	if (!body)
		return;
	list = rest_json_get(body, "wckeys");
	if (!list || !json_object_is_type(list, json_type_array))
		rest_error(r, ESLURM_REST_FAIL_PARSING, "slurmdb_wckeys_add",
			   "wckeys: expected a list of records");
	else if (json_object_array_length(list))
		rest_error_http(r, 501, ESLURM_NOT_SUPPORTED,
				"slurmdb_wckeys_add",
				"Sluice's slurmrestd does not add wckeys yet "
				"(sacctmgr add wckey does): none added");
	json_object_put(body);
}
