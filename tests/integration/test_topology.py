"""Network topology (issue 28): TopologyPlugin=topology/tree with
topology.conf, placement inside the lowest switch that holds a job,
--switches=N@max-time waits, scontrol show topology, bad topology.conf
refused with file:line, TopologyParam words.

The cluster has 4 nodes of 2 CPUs under two leaf switches joined by one
top switch:  top -> s1 (n1, n2), s2 (n3, n4).
"""

import json
import os
import re
import time

import pytest

import cluster as cl

U1 = "sluice_u1"

TOPO = """# two leaf switches under one top switch
SwitchName=s1 Nodes=n[1-2] LinkSpeed=10
SwitchName=s2 Nodes=n[3-4]
SwitchName=top Switches=s[1-2]
"""

EXTRA = """TopologyPlugin=topology/tree
SchedulerParameters=bf_interval=1,bf_resolution=1,sched_min_interval=0"""


def _write_topo(c, text, name="topology.conf"):
    path = os.path.join(c.dir, "etc", name)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o644)
    return path


class TopoCluster(cl.Cluster):
    """A cluster whose etc/ holds topology.conf before slurmctld starts."""

    def __init__(self, topo=TOPO, **kw):
        super().__init__(**kw)
        self.topo = topo

    def write_conf(self):
        super().write_conf()
        _write_topo(self, self.topo)


@pytest.fixture(scope="module")
def tc(users):
    c = TopoCluster(nodes=4, cpus=2, extra_conf=EXTRA, tag="topo")
    try:
        c.start()
        yield c
    finally:
        c.stop()
        if not c.failed:
            c.cleanup()


def nodelist(c, jobid):
    r = c.run(["squeue", "-h", "-j", str(jobid), "-o", "%N"])
    assert r.rc == 0, r
    return r.out.strip()


def reason(c, jobid):
    r = c.run(["squeue", "-h", "-j", str(jobid), "-o", "%T %r"])
    assert r.rc == 0, r
    return r.out.strip()


def cancel_all(c):
    c.run(["scancel", "-u", U1])
    cl.wait_for(lambda: not c.run(["squeue", "-h", "-u", U1]).out.strip(),
                timeout=60, what="queue empty")


def test_show_topology(tc):
    r = tc.run(["scontrol", "show", "topology"])
    assert r.rc == 0, r
    assert r.out.splitlines() == [
        "SwitchName=s1 Level=0 LinkSpeed=10 Nodes=n[1-2]",
        "SwitchName=s2 Level=0 LinkSpeed=1 Nodes=n[3-4]",
        "SwitchName=top Level=1 LinkSpeed=1 Nodes=n[1-4] Switches=s[1-2]",
    ], r
    # the switches over one node
    r = tc.run(["scontrol", "show", "topology", "n3"])
    assert r.rc == 0, r
    assert [l.split()[0] for l in r.out.splitlines()] == [
        "SwitchName=s2", "SwitchName=top"], r
    r = tc.run(["scontrol", "show", "topology", "nosuch"])
    assert r.rc == 1 and "nosuch" in r.err, r


def test_two_node_job_stays_under_one_switch(tc):
    """n1 busy: a flat placement would take n[2-3] (the lowest free
    nodes), across both switches; the tree gives n[3-4] under s2."""
    a = tc.sbatch(["--exclusive", "-N1", "--wrap", "sleep 300"], user=U1)
    tc.wait_state(a, ("RUNNING",))
    assert nodelist(tc, a) == "n1"
    b = tc.sbatch(["--exclusive", "-N2", "--wrap", "sleep 300"], user=U1)
    tc.wait_state(b, ("RUNNING",))
    assert nodelist(tc, b) == "n[3-4]"
    cancel_all(tc)


def test_switches_wait(tc):
    """Free nodes n2 and n4 only (one under each leaf): a 2-node job
    asking for one switch pends (Resources) for its max-time, then takes
    both; one not asking starts at once."""
    a = tc.sbatch(["--exclusive", "-w", "n1", "--wrap", "sleep 300"],
                  user=U1)
    b = tc.sbatch(["--exclusive", "-w", "n3", "--wrap", "sleep 300"],
                  user=U1)
    tc.wait_state(a, ("RUNNING",))
    tc.wait_state(b, ("RUNNING",))
    t0 = time.time()
    w = tc.sbatch(["--exclusive", "-N2", "--switches=1@0:12",
                   "--wrap", "sleep 300"], user=U1)
    time.sleep(4)
    assert reason(tc, w) == "PENDING Resources"
    r = tc.run(["squeue", "--json", "-j", str(w)])
    job = json.loads(r.out)["jobs"][0]
    assert job["required_switches"] == 1, job
    assert job["maximum_switch_wait_time"] == 12, job
    tc.wait_state(w, ("RUNNING",), timeout=60)
    assert time.time() - t0 >= 10
    assert nodelist(tc, w) == "n[2,4]"
    cancel_all(tc)
    # without --switches the same job starts at once on both leaves
    a = tc.sbatch(["--exclusive", "-w", "n1", "--wrap", "sleep 300"],
                  user=U1)
    b = tc.sbatch(["--exclusive", "-w", "n3", "--wrap", "sleep 300"],
                  user=U1)
    tc.wait_state(a, ("RUNNING",))
    tc.wait_state(b, ("RUNNING",))
    n = tc.sbatch(["--exclusive", "-N2", "--wrap", "sleep 300"], user=U1)
    tc.wait_state(n, ("RUNNING",), timeout=15)
    assert nodelist(tc, n) == "n[2,4]"
    cancel_all(tc)


def test_segment_needs_block(tc):
    r = tc.run(["sbatch", "-N2", "--segment=2", "--wrap", "true"], user=U1)
    assert r.rc == 1, r
    assert "--segment needs TopologyPlugin=topology/block" in r.err, r


def _start_fails(users, topo, extra=EXTRA, name="topology.conf"):
    c = TopoCluster(nodes=4, cpus=2, extra_conf=extra, tag="topobad",
                    topo=TOPO)
    try:
        ports = cl.free_ports(1 + len(c.node_names))
        c.ctld_port = ports[0]
        c.node_ports = dict(zip(c.node_names, ports[1:]))
        c.write_conf()
        path = _write_topo(c, topo, name)
        r = c.run([c.bin("slurmctld"), "-D", "-f", c.conf], timeout=20)
        return r, path
    finally:
        c.cleanup()


@pytest.mark.parametrize("topo,line,why", [
    ("SwitchName=a Switches=b\nSwitchName=b Switches=a\n", 1,
     "switch a is in a loop"),
    ("SwitchName=s1 Nodes=n[1-2]\nSwitchName=s2 Nodes=n[2-4]\n", 2,
     "node n2 is under leaf switches s1 (line 1) and s2"),
    ("SwitchName=s1 Nodes=n[1-4]\nSwitchName=top Switches=s[1-2]\n", 2,
     "switch top: child switch s2 is not defined"),
    ("SwitchName=s1 Nodes=n[1-5]\n", 1, "node n5 is not in slurm.conf"),
])
def test_bad_topology_conf_stops_slurmctld(users, topo, line, why):
    r, path = _start_fails(users, topo)
    assert r.rc != 0, r
    assert "%s:%d: %s" % (path, line, why) in r.err, r


def test_topology_param_dragonfly_refused(users):
    r, _ = _start_fails(users, TOPO,
                        extra=EXTRA + "\nTopologyParam=Dragonfly")
    assert r.rc != 0, r
    assert "TopologyParam=Dragonfly is not supported" in r.err, r


def test_topology_yaml_refused(users):
    r, path = _start_fails(users, "- topology: t1\n", name="topology.yaml")
    assert r.rc != 0, r
    assert "%s: Sluice reads topology.conf only" % path in r.err, r


def test_switches_no_effect_when_flat(new_cluster):
    """topology/flat: --switches is taken and the user told it does
    nothing; --segment is refused."""
    c = new_cluster(nodes=1)
    r = c.run(["sbatch", "-H", "--switches=1", "--wrap", "true"], user=U1)
    assert r.rc == 0 and "Submitted batch job" in r.out, r
    assert "--switches has no effect: TopologyPlugin is not " \
        "topology/tree" in r.err, r
    r = c.run(["scontrol", "show", "topology"])
    assert r.rc == 0 and r.out == "No topology information available\n", r


BLOCKS = """BlockName=b1 Nodes=n[1-2]
BlockName=b2 Nodes=n[3-4]
BlockSizes=2
"""


def test_blocks(users):
    """topology/block: a 2-node job in one block; --segment=1 lets one
    span blocks; show topology lists the blocks."""
    c = TopoCluster(nodes=4, cpus=2, tag="topoblk", topo=BLOCKS,
                    extra_conf=EXTRA.replace("topology/tree",
                                             "topology/block"))
    try:
        c.start()
        r = c.run(["scontrol", "show", "topology"])
        assert r.out.splitlines() == [
            "BlockName=b1 BlockIndex=0 Nodes=n[1-2] BlockSize=2",
            "BlockName=b2 BlockIndex=1 Nodes=n[3-4] BlockSize=2"], r
        a = c.sbatch(["--exclusive", "-w", "n1", "--wrap", "sleep 300"],
                     user=U1)
        c.wait_state(a, ("RUNNING",))
        b = c.sbatch(["--exclusive", "-N2", "--wrap", "sleep 300"],
                     user=U1)
        c.wait_state(b, ("RUNNING",))
        assert nodelist(c, b) == "n[3-4]"
        c.run(["scancel", str(b)])
        d = c.sbatch(["--exclusive", "-w", "n3", "--wrap", "sleep 300"],
                     user=U1)
        c.wait_state(d, ("RUNNING",))
        # n2 and n4 free, one in each block: segments of 1 may span them
        e = c.sbatch(["--exclusive", "-N2", "--segment=1", "--wrap",
                      "sleep 300"], user=U1)
        c.wait_state(e, ("RUNNING",))
        assert nodelist(c, e) == "n[2,4]"
        r = c.run(["sbatch", "-N3", "--segment=2", "--wrap", "true"],
                  user=U1)
        assert r.rc == 1 and "not a multiple of --segment=2" in r.err, r
    finally:
        c.stop()
        if not c.failed:
            c.cleanup()


def test_route_tree(users):
    """TopologyParam=RouteTree: a message to a job's nodes fans out one
    group per switch (s1: n[1-2], s2: n[3-4]), not TreeWidth's even
    split (a group of one per node with the default 50)."""
    c = TopoCluster(nodes=4, cpus=2, tag="toporoute",
                    extra_conf=EXTRA + "\nTopologyParam=RouteTree"
                    "\nDebugFlags=Route")
    try:
        c.start()
        off = c.log_size()
        j = c.sbatch(["--exclusive", "-N4", "--wrap", "true"], user=U1)
        c.wait_done(j)
        # the batch host is told apart: the other 3 nodes span s1 and s2
        cl.wait_for(lambda: re.search(
            r"REQUEST_TERMINATE_JOB to [34] nodes in 2 groups, by switch",
            c.log_since(off)), timeout=30,
            what="a switch-ordered fan-out in slurmctld.log")
    finally:
        c.stop()
        if not c.failed:
            c.cleanup()
