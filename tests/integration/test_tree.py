"""TreeWidth fan-out: srun's launch and the controller's terminate/signal
travel along a tree of slurmds (REQUEST_FORWARD).

Default: 8 nodes with TreeWidth=2 (three levels).  SLUICE_TREE_FULL=1:
32 nodes with TreeWidth=4.
- `srun -N<all> -l printenv SLURMD_NODENAME` reaches every node, and
  slurmds logged that they passed the launch on (the tree was used);
- with one slurmd killed inside a group, srun names that node's failure
  (Slurm's "Task launch for StepId=J.0 failed on node nX: ...") and
  reports no other node;
- `scancel --signal` and scancel of a job running a step on every node
  go down the tree (slurmds logged forwarding them), and the cancel ends
  every task process.
"""

import os
import re
import time

import pytest

import cluster as cl

U = "sluice_u1"
FULL = os.environ.get("SLUICE_TREE_FULL") == "1"
NODES, WIDTH = (32, 4) if FULL else (8, 2)


@pytest.fixture(scope="module")
def tree(users):
    c = cl.Cluster(nodes=NODES, cpus=1, tag="tree",
                   extra_conf="TreeWidth=%d\n" % WIDTH)
    try:
        c.start()
        c.wait_ready(timeout=120)
    except BaseException:
        c.stop()
        raise
    yield c
    c.stop()
    if not c.sanitizer_reports():
        c.cleanup()


def _forwarded(c, what):
    """Nodes whose slurmd log says it forwarded a `what` request."""
    pat = re.compile(r"forward: %s for (\d+) node" % what)
    return [n for n in c.node_names if pat.search(c.log_text(n))]


def _wait_running(c, jid, timeout=60):
    assert c.wait_state(jid, {"RUNNING"}, timeout=timeout) == "RUNNING"


def test_launch_reaches_every_node(tree):
    c = tree
    r = c.run(["srun", "-N%d" % NODES, "-n%d" % NODES, "-l", "printenv",
               "SLURMD_NODENAME"], user=U, timeout=120)
    assert r.rc == 0, r
    got = {}
    for line in r.out.splitlines():
        m = re.fullmatch(r"\s*(\d+): (n\d+)", line)
        assert m, r
        got[int(m.group(1))] = m.group(2)
    assert sorted(got) == list(range(NODES)), r
    assert sorted(got.values(), key=lambda n: int(n[1:])) == c.node_names
    # srun spoke to WIDTH nodes; they (and their children) passed it on
    fw = _forwarded(c, "REQUEST_LAUNCH_TASKS")
    assert len(fw) >= WIDTH, fw


def test_terminate_down_the_tree(tree):
    c = tree
    marker = "4101.%d" % NODES
    jid = c.sbatch(["-N%d" % NODES, "--wrap", "%s -N%d /usr/bin/sleep %s"
                    % (c.bin("srun"), NODES, marker)], user=U)
    _wait_running(c, jid)
    # srun and the batch shell name the marker too: wait for the tasks

    def sleeps():
        return [p for p in cl.live_procs_matching("sleep " + marker)
                if cl.proc_cmdline(p).startswith("/usr/bin/sleep")]
    deadline = time.time() + 60
    while time.time() < deadline and len(sleeps()) < NODES:
        time.sleep(0.2)
    procs = sleeps()
    assert len(procs) == NODES, procs
    # a signal to the whole job goes down the tree too
    r = c.run(["scancel", "--signal=CONT", str(jid)], user=U)
    assert r.rc == 0, r
    deadline = time.time() + 30
    while time.time() < deadline and \
            len(_forwarded(c, "REQUEST_SIGNAL_JOB")) < WIDTH:
        time.sleep(0.2)
    assert len(_forwarded(c, "REQUEST_SIGNAL_JOB")) >= WIDTH
    r = c.run(["scancel", str(jid)], user=U)
    assert r.rc == 0, r
    assert c.wait_done(jid, timeout=60) == "CANCELLED"
    deadline = time.time() + 60
    while time.time() < deadline and any(
            cl.proc_cmdline(p).startswith("/usr/bin/sleep")
            for p in cl.live_procs_matching("sleep " + marker)):
        time.sleep(0.2)
    left = [p for p in cl.live_procs_matching("sleep " + marker)
            if cl.proc_cmdline(p).startswith("/usr/bin/sleep")]
    assert not left, left
    assert len(_forwarded(c, "REQUEST_TERMINATE_JOB")) >= WIDTH


def test_dead_node_is_named(tree):
    c = tree
    # the allocation first, then a node dies: its step launch fails
    jid = c.sbatch(["-N%d" % NODES, "--wrap", "/usr/bin/sleep 300"], user=U)
    _wait_running(c, jid)
    # a node that is the head of a group below the first level
    dead = "n%d" % (NODES // WIDTH + 2)
    c.kill_slurmd(dead)
    try:
        r = c.run(["srun", "--jobid=%d" % jid, "-N%d" % NODES,
                   "-n%d" % NODES, "/bin/true"], user=U, timeout=120)
        assert r.rc != 0, r
        fails = re.findall(r"srun: error: Task launch for StepId=%d\.0 "
                           r"failed on node (n\d+): (.*)" % jid, r.err)
        assert fails == [(dead, "Communication connection failure")], r
    finally:
        c.run(["scancel", str(jid)])
        c.start_slurmd(dead)
        c.wait_done(jid, timeout=60)
