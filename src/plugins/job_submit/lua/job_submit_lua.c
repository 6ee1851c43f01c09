/* job_submit_lua.c — JobSubmitPlugins=lua: the site's job_submit.lua.
 *
 * The script lives next to slurm.conf and defines
 *     function slurm_job_submit(job_desc, part_list, submit_uid)
 *     function slurm_job_modify(job_desc, job_rec, part_list, modify_uid)
 * each returning slurm.SUCCESS or an error code.  job_desc reads and
 * writes the request's fields by Slurm's names; part_list maps partition
 * names to their settings; job_rec is the job as it stands.  The `slurm`
 * table offers log_info, log_verbose, log_debug..5, log_error, log_user and user_msg (the
 * text reaches the user's command), and the constants SUCCESS, ERROR,
 * FAILURE, NO_VAL*, INFINITE*, MEM_PER_CPU and ESLURM_*.
 *
 * The script is read at load and read again at the next call after its
 * modification time changes; a version that fails to load is logged and
 * the previous one kept.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "common/fields.h"
#include "common/log.h"
#include "common/node_info.h"
#include "plugins/lua/slurm_lua.h"
#include "common/parse_util.h"
#include "common/plugin.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/job_submit_plugin.h"
#include "slurm/slurm_errno.h"

#define MEM_PER_CPU 0x8000000000000000ull
#define JS_DESC_META "sluice.job_desc"

static struct {
	lua_State *L;
	char      *path;
	struct timespec mtime;
	char      *user_msg;        /* of the call in progress */
} js;

/* ---- the slurm table ---- */

static int l_user_msg(lua_State *L)
{
	const char *msg = slurm_lua_format(L);

	if (!msg)
		return 0;
	if (js.user_msg)
		xstrfmtcat(&js.user_msg, "\n%s", msg);
	else
		js.user_msg = xstrdup(msg);
	return 0;
}

static void set_int(lua_State *L, const char *name, lua_Integer v)
{
	lua_pushinteger(L, v);
	lua_setfield(L, -2, name);
}

static void push_slurm_table(lua_State *L)
{
#define E(x) { #x, x }
	static const struct { const char *name; int code; } codes[] = {
		E(ESLURM_ACCESS_DENIED), E(ESLURM_ACCOUNTING_POLICY),
		E(ESLURM_INVALID_ACCOUNT), E(ESLURM_INVALID_PARTITION_NAME),
		E(ESLURM_INVALID_TIME_LIMIT), E(ESLURM_INVALID_TIME_VALUE),
		E(ESLURM_INVALID_NODE_COUNT), E(ESLURM_INVALID_NODE_NAME),
		E(ESLURM_INVALID_QOS), E(ESLURM_INVALID_WCKEY),
		E(ESLURM_INVALID_LICENSES), E(ESLURM_INVALID_GRES),
		E(ESLURM_INVALID_FEATURE), E(ESLURM_INVALID_CPU_COUNT),
		E(ESLURM_INVALID_TASK_MEMORY), E(ESLURM_INVALID_JOB_ID),
		E(ESLURM_INVALID_USER_ID), E(ESLURM_BAD_TASK_COUNT),
		E(ESLURM_JOB_MISSING_SIZE_SPECIFICATION),
		E(ESLURM_JOB_MISSING_REQUIRED_PARTITION_GROUP),
		E(ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE),
		E(ESLURM_REQUESTED_PART_CONFIG_UNAVAILABLE),
		E(ESLURM_PARTITION_NOT_AVAIL), E(ESLURM_PARTITION_DOWN),
		E(ESLURM_NOT_SUPPORTED), E(ESLURM_SUBMISSIONS_DISABLED),
		E(ESLURM_QOS_THRES), E(ESLURM_DEPENDENCY),
	};
#undef E

	lua_newtable(L);
	slurm_lua_set_logs(L, "job_submit.lua");
	lua_pushcfunction(L, l_user_msg);
	lua_setfield(L, -2, "log_user");
	lua_pushcfunction(L, l_user_msg);
	lua_setfield(L, -2, "user_msg");
	set_int(L, "SUCCESS", SLURM_SUCCESS);
	set_int(L, "ERROR", SLURM_ERROR);
	set_int(L, "FAILURE", SLURM_ERROR);
	set_int(L, "NO_VAL", NO_VAL32);
	set_int(L, "NO_VAL16", NO_VAL16);
	set_int(L, "NO_VAL64", (lua_Integer) NO_VAL64);
	set_int(L, "INFINITE", INFINITE32);
	set_int(L, "INFINITE16", INFINITE16);
	set_int(L, "INFINITE64", (lua_Integer) INFINITE64);
	set_int(L, "MEM_PER_CPU", (lua_Integer) MEM_PER_CPU);
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		set_int(L, codes[i].name, codes[i].code);
	lua_setglobal(L, "slurm");
}

/* ---- records as Lua values ---- */

static const field_desc_t *find_field(const field_desc_t *f, const char *name)
{
	for (; f->name; f++)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

static void push_field(lua_State *L, const field_desc_t *f, const void *rec)
{
	const char *p = (const char *) rec + f->offset;

	switch (f->type) {
	case FT_U8:     lua_pushinteger(L, *(const uint8_t *) p); break;
	case FT_U16:    lua_pushinteger(L, *(const uint16_t *) p); break;
	case FT_U32:    lua_pushinteger(L, *(const uint32_t *) p); break;
	case FT_U64:    lua_pushinteger(L, (lua_Integer) *(const uint64_t *) p); break;
	case FT_TIME:   lua_pushinteger(L, (lua_Integer) *(const time_t *) p); break;
	case FT_BOOL:   lua_pushboolean(L, *(const bool *) p); break;
	case FT_DOUBLE: lua_pushnumber(L, *(const double *) p); break;
	case FT_STR: {
		const char *s = *(char *const *) p;

		if (s)
			lua_pushstring(L, s);
		else
			lua_pushnil(L);
		break;
	}
	case FT_STRLIST: {
		char *const *v = *(char **const *) p;

		lua_newtable(L);
		for (lua_Integer i = 0; v && v[i]; i++) {
			lua_pushstring(L, v[i]);
			lua_rawseti(L, -2, i + 1);
		}
		break;
	}
	default:
		lua_pushnil(L);
	}
}

/* A plain table of every field of rec (a copy: changing it changes
 * nothing). */
static void push_record(lua_State *L, const field_desc_t *f, const void *rec)
{
	lua_newtable(L);
	for (; f->name; f++) {
		push_field(L, f, rec);
		lua_setfield(L, -2, f->name);
	}
}

/* job_desc.environment: NAME -> value. */
static void push_env(lua_State *L, char *const *env)
{
	lua_newtable(L);
	for (size_t i = 0; env && env[i]; i++) {
		const char *eq = strchr(env[i], '=');

		if (!eq)
			continue;
		lua_pushlstring(L, env[i], (size_t)(eq - env[i]));
		lua_pushstring(L, eq + 1);
		lua_settable(L, -3);
	}
}

static job_submit_view_t *desc_of(lua_State *L)
{
	job_submit_view_t **box = luaL_checkudata(L, 1, JS_DESC_META);

	if (!*box)
		luaL_error(L, "job_desc used after slurm_job_submit/modify returned");
	return *box;
}

static int desc_index(lua_State *L)
{
	job_submit_view_t *d = desc_of(L);
	const char *key = luaL_checkstring(L, 2);
	const field_desc_t *f;

	if (!strcmp(key, "min_mem_per_node") || !strcmp(key, "min_mem_per_cpu")) {
		bool want_cpu = key[8] == 'c';

		if (d->pn_min_memory == NO_VAL64 || d->mem_per_cpu != want_cpu)
			lua_pushinteger(L, (lua_Integer) NO_VAL64);
		else
			lua_pushinteger(L, (lua_Integer) d->pn_min_memory);
		return 1;
	}
	if (!strcmp(key, "pn_min_memory")) {
		uint64_t v = d->pn_min_memory;

		if (v != NO_VAL64 && d->mem_per_cpu)
			v |= MEM_PER_CPU;
		lua_pushinteger(L, (lua_Integer) v);
		return 1;
	}
	if (!strcmp(key, "environment")) {
		push_env(L, d->environment);
		return 1;
	}
	if (!strcmp(key, "tres_per_node"))
		key = "gres";
	else if (!strcmp(key, "pn_min_tmp_disk"))
		key = "tmp_disk";
	f = find_field(job_submit_view_fields, key);
	if (!f) {
		lua_pushnil(L);         /* fields Sluice does not have */
		return 1;
	}
	push_field(L, f, d);
	return 1;
}

static int set_number(lua_State *L, const field_desc_t *f, void *p)
{
	lua_Integer v;
	int isnum;

	if (f->type == FT_BOOL) {
		*(bool *) p = lua_isboolean(L, 3) ? lua_toboolean(L, 3) :
			      lua_tointeger(L, 3) != 0;
		return 0;
	}
	v = lua_tointegerx(L, 3, &isnum);
	if (!isnum)
		return luaL_error(L, "job_desc.%s: a number is needed", f->name);
	switch (f->type) {
	case FT_U8:
		if (v < 0 || v > UINT8_MAX)
			goto range;
		*(uint8_t *) p = (uint8_t) v;
		break;
	case FT_U16:
		if (v < 0 || v > UINT16_MAX)
			goto range;
		*(uint16_t *) p = (uint16_t) v;
		break;
	case FT_U32:
		if (v < 0 || v > UINT32_MAX)
			goto range;
		*(uint32_t *) p = (uint32_t) v;
		break;
	case FT_U64:
		*(uint64_t *) p = (uint64_t) v;
		break;
	case FT_TIME:
		*(time_t *) p = (time_t) v;
		break;
	default:
		return luaL_error(L, "job_desc.%s cannot be set", f->name);
	}
	return 0;
range:
	return luaL_error(L, "job_desc.%s: %lld is out of range", f->name,
			  (long long) v);
}

static int desc_newindex(lua_State *L)
{
	job_submit_view_t *d = desc_of(L);
	const char *key = luaL_checkstring(L, 2);
	const field_desc_t *f;
	void *p;

	if (!strcmp(key, "min_mem_per_node") || !strcmp(key, "min_mem_per_cpu") ||
	    !strcmp(key, "pn_min_memory")) {
		uint64_t v = (uint64_t) luaL_checkinteger(L, 3);

		d->mem_per_cpu = key[8] == 'c' ||
			(key[3] == 'm' && v != NO_VAL64 && (v & MEM_PER_CPU));
		d->pn_min_memory = v == NO_VAL64 ? v : v & ~MEM_PER_CPU;
		return 0;
	}
	if (!strcmp(key, "tres_per_node"))
		key = "gres";
	else if (!strcmp(key, "pn_min_tmp_disk"))
		key = "tmp_disk";
	f = find_field(job_submit_view_fields, key);
	if (!f || f->type == FT_STRLIST || f->type == FT_BITMAP ||
	    !strcmp(key, "user_id") || !strcmp(key, "group_id") ||
	    !strcmp(key, "script") || !strcmp(key, "client_version"))
		return luaL_error(L, "job_desc.%s cannot be set", key);
	p = (char *) d + f->offset;
	if (f->type == FT_STR) {
		char **s = p;

		if (!lua_isnil(L, 3) && !lua_isstring(L, 3))
			return luaL_error(L, "job_desc.%s: a string is needed", key);
		xfree(*s);
		*s = lua_isnil(L, 3) ? NULL : xstrdup(lua_tostring(L, 3));
		return 0;
	}
	return set_number(L, f, p);
}

static job_submit_view_t **push_desc(lua_State *L, job_submit_view_t *d)
{
	job_submit_view_t **box = lua_newuserdatauv(L, sizeof(*box), 0);

	*box = d;
	luaL_setmetatable(L, JS_DESC_META);
	return box;
}

/* Built with the controller, this plugin reads the records behind the
 * views (ctld: part_info_t, job_info_t), as Slurm's Lua scripts see every
 * member of them; an out-of-tree plugin reads the views only. */
static void push_parts(lua_State *L, const part_view_t *const *parts,
		       size_t cnt)
{
	lua_newtable(L);
	for (size_t i = 0; i < cnt; i++) {
		push_record(L, part_info_fields, parts[i]->ctld);
		lua_pushinteger(L, parts[i]->is_default);
		lua_setfield(L, -2, "flag_default");
		lua_setfield(L, -2, parts[i]->name);
	}
}

/* ---- the script ---- */

static char *script_path(const slurm_conf_t *conf)
{
	const char *slash = conf->path ? strrchr(conf->path, '/') : NULL;

	if (!slash)
		return xstrdup("job_submit.lua");
	return xstrdup_printf("%.*s/job_submit.lua", (int)(slash - conf->path),
			      conf->path);
}

/* Load (or reload after a change) the script; 0 if a usable version is
 * loaded.  err gets why the file could not be used. */
static int load_script(char *err, size_t errlen)
{
	struct stat st;
	lua_State *L;

	if (stat(js.path, &st) < 0) {
		snprintf(err, errlen, "%s: %s", js.path, strerror(errno));
		return js.L ? 0 : -1;
	}
	if (js.L && st.st_mtim.tv_sec == js.mtime.tv_sec &&
	    st.st_mtim.tv_nsec == js.mtime.tv_nsec)
		return 0;
	L = luaL_newstate();
	luaL_openlibs(L);
	push_slurm_table(L);
	luaL_newmetatable(L, JS_DESC_META);
	lua_pushcfunction(L, desc_index);
	lua_setfield(L, -2, "__index");
	lua_pushcfunction(L, desc_newindex);
	lua_setfield(L, -2, "__newindex");
	lua_pop(L, 1);
	if (luaL_loadfile(L, js.path) != LUA_OK ||
	    lua_pcall(L, 0, 0, 0) != LUA_OK) {
		snprintf(err, errlen, "%s", lua_tostring(L, -1));
		goto fail;
	}
	for (int i = 0; i < 2; i++) {
		const char *fn = i ? "slurm_job_modify" : "slurm_job_submit";

		if (lua_getglobal(L, fn) != LUA_TFUNCTION) {
			snprintf(err, errlen, "%s: %s is not defined", js.path, fn);
			goto fail;
		}
		lua_pop(L, 1);
	}
	if (js.L) {
		info("job_submit/lua: %s changed, loaded again", js.path);
		lua_close(js.L);
	}
	js.L = L;
	js.mtime = st.st_mtim;
	return 0;
fail:
	lua_close(L);
	if (js.L) {
		error("job_submit/lua: %s; keeping the previous script", err);
		js.mtime = st.st_mtim;      /* do not retry every call */
		return 0;
	}
	return -1;
}

static int js_init(const slurm_conf_t *conf, char *err, size_t errlen)
{
	xfree(js.path);
	js.path = script_path(conf);
	if (js.L) {
		lua_close(js.L);
		js.L = NULL;
	}
	if (load_script(err, errlen) < 0)
		return -1;
	info("job_submit/lua: loaded %s", js.path);
	return 0;
}

static void js_fini(void)
{
	if (js.L)
		lua_close(js.L);
	xfree(js.path);
	xfree(js.user_msg);
	memset(&js, 0, sizeof(js));
}

/* Call fn with the nargs values on the stack; the result code. */
static int call(const char *fn, int nargs, job_submit_view_t **box, char **user_msg)
{
	lua_State *L = js.L;
	int rc;

	lua_getglobal(L, fn);
	lua_insert(L, -(nargs + 1));
	js.user_msg = NULL;
	if (lua_pcall(L, nargs, 1, 0) != LUA_OK) {
		error("job_submit/lua: %s: %s", fn, lua_tostring(L, -1));
		rc = SLURM_ERROR;
	} else {
		lua_Integer v = lua_tointeger(L, -1);

		rc = (v < INT_MIN || v > INT_MAX) ? SLURM_ERROR : (int) v;
	}
	lua_pop(L, 1);
	*box = NULL;                 /* no use of job_desc after the call */
	*user_msg = js.user_msg;
	js.user_msg = NULL;
	lua_gc(L, LUA_GCSTEP, 0);
	return rc;
}

/* The script, loaded again if it changed; false (logged) if there is
 * none to run. */
static bool script_ready(void)
{
	char err[512] = "";

	if (load_script(err, sizeof(err)) < 0) {
		error("job_submit/lua: %s", err);
		return false;
	}
	return true;
}

static int js_submit(job_submit_view_t *desc,
		     const part_view_t *const *parts, size_t part_cnt,
		     uint32_t uid, char **user_msg)
{
	job_submit_view_t **box;

	if (!script_ready())
		return SLURM_ERROR;
	box = push_desc(js.L, desc);
	push_parts(js.L, parts, part_cnt);
	lua_pushinteger(js.L, uid);
	return call("slurm_job_submit", 3, box, user_msg);
}

static int js_modify(job_submit_view_t *desc, const job_view_t *job,
		     const part_view_t *const *parts, size_t part_cnt,
		     uint32_t uid, char **user_msg)
{
	job_submit_view_t **box;

	if (!script_ready())
		return SLURM_ERROR;
	box = push_desc(js.L, desc);
	push_record(js.L, job_info_fields, job->ctld);
	push_parts(js.L, parts, part_cnt);
	lua_pushinteger(js.L, uid);
	return call("slurm_job_modify", 4, box, user_msg);
}

static const job_submit_ops_t ops = {
	.init = js_init,
	.fini = js_fini,
	.submit = js_submit,
	.modify = js_modify,
};

const struct sluice_plugin sluice_plugin = {
	.type = "job_submit",
	.name = "lua",
	.abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = JOB_SUBMIT_OPS_VERSION,
	.ops = &ops,
};
