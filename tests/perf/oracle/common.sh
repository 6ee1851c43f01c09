# shellcheck shell=bash disable=SC2034
# Shared settings for the Slurm oracle scripts (sourced, not run).
# Adapted for tests/perf/compare from our team's oracle scripts.
# Everything lives under $ORACLE_DIR; every port is on 127.0.0.1.
# Slurm's commands are always called from /usr/bin ($SLURM_BIN), never
# through PATH, which may have Sluice's build first.

ORACLE_DIR=${ORACLE_DIR:-/tmp/sluice-perf-oracle}
ORACLE_PORT_BASE=${ORACLE_PORT_BASE:-26800}
ORACLE_NODES=${ORACLE_NODES:-4}
ORACLE_CLUSTER=${ORACLE_CLUSTER:-oracle}
ORACLE_CPUS=${ORACLE_CPUS:-2}            # CPUs per node (cores, 1 socket)
ORACLE_MIN_JOB_AGE=${ORACLE_MIN_JOB_AGE:-300}
ORACLE_MAX_JOB_COUNT=${ORACLE_MAX_JOB_COUNT:-100000}
SLURM_BIN=/usr/bin

PORT_MYSQL=$((ORACLE_PORT_BASE + 6))
PORT_CTLD=$((ORACLE_PORT_BASE + 17))
PORT_DBD=$((ORACLE_PORT_BASE + 19))
PORT_SLURMD0=$((ORACLE_PORT_BASE + 20))   # node nK listens on PORT_SLURMD0+K

ETC=$ORACLE_DIR/etc
PIDS=$ORACLE_DIR/pids          # PID files written by these scripts (what down.sh kills)
RUN=$ORACLE_DIR/run            # PID files the daemons write themselves
LOG=$ORACLE_DIR/log
MUNGE_SOCK=$ORACLE_DIR/munge/munge.socket
MYSQL_SOCK=$ORACLE_DIR/mysqld/mysqld.sock   # dir owned by the mysql user
DB_PASS=oracle-db-pass

# The standard build (slurmctld-wlm, slurmd-wlm, slurmstepd-wlm) through
# symlinks in $ORACLE_DIR/bin named slurmctld/slurmd/slurmstepd: Slurm decides
# "am I slurmctld?" from basename(argv[0]) (running_in_slurmctld()), so a
# daemon started as "slurmctld-wlm" crashes in its slurmdbd agent. The links
# also keep us independent of update-alternatives, which slurm-wlm-emulator
# (a front-end build) takes over when it is installed.
BIN=$ORACLE_DIR/bin
SLURMCTLD_BIN=$BIN/slurmctld
SLURMD_BIN=$BIN/slurmd
SLURMSTEPD_BIN=$BIN/slurmstepd
SLURMDBD_BIN=/usr/sbin/slurmdbd
MUNGED_BIN=/usr/sbin/munged
MARIADBD_BIN=/usr/sbin/mariadbd

export SLURM_CONF=$ETC/slurm.conf

node_names() { local i; for i in $(seq 1 "$ORACLE_NODES"); do echo "n$i"; done; }
node_list() { if [ "$ORACLE_NODES" -eq 1 ]; then echo n1; else echo "n[1-$ORACLE_NODES]"; fi; }

log() { echo "oracle: $*" >&2; }

# pid_alive NAME EXE-BASENAME: true if $PIDS/NAME.pid names a live process
# running that executable (guards against a recycled PID).
pid_alive() {
	local f=$PIDS/$1.pid pid exe
	[ -s "$f" ] || return 1
	pid=$(cat "$f")
	[ -d "/proc/$pid" ] || return 1
	exe=$(readlink "/proc/$pid/exe" 2>/dev/null || true)
	case "$exe" in
	*/"$2" | */"$2"" (deleted)") return 0 ;;
	esac
	return 1
}

port_busy() { ss -Hltn "sport = :$1" 2>/dev/null | grep -q .; }
