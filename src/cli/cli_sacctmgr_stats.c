/* cli_sacctmgr_stats.c — `sacctmgr show stats [ave_time|total_time]` and
 * `sacctmgr clear stats` (cli_sacctmgr.h): slurmdbd's RPC counts per
 * message type and per user and its roll-up cycles, in Slurm's layout
 * (all times in microseconds). */
#include <inttypes.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli/cli_common.h"
#include "cli/cli_sacctmgr.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

typedef enum { BY_COUNT, BY_AVE, BY_TOTAL } sort_t;

typedef struct {
	const char *name;
	uint64_t    id, count, total;
} line_t;

static bool word_is(const char *w, const char *name, size_t min)
{
	size_t n = strlen(w);

	return n >= min && n <= strlen(name) && !strncasecmp(w, name, n);
}

bool cli_sacctmgr_is_stats(int argc, char **argv)
{
	return argc >= 2 && word_is(argv[1], "stats", 4) &&
	       (word_is(argv[0], "show", 3) || word_is(argv[0], "list", 3) ||
		word_is(argv[0], "clear", 2));
}

static int rpc(uint16_t type, slurm_msg_t *resp)
{
	const slurm_conf_t *conf = cli_conf();
	const char *host = conf->accounting_storage_host ?
		conf->accounting_storage_host : "localhost";

	return net_rpc(host, conf->accounting_storage_port, type, NULL, resp,
		       conf->message_timeout * 1000);
}

static sort_t sort_by;

static uint64_t key(const line_t *l)
{
	switch (sort_by) {
	case BY_AVE:
		return l->count ? l->total / l->count : 0;
	case BY_TOTAL:
		return l->total;
	default:
		return l->count;
	}
}

/* Largest first (Slurm's order), then by id. */
static int cmp(const void *a, const void *b)
{
	const line_t *x = a, *y = b;
	uint64_t kx = key(x), ky = key(y);

	if (kx != ky)
		return kx < ky ? 1 : -1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static void stamp(const char *what, time_t t)
{
	char buf[64];
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%a %b %d %H:%M:%S %Y", &tm);
	printf("%-30s%s (%ld)\n", what, buf, (long)t);
}

static uint64_t num(char *const *row, int c)
{
	return c >= 0 ? strtoull(row[c], NULL, 10) : 0;
}

static int col(const table_resp_msg_t *r, const char *name)
{
	for (int i = 0; r->cols && r->cols[i]; i++)
		if (!strcmp(r->cols[i], name))
			return i;
	return -1;
}

static void print_lines(line_t *v, size_t n, bool users)
{
	qsort(v, n, sizeof(*v), cmp);
	for (size_t i = 0; i < n; i++) {
		uint64_t ave = v[i].count ? v[i].total / v[i].count : 0;

		if (users) {
			struct passwd *pw = getpwuid((uid_t)v[i].id);
			char *name = pw ? xstrdup(pw->pw_name) :
				xstrdup_printf("%" PRIu64, v[i].id);

			printf("\t%-20s(%10" PRIu64 ")", name, v[i].id);
			xfree(name);
		} else {
			printf("\t%-25s(%5" PRIu64 ")", v[i].name, v[i].id);
		}
		printf(" count:%-6" PRIu64 " ave_time:%-6" PRIu64
		       " total_time:%" PRIu64 "\n", v[i].count, ave,
		       v[i].total);
	}
}

static void print_stats(const table_resp_msg_t *r)
{
	int ck = col(r, "kind"), cn = col(r, "name"), ci = col(r, "id"),
	    cc = col(r, "count"), ct = col(r, "total"), cm = col(r, "max"),
	    cl = col(r, "last"), cw = col(r, "when");
	size_t ncols = xstrarray_len(r->cols);
	size_t rows = ncols ? xstrarray_len(r->cells) / ncols : 0;
	line_t *types = xcalloc(rows + 1, sizeof(line_t));
	line_t *users = xcalloc(rows + 1, sizeof(line_t));
	size_t nt = 0, nu = 0;
	char *const *roll = NULL;
	time_t since = time(NULL);

	for (size_t i = 0; ck >= 0 && i < rows; i++) {
		char *const *row = r->cells + i * ncols;
		line_t l = { cn >= 0 ? row[cn] : "", num(row, ci),
			     num(row, cc), num(row, ct) };

		if (!strcmp(row[ck], "since"))
			since = (time_t)num(row, cw);
		else if (!strcmp(row[ck], "rollup"))
			roll = row;
		else if (!strcmp(row[ck], "type"))
			types[nt++] = l;
		else if (!strcmp(row[ck], "user"))
			users[nu++] = l;
	}
	printf("*******************************************************"
	       "************\n");
	stamp("sacctmgr show stats output at", time(NULL));
	stamp("Data since", since);
	printf("All statistics are in microseconds\n");
	printf("*******************************************************"
	       "************\n");
	if (roll) {
		uint64_t cnt = num(roll, cc);

		printf("\n");
		stamp("Internal DBD rollup last ran", (time_t)num(roll, cw));
		printf("\tLast cycle:   %" PRIu64 "\n", num(roll, cl));
		printf("\tMax cycle:    %" PRIu64 "\n", num(roll, cm));
		printf("\tTotal time:   %" PRIu64 "\n", num(roll, ct));
		printf("\tTotal cycles: %" PRIu64 "\n", cnt);
		printf("\tMean cycle:   %" PRIu64 "\n",
		       cnt ? num(roll, ct) / cnt : 0);
	}
	printf("\nRemote Procedure Call statistics by message type\n");
	print_lines(types, nt, false);
	printf("\nRemote Procedure Call statistics by user\n");
	print_lines(users, nu, true);
	xfree(types);
	xfree(users);
}

int cli_sacctmgr_stats(int argc, char **argv)
{
	bool clear = word_is(argv[0], "clear", 2);
	slurm_msg_t resp = { 0 };
	int rc;

	sort_by = BY_COUNT;
	for (int i = 2; i < argc; i++) {
		if (!clear && !strcasecmp(argv[i], "ave_time")) {
			sort_by = BY_AVE;
		} else if (!clear && !strcasecmp(argv[i], "total_time")) {
			sort_by = BY_TOTAL;
		} else {
			fprintf(stderr, " Unknown option: %s\n", argv[i]);
			return 1;
		}
	}
	rc = rpc(clear ? REQUEST_DBD_CLEAR_STATS : REQUEST_DBD_STATS, &resp);
	if (rc) {
		error("Problem talking to the database: %s",
		      slurm_strerror(rc));
		return 1;
	}
	if (clear || resp.type != RESPONSE_DBD_STATS || !resp.data) {
		rc = cli_resp_rc(&resp);
		if (!rc && !clear)
			rc = SLURM_UNEXPECTED_MSG_ERROR;
	} else {
		rc = ((table_resp_msg_t *)resp.data)->rc;
	}
	if (rc == ESLURM_ACCESS_DENIED && !clear)
		/* as Slurm's: the plugin's line; clear says nothing */
		fprintf(stderr, "sacctmgr: accounting_storage/slurmdbd: "
			"acct_storage_p_get_stats: RC:%d Your user doesn't "
			"have privilege to perform this action\n", rc);
	else if (rc && rc != ESLURM_ACCESS_DENIED)
		error("%s", slurm_strerror(rc));
	if (!rc && !clear)
		print_stats(resp.data);
	msg_free(&resp);
	return rc ? 1 : 0;
}
