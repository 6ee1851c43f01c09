/* scrontab — install, list, edit and remove a user's Slurm crontab.
 *
 * Each entry (crontab(5) time fields and a command) becomes a batch job
 * the controller runs at each matching minute (ctld/crontab.h).  "#SCRON"
 * lines before an entry carry sbatch options for it alone, read by the
 * same option table as sbatch (cli_opt.h); options start over at each
 * entry.  "NAME=value" lines set variables that later commands use as
 * $NAME.  The whole crontab is checked here, then sent at once: the
 * controller installs all of it or none.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/cli_filter.h"
#include "cli/cli_opt.h"
#include "common/cron_spec.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

static const char usage_text[] =
"Usage: scrontab [-u user] [-e | -l | -r] [file]\n"
"  -e            edit the crontab ($VISUAL, else $EDITOR, else vi)\n"
"  -l            list the crontab\n"
"  -r            remove the crontab (and cancel its jobs)\n"
"  -u user       the crontab of this user (operators, root, SlurmUser)\n"
"  -v            more messages\n"
"  file          install this file (\"-\": standard input)\n";

static const char default_crontab[] =
"# Welcome to scrontab, Slurm's cron-like interface.\n"
"#\n"
"# Each entry is five time fields (minute hour day-of-month month\n"
"# day-of-week, as crontab(5)) and a command, run as a batch job.\n"
"# Lines starting with #SCRON give sbatch options to the next entry:\n"
"#\n"
"# #SCRON -p debug -t 10\n"
"# 0 * * * * /path/to/hourly_script\n";

typedef struct {
	uid_t  uid;
	gid_t  gid;
	char  *user;
	char  *home;
	char  *shell;
	int    verbose;
	bool   edit, list, remove, first_form;
	const char *infile;
} opts_t;

typedef struct {
	crontab_entry_t *v;
	uint32_t         n;
} entries_t;

typedef struct {
	char *name;
	char *value;
} var_t;

static void usage_exit(void)
{
	fputs(usage_text, stderr);
	exit(1);
}

static void set_user(opts_t *o, const char *name)
{
	struct passwd *pw = NULL;
	char *end;
	unsigned long v;

	if (name) {
		errno = 0;
		v = strtoul(name, &end, 10);
		pw = getpwnam(name);
		if (!pw && *name && !*end)
			pw = getpwuid((uid_t) v);
		if (!pw)
			fatal("Could not find user %s", name);
	} else if (!(pw = getpwuid(getuid()))) {
		fatal("getpwuid(%u) failed", (unsigned) getuid());
	}
	xfree(o->user);
	xfree(o->home);
	xfree(o->shell);
	o->uid = pw->pw_uid;
	o->gid = pw->pw_gid;
	o->user = xstrdup(pw->pw_name);
	o->home = xstrdup(pw->pw_dir);
	o->shell = xstrdup(pw->pw_shell && *pw->pw_shell ? pw->pw_shell :
			   "/bin/sh");
}

static void parse_args(opts_t *o, int argc, char **argv)
{
	int c;

	set_user(o, NULL);
	opterr = 0;
	while ((c = getopt(argc, argv, "elru:v")) != -1) {
		switch (c) {
		case 'e':
			if (!isatty(STDIN_FILENO))
				fatal("Standard input is not a TTY");
			o->edit = true;
			break;
		case 'l': o->list = true; break;
		case 'r': o->remove = true; break;
		case 'u': set_user(o, optarg); break;
		case 'v': o->verbose++; break;
		default: usage_exit();
		}
	}
	if (o->edit + o->list + o->remove > 1)
		usage_exit();
	if (o->edit || o->list || o->remove) {
		if (optind < argc)
			usage_exit();
		return;
	}
	if (argc - optind > 1)
		usage_exit();
	if (optind < argc) {
		o->first_form = true;
		o->infile = argv[optind];
	} else if (isatty(STDIN_FILENO)) {
		o->edit = true;
	} else {
		o->first_form = true;
		o->infile = "-";
	}
}

static bool scron_param(const char *word)
{
	const char *p = cli_conf()->scron_params;
	size_t n = strlen(word);

	while (p && *p) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncasecmp(p, word, n))
			return true;
		p += len + (p[len] == ',');
	}
	return false;
}

static char *read_fd(int fd)
{
	char *buf = NULL;
	size_t cap = 0, n = 0;
	ssize_t got;

	for (;;) {
		if (n + 4096 + 1 > cap) {
			size_t ncap = cap ? cap * 2 : 8192;

			buf = xrealloc_sz(buf, cap, ncap);
			cap = ncap;
		}
		got = read(fd, buf + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t) got;
		if (n > CRONTAB_MAX_BYTES)
			fatal("crontab is larger than %d bytes",
			      CRONTAB_MAX_BYTES);
	}
	buf = buf ? buf : xmalloc(1);
	buf[n] = '\0';
	return buf;
}

static char *read_infile(const char *path)
{
	int fd;
	char *s;

	if (!strcmp(path, "-"))
		return read_fd(STDIN_FILENO);
	if ((fd = open(path, O_RDONLY)) < 0)
		fatal("failed to open %s", path);
	s = read_fd(fd);
	close(fd);
	return s;
}

/* ---- parsing ---- */

static void entries_free(entries_t *e)
{
	for (uint32_t i = 0; i < e->n; i++) {
		job_desc_free_members(&e->v[i].desc);
		xfree(e->v[i].cronspec);
	}
	xfree(e->v);
	e->n = 0;
}

static void vars_free(var_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		xfree(v[i].name);
		xfree(v[i].value);
	}
	xfree(v);
}

/* "NAME=value" (blanks around '=', value maybe quoted): 1 and the parts,
 * 0 if the line is no such thing. */
static int parse_var(const char *p, char **name, char **value)
{
	const char *s = p, *v;
	size_t len;

	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	while (isalnum((unsigned char)*s) || *s == '_')
		s++;
	len = (size_t) (s - p);
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s != '=')
		return 0;
	s++;
	while (*s == ' ' || *s == '\t')
		s++;
	v = s;
	*name = xstrndup(p, len);
	len = strcspn(v, "\n");
	while (len && (v[len - 1] == ' ' || v[len - 1] == '\t'))
		len--;
	if (len >= 2 && (v[0] == '"' || v[0] == '\'') && v[len - 1] == v[0]) {
		v++;
		len -= 2;
	}
	*value = xstrndup(v, len);
	return 1;
}

static void set_var(var_t **vars, size_t *n, char *name, char *value)
{
	for (size_t i = 0; i < *n; i++) {
		if (!strcmp((*vars)[i].name, name)) {
			xfree((*vars)[i].value);
			(*vars)[i].value = value;
			xfree(name);
			return;
		}
	}
	*vars = xrealloc_sz(*vars, *n * sizeof(**vars),
			    (*n + 1) * sizeof(**vars));
	(*vars)[*n].name = name;
	(*vars)[(*n)++].value = value;
}

/* The command with each $NAME replaced (longest names first would be
 * cleverer; as cron, a name is what its line set). */
static char *expand(const char *cmd, const var_t *vars, size_t n)
{
	char *out = xstrdup(cmd);

	for (size_t i = 0; i < n; i++) {
		char *key = xstrdup_printf("$%s", vars[i].name), *hit;
		size_t off = 0;

		while ((hit = strstr(out + off, key))) {
			size_t at = (size_t) (hit - out);
			char *next = xstrdup_printf("%.*s%s%s", (int) at, out,
						    vars[i].value,
						    hit + strlen(key));

			off = at + strlen(vars[i].value);
			xfree(out);
			out = next;
		}
		xfree(key);
	}
	return out;
}

/* What cron gives a command: the user's HOME, LOGNAME, USER, SHELL and
 * a PATH (Sluice's nodes do not load the user's login environment). */
static char **env_add(char **env, const char *key, const char *value)
{
	char *kv = xstrdup_printf("%s=%s", key, value);

	env = xstrarray_append(env, kv);
	xfree(kv);
	return env;
}

static char **entry_env(const opts_t *o)
{
	char **env = xcalloc(1, sizeof(char *));

	env = env_add(env, "HOME", o->home);
	env = env_add(env, "LOGNAME", o->user);
	env = env_add(env, "USER", o->user);
	env = env_add(env, "SHELL", o->shell);
	env = xstrarray_append(env, "PATH=/usr/local/bin:/usr/bin:/bin");
	env = xstrarray_append(env, "SLURM_GET_USER_ENV=1");
	return env;
}

/* Options sbatch takes that a crontab entry cannot. */
static const char *refused_option(const cli_job_opts_t *c)
{
	if (c->desc.array_inx)
		return "--array";
	if (c->wrap)
		return "--wrap";
	if (c->wait)
		return "--wait";
	if (c->test_only)
		return "--test-only";
	if (c->desc.begin_time)
		return "--begin";
	return NULL;
}

typedef struct {
	const opts_t *o;
	entries_t    *out;
	cli_job_opts_t opt;
	bool          have_opt;
	char         *script;     /* the job's script so far */
	uint32_t      line_start; /* first #SCRON line of the entry, or 0 */
	var_t        *vars;
	size_t        nvars;
} parse_t;

static void entry_reset(parse_t *p)
{
	if (p->have_opt)
		cli_opt_free(&p->opt);
	cli_opt_init(&p->opt, CLI_CMD_SBATCH, "scrontab");
	cli_filter_setup_defaults(&p->opt);
	p->have_opt = true;
	xfree(p->script);
	p->script = xstrdup("#!/bin/sh\n"
			    "# This job was submitted through scrontab\n");
	p->line_start = 0;
}

/* An entry line: its job.  0, or -1 after the error. */
static int add_entry(parse_t *p, const char *pos, uint32_t lineno)
{
	const opts_t *o = p->o;
	crontab_entry_t *e;
	cron_spec_t spec;
	const char *rest, *bad;
	char err[160], *cmd;
	size_t len;

	if (cron_spec_parse(pos, &spec, &rest, err, sizeof(err)) < 0) {
		error("line %u: %s", lineno, err);
		return -1;
	}
	len = strcspn(rest, "\n");
	while (len && (rest[len - 1] == ' ' || rest[len - 1] == '\t'))
		len--;
	if (!len) {
		error("line %u: no command after the time specification",
		      lineno);
		return -1;
	}
	if ((bad = refused_option(&p->opt))) {
		error("line %u: %s cannot be used in a crontab entry",
		      p->line_start ? p->line_start : lineno, bad);
		return -1;
	}
	if (cli_opt_validate(&p->opt) < 0)
		return -1;
	cli_filter_pre_submit(&p->opt);
	cmd = xstrndup(rest, len);
	{
		char *x = expand(cmd, p->vars, p->nvars);

		xfree(cmd);
		cmd = x;
	}
	p->out->v = xrealloc_sz(p->out->v, p->out->n * sizeof(*p->out->v),
				(p->out->n + 1) * sizeof(*p->out->v));
	e = &p->out->v[p->out->n++];
	memset(e, 0, sizeof(*e));
	e->desc = p->opt.desc;
	memset(&p->opt.desc, 0, sizeof(p->opt.desc));
	job_desc_init(&p->opt.desc);
	e->cronspec = xstrndup(pos, (size_t) (rest - pos));
	len = strlen(e->cronspec);
	while (len && (e->cronspec[len - 1] == ' ' ||
		       e->cronspec[len - 1] == '\t'))
		e->cronspec[--len] = '\0';
	e->line_start = p->line_start ? p->line_start : lineno;
	e->line_end = lineno;
	xstrfmtcat(&p->script, "# crontab time request was: '%s'\n%s\n",
		   e->cronspec, cmd);
	e->desc.script = p->script;
	p->script = NULL;
	xstrarray_free(e->desc.environment);
	e->desc.environment = entry_env(o);
	xstrarray_free(e->desc.argv);
	e->desc.argv = xcalloc(1, sizeof(char *));
	e->desc.argv = xstrarray_append(e->desc.argv, cmd);
	if (!e->desc.name)
		e->desc.name = xstrndup(cmd, strcspn(cmd, " \t"));
	if (!e->desc.work_dir)
		e->desc.work_dir = xstrdup(o->home);
	e->desc.user_id = o->uid;
	e->desc.group_id = o->gid;
	xfree(e->desc.user_name);
	e->desc.user_name = xstrdup(o->user);
	xfree(cmd);
	return 0;
}

/* Every entry of text: 0, or -1 with *bad_line (1-based) after the
 * error was printed. */
static int parse_crontab(const opts_t *o, const char *text, entries_t *out,
			 uint32_t *bad_line)
{
	parse_t p = { .o = o, .out = out };
	uint32_t lineno = 0;
	const char *line = text;
	int rc = 0;

	entry_reset(&p);
	while (line && *line) {
		const char *nl = strchr(line, '\n'), *pos = line;
		size_t llen = nl ? (size_t) (nl - line) : strlen(line);
		char *name, *value;

		lineno++;
		while (*pos == ' ' || *pos == '\t')
			pos++;
		if (*pos == '\n' || *pos == '\0') {
			/* blank */
		} else if (!strncmp(pos, "#SCRON", 6)) {
			size_t n = llen - (size_t) (pos - line);

			xstrfmtcat(&p.script, "%.*s\n", (int) llen, line);
			if (!p.line_start)
				p.line_start = lineno;
			if (cli_opt_parse_script(&p.opt, pos, n, "#SCRON") < 0) {
				error("line %u: bad #SCRON option", lineno);
				rc = -1;
			}
		} else if (*pos == '#') {
			/* a comment */
		} else if (parse_var(pos, &name, &value)) {
			set_var(&p.vars, &p.nvars, name, value);
		} else if (add_entry(&p, pos, lineno) < 0) {
			rc = -1;
		} else {
			entry_reset(&p);
		}
		if (rc) {
			*bad_line = lineno;
			break;
		}
		if (out->n > CRONTAB_MAX_ENTRIES) {
			error("more than %d entries", CRONTAB_MAX_ENTRIES);
			*bad_line = lineno;
			rc = -1;
			break;
		}
		line = nl ? nl + 1 : NULL;
	}
	if (p.have_opt)
		cli_opt_free(&p.opt);
	xfree(p.script);
	vars_free(p.vars, p.nvars);
	if (rc)
		entries_free(out);
	return rc;
}

/* ---- requests ---- */

static char *request_crontab(const opts_t *o, char **disabled)
{
	crontab_request_msg_t req = { .user_id = o->uid };
	const crontab_resp_msg_t *r;
	slurm_msg_t resp;
	char *text;
	int rc = cli_ctld_rpc(REQUEST_CRONTAB, &req, &resp);

	if (rc)
		fatal("slurm_request_crontab failed: %s", cli_comm_strerror(rc));
	if (resp.type != RESPONSE_CRONTAB || !resp.data) {
		rc = cli_resp_rc(&resp);
		fatal("slurm_request_crontab failed: %s",
		      slurm_strerror(rc ? rc : SLURM_UNEXPECTED_MSG_ERROR));
	}
	r = resp.data;
	text = xstrdup(r->crontab);
	*disabled = xstrdup(r->disabled_lines);
	msg_free(&resp);
	return text;
}

/* Prefix each line named in ranges ("3,5-7", 1-based) with prefix. */
static char *mark_lines(const char *text, const char *ranges,
			const char *prefix)
{
	char *out = NULL;
	const char *line = text;
	uint32_t lineno = 0;

	if (!text || !ranges || !*ranges)
		return xstrdup(text);
	while (line && *line) {
		const char *nl = strchr(line, '\n'), *r = ranges;
		size_t len = nl ? (size_t) (nl - line) : strlen(line);
		bool hit = false;

		lineno++;
		while (*r && !hit) {
			char *end;
			unsigned long a = strtoul(r, &end, 10), b = a;

			if (*end == '-')
				b = strtoul(end + 1, &end, 10);
			hit = lineno >= a && lineno <= b;
			r = *end == ',' ? end + 1 : end + strlen(end);
		}
		xstrfmtcat(&out, "%s%.*s\n", hit ? prefix : "", (int) len, line);
		line = nl ? nl + 1 : NULL;
	}
	return out ? out : xstrdup("");
}

/* Send the crontab (NULL: remove it).  0, or the refusal's rc with
 * its lines and message (xfree) when it names an entry. */
static int update_crontab(const opts_t *o, const char *text, entries_t *e,
			  char **lines, char **msg, uint32_t **ids,
			  uint32_t *nids)
{
	crontab_update_msg_t req = {
		.user_id = o->uid, .group_id = o->gid, .crontab = (char *) text,
		.entry_cnt = e ? e->n : 0, .entries = e ? e->v : NULL,
	};
	const crontab_update_resp_msg_t *r;
	slurm_msg_t resp;
	int rc = cli_ctld_rpc(REQUEST_UPDATE_CRONTAB, &req, &resp);

	*lines = *msg = NULL;
	if (rc)
		fatal("slurm_update_crontab failed: %s", cli_comm_strerror(rc));
	if (resp.type != RESPONSE_UPDATE_CRONTAB || !resp.data) {
		rc = cli_resp_rc(&resp);
		msg_free(&resp);
		return rc ? rc : SLURM_UNEXPECTED_MSG_ERROR;
	}
	r = resp.data;
	rc = (int) r->rc;
	*lines = xstrdup(r->failed_lines);
	*msg = xstrdup(r->err_msg);
	if (ids && !rc) {
		*ids = xcalloc(r->job_cnt ? r->job_cnt : 1, sizeof(**ids));
		memcpy(*ids, r->job_ids, r->job_cnt * sizeof(**ids));
		*nids = r->job_cnt;
	}
	msg_free(&resp);
	return rc;
}

/* ---- editing ---- */

static char *edit_text(const char *text)
{
	const char *tmpdir = getenv("TMPDIR"), *editor;
	char *path = xstrdup_printf("%s/scrontab-XXXXXX",
				    tmpdir && *tmpdir ? tmpdir : "/tmp");
	char *out;
	int fd, st;
	pid_t pid;
	size_t len = strlen(text);

	umask(0077);
	if ((fd = mkstemp(path)) < 0)
		fatal("error creating temp crontab file '%s': %m", path);
	if (write(fd, text, len) != (ssize_t) len) {
		unlink(path);
		fatal("error writing to temp crontab file '%s': %m", path);
	}
	close(fd);
	if (!(editor = getenv("VISUAL")) || !*editor)
		if (!(editor = getenv("EDITOR")) || !*editor)
			editor = "vi";
	if ((pid = fork()) < 0) {
		unlink(path);
		fatal("cannot fork");
	}
	if (!pid) {
		/* $EDITOR may carry arguments ("emacs -nw"), as cron's */
		execl("/bin/sh", "sh", "-c", "exec $0 \"$1\"", editor, path,
		      (char *) NULL);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (st) {
		unlink(path);
		fatal("editor returned non-zero exit code");
	}
	if ((fd = open(path, O_RDONLY)) < 0) {
		unlink(path);
		fatal("error reopening temp crontab file '%s': %m", path);
	}
	out = read_fd(fd);
	close(fd);
	unlink(path);
	xfree(path);
	return out;
}

/* After an error in -e: again (true) or give up (false). */
static bool ask_retry(const char *what)
{
	int c = 0;

	for (;;) {
		printf("%s"
		       "Do you want to retry the edit? (y/n) ", what);
		fflush(stdout);
		c = getchar();
		while (c != EOF && c != '\n' && getchar() != '\n')
			;
		if (c == EOF || tolower(c) == 'n')
			return false;
		if (tolower(c) == 'y')
			return true;
	}
}

static void install(const opts_t *o, char *text, const char *orig)
{
	for (;;) {
		entries_t e = { 0 };
		uint32_t bad = 0, *ids = NULL, nids = 0;
		char *lines, *msg, rng[16], *marked;
		int rc;

		if (o->edit) {
			char *n = edit_text(text);

			if (orig && !strcmp(n, orig)) {
				info("No modification made");
				xfree(n);
				xfree(text);
				return;
			}
			xfree(text);
			text = n;
		}
		if (parse_crontab(o, text, &e, &bad) < 0) {
			printf("There are errors in your crontab.\n");
			if (!o->edit)
				exit(1);
			snprintf(rng, sizeof(rng), "%u", bad);
			if (!ask_retry("The failed line(s) is commented out "
				       "with #BAD:\n"))
				exit(0);
			marked = mark_lines(text, rng, "#BAD: ");
			xfree(text);
			text = marked;
			continue;
		}
		rc = update_crontab(o, text, &e, &lines, &msg, &ids, &nids);
		entries_free(&e);
		if (!rc) {
			cli_job_opts_t v;

			cli_opt_init(&v, CLI_CMD_SBATCH, "scrontab");
			for (uint32_t i = 0; i < nids; i++)
				cli_filter_post_submit(&v, ids[i], NO_VAL32);
			cli_opt_free(&v);
			xfree(ids);
			xfree(text);
			return;
		}
		if (!lines)
			fatal("slurm_update_crontab failed: %s%s%s",
			      slurm_strerror(rc), msg ? ": " : "",
			      msg ? msg : "");
		printf("There was an issue with the job submission on lines %s\n"
		       "The error code return was: %s\n"
		       "The error message was: %s\n", lines, slurm_strerror(rc),
		       msg ? msg : slurm_strerror(rc));
		xfree(msg);
		if (!o->edit)
			exit(1);
		if (!ask_retry("The failed lines are commented out with "
			       "#BAD:\n"))
			exit(0);
		marked = mark_lines(text, lines, "#BAD: ");
		xfree(lines);
		xfree(text);
		text = marked;
	}
}

int main(int argc, char **argv)
{
	opts_t o = { 0 };
	char *text = NULL, *disabled = NULL, *shown;

	cli_init_noconf("scrontab", 0);
	parse_args(&o, argc, argv);
	cli_init("scrontab", o.verbose);
	if (!scron_param("enable"))
		fatal("scrontab is disabled on this cluster");
	if (o.first_form)
		text = read_infile(o.infile);
	if (o.remove) {
		char *lines, *msg;
		int rc = update_crontab(&o, NULL, NULL, &lines, &msg, NULL,
					NULL);

		if (rc)
			fatal("slurm_remove_crontab failed: %s",
			      slurm_strerror(rc));
		return 0;
	}
	if (o.edit || o.list) {
		text = request_crontab(&o, &disabled);
		shown = mark_lines(text, disabled, "#DISABLED: ");
		xfree(text);
		xfree(disabled);
		text = shown;
	}
	if (o.list) {
		if (!text) {
			printf("no crontab for %s\n", o.user);
			return 1;
		}
		printf("%s", text);
		xfree(text);
		return 0;
	}
	if (o.edit) {
		char *orig = xstrdup(text ? text : default_crontab);

		xfree(text);
		install(&o, xstrdup(orig), orig);
		xfree(orig);
	} else {
		install(&o, text, NULL);
	}
	return 0;
}
