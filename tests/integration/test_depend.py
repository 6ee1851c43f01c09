"""Job dependencies (sbatch --dependency, scontrol update Dependency=).

- A pipeline afterok -> afterany -> afternotok runs in that order, each
  stage waiting with reason Dependency and `Dependency=afterok:N(unfulfilled)`
  in scontrol show job / squeue %E while its parent runs.
- A failed parent leaves an afterok child pending for ever with reason
  DependencyNeverSatisfied and `(failed)`; with --kill-on-invalid-dep=yes
  (or DependencyParameters=kill_invalid_depend) the child is cancelled.
- `?` lists need one entry, singleton serialises jobs of one name and user.
- Array targets: a task (12_1), the whole array (12, 12_*); aftercorr
  releases task i of an array only after task i of the other completed.
- Unknown targets and bad syntax are refused with Slurm's message, and a
  dependency survives a controller restart.
"""

import os
import time

import pytest

U1 = "sluice_u1"
U2 = "sluice_u2"
DEP_ERR = "sbatch: error: Batch job submission failed: Job dependency problem\n"


def sbatch_wrap(c, cmd, *args, user=U1):
    return c.sbatch(list(args) + ["--wrap", cmd], user=user)


def show(c, jid):
    return c.show_job(jid)


def wait_field(c, jid, key, want, timeout=30):
    deadline = time.time() + timeout
    got = None
    while time.time() < deadline:
        got = show(c, jid).get(key)
        if got == want:
            return got
        time.sleep(0.2)
    raise AssertionError("job %s: %s=%r, wanted %r\n%s" % (
        jid, key, got, want, c.log_tails()))


def squeue_field(c, jid, fmt):
    r = c.run(["squeue", "-h", "-j", str(jid), "-o", fmt], user=U1)
    assert r.rc == 0, r
    return r.out.strip()


def test_pipeline_runs_in_order(cluster):
    c = cluster
    d = c.workdir(U1)
    log = os.path.join(d, "pipeline.log")
    c.write_file(U1, log, "")
    a = sbatch_wrap(c, "sleep 3; echo A >> %s" % log, "-J", "stageA")
    b = sbatch_wrap(c, "echo B >> %s; exit 3" % log, "-J", "stageB",
                    "--dependency=afterok:%d" % a)
    cc = sbatch_wrap(c, "echo C >> %s" % log, "-J", "stageC",
                     "-d", "afterany:%d" % b)
    dd = sbatch_wrap(c, "echo D >> %s" % log, "-J", "stageD",
                     "--dependency", "afternotok:%d" % b)
    c.wait_state(a, "RUNNING", 30)
    rec = show(c, b)
    assert rec["JobState"] == "PENDING", rec
    assert rec["Reason"] == "Dependency", rec
    assert rec["Dependency"] == "afterok:%d(unfulfilled)" % a, rec
    assert squeue_field(c, b, "%E") == "afterok:%d(unfulfilled)" % a
    assert squeue_field(c, b, "%r") == "Dependency"
    assert show(c, cc)["Dependency"] == "afterany:%d(unfulfilled)" % b
    for j in (a, b, cc, dd):
        c.wait_done(j, 60)
    assert c.job_state(a) == "COMPLETED"
    assert c.job_state(b) == "FAILED"
    assert c.job_state(cc) == "COMPLETED"
    assert c.job_state(dd) == "COMPLETED"
    with open(log) as f:
        lines = f.read().split()
    assert lines[:2] == ["A", "B"], lines
    assert sorted(lines[2:]) == ["C", "D"], lines
    # satisfied dependencies are cleared, as Slurm shows them
    assert show(c, b)["Dependency"] == "(null)"


def test_failed_parent_never_satisfied(cluster):
    c = cluster
    a = sbatch_wrap(c, "exit 1", "-J", "failing")
    b = sbatch_wrap(c, "true", "-J", "child", "--dependency=afterok:%d" % a)
    c.wait_done(a, 30)
    wait_field(c, b, "Reason", "DependencyNeverSatisfied")
    rec = show(c, b)
    assert rec["JobState"] == "PENDING"
    assert rec["Dependency"] == "afterok:%d(failed)" % a
    assert squeue_field(c, b, "%t %r %E") == "PD DependencyNeverSatisfied afterok:%d(failed)" % a
    r = c.run(["scancel", str(b)], user=U1)
    assert r.rc == 0, r


def test_kill_on_invalid_dep(cluster):
    c = cluster
    a = sbatch_wrap(c, "exit 2", "-J", "failing2")
    b = sbatch_wrap(c, "true", "-J", "killme", "--kill-on-invalid-dep=yes",
                    "--dependency=afterok:%d" % a)
    c.wait_done(a, 30)
    assert c.wait_done(b, 30) == "CANCELLED"
    assert show(c, b)["Reason"] == "DependencyNeverSatisfied"
    assert "_kill_dependent: Job dependency can't be satisfied, cancelling JobId=%d" % b \
        in c.log_text()


def test_kill_invalid_depend_parameter(new_cluster):
    c = new_cluster(nodes=1, extra_conf="DependencyParameters=kill_invalid_depend")
    a = sbatch_wrap(c, "exit 2", "-J", "p")
    b = sbatch_wrap(c, "true", "-J", "k", "--dependency=afterok:%d" % a)
    keep = sbatch_wrap(c, "true", "-J", "n", "--kill-on-invalid-dep=no",
                       "--dependency=afterok:%d" % a)
    c.wait_done(a, 30)
    assert c.wait_done(b, 30) == "CANCELLED"
    wait_field(c, keep, "Reason", "DependencyNeverSatisfied")
    assert c.job_state(keep) == "PENDING"
    r = c.run(["scontrol", "show", "config"])
    assert "DependencyParameters    = kill_invalid_depend" in r.out


def test_any_list_and_after(cluster):
    c = cluster
    a = sbatch_wrap(c, "exit 1", "-J", "any1")
    b = sbatch_wrap(c, "sleep 1", "-J", "any2")
    x = sbatch_wrap(c, "true", "-J", "anyx",
                    "--dependency=afterok:%d?afterok:%d" % (a, b))
    rec = show(c, x)
    assert rec["Dependency"] in (
        "afterok:%d(unfulfilled)?afterok:%d(unfulfilled)" % (a, b),
        "afterok:%d(failed)?afterok:%d(unfulfilled)" % (a, b)), rec
    assert c.wait_done(x, 60) == "COMPLETED"
    # after: starts once the parent started, not when it ends
    p = sbatch_wrap(c, "sleep 20", "-J", "afterp")
    q = sbatch_wrap(c, "true", "-J", "afterq", "--dependency=after:%d" % p)
    c.wait_state(p, "RUNNING", 30)
    assert c.wait_done(q, 30) == "COMPLETED"
    assert c.job_state(p) == "RUNNING"
    c.run(["scancel", str(p)], user=U1)


def test_singleton(cluster):
    c = cluster
    a = sbatch_wrap(c, "sleep 4", "-J", "single", "--dependency=singleton")
    b = sbatch_wrap(c, "true", "-J", "single", "-d", "singleton")
    other = sbatch_wrap(c, "true", "-J", "single", "-d", "singleton", user=U2)
    c.wait_state(a, "RUNNING", 30)
    rec = show(c, b)
    assert (rec["JobState"], rec["Reason"]) == ("PENDING", "Dependency"), rec
    assert rec["Dependency"] == "singleton(unfulfilled)"
    # another user's job of the same name is not held back
    assert c.wait_done(other, 30) == "COMPLETED"
    assert c.job_state(a) == "RUNNING"
    c.wait_done(a, 30)
    assert c.wait_done(b, 30) == "COMPLETED"
    assert show(c, b)["StartTime"] >= show(c, a)["EndTime"]


@pytest.mark.parametrize("spec", [
    "afterok:999999", "afterok:", "afterok:1:", "afterok:x", "foo:1",
    "afterok:1,afterany:1?after:1", "afterburstbuffer:%(a)d",
    "afterok:%(a)d,", "singleton:1",
])
def test_bad_dependency_refused(cluster, spec):
    c = cluster
    a = sbatch_wrap(c, "true", "-J", "tgt", "--hold")
    before = c.all_job_states()
    r = c.run(["sbatch", "--dependency=" + (spec % {"a": a}), "--wrap", "true"],
              user=U1)
    assert (r.rc, r.out, r.err) == (1, "", DEP_ERR), r
    assert c.all_job_states() == before
    c.run(["scancel", str(a)], user=U1)


def test_update_dependency(cluster):
    c = cluster
    a = sbatch_wrap(c, "true", "-J", "upd_a", "--hold")
    b = sbatch_wrap(c, "true", "-J", "upd_b", "--hold")
    r = c.run(["scontrol", "update", "JobId=%d" % b, "Dependency=afterany:%d" % a],
              user=U1)
    assert (r.rc, r.err) == (0, ""), r
    assert show(c, b)["Dependency"] == "afterany:%d(unfulfilled)" % a
    # a cycle and an unknown job are refused, nothing changes
    r = c.run(["scontrol", "update", "JobId=%d" % a, "Dependency=afterok:%d" % b],
              user=U1)
    assert r.rc == 1 and "Circular job dependency" in r.err, r
    assert show(c, a)["Dependency"] == "(null)"
    r = c.run(["scontrol", "update", "JobId=%d" % b, "Dependency=afterok:999999"],
              user=U1)
    assert r.rc == 1 and "Job dependency problem" in r.err, r
    assert show(c, b)["Dependency"] == "afterany:%d(unfulfilled)" % a
    # another user may not touch it
    r = c.run(["scontrol", "update", "JobId=%d" % b, "Dependency="], user=U2)
    assert r.rc == 1, r
    assert show(c, b)["Dependency"] == "afterany:%d(unfulfilled)" % a
    r = c.run(["scontrol", "update", "JobId=%d" % b, "Dependency="], user=U1)
    assert r.rc == 0, r
    assert show(c, b)["Dependency"] == "(null)"
    c.run(["scancel", str(a), str(b)], user=U1)


def test_dependency_survives_restart(new_cluster):
    c = new_cluster(nodes=1)
    a = sbatch_wrap(c, "sleep 6", "-J", "rs_a")
    b = sbatch_wrap(c, "exit 1", "-J", "rs_b", "--hold")
    x = sbatch_wrap(c, "true", "-J", "rs_x",
                    "--dependency=afterany:%d,afterok:%d" % (a, b))
    c.run(["scontrol", "release", str(b)], user=U1)
    c.wait_done(b, 30)
    wait_field(c, x, "Dependency",
               "afterany:%d(unfulfilled),afterok:%d(failed)" % (a, b))
    c.kill_ctld()
    c.start_ctld()
    deadline = time.time() + 30
    while c.run(["squeue"]).rc != 0 and time.time() < deadline:
        time.sleep(0.2)
    rec = show(c, x)
    assert rec["Dependency"] == "afterany:%d(unfulfilled),afterok:%d(failed)" % (a, b)
    assert rec["Reason"] == "DependencyNeverSatisfied"
    c.wait_done(a, 30)
    time.sleep(6)
    assert c.job_state(x) == "PENDING"


def test_satisfied_entries_drop_out(cluster):
    c = cluster
    a = sbatch_wrap(c, "true", "-J", "drop_a")
    b = sbatch_wrap(c, "sleep 30", "-J", "drop_b")
    x = sbatch_wrap(c, "true", "-J", "drop_x",
                    "--dependency=afterok:%d,afterany:%d" % (a, b))
    c.wait_done(a, 30)
    # as Slurm shows it: the satisfied afterok entry is gone
    wait_field(c, x, "Dependency", "afterany:%d(unfulfilled)" % b)
    assert show(c, x)["Reason"] == "Dependency"
    c.run(["scancel", str(b), str(x)], user=U1)


def _times(path):
    """'X task epoch' lines -> {(X, task): epoch}."""
    out = {}
    try:
        with open(path) as f:
            for line in f:
                p = line.split()
                if len(p) == 3:
                    out[(p[0], int(p[1]))] = float(p[2])
    except OSError:
        pass
    return out


def test_array_targets(cluster):
    c = cluster
    arr = sbatch_wrap(c, "sleep 2", "-J", "arr", "--array=0-2")
    task = sbatch_wrap(c, "true", "-J", "after_task",
                       "--dependency=afterok:%d_1" % arr)
    whole = sbatch_wrap(c, "true", "-J", "after_arr",
                        "--dependency=afterok:%d" % arr)
    star = sbatch_wrap(c, "true", "-J", "after_star",
                       "--dependency=afterany:%d_*" % arr)
    assert show(c, task)["Dependency"] == "afterok:%d_1(unfulfilled)" % arr
    assert show(c, star)["Dependency"] == "afterany:%d_*(unfulfilled)" % arr
    for j in (task, whole, star):
        assert c.wait_done(j, 60) == "COMPLETED"
    r = c.run(["sbatch", "--dependency=afterok:%d_7" % arr, "--wrap", "true"],
              user=U1)
    assert (r.rc, r.err) == (1, DEP_ERR), r


def test_aftercorr(cluster):
    c = cluster
    log = os.path.join(c.workdir(U1), "corr.log")
    c.write_file(U1, log, "")
    a = sbatch_wrap(c, 'if [ "$SLURM_ARRAY_TASK_ID" = 0 ]; then sleep 6; '
                    'else sleep 1; fi; '
                    'echo "A $SLURM_ARRAY_TASK_ID $(date +%%s.%%N)" >> %s' % log,
                    "-J", "corrA", "--array=0-3")
    b = sbatch_wrap(c, 'echo "B $SLURM_ARRAY_TASK_ID $(date +%%s.%%N)" >> %s' % log,
                    "-J", "corrB", "--array=0-3",
                    "--dependency=aftercorr:%d" % a)
    assert show(c, b)["Dependency"] == "aftercorr:%d(unfulfilled)" % a
    wait_for_all = time.time() + 60
    while time.time() < wait_for_all and len(_times(log)) < 8:
        time.sleep(0.5)
    t = _times(log)
    assert len(t) == 8, t
    for i in range(4):
        assert t[("B", i)] >= t[("A", i)], (i, t)
    # a failed task never releases its partner; the other tasks run
    f = sbatch_wrap(c, 'exit $(( SLURM_ARRAY_TASK_ID == 0 ))', "-J", "corrF",
                    "--array=0-2")
    g = sbatch_wrap(c, "true", "-J", "corrG", "--array=0-2",
                    "--dependency=aftercorr:%d" % f)
    want = ["%d_0 PENDING DependencyNeverSatisfied" % g,
            "%d_1 COMPLETED None" % g, "%d_2 COMPLETED None" % g]
    deadline = time.time() + 60
    got = None
    while time.time() < deadline:
        r = c.run(["squeue", "-h", "-t", "all", "-r", "-j", str(g), "-o",
                   "%i %T %r"])
        got = sorted(r.out.splitlines())
        if got == want:
            break
        time.sleep(0.5)
    assert got == want, got
    c.run(["scancel", str(g)], user=U1)
