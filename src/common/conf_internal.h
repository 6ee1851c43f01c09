/* conf_internal.h — private to the slurm.conf parser (conf*.c).
 *
 * conf.c reads lines and dispatches pairs; conf_keys.c holds the table of
 * scalar keys (how each is checked, stored and printed); conf_nodes.c holds
 * the records (NodeName, PartitionName, NodeSet, DownNodes, FrontendName).
 */
#ifndef SLUICE_CONF_INTERNAL_H
#define SLUICE_CONF_INTERNAL_H

#include "common/conf.h"
#include "common/conf_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One Key=Value of a line, key and value owned by the pair list. */
typedef struct {
	char *key;
	char *value;
} conf_pair_t;

typedef struct {
	conf_pair_t *v;
	size_t       cnt;
} conf_pairs_t;

/* A record line kept until the whole file is read. */
typedef struct {
	char        *where;   /* "file:line" */
	conf_pairs_t pairs;   /* pairs[0] is the record key (NodeName=...) */
} conf_rec_t;

typedef struct {
	conf_rec_t *v;
	size_t      cnt;
} conf_recs_t;

/* Everything conf_load() builds; freed at the end, success or not. */
typedef struct conf_state {
	slurm_conf_t *c;
	char        **raw;        /* per scalar key: last value written */
	char        **raw_where;  /* per scalar key: "file:line" of it */
	char         *where;      /* "file:line" being parsed */
	char         *err;
	size_t        errlen;
	int           depth;      /* Include nesting */
	conf_pairs_t  node_dflt;  /* NodeName=DEFAULT so far */
	conf_pairs_t  part_dflt;  /* PartitionName=DEFAULT so far */
	conf_recs_t   parts;      /* PartitionName lines (with defaults merged) */
	conf_recs_t   nodesets;
	conf_recs_t   downs;
	char        **notes;      /* "file:line: Key has no effect (...)" */
	char        **part_where; /* per conf_part_t: "file:line" */
	char        **ctld_raw;   /* SlurmctldHost values, in order */
	char        **ctld_where;
	void         *node_idx;   /* name -> index in c->nodes (uthash) */
	size_t        node_cap;
} conf_state_t;

/* Set err to "where: message"; always returns -1. */
int  conf_fail(conf_state_t *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void conf_pairs_add(conf_pairs_t *p, const char *key, const char *value);
/* Replace or add. */
void conf_pairs_set(conf_pairs_t *p, const char *key, const char *value);
const char *conf_pairs_get(const conf_pairs_t *p, const char *key);
void conf_pairs_free(conf_pairs_t *p);
void conf_recs_free(conf_recs_t *r);

/* conf_keys.c: scalar keys. */
/* Index of key in the scalar table, or -1 (not a scalar key). */
int  conf_key_find(const char *key);
size_t conf_key_count(void);
/* Check a value for key idx and store it; -1 with err set. */
int  conf_key_set(conf_state_t *st, int idx, const char *value);
/* Put the built-in defaults into the struct (before parsing). */
void conf_keys_defaults(conf_state_t *st);
/* After parsing: derived values (SlurmctldHost, ports). */
int  conf_keys_finish(conf_state_t *st);
/* Build c->kv in `scontrol show config` order, from the struct and c->raw
 * (may be NULL: nothing set). */
void conf_keys_build_kv(slurm_conf_t *c);
/* Free every string field the table owns in c. */
void conf_keys_free(slurm_conf_t *c);

/* conf_keys.c: the name of scalar key idx as slurm.conf spells it (NULL
 * for rows scontrol prints that no file sets). */
const char *conf_key_name(size_t idx);

/* conf_use.c: list keys read word by word (conf_use.h).  -1: key is not
 * one; else what an unknown word of it gets. */
int  conf_use_list_index(const char *key);
conf_use_kind_t conf_use_list_unknown(int idx);

/* conf_check.c: apply the treatments of conf_use.h.  A value asking for
 * what Sluice lacks fails (err "where: Key=value: not supported: why");
 * a key with no effect adds a note to st->notes.  scope "" for scalar
 * keys, else the record key ("NodeName"). */
int  conf_check_pair(conf_state_t *st, const char *scope, const char *key,
		     const char *value);
/* Every scalar key the file set (after the whole file: the last value
 * written is the one checked). */
int  conf_check_scalars(conf_state_t *st);

/* conf_nodes.c: helpers shared by the record parsers. */
/* Every key of pairs must be in allowed (NULL-terminated). */
/* Defaults, then the line's pairs after its first (later wins), with old
 * key spellings (Feature, Procs, Shared...) folded into the current ones. */
void conf_rec_merge(conf_pairs_t *out, const conf_pairs_t *dflt,
		    const conf_pairs_t *line);
int  conf_rec_check_keys(conf_state_t *st, const conf_pairs_t *pairs,
			 const char *const *allowed);
/* Number ("UNLIMITED"/"INFINITE" -> unlim if unlim != 0); -1 + err. */
int  conf_rec_num(conf_state_t *st, const char *key, const char *v,
		  uint64_t max, uint64_t unlim, uint64_t *out);
/* A non-empty hostlist of at most CONF_MAX_NODES hosts; NULL + err. */
struct hostlist *conf_rec_hostlist(conf_state_t *st, const char *key,
				   const char *v);
int  conf_rec_bool(conf_state_t *st, const char *key, const char *v, bool *out);
int  conf_rec_mem(conf_state_t *st, const char *key, const char *v,
		  uint64_t *out);

/* The keys a record line takes, its record key first (NULL-terminated):
 * "PartitionName", "NodeName", "NodeSet", "DownNodes", "FrontendName";
 * NULL for another name. */
const char *const *conf_rec_keys(const char *record);
const char *const *conf_part_keys(void);

/* conf_parts.c: PartitionName lines. */
int  conf_part_record(conf_state_t *st, conf_pairs_t *pairs);
int  conf_parts_finish(conf_state_t *st);

/* conf_nodes.c: records. */
bool conf_is_record_key(const char *key);
/* pairs[0] names the record; -1 with err set. */
int  conf_record(conf_state_t *st, conf_pairs_t *pairs);
/* After parsing: resolve partitions, DownNodes, node ports. */
int  conf_records_finish(conf_state_t *st);
/* Index of a node in c->nodes while loading, or -1. */
long conf_node_lookup(conf_state_t *st, const char *name);
void conf_node_free(conf_node_t *n);
void conf_part_free(conf_part_t *p);
/* The name -> index hash built while loading (conf_state_t.node_idx). */
void conf_node_index_free(void **idx);
long conf_node_index_find(void *idx, const char *name);

#endif
