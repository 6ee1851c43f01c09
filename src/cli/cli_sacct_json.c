/* cli_sacct_json.c — sacct --json / --yaml: jobs in Slurm 22.05's
 * data_parser v0.0.38 layout (openapi/dbv0.0.38) (cli_sacct.h). */
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli/cli_sacct.h"
#include "common/array_spec.h"
#include "common/bitmap.h"
#include "common/hostlist.h"
#include "common/job_info.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define JADD(o, k, v) json_object_object_add(o, k, v)

static json_object *jstr(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static json_object *jstr_empty(const char *s)
{
	return json_object_new_string(s ? s : "");
}

static json_object *jint(int64_t v)
{
	return json_object_new_int64(v);
}

static char *user_name(uint32_t uid)
{
	struct passwd *pw = getpwuid((uid_t)uid);

	return pw ? xstrdup(pw->pw_name) : xstrdup_printf("%u", uid);
}

static char *group_name(uint32_t gid)
{
	struct group *gr = getgrgid((gid_t)gid);

	return gr ? xstrdup(gr->gr_name) : xstrdup_printf("%u", gid);
}

/* {"status": "SUCCESS"|"FAILED"|"SIGNALED", "return_code": N, ...} */
static json_object *exit_obj(uint32_t status)
{
	json_object *o = json_object_new_object();

	if (WIFSIGNALED(status)) {
		json_object *sig = json_object_new_object();

		JADD(o, "status", jstr("SIGNALED"));
		JADD(o, "return_code", NULL);
		JADD(sig, "signal_id", jint(WTERMSIG(status)));
		JADD(sig, "name", jstr(strsignal(WTERMSIG(status))));
		JADD(o, "signal", sig);
		return o;
	}
	JADD(o, "status", jstr(WEXITSTATUS(status) ? "FAILED" : "SUCCESS"));
	JADD(o, "return_code", jint(WEXITSTATUS(status)));
	return o;
}

static json_object *secs_usecs(uint64_t usec)
{
	json_object *o = json_object_new_object();

	JADD(o, "seconds", jint((int64_t)(usec / 1000000)));
	JADD(o, "microseconds", jint((int64_t)(usec % 1000000)));
	return o;
}

/* "cpu=2,mem=1000M,node=1,billing=2" -> [{type, name, id, count}] */
static json_object *tres_list(const char *tres)
{
	static const struct { const char *type; int id; } ids[] = {
		{ "cpu", 1 }, { "mem", 2 }, { "energy", 3 }, { "node", 4 },
		{ "billing", 5 }, { "fs", 6 }, { "vmem", 7 }, { "pages", 8 },
	};
	json_object *a = json_object_new_array();
	char **items = tres ? xstrsplit(tres, ",", NULL) : NULL;

	for (size_t i = 0; items && items[i]; i++) {
		char *eq = strchr(items[i], '='), *end;
		json_object *t;
		int64_t count;
		int id = 1000;

		if (!eq)
			continue;
		*eq = '\0';
		count = strtoll(eq + 1, &end, 10);
		if (!strcmp(items[i], "mem")) {
			/* MB, with an optional unit */
			if (*end == 'G')
				count *= 1024;
			else if (*end == 'T')
				count *= 1024 * 1024;
		}
		t = json_object_new_object();
		if (!strncmp(items[i], "gres/", 5)) {
			JADD(t, "type", jstr("gres"));
			JADD(t, "name", jstr(items[i] + 5));
			id = 1001;
		} else {
			for (size_t k = 0; k < sizeof(ids) / sizeof(ids[0]);
			     k++)
				if (!strcmp(ids[k].type, items[i]))
					id = ids[k].id;
			JADD(t, "type", jstr(items[i]));
			JADD(t, "name", NULL);
		}
		JADD(t, "id", jint(id));
		JADD(t, "count", jint(count));
		json_object_array_add(a, t);
	}
	xstrarray_free(items);
	return a;
}

/* Slurm shows the pending tasks of an array as a hex bitmap. */
static json_object *task_hex(const char *spec)
{
	char err[128], *hex = NULL;
	uint32_t throttle;
	bitmap_t *b;
	size_t top;
	json_object *o;

	if (!spec)
		return NULL;
	b = array_spec_parse(spec, ARRAY_SPEC_MAX_SIZE, &throttle, err,
			     sizeof(err));
	if (!b)
		return jstr(spec);
	for (top = bitmap_size(b); top && !bitmap_test(b, top - 1); top--)
		;
	xstrcat(&hex, "0x");
	for (size_t nib = (top + 3) / 4; nib > 0; nib--) {
		unsigned v = 0;

		for (int k = 3; k >= 0; k--) {
			size_t bit = (nib - 1) * 4 + (size_t)k;

			v = v << 1 | (bit < top && bitmap_test(b, bit));
		}
		xstrcatc(&hex, "0123456789ABCDEF"[v]);
	}
	bitmap_destroy(b);
	o = jstr(hex);
	xfree(hex);
	return o;
}

static json_object *time_obj(const acct_job_rec_t *j, uint64_t user_usec,
			     uint64_t sys_usec, time_t now)
{
	json_object *o = json_object_new_object();
	time_t end = j->end ? j->end : now;

	JADD(o, "elapsed", jint(j->start && end > j->start ?
				 end - j->start : 0));
	JADD(o, "eligible", jint(j->eligible));
	JADD(o, "end", jint(j->end));
	JADD(o, "start", j->start ? jint(j->start) : NULL);
	JADD(o, "submission", jint(j->submit));
	JADD(o, "suspended", jint(0));
	JADD(o, "system", secs_usecs(sys_usec));
	JADD(o, "limit", j->time_limit == NO_VAL32 ||
		j->time_limit == INFINITE32 ? NULL : jint(j->time_limit));
	JADD(o, "total", secs_usecs(user_usec + sys_usec));
	JADD(o, "user", secs_usecs(user_usec));
	return o;
}

static json_object *empty_usage(void)
{
	json_object *o = json_object_new_object();

	JADD(o, "max", json_object_new_array());
	JADD(o, "min", json_object_new_array());
	JADD(o, "average", json_object_new_array());
	JADD(o, "total", json_object_new_array());
	return o;
}

static json_object *usage_item(int id, const char *type, uint64_t count,
			       const char *node)
{
	json_object *t = json_object_new_object();

	JADD(t, "type", jstr(type));
	JADD(t, "name", NULL);
	JADD(t, "id", jint(id));
	JADD(t, "count", jint((int64_t)count));
	if (node) {
		JADD(t, "task", jint(0));
		JADD(t, "node", jstr(node));
	}
	return t;
}

/* MaxRSS / MaxVMSize as Slurm reports them: bytes in requested.max. */
static json_object *step_usage(const acct_step_rec_t *s, const char *node)
{
	json_object *o = empty_usage();
	const char *keys[] = { "max", "average" };

	for (int k = 0; k < 2; k++) {
		json_object *a;

		json_object_object_get_ex(o, keys[k], &a);
		if (s->max_rss_kb)
			json_object_array_add(a, usage_item(2, "mem",
				(k ? s->ave_rss_kb : s->max_rss_kb) * 1024,
				k ? NULL : node));
		if (s->max_vsize_kb)
			json_object_array_add(a, usage_item(7, "vmem",
				(k ? s->ave_vsize_kb : s->max_vsize_kb) * 1024,
				k ? NULL : node));
	}
	return o;
}

static json_object *step_obj(const acct_job_rec_t *j,
			     const acct_step_rec_t *s, time_t now)
{
	json_object *o = json_object_new_object(), *n, *tr, *t, *st, *x;
	int32_t id = (int32_t)s->step_id;
	time_t end = s->end ? s->end : now;
	char err[128], idbuf[16];
	hostlist_t *hl = s->nodes ? hostlist_parse(s->nodes, err,
						   sizeof(err)) : NULL;
	json_object *list = json_object_new_array();

	for (size_t i = 0; hl && i < hostlist_count(hl); i++)
		json_object_array_add(list, jstr(hostlist_nth(hl, i)));
	n = json_object_new_object();
	JADD(n, "list", list);
	JADD(n, "count", jint(s->num_nodes));
	JADD(n, "range", jstr_empty(s->nodes));
	JADD(o, "nodes", n);
	tr = json_object_new_object();
	JADD(tr, "requested", step_usage(s, hl && hostlist_count(hl) ?
					 hostlist_nth(hl, 0) : NULL));
	JADD(tr, "consumed", empty_usage());
	JADD(tr, "allocated", tres_list(s->tres_alloc));
	JADD(o, "tres", tr);
	if (hl)
		hostlist_destroy(hl);
	t = json_object_new_object();
	JADD(t, "elapsed", jint(s->start && end > s->start ?
				 end - s->start : 0));
	JADD(t, "end", jint(s->end));
	JADD(t, "start", jint(s->start));
	JADD(t, "suspended", jint(0));
	JADD(t, "system", secs_usecs(s->sys_usec));
	JADD(t, "total", secs_usecs(s->user_usec + s->sys_usec));
	JADD(t, "user", secs_usecs(s->user_usec));
	JADD(o, "time", t);
	JADD(o, "exit_code", exit_obj(s->exit_code));
	x = json_object_new_object();
	JADD(x, "count", jint(s->ntasks));
	JADD(o, "tasks", x);
	JADD(o, "pid", NULL);
	x = json_object_new_object();
	st = json_object_new_object();
	JADD(st, "min", jint(0));
	JADD(st, "max", jint(0));
	JADD(x, "requested_frequency", st);
	JADD(x, "governor", json_object_new_array());
	JADD(o, "CPU", x);
	if (s->requid != NO_VAL32) {
		char *u = user_name(s->requid);

		JADD(o, "kill_request_user", jstr(u));
		xfree(u);
	} else {
		JADD(o, "kill_request_user", NULL);
	}
	JADD(o, "state", jstr(job_state_string(s->state & JOB_STATE_BASE)));
	st = json_object_new_object();
	x = json_object_new_object();
	JADD(x, "actual_frequency", jint(0));
	JADD(st, "CPU", x);
	x = json_object_new_object();
	JADD(x, "consumed", jint((int64_t)s->consumed_energy));
	JADD(st, "energy", x);
	JADD(o, "statistics", st);
	st = json_object_new_object();
	JADD(st, "job_id", jint(j->job_id));
	x = json_object_new_object();
	JADD(x, "component", NULL);
	JADD(st, "het", x);
	if (id == ACCT_STEP_BATCH)
		snprintf(idbuf, sizeof(idbuf), "batch");
	else if (id == ACCT_STEP_EXTERN)
		snprintf(idbuf, sizeof(idbuf), "extern");
	else
		snprintf(idbuf, sizeof(idbuf), "%d", id);
	JADD(st, "id", jstr(idbuf));
	JADD(st, "name", jstr_empty(s->name));
	JADD(o, "step", st);
	x = json_object_new_object();
	JADD(x, "distribution", jstr("Unknown"));
	JADD(o, "task", x);
	return o;
}

json_object *sacct_json_job(const acct_job_rec_t *j,
			    const acct_step_rec_t *steps, uint32_t nsteps,
			    time_t now)
{
	json_object *o = json_object_new_object(), *x, *y, *z;
	uint64_t user = 0, sys = 0;
	char *uname = user_name(j->uid), *gname = group_name(j->gid);
	bool meta = j->array_task_str && j->array_task_id == NO_VAL32;

	for (uint32_t i = 0; i < nsteps; i++) {
		user += steps[i].user_usec;
		sys += steps[i].sys_usec;
	}
	JADD(o, "account", jstr_empty(j->account));
	x = json_object_new_object();
	JADD(x, "administrator", NULL);
	JADD(x, "job", jstr(j->comment));
	JADD(x, "system", NULL);
	JADD(o, "comment", x);
	JADD(o, "allocation_nodes", jint(j->num_nodes));
	x = json_object_new_object();
	JADD(x, "job_id", jint(meta && !j->array_job_id ? j->job_id :
			       j->array_job_id));
	y = json_object_new_object();
	z = json_object_new_object();
	JADD(z, "tasks", jint(0));
	JADD(y, "running", z);
	z = json_object_new_object();
	JADD(z, "max", y);
	JADD(x, "limits", z);
	JADD(x, "task", meta ? task_hex(j->array_task_str) : NULL);
	JADD(x, "task_id", j->array_job_id && j->array_task_id != NO_VAL32 ?
	     jint(j->array_task_id) : NULL);
	JADD(o, "array", x);
	x = json_object_new_object();
	JADD(x, "account", jstr_empty(j->account));
	JADD(x, "cluster", jstr_empty(j->cluster));
	JADD(x, "partition", NULL);
	JADD(x, "user", jstr(uname));
	JADD(o, "association", x);
	JADD(o, "cluster", jstr_empty(j->cluster));
	JADD(o, "constraints", jstr_empty(j->constraints));
	JADD(o, "container", NULL);
	JADD(o, "derived_exit_code", exit_obj(j->derived_ec));
	JADD(o, "time", time_obj(j, user, sys, now));
	JADD(o, "exit_code", exit_obj(j->exit_code));
	JADD(o, "flags", json_object_new_array());
	JADD(o, "group", jstr(gname));
	x = json_object_new_object();
	JADD(x, "job_id", jint(0));
	JADD(x, "job_offset", NULL);
	JADD(o, "het", x);
	JADD(o, "job_id", jint(j->job_id));
	JADD(o, "name", jstr_empty(j->name));
	x = json_object_new_object();
	JADD(x, "label", jstr(""));
	JADD(o, "mcs", x);
	JADD(o, "nodes", jstr(j->nodes && j->nodes[0] ? j->nodes :
			      "None assigned"));
	JADD(o, "partition", jstr_empty(j->partition));
	JADD(o, "priority", jint(j->priority));
	JADD(o, "qos", jstr_empty(j->qos));
	x = json_object_new_object();
	JADD(x, "CPUs", jint(j->req_cpus));
	JADD(x, "memory", jint(j->req_mem == NO_VAL64 ? 0 :
			       (int64_t)j->req_mem));
	JADD(o, "required", x);
	if (j->requid != NO_VAL32) {
		char *k = user_name(j->requid);

		JADD(o, "kill_request_user", jstr(k));
		xfree(k);
	} else {
		JADD(o, "kill_request_user", NULL);
	}
	x = json_object_new_object();
	JADD(x, "id", jint(0));
	JADD(x, "name", jint(0));
	JADD(o, "reservation", x);
	x = json_object_new_object();
	JADD(x, "current", jstr(job_state_string(j->state & JOB_STATE_BASE)));
	JADD(x, "reason", jstr(job_reason_string(j->reason)));
	JADD(o, "state", x);
	x = json_object_new_array();
	for (uint32_t i = 0; i < nsteps; i++)
		json_object_array_add(x, step_obj(j, &steps[i], now));
	JADD(o, "steps", x);
	x = json_object_new_object();
	JADD(x, "allocated", tres_list(j->tres_alloc));
	JADD(x, "requested", tres_list(j->tres_req));
	JADD(o, "tres", x);
	JADD(o, "user", jstr(uname));
	x = json_object_new_object();
	JADD(x, "wckey", jstr(""));
	JADD(x, "flags", json_object_new_array());
	JADD(o, "wckey", x);
	JADD(o, "working_directory", jstr_empty(j->work_dir));
	xfree(uname);
	xfree(gname);
	return o;
}

json_object *sacct_json_doc(json_object *jobs)
{
	json_object *doc = json_object_new_object(), *meta, *p, *s, *v;
	unsigned maj = 0, min = 0, mic = 0;

	sscanf(SLUICE_VERSION_STRING, "%u.%u.%u", &maj, &min, &mic);
	meta = json_object_new_object();
	p = json_object_new_object();
	JADD(p, "type", jstr("openapi/dbv0.0.38"));
	JADD(p, "name", jstr("Slurm OpenAPI DB v0.0.38"));
	JADD(meta, "plugin", p);
	s = json_object_new_object();
	v = json_object_new_object();
	JADD(v, "major", jint(maj));
	JADD(v, "micro", jint(mic));
	JADD(v, "minor", jint(min));
	JADD(s, "version", v);
	JADD(s, "release", jstr(SLUICE_VERSION_STRING));
	JADD(meta, "Slurm", s);
	JADD(doc, "meta", meta);
	JADD(doc, "errors", json_object_new_array());
	JADD(doc, "jobs", jobs);
	return doc;
}
