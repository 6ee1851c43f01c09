/* js_view.c — see js_view.h. */
#include "ctld/js_view.h"

#include <stdbool.h>
#include <string.h>
#include <time.h>

#include "common/log.h"

/* View 1, frozen: Sluice 25.05's job_desc_t as plugins of ops version 1
 * were built against it (tests/fixtures/job_submit_view_v1/ holds the
 * header such a plugin includes).  Never change it. */
typedef struct {
	char     *name;
	char     *partition;      /* may be "a,b" */
	char     *account;
	char     *qos;
	char     *comment;
	char     *work_dir;
	char     *std_out;        /* patterns, relative to work_dir */
	char     *std_err;
	char     *std_in;
	char     *script;         /* batch script text */
	char    **argv;           /* script arguments, NULL-terminated */
	char    **environment;    /* the job's environment, NULL-terminated */
	char     *user_name;      /* informational; the controller trusts auth */
	uint32_t  user_id;
	uint32_t  group_id;
	uint32_t  min_nodes;      /* NO_VAL32 = not given */
	uint32_t  max_nodes;
	uint32_t  num_tasks;      /* NO_VAL32 = not given */
	uint16_t  cpus_per_task;  /* NO_VAL16 = not given */
	uint16_t  ntasks_per_node;
	uint32_t  min_cpus;       /* NO_VAL32 */
	uint64_t  pn_min_memory;  /* MB per node, or per CPU if mem_per_cpu; NO_VAL64 */
	bool      mem_per_cpu;
	uint32_t  time_limit;     /* minutes */
	uint32_t  time_min;
	time_t    begin_time;
	bool      hold;           /* submit held (--hold) */
	uint32_t  nice;           /* NO_VAL32, else nice + NICE_OFFSET */
	uint32_t  priority;       /* NO_VAL32; operators only */
	char     *req_nodes;      /* -w */
	char     *exc_nodes;      /* -x */
	char     *features;       /* -C */
	uint16_t  shared;         /* enum job_shared */
	uint16_t  contiguous;
	uint16_t  requeue;        /* NO_VAL16, 0, 1 */
	uint16_t  open_mode;      /* 0 default, 1 append, 2 truncate */
	char     *submit_host;
	char     *submit_line;
	char     *array_inx;      /* --array */
	char     *dependency;
	char     *gres;           /* tres_per_node */
	char     *licenses;
	char     *reservation;
	char     *wckey;
	char     *mail_type;
	char     *mail_user;
	char     *export_env;     /* --export as given */
	uint16_t  kill_on_node_fail;
	uint32_t  tmp_disk;       /* MB */
	uint16_t  immediate;
	uint16_t  warn_signal;
	uint16_t  warn_time;
	time_t    deadline;
	uint32_t  ntasks_per_core;
	uint16_t  sockets_per_node;
	uint16_t  cores_per_socket;
	uint16_t  threads_per_core;
	char     *cpus_per_tres;
	char     *mem_per_tres;
	char     *tres_per_task;
	char     *container;
	char     *spank_env;      /* reserved for SPANK options */
	uint16_t  kill_inv_dep;   /* --kill-on-invalid-dep: NO_VAL16, 0, 1 */
	uint16_t  warn_flags;     /* --signal B: -> KILL_JOB_BATCH */
	char     *tres_per_job;   /* --gpus: "gres/gpu:4" */
	uint32_t  bitflags;       /* JOB_SPREAD... */
	uint32_t  profile;        /* --profile: PROFILE_* (profile.h), 0 =
				     not set */
	char     *acctg_freq;     /* --acctg-freq as given, or NULL */
	uint32_t  req_switch;     /* --switches count, 0 = none */
	uint32_t  wait4switch;    /* --switches @max-time, seconds */
	uint16_t  segment_size;   /* --segment, 0 = none */
	uint16_t  alloc_resp_port; /* salloc: where it takes SRUN_USER_MSG
				    * (scontrol notify), 0 none */
} job_submit_view_v1_t;

#define D(m, t) FIELD(job_submit_view_v1_t, m, t)
static const field_desc_t view_v1_fields[] = {
	D(name, FT_STR), D(partition, FT_STR), D(account, FT_STR), D(qos, FT_STR),
	D(comment, FT_STR), D(work_dir, FT_STR), D(std_out, FT_STR),
	D(std_err, FT_STR), D(std_in, FT_STR), D(script, FT_STR),
	D(argv, FT_STRLIST), D(environment, FT_STRLIST), D(user_name, FT_STR),
	D(user_id, FT_U32), D(group_id, FT_U32), D(min_nodes, FT_U32),
	D(max_nodes, FT_U32), D(num_tasks, FT_U32), D(cpus_per_task, FT_U16),
	D(ntasks_per_node, FT_U16), D(min_cpus, FT_U32),
	D(pn_min_memory, FT_U64), D(mem_per_cpu, FT_BOOL),
	D(time_limit, FT_U32), D(time_min, FT_U32), D(begin_time, FT_TIME),
	D(hold, FT_BOOL), D(nice, FT_U32), D(priority, FT_U32),
	D(req_nodes, FT_STR), D(exc_nodes, FT_STR), D(features, FT_STR),
	D(shared, FT_U16), D(contiguous, FT_U16), D(requeue, FT_U16),
	D(open_mode, FT_U16), D(submit_host, FT_STR), D(submit_line, FT_STR),
	D(array_inx, FT_STR), D(dependency, FT_STR), D(gres, FT_STR),
	D(licenses, FT_STR), D(reservation, FT_STR), D(wckey, FT_STR),
	D(mail_type, FT_STR), D(mail_user, FT_STR), D(export_env, FT_STR),
	D(kill_on_node_fail, FT_U16), D(tmp_disk, FT_U32),
	D(immediate, FT_U16), D(warn_signal, FT_U16), D(warn_time, FT_U16),
	D(deadline, FT_TIME), D(ntasks_per_core, FT_U32),
	D(sockets_per_node, FT_U16), D(cores_per_socket, FT_U16),
	D(threads_per_core, FT_U16), D(cpus_per_tres, FT_STR),
	D(mem_per_tres, FT_STR), D(tres_per_task, FT_STR),
	D(container, FT_STR), D(spank_env, FT_STR),
	D(kill_inv_dep, FT_U16), D(warn_flags, FT_U16),
	D(tres_per_job, FT_STR), D(bitflags, FT_U32),
	D(profile, FT_U32), D(acctg_freq, FT_STR),
	D(req_switch, FT_U32), D(wait4switch, FT_U32),
	D(segment_size, FT_U16), D(alloc_resp_port, FT_U16),
	FIELD_END
};
#undef D

typedef struct {
	const field_desc_t *fields;
	size_t              size;
	int16_t             map[FIELDS_SEL_MAX];  /* row in job_desc_fields */
	bool                mapped;
} view_ver_t;

static view_ver_t vers[] = {
	{ view_v1_fields, sizeof(job_submit_view_v1_t), { 0 }, false },
	{ job_submit_view_fields, sizeof(job_submit_view_t), { 0 }, false },
};

static size_t _type_size(field_type_t t)
{
	switch (t) {
	case FT_STR:
	case FT_STRLIST:
		return sizeof(char *);
	case FT_BOOL:
		return sizeof(bool);
	case FT_U8:
		return 1;
	case FT_U16:
		return 2;
	case FT_U32:
		return 4;
	case FT_U64:
		return 8;
	case FT_TIME:
		return sizeof(time_t);
	default:
		return 0;
	}
}

/* Each view member's job_desc_t row by name, once; -1: none (a member
 * the controller fills itself, or one it no longer has). */
static view_ver_t *_ver(uint32_t v)
{
	view_ver_t *vv;

	if (v < JS_VIEW_OLDEST || v > JOB_SUBMIT_VIEW_VERSION)
		return NULL;
	vv = &vers[v - JS_VIEW_OLDEST];
	if (vv->mapped)
		return vv;
	for (size_t i = 0; vv->fields[i].name; i++) {
		const field_desc_t *f = &vv->fields[i];

		vv->map[i] = -1;
		for (size_t k = 0; job_desc_fields[k].name; k++) {
			if (strcmp(job_desc_fields[k].name, f->name))
				continue;
			if (job_desc_fields[k].type != f->type ||
			    !_type_size(f->type))
				error("%s: job_submit view %u member %s: the "
				      "controller's has another type", __func__,
				      v, f->name);
			else
				vv->map[i] = (int16_t) k;
			break;
		}
	}
	vv->mapped = true;
	return vv;
}

size_t js_view_size(uint32_t v)
{
	view_ver_t *vv = _ver(v);

	return vv ? vv->size : 0;
}

void js_view_fill(uint32_t v, void *view, const job_desc_t *d,
		  uint16_t client_version)
{
	view_ver_t *vv = _ver(v);

	if (!vv)
		return;
	memset(view, 0, vv->size);
	for (size_t i = 0; vv->fields[i].name; i++) {
		const field_desc_t *f = &vv->fields[i];

		if (vv->map[i] < 0)
			continue;
		memcpy((char *) view + f->offset,
		       (const char *) d + job_desc_fields[vv->map[i]].offset,
		       _type_size(f->type));
	}
	if (v >= 2)
		((job_submit_view_t *) view)->client_version = client_version;
}

void js_view_take(uint32_t v, const void *view, job_desc_t *d)
{
	view_ver_t *vv = _ver(v);

	if (!vv)
		return;
	for (size_t i = 0; vv->fields[i].name; i++) {
		const field_desc_t *f = &vv->fields[i];

		if (vv->map[i] < 0)
			continue;
		memcpy((char *) d + job_desc_fields[vv->map[i]].offset,
		       (const char *) view + f->offset, _type_size(f->type));
	}
}
