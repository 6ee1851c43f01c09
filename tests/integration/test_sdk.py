"""The Python SDK (contrib/python, package sluice) against a real cluster.

The SDK runs as the unprivileged test user (jobs run as their submitter
and must read the per-job directory), from a copy of the package the
user can read, with Debian's /usr/bin/python3.  The examples of the SDK
concepts page run unchanged apart from the Cluster line: independent
tasks, @task resource examples, .map() over 10 items as one array job,
the page's three .after() lines (it does not define the stage functions:
they are defined here), the ntasks layout seen through
SLURM_PROCID/LOCALID/NODEID (the distributed example's decorator and
environment reads; its torch calls are left out).  The page has no
@workflow code: the DAG (different resources per stage, a fan-out .map()
and fan-in) is ours.  Results come back, remote exceptions are re-raised
with their traceback.  Then what users get wrong: an unknown keyword, an
unpicklable argument, pickles over the limit, a module the compute side
cannot import, an interpreter missing on the node, a controller that is
down, expired and forged tokens (rest backend), each a clear Python
exception with nothing left queued or staged.  And: the rest and ssh
backends (an sshd the test starts on 127.0.0.1 with keys it makes),
pip install into a venv, attaching to a job from another process, and
result() across a controller restart.

One cluster for the module: 2 nodes of 32 CPUs with 4 fake GPUs each
(config_overrides), a "gpu" partition beside "debug", slurmdbd (when
MariaDB is installed) for .usage(), JWT and slurmrestd for the rest
backend.
"""

import json
import os
import re
import shutil
import textwrap
import time
import uuid

import pytest

import cluster as cl
import mariadb
from conftest import _ACTIVE, _stop

U = "sluice_u1"
PY = "/usr/bin/python3"
SDK_SRC = os.path.join(cl.REPO, "contrib", "python")
NODE = "Sockets=1 CoresPerSocket=32 ThreadsPerCore=1 Gres=gpu:4"
EXTRA = "\n".join(["GresTypes=gpu", "SlurmdParameters=config_overrides",
                   "AuthAltTypes=auth/jwt",
                   "JobAcctGatherType=jobacct_gather/linux",
                   "JobAcctGatherFrequency=1",
                   "AcctGatherProfileType=acct_gather_profile/slurmdbd"])


class Env:
    """The cluster, and the SDK run as U against it."""

    def __init__(self, c, acct):
        self.c, self.acct = c, acct
        self.sdk = os.path.join(c.dir, "sdk")
        shutil.copytree(os.path.join(SDK_SRC, "sluice"),
                        os.path.join(self.sdk, "sluice"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        for root, dirs, files in os.walk(self.sdk):
            os.chmod(root, 0o755)
            for f in files:
                os.chmod(os.path.join(root, f), 0o644)
        self.home = c.workdir(U)
        self.jobs = c.mkdir_for(U, os.path.join(self.home, "sluice-jobs"))
        self.bin = os.path.dirname(c.bin("sbatch"))
        self.rest = None

    def cluster_line(self, **kw):
        args = {"backend_type": "local", "bin_dir": self.bin,
                "workdir": self.jobs}
        args.update(kw)
        return "Cluster(%s)" % ", ".join("%s=%r" % a for a in args.items())

    def run(self, body, timeout=150, cluster=None, wrap=True, env=None,
            python=PY, sdk=True):
        """Run body (the example, dedented) as U inside `with <Cluster
        line>:`; the script prints OUT <json> lines; returns
        (Result, [decoded OUT values])."""
        body = textwrap.dedent(body).strip("\n")
        if wrap:
            body = "with %s as cluster:\n%s" % (
                cluster or self.cluster_line(), textwrap.indent(body, "    "))
        text = "\n".join([
            "import json, os, sys",
            "sys.path.insert(0, %r)" % self.sdk if sdk else "",
            "from sluice import task, workflow, Cluster",
            "import sluice",
            "def out(v):",
            "    print('OUT ' + json.dumps(v), flush=True)",
            "",
            body, ""])
        path = os.path.join(self.home, "t_%s.py" % uuid.uuid4().hex[:8])
        self.c.write_file(U, path, text)
        r = self.c.run([python, path], user=U, timeout=timeout, cwd=self.home,
                       env=env)
        outs = [json.loads(ln[4:]) for ln in r.out.splitlines()
                if ln.startswith("OUT ")]
        return r, outs

    def queue(self):
        """The ids of every job the controller knows (squeue -t all)."""
        r = self.c.run(["squeue", "-h", "-t", "all", "-o", "%i"])
        assert r.rc == 0, r
        return set(r.out.split())


@pytest.fixture(scope="module")
def env(users):
    acct = None
    kw = dict(tag="sdk", nodes=2, cpus=32, real_memory=65536,
              node_extra=NODE)
    if not mariadb.missing_tools():
        acct = mariadb.AcctEnv(**kw)
        c = acct.c
        c.extra_conf += "\n" + EXTRA
    else:
        c = cl.Cluster(extra_conf=EXTRA, **kw)
    _ACTIVE.append(c)
    base = c.conf_text
    c.conf_text = lambda *a, **k: (base(*a, **k) +
                                   "PartitionName=gpu Nodes=ALL "
                                   "MaxTime=INFINITE State=UP\n")
    dev = os.path.join(c.dir, "dev")
    os.makedirs(dev, exist_ok=True)
    for i in range(4):
        open(os.path.join(dev, "nvidia%d" % i), "w").close()
    c.write_file(None, os.path.join(c.dir, "etc", "gres.conf"),
                 "Name=gpu File=%s/nvidia[0-3]\n" % dev)
    key = os.path.join(c.dir, "state", "jwt_hs256.key")
    with open(key, "wb") as f:
        f.write(os.urandom(32))
    os.chmod(key, 0o600)
    if acct:        # slurmdbd takes the same tokens (/slurmdb/ over REST)
        acct.dbd_extra = ("AuthAltTypes=auth/jwt\n"
                          "AuthAltParameters=jwt_key=%s" % key)
    try:
        if acct:
            acct.start()
            acct.start_cluster()
        else:
            c.start()
        port = cl.free_ports(1)[0]
        c.start_restd("nobody", ["127.0.0.1:%d" % port],
                      args=["-a", "rest_auth/jwt"])
    except BaseException:
        if acct:
            acct.stop()
        _stop(c, keep=True)
        raise
    e = Env(c, acct)
    e.rest_url = "http://127.0.0.1:%d" % port
    e.jwt_key = key
    yield e
    if acct:
        acct.stop()
    _stop(c)


def ok(r, outs, n=None):
    assert r.rc == 0, r
    if n is not None:
        assert len(outs) == n, r
    return outs


# ---- the concepts page's examples -------------------------------------------

def test_independent_tasks(env):
    r, outs = env.run('''
        @task(
            time="01:00:00",      # 1 hour limit
            mem="32G",            # 32 GB memory
            cpus_per_task=8,      # 8 CPU cores
            gpus=1                # 1 GPU
        )
        def train_model(dataset: str) -> dict:
            # Runs with allocated resources
            return {"dataset": dataset, "cpus": os.environ["SLURM_CPUS_PER_TASK"],
                    "gpus": os.environ.get("CUDA_VISIBLE_DEVICES")}

        # SDK: Submit independent jobs
        job1 = train_model(dataset="cifar10")
        job2 = train_model(dataset="mnist")
        job3 = train_model(dataset="imagenet")
        # All three jobs can run in parallel on different nodes
        out([job1.job_id, job2.job_id, job3.job_id])
        out([j.result(timeout=90) for j in (job1, job2, job3)])
        out([j.state() for j in (job1, job2, job3)])
        out(job1.stdout() + "|" + job1.stderr())
    ''')
    ids, results, states, _ = ok(r, outs, 4)
    assert len(set(ids)) == 3 and all(isinstance(i, int) for i in ids)
    assert [x["dataset"] for x in results] == ["cifar10", "mnist", "imagenet"]
    assert all(x["cpus"] == "8" for x in results), results
    assert states == ["COMPLETED"] * 3
    rec = env.c.show_job(ids[0])
    assert rec.get("TimeLimit") == "01:00:00", rec
    assert rec.get("TresPerJob") == "gres/gpu:1", rec
    assert "gres/gpu=1" in rec.get("TRES", ""), rec
    assert rec.get("MinMemoryNode") == "32G", rec


def test_process_data_and_results(env):
    r, outs = env.run('''
        # SDK @task creates a SLURM job
        @task(time="00:10:00", mem="4G", cpus_per_task=2)
        def process_data(input_file: str) -> dict:
            # This function runs as a SLURM job
            # The job has 1 job step with 1 task using 2 CPUs
            return {"result": "processed"}

        job = process_data("in.csv")
        out(job.result(timeout=90))
    ''', cluster="Cluster(workdir=%r)" % env.jobs,
        env={"PATH": env.bin + ":/usr/bin:/bin"})
    # (the commands found through PATH, as after `./local-cluster env`)
    assert ok(r, outs, 1) == [{"result": "processed"}]


def test_layout_ntasks_cpus_per_task(env):
    """nodes=2 x ntasks_per_node=4: 8 ranks, each sees its PROCID, LOCALID
    and NODEID; .results() gives every rank's return value."""
    r, outs = env.run('''
        @task(
            nodes=2,
            ntasks_per_node=4,
            gpus_per_node=4,
            cpus_per_task=8,
            time="02:00:00"
        )
        def train_distributed(config: dict) -> dict:
            # SLURM sets these automatically
            rank = int(os.environ["SLURM_PROCID"])        # 0-7
            local_rank = int(os.environ["SLURM_LOCALID"]) # 0-3
            world_size = int(os.environ["SLURM_NTASKS"])  # 8
            return {"rank": rank, "local_rank": local_rank,
                    "node": int(os.environ["SLURM_NODEID"]),
                    "world_size": world_size,
                    "cpus": int(os.environ["SLURM_CPUS_PER_TASK"])}

        job = train_distributed({"lr": 0.1})
        out(job.result(timeout=120))
        out(job.results())
    ''')
    first, every = ok(r, outs, 2)
    assert first["rank"] == 0 and first["world_size"] == 8
    assert sorted(x["rank"] for x in every) == list(range(8))
    assert [x["rank"] for x in every] == list(range(8))
    for x in every:
        assert x["cpus"] == 8
        assert x["node"] == x["rank"] // 4, every
        assert x["local_rank"] == x["rank"] % 4, every


def test_map_is_one_array_job(env):
    r, outs = env.run('''
        @task(time="00:05:00", mem="2G")
        def process_chunk(chunk_id: int, data: str) -> dict:
            import time; time.sleep(1)
            return {"chunk": chunk_id, "processed": True}

        # Creates a Slurm array job with 10 tasks
        chunks = [{"chunk_id": i, "data": f"data_{i}"} for i in range(10)]
        array_job = process_chunk.map(chunks)
        out(array_job.job_id)
        out(len(array_job))
        sys.stdout.flush()
        out(array_job.results(timeout=120))
    ''')
    jid, n, results = ok(r, outs, 3)
    assert n == 10
    assert results == [{"chunk": i, "processed": True} for i in range(10)]
    r = env.c.run(["sacct", "-X", "-n", "-P", "-o", "JobID", "-j", str(jid)]
                  if env.acct else
                  ["squeue", "-h", "-t", "all", "-j", str(jid), "-o", "%i"])
    ids = set(x.split("_")[0] for x in r.out.split())
    assert ids == {str(jid)}, r


def test_map_throttle_one_job_id_in_squeue(env):
    """throttle=2: squeue shows one array job J_[..%2]; per-item failures
    come back in place without losing the other results."""
    r, outs = env.run('''
        @task(time="5")
        def inv(x):
            import time; time.sleep(2)
            return 10 // x

        a = inv.map([5, 2, 0, 1, 10], throttle=2)
        out(a.job_id)
        os.system("%s -h -j %d -o '%%i'" % (os.path.join("@BIN@", "squeue"),
                                             a.job_id))
        sys.stdout.flush()
        try:
            a.results(timeout=120)
        except sluice.ArrayErrors as e:
            out([sorted(e.errors), [x if not isinstance(x, Exception)
                                    else type(x).__name__ for x in e.results]])
        vals = a.results(return_exceptions=True)
        out(str(vals[2].__cause__)[:400])
        out(a.states())
    '''.replace("@BIN@", env.bin))
    jid, errs, tb, states = ok(r, outs, 4)
    queue_lines = [ln for ln in r.out.splitlines() if ln.startswith(str(jid))]
    assert queue_lines and all(
        re.fullmatch(r"%d_(\[[\d,\-]+%%2\]|\d+)" % jid, ln)
        for ln in queue_lines), r.out
    assert errs == [[2], [2, 5, "ZeroDivisionError", 10, 1]]
    assert "ZeroDivisionError" in tb and "10 // x" in tb, tb
    assert states[2] == "FAILED" and states.count("COMPLETED") == 4


def test_three_stage_after_chain(env):
    r, outs = env.run('''
        @task(time="00:05:00", cpus_per_task=1)
        def preprocess(data):
            return [x * 2 for x in data]

        @task(time="00:05:00", cpus_per_task=4, mem="1G")
        def train_model(config):
            return {"config": config, "cpus": os.environ["SLURM_CPUS_PER_TASK"]}

        @task(time="00:05:00", cpus_per_task=2)
        def evaluate(metrics):
            return {"metrics": metrics, "ok": True}

        data = [1, 2, 3]
        model_config = {"lr": 0.01}
        metrics = ["acc"]
        prep_job = preprocess(data)
        train_job = train_model.after(prep_job)(model_config)
        eval_job = evaluate.after(train_job)(metrics)
        out([prep_job.job_id, train_job.job_id, eval_job.job_id])
        out(eval_job.result(timeout=120))
        out([prep_job.result(), train_job.result()])
    ''')
    ids, ev, (pre, tr) = ok(r, outs, 3)
    assert ev == {"metrics": ["acc"], "ok": True}
    assert pre == [2, 4, 6] and tr["cpus"] == "4"
    deps = env.c.show_job(ids[2]).get("Dependency", "")
    assert deps in ("(null)", "") or "afterok:%d" % ids[1] in deps


def test_after_kinds_and_failure(env):
    """afternotok runs when its job failed; an afterok job of a failed job
    never runs and says so; the failed job re-raises its exception."""
    r, outs = env.run('''
        @task(time="5")
        def boom(x):
            raise ValueError("bad input %r" % (x,))

        @task(time="5")
        def cleanup():
            return "cleaned"

        @task(time="5")
        def never():
            return "ran"

        b = boom(7)
        c = cleanup.after(b, kind="afternotok")()
        n = never.after(b)()
        s = never.after(kind="singleton")()
        out(c.result(timeout=120))
        out(s.result(timeout=120))
        try:
            b.result()
        except ValueError as e:
            out(["ValueError", str(e), "boom" in str(e.__cause__),
                 "raise ValueError" in e.remote_traceback])
        try:
            n.result(timeout=60)
        except sluice.DependencyNeverSatisfied as e:
            out(["never", str(e)])
        try:
            never.after(b, kind="afterwards")
        except ValueError as e:
            out(str(e))
    ''')
    res = ok(r, outs, 5)
    assert res[0] == "cleaned" and res[1] == "ran"
    assert res[2] == ["ValueError", "bad input 7", True, True]
    assert res[3][0] == "never" and "never ran" in res[3][1]
    assert "afterok" in res[4] and "aftercorr" in res[4]


def test_workflow_dag_with_resources(env):
    r, outs = env.run('''
        @task(time="00:05:00", cpus_per_task=1, mem="500M")
        def load(part):
            return list(range(part * 3, part * 3 + 3))

        @task(time="00:10:00", cpus_per_task=4, mem="2G")
        def train(a, b):
            return {"n": len(a) + len(b),
                    "cpus": os.environ["SLURM_CPUS_PER_TASK"]}

        @task(time="00:05:00", ntasks=2, cpus_per_task=2)
        def report(model):
            return {"model": model, "ntasks": os.environ["SLURM_NTASKS"]}

        @workflow
        def pipeline(parts):
            a, b = (load(p) for p in parts)
            m = train(a, b)
            return report(m)

        res = pipeline([0, 1])
        out(res)
        out(pipeline.last_run.text())
        out(pipeline.last_run.dot())
        out([j.job_id for j in pipeline.last_run.jobs])

        @task(time="2")
        def total(parts):
            return sum(sum(p) for p in parts)

        @workflow
        def fan(n):
            return total(load.map(range(n)))

        out(fan(3))
        out(fan.last_run.text(states=False))
    ''')
    res, text, dot, ids, fan, fan_text = ok(r, outs, 6)
    assert fan == sum(range(9))
    assert re.search(r"\n  (\d+) load\[3\] .*\n  \d+ total \[time=2\] "
                     r"<- afterok:\1\n$", fan_text), fan_text
    assert res == {"model": {"n": 6, "cpus": "4"}, "ntasks": "2"}
    assert len(ids) == 4
    assert "workflow pipeline: 4 jobs" in text
    assert re.search(r"%d train \[cpus_per_task=4, mem=2G, time=00:10:00\] "
                     r"<- afterok:%d, afterok:%d  COMPLETED" % (
                         ids[2], ids[0], ids[1]), text), text
    assert dot.startswith('digraph "pipeline" {'), dot
    assert '"%d" -> "%d" [label="afterok"];' % (ids[2], ids[3]) in dot
    assert env.c.show_job(ids[2]).get("NumCPUs") == "4"


def test_workflow_failure_raises_remote_exception(env):
    r, outs = env.run('''
        @task(time="5")
        def step(x):
            if x == 2:
                raise KeyError("missing shard %d" % x)
            return x

        @task(time="5")
        def combine(*xs):
            return sum(xs)

        @workflow
        def wf():
            return combine(*[step(i) for i in range(4)])

        try:
            wf()
        except KeyError as e:
            out(["KeyError", str(e)])
        run = wf.last_run
        out([j.state() for j in run.jobs])
    ''')
    err, states = ok(r, outs, 2)
    assert err == ["KeyError", "'missing shard 2'"]
    assert states[:4] == ["COMPLETED", "COMPLETED", "FAILED", "COMPLETED"]
    assert states[4] == "CANCELLED" or states[4] == "PENDING", states


def test_cluster_context_defaults_and_escape_hatch(env):
    """The Cluster's partition is the default; a task keyword wins;
    sbatch_options passes any other option; environment reaches the
    task."""
    r, outs = env.run('''
        @task(time="00:10:00", mem="4G", partition="gpu")
        def train(lr: float) -> dict:
            return {"accuracy": 0.95, "partition": os.environ["SLURM_JOB_PARTITION"]}

        @task(time="2", environment={"MY_FLAG": "a b'c"},
              sbatch_options={"comment": "via-escape", "nice": 5})
        def envtask():
            return os.environ["MY_FLAG"]

        job = train(lr=0.001)
        e = envtask()
        out(job.result(timeout=90))
        out(e.result(timeout=90))
        out(e.job_id)
    ''', cluster=env.cluster_line(partition="debug"))
    res, flag, jid = ok(r, outs, 3)
    assert res == {"accuracy": 0.95, "partition": "gpu"}
    assert flag == "a b'c"
    rec = env.c.show_job(jid)
    assert rec.get("Partition") == "debug" and rec.get("Comment") == \
        "via-escape" and rec.get("Nice") == "5", rec


def test_attach_from_another_process(env):
    """A process submits and exits; another attaches to the job ids (local
    and rest backends) and gets the results."""
    r, outs = env.run('''
        @task(time="5")
        def sq(x):
            import time; time.sleep(2)
            return x * x

        out([sq(7).job_id, sq.map(range(3)).job_id])
    ''')
    one, arr = ok(r, outs, 1)[0]
    for line in (env.cluster_line(),
                 env.cluster_line(backend_type="rest", url=env.rest_url)):
        r, outs = env.run('''
            out(cluster.attach(%d).result(timeout=60))
            a = cluster.attach(%d)
            out([type(a).__name__, a.results(timeout=60)])
            try:
                cluster.attach(999999)
            except sluice.SluiceError as e:
                out(str(e))
        ''' % (one, arr), cluster=line)
        v, (kind, vals), err = ok(r, outs, 3)
        assert v == 49 and kind == "ArrayJob" and vals == [0, 1, 4], line
        assert err.startswith("job 999999: the controller does not know it"), err


def test_usage_from_accounting(env):
    if not env.acct:
        pytest.skip("no MariaDB: no accounting")
    r, outs = env.run('''
        @task(time="2", cpus_per_task=2)
        def spin():
            import time
            t = time.time()
            while time.time() - t < 1.5:
                pass
            return 1

        j = spin()
        j.result(timeout=60)
        import time
        for _ in range(50):
            u = j.usage()
            if u and u[0]["State"] == "COMPLETED":
                break
            time.sleep(0.3)
        out(u)
    ''')
    (rows,) = ok(r, outs, 1)
    assert rows[0]["State"] == "COMPLETED" and rows[0]["AllocCPUS"] == "2"
    assert rows[0]["Elapsed"] >= "00:00:01", rows


def test_cancel_and_timeout(env):
    r, outs = env.run('''
        @task(time="5")
        def sleeper():
            import time; time.sleep(300)

        j = sleeper()
        try:
            j.wait(timeout=2)
        except sluice.JobTimeout as e:
            out(["timeout", str(e)])
        j.cancel()
        out(j.wait(timeout=60))
        try:
            j.result()
        except sluice.JobCancelled as e:
            out(["cancelled", str(e).splitlines()[0]])
    ''')
    t, st, c = ok(r, outs, 3)
    assert t[0] == "timeout" and st == "CANCELLED"
    assert c[1].startswith("job %s was cancelled" % c[1].split()[1])


def test_pip_installed_package(env):
    """`pip install ./contrib/python` into a venv (no package index: the
    in-tree build backend needs nothing); a task submitted from the venv's
    Python runs with that Python and the installed package."""
    venv = os.path.join(env.c.dir, "venv")
    r = env.c.run([PY, "-m", "venv", "--system-site-packages", venv],
                  timeout=120)
    assert r.rc == 0, r
    r = env.c.run([os.path.join(venv, "bin", "pip"), "install", "-q",
                   "--no-index", SDK_SRC], timeout=180, cwd=env.c.dir)
    assert r.rc == 0, r
    r = env.c.run([os.path.join(venv, "bin", "sluice"), "version"])
    assert r.rc == 0 and r.out.startswith("sluice "), r
    r, outs = env.run('''
        @task(time="5")
        def where():
            import sluice
            return [sys.executable, sluice.__file__]

        out(where().result(timeout=60))
    ''', python=os.path.join(venv, "bin", "python3"), sdk=False)
    ((exe, mod),) = ok(r, outs, 1)
    assert exe == os.path.join(venv, "bin", "python3")
    assert mod.startswith(os.path.join(venv, "lib")), mod


# ---- bad input: a clear exception, nothing queued or staged -----------------

def _nothing_left(env, before_dirs):
    assert sorted(os.listdir(env.jobs)) == before_dirs


def test_unknown_keyword_is_type_error(env):
    before = sorted(os.listdir(env.jobs))
    q = env.queue()
    r, outs = env.run('''
        try:
            @task(time="5", memory="4G")
            def f():
                return 1
        except TypeError as e:
            out(str(e))

        @task(time="5")
        def g():
            return 1
        try:
            g.options(gpu=1)()
        except TypeError as e:
            out(str(e))
        try:
            Cluster(backend_type="local", defaults={"cpus": 2})
        except TypeError as e:
            out(str(e))
        try:
            task(time="forever")
        except ValueError as e:
            out(str(e))
    ''')
    a, b, c_, d = ok(r, outs, 4)
    assert a.startswith("task() got an unexpected keyword argument 'memory'")
    assert "g.options() got an unexpected keyword argument 'gpu'" in b
    assert "unexpected keyword argument 'cpus'" in c_
    assert "time='forever'" in d
    assert env.queue() == q, "a job was queued"
    _nothing_left(env, before)


def test_unpicklable_argument_and_too_large(env):
    before = sorted(os.listdir(env.jobs))
    q = env.queue()
    r, outs = env.run('''
        import threading

        @task(time="5")
        def f(a, lock=None):
            return 1

        try:
            f(1, lock=threading.Lock())
        except sluice.SerializationError as e:
            out(str(e))
        try:
            f.options(max_pickle_size=1000)(b"x" * 5000)
        except sluice.PayloadTooLarge as e:
            out(str(e))
    ''')
    a, b = ok(r, outs, 2)
    assert a.startswith("argument 'lock' (lock) of f() cannot be pickled: "
                        "TypeError: cannot pickle '_thread.lock' object"), a
    assert re.match(r"the arguments of f\(\) is 50\d\d bytes pickled, over "
                    r"the limit of 1000 bytes", b), b
    assert env.queue() == q, "a job was queued"
    _nothing_left(env, before)


def test_result_over_limit_and_unpicklable_result(env):
    r, outs = env.run('''
        @task(time="5", max_pickle_size=10000)
        def big():
            return b"y" * 20000

        @task(time="5")
        def gen():
            return (i for i in range(3))

        j, k = big(), gen()
        try:
            j.result(timeout=60)
        except sluice.PayloadTooLarge as e:
            out(str(e))
        try:
            k.result(timeout=60)
        except sluice.SerializationError as e:
            out(str(e))
        out([j.state(), k.state()])
    ''')
    a, b, states = ok(r, outs, 3)
    assert re.match(r"the result of job \d+ is 200\d\d bytes pickled, over "
                    r"the limit of 10000 bytes", a), a
    assert "the result cannot be pickled" in b and "generator" in b, b
    assert states == ["FAILED", "FAILED"]


def test_compute_side_cannot_import(env):
    """A task from a module the nodes cannot import (it was removed
    before the job started): RemoteImportError naming the module."""
    mod = os.path.join(env.home, "vanishing")
    env.c.mkdir_for(U, mod)
    env.c.write_file(U, os.path.join(mod, "vanish_mod.py"),
                     "from sluice import task\n"
                     "@task(time='5', hold=True)\n"
                     "def hello():\n    return 'hi'\n")
    r, outs = env.run('''
        import shutil, subprocess
        sys.path.insert(0, "@MOD@")
        import vanish_mod
        j = vanish_mod.hello()
        shutil.rmtree("@MOD@")
        subprocess.run(["@BIN@/scontrol", "release", str(j.job_id)], check=True)
        try:
            j.result(timeout=60)
        except sluice.RemoteImportError as e:
            out(str(e))
    '''.replace("@MOD@", mod).replace("@BIN@", env.bin))
    (msg,) = ok(r, outs, 1)
    assert re.match(r"job \d+ on \S+: cannot load vanish_mod.hello with "
                    r"/usr/bin/python3 \(sys.path .*\): ModuleNotFoundError: "
                    r"No module named 'vanish_mod'", msg), msg


def test_interpreter_missing_on_node(env):
    """Cluster(python=...) naming an interpreter the node lacks: the job
    fails at once and result() says which interpreter on which node."""
    r, outs = env.run('''
        @task(time="5")
        def f():
            return 1
        try:
            f().result(timeout=60)
        except sluice.JobFailed as e:
            out([e.state, str(e)])
    ''', cluster=env.cluster_line(python="/opt/nowhere/python3"))
    ((state, msg),) = ok(r, outs, 1)
    r2, outs2 = env.run('''
        @task(time="5")
        def f():
            return 1
        try:
            f().result(timeout=60)
        except sluice.JobFailed as e:
            out([e.state, e.exit_code, str(e).splitlines()[0]])
    ''', cluster=env.cluster_line(backend_type="rest", url=env.rest_url,
                                     python="/opt/nowhere/python3"))
    ((st2, code2, first2),) = ok(r2, outs2, 1)
    assert (st2, code2) == ("FAILED", 127), first2
    assert first2.endswith("ended FAILED (exit code 127) without a result")
    assert state == "FAILED", msg
    assert re.search(r"^job \d+ ended FAILED \(exit code 127\) without a "
                     r"result\n.*\nsluice: "
                     r"the Python interpreter /opt/nowhere/python3 is missing "
                     r"on \S+$", msg, re.S), msg


def test_cluster_down(env):
    """A Cluster whose controller does not answer: ClusterUnreachable
    from the submission, and no job directory left behind."""
    conf = os.path.join(env.home, "down.conf")
    port = cl.free_ports(1)[0]
    text = re.sub(r"(?m)^SlurmctldPort=\d+", "SlurmctldPort=%d" % port,
                  open(env.c.conf).read())
    env.c.write_file(U, conf, text)
    before = sorted(os.listdir(env.jobs))
    t0 = time.time()
    r, outs = env.run('''
        @task(time="5")
        def f():
            return 1
        try:
            f()
        except sluice.ClusterUnreachable as e:
            out(str(e))
    ''', cluster=env.cluster_line(env={"SLURM_CONF": conf},
                                     command_timeout=40))
    (msg,) = ok(r, outs, 1)
    assert msg.startswith("sbatch failed (exit 1): sbatch: error: "), msg
    assert "Unable to contact slurm controller" in msg, msg
    assert time.time() - t0 < 60
    _nothing_left(env, before)


# ---- the rest backend -------------------------------------------------------

def _make_token(key_path, claims):
    import base64
    import hashlib
    import hmac

    def b64(d):
        return base64.urlsafe_b64encode(d).rstrip(b"=").decode()
    with open(key_path, "rb") as f:
        secret = f.read()
    signing = "%s.%s" % (b64(b'{"alg":"HS256","typ":"JWT"}'),
                         b64(json.dumps(claims).encode()))
    return signing + "." + b64(hmac.new(secret, signing.encode(),
                                        hashlib.sha256).digest())


def test_rest_backend_examples(env):
    """The same examples through slurmrestd: a task, a map and an .after()
    chain; the token comes from `scontrol token` (bin_dir)."""
    r, outs = env.run('''
        @task(time="00:05:00", mem="2G", cpus_per_task=2)
        def process_chunk(chunk_id: int, data: str) -> dict:
            return {"chunk": chunk_id, "cpus": os.environ["SLURM_CPUS_PER_TASK"]}

        @task(time="00:05:00")
        def total(parts):
            return sum(p["chunk"] for p in parts)

        @task(time="5")
        def fail():
            raise RuntimeError("rest side failure")

        chunks = [{"chunk_id": i, "data": f"data_{i}"} for i in range(4)]
        array_job = process_chunk.map(chunks)
        out(array_job.job_id)
        res = array_job.results(timeout=120)
        out(res)
        t = total.after(array_job)(res)
        out(t.result(timeout=60))
        f = fail()
        try:
            f.result(timeout=60)
        except RuntimeError as e:
            out([str(e), "rest side failure" in e.remote_traceback])
        s = process_chunk(chunk_id=9, data="x")
        s.cancel()
        out(s.wait(timeout=60))

        @task(time="5", nodes=2, ntasks=4)
        def ranks():
            return os.environ["SLURM_PROCID"] + "/" + os.environ["SLURM_NODEID"]
        out(ranks().results(timeout=60))
    ''', cluster=env.cluster_line(backend_type="rest", url=env.rest_url))
    jid, res, tot, err, st, ranks = ok(r, outs, 6)
    assert [x.split("/")[0] for x in ranks] == ["0", "1", "2", "3"], ranks
    assert {x.split("/")[1] for x in ranks} == {"0", "1"}, ranks
    assert res == [{"chunk": i, "cpus": "2"} for i in range(4)]
    assert tot == 6
    assert err == ["rest side failure", True]
    assert st == "CANCELLED"
    assert env.c.show_job(jid).get("UserId", "").startswith(U)


def test_rest_usage(env):
    """.usage() over REST reads /slurmdb/v0.0.43/job/{id} (served once the
    slurmdb endpoints are in slurmrestd; skipped where they answer 404)."""
    if not env.acct:
        pytest.skip("no MariaDB: no accounting")
    r, outs = env.run('''
        @task(time="2")
        def f():
            return 1

        j = f()
        j.result(timeout=60)
        import time
        for _ in range(50):
            try:
                u = j.usage()
            except sluice.SluiceError as e:
                out(["error", str(e)])
                break
            if u and "COMPLETED" in json.dumps(u):
                out(["ok", u[0]["job_id"], j.job_id])
                break
            time.sleep(0.3)
    ''', cluster=env.cluster_line(backend_type="rest", url=env.rest_url))
    ((kind, *rest),) = ok(r, outs, 1)
    if kind == "error" and "HTTP 404" in rest[0]:
        pytest.skip("slurmrestd does not serve /slurmdb/ here: " + rest[0])
    assert kind == "ok" and rest[0] == rest[1], rest


def test_rest_expired_and_bad_token(env):
    now = int(time.time())
    expired = _make_token(env.jwt_key, {"iat": now - 700, "exp": now - 100,
                                        "sun": U})
    forged = _make_token(os.path.join(env.c.dir, "etc", "slurm.conf"),
                         {"iat": now, "exp": now + 600, "sun": U})
    before = sorted(os.listdir(env.jobs))
    q = env.queue()
    body = '''
        @task(time="5")
        def f():
            return 1
        try:
            f()
        except sluice.AuthError as e:
            out([type(e).__name__, str(e)])
    '''
    r, outs = env.run(body, cluster=env.cluster_line(
        backend_type="rest", url=env.rest_url, token=expired))
    ((kind, msg),) = ok(r, outs, 1)
    assert kind == "TokenExpired" and msg.startswith("the JWT expired at ")
    r, outs = env.run(body, cluster=env.cluster_line(
        backend_type="rest", url=env.rest_url, token=forged))
    ((kind, msg),) = ok(r, outs, 1)
    assert kind == "AuthError" and "refused the token (HTTP 401)" in msg, msg
    down = "http://127.0.0.1:%d" % cl.free_ports(1)[0]
    r, outs = env.run(body.replace("sluice.AuthError",
                                   "sluice.ClusterUnreachable"),
                      cluster=env.cluster_line(backend_type="rest", url=down,
                                               token=forged))
    ((kind, msg),) = ok(r, outs, 1)
    assert kind == "ClusterUnreachable" and "Connection refused" in msg, msg
    assert env.queue() == q, "a job was queued"
    _nothing_left(env, before)


# ---- the ssh backend --------------------------------------------------------

SSHD = "/usr/sbin/sshd"


@pytest.fixture(scope="module")
def sshd(env):
    """An sshd on 127.0.0.1 with its own host key, letting U in with a key
    made here; yields (port, U's private key, known_hosts).  UsePAM yes:
    the test users have no password (a locked account), which sshd
    without PAM refuses even for key logins."""
    if not os.access(SSHD, os.X_OK):
        pytest.skip("openssh-server not installed")
    c = env.c
    d = os.path.join(c.dir, "sshd")
    os.makedirs(d, exist_ok=True)
    os.makedirs("/run/sshd", exist_ok=True)      # privilege separation dir
    hostkey = os.path.join(d, "host_ed25519")
    cl.subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f",
                       hostkey], check=True)
    ukey = os.path.join(env.home, "id_sdk")
    cl.subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f",
                       ukey], check=True)
    uid, gid, _ = cl.user_ids(U)
    os.chown(ukey, uid, gid)
    os.chown(ukey + ".pub", uid, gid)
    auth = os.path.join(d, "authorized_keys")
    shutil.copy(ukey + ".pub", auth)
    os.chmod(auth, 0o644)
    port = cl.free_ports(1)[0]
    cfg = c.write_file(None, os.path.join(d, "sshd_config"), "\n".join([
        "Port %d" % port, "ListenAddress 127.0.0.1",
        "HostKey " + hostkey, "PidFile " + os.path.join(d, "sshd.pid"),
        "AuthorizedKeysFile " + auth, "StrictModes no", "UsePAM yes",
        "PasswordAuthentication no", "KbdInteractiveAuthentication no",
        "AllowUsers " + U, "LogLevel VERBOSE", ""]))
    with open(hostkey + ".pub") as f:
        hk = f.read().split()
    known = c.write_file(U, os.path.join(env.home, "known_hosts_sdk"),
                         "[127.0.0.1]:%d %s %s\n" % (port, hk[0], hk[1]))
    d_ = c._spawn("sshd", [SSHD, "-D", "-e", "-f", cfg])
    try:
        def up():
            r = c.run(["ssh", "-o", "BatchMode=yes", "-o",
                       "UserKnownHostsFile=" + known, "-i", ukey, "-p",
                       str(port), U + "@127.0.0.1", "true"], user=U,
                       timeout=10)
            return r.rc == 0
        cl.wait_for(up, timeout=20, what="sshd on 127.0.0.1:%d" % port)
        yield port, ukey, known
    finally:
        c.stop_daemon(d_)


def test_ssh_backend(env, sshd):
    """The concepts page's ssh example (Cluster(backend_type="ssh", ...))
    against the test's sshd: code staged through shared_dir, a task, a
    .map() and a remote exception; sshd down -> ClusterUnreachable."""
    port, key, known = sshd
    shared = env.c.mkdir_for(U, os.path.join(env.home, "ssh-shared"))
    line = env.cluster_line(
        backend_type="ssh", hostname="127.0.0.1", port=port,
        identity_file=key, ssh_options=["UserKnownHostsFile=" + known],
        shared_dir=shared, env={"SLURM_CONF": env.c.conf}, workdir=None)
    # python: the default, "python3" from the login node's PATH
    r, outs = env.run('''
        @task(time="00:10:00", mem="4G", partition="gpu")
        def train(lr: float) -> dict:
            return {"accuracy": 0.95, "lr": lr}

        @task(time="5")
        def sq(x):
            if x == 3:
                raise ArithmeticError("three")
            return x * x

        job = train(lr=0.001)
        out(job.result(timeout=90))
        a = sq.map(range(5))
        out(a.results(timeout=120, return_exceptions=True)[:3])
        try:
            a[3].result()
        except ArithmeticError as e:
            out(["three", "ArithmeticError" in e.remote_traceback])
        out(job.stdout())
        out(job.jobdir)
    ''', cluster=line)
    res, squares, err, stdout, jobdir = ok(r, outs, 5)
    assert res == {"accuracy": 0.95, "lr": 0.001}
    assert squares == [0, 1, 4]
    assert err == ["three", True]
    assert jobdir.startswith(shared + "/jobs/"), jobdir
    assert os.path.isdir(os.path.join(shared, ".sluice"))
    r, outs = env.run('''
        @task(time="5")
        def f():
            return 1
        try:
            f()
        except sluice.ClusterUnreachable as e:
            out(str(e))
    ''', cluster=line.replace("port=%d" % port,
                              "port=%d" % cl.free_ports(1)[0]))
    (msg,) = ok(r, outs, 1)
    assert msg.startswith("ssh to 127.0.0.1 failed: ") and \
        "Connection refused" in msg, msg


def test_wait_survives_controller_restart(env):
    """result() keeps waiting through a controller restart (the job and
    its result survive it), also when the controller stays down longer
    than a command waits for it (squeue gives up after ~10 s)."""
    import threading
    got = {}
    body = '''
        @task(time="5")
        def slow(x):
            import time; time.sleep(6)
            return x + 1

        j = slow(41)
        out(j.job_id)
        out(j.result(timeout=120))
    '''
    t = threading.Thread(target=lambda: got.update(r=env.run(body)))
    t.start()
    time.sleep(2.5)
    env.c.kill_ctld()
    time.sleep(15)
    env.c.start_ctld()
    t.join(180)
    r, outs = got["r"]
    jid, value = ok(r, outs, 2)
    assert value == 42
    env.c.wait_ready()
