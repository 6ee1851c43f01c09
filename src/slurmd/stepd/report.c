/* report.c — batch and epilog completion messages (see report.h). */
#include "slurmd/stepd/report.h"

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurmd/stepd/step_energy.h"

static uint64_t tv_usec(const struct timeval *tv)
{
	return (uint64_t) tv->tv_sec * 1000000u + (uint64_t) tv->tv_usec;
}

void report_batch_complete(stepd_t *sd, int notify_fd, bool clean)
{
	batch_complete_msg_t *m = xmalloc(sizeof(*m));

	m->job_id = sd->job->job_id;
	m->job_rc = (uint32_t) sd->task_status;
	m->slurm_rc = 0;
	m->node_name = xstrdup(sd->node_name);
	m->user_cpu_usec = tv_usec(&sd->task_ru.ru_utime);
	m->sys_cpu_usec = tv_usec(&sd->task_ru.ru_stime);
	m->max_rss_kb = (uint64_t) sd->task_ru.ru_maxrss;
	step_energy_stop(sd->energy);
	m->consumed_energy = step_energy_joules(sd->energy);
	m->flags = clean ? BATCH_END_CLEAN : 0;
	debug("JobId=%u: reporting batch completion, status 0x%x",
	      m->job_id, m->job_rc);
	ctld_sender_queue(sd->sender, REQUEST_COMPLETE_BATCH_SCRIPT, m,
			  notify_fd);
}

void report_epilog_complete(stepd_t *sd, int rc)
{
	epilog_complete_msg_t *m = xmalloc(sizeof(*m));

	m->job_id = sd->job->job_id;
	m->rc = rc;
	m->node_name = xstrdup(sd->node_name);
	debug("JobId=%u: reporting epilog complete", m->job_id);
	ctld_sender_queue(sd->sender, MESSAGE_EPILOG_COMPLETE, m, -1);
}
