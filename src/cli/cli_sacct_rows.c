/* cli_sacct_rows.c — which of slurmdbd's job records sacct shows, in
 * which order, and the query that fetches them (cli_sacct.h).  sacct's
 * table and JSON and slurmrestd's /slurmdb/.../jobs all go through here,
 * so they list the same jobs.  No static state: slurmrestd's workers
 * walk answers at the same time.
 */
#define _GNU_SOURCE   /* qsort_r */
#include <stdlib.h>
#include <string.h>

#include "cli/cli_common.h"
#include "cli/cli_sacct.h"
#include "common/msg.h"
#include "common/net.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

int sacct_dbd_rpc(uint16_t type, dbd_job_cond_msg_t *cond, slurm_msg_t *resp)
{
	const slurm_conf_t *c = cli_conf();
	const char *host = c->accounting_storage_host ?
		c->accounting_storage_host : "localhost";
	char *cluster = cond->cluster;
	int rc;

	if (!conf_accounting_dbd(c))
		return ESLURM_DB_CONNECTION;
	if (!cond->cluster)
		cond->cluster = c->cluster_name;
	rc = net_rpc(host, c->accounting_storage_port, type, cond, resp,
		     c->message_timeout * 1000 * 3);
	cond->cluster = cluster;
	return rc;
}

int sacct_dbd_query(uint16_t type, uint16_t rtype, dbd_job_cond_msg_t *cond,
		    void **out)
{
	slurm_msg_t resp;
	int rc;

	*out = NULL;
	if ((rc = sacct_dbd_rpc(type, cond, &resp)))
		return rc;
	if (resp.type != rtype || !resp.data) {
		rc = cli_resp_rc(&resp);
		msg_free(&resp);
		return rc ? rc : SLURM_UNEXPECTED_MSG_ERROR;
	}
	if ((rc = *(const int32_t *)resp.data)) {
		msg_free(&resp);
		return rc;
	}
	*out = resp.data;
	resp.data = NULL;
	msg_free(&resp);
	return 0;
}

int sacct_query(dbd_job_cond_msg_t *cond, dbd_jobs_msg_t **out)
{
	return sacct_dbd_query(REQUEST_DBD_JOBS, RESPONSE_DBD_JOBS, cond,
			       (void **)out);
}

static bool on_nodes(const acct_job_rec_t *j, const hostlist_t *want)
{
	char err[128];
	hostlist_t *hl;
	bool hit = false;

	if (!want)
		return true;
	if (!j->nodes || !(hl = hostlist_parse(j->nodes, err, sizeof(err))))
		return false;
	for (size_t i = 0; i < hostlist_count(hl) && !hit; i++)
		for (size_t k = 0; k < hostlist_count(want) && !hit; k++)
			hit = !strcmp(hostlist_nth(hl, i), hostlist_nth(want, k));
	hostlist_destroy(hl);
	return hit;
}

static int by_id_then_pos(const void *a, const void *b, void *arg)
{
	const dbd_jobs_msg_t *m = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const acct_job_rec_t *jx = &m->jobs[x], *jy = &m->jobs[y];
	int c;

	if (jx->job_id != jy->job_id)
		return jx->job_id < jy->job_id ? -1 : 1;
	if ((c = xstrcmp(jx->cluster, jy->cluster)))
		return c;
	return x < y ? -1 : x > y;
}

/* An array's own record (its last task, or the pending rest) comes after
 * the tasks split off it. */
static bool array_meta(const acct_job_rec_t *j)
{
	return j->array_job_id && j->job_id == j->array_job_id;
}

/* Slurm 22.05 lists jobs by submit time, then in the order their records
 * were created: a split-off array task when it was split off (its new
 * job id says when), the array's own record last. */
static int by_print_order(const void *a, const void *b, void *arg)
{
	const dbd_jobs_msg_t *m = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const acct_job_rec_t *jx = &m->jobs[x], *jy = &m->jobs[y];

	if (jx->submit != jy->submit)
		return jx->submit < jy->submit ? -1 : 1;
	if (array_meta(jx) != array_meta(jy))
		return array_meta(jx) ? 1 : -1;
	if (jx->job_id != jy->job_id)
		return jx->job_id < jy->job_id ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* qsort, after a pass that finds most answers in order already (they
 * come by submit time and id). */
static void sort_idx(uint32_t *idx, uint32_t n, const dbd_jobs_msg_t *m,
		     int (*cmp)(const void *, const void *, void *))
{
	for (uint32_t i = 1; i < n; i++)
		if (cmp(&idx[i - 1], &idx[i], (void *)m) > 0) {
			qsort_r(idx, n, sizeof(uint32_t), cmp, (void *)m);
			return;
		}
}

/* Without duplicates, a reused job id shows only its latest record: mark
 * every record that a later one (same id and cluster) replaces. */
static bool *superseded_marks(const dbd_jobs_msg_t *m, bool duplicates)
{
	bool *marks = xcalloc(m->job_cnt + 1, sizeof(bool));
	uint32_t *idx;

	if (duplicates || m->job_cnt < 2)
		return marks;
	idx = xcalloc(m->job_cnt, sizeof(uint32_t));
	for (uint32_t i = 0; i < m->job_cnt; i++)
		idx[i] = i;
	sort_idx(idx, m->job_cnt, m, by_id_then_pos);
	for (uint32_t i = 0; i + 1 < m->job_cnt; i++) {
		const acct_job_rec_t *a = &m->jobs[idx[i]];
		const acct_job_rec_t *b = &m->jobs[idx[i + 1]];

		if (a->job_id == b->job_id && !xstrcmp(a->cluster, b->cluster))
			marks[idx[i]] = true;
	}
	xfree(idx);
	return marks;
}

static bool same_job(const acct_step_rec_t *s, const acct_job_rec_t *j)
{
	return s->job_id == j->job_id && s->submit == j->submit;
}

void sacct_rows_walk(const dbd_jobs_msg_t *m, bool duplicates,
		     const hostlist_t *nodes, sacct_row_f fn, void *arg)
{
	bool *old = superseded_marks(m, duplicates);
	time_t now = time(NULL);
	uint32_t s0 = 0, sc = 0;
	uint32_t *first = xcalloc(m->job_cnt + 1, sizeof(uint32_t));
	uint32_t *last = xcalloc(m->job_cnt + 1, sizeof(uint32_t));
	uint32_t *idx = xcalloc(m->job_cnt + 1, sizeof(uint32_t));
	const acct_script_rec_t **script = xcalloc(m->job_cnt + 1,
						   sizeof(*script));

	/* Steps come in the order slurmdbd sends jobs (submit, id). */
	for (uint32_t i = 0; i < m->job_cnt; i++) {
		const acct_job_rec_t *j = &m->jobs[i];
		uint32_t s1;

		while (s0 < m->step_cnt &&
		       (m->steps[s0].submit < j->submit ||
			(m->steps[s0].submit == j->submit &&
			 m->steps[s0].job_id < j->job_id)))
			s0++;
		for (s1 = s0; s1 < m->step_cnt && same_job(&m->steps[s1], j);
		     s1++)
			;
		first[i] = s0;
		last[i] = s1;
		s0 = s1;
		idx[i] = i;
		/* scripts come in the same order, one per job at most */
		while (sc < m->script_cnt &&
		       (m->scripts[sc].submit < j->submit ||
			(m->scripts[sc].submit == j->submit &&
			 m->scripts[sc].job_id < j->job_id)))
			sc++;
		if (sc < m->script_cnt && m->scripts[sc].job_id == j->job_id &&
		    m->scripts[sc].submit == j->submit)
			script[i] = &m->scripts[sc];
	}
	sort_idx(idx, m->job_cnt, m, by_print_order);
	for (uint32_t x = 0; x < m->job_cnt; x++) {
		uint32_t i = idx[x];
		const acct_job_rec_t *j = &m->jobs[i];
		sacct_row_t row = { .job = j, .now = now,
				    .steps = m->steps ?
					     &m->steps[first[i]] : NULL,
				    .nsteps = last[i] - first[i],
				    .script = script[i] };

		for (uint32_t k = first[i]; k < last[i]; k++) {
			row.steps_cpu_usec += m->steps[k].user_usec +
					      m->steps[k].sys_usec;
			row.steps_energy += m->steps[k].consumed_energy;
		}
		if (old[i] || !on_nodes(j, nodes))
			continue;
		if (!fn(&row, arg))
			break;
	}
	xfree(idx);
	xfree(script);
	xfree(first);
	xfree(last);
	xfree(old);
}
