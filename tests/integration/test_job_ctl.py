"""scontrol hold/release/requeue/requeuehold/suspend/resume/top/update on
jobs, as a user and as root, with Slurm's rules and messages.

- requeue sends a running batch job back to pending; it runs again with
  Restarts=1 and SLURM_RESTART_COUNT=1; requeuehold leaves it held with
  Reason=job_requeued_in_held_state until released.
- suspend (operators only) stops every process of the job (SIGSTOP) and
  shows SUSPENDED / S; resume continues it and pushes EndTime back by the
  time it was suspended.
- top puts a pending job ahead of the same user's other jobs.
- update: a user may lower, not raise, a running job's TimeLimit; running
  jobs cannot change Partition or NumNodes; another user touches nothing.
"""

import os
import time

from cluster import wait_for  # noqa: E402

U1 = "sluice_u1"
U2 = "sluice_u2"


def sb(c, cmd, *args, user=U1):
    return c.sbatch(list(args) + ["--wrap", cmd], user=user)


def squeue(c, jid, fmt):
    r = c.run(["squeue", "-h", "-j", str(jid), "-o", fmt])
    assert r.rc == 0, r
    return r.out.strip()


def test_requeue_running_job_runs_again(cluster):
    c = cluster
    out = os.path.join(c.workdir(U1), "requeue-%j.out")
    j = sb(c, 'echo "count=${SLURM_RESTART_COUNT-none}"; sleep 30',
           "-J", "rq", "-o", out, "--open-mode=append")
    c.wait_state(j, "RUNNING", 30)
    path = out.replace("%j", str(j))
    wait_for(lambda: os.path.exists(path) and "count=none" in open(path).read(),
             what="first run output")
    r = c.run(["scontrol", "requeue", str(j)], user=U1)
    assert (r.rc, r.out, r.err) == (0, "", ""), r
    rec = c.show_job(j)
    assert rec["Restarts"] == "1", rec
    wait_for(lambda: "count=1" in open(path).read(), 60, "second run")
    assert c.job_state(j) == "RUNNING"
    assert c.show_job(j)["Restarts"] == "1"
    c.run(["scancel", str(j)], user=U1)


def test_requeuehold_and_release(cluster):
    c = cluster
    j = sb(c, "sleep 30", "-J", "rqh")
    c.wait_state(j, "RUNNING", 30)
    r = c.run(["scontrol", "requeuehold", str(j)], user=U1)
    assert (r.rc, r.err) == (0, ""), r
    wait_for(lambda: c.job_state(j) == "PENDING", 30, "pending again")
    rec = c.show_job(j)
    assert rec["Reason"] == "job_requeued_in_held_state", rec
    assert rec["Priority"] == "0" and rec["Restarts"] == "1", rec
    assert squeue(c, j, "%t|%r") == "PD|job requeued in held state"
    time.sleep(2)
    assert c.job_state(j) == "PENDING"
    r = c.run(["scontrol", "release", str(j)], user=U1)
    assert r.rc == 0, r
    c.wait_state(j, "RUNNING", 30)
    assert c.show_job(j)["Reason"] == "None"
    c.run(["scancel", str(j)], user=U1)


def test_requeue_refusals(cluster):
    c = cluster
    p = sb(c, "true", "-J", "rqp", "--hold")
    r = c.run(["scontrol", "requeue", str(p)], user=U1)
    assert (r.rc, r.err) == (1, "Job is pending execution for job %d\n" % p), r
    n = sb(c, "sleep 30", "-J", "rqn", "--no-requeue")
    c.wait_state(n, "RUNNING", 30)
    r = c.run(["scontrol", "requeue", str(n)], user=U1)
    assert (r.rc, r.err) == (
        1, "Requested operation is presently disabled for job %d\n" % n), r
    r = c.run(["scontrol", "requeue", str(n)], user=U2)
    assert (r.rc, r.err) == (1, "Access/permission denied for job %d\n" % n), r
    assert c.job_state(n) == "RUNNING"
    assert c.show_job(n)["Restarts"] == "0"
    r = c.run(["scontrol", "requeue", "999999"], user=U1)
    assert (r.rc, r.err) == (1, "Invalid job id specified for job 999999\n"), r
    c.run(["scancel", str(p), str(n)], user=U1)


def test_hold_release_permissions(cluster):
    c = cluster
    j = sb(c, "true", "-J", "hold1", "--hold")
    assert squeue(c, j, "%t %r") == "PD JobHeldUser"
    r = c.run(["scontrol", "release", str(j)], user=U2)
    assert (r.rc, r.err) == (1, "Invalid user id for job %d\n"
                             "slurm_suspend error: Invalid user id\n" % j), r
    r = c.run(["scontrol", "hold", str(j)])
    assert r.rc == 0, r
    assert squeue(c, j, "%t %r") == "PD JobHeldAdmin"
    r = c.run(["scontrol", "release", str(j)], user=U1)
    assert (r.rc, r.err) == (1, "Access/permission denied for job %d\n"
                             "slurm_suspend error: Access/permission denied\n" % j), r
    assert squeue(c, j, "%t %r") == "PD JobHeldAdmin"
    r = c.run(["scontrol", "uhold", str(j)])
    assert r.rc == 0, r
    r = c.run(["scontrol", "release", str(j)], user=U1)
    assert r.rc == 0, r
    assert c.wait_done(j, 30) == "COMPLETED"


def test_hold_release_by_jobname(cluster):
    # as 22.05: every unfinished job of that name; another user's job
    # answers its error; a name nobody uses is no error
    c = cluster
    a = sb(c, "true", "-J", "byname", "--begin=now+1hour")
    b = sb(c, "true", "-J", "byname", "--begin=now+1hour")
    o = sb(c, "true", "-J", "byname", "--begin=now+1hour", user=U2)
    r = c.run(["scontrol", "hold", "jobname=nosuchname"], user=U1)
    assert (r.rc, r.out, r.err) == (0, "", ""), r
    r = c.run(["scontrol", "hold", "jobname=byname"], user=U1)
    assert (r.rc, r.err) == (1, "Invalid user id for job %d\n"
                             "slurm_suspend error: Invalid user id\n" % o), r
    assert [squeue(c, j, "%r") for j in (a, b, o)] == [
        "JobHeldUser", "JobHeldUser", "BeginTime"]
    r = c.run(["scontrol", "release", "jobname=byname"], user=U2)
    assert r.rc == 1, r
    assert squeue(c, a, "%r") == "JobHeldUser"
    r = c.run(["scontrol", "release", "JobName=byname"])
    assert r.rc == 0, r
    assert [squeue(c, j, "%r") for j in (a, b)] == ["BeginTime"] * 2
    c.run(["scancel", str(a), str(b), str(o)])


def test_suspend_resume(cluster):
    c = cluster
    tick = os.path.join(c.workdir(U1), "suspend-ticks")
    c.write_file(U1, tick, "")
    j = sb(c, "while true; do echo x >> %s; sleep 0.2; done" % tick,
           "-J", "susp", "-t", "5")
    c.wait_state(j, "RUNNING", 30)
    wait_for(lambda: os.path.getsize(tick) > 0, what="ticks")
    r = c.run(["scontrol", "suspend", str(j)], user=U1)
    assert (r.rc, r.err) == (1, "Access/permission denied for job %d\n" % j), r
    end_before = c.show_job(j)["EndTime"]
    r = c.run(["scontrol", "suspend", str(j)])
    assert (r.rc, r.err) == (0, ""), r
    assert squeue(c, j, "%t %T") == "S SUSPENDED"
    rec = c.show_job(j)
    assert rec["JobState"] == "SUSPENDED" and rec["SuspendTime"] != "None", rec
    time.sleep(1)
    size = os.path.getsize(tick)
    time.sleep(3)
    assert os.path.getsize(tick) == size, "job kept running while suspended"
    r = c.run(["scontrol", "resume", str(j)])
    assert (r.rc, r.err) == (0, ""), r
    assert c.job_state(j) == "RUNNING"
    wait_for(lambda: os.path.getsize(tick) > size, what="ticks after resume")
    assert c.show_job(j)["EndTime"] > end_before
    r = c.run(["scontrol", "resume", str(j)])
    assert (r.rc, r.err) == (1, "Job is not suspended for job %d\n" % j), r
    c.run(["scancel", str(j)], user=U1)
    p = sb(c, "true", "-J", "susp_p", "--hold")
    r = c.run(["scontrol", "suspend", str(p)])
    assert (r.rc, r.err) == (1, "Job is pending execution for job %d\n" % p), r
    c.run(["scancel", str(p)], user=U1)


def test_top(cluster):
    c = cluster
    a = sb(c, "true", "-J", "topa", "-p", "debug", "--hold")
    b = sb(c, "true", "-J", "topb", "-p", "debug", "--hold")
    for j in (a, b):   # pending for good: more nodes than there are
        c.run(["scontrol", "update", "JobId=%d" % j, "NumNodes=9"], user=U1)
        c.run(["scontrol", "release", str(j)], user=U1)
    pa = int(c.show_job(a)["Priority"])
    pb = int(c.show_job(b)["Priority"])
    assert pa > pb
    r = c.run(["scontrol", "top", str(b)], user=U1)
    assert (r.rc, r.err) == (1, "Access/permission denied for job %d\n" % b), r
    r = c.run(["scontrol", "top", str(b)])
    assert (r.rc, r.err) == (0, ""), r
    assert int(c.show_job(b)["Priority"]) == pa
    assert int(c.show_job(a)["Priority"]) == pb
    c.run(["scancel", str(a), str(b)], user=U1)


def test_update_rules(cluster):
    c = cluster
    j = sb(c, "sleep 30", "-J", "upd", "-t", "10")
    c.wait_state(j, "RUNNING", 30)
    r = c.run(["scontrol", "update", "JobId=%d" % j, "TimeLimit=20"], user=U1)
    assert (r.rc, r.err) == (1, "Access/permission denied for job %d\n" % j), r
    r = c.run(["scontrol", "update", "JobId=%d" % j, "TimeLimit=8"], user=U1)
    assert (r.rc, r.err) == (0, ""), r
    assert c.show_job(j)["TimeLimit"] == "00:08:00"
    r = c.run(["scontrol", "update", "job", str(j), "TimeLimit-=3"], user=U1)
    assert (r.rc, r.err) == (0, ""), r
    assert c.show_job(j)["TimeLimit"] == "00:05:00"
    r = c.run(["scontrol", "update", "JobId=%d" % j, "TimeLimit=30"])
    assert r.rc == 0, r
    assert c.show_job(j)["TimeLimit"] == "00:30:00"
    r = c.run(["scontrol", "update", "JobId=%d" % j, "Name=renamed",
               "Comment=hello"], user=U1)
    assert r.rc == 0, r
    rec = c.show_job(j)
    assert (rec["JobName"], rec["Comment"]) == ("renamed", "hello"), rec
    for kv, err in (("NumNodes=2", "Requested operation not supported on this system"),
                    ("StartTime=now+1hour", "Job is no longer pending execution"),
                    ("ExcNodeList=n2", "Job is no longer pending execution"),
                    ("Features=foo", "Job is no longer pending execution")):
        r = c.run(["scontrol", "update", "JobId=%d" % j, kv], user=U1)
        assert (r.rc, r.err) == (1, "%s for job %d\n" % (err, j)), (kv, r)
    r = c.run(["scontrol", "update", "JobId=%d" % j, "Comment=mine"], user=U2)
    assert (r.rc, r.err) == (1, "Invalid user id for job %d\n" % j), r
    assert c.show_job(j)["Comment"] == "hello"
    r = c.run(["scancel", str(j)], user=U2)
    assert r.rc != 0 and c.job_state(j) == "RUNNING", r
    # a pending job may be given more time, up to its partition's limit
    p = sb(c, "true", "-J", "updp", "-t", "10", "--hold")
    r = c.run(["scontrol", "update", "JobId=%d" % p, "TimeLimit=20",
               "Partition=debug", "NumNodes=2", "ExcNodeList=n1"], user=U1)
    assert (r.rc, r.err) == (0, ""), r
    rec = c.show_job(p)
    assert (rec["TimeLimit"], rec["NumNodes"].split("-")[0],
            rec["ExcNodeList"]) == ("00:20:00", "2", "n1"), rec
    r = c.run(["scontrol", "update", "JobId=%d" % p, "Priority=5"], user=U1)
    assert (r.rc, r.err) == (1, "Job is in held state, pending scheduler "
                             "release for job %d\n" % p), r
    c.run(["scancel", str(j), str(p)], user=U1)


def test_requeue_on_node_failure(new_cluster):
    c = new_cluster(tag="rqnode", nodes=2, slurmd_timeout=6)
    mark = os.path.join(c.workdir(U1), "rqnf-started")
    j = sb(c, "touch %s; sleep 300" % mark, "-J", "rqnf", "-w", "n1",
           "--requeue")
    c.wait_state(j, "RUNNING", 30)
    wait_for(lambda: os.path.exists(mark), 30, "job started on n1")
    c.kill_slurmd("n1")
    rec = wait_for(lambda: (lambda r: r if r.get("Restarts") == "1" else None)(
        c.show_job(j)), 60, "requeue after node failure")
    assert rec["JobState"] in ("PENDING", "COMPLETING"), rec
    assert c.wait_state(j, "PENDING", 30) == "PENDING"
    # a requeued job first waits cred_expire + 1 s (Reason=BeginTime)
    wait_for(lambda: c.show_job(j)["Reason"] != "BeginTime", 10,
             "requeue begin delay")
    # it may only run on n1, which is down: it waits
    assert c.show_job(j)["Reason"] in ("ReqNodeNotAvail", "Resources") or \
        c.show_job(j)["Reason"].startswith("ReqNodeNotAvail"), c.show_job(j)
    r = c.run(["scontrol", "update", "JobId=%d" % j, "ReqNodeList=n2"], user=U1)
    assert r.rc == 0, r
    c.wait_state(j, "RUNNING", 30)
    assert c.show_job(j)["NodeList"] == "n2"
    c.run(["scancel", str(j)], user=U1)
