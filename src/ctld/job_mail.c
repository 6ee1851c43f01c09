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
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/job_array.h"
#include "ctld/job_mail.h"

typedef struct {
	char    *prog;
	char   **argv;
	char   **env;
	uint32_t job_id;
} mail_t;

/* Does the --mail-type list ask for this event?  ALL is BEGIN, END,
 * FAIL, INVALID_DEPEND, REQUEUE and STAGE_OUT (not the TIME_LIMIT ones). */
static bool _mail_wanted(const char *types, const char *name, bool fail)
{
	char **t = xstrsplit(types ? types : "", ",", NULL);
	bool all_ok = strncmp(name, "TIME_LIMIT", 10) != 0, yes = false;

	for (size_t i = 0; t[i] && !yes; i++)
		yes = !strcasecmp(t[i], name) ||
		      (all_ok && !strcasecmp(t[i], "ALL")) ||
		      (fail && !strcasecmp(t[i], "END"));
	xstrarray_free(t);
	return yes;
}

static bool _has_type(const char *types, const char *name)
{
	char **t = xstrsplit(types ? types : "", ",", NULL);
	bool yes = false;

	for (size_t i = 0; t[i] && !yes; i++)
		yes = !strcasecmp(t[i], name);
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
	if (!strcmp(what, "Invalid dependency")) {
		xstrfmtcat(&s, " %s", what);
		return s;
	}
	if (!strncmp(what, "Reached", 7)) {
		_mail_hms((long) (now - i->start_time - i->pre_sus_time), t,
			  sizeof(t));
		xstrfmtcat(&s, " %s, Run time %s", what, t);
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

static const char *const ev_name[] = {
	[JOB_MAIL_BEGIN] = "BEGIN", [JOB_MAIL_END] = "END",
	[JOB_MAIL_REQUEUE] = "REQUEUE",
	[JOB_MAIL_INVALID_DEPEND] = "INVALID_DEPEND",
	[JOB_MAIL_TIME50] = "TIME_LIMIT_50", [JOB_MAIL_TIME80] = "TIME_LIMIT_80",
	[JOB_MAIL_TIME90] = "TIME_LIMIT_90", [JOB_MAIL_TIME100] = "TIME_LIMIT",
};
static const char *const ev_what[] = {
	[JOB_MAIL_BEGIN] = "Began", [JOB_MAIL_END] = "Ended",
	[JOB_MAIL_REQUEUE] = "Requeued",
	[JOB_MAIL_INVALID_DEPEND] = "Invalid dependency",
	[JOB_MAIL_TIME50] = "Reached 50% of time limit",
	[JOB_MAIL_TIME80] = "Reached 80% of time limit",
	[JOB_MAIL_TIME90] = "Reached 90% of time limit",
	[JOB_MAIL_TIME100] = "Reached time limit",
};

static void _mail_free(mail_t *m)
{
	xfree(m->prog);
	xstrarray_free(m->argv);
	xstrarray_free(m->env);
	xfree(m);
}

/* Mailed once the event is on disk: never for a change the journal
 * refused (a cancel answered with an error mails no "Ended"). */
static void _mail_saved(void *arg)
{
	mail_t *m = arg;
	pthread_attr_t attr;
	pthread_t t;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&t, &attr, _mail_run, m)) {
		error("job_mail: cannot start a thread for JobId=%u",
		      m->job_id);
		_mail_free(m);
	}
	pthread_attr_destroy(&attr);
}

static void _mail_send(const job_record_t *j, const char *name, const char *what,
		  char *subject)
{
	const job_info_t *i = &j->info;
	mail_t *m = xmalloc(sizeof(*m));

	m->prog = xstrdup(ctld_conf()->mail_prog);
	m->job_id = i->job_id;
	m->argv = xstrarray_append(m->argv, "mail");
	m->argv = xstrarray_append(m->argv, "-s");
	m->argv = xstrarray_append(m->argv, subject);
	m->argv = xstrarray_append(m->argv, i->mail_user && *i->mail_user ?
				   i->mail_user : i->user_name);
	m->env = _mail_env(j, what);
	info("%s: JobId=%u %s mail to %s: %s", __func__, i->job_id, name,
	     m->argv[3], subject);
	xfree(subject);
	commit_after(_mail_saved, m);
}

/* BEGIN/END/FAIL of a task without ARRAY_TASKS: one mail for the array,
 * when its first task starts and when its last one ends. */
static void _mail_array_summary(job_record_t *j, job_mail_event_t ev, bool fail)
{
	const job_info_t *i = &j->info;
	uint32_t state;
	bool mixed;
	int lo, hi;
	char *s;

	s = xstrdup_printf("Slurm Array Summary Job_id=%u_* (%u) Name=%s",
			   i->array_job_id, i->array_job_id,
			   i->name ? i->name : "");
	if (ev == JOB_MAIL_BEGIN) {
		if (!job_array_mail_first_start(j) ||
		    !_mail_wanted(i->mail_type, "BEGIN", false)) {
			xfree(s);
			return;
		}
		xstrcat(&s, " Began");
		_mail_send(j, "BEGIN", "Began", s);
		return;
	}
	if (!job_array_mail_last_end(j, &state, &mixed, &lo, &hi)) {
		xfree(s);
		return;
	}
	fail = !mixed && state >= JOB_FAILED;
	if (!_mail_wanted(i->mail_type, fail ? "FAIL" : "END", fail)) {
		xfree(s);
		return;
	}
	xstrfmtcat(&s, " %s, %s, ExitCode [%d-%d]", fail ? "Failed" : "Ended",
		   mixed ? "Mixed" : job_state_string(state), lo, hi);
	_mail_send(j, fail ? "FAIL" : "END", fail ? "Failed" : "Ended", s);
}

void job_mail(job_record_t *j, job_mail_event_t ev)
{
	const job_info_t *i = &j->info;
	const char *prog = ctld_conf()->mail_prog;
	uint32_t base = i->job_state & JOB_STATE_BASE;
	bool fail = ev == JOB_MAIL_END && base >= JOB_FAILED;
	const char *name = fail ? "FAIL" : ev_name[ev];
	const char *what = fail ? "Failed" : ev_what[ev];

	if (ev == JOB_MAIL_BEGIN)
		j->mail_time_sent = 0;
	if (!i->mail_type || !*i->mail_type || !prog || !*prog)
		return;
	if ((ev == JOB_MAIL_BEGIN || ev == JOB_MAIL_END) && i->array_job_id &&
	    i->array_task_id != NO_VAL32 &&
	    !_has_type(i->mail_type, "ARRAY_TASKS")) {
		_mail_array_summary(j, ev, fail);
		return;
	}
	if (!_mail_wanted(i->mail_type, name, fail))
		return;
	_mail_send(j, name, what, _mail_subject(j, what, time(NULL)));
}

void job_mail_time_check(time_t now)
{
	static const struct { job_mail_event_t ev; int pct; } steps[] = {
		{ JOB_MAIL_TIME100, 100 }, { JOB_MAIL_TIME90, 90 },
		{ JOB_MAIL_TIME80, 80 }, { JOB_MAIL_TIME50, 50 },
	};
	job_record_t *j;

	for (j = job_mgr_running_first(); j; j = j->run_next) {
		const job_info_t *i = &j->info;
		time_t limit;

		if (i->job_state != JOB_RUNNING || !i->end_time ||
		    !i->mail_type || !strcasestr(i->mail_type, "TIME_LIMIT"))
			continue;
		limit = (time_t) i->time_limit * 60;
		/* every step reached, once (Slurm sends those it finds at
		 * one check together) */
		for (size_t k = sizeof(steps) / sizeof(steps[0]); k-- > 0;) {
			uint8_t bit = (uint8_t) (1u << k);

			if (now < i->end_time - limit * (100 - steps[k].pct) /
			    100 || (j->mail_time_sent & bit))
				continue;
			j->mail_time_sent |= bit;
			job_mail(j, steps[k].ev);
		}
	}
}
