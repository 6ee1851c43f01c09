/* sluice-sim — what-if simulator: a workload trace replayed through the
 * controller's real scheduler code on a virtual clock (doc/man/sluice-sim.1).
 *
 *   sluice-sim -f slurm.conf -t TRACE [--trace-format swf|sacct]
 *              [--assoc F] [--set K=V]... [--swf-partitions N=name,...]
 *              [--skip-bad] [-o jobs.csv] [--summary summary.json]
 *              [--quiet] [--epoch TIME] [-v]
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <strings.h>
#include <unistd.h>

#include "common/conf.h"
#include "common/debug_flags.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "sim/sim_engine.h"
#include "sim/sim_report.h"
#include "sim/trace.h"

typedef struct {
	const char *conf_path, *trace_path, *csv_path, *json_path;
	char      **sets;
	bool        quiet;
	int         verbose;
	trace_opts_t topts;
} opts_t;

static void _usage(FILE *f)
{
	fprintf(f,
"Usage: sluice-sim -f slurm.conf -t TRACE [--trace-format swf|sacct]\n"
"                  [--assoc FILE] [--set KEY=VALUE]... [--swf-partitions N=name,...]\n"
"                  [--skip-bad] [-o jobs.csv] [--summary summary.json]\n"
"                  [--epoch TIME] [--quiet] [-v]\n");
}

/* The directory of the slurm.conf copy with the --set lines: it lives
 * as long as the run (the engine reads topology.conf, gres.conf...
 * through it after slurm.conf), removed at exit. */
static char *tmp_dir;

static void _rm_dir(const char *dir);

static void _rm_tmp_dir(void)
{
	if (tmp_dir)
		_rm_dir(tmp_dir);
	xfree(tmp_dir);
}

static void _die(const char *fmt, ...) __attribute__((format(printf, 1, 2),
						       noreturn));
static void _die(const char *fmt, ...)
{
	va_list ap;

	fputs("sluice-sim: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void _parse(int argc, char **argv, opts_t *o)
{
	enum { O_FMT = 256, O_ASSOC, O_SET, O_SWFP, O_SKIP, O_SUM, O_QUIET,
	       O_EPOCH };
	static const struct option lo[] = {
		{ "conf", required_argument, NULL, 'f' },
		{ "trace", required_argument, NULL, 't' },
		{ "trace-format", required_argument, NULL, O_FMT },
		{ "assoc", required_argument, NULL, O_ASSOC },
		{ "set", required_argument, NULL, O_SET },
		{ "swf-partitions", required_argument, NULL, O_SWFP },
		{ "skip-bad", no_argument, NULL, O_SKIP },
		{ "output", required_argument, NULL, 'o' },
		{ "summary", required_argument, NULL, O_SUM },
		{ "quiet", no_argument, NULL, O_QUIET },
		{ "epoch", required_argument, NULL, O_EPOCH },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	char err[256];
	int c;

	trace_opts_init(&o->topts);
	while ((c = getopt_long(argc, argv, "f:t:o:vh", lo, NULL)) != -1) {
		switch (c) {
		case 'f': o->conf_path = optarg; break;
		case 't': o->trace_path = optarg; break;
		case 'o': o->csv_path = optarg; break;
		case 'v': o->verbose++; break;
		case 'h': _usage(stdout); exit(0);
		case O_FMT:
			if (trace_fmt_parse(optarg, &o->topts.fmt) < 0)
				_die("--trace-format: '%s' is not swf or "
				     "sacct", optarg);
			break;
		case O_ASSOC:
			_die("--assoc %s: reading a sacctmgr dump is not "
			     "supported yet (associations, QOS and shares "
			     "are not simulated)", optarg);
		case O_SET:
			if (!strchr(optarg, '=') || optarg[0] == '=')
				_die("--set: '%s' is not KEY=VALUE", optarg);
			o->sets = xstrarray_append(o->sets, optarg);
			break;
		case O_SWFP:
			if (trace_opts_swf_parts(&o->topts, optarg, err,
						 sizeof(err)) < 0)
				_die("%s", err);
			break;
		case O_SKIP: o->topts.skip_bad = true; break;
		case O_SUM: o->json_path = optarg; break;
		case O_QUIET: o->quiet = true; break;
		case O_EPOCH: {
			char *end;
			long long v = strtoll(optarg, &end, 10);
			time_t t;

			if (!*end && end != optarg && v >= 0)
				t = (time_t) v;
			else if (parse_time(optarg, 0, &t) < 0)
				_die("--epoch: '%s' is not a time", optarg);
			o->topts.epoch = t;
			break;
		}
		default:
			_usage(stderr);
			exit(1);
		}
	}
	if (optind < argc)
		_die("unexpected argument '%s'", argv[optind]);
	if (!o->conf_path || !o->trace_path) {
		_usage(stderr);
		exit(1);
	}
}

/* slurm.conf with the --set lines after it (a later line wins), in a
 * new directory whose other files link to those beside the original
 * (topology.conf, gres.conf, Includes).  The new path (caller frees),
 * the directory in *dir. */
static char *_conf_with_sets(const opts_t *o, char **dir)
{
	char tmpl[] = "/tmp/sluice-sim.XXXXXX", *orig_dir, *copy, *path;
	FILE *in, *out;
	char buf[65536];
	size_t n;
	DIR *d;
	struct dirent *e;

	if (!mkdtemp(tmpl))
		_die("mkdtemp: %s", strerror(errno));
	*dir = xstrdup(tmpl);
	copy = xstrdup(o->conf_path);
	orig_dir = realpath(dirname(copy), NULL);
	xfree(copy);
	if (!orig_dir)
		_die("%s: %s", o->conf_path, strerror(errno));
	if ((d = opendir(orig_dir))) {
		while ((e = readdir(d))) {
			char *src, *dst;

			if (e->d_name[0] == '.')
				continue;
			src = xstrdup_printf("%s/%s", orig_dir, e->d_name);
			dst = xstrdup_printf("%s/%s", tmpl, e->d_name);
			if (symlink(src, dst) < 0)
				_die("symlink %s: %s", dst, strerror(errno));
			xfree(src);
			xfree(dst);
		}
		closedir(d);
	}
	free(orig_dir);
	copy = xstrdup(o->conf_path);
	path = xstrdup_printf("%s/%s", tmpl, basename(copy));
	xfree(copy);
	unlink(path);
	if (!(in = fopen(o->conf_path, "r")))
		_die("%s: %s", o->conf_path, strerror(errno));
	if (!(out = fopen(path, "w")))
		_die("%s: %s", path, strerror(errno));
	while ((n = fread(buf, 1, sizeof(buf), in)))
		fwrite(buf, 1, n, out);
	fputs("\n# sluice-sim --set\n", out);
	for (size_t i = 0; o->sets[i]; i++)
		fprintf(out, "%s\n", o->sets[i]);
	fclose(in);
	if (fclose(out) != 0)
		_die("%s: %s", path, strerror(errno));
	return path;
}

static void _rm_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char *p;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		p = xstrdup_printf("%s/%s", dir, e->d_name);
		unlink(p);
		xfree(p);
	}
	closedir(d);
	rmdir(dir);
}

/* err with every "from" replaced by "to". */
static void _replace_all(char *err, size_t errlen, const char *from,
			 const char *to)
{
	size_t fl = strlen(from);
	char *out = NULL, *s = err, *p;

	if (!fl || !strstr(err, from))
		return;
	while ((p = strstr(s, from))) {
		xstrfmtcat(&out, "%.*s%s", (int) (p - s), s, to);
		s = p + fl;
	}
	xstrcat(&out, s);
	snprintf(err, errlen, "%s", out);
	xfree(out);
}

/* An error about the copy with the --set lines names what the user
 * wrote: the original file, or --set for a line of ours; a file beside
 * the copy (topology.conf, an Include: links to the user's) is named
 * beside the original. */
static void _where(char *err, size_t errlen, const char *copy,
		   const char *tdir, const char *orig, size_t orig_lines)
{
	size_t cl = copy ? strlen(copy) : 0;
	char *p, *rest, *out, *dir, *tmp_slash;
	unsigned long line;

	if (!copy)
		return;
	while ((p = strstr(err, copy)) && p[cl] == ':' &&
	       (line = strtoul(p + cl + 1, &rest, 10)) &&
	       rest != p + cl + 1) {
		*p = '\0';
		if (line > orig_lines)
			out = xstrdup_printf("%s--set%s", err, rest);
		else
			out = xstrdup_printf("%s%s:%lu%s", err, orig, line,
					     rest);
		snprintf(err, errlen, "%s", out);
		xfree(out);
	}
	_replace_all(err, errlen, copy, orig);
	/* "dir/" of the user's slurm.conf, "" when it named none */
	p = strrchr(orig, '/');
	dir = p ? xstrndup(orig, (size_t) (p - orig) + 1) : xstrdup("");
	tmp_slash = xstrdup_printf("%s/", tdir);
	_replace_all(err, errlen, tmp_slash, dir);
	xfree(tmp_slash);
	xfree(dir);
}

static size_t _lines(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;
	int c, last = '\n';

	if (!f)
		return 0;
	while ((c = fgetc(f)) != EOF) {
		if (c == '\n')
			n++;
		last = c;
	}
	fclose(f);
	return n + (last != '\n');
}

static void _write(const char *path, int (*fn)(FILE *, const trace_t *,
					       const sim_result_t *),
		   const trace_t *t, const sim_result_t *r)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;

	if (!f || fn(f, t, r) < 0 || (f != stdout && fclose(f) != 0))
		_die("%s: %s", path, strerror(errno));
}

int main(int argc, char **argv)
{
	log_options_t lo = { .stderr_level = LOG_LEVEL_QUIET,
			     .file_level = LOG_LEVEL_QUIET };
	opts_t o = { 0 };
	char err[1024] = "", *conf_path = NULL;
	slurm_conf_t *conf;
	trace_t t = { 0 };
	sim_result_t r;

	_parse(argc, argv, &o);
	if (o.verbose)
		lo.stderr_level = o.verbose > 1 ? LOG_LEVEL_DEBUG :
			LOG_LEVEL_INFO;
	log_init("sluice-sim", lo, NULL);
	atexit(_rm_tmp_dir);
	if (o.sets)
		conf_path = _conf_with_sets(&o, &tmp_dir);
	conf = conf_load(conf_path ? conf_path : o.conf_path, err,
			 sizeof(err));
	if (!conf) {
		_where(err, sizeof(err), conf_path, tmp_dir, o.conf_path,
		       _lines(o.conf_path));
		_die("%s", err);
	}
	/* DebugFlags=Backfill etc. log as the controller's would (-v -v) */
	debug_flags_set_conf(conf->debug_flags);
	if (trace_read_file(o.trace_path, &o.topts, &t, err, sizeof(err)) < 0)
		_die("%s", err);
	if (sim_engine_run(conf, &t, &r, err, sizeof(err)) < 0) {
		_where(err, sizeof(err), conf_path, tmp_dir, o.conf_path,
		       _lines(o.conf_path));
		_die("%s", err);
	}
	if (r.full_refused) {
		char when[64];
		struct tm tm;

		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S",
			 gmtime_r(&r.full_first, &tm));
		fprintf(stderr, "sluice-sim: warning: %zu jobs refused at "
			"MaxJobCount=%u (the first submitted %s): raise it "
			"with --set MaxJobCount=N to replay them\n",
			r.full_refused, conf->max_job_count, when);
	}
	if (o.csv_path)
		_write(o.csv_path, sim_report_csv, &t, &r);
	if (o.json_path)
		_write(o.json_path, sim_report_json, &t, &r);
	if (!o.quiet)
		sim_report_table(stdout, &t, &r);
	sim_result_free(&r);
	sim_engine_fini();
	trace_free(&t);
	trace_opts_free(&o.topts);
	xstrarray_free(o.sets);
	conf_destroy(conf);
	xfree(conf_path);
	return 0;
}
