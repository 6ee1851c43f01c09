/* step_pmi2.c — the PMI-2 wire protocol (what Slurm's libpmi2 speaks)
 * on a task's PMI_FD, after its "cmd=init pmi_version=2" line.
 *
 * A command is a 6-byte decimal length (left-aligned, space-padded) and
 * a body of "key=value;" pairs, the first "cmd=NAME;"; a ';' inside a
 * value is written ";;".  Answers have the same form with
 * cmd=NAME-response and rc; a "thrid" in a request is echoed.  Puts and
 * fences share the PMI-1 key-value space and barrier (step_pmi.c); node
 * attributes (info-putnodeattr) stay on this node.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurmd/stepd/step_pmi_int.h"

#define PMI2_HDR 6
#define PMI2_MAX_PAIRS 64

typedef struct {
	char *key[PMI2_MAX_PAIRS];
	char *val[PMI2_MAX_PAIRS];
	int   n;
} pmi2_cmd_t;

/* Split body (modified in place) into pairs; -1 if malformed. */
static int _parse(char *body, size_t len, pmi2_cmd_t *cmd)
{
	size_t i = 0;

	cmd->n = 0;
	while (i < len) {
		char *key = body + i, *out;

		while (i < len && body[i] != '=' && body[i] != ';')
			i++;
		if (i >= len || body[i] != '=' || cmd->n >= PMI2_MAX_PAIRS)
			return -1;
		body[i++] = '\0';
		out = body + i;
		cmd->key[cmd->n] = key;
		cmd->val[cmd->n] = out;
		for (;;) {
			if (i >= len)
				return -1;          /* a pair ends in ';' */
			if (body[i] == ';') {
				if (i + 1 < len && body[i + 1] == ';') {
					*out++ = ';';
					i += 2;
					continue;
				}
				break;
			}
			*out++ = body[i++];
		}
		*out = '\0';
		i++;
		cmd->n++;
	}
	return cmd->n && !strcmp(cmd->key[0], "cmd") ? 0 : -1;
}

static const char *_get(const pmi2_cmd_t *cmd, const char *key)
{
	for (int i = 1; i < cmd->n; i++)
		if (!strcmp(cmd->key[i], key))
			return cmd->val[i];
	return NULL;
}

/* An answer: cmd=NAME;[thrid=T;]rc=RC; then pairs (NULL-terminated). */
static void _send(pmi_client_t *c, const char *name, const char *thrid,
		  int rc, ...)
{
	char *body = xstrdup_printf("cmd=%s;", name), *msg;
	const char *k, *v;
	va_list ap;
	size_t len;

	if (thrid)
		xstrfmtcat(&body, "thrid=%s;", thrid);
	xstrfmtcat(&body, "rc=%d;", rc);
	va_start(ap, rc);
	while ((k = va_arg(ap, const char *))) {
		v = va_arg(ap, const char *);
		xstrfmtcat(&body, "%s=", k);
		for (; v && *v; v++) {
			char ch[3] = { *v, *v == ';' ? ';' : '\0', '\0' };

			xstrcat(&body, ch);
		}
		xstrcat(&body, ";");
	}
	va_end(ap);
	len = strlen(body);
	msg = xstrdup_printf("%-6zu%s", len, body);
	pmi_write(c, msg, len + PMI2_HDR);
	xfree(msg);
	xfree(body);
}

void pmi2_fence_done(pmi_client_t *c)
{
	_send(c, "kvs-fence-response", c->thrid, 0, NULL);
	xfree(c->thrid);
}

void pmi2_attr_put(step_pmi_t *p, const char *key)
{
	const char *v = pmi_kv_find(p->node_attrs, p->node_attr_cnt, key);

	for (uint32_t i = 0; v && i < p->st->ntasks; i++) {
		pmi_client_t *c = &p->c[i];

		if (!c->wait_attr || strcmp(c->wait_attr, key))
			continue;
		_send(c, "info-getnodeattr-response", c->thrid, 0, "found",
		      "TRUE", "value", v, NULL);
		xfree(c->wait_attr);
		xfree(c->thrid);
	}
}

static void _job_attr(step_pmi_t *p, pmi_client_t *c, const char *thrid,
		      const char *key)
{
	const char *v = NULL;
	char num[16];

	if (!key) {
		_send(c, "info-getjobattr-response", thrid, -1, "errmsg",
		      "no key", NULL);
		return;
	}
	if (!strcmp(key, "PMI_process_mapping"))
		v = pmi_kv_find(p->kvs, p->kv_cnt, key);
	else if (!strcmp(key, "universeSize")) {
		snprintf(num, sizeof(num), "%u", p->st->m->num_tasks);
		v = num;
	}
	if (v)
		_send(c, "info-getjobattr-response", thrid, 0, "found", "TRUE",
		      "value", v, NULL);
	else
		_send(c, "info-getjobattr-response", thrid, 0, "found",
		      "FALSE", NULL);
}

static void _command(step_pmi_t *p, pmi_client_t *c, const pmi2_cmd_t *cmd)
{
	const char *name = cmd->val[0], *thrid = _get(cmd, "thrid");
	const char *key = _get(cmd, "key"), *val = _get(cmd, "value"), *v;
	char resp[64], rank[16], size[16];

	if (!strcmp(name, "fullinit")) {
		snprintf(rank, sizeof(rank), "%u", c->t->gtid);
		snprintf(size, sizeof(size), "%u", p->st->m->num_tasks);
		_send(c, "fullinit-response", thrid, 0, "pmi-version", "2",
		      "pmi-subversion", "0", "rank", rank, "size", size,
		      "appnum", "0", "debugged", "FALSE", "pmiverbose",
		      "FALSE", NULL);
	} else if (!strcmp(name, "job-getid")) {
		_send(c, "job-getid-response", thrid, 0, "jobid", p->kvsname,
		      NULL);
	} else if (!strcmp(name, "kvs-put")) {
		if (!key || !val || strlen(key) >= PMI_KEY_MAX ||
		    strlen(val) > PMI_VAL_MAX) {
			_send(c, "kvs-put-response", thrid, -1, "errmsg",
			      "bad key or value", NULL);
			return;
		}
		pmi_put(p, key, val);
		_send(c, "kvs-put-response", thrid, 0, NULL);
	} else if (!strcmp(name, "kvs-fence")) {
		xfree(c->thrid);
		c->thrid = xstrdup(thrid);
		pmi_barrier_in(p, c);
	} else if (!strcmp(name, "kvs-get")) {
		if (key && (v = pmi_kv_find(p->kvs, p->kv_cnt, key)))
			_send(c, "kvs-get-response", thrid, 0, "found", "TRUE",
			      "value", v, NULL);
		else
			_send(c, "kvs-get-response", thrid, 0, "found", "FALSE",
			      NULL);
	} else if (!strcmp(name, "info-putnodeattr")) {
		if (!key || !val) {
			_send(c, "info-putnodeattr-response", thrid, -1,
			      "errmsg", "bad key or value", NULL);
			return;
		}
		pmi_kv_push(&p->node_attrs, &p->node_attr_cnt, key, val);
		_send(c, "info-putnodeattr-response", thrid, 0, NULL);
		pmi2_attr_put(p, key);
	} else if (!strcmp(name, "info-getnodeattr")) {
		const char *wait = _get(cmd, "wait");

		if (key && (v = pmi_kv_find(p->node_attrs, p->node_attr_cnt,
					    key))) {
			_send(c, "info-getnodeattr-response", thrid, 0, "found",
			      "TRUE", "value", v, NULL);
		} else if (key && wait && !strcmp(wait, "TRUE")) {
			xfree(c->wait_attr);
			xfree(c->thrid);
			c->wait_attr = xstrdup(key);
			c->thrid = xstrdup(thrid);
		} else {
			_send(c, "info-getnodeattr-response", thrid, 0, "found",
			      "FALSE", NULL);
		}
	} else if (!strcmp(name, "info-getjobattr")) {
		_job_attr(p, c, thrid, key);
	} else if (!strcmp(name, "finalize")) {
		_send(c, "finalize-response", thrid, 0, NULL);
	} else if (!strcmp(name, "abort")) {
		v = _get(cmd, "msg");
		error("StepId=%u.%u: task %u called PMI2_Abort%s%s",
		      p->st->m->job_id, p->st->m->step_id, c->t->gtid,
		      v ? ": " : "", v ? v : "");
		step_tasks_signal(p->st, SIGKILL);
	} else {
		snprintf(resp, sizeof(resp), "%.40s-response", name);
		_send(c, resp, thrid, -1, "errmsg", "unsupported", NULL);
	}
}

bool pmi2_input(step_pmi_t *p, pmi_client_t *c)
{
	while (c->len >= PMI2_HDR) {
		char hdr[PMI2_HDR + 1], *end;
		unsigned long n;
		pmi2_cmd_t cmd;
		char *body;

		memcpy(hdr, c->buf, PMI2_HDR);
		hdr[PMI2_HDR] = '\0';
		n = strtoul(hdr, &end, 10);
		while (*end == ' ')
			end++;
		if (end == hdr || *end || !n || n > PMI2_CMD_MAX) {
			error("StepId=%u.%u: bad PMI-2 header from task %u",
			      c->st->m->job_id, c->st->m->step_id, c->t->gtid);
			pmi_close(c);
			return false;
		}
		if (c->len < PMI2_HDR + n)
			return true;
		body = xmalloc(n + 1);        /* may hold NULs */
		memcpy(body, c->buf + PMI2_HDR, n);
		if (_parse(body, n, &cmd) < 0) {
			error("StepId=%u.%u: bad PMI-2 command from task %u",
			      c->st->m->job_id, c->st->m->step_id, c->t->gtid);
			xfree(body);
			pmi_close(c);
			return false;
		}
		_command(p, c, &cmd);
		xfree(body);
		if (c->fd < 0)
			return false;
		memmove(c->buf, c->buf + PMI2_HDR + n, c->len - PMI2_HDR - n);
		c->len -= PMI2_HDR + n;
	}
	return true;
}
