"""A slurmd killed with SIGKILL: after SlurmdTimeout its node is DOWN with
reason "Not responding", and the job running there ends NODE_FAIL."""

import os
import time


def test_slurmd_sigkill_node_down_job_node_fail(new_cluster):
    c = new_cluster(tag="nodefail", slurmd_timeout=6)
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
    assert took >= c.slurmd_timeout - 1, \
        "n2 DOWN after %.1fs, before SlurmdTimeout=%d" % (took, c.slurmd_timeout)
    r = c.run(["scontrol", "show", "node", "n2"])
    assert "Reason=Not responding" in r.out, r
    r = c.run(["sinfo", "-h", "-n", "n2", "-o", "%t"])
    assert r.out.strip() == "down*", r

    assert c.wait_done(jid, 30) == "NODE_FAIL", c.show_job(jid)
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
