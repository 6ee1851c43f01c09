"""scontrol update JobId= of the keys admins use (issue 28): a pending
job's memory, tasks, CPUs per task, GRES, output files, working
directory, WCKey, OverSubscribe and Contiguous; the mail, Deadline and
TimeMin of a pending or running job.  Slurm's rules (compared with Slurm
22.05): the request keys only while pending ("Job is no longer pending
execution"), OverSubscribe and Contiguous=yes for operators only, bad
values refused by scontrol with its words, nothing changed then; the
job runs with what it was changed to.
"""

import os
import time

U1 = "sluice_u1"


def sb(c, cmd, *args):
    return c.sbatch(list(args) + ["--wrap", cmd], user=U1)


def upd(c, j, *kv, user=U1):
    return c.run(["scontrol", "update", "JobId=%d" % j] + list(kv), user=user)


def test_pending_request_keys_apply_and_job_runs_with_them(cluster):
    c = cluster
    wd = c.workdir(U1)
    out = os.path.join(wd, "kout-%j.txt")
    new_wd = os.path.join(wd, "kwd")
    c.mkdir_for(U1, new_wd)
    j = sb(c, "echo T=$SLURM_NTASKS C=$SLURM_CPUS_PER_TASK M=$SLURM_MEM_PER_NODE; pwd",
           "--hold", "-t", "10")
    r = upd(c, j, "MinMemoryNode=100", "NumTasks=2", "CPUsPerTask=1",
            "StdOut=" + out, "WorkDir=" + new_wd, "MailType=END,FAIL",
            "MailUser=bob", "WCKey=wk1", "TimeMin=5", "Deadline=now+2hours",
            "Contiguous=no")
    assert (r.rc, r.out, r.err) == (0, "", ""), r
    rec = c.show_job(j)
    assert rec["MinMemoryNode"] == "100M", rec
    assert (rec["NumTasks"], rec["CPUs/Task"]) == ("2", "1"), rec
    assert rec["StdOut"] == out.replace("%j", str(j)), rec
    assert rec["WorkDir"] == new_wd, rec
    assert (rec["MailUser"], rec["MailType"]) == ("bob", "END,FAIL"), rec
    assert rec["TimeMin"] == "00:05:00", rec
    assert rec["Deadline"] not in ("N/A", "None", ""), rec
    r = upd(c, j, "MinMemoryCPU=50")
    assert r.rc == 0, r
    assert c.show_job(j)["MinMemoryCPU"] == "50M"
    r = upd(c, j, "MinMemoryNode=100")
    assert r.rc == 0, r
    assert c.run(["scontrol", "release", str(j)], user=U1).rc == 0
    assert c.wait_done(j, 30) == "COMPLETED"
    path = out.replace("%j", str(j))
    deadline = time.time() + 10
    while not os.path.exists(path) and time.time() < deadline:
        time.sleep(0.2)
    with open(path) as f:
        text = f.read()
    assert "T=2 C=1 M=100" in text, text
    assert new_wd in text, text


def test_running_job_refuses_request_keys(cluster):
    c = cluster
    j = sb(c, "sleep 60", "-t", "10")
    c.wait_state(j, "RUNNING", 30)
    before = c.show_job(j)
    for kv in ("MinMemoryNode=100", "MinMemoryCPU=50", "NumTasks=2",
               "CPUsPerTask=2", "Gres=gpu:1", "WCKey=abc",
               "StdOut=/tmp/x", "StdErr=/tmp/y", "WorkDir=/tmp"):
        r = upd(c, j, kv)
        assert (r.rc, r.err) == (1, "Job is no longer pending execution "
                                 "for job %d\n" % j), (kv, r)
    # mail, Deadline and TimeMin may change while it runs
    r = upd(c, j, "MailType=END", "MailUser=alice", "TimeMin=5",
            "Deadline=now+1hour")
    assert (r.rc, r.err) == (0, ""), r
    rec = c.show_job(j)
    assert (rec["MailUser"], rec["MailType"], rec["TimeMin"]) == (
        "alice", "END", "00:05:00"), rec
    for k in ("MinMemoryNode", "NumTasks", "CPUs/Task", "StdOut", "WorkDir"):
        assert rec.get(k) == before.get(k), k
    c.run(["scancel", str(j)], user=U1)
    c.wait_done(j, 30)


def test_operator_only_and_bad_values(cluster):
    c = cluster
    j = sb(c, "true", "--hold", "-t", "10")
    before = c.show_job(j)
    r = upd(c, j, "OverSubscribe=yes")
    assert (r.rc, r.err) == (1, "Access/permission denied for job %d\n" % j), r
    r = upd(c, j, "Contiguous=yes")
    assert (r.rc, r.err) == (1, "Access/permission denied for job %d\n" % j), r
    for kv, err in (
            ("MailType=bogus", "Invalid MailType: bogus\n"),
            ("OverSubscribe=bogus",
             "scontrol: error: Invalid OverSubscribe value: bogus\n"),
            ("Contiguous=bogus",
             "scontrol: error: Invalid Contiguous value: bogus\n"),
            ("NumTasks=abc", "scontrol: error: Invalid NumTasks value: abc\n"),
            ("MinMemoryNode=abc",
             "scontrol: error: Invalid MinMemoryNode value: abc\n"),
            ("TimeMin=bogus", "scontrol: error: Invalid TimeMin value\n"),
            ("Gres=gpu:1", "Invalid generic resource (gres) specification "
             "for job %d\n" % j),
            ("TimeMin=20", "Invalid time-min specification (exceeds job's "
             "time or other limits) for job %d\n" % j),
            ("Deadline=2020-01-01", "Invalid time specified for job %d\n" % j),
            ("AdminComment=hi", "Access/permission denied for job %d\n" % j)):
        r = upd(c, j, kv)
        assert (r.rc, r.err) == (1, err), (kv, r)
    after = c.show_job(j)
    for rec in (before, after):
        rec.pop("LastSchedEval", None)
    assert after == before
    # an operator may (and an administrator set the AdminComment)
    r = upd(c, j, "OverSubscribe=yes", "Contiguous=yes",
            "AdminComment=checked by ops", user="root")
    assert (r.rc, r.err) == (0, ""), r
    rec = c.show_job(j)
    assert (rec["OverSubscribe"], rec["Contiguous"]) == ("YES", "1"), rec
    r = c.run(["scontrol", "show", "job", str(j)])
    assert "\n   AdminComment=checked by ops\n" in r.out, r.out
    # and the user may drop Contiguous again
    r = upd(c, j, "Contiguous=no")
    assert (r.rc, r.err) == (0, ""), r
    assert c.show_job(j)["Contiguous"] == "0"
    c.run(["scancel", str(j)], user=U1)
