"""Emulated nodes (tests/perf/node_emu.c): two processes serve 128 of 256
NodeNames each over the real protocol (TreeWidth=3: the controller's
fan-outs pass from one process's nodes to the other's).  They register and go idle; a 256-node batch job
is launched through the TreeWidth tree, "runs" for its `sleep`, and ends
on every node (epilog complete from all 256); squeue and sinfo say so at
each step; short jobs spread over the nodes all complete; the emulators
stop on SIGTERM with exit 0 and leave no process behind."""

import re

import os

import pytest

import cluster as cl
import emu_cluster
from conftest import _start, _stop

NODES = 256


@pytest.fixture
def emu(request, users):
    if not os.access(emu_cluster.node_emu_path(), os.X_OK):
        pytest.skip("node_emu not built")
    c = _start(emu_cluster.EmuCluster, nodes=NODES, emu_procs=2,
               tag="node_emu", debug="info", slurmd_timeout=30,
               extra_conf="TreeWidth=3")
    yield c
    _stop(c)


def _sinfo(c):
    r = c.run(["sinfo", "-h", "-o", "%D %T"])
    assert r.rc == 0, r
    return sorted(tuple(l.split()) for l in r.out.splitlines())


def test_emulated_nodes_run_a_full_job_and_stop_cleanly(emu):
    c = emu
    # every node registered (wait_ready saw them idle): one line of 256
    assert _sinfo(c) == [(str(NODES), "idle")]
    r = c.run(["sinfo", "-h", "-N", "-o", "%N"])
    assert r.rc == 0 and len(r.out.split()) == NODES, r

    jid = c.sbatch(["-N", str(NODES), "--exclusive", "--wrap", "sleep 3"])
    c.wait_state(jid, ["RUNNING"], timeout=30)
    r = c.run(["squeue", "-h", "-j", str(jid), "-o", "%T %D %N"])
    assert r.rc == 0, r
    assert r.out.split() == ["RUNNING", str(NODES), "n[1-%d]" % NODES], r
    assert _sinfo(c) == [(str(NODES), "allocated")]
    assert c.wait_done(jid, timeout=60) == "COMPLETED"
    # every node told the controller it is done: all idle again
    cl.wait_for(lambda: _sinfo(c) == [(str(NODES), "idle")], timeout=30,
                what="all %d nodes idle after the job" % NODES)

    # 64 one-node jobs: those without a sleep end at once; whole-node
    # jobs that overlap are spread over several nodes
    ids = [c.sbatch(["--wrap", "true"]) for _ in range(32)]
    ids += [c.sbatch(["--exclusive", "--wrap", "sleep 4"]) for _ in range(32)]
    states = {j: c.wait_done(j, timeout=60) for j in ids}
    assert set(states.values()) == {"COMPLETED"}, states
    used = set()
    for j in ids:
        used.add(c.show_job(j)["NodeList"])
    assert len(used) > 1, used

    # every node still answers the pings (they cross processes)
    assert _sinfo(c) == [(str(NODES), "idle")]
    # the emulators stop on SIGTERM, exit 0, nothing left behind
    pids = [d.pid for d in c.emus]
    assert c.stop_emu() == [0, 0]
    assert not [p for p in pids if os.path.exists("/proc/%d" % p)]
    launches = ends = 0
    for i in (0, 1):
        text = open(c.emu_log(i)).read()
        assert "emulating %d node(s)" % (NODES // 2) in text
        m = re.search(r"stopping: (\d+) launch\(es\), (\d+) batch end", text)
        assert m, text[-2000:]
        launches += int(m.group(1))
        ends += int(m.group(2))
    assert (launches, ends) == (65, 65)
    # nodes stop answering: the controller notices (not at once: a ping
    # round), which is not waited for here
