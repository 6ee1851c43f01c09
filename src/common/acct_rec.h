/* acct_rec.h — the accounting records slurmctld sends to slurmdbd, the
 * frame that carries one in the controller's outbox file, and the job
 * and step records slurmdbd returns to sacct.
 *
 * A record is a kind and a body described by a field table (job, step,
 * node event, cluster registration).  The controller packs each record
 * once, keeps the bytes in its outbox and sends them unchanged; slurmdbd
 * unpacks them by kind.  Every record carries a sequence number that is
 * unique within its outbox epoch, so a record sent twice is stored once.
 *
 * A record is packed at the protocol version of the controller that
 * wrote it (proto_version.h) and carries that version, in the outbox and
 * on the wire: a controller upgraded (or rolled back) with records still
 * waiting sends them as they were written, and slurmdbd reads each at its
 * own version (its own and the two before; others are refused, named).
 *
 * Outbox file: a header ("SLACCTOB", u32 format, u64 epoch) then frames
 * [u32 body length][u32 CRC-32 of body][body = u64 seq, u16 kind,
 * u16 version (format 2 on), packed record].  A crash may leave a torn
 * last frame: readers stop at the first frame that is short or fails its
 * CRC.  Format 1 frames carry no version (read as ACCT_REC_UNVERSIONED).
 */
#ifndef SLUICE_ACCT_REC_H
#define SLUICE_ACCT_REC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "common/fields.h"
#include "common/proto_version.h"

typedef enum {
	ACCT_REC_CLUSTER = 1,     /* acct_cluster_rec_t */
	ACCT_REC_JOB,             /* acct_job_rec_t: full state, upserted */
	ACCT_REC_STEP,            /* acct_step_rec_t: upserted */
	ACCT_REC_NODE_EVENT,      /* acct_event_rec_t */
	ACCT_REC_RESV,            /* acct_resv_rec_t: upserted */
	ACCT_REC_JOB_SCRIPT,      /* acct_script_rec_t: upserted */
	ACCT_REC_TRACK,           /* acct_track_rec_t: appended */
	ACCT_REC_PROFILE,         /* acct_profile_rec_t: appended */
	ACCT_REC_KIND_END
} acct_rec_kind_t;

/* Step ids as Slurm numbers its special steps (stored signed). */
#define ACCT_STEP_BATCH   (-5)
#define ACCT_STEP_EXTERN  (-4)

typedef struct {
	char     *control_host;
	uint32_t  control_port;
	time_t    registered;
} acct_cluster_rec_t;

/* One job as the controller knows it now.  Key: (cluster, job_id,
 * submit).  requid: who cancelled it, NO_VAL32 if nobody. */
typedef struct {
	uint32_t  job_id;
	uint32_t  array_job_id;   /* 0 = not an array task */
	uint32_t  array_task_id;  /* NO_VAL32 = none */
	char     *name;
	uint32_t  uid;
	uint32_t  gid;
	char     *account;
	char     *partition;
	char     *qos;
	uint32_t  state;          /* base state and flags, as job_info_t */
	uint32_t  reason;
	uint32_t  requid;
	uint32_t  exit_code;      /* wait() status */
	uint32_t  derived_ec;
	time_t    submit;
	time_t    eligible;
	time_t    start;
	time_t    end;
	uint32_t  time_limit;     /* minutes, NO_VAL32/INFINITE32 */
	char     *nodes;
	uint32_t  num_nodes;
	uint32_t  num_cpus;       /* allocated, or requested while pending */
	uint32_t  req_cpus;
	char     *tres_alloc;
	char     *tres_req;
	uint64_t  req_mem;        /* MB, NO_VAL64 = none */
	bool      mem_per_cpu;
	char     *work_dir;
	char     *comment;
	char     *submit_line;
	char     *constraints;
	uint32_t  restart_cnt;
	uint32_t  priority;
	char     *cluster;        /* filled by slurmdbd in query answers */
	char     *array_task_str; /* pending tasks of an array's meta
				     record ("1-5%2"), else NULL */
	char     *container;      /* --container: the OCI bundle, or NULL */
	char     *wckey;          /* TrackWCKey: "*name" when the user's
				     default was taken, else as given */
	uint32_t  wckey_id;       /* its id in slurmdbd, 0 = unknown */
	uint32_t  resv_id;        /* reservation it ran in, 0 = none */
	uint32_t  het_job_id;     /* hetjob leader's id, 0 = none */
	uint32_t  het_job_offset; /* the component (sacct "123+1") */
	/* Seconds suspended; while state is SUSPENDED, as in Slurm's
	 * job_table: the moment from which "now - it" is the seconds
	 * suspended (so a running suspension grows without a record). */
	time_t    time_suspended;
	uint32_t  proto_next;     /* synthetic 25.11 field: the version of
				     the controller that recorded it
				     (NO_VAL32 from a 25.05 one) */
} acct_job_rec_t;

/* One step of a job; key (job, step_id).  Usage in microseconds / KB. */
typedef struct {
	uint32_t  job_id;
	time_t    submit;         /* the job's, to find its record */
	uint32_t  step_id;        /* int32: ACCT_STEP_BATCH, 0, 1, ... */
	char     *name;
	time_t    start;
	time_t    end;            /* 0 = running */
	uint32_t  state;
	uint32_t  exit_code;      /* wait() status */
	uint32_t  requid;
	char     *nodes;
	uint32_t  num_nodes;
	uint32_t  ntasks;
	uint32_t  num_cpus;
	char     *tres_alloc;
	uint64_t  user_usec;
	uint64_t  sys_usec;
	uint64_t  max_rss_kb;
	uint64_t  max_vsize_kb;
	uint64_t  ave_rss_kb;
	uint64_t  ave_vsize_kb;
	uint64_t  consumed_energy; /* joules, summed over the step's nodes */
	char     *container;      /* --container: the OCI bundle, or NULL */
} acct_step_rec_t;

/* A node went down/drained (end = 0) or came back (end set). */
typedef struct {
	char     *node_name;
	uint32_t  state;          /* node state */
	char     *reason;
	uint32_t  reason_uid;
	time_t    start;
	time_t    end;
	char     *tres;           /* "cpu=2" */
} acct_event_rec_t;

/* A reservation created, changed or deleted.  Key: (cluster, resv_id,
 * time_start); a recurring reservation gives a row per occurrence.
 * deleted: it was removed (time_end is then when; before time_start:
 * it never started, and slurmdbd keeps no row of it). */
typedef struct {
	uint32_t  resv_id;
	char     *name;
	time_t    time_start;
	time_t    time_end;
	char     *nodes;
	char     *tres;           /* "cpu=4" */
	uint64_t  flags;          /* resv_info.h bits */
	char     *users;
	char     *accounts;
	bool      deleted;
	time_t    time_start_prev; /* the row an update moved (0 = none) */
	char     *cluster;        /* filled by slurmdbd in answers */
} acct_resv_rec_t;

/* A batch job's script and environment, kept when AccountingStoreFlags
 * says job_script / job_env; sent once, at submit.  Key: (cluster,
 * job_id, submit).  Either may be NULL (not kept).  env is the
 * environment as "NAME=value" lines, each ended by a newline. */
typedef struct {
	uint32_t  job_id;
	time_t    submit;
	char     *script;
	char     *env;
} acct_script_rec_t;

extern const field_desc_t acct_script_rec_fields[];
/* Run tracking (sluice.log_metric/log_param/log_artifact, `scontrol
 * track`): one value a job logged.  Key: the job (job_id, submit); rows
 * are kept in the order logged (a name logged twice shows twice).
 * array_job_id, array_task_id and cluster are filled by slurmdbd in
 * answers. */
typedef enum {
	TRACK_METRIC = 1,         /* name, step, value */
	TRACK_PARAM,              /* name, text */
	TRACK_ARTIFACT,           /* name = absolute path, value = bytes */
	TRACK_EVENT,              /* the controller's alone: name = what
				   * happened (checkpoint, restart, ...),
				   * text = why/details */
	TRACK_KIND_END
} track_kind_t;

typedef struct {
	uint32_t  job_id;
	time_t    submit;         /* the job's */
	uint16_t  kind;           /* track_kind_t */
	char     *name;
	uint64_t  step;           /* metrics: 0 .. INT64_MAX */
	double    value;
	char     *text;           /* params: the value */
	time_t    time;           /* when the controller took it */
	uint32_t  array_job_id;
	uint32_t  array_task_id;
	char     *cluster;
} acct_track_rec_t;

/* Job profiling (--profile=task, AcctGatherProfileType=
 * acct_gather_profile/slurmdbd): one usage sample of a step's tasks on
 * one node, taken by its slurmstepd every --acctg-freq task=N seconds.
 * Sizes are the tasks' sums now; cpu_usec is their CPU time so far and
 * cpu_util the CPU used since the previous sample in percent of one CPU
 * (200 = two busy CPUs); read/write bytes are /proc's read_bytes and
 * write_bytes summed (what reached or came from storage), energy the
 * node's joules since the step started (NO_VAL64: no energy plugin).
 * Key: the job (job_id, submit).  array_job_id, array_task_id and
 * cluster are filled by slurmdbd in answers. */
typedef struct {
	uint32_t  job_id;
	time_t    submit;         /* the job's */
	uint32_t  step_id;        /* int32: ACCT_STEP_BATCH, 0, 1, ... */
	char     *node;
	time_t    time;           /* when sampled */
	uint32_t  ntasks;         /* the step's tasks living on the node */
	uint64_t  cpu_usec;
	double    cpu_util;
	uint64_t  rss_kb;
	uint64_t  vsize_kb;
	uint64_t  read_bytes;
	uint64_t  write_bytes;
	uint64_t  energy_j;
	uint32_t  array_job_id;
	uint32_t  array_task_id;
	char     *cluster;
} acct_profile_rec_t;

extern const field_desc_t acct_profile_rec_fields[];

/* "metric", "param", "artifact", "event"; NULL if unknown. */
const char *track_kind_name(uint16_t kind);

extern const field_desc_t acct_track_rec_fields[];
extern const field_desc_t acct_resv_rec_fields[];
extern const field_desc_t acct_cluster_rec_fields[];
extern const field_desc_t acct_job_rec_fields[];
extern const field_desc_t acct_step_rec_fields[];
extern const field_desc_t acct_event_rec_fields[];

/* Field table and struct size of a kind; NULL / 0 if unknown. */
const field_desc_t *acct_rec_fields(uint16_t kind, size_t *size);

/* ---- outbox file ---- */

#define ACCT_OUTBOX_MAGIC    "SLACCTOB"
#define ACCT_OUTBOX_VERSION  2u     /* the format written */
#define ACCT_OUTBOX_V1       1u     /* frames without a version */
#define ACCT_OUTBOX_HDR_LEN  20u     /* magic 8 + version 4 + epoch 8 */
#define ACCT_FRAME_HDR_LEN   8u      /* length 4 + crc 4 */
#define ACCT_FRAME_FIXED     12u     /* body: seq 8 + kind 2 + version 2 */
#define ACCT_FRAME_MAX_BODY  (4u * 1024 * 1024)

uint32_t acct_crc32(const void *data, size_t len);

/* Encode the file header into out[ACCT_OUTBOX_HDR_LEN]. */
void acct_outbox_header(uint8_t *out, uint64_t epoch);
/* Check a header: 0 with *epoch and *format (ACCT_OUTBOX_V1 or
 * ACCT_OUTBOX_VERSION); -2 with *format for a format newer than this
 * build reads (a newer controller's file: leave it alone); -1 if it is
 * not an outbox header. */
int  acct_outbox_header_parse(const uint8_t *in, size_t len,
			      uint64_t *epoch, uint32_t *format);

/* A framed record: what the outbox file holds and what is sent. */
/* A frame's version when it has none: written to an outbox of format 1,
 * before records carried one.  Read with the tables of 25.05 and the
 * shorter layouts before them. */
#define ACCT_REC_UNVERSIONED 0

typedef struct {
	uint64_t  seq;
	uint16_t  kind;
	uint16_t  version;        /* protocol version data is packed at */
	uint32_t  len;            /* of data */
	uint8_t  *data;           /* packed record body */
} acct_frame_t;

/* Pack rec of kind as a frame body at this build's version (f->version);
 * the caller owns f->data (acct_frame_free_members). */
void acct_frame_build(acct_frame_t *f, uint64_t seq, uint16_t kind,
		      const void *rec);
/* The same at version v (a supported one): tests, and tools writing for
 * an older slurmdbd. */
void acct_frame_build_at(acct_frame_t *f, uint64_t seq, uint16_t kind,
			 const void *rec, uint16_t v);
/* The on-disk bytes of f (frame header + body, format
 * ACCT_OUTBOX_VERSION); caller xfrees. */
uint8_t *acct_frame_encode(const acct_frame_t *f, size_t *len);
/* Parse one on-disk frame of a file of format (acct_outbox_header_parse)
 * at in[0..len).  Returns bytes consumed (> 0) with *f filled (f->data
 * xmalloc'd), 0 if the frame is incomplete or corrupt (a torn tail: stop
 * reading there). */
size_t acct_frame_decode(const uint8_t *in, size_t len, uint32_t format,
			 acct_frame_t *f);
void   acct_frame_free_members(acct_frame_t *f);

/* Whether this build reads records packed at version v: its own and the
 * two before (proto_supported), or ACCT_REC_UNVERSIONED.  When not, and
 * why is given, a message naming both versions and what to upgrade. */
bool  acct_rec_version_ok(uint16_t v, char *why, size_t len);
/* Unpack a frame's record, packed at version (acct_rec_version_ok), into
 * a new struct of its kind (free with acct_rec_free); fields the version
 * lacks get their rows' defaults.  NULL if the kind or version is unknown
 * or the bytes are bad. */
void *acct_rec_unpack(uint16_t kind, uint16_t version, const uint8_t *data,
		      uint32_t len);
void  acct_rec_free(uint16_t kind, void *rec);

#endif
