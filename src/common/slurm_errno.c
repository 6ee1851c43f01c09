/* slurm_errno.c — messages for Slurm's error codes.
 *
 * The table is keyed by the codes' names, so the texts stay right even if
 * the numbering in slurm_errno.h moves.  Codes below 1000 are errno values
 * and go to strerror().
 */
#define _GNU_SOURCE
#include "slurm/slurm_errno.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	int code;
	const char *msg;
} errtab_entry_t;

static const errtab_entry_t errtab[] = {
	{ SLURM_ERROR, "Unspecified error" },
	{ SLURM_SUCCESS, "No error" },

	{ SLURM_UNEXPECTED_MSG_ERROR, "Unexpected message received" },
	{ SLURM_COMMUNICATIONS_CONNECTION_ERROR, "Communication connection failure" },
	{ SLURM_COMMUNICATIONS_SEND_ERROR, "Message send failure" },
	{ SLURM_COMMUNICATIONS_RECEIVE_ERROR, "Message receive failure" },
	{ SLURM_COMMUNICATIONS_SHUTDOWN_ERROR, "Communication shutdown failure" },
	{ SLURM_PROTOCOL_VERSION_ERROR, "Incompatible versions of client and server code" },
	{ SLURM_PROTOCOL_IO_STREAM_VERSION_ERROR, "I/O stream version number error" },
	{ SLURM_PROTOCOL_AUTHENTICATION_ERROR, "Protocol authentication error" },
	{ SLURM_PROTOCOL_INSANE_MSG_LENGTH, "Insane message length" },
	{ SLURM_MPI_PLUGIN_NAME_INVALID, "Invalid MPI plugin name" },
	{ SLURM_MPI_PLUGIN_PRELAUNCH_SETUP_FAILED, "MPI plugin's pre-launch setup failed" },
	{ SLURM_PLUGIN_NAME_INVALID, "Plugin initialization failed" },
	{ SLURM_UNKNOWN_FORWARD_ADDR, "Can't find an address, check slurm.conf" },
	{ SLURM_COMMUNICATIONS_MISSING_SOCKET_ERROR, "Unexpected missing socket error" },

	{ SLURMCTLD_COMMUNICATIONS_CONNECTION_ERROR, "Unable to contact slurm controller (connect failure)" },
	{ SLURMCTLD_COMMUNICATIONS_SEND_ERROR, "Unable to contact slurm controller (send failure)" },
	{ SLURMCTLD_COMMUNICATIONS_RECEIVE_ERROR, "Unable to contact slurm controller (receive failure)" },
	{ SLURMCTLD_COMMUNICATIONS_SHUTDOWN_ERROR, "Unable to contact slurm controller (shutdown failure)" },
	{ SLURMCTLD_COMMUNICATIONS_BACKOFF, "Rate limit exceeded, please retry momentarily" },

	{ SLURM_NO_CHANGE_IN_DATA, "Data has not changed since time specified" },

	{ ESLURM_INVALID_PARTITION_NAME, "Invalid partition name specified" },
	{ ESLURM_DEFAULT_PARTITION_NOT_SET, "No partition specified or system default partition" },
	{ ESLURM_ACCESS_DENIED, "Access/permission denied" },
	{ ESLURM_JOB_MISSING_REQUIRED_PARTITION_GROUP, "User's group not permitted to use this partition" },
	{ ESLURM_REQUESTED_NODES_NOT_IN_PARTITION, "Requested nodes not in this partition" },
	{ ESLURM_TOO_MANY_REQUESTED_CPUS, "More processors requested than permitted" },
	{ ESLURM_INVALID_NODE_COUNT, "Node count specification invalid" },
	{ ESLURM_ERROR_ON_DESC_TO_RECORD_COPY, "Unable to create job record, try again" },
	{ ESLURM_JOB_MISSING_SIZE_SPECIFICATION, "Job size specification needs to be provided" },
	{ ESLURM_JOB_SCRIPT_MISSING, "Job script not specified" },
	{ ESLURM_USER_ID_MISSING, "Invalid user id" },
	{ ESLURM_DUPLICATE_JOB_ID, "Duplicate job id" },
	{ ESLURM_PATHNAME_TOO_LONG, "Pathname of a file, directory or other parameter too long" },
	{ ESLURM_NOT_TOP_PRIORITY, "Immediate execution impossible, insufficient priority" },
	{ ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE, "Requested node configuration is not available" },
	{ ESLURM_REQUESTED_PART_CONFIG_UNAVAILABLE, "Requested partition configuration not available now" },
	{ ESLURM_NODES_BUSY, "Requested nodes are busy" },
	{ ESLURM_INVALID_JOB_ID, "Invalid job id specified" },
	{ ESLURM_INVALID_NODE_NAME, "Invalid node name specified" },
	{ ESLURM_WRITING_TO_FILE, "I/O error writing script/environment to file" },
	{ ESLURM_TRANSITION_STATE_NO_UPDATE, "Job can not be altered now, try again later" },
	{ ESLURM_ALREADY_DONE, "Job/step already completing or completed" },
	{ ESLURM_INTERCONNECT_FAILURE, "Error configuring interconnect" },
	{ ESLURM_BAD_DIST, "Task distribution specification invalid" },
	{ ESLURM_JOB_PENDING, "Job is pending execution" },
	{ ESLURM_BAD_TASK_COUNT, "Task count specification invalid" },
	{ ESLURM_INVALID_JOB_CREDENTIAL, "Error generating job credential" },
	{ ESLURM_IN_STANDBY_MODE, "Slurm backup controller in standby mode" },
	{ ESLURM_INVALID_NODE_STATE, "Invalid node state specified" },
	{ ESLURM_INVALID_FEATURE, "Invalid feature specification" },
	{ ESLURM_INVALID_AUTHTYPE_CHANGE, "AuthType change requires restart of all Slurm daemons and commands to take effect" },
	{ ESLURM_ACTIVE_FEATURE_NOT_SUBSET, "Active features not subset of available features" },
	{ ESLURM_INVALID_SCHEDTYPE_CHANGE, "SchedulerType change requires restart of the slurmctld daemon to take effect" },
	{ ESLURM_INVALID_SELECTTYPE_CHANGE, "SelectType change requires restart of the slurmctld daemon to take effect" },
	{ ESLURM_INVALID_SWITCHTYPE_CHANGE, "SwitchType change requires restart of all Slurm daemons and jobs to take effect" },
	{ ESLURM_FRAGMENTATION, "Immediate execution impossible, resources too fragmented for allocation" },
	{ ESLURM_NOT_SUPPORTED, "Requested operation not supported on this system" },
	{ ESLURM_DISABLED, "Requested operation is presently disabled" },
	{ ESLURM_DEPENDENCY, "Job dependency problem" },
	{ ESLURM_BATCH_ONLY, "Only batch jobs are accepted or processed" },
	{ ESLURM_LICENSES_UNAVAILABLE, "Licenses currently unavailable" },
	{ ESLURM_TAKEOVER_NO_HEARTBEAT, "No heartbeat from the primary controller, takeover not possible" },
	{ ESLURM_JOB_HELD, "Job is in held state, pending scheduler release" },
	{ ESLURM_INVALID_CRED_TYPE_CHANGE, "CredType change requires restart of all Slurm daemons to take effect" },
	{ ESLURM_INVALID_TASK_MEMORY, "Memory required by task is not available" },
	{ ESLURM_INVALID_ACCOUNT, "Invalid account or account/partition combination specified" },
	{ ESLURM_INVALID_PARENT_ACCOUNT, "Invalid parent account specified" },
	{ ESLURM_SAME_PARENT_ACCOUNT, "Account already child of parent account specified" },
	{ ESLURM_INVALID_LICENSES, "Invalid license specification" },
	{ ESLURM_NEED_RESTART, "The node configuration changes that were made require restart of the slurmctld daemon to take effect" },
	{ ESLURM_ACCOUNTING_POLICY, "Job violates accounting/QOS policy (job submit limit, user's size and/or time limits)" },
	{ ESLURM_INVALID_TIME_LIMIT, "Requested time limit is invalid (missing or exceeds some limit)" },
	{ ESLURM_RESERVATION_ACCESS, "Access denied to requested reservation" },
	{ ESLURM_RESERVATION_INVALID, "Requested reservation is invalid" },
	{ ESLURM_INVALID_TIME_VALUE, "Invalid time specified" },
	{ ESLURM_RESERVATION_BUSY, "Requested reservation is in use" },
	{ ESLURM_RESERVATION_NOT_USABLE, "Requested reservation not usable now" },
	{ ESLURM_INVALID_WCKEY, "Invalid wckey specification" },
	{ ESLURM_RESERVATION_OVERLAP, "Requested reservation overlaps with another reservation" },
	{ ESLURM_PORTS_BUSY, "Required ports are in use" },
	{ ESLURM_PORTS_INVALID, "Requires more ports than can be reserved" },
	{ ESLURM_PROLOG_RUNNING, "PrologSlurmctld is still running" },
	{ ESLURM_NO_STEPS, "Job steps can not be run on this cluster" },
	{ ESLURM_INVALID_BLOCK_STATE, "Invalid block state specified" },
	{ ESLURM_INVALID_BLOCK_LAYOUT, "Functionality not available with current block layout mode" },
	{ ESLURM_INVALID_BLOCK_NAME, "Invalid block name specified" },
	{ ESLURM_INVALID_QOS, "Invalid qos specification" },
	{ ESLURM_QOS_PREEMPTION_LOOP, "QOS Preemption loop detected" },
	{ ESLURM_NODE_NOT_AVAIL, "Required node not available (down, drained or reserved)" },
	{ ESLURM_INVALID_CPU_COUNT, "CPU count specification invalid" },
	{ ESLURM_PARTITION_NOT_AVAIL, "Required partition not available (inactive or drain)" },
	{ ESLURM_CIRCULAR_DEPENDENCY, "Circular job dependency" },
	{ ESLURM_INVALID_GRES, "Invalid generic resource (gres) specification" },
	{ ESLURM_JOB_NOT_PENDING, "Job is no longer pending execution" },
	{ ESLURM_QOS_THRES, "Requested account has breached requested QOS usage threshold" },
	{ ESLURM_PARTITION_IN_USE, "Partition is in use" },
	{ ESLURM_STEP_LIMIT, "Step limit reached for this job" },
	{ ESLURM_JOB_SUSPENDED, "Job is current suspended, requested operation disabled" },
	{ ESLURM_CAN_NOT_START_IMMEDIATELY, "Job can not start immediately" },
	{ ESLURM_INTERCONNECT_BUSY, "Switch resources currently not available" },
	{ ESLURM_RESERVATION_EMPTY, "Reservation request lacks users, groups or accounts" },
	{ ESLURM_INVALID_ARRAY, "Invalid job array specification" },
	{ ESLURM_RESERVATION_NAME_DUP, "Duplicate reservation name" },
	{ ESLURM_JOB_STARTED, "Job has already started" },
	{ ESLURM_JOB_FINISHED, "Job has already finished" },
	{ ESLURM_JOB_NOT_RUNNING, "Job is not running" },
	{ ESLURM_JOB_NOT_PENDING_NOR_RUNNING, "Job is not pending nor running" },
	{ ESLURM_JOB_NOT_SUSPENDED, "Job is not suspended" },
	{ ESLURM_JOB_NOT_FINISHED, "Job is not finished" },
	{ ESLURM_TRIGGER_DUP, "Duplicate event trigger" },
	{ ESLURM_INTERNAL, "Slurm internal error, contact system administrator" },
	{ ESLURM_INVALID_BURST_BUFFER_CHANGE, "BurstBufferType change requires restart of slurmctld daemon to take effect" },
	{ ESLURM_BURST_BUFFER_PERMISSION, "Burst Buffer permission denied" },
	{ ESLURM_BURST_BUFFER_LIMIT, "Burst Buffer resource limit exceeded" },
	{ ESLURM_INVALID_BURST_BUFFER_REQUEST, "Burst Buffer request invalid" },
	{ ESLURM_PRIO_RESET_FAIL, "Changes to job priority are not persistent, change nice instead" },
	{ ESLURM_CANNOT_MODIFY_CRON_JOB, "Cannot modify scrontab jobs through scontrol" },
	{ ESLURM_INVALID_JOB_CONTAINER_CHANGE, "JobContainerType change requires restart of all Slurm daemons and commands to take effect" },
	{ ESLURM_CANNOT_CANCEL_CRON_JOB, "Cannot cancel scrontab jobs without --cron flag." },
	{ ESLURM_INVALID_MCS_LABEL, "Invalid mcs_label specified" },
	{ ESLURM_BURST_BUFFER_WAIT, "Waiting for burst buffer" },
	{ ESLURM_PARTITION_DOWN, "Partition in DOWN state" },
	{ ESLURM_DUPLICATE_GRES, "Duplicate generic resource (gres) specification" },
	{ ESLURM_JOB_SETTING_DB_INX, "Job update not available right now, the DB index is being set, try again in a bit" },
	{ ESLURM_RSV_ALREADY_STARTED, "Reservation already started" },
	{ ESLURM_SUBMISSIONS_DISABLED, "System submissions disabled" },
	{ ESLURM_NOT_HET_JOB, "Job not heterogeneous job" },
	{ ESLURM_NOT_HET_JOB_LEADER, "Job not heterogeneous job leader" },
	{ ESLURM_NOT_WHOLE_HET_JOB, "Operation not permitted on individual component of heterogeneous job" },
	{ ESLURM_CORE_RESERVATION_UPDATE, "Core-based reservation can not be updated" },
	{ ESLURM_DUPLICATE_STEP_ID, "Duplicate job step id" },
	{ ESLURM_INVALID_CORE_CNT, "Core count for reservation node list is not consistent!" },
	{ ESLURM_X11_NOT_AVAIL, "X11 forwarding not available" },
	{ ESLURM_GROUP_ID_MISSING, "Invalid group id" },
	{ ESLURM_BATCH_CONSTRAINT, "Job --batch option is invalid or not a subset of --constraints" },
	{ ESLURM_INVALID_TRES, "Invalid Trackable RESource (TRES) specification" },
	{ ESLURM_INVALID_TRES_BILLING_WEIGHTS, "Invalid TRESBillingWeights specification" },
	{ ESLURM_INVALID_JOB_DEFAULTS, "Invalid JobDefaults specification" },
	{ ESLURM_RESERVATION_MAINT, "Job can not start due to maintenance reservation." },
	{ ESLURM_INVALID_GRES_TYPE, "Invalid GRES specification (with and without type identification)" },
	{ ESLURM_REBOOT_IN_PROGRESS, "Reboot already in progress" },
	{ ESLURM_MULTI_KNL_CONSTRAINT, "Multiple KNL NUMA and/or MCDRAM constraints require use of a heterogeneous job" },
	{ ESLURM_UNSUPPORTED_GRES, "Requested GRES option unsupported by configured SelectType plugin" },
	{ ESLURM_INVALID_NICE, "Invalid --nice value" },
	{ ESLURM_INVALID_TIME_MIN_LIMIT, "Invalid time-min specification (exceeds job's time or other limits)" },
	{ ESLURM_DEFER, "Immediate execution impossible. Individual job submission scheduling attempts deferred" },
	{ ESLURM_CONFIGLESS_DISABLED, "ConfigLess mode is disabled in slurm configuration." },
	{ ESLURM_NODE_ALREADY_EXISTS, "Node already exists in the node table" },
	{ ESLURM_NODE_TABLE_FULL, "Unable to add node, node table is full" },

	{ ESPANK_ERROR, "Generic error" },
	{ ESPANK_BAD_ARG, "Bad argument" },
	{ ESPANK_NOT_TASK, "Not in task context" },
	{ ESPANK_ENV_EXISTS, "Environment variable exists" },
	{ ESPANK_ENV_NOEXIST, "No such environment variable" },
	{ ESPANK_NOSPACE, "Buffer too small" },
	{ ESPANK_NOT_REMOTE, "Valid only in remote context" },
	{ ESPANK_NOEXIST, "Id/PID does not exist on this node" },
	{ ESPANK_NOT_EXECD, "Lookup by PID requested, but no tasks running" },
	{ ESPANK_NOT_AVAIL, "Item not available from this callback" },
	{ ESPANK_NOT_LOCAL, "Valid only in local or allocator context" },
	{ ESPANK_NODE_FAILURE, "Failure in node" },
	{ ESPANK_JOB_FAILURE, "Failure in job" },

	{ ESLURMD_KILL_TASK_FAILED, "Kill task failed" },
	{ ESLURMD_KILL_JOB_ALREADY_COMPLETE, "Job already complete" },
	{ ESLURMD_INVALID_ACCT_FREQ, "Invalid accounting frequency requested" },
	{ ESLURMD_INVALID_JOB_CREDENTIAL, "Invalid job credential" },
	{ ESLURMD_UID_NOT_FOUND, "User not found on host" },
	{ ESLURMD_GID_NOT_FOUND, "Group ID not found on host" },
	{ ESLURMD_CREDENTIAL_EXPIRED, "Job credential expired" },
	{ ESLURMD_CREDENTIAL_REVOKED, "Job credential revoked" },
	{ ESLURMD_CREDENTIAL_REPLAYED, "Job credential replayed" },
	{ ESLURMD_CREATE_BATCH_DIR_ERROR, "Slurmd could not create a batch directory or file" },
	{ ESLURMD_SETUP_ENVIRONMENT_ERROR, "Slurmd could not set up environment for batch job" },
	{ ESLURMD_SET_UID_OR_GID_ERROR, "Slurmd could not set UID or GID" },
	{ ESLURMD_EXECVE_FAILED, "Slurmd could not execve job" },
	{ ESLURMD_IO_ERROR, "Slurmd could not connect IO" },
	{ ESLURMD_PROLOG_FAILED, "Job prolog failed" },
	{ ESLURMD_EPILOG_FAILED, "Job epilog failed" },
	{ ESLURMD_TOOMANYSTEPS, "Too many job steps on node" },
	{ ESLURMD_STEP_EXISTS, "Job step already exists" },
	{ ESLURMD_JOB_NOTRUNNING, "Job step not running" },
	{ ESLURMD_STEP_SUSPENDED, "Job step is suspended" },
	{ ESLURMD_STEP_NOTSUSPENDED, "Job step is not currently suspended" },
	{ ESLURMD_INVALID_SOCKET_NAME_LEN, "Unix socket name exceeded maximum length" },
	{ ESLURMD_CONTAINER_RUNTIME_INVALID, "Container runtime not configured or invalid" },

	{ ESCRIPT_CHDIR_FAILED, "unable to change directory to work directory" },
	{ ESCRIPT_OPEN_OUTPUT_FAILED, "could not open output file" },
	{ ESCRIPT_NON_ZERO_RETURN, "Script terminated with non-zero exit code" },

	{ SLURM_PROTOCOL_SOCKET_IMPL_ZERO_RECV_LENGTH, "Received zero length message" },
	{ SLURM_PROTOCOL_SOCKET_IMPL_NEGATIVE_RECV_LENGTH, "Received message length < 0" },
	{ SLURM_PROTOCOL_SOCKET_IMPL_NOT_ALL_DATA_SENT, "Failed to send entire message" },
	{ ESLURM_PROTOCOL_INCOMPLETE_PACKET, "Header lengths are longer than data received" },
	{ SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT, "Socket timed out on send/recv operation" },
	{ SLURM_PROTOCOL_SOCKET_ZERO_BYTES_SENT, "Zero Bytes were transmitted or received" },

	{ ESLURM_REST_INVALID_QUERY, "Query empty or not RFC7320 compliant" },
	{ ESLURM_REST_FAIL_PARSING, "Failure during parsing" },
	{ ESLURM_REST_INVALID_JOBS_DESC, "Jobs description entry not found, empty or not dictionary or list" },
	{ ESLURM_REST_EMPTY_RESULT, "Nothing found with query" },
	{ ESLURM_AUTH_CRED_INVALID, "Invalid authentication credential" },
	{ ESLURM_MISSING_TIME_LIMIT, "Time limit specification required, but not provided" },
	{ ESLURM_AUTH_BADARG, "Bad argument to plugin function" },
	{ ESLURM_AUTH_UNPACK, "Cannot unpack credential" },
	{ ESLURM_AUTH_SKIP, "Authentication does not apply to request" },
	{ ESLURM_AUTH_UNABLE_TO_GENERATE_TOKEN, "Token Generation failed." },

	{ ESLURM_DB_CONNECTION, "Unable to connect to database" },
	{ ESLURM_JOBS_RUNNING_ON_ASSOC, "Job(s) active, cancel job(s) before remove" },
	{ ESLURM_CLUSTER_DELETED, "Cluster deleted, commit/rollback immediately" },
	{ ESLURM_ONE_CHANGE, "Can only change one at a time" },
	{ ESLURM_BAD_NAME, "Unacceptable name given. (No '.' in name allowed)" },
	{ ESLURM_OVER_ALLOCATE, "You can not allocate more than 100% of a resource" },
	{ ESLURM_RESULT_TOO_LARGE, "Query result exceeds size limit" },
	{ ESLURM_DB_QUERY_TOO_WIDE, "Too wide of a date range in query" },
	{ ESLURM_DB_CONNECTION_INVALID, "Database connection reference is invalid" },
	{ ESLURM_NO_REMOVE_DEFAULT_ACCOUNT, "You can not remove the default account of a user" },
};

#define ERRTAB_LEN (sizeof(errtab) / sizeof(errtab[0]))

static __thread char errno_buf[64];

static const char *errtab_lookup(int errnum)
{
	for (size_t i = 0; i < ERRTAB_LEN; i++)
		if (errtab[i].code == errnum)
			return errtab[i].msg;
	return NULL;
}

const char *slurm_strerror(int errnum)
{
	const char *msg = errtab_lookup(errnum);

	if (msg)
		return msg;
	if (errnum < 0)
		return "Unknown negative error number";
	if (errnum >= 1000) {
		snprintf(errno_buf, sizeof(errno_buf), "Unknown error %d", errnum);
		return errno_buf;
	}
	return strerror_r(errnum, errno_buf, sizeof(errno_buf));
}

int slurm_get_errno(void)
{
	return errno;
}

void slurm_seterrno(int errnum)
{
	errno = errnum;
}
