/* affinity.c — node CPU ids onto machine CPUs, --cpu-bind (affinity.h). */
#define _GNU_SOURCE
#include "slurmd/stepd/affinity.h"

#include <errno.h>
#include <hwloc.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common/bitmap.h"
#include "common/cpu_bind.h"
#include "common/debug_flags.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurmd/stepd/env.h"
#include "slurmd/stepd/lazy_lib.h"

/* The machine CPUs this process may use, in order. */
static int avail_cpus(int **out)
{
	cpu_set_t set;
	int n = 0;

	*out = NULL;
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return 0;
	*out = xcalloc(CPU_SETSIZE, sizeof(int));
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			(*out)[n++] = c;
	return n;
}

char *affinity_map_cpus(const char *node_cpus, uint32_t ncpus)
{
	bitmap_t *in = NULL, *out = bitmap_create(CPU_SETSIZE);
	int *avail, n = avail_cpus(&avail);
	char *s = NULL;

	if (node_cpus && *node_cpus)
		in = bitmap_from_str(node_cpus, 4096);
	if (n > 0) {
		if (in) {
			for (long i = bitmap_first_set(in); i >= 0;
			     i = bitmap_next_set(in, (size_t) i + 1))
				bitmap_set(out, (size_t) avail[i % n]);
		} else {
			for (uint32_t i = 0; i < (ncpus ? ncpus : 1); i++)
				bitmap_set(out, (size_t) avail[i % n]);
		}
	}
	if (bitmap_count(out))
		s = bitmap_to_str(out);
	bitmap_destroy(in);
	bitmap_destroy(out);
	xfree(avail);
	return s;
}

/* ---- task/affinity ---- */

typedef struct {
	bool        on;
	bool        verbose;
	const char *kind;       /* MASK, MAP , RANK, NONE */
	char       *node;
	uint32_t    ntasks;
	cpu_set_t  *sets;       /* per local task; empty = leave alone */
	char       *env_type;   /* SLURM_CPU_BIND_TYPE: none, rank, ... */
	char       *env_list;   /* SLURM_CPU_BIND_LIST */
} plan_t;

static plan_t plan;

/* libhwloc is opened by the first step that binds (lazy_lib.h); the
 * calls below go through these pointers (hwloc.h's inline helpers are
 * written out here on top of them). */
#define HW_FUNCS(X) X(hwloc_bitmap_first) X(hwloc_bitmap_next)             \
	X(hwloc_bitmap_weight)                                               \
	X(hwloc_get_nbobjs_by_depth) X(hwloc_get_obj_by_depth)              \
	X(hwloc_get_type_depth) X(hwloc_topology_destroy)                   \
	X(hwloc_topology_init) X(hwloc_topology_load)
#define HW_PTR(f) static __typeof__(&f) hw_##f;
#define HW_SYM(f) { #f, (void **) &hw_##f },
HW_FUNCS(HW_PTR)
static const lazy_sym_t hw_syms[] = { HW_FUNCS(HW_SYM) { NULL, NULL } };
static lazy_lib_t hw_lib = { "task/affinity", SLUICE_HWLOC_LIBRARY, hw_syms, 0 };
#define hwloc_bitmap_first hw_hwloc_bitmap_first
#define hwloc_bitmap_next hw_hwloc_bitmap_next
#define hwloc_bitmap_weight hw_hwloc_bitmap_weight   /* the foreach's assert */
#define hwloc_topology_destroy hw_hwloc_topology_destroy
#define hwloc_topology_init hw_hwloc_topology_init
#define hwloc_topology_load hw_hwloc_topology_load

static int nbobjs_by_type(hwloc_topology_t topo, hwloc_obj_type_t type)
{
	int d = hw_hwloc_get_type_depth(topo, type);

	if (d == HWLOC_TYPE_DEPTH_UNKNOWN)
		return 0;
	if (d == HWLOC_TYPE_DEPTH_MULTIPLE)
		return -1;
	return (int) hw_hwloc_get_nbobjs_by_depth(topo, d);
}

static hwloc_obj_t obj_by_type(hwloc_topology_t topo, hwloc_obj_type_t type,
			       unsigned idx)
{
	int d = hw_hwloc_get_type_depth(topo, type);

	if (d < 0)
		return NULL;
	return hw_hwloc_get_obj_by_depth(topo, d, idx);
}

/* hwloc objects of a type, as cpu_set_t limited to allowed, in order;
 * the empty ones dropped. */
static int objs(hwloc_topology_t topo, hwloc_obj_type_t type,
		const cpu_set_t *allowed, cpu_set_t **out)
{
	int n = nbobjs_by_type(topo, type), k = 0;

	*out = xcalloc((size_t) (n > 0 ? n : 1), sizeof(cpu_set_t));
	for (int i = 0; i < n; i++) {
		hwloc_obj_t o = obj_by_type(topo, type, (unsigned) i);
		int pu;

		CPU_ZERO(&(*out)[k]);
		hwloc_bitmap_foreach_begin(pu, o->cpuset)
			if (pu < CPU_SETSIZE && CPU_ISSET(pu, allowed))
				CPU_SET(pu, &(*out)[k]);
		hwloc_bitmap_foreach_end();
		if (CPU_COUNT(&(*out)[k]))
			k++;
	}
	return k;
}

static int count_objs(hwloc_topology_t topo, hwloc_obj_type_t type,
		      const cpu_set_t *allowed)
{
	cpu_set_t *u;
	int n = objs(topo, type, allowed, &u);

	xfree(u);
	return n;
}

static void allowed_set(const char *allowed, cpu_set_t *set)
{
	CPU_ZERO(set);
	if (allowed) {
		bitmap_t *b = bitmap_from_str(allowed, CPU_SETSIZE);

		for (long i = b ? bitmap_first_set(b) : -1; i >= 0;
		     i = bitmap_next_set(b, (size_t) i + 1))
			CPU_SET((int) i, set);
		bitmap_destroy(b);
	}
	if (!CPU_COUNT(set) && sched_getaffinity(0, sizeof(*set), set) < 0)
		CPU_ZERO(set);
}

/* Node CPU ids (bits of mask, or one id) -> machine CPUs. */
static void map_node_cpus(uint64_t mask, long one, cpu_set_t *out)
{
	char *ids = NULL, *mapped;

	if (one >= 0) {
		ids = xstrdup_printf("%ld", one);
	} else {
		for (int i = 0; i < 64; i++)
			if (mask & (UINT64_C(1) << i))
				xstrfmtcat(&ids, "%s%d", ids ? "," : "", i);
	}
	mapped = ids ? affinity_map_cpus(ids, 0) : NULL;
	allowed_set(mapped, out);
	xfree(ids);
	xfree(mapped);
}

static void plan_units(hwloc_topology_t topo, hwloc_obj_type_t type,
		       const cpu_set_t *allowed, uint16_t cpt)
{
	cpu_set_t *u;
	int n = objs(topo, type, allowed, &u);

	for (uint32_t t = 0; n > 0 && t < plan.ntasks; t++)
		for (uint32_t k = 0; k < cpt; k++)
			CPU_OR(&plan.sets[t], &plan.sets[t],
			       &u[(t * cpt + k) % (uint32_t) n]);
	xfree(u);
}

/* TaskPluginParam: a default type and verbose (as --cpu-bind words),
 * and autobind=TYPE for when auto binding finds no match. */
static void plugin_param(const char *param, char **bind, char **autobind)
{
	char *copy = xstrdup(param), *save = NULL;

	*bind = *autobind = NULL;
	for (char *w = strtok_r(copy, ",", &save); w;
	     w = strtok_r(NULL, ",", &save)) {
		if (!strncasecmp(w, "autobind=", 9)) {
			xfree(*autobind);
			*autobind = xstrdup(w + 9);
		} else if (!strcasecmp(w, "verbose") || !strcasecmp(w, "none") ||
			   !strcasecmp(w, "cores") || !strcasecmp(w, "sockets") ||
			   !strcasecmp(w, "threads")) {
			xstrfmtcat(bind, "%s%s", *bind ? "," : "", w);
		}
	}
	xfree(copy);
}

/* Auto binding (srun(1) "--cpu-bind"): the step's threads, cores or
 * sockets on the node matching tasks x cpus-per-task, else TaskPluginParam
 * autobind=, else every task on all the step's CPUs. */
static cpu_bind_type_t auto_type(hwloc_topology_t topo,
				 const cpu_set_t *avail, uint32_t want,
				 const char *autobind)
{
	if ((uint32_t) count_objs(topo, HWLOC_OBJ_PU, avail) == want)
		return CPU_BIND_THREADS;
	if ((uint32_t) count_objs(topo, HWLOC_OBJ_CORE, avail) == want)
		return CPU_BIND_CORES;
	if ((uint32_t) count_objs(topo, HWLOC_OBJ_PACKAGE, avail) == want)
		return CPU_BIND_SOCKETS;
	if (autobind && !strcasecmp(autobind, "threads"))
		return CPU_BIND_THREADS;
	if (autobind && !strcasecmp(autobind, "cores"))
		return CPU_BIND_CORES;
	if (autobind && !strcasecmp(autobind, "sockets"))
		return CPU_BIND_SOCKETS;
	return CPU_BIND_DEFAULT;
}

static void mask_hex(const cpu_set_t *set, char *buf, size_t len);

/* The step has fewer CPUs than the node (those slurmstepd may use). */
static bool partial_node(const cpu_set_t *avail)
{
	cpu_set_t all;

	if (sched_getaffinity(0, sizeof(all), &all) < 0)
		return false;
	return CPU_COUNT(avail) < CPU_COUNT(&all);
}

/* SLURM_CPU_BIND_TYPE / _LIST as Slurm sets them: none, rank, map_cpu:
 * and mask_cpu: with the lists as written ("0x" dropped from masks);
 * cores, threads, sockets and auto binding as mask_cpu: with each task's
 * mask (one mask when they all share the step's CPUs). */
static void plan_env(const cpu_bind_t *b, bool whole)
{
	char hex[CPU_SETSIZE / 4 + 2];

	switch (b->type) {
	case CPU_BIND_NONE:
		plan.env_type = xstrdup("none");
		return;
	case CPU_BIND_RANK:
		plan.env_type = xstrdup("rank");
		return;
	case CPU_BIND_MAP:
		plan.env_type = xstrdup("map_cpu:");
		plan.env_list = xstrdup(b->list_text);
		return;
	case CPU_BIND_MASK: {
		char *copy = xstrdup(b->list_text), *save = NULL;

		plan.env_type = xstrdup("mask_cpu:");
		for (char *w = strtok_r(copy, ",", &save); w;
		     w = strtok_r(NULL, ",", &save))
			xstrfmtcat(&plan.env_list, "%s%s",
				   plan.env_list ? "," : "",
				   strncmp(w, "0x", 2) ? w : w + 2);
		xfree(copy);
		return;
	}
	default:
		break;
	}
	plan.env_type = xstrdup("mask_cpu:");
	for (uint32_t t = 0; t < (whole ? 1 : plan.ntasks); t++) {
		mask_hex(&plan.sets[t], hex, sizeof(hex));
		xstrfmtcat(&plan.env_list, "%s0x%s", t ? "," : "", hex);
	}
}

int affinity_plan(const affinity_req_t *r)
{
	cpu_bind_t b;
	char err[256], *dflt = NULL, *autobind = NULL;
	cpu_set_t avail;
	hwloc_topology_t topo;
	uint16_t cpt = r->cpus_per_task && r->cpus_per_task < 0xfffe ?
		       r->cpus_per_task : 1;
	const char *spec = r->cpu_bind;
	bool whole = false;

	affinity_plan_free();
	if (r->task_plugin_param &&
	    strcmp(r->task_plugin_param, "(null type)"))
		plugin_param(r->task_plugin_param, &dflt, &autobind);
	if (!spec || !*spec)
		spec = dflt;
	memset(&b, 0, sizeof(b));
	if (spec && cpu_bind_parse(spec, &b, err, sizeof(err)) < 0) {
		error("task/affinity: %s", err);
		xfree(dflt);
		xfree(autobind);
		return -1;
	}
	xfree(dflt);
	plan.on = true;
	plan.verbose = b.verbose;
	plan.node = xstrdup(r->node_name);
	plan.ntasks = r->ntasks;
	plan.sets = xcalloc(r->ntasks + 1, sizeof(cpu_set_t));
	allowed_set(r->allowed, &avail);
	if (lazy_lib_load(&hw_lib) < 0 || hwloc_topology_init(&topo) < 0 ||
	    hwloc_topology_load(topo) < 0) {
		error("task/affinity: hwloc cannot load the topology");
		cpu_bind_free(&b);
		xfree(autobind);
		affinity_plan_free();
		return -1;
	}
	if (b.type == CPU_BIND_DEFAULT) {
		b.type = auto_type(topo, &avail, r->ntasks * cpt, autobind);
		whole = b.type == CPU_BIND_DEFAULT;
	} else if (b.type == CPU_BIND_NONE && partial_node(&avail)) {
		/* Slurm: "none" on part of a node still keeps the tasks on
		 * the step's CPUs (shown as one mask_cpu: mask) */
		b.type = CPU_BIND_DEFAULT;
		whole = true;
	}
	xfree(autobind);
	plan.kind = b.type == CPU_BIND_MAP ? "MAP " :
		    b.type == CPU_BIND_RANK ? "RANK" :
		    b.type == CPU_BIND_NONE ? "NONE" : "MASK";
	switch (b.type) {
	case CPU_BIND_CORES:
		plan_units(topo, HWLOC_OBJ_CORE, &avail, cpt);
		break;
	case CPU_BIND_THREADS:
		plan_units(topo, HWLOC_OBJ_PU, &avail, cpt);
		break;
	case CPU_BIND_SOCKETS:
		plan_units(topo, HWLOC_OBJ_PACKAGE, &avail, 1);
		break;
	case CPU_BIND_RANK:
		plan_units(topo, HWLOC_OBJ_PU, &avail, 1);
		break;
	case CPU_BIND_MAP:
		for (uint32_t t = 0; t < r->ntasks; t++)
			map_node_cpus(0, (long) b.list[t % b.cnt], &plan.sets[t]);
		break;
	case CPU_BIND_MASK:
		for (uint32_t t = 0; t < r->ntasks; t++)
			map_node_cpus(b.list[t % b.cnt], -1, &plan.sets[t]);
		break;
	case CPU_BIND_DEFAULT:        /* all on the step's CPUs */
		for (uint32_t t = 0; t < r->ntasks; t++)
			plan.sets[t] = avail;
		break;
	default:
		break;
	}
	hwloc_topology_destroy(topo);
	plan_env(&b, whole);
	cpu_bind_free(&b);
	if (debug_flag_on(CPU_BIND)) {
		char hex[CPU_SETSIZE / 4 + 2];

		for (uint32_t t = 0; t < r->ntasks; t++) {
			mask_hex(&plan.sets[t], hex, sizeof(hex));
			log_flag(CPU_BIND, "%s: %s task %u of %u: %s mask 0x%s",
				 __func__, plan.node, t, r->ntasks,
				 plan.kind, hex);
		}
	}
	return 0;
}

void affinity_plan_free(void)
{
	xfree(plan.node);
	xfree(plan.sets);
	xfree(plan.env_type);
	xfree(plan.env_list);
	memset(&plan, 0, sizeof(plan));
}

void affinity_env(char ***env)
{
	const char *v = plan.verbose ? "verbose" : "quiet";
	const char *list = plan.env_list ? plan.env_list : "";

	if (!plan.on)
		return;
	env_set(env, "SLURM_CPU_BIND_VERBOSE", v);
	env_set(env, "SLURM_CPU_BIND_TYPE", plan.env_type);
	env_set(env, "SLURM_CPU_BIND_LIST", list);
	/* "quiet,none", "verbose,mask_cpu:0x1,0x2" */
	env_setf(env, "SLURM_CPU_BIND", "%s,%s%s", v, plan.env_type, list);
}

static void mask_hex(const cpu_set_t *set, char *buf, size_t len)
{
	int last = -1, pos = 0;

	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, set))
			last = c;
	if (last < 0) {
		snprintf(buf, len, "0");
		return;
	}
	for (int nib = last / 4; nib >= 0 && (size_t) pos + 1 < len; nib--) {
		int v = 0;

		for (int k = 0; k < 4; k++)
			if (CPU_ISSET(nib * 4 + k, set))
				v |= 1 << k;
		buf[pos++] = "0123456789abcdef"[v];
	}
	buf[pos] = '\0';
}

void affinity_apply(uint32_t gtid, uint32_t lid)
{
	cpu_set_t now;
	char hex[CPU_SETSIZE / 4 + 2];
	bool set = false;

	if (!plan.on)
		return;
	if (lid < plan.ntasks && CPU_COUNT(&plan.sets[lid])) {
		if (sched_setaffinity(0, sizeof(plan.sets[lid]),
				      &plan.sets[lid]) == 0)
			set = true;
		else
			dprintf(STDERR_FILENO, "slurmstepd: error: sched_setaffinity: %s\n",
				strerror(errno));
	}
	if (!plan.verbose)
		return;
	if (!strcmp(plan.kind, "NONE"))
		CPU_ZERO(&now);        /* Slurm shows no mask for none */
	else if (sched_getaffinity(0, sizeof(now), &now) < 0)
		CPU_ZERO(&now);
	mask_hex(&now, hex, sizeof(hex));
	dprintf(STDERR_FILENO, "cpu-bind=%s - %s, task %2u %2u [%d]: mask 0x%s%s\n",
		plan.kind, plan.node, gtid, lid, (int) getpid(), hex,
		set ? " set" : "");
}

void affinity_batch(const char *node_cpus, uint32_t ncpus)
{
	char *mapped;
	cpu_set_t set;

	mapped = affinity_map_cpus(node_cpus, ncpus);
	allowed_set(mapped, &set);
	xfree(mapped);
	if (CPU_COUNT(&set) && sched_setaffinity(0, sizeof(set), &set) < 0)
		dprintf(STDERR_FILENO, "slurmstepd: error: sched_setaffinity: "
			"%s\n", strerror(errno));
}
