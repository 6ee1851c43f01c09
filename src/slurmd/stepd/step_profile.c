/* step_profile.c — a profiled step's usage time series (step_profile.h). */
#include "slurmd/stepd/step_profile.h"

#include <string.h>
#include <time.h>

#include "common/log.h"
#include "common/parse_util.h"
#include "common/profile.h"
#include "common/step_cred.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurmd/common/ctld_send.h"
#include "slurmd/stepd/step_acct.h"
#include "slurmd/stepd/step_energy.h"

struct step_profile {
	acct_profile_rec_t *rows;        /* not sent yet */
	uint32_t            cnt;
	uint32_t            cap;
	time_t              last_send;
	double              prev_t;       /* monotonic seconds */
	uint64_t            prev_cpu;
};

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + ts.tv_nsec / 1e9;
}

void step_profile_init(step_t *st)
{
	step_cred_t *c = st->m->cred_payload ?
			 step_cred_decode(st->m->cred_payload) : NULL;

	if (!c)
		return;
	step_profile_set(st, c->profile, c->acctg_freq);
	step_cred_free(c);
}

void step_profile_set(step_t *st, uint32_t profile, const char *acctg_freq)
{
	const char *type = st->conf->acct_gather_profile_type;

	xfree(st->acctg_freq);
	st->acctg_freq = xstrdup(acctg_freq);
	if ((profile & PROFILE_TASK) && !(profile & PROFILE_NONE)) {
		if (!xstrcmp(type, PROFILE_TYPE_DBD)) {
			st->prof = xmalloc(sizeof(*st->prof));
			st->prof->last_send = time(NULL);
			st->prof->prev_t = mono_now();
			debug("StepId=%u.%u: profiled (task)", st->m->job_id,
			      st->m->step_id);
		} else {
			debug("StepId=%u.%u: --profile=task, but "
			      "AcctGatherProfileType is %s here: not "
			      "profiled", st->m->job_id, st->m->step_id,
			      type ? type : PROFILE_TYPE_NONE);
		}
	}
}

static void send_rows(step_t *st)
{
	struct step_profile *p = st->prof;
	job_profile_msg_t *m;

	if (!p->cnt || !st->sender)
		return;
	m = xmalloc(sizeof(*m));
	m->job_id = st->m->job_id;
	m->step_id = st->m->step_id;
	m->node_name = xstrdup(st->node_name);
	m->recs = p->rows;
	m->cnt = p->cnt;
	p->rows = NULL;
	p->cnt = p->cap = 0;
	p->last_send = time(NULL);
	ctld_sender_queue(st->sender, REQUEST_JOB_PROFILE, m, -1);
}

static void take_row(step_t *st)
{
	struct step_profile *p = st->prof;
	acct_profile_rec_t *r;
	double now = mono_now(), dt;
	uint64_t cpu = 0;

	if (p->cnt == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 16;
		p->rows = xrealloc(p->rows, p->cap * sizeof(*p->rows));
	}
	r = &p->rows[p->cnt++];
	memset(r, 0, sizeof(*r));
	r->time = time(NULL);
	for (uint32_t i = 0; i < st->ntasks; i++) {
		const step_task_t *t = &st->tasks[i];

		cpu += t->usage.cpu_usec;
		if (t->exited)
			continue;
		r->ntasks++;
		r->rss_kb += t->usage.rss_kb;
		r->vsize_kb += t->usage.vsize_kb;
		r->read_bytes += t->usage.read_bytes;
		r->write_bytes += t->usage.write_bytes;
	}
	r->cpu_usec = cpu;
	dt = now - p->prev_t;
	r->cpu_util = dt > 0 && cpu >= p->prev_cpu ?
		      (double) (cpu - p->prev_cpu) / 1e6 / dt * 100.0 : 0;
	p->prev_t = now;
	p->prev_cpu = cpu;
	r->energy_j = st->energy ? step_energy_joules(st->energy) : NO_VAL64;
}

void step_profile_tick(step_t *st)
{
	struct step_profile *p = st->prof;

	if (!p || st->completing)
		return;
	take_row(st);
	if (p->cnt >= PROFILE_SEND_ROWS ||
	    time(NULL) - p->last_send >= PROFILE_SEND_SECS)
		send_rows(st);
}

void step_profile_flush(step_t *st)
{
	if (!st->prof)
		return;
	take_row(st);
	send_rows(st);
}

void step_profile_free(step_t *st)
{
	if (st->prof) {
		for (uint32_t i = 0; i < st->prof->cnt; i++)
			xfree(st->prof->rows[i].node);
		xfree(st->prof->rows);
		xfree(st->prof);
	}
	xfree(st->acctg_freq);
}

/* ---- the batch script ---- */

step_t *step_profile_batch(slurm_conf_t *conf, const char *node,
			   const batch_launch_msg_t *job, pid_t pid,
			   struct event_base *base, ctld_sender_t *sender,
			   struct step_energy *energy)
{
	step_t *st;

	if (!(job->profile & PROFILE_TASK) || (job->profile & PROFILE_NONE))
		return NULL;
	st = xmalloc(sizeof(*st));
	st->conf = conf;
	st->node_name = xstrdup(node);
	st->m = xmalloc(sizeof(*st->m));
	st->m->job_id = job->job_id;
	st->m->step_id = (uint32_t) ACCT_STEP_BATCH;
	st->ntasks = 1;
	st->tasks = xcalloc(1, sizeof(*st->tasks));
	st->tasks[0].st = st;
	st->tasks[0].pid = pid;
	st->base = base;
	st->sender = sender;
	st->energy = energy;
	step_profile_set(st, job->profile, job->acctg_freq);
	if (!st->prof) {
		step_profile_batch_free(st);
		return NULL;
	}
	step_acct_start(st);
	return st;
}

void step_profile_batch_end(step_t *st, const struct rusage *ru)
{
	if (!st || st->completing)
		return;
	step_acct_stop(st);
	st->tasks[0].exited = true;
	step_acct_task_exit(st, &st->tasks[0], ru);
	step_profile_flush(st);
	st->completing = true;
}

void step_profile_batch_free(step_t *st)
{
	if (!st)
		return;
	step_acct_stop(st);
	step_profile_free(st);
	xfree(st->tasks);
	xfree(st->m);
	xfree(st->node_name);
	xfree(st);
}
