/* cli_scontrol_completing.c — scontrol completing: the jobs still
 * COMPLETING and which of their nodes hold them up (cli_scontrol.h). */
#include <stdio.h>
#include <time.h>

#include "cli/cli_common.h"
#include "cli/cli_scontrol.h"
#include "common/hostlist.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "slurm/slurm_errno.h"

/* Slurm's secs2time_str: "HH:MM:SS", "D-HH:MM:SS" from a day on. */
static void _secs(long s, char *buf, size_t len)
{
	if (s < 0)
		s = 0;
	if (s >= 86400)
		snprintf(buf, len, "%ld-%2.2ld:%2.2ld:%2.2ld", s / 86400,
			 s % 86400 / 3600, s % 3600 / 60, s % 60);
	else
		snprintf(buf, len, "%2.2ld:%2.2ld:%2.2ld", s / 3600,
			 s % 3600 / 60, s % 60);
}

static void _print_one(const job_info_t *j, const node_info_msg_t *nodes,
		       time_t now)
{
	hostlist_t *mine = j->nodes ? hostlist_parse(j->nodes, NULL, 0) : NULL;
	hostlist_t *comp = hostlist_create(), *down = hostlist_create();
	char end[64], since[64], *s;

	for (uint32_t i = 0; mine && i < nodes->cnt; i++) {
		const node_info_t *n = &nodes->nodes[i];

		if (hostlist_find(mine, n->name) < 0)
			continue;
		if (n->node_state & NODE_STATE_COMPLETING)
			hostlist_push_host(comp, n->name);
		else if ((n->node_state & NODE_STATE_BASE) == NODE_STATE_DOWN)
			hostlist_push_host(down, n->name);
	}
	fmt_time(j->end_time, end, sizeof(end));
	_secs((long) (now - j->end_time), since, sizeof(since));
	printf("JobId=%u EndTime=%s CompletingTime=%s ", j->job_id, end,
	       since);
	hostlist_sort(comp);
	hostlist_sort(down);
	if (hostlist_count(comp)) {
		s = hostlist_ranged(comp);
		printf("Nodes(COMPLETING)=%s ", s);
		xfree(s);
	}
	if (hostlist_count(down)) {
		s = hostlist_ranged(down);
		printf("Nodes(DOWN)=%s ", s);
		xfree(s);
	}
	printf("\n");
	hostlist_destroy(mine);
	hostlist_destroy(comp);
	hostlist_destroy(down);
}

int scontrol_completing(int argc, char **argv)
{
	job_info_request_msg_t jreq = { .user_id = NO_VAL32,
					.show_flags = SHOW_ALL };
	info_request_msg_t nreq = { .show_flags = SHOW_ALL };
	slurm_msg_t jresp, nresp;
	const job_info_msg_t *jobs;
	time_t now = time(NULL);

	(void) argv;
	if (argc > 0) {
		fprintf(stderr, "too many arguments for keyword:completing\n");
		return 1;
	}
	if (cli_ctld_load(REQUEST_JOB_INFO, &jreq, RESPONSE_JOB_INFO, &jresp,
			  "slurm_load_jobs"))
		return 1;
	if (cli_ctld_load(REQUEST_NODE_INFO, &nreq, RESPONSE_NODE_INFO, &nresp,
			  "slurm_load_node")) {
		msg_free(&jresp);
		return 1;
	}
	jobs = jresp.data;
	for (uint32_t i = 0; i < jobs->cnt; i++)
		if (jobs->jobs[i].job_state & JOB_COMPLETING)
			_print_one(&jobs->jobs[i], nresp.data, now);
	msg_free(&jresp);
	msg_free(&nresp);
	return 0;
}
