"""The Debian packages (contrib/debian): built with dpkg-buildpackage -b,
installed with dpkg, started as their systemd units say, a job runs, and
`apt-get remove` leaves no process of them running.

The slow test of the suite (a package build: minutes cold, ccache and the
kept build directory build-deb/obj make a second run quick): it runs when
SLUICE_SLOW_TESTS=1 (tests/run sets it when it runs every stage).

Where they are installed: "the machine" as seen from a private mount, PID,
network and UTS namespace whose /usr, /etc and /var are overlays (writes go
to a tmpfs that vanishes with the namespace).  Inside it dpkg, apt-get and
the maintainer scripts run as on a real host (no chroot), but nothing
reaches this machine, whose Debian Slurm packages (the black-box oracle's)
stay installed: inside, they are purged first, as on a host that never had
them.  The PID namespace keeps the packages' scripts (start-stop-daemon)
from seeing any other process of this machine.

systemd is not PID 1 here (nor can it be in this container), so each unit's
ExecStart line runs as systemd would run it: as the unit's User=/Group=,
with its RuntimeDirectory= made, and NOTIFY_SOCKET naming a datagram socket
the test reads; Type=notify units must send READY=1 with their MAINPID.
Without systemd the packages' prerm stops their daemons itself on removal
(start-stop-daemon), which is what `apt-get remove` is checked against.
"""

import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import time

import pytest

import cluster as cl

SLOW = os.environ.get("SLUICE_SLOW_TESTS") == "1"
pytestmark = pytest.mark.skipif(
    not SLOW, reason="slow (builds the .deb packages): SLUICE_SLOW_TESTS=1")

OUT = os.environ.get("SLUICE_DEB_DIR", os.path.join(cl.REPO, "build-deb"))
PKGS = ("slurm-wlm-basic-plugins", "slurm-client", "slurmctld", "slurmd",
        "slurmdbd", "slurmrestd", "libslurm43", "libslurm-dev",
        "libpam-slurm-adopt", "slurm-wlm-torque")

# Debian's packages that do not clash with ours (and that others need)
KEEP = ("libslurm38", "libslurm-perl", "libslurmdb-perl")

HOLDER = r"""set -e
T=$1
mount -t tmpfs sluice-deb-overlay "$T"
for d in usr etc var; do
    mkdir -p "$T/$d.up" "$T/$d.work"
    mount -t overlay sluice-deb -o "lowerdir=/$d,upperdir=$T/$d.up,workdir=$T/$d.work" "/$d"
done
mount -t tmpfs -o mode=0755 sluice-run /run
mkdir -p /run/lock
hostname debhost
ip link set lo up
echo ready
# PID 1 of the namespace: reaps what is re-parented to it, as an init does
exec python3 -c '
import os, time
while True:
    try:
        os.wait()
    except ChildProcessError:
        time.sleep(0.2)
'
"""

CONF = """ClusterName=deb
SlurmctldHost=debhost(127.0.0.1)
SlurmUser=slurm
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
SlurmctldPidFile=/run/slurmctld/slurmctld.pid
SlurmdPidFile=/run/slurm/slurmd.pid
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=1
NodeName=debhost NodeAddr=127.0.0.1 CPUs=1 RealMemory=500
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
"""


def unit(path):
    keys = {}
    for line in open(path):
        m = re.match(r"(\w+)=(.*)", line.strip())
        if m:
            keys.setdefault(m.group(1), []).append(m.group(2))
    return keys


class Machine:
    """The namespace: enter() runs a command inside (its own PIDs)."""

    def __init__(self):
        self.tmp = tempfile.mkdtemp(prefix="sluice-deb-")
        os.chmod(self.tmp, 0o755)
        os.makedirs(os.path.join(self.tmp, "ov"))
        with open(os.path.join(self.tmp, "holder.sh"), "w") as f:
            f.write(HOLDER)
        self.popen = subprocess.Popen(
            ["unshare", "--mount", "--net", "--uts", "--pid", "--fork",
             "--mount-proc", "--propagation", "private", "--", "sh",
             os.path.join(self.tmp, "holder.sh"), os.path.join(self.tmp, "ov")],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, start_new_session=True)
        line = self.popen.stdout.readline()
        if line.strip() != "ready":
            raise cl.ClusterError("namespace: %s%s" % (line, self.popen.stdout.read()))
        # the namespace's PID 1 (unshare --fork's child)
        kids = open("/proc/%d/task/%d/children" % (self.popen.pid,
                                                   self.popen.pid)).read().split()
        self.init = int(kids[0])
        self.daemons = []

    def argv(self, argv):
        return ["nsenter", "-t", str(self.init), "-m", "-n", "-u", "-p",
                "--"] + list(argv)

    def run(self, argv, timeout=120, env=None):
        e = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8",
             "DEBIAN_FRONTEND": "noninteractive", "HOME": "/root"}
        e.update(env or {})
        r = subprocess.run(self.argv(argv), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True,
                           timeout=timeout, env=e)
        return cl.Result(argv, r.returncode, r.stdout, r.stderr)

    def sh(self, script, timeout=120):
        return self.run(["sh", "-ec", script], timeout=timeout)

    def start_unit(self, path, notify):
        """Run the unit's ExecStart as systemd would (see the docstring)."""
        u = unit(path)
        argv = [a for a in shlex.split(u["ExecStart"][0])
                if not a.startswith("$")]
        for d in u.get("RuntimeDirectory", []):
            owner = u.get("User", ["root"])[0]
            r = self.sh("mkdir -p /run/%s && chmod %s /run/%s && chown %s /run/%s"
                        % (d, u.get("RuntimeDirectoryMode", ["0755"])[0], d,
                           owner, d))
            assert r.rc == 0, r
        if "User" in u:
            argv = ["setpriv", "--reuid=" + u["User"][0],
                    "--regid=" + u.get("Group", u["User"])[0],
                    "--init-groups", "--"] + argv
        env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8",
               "NOTIFY_SOCKET": notify}
        for line in u.get("Environment", []):
            k, _, v = line.partition("=")
            env[k] = v
        log = open(os.path.join(self.tmp, os.path.basename(path) + ".out"), "w")
        p = subprocess.Popen(self.argv(argv), stdin=subprocess.DEVNULL,
                             stdout=log, stderr=subprocess.STDOUT, env=env,
                             start_new_session=True)
        log.close()
        self.daemons.append(p)
        return p, u

    def procs(self):
        """{pid: comm} of the namespace's live processes (but PID 1 and
        ps)."""
        r = self.run(["ps", "-e", "-o", "pid=,stat=,comm="])
        out = {}
        for line in r.out.splitlines():
            pid, stat, comm = line.split(None, 2)
            if pid != "1" and comm != "ps" and not stat.startswith("Z"):
                out[int(pid)] = comm
        return out

    def destroy(self):
        # SIGKILL to the namespace's init ends every process inside
        try:
            os.kill(self.init, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.popen.wait(timeout=30)
        for p in self.daemons:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
        self.popen.stdout.close()
        if not os.environ.get("SLUICE_KEEP_TMP"):
            shutil.rmtree(self.tmp, ignore_errors=True)


def _build():
    r = subprocess.run([os.path.join(cl.REPO, "scripts", "install-deps.sh"),
                        "--deb"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=900)
    assert r.returncode == 0, r.stdout[-3000:]
    env = dict(os.environ)
    # no -dbgsym packages: the test does not need them (and xz on them
    # is most of a rebuild's time)
    env.setdefault("DEB_BUILD_OPTIONS", "nocheck noautodbgsym parallel=%d"
                   % (os.cpu_count() or 2))
    env.setdefault("SLUICE_DEB_PROFILES", "pkg.sluice.noweb")
    if shutil.which("ccache"):
        env.setdefault("CCACHE_DIR", os.path.expanduser("~/.ccache"))
    t0 = time.time()
    r = subprocess.run([os.path.join(cl.REPO, "contrib", "debian", "build-debs"),
                        OUT], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, env=env, timeout=3600)
    took = time.time() - t0
    assert r.returncode == 0, r.stdout[-5000:]
    print("packages built in %.0f s" % took)
    return took


@pytest.fixture(scope="module")
def machine():
    if os.geteuid() != 0:
        pytest.skip("needs root")
    if not shutil.which("dpkg-buildpackage") and not shutil.which("apt-get"):
        pytest.skip("not a Debian system")
    _build()
    m = Machine()
    try:
        yield m
    finally:
        m.destroy()


def _debs():
    ver = {}
    for n in os.listdir(OUT):
        m = re.match(r"([a-z0-9.+-]+)_([^_]+)_(amd64|arm64|all|[a-z0-9]+)\.deb$", n)
        if m and not m.group(1).endswith("-dbgsym"):
            ver[m.group(1)] = os.path.join(OUT, n)
    return ver


def test_packages_install_start_run_a_job_and_remove(machine, tmp_path):
    debs = _debs()
    assert set(PKGS) <= set(debs), sorted(debs)
    m = machine
    # a host without Debian's Slurm (inside the namespace only); its
    # libslurm38 stays (MPICH links it; our libslurm43 sits beside it)
    r = m.sh("dpkg-query -W -f '${Package} ${db:Status-Status}\\n' | "
             "awk '$2 == \"installed\" && $1 ~ /slurm/ { print $1 }'")
    theirs = [p for p in r.out.split() if p not in KEEP]
    if theirs:
        r = m.run(["dpkg", "--purge", "--force-depends"] + theirs, timeout=300)
        assert r.rc == 0, r
    r = m.run(["dpkg", "-i"] + [debs[p] for p in PKGS], timeout=300)
    assert r.rc == 0, r
    r = m.run(["apt-get", "check"])
    assert r.rc == 0, r                 # nothing left broken
    r = m.run(["dpkg-query", "-W", "-f", "${Package} ${Version} "
               "${db:Status-Status}\\n"] + list(PKGS))
    for line in r.out.splitlines():
        assert line.endswith(" installed"), line
    # what the packages put in place
    r = m.sh("test -x /usr/sbin/slurmctld && test -x /usr/sbin/slurmstepd && "
             "test -f /lib/systemd/system/slurmd.service && "
             "test -f /usr/include/slurm/slurm.h && "
             "getent passwd slurm && getent passwd slurmrestd && "
             "stat -c %U /var/spool/slurmctld && "
             "pkg-config --modversion slurm && "
             "/usr/sbin/slurmctld -V")
    assert r.rc == 0, r
    assert "slurm 25.05" in r.out, r

    # MUNGE and slurm.conf, as an admin would set them up
    conf = str(tmp_path / "slurm.conf")
    with open(conf, "w") as f:
        f.write(CONF)
    os.chmod(str(tmp_path), 0o755)
    r = m.sh("mkdir -p /run/munge && chown munge: /run/munge && "
             "dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 "
             "status=none && chown munge: /etc/munge/munge.key && "
             "chmod 0400 /etc/munge/munge.key && "
             "setpriv --reuid=munge --regid=munge --init-groups "
             "/usr/sbin/munged && "
             "install -m 0644 %s /etc/slurm/slurm.conf" % conf)
    assert r.rc == 0, r

    # where User=slurm reaches it (pytest's tmp_path is root's, 0700)
    sock_path = os.path.join(m.tmp, "notify.sock")
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(sock_path)
    os.chmod(sock_path, 0o777)        # slurmctld notifies as User=slurm
    s.settimeout(60)

    def ready(p, name):
        while True:
            try:
                data = s.recv(4096).decode()
            except socket.timeout:
                raise AssertionError("%s sent no READY=1: %s" % (
                    name, open(os.path.join(m.tmp, name + ".service.out")).read()))
            msg = dict(ln.split("=", 1) for ln in data.splitlines() if "=" in ln)
            if msg.get("READY") == "1":
                return msg

    units = "/lib/systemd/system/%s.service"
    for name in ("slurmctld", "slurmd"):
        r = m.run(["cat", units % name])
        assert r.rc == 0, r
        path = str(tmp_path / (name + ".service"))
        with open(path, "w") as f:
            f.write(r.out)
        with open(os.path.join(cl.REPO, "etc", name + ".service")) as f:
            assert f.read() == r.out        # the package ships etc/'s unit
        assert unit(path)["Type"] == ["notify"]
        p, u = m.start_unit(path, sock_path)
        msg = ready(p, name)
        # MAINPID: the process systemd started is the daemon (no fork)
        r = m.run(["ps", "-o", "comm=", "-p", msg["MAINPID"]])
        assert r.out.strip() == name, (msg, r)
        assert p.poll() is None

    r = m.run(["srun", "hostname"], timeout=60)
    assert r.rc == 0, r
    assert r.out.strip() == "debhost"
    cl.wait_for(lambda: m.run(["sinfo", "-h", "-o", "%n %t"]).out.split()
                == ["debhost", "idle"], timeout=30, what="debhost idle again")

    running = set(m.procs().values())
    assert {"slurmctld", "slurmd", "munged"} <= running, running
    r = m.run(["apt-get", "remove", "-y", "slurmctld", "slurmd", "slurmdbd",
               "slurmrestd"], timeout=300)
    assert r.rc == 0, r
    left = m.procs()
    assert not [c for c in left.values() if c.startswith("slurm")], left
    r = m.sh("test ! -e /usr/sbin/slurmctld && test ! -e /usr/sbin/slurmd")
    assert r.rc == 0, r
    for p in m.daemons:
        p.wait(timeout=30)            # the daemons we started have exited
    s.close()
