/* job_submit_plugin.c — see job_submit_plugin.h. */
#include "ctld/job_submit_plugin.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "common/plugin.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/part_mgr.h"
#include "slurm/slurm_errno.h"

typedef struct {
	plugin_handle_t        *handle;
	const job_submit_ops_t *ops;
} js_plugin_t;

static js_plugin_t *plugins;
static size_t       plugin_cnt;
static bool         broken;    /* configured plugins failed to load */

static void unload(js_plugin_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (v[i].ops && v[i].ops->fini)
			v[i].ops->fini();
		plugin_unload(v[i].handle);
	}
	xfree(v);
}

int job_submit_plugin_init(const slurm_conf_t *conf, char *err, size_t errlen)
{
	js_plugin_t *v = NULL;
	size_t n = 0;
	char *list, *save = NULL, *tok;
	int rc = 0;

	/* A plugin may keep state in its own statics: the old instance goes
	 * before the new one is loaded. */
	job_submit_plugin_fini();
	list = xstrdup(conf->job_submit_plugins ? conf->job_submit_plugins : "");
	for (tok = strtok_r(list, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		char *name = xstrtrim(tok);
		char *spec = strchr(name, '/') ? xstrdup(name) :
			     xstrdup_printf("job_submit/%s", name);
		char perr[256] = "";
		plugin_handle_t *h = plugin_load(spec, conf->plugin_dir, perr,
						 sizeof(perr));

		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n] = (js_plugin_t) { .handle = h,
				       .ops = h ? plugin_ops(h) : NULL };
		if (!h) {
			snprintf(err, errlen, "JobSubmitPlugins: %s", perr);
			rc = -1;
		} else if (v[n].ops->init &&
			   v[n].ops->init(conf, perr, sizeof(perr)) < 0) {
			snprintf(err, errlen, "%s: %s", spec, perr);
			v[n].ops = NULL;   /* fini not owed */
			rc = -1;
		} else {
			info("job_submit: loaded %s", spec);
		}
		n++;
		xfree(spec);
	}
	xfree(list);
	if (rc) {
		unload(v, n);
		broken = true;
		return -1;
	}
	plugins = v;
	plugin_cnt = n;
	return 0;
}

void job_submit_plugin_fini(void)
{
	unload(plugins, plugin_cnt);
	plugins = NULL;
	plugin_cnt = 0;
	broken = false;
}

/* Policy that failed to load is not skipped: submissions are refused. */
static int refuse_broken(char **user_msg)
{
	error("job_submit: JobSubmitPlugins failed to load at reconfigure; refusing jobs");
	*user_msg = xstrdup("The site's job submit plugin failed to load; ask an administrator");
	return ESLURM_SUBMISSIONS_DISABLED;
}

static part_info_t *parts_snapshot(size_t *cnt)
{
	size_t n = part_mgr_count();
	part_info_t *v = xcalloc(n + 1, sizeof(*v));

	for (size_t i = 0; i < n; i++)
		v[i] = part_mgr_at(i)->info;    /* shallow: read-only */
	*cnt = n;
	return v;
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
typedef int (*js_call_f)(const js_plugin_t *p, const part_info_t *parts,
			 size_t part_cnt, void *arg, char **msg);

static int run_chain(js_call_f call, void *arg, char **user_msg)
{
	size_t part_cnt;
	part_info_t *parts;
	int rc = 0;

	if (broken)
		return refuse_broken(user_msg);
	if (!plugin_cnt)
		return 0;
	parts = parts_snapshot(&part_cnt);
	for (size_t i = 0; i < plugin_cnt && !rc; i++) {
		char *msg = NULL;

		rc = call(&plugins[i], parts, part_cnt, arg, &msg);
		add_msg(user_msg, msg);
	}
	xfree(parts);
	return rc;
}

typedef struct {
	job_desc_t       *desc;
	const job_info_t *job;        /* modify only */
	uint32_t          uid;
} js_args_t;

static int call_submit(const js_plugin_t *p, const part_info_t *parts,
		       size_t part_cnt, void *arg, char **msg)
{
	js_args_t *a = arg;

	if (!p->ops->submit)
		return 0;
	return p->ops->submit(a->desc, parts, part_cnt, a->uid, msg);
}

static int call_modify(const js_plugin_t *p, const part_info_t *parts,
		       size_t part_cnt, void *arg, char **msg)
{
	js_args_t *a = arg;

	if (!p->ops->modify)
		return 0;
	return p->ops->modify(a->desc, a->job, parts, part_cnt, a->uid, msg);
}

int job_submit_plugin_submit(job_desc_t *desc, uint32_t uid, char **user_msg)
{
	js_args_t a = { .desc = desc, .uid = uid };

	return run_chain(call_submit, &a, user_msg);
}

int job_submit_plugin_modify(job_desc_t *desc, const job_info_t *job,
			     uint32_t uid, char **user_msg)
{
	js_args_t a = { .desc = desc, .job = job, .uid = uid };

	return run_chain(call_modify, &a, user_msg);
}
