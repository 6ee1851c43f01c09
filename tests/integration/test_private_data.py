"""PrivateData=jobs through every information request (issue 34, defect 2).

User A (sluice_u1) has a running batch job with a running step and a
pending job; user B (sluice_u2) asks about them with every command that
returns something derived from a job: the job itself (scontrol show job,
squeue), its steps (scontrol show step, squeue -s, sstat), where its tasks
are (sattach --layout) and its priority (sprio).  B learns nothing of A's
records; A sees them all, and so does root.  One place decides (the
PrivateData column of the controller's dispatch table, src/ctld/rpc.c).
"""

import time

import pytest

from conftest import _start, _stop

A, B = "sluice_u1", "sluice_u2"


@pytest.fixture(scope="module")
def priv(users):
    c = _start(tag="private_data", nodes=2,
               extra_conf="PrivateData=jobs\n"
                          "PriorityType=priority/multifactor\n"
                          "PriorityWeightAge=1000\n")
    srun = c.bin("srun")
    run = c.sbatch(["-N1", "-J", "a_run", "--wrap",
                    "%s sleep 300" % srun], user=A)
    own = c.sbatch(["-N1", "-J", "b_run", "--wrap",
                    "%s sleep 300" % srun], user=B)
    for jid in (run, own):
        c.wait_state(jid, {"RUNNING"})
    # pends behind those two for both whole nodes, with a priority
    big = c.sbatch(["-N2", "--exclusive", "-J", "a_pend", "--wrap", "true"],
                   user=A)
    deadline = time.time() + 60
    while time.time() < deadline:
        r = c.run(["squeue", "-h", "-s", "-o", "%i"])
        if "%d.0" % run in r.out.split() and "%d.0" % own in r.out.split():
            break
        time.sleep(0.5)
    else:
        raise AssertionError("steps never ran: %r" % (r,))
    yield c, run, big, own
    _stop(c)


def test_scontrol_show_job(priv):
    c, run, big, own = priv
    r = c.run(["scontrol", "show", "job", str(run)], user=B)
    assert r.rc != 0 and "Access/permission denied" in r.err, r
    assert "a_run" not in r.out
    r = c.run(["scontrol", "show", "job"], user=B)
    assert "a_run" not in r.out and "a_pend" not in r.out, r
    assert "JobId=%d " % own in r.out, r
    r = c.run(["scontrol", "show", "job", str(run)], user=A)
    assert r.rc == 0 and "JobName=a_run" in r.out, r


def test_squeue(priv):
    c, run, big, own = priv
    r = c.run(["squeue", "-h", "-o", "%i"], user=B)
    assert (r.rc, r.out.split()) == (0, [str(own)]), r
    for argv in (["-j", "%d,%d" % (run, big)], ["-u", A], ["-n", "a_run"]):
        r = c.run(["squeue", "-h", "-o", "%i"] + argv, user=B)
        assert str(run) not in r.out and str(big) not in r.out, r
    r = c.run(["squeue", "-h", "-o", "%i"], user=A)
    assert sorted(r.out.split()) == sorted([str(run), str(big)]), r


def test_steps(priv):
    """scontrol show step and squeue -s: B's own steps only."""
    c, run, big, own = priv
    r = c.run(["scontrol", "show", "step"], user=B)
    assert r.rc == 0, r
    assert "StepId=%d." % run not in r.out, r
    assert "StepId=%d.0 " % own in r.out, r
    r = c.run(["scontrol", "show", "step", "%d.0" % run], user=B)
    assert r.out == "Job step %d.0 not found\n" % run, r
    r = c.run(["squeue", "-h", "-s", "-o", "%i"], user=B)
    assert (r.rc, sorted(r.out.split())) == (
        0, ["%d.0" % own, "%d.batch" % own]), r
    # as if it did not exist
    r = c.run(["squeue", "-h", "-s", "-j", str(run), "-o", "%i"], user=B)
    none = c.run(["squeue", "-h", "-s", "-j", "999999", "-o", "%i"], user=B)
    assert (r.rc, r.out, r.err) == (none.rc, "", none.err), (r, none)
    for who in (A, None):
        r = c.run(["scontrol", "show", "step", "%d.0" % run], user=who)
        assert r.rc == 0 and "StepId=%d.0 " % run in r.out, r
        r = c.run(["squeue", "-h", "-s", "-o", "%i"], user=who)
        assert "%d.0" % run in r.out.split(), r


def test_sstat(priv):
    c, run, big, own = priv
    r = c.run(["sstat", "-n", "-P", "-j", "%d.0" % run, "-o", "JobID,MaxRSS"],
              user=B)
    assert r.out == "", r
    assert "StepId=%d.0 not found running." % run in r.err, r
    r = c.run(["sstat", "-n", "-P", "-j", str(run), "-o", "JobID"], user=B)
    assert r.out == "", r
    r = c.run(["sstat", "-n", "-P", "-j", "%d.0" % run, "-o", "JobID"],
              user=A)
    assert (r.rc, r.out.strip()) == (0, "%d.0" % run), r


def test_sattach_layout(priv):
    c, run, big, own = priv
    r = c.run(["sattach", "--layout", "%d.0" % run], user=B)
    assert r.rc != 0 and r.out == "", r
    assert "Access/permission denied" in r.err, r
    r = c.run(["sattach", "--layout", "%d.0" % run], user=A)
    assert r.rc == 0 and r.out.startswith("Job step layout:\n"), r


def test_sprio(priv):
    c, run, big, own = priv
    r = c.run(["sprio", "-h", "-o", "%i"], user=A)
    assert r.out.split() == [str(big)], r
    for argv in ([], ["-j", str(big)], ["-u", A]):
        r = c.run(["sprio", "-h", "-o", "%i %u"] + argv, user=B)
        assert str(big) not in r.out, r
