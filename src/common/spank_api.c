/* spank_api.c — the functions of <slurm/spank.h> that plugins call,
 * exported by libslurmfull under Slurm's names.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "common/spank_int.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define API __attribute__((visibility("default")))

static bool handle_ok(spank_t h)
{
	return h && h->magic == SPANK_HANDLE_MAGIC && h->stack;
}

static bool is_remote(spank_t h)
{
	return h->stack->ctx == S_CTX_REMOTE;
}

/* ---- options --------------------------------------------------------- */

API spank_err_t spank_option_register(spank_t h, struct spank_option *opt)
{
	spank_stack_t *s;

	if (!handle_ok(h) || !opt)
		return ESPANK_BAD_ARG;
	s = h->stack;
	if (h->cb != SPANK_CB_INIT)
		return ESPANK_BAD_ARG;
	if (s->ctx != S_CTX_LOCAL && s->ctx != S_CTX_ALLOCATOR &&
	    s->ctx != S_CTX_REMOTE)
		return ESPANK_SUCCESS;   /* no options here: accepted, unused */
	return spank_stack_add_option(s, h->plugin, opt);
}

API spank_err_t spank_option_getopt(spank_t h, struct spank_option *opt,
				    char **optarg)
{
	spank_stack_t *s;

	if (!handle_ok(h) || !opt || !opt->name)
		return ESPANK_BAD_ARG;
	s = h->stack;
	if (h->cb == SPANK_CB_INIT)
		return ESPANK_NOT_AVAIL;   /* options not processed yet */
	for (size_t i = 0; i < s->nopts; i++) {
		spank_opt_t *o = &s->opts[i];

		if (o->plugin != h->plugin || strcmp(o->opt.name, opt->name))
			continue;
		if (!o->given)
			return ESPANK_ERROR;
		if (optarg)
			*optarg = o->arg;
		return ESPANK_SUCCESS;
	}
	return ESPANK_ERROR;
}

/* ---- environment ----------------------------------------------------- */

static char ***env_of(spank_t h)
{
	if (h->task && h->task->env)
		return h->task->env;
	if (h->stack->job && h->stack->job->env)
		return h->stack->job->env;
	return NULL;
}

static long env_find(char **env, const char *name)
{
	size_t n = strlen(name);

	for (long i = 0; env && env[i]; i++)
		if (!strncmp(env[i], name, n) && env[i][n] == '=')
			return i;
	return -1;
}

static spank_err_t env_get(char **env, const char *var, char *buf, int len)
{
	long i = env_find(env, var);
	const char *v;

	if (i < 0)
		return ESPANK_ENV_NOEXIST;
	v = env[i] + strlen(var) + 1;
	if (!buf || (int)strlen(v) >= len)
		return ESPANK_NOSPACE;   /* (NULL, 0) asks "is it set?" */
	memcpy(buf, v, strlen(v) + 1);
	return ESPANK_SUCCESS;
}

static spank_err_t env_set(char ***env, const char *var, const char *val,
			   int overwrite)
{
	long i = env_find(*env, var);
	char *entry;

	if (i >= 0 && !overwrite)
		return ESPANK_ENV_EXISTS;
	entry = xstrdup_printf("%s=%s", var, val);
	if (i >= 0) {
		xfree((*env)[i]);
		(*env)[i] = entry;
		return ESPANK_SUCCESS;
	}
	if (!*env)
		*env = xcalloc(1, sizeof(char *));
	*env = xstrarray_append(*env, entry);
	xfree(entry);
	return ESPANK_SUCCESS;
}

static void env_unset(char **env, const char *var)
{
	long i = env_find(env, var);

	if (i < 0)
		return;
	xfree(env[i]);
	for (; env[i + 1]; i++)
		env[i] = env[i + 1];
	env[i] = NULL;
}

static bool bad_var(const char *var)
{
	return !var || !*var || strchr(var, '=');
}

API spank_err_t spank_getenv(spank_t h, const char *var, char *buf, int len)
{
	char ***env;

	if (!handle_ok(h) || bad_var(var) || len < 0 || (!buf && len))
		return ESPANK_BAD_ARG;
	if (!is_remote(h))
		return ESPANK_NOT_REMOTE;
	if (!(env = env_of(h)))
		return ESPANK_BAD_ARG;
	return env_get(*env, var, buf, len);
}

API spank_err_t spank_setenv(spank_t h, const char *var, const char *val,
			     int overwrite)
{
	char ***env;

	if (!handle_ok(h) || bad_var(var) || !val)
		return ESPANK_BAD_ARG;
	if (!is_remote(h))
		return ESPANK_NOT_REMOTE;
	if (!(env = env_of(h)))
		return ESPANK_BAD_ARG;
	return env_set(env, var, val, overwrite);
}

API spank_err_t spank_unsetenv(spank_t h, const char *var)
{
	char ***env;

	if (!handle_ok(h) || bad_var(var))
		return ESPANK_BAD_ARG;
	if (!is_remote(h))
		return ESPANK_NOT_REMOTE;
	if (!(env = env_of(h)))
		return ESPANK_BAD_ARG;
	env_unset(*env, var);
	return ESPANK_SUCCESS;
}

static spank_err_t jc_check(spank_t h, const char *var)
{
	if (!handle_ok(h) || bad_var(var))
		return ESPANK_BAD_ARG;
	if (h->stack->ctx != S_CTX_LOCAL && h->stack->ctx != S_CTX_ALLOCATOR)
		return ESPANK_NOT_LOCAL;
	return ESPANK_SUCCESS;
}

API spank_err_t spank_job_control_setenv(spank_t h, const char *var,
					 const char *val, int overwrite)
{
	spank_err_t rc = jc_check(h, var);

	if (rc)
		return rc;
	if (!val)
		return ESPANK_BAD_ARG;
	return env_set(&h->stack->jc_env, var, val, overwrite);
}

API spank_err_t spank_job_control_getenv(spank_t h, const char *var,
					 char *buf, int len)
{
	spank_err_t rc = jc_check(h, var);

	if (rc)
		return rc;
	if (len < 0 || (!buf && len))
		return ESPANK_BAD_ARG;
	return env_get(h->stack->jc_env, var, buf, len);
}

API spank_err_t spank_job_control_unsetenv(spank_t h, const char *var)
{
	spank_err_t rc = jc_check(h, var);

	if (rc)
		return rc;
	env_unset(h->stack->jc_env, var);
	return ESPANK_SUCCESS;
}

API spank_err_t spank_prepend_task_argv(spank_t h, int argc,
					const char *argv[])
{
	char **old, **nv;
	size_t n;

	if (!handle_ok(h) || argc <= 0 || !argv)
		return ESPANK_BAD_ARG;
	if (!is_remote(h))
		return ESPANK_NOT_REMOTE;
	if (!h->task || !h->task->argv ||
	    (h->cb != SPANK_CB_TASK_INIT &&
	     h->cb != SPANK_CB_TASK_INIT_PRIVILEGED))
		return ESPANK_NOT_TASK;
	old = *h->task->argv;
	n = xstrarray_len(old);
	nv = xcalloc((size_t)argc + n + 1, sizeof(char *));
	for (int i = 0; i < argc; i++) {
		if (!argv[i]) {
			xstrarray_free(nv);
			return ESPANK_BAD_ARG;
		}
		nv[i] = xstrdup(argv[i]);
	}
	for (size_t i = 0; i < n; i++)
		nv[argc + i] = old[i];
	xfree(old);
	*h->task->argv = nv;
	return ESPANK_SUCCESS;
}

/* ---- where we are ---------------------------------------------------- */

API int spank_remote(spank_t h)
{
	if (!handle_ok(h))
		return -1;
	return is_remote(h) ? 1 : 0;
}

API spank_context_t spank_context(void)
{
	spank_stack_t *s = spank_current();

	return s ? s->ctx : S_CTX_ERROR;
}

static const char *const api_syms[] = {
	"spank_option_register", "spank_option_getopt", "spank_get_item",
	"spank_getenv", "spank_setenv", "spank_unsetenv",
	"spank_job_control_setenv", "spank_job_control_getenv",
	"spank_job_control_unsetenv", "spank_prepend_task_argv",
	"spank_remote", "spank_context", "spank_symbol_supported",
	"spank_strerror", "slurm_spank_init", "slurm_spank_job_prolog",
	"slurm_spank_init_post_opt", "slurm_spank_local_user_init",
	"slurm_spank_user_init", "slurm_spank_task_init_privileged",
	"slurm_spank_task_init", "slurm_spank_task_post_fork",
	"slurm_spank_task_exit", "slurm_spank_job_epilog",
	"slurm_spank_slurmd_exit", "slurm_spank_exit",
};

API int spank_symbol_supported(const char *name)
{
	if (!name)
		return -1;
	for (size_t i = 0; i < sizeof(api_syms) / sizeof(api_syms[0]); i++)
		if (!strcmp(name, api_syms[i]))
			return 1;
	return 0;
}

API const char *spank_strerror(spank_err_t err)
{
	return slurm_strerror(err);
}

/* ---- logging --------------------------------------------------------- */

#define API_LOG(fn, logger)                                     \
	API void fn(const char *fmt, ...)                       \
	{                                                       \
		char buf[4096];                                 \
		va_list ap;                                     \
								\
		va_start(ap, fmt);                              \
		vsnprintf(buf, sizeof(buf), fmt, ap);           \
		va_end(ap);                                     \
		logger("%s", buf);                              \
	}

API_LOG(slurm_info, info)
API_LOG(slurm_error, error)
API_LOG(slurm_verbose, verbose)
API_LOG(slurm_debug, debug)
API_LOG(slurm_debug2, debug2)
API_LOG(slurm_debug3, debug3)

/* In commands, the text as is on stderr (what the user reads); in
 * daemons, an info line in the log. */
API void slurm_spank_log(const char *fmt, ...)
{
	spank_stack_t *s = spank_current();
	char buf[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (s && (s->ctx == S_CTX_LOCAL || s->ctx == S_CTX_ALLOCATOR))
		fprintf(stderr, "%s\n", buf);
	else
		info("%s", buf);
}
