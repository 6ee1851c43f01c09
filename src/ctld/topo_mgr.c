/* topo_mgr.c — the controller's network topology (see topo_mgr.h). */
#define _GNU_SOURCE
#include <strings.h>
#include <sys/stat.h>
#include <string.h>
#include <time.h>

#include "common/debug_flags.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/msg_types.h"
#include "slurm/slurm_errno.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/job_mgr.h"
#include "ctld/node_mgr.h"
#include "ctld/sched_params.h"
#include "ctld/sched.h"
#include "ctld/select_plugin.h"
#include "ctld/topo_mgr.h"

/* The ops of a topology built-in: which kind of topology it reads. */
typedef struct {
	int kind;              /* enum topo_kind, 0 = flat */
} topo_ops_t;

static const topo_ops_t flat_ops = { 0 };
static const topo_ops_t tree_ops = { TOPO_TREE };
static const topo_ops_t block_ops = { TOPO_BLOCK };

#define TP(n, o) { .type = "topology", .name = n, \
	.abi_version = SLUICE_PLUGIN_ABI, .ops_version = 1, .ops = &(o) }
static const struct sluice_plugin topo_flat = TP("flat", flat_ops);
static const struct sluice_plugin topo_default = TP("default", flat_ops);
static const struct sluice_plugin topo_none = TP("none", flat_ops);
static const struct sluice_plugin topo_tree = TP("tree", tree_ops);
static const struct sluice_plugin topo_block = TP("block", block_ops);
#undef TP
static const struct sluice_plugin *const topo_builtins[] = {
	&topo_flat, &topo_default, &topo_none, &topo_tree, &topo_block, NULL,
};
const plugin_type_t topology_plugin_type = {
	.type = "topology", .key = "TopologyPlugin", .ops_version = 1,
	.builtins = topo_builtins, .builtin_only = true,
};

enum { TM_OPTIONAL = 0x1, TM_ROUTE_TREE = 0x2 };

static struct {
	topo_t  *topo;
	uint32_t params;       /* TP_* */
	char    *fname;
} topo_st;

/* TopologyParam: a row per word Slurm 25.05 lists. */
typedef struct {
	const char *word;
	uint32_t    flag;      /* acted on */
	const char *refuse;    /* stops the load: why */
	const char *note;      /* accepted, no effect here: why (logged) */
} tm_word_t;

static const tm_word_t tm_words[] = {
	{ "TopoOptional", TM_OPTIONAL, NULL, NULL },
	{ "Dragonfly", 0, "Sluice has no dragonfly placement", NULL },
	{ "RouteTree", TM_ROUTE_TREE, NULL, NULL },
	{ "RoutePart", 0, NULL, "messages fan out by TreeWidth, not by "
	  "partition" },
	{ "SwitchAsNodeRank", 0, NULL, "node ranks follow the node table, "
	  "not the switches" },
	{ "TopoMaxSizeUnroll", 0, NULL, "every job is placed with the "
	  "same rule whatever its size" },
	{ "NoCtldInAddrAny", 0, NULL, "slurmctld binds as configured" },
	{ "NoInAddrAny", 0, NULL, "the daemons bind as configured" },
};

static int _tm_params(const char *s, uint32_t *flags, char **notes, char *err,
		   size_t errlen)
{
	char **w = xstrsplit(s ? s : "", ",", NULL);
	int rc = 0;

	*flags = 0;
	for (size_t i = 0; w[i] && !rc; i++) {
		char *eq = strchr(w[i], '=');
		const tm_word_t *hit = NULL;

		if (!*w[i])
			continue;
		if (eq)
			*eq = '\0';
		for (size_t k = 0; k < sizeof(tm_words) / sizeof(tm_words[0]);
		     k++)
			if (!strcasecmp(w[i], tm_words[k].word))
				hit = &tm_words[k];
		if (!hit) {
			snprintf(err, errlen, "TopologyParam=%s: unknown "
				 "word", w[i]);
			rc = -1;
		} else if (hit->refuse) {
			snprintf(err, errlen, "TopologyParam=%s is not "
				 "supported: %s", hit->word, hit->refuse);
			rc = -1;
		} else {
			*flags |= hit->flag;
			if (hit->note)
				xstrfmtcat(notes, "TopologyParam=%s has no "
					   "effect: %s\n", hit->word,
					   hit->note);
		}
	}
	xstrarray_free(w);
	return rc;
}

static int _tm_kind(const slurm_conf_t *c, char *err, size_t errlen)
{
	const char *v = conf_get_set(c, "TopologyPlugin");
	plugin_ctx_t *ctx = plugin_ctx_create(&topology_plugin_type,
					      v && *v ? v : "topology/flat",
					      c->plugin_dir,
					      conf_key_where(c,
							     "TopologyPlugin"),
					      err, errlen);
	const topo_ops_t *ops;
	int kind;

	if (!ctx)
		return -1;
	ops = plugin_ctx_ops(ctx, 0);
	kind = ops ? ops->kind : 0;
	plugin_ctx_destroy(ctx);
	return kind;
}

static char *_tm_name_of(size_t i)
{
	return node_mgr_at(i)->info.name;
}

int topo_mgr_init(const slurm_conf_t *c, char *err, size_t errlen)
{
	char *path, *yaml, *notes = NULL, *unplaced = NULL;
	const char **names;
	topo_conf_t tc;
	topo_t *t;
	uint32_t flags;
	struct stat st;
	int kind = _tm_kind(c, err, errlen);
	size_t n = node_mgr_count();

	if (kind < 0)
		return -1;
	if (_tm_params(conf_get_set(c, "TopologyParam"), &flags, &notes, err,
		    errlen) < 0) {
		xfree(notes);
		return -1;
	}
	if (!kind) {
		if (notes)
			info("TopologyPlugin is topology/flat: TopologyParam "
			     "has no effect");
		xfree(notes);
		topo_destroy(topo_st.topo);
		topo_st.topo = NULL;
		topo_st.params = 0;
		return 0;
	}
	yaml = conf_sibling_path(c, "topology.yaml");
	if (stat(yaml, &st) == 0) {
		snprintf(err, errlen, "%s: Sluice reads topology.conf only "
			 "(Slurm 25.05 would read this file instead): "
			 "write the topology as topology.conf and remove it",
			 yaml);
		xfree(yaml);
		xfree(notes);
		return -1;
	}
	xfree(yaml);
	path = conf_sibling_path(c, "topology.conf");
	if (topo_conf_load(path, &tc, err, errlen) < 0) {
		xfree(path);
		xfree(notes);
		return -1;
	}
	names = xcalloc(n + 1, sizeof(*names));
	for (size_t i = 0; i < n; i++)
		names[i] = _tm_name_of(i);
	t = topo_create(&tc, kind, names, n, path, &unplaced, err, errlen);
	xfree(names);
	topo_conf_free(&tc);
	if (!t) {
		xfree(path);
		xfree(notes);
		return -1;
	}
	if (notes) {
		char **l = xstrsplit(notes, "\n", NULL);

		for (size_t i = 0; l[i]; i++)
			if (*l[i])
				error("WARNING: %s", l[i]);
		xstrarray_free(l);
		xfree(notes);
	}
	if (unplaced) {
		error("WARNING: %s: %s lack%s access to nodes %s: jobs cannot use "
			"them", path, kind == TOPO_TREE ? "switches" : "blocks",
			kind == TOPO_TREE ? "" : "", unplaced);
		xfree(unplaced);
	}
	topo_destroy(topo_st.topo);
	topo_st.topo = t;
	topo_st.params = flags;
	xfree(topo_st.fname);
	topo_st.fname = path;
	info("%s: %zu %s", kind == TOPO_TREE ? "topology/tree" :
	     "topology/block", topo_domain_cnt(t),
	     kind == TOPO_TREE ? "switches" : "blocks and block groups");
	return 0;
}

void topo_mgr_fini(void)
{
	topo_destroy(topo_st.topo);
	topo_st.topo = NULL;
	xfree(topo_st.fname);
}

const topo_t *topo_mgr_get(void)
{
	return topo_st.topo;
}

const topo_t *topo_mgr_for_job(const job_record_t *j)
{
	if (!topo_st.topo)
		return NULL;
	if ((topo_st.params & TM_OPTIONAL) && !j->info.req_switch &&
	    !j->info.segment_size)
		return NULL;
	return topo_st.topo;
}

/* Seconds j may wait for its switch count. */
static uint32_t _tm_wait_max(const job_record_t *j)
{
	uint32_t cap = sched_params()->max_switch_wait;

	return j->info.wait4switch < cap ? j->info.wait4switch : cap;
}

int topo_mgr_job_test(job_record_t *j, const select_node_t *nodes,
		      size_t node_cnt, const bitmap_t *avail,
		      const select_req_t *req, bool ignore_alloc,
		      select_result_t *res)
{
	topo_req_t treq = { j->info.req_switch, j->info.segment_size };
	uint32_t leaves = 0;
	time_t now;
	int rc;

	if (!topo_mgr_for_job(j))
		return select_plugin_job_test(nodes, node_cnt, avail, req,
					      ignore_alloc, res);
	rc = topo_job_test(topo_st.topo, select_plugin_job_test, nodes, node_cnt,
			   avail, req, &treq, ignore_alloc, res, &leaves);
	if (rc != SELECT_OK || ignore_alloc || !treq.max_leaves ||
	    topo_kind(topo_st.topo) != TOPO_TREE || leaves <= treq.max_leaves)
		return rc;
	now = time(NULL);
	if (!j->switch_wait_start)
		j->switch_wait_start = now;
	if (now - j->switch_wait_start >= (time_t) _tm_wait_max(j)) {
		info("JobId=%u waited %ld s for %u switch(es): starts on %u",
		     j->info.job_id, (long) (now - j->switch_wait_start),
		     treq.max_leaves, leaves);
		return rc;
	}
	log_flag(SELECT_TYPE, "%s: JobId=%u would span %u leaf switches, "
		 "wants %u: waits", __func__, j->info.job_id, leaves,
		 treq.max_leaves);
	select_result_free(res);
	return SELECT_BUSY;
}

int topo_mgr_check_req(uint32_t req_switch, uint16_t segment,
		       uint32_t min_nodes, char *why, size_t len)
{
	if (segment && (!topo_st.topo || topo_kind(topo_st.topo) != TOPO_BLOCK)) {
		snprintf(why, len, "--segment needs TopologyPlugin="
			 "topology/block");
		return ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE;
	}
	if (segment && min_nodes != NO_VAL32 && min_nodes % segment) {
		snprintf(why, len, "the node count (%u) is not a multiple of "
			 "--segment=%u", min_nodes, segment);
		return ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE;
	}
	if (req_switch && (!topo_st.topo ||
			   topo_kind(topo_st.topo) != TOPO_TREE))
		snprintf(why, len, "--switches has no effect: TopologyPlugin "
			 "is not topology/tree");
	return 0;
}

bool topo_mgr_route(char **names, char **addrs, uint32_t cnt,
		    uint32_t **sizes, uint32_t *group_cnt)
{
	uint32_t *idx, *perm;
	char **n2, **a2;

	if (!topo_st.topo || !(topo_st.params & TM_ROUTE_TREE) || cnt < 2)
		return false;
	idx = xcalloc(cnt + 1, sizeof(uint32_t));
	perm = xcalloc(cnt + 1, sizeof(uint32_t));
	for (uint32_t k = 0; k < cnt; k++) {
		node_record_t *n = node_mgr_find(names[k]);

		idx[k] = n ? n->index : UINT32_MAX;
	}
	if (topo_route(topo_st.topo, idx, cnt, perm, sizes, group_cnt) < 0) {
		xfree(idx);
		xfree(perm);
		return false;
	}
	n2 = xcalloc(cnt + 1, sizeof(char *));
	a2 = xcalloc(cnt + 1, sizeof(char *));
	for (uint32_t k = 0; k < cnt; k++) {
		n2[k] = names[perm[k]];
		a2[k] = addrs[perm[k]];
	}
	memcpy(names, n2, cnt * sizeof(char *));
	memcpy(addrs, a2, cnt * sizeof(char *));
	xfree(n2);
	xfree(a2);
	xfree(idx);
	xfree(perm);
	return true;
}

void topo_mgr_rpc_info(net_conn_t *c, slurm_msg_t *m)
{
	info_request_msg_t *req = m->data;
	const char *name = req && req->name && *req->name ? req->name : NULL;
	node_record_t *n = name ? node_mgr_find(name) : NULL;
	long idx = -1;
	topo_info_msg_t resp = { 0 };

	if (n)
		idx = (long) n->index;
	resp.text = topo_st.topo ? topo_show(topo_st.topo, name, idx, node_mgr_names) :
		NULL;
	resp.configured = topo_st.topo != NULL;
	net_reply(c, RESPONSE_TOPO_INFO, &resp);
	xfree(resp.text);
}
