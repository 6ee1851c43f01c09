/* sim_report.c — jobs.csv, summary.json and the table (sim_report.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "common/xmalloc.h"
#include "common/xstring.h"
#include "sim/sim_report.h"

#define TAU 10.0                /* bounded slowdown's floor (s) */

typedef struct {
	double *v;
	size_t  cnt, cap;
} series_t;

typedef struct {
	char          *name;
	size_t         jobs;
	series_t       wait;
	UT_hash_handle hh;
} group_t;

typedef struct {
	size_t   jobs, started, backfilled, refused;
	series_t wait, bsld;
	group_t *by_part, *by_acct, *by_size;
	double   makespan, util, sim_seconds;
} summary_t;

static void _add(series_t *s, double v)
{
	if (s->cnt == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->v = xrealloc(s->v, s->cap * sizeof(*s->v));
	}
	s->v[s->cnt++] = v;
}

static int _dcmp(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return x < y ? -1 : x > y;
}

static double _mean(const series_t *s)
{
	double sum = 0;

	for (size_t i = 0; i < s->cnt; i++)
		sum += s->v[i];
	return s->cnt ? sum / (double) s->cnt : 0;
}

/* Quantile q of a sorted series (nearest rank). */
static double _quantile(const series_t *s, double q)
{
	size_t k;

	if (!s->cnt)
		return 0;
	k = (size_t) ceil(q * (double) s->cnt);
	return s->v[k ? k - 1 : 0];
}

static group_t *_group(group_t **h, const char *name)
{
	group_t *g;

	HASH_FIND_STR(*h, name, g);
	if (g)
		return g;
	g = xmalloc(sizeof(*g));
	g->name = xstrdup(name);
	HASH_ADD_KEYPTR(hh, *h, g->name, strlen(g->name), g);
	return g;
}

static const char *_size_bucket(uint32_t nodes)
{
	return nodes <= 1 ? "1" : nodes <= 4 ? "2-4" : nodes <= 16 ? "5-16" :
		nodes <= 64 ? "17-64" : "65+";
}

static void _summarise(const trace_t *t, const sim_result_t *r,
		       summary_t *s)
{
	static const char *const sizes[] = { "1", "2-4", "5-16", "17-64",
					     "65+" };
	group_t *g, *tmp;

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < 5; i++)
		_group(&s->by_size, sizes[i]);
	s->jobs = r->cnt;
	for (size_t i = 0; i < r->cnt; i++) {
		const sim_job_t *j = &r->jobs[i];
		const trace_job_t *tj = &t->jobs[i];
		const char *part = j->partition ? j->partition : "";
		double wait, run;

		if (!j->job_id) {
			s->refused++;
			continue;
		}
		_group(&s->by_part, part)->jobs++;
		_group(&s->by_acct, tj->account ? tj->account : "")->jobs++;
		if (!j->start)
			continue;
		_group(&s->by_size, _size_bucket(j->nnodes))->jobs++;
		s->started++;
		s->backfilled += j->backfilled;
		wait = (double) (j->start - tj->submit);
		run = j->end > j->start ? (double) (j->end - j->start) : 0;
		_add(&s->wait, wait);
		_add(&s->bsld, fmax(1.0, (wait + run) / fmax(run, TAU)));
		_add(&_group(&s->by_part, part)->wait, wait);
		_add(&_group(&s->by_acct, tj->account ? tj->account :
			     "")->wait, wait);
		_add(&_group(&s->by_size, _size_bucket(j->nnodes))->wait,
		     wait);
	}
	qsort(s->wait.v, s->wait.cnt, sizeof(double), _dcmp);
	qsort(s->bsld.v, s->bsld.cnt, sizeof(double), _dcmp);
	HASH_ITER(hh, s->by_part, g, tmp)
		qsort(g->wait.v, g->wait.cnt, sizeof(double), _dcmp);
	HASH_ITER(hh, s->by_acct, g, tmp)
		qsort(g->wait.v, g->wait.cnt, sizeof(double), _dcmp);
	HASH_ITER(hh, s->by_size, g, tmp)
		qsort(g->wait.v, g->wait.cnt, sizeof(double), _dcmp);
	s->makespan = r->last_end > r->first_submit ?
		(double) (r->last_end - r->first_submit) : 0;
	s->sim_seconds = s->makespan;
	s->util = s->makespan && r->total_cpus ? (double) r->cpu_seconds /
		((double) r->total_cpus * s->makespan) : 0;
}

static void _free_groups(group_t **h)
{
	group_t *g, *tmp;

	HASH_ITER(hh, *h, g, tmp) {
		HASH_DEL(*h, g);
		xfree(g->name);
		xfree(g->wait.v);
		xfree(g);
	}
}

static void _free_summary(summary_t *s)
{
	xfree(s->wait.v);
	xfree(s->bsld.v);
	_free_groups(&s->by_part);
	_free_groups(&s->by_acct);
	_free_groups(&s->by_size);
}

/* ---- CSV ---- */

/* A field as CSV: quoted when it holds a comma, quote or newline. */
static void _csv_str(FILE *f, const char *s)
{
	if (!s)
		s = "";
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

int sim_report_csv(FILE *f, const trace_t *t, const sim_result_t *r)
{
	fputs("JobID,User,Account,Partition,QOS,NNodes,NCPUs,Submit,Start,"
	      "End,Wait,TimeLimit,Runtime,State,Backfilled\n", f);
	for (size_t i = 0; i < r->cnt; i++) {
		const sim_job_t *j = &r->jobs[i];
		const trace_job_t *tj = &t->jobs[i];

		_csv_str(f, tj->id);
		fputc(',', f);
		_csv_str(f, tj->user);
		fputc(',', f);
		_csv_str(f, tj->account);
		fputc(',', f);
		_csv_str(f, j->partition);
		fputc(',', f);
		_csv_str(f, tj->qos);
		fprintf(f, ",%u,%u,%lld,", j->start ? j->nnodes : tj->nnodes,
			j->start ? j->ncpus : tj->ncpus,
			(long long) tj->submit);
		if (j->start)
			fprintf(f, "%lld,", (long long) j->start);
		else
			fputc(',', f);
		if (j->end)
			fprintf(f, "%lld,", (long long) j->end);
		else
			fputc(',', f);
		if (j->start)
			fprintf(f, "%lld,", (long long) (j->start - tj->submit));
		else
			fputc(',', f);
		fprintf(f, "%u,", j->time_limit ? j->time_limit :
			tj->time_limit);
		if (j->start && j->end)
			fprintf(f, "%lld,", (long long) (j->end - j->start));
		else
			fputc(',', f);
		fprintf(f, "%s,%d\n", j->state ? j->state : "REFUSED",
			j->backfilled ? 1 : 0);
	}
	return ferror(f) ? -1 : 0;
}

/* ---- JSON ---- */

static json_object *_wait_obj(const series_t *w)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "mean", json_object_new_double(_mean(w)));
	json_object_object_add(o, "median",
			       json_object_new_double(_quantile(w, 0.5)));
	json_object_object_add(o, "p95",
			       json_object_new_double(_quantile(w, 0.95)));
	return o;
}

static json_object *_groups_obj(group_t *h)
{
	json_object *o = json_object_new_object();
	group_t *g, *tmp;

	HASH_ITER(hh, h, g, tmp) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "jobs",
				       json_object_new_int64((int64_t) g->jobs));
		json_object_object_add(e, "wait", _wait_obj(&g->wait));
		json_object_object_add(o, g->name, e);
	}
	return o;
}

int sim_report_json(FILE *f, const trace_t *t, const sim_result_t *r)
{
	json_object *o = json_object_new_object(), *b;
	summary_t s;
	int rc;

	_summarise(t, r, &s);
	json_object_object_add(o, "jobs", json_object_new_int64((int64_t) s.jobs));
	json_object_object_add(o, "skipped",
			       json_object_new_int64((int64_t) t->skipped));
	json_object_object_add(o, "started",
			       json_object_new_int64((int64_t) s.started));
	json_object_object_add(o, "refused",
			       json_object_new_int64((int64_t) s.refused));
	json_object_object_add(o, "makespan", json_object_new_double(s.makespan));
	json_object_object_add(o, "utilisation", json_object_new_double(s.util));
	json_object_object_add(o, "wait", _wait_obj(&s.wait));
	b = json_object_new_object();
	json_object_object_add(b, "mean", json_object_new_double(_mean(&s.bsld)));
	json_object_object_add(b, "median",
			       json_object_new_double(_quantile(&s.bsld, 0.5)));
	json_object_object_add(o, "bounded_slowdown", b);
	json_object_object_add(o, "backfill_share", json_object_new_double(
		s.started ? (double) s.backfilled / (double) s.started : 0));
	json_object_object_add(o, "by_partition", _groups_obj(s.by_part));
	json_object_object_add(o, "by_account", _groups_obj(s.by_acct));
	json_object_object_add(o, "by_size", _groups_obj(s.by_size));
	json_object_object_add(o, "sim_seconds",
			       json_object_new_double(s.sim_seconds));
	json_object_object_add(o, "wall_seconds",
			       json_object_new_double(r->wall_seconds));
	json_object_object_add(o, "speedup", json_object_new_double(
		r->wall_seconds > 0 ? s.sim_seconds / r->wall_seconds : 0));
	rc = fprintf(f, "%s\n", json_object_to_json_string_ext(o,
		JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED)) < 0 ? -1 : 0;
	json_object_put(o);
	_free_summary(&s);
	return rc;
}

/* ---- table ---- */

static void _row(FILE *f, const char *what, const char *name, size_t jobs,
		 const series_t *w)
{
	fprintf(f, "  %-10s %-16s %8zu %10.0f %10.0f %10.0f\n", what, name,
		jobs, _mean(w), _quantile(w, 0.5), _quantile(w, 0.95));
}

void sim_report_table(FILE *f, const trace_t *t, const sim_result_t *r)
{
	summary_t s;
	group_t *g, *tmp;

	_summarise(t, r, &s);
	fprintf(f, "sluice-sim: %zu jobs (%zu started, %zu refused, %zu "
		"lines skipped), makespan %.0f s\n", s.jobs, s.started,
		s.refused, t->skipped, s.makespan);
	fprintf(f, "  utilisation %.1f%%, backfill share %.1f%%, bounded "
		"slowdown mean %.2f median %.2f\n", 100 * s.util,
		s.started ? 100.0 * (double) s.backfilled /
		(double) s.started : 0, _mean(&s.bsld),
		_quantile(&s.bsld, 0.5));
	fprintf(f, "  %-10s %-16s %8s %10s %10s %10s\n", "", "", "jobs",
		"wait mean", "median", "p95");
	_row(f, "all", "", s.started, &s.wait);
	HASH_ITER(hh, s.by_part, g, tmp)
		_row(f, "partition", g->name, g->jobs, &g->wait);
	HASH_ITER(hh, s.by_acct, g, tmp)
		_row(f, "account", *g->name ? g->name : "(none)", g->jobs,
		     &g->wait);
	HASH_ITER(hh, s.by_size, g, tmp)
		_row(f, "nodes", g->name, g->jobs, &g->wait);
	fprintf(f, "  simulated %.0f s in %.2f s of wall time (%.0fx)\n",
		s.sim_seconds, r->wall_seconds, r->wall_seconds > 0 ?
		s.sim_seconds / r->wall_seconds : 0);
	_free_summary(&s);
}
