/* conf_use.c — the treatment of every slurm.conf key and option word
 * (conf_use.h).  One row per key; tests/unit/test_conf_use.c checks that
 * the rows and the parser's tables name the same keys, that each
 * IMPLEMENTED row's test exists, that each REFUSED row stops a load and
 * each WARNED row is reported, and that doc/admin-guide.md lists them all.
 */
#include "common/conf_use.h"
#include "common/conf_internal.h"

#include <string.h>
#include <strings.h>

/* Scalar keys. */
#define I(k, mod, t)   { "", k, CONF_USE_IMPLEMENTED, mod, NULL, t }
#define P(k)           { "", k, CONF_USE_PLUGIN, \
			 "the plugin context resolves the name", NULL, NULL }
#define R(k, ok, why)  { "", k, CONF_USE_REFUSED, why, ok, NULL }
#define W(k, why)      { "", k, CONF_USE_WARNED, why, NULL, NULL }
/* Keys of a record, words of a list key. */
#define SI(s, k, mod, t)  { s, k, CONF_USE_IMPLEMENTED, mod, NULL, t }
#define SR(s, k, ok, why) { s, k, CONF_USE_REFUSED, why, ok, NULL }
#define SW(s, k, why)     { s, k, CONF_USE_WARNED, why, NULL, NULL }

/* Keys the code acts on that no test observes yet (listed by the unit
 * test; each needs one). */
#define UNTESTED "untested"

#define NO_POWER "not in Sluice's power saving"
#define OBSOLETE "a key of an older Slurm; Slurm 25.05 ignores it"
#define TUNING "a tuning knob of Slurm's own implementation; Sluice's " \
	       "does not have that limit"

static const conf_use_t conf_use[] = {
	/* ---- scalar keys ---------------------------------------------- */
	R("AccountingStorageBackupHost", NULL,
	  "the controller does not fail over to a second slurmdbd"),
	I("AccountingStorageEnforce", "ctld/assoc_mgr.c",
	  "test_assoc.py::test_reconfigure_changes_enforcement"),
	I("AccountingStorageHost", "ctld/acct_send.c",
	  "test_assoc.py::test_user_without_association_is_rejected"),
	R("AccountingStorageExternalHost", NULL,
	  "there is no external slurmdbd registration"),
	R("AccountingStorageParameters", NULL,
	  "the connection to slurmdbd takes no TLS parameters"),
	I("AccountingStoragePort", "ctld/acct_send.c",
	  "test_assoc.py::test_user_without_association_is_rejected"),
	I("AccountingStorageTRES", "the option words below",
	  "test_licenses.py::test_sacct_license_tres"),
	P("AccountingStorageType"),
	W("AccountingStorageUser",
	  "read only by accounting_storage/mysql; with slurmdbd the user is "
	  "slurmdbd.conf's StorageUser"),
	I("AccountingStoreFlags", "ctld/acct_job.c and the option words below",
	  "test_sacct_script.py::test_script_env_and_comment_are_kept"),
	P("AcctGatherEnergyType"),
	R("AcctGatherFilesystemType", "acct_gather_filesystem/none",
	  "no filesystem accounting plugin"),
	R("AcctGatherInterconnectType", "acct_gather_interconnect/none",
	  "no interconnect accounting plugin"),
	I("AcctGatherNodeFreq", "slurmd/energy_rapl.c",
	  "test_energy.py::test_node_power_in_scontrol_show_node"),
	R("AcctGatherProfileType",
	  "acct_gather_profile/none|acct_gather_profile/slurmdbd",
	  "Slurm's hdf5 and influxdb stores are not built; Sluice keeps "
	  "job profiles in slurmdbd (sacct --profile)"),
	R("AllowSpecResourcesUsage", "NO|0",
	  "jobs cannot use specialized cores and memory"),
	P("AuthAltTypes"),
	I("AuthAltParameters", "common/jwt.c",
	  "test_jwt.py::test_disable_token_creation"),
	I("AuthInfo", "common/auth.c", "test_auth.py::test_foreign_munge_key_refused"),
	P("AuthType"),
	I("BatchStartTimeout", "ctld/job_state.c, job_mgr.c",
	  "test_batch_start_timeout.py::test_unconfirmed_launch_is_requeued"),
	I("BcastExclude", "cli/cli_bcast.c", "test_sbcast.py::test_bcast_exclude_conf"),
	I("BcastParameters", "cli/sbcast.c",
	  "test_sbcast.py::test_bcast_parameters"),
	P("BurstBufferType"),
	P("CliFilterPlugins"),
	I("CheckpointType", "ctld/job_ckpt.c, slurmd/stepd/criu.c",
	  "test_checkpoint.py::test_criu_failure_is_a_plain_requeue"),
	I("CheckpointWait", "ctld/job_ckpt.c",
	  "test_checkpoint.py::test_preempt_mode_checkpoint"),
	I("ClusterName", "ctld/controller.c", "test_slurm_compat.py::test_scontrol_show_assoc_mgr"),
	I("CommunicationParameters", "common/comm_params.c and the option "
	  "words below", "test_comm_params.py::test_keepalive_on_connections"),
	I("CompleteWait", "ctld/job_mgr.c, sched.c, backfill.c",
	  "test_conf_act.py::test_complete_wait_holds_the_queue"),
	R("CoreSpecPlugin", "core_spec/none", "no core specialization plugin"),
	R("CpuFreqDef", "Unknown", "steps do not set CPU frequencies"),
	W("CpuFreqGovernors",
	  "limits srun --cpu-freq, which Sluice refuses"),
	P("CredType"),
	I("DebugFlags", "common/debug_flags.c and the option words below",
	  "test_debug_flags.py::test_show_config_lists_the_flags"),
	I("DependencyParameters", "ctld/job_depend.c and the option words below",
	  "test_depend.py::test_kill_invalid_depend_parameter"),
	R("DisableRootJobs", "NO|0", "root's jobs are not refused"),
	W("EioTimeout", TUNING),
	I("EnforcePartLimits", "ctld/job_validate.c",
	  "test_partitions.py::test_enforce_part_limits"),
	I("Epilog", "slurmd/epilog.c",
	  "test_node_prolog.py::test_epilog_changed_takes_effect_on_reconfigure"),
	W("EpilogMsgTime", TUNING),
	I("EpilogSlurmctld", "ctld/job_prolog.c",
	  "test_prolog_slurmctld.py::test_prolog_before_launch_and_epilog_after"),
	R("ExtSensorsType", "ext_sensors/none", "no external sensors plugin"),
	W("ExtSensorsFreq", "a knob of ExtSensorsType, which is none"),
	W("FederationParameters", "Sluice clusters are never federated"),
	I("FirstJobId", "ctld/job_mgr.c", "test_conf_keys.py::test_first_job_id"),
	W("GetEnvTimeout", "sbatch --get-user-env is refused"),
	I("GresTypes", "ctld/job_validate.c", "test_select.py::test_cpus_and_mem_per_gpu"),
	R("GpuFreqDef", "high,memory=high", "steps do not set GPU frequencies"),
	R("GroupUpdateForce", "1", "group membership is always refreshed"),
	I("GroupUpdateTime", "ctld/user_groups.c",
	  "test_group_update.py::test_group_update_time"),
	I("HealthCheckInterval", "ctld/node_health.c",
	  "test_health_check.py::test_health_check_program"),
	I("HealthCheckNodeState", "ctld/node_health.c",
	  "test_health_check.py::test_health_check_program"),
	I("HealthCheckProgram", "slurmd/health.c",
	  "test_health_check.py::test_health_check_program"),
	I("InactiveLimit", "ctld/job_inactive.c, cli/cli_heartbeat.c",
	  "test_inactive_limit.py::test_stopped_salloc_job_times_out"),
	W("InteractiveStepOptions",
	  "read only with LaunchParameters=use_interactive_step, which is "
	  "refused"),
	I("JobAcctGatherFrequency", "slurmd/stepd/step_acct.c",
	  "test_srun_acct.py::test_sstat_shows_growing_rss"),
	P("JobAcctGatherType"),
	I("JobAcctGatherParams", "slurmd/stepd/step_acct.c and the option "
	  "words below", "test_jag_params.py::test_over_memory_step_is_killed"),
	W("JobCompHost", "read by jobcomp/elasticsearch, kafka and mysql, which "
	  "Sluice does not have"),
	I("JobCompLoc", "plugins/jobcomp/filetxt",
	  "test_jobcomp.py::test_filetxt_records_each_end"),
	W("JobCompPort", "read by jobcomp/mysql, which Sluice does not have"),
	P("JobCompType"),
	W("JobCompUser", "read by jobcomp/mysql, which Sluice does not have"),
	P("JobContainerType"),
	W("JobCredentialPrivateKey",
	  "job credentials are signed through the auth plugin"),
	W("JobCredentialPublicCertificate",
	  "job credentials are signed through the auth plugin"),
	R("JobFileAppend", "0", "output files are not opened for appending by "
	  "default"),
	I("JobCheckpointDir", "ctld/job_ckpt.c",
	  "unit/test_conf.c::test_checkpoint_keys"),
	I("JobRequeue", "ctld/job_submit.c",
	  "test_node_fail.py::test_slurmd_sigkill_node_down_job_node_fail"),
	P("JobSubmitPlugins"),
	I("KillOnBadExit", "cli/srun_opt.c",
	  "test_conf_act.py::test_kill_on_bad_exit_ends_the_step"),
	I("KillWait", "ctld/job_mgr.c",
	  "test_job_time.py::test_kill_wait_between_term_and_kill"),
	I("LaunchParameters", "the option words below",
	  "unit/test_conf_use.c::test_list_words"),
	R("LaunchType", "launch/slurm", "srun launches through slurmd only"),
	I("Licenses", "ctld/lic_mgr.c",
	  "test_licenses.py::test_two_jobs_share_three_licenses"),
	R("LogTimeFormat", "iso8601_ms", "log lines carry ISO 8601 times with "
	  "milliseconds only"),
	I("MailDomain", "ctld/job_submit.c",
	  "test_conf_act.py::test_mail_domain_qualifies_the_user"),
	I("MailProg", "ctld/job_mail.c", "test_mail.py::test_mail_events"),
	I("MaxArraySize", "ctld/job_array.c",
	  "test_conf_keys.py::test_max_array_size"),
	W("MaxDBDMsgs", "the accounting outbox is durable and never drops "
	  "records"),
	I("MaxJobCount", "ctld/job_validate.c",
	  "test_conf_keys.py::test_max_job_count"),
	I("MaxJobId", "ctld/job_mgr.c", "test_conf_keys.py::test_first_job_id"),
	I("MaxNodeCount", "ctld/node_mgr.c",
	  "test_dynamic_nodes.py::test_bad_requests_are_refused"),
	I("MaxStepCount", "ctld/step_mgr.c", "test_conf_act.py::test_max_step_count"),
	I("MaxTasksPerNode", "ctld/step_mgr.c", "test_conf_act.py::test_max_tasks_per_node"),
	P("MCSPlugin"),
	W("MCSParameters", "a knob of MCSPlugin"),
	I("MessageTimeout", "common/net.c",
	  "faults/test_net_cut.py::test_network_cut_and_heal"),
	I("MinJobAge", "ctld/job_mgr.c", "test_conf_keys.py::test_min_job_age"),
	P("MpiDefault"),
	I("MpiParams", "ctld/resv_ports.c (ports=low-high; other words "
	  "refused)", "test_resv_ports.py::test_steps_get_reserved_ports"),
	P("NodeFeaturesPlugins"),
	I("OverTimeLimit", "ctld/job_mgr.c",
	  "unit/test_conf.c::test_syntax"),
	I("PluginDir", "common/plugin.c",
	  "test_job_submit_lua.py::test_refused_without_time_with_message"),
	I("PlugStackConfig", "common/spank_conf.c",
	  "test_spank.py::test_missing_required_plugin_stops_sbatch"),
	R("PowerParameters", NULL, "Sluice has no power capping"),
	R("PowerPlugin", "power/none", "Sluice has no power capping"),
	I("PreemptMode", "ctld/preempt.c", "test_preempt.py::test_requeue_mode"),
	P("PreemptType"),
	I("PreemptExemptTime", "ctld/preempt.c",
	  "test_conf_keys.py::test_preempt_exempt_time"),
	W("PrEpParameters", "no PrEp plugin of Slurm reads it"),
	P("PrEpPlugins"),
	W("PriorityParameters", "no priority plugin of Slurm reads it"),
	W("PrioritySiteFactorParameters",
	  "passed to a PrioritySiteFactorPlugin; none of Sluice's reads it"),
	P("PrioritySiteFactorPlugin"),
	I("PriorityDecayHalfLife", "ctld/fairshare.c",
	  "test_fairshare.py::test_fairshare_orders_equal_jobs"),
	I("PriorityCalcPeriod", "ctld/priority.c",
	  "test_sched.py::test_sprio_factors_match_weights"),
	I("PriorityFavorSmall", "ctld/priority.c",
	  "unit/test_backfill.c::test_multifactor"),
	I("PriorityFlags", "ctld/fairshare.c and the option words below",
	  "test_fairshare.py::test_fairshare_parent_then_classic"),
	I("PriorityMaxAge", "ctld/priority.c",
	  "unit/test_backfill.c::test_multifactor"),
	I("PriorityUsageResetPeriod", "ctld/fairshare.c",
	  UNTESTED),
	P("PriorityType"),
	I("PriorityWeightAge", "ctld/priority.c",
	  "test_sched.py::test_sprio_factors_match_weights"),
	I("PriorityWeightAssoc", "ctld/priority.c",
	  UNTESTED),
	I("PriorityWeightFairshare", "ctld/priority.c",
	  "test_fairshare.py::test_fairshare_orders_equal_jobs"),
	I("PriorityWeightJobSize", "ctld/priority.c",
	  "test_sched.py::test_sprio_factors_match_weights"),
	I("PriorityWeightPartition", "ctld/priority.c",
	  "test_sched.py::test_sprio_factors_match_weights"),
	I("PriorityWeightQOS", "ctld/priority.c",
	  "test_sched.py::test_sprio_factors_match_weights"),
	I("PriorityWeightTRES", "ctld/priority.c",
	  "test_conf_keys.py::test_priority_weight_tres"),
	I("PrivateData", "ctld/rpc.c",
	  "test_auth.py::test_private_data_jobs_nodes_partitions"),
	P("ProctrackType"),
	I("Prolog", "slurmd/step_prolog.c",
	  "test_node_prolog.py::test_srun_job_runs_prolog_on_each_node_then_epilog"),
	R("PrologEpilogTimeout", "65534|0",
	  "prologs and epilogs are not timed out"),
	I("PrologSlurmctld", "ctld/job_prolog.c",
	  "test_prolog_slurmctld.py::test_prolog_before_launch_and_epilog_after"),
	I("PrologFlags", "slurmd/launch_prolog.c and the option words below",
	  "test_extern.py::test_batch_job_prolog_at_alloc_and_extern_step"),
	R("PropagatePrioProcess", "0", "tasks do not inherit srun's nice value"),
	I("PropagateResourceLimits", "common/rlimits.c (sbatch, srun, slurmstepd)",
	  "test_conf_act.py::test_propagate_option_picks_the_limits"),
	I("PropagateResourceLimitsExcept",
	  "common/rlimits.c (sbatch, srun, slurmstepd)",
	  "test_conf_act.py::test_limits_follow_the_job"),
	I("RebootProgram", "ctld/node_reboot.c, slurmd/reboot.c",
	  "test_reboot.py::test_reboot_idle_node"),
	I("ReconfigFlags", "ctld/part_mgr.c and the option words below",
	  "test_part_update.py::test_reconfig_flags_keep_part_info"),
	I("RequeueExit", "ctld/job_ops.c",
	  "test_conf_act.py::test_requeue_exit_runs_the_job_again"),
	I("RequeueExitHold", "ctld/job_ops.c",
	  "test_conf_act.py::test_requeue_exit_hold_is_special_exit"),
	I("ResumeFailProgram", "ctld/power_save.c",
	  "test_power_save.py::test_resume_that_hangs_is_killed_node_down_job_requeued"),
	I("ResumeProgram", "ctld/power_save.c",
	  "test_power_save.py::test_idle_nodes_power_down_and_job_resumes_them"),
	I("ResumeRate", "ctld/power_save.c",
	  "test_power_save.py::test_rates_with_64_nodes_and_admin_only"),
	I("ResumeTimeout", "ctld/node_reboot.c (a rebooted node's return), "
	  "ctld/power_save.c", "test_reboot.py::test_resume_timeout_sets_down"),
	R("ResvEpilog", NULL, "reservations run no programs"),
	I("ResvOverRun", "ctld/resv_mgr.c", UNTESTED),
	R("ResvProlog", NULL, "reservations run no programs"),
	I("ReturnToService", "ctld/node_state.c",
	  "test_node_fail.py::test_return_to_service"),
	R("RoutePlugin", "route/default", "messages fan out along the "
	  "TreeWidth tree only"),
	I("SchedulerParameters", "ctld/sched_params.c and the option words "
	  "below", "test_sched.py::test_squeue_answers_during_long_backfill_pass"),
	I("SchedulerTimeSlice", "ctld/gang.c",
	  "test_gang.py::test_two_jobs_share_one_cpu"),
	P("SchedulerType"),
	I("ScronParameters", "ctld/crontab.c (enable, explicit_scancel)",
	  "test_scrontab.py::test_runs_each_minute_across_a_restart"),
	P("SelectType"),
	I("SelectTypeParameters", "ctld/job_res.c and the option words below",
	  "test_select.py::test_node_use_shown"),
	I("SlurmUser", "ctld/controller.c",
	  "test_privsep.py::test_slurmctld_runs_as_slurm_user"),
	R("SlurmctldAddr", NULL, "commands reach the controller at its "
	  "SlurmctldHost address"),
	I("SlurmctldDebug", "ctld/controller.c",
	  "test_conf_keys.py::test_site_config_starts_and_logs_what_is_not_in_force"),
	I("SlurmctldHost", "common/conf_keys.c",
	  "faults/test_backup_ctld.py::test_backup_takes_over_and_gives_back"),
	I("SlurmctldLogFile", "ctld/controller.c",
	  "test_conf_keys.py::test_site_config_starts_and_logs_what_is_not_in_force"),
	I("SlurmctldPort", "ctld/controller.c",
	  "test_output_format.py::test_scontrol_ping"),
	R("SlurmctldSyslogDebug", NULL, "the daemons do not log to syslog"),
	R("SlurmctldPrimaryOffProg", NULL, "no program runs on a controller "
	  "role change"),
	R("SlurmctldPrimaryOnProg", NULL, "no program runs on a controller "
	  "role change"),
	I("SlurmctldTimeout", "ctld/ha.c",
	  "faults/test_backup_ctld.py::test_backup_takes_over_and_gives_back"),
	I("SlurmctldParameters", "ctld/rate_limit.c and the option words below",
	  "test_hostile.py::test_rate_limit_backs_users_off"),
	I("SlurmdDebug", "slurmd/slurmd.c",
	  "test_health_check.py::test_health_check_program"),
	I("SlurmdLogFile", "slurmd/slurmd.c",
	  "test_health_check.py::test_health_check_program"),
	I("SlurmdParameters", "ctld/node_state.c and the option words below",
	  "test_select.py::test_node_use_shown"),
	I("SlurmdPidFile", "slurmd/slurmd.c",
	  "test_stepd_fork.py::test_fork_server_ends_with_slurmd"),
	I("SlurmdPort", "slurmd/slurmd.c", "test_tree.py::test_launch_reaches_every_node"),
	I("SlurmdSpoolDir", "slurmd/slurmd.c",
	  "test_extern.py::test_pam_slurm_adopt_joins_newest_job_and_dies_with_it"),
	R("SlurmdSyslogDebug", NULL, "the daemons do not log to syslog"),
	I("SlurmdTimeout", "ctld/node_state.c",
	  "test_node_fail.py::test_slurmd_sigkill_node_down_job_node_fail"),
	R("SlurmdUser", "root|0", "slurmd runs as root"),
	R("SlurmSchedLogFile", NULL, "the scheduler writes no log of its own"),
	R("SlurmSchedLogLevel", "0", "the scheduler writes no log of its own"),
	I("SlurmctldPidFile", "ctld/controller.c",
	  "test_restart.py::test_second_controller_refused_and_harmless"),
	R("SlurmctldPlugstack", NULL, "the controller loads no SPANK plugins"),
	I("SrunEpilog", "cli/srun_script.c",
	  "test_conf_act.py::test_srun_prolog_and_epilog_run"),
	R("SrunPortRange", "0-0", "srun listens on any free port"),
	I("SrunProlog", "cli/srun_script.c",
	  "test_conf_act.py::test_srun_prolog_and_epilog_run"),
	I("StateSaveLocation", "ctld/state_save.c",
	  "test_restart.py::test_restart_sigkill_keeps_acknowledged"),
	I("SuspendExcNodes", "ctld/power_save.c",
	  "test_power_save.py::test_resume_that_hangs_is_killed_node_down_job_requeued"),
	I("SuspendExcParts", "ctld/power_save.c",
	  "test_power_save.py::test_rates_with_64_nodes_and_admin_only"),
	I("SuspendExcStates", "ctld/power_conf.c",
	  "unit/test_power_save.c::test_exc_states"),
	I("SuspendProgram", "ctld/power_save.c",
	  "test_power_save.py::test_idle_nodes_power_down_and_job_resumes_them"),
	I("SuspendRate", "ctld/power_save.c",
	  "test_power_save.py::test_rates_with_64_nodes_and_admin_only"),
	I("SuspendTime", "ctld/power_save.c",
	  "test_power_save.py::test_idle_nodes_power_down_and_job_resumes_them"),
	I("SuspendTimeout", "ctld/power_save.c",
	  "test_power_save.py::test_idle_nodes_power_down_and_job_resumes_them"),
	W("SwitchParameters", "a knob of SwitchType"),
	P("SwitchType"),
	I("TaskEpilog", "slurmd/stepd/step_task.c",
	  "test_task_prolog.py::test_batch_task_prolog_and_epilog"),
	P("TaskPlugin"),
	I("TaskPluginParam", "slurmd/stepd/affinity.c",
	  "test_cpu_bind.py::test_task_plugin_param_is_the_default"),
	I("TaskProlog", "slurmd/stepd/task.c",
	  "test_task_prolog.py::test_srun_task_prolog_exports"),
	W("TCPTimeout", TUNING),
	I("TmpFS", "slurmd/reg.c", "test_conf_keys.py::test_tmp_fs"),
	I("TopologyParam", "ctld/topo_mgr.c",
	  "test_topology.py::test_topology_param_dragonfly_refused"),
	P("TopologyPlugin"),
	I("TrackWCKey", "ctld/job_validate.c",
	  "test_wckey.py::test_default_and_given_wckey_reach_sacct"),
	I("TreeWidth", "common/forward.c", "test_tree.py::test_launch_reaches_every_node"),
	R("UsePAM", "NO|0", "steps do not open PAM sessions"),
	I("UnkillableStepProgram", "slurmd/unkillable.c",
	  "test_unkillable.py::test_requeued_job_running_again_is_not_unkillable"),
	I("UnkillableStepTimeout", "slurmd/unkillable.c",
	  "test_unkillable.py::test_stuck_step_drains_node"),
	/* as Slurm's: only with JobAcctGatherParams=OverMemoryKill */
	I("VSizeFactor", "slurmd/stepd/step_acct.c",
	  "test_jag_params.py::test_vsize_factor_kills_a_large_address_space"),
	I("WaitTime", "cli/srun_opt.c", "test_conf_act.py::test_wait_time_kills_the_rest"),
	I("X11Parameters", "slurmd/stepd/step_x11.c",
	  "test_x11.py::test_home_xauthority"),
	I("DefMemPerCPU", "ctld/job_validate.c", "test_conf_keys.py::test_mem_per_cpu"),
	I("DefMemPerNode", "ctld/job_validate.c", "test_conf_keys.py::test_mem_per_node"),
	I("MaxMemPerCPU", "ctld/job_validate.c", "test_conf_keys.py::test_mem_per_cpu"),
	I("MaxMemPerNode", "ctld/job_validate.c", "test_conf_keys.py::test_mem_per_node"),
	R("DefCpuPerGPU", NULL, "no CPUs are given per GPU by default"),
	R("DefMemPerGPU", NULL, "no memory is given per GPU by default"),
	W("AccountingStorageLoc", "read only by accounting_storage/filetxt, "
	  "which Slurm no longer has"),
	W("AccountingStoragePass", "the controller authenticates to slurmdbd "
	  "with AuthType and AuthInfo (a wrong socket shows as refused "
	  "credentials, not silently)"),
	R("AccountingStoreJobComment", "NO|0", "job comments are not stored in "
	  "accounting"),
	R("AcctGatherInfinibandType", "acct_gather_infiniband/none",
	  "no interconnect accounting plugin"),
	I("BackupAddr", "common/conf_keys.c", "unit/test_conf.c::test_syntax"),
	I("BackupController", "common/conf_keys.c", "unit/test_conf.c::test_syntax"),
	W("BurstBufferParameters", "a knob of BurstBufferType"),
	R("CertgenParameters", NULL, "Sluice has no TLS"),
	R("CertgenType", "certgen/none", "Sluice has no TLS"),
	R("CertmgrParameters", NULL, "Sluice has no TLS"),
	R("CertmgrType", "certmgr/none", "Sluice has no TLS"),
	I("ControlAddr", "common/conf_keys.c", "unit/test_conf.c::test_syntax"),
	I("ControlMachine", "common/conf_keys.c", "unit/test_conf.c::test_syntax"),
	W("CryptoType", OBSOLETE),
	R("DataParserParameters", NULL,
	  "--json and --yaml always use the newest data_parser"),
	R("EpilogTimeout", "65534|0", "prologs and epilogs are not timed out"),
	R("FairShareDampeningFactor", "1", "fair-share usage is not damped"),
	W("FastSchedule", OBSOLETE),
	W("HashPlugin", "messages are hashed by the auth plugin's own scheme"),
	W("JobCompParams", "read by jobcomp/elasticsearch and kafka, which "
	  "Sluice does not have"),
	W("JobCompPass", "read by jobcomp/mysql, which Sluice does not have"),
	W("KeepAliveTime", OBSOLETE),
	I("MaxBatchRequeue", "ctld/job_ops.c",
	  "test_conf_act.py::test_max_batch_requeue_holds_the_job"),
	R("PreemptParameters", NULL, "preemption takes no options"),
	R("PrologTimeout", "65534|0", "prologs and epilogs are not timed out"),
	W("SallocDefaultCommand", OBSOLETE),
	W("SbcastParameters", "the old name of BcastParameters, which Sluice "
	  "reads instead"),
	W("SchedulerAuth", OBSOLETE),
	W("SchedulerPort", OBSOLETE),
	W("SchedulerRootFilter", OBSOLETE),
	R("TLSParameters", NULL, "Sluice has no TLS"),
	R("TLSType", "tls/none", "Sluice has no TLS"),

	/* ---- PartitionName lines -------------------------------------- */
	SI("PartitionName", "PartitionName", "ctld/part_mgr.c",
	   "test_partitions.py::test_limits_make_jobs_wait"),
	SR("PartitionName", "AllocNodes", "ALL",
	   "any node may allocate from any partition"),
	SI("PartitionName", "AllowAccounts", "ctld/job_validate.c",
	   "test_partitions.py::test_refusals"),
	SI("PartitionName", "AllowGroups", "ctld/job_validate.c",
	   "test_partitions.py::test_refusals"),
	SR("PartitionName", "AllowQos", "ALL", "partitions do not check QOS"),
	SR("PartitionName", "Alternate", NULL, "jobs are not moved to an "
	   "alternate partition"),
	SR("PartitionName", "CpuBind", NULL, "the binding default comes from "
	   "TaskPluginParam only"),
	SR("PartitionName", "DefCpuPerGPU", NULL,
	   "no CPUs are given per GPU by default"),
	SI("PartitionName", "DefMemPerCPU", "ctld/job_validate.c",
	   "test_conf_keys.py::test_mem_per_cpu"),
	SR("PartitionName", "DefMemPerGPU", NULL,
	   "no memory is given per GPU by default"),
	SI("PartitionName", "DefMemPerNode", "ctld/job_validate.c",
	   "test_conf_keys.py::test_mem_per_node"),
	SI("PartitionName", "Default", "ctld/part_mgr.c",
	   "test_partitions.py::test_limits_make_jobs_wait"),
	SI("PartitionName", "DefaultTime", "ctld/job_validate.c",
	   "test_partitions.py::test_default_time_exclusive_weight_spread"),
	SI("PartitionName", "DenyAccounts", "ctld/job_validate.c",
	   "test_partitions.py::test_refusals"),
	SR("PartitionName", "DenyQos", NULL, "partitions do not check QOS"),
	SR("PartitionName", "DisableRootJobs", "NO|0",
	   "root's jobs are not refused"),
	SR("PartitionName", "ExclusiveTopo", "NO|0",
	   "Sluice has no topology-exclusive allocation"),
	SI("PartitionName", "ExclusiveUser", "ctld/part_limits.c",
	   "test_conf_act.py::test_exclusive_user"),
	SI("PartitionName", "GraceTime", "ctld/preempt.c",
	   "test_preempt.py::test_cancel_mode_with_grace"),
	SI("PartitionName", "Hidden", "ctld/job_info_rpc.c",
	   "test_partitions.py::test_refusals"),
	SI("PartitionName", "LLN", "ctld/select.c",
	   "test_conf_act.py::test_partition_lln_spreads"),
	SI("PartitionName", "MaxCPUsPerNode", "ctld/part_limits.c",
	   "test_conf_act.py::test_max_cpus_per_node"),
	SR("PartitionName", "MaxCPUsPerSocket", "UNLIMITED|INFINITE",
	   "CPUs are not limited per socket"),
	SI("PartitionName", "MaxMemPerCPU", "ctld/job_validate.c",
	   "test_conf_keys.py::test_mem_per_cpu"),
	SI("PartitionName", "MaxMemPerNode", "ctld/job_validate.c",
	   "test_conf_keys.py::test_mem_per_node"),
	SI("PartitionName", "MaxNodes", "ctld/job_validate.c",
	   "test_partitions.py::test_limits_make_jobs_wait"),
	SI("PartitionName", "MaxTime", "ctld/job_validate.c",
	   "test_partitions.py::test_unlimited_time_waits_for_partition_max_time"),
	SI("PartitionName", "MinNodes", "ctld/job_validate.c",
	   "test_partitions.py::test_limits_make_jobs_wait"),
	SI("PartitionName", "Nodes", "ctld/part_mgr.c",
	   "test_partitions.py::test_limits_make_jobs_wait"),
	SI("PartitionName", "OverSubscribe", "ctld/job_res.c (FORCE:N, YES:N "
	   "share CPUs; ctld/gang.c time-slices them)",
	   "test_gang.py::test_two_jobs_share_one_cpu"),
	SI("PartitionName", "OverTimeLimit", "ctld/job_mgr.c",
	   "unit/test_conf.c::test_partition_defaults_and_flags"),
	SR("PartitionName", "PowerDownOnIdle", "NO|0", "nodes are powered "
	   "down after SuspendTime, not after each job"),
	SI("PartitionName", "PreemptMode", "ctld/preempt.c",
	   "test_preempt.py::test_cancel_mode_with_grace"),
	SI("PartitionName", "Priority", "ctld/priority.c",
	   "test_sched.py::test_sprio_factors_match_weights"),
	SI("PartitionName", "PriorityJobFactor", "ctld/priority.c",
	   "test_sched.py::test_sprio_factors_match_weights"),
	SI("PartitionName", "PriorityTier", "ctld/preempt.c",
	   "test_preempt.py::test_requeue_mode"),
	SI("PartitionName", "QOS", "ctld/assoc_limits.c",
	   "test_part_qos.py::test_partition_qos_limit_holds_jobs"),
	SR("PartitionName", "ReqResv", "NO|0",
	   "jobs are not required to name a reservation"),
	SW("PartitionName", "ResumeTimeout", "the global ResumeTimeout "
	   "applies to every node"),
	SI("PartitionName", "RootOnly", "ctld/job_validate.c",
	   "test_partitions.py::test_refusals"),
	SR("PartitionName", "SelectTypeParameters", NULL,
	   "allocation granularity is SelectTypeParameters' for every partition"),
	SI("PartitionName", "Shared", "ctld/job_res.c (as OverSubscribe)",
	   "unit/test_conf.c::test_partition_defaults_and_flags"),
	SI("PartitionName", "State", "ctld/part_mgr.c",
	   "test_partitions.py::test_refusals"),
	SI("PartitionName", "SuspendTime", "ctld/power_save.c",
	   "unit/test_power_save.c::test_partition_suspend_time"),
	SW("PartitionName", "SuspendTimeout", "the global SuspendTimeout "
	   "applies to every node"),
	SI("PartitionName", "TRESBillingWeights", "ctld/billing.c",
	   "test_conf_act.py::test_billing_weights"),
	SR("PartitionName", "Topology", NULL, "Sluice has one flat topology"),

	/* ---- NodeName lines ------------------------------------------- */
	SI("NodeName", "NodeName", "ctld/node_mgr.c",
	   "test_tree.py::test_launch_reaches_every_node"),
	SI("NodeName", "NodeHostname", "slurmd/slurmd.c",
	   "unit/test_conf.c::test_full"),
	SI("NodeName", "NodeAddr", "ctld/node_mgr.c",
	   "test_tree.py::test_launch_reaches_every_node"),
	SW("NodeName", "BcastAddr", "sbcast reaches each node at its NodeAddr"),
	SI("NodeName", "Port", "slurmd/slurmd.c",
	   "test_tree.py::test_launch_reaches_every_node"),
	SI("NodeName", "CPUs", "ctld/select.c", "test_select.py::test_node_use_shown"),
	SI("NodeName", "Procs", "ctld/select.c (as CPUs)", "unit/test_conf.c::test_full"),
	SI("NodeName", "Boards", "ctld/node_mgr.c", "unit/test_conf.c::test_full"),
	SI("NodeName", "SocketsPerBoard", "ctld/node_mgr.c",
	   "unit/test_conf.c::test_full"),
	SI("NodeName", "Sockets", "ctld/node_mgr.c", "test_cgroup.py::test_cores_and_reparented_daemon"),
	SI("NodeName", "CoresPerSocket", "ctld/node_mgr.c",
	   "test_cgroup.py::test_cores_and_reparented_daemon"),
	SI("NodeName", "ThreadsPerCore", "ctld/node_mgr.c",
	   "test_cgroup.py::test_cores_and_reparented_daemon"),
	SI("NodeName", "RealMemory", "ctld/select.c", "test_select.py::test_node_use_shown"),
	SI("NodeName", "TmpDisk", "ctld/node_state.c", "test_conf_keys.py::test_tmp_fs"),
	SI("NodeName", "Weight", "ctld/select.c",
	   "test_partitions.py::test_default_time_exclusive_weight_spread"),
	SI("NodeName", "Feature", "common/features.c (as Features)",
	   "unit/test_conf.c::test_full"),
	SI("NodeName", "Features", "common/features.c",
	   "test_select.py::test_constraint_and_exclusive"),
	SI("NodeName", "AvailableFeatures", "common/features.c (as Features)",
	   "unit/test_conf.c::test_full"),
	SR("NodeName", "ActiveFeatures", NULL,
	   "node features are never changed at run time"),
	SI("NodeName", "Gres", "ctld/select.c", "test_select.py::test_cpus_and_mem_per_gpu"),
	SI("NodeName", "State", "ctld/node_state.c",
	   "test_node_fail.py::test_return_to_service"),
	SI("NodeName", "Reason", "ctld/node_state.c", "unit/test_conf.c::test_full"),
	SR("NodeName", "CpuSpecList", NULL, "no CPUs are kept for system use"),
	SR("NodeName", "CoreSpecCount", "0", "no cores are kept for system use"),
	SR("NodeName", "MemSpecLimit", "0", "no memory is kept for system use"),
	SR("NodeName", "CpuBind", NULL, "the binding default comes from "
	   "TaskPluginParam only"),
	SR("NodeName", "Comment", NULL, "nodes carry no comment"),
	SR("NodeName", "Extra", NULL, "nodes carry no extra field"),
	SR("NodeName", "TRESWeights", NULL, "nodes carry no TRES weights"),
	SR("NodeName", "RestrictedCoresPerGPU", "0",
	   "no cores are kept for GPU jobs"),
	SR("NodeName", "Topology", NULL, "Sluice has one flat topology"),
	SR("NodeName", "Parameters", NULL, "nodes take no parameters"),

	/* ---- NodeSet, DownNodes, FrontendName lines ------------------- */
	SI("NodeSet", "NodeSet", "common/conf_parts.c", "unit/test_conf.c::test_nodeset"),
	SI("NodeSet", "Feature", "common/conf_parts.c", "unit/test_conf.c::test_nodeset"),
	SI("NodeSet", "Nodes", "common/conf_parts.c", "unit/test_conf.c::test_nodeset"),
	SI("DownNodes", "DownNodes", "ctld/node_state.c", "unit/test_conf.c::test_full"),
	SI("DownNodes", "Reason", "ctld/node_state.c", "unit/test_conf.c::test_full"),
	SI("DownNodes", "State", "ctld/node_state.c", "unit/test_conf.c::test_full"),
	SR("FrontendName", "FrontendName", NULL, "Sluice has no front end nodes"),
	SR("FrontendName", "FrontendAddr", NULL, "Sluice has no front end nodes"),
	SR("FrontendName", "Port", NULL, "Sluice has no front end nodes"),
	SR("FrontendName", "Reason", NULL, "Sluice has no front end nodes"),
	SR("FrontendName", "State", NULL, "Sluice has no front end nodes"),
	SR("FrontendName", "AllowGroups", NULL, "Sluice has no front end nodes"),
	SR("FrontendName", "AllowUsers", NULL, "Sluice has no front end nodes"),
	SR("FrontendName", "DenyGroups", NULL, "Sluice has no front end nodes"),
	SR("FrontendName", "DenyUsers", NULL, "Sluice has no front end nodes"),

	/* ---- SchedulerParameters words -------------------------------- */
#define SP "SchedulerParameters"
#define SP_T "test_sched.py::test_squeue_answers_during_long_backfill_pass"
	SI(SP, "sched_interval", "ctld/sched_params.c", "unit/test_backfill.c::test_params"),
	SI(SP, "default_queue_depth", "ctld/sched_params.c", "unit/test_backfill.c::test_params"),
	SI(SP, "sched_min_interval", "ctld/sched_params.c", "unit/test_backfill.c::test_params"),
	SI(SP, "max_sched_time", "ctld/sched_params.c", "unit/test_backfill.c::test_params"),
	SI(SP, "bf_interval", "ctld/backfill.c", SP_T),
	SI(SP, "bf_window", "ctld/backfill.c", "unit/test_backfill.c::test_multifactor"),
	SI(SP, "bf_resolution", "ctld/backfill.c", "unit/test_backfill.c::test_multifactor"),
	SI(SP, "bf_max_job_test", "ctld/backfill.c", SP_T),
	SI(SP, "bf_max_job_user", "ctld/backfill.c", UNTESTED),
	SI(SP, "bf_continue", "ctld/backfill.c", "unit/test_backfill.c::test_backfill_yields"),
	SI(SP, "bf_licenses", "ctld/backfill.c",
	   "unit/test_backfill.c::test_backfill_licenses_planned"),
	SI(SP, "bf_yield_interval", "ctld/backfill.c", SP_T),
	SI(SP, "bf_yield_sleep", "ctld/backfill.c", SP_T),
	SI(SP, "enable_user_top", "ctld/job_ops.c",
	   "test_conf_keys.py::test_enable_user_top"),
	SW(SP, "max_rpc_cnt", "the scheduler never waits for RPCs: " TUNING),
	SW(SP, "build_queue_timeout", TUNING),
	SW(SP, "bf_node_space_size", TUNING),
	SW(SP, "no_env_cache", "sbatch --get-user-env is refused"),
	SW(SP, "kill_invalid_depend", "moved to DependencyParameters in Slurm "
	   "20.11; Slurm 25.05 ignores it here"),
	SW(SP, "max_depend_depth", "moved to DependencyParameters in Slurm "
	   "20.11; Slurm 25.05 ignores it here"),
	SR(SP, "allow_zero_lic", NULL, "a job asking for more licenses than "
	   "configured is refused at submit"),
	SR(SP, "assoc_limit_stop", NULL, "the scheduler does not stop at a "
	   "job held by an association limit"),
	SR(SP, "batch_sched_delay", NULL, "batch jobs are not delayed"),
	SR(SP, "bf_busy_nodes", NULL, "backfill does not prefer busy nodes"),
	SR(SP, "bf_job_part_count_reserve", NULL, "backfill takes no such limit"),
	SR(SP, "bf_max_job_array_resv", NULL, "backfill takes no such limit"),
	SR(SP, "bf_max_job_assoc", NULL, "backfill takes no such limit"),
	SR(SP, "bf_max_job_part", NULL, "backfill takes no such limit"),
	SR(SP, "bf_max_job_start", NULL, "backfill takes no such limit"),
	SR(SP, "bf_max_job_user_part", NULL, "backfill takes no such limit"),
	SR(SP, "bf_max_time", NULL, "backfill takes no such limit"),
	SR(SP, "bf_min_age_reserve", NULL, "backfill takes no such limit"),
	SR(SP, "bf_min_prio_reserve", NULL, "backfill takes no such limit"),
	SR(SP, "bf_one_resv_per_job", NULL, "backfill takes no such option"),
	SR(SP, "bf_running_job_reserve", NULL, "backfill takes no such option"),
	SR(SP, "bf_window_linear", NULL, "backfill takes no such option"),
	SR(SP, "defer", NULL, "jobs are scheduled at submit"),
	SR(SP, "defer_batch", NULL, "jobs are scheduled at submit"),
	SR(SP, "delay_boot", NULL, "jobs do not ask for node reboots"),
	SR(SP, "disable_job_shrink", NULL, "jobs are not shrunk"),
	SR(SP, "enable_hetjob_steps", NULL, "a step spans one hetjob component"),
	SR(SP, "ignore_numa", NULL, "the scheduler takes no such option"),
	SR(SP, "max_array_tasks", NULL, "the scheduler takes no such limit"),
	SR(SP, "max_script_size", NULL, "the scheduler takes no such limit"),
	SI(SP, "max_switch_wait", "ctld/topo_mgr.c",
	   "test_topology.py::test_switches_wait"),
	SR(SP, "nohold_on_prolog_fail", NULL, "a failed prolog always holds"),
	SR(SP, "pack_serial_at_end", NULL, "the scheduler takes no such option"),
	SR(SP, "partition_job_depth", NULL, "the scheduler takes no such limit"),
	SR(SP, "preempt_reorder_count", NULL, "preemption takes no options"),
	SR(SP, "preempt_strict_order", NULL, "preemption takes no options"),
	SR(SP, "preempt_youngest_first", NULL, "preemption takes no options"),
	SR(SP, "reduce_completing_frag", NULL, "the scheduler takes no such "
	   "option"),
	SR(SP, "requeue_setup_env_fail", NULL, "the scheduler takes no such "
	   "option"),
	SR(SP, "salloc_wait_nodes", NULL, "nodes are never booted"),
	SR(SP, "sbatch_wait_nodes", NULL, "nodes are never booted"),
	SR(SP, "sched_max_job_start", NULL, "the scheduler takes no such limit"),
	SR(SP, "spec_cores_first", NULL, "no cores are kept for system use"),
	SR(SP, "step_retry_count", NULL, "steps are not retried"),
	SR(SP, "step_retry_time", NULL, "steps are not retried"),
	SR(SP, "time_min_as_soft_limit", NULL, "--time-min is a planning "
	   "limit only"),
	SR(SP, "whole_hetjob", NULL, "hetjob components are acted on as Slurm does by default"),

	/* ---- SlurmctldParameters words -------------------------------- */
#define CP "SlurmctldParameters"
#define CP_T "test_hostile.py::test_rate_limit_backs_users_off"
	SI(CP, "rl_enable", "ctld/rate_limit.c", CP_T),
	SI(CP, "rl_bucket_size", "ctld/rate_limit.c", CP_T),
	SI(CP, "rl_refill_rate", "ctld/rate_limit.c", CP_T),
	SI(CP, "rl_refill_period", "ctld/rate_limit.c", CP_T),
	SI(CP, "rl_table_size", "ctld/rate_limit.c", "unit/test_rate_limit.c::test_parse_defaults_and_keys"),
	SI(CP, "rl_log_freq", "ctld/rate_limit.c", CP_T),
	SW(CP, "enable_rpc_queue", TUNING),
	SW(CP, "enable_job_state_cache", TUNING),
	SW(CP, "conmgr_max_connections", TUNING),
	SW(CP, "conmgr_threads", TUNING),
	SW(CP, "conmgr_use_poll", TUNING),
	SW(CP, "conmgr_connect_timeout", TUNING),
	SW(CP, "conmgr_read_timeout", TUNING),
	SW(CP, "conmgr_write_timeout", TUNING),
	SW(CP, "conmgr_wait_write_delay", TUNING),
	SI(CP, "cloud_reg_addrs", "ctld/power_save.c",
	   "test_power_save.py::test_cloud_node_learns_its_address"),
	SI(CP, "power_save_interval", "ctld/power_save.c",
	   "test_power_save.py::test_idle_nodes_power_down_and_job_resumes_them"),
	SI(CP, "power_save_min_interval", "ctld/power_save.c", 
	   "unit/test_power_save.c::test_ctld_params"),
	SW(CP, "max_powered_nodes", "the number of powered-up nodes is not "
	   "limited"),
	SI(CP, "idle_on_node_suspend", "ctld/power_save.c", 
	   "unit/test_power_save.c::test_ctld_params"),
	SR(CP, "allow_user_triggers", NULL, "Sluice has no triggers"),
	SI(CP, "cloud_dns", "ctld/power_save.c (a cloud node keeps its "
	   "NodeAddr when powered down)",
	   "unit/test_power_save.c::test_ctld_params"),
	SR(CP, "disable_triggers", NULL, "Sluice has no triggers"),
	SI(CP, "enable_configless", "ctld/conf_serve.c",
	   "test_configless.py::test_configless_nodes_run_jobs"),
	SR(CP, "enable_stepmgr", NULL, "the controller manages every step"),
	SR(CP, "ignore_constraint_validation", NULL, "--constraint is always "
	   "checked against the nodes' features"),
	SR(CP, "max_dbd_msg_action", NULL, "the accounting outbox never drops "
	   "records"),
	SR(CP, "no_quick_restart", NULL, "the controller takes no such "
	   "option"),
	SR(CP, "node_reg_mem_percent", NULL, "a node registering less memory "
	   "than RealMemory is drained"),
	SR(CP, "reboot_from_controller", NULL, "RebootProgram runs on the "
	   "node, from its slurmd"),
	SR(CP, "user_resv_delete", NULL, "only operators delete reservations"),

	/* ---- SlurmdParameters words ----------------------------------- */
	SI("SlurmdParameters", "config_overrides", "ctld/node_state.c",
	   "test_select.py::test_node_use_shown"),
	SR("SlurmdParameters", "allow_ecores", NULL,
	   "slurmd counts the cores hwloc reports"),
	SR("SlurmdParameters", "contain_spank", NULL,
	   "SPANK runs outside the job's cgroup"),
	SR("SlurmdParameters", "l3cache_as_socket", NULL,
	   "slurmd counts the sockets hwloc reports"),
	SR("SlurmdParameters", "numa_node_as_socket", NULL,
	   "slurmd counts the sockets hwloc reports"),
	SR("SlurmdParameters", "shutdown_on_reboot", NULL,
	   "slurmd keeps running while RebootProgram reboots the node"),

	/* ---- AccountingStorageTRES words ------------------------------ */
#define AT "AccountingStorageTRES"
#define AT_T "test_licenses.py::test_sacct_license_tres"
	SI(AT, "cpu", "ctld/job_mgr.c", AT_T),
	SI(AT, "mem", "ctld/job_mgr.c", AT_T),
	SI(AT, "node", "ctld/job_mgr.c", AT_T),
	SI(AT, "billing", "ctld/job_mgr.c", AT_T),
	SI(AT, "energy", "ctld/acct_job.c", AT_T),
	SI(AT, "gres/gpu", "ctld/job_res.c", AT_T),
	/* any gres/<name>[:<type>] (conf_check.c): typed GPUs and other
	 * GRES in the job's TRES */
	SI(AT, "gres/*", "ctld/job_res.c",
	   "test_gres_types.py::test_typed_gpu_request"),
	/* any license/<name> (conf_check.c) */
	SI(AT, "license/*", "ctld/lic_mgr.c", AT_T),
	SW(AT, "fs/disk", "Slurm tracks it by default; Sluice's accounting "
	   "records no file system usage"),
	SW(AT, "vmem", "Slurm tracks it by default; Sluice's accounting "
	   "records no virtual memory usage as TRES"),
	SW(AT, "pages", "Slurm tracks it by default; Sluice's accounting "
	   "records no page faults as TRES"),
	/* ---- LaunchParameters words ----------------------------------- */
#define LP "LaunchParameters"
	SW(LP, "lustre_no_flush", "Sluice flushes no Lustre cache"),
	SW(LP, "mem_sort", "Sluice does not sort NUMA memory"),
	SW(LP, "disable_send_gids", "steps look groups up on the node"),
	SR(LP, "batch_step_set_cpu_freq", NULL, "steps do not set CPU "
	   "frequencies"),
	SR(LP, "cray_net_exclusive", NULL, "Sluice has no Cray network"),
	SR(LP, "enable_nss_slurm", NULL, "Sluice has no nss_slurm"),
	SR(LP, "mpir_use_nodeaddr", NULL, "srun's MPIR table takes no such "
	   "option"),
	SR(LP, "slurmstepd_memlock", NULL, "slurmstepd is not locked in "
	   "memory"),
	SR(LP, "slurmstepd_memlock_all", NULL, "slurmstepd is not locked in "
	   "memory"),
	SR(LP, "test_exec", NULL, "srun does not check the program first"),
	SR(LP, "use_interactive_step", NULL, "salloc runs its command on the "
	   "submit host"),
	SR(LP, "ulimit_pam_adopt", NULL, "pam_slurm_adopt sets no limits"),

	/* ---- SelectTypeParameters words ------------------------------- */
#define ST "SelectTypeParameters"
#define ST_T "test_select.py::test_node_use_shown"
	SI(ST, "CR_CPU", "ctld/job_res.c", "unit/test_select.c::test_whole_cores"),
	SI(ST, "CR_CPU_Memory", "ctld/job_res.c", "unit/test_select.c::test_whole_cores"),
	SI(ST, "CR_Core", "ctld/job_res.c", ST_T),
	SI(ST, "CR_Core_Memory", "ctld/job_res.c", ST_T),
	SI(ST, "CR_Memory", "ctld/job_res.c", ST_T),
	SI(ST, "CR_LLN", "ctld/select.c",
	   "test_conf_act.py::test_complete_wait_holds_the_queue"),
	SR(ST, "CR_Socket", NULL, "cores, not whole sockets, are allocated"),
	SR(ST, "CR_Socket_Memory", NULL,
	   "cores, not whole sockets, are allocated"),
	SR(ST, "CR_ONE_TASK_PER_CORE", NULL, "tasks are not limited per core"),
	SR(ST, "CR_CORE_DEFAULT_DIST_BLOCK", NULL,
	   "the task distribution default is cyclic"),
	SR(ST, "CR_Pack_Nodes", NULL, "tasks are spread as srun's -m says"),
	SR(ST, "LL_SHARED_GRES", NULL, "Sluice has no shared GRES"),
	SR(ST, "MULTIPLE_SHARING_GRES_PJ", NULL, "Sluice has no shared GRES"),
	SR(ST, "ENFORCE_BINDING_GRES", NULL, "GRES binding is not enforced"),
	SR(ST, "ONE_TASK_PER_SHARING_GRES", NULL, "Sluice has no shared GRES"),

	/* ---- PrologFlags words ---------------------------------------- */
#define PF "PrologFlags"
	SI(PF, "Alloc", "ctld/job_nprolog.c",
	   "test_extern.py::test_batch_job_prolog_at_alloc_and_extern_step"),
	SI(PF, "Contain", "slurmd/stepd/extern_step.c",
	   "test_extern.py::test_batch_job_prolog_at_alloc_and_extern_step"),
	SI(PF, "NoHold", "slurmd/step_prolog.c",
	   "test_extern.py::test_salloc_waits_for_prolog_and_srun_job_has_extern"),
	SR(PF, "DeferBatch", NULL, "batch scripts do not wait for every "
	   "node's prolog"),
	SR(PF, "ForceRequeueOnFail", NULL, "a failed prolog requeues only jobs "
	   "that may be requeued"),
	SR(PF, "Serial", NULL, "prologs and epilogs of different jobs may "
	   "run at the same time"),
	SI(PF, "X11", "ctld/job_validate.c",
	   "test_x11.py::test_srun_x11_draws_on_the_display"),

	/* ---- BcastParameters words ------------------------------------ */
	SI("BcastParameters", "DestDir", "cli/sbcast.c",
	   "test_sbcast.py::test_bcast_parameters"),
	SI("BcastParameters", "Compression", "common/bcast_block.c",
	   "test_sbcast.py::test_bcast_parameters"),
	SI("BcastParameters", "send_libs", "cli/srun_bcast.c",
	   "test_sbcast.py::test_bcast_parameters"),

	/* ---- X11Parameters words -------------------------------------- */
	SI("X11Parameters", "home_xauthority", "slurmd/stepd/step_x11.c",
	   "test_x11.py::test_home_xauthority"),

	/* ---- ReconfigFlags words -------------------------------------- */
#define RF "ReconfigFlags"
	SI(RF, "KeepPartInfo", "ctld/part_mgr.c",
	   "test_part_update.py::test_reconfig_flags_keep_part_info"),
	SI(RF, "KeepPartState", "ctld/part_mgr.c",
	   "test_part_update.py::test_reconfig_flags_keep_part_info"),
	SR(RF, "KeepNodeStateFuture", NULL, "Sluice has no FUTURE nodes"),
	SR(RF, "KeepPowerSaveSettings", NULL, NO_POWER),

	/* ---- AccountingStoreFlags words ------------------------------- */
#define SF "AccountingStoreFlags"
#define SF_T "test_sacct_script.py::test_script_env_and_comment_are_kept"
	SI(SF, "job_comment", "ctld/acct_job.c", SF_T),
	SI(SF, "job_env", "ctld/acct_job.c", SF_T),
	SI(SF, "job_script", "ctld/acct_job.c", SF_T),
	SR(SF, "job_extra", NULL, "jobs carry no extra field"),
	SW(SF, "no_stdio", "accounting keeps no stdin, stdout or stderr paths "
	   "anyway"),

	/* ---- DependencyParameters words ------------------------------- */
	SI("DependencyParameters", "kill_invalid_depend", "ctld/job_depend.c",
	   "test_depend.py::test_kill_invalid_depend_parameter"),
	SW("DependencyParameters", "disable_remote_singleton",
	   "the cluster is not federated"),
	SR("DependencyParameters", "max_depend_depth", NULL,
	   "circular dependencies are not searched for"),

	/* ---- PriorityFlags words -------------------------------------- */
#define PRF "PriorityFlags"
	SI(PRF, "NO_FAIR_TREE", "ctld/fairshare.c",
	   "test_fairshare.py::test_fairshare_parent_then_classic"),
	SI(PRF, "ACCRUE_ALWAYS", "ctld/priority.c",
	   "test_conf_keys.py::test_priority_flags_accrue_always"),
	SI(PRF, "CALCULATE_RUNNING", "ctld/priority.c", UNTESTED),
	SW(PRF, "FAIR_TREE", "fair tree is the default since Slurm 19.05"),
	SR(PRF, "DEPTH_OBLIVIOUS", NULL, "fair-share takes no such option"),
	SR(PRF, "INCR_ONLY", NULL, "priorities are recalculated both ways"),
	SR(PRF, "MAX_TRES", NULL, "the TRES factor is the weighted sum"),
	SR(PRF, "NO_NORMAL_ALL", NULL, "factors are always normalized"),
	SR(PRF, "NO_NORMAL_ASSOC", NULL, "factors are always normalized"),
	SR(PRF, "NO_NORMAL_PART", NULL, "factors are always normalized"),
	SR(PRF, "NO_NORMAL_QOS", NULL, "factors are always normalized"),
	SR(PRF, "NO_NORMAL_TRES", NULL, "factors are always normalized"),
	SR(PRF, "SMALL_RELATIVE_TO_TIME", NULL,
	   "the job size factor does not weigh the time limit"),

	/* ---- CommunicationParameters words ---------------------------- */
#define CMP "CommunicationParameters"
#define CMP_T "test_comm_params.py::"
	SI(CMP, "keepalivetime", "common/net.c",
	   CMP_T "test_keepalive_on_connections"),
	SI(CMP, "keepaliveinterval", "common/net.c",
	   CMP_T "test_keepalive_on_connections"),
	SI(CMP, "keepaliveprobes", "common/net.c",
	   CMP_T "test_keepalive_on_connections"),
	SI(CMP, "NoCtldInAddrAny", "ctld/ha.c",
	   CMP_T "test_no_in_addr_any_binds_own_addresses"),
	SI(CMP, "NoInAddrAny", "slurmd/slurmd.c, ctld/ha.c",
	   CMP_T "test_no_in_addr_any_binds_own_addresses"),
	SR(CMP, "EnableIPv6", NULL, "the daemons talk IPv4 only"),
	SR(CMP, "DisableIPv4", NULL, "the daemons talk IPv4 only"),
	SW(CMP, "DisableIPv6", "IPv6 is never used"),
	SW(CMP, "block_null_hash", "every credential carries the hash of its "
	   "message and a message without one is always refused"),
	SW(CMP, "NoAddrCache", "Sluice keeps no cache of node addresses"),
	SW(CMP, "getnameinfo_cache_timeout", "Sluice keeps no cache of "
	   "getnameinfo answers"),
	SW(CMP, "CheckGhalQuiesce", "a Cray Aries option"),

	/* ---- JobAcctGatherParams words -------------------------------- */
#define JP "JobAcctGatherParams"
#define JP_T "test_jag_params.py::"
	SI(JP, "OverMemoryKill", "slurmd/stepd/step_acct.c",
	   JP_T "test_over_memory_step_is_killed"),
	SI(JP, "UsePss", "slurmd/stepd/step_acct.c",
	   JP_T "test_use_pss_counts_shared_pages_once"),
	SI(JP, "NoShared", "slurmd/stepd/step_acct.c",
	   JP_T "test_no_shared_leaves_shared_pages_out"),
	SW(JP, "NoOverMemoryKill", "the default: the sampler kills nothing "
	   "without OverMemoryKill"),
	SW(JP, "DisableGPUAcct", "Sluice gathers no GPU usage"),

	/* ---- DebugFlags words ----------------------------------------- */
	/* the flags Sluice logs for: log_flag() lines (debug_flags.h) */
#define DFI(k, mod, t) SI("DebugFlags", k, mod, t)
#define DF_T "test_debug_flags.py::"
	DFI("Agent", "ctld/agent.c",
	    DF_T "test_setdebugflags_changes_the_running_controller"),
	DFI("Backfill", "ctld/backfill.c",
	    DF_T "test_backfill_flag_logs_the_pass"),
	DFI("CPU_Bind", "slurmd/stepd/affinity.c",
	    DF_T "test_node_side_and_jobcomp_flags"),
	DFI("Dependency", "ctld/job_depend.c",
	    DF_T "test_license_dependency_trigger_flags"),
	DFI("Gres", "ctld/job_res.c",
	    DF_T "test_gres_flag_logs_the_gpus_of_a_job"),
	DFI("JobComp", "ctld/jobcomp.c",
	    DF_T "test_node_side_and_jobcomp_flags"),
	DFI("JobAccountGather", "slurmd/stepd/step_acct.c",
	    "test_jag_params.py::test_jag_flag_logs_samples"),
	DFI("License", "ctld/lic_mgr.c",
	    DF_T "test_license_dependency_trigger_flags"),
	DFI("Priority", "ctld/priority.c",
	    DF_T "test_flags_log_their_subsystem"),
	DFI("Protocol", "ctld/rpc.c", DF_T "test_flags_log_their_subsystem"),
	DFI("Script", "slurmd/common/script.c",
	    DF_T "test_node_side_and_jobcomp_flags"),
	DFI("Reservation", "ctld/resv_mgr.c",
	    DF_T "test_reservation_and_select_flags"),
	DFI("Gang", "ctld/gang.c", "test_gang.py::test_two_jobs_share_one_cpu"),
	DFI("Route", "common/forward.c",
	    DF_T "test_setdebugflags_changes_the_running_controller"),
	DFI("SelectType", "ctld/job_res.c",
	    DF_T "test_reservation_and_select_flags"),
	DFI("Steps", "ctld/step_mgr.c", DF_T "test_flags_log_their_subsystem"),
	DFI("TraceJobs", "ctld/job_mgr.c",
	    DF_T "test_flags_log_their_subsystem"),
	DFI("Triggers", "ctld/trigger.c",
	    DF_T "test_license_dependency_trigger_flags"),
	/* the others name a subsystem Sluice does not have, or one that
	 * logs nothing more yet: accepted, reported once */
#define DF(k) SW("DebugFlags", k, "Sluice logs nothing more for it")
	DF("Accrue"), DF("AuditRPCs"), DF("AuditTLS"),
	DF("BackfillMap"), DF("BurstBuffer"), DF("Cgroup"),
	DF("ConMgr"), DF("CpuFrequency"), DF("Data"),
	DF("DBD_Agent"), DF("Elasticsearch"), DF("Energy"),
	DF("Federation"), DF("FrontEnd"), DF("Hetjob"),
	DF("GLOB_SILENCE"),
	DF("JobContainer"), DF("Network"), DF("NetworkRaw"),
	DF("NodeFeatures"), DF("NO_CONF_HASH"), DF("Power"),
	DF("Profile"), DF("Switch"), DF("TLS"),
};

#define CONF_USE_CNT (sizeof(conf_use) / sizeof(conf_use[0]))

/* List keys whose words are looked up one by one, and what an unknown
 * word gets: Slurm ignores unknown words of the WARNED ones and refuses
 * the others (a TRES Sluice does not account is refused too). */
static const struct {
	const char     *scope;
	conf_use_kind_t unknown;
} conf_use_lists[] = {
	{ "SchedulerParameters", CONF_USE_WARNED },
	{ "SlurmctldParameters", CONF_USE_WARNED },
	{ "SlurmdParameters", CONF_USE_WARNED },
	{ "LaunchParameters", CONF_USE_WARNED },
	{ "DependencyParameters", CONF_USE_WARNED },
	{ "SelectTypeParameters", CONF_USE_REFUSED },
	{ "PrologFlags", CONF_USE_REFUSED },
	{ "ReconfigFlags", CONF_USE_REFUSED },   /* unknown words */
	{ "PriorityFlags", CONF_USE_REFUSED },
	{ "AccountingStoreFlags", CONF_USE_REFUSED },
	{ "DebugFlags", CONF_USE_REFUSED },
	{ "CommunicationParameters", CONF_USE_WARNED },
	{ "JobAcctGatherParams", CONF_USE_WARNED },
	{ "AccountingStorageTRES", CONF_USE_REFUSED },
	{ "X11Parameters", CONF_USE_REFUSED },
	{ "BcastParameters", CONF_USE_REFUSED },
};

#define CONF_USE_LIST_CNT (sizeof(conf_use_lists) / sizeof(conf_use_lists[0]))

const conf_use_t *conf_use_table(size_t *cnt)
{
	*cnt = CONF_USE_CNT;
	return conf_use;
}

const conf_use_t *conf_use_find(const char *scope, const char *key)
{
	for (size_t i = 0; i < CONF_USE_CNT; i++)
		if (!strcasecmp(conf_use[i].scope, scope) &&
		    !strcasecmp(conf_use[i].key, key))
			return &conf_use[i];
	return NULL;
}

const char *conf_use_kind_name(conf_use_kind_t kind)
{
	static const char *const names[] = {
		[CONF_USE_IMPLEMENTED] = "IMPLEMENTED",
		[CONF_USE_PLUGIN] = "PLUGIN",
		[CONF_USE_REFUSED] = "REFUSED",
		[CONF_USE_WARNED] = "WARNED",
	};

	return (unsigned) kind < 4 ? names[kind] : "?";
}

const char *const *conf_use_list_scopes(void)
{
	static const char *scopes[CONF_USE_LIST_CNT + 1];

	for (size_t i = 0; i < CONF_USE_LIST_CNT; i++)
		scopes[i] = conf_use_lists[i].scope;
	return scopes;
}

/* -1: not a list key; else the index in conf_use_lists. */
int conf_use_list_index(const char *key)
{
	for (size_t i = 0; i < CONF_USE_LIST_CNT; i++)
		if (!strcasecmp(conf_use_lists[i].scope, key))
			return (int) i;
	return -1;
}

conf_use_kind_t conf_use_list_unknown(int idx)
{
	return conf_use_lists[idx].unknown;
}
