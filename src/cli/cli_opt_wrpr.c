/* cli_opt_wrpr.c — #PBS and #BSUB directives in a batch script, read by
 * sbatch as Slurm's does (see cli_opt.h: cli_opt_parse_wrapper).
 *
 * Each directive is translated into the sbatch option it stands for and
 * applied through the option table, as a #SBATCH line would be, after
 * the #SBATCH lines (so over them; the environment and the command line
 * still win).  Only the first kind found is read: #PBS, else #BSUB.  The
 * directives may stand anywhere in the first 100 lines that are not
 * comments.  What Torque/PBS Pro or LSF ask for that has no meaning here
 * (-j, -k, -S, -r, arch=, vmem=, ...) is skipped as Slurm skips it, with
 * a verbose line.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli_opt.h"
#include "cli/cli_opt_int.h"
#include "common/hostlist.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define MAX_NON_COMMENTS 100

/* Apply one sbatch option (by long name) as a script directive would. */
static int set(cli_job_opts_t *o, const char *name, const char *val)
{
	int rc = cli_opt_set_named(o, name, val, CLI_SRC_SCRIPT);

	if (rc > 0) {
		error("sbatch has no --%s option", name);
		return -1;
	}
	return rc;
}

/* "123MB" -> "123M": Torque writes the unit with a B. */
static char *size_arg(const char *v)
{
	char *s = xstrdup(v);
	size_t n = strlen(s);

	if (n > 1 && toupper((unsigned char) s[n - 1]) == 'B')
		s[n - 1] = '\0';
	return s;
}

/* "abe", "n" -> "BEGIN,END,FAIL", "NONE" */
static char *mail_type(const char *arg)
{
	char *t = NULL;

	if (strpbrk(arg, "nN"))
		return xstrdup("NONE");
	if (strpbrk(arg, "bB"))
		xstrfmtcat(&t, "%sBEGIN", t ? "," : "");
	if (strpbrk(arg, "eE"))
		xstrfmtcat(&t, "%sEND", t ? "," : "");
	if (strpbrk(arg, "aA"))
		xstrfmtcat(&t, "%sFAIL", t ? "," : "");
	return t;
}

/* nodes=2:ppn=4, nodes=n1+n2, nodes=2:gpus=1 ... : a node count (the
 * numbers added up), tasks per node (ppn, times the node count), and
 * node names. */
static int pbs_nodes(cli_job_opts_t *o, const char *v)
{
	hostlist_t *hl = hostlist_create();
	long nodes = 0, ppn = 0;
	char *copy = xstrdup(v), *save = NULL, *tok, *s;
	int rc = 0;

	for (tok = strtok_r(copy, "+:", &save); tok;
	     tok = strtok_r(NULL, "+:", &save)) {
		if (!strncmp(tok, "ppn=", 4))
			ppn += strtol(tok + 4, NULL, 10);
		else if (isdigit((unsigned char) tok[0]))
			nodes += strtol(tok, NULL, 10);
		else if (isalpha((unsigned char) tok[0]) && !strchr(tok, '='))
			hostlist_push_host(hl, tok);
	}
	if (nodes > 0) {
		s = xstrdup_printf("%ld", nodes);
		rc = set(o, "nodes", s);
		xfree(s);
	} else {
		nodes = 1;
	}
	if (!rc && ppn > 0) {
		s = xstrdup_printf("%ld", ppn * nodes);
		rc = set(o, "ntasks", s);
		xfree(s);
	}
	if (!rc && hostlist_count(hl) > 0) {
		s = hostlist_ranged(hl);
		rc = set(o, "nodelist", s);
		xfree(s);
	}
	hostlist_destroy(hl);
	xfree(copy);
	return rc;
}

/* PBS Pro's chunk "select=2:ncpus=8:mpiprocs=4" sets nodes, CPUs per node
 * and tasks per node; with all three, CPUs per task as their ratio. */
typedef struct {
	long select, ncpus, mpiprocs;
} pbs_pro_t;

static int pbs_pro_chunk(cli_job_opts_t *o, const char *kv, pbs_pro_t *p)
{
	static const struct {
		const char *key;
		const char *opt;
		size_t off;
	} rows[] = {
		{ "select=", "nodes", offsetof(pbs_pro_t, select) },
		{ "ncpus=", "mincpus", offsetof(pbs_pro_t, ncpus) },
		{ "mpiprocs=", "ntasks-per-node", offsetof(pbs_pro_t, mpiprocs) },
	};
	char *copy = xstrdup(kv), *save = NULL, *tok;
	int rc = 0;

	for (tok = strtok_r(copy, ":", &save); tok && !rc;
	     tok = strtok_r(NULL, ":", &save))
		for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
			size_t n = strlen(rows[i].key);

			if (strncasecmp(tok, rows[i].key, n) || !tok[n])
				continue;
			*(long *) ((char *) p + rows[i].off) =
				strtol(tok + n, NULL, 10);
			rc = set(o, rows[i].opt, tok + n);
		}
	xfree(copy);
	return rc;
}

/* -l resource_list: comma-separated key=value (nodes= and select= hold
 * ':' and '+' lists of their own). */
static int pbs_resources(cli_job_opts_t *o, const char *list)
{
	/* keys whose values Slurm does not use */
	static const char *const skipped[] = {
		"arch", "host", "opsys", "other", "pmem", "pvmem", "software",
		"vmem", NULL,
	};
	char *copy = xstrdup(list), *save = NULL, *kv;
	pbs_pro_t pro = { 0 };
	long gpus = 0;
	int rc = 0;

	for (kv = strtok_r(copy, ",", &save); kv && !rc;
	     kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '='), *val;
		bool skip = false;

		if (!eq) {
			verbose("Ignored PBS resource: %s", kv);
			continue;
		}
		*eq = '\0';
		val = eq + 1;
		for (size_t i = 0; skipped[i]; i++)
			skip |= !strcmp(kv, skipped[i]);
		if (!*val && !skip) {
			error("No value given for %s", kv);
			rc = -1;
		} else if (skip) {
			verbose("Ignored PBS resource: %s=%s", kv, val);
		} else if (!strcmp(kv, "walltime") || !strcmp(kv, "cput") ||
			   !strcmp(kv, "pcput")) {
			rc = set(o, "time", val);
		} else if (!strcmp(kv, "mem") || !strcmp(kv, "file")) {
			char *s = size_arg(val);

			rc = set(o, kv[0] == 'm' ? "mem" : "tmp", s);
			xfree(s);
		} else if (!strcmp(kv, "nodes")) {
			rc = pbs_nodes(o, val);
		} else if (!strcasecmp(kv, "select") ||
			   !strcasecmp(kv, "ncpus") ||
			   !strcasecmp(kv, "mpiprocs")) {
			*eq = '=';
			rc = pbs_pro_chunk(o, kv, &pro);
		} else if (!strcmp(kv, "nice")) {
			rc = set(o, "nice", val);
		} else if (!strcmp(kv, "proc")) {
			const char *was = cli_opt_raw_get(o, "constraint");
			char *c = was ? xstrdup_printf("%s,%s", val, was)
				      : xstrdup(val);

			rc = set(o, "constraint", c);
			xfree(c);
		} else if (!strcasecmp(kv, "accelerator")) {
			if (!strncasecmp(val, "true", 4) && gpus < 1)
				gpus = 1;
		} else if (!strcasecmp(kv, "naccelerators")) {
			gpus = strtol(val, NULL, 10);
		} else {
			verbose("Ignored PBS resource: %s=%s", kv, val);
		}
	}
	if (!rc && pro.select && pro.ncpus && pro.mpiprocs &&
	    pro.ncpus > pro.mpiprocs) {
		char *s = xstrdup_printf("%ld", pro.ncpus / pro.mpiprocs);

		rc = set(o, "cpus-per-task", s);
		xfree(s);
	}
	if (!rc && gpus > 0) {
		const char *was = cli_opt_raw_get(o, "gres");
		char *g = was ? xstrdup_printf("%s,gpu:%ld", was, gpus)
			      : xstrdup_printf("gpu:%ld", gpus);

		rc = set(o, "gres", g);
		xfree(g);
	}
	xfree(copy);
	return rc;
}

static int pbs_option(cli_job_opts_t *o, int c, const char *arg)
{
	switch (c) {
	case 'a': return set(o, "begin", arg);
	case 'A': return set(o, "account", arg);
	case 'e': return set(o, "error", arg);
	case 'o': return set(o, "output", arg);
	case 'h': return set(o, "hold", NULL);
	case 'J':                               /* PBS Pro */
	case 't': return set(o, "array", arg);  /* Torque */
	case 'l': return pbs_resources(o, arg);
	case 'm': {
		char *t = mail_type(arg);
		int rc = t ? set(o, "mail-type", t) : 0;

		xfree(t);
		return rc;
	}
	case 'M': return set(o, "mail-user", arg);
	case 'N': return set(o, "job-name", arg);
	case 'p': return set(o, "nice", arg);
	case 'q': return set(o, "partition", arg);
	case 'v': {
		const char *was = cli_opt_raw_get(o, "export");
		char *e = was ? xstrdup_printf("%s,%s", was, arg)
			      : xstrdup(arg);
		int rc = set(o, "export", e);

		xfree(e);
		return rc;
	}
	case 'W':
		if (!strncasecmp(arg, "depend=", 7))
			return set(o, "dependency", arg + 7);
		if (!strncasecmp(arg, "umask=", 6)) {
			error("#PBS -W umask= is not supported");
			return -1;
		}
		verbose("Ignored PBS attributes: %s", arg);
		return 0;
	default:                                /* c C I j k r S u V z */
		verbose("Ignored PBS option: -%c", c);
		return 0;
	}
}

static int bsub_option(cli_job_opts_t *o, int c, const char *arg)
{
	char *s;
	int rc;

	switch (c) {
	case 'c': return set(o, "chdir", arg);
	case 'e': return set(o, "error", arg);
	case 'o': return set(o, "output", arg);
	case 'J': return set(o, "job-name", arg);
	case 'M': return set(o, "mem-per-cpu", arg);
	case 'q': return set(o, "partition", arg);
	case 'W': return set(o, "time", arg);
	case 'x': return set(o, "exclusive", NULL);
	case 'm':                       /* a space-separated host list */
		s = xstrdup(arg);
		for (char *p = s; *p; p++)
			if (*p == ' ')
				*p = ',';
		rc = set(o, "nodelist", s);
		xfree(s);
		return rc;
	case 'n': {                     /* "min,max": the max */
		const char *comma = strchr(arg, ',');

		if (comma && !comma[1]) {
			error("#BSUB -n format not correct given: '%s'", arg);
			return -1;
		}
		return set(o, "ntasks", comma ? comma + 1 : arg);
	}
	}
	return -1;
}

typedef struct {
	const char *magic;
	const char *shorts;
	const struct option *longs;
	int (*apply)(cli_job_opts_t *o, int c, const char *arg);
} wrapper_t;

static const struct option pbs_longs[] = {
	{ "start_time", required_argument, 0, 'a' },
	{ "account", required_argument, 0, 'A' },
	{ "checkpoint", required_argument, 0, 'c' },
	{ "working_dir", required_argument, 0, 'C' },
	{ "error", required_argument, 0, 'e' },
	{ "hold", no_argument, 0, 'h' },
	{ "interactive", no_argument, 0, 'I' },
	{ "join", optional_argument, 0, 'j' },
	{ "job_array", required_argument, 0, 'J' },
	{ "keep", required_argument, 0, 'k' },
	{ "resource_list", required_argument, 0, 'l' },
	{ "mail_options", required_argument, 0, 'm' },
	{ "mail_user_list", required_argument, 0, 'M' },
	{ "job_name", required_argument, 0, 'N' },
	{ "out", required_argument, 0, 'o' },
	{ "priority", required_argument, 0, 'p' },
	{ "destination", required_argument, 0, 'q' },
	{ "rerunable", required_argument, 0, 'r' },
	{ "script_path", required_argument, 0, 'S' },
	{ "array", required_argument, 0, 't' },
	{ "running_user", required_argument, 0, 'u' },
	{ "variable_list", required_argument, 0, 'v' },
	{ "all_env", no_argument, 0, 'V' },
	{ "attributes", required_argument, 0, 'W' },
	{ "no_std", no_argument, 0, 'z' },
	{ NULL, 0, 0, 0 },
};

static const struct option bsub_longs[] = {
	{ "cwd", required_argument, 0, 'c' },
	{ "error_file", required_argument, 0, 'e' },
	{ "job_name", required_argument, 0, 'J' },
	{ "hostname", required_argument, 0, 'm' },
	{ "memory_limit", required_argument, 0, 'M' },
	{ "output_file", required_argument, 0, 'o' },
	{ "queue_name", required_argument, 0, 'q' },
	{ "time", required_argument, 0, 'W' },
	{ "exclusive", no_argument, 0, 'x' },
	{ NULL, 0, 0, 0 },
};

static const wrapper_t wrappers[] = {
	{ "#PBS", "+:a:A:c:C:e:hIj:J:k:l:m:M:N:o:p:q:r:S:t:u:v:VW:z",
	  pbs_longs, pbs_option },
	{ "#BSUB", "+:c:e:J:m:M:n:o:q:W:x", bsub_longs, bsub_option },
};

/* The words of every w->magic line, in order; NULL when there is none. */
static char **collect(const wrapper_t *w, const char *script, size_t len)
{
	size_t mlen = strlen(w->magic), pos = 0;
	char **args = NULL;
	int non_comments = 0;

	while (pos < len && non_comments <= MAX_NON_COMMENTS) {
		const char *line = script + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t llen = nl ? (size_t) (nl - line) : len - pos;

		pos += llen + (nl ? 1 : 0);
		if (llen && line[llen - 1] == '\r')
			llen--;
		if (llen < mlen || memcmp(line, w->magic, mlen) ||
		    (llen > mlen && !isspace((unsigned char) line[mlen]))) {
			if (!llen || line[0] != '#')
				non_comments++;
			continue;
		}
		char **words = cli_opt_split_directive(line + mlen,
						       llen - mlen);

		if (!args)
			args = xcalloc(1, sizeof(char *));
		for (size_t i = 0; words[i]; i++) {
			/* LSF's -cwd is one dash and four letters */
			const char *wd = (w->apply == bsub_option &&
					  !strcmp(words[i], "-cwd")) ?
					 "-c" : words[i];

			args = xstrarray_append(args, wd);
		}
		xstrarray_free(words);
	}
	return args;
}

static int apply(cli_job_opts_t *o, const wrapper_t *w, char **args)
{
	size_t n = xstrarray_len(args);
	char **argv = xcalloc(n + 2, sizeof(char *));
	int c, rc = 0;

	argv[0] = (char *) o->prog;
	memcpy(argv + 1, args, n * sizeof(char *));
	optind = 0;
	opterr = 0;
	while (!rc && (c = getopt_long((int) n + 1, argv, w->shorts,
				       w->longs, NULL)) != -1) {
		if (c == '?' || c == ':') {
			error("Unrecognized command line parameter %c",
			      optopt ? optopt : '?');
			rc = -1;
			break;
		}
		rc = w->apply(o, c, optarg);
	}
	if (!rc && optind <= (int) n) {
		error("Invalid argument: %s", argv[optind]);
		rc = -1;
	}
	optind = 0;
	xfree(argv);
	return rc;
}

int cli_opt_parse_wrapper(cli_job_opts_t *o, const char *script, size_t len)
{
	if (o->ignore_pbs)
		return 0;
	for (size_t i = 0; i < sizeof(wrappers) / sizeof(wrappers[0]); i++) {
		char **args = collect(&wrappers[i], script, len);
		int rc;

		if (!args)
			continue;
		rc = apply(o, &wrappers[i], args);
		xstrarray_free(args);
		return rc;
	}
	return 0;
}
