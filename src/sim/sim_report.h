/* sim_report.h — what sluice-sim writes: the per-job CSV, the summary
 * JSON and the short table on stdout, from one summary computed once.
 *
 * Wait = Start - Submit of the jobs that started; bounded slowdown =
 * max(1, (wait + run) / max(run, 10 s)); utilisation = CPU-seconds the
 * jobs held / (cluster CPUs x makespan), makespan = last end - first
 * submit.  Job size buckets are in nodes: 1, 2-4, 5-16, 17-64, 65+.
 */
#ifndef SLUICE_SIM_REPORT_H
#define SLUICE_SIM_REPORT_H

#include <stdio.h>

#include "sim/sim_engine.h"
#include "sim/trace.h"

/* jobs.csv: JobID,User,Account,Partition,QOS,NNodes,NCPUs,Submit,Start,
 * End,Wait,TimeLimit,Runtime,State,Backfilled.  0 or -1 (errno). */
int  sim_report_csv(FILE *f, const trace_t *t, const sim_result_t *r);
/* summary.json; 0 or -1. */
int  sim_report_json(FILE *f, const trace_t *t, const sim_result_t *r);
/* The same figures as a short table. */
void sim_report_table(FILE *f, const trace_t *t, const sim_result_t *r);

#endif
