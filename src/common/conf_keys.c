/* conf_keys.c — the scalar keys of slurm.conf: one table row per key says
 * how its value is checked, where it is stored in slurm_conf_t (if it is),
 * its default, and how `scontrol show config` prints it.  The table is in
 * the order scontrol prints; keys it does not print come last.
 */
#include "common/conf.h"
#include "common/conf_internal.h"
#include "common/conf_params.h"

#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/license.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/uid_cache.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

typedef enum {
	CK_STR,      /* any text */
	CK_UPPER,    /* text, printed upper-case */
	CK_U16,
	CK_U32,
	CK_U64,
	CK_BOOL,     /* YES/NO, printed Yes/No */
	CK_BOOL01,   /* 0/1 stored as bool, printed as a number */
	CK_MEM,      /* MB: "4096", "4G" */
	CK_LOG,      /* log level name or number */
	CK_UNLIM16,  /* number or UNLIMITED/INFINITE */
	CK_SUSPEND,  /* seconds, or NONE/INFINITE/-1 */
	CK_SECS,     /* duration as seconds: "1:00", "1-0" */
	CK_MINS,     /* duration as minutes */
	CK_PORTS,    /* "6817" or "6817-6818" */
	CK_RANGE,    /* "60001-63000" */
	CK_USER,     /* user name (or uid) that must exist */
	CK_ENFORCE,  /* EnforcePartLimits: ALL ANY NO YES */
	CK_PRIVATE,  /* PrivateData: jobs,nodes,... (conf_params) */
	CK_CTLDPAR,  /* SlurmctldParameters: rl_* checked (conf_params) */
	CK_ACCTENF,  /* AccountingStorageEnforce (conf_params) */
	CK_PROLOGF,  /* PrologFlags (conf_params) */
	CK_STOREF,   /* AccountingStoreFlags (conf_params) */
	CK_LICENSES, /* Licenses: name[:count],... (license.h) */
	CK_SPECIAL,  /* printed only, by its function */
} ck_kind_t;

enum {
	CKF_HIDE = 1,  /* not printed by scontrol show config */
	CKF_MF   = 2,  /* printed only with priority/multifactor */
};

#define NOF (-1)
#define F(field) ((int)offsetof(slurm_conf_t, field))

struct conf_key;
typedef char *(*ck_show_f)(conf_state_t *st, const struct conf_key *k);

typedef struct conf_key {
	const char *name;   /* as written in slurm.conf; NULL: printed only */
	const char *show;   /* as printed, if different from name */
	ck_kind_t   kind;
	int         off;    /* field in slurm_conf_t, or NOF */
	const char *def;    /* default, as it would be written */
	const char *unit;   /* printed after numbers: " sec" */
	int         flags;
	ck_show_f   fn;     /* printer when the generic one will not do */
} conf_key_t;

static char *show_acct_enforce(conf_state_t *st, const conf_key_t *k);
static char *show_acct_port(conf_state_t *st, const conf_key_t *k);
static char *show_def_mem(conf_state_t *st, const conf_key_t *k);
static char *show_max_mem(conf_state_t *st, const conf_key_t *k);
static char *show_fixed(conf_state_t *st, const conf_key_t *k);
static char *show_job_defaults(conf_state_t *st, const conf_key_t *k);
static char *show_max_dbd_msgs(conf_state_t *st, const conf_key_t *k);
static char *show_max_node_cnt(conf_state_t *st, const conf_key_t *k);
static char *show_user(conf_state_t *st, const conf_key_t *k);

#define SHOW(n, f) { NULL, n, CK_SPECIAL, NOF, NULL, NULL, 0, f }
#define HIDE(n, kind) { n, NULL, kind, NOF, NULL, NULL, CKF_HIDE, NULL }

static const conf_key_t conf_keys[] = {
	{ "AccountingStorageBackupHost", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "AccountingStorageEnforce", NULL, CK_ACCTENF, F(accounting_storage_enforce),
	  NULL, NULL, 0, show_acct_enforce },
	{ "AccountingStorageHost", NULL, CK_STR, F(accounting_storage_host), NULL, NULL, 0, NULL },
	{ "AccountingStorageExternalHost", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "AccountingStorageParameters", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "AccountingStoragePort", NULL, CK_U16, F(accounting_storage_port), NULL,
	  NULL, 0, show_acct_port },
	{ "AccountingStorageTRES", NULL, CK_STR, NOF,
	  "cpu,mem,energy,node,billing,fs/disk,vmem,pages", NULL, 0, NULL },
	{ "AccountingStorageType", NULL, CK_STR, F(accounting_storage_type),
	  "accounting_storage/none", NULL, 0, NULL },
	{ "AccountingStorageUser", NULL, CK_STR, NOF, "N/A", NULL, 0, NULL },
	{ "AccountingStoreFlags", NULL, CK_STOREF, F(accounting_store_flags),
	  NULL, NULL, 0, NULL },
	{ "AcctGatherEnergyType", NULL, CK_STR, F(acct_gather_energy_type), "acct_gather_energy/none", NULL, 0, NULL },
	{ "AcctGatherFilesystemType", NULL, CK_STR, NOF, "acct_gather_filesystem/none",
	  NULL, 0, NULL },
	{ "AcctGatherInterconnectType", NULL, CK_STR, NOF,
	  "acct_gather_interconnect/none", NULL, 0, NULL },
	{ "AcctGatherNodeFreq", NULL, CK_U16, F(acct_gather_node_freq), "0", " sec", 0, NULL },
	{ "AcctGatherProfileType", NULL, CK_STR, F(acct_gather_profile_type),
	  "acct_gather_profile/none",
	  NULL, 0, NULL },
	{ "AllowSpecResourcesUsage", NULL, CK_BOOL, NOF, "NO", NULL, 0, NULL },
	{ "AuthAltTypes", NULL, CK_STR, F(auth_alt_types), NULL, NULL, 0, NULL },
	{ "AuthAltParameters", NULL, CK_STR, F(auth_alt_params), NULL, NULL, 0, NULL },
	{ "AuthInfo", NULL, CK_STR, F(auth_info), NULL, NULL, 0, NULL },
	{ "AuthType", NULL, CK_STR, F(auth_type), "auth/munge", NULL, 0, NULL },
	{ "BatchStartTimeout", NULL, CK_U16, F(batch_start_timeout), "10", " sec", 0, NULL },
	{ "BcastExclude", NULL, CK_STR, F(bcast_exclude), "/lib,/usr/lib,/lib64,/usr/lib64", NULL, 0, NULL },
	{ "BcastParameters", NULL, CK_STR, F(bcast_params), NULL, NULL, 0, NULL },
	{ "BurstBufferType", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "CliFilterPlugins", NULL, CK_STR, F(cli_filter_plugins), NULL, NULL, 0, NULL },
	{ "ClusterName", NULL, CK_STR, F(cluster_name), NULL, NULL, 0, NULL },
	{ "CommunicationParameters", NULL, CK_STR, F(comm_params), NULL, NULL, 0, NULL },
	{ "CompleteWait", NULL, CK_U16, F(complete_wait), "0", " sec", 0, NULL },
	{ "CoreSpecPlugin", NULL, CK_STR, NOF, "core_spec/none", NULL, 0, NULL },
	{ "CpuFreqDef", NULL, CK_STR, NOF, "Unknown", NULL, 0, NULL },
	{ "CpuFreqGovernors", NULL, CK_STR, NOF, "OnDemand,Performance,UserSpace",
	  NULL, 0, NULL },
	{ "CredType", NULL, CK_STR, F(cred_type), "cred/munge", NULL, 0, NULL },
	{ "DebugFlags", NULL, CK_STR, F(debug_flags), NULL, NULL, 0, NULL },
	SHOW("DefMemPerNode", show_def_mem),
	{ "DependencyParameters", NULL, CK_STR, F(dependency_params), NULL, NULL, 0, NULL },
	{ "DisableRootJobs", NULL, CK_BOOL, NOF, "NO", NULL, 0, NULL },
	{ "EioTimeout", NULL, CK_U16, NOF, "60", NULL, 0, NULL },
	{ "EnforcePartLimits", NULL, CK_ENFORCE, F(enforce_part_limits), "NO", NULL, 0, NULL },
	{ "Epilog", NULL, CK_STR, F(epilog), NULL, NULL, 0, NULL },
	{ "EpilogMsgTime", NULL, CK_U32, NOF, "2000", " usec", 0, NULL },
	{ "EpilogSlurmctld", NULL, CK_STR, F(epilog_slurmctld), NULL, NULL, 0, NULL },
	{ "ExtSensorsType", NULL, CK_STR, NOF, "ext_sensors/none", NULL, 0, NULL },
	{ "ExtSensorsFreq", NULL, CK_U16, NOF, "0", " sec", 0, NULL },
	{ "FederationParameters", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "FirstJobId", NULL, CK_U32, F(first_job_id), "1", NULL, 0, NULL },
	{ "GetEnvTimeout", NULL, CK_U16, NOF, "2", " sec", 0, NULL },
	{ "GresTypes", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "GpuFreqDef", NULL, CK_STR, NOF, "high,memory=high", NULL, 0, NULL },
	{ "GroupUpdateForce", NULL, CK_U16, NOF, "1", NULL, 0, NULL },
	{ "GroupUpdateTime", NULL, CK_U16, F(group_update_time), "600", " sec",
	  0, NULL },
	{ NULL, "HASH_VAL", CK_SPECIAL, NOF, "Match", NULL, 0, show_fixed },
	{ "HealthCheckInterval", NULL, CK_U16, NOF, "0", " sec", 0, NULL },
	{ "HealthCheckNodeState", NULL, CK_UPPER, NOF, "ANY", NULL, 0, NULL },
	{ "HealthCheckProgram", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "InactiveLimit", NULL, CK_U16, F(inactive_limit), "0", " sec", 0, NULL },
	{ "InteractiveStepOptions", NULL, CK_STR, NOF,
	  "--interactive --preserve-env --pty $SHELL", NULL, 0, NULL },
	{ "JobAcctGatherFrequency", NULL, CK_STR, F(job_acct_gather_freq), "30",
	  NULL, 0, NULL },
	{ "JobAcctGatherType", NULL, CK_STR, F(job_acct_gather_type),
	  "jobacct_gather/none", NULL, 0, NULL },
	{ "JobAcctGatherParams", NULL, CK_STR, F(jag_params), NULL, NULL, 0, NULL },
	{ "JobCompHost", NULL, CK_STR, NOF, "localhost", NULL, 0, NULL },
	{ "JobCompLoc", NULL, CK_STR, F(job_comp_loc), "/var/log/slurm_jobcomp.log", NULL, 0, NULL },
	{ "JobCompPort", NULL, CK_U32, NOF, "0", NULL, 0, NULL },
	{ "JobCompType", NULL, CK_STR, F(job_comp_type), "jobcomp/none", NULL, 0, NULL },
	{ "JobCompUser", NULL, CK_STR, NOF, "root", NULL, 0, NULL },
	{ "JobContainerType", NULL, CK_STR, F(job_container_type), "job_container/none", NULL, 0, NULL },
	{ "JobCredentialPrivateKey", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "JobCredentialPublicCertificate", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	SHOW("JobDefaults", show_job_defaults),
	{ "JobFileAppend", NULL, CK_U16, NOF, "0", NULL, 0, NULL },
	{ "JobRequeue", NULL, CK_BOOL01, F(job_requeue), "1", NULL, 0, NULL },
	{ "JobSubmitPlugins", NULL, CK_STR, F(job_submit_plugins), NULL, NULL, 0, NULL },
	{ "KillOnBadExit", NULL, CK_U16, F(kill_on_bad_exit), "0", NULL, 0, NULL },
	{ "KillWait", NULL, CK_U16, F(kill_wait), "30", " sec", 0, NULL },
	{ "LaunchParameters", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "LaunchType", NULL, CK_STR, F(launch_type), "launch/slurm", NULL, 0, NULL },
	{ "Licenses", NULL, CK_LICENSES, NOF, NULL, NULL, 0, NULL },
	{ "LogTimeFormat", NULL, CK_STR, NOF, "iso8601_ms", NULL, 0, NULL },
	{ "MailDomain", NULL, CK_STR, F(mail_domain), NULL, NULL, 0, NULL },
	{ "MailProg", NULL, CK_STR, F(mail_prog), "/bin/mail", NULL, 0, NULL },
	{ "MaxArraySize", NULL, CK_U32, F(max_array_size), "1001", NULL, 0, NULL },
	{ "MaxDBDMsgs", NULL, CK_U32, NOF, NULL, NULL, 0, show_max_dbd_msgs },
	{ "MaxJobCount", NULL, CK_U32, F(max_job_count), "10000", NULL, 0, NULL },
	{ "MaxJobId", NULL, CK_U32, F(max_job_id), "67043328", NULL, 0, NULL },
	SHOW("MaxMemPerNode", show_max_mem),
	{ "MaxNodeCount", NULL, CK_U32, F(max_node_cnt), NULL, NULL, 0, show_max_node_cnt },
	{ "MaxStepCount", NULL, CK_U32, F(max_step_count), "40000", NULL, 0, NULL },
	{ "MaxTasksPerNode", NULL, CK_U16, F(max_tasks_per_node), "512", NULL, 0, NULL },
	{ "MCSPlugin", NULL, CK_STR, NOF, "mcs/none", NULL, 0, NULL },
	{ "MCSParameters", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "MessageTimeout", NULL, CK_U16, F(message_timeout), "10", " sec", 0, NULL },
	{ "MinJobAge", NULL, CK_U32, F(min_job_age), "300", " sec", 0, NULL },
	{ "MpiDefault", NULL, CK_STR, F(mpi_default), "none", NULL, 0, NULL },
	{ "MpiParams", NULL, CK_STR, F(mpi_params), NULL, NULL, 0, NULL },
	{ NULL, "MULTIPLE_SLURMD", CK_SPECIAL, NOF, "Yes", NULL, 0, show_fixed },
	{ "NodeFeaturesPlugins", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "OverTimeLimit", NULL, CK_UNLIM16, F(over_time_limit), "0", " min", 0, NULL },
	{ "PluginDir", NULL, CK_STR, F(plugin_dir), SLUICE_PLUGINDIR, NULL, 0, NULL },
	{ "PlugStackConfig", NULL, CK_STR, F(plugstack_config), NULL, NULL, 0, NULL },
	{ "PowerParameters", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "PowerPlugin", NULL, CK_STR, NOF, "", NULL, 0, NULL },
	{ "PreemptMode", NULL, CK_UPPER, NOF, "OFF", NULL, 0, NULL },
	{ "PreemptType", NULL, CK_STR, NOF, "preempt/none", NULL, 0, NULL },
	{ "PreemptExemptTime", NULL, CK_SECS, NOF, "0", NULL, 0, NULL },
	{ "PrEpParameters", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "PrEpPlugins", NULL, CK_STR, F(prep_plugins), "prep/script", NULL, 0, NULL },
	{ "PriorityParameters", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "PrioritySiteFactorParameters", NULL, CK_STR, F(site_factor_params), NULL, NULL, 0, NULL },
	{ "PrioritySiteFactorPlugin", NULL, CK_STR, F(site_factor_plugin), NULL, NULL, 0, NULL },
	{ "PriorityDecayHalfLife", NULL, CK_MINS, NOF, "7-0", NULL, CKF_MF, NULL },
	{ "PriorityCalcPeriod", NULL, CK_MINS, NOF, "5", NULL, CKF_MF, NULL },
	{ "PriorityFavorSmall", NULL, CK_BOOL, NOF, "NO", NULL, CKF_MF, NULL },
	{ "PriorityFlags", NULL, CK_STR, NOF, "", NULL, CKF_MF, NULL },
	{ "PriorityMaxAge", NULL, CK_MINS, NOF, "7-0", NULL, CKF_MF, NULL },
	{ "PriorityUsageResetPeriod", NULL, CK_UPPER, NOF, "NONE", NULL, CKF_MF, NULL },
	{ "PriorityType", NULL, CK_STR, F(priority_type), "priority/basic", NULL, 0, NULL },
	{ "PriorityWeightAge", NULL, CK_U32, NOF, "0", NULL, CKF_MF, NULL },
	{ "PriorityWeightAssoc", NULL, CK_U32, NOF, "0", NULL, CKF_MF, NULL },
	{ "PriorityWeightFairshare", "PriorityWeightFairShare", CK_U32, NOF, "0", NULL,
	  CKF_MF, NULL },
	{ "PriorityWeightJobSize", NULL, CK_U32, NOF, "0", NULL, CKF_MF, NULL },
	{ "PriorityWeightPartition", NULL, CK_U32, NOF, "0", NULL, CKF_MF, NULL },
	{ "PriorityWeightQOS", NULL, CK_U32, NOF, "0", NULL, CKF_MF, NULL },
	{ "PriorityWeightTRES", NULL, CK_STR, NOF, NULL, NULL, CKF_MF, NULL },
	{ "PrivateData", NULL, CK_PRIVATE, F(private_data), "none", NULL, 0, NULL },
	{ "ProctrackType", NULL, CK_STR, F(proctrack_type), "proctrack/cgroup", NULL, 0, NULL },
	{ "Prolog", NULL, CK_STR, F(prolog), NULL, NULL, 0, NULL },
	{ "PrologEpilogTimeout", NULL, CK_U16, NOF, "65534", NULL, 0, NULL },
	{ "PrologSlurmctld", NULL, CK_STR, F(prolog_slurmctld), NULL, NULL, 0, NULL },
	{ "PrologFlags", NULL, CK_PROLOGF, F(prolog_flags), NULL, NULL, 0, NULL },
	{ "PropagatePrioProcess", NULL, CK_U16, NOF, "0", NULL, 0, NULL },
	{ "PropagateResourceLimits", NULL, CK_STR, F(propagate_rlimits), "ALL", NULL, 0, NULL },
	{ "PropagateResourceLimitsExcept", NULL, CK_STR, F(propagate_rlimits_except), NULL, NULL, 0, NULL },
	{ "RebootProgram", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "ReconfigFlags", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "RequeueExit", NULL, CK_STR, F(requeue_exit), NULL, NULL, 0, NULL },
	{ "RequeueExitHold", NULL, CK_STR, F(requeue_exit_hold), NULL, NULL, 0, NULL },
	{ "ResumeFailProgram", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "ResumeProgram", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "ResumeRate", NULL, CK_U16, NOF, "300", " nodes/min", 0, NULL },
	{ "ResumeTimeout", NULL, CK_U16, NOF, "60", " sec", 0, NULL },
	{ "ResvEpilog", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "ResvOverRun", NULL, CK_UNLIM16, F(resv_over_run), "0", " min", 0, NULL },
	{ "ResvProlog", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "ReturnToService", NULL, CK_U16, F(return_to_service), "0", NULL, 0, NULL },
	{ "RoutePlugin", NULL, CK_STR, NOF, "route/default", NULL, 0, NULL },
	{ "SchedulerParameters", NULL, CK_STR, F(scheduler_parameters), NULL, NULL, 0, NULL },
	{ "SchedulerTimeSlice", NULL, CK_U16, NOF, "30", " sec", 0, NULL },
	{ "SchedulerType", NULL, CK_STR, F(scheduler_type), "sched/backfill", NULL, 0, NULL },
	{ "ScronParameters", NULL, CK_STR, F(scron_params), NULL, NULL, 0, NULL },
	{ "SelectType", NULL, CK_STR, F(select_type), "select/cons_tres", NULL, 0, NULL },
	{ "SelectTypeParameters", NULL, CK_UPPER, F(select_type_parameters),
	  "CR_Core_Memory", NULL, 0, NULL },
	{ "SlurmUser", NULL, CK_USER, F(slurm_user), "root", NULL, 0, show_user },
	{ "SlurmctldAddr", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "SlurmctldDebug", NULL, CK_LOG, F(slurmctld_debug), "info", NULL, 0, NULL },
	SHOW("SlurmctldHost", NULL),   /* SlurmctldHost[i] lines, see below */
	{ "SlurmctldLogFile", NULL, CK_STR, F(slurmctld_log_file), NULL, NULL, 0, NULL },
	{ "SlurmctldPort", NULL, CK_PORTS, F(slurmctld_port), "6817", NULL, 0, NULL },
	{ "SlurmctldSyslogDebug", NULL, CK_LOG, NOF, NULL, NULL, 0, NULL },
	{ "SlurmctldPrimaryOffProg", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "SlurmctldPrimaryOnProg", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "SlurmctldTimeout", NULL, CK_U16, F(slurmctld_timeout), "120", " sec", 0, NULL },
	{ "SlurmctldParameters", NULL, CK_CTLDPAR, F(slurmctld_params), NULL, NULL, 0, NULL },
	{ "SlurmdDebug", NULL, CK_LOG, F(slurmd_debug), "info", NULL, 0, NULL },
	{ "SlurmdLogFile", NULL, CK_STR, F(slurmd_log_file), NULL, NULL, 0, NULL },
	{ "SlurmdParameters", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "SlurmdPidFile", NULL, CK_STR, F(slurmd_pid_file), "/var/run/slurmd.pid", NULL, 0, NULL },
	{ "SlurmdPort", NULL, CK_U16, F(slurmd_port), "6818", NULL, 0, NULL },
	{ "SlurmdSpoolDir", NULL, CK_STR, F(slurmd_spool_dir), "/var/spool/slurmd", NULL, 0, NULL },
	{ "SlurmdSyslogDebug", NULL, CK_LOG, NOF, NULL, NULL, 0, NULL },
	{ "SlurmdTimeout", NULL, CK_U16, F(slurmd_timeout), "300", " sec", 0, NULL },
	{ "SlurmdUser", NULL, CK_USER, F(slurmd_user), "root", NULL, 0, show_user },
	{ "SlurmSchedLogFile", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "SlurmSchedLogLevel", NULL, CK_U16, NOF, "0", NULL, 0, NULL },
	{ "SlurmctldPidFile", NULL, CK_STR, F(slurmctld_pid_file), "/var/run/slurmctld.pid",
	  NULL, 0, NULL },
	{ "SlurmctldPlugstack", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "SrunEpilog", NULL, CK_STR, F(srun_epilog), NULL, NULL, 0, NULL },
	{ "SrunPortRange", NULL, CK_RANGE, NOF, "0-0", NULL, 0, NULL },
	{ "SrunProlog", NULL, CK_STR, F(srun_prolog), NULL, NULL, 0, NULL },
	{ "StateSaveLocation", NULL, CK_STR, F(state_save_location), "/var/spool/slurmctld",
	  NULL, 0, NULL },
	{ "SuspendExcNodes", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "SuspendExcParts", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "SuspendExcStates", NULL, CK_STR, NOF, NULL, NULL, CKF_HIDE, NULL },
	{ "SuspendProgram", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "SuspendRate", NULL, CK_U16, NOF, "60", " nodes/min", 0, NULL },
	{ "SuspendTime", NULL, CK_SUSPEND, NOF, "INFINITE", NULL, 0, NULL },
	{ "SuspendTimeout", NULL, CK_U16, NOF, "30", " sec", 0, NULL },
	{ "SwitchParameters", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "SwitchType", NULL, CK_STR, F(switch_type), "switch/none", NULL, 0, NULL },
	{ "TaskEpilog", NULL, CK_STR, F(task_epilog), NULL, NULL, 0, NULL },
	{ "TaskPlugin", NULL, CK_STR, F(task_plugin), "task/none", NULL, 0, NULL },
	{ "TaskPluginParam", NULL, CK_STR, F(task_plugin_param), "(null type)", NULL, 0, NULL },
	{ "TaskProlog", NULL, CK_STR, F(task_prolog), NULL, NULL, 0, NULL },
	{ "TCPTimeout", NULL, CK_U16, NOF, "2", " sec", 0, NULL },
	{ "TmpFS", NULL, CK_STR, F(tmp_fs), "/tmp", NULL, 0, NULL },
	{ "TopologyParam", NULL, CK_STR, NOF, NULL, NULL, 0, NULL },
	{ "TopologyPlugin", NULL, CK_STR, NOF, "topology/none", NULL, 0, NULL },
	{ "TrackWCKey", NULL, CK_BOOL, F(track_wckey), "NO", NULL, 0, NULL },
	{ "TreeWidth", NULL, CK_U16, F(tree_width), "50", NULL, 0, NULL },
	{ "UsePAM", "UsePam", CK_BOOL, NOF, "NO", NULL, 0, NULL },
	{ "UnkillableStepProgram", NULL, CK_STR, F(unkillable_program), NULL, NULL, 0, NULL },
	{ "UnkillableStepTimeout", NULL, CK_U16, F(unkillable_timeout), "60", " sec", 0, NULL },
	{ "VSizeFactor", NULL, CK_U16, NOF, "0", " percent", 0, NULL },
	{ "WaitTime", NULL, CK_U16, F(wait_time), "0", " sec", 0, NULL },
	{ "X11Parameters", NULL, CK_STR, F(x11_params), NULL, NULL, 0, NULL },

	/* Accepted but not printed by scontrol show config. */
	{ "DefMemPerCPU", NULL, CK_MEM, F(def_mem_per_cpu), NULL, NULL, CKF_HIDE, NULL },
	{ "DefMemPerNode", NULL, CK_MEM, F(def_mem_per_node), NULL, NULL, CKF_HIDE, NULL },
	{ "MaxMemPerCPU", NULL, CK_MEM, F(max_mem_per_cpu), NULL, NULL, CKF_HIDE, NULL },
	{ "MaxMemPerNode", NULL, CK_MEM, F(max_mem_per_node), NULL, NULL, CKF_HIDE, NULL },
	/* Sluice's resumable jobs (ctld/job_ckpt.h): not in Slurm 25.05's
	 * scontrol show config */
	{ "CheckpointType", NULL, CK_STR, F(checkpoint_type),
	  "checkpoint/signal", NULL, CKF_HIDE, NULL },
	{ "CheckpointWait", NULL, CK_U32, F(checkpoint_wait), "60", " sec",
	  CKF_HIDE, NULL },
	{ "JobCheckpointDir", NULL, CK_STR, F(job_checkpoint_dir), NULL, NULL,
	  CKF_HIDE, NULL },
	HIDE("DefCpuPerGPU", CK_U64),
	HIDE("DefMemPerGPU", CK_MEM),
	HIDE("AccountingStorageLoc", CK_STR),
	HIDE("AccountingStoragePass", CK_STR),
	HIDE("AccountingStoreJobComment", CK_BOOL),
	HIDE("AcctGatherInfinibandType", CK_STR),
	HIDE("BackupAddr", CK_STR),
	HIDE("BackupController", CK_STR),
	HIDE("BurstBufferParameters", CK_STR),
	HIDE("CertgenParameters", CK_STR),
	HIDE("CertgenType", CK_STR),
	HIDE("CertmgrParameters", CK_STR),
	HIDE("CertmgrType", CK_STR),
	HIDE("ControlAddr", CK_STR),
	HIDE("ControlMachine", CK_STR),
	HIDE("CryptoType", CK_STR),
	HIDE("DataParserParameters", CK_STR),
	HIDE("EpilogTimeout", CK_U16),
	HIDE("FairShareDampeningFactor", CK_U16),
	HIDE("FastSchedule", CK_U16),
	HIDE("HashPlugin", CK_STR),
	HIDE("JobCompParams", CK_STR),
	HIDE("JobCompPass", CK_STR),
	HIDE("KeepAliveTime", CK_U32),
	{ "MaxBatchRequeue", NULL, CK_U32, F(max_batch_requeue), "5", NULL,
	  CKF_HIDE, NULL },
	HIDE("PreemptParameters", CK_STR),
	HIDE("PrologTimeout", CK_U16),
	HIDE("SallocDefaultCommand", CK_STR),
	HIDE("SbcastParameters", CK_STR),
	HIDE("SchedulerAuth", CK_STR),
	HIDE("SchedulerPort", CK_U16),
	HIDE("SchedulerRootFilter", CK_U16),
	HIDE("TLSParameters", CK_STR),
	HIDE("TLSType", CK_STR),
};

#define CONF_KEY_CNT (sizeof(conf_keys) / sizeof(conf_keys[0]))

size_t conf_key_count(void)
{
	return CONF_KEY_CNT;
}

const char *conf_key_name(size_t idx)
{
	return idx < CONF_KEY_CNT ? conf_keys[idx].name : NULL;
}

int conf_key_find(const char *key)
{
	int first = tolower((unsigned char)key[0]);

	/* The first letter weeds out nearly every key before strcasecmp. */
	for (size_t i = 0; i < CONF_KEY_CNT; i++)
		if (conf_keys[i].name &&
		    tolower((unsigned char)conf_keys[i].name[0]) == first &&
		    !strcasecmp(conf_keys[i].name, key))
			return (int)i;
	return -1;
}

static void *ck_field(conf_state_t *st, const conf_key_t *k)
{
	return (char *)st->c + k->off;
}

/* Strict unsigned decimal (no sign, no suffix). */
static int ck_num(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!s || !*s)
		return -1;
	for (const char *p = s; *p; p++) {
		if (!isdigit((unsigned char)*p))
			return -1;
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

static bool ck_is_unlimited(const char *s)
{
	return !strcasecmp(s, "UNLIMITED") || !strcasecmp(s, "INFINITE");
}

/* "6817" or "6817-6818"; lo is the first port. */
static int ck_range(const char *s, bool allow_single, uint64_t *lo, uint64_t *hi)
{
	const char *dash = strchr(s, '-');
	char *a;
	int rc;

	if (!dash) {
		if (!allow_single || ck_num(s, 65535, lo) < 0)
			return -1;
		*hi = *lo;
		return 0;
	}
	a = xstrndup(s, (size_t)(dash - s));
	rc = ck_num(a, 65535, lo);
	xfree(a);
	if (rc < 0 || ck_num(dash + 1, 65535, hi) < 0 || *hi < *lo)
		return -1;
	return 0;
}

static int ck_user(const char *s, uint32_t *uid)
{
	char name[256];
	uid_t u;
	uint64_t v;

	if (uid_cache_by_name(s, &u, NULL) == 0) {
		*uid = (uint32_t)u;
		return 0;
	}
	if (ck_num(s, UINT32_MAX - 1, &v) == 0 &&
	    uid_cache_name((uid_t)v, name, sizeof(name)) == 0) {
		*uid = (uint32_t)v;
		return 0;
	}
	return -1;
}

static int ck_set_str(conf_state_t *st, const conf_key_t *k, const char *v,
		      bool upper)
{
	char **f;

	if (k->off == NOF)
		return 0;
	f = ck_field(st, k);
	xfree(*f);
	*f = *v ? xstrdup(v) : NULL;
	if (upper && *f)
		for (char *p = *f; *p; p++)
			*p = (char)toupper((unsigned char)*p);
	return 0;
}

static int ck_store_num(conf_state_t *st, const conf_key_t *k, uint64_t v)
{
	void *f;

	if (k->off == NOF)
		return 0;
	f = ck_field(st, k);
	switch (k->kind) {
	case CK_U16:
	case CK_UNLIM16:
	case CK_PORTS:
		*(uint16_t *)f = (uint16_t)v;
		break;
	case CK_U32:
		*(uint32_t *)f = (uint32_t)v;
		break;
	case CK_U64:
	case CK_MEM:
		*(uint64_t *)f = v;
		break;
	case CK_BOOL:
	case CK_BOOL01:
		*(bool *)f = v != 0;
		break;
	case CK_LOG:
		*(int *)f = (int)v;
		break;
	default:
		break;
	}
	return 0;
}

/* Check v; store it if the key has a field.  -1 on a bad value. */
static int ck_parse(conf_state_t *st, const conf_key_t *k, const char *v)
{
	uint64_t n = 0, hi;
	uint32_t u32;
	bool b;
	int lvl;

	switch (k->kind) {
	case CK_STR:
		return ck_set_str(st, k, v, false);
	case CK_UPPER:
		return ck_set_str(st, k, v, true);
	case CK_U16:
		if (ck_num(v, UINT16_MAX, &n) < 0)
			return -1;
		return ck_store_num(st, k, n);
	case CK_U32:
		if (ck_num(v, UINT32_MAX, &n) < 0)
			return -1;
		return ck_store_num(st, k, n);
	case CK_U64:
		if (ck_num(v, UINT64_MAX, &n) < 0)
			return -1;
		return ck_store_num(st, k, n);
	case CK_BOOL:
		if (parse_bool(v, &b) < 0)
			return -1;
		return ck_store_num(st, k, b);
	case CK_BOOL01:
		if (ck_num(v, UINT16_MAX, &n) < 0)
			return -1;
		return ck_store_num(st, k, n);
	case CK_MEM:
		if (parse_mem_mb(v, &n) < 0)
			return -1;
		return ck_store_num(st, k, n);
	case CK_LOG:
		if ((lvl = log_level_from_string(v)) < 0)
			return -1;
		return ck_store_num(st, k, (uint64_t)lvl);
	case CK_UNLIM16:
		if (ck_is_unlimited(v))
			n = INFINITE16;
		else if (ck_num(v, NO_VAL16 - 1, &n) < 0)
			return -1;
		return ck_store_num(st, k, n);
	case CK_SUSPEND:
		if (ck_is_unlimited(v) || !strcasecmp(v, "NONE") ||
		    !strcmp(v, "-1"))
			return 0;
		return ck_num(v, UINT32_MAX, &n);
	case CK_SECS:
		return parse_duration_sec(v, &u32) < 0 ? -1 : 0;
	case CK_MINS:
		return parse_duration_min(v, &u32) < 0 ? -1 : 0;
	case CK_PORTS:
		if (ck_range(v, true, &n, &hi) < 0 || n == 0)
			return -1;
		return ck_store_num(st, k, n);
	case CK_RANGE:
		return ck_range(v, false, &n, &hi);
	case CK_USER:
		if (ck_user(v, &u32) < 0)
			return -1;
		if (k->off == F(slurm_user))
			st->c->slurm_user_id = u32;
		return ck_set_str(st, k, v, false);
	case CK_PRIVATE: {
		uint32_t bits;
		char err[128];

		if (conf_parse_private_data(v, &bits, err, sizeof(err)) < 0)
			return -1;
		return ck_set_str(st, k, v, false);
	}
	case CK_CTLDPAR: {
		rl_conf_t rl;
		char err[128];

		if (conf_parse_rl(v, &rl, err, sizeof(err)) < 0)
			return -1;
		return ck_set_str(st, k, v, false);
	}
	case CK_PROLOGF: {
		uint32_t bits;
		char err[128];

		if (conf_parse_prolog_flags(v, &bits, err, sizeof(err)) < 0)
			return -1;
		return ck_set_str(st, k, v, false);
	}
	case CK_ACCTENF: {
		uint32_t bits;
		char err[128];

		if (conf_parse_acct_enforce(v, &bits, err, sizeof(err)) < 0)
			return -1;
		return ck_set_str(st, k, v, false);
	}
	case CK_STOREF: {
		uint32_t bits;
		char err[128];

		if (conf_parse_acct_store_flags(v, &bits, err, sizeof(err)) < 0)
			return -1;
		return ck_set_str(st, k, v, false);
	}
	case CK_LICENSES: {
		lic_list_t l;
		char err[128];

		if (lic_conf_parse(v, &l, err, sizeof(err)) < 0)
			return -1;
		lic_list_free(&l);
		return ck_set_str(st, k, v, false);
	}
	case CK_ENFORCE:
		if (!strcasecmp(v, "YES"))
			v = "ALL";
		if (strcasecmp(v, "ALL") && strcasecmp(v, "ANY") &&
		    strcasecmp(v, "NO"))
			return -1;
		return ck_set_str(st, k, v, true);
	case CK_SPECIAL:
		break;
	}
	return -1;
}

int conf_key_set(conf_state_t *st, int idx, const char *value)
{
	const conf_key_t *k = &conf_keys[idx];

	if (ck_parse(st, k, value) < 0) {
		char err[160] = "";

		if (k->kind == CK_PRIVATE) {
			uint32_t bits;

			conf_parse_private_data(value, &bits, err, sizeof(err));
			return conf_fail(st, "%s", err);
		}
		if (k->kind == CK_PROLOGF) {
			uint32_t bits;

			conf_parse_prolog_flags(value, &bits, err, sizeof(err));
			return conf_fail(st, "%s", err);
		}
		if (k->kind == CK_ACCTENF) {
			uint32_t bits;

			conf_parse_acct_enforce(value, &bits, err, sizeof(err));
			return conf_fail(st, "%s", err);
		}
		if (k->kind == CK_STOREF) {
			uint32_t bits;

			conf_parse_acct_store_flags(value, &bits, err,
						    sizeof(err));
			return conf_fail(st, "%s", err);
		}
		if (k->kind == CK_CTLDPAR) {
			rl_conf_t rl;

			conf_parse_rl(value, &rl, err, sizeof(err));
			return conf_fail(st, "%s", err);
		}
		if (k->kind == CK_LICENSES) {
			lic_list_t l;

			lic_conf_parse(value, &l, err, sizeof(err));
			return conf_fail(st, "Licenses=%s: %s", value, err);
		}
		if (k->kind == CK_USER)
			return conf_fail(st, "%s: unknown user \"%s\"", k->name,
					 value);
		return conf_fail(st, "invalid value \"%s\" for %s", value,
				 k->name);
	}
	return 0;
}

void conf_keys_defaults(conf_state_t *st)
{
	for (size_t i = 0; i < CONF_KEY_CNT; i++) {
		const conf_key_t *k = &conf_keys[i];

		if (k->off == NOF || !k->def)
			continue;
		if (ck_parse(st, k, k->def) < 0 && k->kind == CK_USER) {
			/* No such user here: keep the name, uid 0. */
			ck_set_str(st, k, k->def, false);
		}
	}
}

/* The raw value written for a key (by name), or NULL. */
static const char *ck_raw(conf_state_t *st, const char *name)
{
	int idx = conf_key_find(name);

	return idx < 0 ? NULL : st->raw[idx];
}

static int ck_host_entry(conf_state_t *st, const char *v, char **host,
			 char **addr)
{
	const char *lp = strchr(v, '(');
	size_t len = strlen(v);

	if (!*v)
		return -1;
	if (!lp) {
		*host = xstrdup(v);
		*addr = NULL;
		return 0;
	}
	if (lp == v || v[len - 1] != ')' || len - (size_t)(lp - v) < 3)
		return -1;
	*host = xstrndup(v, (size_t)(lp - v));
	*addr = xstrndup(lp + 1, len - (size_t)(lp - v) - 2);
	return 0;
}

/* "localhost" as a controller name stands for this host's short name
 * (the address stays "localhost"). */
static char *ck_ctld_name(char *host)
{
	char buf[256], *dot;

	if (strcasecmp(host, "localhost") || gethostname(buf, sizeof(buf)) < 0)
		return host;
	buf[sizeof(buf) - 1] = '\0';
	if ((dot = strchr(buf, '.')))
		*dot = '\0';
	xfree(host);
	return xstrdup(buf);
}

static void ck_ctld_push(slurm_conf_t *c, char *host, char *addr)
{
	if (!addr)
		addr = xstrdup(host);
	host = ck_ctld_name(host);
	c->ctld_hosts = xrealloc(c->ctld_hosts, (c->ctld_host_cnt + 1) * sizeof(char *));
	c->ctld_addrs = xrealloc(c->ctld_addrs, (c->ctld_host_cnt + 1) * sizeof(char *));
	c->ctld_hosts[c->ctld_host_cnt] = host;
	c->ctld_addrs[c->ctld_host_cnt] = addr;
	c->ctld_host_cnt++;
}

/* SlurmctldHost=name(addr), repeatable; else the old ControlMachine,
 * ControlAddr, BackupController, BackupAddr. */
static int ck_ctld_hosts(conf_state_t *st)
{
	const char *cm, *be;
	char *host, *addr;

	for (size_t i = 0; st->ctld_raw && st->ctld_raw[i]; i++) {
		if (ck_host_entry(st, st->ctld_raw[i], &host, &addr) < 0) {
			st->where = st->ctld_where[i];
			conf_fail(st, "invalid value \"%s\" for SlurmctldHost",
				  st->ctld_raw[i]);
			st->where = NULL;
			return -1;
		}
		for (size_t j = 0; j < st->c->ctld_host_cnt; j++) {
			if (strcmp(st->c->ctld_hosts[j], host))
				continue;
			st->where = st->ctld_where[i];
			conf_fail(st, "SlurmctldHost \"%s\" is given more than once",
				  host);
			st->where = NULL;
			xfree(host);
			xfree(addr);
			return -1;
		}
		ck_ctld_push(st->c, host, addr);
	}
	if (st->c->ctld_host_cnt)
		return 0;
	if ((cm = ck_raw(st, "ControlMachine")))
		ck_ctld_push(st->c, xstrdup(cm),
			     xstrdup(ck_raw(st, "ControlAddr")));
	if (cm && (be = ck_raw(st, "BackupController")))
		ck_ctld_push(st->c, xstrdup(be),
			     xstrdup(ck_raw(st, "BackupAddr")));
	return 0;
}

int conf_keys_finish(conf_state_t *st)
{
	slurm_conf_t *c = st->c;

	if (ck_ctld_hosts(st) < 0)
		return -1;
	if (!c->accounting_storage_port && conf_accounting_dbd(c))
		c->accounting_storage_port = 6819;
	if (!c->plugstack_config)
		c->plugstack_config = conf_sibling_path(c, "plugstack.conf");
	if (c->first_job_id > c->max_job_id) {
		int idx = conf_key_find("FirstJobId");

		st->where = st->raw_where[idx];
		conf_fail(st, "FirstJobId (%u) is greater than MaxJobId (%u)",
			  c->first_job_id, c->max_job_id);
		st->where = NULL;
		return -1;
	}
	return 0;
}

void conf_keys_free(slurm_conf_t *c)
{
	for (size_t i = 0; i < CONF_KEY_CNT; i++) {
		const conf_key_t *k = &conf_keys[i];
		char **f;

		if (k->off == NOF)
			continue;
		if (k->kind != CK_STR && k->kind != CK_UPPER &&
		    k->kind != CK_USER && k->kind != CK_ENFORCE &&
		    k->kind != CK_PRIVATE && k->kind != CK_CTLDPAR &&
		    k->kind != CK_ACCTENF && k->kind != CK_PROLOGF &&
		    k->kind != CK_STOREF)
			continue;
		f = (char **)((char *)c + k->off);
		xfree(*f);
	}
}

/* ---- printing ------------------------------------------------------- */

static const char *ck_text(conf_state_t *st, const conf_key_t *k)
{
	int idx = (int)(k - conf_keys);

	return st->raw[idx] ? st->raw[idx] : k->def;
}

/* "7-00:00:00", "00:05:00" from seconds. */
static char *ck_fmt_secs(uint32_t s)
{
	uint32_t d = s / 86400, h = s / 3600 % 24, m = s / 60 % 60;

	if (d)
		return xstrdup_printf("%u-%02u:%02u:%02u", d, h, m, s % 60);
	return xstrdup_printf("%02u:%02u:%02u", h, m, s % 60);
}

static char *ck_show_num(const conf_key_t *k, const char *t)
{
	uint64_t n = 0;

	if (k->kind == CK_UNLIM16 && ck_is_unlimited(t))
		return xstrdup("UNLIMITED");
	if (k->kind == CK_MEM)
		parse_mem_mb(t, &n);
	else
		ck_num(t, UINT64_MAX, &n);
	return xstrdup_printf("%llu%s", (unsigned long long)n,
			      k->unit ? k->unit : "");
}

static char *ck_show_generic(conf_state_t *st, const conf_key_t *k)
{
	const char *t = ck_text(st, k);
	uint32_t u = 0;
	bool b = false;
	int lvl;

	if (!t || (!*t && k->kind != CK_STR))
		return xstrdup("(null)");
	switch (k->kind) {
	case CK_UPPER:
	case CK_ENFORCE: {
		char *s = xstrdup(!strcasecmp(t, "YES") &&
				  k->kind == CK_ENFORCE ? "ALL" : t);

		for (char *p = s; *p; p++)
			*p = (char)toupper((unsigned char)*p);
		return s;
	}
	case CK_BOOL:
		parse_bool(t, &b);
		return xstrdup(b ? "Yes" : "No");
	case CK_LOG:
		lvl = log_level_from_string(t);
		return xstrdup(log_level_to_string((log_level_t)lvl));
	case CK_SUSPEND:
		if (ck_is_unlimited(t) || !strcasecmp(t, "NONE") ||
		    !strcmp(t, "-1"))
			return xstrdup("INFINITE");
		return xstrdup_printf("%s sec", t);
	case CK_SECS:
		parse_duration_sec(t, &u);
		return ck_fmt_secs(u);
	case CK_MINS:
		parse_duration_min(t, &u);
		return ck_fmt_secs(u * 60);
	case CK_U16:
	case CK_U32:
	case CK_U64:
	case CK_BOOL01:
	case CK_MEM:
	case CK_UNLIM16:
		return ck_show_num(k, t);
	default:
		return xstrdup(t);
	}
}

static char *show_fixed(conf_state_t *st, const conf_key_t *k)
{
	return xstrdup(k->def);
}

static char *show_acct_enforce(conf_state_t *st, const conf_key_t *k)
{
	const char *v = st->c->accounting_storage_enforce;

	return xstrtolower(xstrdup(v ? v : "none"));
}

static char *show_acct_port(conf_state_t *st, const conf_key_t *k)
{
	return xstrdup_printf("%u", st->c->accounting_storage_port);
}

static char *show_mem(uint64_t per_cpu, uint64_t per_node, bool *cpu)
{
	*cpu = per_cpu && !per_node;
	if (*cpu)
		return xstrdup_printf("%llu", (unsigned long long)per_cpu);
	if (per_node)
		return xstrdup_printf("%llu", (unsigned long long)per_node);
	return xstrdup("UNLIMITED");
}

static char *show_def_mem(conf_state_t *st, const conf_key_t *k)
{
	bool cpu;

	return show_mem(st->c->def_mem_per_cpu, st->c->def_mem_per_node, &cpu);
}

static char *show_max_mem(conf_state_t *st, const conf_key_t *k)
{
	bool cpu;

	return show_mem(st->c->max_mem_per_cpu, st->c->max_mem_per_node, &cpu);
}

static char *show_job_defaults(conf_state_t *st, const conf_key_t *k)
{
	const char *cpg = ck_raw(st, "DefCpuPerGPU");
	const char *mpg = ck_raw(st, "DefMemPerGPU");
	char *out = NULL;
	uint64_t mb = 0;

	if (cpg)
		xstrfmtcat(&out, "DefCpuPerGPU=%s", cpg);
	if (mpg && parse_mem_mb(mpg, &mb) == 0)
		xstrfmtcat(&out, "%sDefMemPerGPU=%llu", out ? "," : "",
			   (unsigned long long)mb);
	return out ? out : xstrdup("(null)");
}

static char *show_max_dbd_msgs(conf_state_t *st, const conf_key_t *k)
{
	const char *t = ck_text(st, k);
	uint64_t n;

	if (t)
		return ck_show_num(k, t);
	n = (uint64_t)st->c->max_job_count * 2 + st->c->node_cnt * 4;
	if (n < 10000)
		n = 10000;
	return xstrdup_printf("%llu", (unsigned long long)n);
}

static char *show_max_node_cnt(conf_state_t *st, const conf_key_t *k)
{
	const char *t = ck_text(st, k);

	if (t)
		return ck_show_num(k, t);
	return xstrdup_printf("%zu", st->c->node_cnt);
}

static char *show_user(conf_state_t *st, const conf_key_t *k)
{
	const char *name = *(char **)ck_field(st, k);
	char pw_name[256];
	uint32_t uid = 0;

	if (!name)
		return xstrdup("(null)");
	if (ck_user(name, &uid) < 0)
		return xstrdup_printf("%s(?)", name);
	if (uid_cache_name((uid_t)uid, pw_name, sizeof(pw_name)) == 0)
		name = pw_name;
	return xstrdup_printf("%s(%u)", name, uid);
}

static void ck_kv_add(slurm_conf_t *c, const char *key, char *value)
{
	c->kv = xrealloc(c->kv, (c->kv_cnt + 1) * sizeof(*c->kv));
	c->kv[c->kv_cnt].key = xstrdup(key);
	c->kv[c->kv_cnt].value = value;
	c->kv_cnt++;
}

static void ck_kv_ctld(slurm_conf_t *c)
{
	for (size_t i = 0; i < c->ctld_host_cnt; i++) {
		char key[48];

		snprintf(key, sizeof(key), "SlurmctldHost[%zu]", i);
		if (strcmp(c->ctld_hosts[i], c->ctld_addrs[i]))
			ck_kv_add(c, key, xstrdup_printf("%s(%s)", c->ctld_hosts[i],
							 c->ctld_addrs[i]));
		else
			ck_kv_add(c, key, xstrdup(c->ctld_hosts[i]));
	}
}

/* scontrol show config prints the multifactor weights unless
 * PriorityType is priority/basic (Slurm's rule; any other plugin has
 * factors) */
static bool ck_multifactor(const slurm_conf_t *c)
{
	return c->priority_type && *c->priority_type &&
	       strcmp(c->priority_type, "priority/basic") &&
	       strcmp(c->priority_type, "basic");
}

bool conf_accounting_dbd(const slurm_conf_t *c)
{
	const char *t = c ? c->accounting_storage_type : NULL;

	return t && (!strcmp(t, "accounting_storage/slurmdbd") ||
		     !strcmp(t, "slurmdbd"));
}

void conf_keys_build_kv(slurm_conf_t *c)
{
	char **none = c->raw ? NULL : xcalloc(CONF_KEY_CNT, sizeof(char *));
	conf_state_t state = { .c = c, .raw = c->raw ? c->raw : none };
	conf_state_t *st = &state;

	for (size_t i = 0; i < CONF_KEY_CNT; i++) {
		const conf_key_t *k = &conf_keys[i];
		const char *key = k->show ? k->show : k->name;

		if ((k->flags & CKF_HIDE) ||
		    ((k->flags & CKF_MF) && !ck_multifactor(c)))
			continue;
		if (k->kind == CK_SPECIAL && !k->fn) {
			ck_kv_ctld(c);
			continue;
		}
		if (k->off != NOF && k->kind == CK_STR && !k->fn) {
			const char *v = *(char **)ck_field(st, k);

			ck_kv_add(c, key, xstrdup(v ? v : "(null)"));
			continue;
		}
		/* Memory per CPU, when set, is printed under its own name. */
		if (k->fn == show_def_mem && c->def_mem_per_cpu &&
		    !c->def_mem_per_node)
			key = "DefMemPerCPU";
		if (k->fn == show_max_mem && c->max_mem_per_cpu &&
		    !c->max_mem_per_node)
			key = "MaxMemPerCPU";
		ck_kv_add(c, key, k->fn ? k->fn(st, k) : ck_show_generic(st, k));
	}
	c->kv_show_cnt = c->kv_cnt;
	/* Keys set in the file that scontrol does not print: kept too. */
	for (size_t i = 0; i < CONF_KEY_CNT; i++) {
		const conf_key_t *k = &conf_keys[i];

		if (!st->raw[i])
			continue;
		if ((k->flags & CKF_HIDE) ||
		    ((k->flags & CKF_MF) && !ck_multifactor(c)))
			ck_kv_add(c, k->name, xstrdup(st->raw[i]));
	}
	xfree(none);
}
