"""Power saving and cloud nodes (slurm.conf SuspendProgram, ResumeProgram,
ResumeFailProgram, SuspendTime, SuspendRate, ResumeRate, SuspendExc*,
State=CLOUD; scontrol power).

The SuspendProgram stops a node's slurmd (by its SlurmdPidFile) and the
ResumeProgram starts it again, so a powered-down node really is gone and a
resumed one really registers.  Each program appends its node list to a
log the test reads.
"""

import os
import signal
import time

import cluster as cl

SCRIPTS = r"""#!/bin/sh
# %(what)s: $1 is the node list, as Slurm passes it
D=$(dirname "$(dirname "$SLURM_CONF")")
echo "$1" >> %(log)s/%(what)s.log
"""

SUSPEND = SCRIPTS + r"""
for n in $(%(scontrol)s show hostnames "$1"); do
    f="$D/run/slurmd-$n.pid"
    [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
done
exit 0
"""

RESUME = SCRIPTS + r"""
[ -n "$SLURM_RESUME_FILE" ] && cp "$SLURM_RESUME_FILE" %(log)s/resume_file.json
if [ -f %(log)s/hang ]; then
    echo $$ > %(log)s/hang.pid
    sleep 1000
fi
sleep %(delay)s
for n in $(%(scontrol)s show hostnames "$1"); do
    [ -f %(log)s/noboot ] && grep -qx "$n" %(log)s/noboot && continue
    setsid %(slurmd)s -D -N "$n" >/dev/null 2>&1 </dev/null &
done
exit 0
"""

FAIL = SCRIPTS + "exit 0\n"


def _scripts(tmp_path, delay=2):
    log = str(tmp_path)
    os.chmod(log, 0o755)
    b = cl.binaries()
    paths = {}
    for what, text in (("suspend", SUSPEND), ("resume", RESUME),
                       ("resume_fail", FAIL)):
        p = os.path.join(log, what + ".sh")
        with open(p, "w") as f:
            f.write(text % {"what": what, "log": log, "delay": delay,
                            "scontrol": b["scontrol"], "slurmd": b["slurmd"]})
        os.chmod(p, 0o755)
        paths[what] = p
    return paths


def _power_conf(paths, extra=""):
    return "\n".join([
        "SuspendProgram=%s" % paths["suspend"],
        "ResumeProgram=%s" % paths["resume"],
        "ResumeFailProgram=%s" % paths["resume_fail"],
    ]) + "\n" + extra


def _logged(tmp_path, what):
    p = os.path.join(str(tmp_path), what + ".log")
    if not os.path.exists(p):
        return []
    with open(p) as f:
        return [line.strip() for line in f if line.strip()]


def _hosts(c, exprs):
    out = []
    for e in exprs:
        r = c.run(["scontrol", "show", "hostnames", e])
        out += r.out.split()
    return out


def _state(c, node):
    return c.node_states().get(node, "")


def _long_state(c, node):
    return c.show_nodes()[node]["State"]


def _slurmd_pid(c, node):
    try:
        with open(os.path.join(c.dir, "run", "slurmd-%s.pid" % node)) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


def _alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False


def test_idle_nodes_power_down_and_job_resumes_them(new_cluster, tmp_path):
    paths = _scripts(tmp_path, delay=2)
    c = new_cluster(nodes=2, extra_conf=_power_conf(paths, "\n".join([
        "SuspendTime=3", "SuspendTimeout=2", "ResumeTimeout=30",
        "SlurmctldParameters=power_save_interval=1"])))
    # idle past SuspendTime: SuspendProgram, "%" for SuspendTimeout, "~"
    cl.wait_for(lambda: all(_state(c, n) == "idle~" for n in ("n1", "n2")),
                timeout=40, what="both nodes idle~")
    assert sorted(_hosts(c, _logged(tmp_path, "suspend"))) == ["n1", "n2"]
    assert "POWERED_DOWN" in _long_state(c, "n1")
    assert _long_state(c, "n1").startswith("IDLE")
    # the program stopped the slurmds
    for n in ("n1", "n2"):
        cl.wait_for(lambda n=n: not c.slurmds[n].alive(), timeout=10,
                    what="slurmd %s stopped" % n)

    # the power state survives a controller SIGKILL
    c.kill_ctld(signal.SIGKILL)
    c.start_ctld()
    cl.wait_for(lambda: c.run(["squeue"]).rc == 0, timeout=30,
                what="controller back")
    assert _state(c, "n1") == "idle~"
    assert "POWERED_DOWN" in _long_state(c, "n2")

    # a job for them waits CF while ResumeProgram boots them, then runs
    submitted = time.time()
    jid = c.sbatch(["-N", "2", "--exclusive", "--wrap",
                    "%s hostname; sleep 1" % c.bin("srun")])
    cl.wait_for(lambda: c.run(["squeue", "-h", "-j", str(jid), "-o", "%t"])
                .out.strip() == "CF", timeout=10, what="job CF")
    st = _long_state(c, "n1")
    assert "POWERING_UP" in st and st.startswith("ALLOCATED"), st
    assert _state(c, "n1") == "alloc#"
    c.wait_done(jid, timeout=60)
    job = c.show_job(jid)
    assert job["JobState"] == "COMPLETED", job
    assert sorted(_hosts(c, _logged(tmp_path, "resume"))) == ["n1", "n2"]
    # its clock started when its nodes were up, not at the allocation
    start = time.mktime(time.strptime(job["StartTime"], "%Y-%m-%dT%H:%M:%S"))
    assert start >= int(submitted) + 2, (job["StartTime"], submitted)
    with open(os.path.join(str(tmp_path), "resume_file.json")) as f:
        rf = f.read()
    assert '"job_id":%s' % jid in rf and "all_nodes_resume" in rf
    # and when idle again they are powered down again
    cl.wait_for(lambda: _state(c, "n1") == "idle~", timeout=40,
                what="n1 idle~ again")


def test_resume_that_hangs_is_killed_node_down_job_requeued(new_cluster,
                                                            tmp_path):
    paths = _scripts(tmp_path, delay=0)
    c = new_cluster(nodes=2, extra_conf=_power_conf(paths, "\n".join([
        "SuspendTime=2", "SuspendTimeout=1", "ResumeTimeout=5",
        "SuspendExcNodes=n1",
        "SlurmctldParameters=power_save_interval=1"])))
    cl.wait_for(lambda: _state(c, "n2") == "idle~", timeout=40,
                what="n2 idle~")
    assert _state(c, "n1") == "idle"        # SuspendExcNodes
    open(os.path.join(str(tmp_path), "hang"), "w").close()
    jid = c.sbatch(["-w", "n2", "--requeue", "--wrap", "hostname"])
    cl.wait_for(lambda: os.path.exists(os.path.join(str(tmp_path),
                                                    "hang.pid")),
                timeout=15, what="resume program started")
    with open(os.path.join(str(tmp_path), "hang.pid")) as f:
        hang = int(f.read().strip())
    # not registered by ResumeTimeout: DOWN, powered down, fail program
    cl.wait_for(lambda: _state(c, "n2") == "down~", timeout=30,
                what="n2 down~")
    r = c.run(["scontrol", "show", "node", "n2"])
    assert "Reason=ResumeTimeout reached" in r.out, r.out
    assert "State=DOWN+POWERED_DOWN" in r.out, r.out
    cl.wait_for(lambda: _logged(tmp_path, "resume_fail") == ["n2"],
                timeout=10, what="ResumeFailProgram n2")
    # the job is requeued, waiting for a node again
    cl.wait_for(lambda: c.show_job(jid).get("Restarts") == "1", timeout=15,
                what="job requeued")
    assert c.show_job(jid)["JobState"] == "PENDING"
    # the hanging program was killed after ResumeTimeout
    cl.wait_for(lambda: not _alive(hang), timeout=15,
                what="hanging ResumeProgram killed")
    assert "killed after 5 s" in c.log_text()
    # an admin resumes the node: idle~, and the job boots it and runs
    os.unlink(os.path.join(str(tmp_path), "hang"))
    r = c.run(["scontrol", "update", "NodeName=n2", "State=RESUME"])
    assert r.rc == 0, r
    c.wait_done(jid, timeout=60)
    assert c.show_job(jid)["JobState"] == "COMPLETED"


def _fake_nodes(prefix, cnt, state, port):
    return ("NodeName=%s[1-%d] NodeAddr=127.0.0.1 Port=%d CPUs=1 "
            "RealMemory=100 State=%s" % (prefix, cnt, port, state))


def test_rates_with_64_nodes_and_admin_only(new_cluster, tmp_path, users):
    paths = _scripts(tmp_path, delay=0)
    port = cl.free_ports(1)[0]
    extra = "\n".join([
        "SuspendTime=1", "SuspendTimeout=1", "ResumeTimeout=120",
        "SuspendRate=8", "ResumeRate=8", "SuspendExcNodes=n[1-2]",
        "SuspendExcParts=cloud",
        "SlurmctldParameters=power_save_interval=1",
        # never registering: DOWN nodes are powered down too
        _fake_nodes("f", 64, "DOWN Reason=fake", port),
        _fake_nodes("c", 64, "CLOUD", port),
        "PartitionName=cloud Nodes=c[1-64] MaxTime=INFINITE State=UP"])
    c = new_cluster(nodes=2, extra_conf=_power_conf(paths, extra))
    t0 = time.time()
    cl.wait_for(lambda: len(_hosts(c, _logged(tmp_path, "suspend"))) >= 8,
                timeout=30, what="first suspends")
    jid = c.sbatch(["-p", "cloud", "-N", "16", "--wrap", "hostname"])
    cl.wait_for(lambda: len(_hosts(c, _logged(tmp_path, "resume"))) >= 8,
                timeout=30, what="first resumes")
    time.sleep(8)
    elapsed = time.time() - t0
    suspended = _hosts(c, _logged(tmp_path, "suspend"))
    resumed = _hosts(c, _logged(tmp_path, "resume"))
    # 8 a minute: the first minute's 8, then one every 7.5 s
    allowed = 8 + int(elapsed * 8 / 60) + 1
    assert 8 <= len(suspended) <= allowed, (len(suspended), elapsed)
    assert all(h.startswith("f") for h in suspended), suspended
    assert 8 <= len(resumed) <= allowed, (len(resumed), elapsed)
    assert all(h.startswith("c") for h in resumed), resumed
    assert c.run(["squeue", "-h", "-j", str(jid), "-o", "%t"]).out.strip() == "CF"
    assert _state(c, "n1") == "idle" and _state(c, "c64") == "idle~"

    # scontrol power: administrators only, nothing changes otherwise
    r = c.run(["scontrol", "power", "down", "n1"], user=users[0].pw_name)
    assert r.rc == 1
    # as Slurm's update_node RPC refuses a non-administrator
    assert r.err == "slurm_update error: Invalid user id\n", r
    assert _state(c, "n1") == "idle"
    r = c.run(["scontrol", "power", "sideways", "n1"])
    assert r.rc == 1 and "up or down" in r.err
    r = c.run(["scontrol", "power", "down", "nosuchnode"])
    assert r.rc == 1 and "Invalid node name" in r.err, r
    # an admin's power down passes the exclusion (as Slurm)
    r = c.run(["scontrol", "power", "down", "n1"])
    assert r.rc == 0, r
    cl.wait_for(lambda: _state(c, "n1") in ("idle%", "idle~", "idle!"),
                timeout=40, what="n1 powering down")
    # update State=POWER_DOWN_ASAP: drained until it is powered down
    r = c.run(["scontrol", "update", "NodeName=n2", "State=POWER_DOWN_ASAP"])
    assert r.rc == 0, r
    assert "DRAIN" in _long_state(c, "n2") or "POWER" in _long_state(c, "n2")
    assert _state(c, "n2") in ("drain!", "idle%", "idle~"), _state(c, "n2")
    c.run(["scancel", str(jid)])


def test_cloud_node_learns_its_address(new_cluster, tmp_path):
    paths = _scripts(tmp_path, delay=0)
    port = cl.free_ports(1)[0]
    extra = "\n".join([
        "SuspendTime=4", "SuspendTimeout=1", "ResumeTimeout=30",
        "SlurmctldParameters=power_save_interval=1,cloud_reg_addrs",
        # no NodeAddr: the node's address is learnt when it registers
        "NodeName=cl1 Port=%d CPUs=1 RealMemory=100 State=CLOUD" % port,
        "PartitionName=cloud Nodes=cl1 MaxTime=INFINITE State=UP"])
    c = new_cluster(nodes=1, extra_conf=_power_conf(paths, extra))
    node = c.show_nodes()["cl1"]
    assert node["State"] == "IDLE+CLOUD+POWERED_DOWN", node
    assert node["NodeAddr"] == "cl1"
    jid = c.sbatch(["-p", "cloud", "--wrap", "%s hostname" % c.bin("srun")])
    c.wait_done(jid, timeout=60)
    assert c.show_job(jid)["JobState"] == "COMPLETED"
    assert c.show_nodes()["cl1"]["NodeAddr"] == "127.0.0.1"
    # released when idle: powered down, the address forgotten
    cl.wait_for(lambda: _state(c, "cl1") == "idle~", timeout=40,
                what="cl1 idle~ again")
    assert c.show_nodes()["cl1"]["NodeAddr"] == "cl1"
    # scontrol update NodeAddr= (what a resume program does without
    # cloud_reg_addrs)
    r = c.run(["scontrol", "update", "NodeName=cl1", "NodeAddr=127.0.0.1",
               "NodeHostname=cloudy"])
    assert r.rc == 0, r
    node = c.show_nodes()["cl1"]
    assert node["NodeAddr"] == "127.0.0.1" and node["NodeHostName"] == "cloudy"
