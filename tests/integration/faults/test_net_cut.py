"""A network cut between the controller and a node: the node's slurmd runs
in a network namespace the test creates (joined to the host by a veth
pair); the cut takes that link down, the heal brings it back.  Same
outcome as a dead slurmd: the node goes DOWN "Not responding", its
--no-requeue job ends NODE_FAIL, its --requeue job runs again on another
node and completes; when the cut heals the node registers, the jobs the
controller ended are killed there, and the node returns to service
(ReturnToService=1).  Skipped where network namespaces cannot be made."""

import os
import random
import re
import shutil
import subprocess
import time

import pytest

import cluster as cl

RQ_SCRIPT = """#!/bin/sh
n=${SLURM_RESTART_COUNT:-0}
echo "run $n on $SLURMD_NODENAME"
[ "$n" = 0 ] && exec /usr/bin/sleep 300
exit 0
"""


def _ip(*args, ns=None):
    argv = ["ip"] + (["netns", "exec", ns, "ip"] if ns else []) + list(args)
    return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=20)


class NetNs:
    """A network namespace with a veth link to the host: host side
    10.254.X.1/30, namespace side 10.254.X.2/30."""

    def __init__(self):
        tag = "%d%03d" % (os.getpid() % 100000, random.randrange(1000))
        self.name = "sluice-cut-" + tag
        self.host_if, self.ns_if = "slh" + tag, "sln" + tag
        used = _ip("-o", "-4", "addr").stdout
        for _ in range(50):
            x = random.randrange(0, 64) * 4
            y = random.randrange(1, 255)
            if "10.254.%d.%d/" % (y, x + 1) not in used:
                break
        self.host_ip = "10.254.%d.%d" % (y, x + 1)
        self.ns_ip = "10.254.%d.%d" % (y, x + 2)
        self.made = False

    def create(self):
        steps = [
            (("netns", "add", self.name), None),
            (("link", "add", self.host_if, "type", "veth", "peer", "name",
              self.ns_if), None),
            (("link", "set", self.ns_if, "netns", self.name), None),
            (("addr", "add", self.host_ip + "/30", "dev", self.host_if), None),
            (("link", "set", self.host_if, "up"), None),
            (("link", "set", "lo", "up"), self.name),
            (("addr", "add", self.ns_ip + "/30", "dev", self.ns_if), self.name),
            (("link", "set", self.ns_if, "up"), self.name),
        ]
        for args, ns in steps:
            r = _ip(*args, ns=ns)
            if r.returncode != 0:
                return "ip %s: %s" % (" ".join(args), r.stderr.strip())
            self.made = True
        return None

    def cut(self):
        r = _ip("link", "set", self.ns_if, "down", ns=self.name)
        assert r.returncode == 0, r.stderr

    def heal(self):
        r = _ip("link", "set", self.ns_if, "up", ns=self.name)
        assert r.returncode == 0, r.stderr

    def destroy(self):
        if not self.made:
            return
        _ip("netns", "del", self.name)
        _ip("link", "del", self.host_if)      # gone with the peer, normally


class CutCluster(cl.Cluster):
    """Controller on the host side address of the link (reachable from the
    host and the namespace); node n2's slurmd in the namespace."""

    def __init__(self, net, **kw):
        self.net = net
        super().__init__(**kw)

    def conf_text(self, auth_socket=None):
        t = super().conf_text(auth_socket)
        t = t.replace("SlurmctldHost=localhost(127.0.0.1)",
                      "SlurmctldHost=localhost(%s)" % self.net.host_ip)
        return re.sub(r"(?m)^(NodeName=n2 NodeAddr=)127\.0\.0\.1",
                      r"\g<1>" + self.net.ns_ip, t)

    def start_slurmd(self, node):
        if node != "n2":
            return super().start_slurmd(node)
        argv = ["ip", "netns", "exec", self.net.name, self.bin("slurmd"),
                "-D", "-N", node]
        self.slurmds[node] = self._spawn("slurmd-" + node, argv)
        return self.slurmds[node]


def _reason(c, node):
    r = c.run(["scontrol", "show", "node", node])
    m = re.search(r"Reason=(.*?)(?: \[[^]]*\])?$", r.out, re.M)
    return m.group(1) if m else None


def test_network_cut_and_heal(users):
    if os.geteuid() != 0 or not shutil.which("ip"):
        pytest.skip("network cut test needs root and iproute2 (ip)")
    net = NetNs()
    why = net.create()
    if why:
        net.destroy()
        pytest.skip("cannot make a network namespace with a veth pair "
                    "here (%s)" % why)
    c = CutCluster(net, nodes=2, tag="netcut", slurmd_timeout=4,
                   extra_conf="MessageTimeout=3")
    try:
        c.start()
        # both jobs on n2 (n1 drained while they start)
        c.run(["scontrol", "update", "nodename=n1", "state=drain",
               "reason=placing"])
        rq = c.sbatch(["-J", "again", "--requeue"], user="sluice_u1",
                      input=RQ_SCRIPT)
        nrq = c.sbatch(["-J", "lost", "--no-requeue", "-w", "n2", "--wrap",
                        "/usr/bin/sleep 300"], user="sluice_u1")
        c.wait_state(rq, "RUNNING", 30)
        c.wait_state(nrq, "RUNNING", 30)
        assert c.show_job(rq).get("NodeList") == "n2", c.show_job(rq)
        c.run(["scontrol", "update", "nodename=n1", "state=resume"])

        net.cut()
        t0 = time.time()
        limit = c.slurmd_timeout * 4 + 20
        node = {}
        while time.time() - t0 < limit:
            node = c.show_nodes().get("n2", {})
            if node.get("State", "").startswith("DOWN"):
                break
            time.sleep(0.5)
        took = time.time() - t0
        assert node.get("State", "").startswith("DOWN"), \
            "n2 not DOWN %.0fs after the cut: %s" % (took, node)
        assert took >= c.slurmd_timeout - 1, took
        assert _reason(c, "n2") == "Not responding"
        assert c.run(["sinfo", "-h", "-n", "n2", "-o", "%t"]).out.strip() == "down*"
        assert c.wait_done(nrq, 30) == "NODE_FAIL", c.show_job(nrq)
        assert c.wait_done(rq, 60) == "COMPLETED", c.show_job(rq)
        rec = c.show_job(rq)
        assert rec.get("Restarts") == "1" and rec.get("NodeList") == "n1", rec

        off = c.log_size()
        net.heal()
        t0 = time.time()
        while time.time() - t0 < 40:
            node = c.show_nodes().get("n2", {})
            if node.get("State") == "IDLE":
                break
            time.sleep(0.5)
        assert node.get("State") == "IDLE", node
        assert _reason(c, "n2") is None
        log = c.log_since(off)
        # what still ran there is killed (both runs the controller ended)
        for j in (nrq, rq):
            assert "Killing unknown JobId=%d on node n2" % j in log, log
        nj = c.sbatch(["-w", "n2", "--wrap", "echo $SLURMD_NODENAME"],
                      user="sluice_u2")
        assert c.wait_done(nj, 30) == "COMPLETED", c.show_job(nj)
        # the first run of rq was ended on n2, not completed twice
        assert c.job_state(rq) == "COMPLETED"
        assert c.show_job(rq).get("Restarts") == "1"
    except BaseException:
        c.failed = True
        print(c.log_tails())
        raise
    finally:
        c.stop()
        c.cleanup()
        net.destroy()
