/* msg_types_int.h — the message bodies msg_types.c's table takes from
 * msg_job_list.c and msg_dbd.c.  Each body has the table's three
 * functions, p_pack, p_unpack and p_free (see msg_desc_t). */
#ifndef SLUICE_MSG_TYPES_INT_H
#define SLUICE_MSG_TYPES_INT_H

#include "common/fields.h"
#include "common/pack.h"

#define MSG_BODY_FUNCS(p)                                                      \
	void p##_pack(buf_t *b, const void *data);                             \
	int  p##_unpack(buf_t *b, void **data);                                \
	void p##_free(void *data)

/* msg_job_list.c */
MSG_BODY_FUNCS(msg_job_list);   /* RESPONSE_JOB_INFO: job_info_msg_t */
MSG_BODY_FUNCS(msg_node_list);  /* RESPONSE_NODE_INFO: node_info_msg_t */
MSG_BODY_FUNCS(msg_part_list);  /* RESPONSE_PARTITION_INFO: part_info_msg_t */
MSG_BODY_FUNCS(msg_resv_list);  /* RESPONSE_RESERVATION_INFO: resv_info_msg_t */
MSG_BODY_FUNCS(msg_step_list);  /* RESPONSE_JOB_STEP_INFO: job_step_info_msg_t */

/* msg_dbd.c */
MSG_BODY_FUNCS(msg_dbd_records);  /* REQUEST_DBD_RECORDS: dbd_records_msg_t */
MSG_BODY_FUNCS(msg_dbd_job_cond); /* REQUEST_DBD_JOBS: dbd_job_cond_msg_t */
MSG_BODY_FUNCS(msg_dbd_jobs);     /* RESPONSE_DBD_JOBS: dbd_jobs_msg_t */

/* msg_notify.c */
extern const field_desc_t msg_job_notify_fields[];  /* job_notify_msg_t */
extern const field_desc_t msg_srun_job_complete_fields[];
                                    /* srun_job_complete_msg_t */

/* msg_steplist.c */
MSG_BODY_FUNCS(msg_step_pids);    /* RESPONSE_STEP_PIDS: step_pids_msg_t */
extern const field_desc_t msg_step_pids_request_fields[];

/* msg_job_output.c */
MSG_BODY_FUNCS(msg_job_output);   /* RESPONSE_JOB_OUTPUT: job_output_msg_t */

/* msg_bcast.c */
MSG_BODY_FUNCS(msg_file_bcast);       /* REQUEST_FILE_BCAST */
MSG_BODY_FUNCS(msg_file_gather_resp); /* RESPONSE_FILE_GATHER */

/* msg_trigger.c */
MSG_BODY_FUNCS(msg_trigger);      /* REQUEST_TRIGGER_*, RESPONSE_TRIGGER_GET:
				   * trigger_info_msg_t */

/* msg_hetjob.c */
MSG_BODY_FUNCS(msg_het_job_desc);     /* REQUEST_SUBMIT_BATCH_HET_JOB */

/* msg_crontab.c */
MSG_BODY_FUNCS(msg_crontab_update);   /* REQUEST_UPDATE_CRONTAB */
MSG_BODY_FUNCS(msg_crontab_update_resp); /* RESPONSE_UPDATE_CRONTAB */
extern const field_desc_t msg_crontab_request_fields[];
extern const field_desc_t msg_crontab_resp_fields[];

/* msg_profile.c */
MSG_BODY_FUNCS(msg_job_profile);  /* REQUEST_JOB_PROFILE: job_profile_msg_t */
MSG_BODY_FUNCS(msg_dbd_profile);  /* RESPONSE_DBD_PROFILE: dbd_profile_msg_t */

/* msg_alloc_heartbeat.c: field tables of REQUEST_ALLOC_HEARTBEAT and
 * RESPONSE_ALLOC_HEARTBEAT */
#include "common/fields.h"
extern const field_desc_t msg_alloc_heartbeat_fields[];
extern const field_desc_t msg_alloc_heartbeat_resp_fields[];

/* msg_step_abort.c: REQUEST_STEP_ABORT */
extern const field_desc_t msg_step_abort_fields[];

/* msg_topo.c */
extern const field_desc_t msg_topo_fields[];     /* topo_info_msg_t */

/* msg_reboot.c */
extern const field_desc_t msg_reboot_fields[];   /* reboot_msg_t */

/* msg_config.c: REQUEST_CONFIG, RESPONSE_CONFIG and
 * REQUEST_RECONFIGURE_WITH_CONFIG */
extern const field_desc_t msg_config_request_fields[];
extern const field_desc_t msg_config_files_fields[];
extern const field_desc_t msg_sackd_register_fields[];

/* msg_dynnode.c: REQUEST_CREATE_NODE, REQUEST_DELETE_NODE */
extern const field_desc_t msg_dyn_node_fields[];
/* msg_power.c */
extern const field_desc_t msg_power_fields[];    /* power_msg_t */

/* msg_ckpt.c */
MSG_BODY_FUNCS(msg_ckpt);         /* REQUEST_CHECKPOINT: checkpoint_msg_t */
MSG_BODY_FUNCS(msg_ckpt_tasks);   /* REQUEST_CHECKPOINT_TASKS:
				   * checkpoint_tasks_msg_t */

/* msg_bcast.c: field tables */
extern const field_desc_t msg_sbcast_cred_req_fields[];
extern const field_desc_t msg_sbcast_cred_fields[];
extern const field_desc_t msg_file_gather_fields[];

/* msg_part.c: field tables */
extern const field_desc_t msg_part_update_fields[];

#undef MSG_BODY_FUNCS

/* msg_archive.c */
extern const field_desc_t msg_dbd_archive_fields[];
/* msg_debug.c */
#include "common/fields.h"
extern const field_desc_t msg_set_debug_level_fields[];
extern const field_desc_t msg_set_debug_flags_fields[];

#endif
