"""Run tracking and sweeps (issue 26): sluice.log_metric/log_param/
log_artifact inside tasks, read back by `sacct --metrics` (table, -P,
--json), slurmrestd's /sluice/v1/job/{id}/metrics and Job.metrics(); a
sweep of 16 trials whose laggards successive halving cancels; and bad
input: names and values over their bounds or malformed, not inside a job,
another user's job, a job that is not running: each refused with a clear
error and nothing recorded.

The cluster is test_sdk.py's (its `env` fixture: 2 nodes of 32 CPUs,
slurmdbd, slurmrestd with auth/jwt).
"""

import json
import time

import pytest

from jwt_util import token_of
from test_sdk import U, env, ok  # noqa: F401  (env: the module fixture)

U2 = "sluice_u2"


def sacct(env, *args, user=U):
    r = env.c.run(["sacct", "--metrics"] + list(args), user=user)
    assert r.rc == 0, r
    return r.out


def wait_rows(env, job, n, timeout=30):
    """sacct -P --metrics rows of job, once there are n (the sender
    batches records to slurmdbd)."""
    rows = []
    end = time.time() + timeout
    while time.time() < end:
        out = sacct(env, "-j", str(job), "-P", "-n",
                    "-o", "JobID,Kind,Name,Step,Value")
        rows = [ln.split("|") for ln in out.splitlines() if ln]
        if len(rows) >= n:
            break
        time.sleep(0.5)
    return rows


def need_acct(env):
    if not env.acct:
        pytest.skip("no MariaDB: no accounting")


def test_array_metrics_in_step_order(env):
    """Three tasks of one array log a param, an artifact and a metric at
    steps given out of order; sacct --metrics (table, -P, --json), the
    REST endpoint and Job.metrics() return them by task, kind, name and
    step."""
    need_acct(env)
    r, outs = env.run('''
        @task(time="5")
        def train(i):
            sluice.log_param("lr", 0.1 * (i + 1))
            for step in (3, 1, 4, 0, 2):
                sluice.log_metric("loss", 10 * i + step / 10, step)
            path = "model.%d" % i
            with open(path, "w") as f:
                f.write("x" * (100 + i))
            sluice.log_artifact(path)
            return i

        a = train.map([0, 1, 2])
        out(a.job_id)
        out(a.results(timeout=120))
        import time
        for _ in range(60):
            m = a.metrics(kind="metric")
            if len(m) == 15:
                break
            time.sleep(0.5)
        out([[x["array_task_id"], x["step"], x["value"]] for x in m])
        out([[x["array_task_id"], x["value"]]
             for x in a[1].metrics(kind="param")])
    ''')
    job, res, mets, params = ok(r, outs, 4)
    assert res == [0, 1, 2]
    assert mets == [[i, s, 10 * i + s / 10] for i in range(3)
                    for s in range(5)], mets
    assert params == [[1, "0.2"]], params

    rows = wait_rows(env, job, 21)
    want = []
    for i in range(3):
        jid = "%d_%d" % (job, i)
        want.append([jid, "metric", "loss", "0", str(10 * i)])
        want += [[jid, "metric", "loss", str(s), str(10 * i + s / 10)]
                 for s in range(1, 5)]
        want.append([jid, "param", "lr", "", repr(0.1 * (i + 1))])
    got = [r for r in rows if r[1] != "artifact"]
    assert got == want, rows
    arts = [r for r in rows if r[1] == "artifact"]
    assert [(a[0], a[2].rsplit("/", 1)[1], a[4]) for a in arts] == [
        ("%d_%d" % (job, i), "model.%d" % i, str(100 + i)) for i in range(3)]

    table = sacct(env, "-j", "%d_1" % job)
    lines = table.splitlines()
    assert lines[0].split() == ["JobID", "Kind", "Name", "Step", "Value",
                                "Logged"], table
    assert len(lines) == 2 + 7 and all(
        ln.startswith("%d_1 " % job) for ln in lines[2:]), table

    doc = json.loads(sacct(env, "-j", str(job), "--json"))
    m = [x for x in doc["metrics"] if x["kind"] == "metric"]
    assert [(x["array_job_id"], x["array_task_id"], x["step"], x["value"])
            for x in m] == [(job, i, s, 10 * i + s / 10) for i in range(3)
                            for s in range(5)]
    assert {x["size"] for x in doc["metrics"]
            if x["kind"] == "artifact"} == {100, 101, 102}

    import urllib.request
    tok = token_of(env.c, U)
    req = urllib.request.Request(
        env.rest_url + "/sluice/v1/job/%d/metrics" % job,
        headers={"X-SLURM-USER-TOKEN": tok})
    with urllib.request.urlopen(req, timeout=30) as resp:
        rest = json.loads(resp.read())
    assert rest["metrics"] == doc["metrics"]
    assert rest["errors"] == []

    # another user sees none of it through REST when PrivateData hides
    # jobs; without PrivateData, what sacct shows it: the same rows
    r, outs = env.run('''
        out(len(cluster._backend.metrics(%d)))
    ''' % job, cluster=env.cluster_line(backend_type="rest",
                                        url=env.rest_url))
    assert ok(r, outs, 1) == [len(doc["metrics"])]


def test_sweep_stops_laggards(env):
    """16 trials (a 4x4 grid), the loss of each falling with its step and
    ordered by its parameters: successive halving cancels the laggards,
    the best trial completes and is reported."""
    need_acct(env)
    r, outs = env.run('''
        from sluice import SuccessiveHalving

        @task(time="5")
        def trial(a, b):
            import time
            for step in range(1, 9):
                sluice.log_metric("loss", (a * 4 + b + 1) / step, step)
                time.sleep(1.5)
            return a * 4 + b

        s = trial.sweep({"a": [0, 1, 2, 3], "b": [0, 1, 2, 3]},
                        metric="loss", mode="min",
                        early_stop=SuccessiveHalving(min_step=2,
                                                     reduction=2),
                        poll_interval=0.5, timeout=240)
        out(s.job.job_id)
        out([s.best.index, s.best.params, s.best.state, s.best.step,
             s.best.value])
        out([[t.index, t.state, t.stopped_at] for t in s.trials])
        out(s.report())
    ''', timeout=300)
    job, best, trials, report = ok(r, outs, 4)
    assert best[:3] == [0, {"a": 0, "b": 0}, "COMPLETED"], (best, report)
    assert best[3] == 8 and best[4] == pytest.approx(1 / 8), report
    stopped = [t for t in trials if t[2] is not None]
    assert len(stopped) >= 8, report
    # the worst half is never among the survivors
    assert all(t[1] == "CANCELLED" for t in trials if t[0] >= 8), report
    assert "<- best" in report.splitlines()[1], report
    # what the controller did: the stopped tasks CANCELLED by the user
    st = env.c.run(["sacct", "-X", "-n", "-P", "-o", "JobID,State", "-j",
                    str(job)], user=U)
    states = dict(ln.split("|") for ln in st.out.splitlines())
    for t in stopped:
        assert states["%d_%d" % (job, t[0])].startswith("CANCELLED"), st


BAD = [
    ('sluice.log_metric("x" * 201, 1.0)', "1 to 200 letters"),
    ('sluice.log_metric("a|b", 1.0)', "1 to 200 letters"),
    ('sluice.log_metric("loss", float("nan"))', "not a finite number"),
    ('sluice.log_metric("loss", 1.0, -1)', "step -1"),
    ('sluice.log_param("p", "v" * 1025)', "over the limit of 1024"),
    ('sluice.log_param("p", "a\\nb")', "control character"),
    ('sluice.log_artifact("/nonexistent/x")', "does not exist"),
]

# The same through scontrol (the controller's own checks: the SDK's
# are bypassed), each with the controller's message.
RAW = [
    (["metric=" + "n" * 201, "value=1"], "too long"),
    (["metric=a|b", "value=1"], "other than letters"),
    (["metric=loss", "value=nan"], "not a finite number"),
    (["metric=loss", "value=1", "step=-3"], "not a whole number"),
    (["param=p", "value=" + "v" * 1025], "too long"),
    (["param=p", "value=a\tb"], "control character"),
    (["artifact=relative/x"], "No such file"),
]


def test_bad_input_refused(env):
    """Each bad value raises TrackingError naming the cause (and scontrol
    track exits 1 with the controller's reason); only the good value of
    the job is recorded."""
    need_acct(env)
    cases = "\n".join("    (%r, %r)," % (code, why) for code, why in BAD)
    raw = json.dumps(RAW)
    r, outs = env.run('''
        @task(time="5")
        def bad():
            import json, os, subprocess
            import sluice
            got = []
            for code, why in [
        %s
            ]:
                try:
                    eval(code)
                    got.append([code, "accepted"])
                except (sluice.TrackingError, TypeError) as e:
                    got.append([code, str(e), why in str(e)])
            sc = os.path.join(os.environ["SLUICE_BIN_DIR"], "scontrol")
            for args, why in json.loads(%r):
                p = subprocess.run([sc, "track"] + args, capture_output=True,
                                   text=True)
                got.append([args[0][:20], p.returncode, p.stderr.strip(),
                            why in p.stderr])
            sluice.log_metric("good", 1.5, 7)
            return got

        j = bad()
        out(j.job_id)
        out(j.result(timeout=120))
        try:
            sluice.log_metric("loss", 1.0)
        except sluice.TrackingError as e:
            out(str(e))
    ''' % (cases, raw))
    job, got, outside = ok(r, outs, 3)
    for row in got:
        assert row[-1] is True, row
    for row in got[len(BAD):]:
        assert row[1] == 1 and row[2].startswith("scontrol: error: track:"), row
    assert "not inside a job" in outside
    rows = wait_rows(env, job, 1)
    time.sleep(2)
    rows = wait_rows(env, job, 1)
    assert rows == [[str(job), "metric", "good", "7", "1.5"]], rows


def test_other_user_and_ended_job_refused(env):
    """scontrol track with SLURM_JOB_ID of another user's running job is
    refused (Access/permission denied), with the id of an ended job
    "Job is not running"; nothing is recorded."""
    need_acct(env)
    r = env.c.run(["sbatch", "--parsable", "-t", "2", "--wrap",
                   "sleep 30"], user=U)
    assert r.rc == 0, r
    job = int(r.out.split(";")[0])
    env.c.wait_state(job, "RUNNING", timeout=30)
    r = env.c.run(["scontrol", "track", "metric=loss", "value=1"],
                  user=U2, env={"SLURM_JOB_ID": str(job)})
    assert r.rc == 1, r
    assert "Access/permission denied" in r.err and \
        "is not yours" in r.err, r
    env.c.run(["scancel", str(job)], user=U)
    env.c.wait_state(job, "CANCELLED", timeout=30)
    r = env.c.run(["scontrol", "track", "metric=loss", "value=1"],
                  user=U, env={"SLURM_JOB_ID": str(job)})
    assert r.rc == 1 and "Job is not running" in r.err, r
    r = env.c.run(["scontrol", "track", "metric=loss", "value=1"], user=U)
    assert r.rc == 1 and "not inside a job" in r.err, r
    time.sleep(2)
    assert sacct(env, "-j", str(job), "-n", "-P") == ""
