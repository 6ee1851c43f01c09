/* rest_list_data.h — made-up jobs and nodes for test_rest_list.c and
 * tests/perf/rest_list_bench.c: pending jobs as a queue has them, and
 * every few records one with the values that take other paths (running,
 * array tasks, held, NO_VAL and INFINITE numbers, text needing escapes,
 * UTF-8, empty and missing strings).  Strings are static; free the
 * arrays only. */
#ifndef SLUICE_REST_LIST_DATA_H
#define SLUICE_REST_LIST_DATA_H

#include <stdio.h>
#include <string.h>

#include "common/job_info.h"
#include "common/node_info.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"

/* Bytes 1-127 and some UTF-8: every escape json-c makes. */
static const char *rld_odd_text(void)
{
	static char s[160];

	if (!s[0]) {
		for (int c = 1; c < 128; c++)
			s[c - 1] = (char)c;
		strcat(s, " caf\xc3\xa9 \xe2\x9c\x93");
	}
	return s;
}

static job_info_t *rld_jobs(uint32_t n)
{
	job_info_t *jobs = xcalloc(n ? n : 1, sizeof(*jobs));

	for (uint32_t i = 0; i < n; i++) {
		job_info_t *j = &jobs[i];
		int odd = i % 7 == 3;

		j->job_id = 1000 + i;
		j->array_task_id = NO_VAL32;
		j->name = odd ? (char *)rld_odd_text() : "bench.sh";
		j->user_id = 1001;
		j->user_name = "sluice_u1";
		j->group_id = 1001;
		j->group_name = "sluice_u1";
		j->partition = "debug";
		j->account = "acct1";
		j->qos = "normal";
		j->state_reason = 2;
		j->priority = 4294901759u - i;
		j->nice = NICE_OFFSET;
		j->num_nodes = 1;
		j->num_cpus = 1;
		j->num_tasks = 1;
		j->cpus_per_task = 1;
		j->ntasks_per_node = NO_VAL16;
		j->min_cpus_node = 1;
		j->pn_min_memory = 100;
		j->time_limit = 60;
		j->time_min = NO_VAL32;
		j->submit_time = 1764680000 + i;
		j->eligible_time = j->submit_time;
		j->accrue_time = j->submit_time;
		j->work_dir = "/home/sluice_u1";
		j->command = "/home/sluice_u1/bench.sh";
		j->alloc_node = "host1";
		j->batch_flag = true;
		j->requeue = 1;
		j->tres_req_str = "cpu=1,mem=100M,node=1,billing=1";
		j->cluster = "cluster";
		j->billable_tres = 1;
		if (odd) {
			j->comment = (char *)rld_odd_text();
			j->std_out = "/tmp/out-%j-%x.txt";
			j->dependency = "afterok:12";
			j->features = "a&b";
			j->mail_type = "BEGIN,END";
			j->mail_user = "u@example.org";
			j->time_limit = INFINITE32;
			j->nice = NICE_OFFSET + 10;
			j->priority = 0;
			j->pn_min_memory = NO_VAL64;
			j->billable_tres = 1.5;
		}
		if (i % 5 == 1) {
			j->job_state = JOB_RUNNING;
			j->state_reason = 0;
			j->nodes = "n[1-2]";
			j->batch_host = "n1";
			j->num_nodes = 2;
			j->num_cpus = 4;
			j->start_time = j->submit_time + 5;
			j->end_time = j->start_time + 3600;
			j->tres_alloc_str = "cpu=4,mem=2G,node=2,billing=4";
			j->exit_code = 256;
			j->mem_per_cpu = true;
		}
		if (i % 11 == 4) {
			j->array_job_id = 900;
			j->array_task_id = i % 11 == 4 && i % 2 ? NO_VAL32 : i;
			j->array_task_str = "5-99%10";
			j->array_max_tasks = 10;
			j->job_state = JOB_PENDING | JOB_REQUEUE;
			j->name = "";
			j->account = NULL;
			j->work_dir = NULL;
		}
	}
	return jobs;
}

static node_info_t *rld_nodes(uint32_t n)
{
	node_info_t *nodes = xcalloc(n ? n : 1, sizeof(*nodes));
	static char names[64][16];

	for (uint32_t i = 0; i < n; i++) {
		node_info_t *d = &nodes[i];
		int odd = i % 5 == 2;

		snprintf(names[i % 64], sizeof(names[0]), "n%u", i % 64);
		d->name = names[i % 64];
		d->node_addr = d->name;
		d->node_hostname = d->name;
		d->port = 6818;
		d->node_state = i % 3 ? NODE_STATE_IDLE : NODE_STATE_ALLOCATED;
		d->cpus = 16;
		d->boards = 1;
		d->sockets = 2;
		d->cores = 4;
		d->threads = 2;
		d->real_memory = 64000;
		d->free_mem = odd ? NO_VAL64 : 60000;
		d->tmp_disk = 1000;
		d->weight = 1;
		d->cpu_load = 17;
		d->features = odd ? "a,b" : NULL;
		d->features_act = d->features;
		d->gres = odd ? "gpu:2" : NULL;
		d->arch = "x86_64";
		d->os = "Linux 6.1";
		d->version = "25.05.0";
		d->partitions = "debug,batch";
		d->boot_time = 1764600000;
		d->slurmd_start_time = 1764600100;
		d->last_busy = 1764680000;
		d->tres_fmt_str = "cpu=16,mem=64000M,billing=16";
		d->owner = NO_VAL32;
		if (odd) {
			d->node_state = NODE_STATE_IDLE | NODE_STATE_DRAIN;
			d->reason = (char *)rld_odd_text();
			d->reason_uid = 0;
			d->reason_time = 1764680100;
			d->comment = "a \"comment\"";
			d->alloc_cpus = 4;
			d->alloc_memory = 1000;
		}
	}
	return nodes;
}

#endif
