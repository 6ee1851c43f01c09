/* job_mail.c — MailProg on job events (job_mail.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>

#include "common/log.h"
#include "common/spawn.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/controller.h"
#include "ctld/job_mail.h"

typedef struct {
	char    *prog;
	char   **argv;
	char   **env;
	uint32_t job_id;
} mail_t;

/* Does the --mail-type list ask for this event? */
static bool _mail_wanted(const char *types, const char *name, bool fail)
{
	char **t = xstrsplit(types ? types : "", ",", NULL);
	bool yes = false;

	for (size_t i = 0; t[i] && !yes; i++)
		yes = !strcasecmp(t[i], name) || !strcasecmp(t[i], "ALL") ||
		      (fail && !strcasecmp(t[i], "END"));
	xstrarray_free(t);
	return yes;
}

static void _mail_hms(long secs, char *buf, size_t len)
{
	if (secs < 0)
		secs = 0;
	if (secs >= 86400)
		snprintf(buf, len, "%ld-%02ld:%02ld:%02ld", secs / 86400,
			 secs / 3600 % 24, secs / 60 % 60, secs % 60);
	else
		snprintf(buf, len, "%02ld:%02ld:%02ld", secs / 3600,
			 secs / 60 % 60, secs % 60);
}

static char *_mail_subject(const job_record_t *j, const char *what, time_t now)
{
	const job_info_t *i = &j->info;
	char t[32], *s;

	if (i->array_job_id && i->array_task_id != NO_VAL32)
		s = xstrdup_printf("Slurm Array Task Job_id=%u_%u (%u) Name=%s",
				   i->array_job_id, i->array_task_id,
				   i->job_id, i->name ? i->name : "");
	else
		s = xstrdup_printf("Slurm Job_id=%u Name=%s", i->job_id,
				   i->name ? i->name : "");
	if (!strcmp(what, "Began")) {
		_mail_hms((long) (i->start_time - i->submit_time), t, sizeof(t));
		xstrfmtcat(&s, " Began, Queued time %s", t);
		return s;
	}
	_mail_hms(i->start_time ? (long) ((i->end_time ? i->end_time : now) -
				     i->start_time) : 0, t, sizeof(t));
	xstrfmtcat(&s, " %s, Run time %s, %s, ExitCode %d", what, t,
		   !strcmp(what, "Requeued") ? "REQUEUED" :
		   job_state_string(i->job_state & ~JOB_COMPLETING),
		   WIFSIGNALED(i->exit_code) ? 0 : WEXITSTATUS(i->exit_code));
	return s;
}

static char **_mail_env(const job_record_t *j, const char *what)
{
	const job_info_t *i = &j->info;
	char **env = NULL, *kv;

#define ADD(...) do { kv = xstrdup_printf(__VA_ARGS__); \
		      env = xstrarray_append(env, kv); xfree(kv); } while (0)
	ADD("SLURM_JOB_ID=%u", i->job_id);
	ADD("SLURM_JOB_NAME=%s", i->name ? i->name : "");
	ADD("SLURM_JOB_USER=%s", i->user_name ? i->user_name : "");
	ADD("SLURM_JOB_UID=%u", i->user_id);
	ADD("SLURM_JOB_MAIL_TYPE=%s", what);
	ADD("SLURM_JOB_STATE=%s", job_state_string(i->job_state &
						    ~JOB_COMPLETING));
	ADD("SLURM_JOB_PARTITION=%s", i->partition ? i->partition : "");
	ADD("SLURM_CLUSTER_NAME=%s", ctld_conf()->cluster_name ?
	    ctld_conf()->cluster_name : "");
	if (i->array_job_id && i->array_task_id != NO_VAL32) {
		ADD("SLURM_ARRAY_JOB_ID=%u", i->array_job_id);
		ADD("SLURM_ARRAY_TASK_ID=%u", i->array_task_id);
	}
	ADD("PATH=/usr/local/bin:/usr/bin:/bin");
#undef ADD
	return env;
}

static void *_mail_run(void *arg)
{
	mail_t *m = arg;
	int err = 0, status = spawn_wait(m->prog, m->argv, m->env, NULL, &err);

	if (status < 0)
		error("job_mail: cannot run %s for JobId=%u: %s", m->prog,
		      m->job_id, strerror(err));
	else if (status)
		error("job_mail: %s for JobId=%u exited 0x%x", m->prog,
		      m->job_id, (unsigned) status);
	xfree(m->prog);
	xstrarray_free(m->argv);
	xstrarray_free(m->env);
	xfree(m);
	return NULL;
}

void job_mail(const job_record_t *j, job_mail_event_t ev)
{
	const job_info_t *i = &j->info;
	const char *prog = ctld_conf()->mail_prog;
	uint32_t base = i->job_state & JOB_STATE_BASE;
	bool fail = ev == JOB_MAIL_END && base >= JOB_FAILED;
	const char *name = ev == JOB_MAIL_BEGIN ? "BEGIN" :
		ev == JOB_MAIL_REQUEUE ? "REQUEUE" : fail ? "FAIL" : "END";
	const char *what = ev == JOB_MAIL_BEGIN ? "Began" :
		ev == JOB_MAIL_REQUEUE ? "Requeued" : fail ? "Failed" : "Ended";
	mail_t *m;
	pthread_attr_t attr;
	pthread_t t;
	char *subject;

	if (!i->mail_type || !*i->mail_type || !prog || !*prog ||
	    !_mail_wanted(i->mail_type, name, fail))
		return;
	m = xmalloc(sizeof(*m));
	m->prog = xstrdup(prog);
	m->job_id = i->job_id;
	subject = _mail_subject(j, what, time(NULL));
	m->argv = xstrarray_append(m->argv, "mail");
	m->argv = xstrarray_append(m->argv, "-s");
	m->argv = xstrarray_append(m->argv, subject);
	m->argv = xstrarray_append(m->argv, i->mail_user && *i->mail_user ?
				   i->mail_user : i->user_name);
	m->env = _mail_env(j, what);
	info("%s: JobId=%u %s mail to %s: %s", __func__, i->job_id, name,
	     m->argv[3], subject);
	xfree(subject);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&t, &attr, _mail_run, m)) {
		error("job_mail: cannot start a thread for JobId=%u",
		      i->job_id);
		xfree(m->prog);
		xstrarray_free(m->argv);
		xstrarray_free(m->env);
		xfree(m);
	}
	pthread_attr_destroy(&attr);
}
