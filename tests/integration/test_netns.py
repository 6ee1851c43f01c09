"""A multi-host cluster (netns.py): slurmctld, a login host and 8 nodes,
each in its own network, UTS and mount namespace on a bridge, every slurmd
started configless from the controller's address, no slurm.conf on disk on
the nodes nor on the login host.  Jobs run across the hosts (srun -N8
hostname prints 8 host names), scontrol reconfigure sends a changed
slurm.conf to every node, a slurmd started while the controller is down
retries until it is back, and power saving's programs stop and start a
node's slurmd in its own namespace."""

import os
import signal

import pytest

import cluster as cl
import conftest
import netns

WHY = netns.unavailable() if os.geteuid() == 0 else None
pytestmark = pytest.mark.skipif(bool(WHY), reason="no namespaces: %s" % WHY)

# SuspendProgram/ResumeProgram run by slurmctld (on host ctl): they enter
# the node's namespaces by the PID of its host's holder process.
SUSPEND = r"""#!/bin/sh
D=%(dir)s
echo "$1" >> $D/log/suspend.log
for n in $(%(scontrol)s show hostnames "$1"); do
    f="$D/run/slurmd-$n.pid"
    [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
done
exit 0
"""

RESUME = r"""#!/bin/sh
D=%(dir)s
echo "$1" >> $D/log/resume.log
for n in $(%(scontrol)s show hostnames "$1"); do
    nsenter -t "$(cat $D/netns/$n.pid)" -n -u -m -- env -C $D \
        setsid env SLURM_CONF= %(slurmd)s -D --conf-server %(server)s \
        >>$D/log/slurmd-$n.out 2>&1 </dev/null &
done
exit 0
"""


@pytest.fixture(scope="module")
def nc(users, tmp_path_factory):
    progs = tmp_path_factory.mktemp("netns-progs")
    os.chmod(str(progs), 0o755)
    paths = {w: os.path.join(str(progs), w + ".sh")
             for w in ("suspend", "resume")}
    extra = "\n".join([
        "SuspendProgram=%s" % paths["suspend"],
        "ResumeProgram=%s" % paths["resume"],
        "SuspendTimeout=2", "ResumeTimeout=30",
        "SlurmctldParameters=power_save_interval=1"])

    class WithPrograms(netns.NetnsCluster):
        def start(self, wait=True):
            # the programs name the cluster's directory: written once
            # it exists, before slurmctld reads slurm.conf
            for w, text in (("suspend", SUSPEND), ("resume", RESUME)):
                with open(paths[w], "w") as f:
                    f.write(text % {"dir": self.dir,
                                    "scontrol": self.bin("scontrol"),
                                    "slurmd": self.bin("slurmd"),
                                    "server": "ctl:%d" % netns.CTLD_PORT})
                os.chmod(paths[w], 0o755)
            return super().start(wait)

    c = conftest._start(WithPrograms, nodes=8, tag="netns", extra_conf=extra)
    yield c
    holders = [h.pid for h in c.net.hosts.values() if h]
    bridge = c.net.bridge
    conftest._stop(c, keep=c.failed)
    # nothing of it is left: holders, namespaces' processes, the bridge
    assert not [p for p in holders if cl._pid_alive(p)]
    assert netns._ip("link", "show", bridge, check=False).returncode != 0


def test_hosts_are_separate_and_have_no_slurm_conf(nc):
    names = set()
    for h in ["ctl", "login"] + nc.node_names:
        r = nc.on_host(h, ["hostname"])
        names.add(r.out.strip())
    assert names == {"ctl", "login"} | set(nc.node_names)
    # the nodes' and login host's etc/ is empty; the controller's is not
    conf = os.path.join(nc.dir, "etc", "slurm.conf")
    assert nc.on_host("ctl", ["test", "-f", conf]).rc == 0
    for h in ("login", "n1", "n8"):
        assert nc.on_host(h, ["test", "-e", conf]).rc != 0, h
        assert nc.on_host(h, ["test", "-e", "etc/slurm.conf"],
                          cwd=nc.dir).rc != 0, h
    # each host has its own address on the bridge and reaches the others
    r = nc.on_host("n3", ["ip", "-4", "-o", "addr", "show", "eth0"])
    assert nc.net.addrs["n3"] + "/24" in r.out, r
    # the node's slurm.conf came from the controller (its cache)
    cache = os.path.join(nc.dir, "spool", "n5", "conf-cache", "slurm.conf")
    with open(cache) as f, open(conf) as g:
        assert f.read() == g.read()


def test_srun_on_eight_hosts(nc):
    r = nc.run(["srun", "-N8", "hostname"], user="sluice_u1", timeout=60)
    assert r.rc == 0, r
    assert sorted(r.out.split()) == sorted(nc.node_names), r
    # a batch job from the login host, its steps across hosts
    jid = nc.sbatch(["-N", "3", "-o", "out-%j.txt", "--wrap",
                     "%s hostname | sort" % nc.bin("srun")],
                    user="sluice_u2")
    assert nc.wait_done(jid) == "COMPLETED"
    out = open(os.path.join(nc.workdir("sluice_u2"), "out-%d.txt" % jid)).read()
    assert len(set(out.split())) == 3 and set(out.split()) <= set(nc.node_names)


def test_reconfigure_reaches_every_node(nc):
    with open(nc.conf, "a") as f:
        f.write("# marker-netns-reconfigure\n")
    sizes = {n: nc.log_size(n) for n in nc.node_names}
    r = nc.run(["scontrol", "reconfigure"])
    assert r.rc == 0, r

    def cached(n):
        p = os.path.join(nc.dir, "spool", n, "conf-cache", "slurm.conf")
        with open(p) as f:
            return "marker-netns-reconfigure" in f.read()
    cl.wait_for(lambda: all(cached(n) for n in nc.node_names), timeout=30,
                what="every node's cache rewritten")
    cl.wait_for(lambda: all("Reconfigured from" in nc.log_since(sizes[n], n)
                            for n in nc.node_names),
                timeout=30, what="every slurmd reconfigured")
    nc.wait_ready(timeout=30)


def test_conf_server_down_at_node_start_is_retried(nc):
    nc.kill_slurmd("n8", signal.SIGTERM)
    nc.kill_ctld()
    d = nc.start_slurmd("n8")
    cl.wait_for(lambda: "Retrying in 10 seconds" in open(d.out_path).read(),
                timeout=20, what="n8's slurmd retries")
    assert d.alive()
    nc.start_ctld()
    nc.wait_ready(timeout=60)
    r = nc.run(["srun", "-w", "n8", "hostname"])
    assert r.rc == 0 and r.out.strip() == "n8", r


def test_power_save_stops_and_starts_slurmd_in_its_namespace(nc):
    old = nc.slurmds.pop("n7")        # the SuspendProgram ends it
    r = nc.run(["scontrol", "power", "down", "n7"])
    assert r.rc == 0, r
    cl.wait_for(lambda: nc.node_states().get("n7") == "idle~", timeout=30,
                what="n7 powered down")
    cl.wait_for(lambda: not old.alive(), timeout=10, what="n7's slurmd gone")
    nc._forget(old)
    # a job for n7 waits CF while the ResumeProgram starts its slurmd
    jid = nc.sbatch(["-w", "n7", "-o", "pw-%j.txt", "--wrap", "hostname"],
                    user="sluice_u1")
    assert nc.wait_done(jid, timeout=60) == "COMPLETED"
    out = open(os.path.join(nc.workdir("sluice_u1"), "pw-%d.txt" % jid)).read()
    assert out.strip() == "n7"
    with open(os.path.join(nc.dir, "log", "resume.log")) as f:
        assert f.read().split() == ["n7"]
    pids = [p for p in nc.net.processes()
            if "slurmd" in cl.proc_cmdline(p)
            and nc.net.host_of_pid(p).name == "n7"]
    assert pids, "no slurmd on n7's host"
