/* spank_item.c — spank_get_item(): what the host described about the job
 * and the task, by item.  Items that need the job exist in the remote
 * context only (ESPANK_NOT_REMOTE elsewhere), but for the few srun's
 * local context has once its step exists; task items only in task
 * callbacks (ESPANK_NOT_TASK).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "common/spank_int.h"

#define API __attribute__((visibility("default")))

static const char version_str[] = SLURM_VERSION_STRING;
static char version_major[8], version_minor[8], version_micro[8];

static void version_parts(void)
{
	snprintf(version_major, sizeof(version_major), "%u",
		 SLURM_VERSION_MAJOR(SLURM_VERSION_NUMBER));
	snprintf(version_minor, sizeof(version_minor), "%02u",
		 SLURM_VERSION_MINOR(SLURM_VERSION_NUMBER));
	snprintf(version_micro, sizeof(version_micro), "%u",
		 SLURM_VERSION_MICRO(SLURM_VERSION_NUMBER));
}

static spank_err_t version_item(spank_item_t item, va_list ap)
{
	char **p = va_arg(ap, char **);

	if (!p)
		return ESPANK_BAD_ARG;
	version_parts();
	switch (item) {
	case S_SLURM_VERSION:
		*p = (char *)version_str;
		break;
	case S_SLURM_VERSION_MAJOR:
		*p = version_major;
		break;
	case S_SLURM_VERSION_MINOR:
		*p = version_minor;
		break;
	default:
		*p = version_micro;
		break;
	}
	return ESPANK_SUCCESS;
}

static bool in_task(spank_t h)
{
	return h->task && (h->cb == SPANK_CB_TASK_INIT_PRIVILEGED ||
			   h->cb == SPANK_CB_TASK_INIT ||
			   h->cb == SPANK_CB_TASK_POST_FORK ||
			   h->cb == SPANK_CB_TASK_EXIT);
}

static spank_err_t put_u32(va_list ap, uint32_t v)
{
	uint32_t *p = va_arg(ap, uint32_t *);

	if (!p)
		return ESPANK_BAD_ARG;
	*p = v;
	return ESPANK_SUCCESS;
}

/* Pid or id lookups: the batch step has one task, local id 0. */
static spank_err_t map_item(spank_t h, spank_item_t item, va_list ap)
{
	const spank_task_t *t = h->task;
	const spank_job_t *j = h->stack->job;
	uint32_t *out;
	long key;

	if (item == S_JOB_PID_TO_GLOBAL_ID || item == S_JOB_PID_TO_LOCAL_ID)
		key = va_arg(ap, pid_t);
	else
		key = (long)va_arg(ap, uint32_t);
	out = va_arg(ap, uint32_t *);
	if (!out)
		return ESPANK_BAD_ARG;
	if (item == S_JOB_PID_TO_GLOBAL_ID || item == S_JOB_PID_TO_LOCAL_ID) {
		if (!t || !t->pid)
			return ESPANK_NOT_EXECD;
		if (key != t->pid)
			return ESPANK_NOEXIST;
		*out = item == S_JOB_PID_TO_GLOBAL_ID ? t->global_id :
			(uint32_t)t->local_id;
		return ESPANK_SUCCESS;
	}
	if (key < 0)
		return ESPANK_NOEXIST;
	if (item == S_JOB_LOCAL_TO_GLOBAL_ID) {
		if (key >= (long)j->local_task_count)
			return ESPANK_NOEXIST;
		*out = j->gtids ? j->gtids[key] : (uint32_t)key;
		return ESPANK_SUCCESS;
	}
	if (key >= (long)j->total_task_count)
		return ESPANK_NOEXIST;
	if (!j->gtids) {
		if (key >= (long)j->local_task_count)
			return ESPANK_NOEXIST;
		*out = (uint32_t)key;
		return ESPANK_SUCCESS;
	}
	for (uint32_t i = 0; i < j->local_task_count; i++) {
		if (j->gtids[i] == (uint32_t)key) {
			*out = i;
			return ESPANK_SUCCESS;
		}
	}
	return ESPANK_NOEXIST;
}

static spank_err_t task_item(spank_t h, spank_item_t item, va_list ap)
{
	const spank_task_t *t = h->task;

	if (!in_task(h))
		return ESPANK_NOT_TASK;
	switch (item) {
	case S_TASK_ID: {
		int *p = va_arg(ap, int *);

		if (!p)
			return ESPANK_BAD_ARG;
		*p = t->local_id;
		return ESPANK_SUCCESS;
	}
	case S_TASK_GLOBAL_ID:
		return put_u32(ap, t->global_id);
	case S_TASK_EXIT_STATUS: {
		int *p = va_arg(ap, int *);

		if (h->cb != SPANK_CB_TASK_EXIT)
			return ESPANK_NOT_AVAIL;
		if (!p)
			return ESPANK_BAD_ARG;
		*p = t->exit_status;
		return ESPANK_SUCCESS;
	}
	default: {
		pid_t *p = va_arg(ap, pid_t *);

		if (!p)
			return ESPANK_BAD_ARG;
		if (!t->pid)
			return ESPANK_NOT_AVAIL;
		*p = t->pid;
		return ESPANK_SUCCESS;
	}
	}
}

static spank_err_t str_item(va_list ap, const char *v)
{
	char **p = va_arg(ap, char **);

	if (!p)
		return ESPANK_BAD_ARG;
	if (!v)
		return ESPANK_NOT_AVAIL;
	*p = (char *)v;
	return ESPANK_SUCCESS;
}

static spank_err_t u64_item(va_list ap, uint64_t v)
{
	uint64_t *p = va_arg(ap, uint64_t *);

	if (!p)
		return ESPANK_BAD_ARG;
	*p = v;
	return ESPANK_SUCCESS;
}

static spank_err_t argv_item(const spank_job_t *j, va_list ap)
{
	int *argc = va_arg(ap, int *);
	char ***argv = va_arg(ap, char ***);
	int n = 0;

	if (!argc || !argv)
		return ESPANK_BAD_ARG;
	while (j->argv && j->argv[n])
		n++;
	*argc = n;
	*argv = j->argv;
	return ESPANK_SUCCESS;
}

static spank_err_t env_item(spank_t h, va_list ap)
{
	char ***p = va_arg(ap, char ***);
	char ***env = h->task && h->task->env ? h->task->env :
		h->stack->job->env;

	if (!p)
		return ESPANK_BAD_ARG;
	*p = env ? *env : NULL;
	return ESPANK_SUCCESS;
}

static spank_err_t gids_item(const spank_job_t *j, va_list ap)
{
	gid_t **gids = va_arg(ap, gid_t **);
	int *n = va_arg(ap, int *);

	if (!gids || !n)
		return ESPANK_BAD_ARG;
	*gids = j->gids;
	*n = j->ngids;
	return ESPANK_SUCCESS;
}

static spank_err_t job_item(spank_t h, spank_item_t item, va_list ap)
{
	const spank_job_t *j = h->stack->job;

	switch (item) {
	case S_JOB_UID:
	case S_JOB_GID: {
		uint32_t *p = va_arg(ap, uint32_t *);   /* uid_t, gid_t */

		if (!p)
			return ESPANK_BAD_ARG;
		*p = item == S_JOB_UID ? j->uid : j->gid;
		return ESPANK_SUCCESS;
	}
	case S_JOB_ID:               return put_u32(ap, j->job_id);
	case S_JOB_STEPID:           return put_u32(ap, j->step_id);
	case S_JOB_NNODES:           return put_u32(ap, j->nnodes);
	case S_JOB_NODEID:           return put_u32(ap, j->node_id);
	case S_JOB_LOCAL_TASK_COUNT: return put_u32(ap, j->local_task_count);
	case S_JOB_TOTAL_TASK_COUNT: return put_u32(ap, j->total_task_count);
	case S_STEP_CPUS_PER_TASK:   return put_u32(ap, j->cpus_per_task);
	case S_SLURM_RESTART_COUNT:  return put_u32(ap, j->restart_count);
	case S_JOB_ARRAY_ID:         return put_u32(ap, j->array_job_id);
	case S_JOB_ARRAY_TASK_ID:    return put_u32(ap, j->array_task_id);
	case S_JOB_NCPUS: {
		uint16_t *p = va_arg(ap, uint16_t *);

		if (!p)
			return ESPANK_BAD_ARG;
		*p = j->ncpus;
		return ESPANK_SUCCESS;
	}
	case S_JOB_ARGV:             return argv_item(j, ap);
	case S_JOB_ENV:              return env_item(h, ap);
	case S_JOB_SUPPLEMENTARY_GIDS: return gids_item(j, ap);
	case S_JOB_ALLOC_CORES:
	case S_STEP_ALLOC_CORES:     return str_item(ap, j->alloc_cores);
	case S_JOB_ALLOC_MEM:
	case S_STEP_ALLOC_MEM:       return u64_item(ap, j->alloc_mem);
	default:
		return ESPANK_BAD_ARG;
	}
}

/* Prolog/Epilog plugins know who and which job, nothing more. */
static spank_err_t job_script_item(spank_t h, spank_item_t item, va_list ap)
{
	if (item != S_JOB_UID && item != S_JOB_GID && item != S_JOB_ID)
		return ESPANK_NOT_AVAIL;
	return job_item(h, item, ap);
}

/* Outside a job (sbatch, srun before the step): who runs the command. */
static spank_err_t own_id(spank_item_t item, va_list ap)
{
	uint32_t *p = va_arg(ap, uint32_t *);

	if (!p)
		return ESPANK_BAD_ARG;
	*p = item == S_JOB_UID ? (uint32_t)getuid() : (uint32_t)getgid();
	return ESPANK_SUCCESS;
}

/* What srun's plugins may ask (once the step exists; before, nothing). */
static bool local_item(spank_item_t item)
{
	return item == S_JOB_UID || item == S_JOB_GID || item == S_JOB_ID ||
	       item == S_JOB_STEPID || item == S_JOB_ARGV ||
	       item == S_JOB_ENV || item == S_JOB_TOTAL_TASK_COUNT ||
	       item == S_JOB_NNODES;
}

static bool needs_job(spank_item_t item)
{
	return item <= S_JOB_SUPPLEMENTARY_GIDS ||
	       item >= S_STEP_CPUS_PER_TASK;
}

API spank_err_t spank_get_item(spank_t h, spank_item_t item, ...)
{
	va_list ap;
	spank_err_t rc;

	if (!h || h->magic != SPANK_HANDLE_MAGIC || !h->stack)
		return ESPANK_BAD_ARG;
	if ((int)item < 0 || item > S_JOB_ARRAY_TASK_ID)
		return ESPANK_BAD_ARG;
	va_start(ap, item);
	if (item >= S_SLURM_VERSION && item <= S_SLURM_VERSION_MICRO)
		rc = version_item(item, ap);
	else if (h->stack->ctx == S_CTX_JOB_SCRIPT && h->stack->job)
		rc = job_script_item(h, item, ap);
	else if (h->stack->ctx == S_CTX_LOCAL && h->stack->job)
		rc = local_item(item) ? job_item(h, item, ap) :
			ESPANK_NOT_REMOTE;
	else if (h->stack->ctx == S_CTX_LOCAL && local_item(item) &&
		 item != S_JOB_UID && item != S_JOB_GID)
		rc = ESPANK_NOT_AVAIL;      /* no step yet */
	else if (h->stack->ctx != S_CTX_REMOTE && needs_job(item) &&
		 item != S_JOB_UID && item != S_JOB_GID)
		rc = ESPANK_NOT_REMOTE;
	else if (!h->stack->job && (item == S_JOB_UID || item == S_JOB_GID))
		rc = own_id(item, ap);
	else if (!h->stack->job)
		rc = ESPANK_NOT_REMOTE;
	else if (item >= S_TASK_ID && item <= S_TASK_PID)
		rc = task_item(h, item, ap);
	else if (item >= S_JOB_PID_TO_GLOBAL_ID &&
		 item <= S_JOB_GLOBAL_TO_LOCAL_ID)
		rc = map_item(h, item, ap);
	else
		rc = job_item(h, item, ap);
	va_end(ap);
	return rc;
}
