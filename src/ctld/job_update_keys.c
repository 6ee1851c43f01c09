/* job_update_keys.c — the request, mail and time keys of scontrol update
 * JobId= (job_update_keys.h). */
#include <string.h>
#include <strings.h>
#include <time.h>

#include "common/job_info.h"
#include "common/parse_util.h"
#include "common/uid_cache.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/assoc_mgr.h"
#include "ctld/controller.h"
#include "ctld/job_res.h"
#include "ctld/job_update_keys.h"
#include "slurm/slurm_errno.h"

#define BASE(j) ((j)->info.job_state & JOB_STATE_BASE)

/* Does the update change what the job asks to run with? */
static bool _request_keys(const job_update_msg_t *u)
{
	return u->min_mem_node != NO_VAL64 || u->min_mem_cpu != NO_VAL64 ||
	       u->num_tasks != NO_VAL32 || u->cpus_per_task != NO_VAL16 ||
	       u->gres || u->wckey || u->std_out || u->std_err ||
	       u->std_in || u->work_dir || u->shared != NO_VAL16 ||
	       u->contiguous != NO_VAL16;
}

static int _check_gres(const char *gres)
{
	uint16_t gpn = 0, gpt = 0;
	uint32_t gpj = 0;
	char *type = NULL;
	int rc = 0;

	if (!*gres)
		return 0;
	if (job_res_parse_gpus(gres, NULL, NULL, &gpn, &gpt, &gpj, &type) < 0 ||
	    !job_res_gres_known(gres))
		rc = ESLURM_INVALID_GRES;
	xfree(type);
	return rc;
}

static int _check_times(const job_record_t *j, const job_update_msg_t *u)
{
	uint32_t limit = u->time_limit != NO_VAL32 ? u->time_limit :
		j->info.time_limit;
	uint32_t tmin = u->time_min != NO_VAL32 ? u->time_min :
		j->info.time_min;
	time_t deadline = u->deadline ? u->deadline : j->info.deadline;
	time_t now = time(NULL);

	if (u->time_min != NO_VAL32 && limit != NO_VAL32 && tmin > limit)
		return ESLURM_INVALID_TIME_MIN_LIMIT;
	if (u->deadline && u->deadline < now)
		return ESLURM_INVALID_TIME_VALUE;
	if ((u->deadline || u->time_min != NO_VAL32) && deadline &&
	    BASE(j) == JOB_PENDING && tmin && tmin != INFINITE32 &&
	    now + (time_t) tmin * 60 > deadline)
		return ESLURM_INVALID_TIME_MIN_LIMIT;
	return 0;
}

/* TrackWCKey with AccountingStorageEnforce=wckeys: the job's user must
 * have the new key on this cluster, as at submit. */
static int _check_wckey(const job_record_t *j, const char *wckey)
{
	char name[256];

	if (!ctld_conf()->track_wckey ||
	    !(assoc_mgr_enforce() & ACCT_ENFORCE_WCKEYS))
		return 0;
	if (!*wckey || uid_cache_name(j->info.user_id, name, sizeof(name)) < 0 ||
	    !assoc_mgr_wckey_id(name, wckey))
		return ESLURM_INVALID_WCKEY;
	return 0;
}

int job_update_keys_check(const job_record_t *j, const job_update_msg_t *u,
			  bool op)
{
	int rc;

	if (_request_keys(u) && BASE(j) != JOB_PENDING)
		return ESLURM_JOB_NOT_PENDING;
	/* as Slurm: only an operator lets a job share its nodes, or asks
	 * contiguous nodes; a user may drop the latter */
	if (u->shared != NO_VAL16 && !op)
		return ESLURM_ACCESS_DENIED;
	if (u->contiguous != NO_VAL16 && !op &&
	    u->contiguous > (j->info.contiguous == NO_VAL16 ? 0 :
			     j->info.contiguous))
		return ESLURM_ACCESS_DENIED;
	if (u->num_tasks != NO_VAL32 && !u->num_tasks)
		return ESLURM_BAD_TASK_COUNT;
	if (u->cpus_per_task != NO_VAL16 && !u->cpus_per_task)
		return ESLURM_BAD_TASK_COUNT;
	if (u->work_dir && !*u->work_dir)
		return ESLURM_NOT_SUPPORTED;    /* a job runs somewhere */
	if (u->gres && (rc = _check_gres(u->gres)))
		return rc;
	if (u->wckey && (rc = _check_wckey(j, u->wckey)))
		return rc;
	return _check_times(j, u);
}

static void _set(char **dst, const char *src)
{
	xfree(*dst);
	*dst = *src ? xstrdup(src) : NULL;
}

static void _memory(job_info_t *i, const job_update_msg_t *u)
{
	if (u->min_mem_node != NO_VAL64) {
		i->pn_min_memory = u->min_mem_node;
		i->mem_per_cpu = false;
	}
	if (u->min_mem_cpu != NO_VAL64) {
		i->pn_min_memory = u->min_mem_cpu;
		i->mem_per_cpu = true;
	}
}

static void _tasks(job_record_t *j, const job_update_msg_t *u)
{
	job_info_t *i = &j->info;
	uint16_t cpt;

	if (u->num_tasks != NO_VAL32) {
		i->num_tasks = u->num_tasks;
		j->ntasks_given = true;
	}
	if (u->cpus_per_task != NO_VAL16) {
		i->cpus_per_task = u->cpus_per_task;
		j->cpt_given = true;
	}
	if (u->num_tasks == NO_VAL32 && u->cpus_per_task == NO_VAL16)
		return;
	cpt = i->cpus_per_task && i->cpus_per_task != NO_VAL16 ?
		i->cpus_per_task : 1;
	if (i->num_tasks != NO_VAL32)
		i->num_cpus = i->num_tasks * cpt;
}

void job_update_keys_apply(job_record_t *j, const job_update_msg_t *u)
{
	job_info_t *i = &j->info;

	_memory(i, u);
	_tasks(j, u);
	if (u->gres) {
		/* TresPerNode as a submit stores it: "gres/nic:4" */
		xfree(i->gres);
		i->gres = job_res_tres_spec(u->gres);
		j->gpus_parsed = false;
	}
	if (u->wckey)
		_set(&i->wckey, u->wckey);
	if (u->std_out)
		_set(&i->std_out, u->std_out);
	if (u->std_err)
		_set(&i->std_err, u->std_err);
	if (u->std_in)
		_set(&i->std_in, u->std_in);
	if (u->work_dir)
		_set(&i->work_dir, u->work_dir);
	if (u->shared == 1)
		i->shared = JOB_SHARED_OK;
	else if (u->shared == 0 && i->shared == JOB_SHARED_OK)
		i->shared = JOB_SHARED_UNSET;
	if (u->contiguous != NO_VAL16)
		i->contiguous = u->contiguous;
	if (u->mail_type)
		_set(&i->mail_type, strcasecmp(u->mail_type, "NONE") ?
		     u->mail_type : "");
	if (u->mail_user)
		_set(&i->mail_user, u->mail_user);
	if (u->deadline)
		i->deadline = u->deadline;
	if (u->time_min != NO_VAL32)
		i->time_min = u->time_min;
	if (u->admin_comment)
		_set(&i->admin_comment, u->admin_comment);
	if (_request_keys(u))
		j->bitmap_gen = 0;
}
