"""HealthCheckProgram / HealthCheckInterval / HealthCheckNodeState, as
slurm.conf(5) says: slurmd runs the program as root, at start before it
registers and then every HealthCheckInterval on the nodes whose state
HealthCheckNodeState selects; the program acts itself (here: Sluice's
scontrol drains the node when a check fails)."""

import os
import re
import time

import cluster as cl

HC = """#!/bin/sh
d=%(dir)s
echo "$(date +%%s) uid=$(id -u)" >> $d/runs-$SLURMD_NODENAME
env | sort > $d/env-$SLURMD_NODENAME
if [ -e $d/fail-$SLURMD_NODENAME ]; then
    %(scontrol)s update nodename=$SLURMD_NODENAME state=drain reason="health check failed"
    exit 1
fi
exit 0
"""


def _runs(d, node):
    try:
        with open(os.path.join(d, "runs-" + node)) as f:
            return f.read().splitlines()
    except FileNotFoundError:
        return []


def test_health_check_program(new_cluster, tmp_path_factory):
    d = str(tmp_path_factory.mktemp("hc"))
    os.chmod(d, 0o755)
    prog = os.path.join(d, "hc.sh")
    with open(prog, "w") as f:
        f.write(HC % {"dir": d, "scontrol": cl.binaries()["scontrol"]})
    os.chmod(prog, 0o755)
    c = new_cluster(tag="hc", extra_conf=(
        "HealthCheckProgram=%s\nHealthCheckInterval=2\n"
        "HealthCheckNodeState=IDLE\n" % prog))
    # run at start, before the node registered
    for n in c.node_names:
        assert _runs(d, n), n
        log = c.log_text(n)
        started = log.find("health_check %s started" % prog)
        reg = log.find("registering node %s" % n)
        assert 0 <= started < reg, log
    # as root, with a clean environment
    assert all(line.endswith("uid=0") for line in _runs(d, "n1"))
    with open(os.path.join(d, "env-n1")) as f:
        env = dict(line.split("=", 1) for line in f.read().splitlines()
                   if "=" in line)
    assert env.get("SLURMD_NODENAME") == "n1", env
    assert env.get("SLURM_CONF") == c.conf, env
    assert set(env) <= {"PATH", "SLURMD_NODENAME", "SLURM_CLUSTER_NAME",
                        "SLURM_CONF", "PWD", "SHLVL", "_"}, env

    # every interval on IDLE nodes; not on n3 while a job makes it MIXED
    jid = c.sbatch(["-w", "n3", "--wrap", "/usr/bin/sleep 60"],
                   user="sluice_u1")
    c.wait_state(jid, "RUNNING", 30)
    time.sleep(1)
    before = {n: len(_runs(d, n)) for n in c.node_names}
    time.sleep(5)
    after = {n: len(_runs(d, n)) for n in c.node_names}
    assert after["n1"] - before["n1"] >= 2, (before, after)
    assert after["n3"] == before["n3"], (before, after)

    # a failing check drains its node, and only it
    open(os.path.join(d, "fail-n2"), "w").close()
    t0 = time.time()
    rec = {}
    while time.time() - t0 < 20:
        rec = c.show_nodes().get("n2", {})
        if "DRAIN" in rec.get("State", ""):
            break
        time.sleep(0.3)
    assert "DRAIN" in rec.get("State", ""), rec
    r = c.run(["scontrol", "show", "node", "n2"])
    assert re.search(r"Reason=health check failed \[root@", r.out), r.out
    r = c.run(["sinfo", "-h", "-n", "n2", "-o", "%t"])
    assert r.out.strip() == "drain", r
    time.sleep(0.5)
    assert "health_check failed: rc:1" in c.log_text("n2")
    assert c.show_nodes()["n1"]["State"] == "IDLE"
