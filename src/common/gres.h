/* gres.h — generic resources: the "gpu:tesla:2" specs of slurm.conf's
 * Gres= and of job requests, and gres.conf.
 *
 * A spec list is "name[:type][:count]" items joined by commas; "gres/" or
 * "gres:" in front of a name is accepted (TRES spelling).  gres.conf
 * lines are Key=Value pairs: Name= (required), Type=, Count= (number,
 * K/M/G suffix), File= (a path, with a hostlist-style range in the name:
 * /dev/nvidia[0-1]), Cores=, Links=, Flags=, and NodeName= limiting the
 * line to those nodes; AutoDetect= alone on a line is accepted.  '#'
 * starts a comment.  Bad input fails the whole parse with "line N: why".
 */
#ifndef SLUICE_GRES_H
#define SLUICE_GRES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GRES_MAX_COUNT 1000000u
#define GRES_MAX_CORES 65536u    /* Cores= ids of a node */

typedef struct {
	char     *name;     /* "gpu" */
	char     *type;     /* "tesla" or NULL */
	uint64_t  count;    /* 1 if not written */
} gres_spec_t;

/* "gpu:2,mps:100" -> array (caller frees with gres_specs_free); NULL +
 * err if malformed.  An empty or NULL spec gives an empty array. */
gres_spec_t *gres_specs_parse(const char *spec, size_t *cnt, char *err,
			      size_t errlen);
void         gres_specs_free(gres_spec_t *v, size_t cnt);
/* --cpus-per-gpu / --mem-per-gpu as sent: "gres/gpu:N" (or "gpu:N") ->
 * N >= 1 in *v (v may be NULL); NULL or "" -> 0; -1 if malformed. */
int          gres_parse_per_gpu(const char *spec, uint64_t *v);
/* Sum of the counts of name (any type if type is NULL) in a spec list. */
uint64_t     gres_specs_count(const gres_spec_t *v, size_t cnt,
			      const char *name, const char *type);

typedef struct {
	char     *name;
	char     *type;
	uint64_t  count;    /* from Count=, else the number of files */
	char    **files;    /* expanded File=, NULL-terminated, or NULL */
	char     *cores;    /* Cores= as written ("0-3,8"), or NULL */
	unsigned  line;     /* its line in the file */
} gres_conf_rec_t;

typedef struct {
	gres_conf_rec_t *v;
	size_t           cnt;
	char            *autodetect;  /* AutoDetect= for this node ("nvml",
				       * "off", ...), NULL if not written */
} gres_conf_t;

/* Parse gres.conf text, keeping the lines for node (every line if node
 * is NULL). */
gres_conf_t *gres_conf_parse(const char *text, const char *node, char *err,
			     size_t errlen);
/* Read and parse a file; a missing file is an empty config. */
gres_conf_t *gres_conf_load(const char *path, const char *node, char *err,
			    size_t errlen);
void         gres_conf_destroy(gres_conf_t *g);
/* Device numbers of the node's GPUs by gres index: the number at the end
 * of each File= (/dev/nvidia3 -> 3), else the index.  Returns how many
 * were written to dev (at most max). */
size_t       gres_conf_gpu_devices(const gres_conf_t *g, uint32_t *dev,
				   size_t max);

/* Cores= of every line against a node of ncores cores: 0, or -1 with
 * "line N: Cores=... is out of range ..." in err. */
int          gres_conf_check_cores(const gres_conf_t *g, uint32_t ncores,
				   char *err, size_t errlen);
/* The node's GPUs and their Cores= as slurmd registers them, one entry
 * a GPU in gres.conf order: "a100@0-3;a100@0-3;h100@" ("" type when
 * untyped, "" cores when not bound); NULL when no gpu line has Cores=
 * (caller frees). */
char        *gres_conf_cores_msg(const gres_conf_t *g);

/* One GPU of a registration's Cores= string. */
typedef struct {
	char type[32];      /* "" if untyped */
	char cores[96];     /* "0-3", "" = every core */
} gres_gpu_cores_t;
/* Parse it into at most max entries: how many, -1 if malformed. */
int          gres_cores_msg_parse(const char *msg, gres_gpu_cores_t *out,
				  size_t max);

/* The GPUs of a request spec list ("gpu:a100:2,nic:1"): their count in
 * *gpus (at most max) and their one type in *type (xmalloc'd, NULL if
 * untyped; a second type is an error).  Other names are an error unless
 * keep_others; then those with a count are moved to others (if not
 * NULL), *others_cnt counting them.  0, or -1 (malformed). */
int          gres_specs_gpus(const char *spec, bool keep_others,
			     uint64_t max, uint64_t *gpus, char **type,
			     gres_spec_t **others, size_t *others_cnt);

/* A job's GRES on one node other than whole GPUs, as the controller
 * keeps it and sends it to the node (ctld/gres_sel.h):
 * "nic:2,shard:3@0/4,mps:50@1/100" — counted "name[:type]:N", shared
 * "name:N@GPU/PERGPU" (N of the PERGPU units of GPU index GPU). */
/* One parsed item of an allocation string. */
typedef struct {
	char     name[32];
	char     type[32];   /* "" if none */
	uint64_t count;
	int      gpu;        /* GPU index of a shared item, -1 if counted */
	uint64_t per_gpu;    /* its units a GPU */
} gres_alloc_item_t;

/* Parse alloc into at most max items; how many, -1 if malformed. */
int      gres_alloc_parse(const char *alloc, gres_alloc_item_t *out,
			  size_t max);
/* The GPU indexes the shared items of alloc are on (0 if none or
 * malformed): the GPUs a shard/MPS job must be able to open. */
uint64_t gres_alloc_gpu_mask(const char *alloc);

#endif
