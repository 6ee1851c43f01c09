/* cli_diag.c — stats_info_response_msg_t described once for JSON. */
#include "cli/cli_diag.h"

#include <stddef.h>
#include <stdint.h>

#include "cli/cli_fields.h"

enum { D_U32, D_U64, D_TIME, D_BOOL };

static const struct {
	const char *key;
	size_t      off;
	int         type;
} diag_fields[] = {
#define F(m, t) { #m, offsetof(stats_info_response_msg_t, m), t }
	F(req_time, D_TIME), F(req_time_start, D_TIME),
	F(server_thread_count, D_U32), F(agent_queue_size, D_U32),
	F(agent_count, D_U32), F(agent_thread_count, D_U32),
	F(dbd_agent_queue_size, D_U32), F(jobs_submitted, D_U32),
	F(jobs_started, D_U32), F(jobs_completed, D_U32),
	F(jobs_canceled, D_U32), F(jobs_failed, D_U32),
	F(job_states_ts, D_TIME), F(jobs_pending, D_U32),
	F(jobs_running, D_U32), F(schedule_cycle_max, D_U32),
	F(schedule_cycle_last, D_U32), F(schedule_cycle_sum, D_U64),
	F(schedule_cycle_depth, D_U64), F(schedule_queue_len, D_U32),
	F(bf_backfilled_jobs, D_U32), F(bf_last_backfilled_jobs, D_U32),
	F(bf_cycle_counter, D_U32), F(bf_cycle_sum, D_U64),
	F(bf_cycle_last, D_U32), F(bf_cycle_max, D_U32),
	F(bf_last_depth, D_U32), F(bf_last_depth_try, D_U32),
	F(bf_depth_sum, D_U64), F(bf_depth_try_sum, D_U64),
	F(bf_queue_len, D_U32), F(bf_queue_len_sum, D_U64),
	F(bf_table_size, D_U32), F(bf_table_size_sum, D_U64),
	F(bf_when_last_cycle, D_TIME), F(bf_active, D_BOOL),
#undef F
};

static json_object *value(const stats_info_response_msg_t *s, size_t i)
{
	const char *p = (const char *)s + diag_fields[i].off;

	switch (diag_fields[i].type) {
	case D_U32: return json_object_new_int64(*(const uint32_t *)p);
	case D_U64: return json_object_new_int64((int64_t)*(const uint64_t *)p);
	case D_TIME: return cli_json_time(*(const time_t *)p);
	default: return json_object_new_boolean(*(const bool *)p);
	}
}

static json_object *mean(uint64_t sum, uint32_t n)
{
	return json_object_new_int64(n ? (int64_t)(sum / n) : 0);
}

static json_object *rpc_rows(const stats_rpc_row_t *rows, uint32_t n,
			     bool by_user)
{
	json_object *a = json_object_new_array();

	for (uint32_t i = 0; i < n; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, by_user ? "user_id" : "type_id",
				       json_object_new_int64(rows[i].id));
		json_object_object_add(o, by_user ? "user" : "message_type",
				       cli_json_str(rows[i].name));
		json_object_object_add(o, "count",
				       json_object_new_int64(rows[i].count));
		if (!by_user) {
			json_object_object_add(o, "queued",
					       json_object_new_int(0));
			json_object_object_add(o, "dropped",
					       json_object_new_int(0));
			json_object_object_add(o, "cycle_last",
					       json_object_new_int(0));
			json_object_object_add(o, "cycle_max",
					       json_object_new_int(0));
		}
		json_object_object_add(o, "total_time", json_object_new_int64(
			(int64_t)rows[i].total_usec));
		json_object_object_add(o, "average_time", cli_json_num64(
			rows[i].count ? rows[i].total_usec / rows[i].count : 0));
		json_object_array_add(a, o);
	}
	return a;
}

json_object *cli_diag_json(const stats_info_response_msg_t *s)
{
	json_object *o = json_object_new_object();

	for (size_t i = 0; i < sizeof(diag_fields) / sizeof(diag_fields[0]); i++)
		json_object_object_add(o, diag_fields[i].key, value(s, i));
	json_object_object_add(o, "schedule_cycle_total",
			       json_object_new_int64(s->schedule_cycle_counter));
	json_object_object_add(o, "schedule_cycle_mean",
			       mean(s->schedule_cycle_sum,
				    s->schedule_cycle_counter));
	json_object_object_add(o, "schedule_cycle_mean_depth",
			       mean(s->schedule_cycle_depth,
				    s->schedule_cycle_counter));
	json_object_object_add(o, "bf_cycle_mean",
			       mean(s->bf_cycle_sum, s->bf_cycle_counter));
	json_object_object_add(o, "bf_depth_mean",
			       mean(s->bf_depth_sum, s->bf_cycle_counter));
	json_object_object_add(o, "bf_depth_mean_try",
			       mean(s->bf_depth_try_sum, s->bf_cycle_counter));
	json_object_object_add(o, "bf_queue_len_mean",
			       mean(s->bf_queue_len_sum, s->bf_cycle_counter));
	json_object_object_add(o, "bf_table_size_mean",
			       mean(s->bf_table_size_sum, s->bf_cycle_counter));
	json_object_object_add(o, "rpcs_by_message_type",
			       rpc_rows(s->rpc_types, s->rpc_type_cnt, false));
	json_object_object_add(o, "rpcs_by_user",
			       rpc_rows(s->rpc_users, s->rpc_user_cnt, true));
	return o;
}
