/* rest_job_desc_int.h — the job_desc_msg property table's row type, its
 * converters (rest_job_conv.c) and its walk (rest_job_desc.c), shared by
 * the submit/allocate parser (rest_job_submit.c) and the update parser
 * (rest_job_update.c).  Private to src/restd.
 */
#ifndef SLUICE_REST_JOB_DESC_INT_H
#define SLUICE_REST_JOB_DESC_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "common/job_info.h"

/* What one walk over a job_desc_msg object found besides d's fields. */
typedef struct {
	bool  update;        /* a job update: keep "" (clears), check rows */
	int   hold;          /* "hold" given: 1/0, else -1 */
	char *job_id;        /* "job_id" given (update), xmalloc'd */
} rest_jd_extra_t;

/* Walk job (an object at path base) into d (already initialised).
 * 0, or a Slurm error code with *err set; d may be half-filled then
 * (the caller frees it). */
int rest_jd_walk(json_object *job, const char *base, int ver, job_desc_t *d,
		 rest_jd_extra_t *x, json_object *warnings, char **err);

/* Is ver a data_parser version served (40..43)? */
bool rest_jd_version_ok(int ver);

/* ---- the property table's row and converters (rest_job_conv.c) ---- */

/* memory_per_node / memory_per_cpu / memory_per_tres: one of them. */
enum { RJ_MEM_NODE = 1, RJ_MEM_CPU = 2, RJ_MEM_TRES = 4 };

typedef struct {
	job_desc_t      *d;
	rest_jd_extra_t *x;
	int              ver;
	unsigned         mem_kinds;
	json_object     *warnings;
	char           **err;
	int              rc;        /* code for the error being returned */
} rest_jd_ctx_t;

typedef struct rest_jd_prop rest_jd_prop_t;
typedef int (*rest_jd_conv_f)(const rest_jd_prop_t *p, json_object *v,
			      const char *path, rest_jd_ctx_t *c);

/* One row of the table (rest_job_desc.c). */
struct rest_jd_prop {
	const char    *name;
	uint8_t        vmin, vmax;  /* data_parser versions that have it */
	rest_jd_conv_f conv;
	size_t         off;         /* offsetof(job_desc_t, field) */
	int64_t        min, max;    /* integer rows: accepted range */
	const void    *arg;         /* refusal text, "per CPU" mark */
	bool           upd;         /* may be given in a job update */
};

/* *err = "<path>: <what>", the error code ESLURM_NOT_SUPPORTED; -1. */
int rest_jd_refuse(rest_jd_ctx_t *c, const char *path, const char *what);

/* Each converter checks one property's value v (path for messages) and
 * stores it in c->d at p->off as sbatch's option would; 0, or -1 with
 * *c->err set (and c->rc, when not a parse error). */
#define RJ_CONV_ARGS const rest_jd_prop_t *p, json_object *v, \
	const char *path, rest_jd_ctx_t *c
int rest_cv_str(RJ_CONV_ARGS);
int rest_cv_dir(RJ_CONV_ARGS);
int rest_cv_array(RJ_CONV_ARGS);
int rest_cv_csv(RJ_CONV_ARGS);
int rest_cv_strlist(RJ_CONV_ARGS);
int rest_cv_env(RJ_CONV_ARGS);
int rest_cv_u16(RJ_CONV_ARGS);
int rest_cv_u32(RJ_CONV_ARGS);
int rest_cv_min_cpus(RJ_CONV_ARGS);
int rest_cv_noval(RJ_CONV_ARGS);
int rest_cv_time(RJ_CONV_ARGS);
int rest_cv_stamp(RJ_CONV_ARGS);
int rest_cv_mem(RJ_CONV_ARGS);
int rest_cv_mem_tres(RJ_CONV_ARGS);
int rest_cv_nice(RJ_CONV_ARGS);
int rest_cv_priority(RJ_CONV_ARGS);
int rest_cv_nodes(RJ_CONV_ARGS);
int rest_cv_bool16(RJ_CONV_ARGS);
int rest_cv_hold(RJ_CONV_ARGS);
int rest_cv_shared(RJ_CONV_ARGS);
int rest_cv_exclusive(RJ_CONV_ARGS);
int rest_cv_oversubscribe(RJ_CONV_ARGS);
int rest_cv_open_mode(RJ_CONV_ARGS);
int rest_cv_mail_type(RJ_CONV_ARGS);
int rest_cv_profile(RJ_CONV_ARGS);
int rest_cv_acctg_freq(RJ_CONV_ARGS);
int rest_cv_job_flags(RJ_CONV_ARGS);
int rest_cv_warn_flags(RJ_CONV_ARGS);
int rest_cv_signal(RJ_CONV_ARGS);
int rest_cv_user(RJ_CONV_ARGS);
int rest_cv_group(RJ_CONV_ARGS);
int rest_cv_job_id(RJ_CONV_ARGS);
int rest_cv_refuse(RJ_CONV_ARGS);
int rest_cv_ignore(RJ_CONV_ARGS);
int rest_cv_x11(RJ_CONV_ARGS);
#undef RJ_CONV_ARGS

#endif
