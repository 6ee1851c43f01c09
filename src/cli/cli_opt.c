/* cli_opt.c — reading job options from the command line, the input
 * environment and "#SBATCH" directives through the one option table
 * (cli_opt_set.c), with Slurm's precedence between the three.
 */
#include "cli/cli_opt.h"

#include <ctype.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli_opt_int.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/spank.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define CLI_LONG_VAL_BASE 0x100
#define CLI_SPANK_VAL_BASE 0x10000   /* getopt val of SPANK option i */
#define CLI_MAX_DIRECTIVE_ARGS 256

void cli_opt_init(cli_job_opts_t *o, cli_cmd_t cmd, const char *prog)
{
	memset(o, 0, sizeof(*o));
	job_desc_init(&o->desc);
	o->cmd = cmd;
	o->prog = prog;
	o->immediate = -1;
}

void cli_opt_free(cli_job_opts_t *o)
{
	job_desc_free_members(&o->desc);
	xfree(o->wrap);
	xfree(o->export_file);
	xfree(o->propagate);
	xfree(o->gpus);
	xfree(o->gpu_bind);
	xfree(o->signal);
	xfree(o->clusters);
	xfree(o->distribution);
	cli_opt_raw_free(o);
}

static bool opt_for_cmd(const cli_job_opts_t *o, const cli_opt_def_t *d)
{
	return (d->cmds & o->cmd) != 0;
}

int cli_opt_apply(cli_job_opts_t *o, const cli_opt_def_t *d,
		  const char *arg, cli_src_t src)
{
	if (o->set_by[d->id] > src)
		return 0;
	o->set_by[d->id] = (uint8_t)src;
	o->cur_src = src;
	if (d->set(o, arg, d) < 0)
		return -1;
	cli_opt_raw_note(o, d, arg);     /* for cli_filter */
	return 0;
}

/* ---- getopt over the table ---- */

typedef struct {
	struct option *longopts;
	char *shorts;
} opt_getopt_t;

static void opt_getopt_build(const cli_job_opts_t *o, opt_getopt_t *g)
{
	size_t n = 0, nspank = spank_stack_option_count(o->spank), nextra = 0;

	while (o->extra_long && o->extra_long[nextra].name)
		nextra++;
	g->longopts = xcalloc(cli_opt_table_len + nspank + nextra + 1,
			      sizeof(struct option));
	g->shorts = xstrdup("+");
	for (size_t i = 0; i < nextra; i++)
		g->longopts[n++] = o->extra_long[i];
	if (o->extra_short)
		xstrcat(&g->shorts, o->extra_short);
	for (size_t i = 0; i < cli_opt_table_len; i++) {
		const cli_opt_def_t *d = &cli_opt_table[i];

		if (!opt_for_cmd(o, d))
			continue;
		g->longopts[n].name = d->name;
		g->longopts[n].has_arg = d->has_arg;
		g->longopts[n].val = CLI_LONG_VAL_BASE + (int)i;
		n++;
		if (!d->short_opt)
			continue;
		xstrcatc(&g->shorts, (char)d->short_opt);
		if (d->has_arg == required_argument)
			xstrcat(&g->shorts, ":");
		else if (d->has_arg == optional_argument)
			xstrcat(&g->shorts, "::");
	}
	for (size_t i = 0; i < nspank; i++, n++) {
		g->longopts[n].name = spank_stack_option_name(o->spank, i);
		g->longopts[n].has_arg = spank_stack_option_has_arg(o->spank, i);
		g->longopts[n].val = CLI_SPANK_VAL_BASE + (int)i;
	}
}

static void opt_getopt_free(opt_getopt_t *g)
{
	xfree(g->longopts);
	xfree(g->shorts);
}

static const cli_opt_def_t *opt_by_val(const cli_job_opts_t *o, int c)
{
	if (c >= CLI_LONG_VAL_BASE &&
	    (size_t)(c - CLI_LONG_VAL_BASE) < cli_opt_table_len)
		return &cli_opt_table[c - CLI_LONG_VAL_BASE];
	for (size_t i = 0; i < cli_opt_table_len; i++)
		if (cli_opt_table[i].short_opt == c &&
		    opt_for_cmd(o, &cli_opt_table[i]))
			return &cli_opt_table[i];
	return NULL;
}

/* Run getopt over argv (argv[0] replaced by the program name so messages
 * read "sbatch: unrecognized option"). */
static int opt_getopt_run(cli_job_opts_t *o, int argc, char **argv,
			  cli_src_t src, int *first_arg)
{
	opt_getopt_t g;
	char **av = xcalloc((size_t)argc + 1, sizeof(char *));
	int c, rc = 0;

	opt_getopt_build(o, &g);
	memcpy(av, argv, (size_t)argc * sizeof(char *));
	av[0] = (char *)o->prog;
	optind = 0;
	opterr = !o->quiet_getopt;
	while ((c = getopt_long(argc, av, g.shorts, g.longopts, NULL)) != -1) {
		const cli_opt_def_t *d = opt_by_val(o, c);

		if (o->extra_cb && c > 0 && c < CLI_LONG_VAL_BASE &&
		    c != '?' && c != ':' &&
		    (c >= 0x80 || (o->extra_short &&
				   strchr(o->extra_short, c)))) {
			if (o->extra_cb(o, c, optarg) < 0) {
				rc = -1;
				break;
			}
			continue;
		}
		if (c >= CLI_SPANK_VAL_BASE) {
			if (spank_stack_option_apply(o->spank,
						     (size_t)(c - CLI_SPANK_VAL_BASE),
						     optarg, src) < 0) {
				rc = -1;
				break;
			}
			continue;
		}
		if (c == '?' || c == ':' || !d) {
			if (!o->quiet_getopt)
				fprintf(stderr,
					"Try \"%s --help\" for more information\n",
					o->prog);
			rc = -1;
			break;
		}
		if (cli_opt_apply(o, d, optarg, src) < 0) {
			rc = -1;
			break;
		}
	}
	*first_arg = optind;
	opt_getopt_free(&g);
	xfree(av);
	return rc;
}

int cli_opt_parse_argv(cli_job_opts_t *o, int argc, char **argv,
		       int *first_arg)
{
	return opt_getopt_run(o, argc, argv, CLI_SRC_ARGV, first_arg);
}

/* ---- environment ---- */

/* names: one variable, or several "A|B" (the first one set counts);
 * *used is the one found. */
static const char *opt_env_get(char *const *envp, const char *names,
			       const char **used, size_t *used_len)
{
	for (const char *name = names; name; ) {
		const char *bar = strchr(name, '|');
		size_t n = bar ? (size_t)(bar - name) : strlen(name);

		for (size_t i = 0; envp && envp[i]; i++) {
			if (!strncmp(envp[i], name, n) && envp[i][n] == '=') {
				*used = name;
				*used_len = n;
				return envp[i] + n + 1;
			}
		}
		name = bar ? bar + 1 : NULL;
	}
	return NULL;
}

static int opt_cmd_index(cli_cmd_t cmd)
{
	switch (cmd) {
	case CLI_CMD_SALLOC:
		return 1;
	case CLI_CMD_SRUN:
		return 2;
	default:
		return 0;
	}
}

cli_src_t cli_opt_source(const cli_job_opts_t *o, const char *name)
{
	for (size_t i = 0; i < cli_opt_table_len; i++)
		if (cli_opt_table[i].name && !strcmp(cli_opt_table[i].name, name))
			return (cli_src_t) o->set_by[cli_opt_table[i].id];
	return CLI_SRC_NONE;
}

int cli_opt_parse_env(cli_job_opts_t *o, char *const *envp)
{
	int k = opt_cmd_index(o->cmd);

	for (size_t i = 0; i < cli_opt_table_len; i++) {
		const cli_opt_def_t *d = &cli_opt_table[i];
		const char *val, *name = NULL;
		size_t name_len = 0;

		if (!opt_for_cmd(o, d) || !d->env[k])
			continue;
		if (!(val = opt_env_get(envp, d->env[k], &name, &name_len)))
			continue;
		if (d->has_arg == no_argument ||
		    (d->has_arg == optional_argument && !*val))
			val = NULL;
		if (cli_opt_apply(o, d, val, CLI_SRC_ENV) < 0)
			return -1;
	}
	return 0;
}

/* ---- #SBATCH directives ---- */

char **cli_opt_split_directive(const char *text, size_t len)
{
	char **args = xcalloc(1, sizeof(char *));
	size_t i = 0, n = 0;

	while (i < len && n < CLI_MAX_DIRECTIVE_ARGS) {
		char *word = NULL;
		char quote = 0;

		while (i < len && isspace((unsigned char)text[i]))
			i++;
		if (i >= len || text[i] == '#')
			break;
		word = xstrdup("");
		for (; i < len; i++) {
			char ch = text[i];

			if (quote) {
				if (ch == quote)
					quote = 0;
				else
					xstrcatc(&word, ch);
			} else if (ch == '"' || ch == '\'') {
				quote = ch;
			} else if (isspace((unsigned char)ch)) {
				break;
			} else {
				xstrcatc(&word, ch);
			}
		}
		args = xstrarray_append(args, word);
		xfree(word);
		n++;
	}
	return args;
}

static bool opt_line_blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!isspace((unsigned char)s[i]))
			return false;
	return true;
}

static int opt_directive(cli_job_opts_t *o, const char *text, size_t len)
{
	char **args = cli_opt_split_directive(text, len);
	size_t n = xstrarray_len(args);
	char **argv = xcalloc(n + 2, sizeof(char *));
	int first = 0, rc = 0;

	argv[0] = (char *)o->prog;
	memcpy(argv + 1, args, n * sizeof(char *));
	if (n) {
		rc = opt_getopt_run(o, (int)n + 1, argv, CLI_SRC_SCRIPT, &first);
		if (!rc && first <= (int)n) {
			if (!o->quiet_getopt)
				error("Invalid directive found in batch script: %s",
				      argv[first]);
			rc = -1;
		}
	}
	xfree(argv);
	xstrarray_free(args);
	return rc;
}

int cli_opt_parse_script(cli_job_opts_t *o, const char *script, size_t len,
			 const char *prefix)
{
	size_t plen = strlen(prefix), pos = 0;

	while (pos < len) {
		const char *line = script + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t llen = nl ? (size_t)(nl - line) : len - pos;

		pos += llen + (nl ? 1 : 0);
		if (llen && line[llen - 1] == '\r')
			llen--;
		if (llen >= plen && !memcmp(line, prefix, plen)) {
			if (opt_directive(o, line + plen, llen - plen) < 0)
				return -1;
			continue;
		}
		if (llen && line[0] == '#')
			continue;
		if (!opt_line_blank(line, llen))
			break;   /* the first command ends the directives */
	}
	return 0;
}

char **cli_opt_het_sections(const char *script, size_t len, size_t *n)
{
	char **secs = xcalloc(2, sizeof(char *));
	size_t pos = 0, k = 0;

	secs[0] = xstrdup("");
	while (pos < len) {
		const char *line = script + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t llen = nl ? (size_t)(nl - line) : len - pos;

		pos += llen + (nl ? 1 : 0);
		if (llen >= 7 && !memcmp(line, "#SBATCH", 7)) {
			char **args = cli_opt_split_directive(line + 7,
							      llen - 7);

			if (args[0] && !args[1] &&
			    (!strcmp(args[0], "hetjob") ||
			     !strcmp(args[0], "packjob"))) {
				secs = xrealloc(secs, (k + 3) * sizeof(char *));
				secs[++k] = xstrdup("");
				secs[k + 1] = NULL;
			} else {
				xstrfmtcat(&secs[k], "%.*s\n", (int) llen,
					   line);
			}
			xstrarray_free(args);
			continue;
		}
		if (llen && line[0] == '#')
			continue;
		while (llen && (line[llen - 1] == ' ' || line[llen - 1] == '\t' ||
				line[llen - 1] == '\r'))
			llen--;
		if (llen)
			break;   /* the first command ends the directives */
	}
	*n = k + 1;
	return secs;
}

/* ---- checks across options ---- */

int cli_opt_check_times(const cli_job_opts_t *o)
{
	const job_desc_t *d = &o->desc;

	if (d->deadline && d->begin_time && d->begin_time > d->deadline) {
		error("Incompatible begin and deadline time specification");
		return -1;
	}
	return 0;
}

int cli_opt_validate(cli_job_opts_t *o)
{
	job_desc_t *d = &o->desc;

	if (cli_opt_check_times(o) < 0)
		return -1;

	if (d->num_tasks != NO_VAL32 && d->min_nodes != NO_VAL32 &&
	    d->num_tasks < d->min_nodes) {
		info("Warning: can't run %u processes on %u nodes, setting "
		     "nnodes to %u", d->num_tasks, d->min_nodes, d->num_tasks);
		d->min_nodes = d->num_tasks;
		if (d->max_nodes != NO_VAL32 && d->max_nodes > d->num_tasks)
			d->max_nodes = d->num_tasks;
	}
	return 0;
}

/* ---- signals ---- */

static const struct {
	const char *name;
	int num;
} opt_signals[] = {
	{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT },
	{ "ILL", SIGILL }, { "TRAP", SIGTRAP }, { "ABRT", SIGABRT },
	{ "BUS", SIGBUS }, { "FPE", SIGFPE }, { "KILL", SIGKILL },
	{ "USR1", SIGUSR1 }, { "SEGV", SIGSEGV }, { "USR2", SIGUSR2 },
	{ "PIPE", SIGPIPE }, { "ALRM", SIGALRM }, { "TERM", SIGTERM },
	{ "CHLD", SIGCHLD }, { "CONT", SIGCONT }, { "STOP", SIGSTOP },
	{ "TSTP", SIGTSTP }, { "TTIN", SIGTTIN }, { "TTOU", SIGTTOU },
	{ "URG", SIGURG }, { "XCPU", SIGXCPU }, { "XFSZ", SIGXFSZ },
	{ "VTALRM", SIGVTALRM }, { "PROF", SIGPROF }, { "WINCH", SIGWINCH },
	{ "IO", SIGIO }, { "PWR", SIGPWR }, { "SYS", SIGSYS },
};

int cli_opt_signal_from_string(const char *s)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	if (isdigit((unsigned char)s[0])) {
		v = strtol(s, &end, 10);
		return (*end || v < 0 || v > 0xffff) ? -1 : (int)v;
	}
	if (!strncasecmp(s, "SIG", 3))
		s += 3;
	for (size_t i = 0; i < sizeof(opt_signals) / sizeof(opt_signals[0]); i++)
		if (!strcasecmp(s, opt_signals[i].name))
			return opt_signals[i].num;
	return -1;
}

/* Options a component takes from the one before it unless it sets them
 * (the list of Slurm's heterogeneous job guide). */
void cli_opt_het_propagate(job_desc_t *d, const job_desc_t *prev)
{
#define HP_STR(f) if (!d->f && prev->f) d->f = xstrdup(prev->f)
#define HP_VAL(f, unset) if (d->f == (unset)) d->f = prev->f
	HP_STR(account); HP_STR(acctg_freq); HP_STR(comment);
	HP_STR(dependency); HP_STR(std_err); HP_STR(std_out);
	HP_STR(std_in); HP_STR(export_env); HP_STR(exc_nodes);
	HP_STR(partition); HP_STR(qos); HP_STR(reservation);
	HP_STR(wckey); HP_STR(mail_type); HP_STR(mail_user);
	HP_VAL(begin_time, 0); HP_VAL(deadline, 0);
	HP_VAL(time_limit, NO_VAL32); HP_VAL(time_min, NO_VAL32);
	HP_VAL(nice, NO_VAL32); HP_VAL(priority, NO_VAL32);
	HP_VAL(requeue, NO_VAL16); HP_VAL(open_mode, 0);
	HP_VAL(kill_on_node_fail, NO_VAL16); HP_VAL(immediate, 0);
	HP_VAL(profile, 0);
	if (!d->hold)
		d->hold = prev->hold;
	if (d->warn_signal == NO_VAL16) {
		d->warn_signal = prev->warn_signal;
		d->warn_time = prev->warn_time;
		d->warn_flags = prev->warn_flags;
	}
#undef HP_STR
#undef HP_VAL
}
