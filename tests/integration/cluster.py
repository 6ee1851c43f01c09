"""A real Sluice cluster on loopback, for the integration tests.

One Cluster = its own temp dir, munged (own key and socket), slurmctld and
N slurmd (nodes n1..nN on 127.0.0.1, free ports picked at run time), and
the helpers the tests use: run a command as root or as a test user, submit
and wait for jobs, read the daemon logs.

Binaries: $SLUICE_PREFIX (an install prefix: bin/ and sbin/), else
$SLUICE_BUILD_DIR/bin (default <repo>/build).  When the test users cannot
reach the build tree (e.g. /work is 0700), the build is installed into a
world-readable prefix under /tmp first and that is used.  Commands are
always called by absolute path: Debian's own Slurm may be in /usr/bin.

Processes: every daemon we start is recorded; stop() ends exactly those
(SIGTERM, then SIGKILL), then whatever they left behind (slurmstepd, job
processes that escaped with setsid), found by PID through the cluster's
unique directory in their environment, cwd or command line.
"""

import fcntl
import grp
import os
import pwd
import random
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TEST_USERS = ("sluice_u1", "sluice_u2")
COMMANDS = ("sbatch", "squeue", "sinfo", "scancel", "scontrol", "srun",
            "salloc", "sacct", "sacctmgr", "sprio", "sdiag", "sreport",
            "sstat", "sshare", "sattach", "strigger", "sbcast", "sgather",
            "scrontab")
DAEMONS = ("slurmctld", "slurmd", "slurmstepd", "slurmrestd", "sackd")
TERMINAL_STATES = {"COMPLETED", "CANCELLED", "FAILED", "TIMEOUT", "NODE_FAIL",
                   "PREEMPTED", "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY"}

# PIDs of every live process any Cluster started (all clusters), so that
# the orphan sweep of one cluster never touches another's daemons.
_STARTED = set()
_STARTED_LOCK = threading.Lock()


class Result:
    """What a command did: rc, stdout, stderr (text)."""

    def __init__(self, argv, rc, out, err):
        self.argv, self.rc, self.out, self.err = argv, rc, out, err

    def __iter__(self):
        return iter((self.rc, self.out, self.err))

    def __repr__(self):
        return "Result(argv=%r, rc=%r, out=%r, err=%r)" % (
            self.argv, self.rc, self.out[-2000:], self.err[-2000:])


class ClusterError(Exception):
    pass


def wait_for(pred, timeout=30, what="condition"):
    """Poll pred every 0.2 s until it returns something true; return it,
    or fail the test after timeout seconds."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        v = pred()
        if v:
            return v
        time.sleep(0.2)
    raise AssertionError("timed out waiting for %s" % what)


# --------------------------------------------------------------------------
# binaries


def _world_reachable(path):
    """True if every directory above path is searchable by others and the
    file is readable+executable by others."""
    path = os.path.abspath(path)
    d = os.path.dirname(path)
    while True:
        st = os.stat(d)
        if not st.st_mode & 0o001:
            return False
        if d == "/":
            break
        d = os.path.dirname(d)
    return bool(os.stat(path).st_mode & 0o005 == 0o005)


_PREFIX_CACHE = {}


def binaries():
    """dict name -> absolute path of Sluice's binaries, plus 'plugindir'."""
    if "bins" in _PREFIX_CACHE:
        return _PREFIX_CACHE["bins"]
    prefix = os.environ.get("SLUICE_PREFIX")
    build = os.environ.get("SLUICE_BUILD_DIR", os.path.join(REPO, "build"))
    build = os.path.abspath(build)
    if not prefix:
        probe = os.path.join(build, "bin", "sbatch")
        if not os.path.exists(probe):
            probe = os.path.join(build, "bin", "slurmctld")
        if os.path.exists(probe) and not _world_reachable(probe):
            prefix = _install_prefix(build)
    bins = {}
    if prefix:
        for name in COMMANDS + DAEMONS:
            for sub in ("bin", "sbin"):
                p = os.path.join(prefix, sub, name)
                if os.path.exists(p):
                    bins[name] = p
                    break
            else:
                bins[name] = os.path.join(prefix, "bin", name)
        plugindir = None
        for libdir in ("lib", "lib64", "lib/x86_64-linux-gnu"):
            cand = os.path.join(prefix, libdir, "slurm")
            if os.path.isdir(cand):
                plugindir = cand
                break
        bins["plugindir"] = plugindir or os.path.join(prefix, "lib", "slurm")
        bins["origin"] = "prefix " + prefix
    else:
        for name in COMMANDS + DAEMONS:
            bins[name] = os.path.join(build, "bin", name)
        bins["plugindir"] = os.path.join(build, "plugins")
        bins["origin"] = "build " + build
    _PREFIX_CACHE["bins"] = bins
    return bins


def _install_prefix(build):
    # outside /tmp: jobs with a private /tmp (job_container/tmpfs) still
    # see the commands they run
    prefix = tempfile.mkdtemp(prefix="sluice-prefix-", dir="/var/tmp")
    os.chmod(prefix, 0o755)
    r = subprocess.run(["cmake", "--install", build, "--prefix", prefix],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    if r.returncode != 0:
        raise ClusterError("cmake --install failed:\n" + r.stdout)
    for root, dirs, files in os.walk(prefix):
        for d in dirs:
            os.chmod(os.path.join(root, d), 0o755)
    return prefix


def missing_binaries(names=("slurmctld", "slurmd", "slurmstepd", "sbatch",
                            "squeue", "sinfo", "scancel", "scontrol")):
    b = binaries()
    return [n for n in names if not os.access(b[n], os.X_OK)]


# --------------------------------------------------------------------------
# users, ports, processes


def ensure_test_users():
    # pytest's workers start together: on a fresh machine two of them
    # would both find a user missing and the second useradd would fail.
    with open("/run/sluice-test-users.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for u in TEST_USERS:
            try:
                pwd.getpwnam(u)
            except KeyError:
                subprocess.run(["useradd", "-m", "-s", "/bin/bash", u],
                               check=True)
    return [pwd.getpwnam(u) for u in TEST_USERS]


def free_ports(n):
    """n ports free now, picked below the kernel's ephemeral range: a port
    the kernel hands out (bind to 0) can go to some process's outgoing
    connection before our daemon binds it ("Address already in use")."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            eph = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        eph = 32768
    lo, hi = 10000, max(11000, eph - 1)
    rng = random.SystemRandom()
    ports = []
    while len(ports) < n:
        p = rng.randint(lo, hi)
        if p in ports:
            continue
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            s.bind(("127.0.0.1", p))
        except OSError:
            continue
        finally:
            s.close()
        ports.append(p)
    return ports


def _proc_status(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            d = {}
            for line in f:
                k, _, v = line.partition(":")
                d[k] = v.strip()
            return d
    except OSError:
        return None


def _all_pids():
    return [int(p) for p in os.listdir("/proc") if p.isdigit()]


def proc_cmdline(pid):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def live_procs_matching(text):
    """PIDs of live (non-zombie) processes whose command line contains text
    (what `pgrep -f text` finds, minus zombies and ourselves)."""
    out = []
    me = os.getpid()
    for pid in _all_pids():
        if pid == me:
            continue
        cl = proc_cmdline(pid)
        if text in cl:
            st = _proc_status(pid)
            if st and not st.get("State", "").startswith("Z"):
                out.append(pid)
    return out


def descendants(roots):
    """All PIDs below the given PIDs (by PPid), not including them."""
    children = {}
    for pid in _all_pids():
        st = _proc_status(pid)
        if st:
            children.setdefault(int(st.get("PPid", "0")), []).append(pid)
    seen, todo = set(), list(roots)
    while todo:
        p = todo.pop()
        for c in children.get(p, []):
            if c not in seen:
                seen.add(c)
                todo.append(c)
    return seen


def _pid_alive(pid):
    st = _proc_status(pid)
    return st is not None and not st.get("State", "").startswith("Z")


def _reap(pid):
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass
    except OSError:
        pass


def kill_pids(pids, grace=5.0):
    """SIGTERM the PIDs, wait up to grace, SIGKILL the rest."""
    pids = [p for p in pids if _pid_alive(p)]
    for p in pids:
        try:
            os.kill(p, signal.SIGTERM)
        except ProcessLookupError:
            pass
    end = time.time() + grace
    while time.time() < end:
        for p in pids:
            _reap(p)
        if not any(_pid_alive(p) for p in pids):
            break
        time.sleep(0.05)
    for p in pids:
        if _pid_alive(p):
            try:
                os.kill(p, signal.SIGKILL)
            except ProcessLookupError:
                pass
    for p in pids:
        for _ in range(40):
            _reap(p)
            if not _pid_alive(p):
                break
            time.sleep(0.05)


def _mentions(pid, text):
    """True if the process's environment, cwd or command line names text."""
    try:
        with open("/proc/%d/environ" % pid, "rb") as f:
            if text.encode() in f.read():
                return True
    except OSError:
        pass
    try:
        if os.readlink("/proc/%d/cwd" % pid).startswith(text):
            return True
    except OSError:
        pass
    return text in proc_cmdline(pid)




def _sweep_orphans(cluster_dir):
    """After a cluster's daemons are stopped: end what they left behind
    (slurmstepd, job processes that escaped with setsid, re-parented to
    init), found by the cluster's unique directory in their environment
    (SLURM_CONF), cwd or command line.  Never another cluster's daemons."""
    me = os.getpid()
    with _STARTED_LOCK:
        keep = set(_STARTED)
    left = [p for p in _all_pids()
            if p != me and p not in keep and _pid_alive(p)
            and _mentions(p, cluster_dir)]
    kill_pids(sorted(set(left) | descendants(left)), grace=2.0)


# --------------------------------------------------------------------------
# the cluster


class Daemon:
    def __init__(self, name, argv, popen, out_path):
        self.name, self.argv, self.popen, self.out_path = name, argv, popen, out_path

    @property
    def pid(self):
        return self.popen.pid

    def alive(self):
        return self.popen.poll() is None


class Cluster:
    def __init__(self, name="sluice", nodes=4, cpus=2, real_memory=1000,
                 slurmd_timeout=6, kill_wait=3, min_job_age=600,
                 extra_conf="", tag="t", node_extra="",
                 select_params="CR_Core", debug="debug", backup_ctld=False,
                 auth=None):
        self.name = name
        # AuthType: auth/munge, or auth/slurm (a key in etc/slurm.key, the
        # token service on run/sack.socket); SLUICE_TEST_AUTH=slurm runs
        # every test with auth/slurm.
        self.auth = auth or os.environ.get("SLUICE_TEST_AUTH", "munge")
        self.node_names = ["n%d" % i for i in range(1, nodes + 1)]
        self.cpus = cpus
        self.real_memory = real_memory
        self.slurmd_timeout = slurmd_timeout
        self.kill_wait = kill_wait
        self.min_job_age = min_job_age
        self.extra_conf = extra_conf
        self.node_extra = node_extra        # appended to every NodeName line
        self.select_params = select_params
        self.debug = debug        # SlurmctldDebug/SlurmdDebug (benchmarks: info)
        self.bins = binaries()
        self.dir = tempfile.mkdtemp(prefix="sluice-it-%s-" % tag)
        os.chmod(self.dir, 0o755)
        for sub in ("etc", "munge", "state", "spool", "log", "run", "home",
                    "jobs"):
            os.makedirs(os.path.join(self.dir, sub), exist_ok=True)
            os.chmod(os.path.join(self.dir, sub), 0o755)
        # Sanitizer reports (ASan/UBSan builds) of every daemon, command
        # and job land here, one file per process; see sanitizer_reports().
        self.san_dir = os.path.join(self.dir, "log", "san")
        os.makedirs(self.san_dir, exist_ok=True)
        os.chmod(self.san_dir, 0o1777)
        self.conf = os.path.join(self.dir, "etc", "slurm.conf")
        self.munge_socket = os.path.join(self.dir, "munge", "munge.socket")
        self.munged = None
        self.ctld = None
        # backup_ctld: two SlurmctldHost entries, ctl1 (127.0.0.1, the
        # primary: self.ctld) and ctl2 (127.0.0.2: self.ctld_backup), one
        # StateSaveLocation; each process is told which it is by
        # SLUICE_CTLD_HOST.
        self.backup_ctld = backup_ctld
        self.ctld_backup = None
        self.slurmds = {}
        self.restds = []
        self.ctld_port = None
        self.node_ports = {}
        self.users = {}
        self.hostname = socket.gethostname()
        self.failed = False       # a test using it failed: keep its dir
        # extra environment of the daemons started from now on (e.g.
        # SLUICE_POWERCAP_DIR, the fake sysfs tree of test_energy.py)
        self.daemon_env = {}

    # ---- paths -----------------------------------------------------------

    def bin(self, name):
        return self.bins[name]

    @property
    def ctld_log(self):
        return os.path.join(self.dir, "log", "slurmctld.log")

    def slurmd_log(self, node):
        return os.path.join(self.dir, "log", "slurmd-%s.log" % node)

    def workdir(self, user):
        """A directory owned by user (or root) inside the cluster dir."""
        name = user or "root"
        d = os.path.join(self.dir, "jobs", name)
        if not os.path.isdir(d):
            os.makedirs(d, exist_ok=True)
            if user:
                pw = pwd.getpwnam(user)
                os.chown(d, pw.pw_uid, pw.pw_gid)
            os.chmod(d, 0o755)
        return d

    def mkdir_for(self, user, path):
        os.makedirs(path, exist_ok=True)
        if user:
            pw = pwd.getpwnam(user)
            os.chown(path, pw.pw_uid, pw.pw_gid)
        return path

    def write_file(self, user, path, text, mode=0o644):
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, mode)
        if user:
            pw = pwd.getpwnam(user)
            os.chown(path, pw.pw_uid, pw.pw_gid)
        return path

    # ---- config ----------------------------------------------------------

    def auth_lines(self, auth_socket=None, auth_key=None):
        # cred_expire: a requeued job waits cred_expire+1 s to start
        # again (Slurm's default 120 would slow every requeue test)
        if self.auth == "slurm":
            return ["AuthType=auth/slurm",
                    "AuthInfo=socket=%s%s,cred_expire=2" % (
                        os.path.join(self.dir, "run", "sack.socket"),
                        ",key=" + auth_key if auth_key else "")]
        return ["AuthType=auth/munge",
                "AuthInfo=socket=%s,cred_expire=2" % (auth_socket or
                                                      self.munge_socket)]

    def write_key(self, path):
        """A fresh auth/slurm key, root's, mode 0600."""
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.write(fd, os.urandom(1024))
        os.close(fd)
        os.chmod(path, 0o600)
        return path

    def conf_text(self, auth_socket=None, auth_key=None):
        lines = [
            "# Generated by tests/integration/cluster.py",
            "ClusterName=%s" % self.name,
        ] + ([
            "SlurmctldHost=ctl1(127.0.0.1)",
            "SlurmctldHost=ctl2(127.0.0.2)",
        ] if self.backup_ctld else [
            "SlurmctldHost=localhost(127.0.0.1)",
        ]) + [
            "SlurmctldPort=%d" % self.ctld_port,
        ] + self.auth_lines(auth_socket, auth_key) + [
            "PluginDir=%s" % self.bins["plugindir"],
            "StateSaveLocation=%s" % os.path.join(self.dir, "state"),
            "SlurmdSpoolDir=%s" % os.path.join(self.dir, "spool", "%n"),
            "SlurmctldLogFile=%s" % self.ctld_log,
            "SlurmdLogFile=%s" % os.path.join(self.dir, "log", "slurmd-%n.log"),
            "SlurmctldPidFile=%s" % os.path.join(self.dir, "run", "slurmctld.pid"),
            "SlurmdPidFile=%s" % os.path.join(self.dir, "run", "slurmd-%n.pid"),
            "SlurmdTimeout=%d" % self.slurmd_timeout,
            "KillWait=%d" % self.kill_wait,
            "MinJobAge=%d" % self.min_job_age,
            "ProctrackType=proctrack/pgid",
            "TaskPlugin=task/none",
            "SelectType=select/cons_tres",
            "SelectTypeParameters=%s" % self.select_params,
            "ReturnToService=1",
            "SlurmctldDebug=%s" % self.debug,
            "SlurmdDebug=%s" % self.debug,
        ]
        if self.extra_conf:
            lines.append(self.extra_conf.rstrip("\n"))
        for n in self.node_names:
            lines.append("NodeName=%s NodeAddr=127.0.0.1 CPUs=%d RealMemory=%d "
                         "Port=%d%s" % (n, self.cpus, self.real_memory,
                                        self.node_ports[n],
                                        self._node_extra(n)))
        lines.append("PartitionName=debug Nodes=ALL Default=YES "
                     "MaxTime=INFINITE State=UP")
        return "\n".join(lines) + "\n"

    def _node_extra(self, node):
        """node_extra: one string for every node, or {node: string}."""
        if isinstance(self.node_extra, dict):
            extra = self.node_extra.get(node, "")
        else:
            extra = self.node_extra
        return " " + extra if extra else ""

    def write_conf(self):
        with open(self.conf, "w") as f:
            f.write(self.conf_text())
        os.chmod(self.conf, 0o644)

    # ---- munge -----------------------------------------------------------

    def start_munged(self, subdir="munge"):
        """Start a munged with its own fresh key under DIR/subdir; returns
        (Daemon, socket path)."""
        mdir = os.path.join(self.dir, subdir)
        os.makedirs(mdir, exist_ok=True)
        os.chmod(mdir, 0o755)
        key = os.path.join(mdir, "munge.key")
        sock = os.path.join(mdir, "munge.socket")
        with open(key, "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(key, 0o600)
        argv = ["munged", "-F", "--force", "--socket=" + sock,
                "--key-file=" + key,
                "--pid-file=" + os.path.join(mdir, "munged.pid"),
                "--log-file=" + os.path.join(self.dir, "log", subdir + "d.log"),
                "--seed-file=" + os.path.join(mdir, "munged.seed")]
        munged = shutil.which("munged") or "/usr/sbin/munged"
        argv[0] = munged
        d = self._spawn(subdir + "d", argv)
        deadline = time.time() + 20
        while time.time() < deadline:
            r = subprocess.run("munge -n -S '%s' | unmunge -S '%s'" % (sock, sock),
                               shell=True, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
            if r.returncode == 0:
                return d, sock
            if not d.alive():
                break
            time.sleep(0.1)
        raise ClusterError("munged did not come up: " + self._tail(d.out_path))

    # ---- process control ---------------------------------------------------

    def _spawn(self, name, argv, env=None, user=None):
        out_path = os.path.join(self.dir, "log", name + ".out")
        out = open(out_path, "ab")
        e = dict(os.environ)
        e["SLURM_CONF"] = self.conf
        e.update(self.sanitizer_env())
        e.update(self.daemon_env)
        if env:
            e.update(env)
        kw = {}
        if user:
            pw = pwd.getpwnam(user)
            kw = {"user": pw.pw_uid, "group": pw.pw_gid,
                  "extra_groups": os.getgrouplist(user, pw.pw_gid)}
            e.update({"HOME": pw.pw_dir, "USER": user, "LOGNAME": user})
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out,
                             stderr=subprocess.STDOUT, env=e, cwd=self.dir,
                             start_new_session=True, **kw)
        out.close()
        with _STARTED_LOCK:
            _STARTED.add(p.pid)
        return Daemon(name, argv, p, out_path)

    def _forget(self, d):
        with _STARTED_LOCK:
            _STARTED.discard(d.pid)

    def start_ctld(self, extra_args=()):
        argv = [self.bin("slurmctld"), "-D"] + list(extra_args)
        env = {"SLUICE_CTLD_HOST": "ctl1"} if self.backup_ctld else None
        self.ctld = self._spawn("slurmctld", argv, env=env)
        return self.ctld

    @property
    def ctld_backup_log(self):
        return os.path.join(self.dir, "log", "slurmctld-backup.log")

    def start_backup_ctld(self):
        """The second SlurmctldHost (backup_ctld clusters), logging to
        log/slurmctld-backup.log."""
        argv = [self.bin("slurmctld"), "-D", "-L", self.ctld_backup_log]
        self.ctld_backup = self._spawn("slurmctld-backup", argv,
                                       env={"SLUICE_CTLD_HOST": "ctl2"})
        return self.ctld_backup

    def start_restd(self, user, listen, args=(), env=None, name="slurmrestd"):
        """slurmrestd as user (never root: it refuses), listening on each
        address of listen ("127.0.0.1:PORT", "unix:/path"); its log is
        log/<name>.out.  Returns once every listener answers."""
        argv = [self.bin("slurmrestd")] + list(args) + list(listen)
        d = self._spawn(name, argv, env=env, user=user)
        self.restds.append(d)
        for addr in listen:
            def up(addr=addr):
                s = socket.socket(socket.AF_UNIX if addr.startswith("unix:")
                                  else socket.AF_INET)
                try:
                    if addr.startswith("unix:"):
                        s.connect(addr[5:])
                    else:
                        h, p = addr.rsplit(":", 1)
                        s.connect((h or "127.0.0.1", int(p)))
                    return True
                except OSError:
                    if not d.alive():
                        raise ClusterError("slurmrestd exited:\n" +
                                           open(d.out_path).read())
                    return False
                finally:
                    s.close()
            wait_for(up, timeout=20, what="slurmrestd on %s" % addr)
        return d

    def start_slurmd(self, node):
        argv = [self.bin("slurmd"), "-D", "-N", node]
        self.slurmds[node] = self._spawn("slurmd-" + node, argv)
        return self.slurmds[node]

    def stop_daemon(self, d, sig=signal.SIGTERM, wait=10.0):
        """Send sig to one daemon we started; SIGKILL if still alive after
        wait (when sig is SIGTERM).  Returns its exit status."""
        if d is None:
            return None
        if d.alive():
            try:
                os.kill(d.pid, sig)
            except ProcessLookupError:
                pass
            try:
                d.popen.wait(timeout=wait)
            except subprocess.TimeoutExpired:
                os.kill(d.pid, signal.SIGKILL)
                d.popen.wait(timeout=10)
        self._forget(d)
        return d.popen.returncode

    def kill_ctld(self, sig=signal.SIGTERM):
        rc = self.stop_daemon(self.ctld, sig)
        return rc

    def kill_slurmd(self, node, sig=signal.SIGKILL):
        return self.stop_daemon(self.slurmds[node], sig)

    # ---- start / stop ------------------------------------------------------

    def start(self, wait=True):
        missing = missing_binaries()
        if missing:
            raise ClusterError("Sluice binaries missing (%s): %s" % (
                self.bins["origin"], ", ".join(missing)))
        ports = free_ports(1 + len(self.node_names))
        self.ctld_port = ports[0]
        self.node_ports = dict(zip(self.node_names, ports[1:]))
        if self.auth == "slurm":
            key = self.write_key(os.path.join(self.dir, "etc", "slurm.key"))
            # slurmctld reads it as SlurmUser: theirs (root reads any)
            m = re.search(r"(?m)^SlurmUser=(\S+)", self.extra_conf)
            if m:
                pw = pwd.getpwnam(m.group(1))
                os.chown(key, pw.pw_uid, pw.pw_gid)
        else:
            self.munged, _ = self.start_munged()
        self.write_conf()
        for n in self.node_names:
            os.makedirs(os.path.join(self.dir, "spool", n), exist_ok=True)
        self.start_ctld()
        for n in self.node_names:
            self.start_slurmd(n)
        if wait:
            self.wait_ready()
        return self

    def wait_ready(self, timeout=60, nodes=None):
        """Until squeue answers and every node is idle."""
        nodes = nodes or self.node_names
        deadline = time.time() + timeout
        last = None
        while time.time() < deadline:
            if self.ctld is not None and not self.ctld.alive():
                raise ClusterError("slurmctld exited with %s:\n%s" % (
                    self.ctld.popen.returncode, self.log_tails()))
            r = self.run(["squeue"], timeout=10)
            if r.rc == 0:
                states = self.node_states()
                last = states
                if all(states.get(n, "").lower().startswith("idle") for n in nodes):
                    return
            else:
                last = r
            time.sleep(0.2)
        raise ClusterError("cluster not ready after %ss (last: %r)\n%s" % (
            timeout, last, self.log_tails()))

    def node_states(self):
        """{node: compact state as sinfo -N prints it} (falls back to
        scontrol show node when sinfo fails)."""
        r = self.run(["sinfo", "-h", "-N", "-o", "%N %t"], timeout=10)
        states = {}
        if r.rc == 0:
            for line in r.out.splitlines():
                parts = line.split()
                if len(parts) == 2:
                    states[parts[0]] = parts[1]
            if states:
                return states
        for n, rec in self.show_nodes().items():
            states[n] = rec.get("State", "").lower()
        return states

    def stop(self, cancel=True):
        # End the jobs first, so slurmd/slurmstepd can clean up what they
        # started while they still run.  cancel=False skips that (a
        # benchmark's 50,000 pending jobs; the sweep below still ends
        # whatever runs).
        try:
            if cancel and self.ctld is not None and self.ctld.alive():
                r = self.run(["squeue", "-h", "-o", "%i"], timeout=10)
                ids = r.out.split() if r.rc == 0 else []
                if ids:
                    self.run(["scancel"] + ids, timeout=10)
                    time.sleep(min(self.kill_wait + 1, 4))
        except Exception:
            pass
        daemons = [d for d in self.slurmds.values()] + self.restds + [
            self.ctld, self.ctld_backup, self.munged]
        daemons = [d for d in daemons if d is not None]
        below = descendants([d.pid for d in daemons if d.alive()])
        for d in daemons:
            if d.alive():
                try:
                    os.kill(d.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        end = time.time() + 10
        for d in daemons:
            try:
                d.popen.wait(timeout=max(0.1, end - time.time()))
            except subprocess.TimeoutExpired:
                pass
        for d in daemons:
            if d.alive():
                os.kill(d.pid, signal.SIGKILL)
                d.popen.wait(timeout=10)
            self._forget(d)
        kill_pids(sorted(below), grace=2.0)
        _sweep_orphans(self.dir)

    def cleanup(self):
        if os.environ.get("SLUICE_KEEP_TMP") or self.failed:
            return
        shutil.rmtree(self.dir, ignore_errors=True)

    # ---- running commands ----------------------------------------------------

    def env_for(self, user=None, extra=None, conf=None):
        if user:
            pw = pwd.getpwnam(user)
            home = pw.pw_dir if os.path.isdir(pw.pw_dir) else self.workdir(user)
            env = {"HOME": home, "USER": user, "LOGNAME": user,
                   "SHELL": "/bin/sh"}
        else:
            env = {"HOME": os.environ.get("HOME", "/root"), "USER": "root",
                   "LOGNAME": "root", "SHELL": "/bin/sh"}
        env["PATH"] = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"
        env["LANG"] = "C.UTF-8"
        env["SLURM_CONF"] = conf or self.conf
        env.update(self.sanitizer_env())
        if extra:
            env.update(extra)
        return env

    def run(self, argv, user=None, cwd=None, env=None, timeout=60, input=None,
            conf=None):
        """Run a command (argv[0] may be a Sluice command name) as root or
        as user; returns Result(rc, out, err).  rc is -9 on timeout.

        A Sluice command runs from its absolute path with argv[0] set to
        its bare name, as a shell would run it from PATH (messages start
        with "sbatch: ...").  A test user's command runs with that user's
        uid, gid and supplementary groups (what setpriv --init-groups
        does)."""
        argv = list(argv)
        exe = None
        if argv and "/" not in argv[0] and argv[0] in self.bins:
            exe = self.bin(argv[0])
        kw = {}
        if user:
            pw = pwd.getpwnam(user)
            kw = {"user": pw.pw_uid, "group": pw.pw_gid,
                  "extra_groups": os.getgrouplist(user, pw.pw_gid)}
        if cwd is None:
            cwd = self.workdir(user)
        try:
            p = subprocess.run(argv, executable=exe, cwd=cwd,
                               env=self.env_for(user, env, conf),
                               input=input, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=timeout,
                               text=True, errors="replace", **kw)
            return Result(argv, p.returncode, p.stdout, p.stderr)
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
            err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
            return Result(argv, -9, out, err + "\n[timed out after %ss]" % timeout)

    # ---- jobs ----------------------------------------------------------------

    def sbatch(self, args, user=None, cwd=None, env=None, input=None):
        """Submit; returns the job id (int).  Raises with the full output
        if sbatch fails or prints something unexpected."""
        r = self.run(["sbatch"] + list(args), user=user, cwd=cwd, env=env,
                     input=input)
        m = re.fullmatch(r"Submitted batch job (\d+)\n", r.out)
        if r.rc != 0 or not m:
            raise ClusterError("sbatch %s failed: %r" % (args, r))
        return int(m.group(1))

    def show_job(self, jobid):
        """scontrol show job as a dict (empty if it fails)."""
        r = self.run(["scontrol", "show", "job", str(jobid)], timeout=20)
        if r.rc != 0:
            return {}
        return parse_kv(r.out)

    def job_state(self, jobid):
        rec = self.show_job(jobid)
        return rec.get("JobState")

    def all_job_states(self):
        """{jobid: state} of every job the controller knows (squeue -t all)."""
        r = self.run(["squeue", "-h", "-t", "all", "-o", "%i %T"], timeout=30)
        if r.rc != 0:
            raise ClusterError("squeue failed: %r" % r)
        states = {}
        for line in r.out.splitlines():
            parts = line.split()
            if len(parts) >= 2:
                states[parts[0]] = parts[1]
        return states

    def wait_state(self, jobid, states, timeout=60):
        """Wait until the job's state is in states; returns it or raises."""
        if isinstance(states, str):
            states = {states}
        deadline = time.time() + timeout
        st = None
        while time.time() < deadline:
            st = self.job_state(jobid)
            if st in states:
                return st
            if st in TERMINAL_STATES and not (states & TERMINAL_STATES):
                break
            time.sleep(0.2)
        raise ClusterError("job %s: state %r, wanted %s (waited %ss)\n%s" % (
            jobid, st, sorted(states), timeout, self.log_tails()))

    def wait_done(self, jobid, timeout=60):
        """Wait for a terminal state (COMPLETED, FAILED, ...); returns it."""
        return self.wait_state(jobid, TERMINAL_STATES, timeout)

    def show_nodes(self):
        r = self.run(["scontrol", "show", "node"], timeout=20)
        recs = {}
        if r.rc != 0:
            return recs
        for block in re.split(r"\n\s*\n", r.out):
            rec = parse_kv(block)
            if "NodeName" in rec:
                recs[rec["NodeName"]] = rec
        return recs

    # ---- sanitizers ------------------------------------------------------------

    def sanitizer_env(self):
        """ASAN/UBSAN options that send reports to san_dir (no effect on a
        build without sanitizers).  Leak checking is off here unless
        SLUICE_SAN_LEAKS=1: daemons stopped by a signal are not expected to
        free everything; the unit tests check leaks."""
        asan = os.environ.get("ASAN_OPTIONS", "")
        ubsan = os.environ.get("UBSAN_OPTIONS", "")
        leaks = "" if os.environ.get("SLUICE_SAN_LEAKS") == "1" else "detect_leaks=0"
        lsan = os.environ.get("LSAN_OPTIONS", "")
        supp = "print_suppressions=0:suppressions=%s" % os.path.join(
            os.path.dirname(os.path.abspath(__file__)), "lsan.supp")
        return {
            "LSAN_OPTIONS": ":".join(x for x in (lsan, supp) if x),
            "ASAN_OPTIONS": ":".join(x for x in (asan, leaks,
                                                "log_path=%s/asan" % self.san_dir) if x),
            "UBSAN_OPTIONS": ":".join(x for x in (ubsan, "print_stacktrace=1",
                                                 "log_path=%s/ubsan" % self.san_dir) if x),
        }

    def sanitizer_reports(self):
        """[(file, text)] of every sanitizer report written so far."""
        out = []
        try:
            names = sorted(os.listdir(self.san_dir))
        except OSError:
            return out
        for n in names:
            path = os.path.join(self.san_dir, n)
            try:
                with open(path, errors="replace") as f:
                    text = f.read()
            except OSError:
                continue
            if text.strip():
                out.append((path, text))
        return out

    # ---- logs ----------------------------------------------------------------

    def log_text(self, which="slurmctld"):
        path = self.ctld_log if which == "slurmctld" else self.slurmd_log(which)
        try:
            with open(path, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def log_size(self, which="slurmctld"):
        path = self.ctld_log if which == "slurmctld" else self.slurmd_log(which)
        try:
            return os.path.getsize(path)
        except OSError:
            return 0

    def log_since(self, offset, which="slurmctld"):
        return self.log_text(which)[offset:]

    @staticmethod
    def _tail(path, n=40):
        try:
            with open(path, errors="replace") as f:
                lines = f.readlines()
            return "".join(lines[-n:])
        except OSError:
            return "(no %s)\n" % path

    def log_tails(self, n=40):
        parts = []
        files = [self.ctld_log, os.path.join(self.dir, "log", "slurmctld.out")]
        if self.backup_ctld:
            files += [self.ctld_backup_log,
                      os.path.join(self.dir, "log", "slurmctld-backup.out")]
        for node in self.node_names:
            files += [self.slurmd_log(node),
                      os.path.join(self.dir, "log", "slurmd-%s.out" % node)]
        for path in files:
            if os.path.exists(path) and os.path.getsize(path) > 0:
                parts.append("----- tail of %s -----\n%s" % (path, self._tail(path, n)))
        return "\n".join(parts)


# --------------------------------------------------------------------------
# parsing helpers


def parse_kv(text):
    """Key=Value tokens of scontrol output into a dict (first wins)."""
    rec = {}
    for tok in text.split():
        if "=" in tok:
            k, _, v = tok.partition("=")
            rec.setdefault(k, v)
    return rec


def keys_per_line(text):
    """For scontrol-style records: list of key lists, one per line."""
    out = []
    for line in text.splitlines():
        keys = [tok.partition("=")[0] for tok in line.split() if "=" in tok]
        if keys:
            out.append(keys)
    return out


def user_ids(user):
    pw = pwd.getpwnam(user)
    return pw.pw_uid, pw.pw_gid, grp.getgrgid(pw.pw_gid).gr_name
