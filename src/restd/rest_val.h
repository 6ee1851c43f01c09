/* rest_val.h — reading one value of a REST request body (json-c) in
 * Slurm's data_parser forms, with errors that name the JSON path.
 *
 * Every reader takes the value (never NULL: the caller skips absent and
 * null properties), the path of the value for messages ("job.tasks"),
 * and an error out-parameter.  On success it returns 0 and stores its
 * result; on failure it returns -1, stores nothing, and sets *err to an
 * xmalloc'd "<path>: expected <what>" (the caller frees it).
 *
 * Accepted forms, as Slurm's parser converts them:
 *   integers   a JSON integer, an integral double or a string of digits
 *   no_val     an integer, or {"set":b,"infinite":b,"number":n}: infinite
 *              true is "unlimited", set false is "not given", a number
 *              without "set" is that number; also the strings
 *              "infinite"/"unlimited"
 *   booleans   true/false, 0/1, "true"/"false"/"yes"/"no"/"1"/"0"
 *   strings    a JSON string (no NUL byte), or a number printed
 *   lists      an array of strings; csv lists also take "a,b" strings
 *   flag sets  an array of flag names (case-insensitive), or "A,B"
 */
#ifndef SLUICE_REST_VAL_H
#define SLUICE_REST_VAL_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

/* rest_val_noval results besides a number. */
#define REST_NOVAL_UNSET    (-1)   /* "set": false */
#define REST_NOVAL_INFINITE (-2)   /* "infinite": true */

/* *err = "<path>: <printf text>"; returns -1. */
int rest_val_fail(char **err, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

int rest_val_int(json_object *v, const char *path, int64_t min, int64_t max,
		 int64_t *out, char **err);
/* A number in [0, max], or REST_NOVAL_UNSET / REST_NOVAL_INFINITE in
 * *kind (0 = a number in *out). */
int rest_val_noval(json_object *v, const char *path, uint64_t max,
		   int *kind, uint64_t *out, char **err);
int rest_val_bool(json_object *v, const char *path, bool *out, char **err);
/* xmalloc'd copy in *out; "" gives "". */
int rest_val_str(json_object *v, const char *path, char **out, char **err);
/* NULL-terminated xmalloc'd array (xstrarray_free). */
int rest_val_strlist(json_object *v, const char *path, char ***out,
		     char **err);
/* Array or "a,b" string, joined with commas; NULL when empty. */
int rest_val_csv(json_object *v, const char *path, char **out, char **err);
/* Each name found in names (NULL-terminated, case-insensitive) sets bit
 * 1 << index in *mask.  An unknown name is an error naming it. */
int rest_val_flags(json_object *v, const char *path,
		   const char *const *names, uint64_t *mask, char **err);

/* o's member key, or NULL (also when o is not an object). */
json_object *rest_json_get(json_object *o, const char *key);

/* A value that asks for nothing: null, false, 0, "", [], {}, a no_val
 * object with set false, or a flag list of only "NONE"/"NOT_SET". */
bool rest_val_is_empty(json_object *v);

/* Append {"description": ..., "source": source} to warnings (an array;
 * NULL: dropped). */
void rest_warn(json_object *warnings, const char *source, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
