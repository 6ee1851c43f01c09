/* cli_filter_lua.c — CliFilterPlugins=lua: the site's cli_filter.lua
 * beside slurm.conf, run inside sbatch, salloc and srun.
 *
 * The script defines any of
 *     function slurm_cli_setup_defaults(options, early_pass)
 *     function slurm_cli_pre_submit(options, offset)
 *     function slurm_cli_post_submit(offset, job_id, step_id)
 * returning slurm.SUCCESS (anything else from pre_submit stops the
 * command; so does an error raised by the script).  options reads and
 * writes the command's options by long name (options["time"] = "10"),
 * values as strings, nil when not set; options.type is the command.  The
 * `slurm` table has log_info, log_verbose, log_debug..debug5, log_error,
 * json_cli_options(options), json_env(), cli_store(offset, text),
 * cli_retrieve(offset) (text kept from pre_submit to post_submit), and
 * SUCCESS, ERROR, FAILURE.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "cli/cli_filter.h"
#include "common/log.h"
#include "plugins/lua/slurm_lua.h"
#include "common/plugin.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#define OPTS_META "sluice.cli_options"
#define STORE_MAX 64

extern char **environ;

static struct {
	lua_State *L;
	char      *path;
	char      *store[STORE_MAX];
} cl;

/* ---- the slurm table ---- */

static cli_filter_options_t *check_opts(lua_State *L, int idx)
{
	cli_filter_options_t **p = luaL_checkudata(L, idx, OPTS_META);

	return *p;
}

static int l_json_options(lua_State *L)
{
	cli_filter_options_t *o = check_opts(L, 1);
	char *j = o->json(o);

	lua_pushstring(L, j);
	xfree(j);
	return 1;
}

static int l_json_env(lua_State *L)
{
	luaL_Buffer b;
	bool first = true;

	luaL_buffinit(L, &b);
	luaL_addchar(&b, '{');
	for (char **e = environ; e && *e; e++) {
		const char *eq = strchr(*e, '=');

		if (!eq || (strncmp(*e, "SLURM_", 6) &&
			    strncmp(*e, "SPANK_", 6)))
			continue;
		if (!first)
			luaL_addchar(&b, ',');
		first = false;
		/* names and values of these variables need no escaping
		 * beyond quotes and backslashes */
		luaL_addchar(&b, '"');
		luaL_addlstring(&b, *e, (size_t) (eq - *e));
		luaL_addstring(&b, "\":\"");
		for (const char *c = eq + 1; *c; c++) {
			if (*c == '"' || *c == '\\')
				luaL_addchar(&b, '\\');
			if ((unsigned char) *c >= 0x20)
				luaL_addchar(&b, *c);
		}
		luaL_addchar(&b, '"');
	}
	luaL_addchar(&b, '}');
	luaL_pushresult(&b);
	return 1;
}

static int store_slot(lua_State *L)
{
	lua_Integer i = luaL_checkinteger(L, 1);

	if (i < 0 || i >= STORE_MAX)
		return luaL_error(L, "cli_store: offset %d out of range",
				  (int) i);
	return (int) i;
}

static int l_store(lua_State *L)
{
	int i = store_slot(L);

	xfree(cl.store[i]);
	cl.store[i] = xstrdup(luaL_checkstring(L, 2));
	lua_pushboolean(L, 1);
	return 1;
}

static int l_retrieve(lua_State *L)
{
	int i = store_slot(L);

	if (cl.store[i])
		lua_pushstring(L, cl.store[i]);
	else
		lua_pushnil(L);
	return 1;
}

static void push_slurm_table(lua_State *L)
{
	static const luaL_Reg fns[] = {
		{ "json_cli_options", l_json_options },
		{ "json_env", l_json_env },
		{ "cli_store", l_store }, { "cli_retrieve", l_retrieve },
		{ NULL, NULL },
	};

	lua_newtable(L);
	slurm_lua_set_logs(L, "lua");
	luaL_setfuncs(L, fns, 0);
	lua_pushinteger(L, SLURM_SUCCESS);
	lua_setfield(L, -2, "SUCCESS");
	lua_pushinteger(L, SLURM_ERROR);
	lua_setfield(L, -2, "ERROR");
	lua_pushinteger(L, SLURM_ERROR);
	lua_setfield(L, -2, "FAILURE");
	lua_setglobal(L, "slurm");
}

/* ---- options ---- */

static int opts_index(lua_State *L)
{
	cli_filter_options_t *o = check_opts(L, 1);
	const char *k = luaL_checkstring(L, 2);
	const char *v;

	if (!strcmp(k, "type")) {
		lua_pushstring(L, o->command);
		return 1;
	}
	v = o->get(o, k);
	if (v)
		lua_pushstring(L, v);
	else
		lua_pushnil(L);
	return 1;
}

static int opts_newindex(lua_State *L)
{
	cli_filter_options_t *o = check_opts(L, 1);
	const char *k = luaL_checkstring(L, 2);
	const char *v = luaL_tolstring(L, 3, NULL);
	int rc = o->set(o, k, v);

	if (rc == 1)
		return luaL_error(L, "%s has no option %s", o->command, k);
	if (rc < 0)
		return luaL_error(L, "invalid value for option %s: %s", k, v);
	return 0;
}

static void push_opts(lua_State *L, cli_filter_options_t *o)
{
	cli_filter_options_t **p = lua_newuserdata(L, sizeof(*p));

	*p = o;
	luaL_setmetatable(L, OPTS_META);
}

/* ---- calls ---- */

/* Calls the global fn with nargs pushed after it; 0 and the integer it
 * returned in *ret, 1 when the script does not define it, -1 when it
 * raised an error (logged). */
static int call(const char *fn, int nargs, lua_Integer *ret)
{
	lua_State *L = cl.L;

	if (lua_getglobal(L, fn) != LUA_TFUNCTION) {
		lua_pop(L, 1 + nargs);
		return 1;
	}
	lua_insert(L, -1 - nargs);
	if (lua_pcall(L, nargs, 1, 0) != LUA_OK) {
		error("%s/lua: %s: %s", fn, cl.path, lua_tostring(L, -1));
		lua_pop(L, 1);
		return -1;
	}
	*ret = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : SLURM_SUCCESS;
	lua_pop(L, 1);
	return 0;
}

static int cl_setup_defaults(cli_filter_options_t *o, bool early)
{
	lua_Integer ret = 0;

	push_opts(cl.L, o);
	lua_pushboolean(cl.L, early);
	return call("slurm_cli_setup_defaults", 2, &ret) < 0 ? -1 : (int) ret;
}

static int cl_pre_submit(cli_filter_options_t *o, int offset)
{
	lua_Integer ret = 0;
	int rc;

	push_opts(cl.L, o);
	lua_pushinteger(cl.L, offset);
	rc = call("slurm_cli_pre_submit", 2, &ret);
	if (rc < 0)
		return SLURM_ERROR;
	return rc ? SLURM_SUCCESS : (int) ret;
}

static void cl_post_submit(cli_filter_options_t *o, int offset,
			   uint32_t job_id, uint32_t step_id)
{
	lua_Integer ret;

	lua_pushinteger(cl.L, offset);
	lua_pushinteger(cl.L, job_id);
	lua_pushinteger(cl.L, step_id);
	call("slurm_cli_post_submit", 3, &ret);
}

static int cl_init(const slurm_conf_t *conf, char *err, size_t errlen)
{
	static const luaL_Reg meta[] = {
		{ "__index", opts_index }, { "__newindex", opts_newindex },
		{ NULL, NULL },
	};
	struct stat st;

	cl.path = conf_sibling_path(conf, "cli_filter.lua");
	if (stat(cl.path, &st) < 0) {
		snprintf(err, errlen, "cli_filter/lua: Unable to stat %s: %s",
			 cl.path, strerror(errno));
		return -1;
	}
	cl.L = luaL_newstate();
	luaL_openlibs(cl.L);
	luaL_newmetatable(cl.L, OPTS_META);
	luaL_setfuncs(cl.L, meta, 0);
	lua_pop(cl.L, 1);
	push_slurm_table(cl.L);
	if (luaL_loadfile(cl.L, cl.path) != LUA_OK ||
	    lua_pcall(cl.L, 0, 0, 0) != LUA_OK) {
		snprintf(err, errlen, "cli_filter/lua: %s: %s", cl.path,
			 lua_tostring(cl.L, -1));
		return -1;
	}
	return 0;
}

static void cl_fini(void)
{
	if (cl.L)
		lua_close(cl.L);
	cl.L = NULL;
	xfree(cl.path);
	for (size_t i = 0; i < STORE_MAX; i++)
		xfree(cl.store[i]);
}

static const cli_filter_ops_t cl_ops = {
	.init = cl_init, .fini = cl_fini,
	.setup_defaults = cl_setup_defaults,
	.pre_submit = cl_pre_submit, .post_submit = cl_post_submit,
};

const struct sluice_plugin sluice_plugin = {
	.type = "cli_filter", .name = "lua",
	.abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = CLI_FILTER_OPS_VERSION, .ops = &cl_ops,
};
