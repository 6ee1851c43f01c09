"""A change the controller cannot journal does not happen.

StateSaveLocation fails (its directory and journal file made immutable,
as a full or read-only disk would; test_full_tmpfs fills a real tmpfs):
every command that asks for a change (sbatch, salloc, srun, scancel,
scontrol hold/release/update/requeue/suspend/resume/top, scontrol
create/update/delete reservation, scontrol update node) gets
"I/O error writing script/environment to file", and neither squeue,
scontrol show, the job's processes nor a controller restart show the
change.  The first refusal comes from the failed write (the controller
then restarts from the state on disk, on the same pid), the next ones
from the controller refusing changes while it cannot save them.  Once the
disk recovers, the same command works.
"""

import contextlib
import glob
import os
import re
import signal
import subprocess
import time

import pytest

U = "sluice_u1"
ERR = "I/O error writing script/environment to file"


def state_paths(c):
    d = os.path.join(c.dir, "state")
    return [d] + sorted(p for p in glob.glob(os.path.join(d, "ctld_journal.*"))
                        if re.search(r"\.\d+$", p))


def wait_answering(c, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if c.run(["squeue", "-h"], timeout=10).rc == 0:
            return
        assert c.ctld.alive(), "slurmctld died:\n" + c.log_tails()
        time.sleep(0.2)
    raise AssertionError("slurmctld not answering\n" + c.log_tails())


def wait_log(c, log0, pattern, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if re.search(pattern, c.log_since(log0)):
            return
        time.sleep(0.2)
    raise AssertionError("no %r in the log:\n%s" % (pattern, c.log_since(log0)))


def wait_saving(c, log0):
    """Until the controller saves again, if it ever stopped."""
    if "Unable to save state" in c.log_since(log0):
        wait_log(c, log0, r"State saved in \S+ again")


@contextlib.contextmanager
def journal_failing(c):
    paths = state_paths(c)
    if subprocess.run(["chattr", "+i"] + paths,
                      stderr=subprocess.DEVNULL).returncode:
        subprocess.run(["chattr", "-i"] + paths, stderr=subprocess.DEVNULL)
        pytest.skip("chattr +i not supported where StateSaveLocation is")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i"] + paths)


def restart(c):
    c.kill_ctld(signal.SIGKILL)
    c.start_ctld()
    wait_answering(c)


def refused(c, argv, unchanged, user=None):
    """argv fails while the journal does, and changes nothing: not in
    memory, not on disk.  Afterwards the journal works again."""
    pid = c.ctld.pid
    log0 = c.log_size()
    with journal_failing(c):
        r = c.run(argv, user=user)
        assert r.rc != 0 and ERR in r.err, r
        wait_answering(c)
        unchanged()
        r = c.run(argv, user=user)       # refused while it cannot save
        assert r.rc != 0 and ERR in r.err, r
        unchanged()
        assert c.ctld.pid == pid and c.ctld.alive()
    wait_saving(c, log0)
    unchanged()
    restart(c)                               # what is on disk
    unchanged()


def job(c, jid):
    return c.show_job(jid)


def proc_states(c, marker):
    """States (R, S, T...) of the processes whose command line has marker."""
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
            if marker not in cmd or "slurmstepd" in cmd:
                continue
            with open("/proc/%s/stat" % pid) as f:
                out.append(f.read().rsplit(")", 1)[1].split()[0])
        except OSError:
            continue
    return out


def running(c, secs):
    """A running batch job of U whose sleep is recognisable in /proc."""
    jid = c.sbatch(["-t", "10", "--wrap", "sleep %d" % secs], user=U)
    c.wait_state(jid, "RUNNING", 60)
    deadline = time.time() + 20
    while not proc_states(c, "sleep %d" % secs) and time.time() < deadline:
        time.sleep(0.2)
    assert proc_states(c, "sleep %d" % secs), "no sleep %d" % secs
    return jid


def test_sbatch(cluster):
    c = cluster
    # every hash.<id % 10> directory exists: the submit's script is saved
    # there, and it is the journal that fails
    ids = [c.sbatch(["--hold", "--wrap", "true"], user=U) for _ in range(10)]
    c.run(["scancel"] + [str(j) for j in ids], user=U)

    def unchanged():
        r = c.run(["squeue", "-h", "-t", "all", "-n", "jrnl_sub", "-o", "%i"])
        assert r.rc == 0 and r.out == "", r

    refused(c, ["sbatch", "-J", "jrnl_sub", "--hold", "--wrap", "true"],
            unchanged, user=U)
    jid = c.sbatch(["-J", "jrnl_sub", "--hold", "--wrap", "true"], user=U)
    assert c.job_state(jid) == "PENDING"
    c.run(["scancel", str(jid)], user=U)


def test_scancel_pending_and_running(cluster):
    c = cluster
    held = c.sbatch(["--hold", "--wrap", "true"], user=U)
    refused(c, ["scancel", str(held)],
            lambda: (c.job_state(held) == "PENDING") or pytest.fail(str(job(c, held))),
            user=U)
    run = running(c, 3001)

    def unchanged():
        assert c.job_state(run) == "RUNNING", job(c, run)
        assert proc_states(c, "sleep 3001"), "the job's process was killed"

    refused(c, ["scancel", str(run)], unchanged, user=U)
    for j in (held, run):
        r = c.run(["scancel", str(j)], user=U)
        assert r.rc == 0, r
    assert c.wait_done(held, 30) == "CANCELLED"
    assert c.wait_done(run, 30) == "CANCELLED"


def test_release_does_not_start_the_job(cluster):
    c = cluster
    jid = c.sbatch(["--hold", "--wrap", "true"], user=U)

    def unchanged():
        j = job(c, jid)
        assert (j.get("JobState"), j.get("Reason")) == ("PENDING", "JobHeldUser"), j

    refused(c, ["scontrol", "release", str(jid)], unchanged, user=U)
    r = c.run(["scontrol", "release", str(jid)], user=U)
    assert r.rc == 0, r
    assert c.wait_done(jid, 60) == "COMPLETED"


def test_hold_and_update(cluster):
    c = cluster
    jid = c.sbatch(["--begin=now+1hour", "-t", "10", "-J", "jrnl_upd",
                    "--wrap", "true"], user=U)

    def unchanged():
        j = job(c, jid)
        assert j.get("JobState") == "PENDING", j
        assert j.get("Reason") != "JobHeldUser", j
        assert j.get("TimeLimit") == "00:10:00", j
        assert j.get("JobName") == "jrnl_upd", j

    refused(c, ["scontrol", "hold", str(jid)], unchanged, user=U)
    refused(c, ["scontrol", "update", "JobId=%d" % jid, "TimeLimit=5"],
            unchanged, user=U)
    refused(c, ["scontrol", "update", "JobId=%d" % jid, "JobName=renamed"],
            unchanged, user=U)
    assert c.run(["scontrol", "update", "JobId=%d" % jid, "TimeLimit=5"],
                 user=U).rc == 0
    assert job(c, jid).get("TimeLimit") == "00:05:00"
    assert c.run(["scontrol", "hold", str(jid)], user=U).rc == 0
    assert job(c, jid).get("Reason") == "JobHeldUser"
    c.run(["scancel", str(jid)], user=U)


def test_requeue(cluster):
    c = cluster
    jid = running(c, 3002)

    def unchanged():
        j = job(c, jid)
        assert (j.get("JobState"), j.get("Restarts")) == ("RUNNING", "0"), j
        assert proc_states(c, "sleep 3002"), "the job's process was killed"

    refused(c, ["scontrol", "requeue", str(jid)], unchanged, user=U)
    assert c.run(["scontrol", "requeue", str(jid)], user=U).rc == 0
    j = job(c, jid)
    assert j.get("Restarts") == "1", j
    c.run(["scancel", str(jid)], user=U)
    c.wait_done(jid, 30)


def test_suspend_and_resume(cluster):
    """Not SIGSTOPped by a suspend that failed, not SIGCONTed by a resume
    that failed; a suspended job stays suspended across a restart."""
    c = cluster
    jid = running(c, 3003)

    def running_unstopped():
        assert c.job_state(jid) == "RUNNING", job(c, jid)
        time.sleep(0.5)
        st = proc_states(c, "sleep 3003")
        assert st and "T" not in st, st

    refused(c, ["scontrol", "suspend", str(jid)], running_unstopped)
    assert c.run(["scontrol", "suspend", str(jid)]).rc == 0

    def suspended_stopped():
        assert c.job_state(jid) == "SUSPENDED", job(c, jid)
        deadline = time.time() + 10
        while set(proc_states(c, "sleep 3003")) != {"T"} and time.time() < deadline:
            time.sleep(0.2)
        assert set(proc_states(c, "sleep 3003")) == {"T"}, proc_states(c, "sleep 3003")

    suspended_stopped()
    refused(c, ["scontrol", "resume", str(jid)], suspended_stopped)
    assert c.run(["scontrol", "resume", str(jid)]).rc == 0
    assert c.job_state(jid) == "RUNNING"
    c.run(["scancel", str(jid)], user=U)
    c.wait_done(jid, 30)


def test_reservations(cluster):
    c = cluster

    def resv():
        r = c.run(["scontrol", "show", "reservation", "jr1"])
        return parse_resv(r.out) if r.rc == 0 else None

    def parse_resv(text):
        m = re.search(r"ReservationName=jr1 .*?Duration=(\S+).*?Users=(\S+)", text, re.S)
        return m.groups() if m else None

    create = ["scontrol", "create", "reservation", "ReservationName=jr1",
              "StartTime=now+1hour", "Duration=60", "Nodes=n1", "Users=root"]
    refused(c, create, lambda: resv() is None or pytest.fail(str(resv())))
    r = c.run(create)
    assert r.rc == 0, r
    assert resv() == ("01:00:00", "root")
    refused(c, ["scontrol", "update", "ReservationName=jr1", "Duration=30"],
            lambda: resv() == ("01:00:00", "root") or pytest.fail(str(resv())))
    refused(c, ["scontrol", "delete", "ReservationName=jr1"],
            lambda: resv() == ("01:00:00", "root") or pytest.fail(str(resv())))
    assert c.run(["scontrol", "update", "ReservationName=jr1",
                  "Duration=30"]).rc == 0
    assert resv() == ("00:30:00", "root")
    assert c.run(["scontrol", "delete", "ReservationName=jr1"]).rc == 0
    assert resv() is None


def test_node_update(cluster):
    c = cluster

    def unchanged():
        r = c.run(["scontrol", "show", "node", "n4"])
        assert r.rc == 0 and "DRAIN" not in r.out and "Reason=jrnl" not in r.out, r

    refused(c, ["scontrol", "update", "NodeName=n4", "State=DRAIN",
                "Reason=jrnl"], unchanged)
    assert c.run(["scontrol", "update", "NodeName=n4", "State=DRAIN",
                  "Reason=jrnl"]).rc == 0
    assert c.run(["sinfo", "-h", "-n", "n4", "-o", "%t"]).out.strip() == "drain"
    assert c.run(["scontrol", "update", "NodeName=n4",
                  "State=RESUME"]).rc == 0


def test_job_ending_while_refused_ends_after(cluster):
    """A node's report of a job's end that the controller cannot save is
    sent again by slurmd: the job ends once the disk recovers."""
    c = cluster
    jid = c.sbatch(["--wrap", "sleep 4"], user=U)
    c.wait_state(jid, "RUNNING", 60)
    log0 = c.log_size()
    with journal_failing(c):
        time.sleep(8)
        assert c.job_state(jid) in ("RUNNING", "COMPLETING"), job(c, jid)
    wait_saving(c, log0)
    assert c.wait_done(jid, 60) == "COMPLETED"
    restart(c)
    assert c.job_state(jid) == "COMPLETED"


def test_salloc_and_srun(cluster):
    c = cluster

    def unchanged():
        r = c.run(["squeue", "-h", "-t", "all", "-n", "jrnl_alloc", "-o", "%i"])
        assert r.rc == 0 and r.out == "", r

    refused(c, ["salloc", "-J", "jrnl_alloc", "-N1", "true"], unchanged, user=U)
    refused(c, ["srun", "-J", "jrnl_alloc", "-N1", "true"], unchanged, user=U)
    r = c.run(["srun", "-J", "jrnl_alloc", "-N1", "echo", "ran"], user=U)
    assert (r.rc, r.out) == (0, "ran\n"), r


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_suspended_job_survives_a_restart(cluster, sig):
    """A SUSPENDED job is still SUSPENDED (and stopped) after the
    controller restarts, and resumes and ends normally."""
    c = cluster
    marker = "sleep %d" % (3010 + sig)
    jid = c.sbatch(["-t", "10", "--wrap", marker + "; echo done"], user=U)
    c.wait_state(jid, "RUNNING", 60)
    assert c.run(["scontrol", "suspend", str(jid)]).rc == 0
    if sig == signal.SIGKILL:
        # as if the SIGSTOP had been lost with the controller: the
        # restarted one stops the tasks again
        deadline = time.time() + 10
        while set(proc_states(c, marker)) != {"T"} and \
                time.time() < deadline:
            time.sleep(0.1)
        subprocess.run(["pkill", "-CONT", "-f", marker])
        time.sleep(0.3)
        assert "T" not in proc_states(c, marker)
    c.kill_ctld(sig)
    c.start_ctld()
    wait_answering(c)
    j = job(c, jid)
    assert j.get("JobState") == "SUSPENDED", j
    # stopped: by the suspend, or again when its node registers with the
    # restarted controller (the suspend's SIGSTOP waits for the journal
    # write and may not have left before a SIGKILL)
    deadline = time.time() + 20
    while set(proc_states(c, marker)) != {"T"} and time.time() < deadline:
        time.sleep(0.2)
    assert set(proc_states(c, marker)) == {"T"}, proc_states(c, marker)
    r = c.run(["scontrol", "resume", str(jid)])
    assert r.rc == 0, r
    j = job(c, jid)
    assert j.get("JobState") == "RUNNING", j
    # the SIGCONT goes to the node after the reply (as Slurm's): soon
    deadline = time.time() + 10
    while "T" in proc_states(c, marker) and time.time() < deadline:
        time.sleep(0.1)
    assert "T" not in proc_states(c, marker)
    # it holds its node again, and its end reaches the node
    r = c.run(["scontrol", "show", "node", j["BatchHost"]])
    assert re.search(r"CPUAlloc=[1-9]", r.out), r
    assert c.run(["scancel", str(jid)], user=U).rc == 0
    assert c.wait_done(jid, 30) == "CANCELLED"
    deadline = time.time() + 20
    while proc_states(c, marker) and time.time() < deadline:
        time.sleep(0.2)
    assert not proc_states(c, marker), "the cancelled job still runs"


def test_full_tmpfs(new_cluster):
    """StateSaveLocation on a tiny tmpfs that fills up (ENOSPC, a torn
    append cut back): the update that does not fit is refused and not
    applied, before and after a restart; once space is freed it works."""
    c = new_cluster(tag="jrnl-full", nodes=1)
    state = os.path.join(c.dir, "state")
    jid = c.sbatch(["--hold", "-t", "300", "--wrap", "true"], user=U)
    c.kill_ctld(signal.SIGTERM)
    keep = state + ".orig"
    subprocess.run(["cp", "-a", state, keep], check=True)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m,mode=0755",
                       "tmpfs", state]).returncode:
        pytest.skip("cannot mount a tmpfs")
    try:
        subprocess.run("cp -a %s/. %s/" % (keep, state), shell=True, check=True)
        c.start_ctld()
        wait_answering(c)
        subprocess.run(["dd", "if=/dev/zero", "of=%s/filler" % state, "bs=4k"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        last, r = 300, None
        for limit in range(299, 1, -1):
            r = c.run(["scontrol", "update", "JobId=%d" % jid,
                       "TimeLimit=%d" % limit], user=U)
            if r.rc != 0:
                break
            last = limit
        assert r is not None and r.rc != 0 and ERR in r.err, r
        wait_answering(c)

        def unchanged():
            j = job(c, jid)
            assert j.get("TimeLimit") == "%02d:%02d:00" % divmod(last, 60), (last, j)

        unchanged()
        r = c.run(["scontrol", "update", "JobId=%d" % jid, "TimeLimit=1"], user=U)
        assert r.rc != 0 and ERR in r.err, r
        unchanged()
        log0 = c.log_size()
        os.unlink(os.path.join(state, "filler"))
        wait_saving(c, log0)
        unchanged()
        restart(c)
        unchanged()
        assert c.run(["scontrol", "update", "JobId=%d" % jid, "TimeLimit=1"],
                     user=U).rc == 0
        restart(c)
        assert job(c, jid).get("TimeLimit") == "00:01:00"
    finally:
        c.kill_ctld(signal.SIGTERM)
        subprocess.run(["umount", "-l", state])
        c.start_ctld()


def test_top(cluster):
    c = cluster
    a, b = [c.sbatch(["--begin=now+1hour", "--wrap", "true"], user=U)
            for _ in range(2)]

    def prios():
        return [job(c, j).get("Priority") for j in (a, b)]

    before = prios()
    assert c.run(["scontrol", "update", "JobId=%d" % a,
                  "Priority=%d" % (int(before[1]) + 10)]).rc == 0
    before = prios()
    assert int(before[0]) > int(before[1]), before

    def unchanged():
        assert prios() == before, (prios(), before)

    refused(c, ["scontrol", "top", str(b)], unchanged)
    assert c.run(["scontrol", "top", str(b)]).rc == 0
    after = prios()
    assert int(after[1]) > int(after[0]), after
    c.run(["scancel", str(a), str(b)], user=U)
