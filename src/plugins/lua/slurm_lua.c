/* slurm_lua.c — the `slurm.log_*` functions of the Lua plugins. */
#include "slurm_lua.h"

#include "common/log.h"

const char *slurm_lua_format(lua_State *L)
{
	int n = lua_gettop(L);

	lua_getglobal(L, "string");
	lua_getfield(L, -1, "format");
	lua_remove(L, -2);
	lua_insert(L, 1);
	lua_pcall(L, n, 1, 0);          /* on error, the error's text */
	return lua_tostring(L, -1);
}

/* upvalue 1: the level; upvalue 2: the prefix */
static int l_log(lua_State *L)
{
	int level = (int) lua_tointeger(L, lua_upvalueindex(1));
	const char *prefix = lua_tostring(L, lua_upvalueindex(2));
	const char *msg = slurm_lua_format(L);

	if (!msg)
		msg = "(nil)";
	switch (level) {
	case LOG_LEVEL_ERROR:   error("%s: %s", prefix, msg); break;
	case LOG_LEVEL_INFO:    info("%s: %s", prefix, msg); break;
	case LOG_LEVEL_VERBOSE: verbose("%s: %s", prefix, msg); break;
	case LOG_LEVEL_DEBUG:   debug("%s: %s", prefix, msg); break;
	case LOG_LEVEL_DEBUG2:  debug2("%s: %s", prefix, msg); break;
	default:                debug3("%s: %s", prefix, msg); break;
	}
	return 0;
}

void slurm_lua_set_logs(lua_State *L, const char *prefix)
{
	static const struct { const char *name; int level; } logs[] = {
		{ "log_error", LOG_LEVEL_ERROR }, { "log_info", LOG_LEVEL_INFO },
		{ "log_verbose", LOG_LEVEL_VERBOSE }, { "log_debug", LOG_LEVEL_DEBUG },
		{ "log_debug2", LOG_LEVEL_DEBUG2 }, { "log_debug3", LOG_LEVEL_DEBUG3 },
		{ "log_debug4", LOG_LEVEL_DEBUG3 }, { "log_debug5", LOG_LEVEL_DEBUG3 },
	};

	for (size_t i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
		lua_pushinteger(L, logs[i].level);
		lua_pushstring(L, prefix);
		lua_pushcclosure(L, l_log, 2);
		lua_setfield(L, -2, logs[i].name);
	}
}
