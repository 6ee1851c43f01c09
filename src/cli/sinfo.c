/* sinfo — view nodes and partitions, as Slurm's sinfo(1).
 *
 * Nodes and partitions come from two requests.  Each partition's nodes
 * that print alike under the chosen format (same text in every column
 * that is not a summary such as the node list or counts) share one row;
 * rows are sorted ("#P,-t" by default, "N" with -N) and printed through
 * the shared format engine over the sinfo row table.
 */
#include <ctype.h>
#include <getopt.h>
#include <grp.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_clusters.h"
#include "cli/cli_common.h"
#include "cli/cli_opt.h"
#include "cli/cli_fields.h"
#include "cli/cli_format.h"
#include "cli/cli_output.h"
#include "cli/cli_resv.h"
#include "common/hostlist.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#define FMT_DEFAULT "%#P %.5a %.10l %.6D %.6t %N"
#define FMT_LONG "%#P %.5a %.10l %.10s %.4r %.8h %.10g %.6D %.11T %N"
#define FMT_NODE "%#N %.6D %.#P %6t"
#define FMT_NODE_LONG "%#N %.6D %.#P %.11T %4c %.8z %.6m %.8d %.6w %.8f %20E"
#define FMT_SUMMARY "%#P %.5a %.10l %.16F %N"
#define FMT_REASON "%20E %9u %19H %N"
#define FMT_REASON_LONG "%20E %12U %19H %6t %N"

/* One -t state: a base state and/or flags; drained and draining also ask
 * whether the node still runs jobs, as Slurm tells them apart. */
struct state_want {
	uint32_t base;     /* NODE_STATE_END: any base */
	uint32_t flags;
	enum { WANT_ANY, WANT_IDLE, WANT_BUSY } busy;
};

static struct {
	int         verbose, iterate;
	bool        all, dead, responding, no_header, long_fmt, node_flag;
	bool        resv;          /* -T */
	bool        summarize, reasons, json, yaml;
	char        *clusters;   /* -M: checked, one cluster */
	char       *format, *format_long, *sort;
	char      **parts;
	hostlist_t *nodes;
	struct state_want *states;  /* -t */
	size_t      state_cnt;
	bool        state_and;     /* -t a&b: every one must match */
} opt;

static void usage(FILE *out)
{
	fputs("Usage: sinfo [-abdelNRrsTv] [-i seconds] [-t states] [-p partition] [-n nodes]\n"
	      "             [-S fields] [-o format] [-O Format] [--federation] [--local]\n"
	      "             [--json=data_parser] [--yaml=data_parser]\n", out);
}

static void help(void)
{
	fputs("Usage: sinfo [OPTIONS]\n"
	      "  -a, --all                  show all partitions (including hidden and those\n"
	      "                             not accessible)\n"
	      "  -d, --dead                 show only non-responding nodes\n"
	      "  -e, --exact                group nodes only on exact match of configuration\n"
	      "  -h, --noheader             no headers on output\n"
	      "  -i, --iterate=seconds      specify an iteration period\n"
	      "      --json                 print the nodes as JSON\n"
	      "  -l, --long                 long output - displays more information\n"
	      "  -n, --nodes=NODES          report on specific node(s)\n"
	      "  -N, --Node                 Node-centric format\n"
	      "  -o, --format=format        format specification\n"
	      "  -O, --Format=format        long format specification\n"
	      "  -p, --partition=PARTITION  report on specific partition\n"
	      "  -r, --responding           report only responding nodes\n"
	      "  -R, --list-reasons         list reason nodes are down or drained\n"
	      "  -s, --summarize            report state summary only\n"
	      "  -S, --sort=fields          comma separated list of fields to sort on\n"
	      "  -t, --states=node_state    specify the what states of nodes to view\n"
	      "  -v, --verbose              verbosity level\n"
	      "  -V, --version              output version information and exit\n"
	      "      --yaml                 print the nodes as YAML\n"
	      "\nHelp options:\n"
	      "  --help                     show this help message\n"
	      "  --usage                    display brief usage message\n", stdout);
}

static int parse_states(const char *arg)
{
	char **items = xstrsplit(arg, ",&", NULL);
	int rc = 0;

	opt.state_and = strchr(arg, '&') != NULL;
	for (size_t i = 0; items && items[i]; i++) {
		struct state_want w = { .busy = WANT_ANY };

		if (!strcasecmp(items[i], "all"))
			continue;
		if (node_state_from_string(items[i], &w.base, &w.flags) < 0) {
			error("Bad state string: \"%s\"", items[i]);
			error("valid states: unknown,down,idle,allocated,mixed,"
			      "future,drain,drained,draining,no_respond,"
			      "reserved,cloud,completing,powering_down,"
			      "powered_down,power_down,powering_up,fail,maint,"
			      "reboot,planned");
			rc = -1;
			break;
		}
		if (!strcasecmp(items[i], "drained"))
			w.busy = WANT_IDLE;
		else if (!strcasecmp(items[i], "draining") ||
			 !strcasecmp(items[i], "drng"))
			w.busy = WANT_BUSY;
		opt.states = xrealloc(opt.states,
				      (opt.state_cnt + 1) * sizeof(*opt.states));
		opt.states[opt.state_cnt++] = w;
	}
	xstrarray_free(items);
	return rc;
}

static int parse_nodes(const char *arg)
{
	char err[256];

	hostlist_destroy(opt.nodes);
	opt.nodes = hostlist_parse(arg, err, sizeof(err));
	if (!opt.nodes) {
		error("Invalid node name specified: %s", arg);
		return -1;
	}
	return 0;
}

enum { OPT_HELP = 0x100, OPT_USAGE, OPT_JSON, OPT_YAML, OPT_OTHER };

static const struct option long_opts[] = {
	{ "all", no_argument, NULL, 'a' },
	{ "bg", no_argument, NULL, 'b' },
	{ "clusters", required_argument, NULL, 'M' },
	{ "dead", no_argument, NULL, 'd' },
	{ "exact", no_argument, NULL, 'e' },
	{ "federation", no_argument, NULL, OPT_OTHER },
	{ "format", required_argument, NULL, 'o' },
	{ "Format", required_argument, NULL, 'O' },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "hide", no_argument, NULL, OPT_OTHER },
	{ "iterate", required_argument, NULL, 'i' },
	{ "json", optional_argument, NULL, OPT_JSON },
	{ "list-reasons", no_argument, NULL, 'R' },
	{ "local", no_argument, NULL, OPT_OTHER },
	{ "long", no_argument, NULL, 'l' },
	{ "noconvert", no_argument, NULL, OPT_OTHER },
	{ "Node", no_argument, NULL, 'N' },
	{ "nodes", required_argument, NULL, 'n' },
	{ "noheader", no_argument, NULL, 'h' },
	{ "partition", required_argument, NULL, 'p' },
	{ "reservation", no_argument, NULL, 'T' },
	{ "responding", no_argument, NULL, 'r' },
	{ "sort", required_argument, NULL, 'S' },
	{ "states", required_argument, NULL, 't' },
	{ "summarize", no_argument, NULL, 's' },
	{ "usage", no_argument, NULL, OPT_USAGE },
	{ "verbose", no_argument, NULL, 'v' },
	{ "version", no_argument, NULL, 'V' },
	{ "yaml", optional_argument, NULL, OPT_YAML },
	{ NULL, 0, NULL, 0 },
};

static int apply_option(int c, const char *arg)
{
	switch (c) {
	case 'a': opt.all = true; return 0;
	case 'M': xfree(opt.clusters); opt.clusters = xstrdup(arg); return 0;
	case 'd': opt.dead = true; return 0;
	case 'h': opt.no_header = true; return 0;
	case 'i':
		opt.iterate = atoi(arg);
		if (opt.iterate <= 0) {
			error("--iterate=%s: invalid value", arg);
			return -1;
		}
		return 0;
	case 'l': opt.long_fmt = true; return 0;
	case 'T': opt.resv = true; return 0;
	case 'N': opt.node_flag = true; return 0;
	case 'n': return parse_nodes(arg);
	case 'o': xfree(opt.format); opt.format = xstrdup(arg); return 0;
	case 'O': xfree(opt.format_long); opt.format_long = xstrdup(arg); return 0;
	case 'p':
		xstrarray_free(opt.parts);
		opt.parts = xstrsplit(arg, ",", NULL);
		return 0;
	case 'R': opt.reasons = true; return 0;
	case 'r': opt.responding = true; return 0;
	case 's': opt.summarize = true; return 0;
	case 'S': xfree(opt.sort); opt.sort = xstrdup(arg); return 0;
	case 't': return parse_states(arg);
	case 'v': opt.verbose++; return 0;
	case OPT_JSON: opt.json = true; return 0;
	case OPT_YAML: opt.yaml = true; return 0;
	default: return 0;
	}
}

static void parse_args(int argc, char **argv)
{
	int c;

	while ((c = getopt_long(argc, argv, "abdehi:lM:Nn:o:O:p:rRsS:t:TvV",
				long_opts, NULL)) != -1) {
		switch (c) {
		case '?':
			fputs("Try \"sinfo --help\" for more information\n", stderr);
			exit(1);
		case 'V':
			printf("slurm %s\n", SLUICE_VERSION_STRING);
			exit(0);
		case OPT_HELP:
			help();
			exit(0);
		case OPT_USAGE:
			usage(stdout);
			exit(0);
		default:
			if (apply_option(c, optarg) < 0)
				exit(1);
		}
	}
	if (optind < argc) {
		error("Unrecognized option: %s", argv[optind]);
		usage(stderr);
		exit(1);
	}
}

static void parse_env(void)
{
	const char *v;

	if ((v = getenv("SINFO_FORMAT")) && !opt.format && !opt.format_long)
		opt.format = xstrdup(v);
	if ((v = getenv("SINFO_SORT")) && !opt.sort)
		opt.sort = xstrdup(v);
	if ((v = getenv("SINFO_PARTITION")) && !opt.parts)
		opt.parts = xstrsplit(v, ",", NULL);
}

/* ---- which nodes ---- */

static bool state_matches(const struct state_want *w, uint32_t s)
{
	uint32_t base = s & NODE_STATE_BASE;
	bool busy = base == NODE_STATE_ALLOCATED || base == NODE_STATE_MIXED ||
		    (s & NODE_STATE_COMPLETING);

	if (w->busy == WANT_IDLE && busy)
		return false;
	if (w->busy == WANT_BUSY && !busy)
		return false;
	if (w->base != NODE_STATE_END)
		return base == w->base && (!w->flags || (s & w->flags));
	return (s & w->flags) != 0;
}

static bool state_match(const node_info_t *n)
{
	uint32_t s = n->node_state;

	if (opt.responding && (s & NODE_STATE_NO_RESPOND))
		return false;
	if (opt.dead && !(s & NODE_STATE_NO_RESPOND) &&
	    (s & NODE_STATE_BASE) != NODE_STATE_DOWN)
		return false;
	if (opt.reasons && !(s & (NODE_STATE_DRAIN | NODE_STATE_FAIL)) &&
	    (s & NODE_STATE_BASE) != NODE_STATE_DOWN)
		return false;
	if (!opt.state_cnt)
		return true;
	for (size_t i = 0; i < opt.state_cnt; i++) {
		bool m = state_matches(&opt.states[i], s);

		if (m && !opt.state_and)
			return true;
		if (!m && opt.state_and)
			return false;
	}
	return opt.state_and;
}

static bool node_wanted(const node_info_t *n)
{
	if (opt.nodes && hostlist_find(opt.nodes, n->name) < 0)
		return false;
	return state_match(n);
}

/* Is the caller in one of the groups of an AllowGroups list? */
static bool in_allowed_groups(const char *groups)
{
	struct passwd *pw = getpwuid(getuid());
	gid_t gids[256];
	int n = 256;
	char **names;
	bool hit = false;

	if (!pw || getgrouplist(pw->pw_name, pw->pw_gid, gids, &n) < 0)
		return true;    /* cannot tell: show it */
	names = xstrsplit(groups, ",", NULL);
	for (size_t i = 0; names && names[i] && !hit; i++) {
		struct group *gr = getgrnam(names[i]);

		for (int k = 0; gr && k < n && !hit; k++)
			hit = gids[k] == gr->gr_gid;
	}
	xstrarray_free(names);
	return hit;
}

/* Without -a: no hidden partitions, none the caller's groups may not use. */
static bool part_wanted(const part_info_t *p)
{
	if (!opt.parts) {
		if (opt.all)
			return true;
		if (p->hidden)
			return false;
		if (!getuid())
			return true;
		return !p->allow_groups || !strcasecmp(p->allow_groups, "ALL") ||
		       in_allowed_groups(p->allow_groups);
	}
	for (size_t i = 0; opt.parts[i]; i++)
		if (!strcmp(opt.parts[i], p->name))
			return true;
	return false;
}

/* ---- rows ---- */

typedef struct {
	cli_sinfo_row_t row;      /* first: the record the fields read */
	char           *key;
	size_t          part_idx; /* SIZE_MAX: not grouped by partition */
	uint64_t        hash;
} row_t;

typedef struct {
	const node_info_msg_t *nodes;
	const part_info_msg_t *parts;
	size_t                *by_name;   /* node indexes sorted by name */
	row_t                 *rows;
	size_t                 cnt;
	size_t                *slots;     /* hash table of row index + 1 */
	size_t                 slot_cnt;
	cli_ctx_t              ctx;
} sinfo_t;

static const node_info_msg_t *sort_nodes;

static int cmp_name_idx(const void *a, const void *b)
{
	return strcmp(sort_nodes->nodes[*(const size_t *)a].name,
		      sort_nodes->nodes[*(const size_t *)b].name);
}

static void index_nodes(sinfo_t *s)
{
	s->by_name = xcalloc(s->nodes->cnt + 1, sizeof(size_t));
	for (size_t i = 0; i < s->nodes->cnt; i++)
		s->by_name[i] = i;
	sort_nodes = s->nodes;
	qsort(s->by_name, s->nodes->cnt, sizeof(size_t), cmp_name_idx);
}

static long find_node(const sinfo_t *s, const char *name)
{
	size_t lo = 0, hi = s->nodes->cnt;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(s->nodes->nodes[s->by_name[mid]].name, name);

		if (!c)
			return (long)s->by_name[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static uint64_t hash_str(const char *k, size_t part)
{
	uint64_t h = 1469598103934665603ull ^ part;

	for (; *k; k++)
		h = (h ^ (unsigned char)*k) * 1099511628211ull;
	return h;
}

/* The text of every grouping column for one node. */
static char *node_key(const sinfo_t *s, const cli_format_t *fmt,
		      const node_info_t *n, const part_info_t *p)
{
	const node_info_t *one[1] = { n };
	cli_sinfo_row_t tmp = { .part = p, .nodes = one, .cnt = 1 };
	char *key = NULL;

	for (size_t i = 0; i < fmt->cnt; i++) {
		char *v;

		if (fmt->cols[i].field->flags & CF_SINFO_AGG)
			continue;
		v = cli_field_text(fmt->cols[i].field, &tmp, &s->ctx);
		xstrcat(&key, v);
		xstrcatc(&key, '\x1f');
		xfree(v);
	}
	if (opt.node_flag)
		xstrcat(&key, n->name);
	return key ? key : xstrdup("");
}

static row_t *find_row(sinfo_t *s, const char *key, size_t part, uint64_t h)
{
	size_t i = h & (s->slot_cnt - 1);

	for (; s->slots[i]; i = (i + 1) & (s->slot_cnt - 1)) {
		row_t *r = &s->rows[s->slots[i] - 1];

		if (r->hash == h && r->part_idx == part && !strcmp(r->key, key))
			return r;
	}
	s->rows = xrealloc(s->rows, (s->cnt + 1) * sizeof(*s->rows));
	s->slots[i] = ++s->cnt;
	memset(&s->rows[s->cnt - 1], 0, sizeof(row_t));
	s->rows[s->cnt - 1].key = xstrdup(key);
	s->rows[s->cnt - 1].part_idx = part;
	s->rows[s->cnt - 1].hash = h;
	return &s->rows[s->cnt - 1];
}

static void row_add(row_t *r, const node_info_t *n, const part_info_t *p)
{
	if (r->row.cnt == r->row.alloc) {
		r->row.alloc = r->row.alloc ? r->row.alloc * 2 : 4;
		r->row.nodes = xrealloc(r->row.nodes,
					r->row.alloc * sizeof(*r->row.nodes));
	}
	r->row.nodes[r->row.cnt++] = n;
	r->row.part = p;
}

static bool format_by_part(const cli_format_t *fmt)
{
	for (size_t i = 0; i < fmt->cnt; i++)
		if (fmt->cols[i].field->letter &&
		    strchr("PRalLsrhgpS", fmt->cols[i].field->letter))
			return true;
	return false;
}

/* Node indexes of a partition, in node table order. */
static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

static size_t part_nodes(const sinfo_t *s, const part_info_t *p, size_t **out)
{
	char err[128];
	hostlist_t *hl = p->nodes ? hostlist_parse(p->nodes, err, sizeof(err))
				  : NULL;
	size_t n = 0, cnt = hl ? hostlist_count(hl) : 0;

	*out = xcalloc(cnt + 1, sizeof(size_t));
	for (size_t i = 0; i < cnt; i++) {
		long idx = find_node(s, hostlist_nth(hl, i));

		if (idx >= 0)
			(*out)[n++] = (size_t)idx;
	}
	hostlist_destroy(hl);
	qsort(*out, n, sizeof(size_t), cmp_size);
	return n;
}

/* Without partition columns a node lands in one row whatever partitions
 * it is in: "placed" keeps it from being counted twice. */
static void build_rows(sinfo_t *s, const cli_format_t *fmt)
{
	bool by_part = format_by_part(fmt);
	bool *placed = xcalloc(s->nodes->cnt + 1, sizeof(bool));

	s->slot_cnt = 64;
	while (s->slot_cnt < 2 * (s->nodes->cnt + 1) * (s->parts->cnt + 1))
		s->slot_cnt *= 2;
	s->slots = xcalloc(s->slot_cnt, sizeof(size_t));
	for (uint32_t pi = 0; pi < s->parts->cnt; pi++) {
		const part_info_t *p = &s->parts->parts[pi];
		size_t *idx, n;

		if (!part_wanted(p))
			continue;
		n = part_nodes(s, p, &idx);
		for (size_t i = 0; i < n; i++) {
			const node_info_t *node = &s->nodes->nodes[idx[i]];
			size_t part = by_part ? pi : SIZE_MAX;
			char *key;

			if ((!by_part && placed[idx[i]]) || !node_wanted(node))
				continue;
			placed[idx[i]] = true;
			key = node_key(s, fmt, node, by_part ? p : NULL);
			row_add(find_row(s, key, part, hash_str(key, part)), node,
				by_part ? p : NULL);
			xfree(key);
		}
		xfree(idx);
	}
	xfree(placed);
}

/* ---- sorting ---- */

typedef struct {
	char letter;
	bool desc, conf_order;
} sort_key_t;

static sort_key_t sort_keys[32];
static size_t     sort_key_cnt;
static cli_ctx_t  sort_ctx;

static void parse_sort(const char *spec)
{
	char **items = xstrsplit(spec, ",", NULL);

	sort_key_cnt = 0;
	for (size_t i = 0; items && items[i] && sort_key_cnt < 32; i++) {
		const char *p = items[i];
		sort_key_t k = { 0 };

		if (*p == '-' || *p == '+')
			k.desc = *p++ == '-';
		if (*p == '#') {
			k.conf_order = true;
			p++;
		}
		if (!*p)
			continue;
		k.letter = *p;
		sort_keys[sort_key_cnt++] = k;
	}
	xstrarray_free(items);
}

/* "n2" < "n10": compare digit runs by value. */
static int cmp_natural(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			char *ea, *eb;
			unsigned long long x = strtoull(a, &ea, 10);
			unsigned long long y = strtoull(b, &eb, 10);

			if (x != y)
				return x < y ? -1 : 1;
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

static int cmp_num(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_key(const row_t *a, const row_t *b, const sort_key_t *k)
{
	const cli_field_t *f;
	char *ta, *tb;
	int rc;

	switch (k->letter) {
	case 'P':
	case 'R':
		if (k->conf_order)
			return cmp_num(a->part_idx, b->part_idx);
		return strcmp(a->row.part ? a->row.part->name : "",
			      b->row.part ? b->row.part->name : "");
	case 't':
	case 'T':
		return cmp_num(a->row.nodes[0]->node_state,
			       b->row.nodes[0]->node_state);
	case 'N':
		return cmp_natural(a->row.nodes[0]->name, b->row.nodes[0]->name);
	case 'D':
		return cmp_num(a->row.cnt, b->row.cnt);
	}
	f = cli_field_by_letter(cli_sinfo_fields, k->letter);
	if (!f)
		return 0;
	ta = cli_field_text(f, &a->row, &sort_ctx);
	tb = cli_field_text(f, &b->row, &sort_ctx);
	rc = strcmp(ta, tb);
	xfree(ta);
	xfree(tb);
	return rc;
}

static int cmp_rows(const void *pa, const void *pb)
{
	const row_t *a = *(const row_t *const *)pa, *b = *(const row_t *const *)pb;

	for (size_t i = 0; i < sort_key_cnt; i++) {
		int rc = cmp_key(a, b, &sort_keys[i]);

		if (rc)
			return sort_keys[i].desc ? -rc : rc;
	}
	return a < b ? -1 : a > b;
}

/* ---- output ---- */

/* One info request; prints Slurm's "what: why" line on failure. */
static int load_one(uint16_t type, uint16_t want, const char *what,
		    slurm_msg_t *resp)
{
	info_request_msg_t req = { .show_flags = opt.all ? SHOW_ALL : 0 };
	int rc = cli_ctld_rpc(type, &req, resp);

	if (rc) {
		fprintf(stderr, "%s: %s\n", what, cli_comm_strerror(rc));
		return 1;
	}
	rc = cli_resp_rc(resp);
	if (!rc && (resp->type != want || !resp->data))
		rc = SLURM_UNEXPECTED_MSG_ERROR;
	if (rc) {
		fprintf(stderr, "%s: %s\n", what, slurm_strerror(rc));
		msg_free(resp);
		return 1;
	}
	return 0;
}

static int load(slurm_msg_t *nresp, slurm_msg_t *presp)
{
	if (load_one(REQUEST_PARTITION_INFO, RESPONSE_PARTITION_INFO,
		     "slurm_load_partitions", presp))
		return 1;
	if (load_one(REQUEST_NODE_INFO, RESPONSE_NODE_INFO, "slurm_load_node",
		     nresp)) {
		msg_free(presp);
		return 1;
	}
	return 0;
}

static const char *pick_format(bool *long_form)
{
	*long_form = false;
	if (opt.format)
		return opt.format;
	if (opt.format_long) {
		*long_form = true;
		return opt.format_long;
	}
	if (opt.json || opt.yaml)
		return "%P %t";
	if (opt.summarize)
		return FMT_SUMMARY;
	if (opt.reasons)
		return opt.long_fmt ? FMT_REASON_LONG : FMT_REASON;
	if (opt.node_flag)
		return opt.long_fmt ? FMT_NODE_LONG : FMT_NODE;
	return opt.long_fmt ? FMT_LONG : FMT_DEFAULT;
}

static void print_date(void)
{
	time_t now = time(NULL);
	char buf[64];

	strftime(buf, sizeof(buf), "%a %b %e %H:%M:%S %Y", localtime(&now));
	printf("%s\n", buf);
}

static void print_json(const sinfo_t *s, row_t **sorted)
{
	json_object *list = json_object_new_array();

	for (size_t i = 0; i < s->cnt; i++)
		json_object_array_add(list, cli_fields_json(cli_sinfo_fields,
						&sorted[i]->row, &s->ctx));
	cli_output_doc_print(stdout, cli_output_doc("sinfo", list,
						    s->nodes->last_update),
			     opt.yaml);
}

static void free_rows(sinfo_t *s)
{
	for (size_t i = 0; i < s->cnt; i++) {
		xfree(s->rows[i].key);
		xfree(s->rows[i].row.nodes);
	}
	xfree(s->rows);
	xfree(s->slots);
	xfree(s->by_name);
}

/* -M: the clusters asked (NULL: this one), and the one being shown. */
static cli_cluster_t *clusters;
static size_t ncl;
static const char *cur_cluster;

static int sinfo_once(int iter)
{
	slurm_msg_t nresp, presp;
	sinfo_t s = { .ctx = { .now = time(NULL) } };
	cli_format_t fmt;
	row_t **sorted;
	bool long_form;
	const char *spec;

	if (opt.resv)
		return sinfo_resv(!opt.no_header);
	if (load(&nresp, &presp))
		return 1;
	s.nodes = nresp.data;
	s.parts = presp.data;
	s.ctx.parts = s.parts;
	sort_ctx = s.ctx;
	spec = pick_format(&long_form);
	if (long_form)
		cli_format_parse_long(&fmt, spec, cli_sinfo_fields, "node");
	else
		cli_format_parse(&fmt, spec, cli_sinfo_fields, "node");
	index_nodes(&s);
	build_rows(&s, &fmt);
	sorted = xcalloc(s.cnt + 1, sizeof(*sorted));
	for (size_t i = 0; i < s.cnt; i++)
		sorted[i] = &s.rows[i];
	parse_sort(opt.sort ? opt.sort : opt.node_flag ? "N" : "#P,-t");
	if (s.cnt)
		qsort(sorted, s.cnt, sizeof(*sorted), cmp_rows);
	if (opt.json || opt.yaml) {
		print_json(&s, sorted);
	} else {
		if (iter)
			putchar('\n');
		if (opt.long_fmt || opt.iterate)
			print_date();
		if (opt.clusters)
			printf("CLUSTER: %s\n", cur_cluster);
		cli_output_table(stdout, &fmt, (const void *const *)sorted, s.cnt,
				 &s.ctx, !opt.no_header);
	}
	cli_format_free(&fmt);
	xfree(sorted);
	free_rows(&s);
	msg_free(&nresp);
	msg_free(&presp);
	return 0;
}

int main(int argc, char **argv)
{
	cli_init_noconf("sinfo", 0);
	parse_args(argc, argv);
	parse_env();
	cli_init("sinfo", opt.verbose);
	cur_cluster = cli_conf()->cluster_name;
	if (opt.clusters &&
	    !(clusters = cli_clusters_resolve(opt.clusters, &ncl)))
		exit(1);
	cli_output_set_cluster(cur_cluster);
	for (int iter = 0;; iter++) {
		int rc = 0;

		/* -M: each cluster's nodes under its "CLUSTER:" line */
		for (size_t k = 0; k < (clusters ? ncl : 1); k++) {
			if (clusters) {
				cli_clusters_use(&clusters[k]);
				cur_cluster = clusters[k].name;
				cli_output_set_cluster(cur_cluster);
			}
			rc |= sinfo_once(iter);
		}

		if (rc || !opt.iterate)
			return rc;
		fflush(stdout);
		sleep((unsigned)opt.iterate);
	}
}
