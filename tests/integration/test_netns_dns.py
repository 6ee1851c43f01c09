"""Configless by DNS SRV: a multi-host cluster (netns.py) whose nodes and
login host know nothing of the controller but what DNS says.

A dnsmasq (Debian's dnsmasq-base) on the controller's host answers the
SRV record _slurmctld._tcp (target "ctl", port 6817) for every host, whose
/etc/resolv.conf names it.  Every slurmd starts with no --conf-server, no
SLURM_CONF_SERVER and no slurm.conf on disk: it finds the controller by
DNS, fetches the files and runs jobs.  On the login host a command with
nothing set does the same, and sackd (no --conf-server) caches the files
for the commands and gets the next `scontrol reconfigure`.  A host whose
DNS has no such record says so and starts nothing."""

import os
import shutil
import signal
import subprocess

import pytest

import cluster as cl
import conftest
import netns

DNSMASQ = shutil.which("dnsmasq") or "/usr/sbin/dnsmasq"
WHY = netns.unavailable() if os.geteuid() == 0 else None
if not WHY and not os.path.exists(DNSMASQ):
    WHY = "dnsmasq (Debian's dnsmasq-base) is needed"
pytestmark = pytest.mark.skipif(bool(WHY), reason="no DNS test: %s" % WHY)

DOMAIN = "sluice.test"


def _default_conf_dir():
    """Where a command looks for slurm.conf by default (the build's
    sysconfdir): hidden on the hosts so that only DNS can answer."""
    cache = os.path.join(os.environ.get("SLUICE_BUILD_DIR",
                                        os.path.join(cl.REPO, "build")),
                         "CMakeCache.txt")
    prefix = "/usr/local"
    try:
        with open(cache) as f:
            for line in f:
                if line.startswith("CMAKE_INSTALL_PREFIX:"):
                    prefix = line.split("=", 1)[1].strip()
    except OSError:
        pass
    return "/etc" if prefix == "/usr" else os.path.join(prefix, "etc")


class DnsCluster(netns.NetnsCluster):
    """Nodes and the login host find the controller through DNS SRV."""

    def host_hide(self, name):
        hide = list(super().host_hide(name))
        conf_dir = _default_conf_dir()
        if name != "ctl" and conf_dir != "/etc" and os.path.isdir(conf_dir):
            hide.append(conf_dir)
        return tuple(hide)

    def host_resolv(self, name):
        path = os.path.join(self.dir, "resolv.conf")
        if not os.path.exists(path):
            with open(path, "w") as f:
                f.write("search %s\nnameserver %s\noptions timeout:1 "
                        "attempts:2\n" % (DOMAIN, self.net.addrs["ctl"]))
            os.chmod(path, 0o644)
        return path

    def start_ctld(self, extra_args=()):
        d = super().start_ctld(extra_args)
        addr = self.net.addrs["ctl"]
        srv = "ctl.%s,%d,0,100" % (DOMAIN, netns.CTLD_PORT)
        argv = [DNSMASQ, "-k", "--conf-file=/dev/null", "--no-resolv",
                "--no-hosts", "--user=root", "--bind-interfaces",
                "--listen-address=" + addr, "--port=53",
                "--pid-file=" + os.path.join(self.dir, "run", "dnsmasq.pid"),
                "--log-facility=" + os.path.join(self.dir, "log",
                                                 "dnsmasq.log"),
                "--log-queries",
                "--local=/%s/" % DOMAIN,
                "--host-record=ctl.%s,%s" % (DOMAIN, addr),
                "--srv-host=_slurmctld._tcp.%s,%s" % (DOMAIN, srv)]
        self.dnsmasq = self._spawn_on(self.ctl_host, "dnsmasq", argv)
        return d

    def slurmd_argv(self, node=None):
        return [self.bin("slurmd"), "-D"]

    def env_for(self, user=None, extra=None, conf=None):
        env = super().env_for(user, None, conf)
        if conf is None:
            env.pop("SLURM_CONF_SERVER", None)
        if extra:
            env.update(extra)
        return env


@pytest.fixture(scope="module")
def dc(users):
    c = conftest._start(DnsCluster, nodes=4, tag="dns")
    yield c
    conftest._stop(c, keep=c.failed)


def test_nodes_find_the_controller_by_dns(dc):
    for n in dc.node_names:
        log = open(dc.slurmds[n].out_path).read() + open(os.path.join(
            dc.dir, "log", "slurmd-%s.log" % n)).read()
        assert "controllers from DNS SRV _slurmctld._tcp: ctl.%s:%d" % (
            DOMAIN, netns.CTLD_PORT) in log, log[-2000:]
    r = dc.run(["srun", "-N4", "hostname"], timeout=60)
    assert r.rc == 0, r
    assert sorted(r.out.split()) == dc.node_names, r


def test_command_with_nothing_set_asks_dns(dc):
    env = dc.env_for()
    assert "SLURM_CONF_SERVER" not in env and not env.get("SLURM_CONF")
    r = dc.run(["sinfo", "-h", "-o", "%D %T"])
    assert r.rc == 0, r
    assert r.out.split() == ["4", "idle"], r


def test_sackd_by_dns_caches_and_is_reconfigured(dc):
    argv = [dc.bin("sackd"), "-D", "-v"]
    sackd = dc._spawn_on(dc.login, "sackd", argv, env={"SLURM_CONF": ""})
    try:
        conf = "/run/slurm/conf/slurm.conf"

        def cached():
            r = dc.on_host("login", ["cat", conf])
            return r.out if r.rc == 0 else ""
        cl.wait_for(lambda: "ClusterName=" in cached(), timeout=30,
                    what="sackd cached slurm.conf from the DNS-named "
                         "controller")
        out = open(sackd.out_path).read()
        assert "controllers from DNS SRV _slurmctld._tcp" in out, out
        # the commands there read sackd's cache (no DNS needed now)
        r = dc.run(["squeue", "-h"])
        assert r.rc == 0, r
        with open(dc.conf, "a") as f:
            f.write("# marker-dns-29\n")
        r = dc.run(["scontrol", "reconfigure"], user=None)
        assert r.rc == 0, r
        cl.wait_for(lambda: "marker-dns-29" in cached(), timeout=30,
                    what="sackd's cache rewritten by the reconfigure")
    finally:
        if sackd.alive():
            sackd.popen.send_signal(signal.SIGTERM)
            sackd.popen.wait(timeout=10)


def test_no_srv_record_starts_nothing(dc):
    """A host whose DNS has no _slurmctld._tcp: slurmd says it has no
    configuration and exits."""
    empty = os.path.join(dc.dir, "resolv-empty.conf")
    with open(empty, "w") as f:
        f.write("search nowhere.test\nnameserver %s\noptions timeout:1 "
                "attempts:1\n" % dc.net.addrs["ctl"])
    r = subprocess.run(dc.net.hosts["login"].enter(cwd=dc.dir) + [
        "unshare", "-m", "--propagation", "private", "sh", "-c",
        "mount --bind %s /etc/resolv.conf && exec \"$@\"" % empty, "sh",
        dc.bin("slurmd"), "-D", "-N", "n1"],
        env=dict(os.environ, SLURM_CONF=""), capture_output=True,
        text=True, timeout=60)
    said = r.stdout + r.stderr
    assert r.returncode != 0, said
    assert "slurm.conf: No such file or directory" in said, said
    assert "Unable to process configuration file" in said, said
    assert "DNS SRV" not in said, said
