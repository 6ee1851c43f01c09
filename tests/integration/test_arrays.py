"""Job arrays as Slurm runs them, driven through the real commands as a
test user: --array specs and MaxArraySize, the %N throttle, the
SLURM_ARRAY_* environment and %A_%a file names, squeue's compact and -r
forms, scontrol show/update, scancel of a task, a range and the whole
array, a controller restart with a pending array, and exit codes
(--wait returns the highest).
"""

import os
import re
import signal
import time

import cluster as cl

USER = "sluice_u1"


def submit(c, args, user=USER, cwd=None):
    return c.sbatch(args, user=user, cwd=cwd)


def squeue(c, *args, user=USER):
    r = c.run(["squeue", "-h"] + list(args), user=user, timeout=30)
    assert r.rc == 0, r
    return r.out


def show_records(c, jobid, *opts):
    """scontrol show job as a list of dicts (one per record)."""
    r = c.run(["scontrol"] + list(opts) + ["show", "job", str(jobid)], timeout=20)
    assert r.rc == 0, r
    return [cl.parse_kv(block) for block in r.out.split("\n\n") if block.strip()]


def wait_array_done(c, jid, timeout=120):
    """Until no record of array jid is pending/running; {task: state}."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        out = squeue(c, "-t", "all", "-r", "-j", str(jid), "-o", "%K %T")
        states = dict(line.split() for line in out.splitlines())
        if states and all(s in cl.TERMINAL_STATES for s in states.values()):
            return states
        time.sleep(0.5)
    raise AssertionError("array %s not done: %s\n%s" % (jid, states, c.log_tails()))


# ---- bad specs first ------------------------------------------------------


def test_bad_array_specs_are_refused(cluster):
    """What Slurm's controller refuses, with its message and exit 1; the
    queue is left as it was."""
    c = cluster
    before = squeue(c, "-t", "all", "-o", "%i")
    for spec in ("0-5000", "1001", "abc", "5-1", "1-5:0", "1,,2", "3%x"):
        r = c.run(["sbatch", "--array=" + spec, "--wrap", "true"], user=USER)
        assert r.rc == 1, r
        assert r.err == ("sbatch: error: Batch job submission failed: "
                         "Invalid job array specification\n"), r
        assert r.out == "", r
    assert squeue(c, "-t", "all", "-o", "%i") == before


# ---- squeue / scontrol forms ----------------------------------------------


def test_pending_array_is_one_line_and_expands(cluster):
    """A held 1,3,5-9 array: one squeue line J_[1,3,5-9], -r gives one line
    per task, -j J_5 picks a task; scontrol shows the record with
    ArrayJobId/ArrayTaskId, J_5 as that task, J_4 is not found."""
    c = cluster
    jid = submit(c, ["--array=1,3,5-9", "--hold", "-J", "arr", "--wrap", "true"])
    out = squeue(c, "-j", str(jid), "-o", "%i|%F|%K|%A|%T|%r")
    assert out == "%d_[1,3,5-9]|%d|1,3,5-9|%d|PENDING|JobHeldUser\n" % (
        jid, jid, jid), out
    out = squeue(c, "-r", "-j", str(jid), "-o", "%i %K")
    assert out.split("\n")[:-1] == ["%d_%d %d" % (jid, t, t)
                                    for t in (1, 3, 5, 6, 7, 8, 9)], out
    assert squeue(c, "-j", "%d_5" % jid, "-o", "%i") == "%d_5\n" % jid
    default = c.run(["squeue", "-j", str(jid)], user=USER)
    assert re.search(r"^\s+%d_\[1,3,5-9\]\s+debug\s+arr\s+sluice_u\s+PD" % jid,
                     default.out, re.M), default

    recs = show_records(c, jid)
    assert len(recs) == 1, recs
    assert recs[0]["JobId"] == str(jid)
    assert recs[0]["ArrayJobId"] == str(jid)
    assert recs[0]["ArrayTaskId"] == "1,3,5-9"
    assert "ArrayTaskThrottle" not in recs[0]
    task = show_records(c, "%d_5" % jid)
    assert task[0]["ArrayTaskId"] == "5", task
    r = c.run(["scontrol", "show", "job", "%d_4" % jid])
    assert (r.rc, r.out) == (1, "Job %d_4 not found\n" % jid), r
    c.run(["scancel", str(jid)], user=USER)


def test_long_pending_ids_cut_as_slurm(cluster):
    """squeue's job id column holds at most 31 characters of the pending
    form (as Slurm's); %K has the whole set."""
    c = cluster
    jid = submit(c, ["--array=0-20:2,21-25", "--hold", "--wrap", "true"])
    full = "0,2,4,6,8,10,12,14,16,18,20-25"
    out = squeue(c, "-j", str(jid), "-o", "%i|%K")
    assert out == "%s|%s\n" % (("%d_[%s]" % (jid, full))[:31], full), out
    c.run(["scancel", str(jid)], user=USER)


def test_throttle_update(cluster):
    """scontrol update ArrayTaskThrottle changes the %N of the pending
    record; on a job that is no array it is refused."""
    c = cluster
    jid = submit(c, ["--array=0-5%1", "--hold", "--wrap", "true"])
    assert squeue(c, "-j", str(jid), "-o", "%i") == "%d_[0-5%%1]\n" % jid
    r = c.run(["scontrol", "update", "jobid=%d" % jid, "ArrayTaskThrottle=3"],
              user=USER)
    assert r.rc == 0, r
    assert squeue(c, "-j", str(jid), "-o", "%i") == "%d_[0-5%%3]\n" % jid
    assert show_records(c, jid)[0]["ArrayTaskThrottle"] == "3"
    plain = submit(c, ["--hold", "--wrap", "true"])
    r = c.run(["scontrol", "update", "jobid=%d" % plain, "ArrayTaskThrottle=3"],
              user=USER)
    assert r.rc == 1 and "Invalid job array specification" in r.err, r
    c.run(["scancel", str(jid), str(plain)], user=USER)


def test_release_one_task_then_the_array(cluster):
    """scontrol release of one task of a held array lets that task run
    alone; releasing the array id lets the rest run."""
    c = cluster
    jid = submit(c, ["--array=0-3", "--hold", "--wrap", "true"])
    r = c.run(["scontrol", "release", "%d_2" % jid], user=USER)
    assert r.rc == 0, r
    states = wait_for(lambda: squeue(c, "-t", "all", "-j", str(jid), "-o", "%i %T"),
                      lambda out: "%d_2 COMPLETED" % jid in out)
    assert "%d_2 COMPLETED" % jid in states, states
    assert "%d_[0-1,3] PENDING" % jid in states, states
    # a task split off by its own hold is held and released with the array
    assert c.run(["scontrol", "hold", "%d_3" % jid], user=USER).rc == 0
    out = squeue(c, "-t", "PD", "-j", str(jid), "-o", "%i %r")
    assert out == "%d_[0-1] JobHeldUser\n%d_3 JobHeldUser\n" % (jid, jid), out
    assert c.run(["scontrol", "release", str(jid)], user=USER).rc == 0
    assert wait_array_done(c, jid, 60) == {str(t): "COMPLETED" for t in range(4)}


# ---- scancel ------------------------------------------------------------------


def test_scancel_task_range_and_whole_array(cluster):
    """Pending tasks cancelled by range and one by one leave the pending
    record; a running task is cancelled alone; the array id cancels the
    rest."""
    c = cluster
    jid = submit(c, ["--array=0-9", "--hold", "--wrap", "true"])
    r = c.run(["scancel", "%d_[1-2]" % jid], user=USER)
    assert r.rc == 0, r
    assert squeue(c, "-j", str(jid), "-o", "%i") == "%d_[0,3-9]\n" % jid
    assert c.run(["scancel", "%d_5" % jid], user=USER).rc == 0
    assert squeue(c, "-j", str(jid), "-o", "%i") == "%d_[0,3-4,6-9]\n" % jid
    r = c.run(["scancel", "-v", "%d_50" % jid], user=USER)
    assert r.rc == 0 and "Invalid job id specified" in r.err, r
    r = c.run(["scancel", "%d_3" % jid], user="sluice_u2")
    assert r.rc != 0 and "Access/permission denied" in r.err, r
    assert squeue(c, "-j", str(jid), "-o", "%i") == "%d_[0,3-4,6-9]\n" % jid
    c.run(["scancel", str(jid)], user=USER)
    assert squeue(c, "-t", "all", "-j", str(jid), "-o", "%i %T") == \
        "%d_[0,3-4,6-9] CANCELLED\n" % jid

    run = submit(c, ["--array=0-3", "--wrap", "/usr/bin/sleep 60"])
    deadline = time.time() + 30
    while time.time() < deadline:
        states = squeue(c, "-j", str(run), "-o", "%i %T").split()
        if states.count("RUNNING") == 4:
            break
        time.sleep(0.3)
    assert states.count("RUNNING") == 4, states
    assert c.run(["scancel", "%d_1" % run], user=USER).rc == 0
    states = wait_for(lambda: dict(
        l.split() for l in squeue(c, "-t", "all", "-r", "-j", str(run),
                                  "-o", "%K %T").splitlines()),
        lambda s: s.get("1") == "CANCELLED")
    assert [states[t] for t in "023"] == ["RUNNING"] * 3, states
    assert c.run(["scancel", str(run)], user=USER).rc == 0
    states = wait_array_done(c, run, 30)
    assert set(states.values()) == {"CANCELLED"}, states


def wait_for(get, ok, timeout=30):
    deadline = time.time() + timeout
    while True:
        v = get()
        if ok(v) or time.time() > deadline:
            return v
        time.sleep(0.3)


# ---- running: environment, files, exit codes ---------------------------------


def test_task_env_files_and_exit_codes(cluster):
    """Each task sees its own SLURM_ARRAY_* values, writes %A_%a, ends with
    its own state and ExitCode; --wait exits with the highest code."""
    c = cluster
    d = c.mkdir_for(USER, os.path.join(c.workdir(USER), "envout"))
    r = c.run(["sbatch", "--wait", "--array=0-12:4", "-o", d + "/o-%A_%a.out",
               "--wrap", "echo $SLURM_ARRAY_JOB_ID $SLURM_ARRAY_TASK_ID "
               "$SLURM_ARRAY_TASK_COUNT $SLURM_ARRAY_TASK_MIN "
               "$SLURM_ARRAY_TASK_MAX $SLURM_ARRAY_TASK_STEP; "
               "exit $((SLURM_ARRAY_TASK_ID / 4))"], user=USER, timeout=120)
    assert r.rc == 3, r
    jid = int(re.fullmatch(r"Submitted batch job (\d+)\n", r.out).group(1))
    for t in (0, 4, 8, 12):
        with open(os.path.join(d, "o-%d_%d.out" % (jid, t))) as f:
            assert f.read() == "%d %d 4 0 12 4\n" % (jid, t)
    recs = {int(x["ArrayTaskId"]): x for x in show_records(c, jid)}
    assert sorted(recs) == [0, 4, 8, 12], recs
    assert recs[0]["JobState"] == "COMPLETED" and recs[0]["ExitCode"] == "0:0"
    for t in (4, 8, 12):
        assert recs[t]["JobState"] == "FAILED", recs[t]
        assert recs[t]["ExitCode"] == "%d:0" % (t // 4), recs[t]
        assert recs[t]["ArrayJobId"] == str(jid)
    # the last task to start took over the array's own record
    assert str(jid) in {x["JobId"] for x in recs.values()}
    detail = c.run(["scontrol", "-d", "show", "job", "%d_4" % jid])
    assert re.search(r"ExitCode=1:0\n\s+DerivedExitCode=0:0\n", detail.out), detail

    r = c.run(["sbatch", "--wait", "--wrap", "kill -USR1 $$"], user=USER, timeout=60)
    assert r.rc == 1, r
    sig = int(r.out.split()[-1])
    rec = c.show_job(sig)
    assert (rec["JobState"], rec["ExitCode"]) == ("FAILED", "0:10"), rec
    # squeue's exit_code is the wait() status itself, as Slurm prints it
    out = squeue(c, "-t", "all", "-j", "%d,%d_4" % (sig, jid), "-O",
                 "JobArrayID:12,exit_code:10,derivedec:10")
    assert sorted(out.split("\n")[:-1]) == sorted([
        "%-12s%-10s%-10s" % (sig, 10, 0),
        "%-12s%-10s%-10s" % ("%d_4" % jid, 256, 0)]), out


def test_thousand_tasks_throttled(new_cluster):
    """1000 tasks with %10 on 12 CPUs (6 nodes): never more than 10 running
    (squeue sampled all along, and the tasks' own clocks), the rest shown
    as one pending line, every task writes its own %A_%a file with its own
    SLURM_ARRAY_TASK_ID.  Asserts the throttle, not the machine's speed:
    however few samples a loaded machine takes, none may see 11."""
    c = new_cluster(nodes=6)
    d = c.mkdir_for(USER, os.path.join(c.workdir(USER), "out"))
    jid = submit(c, ["--array=0-999%10", "-o", d + "/%A_%a.out", "--wrap",
                     "date +%s.%N; echo $SLURM_ARRAY_TASK_ID; date +%s.%N"])
    most, samples, compact = 0, 0, set()
    deadline = time.time() + 900
    while time.time() < deadline:
        out = squeue(c, "-o", "%i %t")
        lines = [l.split() for l in out.splitlines()]
        running = sum(1 for _, st in lines if st == "R")
        most = max(most, running)
        samples += 1
        compact.update(i for i, st in lines if st == "PD" and "[" in i)
        if not lines:
            break
        time.sleep(0.05)
    assert not lines, "array not finished: %s" % lines[:5]
    assert samples >= 1 and most <= 10, (samples, most)
    assert any(re.fullmatch(r"%d_\[\d+-999%%10\]" % jid, i) for i in compact), compact
    states = squeue(c, "-t", "all", "-o", "%T")
    assert states.split() == ["COMPLETED"] * 1000
    missing, events = [], []
    for t in range(1000):
        p = os.path.join(d, "%d_%d.out" % (jid, t))
        if not os.path.exists(p):
            missing.append(t)
            continue
        with open(p) as f:
            start, tid, end = f.read().split("\n", 2)
        assert (tid, end.count("\n")) == (str(t), 1), p
        events += [(float(start), 1), (float(end), -1)]
    assert not missing, missing[:20]
    # each task ran at least from its first date to its last: more than
    # 10 of those spans overlapping means more than 10 ran at once
    running = peak = 0
    for _, delta in sorted(events, key=lambda e: (e[0], e[1])):
        running += delta
        peak = max(peak, running)
    assert peak <= 10, peak


def test_restart_keeps_pending_array(new_cluster):
    """A held throttled array survives a controller restart as one record
    and then runs every task."""
    c = new_cluster()
    d = c.mkdir_for(USER, os.path.join(c.workdir(USER), "rs"))
    jid = submit(c, ["--array=0-29%4", "--hold", "-o", d + "/%A_%a.out",
                     "--wrap", "echo $SLURM_ARRAY_TASK_ID $SLURM_ARRAY_TASK_COUNT"])
    r = c.run(["scancel", "%d_[7-9]" % jid], user=USER)
    assert r.rc == 0, r
    before = squeue(c, "-j", str(jid), "-o", "%i %T %r")
    assert before == "%d_[0-6,10-29%%4] PENDING JobHeldUser\n" % jid
    c.kill_ctld()
    c.start_ctld()
    deadline = time.time() + 30
    while c.run(["squeue"], timeout=10).rc != 0 and time.time() < deadline:
        time.sleep(0.2)
    assert squeue(c, "-j", str(jid), "-o", "%i %T %r") == before
    assert c.run(["scontrol", "release", str(jid)], user=USER).rc == 0
    states = wait_array_done(c, jid, 120)
    assert states == {str(t): "COMPLETED" for t in list(range(7)) + list(range(10, 30))}
    for t in list(range(7)) + list(range(10, 30)):
        with open(os.path.join(d, "%d_%d.out" % (jid, t))) as f:
            assert f.read() == "%d 30\n" % t


def test_restart_with_tasks_running(new_cluster):
    """A controller killed (SIGKILL) while two tasks of a %2 array run and
    the rest pend: after the restart the throttle still holds and every
    task ends COMPLETED once."""
    c = new_cluster()
    d = c.mkdir_for(USER, os.path.join(c.workdir(USER), "rr"))
    jid = submit(c, ["--array=0-5%2", "-o", d + "/%A_%a.out", "--wrap",
                     "/usr/bin/sleep 2; echo $SLURM_ARRAY_TASK_ID"])
    running = wait_for(lambda: squeue(c, "-t", "R", "-o", "%i").split(),
                       lambda r: len(r) == 2)
    assert len(running) == 2, running
    c.kill_ctld(signal.SIGKILL)
    c.start_ctld()
    most = 0
    deadline = time.time() + 120
    while time.time() < deadline:
        r = c.run(["squeue", "-h", "-o", "%t"], user=USER, timeout=10)
        if r.rc == 0:
            sts = r.out.split()
            most = max(most, sts.count("R"))
            if not sts:
                break
        time.sleep(0.2)
    assert most <= 2, most
    states = wait_array_done(c, jid, 30)
    assert states == {str(t): "COMPLETED" for t in range(6)}, states
    for t in range(6):
        with open(os.path.join(d, "%d_%d.out" % (jid, t))) as f:
            assert f.read() == "%d\n" % t
