/* cli_scontrol_pids.c — scontrol listpids, listjobs, liststeps and
 * pidinfo: the jobs, steps and processes on this host, as its slurmd
 * finds them through its stepds (REQUEST_STEP_PIDS), in Slurm's formats
 * (cli_scontrol.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli_common.h"
#include "cli/cli_scontrol.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "slurm/slurm_errno.h"

#define PIDS_TIMEOUT_MS 20000

/* The rows of the node's slurmd (node: NULL for this host's); NULL
 * after printing why.  *name: the node asked. */
static step_pids_msg_t *_ask(const char *node, uint32_t job_id,
			     slurm_msg_t *resp, const char **name)
{
	const conf_node_t *n = scontrol_local_node(cli_conf(), node);
	step_pids_request_msg_t req = { .job_id = job_id };
	int rc;

	if (!n) {
		if (node)
			fprintf(stderr, "Node %s not found\n", node);
		else
			fprintf(stderr, "No slurmd of slurm.conf is on this "
				"host: name its node\n");
		return NULL;
	}
	*name = n->name;
	rc = net_rpc(n->addr ? n->addr : n->name, n->port, REQUEST_STEP_PIDS,
		     &req, resp, PIDS_TIMEOUT_MS);
	if (rc) {
		fprintf(stderr, "Unable to connect to slurmd of %s: %s\n",
			n->name, cli_comm_strerror(rc));
		return NULL;
	}
	if (resp->type != RESPONSE_STEP_PIDS || !resp->data) {
		rc = cli_resp_rc(resp);
		msg_free(resp);
		fprintf(stderr, "slurmd of %s: %s\n", n->name,
			slurm_strerror(rc ? rc : SLURM_UNEXPECTED_MSG_ERROR));
		return NULL;
	}
	return resp->data;
}

static void _step_str(uint32_t step, char *buf, size_t len)
{
	if (step == SLURM_BATCH_SCRIPT)
		snprintf(buf, len, "batch");
	else if (step == SLURM_EXTERN_CONT)
		snprintf(buf, len, "extern");
	else
		snprintf(buf, len, "%u", step);
}

/* "123", "123.4", "*" or none: *job (0: all), *step (NO_VAL32: all). */
static int _parse_job(const char *s, uint32_t *job, uint32_t *step)
{
	char *end;
	unsigned long v;

	*job = 0;
	*step = NO_VAL32;
	if (!s || s[0] == '*')
		return 0;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || !v || v >= NO_VAL32 ||
	    (*end && *end != '.')) {
		fprintf(stderr, "\"%s\" does not look like a jobid\n", s);
		return -1;
	}
	*job = (uint32_t) v;
	if (*end == '.') {
		const char *st = end + 1;

		if (!strcmp(st, "batch")) {
			*step = SLURM_BATCH_SCRIPT;
			return 0;
		}
		v = strtoul(st, &end, 10);
		if (*end || end == st || v >= NO_VAL32) {
			fprintf(stderr, "\"%s\" does not look like a stepid\n",
				s);
			return -1;
		}
		*step = (uint32_t) v;
	}
	return 0;
}

int scontrol_listpids(int argc, char **argv)
{
	uint32_t job, step, steps = 0;
	const step_pids_msg_t *m;
	slurm_msg_t resp;
	const char *node = NULL;
	char s[32];

	if (argc > 2) {
		fprintf(stderr, "too many arguments for keyword:listpids\n");
		return 1;
	}
	if (_parse_job(argc ? argv[0] : NULL, &job, &step) < 0)
		return 1;
	if (!(m = _ask(argc > 1 ? argv[1] : NULL, job, &resp, &node)))
		return 1;
	for (uint32_t i = 0; i < m->cnt; i++)
		if (!m->pids[i] && (step == NO_VAL32 || m->step_ids[i] == step))
			steps++;
	if (!steps) {
		if (!job)
			fprintf(stderr, "No job steps exist on this node.\n");
		else if (step != NO_VAL32) {
			_step_str(step, s, sizeof(s));
			fprintf(stderr, "StepId=%u.%s does not exist on node "
				"%s.\n", job, s, node);
		} else
			fprintf(stderr, "There are no steps for job %u on "
				"node %s.\n", job, node);
		msg_free(&resp);
		return 1;
	}
	printf("%-8s %-8s %-8s %-7s %-8s\n", "PID", "JOBID", "STEPID",
	       "LOCALID", "GLOBALID");
	for (uint32_t i = 0; i < m->cnt; i++) {
		if (!m->pids[i] || (step != NO_VAL32 && m->step_ids[i] != step))
			continue;
		_step_str(m->step_ids[i], s, sizeof(s));
		printf("%-8u %-8u %-8s ", m->pids[i], m->job_ids[i], s);
		if (m->lids[i] != NO_VAL32)
			printf("%-7u ", m->lids[i]);
		else
			printf("%-7s ", "-");
		if (m->gtids[i] != NO_VAL32)
			printf("%-8u ", m->gtids[i]);
		else
			printf("%-8s ", "-");
		printf("\n");
	}
	msg_free(&resp);
	return 0;
}

/* listjobs / liststeps: the steps (pid-0 rows) of the node. */
static int _list(int argc, char **argv, bool steps, const char *kw)
{
	const step_pids_msg_t *m;
	uint32_t *seen = NULL, seen_cnt = 0, cnt = 0;
	slurm_msg_t resp;
	const char *node = NULL;
	char s[32];

	if (argc > 1) {
		fprintf(stderr, "too many arguments for keyword:%s\n", kw);
		return 1;
	}
	if (!(m = _ask(argc ? argv[0] : NULL, 0, &resp, &node)))
		return 1;
	for (uint32_t i = 0; i < m->cnt; i++)
		cnt += !m->pids[i];
	if (!cnt) {
		fprintf(stderr, "No slurmstepd's found on this node\n");
		msg_free(&resp);
		return 0;
	}
	if (steps)
		printf("%-8s %-8s\n", "JOBID", "STEPID");
	else
		printf("JOBID\n");
	for (uint32_t i = 0; i < m->cnt; i++) {
		bool dup = false;

		if (m->pids[i])
			continue;
		if (steps) {
			_step_str(m->step_ids[i], s, sizeof(s));
			printf("%-8u %-8s\n", m->job_ids[i], s);
			continue;
		}
		for (uint32_t k = 0; k < seen_cnt && !dup; k++)
			dup = seen[k] == m->job_ids[i];
		if (dup)
			continue;
		seen = xrealloc(seen, (seen_cnt + 1) * sizeof(*seen));
		seen[seen_cnt++] = m->job_ids[i];
		printf("%-8u\n", m->job_ids[i]);
	}
	xfree(seen);
	msg_free(&resp);
	return 0;
}

int scontrol_listjobs(int argc, char **argv)
{
	return _list(argc, argv, false, "listjobs");
}

int scontrol_liststeps(int argc, char **argv)
{
	return _list(argc, argv, true, "liststeps");
}

/* The job's end time (0 and a message when it cannot be had). */
static int _job_end(uint32_t id, time_t *end)
{
	job_info_request_msg_t req = { .user_id = NO_VAL32,
				       .show_flags = SHOW_ALL,
				       .job_ids = &id, .job_id_cnt = 1 };
	const job_info_msg_t *m;
	slurm_msg_t resp;
	int err = cli_ctld_rpc(REQUEST_JOB_INFO, &req, &resp), rc;

	if (err) {
		fprintf(stderr, "slurm_load_jobs error: %s\n",
			cli_comm_strerror(err));
		return -1;
	}
	m = resp.type == RESPONSE_JOB_INFO ? resp.data : NULL;
	for (uint32_t i = 0; m && i < m->cnt; i++) {
		if (m->jobs[i].job_id == id) {
			*end = m->jobs[i].end_time;
			msg_free(&resp);
			return 0;
		}
	}
	rc = m ? ESLURM_INVALID_JOB_ID : cli_resp_rc(&resp);
	msg_free(&resp);
	fprintf(stderr, "slurm_load_jobs error: %s\n",
		slurm_strerror(rc ? rc : ESLURM_INVALID_JOB_ID));
	return -1;
}

int scontrol_pidinfo(int argc, char **argv)
{
	const step_pids_msg_t *m;
	uint32_t pid, job = 0;
	slurm_msg_t resp;
	const char *node = NULL;
	char when[64];
	time_t end, now = time(NULL);

	if (argc < 1 || argc > 2) {
		fprintf(stderr, "%s arguments for keyword:pidinfo\n",
			argc < 1 ? "too few" : "too many");
		return 1;
	}
	if (parse_u32(argv[0], &pid) < 0 || !pid) {
		fprintf(stderr, "Invalid pid specified: %s\n", argv[0]);
		return 1;
	}
	if (!(m = _ask(argc > 1 ? argv[1] : NULL, 0, &resp, &node)))
		return 1;
	for (uint32_t i = 0; i < m->cnt && !job; i++)
		if (m->pids[i] == pid)
			job = m->job_ids[i];
	msg_free(&resp);
	if (!job) {
		fprintf(stderr, "slurm_pid2jobid error: %s\n",
			slurm_strerror(ESLURM_INVALID_JOB_ID));
		return 1;
	}
	if (_job_end(job, &end) < 0)
		return 1;
	fmt_time(end, when, sizeof(when));
	printf("Slurm JobId=%u ends at %s\n", job, when);
	printf("Job remaining time is %ld seconds\n",
	       end > now ? (long) (end - now) : 0L);
	return 0;
}
