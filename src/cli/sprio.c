/* sprio — the factors of pending jobs' priorities (priority/multifactor).
 *
 * One REQUEST_PRIORITY_FACTORS; the controller filters by job, user and
 * partition and sends the weighted and normalized factors with the
 * configured weights.  The default format shows only the factors that
 * have a weight, as Slurm's does.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_clusters.h"
#include "cli/cli_common.h"
#include "cli/cli_opt.h"
#include "cli/cli_fields.h"
#include "cli/cli_format.h"
#include "cli/cli_output.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

static struct {
	bool    no_header, long_fmt, norm, weights;
	int     verbose;
	char   *format;
	char   *sort;
	char  **jobs, **users, **parts;
	char   *clusters;   /* -M: checked, one cluster */
} opt;

/* A row: a job's factors, or the weights line (-w). */
typedef struct {
	const priority_factors_t     *f;
	const priority_factors_msg_t *w;   /* set on the weights line */
} row_t;

#define R(r) ((const row_t *) (r))

static void _num(char **o, double v)
{
	xstrfmtcat(o, "%.0f", v);
}

static void _norm(char **o, double v)
{
	xstrfmtcat(o, "%.7f", v);
}

/* On the weights line a factor column shows its weight. */
#define FACTOR(fn, member, wmember)                                          \
	static void fn(char **o, const void *r, const cli_ctx_t *c)          \
	{                                                                    \
		if (R(r)->w)                                                 \
			xstrfmtcat(o, "%u", R(r)->w->wmember);               \
		else                                                         \
			_num(o, R(r)->f->member);                            \
	}
#define NFACTOR(fn, member, wmember)                                         \
	static void fn(char **o, const void *r, const cli_ctx_t *c)          \
	{                                                                    \
		if (R(r)->w)                                                 \
			xstrfmtcat(o, "%u", R(r)->w->wmember);               \
		else                                                         \
			_norm(o, R(r)->f->member);                           \
	}

FACTOR(t_age, age, weight_age)
FACTOR(t_assoc, assoc, weight_assoc)
FACTOR(t_fs, fairshare, weight_fs)
FACTOR(t_js, job_size, weight_js)
FACTOR(t_part, part, weight_part)
FACTOR(t_qos, qos_f, weight_qos)
NFACTOR(t_nage, norm_age, weight_age)
NFACTOR(t_nassoc, norm_assoc, weight_assoc)
NFACTOR(t_nfs, norm_fairshare, weight_fs)
NFACTOR(t_njs, norm_job_size, weight_js)
NFACTOR(t_npart, norm_part, weight_part)
NFACTOR(t_nqos, norm_qos, weight_qos)

static void t_jobid(char **o, const void *r, const cli_ctx_t *c)
{
	if (R(r)->w)
		xstrcat(o, "Weights");
	else
		xstrfmtcat(o, "%u", R(r)->f->job_id);
}

static void t_part_name(char **o, const void *r, const cli_ctx_t *c)
{
	xstrcat(o, R(r)->w ? "" : R(r)->f->partition ? R(r)->f->partition : "");
}

static void t_user(char **o, const void *r, const cli_ctx_t *c)
{
	if (R(r)->w)
		xstrcat(o, "");
	else if (R(r)->f->user_name)
		xstrcat(o, R(r)->f->user_name);
	else
		cli_fmt_uid(o, R(r)->f->user_id);
}

static void t_prio(char **o, const void *r, const cli_ctx_t *c)
{
	if (R(r)->w)
		xstrcat(o, "");
	else
		xstrfmtcat(o, "%u", R(r)->f->priority);
}

static void t_nprio(char **o, const void *r, const cli_ctx_t *c)
{
	if (R(r)->w)
		xstrcat(o, "");
	else
		xstrfmtcat(o, "%.8f", R(r)->f->priority / (double) 0xffffffffu);
}

static void t_site(char **o, const void *r, const cli_ctx_t *c)
{
	if (R(r)->w)
		xstrcat(o, "1");
	else
		_num(o, R(r)->f->site);
}

static void t_nice(char **o, const void *r, const cli_ctx_t *c)
{
	if (R(r)->w)
		xstrcat(o, "");
	else
		xstrfmtcat(o, "%d", R(r)->f->nice);
}

static void t_tres(char **o, const void *r, const cli_ctx_t *c)
{
	if (R(r)->w)
		xstrcat(o, R(r)->w->weight_tres ? R(r)->w->weight_tres : "");
	else
		xstrcat(o, R(r)->f->tres ? R(r)->f->tres : "");
}

static void t_ntres(char **o, const void *r, const cli_ctx_t *c)
{
	if (R(r)->w)
		xstrcat(o, R(r)->w->weight_tres ? R(r)->w->weight_tres : "");
	else
		xstrcat(o, R(r)->f->norm_tres ? R(r)->f->norm_tres : "");
}

static void t_cluster(char **o, const void *r, const cli_ctx_t *c)
{
	xstrcat(o, cli_clusters_current() ? cli_clusters_current() : "");
}

static const cli_field_t sprio_fields[] = {
	{ 'i', "jobid", "JOBID", NULL, 0, t_jobid, NULL, NULL },
	{ 'r', "partition", "PARTITION", NULL, 0, t_part_name, NULL, NULL },
	{ 'u', "user", "USER", NULL, 0, t_user, NULL, NULL },
	{ 'Y', "priority", "PRIORITY", NULL, 0, t_prio, NULL, NULL },
	{ 'y', "prioritynorm", "PRIORITY", NULL, 0, t_nprio, NULL, NULL },
	{ 'S', "site", "SITE", NULL, 0, t_site, NULL, NULL },
	{ 'A', "age", "AGE", NULL, 0, t_age, NULL, NULL },
	{ 'a', "agenorm", "AGE", NULL, 0, t_nage, NULL, NULL },
	{ 'B', "assoc", "ASSOC", NULL, 0, t_assoc, NULL, NULL },
	{ 'b', "assocnorm", "ASSOC", NULL, 0, t_nassoc, NULL, NULL },
	{ 'F', "fairshare", "FAIRSHARE", NULL, 0, t_fs, NULL, NULL },
	{ 'f', "fairsharenorm", "FAIRSHARE", NULL, 0, t_nfs, NULL, NULL },
	{ 'J', "jobsize", "JOBSIZE", NULL, 0, t_js, NULL, NULL },
	{ 'j', "jobsizenorm", "JOBSIZE", NULL, 0, t_njs, NULL, NULL },
	{ 'P', "partitionprio", "PARTITION", NULL, 0, t_part, NULL, NULL },
	{ 'p', "partitionnorm", "PARTITION", NULL, 0, t_npart, NULL, NULL },
	{ 'Q', "qos", "QOS", NULL, 0, t_qos, NULL, NULL },
	{ 'q', "qosnorm", "QOS", NULL, 0, t_nqos, NULL, NULL },
	{ 'N', "nice", "NICE", NULL, 0, t_nice, NULL, NULL },
	{ 'T', "tres", "TRES", NULL, 0, t_tres, NULL, NULL },
	{ 't', "tresnorm", "TRES", NULL, 0, t_ntres, NULL, NULL },
	{ 'c', "cluster", "CLUSTER", NULL, 0, t_cluster, NULL, NULL },
	{ 0, NULL, NULL, NULL, 0, NULL, NULL, NULL }
};

static const char usage_text[] =
"Usage: sprio [-j jid[s]] [-u user_name[s]] [-o format] [-p partitions]\n"
"     [--federation] [--local] [--sibling] [--usage] [-hlnvVw] [-S sort]\n";

static const char help_text[] =
"Usage: sprio [OPTIONS]\n"
"  -h, --noheader                  no headers on output\n"
"  -j, --jobs                      comma separated list of jobs\n"
"                                  to view, default is all\n"
"  -l, --long                      long report\n"
"  -M, --cluster=cluster_name      cluster to issue commands to.\n"
"  -n, --norm                      display normalized values\n"
"  -o, --format=format             format specification\n"
"  -p, --partition=partition_name  comma separated list of partitions\n"
"  -S, --sort=fields               comma separated list of fields to sort on\n"
"  -u, --user=user_name            comma separated list of users to view\n"
"  -v, --verbose                   verbosity level\n"
"  -V, --version                   output version information and exit\n"
"  -w, --weights                   show the weights for each priority factor\n"
"\nHelp options:\n"
"  --help                          show this help message\n"
"  --usage                         display a brief summary of sprio options\n";

enum { OPT_HELP = 0x100, OPT_USAGE, OPT_LOCAL, OPT_FED, OPT_SIBLING };

static const struct option long_opts[] = {
	{ "noheader", no_argument, NULL, 'h' },
	{ "jobs", optional_argument, NULL, 'j' },
	{ "long", no_argument, NULL, 'l' },
	{ "cluster", required_argument, NULL, 'M' },
	{ "clusters", required_argument, NULL, 'M' },
	{ "norm", no_argument, NULL, 'n' },
	{ "format", required_argument, NULL, 'o' },
	{ "partition", required_argument, NULL, 'p' },
	{ "sort", required_argument, NULL, 'S' },
	{ "user", required_argument, NULL, 'u' },
	{ "users", required_argument, NULL, 'u' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "version", no_argument, NULL, 'V' },
	{ "weights", no_argument, NULL, 'w' },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "usage", no_argument, NULL, OPT_USAGE },
	{ "local", no_argument, NULL, OPT_LOCAL },
	{ "federation", no_argument, NULL, OPT_FED },
	{ "sibling", no_argument, NULL, OPT_SIBLING },
	{ NULL, 0, NULL, 0 }
};

static char **_list(char **old, const char *arg)
{
	char **v = xstrsplit(arg, ",", NULL), **out = old;
	size_t n = 0, k;

	for (; out && out[n]; n++)
		;
	for (k = 0; v[k]; k++) {
		if (!*v[k])
			continue;
		out = xrealloc(out, (n + 2) * sizeof(char *));
		out[n++] = xstrdup(v[k]);
		out[n] = NULL;
	}
	xstrarray_free(v);
	return out;
}

static void _parse(int argc, char **argv)
{
	char *env = getenv("SPRIO_FORMAT");
	int c;

	if (env && *env)
		opt.format = xstrdup(env);
	while ((c = getopt_long(argc, argv, "hj::lM:no:p:S:u:vVw", long_opts,
				NULL)) != -1) {
		switch (c) {
		case 'h': opt.no_header = true; break;
		case 'j':
			if (optarg)
				opt.jobs = _list(opt.jobs, optarg);
			break;
		case 'l': opt.long_fmt = true; break;
		case 'M':
			xfree(opt.clusters);
			opt.clusters = xstrdup(optarg);
			break;
		case 'n': opt.norm = true; break;
		case 'o': xfree(opt.format); opt.format = xstrdup(optarg); break;
		case 'p': opt.parts = _list(opt.parts, optarg); break;
		case 'S': xfree(opt.sort); opt.sort = xstrdup(optarg); break;
		case 'u': opt.users = _list(opt.users, optarg); break;
		case 'v': opt.verbose++; break;
		case 'V': printf("slurm %s\n", SLUICE_VERSION_STRING); exit(0);
		case 'w': opt.weights = true; break;
		case OPT_HELP: fputs(help_text, stdout); exit(0);
		case OPT_USAGE: fputs(usage_text, stdout); exit(0);
		case OPT_LOCAL: case OPT_FED: case OPT_SIBLING: break;
		default:
			fprintf(stderr, "Try \"sprio --help\" for more information\n");
			exit(1);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "sprio: error: Unrecognized option: %s\n",
			argv[optind]);
		fprintf(stderr, "Try \"sprio --help\" for more information\n");
		exit(1);
	}
}

/* The default layouts, keeping only factors that have a weight. */
static char *_default_format(const priority_factors_msg_t *m)
{
	char *f = NULL;
	bool tres = m->weight_tres && *m->weight_tres;
	bool n = opt.norm;

	xstrcat(&f, "%.15i %9r ");
	if (opt.long_fmt || opt.users)
		xstrcat(&f, "%.8u ");
	xstrcat(&f, n ? "%.10y %.10S " : "%.10Y %.10S ");
	if (opt.long_fmt || m->weight_age)
		xstrcat(&f, n ? "%.10a " : "%.10A ");
	if (opt.long_fmt || m->weight_assoc)
		xstrcat(&f, n ? "%.10b " : "%.10B ");
	if (opt.long_fmt || m->weight_fs)
		xstrcat(&f, n ? "%.10f " : "%.10F ");
	if (opt.long_fmt || m->weight_js)
		xstrcat(&f, n ? "%.10j " : "%.10J ");
	if (opt.long_fmt || m->weight_part)
		xstrcat(&f, n ? "%.10p " : "%.10P ");
	if (opt.long_fmt || m->weight_qos)
		xstrcat(&f, n ? "%.10q " : "%.10Q ");
	if (opt.long_fmt)
		xstrcat(&f, "%.11N ");
	if (opt.long_fmt || tres)
		xstrcat(&f, n ? "%.20t " : "%.20T ");
	f[strlen(f) - 1] = '\0';
	return f;
}

typedef struct {
	char letter;
	bool desc;
} sort_key_t;

static sort_key_t sort_keys[16];
static size_t     sort_cnt;

static int _cmp_key(const priority_factors_t *a, const priority_factors_t *b,
		    char k)
{
#define CMP(x, y) ((x) < (y) ? -1 : (x) > (y))
	switch (k) {
	case 'i': return CMP(a->job_id, b->job_id);
	case 'r': return xstrcmp(a->partition, b->partition);
	case 'u': return xstrcmp(a->user_name, b->user_name);
	case 'Y': case 'y': return CMP(a->priority, b->priority);
	case 'A': case 'a': return CMP(a->norm_age, b->norm_age);
	case 'F': case 'f': return CMP(a->norm_fairshare, b->norm_fairshare);
	case 'J': case 'j': return CMP(a->norm_job_size, b->norm_job_size);
	case 'P': case 'p': return CMP(a->norm_part, b->norm_part);
	case 'N': return CMP(a->nice, b->nice);
	default: return 0;
	}
#undef CMP
}

static int _cmp(const void *pa, const void *pb)
{
	const row_t *a = *(const row_t *const *) pa;
	const row_t *b = *(const row_t *const *) pb;

	for (size_t i = 0; i < sort_cnt; i++) {
		int rc = _cmp_key(a->f, b->f, sort_keys[i].letter);

		if (rc)
			return sort_keys[i].desc ? -rc : rc;
	}
	return a->f->job_id < b->f->job_id ? -1 : a->f->job_id > b->f->job_id;
}

static void _parse_sort(const char *s)
{
	char **v = xstrsplit(s, ",", NULL);

	for (size_t i = 0; v[i] && sort_cnt < 16; i++) {
		const char *k = v[i];
		bool desc = false;

		if (*k == '-' || *k == '+')
			desc = *k++ == '-';
		if (*k == '%')
			k++;
		if (*k)
			sort_keys[sort_cnt++] = (sort_key_t) { *k, desc };
	}
	xstrarray_free(v);
}

static int _print(const priority_factors_msg_t *m)
{
	cli_ctx_t ctx = { .now = time(NULL) };
	cli_format_t fmt = { 0 };
	char *def = NULL;
	row_t *rows, wrow = { .w = m };
	const void **ptrs;
	int bad;

	if (!opt.format)
		def = _default_format(m);
	bad = cli_format_parse(&fmt, opt.format ? opt.format : def,
			       sprio_fields, "sprio");
	xfree(def);
	if (bad && !fmt.cnt) {
		cli_format_free(&fmt);
		return 1;
	}
	if (opt.weights) {
		const void *one = &wrow;

		cli_output_table(stdout, &fmt, &one, 1, &ctx, !opt.no_header);
		cli_format_free(&fmt);
		return 0;
	}
	rows = xcalloc(m->cnt + 1, sizeof(*rows));
	ptrs = xcalloc(m->cnt + 1, sizeof(*ptrs));
	for (uint32_t i = 0; i < m->cnt; i++) {
		rows[i].f = &m->jobs[i];
		ptrs[i] = &rows[i];
	}
	_parse_sort(opt.sort ? opt.sort : "i");
	qsort(ptrs, m->cnt, sizeof(*ptrs), _cmp);
	cli_output_table(stdout, &fmt, ptrs, m->cnt, &ctx, !opt.no_header);
	xfree(rows);
	xfree(ptrs);
	cli_format_free(&fmt);
	return 0;
}

int main(int argc, char **argv)
{
	priority_factors_request_msg_t req = { 0 };
	slurm_msg_t resp = { 0 };
	priority_factors_msg_t *m;
	int rc;

	_parse(argc, argv);
	cli_init("sprio", opt.verbose);
	if (cli_check_clusters(opt.clusters, cli_conf()->cluster_name) < 0)
		exit(1);
	req.job_ids = opt.jobs;
	req.users = opt.users;
	req.partitions = opt.parts;
	rc = cli_ctld_rpc(REQUEST_PRIORITY_FACTORS, &req, &resp);
	if (rc) {
		error("Unable to contact slurm controller (%s)",
		      slurm_strerror(rc));
		return 1;
	}
	if ((rc = cli_resp_rc(&resp)) ||
	    resp.type != RESPONSE_PRIORITY_FACTORS || !resp.data) {
		error("%s", slurm_strerror(rc ? rc : SLURM_UNEXPECTED_MSG_ERROR));
		msg_free(&resp);
		return 1;
	}
	m = resp.data;
	if (!m->multifactor) {
		fprintf(stderr, "You are not running a supported priority plugin\n"
			"(priority/basic).\n"
			"Only 'priority/multifactor' is supported.\n");
		msg_free(&resp);
		return 1;
	}
	if ((opt.jobs || opt.users) && !m->cnt && !opt.weights) {
		fprintf(stderr, "Unable to find jobs matching user/id(s) "
			"specified\n");
		msg_free(&resp);
		return 0;
	}
	rc = _print(m);
	msg_free(&resp);
	return rc;
}
