"""Time: --signal before the limit, --begin, --deadline, --time-min,
KillWait.

- --signal=B:USR1@N reaches the batch shell N seconds before the time
  limit; the script traps it.
- --begin holds a job with reason BeginTime until then.
- --deadline ends a pending job DEADLINE (reason DeadLine) once it can
  no longer end in time; with --time-min it starts with a shorter limit.
  Both schedulers check it before they start a job: a job that cannot
  end in time never runs; a deadline already past is refused at submit.
- scancel sends SIGTERM first and SIGKILL only after KillWait.
"""

import os
import time

from cluster import wait_for  # noqa: E402

U1 = "sluice_u1"


def sb(c, cmd, *args, user=U1):
    return c.sbatch(list(args) + ["--wrap", cmd], user=user)


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def test_signal_batch_shell_before_limit(cluster):
    c = cluster
    f = os.path.join(c.workdir(U1), "sig-usr1")
    script = ("trap 'echo got USR1 >> %s; exit 0' USR1; "
              "while :; do /usr/bin/sleep 0.2; done" % f)
    j = sb(c, script, "-J", "sig", "-t", "1", "--signal=B:USR1@55")
    c.wait_state(j, "RUNNING", 30)
    t0 = time.time()
    wait_for(lambda: "got USR1" in read(f), 30, "USR1 trapped")
    assert time.time() - t0 < 25
    assert c.wait_done(j, 30) == "COMPLETED"
    assert "warning signal 10 to JobId=%d" % j in c.log_text()


def test_begin_time(cluster):
    c = cluster
    j = sb(c, "true", "-J", "begin", "--begin=now+4")
    rec = c.show_job(j)
    assert (rec["JobState"], rec["Reason"]) == ("PENDING", "BeginTime"), rec
    r = c.run(["squeue", "-h", "-j", str(j), "-o", "%t %r"])
    assert r.out.strip() == "PD BeginTime", r
    assert c.wait_done(j, 30) == "COMPLETED"
    later = sb(c, "true", "-J", "begin2", "--begin=2030-12-01T10:00")
    rec = c.show_job(later)
    assert rec["Reason"] == "BeginTime", rec
    assert rec["EligibleTime"] == "2030-12-01T10:00:00", rec
    r = c.run(["scontrol", "update", "JobId=%d" % later, "StartTime=now"],
              user=U1)
    assert r.rc == 0, r
    assert c.wait_done(later, 30) == "COMPLETED"


def test_deadline(cluster):
    c = cluster
    j = sb(c, "true", "-J", "dl", "-t", "5", "--deadline=now+60", "--hold")
    assert c.wait_done(j, 30) == "DEADLINE"
    rec = c.show_job(j)
    assert rec["Reason"] == "DeadLine", rec
    r = c.run(["squeue", "-h", "-t", "all", "-j", str(j), "-o", "%t %T"])
    assert r.out.strip() == "DL DEADLINE", r
    # --time-min lets it start with what is left before the deadline
    k = sb(c, "sleep 30", "-J", "dl2", "-t", "10", "--time-min=1",
           "--deadline=now+150")
    c.wait_state(k, "RUNNING", 30)
    rec = c.show_job(k)
    assert rec["TimeMin"] == "00:01:00", rec
    assert rec["TimeLimit"] in ("00:01:00", "00:02:00"), rec
    c.run(["scancel", str(k)], user=U1)


FAILED = "sbatch: error: Batch job submission failed: %s\n"


def test_deadline_checked_before_start(cluster):
    # issue 34, defect 7: a job that cannot end before its deadline
    # ends DEADLINE without running (it used to start at once)
    c = cluster
    mark = os.path.join(c.workdir(U1), "dl-ran")
    j = sb(c, "touch %s" % mark, "-J", "dl3", "-t", "5",
           "--deadline=now+60")
    assert c.wait_done(j, 30) == "DEADLINE"
    rec = c.show_job(j)
    assert (rec["Reason"], rec["ExitCode"]) == ("DeadLine", "1:0"), rec
    assert rec["NodeList"] == "", rec
    assert not os.path.exists(mark)
    # held past its deadline (no limit: nothing else ends it), released:
    # it never runs
    k = sb(c, "touch %s" % mark, "-J", "dl4", "-t", "UNLIMITED",
           "--deadline=now+2", "--hold")
    time.sleep(3)
    r = c.run(["scontrol", "release", str(k)], user=U1)
    assert c.wait_done(k, 30) == "DEADLINE"
    assert not os.path.exists(mark)


def test_deadline_refused_at_submit(cluster):
    c = cluster
    before = c.all_job_states()
    for args, msg in (
            (["--deadline=now-60"], "Requested time limit is invalid "
             "(missing or exceeds some limit)"),
            (["--deadline=2020-01-01T00:00:00", "-t", "UNLIMITED"],
             "Requested time limit is invalid (missing or exceeds some "
             "limit)"),
            (["--deadline=now+60", "-t", "5", "--time-min=3"],
             "Invalid time-min specification (exceeds job's time or "
             "other limits)")):
        r = c.run(["sbatch"] + args + ["--wrap", "true"], user=U1)
        assert (r.rc, r.out, r.err) == (1, "", FAILED % msg), r
    # may not start before its deadline: sbatch, salloc and srun refuse it
    for cmd in ("sbatch", "salloc", "srun"):
        r = c.run([cmd, "--begin=now+120", "--deadline=now+60"] +
                  (["--wrap", "true"] if cmd == "sbatch" else ["true"]),
                  user=U1, timeout=20)
        assert (r.rc, r.out, r.err) == (1, "", "%s: error: Incompatible begin "
                                        "and deadline time specification\n"
                                        % cmd), r
    assert c.all_job_states() == before


def test_time_min_shown(cluster):
    c = cluster
    j = sb(c, "true", "-J", "tmin", "-t", "5", "--time-min=2", "--hold")
    rec = c.show_job(j)
    assert (rec["TimeLimit"], rec["TimeMin"]) == ("00:05:00", "00:02:00"), rec
    c.run(["scancel", str(j)], user=U1)


def test_kill_wait_between_term_and_kill(cluster):
    c = cluster
    f = os.path.join(c.workdir(U1), "kw-term")
    script = ("trap 'echo TERM >> %s' TERM; "
              "while :; do /usr/bin/sleep 0.2; done" % f)
    j = sb(c, script, "-J", "kw")
    c.wait_state(j, "RUNNING", 30)
    time.sleep(1)
    t0 = time.time()
    r = c.run(["scancel", str(j)], user=U1)
    assert r.rc == 0, r
    wait_for(lambda: "TERM" in read(f), 15, "SIGTERM trapped")
    wait_for(lambda: c.job_state(j) == "CANCELLED", 30, "job gone")
    took = time.time() - t0
    # KillWait=3 in the test cluster: SIGKILL only after it
    assert took >= 2.5, took
