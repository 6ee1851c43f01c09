/* spank.c — the SPANK plugin stack: load, call, options (see spank.h). */
#define _GNU_SOURCE
#include "common/spank.h"

#include <ctype.h>
#include <dlfcn.h>
#include <string.h>

#include "common/log.h"
#include "common/spank_int.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define OPT_ENV_PREFIX "_SLURM_SPANK_OPTION_"
#define JOB_ENV_PREFIX "SLURM_SPANK_"

static spank_stack_t *current;

static const struct {
	const char *sym;
	const char *name;      /* as messages name it */
} cb_names[SPANK_CB_COUNT] = {
	[SPANK_CB_INIT] = { "slurm_spank_init", "init" },
	[SPANK_CB_JOB_PROLOG] = { "slurm_spank_job_prolog", "job_prolog" },
	[SPANK_CB_INIT_POST_OPT] = { "slurm_spank_init_post_opt",
				     "init_post_opt" },
	[SPANK_CB_LOCAL_USER_INIT] = { "slurm_spank_local_user_init",
				       "local_user_init" },
	[SPANK_CB_USER_INIT] = { "slurm_spank_user_init", "user_init" },
	[SPANK_CB_TASK_INIT_PRIVILEGED] = { "slurm_spank_task_init_privileged",
					    "task_init_privileged" },
	[SPANK_CB_TASK_INIT] = { "slurm_spank_task_init", "task_init" },
	[SPANK_CB_TASK_POST_FORK] = { "slurm_spank_task_post_fork",
				      "task_post_fork" },
	[SPANK_CB_TASK_EXIT] = { "slurm_spank_task_exit", "task_exit" },
	[SPANK_CB_JOB_EPILOG] = { "slurm_spank_job_epilog", "job_epilog" },
	[SPANK_CB_SLURMD_EXIT] = { "slurm_spank_slurmd_exit", "slurmd_exit" },
	[SPANK_CB_EXIT] = { "slurm_spank_exit", "exit" },
};

spank_stack_t *spank_current(void)
{
	return current;
}

/* ---- loading --------------------------------------------------------- */

static bool version_ok(const char *path, void *dl)
{
	const unsigned int *ver = dlsym(dl, "plugin_version");
	unsigned int v;

	if (!ver) {
		error("spank: %s: plugin_version missing", path);
		return false;
	}
	v = *ver;
	if (SLURM_VERSION_MAJOR(v) == SLURM_VERSION_MAJOR(SLURM_VERSION_NUMBER) &&
	    SLURM_VERSION_MINOR(v) == SLURM_VERSION_MINOR(SLURM_VERSION_NUMBER))
		return true;
	/* info, not error: Slurm prints it so ("sbatch: plugin_load_...") */
	info("plugin_load_from_file: Incompatible Slurm plugin %s version "
	     "(%u.%02u.%u)", path, SLURM_VERSION_MAJOR(v),
	     SLURM_VERSION_MINOR(v), SLURM_VERSION_MICRO(v));
	return false;
}

/* dlopen and check one plugin; 0 or -1 after logging why. */
static int plugin_open(spank_plugin_t *p, const char *path)
{
	const char *type, *name;

	/* RTLD_LOCAL: every plugin defines plugin_name, spank_options and
	 * the like; loaded global, the first plugin's definitions would
	 * interpose on the ones a later plugin uses itself. */
	p->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!p->dl) {
		error("plugin_load_from_file: dlopen(%s): %s", path, dlerror());
		error("spank: %s: Dlopen of plugin file failed", path);
		return -1;
	}
	type = dlsym(p->dl, "plugin_type");
	name = dlsym(p->dl, "plugin_name");
	if (!type || !name || strcmp(type, "spank")) {
		error("spank: %s: not a SPANK plugin (plugin_type %s)", path,
		      type ? type : "missing");
		return -1;
	}
	if (!version_ok(path, p->dl))
		return -1;
	p->name = xstrdup(name);
	for (int i = 0; i < SPANK_CB_COUNT; i++)
		p->cb[i] = (spank_f *) dlsym(p->dl, cb_names[i].sym);
	p->failure_mode = dlsym(p->dl, "slurm_spank_init_failure_mode");
	return 0;
}

static void plugin_close(spank_plugin_t *p)
{
	if (p->dl)
		dlclose(p->dl);
	xfree(p->name);
	xfree(p->path);
	xstrarray_free(p->argv);
	memset(p, 0, sizeof(*p));
}

static bool ctx_has_options(spank_context_t ctx)
{
	return ctx == S_CTX_LOCAL || ctx == S_CTX_ALLOCATOR ||
	       ctx == S_CTX_REMOTE;
}

/* The static spank_options[] table, if the plugin has one. */
static int plugin_static_options(spank_stack_t *s, size_t idx)
{
	struct spank_option *t = dlsym(s->plugins[idx].dl, "spank_options");

	if (!t || !ctx_has_options(s->ctx))
		return 0;
	for (; t->name; t++) {
		if (spank_stack_add_option(s, idx, t) != ESPANK_SUCCESS)
			return -1;
	}
	return 0;
}

static int stack_load(spank_stack_t *s, const spank_conf_t *c)
{
	for (size_t i = 0; i < c->cnt; i++) {
		const spank_conf_entry_t *e = &c->ent[i];
		spank_plugin_t *p = &s->plugins[s->nplugins];

		if (plugin_open(p, e->path) < 0) {
			plugin_close(p);
			if (e->required) {
				error("spank: %s:%d: Failed to load plugin %s. "
				      "Aborting.", e->file, e->line, e->path);
				return -1;
			}
			/* sic: Slurm's message has no space after "%d:" */
			error("spank: %s:%d:Failed to load optional plugin "
			      "%s. Ignored.", e->file, e->line, e->path);
			continue;
		}
		p->path = xstrdup(e->path);
		p->file = strrchr(p->path, '/') ? strrchr(p->path, '/') + 1
						: p->path;
		p->required = e->required;
		p->argc = e->argc;
		p->argv = xstrarray_dup(e->argv);
		s->nplugins++;
		if (plugin_static_options(s, s->nplugins - 1) < 0 &&
		    e->required)
			return -1;
		debug("spank: %s:%d: Loaded plugin %s", e->file, e->line,
		      e->path);
	}
	return 0;
}

spank_stack_t *spank_stack_create(spank_context_t ctx, const char *conf_path,
				  const char *plugin_dir, spank_job_t *job)
{
	spank_stack_t *s = xmalloc(sizeof(*s));
	spank_conf_t c;
	char err[1024] = "";

	s->ctx = ctx;
	s->job = job;
	s->jc_env = xcalloc(1, sizeof(char *));
	current = s;
	if (spank_conf_parse_file(conf_path, plugin_dir, &c, err,
				  sizeof(err)) < 0) {
		error("spank: %s", err);
		goto error;
	}
	s->plugins = xcalloc(c.cnt + 1, sizeof(spank_plugin_t));
	if (stack_load(s, &c) < 0) {
		spank_conf_free(&c);
		goto error;
	}
	spank_conf_free(&c);
	return s;
error:
	spank_stack_destroy(s);
	return NULL;
}

void spank_stack_destroy(spank_stack_t *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nplugins; i++)
		plugin_close(&s->plugins[i]);
	for (size_t i = 0; i < s->nopts; i++) {
		xfree(s->opts[i].opt.name);
		xfree(s->opts[i].opt.arginfo);
		xfree(s->opts[i].opt.usage);
		xfree(s->opts[i].arg);
	}
	xfree(s->opts);
	xfree(s->plugins);
	xstrarray_free(s->jc_env);
	if (current == s)
		current = NULL;
	xfree(s);
}

void spank_stack_set_job(spank_stack_t *s, spank_job_t *job)
{
	if (s)
		s->job = job;
}

size_t spank_stack_plugin_count(const spank_stack_t *s)
{
	return s ? s->nplugins : 0;
}

/* ---- calling --------------------------------------------------------- */

int spank_stack_call(spank_stack_t *s, spank_cb_t cb, spank_task_t *task,
		     int *init_failure)
{
	struct spank_handle h = {
		.magic = SPANK_HANDLE_MAGIC, .stack = s, .cb = cb,
		.task = task,
	};
	int rc = 0;

	if (init_failure)
		*init_failure = 0;
	for (size_t i = 0; s && i < s->nplugins; i++) {
		spank_plugin_t *p = &s->plugins[i];
		int r;

		if (!p->cb[cb])
			continue;
		h.plugin = i;
		r = p->cb[cb](&h, p->argc, p->argv);
		debug2("spank: %s: %s = %d", p->file, cb_names[cb].name, r);
		if (r >= 0)
			continue;
		if (!p->required) {
			verbose("spank: optional plugin %s: %s() failed with "
				"rc=%d", p->file, cb_names[cb].name, r);
			continue;
		}
		error("spank: required plugin %s: %s() failed with rc=%d",
		      p->file, cb_names[cb].name, r);
		if (init_failure && p->failure_mode)
			*init_failure = *p->failure_mode;
		rc = -1;
		break;
	}
	return rc;
}

/* ---- options --------------------------------------------------------- */

static spank_opt_t *find_option(spank_stack_t *s, const char *name)
{
	for (size_t i = 0; i < s->nopts; i++)
		if (!strcmp(s->opts[i].opt.name, name))
			return &s->opts[i];
	return NULL;
}

int spank_stack_add_option(spank_stack_t *s, size_t p,
			   const struct spank_option *opt)
{
	spank_opt_t *o;

	if (!opt || !opt->name || !*opt->name)
		return ESPANK_BAD_ARG;
	if (strlen(opt->name) > SPANK_OPTION_MAXLEN) {
		error("spank: %s: option \"%s\" longer than %d characters",
		      s->plugins[p].name, opt->name, SPANK_OPTION_MAXLEN);
		return ESPANK_BAD_ARG;
	}
	if ((o = find_option(s, opt->name))) {
		error("spank: option \"%s\" provided by both %s and %s",
		      opt->name, s->plugins[o->plugin].name,
		      s->plugins[p].name);
		return ESPANK_BAD_ARG;
	}
	s->opts = xrealloc_sz(s->opts, s->nopts * sizeof(*o),
			      (s->nopts + 1) * sizeof(*o));
	o = &s->opts[s->nopts++];
	o->opt = *opt;
	o->opt.name = xstrdup(opt->name);
	o->opt.arginfo = xstrdup(opt->arginfo);
	o->opt.usage = xstrdup(opt->usage);
	o->plugin = p;
	return ESPANK_SUCCESS;
}

size_t spank_stack_option_count(const spank_stack_t *s)
{
	return s ? s->nopts : 0;
}

const char *spank_stack_option_name(const spank_stack_t *s, size_t i)
{
	return i < s->nopts ? s->opts[i].opt.name : NULL;
}

int spank_stack_option_has_arg(const spank_stack_t *s, size_t i)
{
	return i < s->nopts ? s->opts[i].opt.has_arg : 0;
}

static int run_option_cb(spank_stack_t *s, spank_opt_t *o, int remote)
{
	if (!o->opt.cb)
		return 0;
	return o->opt.cb(o->opt.val, o->arg, remote);
}

int spank_stack_option_apply(spank_stack_t *s, size_t i, const char *arg,
			     int src)
{
	spank_opt_t *o;

	if (!s || i >= s->nopts)
		return -1;
	o = &s->opts[i];
	if (o->given && o->src > src)
		return 0;
	o->given = true;
	o->src = src;
	xfree(o->arg);
	o->arg = xstrdup(arg);
	if (run_option_cb(s, o, s->ctx == S_CTX_REMOTE)) {
		error("Invalid --%s argument: %s", o->opt.name,
		      arg ? arg : "");
		return -1;
	}
	return 0;
}

char *spank_option_env_name(const char *plugin, const char *name)
{
	char *v = xstrdup_printf(OPT_ENV_PREFIX "%s_%s", plugin, name);

	for (char *c = v + strlen(OPT_ENV_PREFIX); *c; c++)
		if (!isalnum((unsigned char)*c))
			*c = '_';
	return v;
}

/* Value of the option in env under either spelling, or NULL. */
static const char *option_env_value(const spank_stack_t *s,
				    const spank_opt_t *o, char *const *env)
{
	char *name = spank_option_env_name(s->plugins[o->plugin].name,
					   o->opt.name);
	size_t n = strlen(name), pn = strlen(JOB_ENV_PREFIX);
	const char *val = NULL;

	for (size_t i = 0; env && env[i] && !val; i++) {
		const char *e = env[i];

		if (!strncmp(e, JOB_ENV_PREFIX, pn) &&
		    !strncmp(e + pn, name, n) && e[pn + n] == '=')
			val = e + pn + n + 1;
		else if (!strncmp(e, name, n) && e[n] == '=')
			val = e + n + 1;
	}
	xfree(name);
	return val;
}

int spank_stack_options_from_env(spank_stack_t *s, char *const *env, int src)
{
	for (size_t i = 0; s && i < s->nopts; i++) {
		const char *v = option_env_value(s, &s->opts[i], env);

		if (!v)
			continue;
		if (s->opts[i].opt.has_arg == 0 ||
		    (s->opts[i].opt.has_arg == 2 && !*v))
			v = NULL;
		if (spank_stack_option_apply(s, i, v, src) < 0)
			return -1;
	}
	return 0;
}

static char **env_put(char **env, const char *name, const char *val)
{
	size_t n = strlen(name);
	char *entry = xstrdup_printf("%s=%s", name, val ? val : "");

	for (size_t i = 0; env[i]; i++) {
		if (!strncmp(env[i], name, n) && env[i][n] == '=') {
			xfree(env[i]);
			env[i] = entry;
			return env;
		}
	}
	env = xstrarray_append(env, entry);
	xfree(entry);
	return env;
}

char **spank_stack_job_env(const spank_stack_t *s, char **env)
{
	if (!env)
		env = xcalloc(1, sizeof(char *));
	for (size_t i = 0; s && i < s->nopts; i++) {
		const spank_opt_t *o = &s->opts[i];
		char *n, *jn;

		if (!o->given)
			continue;
		n = spank_option_env_name(s->plugins[o->plugin].name,
					  o->opt.name);
		jn = xstrdup_printf(JOB_ENV_PREFIX "%s", n);
		env = env_put(env, jn, o->arg);
		xfree(jn);
		xfree(n);
	}
	for (size_t i = 0; s && s->jc_env[i]; i++) {
		const char *eq = strchr(s->jc_env[i], '=');
		char *jn = xstrdup_printf(JOB_ENV_PREFIX "%.*s",
					  (int)(eq - s->jc_env[i]),
					  s->jc_env[i]);

		env = env_put(env, jn, eq + 1);
		xfree(jn);
	}
	return env;
}

/* ---- --help ---------------------------------------------------------- */

/* Print text wrapped to cols, each line indented by width. */
static void print_wrapped(FILE *fp, const char *text, int width, int cols,
			  bool first_inline)
{
	int room = cols - width > 20 ? cols - width : 20;
	const char *p = text ? text : "";
	bool first = true;

	do {
		int len = (int)strlen(p), cut = len;

		if (len > room) {
			cut = room;
			while (cut > 0 && p[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = room;
		}
		if (!(first && first_inline))
			fprintf(fp, "%*s", width, "");
		fprintf(fp, "%.*s\n", cut, p);
		p += cut;
		while (*p == ' ')
			p++;
		first = false;
	} while (*p);
}

void spank_stack_print_options(const spank_stack_t *s, FILE *fp,
			       int left_pad, int width)
{
	if (!s || !s->nopts)
		return;
	fprintf(fp, "\nOptions provided by plugins:\n");
	for (size_t i = 0; i < s->nopts; i++) {
		const struct spank_option *o = &s->opts[i].opt;
		char *info = xstrdup_printf("%*s--%s%s%s", left_pad, "",
					    o->name, o->arginfo ? "=" : "",
					    o->arginfo ? o->arginfo : "");

		if ((int)strlen(info) < width) {
			fprintf(fp, "%-*s", width, info);
			print_wrapped(fp, o->usage, width, 80, true);
		} else {
			/* a long one stands apart, with a blank line */
			fprintf(fp, "\n%s\n", info);
			print_wrapped(fp, o->usage, width, 80, false);
		}
		xfree(info);
	}
}
