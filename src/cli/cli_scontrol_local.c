/* cli_scontrol_local.c — scontrol's questions about this host and its
 * daemons: show daemons, show aliases, show slurmd, wait_job. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/cli_scontrol.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#define SLURMD_STATUS_TIMEOUT_MS 10000
#define WAIT_JOB_POLL_US         500000

static void short_hostname(char *buf, size_t len)
{
	char *dot;

	if (gethostname(buf, len) < 0)
		buf[0] = '\0';
	buf[len - 1] = '\0';
	if ((dot = strchr(buf, '.')))
		*dot = '\0';
}

/* NodeNames whose NodeHostname is host, space-separated (NULL: none). */
static char *aliases(const slurm_conf_t *conf, const char *host)
{
	char *list = NULL;

	for (size_t i = 0; i < conf->node_cnt; i++)
		if (conf->nodes[i].hostname &&
		    !strcmp(conf->nodes[i].hostname, host))
			xstrfmtcat(&list, "%s%s", list ? " " : "",
				   conf->nodes[i].name);
	return list;
}

int scontrol_show_daemons(int argc, char **argv)
{
	const slurm_conf_t *conf = cli_conf();
	char me[256], *nodes;
	bool ctld = false;

	if (argc > 0) {
		fprintf(stderr, "too many arguments for keyword:show\n");
		return 1;
	}
	short_hostname(me, sizeof(me));
	for (size_t i = 0; i < conf->ctld_host_cnt; i++)
		if (!strcmp(conf->ctld_hosts[i], me) ||
		    !strcasecmp(conf->ctld_hosts[i], "localhost"))
			ctld = true;
	nodes = aliases(conf, me);
	if (ctld || nodes)
		printf("%s%s%s\n", ctld ? "slurmctld" : "",
		       ctld && nodes ? " " : "", nodes ? "slurmd" : "");
	xfree(nodes);
	return 0;
}

int scontrol_show_aliases(int argc, char **argv)
{
	char me[256], *nodes;

	if (argc > 1) {
		fprintf(stderr, "too many arguments for keyword:show\n");
		return 1;
	}
	if (argc == 1)
		snprintf(me, sizeof(me), "%s", argv[0]);
	else
		short_hostname(me, sizeof(me));
	if ((nodes = aliases(cli_conf(), me)))
		printf("%s\n", nodes);
	xfree(nodes);
	return 0;
}

/* The node named, else the first on this host (by NodeHostname, then by
 * a loopback NodeAddr: several slurmds on one test host). */
const conf_node_t *scontrol_local_node(const slurm_conf_t *conf,
				      const char *name)
{
	char me[256];

	if (name) {
		for (size_t i = 0; i < conf->node_cnt; i++)
			if (!strcmp(conf->nodes[i].name, name))
				return &conf->nodes[i];
		return NULL;
	}
	short_hostname(me, sizeof(me));
	for (size_t i = 0; i < conf->node_cnt; i++)
		if (conf->nodes[i].hostname &&
		    !strcmp(conf->nodes[i].hostname, me))
			return &conf->nodes[i];
	for (size_t i = 0; i < conf->node_cnt; i++)
		if (conf->nodes[i].addr &&
		    (!strncmp(conf->nodes[i].addr, "127.", 4) ||
		     !strcmp(conf->nodes[i].addr, "localhost")))
			return &conf->nodes[i];
	return NULL;
}

static void print_status(const slurmd_status_msg_t *s)
{
	char t[64];

	printf("%-24s = %s\n", "Active Steps",
	       s->step_list ? s->step_list : "NONE");
	printf("%-24s = %u\n", "Actual CPUs", s->cpus);
	printf("%-24s = %u\n", "Actual Boards", s->boards);
	printf("%-24s = %u\n", "Actual sockets", s->sockets);
	printf("%-24s = %u\n", "Actual cores", s->cores);
	printf("%-24s = %u\n", "Actual threads per core", s->threads);
	printf("%-24s = %llu MB\n", "Actual real memory",
	       (unsigned long long) s->real_memory);
	printf("%-24s = %u MB\n", "Actual temp disk space", s->tmp_disk);
	fmt_time(s->booted, t, sizeof(t));
	printf("%-24s = %s\n", "Boot time", t);
	printf("%-24s = %s\n", "Hostname", s->hostname ? s->hostname : "");
	if (s->last_ctld_msg) {
		fmt_time(s->last_ctld_msg, t, sizeof(t));
		printf("%-24s = %s\n", "Last slurmctld msg time", t);
	} else {
		printf("%-24s = NONE\n", "Last slurmctld msg time");
	}
	printf("%-24s = %u\n", "Slurmd PID", s->pid);
	printf("%-24s = %u\n", "Slurmd Debug", s->debug);
	printf("%-24s = %s\n", "Slurmd Logfile",
	       s->log_file ? s->log_file : "(null)");
	printf("%-24s = %s\n", "Version", s->version ? s->version : "");
}

int scontrol_show_slurmd(int argc, char **argv)
{
	const slurm_conf_t *conf = cli_conf();
	const conf_node_t *n;
	slurm_msg_t resp;
	int rc;

	if (argc > 1) {
		fprintf(stderr, "too many arguments for keyword:show\n");
		return 1;
	}
	if (!(n = scontrol_local_node(conf, argc ? argv[0] : NULL))) {
		if (argc)
			fprintf(stderr, "Node %s not found\n", argv[0]);
		else
			fprintf(stderr, "slurm_load_slurmd_status: no "
				"NodeName of slurm.conf is on this host; "
				"name one: scontrol show slurmd <node>\n");
		return 1;
	}
	rc = net_rpc(n->addr ? n->addr : n->name, n->port,
		     REQUEST_DAEMON_STATUS, NULL, &resp,
		     SLURMD_STATUS_TIMEOUT_MS);
	if (rc) {
		fprintf(stderr, "slurm_load_slurmd_status: %s\n",
			cli_comm_strerror(rc));
		return 1;
	}
	if (resp.type != RESPONSE_SLURMD_STATUS || !resp.data) {
		rc = cli_resp_rc(&resp);
		msg_free(&resp);
		fprintf(stderr, "slurm_load_slurmd_status: %s\n",
			slurm_strerror(rc ? rc : SLURM_UNEXPECTED_MSG_ERROR));
		return 1;
	}
	print_status(resp.data);
	msg_free(&resp);
	return 0;
}

/* 1: running on nodes that are ready; 0: not yet (configuring);
 * -1: not running (pending, ended, unknown); -2: no answer. */
static int job_ready(uint32_t id)
{
	job_info_request_msg_t req = {
		.user_id = NO_VAL32, .show_flags = SHOW_ALL,
		.job_ids = &id, .job_id_cnt = 1,
	};
	slurm_msg_t resp;
	const job_info_msg_t *m;
	int ready = -1;

	if (cli_ctld_rpc(REQUEST_JOB_INFO, &req, &resp))
		return -2;
	m = resp.type == RESPONSE_JOB_INFO ? resp.data : NULL;
	for (uint32_t i = 0; m && i < m->cnt; i++) {
		uint32_t st = m->jobs[i].job_state;

		if (m->jobs[i].job_id != id)
			continue;
		if ((st & JOB_STATE_BASE) == JOB_RUNNING ||
		    (st & JOB_STATE_BASE) == JOB_SUSPENDED)
			ready = st & JOB_CONFIGURING ? 0 : 1;
		break;
	}
	msg_free(&resp);
	return ready;
}

/* wait_job <job_id>: until the job's nodes are ready for use (it runs
 * and none is booting), or it is not running. */
int scontrol_wait_job(int argc, char **argv, bool quiet)
{
	unsigned long id;
	char *end;
	int ready;

	if (argc < 1) {
		fprintf(stderr, "too few arguments for keyword:wait_job\n");
		return 1;
	}
	if (argc > 1) {
		fprintf(stderr, "too many arguments for keyword:wait_job\n");
		return 1;
	}
	id = strtoul(argv[0], &end, 10);
	if (end == argv[0] || !id || id >= NO_VAL32 ||
	    (*end && *end != '.' && *end != '_')) {
		fprintf(stderr, "Invalid job_id %s\n", argv[0]);
		return 1;
	}
	while ((ready = job_ready((uint32_t) id)) == 0)
		usleep(WAIT_JOB_POLL_US);
	if (ready == -2) {
		fprintf(stderr, "scontrol: Problem running job %lu\n", id);
		return 1;
	}
	if (ready < 0) {
		fprintf(stderr, "scontrol: Job %lu no longer running\n", id);
		return 1;
	}
	if (!quiet)
		fprintf(stderr, "scontrol: Nodes are ready for job %lu\n", id);
	return 0;
}
