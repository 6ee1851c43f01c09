/* conf_use.h — what Sluice does with each slurm.conf key and option.
 *
 * Every key the parser accepts (scalar keys, the keys of PartitionName,
 * NodeName, NodeSet, DownNodes and FrontendName lines) and every option
 * word of the list-valued keys Sluice reads word by word
 * (SchedulerParameters, SlurmctldParameters, ...) has exactly one row:
 *
 *   IMPLEMENTED  acts as Slurm's; the row names the consuming module and a
 *                test that sets a non-default value and observes the effect
 *   PLUGIN       a plugin name, resolved by the plugin context
 *   REFUSED      a value other than the listed harmless ones stops the load
 *                ("file:line: Key=value: not supported: why"): the daemon
 *                does not start, `scontrol reconfigure` keeps the old config
 *   WARNED       accepted; the daemons log once "file:line: Key has no
 *                effect (why)" (only where Slurm itself would ignore it)
 *
 * The table also generates the key table of doc/admin-guide.md.
 */
#ifndef SLUICE_CONF_USE_H
#define SLUICE_CONF_USE_H

#include <stddef.h>

typedef enum {
	CONF_USE_IMPLEMENTED,
	CONF_USE_PLUGIN,
	CONF_USE_REFUSED,
	CONF_USE_WARNED,
} conf_use_kind_t;

typedef struct {
	const char     *scope;  /* "" scalar key; "PartitionName", "NodeName",
				 * ...: a key of that record; a list key
				 * ("SchedulerParameters"): one of its words */
	const char     *key;
	conf_use_kind_t kind;
	const char     *what;   /* IMPLEMENTED: consumer; else why */
	const char     *ok;     /* REFUSED: values asking for nothing Sluice
				 * lacks, '|'-separated (NULL: none) */
	const char     *test;   /* IMPLEMENTED: "file.py::test_x" under
				 * tests/integration or "unit/test_x.c::fn" */
} conf_use_t;

/* The whole table (*cnt rows), in the order of the documentation. */
const conf_use_t *conf_use_table(size_t *cnt);
/* The row of key in scope ("" for scalar keys), or NULL. */
const conf_use_t *conf_use_find(const char *scope, const char *key);
/* "IMPLEMENTED", "PLUGIN", "REFUSED", "WARNED". */
const char       *conf_use_kind_name(conf_use_kind_t kind);
/* The list keys whose words have rows of their own (NULL-terminated). */
const char *const *conf_use_list_scopes(void);

#endif
