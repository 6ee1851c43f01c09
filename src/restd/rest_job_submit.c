/* rest_job_submit.c — the job/submit and job/allocate bodies, and one
 * job description alone: the request around the job_desc_msg objects. */
#include <string.h>

#include "common/xmalloc.h"
#include "common/xstring.h"
#include "restd/rest_job_desc.h"
#include "restd/rest_job_desc_int.h"
#include "restd/rest_val.h"
#include "slurm/slurm_errno.h"

/* ---- public: one description, submit, allocate ---- */

static int jd_fail(job_desc_t *d, int rc)
{
	job_desc_free_members(d);
	job_desc_init(d);
	return rc;
}

static int jd_version(int ver, job_desc_t *d, char **err)
{
	job_desc_init(d);
	if (rest_jd_version_ok(ver))
		return 0;
	rest_val_fail(err, "version", "data_parser v0.0.%d is not served",
		      ver);
	return ESLURM_REST_FAIL_PARSING;
}

int rest_job_desc_parse(json_object *job, int ver, job_desc_t *d,
			json_object *warnings, char **err)
{
	rest_jd_extra_t x = { .hold = -1 };
	int rc;

	if ((rc = jd_version(ver, d, err)))
		return rc;
	rc = rest_jd_walk(job, "job", ver, d, &x, warnings, err);
	xfree(x.job_id);
	return rc ? jd_fail(d, rc) : 0;
}

/* The one job of "job", or of a one-element "jobs"/"hetjob" list. */
static int one_job(json_object *body, const char *list_key, int ver,
		   job_desc_t *d, json_object *warnings, char **err)
{
	json_object *job = NULL, *list = NULL;
	const char *base = "job";

	json_object_object_get_ex(body, "job", &job);
	json_object_object_get_ex(body, list_key, &list);
	if (job && json_object_is_type(job, json_type_null))
		job = NULL;
	if (list && json_object_is_type(list, json_type_null))
		list = NULL;
	if (list && !json_object_is_type(list, json_type_array)) {
		rest_val_fail(err, list_key, "expected an array of job "
			      "descriptions");
		return ESLURM_REST_INVALID_JOBS_DESC;
	}
	if (list && json_object_array_length(list) > 1) {
		rest_val_fail(err, list_key, "heterogeneous jobs are not "
			      "supported by Sluice");
		return ESLURM_NOT_SUPPORTED;
	}
	if (list && json_object_array_length(list) == 1) {
		if (job) {
			rest_val_fail(err, list_key, "give either job or %s, "
				      "not both", list_key);
			return ESLURM_REST_INVALID_JOBS_DESC;
		}
		job = json_object_array_get_idx(list, 0);
		base = !strcmp(list_key, "jobs") ? "jobs[0]" : "hetjob[0]";
	}
	if (!job) {
		rest_val_fail(err, "job", "Jobs description entry not found, "
			      "empty or not dictionary or list");
		return ESLURM_REST_INVALID_JOBS_DESC;
	}
	{
		rest_jd_extra_t x = { .hold = -1 };
		int rc = rest_jd_walk(job, base, ver, d, &x, warnings, err);

		xfree(x.job_id);
		return rc;
	}
}

/* Members of a request body besides the job descriptions. */
static void body_unknown(json_object *body, const char *const *known,
			 json_object *warnings)
{
	json_object_object_foreach(body, key, val) {
		size_t i = 0;

		while (known[i] && strcmp(known[i], key))
			i++;
		if (!known[i])
			rest_warn(warnings, key, "Ignoring unknown field \"%s\" "
				  "of type %s", key, json_type_to_name(
					  json_object_get_type(val)));
	}
}

static int body_object(json_object *body, char **err)
{
	if (body && json_object_is_type(body, json_type_object))
		return 0;
	rest_val_fail(err, "body", "expected a JSON object");
	return ESLURM_REST_FAIL_PARSING;
}

int rest_job_submit_parse(json_object *body, int ver, job_desc_t *d,
			  json_object *warnings, char **err)
{
	static const char *const known[] = { "script", "job", "jobs", NULL };
	json_object *sv = NULL;
	char *script = NULL;
	int rc;

	if ((rc = jd_version(ver, d, err)) || (rc = body_object(body, err)))
		return rc;
	body_unknown(body, known, warnings);
	if (json_object_object_get_ex(body, "script", &sv) &&
	    !json_object_is_type(sv, json_type_null) &&
	    rest_val_str(sv, "script", &script, err) < 0)
		return ESLURM_REST_FAIL_PARSING;
	if ((rc = one_job(body, "jobs", ver, d, warnings, err)))
		goto fail;
	if (script && *script && d->script && strcmp(script, d->script)) {
		rest_val_fail(err, "script", "differs from job.script (give "
			      "one of them)");
		rc = ESLURM_REST_FAIL_PARSING;
		goto fail;
	}
	if (script && *script && !d->script) {
		d->script = script;
		script = NULL;
	}
	if (!d->script || !*d->script) {
		rest_val_fail(err, "script", "%s",
			      slurm_strerror(ESLURM_JOB_SCRIPT_MISSING));
		rc = ESLURM_JOB_SCRIPT_MISSING;
		goto fail;
	}
	xfree(script);
	return 0;
fail:
	xfree(script);
	return jd_fail(d, rc);
}

int rest_job_alloc_parse(json_object *body, int ver, job_desc_t *d,
			 json_object *warnings, char **err)
{
	static const char *const known[] = { "job", "hetjob", NULL };
	int rc;

	if ((rc = jd_version(ver, d, err)) || (rc = body_object(body, err)))
		return rc;
	body_unknown(body, known, warnings);
	if ((rc = one_job(body, "hetjob", ver, d, warnings, err)))
		return jd_fail(d, rc);
	if (d->script) {
		rest_val_fail(err, "job.script", "an allocation runs no "
			      "script (use job/submit)");
		return jd_fail(d, ESLURM_REST_FAIL_PARSING);
	}
	if (d->array_inx) {
		rest_val_fail(err, "job.array", "an allocation cannot be a "
			      "job array (as salloc)");
		return jd_fail(d, ESLURM_REST_FAIL_PARSING);
	}
	return 0;
}
