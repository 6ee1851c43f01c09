/* rest_resv.c — reservation_desc_msg, one member at a time. */
#include "restd/rest_resv.h"

#include <string.h>

#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "restd/rest_val.h"
#include "slurm/slurm_errno.h"

static int noval32(json_object *v, const char *path, uint32_t *out,
		   char **err)
{
	uint64_t n;
	int kind;

	if (rest_val_noval(v, path, NO_VAL32 - 1, &kind, &n, err) < 0)
		return -1;
	*out = kind == REST_NOVAL_INFINITE ? INFINITE32 :
		kind == REST_NOVAL_UNSET ? NO_VAL32 : (uint32_t)n;
	return 0;
}

static int when(json_object *v, const char *path, time_t *out, char **err)
{
	uint64_t n;
	int kind;

	if (rest_val_noval(v, path, INT32_MAX, &kind, &n, err) < 0)
		return -1;
	*out = kind ? 0 : (time_t)n;
	return 0;
}

static int flags(json_object *v, resv_desc_t *d, char **err)
{
	char *csv = NULL;
	int rc;

	if (rest_val_csv(v, "reservation.flags", &csv, err) < 0)
		return -1;
	rc = csv ? resv_flags_parse(csv, &d->flags, &d->flags_clear,
				    &d->purge_comp_time) : 0;
	if (rc < 0)
		rest_val_fail(err, "reservation.flags",
			      "%s names a flag Sluice does not know", csv);
	xfree(csv);
	return rc;
}

int rest_resv_parse(json_object *o, resv_desc_t *d, char **err)
{
	int rc = 0;

	resv_desc_init(d);
	*err = NULL;
	if (!json_object_is_type(o, json_type_object)) {
		rest_val_fail(err, "reservation", "expected an object");
		return ESLURM_REST_FAIL_PARSING;
	}
	json_object_object_foreach(o, k, v) {
		json_object *t;

		if (!v || json_object_is_type(v, json_type_null))
			continue;
		if (!strcmp(k, "name"))
			rc = rest_val_str(v, "reservation.name", &d->name, err);
		else if (!strcmp(k, "start_time"))
			rc = when(v, "reservation.start_time", &d->start_time,
				  err);
		else if (!strcmp(k, "end_time"))
			rc = when(v, "reservation.end_time", &d->end_time, err);
		else if (!strcmp(k, "duration"))
			rc = noval32(v, "reservation.duration", &d->duration,
				     err);
		else if (!strcmp(k, "node_list"))
			rc = rest_val_csv(v, "reservation.node_list",
					  &d->node_list, err);
		else if (!strcmp(k, "node_count"))
			rc = noval32(v, "reservation.node_count", &d->node_cnt,
				     err);
		else if (!strcmp(k, "core_count"))
			rc = noval32(v, "reservation.core_count", &d->core_cnt,
				     err);
		else if (!strcmp(k, "users"))
			rc = rest_val_csv(v, "reservation.users", &d->users,
					  err);
		else if (!strcmp(k, "accounts"))
			rc = rest_val_csv(v, "reservation.accounts",
					  &d->accounts, err);
		else if (!strcmp(k, "groups"))
			rc = rest_val_csv(v, "reservation.groups", &d->groups,
					  err);
		else if (!strcmp(k, "partition"))
			rc = rest_val_str(v, "reservation.partition",
					  &d->partition, err);
		else if (!strcmp(k, "features"))
			rc = rest_val_str(v, "reservation.features",
					  &d->features, err);
		else if (!strcmp(k, "flags"))
			rc = flags(v, d, err);
		else if (!strcmp(k, "purge_completed") &&
			 json_object_object_get_ex(v, "time", &t))
			rc = noval32(t, "reservation.purge_completed.time",
				     &d->purge_comp_time, err);
		else if (rest_val_is_empty(v))
			continue;
		else {
			rest_val_fail(err, "reservation", "%s: not supported "
				      "by Sluice", k);
			rc = -2;
		}
		if (rc < 0)
			break;
	}
	if (rc < 0) {
		int code = rc == -2 ? ESLURM_NOT_SUPPORTED :
			ESLURM_REST_FAIL_PARSING;

		fields_free(resv_desc_fields, d);
		resv_desc_init(d);
		return code;
	}
	return 0;
}
