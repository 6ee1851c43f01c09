"""scancel ends a running job's whole process tree; a job over its time
limit ends TIMEOUT.

Each job's processes run a private symlink to sleep whose path carries a
unique marker, so the test can find them by command line (as `pgrep -f`
would) without touching anything else on the machine.
"""

import os
import time
import uuid

import pytest

import cluster as cl

USER = "sluice_u1"


def marker_sleep(c, user):
    """A directory named after a fresh marker holding a 'sleep' symlink;
    returns (marker, path)."""
    marker = "mk-" + uuid.uuid4().hex[:12]
    d = c.mkdir_for(user, os.path.join(c.workdir(user), marker))
    path = os.path.join(d, "sleep")
    os.symlink("/usr/bin/sleep", path)
    return marker, path


def wait_running_procs(marker, count, timeout=30):
    deadline = time.time() + timeout
    pids = []
    while time.time() < deadline:
        pids = cl.live_procs_matching(marker)
        if len(pids) >= count:
            return pids
        time.sleep(0.2)
    return pids


def wait_no_procs(marker, timeout):
    deadline = time.time() + timeout
    pids = cl.live_procs_matching(marker)
    while pids and time.time() < deadline:
        time.sleep(0.2)
        pids = cl.live_procs_matching(marker)
    return pids


def describe(pids):
    return ["%d: %s" % (p, cl.proc_cmdline(p)) for p in pids]


@pytest.fixture(scope="module")
def timeout_job(cluster):
    """Submitted first so its (long) wait overlaps the other tests."""
    jid = cluster.sbatch(["-J", "overtime", "-t", "1", "--wrap",
                          "/usr/bin/sleep 1000"], user=USER)
    return jid, time.time()


def test_scancel_ends_process_tree(cluster, timeout_job):
    """A script with background children and a grandchild: scancel ends all
    of them within KillWait + a few seconds; state CANCELLED."""
    c = cluster
    marker, sl = marker_sleep(c, USER)
    body = ("#!/bin/sh\n"
            "%s 1000 &\n"
            "/bin/sh -c '%s 1001; true' &\n"
            "%s 1002\n" % (sl, sl, sl))
    path = c.write_file(USER, os.path.join(c.workdir(USER), "tree-%s.sh" % marker), body)
    jid = c.sbatch(["-J", "tree", path], user=USER)
    c.wait_state(jid, "RUNNING", 60)
    pids = wait_running_procs(marker, 4)
    assert len(pids) >= 4, "job processes not seen: %s" % describe(pids)
    r = c.run(["scancel", str(jid)], user=USER)
    assert (r.rc, r.out, r.err) == (0, "", ""), r
    left = wait_no_procs(marker, c.kill_wait + 5)
    assert not left, "still alive %ss after scancel: %s" % (
        c.kill_wait + 5, describe(left))
    assert c.wait_done(jid, 30) == "CANCELLED"


def test_scancel_ends_setsid_escapee(cluster, timeout_job):
    """A process that left the job's session and process group with setsid
    is still part of the job and ends with it."""
    c = cluster
    marker, sl = marker_sleep(c, USER)
    body = ("#!/bin/sh\n"
            "%s 1000 &\n"
            "( /usr/bin/setsid %s 1003 & )\n"
            "wait\n" % (sl, sl))
    path = c.write_file(USER, os.path.join(c.workdir(USER), "setsid-%s.sh" % marker), body)
    jid = c.sbatch(["-J", "escape", path], user=USER)
    c.wait_state(jid, "RUNNING", 60)
    pids = wait_running_procs(marker, 2)
    assert len(pids) >= 2, "job processes not seen: %s" % describe(pids)
    r = c.run(["scancel", str(jid)], user=USER)
    assert r.rc == 0, r
    left = wait_no_procs(marker, c.kill_wait + 5)
    assert not left, "still alive %ss after scancel: %s" % (
        c.kill_wait + 5, describe(left))
    assert c.wait_done(jid, 30) == "CANCELLED"


def test_script_end_ends_left_behind_processes(cluster, timeout_job):
    """The batch script exits while processes it started run on (one in
    the background, one in a session of its own): the job still ends
    COMPLETED, and nothing of it is left running.  (The stepd skips the
    /proc scan only when it has no child left at all.)"""
    c = cluster
    marker, sl = marker_sleep(c, USER)
    body = ("#!/bin/sh\n"
            "%s 1000 &\n"
            "( /usr/bin/setsid %s 1003 & )\n"
            "exit 0\n" % (sl, sl))
    path = c.write_file(USER, os.path.join(c.workdir(USER), "left-%s.sh" % marker), body)
    jid = c.sbatch(["-J", "left", path], user=USER)
    assert c.wait_done(jid, 60) == "COMPLETED", c.show_job(jid)
    left = wait_no_procs(marker, 10)
    assert not left, "still alive after the job ended: %s" % describe(left)


def test_scancel_pending_job(cluster, timeout_job):
    c = cluster
    jid = c.sbatch(["--hold", "--wrap", "true"], user=USER)
    assert c.wait_state(jid, "PENDING", 10) == "PENDING"
    r = c.run(["scancel", str(jid)], user=USER)
    assert (r.rc, r.err) == (0, ""), r
    assert c.wait_done(jid, 20) == "CANCELLED"
    r = c.run(["squeue", "-h", "-o", "%i"])
    assert str(jid) not in r.out.split(), r


def test_time_limit_ends_timeout(cluster, timeout_job):
    """sbatch -t 1: the job ends TIMEOUT (Slurm checks limits periodically,
    so allow 1 minute + up to ~40 s), its processes gone."""
    c = cluster
    jid, t0 = timeout_job
    assert c.job_state(jid) in ("RUNNING", "TIMEOUT", "COMPLETING"), c.show_job(jid)
    left = max(5, 105 - (time.time() - t0))
    st = c.wait_done(jid, left)
    assert st == "TIMEOUT", c.show_job(jid)
    rec = c.show_job(jid)
    assert rec.get("TimeLimit") == "00:01:00", rec
    elapsed = time.time() - t0
    assert elapsed >= 55, "ended after %.0fs, before its 1 minute limit" % elapsed
