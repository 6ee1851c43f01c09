"""A job that cannot be ended drains its node, as Slurm (issue 34, defect 6).

After the controller ends a job, slurmd gives its step daemons KillWait +
UnkillableStepTimeout to be gone; if one is still there the node is
drained with Slurm's reason "Kill task failed", UnkillableStepProgram
runs, and the job is freed, instead of staying COMPLETING for ever.

How the test makes a step that cannot be ended: a process that ignores
SIGKILL does not exist, and uninterruptible sleep cannot be produced on
demand without a kernel module, so the test stops the job's batch
slurmstepd (SIGSTOP, as a debugger or a stuck filesystem call would hold
it).  That is the case defect 6 was about: a step daemon that cannot act
on the terminate (before io_open_nowait a FIFO did it), and the same
watchdog in slurmd covers tasks the step daemon cannot kill, since the
daemon then never removes its socket either.
"""

import os
import signal
import time

import pytest

from conftest import _start, _stop
import cluster as cl

U = "sluice_u1"
UNKILLABLE_TIMEOUT = 4


def _stepd_of(marker):
    """PID of the slurmstepd above the process whose command line has
    marker."""
    for pid in cl.live_procs_matching(marker):
        p = pid
        while p > 1:
            if "slurmstepd" in cl.proc_cmdline(p):
                return p
            with open("/proc/%d/status" % p) as f:
                p = int(next(l for l in f if l.startswith("PPid:")).split()[1])
    raise AssertionError("no slurmstepd above %r" % marker)


@pytest.fixture
def c(users, tmp_path_factory):
    logdir = tmp_path_factory.mktemp("unkillable")
    os.chmod(str(logdir), 0o755)
    prog = os.path.join(str(logdir), "unkillable.sh")
    with open(prog, "w") as f:
        f.write("#!/bin/sh\necho \"job=$SLURM_JOB_ID uid=$(id -u)\" >> %s/ran\n"
                % logdir)
    os.chmod(prog, 0o755)
    c = _start(tag="unkillable", nodes=1, kill_wait=2,
               extra_conf="UnkillableStepTimeout=%d\nUnkillableStepProgram=%s\n"
               % (UNKILLABLE_TIMEOUT, prog))
    c.unkillable_log = os.path.join(str(logdir), "ran")
    yield c
    _stop(c)


def test_stuck_step_drains_node(c):
    marker = "sleep 3%05d" % (os.getpid() % 100000)
    jid = c.sbatch(["--wrap", "/usr/bin/" + marker], user=U)
    c.wait_state(jid, {"RUNNING"})
    deadline = time.time() + 20
    while not cl.live_procs_matching(marker) and time.time() < deadline:
        time.sleep(0.2)
    stepd = _stepd_of(marker)
    os.kill(stepd, signal.SIGSTOP)
    try:
        t0 = time.time()
        r = c.run(["scancel", str(jid)], user=U)
        assert r.rc == 0, r
        # KillWait 2 + UnkillableStepTimeout 4, and slack for a loaded
        # machine: what matters is that it ends, not when
        state = c.wait_done(jid, 90)
        took = time.time() - t0
        assert state == "CANCELLED", c.show_job(jid)
        node = c.show_nodes()["n1"]
        assert "DRAIN" in node.get("State", ""), node
        r = c.run(["scontrol", "show", "node", "n1"], user=U)
        assert "Reason=Kill task failed [" in r.out, r
        assert took >= UNKILLABLE_TIMEOUT, took
        r = c.run(["sinfo", "-h", "-R", "-o", "%E|%N"], user=U)
        assert r.out.startswith("Kill task failed"), r
        assert r.out.rstrip().endswith("|n1"), r
        deadline = time.time() + 10
        while not os.path.exists(c.unkillable_log) and time.time() < deadline:
            time.sleep(0.2)
        with open(c.unkillable_log) as f:
            assert f.read() == "job=%d uid=0\n" % jid
        # the drained node takes no new job
        nxt = c.sbatch(["--wrap", "true"], user=U)
        time.sleep(2)
        assert c.job_state(nxt) == "PENDING", c.show_job(nxt)
    finally:
        os.kill(stepd, signal.SIGCONT)
    r = c.run(["scontrol", "update", "NodeName=n1", "State=RESUME"])
    assert r.rc == 0, r
    assert c.wait_done(nxt, 60) == "COMPLETED", c.show_job(nxt)


def test_job_that_ends_does_not_drain(c):
    """A job that ends within the time: nothing is drained, no program."""
    jid = c.sbatch(["--wrap", "/usr/bin/sleep 300"], user=U)
    c.wait_state(jid, {"RUNNING"})
    assert c.run(["scancel", str(jid)], user=U).rc == 0
    assert c.wait_done(jid, 30) == "CANCELLED"
    time.sleep(2 + UNKILLABLE_TIMEOUT + 1)
    node = c.show_nodes()["n1"]
    assert "DRAIN" not in node.get("State", ""), node
    assert not os.path.exists(c.unkillable_log)


def test_requeued_job_running_again_is_not_unkillable(users, tmp_path):
    """Requeued and started again on the same node before the first run's
    time is up: the new run's step daemon is not the old one, the node is
    not drained."""
    timeout = 15
    log = tmp_path / "ran"
    os.chmod(str(tmp_path), 0o755)
    prog = tmp_path / "prog.sh"
    prog.write_text("#!/bin/sh\necho $SLURM_JOB_ID >> %s\n" % log)
    os.chmod(str(prog), 0o755)
    c = _start(tag="unkillable-rq", nodes=1, kill_wait=2,
               extra_conf="UnkillableStepTimeout=%d\n"
               "UnkillableStepProgram=%s\n" % (timeout, prog))
    try:
        jid = c.sbatch(["--requeue", "--wrap", "/usr/bin/sleep 300"], user=U)
        c.wait_state(jid, {"RUNNING"})
        r = c.run(["scontrol", "requeue", str(jid)])
        assert r.rc == 0, r
        t0 = time.time()
        deadline = t0 + 60
        while time.time() < deadline:
            rec = c.show_job(jid)
            if rec.get("JobState") == "RUNNING" and rec.get("Restarts") == "1":
                break
            time.sleep(0.2)
        else:
            raise AssertionError("not running again: %r" % c.show_job(jid))
        if time.time() - t0 > 2 + timeout - 2:
            pytest.skip("ran again too late to test the case")
        time.sleep(max(0, t0 + 2 + timeout + 2 - time.time()))
        node = c.show_nodes()["n1"]
        assert "DRAIN" not in node.get("State", ""), node
        assert c.job_state(jid) == "RUNNING", c.show_job(jid)
        assert not log.exists()
    finally:
        _stop(c)
