/* node_mgr.c — node table, allocation counts, state saving (node_mgr.h).
 * Registration, ping and updates are in node_state.c. */
#include <string.h>

#include "common/gres.h"
#include "common/hostlist.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/tagrec.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/controller.h"
#include "ctld/gres_bind.h"
#include "ctld/node_mgr.h"
#include "ctld/node_state.h"
#include "ctld/power_save.h"

static struct {
	node_record_t **nodes;
	size_t          cnt;           /* slots (node_mgr_count) */
	size_t          conf_cnt;      /* the first ones: slurm.conf's */
	size_t          used;          /* slots holding a node */
	node_record_t  *by_name;
	uint32_t        generation;
	uint64_t        saved_gen;     /* node_mgr_saved_touch() */
} nm;

void node_mgr_saved_touch(void)
{
	nm.saved_gen++;
}

uint64_t node_mgr_saved_gen(void)
{
	return nm.saved_gen;
}

size_t node_mgr_count(void)
{
	return nm.cnt;
}

size_t node_mgr_used(void)
{
	return nm.used;
}

uint32_t node_mgr_generation(void)
{
	return nm.generation;
}

node_record_t *node_mgr_at(size_t index)
{
	return index < nm.cnt ? nm.nodes[index] : NULL;
}

node_record_t *node_mgr_find(const char *name)
{
	node_record_t *n = NULL;

	if (name)
		HASH_FIND_STR(nm.by_name, name, n);
	return n;
}

static uint32_t _conf_state(const conf_node_t *cn)
{
	if (!cn->state)
		return NODE_STATE_UNKNOWN;
	if (!strcasecmp(cn->state, "DOWN"))
		return NODE_STATE_DOWN;
	if (!strcasecmp(cn->state, "DRAIN"))
		return NODE_STATE_UNKNOWN | NODE_STATE_DRAIN;
	if (!strcasecmp(cn->state, "FUTURE"))
		return NODE_STATE_FUTURE;
	if (!strcasecmp(cn->state, "CLOUD"))   /* off until a job needs it */
		return NODE_STATE_IDLE | NODE_STATE_CLOUD |
		       NODE_STATE_POWERED_DOWN;
	return NODE_STATE_UNKNOWN;
}

static void _cfg_tres(node_record_t *n)
{
	char mem[32];

	fmt_mem_mb(n->info.real_memory, mem, sizeof(mem));
	xfree(n->info.tres_fmt_str);
	n->info.tres_fmt_str = xstrdup_printf("cpu=%u,mem=%s,billing=%u",
					      n->info.cpus, mem, n->info.cpus);
	if (n->gpus)
		xstrfmtcat(&n->info.tres_fmt_str, ",gres/gpu=%u", n->gpus);
}

/* Gres= laid out: typed GPUs by index, counted and shared GRES.  The
 * usage is kept across a reconfigure that keeps the same layout shape. */
static void _cfg_gres(node_record_t *n, const conf_node_t *cn)
{
	char err[128];
	gres_layout_t *l = NULL;

	xfree(n->gpu_type);
	n->gpus = 0;
	if (cn->gres && *cn->gres &&
	    !(l = gres_layout_parse(cn->gres, err, sizeof(err))))
		error("NodeName=%s Gres=%s: %s", cn->name, cn->gres, err);
	if (n->gres && (!l || l->cnt != n->gres->cnt ||
			l->gpus != n->gres->gpus)) {
		gres_use_free(n->gres_use);
		n->gres_use = NULL;
	}
	gres_layout_free(n->gres);
	n->gres = l;
	if (!l)
		return;
	if (!n->gres_use)
		n->gres_use = gres_use_create(l);
	n->gpus = l->gpus;
	for (size_t i = 0; i < l->cnt; i++)
		if (!strcmp(l->v[i].name, "gpu") && l->v[i].type &&
		    !n->gpu_type)
			n->gpu_type = xstrdup(l->v[i].type);
}

/* The registered Cores= bound into the layout; Gres= shows the sockets
 * ("gpu:a100:2(S:0-1)") once a GPU is bound. */
static void _bind_gres(node_record_t *n)
{
	gres_bind_shape_t sh = { .cpus = n->cfg_cpus,
				 .sockets = n->cfg_sockets,
				 .cores = n->cfg_cores,
				 .threads = n->cfg_threads };
	char err[160], *show;

	if (!n->gres)
		return;
	if (gres_bind_set(n->gres, n->gres_cores, &sh, err, sizeof(err)) < 0) {
		error("node %s: gres.conf Cores= not used: %s", n->info.name,
		      err);
		gres_bind_set(n->gres, NULL, &sh, err, sizeof(err));
	}
	if ((show = gres_bind_show(n->gres))) {
		xfree(n->info.gres);
		n->info.gres = show;
	}
}

void node_mgr_set_gres_cores(node_record_t *n, const char *msg)
{
	if (!xstrcmp(n->gres_cores, msg && *msg ? msg : NULL))
		return;
	xfree(n->gres_cores);
	n->gres_cores = msg && *msg ? xstrdup(msg) : NULL;
	if (!n->gres_cores && n->gres && n->gres->gpu_cpus) {
		/* no longer bound: Gres= as slurm.conf has it */
		char *plain = NULL;

		for (size_t k = 0; k < n->gres->cnt; k++)
			xstrfmtcat(&plain, "%s%s%s%s:%llu", plain ? "," : "",
				   n->gres->v[k].name,
				   n->gres->v[k].type ? ":" : "",
				   n->gres->v[k].type ? n->gres->v[k].type :
				   "", (unsigned long long) n->gres->v[k].count);
		xfree(n->info.gres);
		n->info.gres = plain;
	}
	_bind_gres(n);
}

/* GresUsed as scontrol -d and sinfo print it:
 * "gpu:a100:1(IDX:0),gpu:h100:0(IDX:N/A),nic:2". */
static void _gres_used(node_record_t *n)
{
	xfree(n->info.gres_used);
	n->info.gres_used = gres_used_str(n->gres, n->gres_use, n->gpu_used);
}

bool node_mgr_has_gres(const char *name, const char *type)
{
	for (size_t i = 0; i < nm.cnt; i++)
		if (gres_layout_has(nm.nodes[i]->gres, name, type))
			return true;
	return false;
}

/* Attributes that come from slurm.conf (first build and reconfigure). */
static void _apply_conf(node_record_t *n, const conf_node_t *cn)
{
	node_info_t *i = &n->info;

	/* an up cloud node keeps the address it registered from */
	if (!(i->node_state & NODE_STATE_CLOUD) || !i->node_addr ||
	    (i->node_state & NODE_STATE_POWERED_DOWN)) {
		xfree(i->node_addr);
		i->node_addr = xstrdup(cn->addr ? cn->addr : cn->name);
	}
	if (!i->node_hostname || !i->version) {
		xfree(i->node_hostname);
		i->node_hostname = xstrdup(cn->hostname ? cn->hostname : cn->name);
	}
	i->port = cn->port ? cn->port : ctld_conf()->slurmd_port;
	n->cfg_cpus = i->cpus = cn->cpus;
	i->boards = cn->boards ? cn->boards : 1;
	n->cfg_sockets = i->sockets = cn->sockets ? cn->sockets : 1;
	n->cfg_cores = i->cores = cn->cores_per_socket ? cn->cores_per_socket : 1;
	n->cfg_threads = i->threads = cn->threads_per_core ? cn->threads_per_core : 1;
	n->cfg_memory = i->real_memory = cn->real_memory;
	i->tmp_disk = cn->tmp_disk;
	i->weight = cn->weight;
	xfree(i->features);
	xfree(i->features_act);
	i->features = xstrdup(cn->features);
	i->features_act = xstrdup(cn->features);
	xfree(i->gres);
	i->gres = xstrdup(cn->gres);
	_cfg_gres(n, cn);
	_bind_gres(n);
	if (!n->cpu_used || bitmap_size(n->cpu_used) != (cn->cpus ? cn->cpus : 1u)) {
		n->cpu_used = n->cpu_used ? bitmap_resize(n->cpu_used,
							  cn->cpus ? cn->cpus : 1) :
			bitmap_create(cn->cpus ? cn->cpus : 1);
		xfree(n->cpu_share);
		n->cpu_share = xcalloc(bitmap_size(n->cpu_used),
				       sizeof(*n->cpu_share));
	}
	_gres_used(n);
	_cfg_tres(n);
}

static node_record_t *_new_node(const conf_node_t *cn, uint32_t index)
{
	node_record_t *n = xmalloc(sizeof(*n));

	n->index = index;
	n->info.name = xstrdup(cn->name);
	n->info.node_state = _conf_state(cn);
	n->info.reason = xstrdup(cn->reason);
	nm.saved_gen++;
	if (cn->reason) {
		n->info.reason_time = time(NULL);
		n->info.reason_uid = ctld_conf()->slurm_user_id;
	}
	n->info.free_mem = NO_VAL64;
	n->info.owner = NO_VAL32;
	n->info.alloc_tres_fmt_str = xstrdup("");
	n->last_response = time(NULL);
	_apply_conf(n, cn);
	return n;
}

/* A slot no node holds yet: no name, FUTURE (never usable, never
 * pinged), left out of node info. */
static node_record_t *_new_vacant(uint32_t index)
{
	node_record_t *n = xmalloc(sizeof(*n));

	n->index = index;
	n->vacant = true;
	n->info.name = xstrdup("");
	n->info.node_addr = xstrdup("");
	n->info.node_hostname = xstrdup("");
	n->info.node_state = NODE_STATE_FUTURE;
	n->info.free_mem = NO_VAL64;
	n->info.owner = NO_VAL32;
	n->info.alloc_tres_fmt_str = xstrdup("");
	n->info.tres_fmt_str = xstrdup("");
	n->cpu_used = bitmap_create(1);
	n->cpu_share = xcalloc(1, sizeof(*n->cpu_share));
	return n;
}

static void _free_node(node_record_t *n)
{
	xfree(n->dyn_line);
	node_info_free_members(&n->info);
	if (n->cpu_used)
		bitmap_destroy(n->cpu_used);
	xfree(n->cpu_share);
	xfree(n->gpu_type);
	xfree(n->gres_cores);
	gres_use_free(n->gres_use);
	gres_layout_free(n->gres);
	xfree(n);
}

static void _drop_table(void)
{
	size_t i;

	HASH_CLEAR(hh, nm.by_name);
	for (i = 0; i < nm.cnt; i++)
		_free_node(nm.nodes[i]);
	xfree(nm.nodes);
	nm.cnt = 0;
}

int node_mgr_init(const slurm_conf_t *conf)
{
	size_t i;

	size_t cap = conf->node_cnt;

	if (conf->max_node_cnt > cap)
		cap = conf->max_node_cnt;
	_drop_table();
	nm.nodes = xcalloc(cap + 1, sizeof(*nm.nodes));
	for (i = 0; i < conf->node_cnt; i++) {
		node_record_t *n = _new_node(&conf->nodes[i], i), *dup = NULL;

		HASH_FIND_STR(nm.by_name, n->info.name, dup);
		if (dup) {
			error("Duplicated NodeName %s in the config file",
			      n->info.name);
			_free_node(n);
			continue;
		}
		n->index = nm.cnt;
		nm.nodes[nm.cnt++] = n;
		HASH_ADD_KEYPTR(hh, nm.by_name, n->info.name,
				strlen(n->info.name), n);
	}
	nm.conf_cnt = nm.used = nm.cnt;
	while (nm.cnt < cap) {
		nm.nodes[nm.cnt] = _new_vacant(nm.cnt);
		nm.cnt++;
	}
	nm.generation++;
	nm.saved_gen++;
	return 0;
}

node_record_t *node_mgr_add(const conf_node_t *cn, const char *line)
{
	node_record_t *n;
	size_t i;

	for (i = nm.conf_cnt; i < nm.cnt && !nm.nodes[i]->vacant; i++)
		;
	if (i >= nm.cnt || node_mgr_find(cn->name))
		return NULL;
	_free_node(nm.nodes[i]);
	n = _new_node(cn, (uint32_t) i);
	n->dyn_line = xstrdup(line);
	nm.nodes[i] = n;
	HASH_ADD_KEYPTR(hh, nm.by_name, n->info.name, strlen(n->info.name), n);
	nm.used++;
	nm.generation++;
	nm.saved_gen++;
	return n;
}

void node_mgr_vacate(node_record_t *n)
{
	uint32_t i = n->index;

	if (n->vacant || i >= nm.cnt || nm.nodes[i] != n)
		return;
	HASH_DEL(nm.by_name, n);
	_free_node(n);
	nm.nodes[i] = _new_vacant(i);
	nm.used--;
	nm.generation++;
	nm.saved_gen++;
}

bitmap_t *node_mgr_all(void)
{
	bitmap_t *b = bitmap_create(nm.cnt ? nm.cnt : 1);

	for (size_t i = 0; i < nm.cnt; i++)
		if (!nm.nodes[i]->vacant)
			bitmap_set(b, i);
	return b;
}

static bool _same_nodes(const slurm_conf_t *conf)
{
	size_t i, cap = conf->node_cnt > conf->max_node_cnt ? conf->node_cnt :
			conf->max_node_cnt;

	if (conf->node_cnt != nm.conf_cnt || cap != nm.cnt)
		return false;
	for (i = 0; i < nm.conf_cnt; i++)
		if (strcmp(conf->nodes[i].name, nm.nodes[i]->info.name))
			return false;
	return true;
}

static bool _any_busy(void)
{
	size_t i;

	for (i = 0; i < nm.cnt; i++)
		if (nm.nodes[i]->job_cnt)
			return true;
	return false;
}

/* Rebuild with a new node list, keeping the state of nodes by name. */
static void _rebuild(const slurm_conf_t *conf)
{
	node_record_t **old = nm.nodes, *by_name = nm.by_name, *o;
	size_t old_cnt = nm.cnt, i;

	nm.nodes = NULL;
	nm.by_name = NULL;
	nm.cnt = 0;
	node_mgr_init(conf);
	for (i = 0; i < old_cnt; i++) {      /* dynamic nodes stay */
		char err[256];
		size_t cnt = 0;
		conf_node_t *cn;
		node_record_t *n = NULL;

		if (!old[i]->dyn_line)
			continue;
		cn = conf_node_line(conf, old[i]->dyn_line, &cnt, err,
				    sizeof(err));
		if (cn && cnt == 1)
			n = node_mgr_add(cn, old[i]->dyn_line);
		if (n) {                /* learnt at registration */
			xfree(n->info.node_addr);
			n->info.node_addr = xstrdup(old[i]->info.node_addr);
		} else {
			error("Dynamic node %s dropped by the new config "
			      "(MaxNodeCount=%u, or a NodeName line of that "
			      "name)", old[i]->info.name, conf->max_node_cnt);
		}
		if (cn)
			conf_node_line_free(cn, cnt);
	}
	for (i = 0; i < nm.cnt; i++) {
		node_record_t *n = nm.nodes[i];

		if (n->vacant)
			continue;
		HASH_FIND_STR(by_name, n->info.name, o);
		if (!o)
			continue;
		node_state_carry(n, o);
	}
	HASH_CLEAR(hh, by_name);
	for (i = 0; i < old_cnt; i++)
		_free_node(old[i]);
	xfree(old);
}

int node_mgr_reconfig(const slurm_conf_t *conf, char *err, size_t errlen)
{
	size_t i;

	if (_same_nodes(conf)) {
		for (i = 0; i < nm.conf_cnt; i++)
			_apply_conf(nm.nodes[i], &conf->nodes[i]);
		return 0;
	}
	if (_any_busy()) {
		snprintf(err, errlen, "the node list changed while jobs hold "
			 "nodes; restart slurmctld to change it");
		return -1;
	}
	_rebuild(conf);
	return 0;
}

void node_mgr_fini(void)
{
	_drop_table();
}

hostlist_t *node_mgr_parse_user(const char *expr, char *err, size_t errlen)
{
	return hostlist_parse_max(expr, 2 * nm.cnt + 1024, err, errlen);
}

bitmap_t *node_mgr_bitmap(const char *expr, char **bad)
{
	char err[256];
	hostlist_t *hl = node_mgr_parse_user(expr, err, sizeof(err));
	bitmap_t *b;
	size_t i;

	if (!hl) {
		if (bad)
			*bad = xstrdup(expr);
		return NULL;
	}
	b = bitmap_create(nm.cnt ? nm.cnt : 1);
	for (i = 0; i < hostlist_count(hl); i++) {
		node_record_t *n = node_mgr_find(hostlist_nth(hl, i));

		if (!n) {
			if (bad)
				*bad = xstrdup(hostlist_nth(hl, i));
			bitmap_destroy(b);
			b = NULL;
			break;
		}
		bitmap_set(b, n->index);
	}
	hostlist_destroy(hl);
	return b;
}

char *node_mgr_names(const bitmap_t *b)
{
	hostlist_t *hl = hostlist_create();
	char *s;
	long i;

	for (i = bitmap_first_set(b); i >= 0; i = bitmap_next_set(b, i + 1))
		hostlist_push_host(hl, nm.nodes[i]->info.name);
	s = hostlist_ranged(hl);
	hostlist_destroy(hl);
	return s;
}

bool node_mgr_usable(const node_record_t *n)
{
	uint32_t base = n->info.node_state & NODE_STATE_BASE;

	if (base == NODE_STATE_DOWN || base == NODE_STATE_UNKNOWN ||
	    base == NODE_STATE_FUTURE)
		return false;
	if ((n->info.node_state & (NODE_STATE_POWERED_DOWN |
				   NODE_STATE_POWERING_UP)) &&
	    !power_save_enabled())
		return false;          /* nothing could power it up */
	return !(n->info.node_state & (NODE_STATE_DRAIN | NODE_STATE_NO_RESPOND |
				       NODE_STATE_FAIL | NODE_STATE_POWER_DOWN |
				       NODE_STATE_POWER_DRAIN |
				       NODE_STATE_POWERING_DOWN));
}

static const conf_node_t *_conf_node(const char *name)
{
	const slurm_conf_t *c = ctld_conf();

	for (size_t i = 0; c && i < c->node_cnt; i++)
		if (!strcmp(c->nodes[i].name, name))
			return &c->nodes[i];
	return NULL;
}

void node_mgr_set_addr(node_record_t *n, const char *addr,
		       const char *hostname)
{
	if (addr && xstrcmp(addr, n->info.node_addr)) {
		xfree(n->info.node_addr);
		n->info.node_addr = xstrdup(addr);
		nm.saved_gen++;
	}
	if (hostname && xstrcmp(hostname, n->info.node_hostname)) {
		xfree(n->info.node_hostname);
		n->info.node_hostname = xstrdup(hostname);
		nm.saved_gen++;
	}
}

void node_mgr_reset_addr(node_record_t *n)
{
	const conf_node_t *cn = _conf_node(n->info.name);

	if (!cn)
		return;
	node_mgr_set_addr(n, cn->addr ? cn->addr : cn->name,
			  cn->hostname ? cn->hostname : cn->name);
}

void node_mgr_select_view(select_node_t *sel)
{
	size_t i;

	for (i = 0; i < nm.cnt; i++) {
		const node_info_t *in = &nm.nodes[i]->info;

		sel[i].cpus = in->cpus;
		sel[i].alloc_cpus = in->alloc_cpus;
		sel[i].real_memory = in->real_memory;
		sel[i].alloc_memory = in->alloc_memory;
		sel[i].weight = in->weight;
		sel[i].threads = nm.nodes[i]->cfg_threads;
		sel[i].cpu_used = nm.nodes[i]->cpu_used;
		sel[i].gpus = nm.nodes[i]->gpus;
		sel[i].gpu_used = nm.nodes[i]->gpu_used;
		sel[i].gpu_type = nm.nodes[i]->gpu_type;
		sel[i].gres = nm.nodes[i]->gres;
		sel[i].gres_use = nm.nodes[i]->gres_use;
	}
}

static void _alloc_tres(node_record_t *n)
{
	char mem[32];

	xfree(n->info.alloc_tres_fmt_str);
	if (!n->info.alloc_cpus) {
		n->info.alloc_tres_fmt_str = xstrdup("");
		return;
	}
	n->info.alloc_tres_fmt_str = xstrdup_printf("cpu=%u",
						    n->info.alloc_cpus);
	if (n->info.alloc_memory) {
		fmt_mem_mb(n->info.alloc_memory, mem, sizeof(mem));
		xstrfmtcat(&n->info.alloc_tres_fmt_str, ",mem=%s", mem);
	}
	if (n->gpu_used)
		xstrfmtcat(&n->info.alloc_tres_fmt_str, ",gres/gpu=%d",
			   __builtin_popcountll(n->gpu_used));
}

void node_mgr_hold(node_record_t *n, const bitmap_t *cpu_ids, uint64_t gpus,
		   const char *gres_alloc, bool on)
{
	if (gres_alloc && gres_use_apply(n->gres, n->gres_use, gres_alloc,
					 on) < 0)
		error("node %s: bad GRES allocation \"%s\"", n->info.name,
		      gres_alloc);
	if (cpu_ids && bitmap_size(cpu_ids) == bitmap_size(n->cpu_used)) {
		if (on)
			bitmap_or(n->cpu_used, cpu_ids);
		else
			bitmap_and_not(n->cpu_used, cpu_ids);
	}
	if (on)
		n->gpu_used |= gpus;
	else
		n->gpu_used &= ~gpus;
	_gres_used(n);
	_alloc_tres(n);
}

static void _cpu_sum(node_record_t *n, uint32_t cpus, bool on)
{
	if (on)
		n->cpu_sum += cpus;
	else
		n->cpu_sum = n->cpu_sum > cpus ? n->cpu_sum - cpus : 0;
	n->info.alloc_cpus = (uint16_t) (n->cpu_sum < n->info.cpus ?
					 n->cpu_sum : n->info.cpus);
}

void node_mgr_share(node_record_t *n, const bitmap_t *cpu_ids, bool on)
{
	size_t sz;

	if (!cpu_ids || !n->cpu_share ||
	    (sz = bitmap_size(n->cpu_used)) != bitmap_size(cpu_ids))
		return;
	for (long c = bitmap_first_set(cpu_ids); c >= 0 && (size_t) c < sz;
	     c = bitmap_next_set(cpu_ids, c + 1)) {
		if (on)
			n->cpu_share[c]++;
		else if (n->cpu_share[c])
			n->cpu_share[c]--;
		if (n->cpu_share[c])
			bitmap_set(n->cpu_used, c);   /* others share it */
	}
}

void node_mgr_share_blocked(const node_record_t *n, const bitmap_t *used,
			    uint16_t max, bitmap_t *out)
{
	size_t sz = bitmap_size(out);

	bitmap_clear_all(out);
	if (!used)
		return;
	bitmap_or(out, used);
	if (!n->cpu_share || bitmap_size(n->cpu_used) != sz)
		return;
	for (long c = bitmap_first_set(used); c >= 0 && (size_t) c < sz;
	     c = bitmap_next_set(used, c + 1))
		if (n->cpu_share[c] && n->cpu_share[c] < max)
			bitmap_clear(out, c);
}

void node_mgr_suspend_cpus(node_record_t *n, uint16_t cpus,
			   const bitmap_t *cpu_ids, bool on)
{
	_cpu_sum(n, cpus, on);
	if (cpu_ids && bitmap_size(cpu_ids) == bitmap_size(n->cpu_used)) {
		if (on)
			bitmap_or(n->cpu_used, cpu_ids);
		else
			bitmap_and_not(n->cpu_used, cpu_ids);
	}
	_alloc_tres(n);
	node_state_refresh(n);
}

void node_mgr_alloc(node_record_t *n, uint16_t cpus, uint64_t mem)
{
	_cpu_sum(n, cpus, true);
	n->info.alloc_memory += mem;
	n->job_cnt++;
	n->info.last_busy = time(NULL);
	_alloc_tres(n);
	node_state_refresh(n);
}

void node_mgr_release(node_record_t *n, uint16_t cpus, uint64_t mem)
{
	_cpu_sum(n, cpus, false);
	n->info.alloc_memory = n->info.alloc_memory > mem ?
		n->info.alloc_memory - mem : 0;
	if (n->job_cnt)
		n->job_cnt--;
	n->info.last_busy = time(NULL);
	_alloc_tres(n);
	node_state_refresh(n);
}

void node_mgr_completing(node_record_t *n, bool on)
{
	if (on)
		n->comp_cnt++;
	else if (n->comp_cnt)
		n->comp_cnt--;
	node_state_refresh(n);
}

/* ---- snapshot: DOWN and DRAIN states with reasons ---- */

#define NODE2_MAGIC 0x4e4f4432u   /* "NOD2" */

/* What is saved of a node (format 2: tagged, common/tagrec.h). */
typedef struct {
	char     *name;
	uint32_t  node_state;
	char     *reason;
	uint32_t  reason_uid;
	time_t    reason_time;
	bool      down_no_resp;
	/* since reboots (node_reboot.c); absent in older files: none */
	uint32_t  reboot_flags;   /* NODE_STATE_REBOOT_REQUESTED|_ISSUED */
	time_t    boot_req_time;
	uint32_t  next_state;
	bool      reboot_asap;
	/* since power saving (power_save.c); absent in older files: none */
	uint32_t  power_flags;    /* POWER_STATE_FLAGS */
	time_t    power_time;
	bool      cloud;          /* a CLOUD node: addresses below */
	char     *node_addr;
	char     *node_hostname;
} saved_node_t;

#define S(m, t) FIELD(saved_node_t, m, t)
static const field_desc_t saved_node_fields[] = {
	S(name, FT_STR), S(node_state, FT_U32), S(reason, FT_STR),
	S(reason_uid, FT_U32), S(reason_time, FT_TIME),
	S(down_no_resp, FT_BOOL), S(reboot_flags, FT_U32),
	S(boot_req_time, FT_TIME), S(next_state, FT_U32),
	S(reboot_asap, FT_BOOL), S(power_flags, FT_U32),
	S(power_time, FT_TIME), S(cloud, FT_BOOL), S(node_addr, FT_STR),
	S(node_hostname, FT_STR),
	FIELD_END
};
#undef S
static tagrec_table_t saved_node_tab = TAGREC_TABLE(saved_node_fields);

void node_mgr_pack_state(buf_t *b)
{
	const saved_node_t zero = { 0 };
	uint32_t cnt = 0;
	size_t i;

	for (i = 0; i < nm.cnt; i++)
		if (!nm.nodes[i]->vacant && node_state_worth_saving(nm.nodes[i]))
			cnt++;
	pack32(b, cnt);
	for (i = 0; i < nm.cnt; i++) {
		const node_record_t *n = nm.nodes[i];
		saved_node_t s = {
			/* only what node_state_restore() keeps, so other
			 * flags (NO_RESPOND, COMPLETING, ...) need no
			 * node_mgr_saved_touch() */
			.name = n->info.name,
			.node_state = ((n->info.node_state & NODE_STATE_BASE) ==
				       NODE_STATE_DOWN ? NODE_STATE_DOWN :
				       NODE_STATE_UNKNOWN) |
				      (n->info.node_state & NODE_STATE_DRAIN),
			.reason = n->info.reason,
			.reason_uid = n->info.reason_uid,
			.reason_time = n->info.reason_time,
			.down_no_resp = n->down_no_resp,
			.reboot_flags = n->info.node_state &
					(NODE_STATE_REBOOT_REQUESTED |
					 NODE_STATE_REBOOT_ISSUED),
			.boot_req_time = n->boot_req_time,
			.next_state = n->info.next_state,
			.reboot_asap = n->reboot_asap,
			.power_flags = n->info.node_state & POWER_STATE_FLAGS,
			.power_time = n->power_time,
			.cloud = n->info.node_state & NODE_STATE_CLOUD,
		};
		size_t at;

		if (n->vacant || !node_state_worth_saving(n))
			continue;
		if (s.cloud) {
			s.node_addr = n->info.node_addr;
			s.node_hostname = n->info.node_hostname;
		}
		at = tagrec_begin(b, NODE2_MAGIC);
		tagrec_pack_diff(b, &saved_node_tab, &s, &zero);
		tagrec_end(b, at);
	}
}

/* Back to what slurm.conf says of the node. */
static void _reset_to_conf(node_record_t *n)
{
	const slurm_conf_t *c = ctld_conf();

	for (size_t i = 0; i < c->node_cnt; i++) {
		const conf_node_t *cn = &c->nodes[i];

		if (strcmp(cn->name, n->info.name))
			continue;
		nm.saved_gen++;
		n->info.node_state = _conf_state(cn);
		xfree(n->info.reason);
		n->info.reason = xstrdup(cn->reason);
		n->info.reason_time = cn->reason ? time(NULL) : 0;
		n->info.reason_uid = cn->reason ? c->slurm_user_id : 0;
		n->down_no_resp = false;
		n->boot_req_time = 0;
		n->info.next_state = 0;
		n->reboot_asap = false;
		n->power_time = 0;
		return;
	}
}

/* Power state and a cloud node's addresses: a node off (or booting)
 * cannot register, so it is IDLE (unless DOWN) with its power flags. */
static void _restore_power(node_record_t *n, const saved_node_t *s,
			   uint32_t cloud)
{
	n->info.node_state |= cloud | (s->power_flags & POWER_STATE_FLAGS);
	n->power_time = s->power_time;
	if ((s->power_flags & (NODE_STATE_POWERED_DOWN |
			       NODE_STATE_POWERING_UP |
			       NODE_STATE_POWERING_DOWN)) &&
	    (n->info.node_state & NODE_STATE_BASE) == NODE_STATE_UNKNOWN)
		n->info.node_state = (n->info.node_state & ~NODE_STATE_BASE) |
				     NODE_STATE_IDLE;
	if (cloud && s->cloud)
		node_mgr_set_addr(n, s->node_addr, s->node_hostname);
}

/* One saved node: format 1 positional, format 2 tagged.  0 or -1. */
static int _unpack_one(buf_t *b, uint16_t version, saved_node_t *s)
{
	if (version >= 2) {
		saved_node_tab.hint = 0;
		return tagrec_unpack(b, NODE2_MAGIC, &saved_node_tab, s, NULL,
				     NULL);
	}
	if (unpackstr(b, &s->name) < 0 || unpack32(b, &s->node_state) < 0 ||
	    unpackstr(b, &s->reason) < 0 || unpack32(b, &s->reason_uid) < 0 ||
	    unpack_time(b, &s->reason_time) < 0 ||
	    unpackbool(b, &s->down_no_resp) < 0)
		return -1;
	return 0;
}

int node_mgr_unpack_state(buf_t *b, bool replace, uint16_t version)
{
	uint32_t cnt, i;

	if (version < 1 || version > NODE_STATE_VERSION ||
	    unpack32(b, &cnt) < 0 || cnt > PACK_MAX_ARRAY_LEN)
		return -1;
	for (i = 0; replace && i < nm.cnt; i++)
		_reset_to_conf(nm.nodes[i]);
	for (i = 0; i < cnt; i++) {
		saved_node_t s = { 0 };
		node_record_t *n;

		if (_unpack_one(b, version, &s) < 0 || !s.name) {
			fields_free(saved_node_fields, &s);
			return -1;
		}
		n = node_mgr_find(s.name);
		if (n) {
			uint32_t cloud = n->info.node_state & NODE_STATE_CLOUD;

			node_state_restore(n, s.node_state, s.reason,
					   s.reason_uid, s.reason_time,
					   s.down_no_resp);
			_restore_power(n, &s, cloud);
			n->info.node_state |= s.reboot_flags &
				(NODE_STATE_REBOOT_REQUESTED |
				 NODE_STATE_REBOOT_ISSUED);
			n->boot_req_time = s.boot_req_time;
			n->info.next_state = s.next_state;
			n->reboot_asap = s.reboot_asap;
		} else
			info("Node %s in the state file is no longer configured",
			     s.name);
		fields_free(saved_node_fields, &s);
	}
	return 0;
}
