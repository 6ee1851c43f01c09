/* forward.c — one request to many slurmds along a tree (forward.h). */
#include "common/forward.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/debug_flags.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/pack.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#define FWD_DEFAULT_WIDTH 50

typedef struct {
	const fwd_req_t *r;
	char           **bodies;   /* hex per node (NULL: not packed) */
	uint32_t         first;
	uint32_t         cnt;
	int             *rc;
} group_t;

char *fwd_pack_hex(uint16_t type, const void *data, uint16_t version)
{
	static const char hex[] = "0123456789abcdef";
	buf_t *b = buf_create(1024);
	const uint8_t *p;
	size_t len;
	char *out;

	buf_set_proto(b, version);
	if (msg_body_pack(type, data, b) < 0) {
		buf_destroy(b);
		return NULL;
	}
	p = buf_data(b);
	len = buf_len(b);
	out = xmalloc(2 * len + 1);
	for (size_t i = 0; i < len; i++) {
		out[2 * i] = hex[p[i] >> 4];
		out[2 * i + 1] = hex[p[i] & 15];
	}
	buf_destroy(b);
	return out;
}

static int _nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int fwd_unpack_hex(uint16_t type, const char *hex, uint16_t version,
		   void **data)
{
	size_t len = hex ? strlen(hex) : 0;
	uint8_t *raw;
	buf_t *b;
	int rc = 0;

	*data = NULL;
	if (!hex || len % 2)    /* "": a request without a body */
		return -1;
	raw = xmalloc(len / 2 + 1);
	for (size_t i = 0; i < len / 2; i++) {
		int hi = _nibble(hex[2 * i]), lo = _nibble(hex[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			xfree(raw);
			return -1;
		}
		raw[i] = (uint8_t) (hi << 4 | lo);
	}
	b = buf_view(raw, len / 2);
	buf_set_proto(b, version);
	if (msg_body_unpack(type, b, data) < 0) {
		*data = NULL;
		rc = -1;
	}
	buf_destroy(b);
	xfree(raw);
	return rc;
}

int fwd_subtree_timeout(uint32_t cnt, uint16_t tree_width, int timeout_ms)
{
	uint32_t w = tree_width ? tree_width : FWD_DEFAULT_WIDTH;
	int hops = 1;

	while (cnt > 1 && hops < 64) {
		cnt = (cnt - 1 + w - 1) / w;
		hops++;
	}
	return hops * (timeout_ms + 1000);
}

static int _split_addr(const char *addr, char *host, size_t hlen,
		       uint16_t *port)
{
	const char *colon = addr ? strrchr(addr, ':') : NULL;

	if (!colon || (size_t) (colon - addr) >= hlen)
		return -1;
	memcpy(host, addr, (size_t) (colon - addr));
	host[colon - addr] = '\0';
	*port = (uint16_t) atoi(colon + 1);
	return *port ? 0 : -1;
}

/* The request itself to node i. */
static int _direct(group_t *g, uint32_t i)
{
	const fwd_req_t *r = g->r;
	const void *data = r->datas ? r->datas[i] : r->data;
	void *own = NULL;
	char host[256];
	uint16_t port;
	int rc = 0, err;

	if (_split_addr(r->addrs[i], host, sizeof(host), &port) < 0)
		return ESLURM_INVALID_NODE_NAME;
	if (!data && (r->bodies || r->body)) {
		const char *hex = r->bodies ? r->bodies[i] : r->body;

		if (fwd_unpack_hex(r->type, hex, r->body_version, &own) < 0)
			return SLURM_UNEXPECTED_MSG_ERROR;
		data = own;
	}
	err = net_rpc_rc(host, port, r->type, data, &rc, r->timeout_ms);
	if (own)
		msg_body_free(r->type, own);
	return err ? err : rc;
}

/* Put the subtree's answers where they belong. */
static void _answers(group_t *g, uint32_t head, uint32_t end,
		     const forward_resp_msg_t *a)
{
	char *p = a->rcs;

	for (uint32_t k = 0; head + k < end; k++) {
		const char *want = g->r->names[head + k];
		char *next;
		long v;

		if (!a->names || !a->names[k] || strcmp(a->names[k], want) ||
		    !p || !*p) {
			g->rc[head + k] = SLURM_COMMUNICATIONS_RECEIVE_ERROR;
			continue;
		}
		v = strtol(p, &next, 10);
		g->rc[head + k] = next == p ? SLURM_COMMUNICATIONS_RECEIVE_ERROR :
			(int) v;
		p = *next == ',' ? next + 1 : next;
	}
}

/* REQUEST_FORWARD for nodes head..end-1 to head.  Returns -1 if head
 * cannot be reached (rc[head] set), else 0 with every rc set. */
static int _forward(group_t *g, uint32_t head, uint32_t end)
{
	const fwd_req_t *r = g->r;
	forward_msg_t m = { .type = r->type, .tree_width = r->tree_width,
			    .timeout_ms = (uint32_t) r->timeout_ms,
			    .orig_uid = r->orig_uid,
			    .body_version = r->body_version ? r->body_version :
			    PROTO_OWN };
	slurm_msg_t resp = { 0 };
	char host[256];
	uint16_t port;
	int err;

	if (_split_addr(r->addrs[head], host, sizeof(host), &port) < 0) {
		g->rc[head] = ESLURM_INVALID_NODE_NAME;
		return -1;
	}
	m.names = xcalloc(end - head + 1, sizeof(char *));
	if (g->bodies)
		m.bodies = xcalloc(end - head + 1, sizeof(char *));
	else
		m.body = (char *) r->body;
	for (uint32_t k = head; k < end; k++) {
		m.names[k - head] = r->names[k];
		if (g->bodies)
			m.bodies[k - head] = g->bodies[k];
	}
	log_flag(ROUTE, "%s: %s forwards %s to %u nodes", __func__,
		 r->names[head], msg_type_name(r->type), end - head - 1);
	err = net_rpc(host, port, REQUEST_FORWARD, &m, &resp,
		      fwd_subtree_timeout(end - head, r->tree_width,
					  r->timeout_ms));
	xfree(m.names);
	xfree(m.bodies);
	if (err == SLURM_COMMUNICATIONS_CONNECTION_ERROR) {
		debug("forward: %s unreachable, next of its group takes over",
		      r->names[head]);
		g->rc[head] = err;
		return -1;
	}
	if (!err && resp.type == RESPONSE_SLURM_RC && resp.data &&
	    ((return_code_msg_t *) resp.data)->rc ==
	    SLURM_PROTOCOL_VERSION_ERROR) {
		/* a head older than the bodies: each node on its own */
		debug("forward: %s cannot read %s at our version, sending "
		      "to its %u nodes directly", r->names[head],
		      msg_type_name(r->type), end - head);
		msg_free(&resp);
		for (uint32_t k = head; k < end; k++)
			g->rc[k] = _direct(g, k);
		return 0;
	}
	if (!err && resp.type == RESPONSE_FORWARD && resp.data) {
		_answers(g, head, end, resp.data);
	} else {
		int rc = err ? err :
			 resp.type == RESPONSE_SLURM_RC && resp.data ?
			 ((return_code_msg_t *) resp.data)->rc :
			 SLURM_UNEXPECTED_MSG_ERROR;

		for (uint32_t k = head; k < end; k++)
			g->rc[k] = rc;
	}
	msg_free(&resp);
	return 0;
}

static void *_group(void *arg)
{
	group_t *g = arg;
	uint32_t i = g->first, end = g->first + g->cnt;

	while (i < end) {
		if (end - i == 1) {
			g->rc[i] = _direct(g, i);
			break;
		}
		if (_forward(g, i, end) == 0)
			break;
		i++;
	}
	return NULL;
}

void fwd_send(const fwd_req_t *r, int *rc)
{
	uint32_t w = r->tree_width ? r->tree_width : FWD_DEFAULT_WIDTH;
	uint32_t groups = r->cnt < w ? r->cnt : w, first = 0, sum = 0;
	group_t *g;
	pthread_t *th;
	char **packed = NULL, *shared = NULL;
	bool *started;
	fwd_req_t rr = *r;

	if (!r->cnt)
		return;
	rr.tree_width = (uint16_t) w;
	for (uint32_t k = 0; r->groups && k < r->group_cnt; k++)
		sum += r->groups[k];
	if (r->groups && r->group_cnt && sum == r->cnt)
		groups = r->group_cnt;
	else
		rr.groups = NULL;
	log_flag(ROUTE, "%s: %s to %u nodes in %u groups, %s %u", __func__,
		 msg_type_name(r->type), r->cnt, groups,
		 rr.groups ? "by switch, tree_width" : "tree_width", w);
	/* groups of more than one node need the packed request */
	if (groups < r->cnt) {
		if (r->datas || r->data)
			rr.body_version = PROTO_OWN;    /* packed here */
		if (r->datas) {
			packed = xcalloc(r->cnt + 1, sizeof(char *));
			for (uint32_t i = 0; i < r->cnt; i++)
				packed[i] = fwd_pack_hex(r->type, r->datas[i],
							 0);
		} else if (r->data || (!r->body && !r->bodies)) {
			/* no data: a request without a body ("") */
			shared = fwd_pack_hex(r->type, r->data, 0);
			rr.body = shared;
		}
	}
	g = xcalloc(groups, sizeof(group_t));
	th = xcalloc(groups, sizeof(pthread_t));
	started = xcalloc(groups, sizeof(bool));
	for (uint32_t k = 0; k < groups; k++) {
		/* the first (cnt % groups) groups get one node more */
		uint32_t n = rr.groups ? rr.groups[k] :
			r->cnt / groups + (k < r->cnt % groups);

		g[k] = (group_t) { .r = &rr, .first = first, .cnt = n,
				   .rc = rc,
				   .bodies = packed ? packed :
				   (char **) r->bodies };
		first += n;
		started[k] = groups > 1 &&
			pthread_create(&th[k], NULL, _group, &g[k]) == 0;
		if (!started[k])
			_group(&g[k]);
	}
	for (uint32_t k = 0; k < groups; k++)
		if (started[k])
			pthread_join(th[k], NULL);
	for (uint32_t i = 0; packed && i < r->cnt; i++)
		xfree(packed[i]);
	xfree(packed);
	xfree(shared);
	xfree(started);
	xfree(th);
	xfree(g);
}
