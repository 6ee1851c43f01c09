/* cli_diag.c — the controller's statistics described once (cli_diag.h):
 * one row per figure, its sdiag label and its stats_msg member. */
#include "cli/cli_diag.h"

#include <inttypes.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

#include "cli/cli_jv.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define S(r) (((const cli_diag_rec_t *)(r))->s)

/* A figure: its text (no line when cond is false) and its JSON number. */
#define NUM(fn, cond, expr)                                                  \
	static void fn##_t(char **o, const void *r, const cli_ctx_t *c)      \
	{                                                                    \
		const stats_info_response_msg_t *s = S(r);                   \
		(void)c;                                                     \
		if (cond)                                                    \
			xstrfmtcat(o, "%" PRIu64, (uint64_t)(expr));         \
	}                                                                    \
	static void fn##_j(cli_jv_t *v, const void *r, const cli_ctx_t *c)   \
	{                                                                    \
		const stats_info_response_msg_t *s = S(r);                   \
		(void)c;                                                     \
		(void)s;                                                     \
		cli_jv_int(v, (int64_t)(expr));                              \
	}
/* A member in JSON only. */
#define JNUM(fn, expr)                                                       \
	static void fn##_j(cli_jv_t *v, const void *r, const cli_ctx_t *c)   \
	{                                                                    \
		const stats_info_response_msg_t *s = S(r);                   \
		(void)c;                                                     \
		(void)s;                                                     \
		cli_jv_int(v, (int64_t)(expr));                              \
	}
/* sum / n, 0 when n is 0; the text line only when n is not 0. */
#define MEAN(sum, n) ((n) ? (sum) / (n) : 0)

/* Minutes the statistics cover. */
static double mins_of(const stats_info_response_msg_t *s)
{
	return (double)(s->req_time - s->req_time_start) / 60;
}

NUM(threads, 1, s->server_thread_count)
NUM(agent_q, 1, s->agent_queue_size)
NUM(agents, 1, s->agent_count)
NUM(agent_thr, 1, s->agent_thread_count)
NUM(dbd_q, 1, s->dbd_agent_queue_size)
NUM(submitted, 1, s->jobs_submitted)
NUM(started, 1, s->jobs_started)
NUM(completed, 1, s->jobs_completed)
NUM(canceled, 1, s->jobs_canceled)
NUM(failed, 1, s->jobs_failed)
NUM(jpending, 1, s->jobs_pending)
NUM(running, 1, s->jobs_running)
NUM(sc_last, 1, s->schedule_cycle_last)
NUM(sc_max, 1, s->schedule_cycle_max)
NUM(sc_total, 1, s->schedule_cycle_counter)
NUM(sc_mean, s->schedule_cycle_counter,
    MEAN(s->schedule_cycle_sum, s->schedule_cycle_counter))
NUM(sc_mean_depth, s->schedule_cycle_counter,
    MEAN(s->schedule_cycle_depth, s->schedule_cycle_counter))
NUM(sc_per_min, mins_of(s) >= 1,
    mins_of(s) >= 1 ? (uint64_t)(s->schedule_cycle_counter / mins_of(s)) : 0)
NUM(sc_qlen, 1, s->schedule_queue_len)
JNUM(sc_sum, s->schedule_cycle_sum)
JNUM(sc_depth, s->schedule_cycle_depth)
NUM(bf_jobs, s->backfill, s->bf_backfilled_jobs)
NUM(bf_last_jobs, s->backfill, s->bf_last_backfilled_jobs)
NUM(bf_het, s->backfill, 0)
NUM(bf_cycles, s->backfill, s->bf_cycle_counter)
NUM(bf_last, s->backfill, s->bf_cycle_last)
NUM(bf_max, s->backfill, s->bf_cycle_max)
NUM(bf_mean, s->backfill && s->bf_cycle_counter,
    MEAN(s->bf_cycle_sum, s->bf_cycle_counter))
NUM(bf_depth, s->backfill, s->bf_last_depth)
NUM(bf_depth_try, s->backfill, s->bf_last_depth_try)
NUM(bf_depth_mean, s->backfill && s->bf_cycle_counter,
    MEAN(s->bf_depth_sum, s->bf_cycle_counter))
NUM(bf_depth_mean_try, s->backfill && s->bf_cycle_counter,
    MEAN(s->bf_depth_try_sum, s->bf_cycle_counter))
NUM(bf_qlen, s->backfill, s->bf_queue_len)
NUM(bf_qlen_mean, s->backfill && s->bf_cycle_counter,
    MEAN(s->bf_queue_len_sum, s->bf_cycle_counter))
NUM(bf_table, s->backfill, s->bf_table_size)
NUM(bf_table_mean, s->backfill && s->bf_cycle_counter,
    MEAN(s->bf_table_size_sum, s->bf_cycle_counter))
JNUM(bf_cycle_sum, s->bf_cycle_sum)
JNUM(bf_depth_sum, s->bf_depth_sum)
JNUM(bf_depth_try_sum, s->bf_depth_try_sum)
JNUM(bf_qlen_sum, s->bf_queue_len_sum)
JNUM(bf_table_sum, s->bf_table_size_sum)
/* Figures Slurm counts that Sluice does not have: always 0. */
JNUM(zero, 0)

/* "Mon Nov 23 12:40:00 2026 (1795437600)" */
static void when(char **o, time_t t)
{
	char buf[64];
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%a %b %d %H:%M:%S %Y", &tm);
	xstrfmtcat(o, "%s (%ld)", buf, (long)t);
}

#define TIME(fn, member)                                                     \
	static void fn##_t(char **o, const void *r, const cli_ctx_t *c)      \
	{                                                                    \
		(void)c;                                                     \
		when(o, S(r)->member);                                       \
	}                                                                    \
	static void fn##_j(cli_jv_t *v, const void *r, const cli_ctx_t *c)   \
	{                                                                    \
		(void)c;                                                     \
		cli_jv_time(v, S(r)->member);                                \
	}

TIME(req_time, req_time)
TIME(req_start, req_time_start)
TIME(states_ts, job_states_ts)
TIME(bf_when, bf_when_last_cycle)

/* Sluice's own line: records slurmdbd refused, when there are some. */
static void set_aside_t(char **o, const void *r, const cli_ctx_t *c)
{
	(void)c;
	if (S(r)->dbd_set_aside)
		xstrfmtcat(o, "%u (sacctmgr show problem)",
			   S(r)->dbd_set_aside);
}

static void empty_t(char **o, const void *r, const cli_ctx_t *c)
{
	(void)r;
	(void)c;
	xstrcat(o, "");
}

static void bf_head_t(char **o, const void *r, const cli_ctx_t *c)
{
	(void)c;
	if (S(r)->backfill)
		xstrcat(o, S(r)->bf_active ? " (WARNING: data obtained in the "
			"middle of backfilling execution.)" : "");
}

static void bf_when_text(char **o, const void *r, const cli_ctx_t *c)
{
	if (!S(r)->backfill)
		return;
	if (S(r)->bf_when_last_cycle)
		bf_when_t(o, r, c);
	else
		xstrcat(o, "N/A");
}

static void bf_active_j(cli_jv_t *v, const void *r, const cli_ctx_t *c)
{
	(void)c;
	cli_jv_bool(v, S(r)->bf_active);
}

static void latency_t(char **o, const void *r, const cli_ctx_t *c)
{
	(void)c;
	xstrfmtcat(o, "%u microseconds", ((const cli_diag_rec_t *)r)->latency);
}

static void latency_j(cli_jv_t *v, const void *r, const cli_ctx_t *c)
{
	(void)c;
	cli_jv_int(v, ((const cli_diag_rec_t *)r)->latency);
}

static uint64_t ave(const stats_rpc_row_t *r)
{
	return r->count ? r->total_usec / r->count : 0;
}

/* The RPC rows, a line each after the heading. */
static void rpc_lines(char **o, const stats_rpc_row_t *rows, uint32_t n,
		      bool by_user)
{
	xstrcat(o, "");
	for (uint32_t i = 0; i < n; i++) {
		const stats_rpc_row_t *x = &rows[i];

		xstrfmtcat(o, by_user ? "\n\t%-16s(%8u) " : "\n\t%-40s(%5u) ",
			   x->name ? x->name : "", x->id);
		xstrfmtcat(o, "count:%-6u ave_time:%-6" PRIu64 " total_time:%"
			   PRIu64, x->count, ave(x), x->total_usec);
	}
}

static void rpc_json(cli_jv_t *v, const stats_rpc_row_t *rows, uint32_t n,
		     bool by_user)
{
	cli_jv_array(v);
	for (uint32_t i = 0; i < n; i++) {
		cli_jv_object(v);
		cli_jv_key(v, by_user ? "user_id" : "type_id");
		cli_jv_int(v, rows[i].id);
		cli_jv_key(v, by_user ? "user" : "message_type");
		cli_jv_str(v, rows[i].name);
		cli_jv_key(v, "count");
		cli_jv_int(v, rows[i].count);
		if (!by_user) {
			static const char *const zero[] = {
				"queued", "dropped", "cycle_last", "cycle_max"
			};

			for (size_t k = 0; k < 4; k++) {
				cli_jv_key(v, zero[k]);
				cli_jv_int(v, 0);
			}
		}
		cli_jv_key(v, "total_time");
		cli_jv_int(v, (int64_t)rows[i].total_usec);
		cli_jv_key(v, "average_time");
		cli_jv_num64(v, ave(&rows[i]));
		cli_jv_end(v);
	}
	cli_jv_end(v);
}

static void by_type_t(char **o, const void *r, const cli_ctx_t *c)
{
	(void)c;
	rpc_lines(o, S(r)->rpc_types, S(r)->rpc_type_cnt, false);
}

static void by_type_j(cli_jv_t *v, const void *r, const cli_ctx_t *c)
{
	(void)c;
	rpc_json(v, S(r)->rpc_types, S(r)->rpc_type_cnt, false);
}

static void by_user_t(char **o, const void *r, const cli_ctx_t *c)
{
	(void)c;
	rpc_lines(o, S(r)->rpc_users, S(r)->rpc_user_cnt, true);
}

static void by_user_j(cli_jv_t *v, const void *r, const cli_ctx_t *c)
{
	(void)c;
	rpc_json(v, S(r)->rpc_users, S(r)->rpc_user_cnt, true);
}

/* Sluice queues no RPCs: none pending. */
static void pending_t(char **o, const void *r, const cli_ctx_t *c)
{
	(void)r;
	(void)c;
	xstrcat(o, "\n\tNo pending RPCs");
}

static void none_j(cli_jv_t *v, const void *r, const cli_ctx_t *c)
{
	(void)r;
	(void)c;
	cli_jv_array(v);
	cli_jv_end(v);
}

#define STARS "*******************************************************"
#define ROW(key, flags, fn, jkey) \
	{ 0, NULL, NULL, key, flags, fn##_t, jkey, fn##_j, 0 }
#define TEXT(key, flags, fn) { 0, NULL, NULL, key, flags, fn, NULL, NULL, 0 }
#define JSON(jkey, fn) { 0, NULL, NULL, NULL, 0, NULL, jkey, fn##_j, 0 }

const cli_field_t cli_diag_fields[] = {
	TEXT(STARS, 0, empty_t),
	ROW("sdiag output at ", 0, req_time, "req_time"),
	ROW("Data since      ", 0, req_start, "req_time_start"),
	TEXT(STARS, 0, empty_t),
	ROW("Server thread count:  ", 0, threads, "server_thread_count"),
	ROW("Agent queue size:     ", 0, agent_q, "agent_queue_size"),
	ROW("Agent count:          ", 0, agents, "agent_count"),
	ROW("Agent thread count:   ", 0, agent_thr, "agent_thread_count"),
	ROW("DBD Agent queue size: ", 0, dbd_q, "dbd_agent_queue_size"),
	TEXT("DBD records set aside: ", 0, set_aside_t),
	ROW("Jobs submitted: ", CF_SHOW_NL, submitted, "jobs_submitted"),
	ROW("Jobs started:   ", 0, started, "jobs_started"),
	ROW("Jobs completed: ", 0, completed, "jobs_completed"),
	ROW("Jobs canceled:  ", 0, canceled, "jobs_canceled"),
	ROW("Jobs failed:    ", 0, failed, "jobs_failed"),
	ROW("Job states ts:  ", CF_SHOW_NL, states_ts, "job_states_ts"),
	ROW("Jobs pending:   ", 0, jpending, "jobs_pending"),
	ROW("Jobs running:   ", 0, running, "jobs_running"),
	TEXT("Main schedule statistics (microseconds):", CF_SHOW_NL, empty_t),
	ROW("\tLast cycle:   ", 0, sc_last, "schedule_cycle_last"),
	ROW("\tMax cycle:    ", 0, sc_max, "schedule_cycle_max"),
	ROW("\tTotal cycles: ", 0, sc_total, "schedule_cycle_total"),
	ROW("\tMean cycle:   ", 0, sc_mean, "schedule_cycle_mean"),
	ROW("\tMean depth cycle:  ", 0, sc_mean_depth,
	    "schedule_cycle_mean_depth"),
	ROW("\tCycles per minute: ", 0, sc_per_min,
	    "schedule_cycle_per_minute"),
	ROW("\tLast queue length: ", 0, sc_qlen, "schedule_queue_length"),
	JSON("schedule_cycle_sum", sc_sum),
	JSON("schedule_cycle_depth", sc_depth),
	JSON("schedule_exit/end_job_queue", zero),
	JSON("schedule_exit/default_queue_depth", zero),
	JSON("schedule_exit/max_job_start", zero),
	JSON("schedule_exit/max_rpc_cnt", zero),
	JSON("schedule_exit/max_sched_time", zero),
	JSON("schedule_exit/licenses", zero),
	TEXT("Backfilling stats", CF_SHOW_NL, bf_head_t),
	ROW("\tTotal backfilled jobs (since last slurm start): ", 0, bf_jobs,
	    "bf_backfilled_jobs"),
	ROW("\tTotal backfilled jobs (since last stats cycle start): ", 0,
	    bf_last_jobs, "bf_last_backfilled_jobs"),
	ROW("\tTotal backfilled heterogeneous job components: ", 0, bf_het,
	    "bf_backfilled_het_jobs"),
	ROW("\tTotal cycles: ", 0, bf_cycles, "bf_cycle_counter"),
	{ 0, NULL, NULL, "\tLast cycle when: ", 0, bf_when_text,
	  "bf_when_last_cycle", bf_when_j, 0 },
	ROW("\tLast cycle: ", 0, bf_last, "bf_cycle_last"),
	ROW("\tMax cycle:  ", 0, bf_max, "bf_cycle_max"),
	ROW("\tMean cycle: ", 0, bf_mean, "bf_cycle_mean"),
	ROW("\tLast depth cycle: ", 0, bf_depth, "bf_last_depth"),
	ROW("\tLast depth cycle (try sched): ", 0, bf_depth_try,
	    "bf_last_depth_try"),
	ROW("\tDepth Mean: ", 0, bf_depth_mean, "bf_depth_mean"),
	ROW("\tDepth Mean (try depth): ", 0, bf_depth_mean_try,
	    "bf_depth_mean_try"),
	ROW("\tLast queue length: ", 0, bf_qlen, "bf_queue_len"),
	ROW("\tQueue length mean: ", 0, bf_qlen_mean, "bf_queue_len_mean"),
	ROW("\tLast table size: ", 0, bf_table, "bf_table_size"),
	ROW("\tMean table size: ", 0, bf_table_mean, "bf_table_size_mean"),
	JSON("bf_cycle_sum", bf_cycle_sum),
	JSON("bf_depth_sum", bf_depth_sum),
	JSON("bf_depth_try_sum", bf_depth_try_sum),
	JSON("bf_queue_len_sum", bf_qlen_sum),
	JSON("bf_table_size_sum", bf_table_sum),
	JSON("bf_active", bf_active),
	JSON("bf_exit/end_job_queue", zero),
	JSON("bf_exit/bf_max_job_start", zero),
	JSON("bf_exit/bf_max_job_test", zero),
	JSON("bf_exit/bf_max_time", zero),
	JSON("bf_exit/bf_node_space_size", zero),
	JSON("bf_exit/state_changed", zero),
	ROW("Latency for 1000 calls to gettimeofday(): ", CF_SHOW_NL, latency,
	    "gettimeofday_latency"),
	ROW("Remote Procedure Call statistics by message type", CF_SHOW_NL,
	    by_type, "rpcs_by_message_type"),
	ROW("Remote Procedure Call statistics by user", CF_SHOW_NL, by_user,
	    "rpcs_by_user"),
	{ 0, NULL, NULL, "Pending RPC statistics", CF_SHOW_NL, pending_t,
	  "pending_rpcs", none_j, 0 },
	JSON("pending_rpcs_by_hostlist", none),
	JSON("parts_packed", zero),
	{ 0 }
};

unsigned cli_diag_latency(void)
{
	struct timeval a, b, t;

	gettimeofday(&a, NULL);
	for (int i = 0; i < 1000; i++)
		gettimeofday(&t, NULL);
	gettimeofday(&b, NULL);
	return (unsigned)((b.tv_sec - a.tv_sec) * 1000000 +
			  (b.tv_usec - a.tv_usec));
}

static int sort_by;

static int rpc_cmp(const void *pa, const void *pb)
{
	const stats_rpc_row_t *a = pa, *b = pb;
	uint64_t x, y;

	switch (sort_by) {
	case 1:
		return a->id < b->id ? -1 : a->id > b->id;
	case 2:
		x = a->total_usec;
		y = b->total_usec;
		break;
	case 3:
		x = ave(a);
		y = ave(b);
		break;
	default:
		x = a->count;
		y = b->count;
		break;
	}
	if (x != y)
		return x > y ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

void cli_diag_sort(stats_info_response_msg_t *s, int by)
{
	sort_by = by;
	qsort(s->rpc_types, s->rpc_type_cnt, sizeof(stats_rpc_row_t), rpc_cmp);
	qsort(s->rpc_users, s->rpc_user_cnt, sizeof(stats_rpc_row_t), rpc_cmp);
}

json_object *cli_diag_json(const stats_info_response_msg_t *s)
{
	cli_diag_rec_t rec = { s, cli_diag_latency() };

	return cli_fields_json(cli_diag_fields, &rec, NULL);
}
