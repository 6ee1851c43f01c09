"""A multi-host Sluice cluster on one machine: every host in its own
network, UTS and mount namespace, joined by a bridge.

    Net            the network: a bridge in the root namespace (address .1
                   of a private /24, so this machine reaches every host)
                   and the hosts on it
    Host           one "machine": a holder process (`sleep infinity`
                   started by unshare --net --uts --mount) whose namespaces
                   the host's processes join with nsenter; a veth pair to
                   the bridge, eth0 inside with the host's address, its own
                   hostname, /etc/hosts naming every host, and its own /run
                   (a tmpfs) where /run/munge is the cluster's munged
                   directory, so MUNGE's default socket works as on a real
                   host
    NetnsCluster   a cluster.Cluster on such a network: slurmctld on host
                   "ctl", nodes n1..nN each on its own host running slurmd
                   configless (`slurmd --conf-server ctl:6817`, no -N: the
                   node name is the host name), commands run on host
                   "login"; the nodes and the login host have no slurm.conf
                   on disk (the cluster's etc/ is an empty tmpfs there)

Every daemon listens on Slurm's standard ports (6817, 6818): each host has
its own port space.  One munged (in the root namespace) serves every host
through the bind-mounted directory, as a shared munge.key would.

Cleanup: stop() ends the daemons by PID (cluster.Cluster.stop), then every
process still inside one of the cluster's network namespaces (what a
ResumeProgram started, slurmstepd, jobs), then the holders; the veth pairs
go with their namespaces, the bridge is deleted by name.  It runs even when
start() failed half-way.

Needs root (CAP_SYS_ADMIN and CAP_NET_ADMIN), unshare/nsenter/setpriv
(util-linux) and ip (iproute2).  `unavailable()` says why namespaces cannot
be made here.
"""

import os
import random
import re
import shutil
import subprocess

import cluster as cl

CTLD_PORT = 6817
SLURMD_PORT = 6818


def _ip(*args, check=True):
    r = subprocess.run(["ip"] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if check and r.returncode != 0:
        raise cl.ClusterError("ip %s: %s" % (" ".join(args), r.stderr.strip()))
    return r


def unavailable():
    """None if network namespaces, veth pairs and bridges can be made here;
    else why not (for pytest.skip)."""
    for tool in ("ip", "unshare", "nsenter", "setpriv"):
        if not shutil.which(tool):
            return "%s is not installed" % tool
    if os.geteuid() != 0:
        return "network namespaces need root"
    r = subprocess.run(["unshare", "--net", "--uts", "--mount", "true"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    if r.returncode != 0:
        return "unshare --net --uts --mount fails: %s" % r.stdout.strip()
    name = "slprobe%04x" % random.randrange(0x10000)
    r = _ip("link", "add", name, "type", "bridge", check=False)
    if r.returncode != 0:
        return "cannot create a bridge: %s" % r.stderr.strip()
    _ip("link", "del", name, check=False)
    return None


def _ns_inode(pid, kind="net"):
    try:
        return os.stat("/proc/%d/ns/%s" % (pid, kind)).st_ino
    except OSError:
        return None


def _pick_subnet():
    """A 10.A.B.0/24 no interface or route of this machine uses."""
    used = _ip("-4", "-o", "addr").stdout + _ip("-4", "route").stdout
    rng = random.SystemRandom()
    for _ in range(200):
        a, b = rng.randint(200, 250), rng.randint(0, 255)
        if (" 10.%d.%d." % (a, b)) not in " " + used.replace("\n", " "):
            return "10.%d.%d" % (a, b)
    raise cl.ClusterError("no free 10.x.y.0/24 subnet")


class Host:
    def __init__(self, name, addr, popen, veth):
        self.name, self.addr, self.popen, self.veth = name, addr, popen, veth

    @property
    def pid(self):
        return self.popen.pid

    def alive(self):
        return self.popen.poll() is None

    def enter(self, cwd=None):
        """argv prefix that runs a command on this host (as root)."""
        argv = ["nsenter", "-t", str(self.pid), "-n", "-u", "-m", "--"]
        # env -C: the cwd is looked up on the host (nsenter --wd opens it
        # before entering the mounts: what the host hides would show)
        return argv + (["env", "-C", cwd] if cwd else [])


class Net:
    """A bridge and the hosts on it.  destroy() removes everything, also
    after a half-done create."""

    def __init__(self, workdir):
        self.dir = workdir            # hosts file, holder logs
        os.makedirs(self.dir, exist_ok=True)
        self.tag = "%04x" % random.SystemRandom().randrange(0x10000)
        self.bridge = "sl%sbr" % self.tag
        self.subnet = _pick_subnet()
        self.hosts = {}
        self.next_addr = 2
        self.created_bridge = False

    def addr_of(self, k):
        return "%s.%d" % (self.subnet, k)

    @property
    def gateway(self):
        return self.addr_of(1)

    def create_bridge(self):
        _ip("link", "add", self.bridge, "type", "bridge")
        self.created_bridge = True
        _ip("addr", "add", self.gateway + "/24", "dev", self.bridge)
        _ip("link", "set", self.bridge, "up")

    def plan(self, names):
        """Give each name an address (before any host exists, so the
        hosts file can list them all)."""
        for n in names:
            self.hosts.setdefault(n, None)
        self.addrs = {}
        k = 2
        for n in self.hosts:
            self.addrs[n] = self.addr_of(k)
            k += 1
        with open(self.hosts_file, "w") as f:
            f.write("127.0.0.1\tlocalhost\n%s\tgateway\n" % self.gateway)
            for n, a in self.addrs.items():
                f.write("%s\t%s\n" % (a, n))
        os.chmod(self.hosts_file, 0o644)

    @property
    def hosts_file(self):
        return os.path.join(self.dir, "hosts")

    def add_host(self, name, munge_dir, hide=(), resolv=None):
        """Start the host's holder and wire it to the bridge.  hide: paths
        that are an empty tmpfs on this host; resolv: a file that is the
        host's /etc/resolv.conf."""
        addr = self.addrs[name]
        script = ["set -e", "hostname %s" % name,
                  "mount -t tmpfs -o mode=0755 sluice-run /run",
                  "mkdir -p /run/munge",
                  "mount --bind '%s' /run/munge" % munge_dir,
                  "mount --bind '%s' /etc/hosts" % self.hosts_file]
        if resolv:
            script.append("mount --bind '%s' /etc/resolv.conf" % resolv)
        for p in hide:
            script.append("mount -t tmpfs -o mode=0755 sluice-hidden '%s'" % p)
        script += ["echo ready", "exec sleep infinity"]
        log = open(os.path.join(self.dir, "host-%s.out" % name), "w+")
        p = subprocess.Popen(["unshare", "--net", "--uts", "--mount",
                              "--propagation", "private", "--", "sh", "-c",
                              "\n".join(script)],
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=log, text=True, start_new_session=True)
        veth = "sl%s%d" % (self.tag, len([h for h in self.hosts.values() if h]))
        h = Host(name, addr, p, veth)
        self.hosts[name] = h
        with cl._STARTED_LOCK:
            cl._STARTED.add(p.pid)
        line = p.stdout.readline()
        if line.strip() != "ready":
            p.wait(timeout=10)
            log.seek(0)
            raise cl.ClusterError("host %s: %s" % (name, log.read()))
        log.close()
        _ip("link", "add", veth, "type", "veth", "peer", "name", "eth0",
            "netns", str(p.pid))
        _ip("link", "set", veth, "master", self.bridge, "up")
        r = subprocess.run(h.enter() + ["sh", "-c",
                           "ip link set lo up && "
                           "ip addr add %s/24 dev eth0 && "
                           "ip link set eth0 up && "
                           "ip route add default via %s" % (addr, self.gateway)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
        if r.returncode != 0:
            raise cl.ClusterError("host %s: %s" % (name, r.stdout))
        return h

    def host_of_pid(self, pid):
        ino = _ns_inode(pid)
        for h in self.hosts.values():
            if h and ino and _ns_inode(h.pid) == ino:
                return h
        return None

    def processes(self):
        """PIDs of every process inside one of our hosts, holders aside."""
        inos = {}
        for h in self.hosts.values():
            if h and h.alive():
                ino = _ns_inode(h.pid)
                if ino:
                    inos[ino] = h.pid
        out = []
        me = os.getpid()
        for pid in cl._all_pids():
            if pid == me or pid in inos.values():
                continue
            if _ns_inode(pid) in inos and cl._pid_alive(pid):
                out.append(pid)
        return out

    def destroy(self):
        """End every process on our hosts, the holders, the bridge."""
        left = self.processes()
        if left:
            cl.kill_pids(sorted(left), grace=2.0)
        for h in self.hosts.values():
            if not h:
                continue
            if h.alive():
                h.popen.kill()
            try:
                h.popen.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
            if h.popen.stdout:
                h.popen.stdout.close()
            with cl._STARTED_LOCK:
                cl._STARTED.discard(h.pid)
            # the veth goes with the namespace; this is for a namespace
            # something else still holds
            _ip("link", "del", h.veth, check=False)
        if self.created_bridge:
            _ip("link", "del", self.bridge, check=False)
            self.created_bridge = False


class NetnsCluster(cl.Cluster):
    """cluster.Cluster on a Net: same helpers (run, sbatch, wait_done,
    node_states, ...), but commands run on host "login" and each node is
    its own host.  login_conf=False: the login host gets slurm.conf through
    SLURM_CONF_SERVER only (no file on disk there)."""

    def __init__(self, nodes=8, tag="netns", **kw):
        kw.setdefault("extra_conf", "")
        super().__init__(nodes=nodes, tag=tag, auth="munge", **kw)
        self.net = None
        self.login = None
        self.ctl_host = None
        self.ctld_port = CTLD_PORT
        self.node_ports = {n: SLURMD_PORT for n in self.node_names}

    # ---- config ----------------------------------------------------------

    @property
    def conf_server(self):
        return "%s:%d" % (self.net.addrs["ctl"], CTLD_PORT)

    def ctld_params(self):
        """enable_configless, plus what extra_conf's SlurmctldParameters
        line says (one line: the last one would win)."""
        params = ["enable_configless"]
        for m in re.finditer(r"(?mi)^SlurmctldParameters=(\S*)",
                             self.extra_conf):
            params += [p for p in m.group(1).split(",") if p]
        return ",".join(params)

    def conf_text(self, auth_socket=None, auth_key=None):
        lines = [
            "# Generated by tests/integration/netns.py",
            "ClusterName=%s" % self.name,
            "SlurmctldHost=ctl(%s)" % self.net.addrs["ctl"],
            "SlurmctldPort=%d" % CTLD_PORT,
            "SlurmdPort=%d" % SLURMD_PORT,
            "SlurmctldParameters=%s" % self.ctld_params(),
            # MUNGE at its default socket on every host (/run/munge)
            "AuthType=auth/munge",
            "AuthInfo=cred_expire=2",
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
        extra = re.sub(r"(?mi)^SlurmctldParameters=.*\n?", "",
                       self.extra_conf)
        if extra.strip():
            lines.append(extra.rstrip("\n"))
        for n in self.node_names:
            lines.append("NodeName=%s NodeAddr=%s CPUs=%d RealMemory=%d%s" % (
                n, self.net.addrs[n], self.cpus, self.real_memory,
                self._node_extra(n)))
        lines.append("PartitionName=debug Nodes=ALL Default=YES "
                     "MaxTime=INFINITE State=UP")
        return "\n".join(lines) + "\n"

    # ---- processes -------------------------------------------------------

    def _spawn_on(self, host, name, argv, env=None):
        """Start a daemon on host (its PID is nsenter's, which execs it)."""
        return self._spawn(name, host.enter(cwd=self.dir) + list(argv),
                           env=env)

    def start_munged(self, subdir="munge"):
        """munged with the socket name libmunge uses by default
        (/run/munge/munge.socket.2 on every host)."""
        mdir = os.path.join(self.dir, subdir)
        os.makedirs(mdir, exist_ok=True)
        os.chmod(mdir, 0o755)
        key = os.path.join(mdir, "munge.key")
        sock = os.path.join(mdir, "munge.socket.2")
        with open(key, "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(key, 0o600)
        argv = [shutil.which("munged") or "/usr/sbin/munged", "-F", "--force",
                "--socket=" + sock, "--key-file=" + key,
                "--pid-file=" + os.path.join(mdir, "munged.pid"),
                "--log-file=" + os.path.join(self.dir, "log", "munged.log"),
                "--seed-file=" + os.path.join(mdir, "munged.seed")]
        d = self._spawn("munged", argv)
        self.munge_socket = sock
        cl.wait_for(lambda: subprocess.run(
            "munge -n -S '%s' | unmunge -S '%s'" % (sock, sock), shell=True,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        ).returncode == 0 or not d.alive(), timeout=20, what="munged")
        if not d.alive():
            raise cl.ClusterError("munged did not come up: " +
                                  self._tail(d.out_path))
        return d, sock

    def start_ctld(self, extra_args=()):
        argv = [self.bin("slurmctld"), "-D"] + list(extra_args)
        self.ctld = self._spawn_on(self.ctl_host, "slurmctld", argv)
        return self.ctld

    def slurmd_argv(self, node=None):
        """A configless slurmd: the node name is the host name."""
        return [self.bin("slurmd"), "-D", "--conf-server", self.conf_server]

    def start_slurmd(self, node):
        # SLURM_CONF names nothing there: the etc/ dir is hidden
        self.slurmds[node] = self._spawn_on(
            self.net.hosts[node], "slurmd-" + node, self.slurmd_argv(node),
            env={"SLURM_CONF": ""})
        return self.slurmds[node]

    def host_hide(self, name):
        """Paths that are an empty tmpfs on host name: the cluster's etc/
        everywhere but on the controller's host."""
        return () if name == "ctl" else (os.path.join(self.dir, "etc"),)

    def host_resolv(self, name):
        """The file that is host name's /etc/resolv.conf (None: the
        machine's)."""
        return None

    def node_pid_file(self, node):
        """The holder PID of node's host (what a Resume/SuspendProgram
        nsenters with)."""
        return os.path.join(self.dir, "netns", "%s.pid" % node)

    def start(self, wait=True):
        missing = cl.missing_binaries()
        if missing:
            raise cl.ClusterError("Sluice binaries missing (%s): %s" % (
                self.bins["origin"], ", ".join(missing)))
        why = unavailable()
        if why:
            raise cl.ClusterError("no network namespaces here: " + why)
        self.net = Net(os.path.join(self.dir, "netns"))
        self.net.plan(["ctl", "login"] + self.node_names)
        self.munged, _ = self.start_munged()
        self.write_conf()
        self.net.create_bridge()
        for name in ["ctl", "login"] + self.node_names:
            h = self.net.add_host(name, os.path.join(self.dir, "munge"),
                                  hide=self.host_hide(name),
                                  resolv=self.host_resolv(name))
            with open(os.path.join(self.net.dir, name + ".pid"), "w") as f:
                f.write("%d\n" % h.pid)
        self.ctl_host = self.net.hosts["ctl"]
        self.login = self.net.hosts["login"]
        for n in self.node_names:
            os.makedirs(os.path.join(self.dir, "spool", n), exist_ok=True)
        self.start_ctld()
        for n in self.node_names:
            self.start_slurmd(n)
        if wait:
            self.wait_ready()
        return self

    def stop(self, cancel=True):
        try:
            super().stop(cancel=cancel)
        finally:
            if self.net:
                self.net.destroy()

    # ---- running commands --------------------------------------------------

    def env_for(self, user=None, extra=None, conf=None):
        env = super().env_for(user, None, conf)
        if conf is None:
            # no slurm.conf on the login host: the controller sends it
            env["SLURM_CONF"] = ""
            env["SLURM_CONF_SERVER"] = self.conf_server
        if extra:
            env.update(extra)
        return env

    def run(self, argv, user=None, cwd=None, env=None, timeout=60, input=None,
            conf=None, host=None):
        """As cluster.Cluster.run, on the login host (or host=NAME)."""
        argv = list(argv)
        if argv and "/" not in argv[0] and argv[0] in self.bins:
            argv[0] = self.bin(argv[0])
        if cwd is None:
            cwd = self.workdir(user)
        h = self.net.hosts[host or "login"]
        full = h.enter(cwd=cwd)
        if user:
            full += ["setpriv", "--reuid=" + user,
                     "--regid=%d" % cl.user_ids(user)[1], "--init-groups",
                     "--"]
        full += argv
        try:
            p = subprocess.run(full, env=self.env_for(user, env, conf),
                               input=input, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=timeout,
                               text=True, errors="replace")
            return cl.Result(argv, p.returncode, p.stdout, p.stderr)
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
            err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
            return cl.Result(argv, -9, out, err + "\n[timed out after %ss]" % timeout)

    def on_host(self, host, argv, timeout=30, cwd="/"):
        """Run argv (as root, no Sluice environment) on host."""
        r = subprocess.run(self.net.hosts[host].enter(cwd=cwd) + list(argv),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=timeout)
        return cl.Result(argv, r.returncode, r.stdout, r.stderr)

    def log_tails(self, n=40):
        text = super().log_tails(n)
        if self.net:
            for name in self.net.hosts:
                p = os.path.join(self.net.dir, "host-%s.out" % name)
                if os.path.exists(p) and os.path.getsize(p) > 0:
                    text += "\n----- %s -----\n%s" % (p, self._tail(p, n))
        return text
