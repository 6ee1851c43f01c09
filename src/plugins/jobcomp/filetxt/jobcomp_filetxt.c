/* jobcomp_filetxt.c — JobCompType=jobcomp/filetxt: one line per ended job
 * appended to JobCompLoc, in Slurm's format:
 *
 *   JobId=4 UserId=alice(1001) GroupId=alice(1001) Name=x JobState=COMPLETED
 *   Partition=debug TimeLimit=5 StartTime=... EndTime=... NodeList=n1
 *   NodeCnt=1 ProcCnt=1 WorkDir=/home/alice ReservationName= Tres=cpu=1,...
 *   Account= QOS= WcKey= Cluster=c SubmitTime=... EligibleTime=...
 *   [ArrayJobId=2 ArrayTaskId=1 ]DerivedExitCode=0:0 ExitCode=0:0
 *
 * (one line, a space after every field).  The file is opened for each
 * line, so it may be rotated at any time.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "common/parse_util.h"
#include "common/plugin.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/jobcomp.h"

static char *loc;
static char *cluster;
static int   last_errno;        /* log a failing file once, not per job */

static int ft_init(const slurm_conf_t *conf, char *err, size_t errlen)
{
	if (!conf->job_comp_loc || conf->job_comp_loc[0] != '/') {
		snprintf(err, errlen, "jobcomp/filetxt: JobCompLoc must be an absolute file name");
		return -1;
	}
	xfree(loc);
	xfree(cluster);
	loc = xstrdup(conf->job_comp_loc);
	cluster = xstrdup(conf->cluster_name);
	last_errno = 0;
	return 0;
}

static void ft_fini(void)
{
	xfree(loc);
	xfree(cluster);
}

static void when(time_t t, char *buf, size_t len)
{
	struct tm tm;

	if (!t || !localtime_r(&t, &tm) ||
	    !strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm))
		snprintf(buf, len, "unknown");
}

static const char *s(const char *v)
{
	return v ? v : "";
}

static void ft_job_end(const job_view_t *j)
{
	char start[32], end[32], submit[32], elig[32], ec[16], dec[16];
	char limit[16], *line, *array = NULL;
	int fd;

	when(j->start_time ? j->start_time : j->end_time, start, sizeof(start));
	when(j->end_time, end, sizeof(end));
	when(j->submit_time, submit, sizeof(submit));
	when(j->eligible_time, elig, sizeof(elig));
	job_exit_code_str(j->exit_code, ec, sizeof(ec));
	job_exit_code_str(j->derived_ec, dec, sizeof(dec));
	if (j->time_limit == INFINITE32 || j->time_limit == NO_VAL32)
		snprintf(limit, sizeof(limit), "UNLIMITED");
	else
		snprintf(limit, sizeof(limit), "%u", j->time_limit);
	if (j->array_job_id)
		array = xstrdup_printf("ArrayJobId=%u ArrayTaskId=%u ",
				       j->array_job_id, j->array_task_id);
	line = xstrdup_printf(
		"JobId=%u UserId=%s(%u) GroupId=%s(%u) Name=%s JobState=%s "
		"Partition=%s TimeLimit=%s StartTime=%s EndTime=%s "
		"NodeList=%s NodeCnt=%u ProcCnt=%u WorkDir=%s "
		"ReservationName=%s Tres=%s Account=%s QOS=%s WcKey=%s "
		"Cluster=%s SubmitTime=%s EligibleTime=%s %s"
		"DerivedExitCode=%s ExitCode=%s \n",
		j->job_id, s(j->user_name), j->user_id, s(j->group_name),
		j->group_id, s(j->name),
		job_state_string(j->job_state),
		s(j->partition), limit, start, end,
		j->nodes && *j->nodes ? j->nodes : "(null)",
		j->nodes && *j->nodes ? j->num_nodes : 0,
		j->nodes && *j->nodes ? j->num_cpus : 0, s(j->work_dir),
		s(j->reservation),
		j->tres_alloc_str && *j->tres_alloc_str ? j->tres_alloc_str :
							  s(j->tres_req_str),
		s(j->account), s(j->qos), s(j->wckey), s(cluster), submit,
		elig, array ? array : "", dec, ec);
	fd = open(loc, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, line, strlen(line)) != (ssize_t) strlen(line)) {
		if (errno != last_errno)
			error("jobcomp/filetxt: %s: %s (JobId=%u not recorded)",
			      loc, strerror(errno), j->job_id);
		last_errno = errno;
	} else {
		last_errno = 0;
	}
	if (fd >= 0)
		close(fd);
	xfree(line);
	xfree(array);
}

static const jobcomp_ops_t ops = {
	.init = ft_init,
	.fini = ft_fini,
	.job_end = ft_job_end,
};

const struct sluice_plugin sluice_plugin = {
	.type = "jobcomp",
	.name = "filetxt",
	.abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = JOBCOMP_OPS_VERSION,
	.ops = &ops,
};
