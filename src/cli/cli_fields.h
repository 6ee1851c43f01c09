/* cli_fields.h — each record the commands print, described once.
 *
 * One table per record kind (job, node, partition, sinfo row,
 * reservation, step; sacct's, sstat's, sshare's ... rows through
 * cli_table.h).  A row
 * names the field for every output: its squeue/sinfo format letter (-o
 * "%i"), its long name (-O JobID), the column header, the key scontrol
 * shows it under ("JobId=") and where that key sits in scontrol's layout,
 * and the JSON key (a path "a/b" builds nested objects) with its value
 * builder.  The table printer, -o/-O, scontrol show and --json/--yaml all
 * walk these tables, so they cannot drift apart.
 *
 * Text getters append to *out (an xmalloc'd string, may start NULL); a
 * getter that leaves *out NULL means "no value": tables print "(null)",
 * scontrol leaves the key out when the row is CF_SHOW_OPT.
 */
#ifndef SLUICE_CLI_FIELDS_H
#define SLUICE_CLI_FIELDS_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "cli/cli_jv.h"
#include "common/msg_types.h"

/* What a getter may need beyond the record itself. */
typedef struct {
	time_t                 now;
	const part_info_msg_t *parts;     /* sinfo rows, partition lookups */
	uint16_t               slurmd_port;   /* scontrol omits Port= if equal */
} cli_ctx_t;

typedef void (*cli_text_f)(char **out, const void *rec, const cli_ctx_t *ctx);
/* Writes the row's one JSON value into v (cli_jv.h). */
typedef void (*cli_json_f)(cli_jv_t *v, const void *rec, const cli_ctx_t *ctx);

/* A JSON getter fn written for the sink: CLI_JSON(fn, r, c) { ... }. */
#define CLI_JSON(fn, r, c) \
	static void fn(cli_jv_t *v, const void *r, const cli_ctx_t *c)
/* A JSON getter fn that builds a json-c object and returns it:
 * CLI_JSON_OBJ(fn, r, c) { return ...; }.  Handed to the sink whole. */
#define CLI_JSON_OBJ(fn, r, c) \
	static json_object *fn##_obj(const void *r, const cli_ctx_t *c); \
	static void fn(cli_jv_t *v_, const void *r, const cli_ctx_t *c) \
	{ \
		cli_jv_obj(v_, fn##_obj(r, c)); \
	} \
	static json_object *fn##_obj(const void *r, const cli_ctx_t *c)

enum {
	CF_SHOW_NL    = 0x01,   /* scontrol: start a new line before the key */
	CF_SHOW_OPT   = 0x02,   /* scontrol: leave the key out if no value */
	CF_SHOW_TRAIL = 0x04,   /* scontrol: a space after the value */
	CF_SHOW_DETAIL = 0x08,  /* scontrol: only with -d */
	CF_SINFO_AGG  = 0x10,   /* sinfo: summarises the row, not a grouping key */
};

typedef struct {
	char        letter;     /* -o %X; 0 = none */
	const char *name;       /* -O name, matched case-insensitively */
	const char *header;     /* column header */
	const char *show_key;   /* scontrol "Key="; NULL = not shown */
	unsigned    flags;
	cli_text_f  text;
	const char *json_key;   /* NULL = not in JSON */
	cli_json_f  json;       /* NULL = the text as a JSON string */
	/* accounting-style tables (cli_table.h): the column's default
	 * width, < 0 left-justified; header NULL there means the name */
	int         width;
} cli_field_t;

/* Tables end with a row whose text and json are both NULL. */
extern const cli_field_t cli_job_fields[];
extern const cli_field_t cli_node_fields[];
extern const cli_field_t cli_part_fields[];
extern const cli_field_t cli_sinfo_fields[];
extern const cli_field_t cli_step_fields[];
/* scontrol show reservation|step and their JSON: over resv_info_t and
 * job_step_info_t. */
extern const cli_field_t cli_resv_fields[];
extern const cli_field_t cli_step_info_fields[];

/* A job step as squeue -s lists it (the batch step of a running job). */
typedef struct {
	const job_info_t *job;
	const char       *name;     /* "batch", or an srun step's name */
	bool              srun;     /* an srun step: the fields below */
	uint32_t          step_id;
	const char       *nodes;
	time_t            start;
	uint32_t          tasks;
} cli_step_row_t;

/* Add to sel the job_info_t fields row f of cli_job_fields reads; -1 if
 * it is not known to read only some (the caller then asks for all). */
int cli_job_field_needs(const cli_field_t *f, fields_sel_t *sel);

/* Row lookup: by format letter or by long name; NULL if none. */
const cli_field_t *cli_field_by_letter(const cli_field_t *tab, char letter);
const cli_field_t *cli_field_by_name(const cli_field_t *tab, const char *name);
/* The text of a field ("(null)" for no value).  Caller frees. */
char *cli_field_text(const cli_field_t *f, const void *rec, const cli_ctx_t *ctx);

/* Row f's JSON value for rec (its getter's, or its text as a string);
 * caller puts. */
json_object *cli_field_json(const cli_field_t *f, const void *rec,
			    const cli_ctx_t *ctx);
/* One JSON object for a record: every row with a json_key. */
json_object *cli_fields_json(const cli_field_t *tab, const void *rec,
			     const cli_ctx_t *ctx);
/* scontrol "Key=Value" layout of a record.  end_multi/end_one: what
 * closes the record in multi-line and one-line form. */
void cli_fields_show(FILE *out, const cli_field_t *tab, const void *rec,
		     const cli_ctx_t *ctx, bool one_liner, bool detail,
		     const char *end_multi, const char *end_one);

/* A report of "Label: value" lines (sdiag): every row with a show_key
 * whose text is not NULL, as show_key then the text; CF_SHOW_NL puts a
 * blank line before it. */
void cli_fields_report(FILE *out, const cli_field_t *tab, const void *rec,
		       const cli_ctx_t *ctx);

/* A sinfo row: the nodes of one partition that print alike. */
typedef struct {
	const part_info_t  *part;       /* NULL: not grouped by partition */
	const node_info_t **nodes;
	size_t              cnt;
	size_t              alloc;
} cli_sinfo_row_t;

/* ---- JSON value helpers shared by the field tables ---- */

/* {"set":..,"infinite":..,"number":N} for a NO_VAL/INFINITE number. */
json_object *cli_json_num32(uint32_t v);
json_object *cli_json_num64(uint64_t v);
json_object *cli_json_time(time_t t);          /* unset when 0 */
json_object *cli_json_f64(double v);           /* float64_no_val, set */
json_object *cli_json_strlist(const char *csv); /* "a,b" -> ["a","b"] */
json_object *cli_json_str(const char *s);      /* NULL -> "" */
/* process_exit_code_verbose of a wait() status: {status[], return_code,
 * signal{id, name}}. */
json_object *cli_json_exit(uint32_t status);
void cli_jv_exit(cli_jv_t *v, uint32_t status);
/* A TRES string ("cpu=2,mem=1000M,gres/gpu=1") as a tres_list:
 * [{type, name, id, count}], memory in MB. */
json_object *cli_json_tres(const char *tres);

/* ---- text helpers ---- */

/* User name for a uid, or the number. */
void cli_fmt_uid(char **out, uint32_t uid);

/* Elapsed seconds as scontrol prints them: "00:00:11", "1-02:03:04". */
void cli_fmt_runtime(char **out, long secs);
/* Wall-clock time; zero prints zero_text ("Unknown", "None", "N/A"). */
void cli_fmt_time(char **out, time_t t, const char *zero_text);
/* A job's run time in seconds at ctx->now. */
long cli_job_run_secs(const job_info_t *j, time_t now);
/* Expanded StdOut/StdErr/StdIn path of a job as scontrol shows it. */
char *cli_job_std_path(const job_info_t *j, int which /* 0 in 1 out 2 err */);

#endif
