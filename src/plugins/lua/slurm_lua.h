/* slurm_lua.h — what the Lua plugins (job_submit/lua, cli_filter/lua) share:
 * the `slurm.log_*` functions of their `slurm` table.
 *
 * Compiled into each Lua plugin (src/plugins/CMakeLists.txt), not into
 * libslurmfull: only those plugins link liblua. */
#ifndef SLUICE_PLUGINS_SLURM_LUA_H
#define SLUICE_PLUGINS_SLURM_LUA_H

#include <lua.h>

/* string.format(...) of the function's arguments, left on the stack; on a
 * format error, the error's text. */
const char *slurm_lua_format(lua_State *L);

/* Set slurm.log_error ... slurm.log_debug5 in the table on top of the
 * stack; each logs "<prefix>: <message>" at its level. */
void slurm_lua_set_logs(lua_State *L, const char *prefix);

#endif
