#!/bin/bash
# Install the Debian packages Sluice needs to build and test, if missing.
#
#   scripts/install-deps.sh            build + test dependencies
#   scripts/install-deps.sh --fuzz     also clang (libFuzzer builds)
#   scripts/install-deps.sh --deb      also what dpkg-buildpackage needs for
#                                      contrib/debian (debhelper, dpkg-dev)
#
# Only packages that are not installed are asked for, so a machine that has
# everything never touches apt.  Needs root (or sudo) only when something is
# missing.  Shared by tests/run and local-cluster.
set -euo pipefail

pkgs=(cmake gcc make pkg-config libevent-dev libjson-c-dev libyaml-dev
	libhwloc-dev libmunge-dev munge libcmocka-dev uthash-dev libssl-dev
	libmariadb-dev liblua5.4-dev
	python3 python3-pytest python3-pytest-xdist python3-jsonschema procps util-linux passwd iproute2
	mariadb-server mariadb-client
	mpich libmpich-dev libpmi2-0-dev libpmix-dev openmpi-bin libopenmpi-dev
	libpam0g-dev libjwt-dev libsystemd-dev liblz4-dev)
# python3-pytest-xdist: the integration suite runs test files in parallel.
# python3-jsonschema: --json documents are checked against Slurm's schemas
# (tests/integration/openapi.py).
# mariadb-server/-client: slurmdbd's database for the accounting tests
# (a private mariadbd per test, never the system one).
# mpich/libmpich-dev: an MPI program built with mpicc runs through
# srun --mpi=pmi2 in tests/integration/test_srun.py (built with
# mpicc.mpich: with Open MPI installed too, plain mpicc may be Open MPI's).
# libpmi2-0-dev: Slurm's libpmi2 (PMI-2 wire client) for the PMI-2 test.
# libpmix-dev: the PMIx server library slurmstepd uses for --mpi=pmix;
# openmpi-bin/libopenmpi-dev: an Open MPI program run through it.
# libpam0g-dev: pam_slurm_adopt.so (and the test's pam_probe).
# libjwt-dev: auth/jwt tokens in slurmctld and slurmdbd (scontrol token).
# libsystemd-dev: sd_notify for the daemons' --systemd (etc/*.service).
# liblz4-dev: sbcast -C / sgather -C / srun --compress (lz4 blocks).
# curl, python3-jsonschema: the REST tests talk HTTP to slurmrestd (curl runs
# as the test user over rest_auth/local's unix socket) and validate each
# response against the served OpenAPI document.
pkgs+=(curl python3-jsonschema)
# python3-cloudpickle: the Python SDK (contrib/python) sends functions
# defined in a script (__main__) by value; openssh-server: tests/integration/
# test_sdk.py starts an sshd on 127.0.0.1 for the SDK's ssh backend;
# python3-setuptools/python3-pip: `pip install ./contrib/python`.
pkgs+=(python3-cloudpickle openssh-server openssh-client python3-setuptools
	python3-pip)
# python3-matplotlib: contrib/sim/sluice-sim-compare draws its PNG plots.
pkgs+=(python3-matplotlib)
# nodejs/npm: the web view (src/web) is built with npm at build time;
# chromium, chromium-driver, python3-selenium: tests/integration/test_web.py
# drives it in a headless browser.
# (nodesource's nodejs carries its own npm: ask for Debian's only when
# there is none.)
pkgs+=(nodejs chromium chromium-driver python3-selenium)
# --container (tests/integration/test_oci.py): an OCI runtime and a static
# busybox for the test bundle's rootfs
pkgs+=(crun busybox-static)
# srun/salloc --x11 (tests/integration/test_x11.py): an Xvfb display,
# xdpyinfo to draw on it, xauth for the cookie (the nodes need xauth)
pkgs+=(xvfb x11-utils xauth)
# configless by DNS SRV (tests/integration/test_netns_dns.py): a DNS server
# answering _slurmctld._tcp on the test's private network
pkgs+=(dnsmasq-base)
command -v npm >/dev/null 2>&1 || pkgs+=(npm)
for opt in "$@"; do
	case $opt in
	--fuzz) pkgs+=(clang libclang-rt-dev) ;; # the libFuzzer runtime is only a Recommends of clang
	# the .deb packages (tests/integration/test_debian.py): dpkg-buildpackage
	# is dpkg-dev's, dh is debhelper's (devscripts' debuild is not needed)
	--deb) pkgs+=(dpkg-dev debhelper fakeroot) ;;
	esac
done

need=()
for p in "${pkgs[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		need+=("$p")
	fi
done
[ ${#need[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${need[*]}" >&2
SUDO=
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || {
		echo "install-deps: missing ${need[*]}; run as root or install them" >&2
		exit 1
	}
	SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
