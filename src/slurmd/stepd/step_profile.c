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
	const char *type = st->conf->acct_gather_profile_type;

	if (!c)
		return;
	st->acctg_freq = xstrdup(c->acctg_freq);
	if ((c->profile & PROFILE_TASK) && !(c->profile & PROFILE_NONE)) {
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
	step_cred_free(c);
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
