/* conf.h — slurm.conf: parse, hold, print.
 *
 * conf_load() reads the file named by its argument, or $SLURM_CONF, or
 * SLUICE_SYSCONFDIR/slurm.conf.  Keys are case-insensitive; '#' starts a
 * comment; "Include FILE" nests (relative to the including file's dir);
 * NodeName=DEFAULT / PartitionName=DEFAULT set defaults for later lines;
 * NodeName takes hostlists and expands to one conf_node_t per host (Port=
 * and NodeAddr= ranges spread over the hosts).  An unknown key or a bad
 * value fails the whole load with "file:line: message" in err and nothing
 * is returned: a caller never sees a half-parsed config.
 *
 * conf_kv() gives the effective value of every known key, spelled and
 * ordered as `scontrol show config` prints them (first show_cnt entries),
 * then the keys the file set that scontrol does not print
 * (AccountingStoragePass...).  That list is built the first time conf_kv()
 * or conf_get() asks for it: a command never does, and building it costs
 * more than the parse.
 */
#ifndef SLUICE_CONF_H
#define SLUICE_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
	char     *name;          /* NodeName */
	char     *addr;          /* NodeAddr (default: hostname, default: name) */
	char     *hostname;      /* NodeHostname (default: name) */
	uint16_t  port;          /* Port (default: SlurmdPort) */
	uint16_t  cpus;          /* CPUs (default: boards*sockets*cores*threads) */
	uint16_t  boards;
	uint16_t  sockets;       /* total sockets */
	uint16_t  cores_per_socket;
	uint16_t  threads_per_core;
	uint64_t  real_memory;   /* MB (default 1) */
	uint64_t  tmp_disk;      /* MB */
	uint32_t  weight;        /* default 1 */
	char     *features;      /* "a,b" or NULL */
	char     *gres;          /* "gpu:2" or NULL */
	char     *state;         /* State= as written (CLOUD/FUTURE/DOWN/DRAIN/...) or NULL */
	char     *reason;        /* Reason= */
	char     *cpu_spec_list;
	uint16_t  core_spec_cnt;
	uint64_t  mem_spec_limit;
} conf_node_t;

typedef struct {
	char     *name;
	char     *nodes;          /* Nodes= expression as written ("ALL" expanded) */
	bool      is_default;
	char     *state;          /* UP DOWN DRAIN INACTIVE */
	uint32_t  max_time;       /* minutes, INFINITE32 = UNLIMITED */
	uint32_t  default_time;   /* minutes, NO_VAL32 = NONE */
	uint32_t  max_nodes;      /* INFINITE32 = UNLIMITED */
	uint32_t  min_nodes;
	char     *allow_groups;   /* NULL = ALL */
	char     *allow_accounts; /* NULL = ALL */
	char     *deny_accounts;
	char     *allow_qos;
	char     *deny_qos;
	char     *qos;
	uint16_t  priority_job_factor;
	uint16_t  priority_tier;
	char     *oversubscribe;  /* NO YES EXCLUSIVE FORCE[:n] */
	bool      hidden;
	bool      root_only;
	bool      exclusive_user;
	bool      lln;
	uint32_t  grace_time;
	uint64_t  def_mem_per_cpu;   /* MB, 0 = unset */
	uint64_t  def_mem_per_node;
	uint64_t  max_mem_per_cpu;
	uint64_t  max_mem_per_node;
	uint32_t  max_cpus_per_node;
	char     *preempt_mode;
	char     *alternate;
	char     *tres_billing_weights;
	uint16_t  over_time_limit;   /* NO_VAL16 = NONE */
	bool      disable_root_jobs;
	bool      req_resv;
	/* for nodes added at run time (dynamic nodes): Nodes=ALL or a
	 * NodeSet of Nodes=ALL takes every node; a NodeSet by Feature=
	 * takes those with one of these features ("f1,f2" or NULL) */
	bool      nodes_all;
	char     *nodeset_features;
	uint32_t  suspend_time;      /* s; INFINITE32 never, NO_VAL32 global's */
} conf_part_t;

typedef struct {
	char *key;     /* spelled as Slurm spells it in `scontrol show config` */
	char *value;   /* effective value as printed */
} conf_kv_t;

typedef struct slurm_conf {
	char     *path;               /* the file loaded */
	char     *cluster_name;
	char    **ctld_hosts;         /* SlurmctldHost names, primary first */
	char    **ctld_addrs;         /* matching addresses (name if not given) */
	size_t    ctld_host_cnt;
	uint16_t  slurmctld_port;     /* 6817 */
	uint16_t  slurmd_port;        /* 6818 */
	char     *auth_type;          /* auth/munge */
	char     *auth_info;          /* e.g. socket=/run/munge/munge.socket.2 */
	char     *auth_alt_types;     /* AuthAltTypes: auth/jwt or NULL */
	char     *auth_alt_params;    /* AuthAltParameters: jwt_key=... */
	char     *cred_type;
	char     *plugin_dir;
	char     *state_save_location;
	char     *slurmd_spool_dir;   /* may contain %n / %h */
	char     *slurmctld_log_file;
	char     *slurmd_log_file;    /* may contain %n / %h */
	char     *slurmctld_pid_file;
	char     *slurmd_pid_file;    /* may contain %n / %h */
	int       slurmctld_debug;    /* log_level_t */
	int       slurmd_debug;
	char     *slurm_user;         /* SlurmUser (default root) */
	uint32_t  slurm_user_id;
	char     *slurmd_user;
	char     *slurmctld_params;   /* SlurmctldParameters, as written */
	char     *private_data;       /* PrivateData, as written */
	char     *job_submit_plugins; /* JobSubmitPlugins, as written */
	char     *cli_filter_plugins; /* CliFilterPlugins (the commands) */
	char     *site_factor_plugin; /* PrioritySiteFactorPlugin */
	char     *site_factor_params; /* PrioritySiteFactorParameters */
	uint16_t  slurmd_timeout;     /* s, 300 */
	uint16_t  slurmctld_timeout;  /* s, 120 */
	uint16_t  message_timeout;    /* s, 10 */
	uint16_t  kill_wait;          /* s, 30 */
	uint16_t  unkillable_timeout; /* s, 60: UnkillableStepTimeout */
	char     *unkillable_program; /* UnkillableStepProgram */
	uint16_t  inactive_limit;     /* s, 0: off (ctld/job_inactive.h) */
	uint16_t  batch_start_timeout; /* s, 10: a batch launch not
					* confirmed by then is lost */
	uint16_t  over_time_limit;
	uint16_t  resv_over_run;       /* ResvOverRun minutes (INFINITE16) */
	uint16_t  wait_time;
	uint16_t  group_update_time;  /* GroupUpdateTime, s; 0: never */
	uint32_t  min_job_age;        /* s, 300 */
	uint32_t  first_job_id;       /* 1 */
	uint32_t  max_job_id;         /* 0x03ff0000 */
	uint32_t  max_job_count;      /* 10000 */
	uint32_t  max_node_cnt;       /* MaxNodeCount; 0: the NodeName
				       * lines' count (no dynamic nodes) */
	uint32_t  max_array_size;     /* 1001 */
	uint16_t  return_to_service;  /* 0 */
	uint16_t  tree_width;
	char     *bcast_exclude;      /* BcastExclude: sbcast --exclude's
				       * default ("NONE" or directories) */
	char     *select_type;        /* select/cons_tres */
	char     *select_type_parameters;
	char     *scheduler_type;     /* sched/backfill */
	char     *scheduler_parameters;
	char     *scron_params;       /* ScronParameters: enable,
				       * explicit_scancel */
	char     *priority_type;      /* priority/basic */
	char     *proctrack_type;
	char     *task_plugin;
	char     *mpi_default;
	char     *switch_type;
	char     *job_container_type; /* JobContainerType */
	char     *launch_type;        /* LaunchType */
	char     *prep_plugins;       /* PrEpPlugins, as written */
	char     *job_comp_type;
	char     *job_comp_loc;       /* JobCompLoc */
	char     *job_acct_gather_type;
	char     *job_acct_gather_freq; /* "30" or "task=30,..." */
	char     *acct_gather_profile_type; /* profile.h's PROFILE_TYPE_* */
	char     *accounting_storage_type;
	char     *accounting_storage_host;
	uint16_t  accounting_storage_port;
	char     *accounting_storage_enforce;
	char     *prolog;
	char     *epilog;
	char     *acct_gather_energy_type;
	uint16_t  acct_gather_node_freq;  /* AcctGatherNodeFreq, s */
	char     *task_plugin_param;      /* TaskPluginParam, NULL if unset */
	char     *prolog_flags;   /* PrologFlags as written (checked) */
	char     *accounting_store_flags; /* AccountingStoreFlags (checked) */
	char     *task_prolog;    /* TaskProlog, TaskEpilog */
	char     *task_epilog;
	char     *prolog_slurmctld;
	char     *epilog_slurmctld;
	char     *tmp_fs;
	char     *x11_params;
	char     *bcast_params;   /* BcastParameters as written */     /* X11Parameters as written (checked) */
	uint64_t  def_mem_per_cpu;    /* MB, 0 = unset */
	uint64_t  def_mem_per_node;
	uint64_t  max_mem_per_cpu;
	uint64_t  max_mem_per_node;
	char     *enforce_part_limits; /* ALL ANY NO (default NO) */
	bool      job_requeue;        /* default true */
	bool      track_wckey;        /* TrackWCKey */
	char     *debug_flags;
	char     *comm_params;       /* CommunicationParameters (checked) */
	char     *jag_params;        /* JobAcctGatherParams */
	char     *mpi_params;        /* MpiParams (ports=low-high, checked) */
	char     *plugstack_config;
	char     *mail_prog;
	char     *dependency_params; /* DependencyParameters */
	char     *requeue_exit;      /* RequeueExit "1-9,18" (checked) */
	char     *requeue_exit_hold; /* RequeueExitHold */
	uint32_t  max_batch_requeue; /* MaxBatchRequeue, 5 */
	char     *checkpoint_type;   /* CheckpointType (Sluice): checkpoint/
				      * signal (default) or checkpoint/criu */
	char     *job_checkpoint_dir; /* JobCheckpointDir: per-job dirs under
				       * it; NULL: in each job's WorkDir */
	uint32_t  checkpoint_wait;   /* CheckpointWait (Sluice), s, 60 */
	uint16_t  kill_on_bad_exit;  /* KillOnBadExit: srun -K default */
	char     *propagate_rlimits; /* PropagateResourceLimits (checked) */
	char     *propagate_rlimits_except; /* ...Except */
	char     *srun_prolog;       /* SrunProlog, SrunEpilog */
	char     *srun_epilog;
	uint16_t  complete_wait;     /* CompleteWait, s */
	char     *mail_domain;       /* MailDomain */
	uint32_t  max_step_count;    /* MaxStepCount, 40000 */
	uint16_t  max_tasks_per_node; /* MaxTasksPerNode, 512 */

	conf_node_t *nodes;           /* expanded, in file order */
	size_t       node_cnt;
	conf_part_t *parts;
	size_t       part_cnt;

	/* private: conf_kv() builds these on first use, from raw */
	conf_kv_t   *kv;
	size_t       kv_cnt;
	size_t       kv_show_cnt;
	bool         kv_built;
	char       **raw;             /* per scalar key: the value the file set */
	char       **raw_where;       /* per scalar key: "file:line" of it */
	char        *ctld_where;      /* "file:line" of the first SlurmctldHost */
	char       **notes;           /* keys with no effect (conf_not_in_force) */

	void        *node_index;      /* private: name -> node, for conf_find_node */
	void        *files;           /* private: what was read, for conf_unchanged */
	size_t       file_cnt;
} slurm_conf_t;

/* path NULL: $SLURM_CONF or the compiled-in default. */
slurm_conf_t *conf_load(const char *path, char *err, size_t errlen);
void          conf_destroy(slurm_conf_t *c);
/* True while each file c was read from (slurm.conf and its Includes)
 * is still the same file with the same size and modification time. */
bool          conf_unchanged(const slurm_conf_t *c);
/* The i-th file c was read from (0: slurm.conf, then its Includes in
 * the order read), NULL past the last. */
const char   *conf_file_at(const slurm_conf_t *c, size_t i);
/* Configless (conf_files.h): from now on this process takes every
 * Include by its base name from dir (the cache the controller's files
 * were written to); NULL: as written again. */
void          conf_set_include_dir(const char *dir);
/* The path conf_load(NULL) would read. */
const char   *conf_default_path(void);

const conf_node_t *conf_find_node(const slurm_conf_t *c, const char *name);
const conf_part_t *conf_find_part(const slurm_conf_t *c, const char *name);

/* Run-time partitions (scontrol create/update PartitionName=): the
 * same keys and checks as a PartitionName line of slurm.conf, without
 * PartitionName=DEFAULT.  conf_part_apply applies "Key=Value" words
 * (NULL-terminated) to p: 0, or one of CONF_PART_E* with err holding
 * scontrol's message (lines separated by '\n') and *bad (may be NULL)
 * the index of the bad word; p is unchanged then.  Nodes= is only
 * stored (the controller checks the names). */
enum {
	CONF_PART_EKEY = 1,     /* not a partition key */
	CONF_PART_EVALUE,       /* a bad value */
	CONF_PART_ENUM,         /* a bad number */
	CONF_PART_ESTATE,       /* a bad State= */
	CONF_PART_ENOTSUP,      /* a value Sluice does not implement */
};
void conf_part_init_named(conf_part_t *p, const char *name);
void conf_part_copy(conf_part_t *dst, const conf_part_t *src);
void conf_part_free(conf_part_t *p);
int  conf_part_apply(conf_part_t *p, char *const *words, size_t *bad,
		     char *err, size_t errlen);
/* A NodeName line ("NodeName=d[1-2] CPUs=4 Features=f1 ..."; slurmd -Z,
 * scontrol create) checked as slurm.conf checks one (Port defaults to c's
 * SlurmdPort; NodeName=DEFAULT refused): the nodes it names (*cnt), or
 * NULL with err.  Free with conf_node_line_free. */
conf_node_t  *conf_node_line(const slurm_conf_t *c, const char *line,
			     size_t *cnt, char *err, size_t errlen);
void          conf_node_line_free(conf_node_t *v, size_t cnt);
/* Value for a key as `scontrol show config` prints it, or NULL. */
const char   *conf_get(const slurm_conf_t *c, const char *key);
/* The value the file set for a scalar key, NULL when unset. */
const char   *conf_get_set(const slurm_conf_t *c, const char *key);
/* Every key with its value (*cnt of them), in `scontrol show config` order;
 * the first *show_cnt are what it prints (the controller adds its runtime
 * keys), the rest keys the file set that it does not print.  show_cnt may
 * be NULL.  Owned by c. */
const conf_kv_t *conf_kv(const slurm_conf_t *c, size_t *cnt,
			 size_t *show_cnt);
/* "file:line" where key (a scalar key or SlurmctldHost) was set, or NULL
 * (not set, or c was not loaded from a file).  Owned by c. */
const char   *conf_key_where(const slurm_conf_t *c, const char *key);
/* AccountingStorageType names slurmdbd: the one test of that name the
 * commands make (they load no accounting_storage plugin; slurmctld's
 * context resolves the name itself). */
bool          conf_accounting_dbd(const slurm_conf_t *c);
/* What the file set that has no effect, one "file:line: Key has no effect
 * (why)" each (NULL-terminated, never NULL; conf_use.h says which keys).
 * Owned by c. */
const char *const *conf_not_in_force(const slurm_conf_t *c);
/* Log each of c's not-in-force lines once, as a warning: at start
 * (before NULL), or after a reconfigure only those before did not have. */
void          conf_log_not_in_force(const slurm_conf_t *c,
				    const slurm_conf_t *before);
/* Expand %n (node name) and %h (hostname) in a path; caller frees. */
char         *conf_expand_node_path(const char *pattern, const char *node_name);
/* The directory of slurm.conf, where gres.conf, plugstack.conf live. */
char         *conf_sibling_path(const slurm_conf_t *c, const char *file);

#endif
