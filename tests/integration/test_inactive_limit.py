"""InactiveLimit (issue 27): the srun or salloc that made an allocation
sends the controller a heartbeat every InactiveLimit/3 seconds; an
allocation not heard from for InactiveLimit seconds ends as Slurm's does:
TIMEOUT, Reason=InactiveLimit, "inactivity time limit reached" in
slurmctld's log.  Batch jobs and salloc --no-shell allocations are
exempt; a restarted controller gives every allocation a fresh grace
period."""

import os
import pwd
import re
import select
import signal
import subprocess
import time

import pytest

from conftest import _start, _stop
import cluster as cl

U = "sluice_u1"
LIMIT = 6


@pytest.fixture(scope="module")
def c(users):
    c = _start(tag="inactive", nodes=2,
               extra_conf="InactiveLimit=%d\n" % LIMIT)
    yield c
    _stop(c)


def _popen(c, prog, args, user=U):
    pw = pwd.getpwnam(user)
    return subprocess.Popen(
        [c.bin(prog)] + list(args), user=pw.pw_uid, group=pw.pw_gid,
        extra_groups=os.getgrouplist(user, pw.pw_gid),
        env=c.env_for(user), cwd=c.workdir(user),
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True, start_new_session=True)


def _granted(p, timeout=30):
    """The job id from salloc's "Granted job allocation N" line."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        r, _, _ = select.select([p.stderr], [], [], 1)
        if r:
            line = p.stderr.readline()
            m = re.search(r"Granted job allocation (\d+)", line)
            if m:
                return int(m.group(1))
    p.kill()
    raise AssertionError("salloc granted nothing in %ss" % timeout)


def _running_job(c, user=U, timeout=30):
    """The id of user's running job (srun does not print its id)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        r = c.run(["squeue", "-h", "-u", user, "-t", "R", "-o", "%i"])
        if r.rc == 0 and r.out.strip():
            return int(r.out.split()[0])
        time.sleep(0.3)
    raise AssertionError("no running job of %s" % user)


def _reason(c, jid):
    return c.show_job(jid).get("Reason")


def _answering(c, timeout=30):
    deadline = time.time() + timeout
    while c.run(["squeue"], timeout=10).rc != 0:
        assert time.time() < deadline, "the controller does not answer"
        time.sleep(0.2)


def _finish(p):
    """salloc and what it runs (its own session) are gone."""
    for sig in (signal.SIGCONT, signal.SIGKILL):
        try:
            os.killpg(p.pid, sig)
        except ProcessLookupError:
            pass
    p.wait(timeout=30)
    p.stderr.close()


def test_show_config_prints_the_limit(c):
    r = c.run(["scontrol", "show", "config"])
    assert r.rc == 0, r
    assert re.search(r"(?m)^InactiveLimit\s+= %d sec$" % LIMIT, r.out), r.out


def test_stopped_salloc_job_times_out(c):
    p = _popen(c, "salloc", ["-N1", "sleep", "300"])
    try:
        jid = _granted(p)
        os.kill(p.pid, signal.SIGSTOP)
        t0 = time.time()
        assert c.wait_state(jid, "TIMEOUT", timeout=4 * LIMIT) == "TIMEOUT"
        waited = time.time() - t0
        # not before the limit (its last heartbeat may be LIMIT/3 old)
        assert waited >= LIMIT - LIMIT / 3 - 1, waited
        assert _reason(c, jid) == "InactiveLimit"
        assert ("inactivity time limit reached for JobId=%d" % jid
                in c.log_text())
    finally:
        _finish(p)


def test_stopped_srun_job_times_out(c):
    p = _popen(c, "srun", ["-N1", "sleep", "300"])
    try:
        jid = _running_job(c)
        os.kill(p.pid, signal.SIGSTOP)
        assert c.wait_state(jid, "TIMEOUT", timeout=4 * LIMIT) == "TIMEOUT"
        assert _reason(c, jid) == "InactiveLimit"
    finally:
        _finish(p)


def test_running_salloc_is_not_cancelled(c):
    r = c.run(["salloc", "-N1", "sleep", str(3 * LIMIT)], user=U,
              timeout=10 * LIMIT)
    assert r.rc == 0, r
    jid = int(re.search(r"Granted job allocation (\d+)", r.err).group(1))
    assert c.wait_done(jid) == "COMPLETED"
    assert "inactivity time limit reached for JobId=%d" % jid \
        not in c.log_text()


def test_batch_job_is_exempt(c):
    jid = c.sbatch(["-o", "/dev/null", "--wrap", "sleep %d" % (3 * LIMIT)],
                   user=U)
    assert c.wait_done(jid, timeout=10 * LIMIT) == "COMPLETED"


def test_no_shell_allocation_is_exempt(c):
    r = c.run(["salloc", "--no-shell", "-N1"], user=U)
    assert r.rc == 0, r
    jid = int(re.search(r"Granted job allocation (\d+)", r.err).group(1))
    time.sleep(2 * LIMIT + 2)
    assert c.job_state(jid) == "RUNNING"
    assert c.run(["scancel", str(jid)], user=U).rc == 0
    c.wait_done(jid)


def test_restart_gives_a_fresh_grace_period_then_times_out(c):
    p = _popen(c, "salloc", ["-N1", "sleep", "300"])
    try:
        jid = _granted(p)
        os.kill(p.pid, signal.SIGSTOP)
        time.sleep(LIMIT - 2)
        c.kill_ctld(signal.SIGKILL)
        t0 = time.time()
        c.start_ctld()
        _answering(c)
        # a fresh grace period: still running just after the restart
        assert c.job_state(jid) == "RUNNING"
        assert c.wait_state(jid, "TIMEOUT", timeout=4 * LIMIT) == "TIMEOUT"
        assert time.time() - t0 >= LIMIT - 1
        assert _reason(c, jid) == "InactiveLimit"
    finally:
        _finish(p)


def test_running_salloc_survives_a_restart(c):
    p = _popen(c, "salloc", ["-N1", "sleep", str(4 * LIMIT)])
    try:
        jid = _granted(p)
        c.kill_ctld(signal.SIGKILL)
        c.start_ctld()
        _answering(c)
        assert p.wait(timeout=10 * LIMIT) == 0, p.stderr.read()
        assert c.wait_done(jid) == "COMPLETED"
    finally:
        if p.poll() is None:
            _finish(p)


def test_reconfigure_to_zero_turns_it_off(c):
    """Last: it changes the module's cluster."""
    c.extra_conf = "InactiveLimit=0\n"
    c.write_conf()
    assert c.run(["scontrol", "reconfigure"]).rc == 0
    r = c.run(["scontrol", "show", "config"])
    assert re.search(r"(?m)^InactiveLimit\s+= 0 sec$", r.out), r.out
    p = _popen(c, "salloc", ["-N1", "sleep", "300"])
    try:
        jid = _granted(p)
        os.kill(p.pid, signal.SIGSTOP)
        time.sleep(2 * LIMIT + 2)
        assert c.job_state(jid) == "RUNNING"
    finally:
        _finish(p)
    # no limit: the allocation of a killed salloc stays, as in Slurm
    assert c.job_state(jid) == "RUNNING"
    assert c.run(["scancel", str(jid)]).rc == 0
    c.wait_done(jid)
