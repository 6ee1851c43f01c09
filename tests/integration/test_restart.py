"""slurmctld restart on the same StateSaveLocation loses nothing.

With jobs pending (held, and too big to start now) and running, stop the
controller (SIGTERM; SIGKILL in the second test), start it again: every job
is listed with its id and state, the running jobs finish COMPLETED, and new
ids continue after the old ones.
"""

import signal
import threading
import time

RUN_SECS = 20


def setup_jobs(c):
    user = "sluice_u1"
    jobs = {}
    # Three 2-CPU jobs fill n1..n3 for RUN_SECS.
    for i in range(3):
        jid = c.sbatch(["-J", "run%d" % i, "-c", "2", "--wrap",
                        "/usr/bin/sleep %d; echo done-%d" % (RUN_SECS, i)], user=user)
        jobs[jid] = "RUNNING"
    for jid in list(jobs):
        c.wait_state(jid, "RUNNING", 30)
    # Needs all 8 CPUs: pending (Resources) while the others run.
    big = c.sbatch(["-J", "big", "-n", "8", "--wrap", "true"], user=user)
    held = c.sbatch(["-J", "held", "--hold", "--wrap", "true"], user="sluice_u2")
    jobs[big] = "PENDING"
    jobs[held] = "PENDING"
    time.sleep(1)
    return jobs, big, held


def snapshot(c, ids):
    states = c.all_job_states()
    return {j: states.get(str(j)) for j in ids}


def restart(c, sig):
    t0 = time.time()
    rc = c.kill_ctld(sig)
    if sig == signal.SIGTERM:
        assert rc == 0, "slurmctld exit status %r on SIGTERM" % rc
    c.start_ctld()
    deadline = time.time() + 30
    while time.time() < deadline:
        if c.run(["squeue"], timeout=10).rc == 0:
            return time.time() - t0
        assert c.ctld.alive(), "slurmctld died on restart:\n" + c.log_tails()
        time.sleep(0.2)
    raise AssertionError("slurmctld not answering after restart\n" + c.log_tails())


def check_after_restart(c, jobs, big, held, submitted_last=None):
    before = dict(jobs)
    after = snapshot(c, before)
    assert after == before, "job states changed across restart: before %s after %s" % (
        before, after)
    rec = c.show_job(held)
    assert rec.get("Reason") == "JobHeldUser", rec
    assert rec.get("UserId", "").startswith("sluice_u2("), rec
    # The running jobs finish normally, then the big one runs.
    running = [j for j, s in before.items() if s == "RUNNING"]
    for j in running:
        st = c.wait_done(j, RUN_SECS + 40)
        assert st == "COMPLETED", c.show_job(j)
    assert c.wait_done(big, 40) == "COMPLETED", c.show_job(big)
    assert c.job_state(held) == "PENDING"
    # New ids continue after the old ones.
    new = c.sbatch(["--wrap", "true"], user="sluice_u1")
    assert new > max(before), "new job id %d not after %d" % (new, max(before))
    assert c.wait_done(new, 30) == "COMPLETED"
    # The held job can still be released and run.
    r = c.run(["scontrol", "release", str(held)], user="sluice_u2")
    assert r.rc == 0, r
    assert c.wait_done(held, 30) == "COMPLETED"


def test_restart_sigterm(new_cluster):
    c = new_cluster(tag="restart-term")
    jobs, big, held = setup_jobs(c)
    assert snapshot(c, jobs) == jobs
    restart(c, signal.SIGTERM)
    check_after_restart(c, jobs, big, held)


def test_restart_sigkill_keeps_acknowledged(new_cluster):
    """SIGKILL right after a burst of submissions: every job sbatch
    acknowledged is there after the restart."""
    c = new_cluster(tag="restart-kill")
    jobs, big, held = setup_jobs(c)
    burst = []
    for i in range(20):
        burst.append(c.sbatch(["-J", "burst%d" % i, "--hold", "--wrap", "true"],
                              user="sluice_u1"))
    restart(c, signal.SIGKILL)
    after = snapshot(c, burst)
    missing = [j for j, s in after.items() if s != "PENDING"]
    assert not missing, "acknowledged jobs lost or changed by SIGKILL: %s" % {
        j: after[j] for j in missing}
    for j in burst:
        jobs[j] = "PENDING"
    check_after_restart(c, jobs, big, held)


def test_job_ends_while_controller_down(new_cluster):
    """A job that finishes while slurmctld is stopped is recorded COMPLETED
    once the controller is back (the node side keeps the news until then)."""
    c = new_cluster(tag="restart-down")
    short = c.sbatch(["-J", "short", "--wrap", "/usr/bin/sleep 3"], user="sluice_u1")
    failing = c.sbatch(["-J", "fails", "--wrap", "/usr/bin/sleep 3; exit 7"],
                       user="sluice_u2")
    c.wait_state(short, "RUNNING", 30)
    c.wait_state(failing, "RUNNING", 30)
    assert c.kill_ctld(signal.SIGTERM) == 0
    time.sleep(8)               # both end while nobody listens
    c.start_ctld()
    assert c.wait_done(short, 60) == "COMPLETED", c.show_job(short)
    assert c.wait_done(failing, 60) == "FAILED", c.show_job(failing)
    assert c.show_job(failing).get("ExitCode") == "7:0"
    # Their CPUs are free again: a job needing all 8 runs.
    wide = c.sbatch(["-n", "8", "--wrap", "true"], user="sluice_u1")
    assert c.wait_done(wide, 60) == "COMPLETED", c.show_job(wide)


def test_sigkill_during_concurrent_submissions(new_cluster):
    """Clients keep submitting while slurmctld is SIGKILLed: every job any
    sbatch reported as submitted exists after the restart, ids unique."""
    c = new_cluster(tag="restart-load")
    acked, lock, stop = [], threading.Lock(), threading.Event()

    def submitter(user):
        while not stop.is_set():
            r = c.run(["sbatch", "--hold", "--parsable", "--wrap", "true"],
                      user=user, timeout=30)
            if r.rc == 0 and r.out.strip().isdigit():
                with lock:
                    acked.append(int(r.out))

    threads = [threading.Thread(target=submitter, args=(u,))
               for u in ("sluice_u1", "sluice_u2", "sluice_u1", "sluice_u2")]
    for t in threads:
        t.start()
    time.sleep(3)
    c.kill_ctld(signal.SIGKILL)
    stop.set()
    for t in threads:
        t.join()
    assert len(acked) >= 10, "too few submissions before the kill: %d" % len(acked)
    assert len(set(acked)) == len(acked), "duplicate job ids acknowledged"
    c.start_ctld()
    c.wait_ready(timeout=30)
    states = c.all_job_states()
    lost = [j for j in acked if states.get(str(j)) != "PENDING"]
    assert not lost, "%d of %d acknowledged jobs lost after SIGKILL: %s" % (
        len(lost), len(acked), lost[:20])
    new = c.sbatch(["--wrap", "true"], user="sluice_u1")
    assert new > max(acked)


def test_second_controller_refused_and_harmless(new_cluster):
    """A second slurmctld started by mistake on the same StateSaveLocation
    stops at once, naming the directory, and touches nothing: the running
    controller's pid file and journal stay as they were, and every job the
    running controller acknowledged, before and after, survives its crash.
    (Before the controller lease, the second one recovered state, wrote a
    snapshot and removed the live journal before failing to bind its port,
    and the next acknowledged job was lost at the following restart.)"""
    import os

    c = new_cluster(tag="second-ctld", nodes=1)
    j1 = c.sbatch(["--hold", "--wrap", "true"], user="sluice_u1")
    pidfile = os.path.join(c.dir, "run", "slurmctld.pid")
    with open(pidfile) as f:
        pid_before = f.read()
    state = os.path.join(c.dir, "state")
    files_before = sorted(n for n in os.listdir(state) if n.startswith("ctld_"))

    r = c.run(["slurmctld", "-D"], timeout=60)
    assert r.rc not in (0, -9), r
    assert ("Another slurmctld holds the controller lease in %s" % state) in \
        r.out + r.err, r
    with open(pidfile) as f:
        assert f.read() == pid_before
    assert sorted(n for n in os.listdir(state)
                  if n.startswith("ctld_")) == files_before

    j2 = c.sbatch(["--hold", "--wrap", "true"], user="sluice_u1")
    restart(c, signal.SIGKILL)
    states = snapshot(c, [j1, j2])
    assert states == {j1: "PENDING", j2: "PENDING"}, states


def test_submissions_ride_through_restart(new_cluster):
    """400 sbatch from two users while slurmctld is stopped (SIGTERM) and
    started again 3 s later: every one succeeds, as with Slurm, whose
    commands retry the connection once a second for MessageTimeout; each
    acknowledged id is a distinct job after the restart.  (Before, the
    commands failed at once with "Unable to contact slurm controller
    (connect failure)", or waited in the queue of the stopping
    controller.)"""
    c = new_cluster(tag="restart-ride", nodes=1)
    total, workers = 400, 8
    results, lock = [], threading.Lock()
    go = threading.Event()

    def submitter(k):
        user = "sluice_u1" if k % 2 else "sluice_u2"
        for _ in range(total // workers):
            r = c.run(["sbatch", "--hold", "--parsable", "--wrap", "true"],
                      user=user, timeout=60)
            with lock:
                results.append(r)
            if len(results) >= 60:
                go.set()

    threads = [threading.Thread(target=submitter, args=(k,))
               for k in range(workers)]
    for t in threads:
        t.start()
    assert go.wait(120), "no submissions before the restart"
    t0 = time.time()
    assert c.kill_ctld(signal.SIGTERM) == 0
    down = time.time() - t0
    time.sleep(3)
    c.start_ctld()
    for t in threads:
        t.join()
    failed = [r for r in results if r.rc != 0 or not r.out.strip().isdigit()]
    assert len(results) == total
    assert not failed, "%d of %d sbatch failed (stop took %.1fs), first: %r" % (
        len(failed), total, down, failed[:3])
    ids = [int(r.out) for r in results]
    assert len(set(ids)) == total, "duplicate job ids acknowledged"
    c.wait_ready(timeout=30)
    states = c.all_job_states()
    lost = [j for j in ids if states.get(str(j)) != "PENDING"]
    assert not lost, "%d acknowledged jobs missing: %s" % (len(lost), lost[:10])


def test_scripts_survive_sigkill_and_snapshots(new_cluster, monkeypatch):
    """Each acknowledged batch job keeps its own script and environment
    through a SIGKILL of slurmctld right after the last submit, with the
    journal rotated every few submits (so most scripts are no longer in a
    journal file but only in their own files, which slurmctld writes off
    its event loop).  SLUICE_JOB_FILES_HOLD makes slurmctld write those
    files only when a snapshot needs them, so the last scripts are in the
    journal alone when it is killed.  Released after the restart, every
    job runs its script and sees the variable it was submitted with."""
    import os

    monkeypatch.setenv("SLUICE_JOURNAL_ROTATE_BYTES", "4096")
    monkeypatch.setenv("SLUICE_JOB_FILES_HOLD", "1")
    c = new_cluster(tag="restart-scripts", nodes=2)
    user = "sluice_u1"
    wd = c.workdir(user)
    n = 40
    ids = {}
    for i in range(n):
        body = "#!/bin/sh\necho script-%d-$MARK_%d\n" % (i, i)
        env = {"MARK_%d" % i: "env-%d" % i}
        jid = c.sbatch(["--hold", "-o", os.path.join(wd, "s%d.out" % i)],
                       user=user, cwd=wd, env=env, input=body)
        ids[jid] = i
    c.kill_ctld(signal.SIGKILL)
    state = os.path.join(c.dir, "state")
    journals = [f for f in os.listdir(state) if f.startswith("ctld_journal")]
    c.start_ctld()
    c.wait_ready(timeout=30)
    r = c.run(["scontrol", "release"] + [str(j) for j in ids], user=user)
    assert r.rc == 0, r
    for jid, i in ids.items():
        assert c.wait_done(jid, 60) == "COMPLETED", (journals, c.show_job(jid))
        with open(os.path.join(wd, "s%d.out" % i)) as f:
            assert f.read() == "script-%d-env-%d\n" % (i, i), jid
    # the scripts are in a few segment files, not one file per job (the
    # replay of the journal after the SIGKILL writes the last ones apart)
    segs = [f for f in os.listdir(state) if f.startswith("job_files.")]
    apart = []
    for h in range(10):
        d = os.path.join(state, "hash.%d" % h)
        if os.path.isdir(d):
            apart += os.listdir(d)
    assert 1 <= len(segs) <= 3, sorted(os.listdir(state))
    assert len(apart) < n // 2, sorted(apart)


def test_nodes_asked_to_register_after_restart(new_cluster):
    """After a restart the controller asks the running slurmds to register
    at once (as Slurm's does): a job runs right away, not after
    SlurmdTimeout/3 (100 s here) when the first ping would have asked."""
    c = new_cluster(tag="restart-reg", nodes=2, slurmd_timeout=300)
    restart(c, signal.SIGKILL)
    jid = c.sbatch(["--wrap", "true"], user="sluice_u1")
    assert c.wait_done(jid, 30) == "COMPLETED", (
        c.show_job(jid), c.run(["sinfo", "-N", "-o", "%N %T"]).out)
