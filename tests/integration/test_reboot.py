"""Node reboots, as scontrol(1) and slurm.conf(5) describe them:
`scontrol reboot [ASAP] [nextstate=RESUME|DOWN] [reason=...] {ALL|nodes}`,
`scontrol cancel_reboot`, RebootProgram run by the node's slurmd as root
once the node has no jobs, REBOOT_REQUESTED / REBOOT_ISSUED (sinfo "@",
"reboot^"), back in service when the node registers with a later boot
time, DOWN "... : reboot timed out" after ResumeTimeout.

How a node "reboots" here: the RebootProgram only records that it ran
(as whom, on which node); the test then plays the machine's reboot by
killing that node's slurmd and starting it again with
SLUICE_TEST_BOOT_TIME (the test hook documented in src/slurmd/hwinfo.c)
set to the restart time, so the new slurmd reports a later boot time as
a rebooted machine's would.  The controller's part (when to send the
reboot, what states and reasons follow) is the real code path."""

import json
import os
import re
import signal
import time

import pytest

import cluster as cl
import conftest

PROG = """#!/bin/sh
echo "$SLURMD_NODENAME uid=$(id -u) $(date +%%s)" >> %(dir)s/reboots
exit 0
"""
RESUME_TIMEOUT = 8


@pytest.fixture(scope="module")
def rb(users, tmp_path_factory):
    d = str(tmp_path_factory.mktemp("reboot"))
    os.chmod(d, 0o755)
    prog = os.path.join(d, "reboot.sh")
    with open(prog, "w") as f:
        f.write(PROG % {"dir": d})
    os.chmod(prog, 0o755)
    c = conftest._start(tag="reboot", extra_conf=(
        "RebootProgram=%s\nResumeTimeout=%d\n" % (prog, RESUME_TIMEOUT)))
    c.reboot_dir = d
    yield c
    conftest._stop(c)


def _runs(c, node):
    try:
        with open(os.path.join(c.reboot_dir, "reboots")) as f:
            return [line for line in f.read().splitlines()
                    if line.split()[0] == node]
    except FileNotFoundError:
        return []


def _node(c, node):
    """scontrol show node: its keys, Reason= whole (it holds spaces)."""
    r = c.run(["scontrol", "show", "node", node], timeout=20)
    if r.rc != 0:
        return {}
    rec = cl.parse_kv(r.out)
    m = re.search(r"^\s*Reason=(.*)$", r.out, re.M)
    if m:
        rec["Reason"] = m.group(1)
    return rec


def _wait_node(c, node, pred, timeout=30, what="node state"):
    rec = {}
    t0 = time.time()
    while time.time() - t0 < timeout:
        rec = _node(c, node)
        if rec and pred(rec):
            return rec
        time.sleep(0.3)
    raise AssertionError("%s: %s not reached: %r" % (node, what, rec))


def _sinfo(c, node):
    r = c.run(["sinfo", "-h", "-n", node, "-o", "%t %T"])
    assert r.rc == 0, r
    return r.out.strip()


def _reboot_machine(c, node):
    """What the machine does after RebootProgram: it comes back with a
    new boot time (see the module's docstring)."""
    cl.wait_for(lambda: _runs(c, node), timeout=20,
                what="RebootProgram run on %s" % node)
    time.sleep(1.1)          # a boot time later than the request's second
    c.kill_slurmd(node)
    c.daemon_env["SLUICE_TEST_BOOT_TIME"] = str(int(time.time()))
    try:
        c.start_slurmd(node)
    finally:
        del c.daemon_env["SLUICE_TEST_BOOT_TIME"]


def test_no_reboot_program_is_refused(cluster):
    r = cluster.run(["scontrol", "reboot", "n1"])
    assert r.rc == 1, r
    assert r.err == ("scontrol: error: RebootProgram isn't defined\n"
                     "scontrol_reboot_nodes error: Unspecified error\n"), r
    assert "REBOOT" not in _node(cluster, "n1")["State"]


def test_bad_requests(rb):
    r = rb.run(["scontrol", "reboot"])
    assert (r.rc, r.err) == (1, "Missing node list. Specify ALL|<NodeList>\n")
    r = rb.run(["scontrol", "reboot", "nextstate=foo", "n1"])
    assert (r.rc, r.err) == (1, "Invalid state: foo\nValid states: DOWN, RESUME\n")
    r = rb.run(["scontrol", "reboot", "n1", "n2"])
    assert (r.rc, r.err) == (1, "too many arguments for keyword:reboot\n")
    r = rb.run(["scontrol", "reboot", "n9"])
    assert (r.rc, r.err) == (1, "scontrol_reboot_nodes error: Invalid node "
                             "name specified\n"), r
    for n in rb.node_names:
        assert "REBOOT" not in _node(rb, n)["State"]


def test_non_operator_refused(rb):
    r = rb.run(["scontrol", "reboot", "n1"], user="sluice_u1")
    assert r.rc == 1, r
    assert r.err == "scontrol_reboot_nodes error: Permission denied\n", r
    rec = _node(rb, "n1")
    assert rec["State"] == "IDLE" and "Reason" not in rec, rec
    assert "Security violation, REQUEST_REBOOT_NODES" in rb.log_text()
    r = rb.run(["scontrol", "cancel_reboot", "n1"], user="sluice_u1")
    assert r.rc == 1, r


def test_reboot_idle_node(rb):
    boot0 = _node(rb, "n1")["BootTime"]
    r = rb.run(["scontrol", "reboot", "n1"])
    assert (r.rc, r.out, r.err) == (0, "", ""), r
    rec = _wait_node(rb, "n1", lambda x: "REBOOT_ISSUED" in x["State"])
    assert rec["State"] == "DOWN+REBOOT_ISSUED", rec
    assert rec["Reason"].startswith("reboot requested : reboot issued ["), rec
    assert _sinfo(rb, "n1") == "boot^ reboot^"
    cl.wait_for(lambda: _runs(rb, "n1"), timeout=20, what="RebootProgram")
    assert _runs(rb, "n1")[0].split()[1] == "uid=0"
    assert "Node reboot request being processed" in rb.log_text("n1")
    # the node answers but did not reboot: still waiting
    time.sleep(2)
    assert "REBOOT_ISSUED" in _node(rb, "n1")["State"]
    _reboot_machine(rb, "n1")
    rec = _wait_node(rb, "n1", lambda x: x["State"] == "IDLE",
                     what="IDLE after reboot")
    assert "Reason" not in rec and "NextState" not in rec, rec
    assert rec["BootTime"] != boot0, rec
    assert _sinfo(rb, "n1") == "idle idle"
    jid = rb.sbatch(["-w", "n1", "--wrap", "true"], user="sluice_u1")
    assert rb.wait_done(jid, 30) == "COMPLETED"


def test_asap_waits_for_the_job_and_drains(rb):
    jid = rb.sbatch(["-w", "n2", "-n", "1", "--wrap", "/usr/bin/sleep 6"],
                    user="sluice_u1")
    rb.wait_state(jid, "RUNNING", 30)
    r = rb.run(["scontrol", "reboot", "ASAP", "n2"])
    assert r.rc == 0, r
    rec = _node(rb, "n2")
    assert rec["State"] == "MIXED+DRAIN+REBOOT_REQUESTED", rec
    assert rec["NextState"] == "RESUME", rec
    assert rec["Reason"].startswith("Reboot ASAP ["), rec
    assert _sinfo(rb, "n2") == "drng@ draining@"
    r = rb.run(["scontrol", "show", "node", "n2", "--json"])
    node = json.loads(r.out)["nodes"][0]
    assert set(node["state"]) == {"MIXED", "DRAIN", "REBOOT_REQUESTED"}, node
    assert node["next_state_after_reboot"] == ["RESUME"], node
    assert node["reason"] == "Reboot ASAP", node
    # drained meanwhile: a new job for n2 waits
    j2 = rb.sbatch(["-w", "n2", "--wrap", "true"], user="sluice_u1")
    time.sleep(2)
    assert rb.job_state(j2) == "PENDING"
    assert not _runs(rb, "n2"), "rebooted with a job running"
    assert rb.wait_done(jid, 30) == "COMPLETED"
    rec = _wait_node(rb, "n2", lambda x: "REBOOT_ISSUED" in x["State"])
    assert rec["State"] == "DOWN+DRAIN+REBOOT_ISSUED", rec
    assert rec["Reason"].startswith("Reboot ASAP : reboot issued ["), rec
    _reboot_machine(rb, "n2")
    rec = _wait_node(rb, "n2", lambda x: "REBOOT" not in x["State"]
                     and "DOWN" not in x["State"], what="back in service")
    assert "DRAIN" not in rec["State"] and "Reason" not in rec, rec
    assert rb.wait_done(j2, 30) == "COMPLETED"


def test_without_asap_new_jobs_may_start(rb):
    jid = rb.sbatch(["-w", "n3", "-n", "1", "--wrap", "/usr/bin/sleep 30"],
                    user="sluice_u1")
    rb.wait_state(jid, "RUNNING", 30)
    assert rb.run(["scontrol", "reboot", "n3"]).rc == 0
    rec = _node(rb, "n3")
    assert rec["State"] == "MIXED+REBOOT_REQUESTED", rec
    assert _sinfo(rb, "n3") == "mix@ mixed@"
    j2 = rb.sbatch(["-w", "n3", "-n", "1", "--wrap", "/usr/bin/sleep 30"],
                   user="sluice_u1")
    rb.wait_state(j2, "RUNNING", 30)
    # cancel_reboot: the request and its default reason go
    r = rb.run(["scontrol", "cancel_reboot", "n3"])
    assert (r.rc, r.err) == (0, ""), r
    rec = _node(rb, "n3")
    assert rec["State"] == "ALLOCATED" and "Reason" not in rec, rec
    r = rb.run(["scontrol", "cancel_reboot", "n3"])
    assert (r.rc, r.err) == (1, "slurm_update error: Invalid node state "
                             "specified\n"), r
    # ASAP then cancel: undrained, reason cleared
    assert rb.run(["scontrol", "reboot", "asap", "reason=kernel", "n3"]).rc == 0
    rec = _node(rb, "n3")
    assert rec["State"] == "ALLOCATED+DRAIN+REBOOT_REQUESTED", rec
    assert rec["Reason"].startswith("kernel ["), rec
    r = rb.run(["scontrol", "update", "nodename=n3", "state=cancel_reboot"])
    assert r.rc == 0, r
    rec = _node(rb, "n3")
    assert rec["State"] == "ALLOCATED" and "Reason" not in rec, rec
    rb.run(["scancel", str(jid), str(j2)])
    rb.wait_done(jid, 30)
    rb.wait_done(j2, 30)
    time.sleep(2)
    assert not _runs(rb, "n3")


def test_pending_reboot_survives_controller_restart(rb):
    jid = rb.sbatch(["-w", "n3", "-n", "1", "--wrap", "/usr/bin/sleep 60"],
                    user="sluice_u1")
    rb.wait_state(jid, "RUNNING", 30)
    assert rb.run(["scontrol", "reboot", "ASAP", "nextstate=down",
                   "n3"]).rc == 0
    rb.kill_ctld(signal.SIGKILL)
    rb.start_ctld()
    rec = _wait_node(rb, "n3", lambda x: "REBOOT" in x.get("State", ""),
                     what="recovered")
    assert "DRAIN+REBOOT_REQUESTED" in rec["State"], rec
    assert rec["NextState"] == "DOWN", rec
    assert rec["Reason"].startswith("Reboot ASAP ["), rec
    assert rb.run(["scontrol", "cancel_reboot", "n3"]).rc == 0
    rb.run(["scancel", str(jid)])
    rb.wait_done(jid, 30)


def test_nextstate_down(rb):
    r = rb.run(["scontrol", "reboot", "nextstate=DOWN", "reason=firmware",
                "n4"])
    assert r.rc == 0, r
    rec = _wait_node(rb, "n4", lambda x: "REBOOT_ISSUED" in x["State"])
    assert rec["NextState"] == "DOWN", rec
    assert rec["Reason"].startswith("firmware : reboot issued ["), rec
    _reboot_machine(rb, "n4")
    rec = _wait_node(rb, "n4", lambda x: "REBOOT" not in x["State"],
                     what="rebooted")
    assert rec["State"] in ("DOWN", "DOWN*"), rec
    assert rec["Reason"].startswith(
        "firmware : reboot issued : reboot complete ["), rec
    assert rb.run(["scontrol", "update", "nodename=n4",
                   "state=resume"]).rc == 0
    _wait_node(rb, "n4", lambda x: x["State"] == "IDLE", what="resumed")


def test_resume_timeout_sets_down(rb):
    _wait_node(rb, "n4", lambda x: x["State"] == "IDLE", what="idle")
    assert rb.run(["scontrol", "reboot", "n4"]).rc == 0
    rec = _wait_node(rb, "n4", lambda x: "REBOOT_ISSUED" in x["State"])
    # its slurmd keeps answering with the old boot time: never rebooted
    rec = _wait_node(rb, "n4", lambda x: "REBOOT" not in x["State"],
                     timeout=RESUME_TIMEOUT + 15, what="timed out")
    assert rec["State"] == "DOWN", rec
    assert rec["Reason"].startswith(
        "reboot requested : reboot issued : reboot timed out ["), rec
    assert re.search(r"Node n4 did not reboot within ResumeTimeout",
                     rb.log_text())
    assert rb.run(["scontrol", "update", "nodename=n4",
                   "state=resume"]).rc == 0
