/* job_submit_plugin.c — see job_submit_plugin.h. */
#include "ctld/job_submit_plugin.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "common/plugin_ctx.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/job_submit_stock.h"
#include "ctld/job_view_fill.h"
#include "ctld/js_view.h"
#include "ctld/part_mgr.h"
#include "ctld/part_view_fill.h"
#include "slurm/slurm_errno.h"

/* Ops 1 and 2, frozen: the request view of their version (1 or 2), the
 * job as job_info_t and the partitions as a part_info_t array.  Both are
 * at hand when the chain runs, so serving them costs nothing. */
typedef struct {
	int  (*init)(const slurm_conf_t *conf, char *err, size_t errlen);
	void (*fini)(void);
	int  (*submit)(void *view, const part_info_t *parts, size_t part_cnt,
		       uint32_t submit_uid, char **user_msg);
	int  (*modify)(void *view, const job_info_t *job,
		       const part_info_t *parts, size_t part_cnt,
		       uint32_t modify_uid, char **user_msg);
} js_ops_v2_t;

typedef struct {
	const job_submit_ops_t *ops;      /* ops 3 */
	const js_ops_v2_t      *old;      /* ops 1, 2 */
	uint32_t                ops_ver;  /* what it was built for */
	uint32_t                view;     /* its request view version */
	bool                    inited;   /* fini owed */
} js_plugin_t;

static plugin_ctx_t *ctx;
static js_plugin_t  *plugins;
static size_t        plugin_cnt;
static bool          broken;    /* configured plugins failed to load */

/* Plugins compiled into slurmctld; the rest are job_submit_<name>.so. */
static const struct sluice_plugin *const builtins[] = {
	&job_submit_all_partitions_plugin, &job_submit_defaults_plugin,
	&job_submit_logging_plugin, &job_submit_require_timelimit_plugin,
	&job_submit_throttle_plugin, NULL,
};
const plugin_type_t job_submit_plugin_type = {
	.type = "job_submit", .key = "JobSubmitPlugins",
	.ops_version = JOB_SUBMIT_OPS_VERSION,
	.ops_version_min = JOB_SUBMIT_OPS_OLDEST, .list = true,
	.builtins = builtins,
};

static void unload(void)
{
	for (size_t i = plugin_cnt; i-- > 0;) {
		void (*fini)(void) = plugins[i].ops ? plugins[i].ops->fini :
			plugins[i].old->fini;

		if (plugins[i].inited && fini)
			fini();
	}
	xfree(plugins);
	plugin_ctx_destroy(ctx);
	plugins = NULL;
	plugin_cnt = 0;
	ctx = NULL;
}

int job_submit_plugin_init(const slurm_conf_t *conf, char *err, size_t errlen)
{
	const char *where = conf_key_where(conf, "JobSubmitPlugins");
	plugin_ctx_t *c = plugin_ctx_create(&job_submit_plugin_type,
					    conf->job_submit_plugins,
					    conf->plugin_dir, where, err,
					    errlen);
	size_t n = plugin_ctx_count(c);

	if (!c) {
		/* the old list stays loaded, but is not what is configured */
		broken = true;
		return -1;
	}
	/* A plugin may keep state in its own statics: the old instance goes
	 * before the new one's init. */
	job_submit_plugin_fini();
	ctx = c;
	plugins = xcalloc(n + 1, sizeof(*plugins));
	plugin_cnt = n;
	for (size_t i = 0; i < n; i++) {
		char perr[512] = "";
		js_plugin_t *p = &plugins[i];
		int (*init)(const slurm_conf_t *, char *, size_t);

		p->ops_ver = plugin_ctx_ops_version(c, i);
		if (p->ops_ver >= 3) {
			p->ops = plugin_ctx_ops(c, i);
			init = p->ops->init;
		} else {
			p->old = plugin_ctx_ops(c, i);
			init = p->old->init;
		}
		p->view = p->ops_ver >= 2 ? JOB_SUBMIT_VIEW_VERSION : 1;
		if (init && init(conf, perr, sizeof(perr)) < 0) {
			snprintf(err, errlen, "%s: %s", plugin_ctx_name(c, i),
				 perr);
			unload();
			broken = true;
			return -1;
		}
		p->inited = true;
		if (p->ops_ver != JOB_SUBMIT_OPS_VERSION)
			info("job_submit: loaded %s (built for job_submit ops "
			     "version %u, this slurmctld's is %u: served as "
			     "%u)", plugin_ctx_name(c, i), p->ops_ver,
			     JOB_SUBMIT_OPS_VERSION, p->ops_ver);
		else
			info("job_submit: loaded %s", plugin_ctx_name(c, i));
	}
	if (plugin_ctx_init(c, err, errlen) < 0) {
		unload();
		broken = true;
		return -1;
	}
	return 0;
}

void job_submit_plugin_fini(void)
{
	unload();
	broken = false;
}

/* Policy that failed to load is not skipped: submissions are refused. */
static int refuse_broken(char **user_msg)
{
	error("job_submit: JobSubmitPlugins failed to load at reconfigure; refusing jobs");
	*user_msg = xstrdup("The site's job submit plugin failed to load; ask an administrator");
	return ESLURM_SUBMISSIONS_DISABLED;
}

/* The partitions in both forms: part_info_t for ops 1 and 2 (shallow:
 * read-only), views (and pointers to them) for ops 3. */
typedef struct {
	part_info_t        *info;
	part_view_t        *view;
	const part_view_t **ptr;
	size_t              cnt;
} js_parts_t;

static void parts_snapshot(js_parts_t *p)
{
	size_t n = part_mgr_count();

	p->cnt = n;
	p->info = xcalloc(n + 1, sizeof(*p->info));
	p->view = xcalloc(n + 1, sizeof(*p->view));
	p->ptr = xcalloc(n + 1, sizeof(*p->ptr));
	for (size_t i = 0; i < n; i++) {
		p->info[i] = part_mgr_at(i)->info;
		part_view_fill(&p->view[i], &p->info[i]);
		p->ptr[i] = &p->view[i];
	}
}

static void parts_free(js_parts_t *p)
{
	xfree(p->info);
	xfree(p->view);
	xfree(p->ptr);
}

static void add_msg(char **all, char *msg)
{
	if (!msg || !*msg) {
		xfree(msg);
		return;
	}
	if (*all)
		xstrfmtcat(all, "\n%s", msg);
	else
		*all = xstrdup(msg);
	xfree(msg);
}

/* One call of a plugin; the chain runs them in order. */
typedef int (*js_call_f)(const js_plugin_t *p, const js_parts_t *parts,
			 void *arg, char **msg);

static int run_chain(js_call_f call, void *arg, char **user_msg)
{
	js_parts_t parts;
	int rc = 0;

	if (broken)
		return refuse_broken(user_msg);
	if (!plugin_cnt)
		return 0;
	parts_snapshot(&parts);
	for (size_t i = 0; i < plugin_cnt && !rc; i++) {
		char *msg = NULL;

		rc = call(&plugins[i], &parts, arg, &msg);
		add_msg(user_msg, msg);
	}
	parts_free(&parts);
	return rc;
}

typedef struct {
	job_desc_t       *desc;
	const job_info_t *job;        /* modify only */
	uint32_t          uid;
	uint16_t          client_version;
} js_args_t;

/* The plugin sees the views of its version, filled from the request and
 * the job; what it changed goes back into the request, refused or not
 * (as before: a refusing plugin's changes are dropped with the
 * request). */
static int call_view(const js_plugin_t *p, const js_parts_t *parts,
		     js_args_t *a, bool modify, char **msg)
{
	void *view = xmalloc(js_view_size(p->view));
	job_view_t job;
	int rc;

	js_view_fill(p->view, view, a->desc, a->client_version);
	if (p->ops && modify) {
		job_view_fill(&job, a->job, a->job);
		rc = p->ops->modify(view, &job, parts->ptr, parts->cnt,
				    a->uid, msg);
	} else if (p->ops) {
		rc = p->ops->submit(view, parts->ptr, parts->cnt, a->uid,
				    msg);
	} else if (modify) {
		rc = p->old->modify(view, a->job, parts->info, parts->cnt,
				    a->uid, msg);
	} else {
		rc = p->old->submit(view, parts->info, parts->cnt, a->uid,
				    msg);
	}
	js_view_take(p->view, view, a->desc);
	xfree(view);
	return rc;
}

static int call_submit(const js_plugin_t *p, const js_parts_t *parts,
		       void *arg, char **msg)
{
	if (p->ops ? !p->ops->submit : !p->old->submit)
		return 0;
	return call_view(p, parts, arg, false, msg);
}

static int call_modify(const js_plugin_t *p, const js_parts_t *parts,
		       void *arg, char **msg)
{
	if (p->ops ? !p->ops->modify : !p->old->modify)
		return 0;
	return call_view(p, parts, arg, true, msg);
}

int job_submit_plugin_submit(job_desc_t *desc, uint32_t uid,
			     uint16_t client_version, char **user_msg)
{
	js_args_t a = { .desc = desc, .uid = uid,
			.client_version = client_version };

	return run_chain(call_submit, &a, user_msg);
}

int job_submit_plugin_modify(job_desc_t *desc, const job_info_t *job,
			     uint32_t uid, uint16_t client_version,
			     char **user_msg)
{
	js_args_t a = { .desc = desc, .job = job, .uid = uid,
			.client_version = client_version };

	return run_chain(call_modify, &a, user_msg);
}
