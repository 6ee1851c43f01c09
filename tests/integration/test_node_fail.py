"""A slurmd killed with SIGKILL: after SlurmdTimeout its node is DOWN with
reason "Not responding"; the --no-requeue job running there ends
NODE_FAIL, the --requeue one runs again on another node and completes.
ReturnToService 0/1/2 decides whether a DOWN node that registers again
returns to service (slurm.conf(5))."""

import os
import re
import signal
import time

RQ_SCRIPT = """#!/bin/sh
n=${SLURM_RESTART_COUNT:-0}
echo "run $n on $SLURMD_NODENAME"
[ "$n" = 0 ] && exec /usr/bin/sleep 300
exit 0
"""


def test_slurmd_sigkill_node_down_job_node_fail(new_cluster):
    c = new_cluster(tag="nodefail", slurmd_timeout=6)
    # A --requeue job on n2 (the others drained while it starts): it must
    # run again elsewhere.
    for n in ("n1", "n3", "n4"):
        c.run(["scontrol", "update", "nodename=" + n, "state=drain",
               "reason=placing"])
    rq = c.sbatch(["-J", "again", "--requeue"], user="sluice_u2",
                  input=RQ_SCRIPT)
    c.wait_state(rq, "RUNNING", 30)
    assert c.show_job(rq).get("NodeList") == "n2", c.show_job(rq)
    for n in ("n1", "n3", "n4"):
        c.run(["scontrol", "update", "nodename=" + n, "state=resume"])
    # --no-requeue: with JobRequeue=1 (the default) Slurm would requeue it.
    jid = c.sbatch(["-J", "victim", "-w", "n2", "--no-requeue", "--wrap",
                    "/usr/bin/sleep 300"],
                   user="sluice_u1")
    c.wait_state(jid, "RUNNING", 30)
    rec = c.show_job(jid)
    assert rec.get("NodeList") == "n2", rec
    other = c.sbatch(["-J", "bystander", "-w", "n3", "--wrap", "/usr/bin/sleep 300"],
                     user="sluice_u2")
    c.wait_state(other, "RUNNING", 30)

    t0 = time.time()
    c.kill_slurmd("n2")
    # Slurm marks a node DOWN once it has been silent SlurmdTimeout; pings
    # go every SlurmdTimeout/3, so allow a few intervals on top.
    limit = c.slurmd_timeout * 4 + 20
    node = {}
    while time.time() - t0 < limit:
        node = c.show_nodes().get("n2", {})
        if node.get("State", "").startswith("DOWN"):
            break
        time.sleep(0.5)
    took = time.time() - t0
    assert node.get("State", "").startswith("DOWN"), \
        "n2 not DOWN %.0fs after its slurmd died: %s" % (took, node)
    # silent SlurmdTimeout since its last answer, which may have come one
    # ping interval (SlurmdTimeout/3) before the kill
    assert took >= c.slurmd_timeout * 2 / 3 - 1, \
        "n2 DOWN after %.1fs, before SlurmdTimeout=%d" % (took, c.slurmd_timeout)
    r = c.run(["scontrol", "show", "node", "n2"])
    assert "Reason=Not responding" in r.out, r
    r = c.run(["sinfo", "-h", "-n", "n2", "-o", "%t"])
    assert r.out.strip() == "down*", r

    assert c.wait_done(jid, 30) == "NODE_FAIL", c.show_job(jid)
    # The --requeue job ran again on another node, to completion.
    assert c.wait_done(rq, 60) == "COMPLETED", c.show_job(rq)
    rec = c.show_job(rq)
    assert rec.get("Restarts") == "1", rec
    assert rec.get("NodeList") not in ("n2", None), rec
    out = "%s/slurm-%d.out" % (c.workdir("sluice_u2"), rq)
    with open(out) as f:
        assert f.read().endswith("run 1 on %s\n" % rec["NodeList"])
    # The other node and its job are untouched.
    assert c.job_state(other) == "RUNNING"
    assert c.show_nodes()["n3"].get("State", "").startswith(("ALLOCATED", "MIXED")), \
        c.show_nodes()["n3"]
    # New work avoids the dead node.
    nj = c.sbatch(["-N", "1", "--wrap", "echo $SLURMD_NODENAME"], user="sluice_u1")
    assert c.wait_done(nj, 30) == "COMPLETED"
    assert c.show_job(nj).get("NodeList") != "n2"


def test_slurmd_restart_keeps_running_job(new_cluster):
    """slurmd killed and started again within SlurmdTimeout: the job it
    launched keeps running (slurmstepd does not depend on slurmd), ends
    COMPLETED, and the node stays in service."""
    c = new_cluster(tag="slurmd-restart", slurmd_timeout=30)
    jid = c.sbatch(["-J", "survivor", "-w", "n3", "--wrap",
                    "echo started; /usr/bin/sleep 8; echo survived"], user="sluice_u1")
    c.wait_state(jid, "RUNNING", 30)
    # Kill slurmd only once the script runs (not in the middle of the
    # launch request, which is another case).
    out = "%s/slurm-%d.out" % (c.workdir("sluice_u1"), jid)
    deadline = time.time() + 30
    while time.time() < deadline:
        if os.path.exists(out) and open(out).read().startswith("started"):
            break
        time.sleep(0.1)
    time.sleep(0.5)
    c.kill_slurmd("n3")
    time.sleep(1)
    c.start_slurmd("n3")
    assert c.wait_done(jid, 60) == "COMPLETED", c.show_job(jid)
    with open(out) as f:
        assert f.read() == "started\nsurvived\n"
    c.wait_ready(timeout=30)
    nj = c.sbatch(["-w", "n3", "--wrap", "true"], user="sluice_u2")
    assert c.wait_done(nj, 30) == "COMPLETED"


def _set_rts(c, value):
    with open(c.conf) as f:
        text = f.read()
    text = re.sub(r"(?m)^ReturnToService=\d+$", "ReturnToService=%d" % value, text)
    with open(c.conf, "w") as f:
        f.write(text)
    r = c.run(["scontrol", "reconfigure"])
    assert r.rc == 0, r
    r = c.run(["scontrol", "show", "config"])
    assert re.search(r"(?m)^ReturnToService\s*=\s*%d$" % value, r.out), r.out


def _wait_node(c, node, pred, timeout, what):
    t0 = time.time()
    rec = {}
    while time.time() - t0 < timeout:
        rec = c.show_nodes().get(node, {})
        if pred(rec):
            return rec
        time.sleep(0.3)
    raise AssertionError("%s: %s not %s after %ds: %s" % (
        c.dir, node, what, timeout, rec))


def _reason(c, node):
    """The node's Reason as scontrol prints it ("Not responding"), or None."""
    r = c.run(["scontrol", "show", "node", node])
    m = re.search(r"Reason=(.*?)(?: \[[^]]*\])?$", r.out, re.M)
    return m.group(1) if m else None


def _down(rec):
    return rec.get("State", "").startswith("DOWN")


def _restart_slurmd(c, node):
    """SIGKILL and start a node's slurmd; wait until it registered."""
    off = c.log_size()
    c.kill_slurmd(node, signal.SIGKILL)
    c.start_slurmd(node)
    t0 = time.time()
    while time.time() - t0 < 30:
        if "Node %s registered" % node in c.log_since(off):
            return
        time.sleep(0.2)
    raise AssertionError("%s did not register: %s" % (node, c.log_since(off)))


def test_return_to_service(new_cluster):
    """ReturnToService=1 (the cluster's): a node DOWN for not responding
    returns when its slurmd registers again, one an admin set DOWN does
    not; 2: any DOWN node returns; 0: none does until `scontrol update
    state=resume`."""
    c = new_cluster(tag="rts", slurmd_timeout=4)
    limit = c.slurmd_timeout * 4 + 15

    # 1, not responding: back
    c.kill_slurmd("n2")
    _wait_node(c, "n2", _down, limit, "DOWN")
    assert _reason(c, "n2") == "Not responding"
    c.start_slurmd("n2")
    _wait_node(c, "n2", lambda r: r.get("State") == "IDLE", 30, "IDLE")
    assert _reason(c, "n2") is None

    # 1, set DOWN by an admin: stays DOWN across a registration
    r = c.run(["scontrol", "update", "nodename=n3", "state=down",
               "reason=admin says"])
    assert r.rc == 0, r
    _restart_slurmd(c, "n3")
    time.sleep(1)
    rec = c.show_nodes()["n3"]
    assert _down(rec), rec
    assert _reason(c, "n3") == "admin says"

    # 2: any reason, back at the next registration
    _set_rts(c, 2)
    _restart_slurmd(c, "n3")
    _wait_node(c, "n3", lambda r: r.get("State") == "IDLE", 15, "IDLE")

    # 0: not even a node that was only not responding
    _set_rts(c, 0)
    c.kill_slurmd("n4")
    _wait_node(c, "n4", _down, limit, "DOWN")
    off = c.log_size()
    c.start_slurmd("n4")
    t0 = time.time()
    while "Node n4 registered" not in c.log_since(off) and time.time() - t0 < 30:
        time.sleep(0.2)
    time.sleep(1)
    rec = c.show_nodes()["n4"]
    assert _down(rec), rec
    assert _reason(c, "n4") == "Not responding"
    r = c.run(["sinfo", "-h", "-n", "n4", "-o", "%t"])
    assert r.out.strip() == "down", r          # responding, still DOWN
    jid = c.sbatch(["-w", "n4", "--wrap", "true"], user="sluice_u1")
    time.sleep(1)
    assert c.job_state(jid) == "PENDING"
    r = c.run(["scontrol", "update", "nodename=n4", "state=resume"])
    assert r.rc == 0, r
    assert c.wait_done(jid, 30) == "COMPLETED", c.show_job(jid)
