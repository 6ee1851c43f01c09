/* cli_fields.c — walking the field tables: lookup, text, JSON, scontrol
 * layout, and the value helpers the tables share. */
#include <pwd.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/cli_fields.h"
#include "common/fname.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/uid_cache.h"
#include "common/xstring.h"

static bool row_end(const cli_field_t *f)
{
	return !f->text && !f->json;
}

const cli_field_t *cli_field_by_letter(const cli_field_t *tab, char letter)
{
	if (!letter)
		return NULL;
	for (const cli_field_t *f = tab; !row_end(f); f++)
		if (f->letter == letter)
			return f;
	return NULL;
}

const cli_field_t *cli_field_by_name(const cli_field_t *tab, const char *name)
{
	if (!name || !*name)
		return NULL;
	for (const cli_field_t *f = tab; !row_end(f); f++)
		if (f->name && !strcasecmp(f->name, name))
			return f;
	return NULL;
}

char *cli_field_text(const cli_field_t *f, const void *rec, const cli_ctx_t *ctx)
{
	char *s = NULL;

	if (f->text)
		f->text(&s, rec, ctx);
	return s ? s : xstrdup("(null)");
}

/* ---- JSON ---- */

/* The object at path "a/b/c" minus its last element; creates parents. */
static json_object *json_parent(json_object *root, const char *path,
				const char **leaf)
{
	const char *slash;
	json_object *cur = root;

	while ((slash = strchr(path, '/'))) {
		char *part = xstrndup(path, (size_t)(slash - path));
		json_object *next;

		if (!json_object_object_get_ex(cur, part, &next)) {
			next = json_object_new_object();
			json_object_object_add(cur, part, next);
		}
		xfree(part);
		cur = next;
		path = slash + 1;
	}
	*leaf = path;
	return cur;
}

json_object *cli_field_json(const cli_field_t *f, const void *rec,
			    const cli_ctx_t *ctx)
{
	json_object *v;
	char *s = NULL;

	if (f->json) {
		cli_jv_tree_t t;

		cli_jv_tree_init(&t);
		f->json(&t.jv, rec, ctx);
		v = cli_jv_tree_take(&t);
		return v ? v : json_object_new_object();
	}
	f->text(&s, rec, ctx);
	v = json_object_new_string(s ? s : "");
	xfree(s);
	return v;
}

json_object *cli_fields_json(const cli_field_t *tab, const void *rec,
			     const cli_ctx_t *ctx)
{
	json_object *o = json_object_new_object();

	for (const cli_field_t *f = tab; !row_end(f); f++) {
		const char *leaf;
		json_object *parent, *v;

		if (!f->json_key)
			continue;
		v = cli_field_json(f, rec, ctx);
		parent = json_parent(o, f->json_key, &leaf);
		json_object_object_add(parent, leaf, v);
	}
	return o;
}

/* ---- scontrol layout ---- */

/* -o: a value's own lines (scontrol -d's "Nodes=... CPU_IDs=..." under
 * JOB_GRES=) join the record's one line, each newline and the indent
 * after it one space, as Slurm prints them. */
static void one_line(char *v)
{
	char *w = v;

	for (const char *r = v; *r; r++) {
		if (*r != '\n') {
			*w++ = *r;
			continue;
		}
		*w++ = ' ';
		while (r[1] == ' ')
			r++;
	}
	*w = '\0';
}

void cli_fields_show(FILE *out, const cli_field_t *tab, const void *rec,
		     const cli_ctx_t *ctx, bool one_liner, bool detail,
		     const char *end_multi, const char *end_one)
{
	char *line = NULL;
	bool first = true;

	for (const cli_field_t *f = tab; !row_end(f); f++) {
		char *v = NULL;

		if (!f->show_key || !f->text)
			continue;
		if ((f->flags & CF_SHOW_DETAIL) && !detail)
			continue;
		f->text(&v, rec, ctx);
		if (!v && (f->flags & CF_SHOW_OPT))
			continue;
		if (!first)
			xstrcat(&line, (f->flags & CF_SHOW_NL) && !one_liner
					       ? "\n   " : " ");
		if (v && one_liner)
			one_line(v);
		xstrfmtcat(&line, "%s=%s", f->show_key, v ? v : "(null)");
		if (f->flags & CF_SHOW_TRAIL)
			xstrcatc(&line, ' ');
		first = false;
		xfree(v);
	}
	xstrcat(&line, one_liner ? end_one : end_multi);
	fputs(line, out);
	xfree(line);
}

void cli_fields_report(FILE *out, const cli_field_t *tab, const void *rec,
		       const cli_ctx_t *ctx)
{
	for (const cli_field_t *f = tab; !row_end(f); f++) {
		char *v = NULL;

		if (!f->show_key || !f->text)
			continue;
		f->text(&v, rec, ctx);
		if (!v)
			continue;
		fprintf(out, "%s%s%s\n", (f->flags & CF_SHOW_NL) ? "\n" : "",
			f->show_key, v);
		xfree(v);
	}
}

/* ---- JSON value helpers ---- */

/* The shared shapes are written once, for the sink (cli_jv.c); these
 * give them as trees to callers that build one. */
#define TREE_OF(call) \
	do { \
		cli_jv_tree_t t_; \
		cli_jv_tree_init(&t_); \
		call; \
		return cli_jv_tree_take(&t_); \
	} while (0)

json_object *cli_json_num32(uint32_t v)
{
	TREE_OF(cli_jv_num32(&t_.jv, v));
}

json_object *cli_json_num64(uint64_t v)
{
	TREE_OF(cli_jv_num64(&t_.jv, v));
}

json_object *cli_json_f64(double v)
{
	TREE_OF(cli_jv_f64_set(&t_.jv, v));
}

json_object *cli_json_time(time_t t)
{
	TREE_OF(cli_jv_time(&t_.jv, t));
}

json_object *cli_json_strlist(const char *csv)
{
	TREE_OF(cli_jv_strlist(&t_.jv, csv));
}

void cli_jv_exit(cli_jv_t *v, uint32_t st)
{
	uint32_t s = (st != NO_VAL32 && (st & 0x7f) && (st & 0x7f) != 0x7f)
		     ? st & 0x7f : 0;
	uint32_t code = st == NO_VAL32 ? 0 : (st >> 8) & 0xff;

	cli_jv_object(v);
	cli_jv_key(v, "status");
	cli_jv_array(v);
	cli_jv_str(v, s ? "SIGNALED" : code ? "ERROR" : "SUCCESS");
	cli_jv_end(v);
	cli_jv_key(v, "return_code");
	cli_jv_num32(v, code);
	cli_jv_key(v, "signal");
	cli_jv_object(v);
	cli_jv_key(v, "id");
	cli_jv_num32(v, s ? s : NO_VAL32);
	cli_jv_key(v, "name");
	cli_jv_str(v, "");
	cli_jv_end(v);
	cli_jv_end(v);
}

json_object *cli_json_exit(uint32_t st)
{
	TREE_OF(cli_jv_exit(&t_.jv, st));
}

/* "cpu=2,mem=1000M,node=1,billing=2" -> [{type, name, id, count}] */
json_object *cli_json_tres(const char *tres)
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
			json_object_object_add(t, "type", json_object_new_string("gres"));
			json_object_object_add(t, "name", json_object_new_string(items[i] + 5));
			id = 1001;
		} else {
			for (size_t k = 0; k < sizeof(ids) / sizeof(ids[0]);
			     k++)
				if (!strcmp(ids[k].type, items[i]))
					id = ids[k].id;
			json_object_object_add(t, "type", json_object_new_string(items[i]));
			json_object_object_add(t, "name", json_object_new_string(""));
		}
		json_object_object_add(t, "id", json_object_new_int64(id));
		json_object_object_add(t, "count", json_object_new_int64(count));
		json_object_array_add(a, t);
	}
	xstrarray_free(items);
	return a;
}

json_object *cli_json_str(const char *s)
{
	return json_object_new_string(s ? s : "");
}

/* ---- text helpers ---- */

void cli_fmt_uid(char **out, uint32_t uid)
{
	char name[256];

	/* the cache: thread-safe (slurmrestd's workers print jobs too) */
	if (uid_cache_name((uid_t)uid, name, sizeof(name)) == 0)
		xstrcat(out, name);
	else
		xstrfmtcat(out, "%u", uid);
}

void cli_fmt_runtime(char **out, long secs)
{
	long d, h, m;

	if (secs < 0)
		secs = 0;
	d = secs / 86400;
	h = (secs / 3600) % 24;
	m = (secs / 60) % 60;
	if (d)
		xstrfmtcat(out, "%ld-%02ld:%02ld:%02ld", d, h, m, secs % 60);
	else
		xstrfmtcat(out, "%02ld:%02ld:%02ld", h, m, secs % 60);
}

void cli_fmt_time(char **out, time_t t, const char *zero_text)
{
	char buf[64];

	if (!t || t == (time_t)-1) {
		xstrcat(out, zero_text);
		return;
	}
	fmt_time(t, buf, sizeof(buf));
	xstrcat(out, buf);
}

long cli_job_run_secs(const job_info_t *j, time_t now)
{
	uint32_t base = j->job_state & JOB_STATE_BASE;
	time_t end;

	if (!j->start_time || base == JOB_PENDING)
		return 0;
	if (base == JOB_SUSPENDED)
		return (long)j->pre_sus_time;
	if (base == JOB_RUNNING && !(j->job_state & JOB_COMPLETING))
		end = now;
	else
		end = j->end_time ? j->end_time : now;
	if (end < j->start_time)
		return (long)j->pre_sus_time;
	if (base == JOB_RUNNING && j->suspend_time)
		return (long)(j->pre_sus_time + (end - j->suspend_time));
	return (long)(end - j->start_time);
}

char *cli_job_std_path(const job_info_t *j, int which)
{
	return job_info_std_path(j, which);
}
