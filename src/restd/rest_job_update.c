/* rest_job_update.c — POST job/{job_id}: a job_desc_msg of changes into
 * the job_update_msg_t that scontrol update job sends.
 *
 * The body goes through the same property table as a submit (so a
 * value means the same in both); the rows marked for updates are then
 * copied into the update message.  Any other property with a value is
 * refused: the update message cannot carry it.
 */
#include <string.h>

#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "restd/rest_job_desc.h"
#include "restd/rest_job_desc_int.h"
#include "restd/rest_val.h"
#include "slurm/slurm_errno.h"

/* Move the string fields the update carries (NULL = not given). */
static void take_strings(job_update_msg_t *u, job_desc_t *d)
{
	u->name = d->name, d->name = NULL;
	u->comment = d->comment, d->comment = NULL;
	u->partition = d->partition, d->partition = NULL;
	u->features = d->features, d->features = NULL;
	u->exc_nodes = d->exc_nodes, d->exc_nodes = NULL;
	u->req_nodes = d->req_nodes, d->req_nodes = NULL;
	u->dependency = d->dependency, d->dependency = NULL;
	u->account = d->account, d->account = NULL;
	u->qos = d->qos, d->qos = NULL;
	u->reservation = d->reservation, d->reservation = NULL;
}

int rest_job_update_parse(json_object *job, int ver, job_update_msg_t *u,
			  int *hold, json_object *warnings, char **err)
{
	rest_jd_extra_t x = { .update = true, .hold = -1 };
	job_desc_t d;
	int rc = 0;

	job_update_init(u);
	*hold = -1;
	job_desc_init(&d);
	if (!rest_jd_version_ok(ver)) {
		rest_val_fail(err, "version", "data_parser v0.0.%d is not "
			      "served", ver);
		return ESLURM_REST_FAIL_PARSING;
	}
	if ((rc = rest_jd_walk(job, "job", ver, &d, &x, warnings, err)))
		goto out;
	u->time_limit = d.time_limit;
	u->priority = d.priority;
	u->nice = d.nice;
	u->min_nodes = d.min_nodes;
	u->max_nodes = d.max_nodes;
	u->begin_time = d.begin_time;
	u->requeue = d.requeue;
	take_strings(u, &d);
	u->job_id_str = x.job_id;
	x.job_id = NULL;
	*hold = x.hold;
out:
	xfree(x.job_id);
	job_desc_free_members(&d);
	return rc;
}
