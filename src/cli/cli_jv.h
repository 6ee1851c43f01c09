/* cli_jv.h — a JSON value written through a sink.
 *
 * The field tables' JSON getters (cli_fields.h) write their value here
 * rather than return a tree, so one getter serves two outputs: the
 * commands' --json/--yaml, which need a json-c tree (cli_jv_tree_t), and
 * slurmrestd's long lists, which write text with no tree at all
 * (restd/rest_plan.c).  A value is a scalar, a json-c object handed over
 * whole (cli_jv_obj: for getters not yet written for the sink), or an
 * object/array opened, filled (cli_jv_key before each member) and closed.
 */
#ifndef SLUICE_CLI_JV_H
#define SLUICE_CLI_JV_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

typedef struct cli_jv cli_jv_t;

typedef struct {
	void (*str)(cli_jv_t *v, const char *s, size_t len);
	void (*num)(cli_jv_t *v, int64_t n);
	void (*boolean)(cli_jv_t *v, bool b);
	void (*obj)(cli_jv_t *v, json_object *o);      /* takes o */
	void (*open)(cli_jv_t *v, bool array);
	void (*close)(cli_jv_t *v);
	void (*key)(cli_jv_t *v, const char *k);
	/* {"set":set,"infinite":inf,"number":n}: the commonest value of
	 * all, so a sink may write it at once; NULL = through the above */
	void (*no_val)(cli_jv_t *v, bool set, bool inf, int64_t n);
} cli_jv_ops_t;

struct cli_jv {
	const cli_jv_ops_t *ops;
	void               *arg;
};

/* Scalars.  str: NULL is "". */
void cli_jv_str(cli_jv_t *v, const char *s);
void cli_jv_int(cli_jv_t *v, int64_t n);
void cli_jv_bool(cli_jv_t *v, bool b);
void cli_jv_f64(cli_jv_t *v, double d);
void cli_jv_obj(cli_jv_t *v, json_object *o);   /* takes o */
/* Containers. */
void cli_jv_object(cli_jv_t *v);
void cli_jv_array(cli_jv_t *v);
void cli_jv_end(cli_jv_t *v);
void cli_jv_key(cli_jv_t *v, const char *k);

/* The shapes the tables share (as cli_json_num32() ... in cli_fields.h):
 * {"set","infinite","number"} for NO_VAL/INFINITE numbers, a time, a
 * set float64_no_val, "a,b" as ["a","b"]. */
void cli_jv_num32(cli_jv_t *v, uint32_t n);
void cli_jv_num64(cli_jv_t *v, uint64_t n);
void cli_jv_time(cli_jv_t *v, time_t t);
void cli_jv_f64_set(cli_jv_t *v, double d);
void cli_jv_strlist(cli_jv_t *v, const char *csv);

/* A sink that builds a json-c tree (on the caller's stack). */
#define CLI_JV_TREE_DEPTH 16
typedef struct {
	cli_jv_t     jv;
	json_object *root;
	json_object *stack[CLI_JV_TREE_DEPTH];
	int          depth;
	const char  *key;
} cli_jv_tree_t;

void cli_jv_tree_init(cli_jv_tree_t *t);
/* The value written (NULL if none); caller puts.  t is empty after. */
json_object *cli_jv_tree_take(cli_jv_tree_t *t);

#endif
