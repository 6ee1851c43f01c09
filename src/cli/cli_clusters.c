/* cli_clusters.c — -M/--clusters through slurmdbd's cluster table
 * (cli_clusters.h). */
#include "cli/cli_clusters.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli/cli_common.h"
#include "cli/cli_opt.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

static void unknown(const char *name)
{
	error("No cluster '%s' known by database.", name);
	error("'%s' can't be reached now, or it is an invalid entry for "
	      "--cluster.  Use 'sacctmgr list clusters' to see available "
	      "clusters.", name);
}

/* Every cluster slurmdbd knows: its table (cols, cells), or NULL. */
static dbd_acct_resp_msg_t *list_clusters(void)
{
	const slurm_conf_t *conf = cli_conf();
	const char *host = conf->accounting_storage_host ?
		conf->accounting_storage_host : "localhost";
	dbd_acct_msg_t req = { .op = DBD_OP_LIST, .entity = DBD_ENT_CLUSTER };
	slurm_msg_t resp = { 0 };
	dbd_acct_resp_msg_t *r;

	if (!conf_accounting_dbd(conf))
		return NULL;
	if (net_rpc(host, conf->accounting_storage_port, REQUEST_DBD_ACCT,
		    &req, &resp, conf->message_timeout * 1000 * 3) ||
	    resp.type != RESPONSE_DBD_ACCT || !resp.data) {
		msg_free(&resp);
		return NULL;
	}
	r = resp.data;
	resp.data = NULL;
	msg_free(&resp);
	if (r->rc) {
		msg_body_free(RESPONSE_DBD_ACCT, r);
		return NULL;
	}
	return r;
}

static int col_of(const dbd_acct_resp_msg_t *r, const char *name)
{
	for (int i = 0; r->cols && r->cols[i]; i++)
		if (!strcasecmp(r->cols[i], name))
			return i;
	return -1;
}

static void add(cli_cluster_t **out, size_t *cnt, const char *name,
		const char *host, uint16_t port)
{
	for (size_t i = 0; i < *cnt; i++)
		if (!strcmp((*out)[i].name, name))
			return;            /* "a,a": once */
	*out = xrealloc(*out, (*cnt + 1) * sizeof(**out));
	(*out)[*cnt] = (cli_cluster_t){ xstrdup(name), xstrdup(host), port };
	(*cnt)++;
}

cli_cluster_t *cli_clusters_resolve(const char *list, size_t *cnt)
{
	const char *mine = cli_conf()->cluster_name;
	char **names = xstrsplit(list, ",", NULL);
	dbd_acct_resp_msg_t *r = NULL;
	cli_cluster_t *out = NULL;
	size_t ncols = 0, nrows = 0;
	int c_name = -1, c_host = -1, c_port = -1;
	bool asked = false, bad = false;

	*cnt = 0;
	for (size_t i = 0; names[i] && !bad; i++) {
		bool all = !strcasecmp(names[i], "all");

		if (!all && mine && !strcmp(names[i], mine)) {
			add(&out, cnt, mine, NULL, 0);
			continue;
		}
		if (!asked) {
			asked = true;
			if ((r = list_clusters())) {
				ncols = xstrarray_len(r->cols);
				nrows = ncols ? xstrarray_len(r->cells) / ncols
					      : 0;
				c_name = col_of(r, "cluster");
				c_host = col_of(r, "controlhost");
				c_port = col_of(r, "controlport");
			}
		}
		if (all && (!r || c_name < 0)) {
			/* no database: "all" is this cluster */
			add(&out, cnt, mine ? mine : "", NULL, 0);
			continue;
		}
		bool found = false;

		for (size_t row = 0; r && c_name >= 0 && row < nrows; row++) {
			const char *const *cell = (const char *const *)
				&r->cells[row * ncols];
			const char *host = c_host >= 0 ? cell[c_host] : "";
			long port = c_port >= 0 ? atol(cell[c_port]) : 0;

			if (!all && strcmp(cell[c_name], names[i]))
				continue;
			found = true;
			if (mine && !strcmp(cell[c_name], mine))
				add(&out, cnt, mine, NULL, 0);
			else if (*host && port > 0 && port < 65536)
				add(&out, cnt, cell[c_name], host,
				    (uint16_t)port);
			else if (!all)
				found = false;  /* never registered */
		}
		if (!found && !all) {
			unknown(names[i]);
			bad = true;
		}
	}
	xstrarray_free(names);
	if (r)
		msg_body_free(RESPONSE_DBD_ACCT, r);
	if (bad || !*cnt) {
		if (!bad)
			unknown(list);
		cli_clusters_free(out, *cnt);
		*cnt = 0;
		return NULL;
	}
	return out;
}

void cli_clusters_free(cli_cluster_t *c, size_t cnt)
{
	for (size_t i = 0; i < cnt; i++) {
		xfree(c[i].name);
		xfree(c[i].host);
	}
	xfree(c);
}

void cli_clusters_use(const cli_cluster_t *c)
{
	cli_ctld_set_remote(c && c->host ? c->host : NULL, c ? c->port : 0);
}

/* When would the job start on the cluster cli_ctld_rpc now talks to?
 * (time_t)-1 if that cluster cannot run it. */
static time_t will_start(const void *desc)
{
	slurm_msg_t resp;
	time_t t = (time_t)-1;

	if (cli_ctld_rpc(REQUEST_JOB_WILL_RUN, desc, &resp))
		return t;
	if (resp.type == RESPONSE_JOB_WILL_RUN && resp.data)
		t = ((const will_run_response_msg_t *)resp.data)->start_time;
	msg_free(&resp);
	return t;
}

static char *chosen;     /* cli_clusters_pick's choice */

const char *cli_clusters_current(void)
{
	return chosen ? chosen : cli_conf()->cluster_name;
}

int cli_clusters_pick(const char *list, const void *desc, char **name)
{
	size_t n, best = 0;
	cli_cluster_t *c;
	time_t best_t = (time_t)-1;

	if (name)
		*name = NULL;
	if (!list)
		return 0;
	if (!(c = cli_clusters_resolve(list, &n)))
		return -1;
	if (n > 1 && !desc) {
		error("Only one cluster can be used at a time with %s",
		      cli_prog());
		cli_clusters_free(c, n);
		return -1;
	}
	for (size_t i = 0; n > 1 && i < n; i++) {
		time_t t;

		cli_clusters_use(&c[i]);
		t = will_start(desc);
		debug("cluster %s: job would start at %ld", c[i].name, (long)t);
		if (t != (time_t)-1 && (best_t == (time_t)-1 || t < best_t)) {
			best_t = t;
			best = i;
		}
	}
	cli_clusters_use(&c[best]);
	xfree(chosen);
	chosen = xstrdup(c[best].name);
	if (name)
		*name = xstrdup(c[best].name);
	cli_clusters_free(c, n);
	return 0;
}

int cli_opt_check_clusters(const cli_job_opts_t *o, const char *mine)
{
	(void) mine;
	return cli_clusters_pick(o->clusters, &o->desc, NULL);
}

int cli_check_clusters(const char *list, const char *mine)
{
	(void) mine;
	return cli_clusters_pick(list, NULL, NULL);
}
