/* cli_sacctmgr.h — sacctmgr's pieces shared between sacctmgr.c (commands,
 * talking to slurmdbd, add/modify/delete messages) and
 * cli_sacctmgr_show.c (the show/list tables).
 *
 * slurmdbd answers a list with a table of strings: named columns, one row
 * per record.  A row is printed through cli_sacctmgr_fields, whose getters
 * look their column up by name; the same rows make its JSON.
 */
#ifndef SLUICE_CLI_SACCTMGR_H
#define SLUICE_CLI_SACCTMGR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#include "cli/cli_fields.h"
#include "common/msg_types.h"

typedef struct {
	bool   noheader;     /* -n */
	bool   parsable;     /* -p: '|' after every field */
	bool   parsable2;    /* -P: '|' between fields */
	bool   immediate;    /* -i */
	bool   quiet;        /* -Q */
	int    verbose;
	int    json;         /* 1 --json, 2 --yaml */
} mgr_opts_t;

/* One command line: what to do to which entity. */
typedef struct {
	uint16_t   op;           /* dbd_op_t */
	uint16_t   entity;       /* dbd_entity_t */
	char     **names;        /* add: the names */
	char     **where;        /* "key=value", keys as slurmdbd knows them */
	char     **set;
	char      *format;       /* format=, or NULL */
	bool       with_assoc;
	bool       with_coord;   /* users: their coordinator accounts */
	bool       tree;
	bool       all_time;     /* events: no time window */
} mgr_cmd_t;

/* One record of a list reply. */
typedef struct {
	char *const *cols;   /* the reply's column names */
	char *const *cells;  /* this row's cells (same order) */
	size_t       ncols;
	int          depth;  /* tree: indentation of the Account column */
} mgr_row_t;

/* What "show" prints: entity, format= (NULL = default), tree. */
typedef struct {
	uint16_t    entity;
	bool        with_assoc;
	bool        with_coord;
	bool        tree;
	const char *format;
} mgr_show_t;

/* Where a column sits in the JSON of the entities it is part of (Slurm
 * 25.05's data_parser v0.0.43). */
typedef struct {
	uint32_t    ents;     /* 1 << DBD_ENT_x of each entity */
	const char *key;      /* "max/jobs/per/count" */
	cli_json_f  json;     /* NULL: the column's text as a string */
} mgr_json_t;

#define MGR_JSON_MAX 3

/* A row of sacctmgr show's one table (cli_sacctmgr_fields.c): the column
 * (f.name NULL: a JSON member only) and its JSON places. */
typedef struct {
	cli_field_t f;
	mgr_json_t  js[MGR_JSON_MAX];
} mgr_field_t;

extern const mgr_field_t cli_sacctmgr_fields[];

/* argv[0] is the command ("add", "show", ...).  0, or the exit code after
 * printing Slurm's message for an unknown command, entity or key. */
int  cli_sacctmgr_parse(mgr_cmd_t *c, int argc, char **argv);
void cli_sacctmgr_cmd_free(mgr_cmd_t *c);

/* `rollup [START [END [ARCHIVE]]]` (cli_sacctmgr_rollup.c): slurmdbd
 * rolls up usage now, from START again if given, up to END if given.
 * argv[0] is the command word.  Exit code. */
bool cli_sacctmgr_is_rollup(const char *word);
/* `show stats [ave_time|total_time]`, `clear stats`
 * (cli_sacctmgr_stats.c): slurmdbd's RPC statistics (Operators). */
bool cli_sacctmgr_is_stats(int argc, char **argv);
int  cli_sacctmgr_stats(int argc, char **argv);
int  cli_sacctmgr_rollup(int argc, char **argv, bool immediate);
/* `archive dump [Directory=] [Events] [Jobs] [Steps] [Suspend]
 * [Purge*After=]` and `archive load [File=]PATH`
 * (cli_sacctmgr_archive.c).  argv[0] is the command word.  Exit code. */
bool cli_sacctmgr_is_archive(const char *word);
int  cli_sacctmgr_archive(int argc, char **argv);
/* "accounts", "users", "QOS", ... as messages name them. */
const char *cli_sacctmgr_plural(uint16_t entity);

/* Wckeys, resources, transactions, jobs (cli_sacctmgr_ext.c): the
 * arguments as slurmdbd takes them (0, or the exit code after printing
 * why not), and what a change did, as Slurm prints it (false: not one of
 * these entities). */
int  cli_sacctmgr_ext_args(mgr_cmd_t *c);
bool cli_sacctmgr_ext_changes(const mgr_cmd_t *c, char *const *cells,
			      size_t n);

/* show runawayjobs [cluster=C] (cli_sacctmgr_runaway.c): argv[0] is
 * the command word; the exit code. */
bool cli_sacctmgr_is_runaway(int argc, char **argv);
int  cli_sacctmgr_runaway(const mgr_opts_t *o, int argc, char **argv);

/* show configuration (cli_sacctmgr_conf.c); the exit code. */
bool cli_sacctmgr_is_config(int argc, char **argv);
int  cli_sacctmgr_config(int argc, char **argv);

/* What an add/modify/delete did (or would do), as Slurm words it.
 * Returns false when it did nothing (" Nothing new added." ...). */
bool cli_sacctmgr_print_changes(const mgr_cmd_t *c,
				const dbd_acct_resp_msg_t *r);

/* The cell of column name in row, or NULL. */
const char *cli_sacctmgr_cell(const mgr_row_t *row, const char *name);

/* Print a list reply; returns the exit code. */
int cli_sacctmgr_show(const mgr_opts_t *o, const mgr_show_t *s,
		      const dbd_acct_resp_msg_t *resp);

/* ---- JSON (cli_sacctmgr_fields.c, cli_sacctmgr_json.c) ---- */

/* A list answer's records as Slurm 25.05's data_parser v0.0.43 shows
 * them: the array, and in *key the document member that holds it
 * ("accounts", "users", "associations", "qos", "clusters").  NULL for an
 * entity without a JSON form. */
json_object *cli_sacctmgr_json(uint16_t entity,
			       const dbd_acct_resp_msg_t *resp,
			       const char **key);
/* withassoc / with_assocs: add to each user (account) record of list
 * the assoc_short of its associations among assocs (an association
 * list answer). */
void cli_sacctmgr_json_assocs(json_object *list, uint16_t entity,
			      const dbd_acct_resp_msg_t *assocs);
/* Each account of accounts gets its coordinators ({name, direct})
 * from coords (a coordinator list answer: user, account). */
void cli_sacctmgr_json_coords(json_object *accounts,
			      const dbd_acct_resp_msg_t *coords);
/* GET tres: Slurm's fixed TRES (sacctmgr show tres asks slurmdbd). */
json_object *cli_sacctmgr_tres_json(void);

/* ---- dump and load (cli_sacctmgr_dump.c, cli_sacctmgr_load.c) ---- */

/* A list reply as a table. */
typedef struct {
	dbd_acct_resp_msg_t *resp;
	size_t               ncols, rows;
} mgr_table_t;

/* One request to slurmdbd; 0, or 1 after printing why it failed. */
int  cli_sacctmgr_dbd(const dbd_acct_msg_t *req, dbd_acct_resp_msg_t **out);
/* List entity where ...; 0, or 1 after printing the error. */
int  cli_sacctmgr_list(uint16_t entity, char **where, mgr_table_t *t);
/* Cell of column col in row ("" when there is no such column). */
const char *cli_sacctmgr_get(const mgr_table_t *t, size_t row,
			     const char *col);
void cli_sacctmgr_table_free(mgr_table_t *t);
/* May the caller "dump" / "load"?  Prints Slurm's refusal if not. */
bool cli_sacctmgr_may(const char *what);

/* argv: what follows the command word; the exit code. */
int  cli_sacctmgr_dump(int argc, char **argv);
int  cli_sacctmgr_load(const mgr_opts_t *o, int argc, char **argv);

#endif
