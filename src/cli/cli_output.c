/* cli_output.c — table lines, JSON and YAML documents. */
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>

#include "cli/cli_output.h"
#include "common/xmalloc.h"
#include "common/uid_cache.h"
#include "common/xstring.h"

char *cli_output_header(const cli_format_t *fmt)
{
	char *line = NULL;

	xstrcat(&line, fmt->prefix);
	for (size_t i = 0; i < fmt->cnt; i++) {
		const cli_col_t *c = &fmt->cols[i];

		cli_format_cell(&line, c->field->header, c->width, c->right);
		xstrcat(&line, c->suffix);
	}
	xstrcatc(&line, '\n');
	return line;
}

char *cli_output_line(const cli_format_t *fmt, const void *rec,
		      const cli_ctx_t *ctx)
{
	char *line = NULL;

	xstrcat(&line, fmt->prefix);
	for (size_t i = 0; i < fmt->cnt; i++) {
		const cli_col_t *c = &fmt->cols[i];
		char *v = cli_field_text(c->field, rec, ctx);

		cli_format_cell(&line, v, c->width, c->right);
		xstrcat(&line, c->suffix);
		xfree(v);
	}
	xstrcatc(&line, '\n');
	return line;
}

/* cli_format_cell straight into out. */
static void put_cell(FILE *out, const char *text, int width, bool right)
{
	static const char blanks[] = "                                "
				     "                                ";
	size_t len = text ? strlen(text) : 0, pad;

	if (width <= 0) {
		fwrite_unlocked(text ? text : "", 1, len, out);
		return;
	}
	if (len > (size_t)width)
		len = (size_t)width;
	pad = (size_t)width - len;
	if (!right)
		fwrite_unlocked(text, 1, len, out);
	while (pad) {
		size_t k = pad < sizeof(blanks) - 1 ? pad : sizeof(blanks) - 1;

		fwrite_unlocked(blanks, 1, k, out);
		pad -= k;
	}
	if (right)
		fwrite_unlocked(text, 1, len, out);
}

/* cli_output_line written to out as it goes (no line string: squeue
 * writes 10,000 of them). */
static void put_line(FILE *out, const cli_format_t *fmt, const void *rec,
		     const cli_ctx_t *ctx)
{
	if (fmt->prefix)
		put_cell(out, fmt->prefix, 0, false);
	for (size_t i = 0; i < fmt->cnt; i++) {
		const cli_col_t *c = &fmt->cols[i];
		char *v = cli_field_text(c->field, rec, ctx);

		put_cell(out, v, c->width, c->right);
		if (c->suffix)
			put_cell(out, c->suffix, 0, false);
		xfree(v);
	}
	putc_unlocked('\n', out);
}

void cli_output_fit(cli_format_t *fmt, const void *const *recs, size_t n,
		    const cli_ctx_t *ctx)
{
	for (size_t i = 0; i < fmt->cnt; i++) {
		cli_col_t *c = &fmt->cols[i];
		size_t w = CLI_FORMAT_AUTO_MIN;

		if (!c->fit)
			continue;
		if ((size_t)c->width > w)
			w = (size_t)c->width;
		if (c->field->header && strlen(c->field->header) > w)
			w = strlen(c->field->header);
		for (size_t r = 0; r < n; r++) {
			char *v = cli_field_text(c->field, recs[r], ctx);

			if (strlen(v) > w)
				w = strlen(v);
			xfree(v);
		}
		if (w > CLI_FORMAT_MAX_WIDTH)
			w = CLI_FORMAT_MAX_WIDTH;
		c->width = (int)w;
		c->fit = false;
	}
}

void cli_output_table(FILE *out, cli_format_t *fmt, const void *const *recs,
		      size_t n, const cli_ctx_t *ctx, bool header)
{
	char *line;

	cli_output_fit(fmt, recs, n, ctx);
	if (header) {
		line = cli_output_header(fmt);
		fputs(line, out);
		xfree(line);
	}
	flockfile(out);
	for (size_t i = 0; i < n; i++)
		put_line(out, fmt, recs[i], ctx);
	funlockfile(out);
}

/* ---- JSON documents ---- */

static char doc_cluster[128];

void cli_output_set_cluster(const char *name)
{
	snprintf(doc_cluster, sizeof(doc_cluster), "%s", name ? name : "");
}

static json_object *client_object(void)
{
	json_object *o = json_object_new_object();
	char user[256] = "", group[256] = "";

	/* the caches: thread-safe, for slurmrestd's workers */
	if (uid_cache_name(getuid(), user, sizeof(user)) < 0)
		user[0] = '\0';
	if (gid_cache_name(getgid(), group, sizeof(group)) < 0)
		group[0] = '\0';
	json_object_object_add(o, "source", json_object_new_string(""));
	json_object_object_add(o, "user", json_object_new_string(user));
	json_object_object_add(o, "group", json_object_new_string(group));
	return o;
}

static json_object *meta_object(void)
{
	json_object *meta = json_object_new_object();
	json_object *plugin = json_object_new_object();
	json_object *slurm = json_object_new_object();
	json_object *ver = json_object_new_object();

	json_object_object_add(plugin, "type", json_object_new_string(""));
	json_object_object_add(plugin, "name", json_object_new_string(""));
	json_object_object_add(plugin, "data_parser",
			       json_object_new_string("data_parser/v0.0.43"));
	json_object_object_add(plugin, "accounting_storage",
			       json_object_new_string(""));
	json_object_object_add(meta, "plugin", plugin);
	json_object_object_add(meta, "client", client_object());
	json_object_object_add(meta, "command", json_object_new_array());
	json_object_object_add(ver, "major", json_object_new_string("25"));
	json_object_object_add(ver, "micro", json_object_new_string("0"));
	json_object_object_add(ver, "minor", json_object_new_string("05"));
	json_object_object_add(slurm, "version", ver);
	json_object_object_add(slurm, "release",
			       json_object_new_string(SLUICE_VERSION_STRING));
	json_object_object_add(slurm, "cluster", json_object_new_string(doc_cluster));
	json_object_object_add(meta, "slurm", slurm);
	return meta;
}

json_object *cli_output_doc(const char *key, json_object *list,
			    time_t last_update)
{
	json_object *doc = json_object_new_object();

	json_object_object_add(doc, key, list);
	json_object_object_add(doc, "last_update", cli_json_time(last_update));
	json_object_object_add(doc, "meta", meta_object());
	json_object_object_add(doc, "errors", json_object_new_array());
	json_object_object_add(doc, "warnings", json_object_new_array());
	return doc;
}

/* ---- YAML: the same tree through libyaml's emitter ---- */

/* A string a YAML reader would take for something else gets quotes. */
static bool yaml_needs_quotes(const char *s)
{
	static const char *const words[] = {
		"", "~", "null", "Null", "NULL", "true", "True", "TRUE", "false",
		"False", "FALSE", "yes", "Yes", "YES", "no", "No", "NO", "on",
		"On", "ON", "off", "Off", "OFF",
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(s, words[i]))
			return true;
	if (strchr("0123456789+-.", *s))
		return true;    /* numbers, dates, times, "0:0" */
	return false;
}

static int yaml_scalar(yaml_emitter_t *em, const char *s, bool is_string)
{
	bool quote = is_string && yaml_needs_quotes(s);
	yaml_event_t ev;

	yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s,
				     (int)strlen(s), !quote, quote,
				     quote ? YAML_DOUBLE_QUOTED_SCALAR_STYLE
					   : YAML_ANY_SCALAR_STYLE);
	return yaml_emitter_emit(em, &ev);
}

static int yaml_node(yaml_emitter_t *em, json_object *o);

static int yaml_map(yaml_emitter_t *em, json_object *o)
{
	yaml_event_t ev;

	yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
					    YAML_BLOCK_MAPPING_STYLE);
	if (!yaml_emitter_emit(em, &ev))
		return 0;
	json_object_object_foreach(o, k, v) {
		if (!yaml_scalar(em, k, true) || !yaml_node(em, v))
			return 0;
	}
	yaml_mapping_end_event_initialize(&ev);
	return yaml_emitter_emit(em, &ev);
}

static int yaml_seq(yaml_emitter_t *em, json_object *o)
{
	size_t n = json_object_array_length(o);
	yaml_event_t ev;

	yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
			n ? YAML_BLOCK_SEQUENCE_STYLE : YAML_FLOW_SEQUENCE_STYLE);
	if (!yaml_emitter_emit(em, &ev))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!yaml_node(em, json_object_array_get_idx(o, i)))
			return 0;
	yaml_sequence_end_event_initialize(&ev);
	return yaml_emitter_emit(em, &ev);
}

static int yaml_node(yaml_emitter_t *em, json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_object:
		return yaml_map(em, o);
	case json_type_array:
		return yaml_seq(em, o);
	case json_type_string:
		return yaml_scalar(em, json_object_get_string(o), true);
	case json_type_null:
		return yaml_scalar(em, "null", false);
	default:
		return yaml_scalar(em, json_object_to_json_string(o), false);
	}
}

static int yaml_write(void *data, unsigned char *buf, size_t size)
{
	return fwrite(buf, 1, size, data) == size;
}

static void print_yaml(FILE *out, json_object *doc)
{
	yaml_emitter_t em;
	yaml_event_t ev;
	int ok;

	yaml_emitter_initialize(&em);
	yaml_emitter_set_output(&em, yaml_write, out);
	yaml_emitter_set_unicode(&em, 1);
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	ok = yaml_emitter_emit(&em, &ev);
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 0);
	ok = ok && yaml_emitter_emit(&em, &ev);
	ok = ok && yaml_node(&em, doc);
	yaml_document_end_event_initialize(&ev, 1);
	ok = ok && yaml_emitter_emit(&em, &ev);
	yaml_stream_end_event_initialize(&ev);
	ok = ok && yaml_emitter_emit(&em, &ev);
	yaml_emitter_delete(&em);
	(void)ok;
}

/* ---- JSON, laid out as Slurm 25.05 prints it: two-space indent,
 * "key": value, empty containers as [] and {} ---- */

static void indent(FILE *out, int depth)
{
	for (int i = 0; i < depth; i++)
		fputs("  ", out);
}

static void print_json(FILE *out, json_object *o, int depth)
{
	enum json_type t = json_object_get_type(o);
	size_t n = 0, i = 0;

	if (t == json_type_array)
		n = json_object_array_length(o);
	else if (t == json_type_object)
		n = (size_t)json_object_object_length(o);
	else {
		fputs(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
					JSON_C_TO_STRING_NOSLASHESCAPE), out);
		return;
	}
	fputc(t == json_type_array ? '[' : '{', out);
	if (t == json_type_array) {
		for (i = 0; i < n; i++) {
			fputs(i ? ",\n" : "\n", out);
			indent(out, depth + 1);
			print_json(out, json_object_array_get_idx(o, i), depth + 1);
		}
	} else {
		json_object_object_foreach(o, k, v) {
			json_object *key = json_object_new_string(k);

			fputs(i++ ? ",\n" : "\n", out);
			indent(out, depth + 1);
			fprintf(out, "%s: ", json_object_to_json_string_ext(key,
					JSON_C_TO_STRING_NOSLASHESCAPE));
			json_object_put(key);
			print_json(out, v, depth + 1);
		}
	}
	if (n) {
		fputc('\n', out);
		indent(out, depth);
	}
	fputc(t == json_type_array ? ']' : '}', out);
}

void cli_output_doc_print(FILE *out, json_object *doc, bool yaml)
{
	if (yaml) {
		print_yaml(out, doc);
	} else {
		print_json(out, doc, 0);
		fputc('\n', out);
	}
	json_object_put(doc);
}
