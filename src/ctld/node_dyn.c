/* node_dyn.c — dynamic nodes (node_dyn.h). */
#define _GNU_SOURCE
#include <string.h>
#include <strings.h>

#include "common/log.h"
#include "common/net.h"
#include "common/tagrec.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/node_dyn.h"
#include "ctld/node_state.h"
#include "ctld/part_mgr.h"
#include "ctld/sched.h"
#include "slurm/slurm_errno.h"

static bool dyn_dirty;

bool node_dyn_take_dirty(void)
{
	bool d = dyn_dirty;

	dyn_dirty = false;
	return d;
}

/* A node from one line into the table: 0, or an error with err. */
static int _dyn_create(const conf_node_t *cn, const char *line, const char *addr,
		   node_record_t **out, char *err, size_t errlen)
{
	node_record_t *n;

	if (node_mgr_find(cn->name)) {
		snprintf(err, errlen, "Node '%s' already exists", cn->name);
		return ESLURM_NODE_ALREADY_EXISTS;
	}
	if (cn->state && strcasecmp(cn->state, "CLOUD") &&
	    strcasecmp(cn->state, "FUTURE")) {
		snprintf(err, errlen, "Invalid node state specified: State=%s "
			 "(CLOUD or FUTURE)", cn->state);
		return ESLURM_INVALID_NODE_STATE;
	}
	if (!(n = node_mgr_add(cn, line))) {
		snprintf(err, errlen, "Unable to add node %s, node table is "
			 "full (MaxNodeCount=%zu)", cn->name,
			 node_mgr_count());
		return ESLURM_NODE_TABLE_FULL;
	}
	if (addr && !strcasestr(line, "NodeAddr=")) {   /* as it connected */
		xfree(n->info.node_addr);
		n->info.node_addr = xstrdup(addr);
	}
	part_mgr_node_added(n);
	dyn_dirty = true;
	commit_dirty();
	*out = n;
	return 0;
}

/* One line naming one node or several (scontrol create). */
static int _dyn_parse(const char *line, conf_node_t **v, size_t *cnt, char *err,
		  size_t errlen)
{
	*v = conf_node_line(ctld_conf(), line, cnt, err, errlen);
	return *v ? 0 : ESLURM_INVALID_NODE_NAME;
}

int node_dyn_register(const node_registration_msg_t *r, const char *peer,
		      node_record_t **n)
{
	char err[512] = "", *addr = net_peer_host(peer);
	conf_node_t *v = NULL;
	size_t cnt = 0;
	int rc = _dyn_parse(r->dyn_conf, &v, &cnt, err, sizeof(err));

	if (!rc && (cnt != 1 || xstrcmp(v[0].name, r->node_name))) {
		snprintf(err, sizeof(err), "the line names other nodes than "
			 "%s", r->node_name ? r->node_name : "(null)");
		rc = ESLURM_INVALID_NODE_NAME;
	}
	if (!rc)
		rc = _dyn_create(&v[0], r->dyn_conf, addr, n, err, sizeof(err));
	if (rc)
		error("Dynamic node registration of %s from %s refused: %s",
		      r->node_name ? r->node_name : "(null)", peer, err);
	else
		info("Dynamic node %s registered from %s: %s",
		     (*n)->info.name, peer, r->dyn_conf);
	conf_node_line_free(v, cnt);
	xfree(addr);
	return rc;
}

void node_dyn_rpc_create(net_conn_t *c, slurm_msg_t *m)
{
	const dyn_node_msg_t *d = m->data;
	char err[512] = "";
	conf_node_t *v = NULL;
	size_t cnt = 0, i;
	int rc = d && d->node_line ? _dyn_parse(d->node_line, &v, &cnt, err,
					    sizeof(err)) :
		 ESLURM_INVALID_NODE_NAME;

	for (i = 0; !rc && i < cnt; i++) {
		node_record_t *n;
		char *line;

		if (node_mgr_find(v[i].name)) {
			snprintf(err, sizeof(err), "Node '%s' already exists",
				 v[i].name);
			rc = ESLURM_NODE_ALREADY_EXISTS;
			break;
		}
		/* one line per node: what the journal keeps */
		line = cnt == 1 ? xstrdup(d->node_line) :
		       xstrdup_printf("%s NodeName=%s", d->node_line,
				      v[i].name);
		rc = _dyn_create(&v[i], line, NULL, &n, err, sizeof(err));
		if (!rc) {
			n->info.node_state = v[i].state &&
				!strcasecmp(v[i].state, "CLOUD") ?
				NODE_STATE_UNKNOWN | NODE_STATE_CLOUD :
				NODE_STATE_FUTURE;
			info("create_node: node %s created by uid=%u",
			     v[i].name, (unsigned) m->auth_uid);
		}
		xfree(line);
	}
	conf_node_line_free(v, cnt);
	if (rc) {
		error("create_node from uid=%u: %s", (unsigned) m->auth_uid,
		      err);
		if (!dyn_dirty) {
			net_reply_rcf(c, rc, "%s", err);
			return;
		}
		commit_reply_rc(c, rc, err);  /* the ones before are made */
		return;
	}
	sched_trigger();
	commit_reply_rc(c, SLURM_SUCCESS, NULL);
}

void node_dyn_rpc_delete(net_conn_t *c, slurm_msg_t *m)
{
	const dyn_node_msg_t *d = m->data;
	char *bad = NULL;
	bitmap_t *b = d && d->node_line ? node_mgr_bitmap(d->node_line, &bad)
		      : NULL;
	long i;

	if (!b) {
		error("delete_node from uid=%u: Invalid node name %s",
		      (unsigned) m->auth_uid, bad ? bad : "");
		xfree(bad);
		net_reply_rc(c, ESLURM_INVALID_NODE_NAME);
		return;
	}
	/* all or nothing: each must be dynamic and without jobs */
	for (i = bitmap_first_set(b); i >= 0; i = bitmap_next_set(b, i + 1)) {
		node_record_t *n = node_mgr_at((size_t) i);

		if (!n->dyn_line || n->job_cnt || n->comp_cnt) {
			error("delete_node from uid=%u: node %s %s",
			      (unsigned) m->auth_uid, n->info.name,
			      !n->dyn_line ? "is in slurm.conf, not dynamic"
			      : "has jobs");
			net_reply_rc(c, !n->dyn_line ? ESLURM_INVALID_NODE_NAME
				     : ESLURM_NODES_BUSY);
			bitmap_destroy(b);
			return;
		}
	}
	for (i = bitmap_first_set(b); i >= 0; i = bitmap_next_set(b, i + 1)) {
		node_record_t *n = node_mgr_at((size_t) i);

		info("delete_node: node %s deleted by uid=%u", n->info.name,
		     (unsigned) m->auth_uid);
		part_mgr_node_removed(n);
		node_mgr_vacate(n);
	}
	bitmap_destroy(b);
	dyn_dirty = true;
	commit_dirty();
	commit_reply_rc(c, SLURM_SUCCESS, NULL);
}

/* ---- journal and snapshot ---- */

#define DYN_MAGIC 0x44594e31u   /* "DYN1" */

typedef struct {
	char *name;
	char *line;
	char *addr;
	char *hostname;
} saved_dyn_t;

#define S(m, t) FIELD(saved_dyn_t, m, t)
static const field_desc_t saved_dyn_fields[] = {
	S(name, FT_STR), S(line, FT_STR), S(addr, FT_STR), S(hostname, FT_STR),
	FIELD_END
};
#undef S
static tagrec_table_t saved_dyn_tab = TAGREC_TABLE(saved_dyn_fields);

void node_dyn_pack_state(buf_t *b)
{
	const saved_dyn_t zero = { 0 };
	uint32_t cnt = 0;

	for (size_t i = 0; i < node_mgr_count(); i++)
		if (node_mgr_at(i)->dyn_line)
			cnt++;
	pack32(b, cnt);
	for (size_t i = 0; i < node_mgr_count(); i++) {
		const node_record_t *n = node_mgr_at(i);
		saved_dyn_t s = { n->info.name, n->dyn_line,
				  n->info.node_addr, n->info.node_hostname };
		size_t at;

		if (!n->dyn_line)
			continue;
		at = tagrec_begin(b, DYN_MAGIC);
		tagrec_pack_diff(b, &saved_dyn_tab, &s, &zero);
		tagrec_end(b, at);
	}
}

static void _dyn_restore(const saved_dyn_t *s)
{
	char err[512] = "";
	conf_node_t *v = NULL;
	size_t cnt = 0;
	node_record_t *n = node_mgr_find(s->name);

	if (n && n->dyn_line)
		return;
	if (n || _dyn_parse(s->line, &v, &cnt, err, sizeof(err)) || cnt != 1 ||
	    !(n = node_mgr_add(&v[0], s->line))) {
		error("Dynamic node %s in the state is not restored: %s",
		      s->name, n ? "a NodeName line has that name" :
		      err[0] ? err : "no room (MaxNodeCount)");
		conf_node_line_free(v, cnt);
		return;
	}
	if (v[0].state && !strcasecmp(v[0].state, "FUTURE"))
		n->info.node_state = NODE_STATE_FUTURE;
	if (s->addr) {
		xfree(n->info.node_addr);
		n->info.node_addr = xstrdup(s->addr);
	}
	if (s->hostname) {
		xfree(n->info.node_hostname);
		n->info.node_hostname = xstrdup(s->hostname);
	}
	part_mgr_node_added(n);
	conf_node_line_free(v, cnt);
}

int node_dyn_unpack_state(buf_t *b, uint16_t version)
{
	uint32_t cnt;
	saved_dyn_t *v;
	int rc = 0;

	if (version < 1 || version > DYN_NODE_STATE_VERSION ||
	    unpack32(b, &cnt) < 0 || cnt > PACK_MAX_ARRAY_LEN)
		return -1;
	v = xcalloc(cnt + 1, sizeof(*v));
	for (uint32_t i = 0; i < cnt && !rc; i++) {
		saved_dyn_tab.hint = 0;
		if (tagrec_unpack(b, DYN_MAGIC, &saved_dyn_tab, &v[i], NULL,
				  NULL) < 0 || !v[i].name || !v[i].line)
			rc = -1;
	}
	if (!rc) {
		/* those the record lacks go (idle ones only: a job's node
		 * is never deleted), then the new ones come */
		for (size_t i = 0; i < node_mgr_count(); i++) {
			node_record_t *n = node_mgr_at(i);
			bool keep = false;

			for (uint32_t k = 0; n->dyn_line && k < cnt && !keep;
			     k++)
				keep = !strcmp(v[k].name, n->info.name);
			if (n->dyn_line && !keep) {
				part_mgr_node_removed(n);
				node_mgr_vacate(n);
			}
		}
		for (uint32_t i = 0; i < cnt; i++)
			_dyn_restore(&v[i]);
	}
	for (uint32_t i = 0; i <= cnt; i++)
		fields_free(saved_dyn_fields, &v[i]);
	xfree(v);
	return rc;
}
