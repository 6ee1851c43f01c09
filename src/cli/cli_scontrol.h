/* cli_scontrol.h — scontrol's commands that change things: update of
 * jobs and nodes, hold/uhold/release, requeue/suspend/resume/top, and
 * show assoc_mgr.  Split out of scontrol.c; each
 * returns the command's exit code (0 or 1) and prints its own errors.
 */
#ifndef SLUICE_CLI_SCONTROL_H
#define SLUICE_CLI_SCONTROL_H

#include <stdbool.h>
#include <stddef.h>

#include "common/conf.h"
#include "common/msg_types.h"

/* scontrol's help text (cli_scontrol_usage.c). */
extern const char scontrol_usage_text[];

/* "kw" matches word when word is a case-insensitive prefix of kw at
 * least min characters long. */
bool scontrol_kw(const char *word, const char *kw, size_t min);

/* argv: the "Key=Value" words after "update". */
int  scontrol_update(int argc, char **argv, bool quiet);
/* op: "hold", "uhold" or "release"; argv: job ids. */
int  scontrol_hold(const char *op, int argc, char **argv, bool quiet);
/* op: "requeue", "requeuehold", "suspend", "resume", "top" or
 * "checkpoint"; argv: the options (requeue) and job ids. */
int  scontrol_jobctl(const char *op, int argc, char **argv, bool quiet);
/* track metric=|param=|artifact= ... (cli_scontrol_track.c). */
int  scontrol_track(int argc, char **argv);
/* show assoc_mgr; argv: the accounts=, users=, qos=, flags= words. */
int  scontrol_show_assoc_mgr(int argc, char **argv);
/* write batch_script <job_id> [<file>|-] (cli_scontrol_write.c). */
int  scontrol_write(int argc, char **argv, bool quiet);
/* write config [<file>]: slurm.conf.<datetime> (cli_scontrol_wconf.c). */
int  scontrol_write_config(int argc, char **argv);
/* errnumstr <errno>: Slurm's text of an error number. */
int  scontrol_errnumstr(int argc, char **argv);
/* create/update/delete PartitionName= (cli_scontrol_part.c); argv:
 * every word after the command (delete: "PartitionName=X" or
 * "partition X"). */
bool scontrol_is_part_word(const char *word);
/* update JobId=: the request and mail keys (cli_scontrol_jobkeys.c).
 * 0, -1 (malformed: printed), 1 (not one of them). */
int  scontrol_job_kv_more(job_update_msg_t *u, const char *key,
			  const char *val);
/* cli_scontrol_node.c: dynamic nodes (scontrol create/delete
 * NodeName=...) */
bool scontrol_is_node_entity(const char *word);
int  scontrol_node_create(int argc, char **argv);
int  scontrol_node_delete(int argc, char **argv);
int  scontrol_part_create(int argc, char **argv);
int  scontrol_part_update(int argc, char **argv);
int  scontrol_part_delete(int argc, char **argv);
/* show daemons|aliases [host]|slurmd [node], wait_job <id>
 * (cli_scontrol_local.c; the config must be loaded). */
int  scontrol_show_daemons(int argc, char **argv);
int  scontrol_show_aliases(int argc, char **argv);
int  scontrol_show_slurmd(int argc, char **argv);
int  scontrol_wait_job(int argc, char **argv, bool quiet);
/* The slurmd of this host: the node named, else the first whose
 * NodeHostname is this host (then one on a loopback address). */
const conf_node_t *scontrol_local_node(const slurm_conf_t *conf,
				       const char *name);
/* listpids [job[.step]|*] [node], listjobs [node], liststeps [node],
 * pidinfo <pid> [node]: asked of this host's slurmd
 * (cli_scontrol_pids.c). */
int  scontrol_listpids(int argc, char **argv);
int  scontrol_listjobs(int argc, char **argv);
int  scontrol_liststeps(int argc, char **argv);
int  scontrol_pidinfo(int argc, char **argv);
/* notify <job_id> <message> (cli_scontrol_notify.c). */
int  scontrol_notify(int argc, char **argv);
/* completing: the COMPLETING jobs, their COMPLETING and DOWN nodes
 * (cli_scontrol_completing.c). */
int  scontrol_completing(int argc, char **argv);
/* reboot [ASAP] [nextstate=] [reason=] {ALL|<nodes>} and cancel_reboot
 * <nodes> (cli_scontrol_reboot.c; the config must be loaded). */
int  scontrol_reboot(int argc, char **argv);
int  scontrol_cancel_reboot(int argc, char **argv, bool quiet);
/* power {up|down} [asap|force] {ALL|<nodes>} [reason=] (cli_scontrol_power.c). */
int  scontrol_power(int argc, char **argv, bool quiet);

/* setdebug LEVEL; setdebugflags [+|-]NAME[,NAME...] (cli_scontrol_debug.c);
 * kw: the keyword as typed. */
int  scontrol_setdebug(const char *kw, int argc, char **argv, bool quiet);
int  scontrol_setdebugflags(const char *kw, int argc, char **argv,
			    bool quiet);

#endif
