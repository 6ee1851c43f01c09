"""Unit tests of the SDK's parts that need no cluster: the keyword table,
the parsers of what the commands and slurmrestd print (with a seeded
random-input pass over each), dependencies, graphs, and the runner on a
job directory made here.  Run: python3 -m unittest discover -s tests
(from contrib/python); ctest runs it as test_python_sdk."""

import json
import os
import pickle
import random
import sys
import tempfile
import threading
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import sluice  # noqa: E402
from sluice import errors, options, runner, serialize  # noqa: E402
from sluice.backends import base  # noqa: E402
from sluice.backends.rest import token_claims  # noqa: E402
from sluice.workflow import WorkflowRun  # noqa: E402


class Options(unittest.TestCase):
    BAD = [
        ({"memory": "4G"}, TypeError, "unexpected keyword argument 'memory'"),
        ({"gpu": 1}, TypeError, "unexpected keyword argument 'gpu'"),
        ({"time": "forever"}, ValueError, "time='forever'"),
        ({"time": 0}, ValueError, "must be positive"),
        ({"time": True}, ValueError, "time=True"),
        ({"time": "1:2:3:4"}, ValueError, "expected minutes"),
        ({"mem": "4X"}, ValueError, "mem='4X'"),
        ({"mem": -1}, ValueError, "must not be negative"),
        ({"cpus_per_task": 0}, ValueError, "positive integer"),
        ({"cpus_per_task": "2"}, ValueError, "positive integer"),
        ({"ntasks": 2.0}, ValueError, "positive integer"),
        ({"nodes": "2-"}, ValueError, "node count"),
        ({"gpus": "a100:"}, ValueError, "type:count"),
        ({"partition": ""}, ValueError, "non-empty"),
        ({"partition": "a\nb"}, ValueError, "one-line"),
        ({"requeue": "yes"}, ValueError, "True or False"),
        ({"environment": {"1X": "a"}}, ValueError, "NAME -> value"),
        ({"sbatch_options": {"bad opt": 1}}, ValueError, "not an option"),
        ({"sbatch_options": ["nodash"]}, ValueError, "not an option"),
        ({"sbatch_options": ["--x=a\nb"]}, ValueError, "newline"),
        ({"sbatch_options": 3}, ValueError, "dict or a list"),
        ({"max_pickle_size": 0}, ValueError, "positive"),
    ]

    def test_bad_first(self):
        for opts, exc, text in self.BAD:
            with self.subTest(opts=opts):
                with self.assertRaises(exc) as cm:
                    options.check(opts)
                self.assertIn(text, str(cm.exception))

    def test_decorator_refuses_unknown_keyword(self):
        with self.assertRaisesRegex(TypeError, r"^task\(\) got an unexpected "
                                    r"keyword argument 'mem_gb'"):
            sluice.task(mem_gb=4)

    def test_time(self):
        for v, m in [(5, 5), ("5", 5), ("1:30", 2), ("01:00:00", 60),
                     ("00:00:01", 1), ("1-0", 1440), ("1-2:03", 1563),
                     ("0-0:0:59", 1)]:
            self.assertEqual(options.time_minutes(v), m, v)

    def test_mem(self):
        for v, m in [(100, 100), ("100", 100), ("2G", 2048), ("512M", 512),
                     ("1T", 1048576), ("2048K", 2), ("1k", 1), ("0", 0)]:
            self.assertEqual(options.mem_megabytes(v), m, v)

    def test_sbatch_args(self):
        o = options.check({"time": "00:10:00", "mem": "4G", "cpus_per_task": 2,
                           "gpus_per_node": "a100:4", "requeue": False,
                           "exclusive": True, "throttle": 3,
                           "sbatch_options": {"signal": "B:USR1@60",
                                              "overcommit": True,
                                              "spread_job": False}})
        self.assertEqual(options.sbatch_args(o), [
            "--time=00:10:00", "--mem=4G", "--cpus-per-task=2",
            "--gpus-per-node=a100:4", "--no-requeue", "--exclusive",
            "--signal=B:USR1@60", "--overcommit"])

    def test_rest_job_desc(self):
        o = options.check({"time": "01:30:00", "mem": "2G", "ntasks": 4,
                           "nodes": 2, "gpus_per_task": 1,
                           "nodelist": "n[1-2]", "partition": "p",
                           "rest_options": {"priority": 5}})
        self.assertEqual(options.rest_job_desc(o), {
            "time_limit": 90, "memory_per_node": 2048, "tasks": 4,
            "nodes": "2", "tres_per_task": "gres/gpu:1",
            "required_nodes": ["n[1-2]"], "partition": "p", "priority": 5})
        for bad in ({"mem_per_gpu": "1G"}, {"exclusive": True},
                    {"sbatch_options": ["--x"]}):
            with self.assertRaisesRegex(ValueError, "rest backend"):
                options.rest_job_desc(options.check(bad))

    def test_merge(self):
        m = options.merge({"partition": "a", "environment": {"A": "1"},
                           "sbatch_options": ["--x"]},
                          {"partition": "b", "environment": {"B": "2"},
                           "sbatch_options": ["--y"]})
        self.assertEqual(m, {"partition": "b",
                             "environment": {"A": "1", "B": "2"},
                             "sbatch_options": ["--x", "--y"]})


class Parsers(unittest.TestCase):
    def test_squeue(self):
        text = ("N/A|RUNNING|None\n")
        self.assertEqual(base.parse_squeue(text)[None].state, "RUNNING")
        st = base.parse_squeue("3|RUNNING|None\n4|COMPLETED|None\n"
                               "[5-7%2]|PENDING|JobArrayTaskLimit\n")
        self.assertEqual(sorted(st), [3, 4, 5, 6, 7])
        self.assertEqual(st[6].reason, "JobArrayTaskLimit")
        self.assertTrue(st[4].done and not st[5].done)

    def test_indices(self):
        for e, want in [("0-3", [0, 1, 2, 3]), ("1,3,5-6", [1, 3, 5, 6]),
                        ("[0-9%2]", list(range(10))), ("0-6:3", [0, 3, 6]),
                        ("", []), ("x-y", [])]:
            self.assertEqual(base.expand_indices(e), want, e)

    def test_sacct(self):
        st = base.parse_sacct_states(
            "12|COMPLETED|0:0\n13_0|FAILED|1:0\n13_[1-2]|PENDING|0:0\n"
            "14|CANCELLED by 1000|0:15\n", 13)
        self.assertEqual(st[0].state, "FAILED")
        self.assertEqual(st[0].exit_code, 1)
        self.assertEqual(st[2].state, "PENDING")
        st = base.parse_sacct_states("14|CANCELLED by 1000|0:15\n", 14)
        self.assertEqual(st[None].state, "CANCELLED")

    def test_command_errors(self):
        e = base.command_error("sbatch", 1, "sbatch: error: Batch job "
                               "submission failed: Unable to contact slurm "
                               "controller (connect failure)")
        self.assertIsInstance(e, errors.ClusterUnreachable)
        self.assertIsInstance(base.command_error("sbatch", 1, "Invalid "
                              "partition name specified"), errors.SubmitError)

    def test_token_claims(self):
        for bad in ("", "abc", "a.!!!.c", "a.bm90anNvbg.c"):
            with self.assertRaises(errors.AuthError):
                token_claims(bad)
        import base64
        p = base64.urlsafe_b64encode(b'{"exp": 5, "sun": "u"}').rstrip(b"=")
        self.assertEqual(token_claims("h.%s.s" % p.decode())["exp"], 5)

    def test_random_input_never_crashes(self):
        """Seeded random lines through every parser of outside text: they
        return (possibly empty) results, never raise."""
        rnd = random.Random(26)
        alphabet = "0123456789_|[]-,%:.NA/RUNINGPDabc \t\n\x00"
        for _ in range(3000):
            s = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 60)))
            base.parse_squeue(s)
            base.parse_sacct_states(s, 13)
            base.parse_sacct_usage(s)
            base.expand_indices(s)
            base.command_error("x", 1, s)


class Dependencies(unittest.TestCase):
    def setUp(self):
        @sluice.task(time=5)
        def f(x):
            return x
        self.f = f

    def test_kinds(self):
        t = self.f.after(12, "13_4").after(14, kind="afternotok")
        self.assertEqual(t.deps, ("afterok:12:13_4", "afternotok:14"))
        t = self.f.after(1, 2, kind="afterany", any_of=True)
        self.assertEqual(t.deps, ("afterany:1?afterany:2",))
        self.assertEqual(self.f.after(kind="singleton").deps, ("singleton",))
        self.assertEqual(self.f.after(3, 4, kind="after", delay=10).deps,
                         ("after:3+10:4+10",))
        for bad in (dict(delay=5), dict(kind="after", delay=0),
                    dict(kind="after", delay="5")):
            with self.assertRaisesRegex(ValueError, "delay"):
                self.f.after(3, **bad)
        for bad, exc in [(dict(kind="afterwards"), ValueError),
                         (dict(), ValueError)]:
            with self.assertRaises(exc):
                self.f.after(**bad)
        with self.assertRaises(TypeError):
            self.f.after("twelve")
        with self.assertRaises(ValueError):
            self.f.after(1, kind="singleton")

    def test_options_copy(self):
        g = self.f.options(mem="1G")
        self.assertEqual(g.opts, {"time": 5, "mem": "1G"})
        self.assertEqual(self.f.opts, {"time": 5})
        self.assertEqual(self.f.local(3), 3)


class _H:
    def __init__(self, jid, name, n=None):
        self.dependency_id, self.name = str(jid), name
        if n:
            self.tasks = [None] * n

    def state(self):
        return "COMPLETED"


class Graph(unittest.TestCase):
    def test_text_and_dot(self):
        run = WorkflowRun('p"q')
        a, b, c = _H(1, "load", 3), _H(2, "train"), _H(3, "eval")
        run._add(a, sluice.task(lambda: 0), [], {"mem": "1G"})
        run._add(b, sluice.task(lambda: 0), [a], {"cpus_per_task": 4})
        t = sluice.task(lambda: 0).after(a, kind="afterany")
        run._add(c, t, [b], {})
        self.assertEqual(run.text(), (
            'workflow p"q: 3 jobs\n'
            "  1 load[3] [mem=1G]  COMPLETED\n"
            "  2 train [cpus_per_task=4] <- afterok:1  COMPLETED\n"
            "  3 eval <- afterok:2, afterany:1  COMPLETED\n"))
        dot = run.dot()
        self.assertTrue(dot.startswith('digraph "p\\"q" {\n'), dot)
        self.assertIn('"1" [label="load[3]\\n1\\nmem=1G"];', dot)
        self.assertIn('"1" -> "3" [label="afterany"];', dot)


class _FakeBackend:
    def __init__(self, state, reason="", code=None):
        self.st = base.JobStatus(state, reason)
        self.code = code

    def status(self, job_id):
        return {None: self.st}

    def read(self, path):
        return b"line1\nslurmstepd: error: *** JOB 5 CANCELLED ***\n" \
            if path.endswith("stderr") else None

    def exit_code(self, job_id):
        return self.code


class _FakeCluster:
    poll_interval = 0.01
    unreachable_grace = 1

    def __init__(self, backend):
        self._backend = backend

    def _join(self, *p):
        return "/".join(p)


class Failures(unittest.TestCase):
    """What result() raises for a job that left no result."""

    def job(self, *a, **opts):
        return sluice.Job(_FakeCluster(_FakeBackend(*a)), 5, "/d", "f",
                          opts=opts)

    def test_table(self):
        cases = [
            (("TIMEOUT", "", (0, 15)), {"time": "00:01:00"},
             errors.JobFailed, "job 5 ended TIMEOUT (exit code 0, signal 15):"
             " it reached its time limit (time=00:01:00) without a result"),
            (("OUT_OF_MEMORY", "", (0, 9)), {"mem": "1G"}, errors.JobFailed,
             "it ran out of memory (mem=1G)"),
            (("FAILED", "", (127, 0)), {}, errors.JobFailed,
             "job 5 ended FAILED (exit code 127) without a result"),
            (("CANCELLED", "", None), {}, errors.JobCancelled,
             "job 5 was cancelled"),
            (("CANCELLED", "DependencyNeverSatisfied", None), {},
             errors.DependencyNeverSatisfied, "job 5 never ran"),
            (("PENDING", "DependencyNeverSatisfied", None), {},
             errors.DependencyNeverSatisfied, "job 5 never ran"),
        ]
        for args, opts, exc, text in cases:
            with self.subTest(args=args):
                with self.assertRaises(exc) as cm:
                    self.job(*args, **opts).result(timeout=1)
                self.assertIn(text, str(cm.exception))
        with self.assertRaisesRegex(errors.JobFailed, "CANCELLED \\*\\*\\*"):
            self.job("FAILED", "", None).result(1)

    def test_wait_timeout(self):
        with self.assertRaisesRegex(errors.JobTimeout,
                                    "job 5 still RUNNING after 0.05s"):
            self.job("RUNNING").wait(timeout=0.05)


class _ShellBackend:
    """Runs the batch script with sh at submit time (no Slurm): the whole
    path from a call to its result, through the generated script."""
    from sluice.backends.local import LocalFiles
    stage = LocalFiles.stage
    unstage = LocalFiles.unstage
    read = LocalFiles.read
    sluice_dir = LocalFiles.sluice_dir
    remote_sys_path = None

    def __init__(self, cluster):
        self.cluster = cluster
        self.done = {}

    def python(self):
        return self.cluster.python or sys.executable

    def submit(self, script, args, job, jobdir):
        import subprocess
        jid = len(self.done) + 1
        with open(os.path.join(jobdir, "stdout"), "wb") as o, \
                open(os.path.join(jobdir, "stderr"), "wb") as e:
            rc = subprocess.run(["sh", os.path.join(jobdir, "job.sh")],
                                stdout=o, stderr=e).returncode
        self.done[jid] = base.JobStatus("COMPLETED" if rc == 0 else "FAILED",
                                        "", rc)
        return jid

    def status(self, job_id):
        return {None: self.done[job_id]}

    def exit_code(self, job_id):
        return (self.done[job_id].exit_code, 0)


class Script(unittest.TestCase):
    def cluster(self, **kw):
        d = tempfile.mkdtemp(prefix="sluice-unit-")
        self.addCleanup(__import__("shutil").rmtree, d, True)
        c = sluice.Cluster(workdir=os.path.join(d, "jobs"), **kw)
        c._backend = _ShellBackend(c)
        return c

    def test_call_to_result(self):
        t = sluice.task(double, time=5, environment={"X": "a'$b"})
        with self.cluster() as c:
            j = t(21)
            self.assertEqual(j.result(), 42)
            self.assertIs(sluice.current(), c)
        env = sluice.task(lambda: os.environ["X"], time=5,
                          environment={"X": "a'$b"})
        with self.cluster():
            self.assertEqual(env().result(), "a'$b")

    def test_missing_interpreter(self):
        with self.cluster(python="no-such-python-26"):
            j = sluice.task(double, time=5)(1)
            with self.assertRaises(errors.JobFailed) as cm:
                j.result()
        self.assertIn("ended FAILED (exit code 127)", str(cm.exception))
        self.assertIn("sluice: the Python interpreter no-such-python-26 is "
                      "missing on", str(cm.exception))


def double(x):
    return 2 * x


def fails(x):
    raise KeyError("no %s" % x)


def _put(path, data):
    with open(path, "wb") as f:
        f.write(data)


class Runner(unittest.TestCase):
    """The compute side on a job directory made here (no Slurm)."""

    def stage(self, func, calls, array=False, limit=1 << 20, by_value=False):
        d = tempfile.mkdtemp(prefix="sluice-unit-")
        self.addCleanup(__import__("shutil").rmtree, d, True)
        spec, fdata = serialize.function_spec(func, by_value)
        if fdata:
            _put(os.path.join(d, "func.pkl"), fdata)
        for i, (a, k) in enumerate(calls):
            data, _ = serialize.dumps_args(a, k, "f()", limit)
            name = "args.%d.pkl" % i if array else "args.pkl"
            _put(os.path.join(d, name), data)
        _put(os.path.join(d, "meta.json"), serialize.meta_json(
            sys.executable, [os.path.dirname(os.path.abspath(__file__))],
            spec, limit, array, ""))
        return d

    def record(self, d, name="result.pkl"):
        with open(os.path.join(d, name), "rb") as f:
            return pickle.load(f)

    def test_by_reference(self):
        d = self.stage(double, [((21,), {})])
        self.assertEqual(runner.run(d), 0)
        self.assertEqual(self.record(d), {"ok": True, "value": 42})

    def test_by_value_and_array(self):
        k = 5
        d = self.stage(lambda x: x + k, [((1,), {}), ((2,), {})], array=True)
        os.environ["SLURM_ARRAY_TASK_ID"] = "1"
        try:
            self.assertEqual(runner.run(d), 0)
        finally:
            del os.environ["SLURM_ARRAY_TASK_ID"]
        self.assertEqual(self.record(d, "result.1.pkl")["value"], 7)

    def test_exception_record(self):
        d = self.stage(fails, [(("x",), {})])
        self.assertEqual(runner.run(d), 1)
        rec = self.record(d)
        with self.assertRaises(KeyError) as cm:
            serialize.raise_record(rec, 5)
        self.assertIn("raise KeyError", cm.exception.remote_traceback)
        self.assertIsInstance(cm.exception.__cause__, errors.RemoteTraceback)

    def test_import_failure(self):
        d = self.stage(double, [((1,), {})])
        with open(os.path.join(d, "meta.json")) as f:
            meta = json.load(f)
        meta["func"]["module"] = "no_such_module_26"
        _put(os.path.join(d, "meta.json"), json.dumps(meta).encode())
        self.assertEqual(runner.run(d), 1)
        with self.assertRaisesRegex(errors.RemoteImportError,
                                    "No module named 'no_such_module_26'"):
            serialize.raise_record(self.record(d), 5)

    def test_result_limit(self):
        d = self.stage(double, [((b"x" * 3000,), {})], limit=4000)
        self.assertEqual(runner.run(d), 1)
        with self.assertRaisesRegex(errors.PayloadTooLarge,
                                    r"result of job 5 is 60\d\d bytes"):
            serialize.raise_record(self.record(d), 5)

    def test_unpicklable_argument_named(self):
        with self.assertRaisesRegex(errors.SerializationError,
                                    r"^argument 1 \(lock\) of f\(\)"):
            serialize.dumps_args((1, threading.Lock()), {}, "f()", 1 << 20)
        with self.assertRaises(errors.PayloadTooLarge):
            serialize.dumps_args((b"x" * 100,), {}, "f()", 50)



class Checkpoint(unittest.TestCase):
    """sluice.checkpoint outside a cluster: a directory given by
    SLURM_CHECKPOINT_DIR, the signal sent to this process."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.old = os.environ.get(sluice.checkpoint.ENV)
        self.dir = os.path.join(self.tmp.name, "ck", "7")

    def tearDown(self):
        if self.old is None:
            os.environ.pop(sluice.checkpoint.ENV, None)
        else:
            os.environ[sluice.checkpoint.ENV] = self.old
        self.tmp.cleanup()

    def test_not_a_checkpoint_job_first(self):
        os.environ.pop(sluice.checkpoint.ENV, None)
        for call in (lambda: sluice.checkpoint.save(1),
                     lambda: sluice.checkpoint.load(),
                     sluice.checkpoint.stop, sluice.checkpoint.directory):
            with self.assertRaisesRegex(sluice.checkpoint.NotCheckpointable,
                                        "submitted with --checkpoint"):
                call()
        self.assertFalse(sluice.checkpoint.requested())

    def test_bad_names(self):
        os.environ[sluice.checkpoint.ENV] = self.dir
        for name in ("", "a/b", ".hidden", 3):
            with self.assertRaisesRegex(ValueError, "plain file name"):
                sluice.checkpoint.save(1, name=name)

    def test_save_load_signal_stop(self):
        import signal
        os.environ[sluice.checkpoint.ENV] = self.dir
        self.assertEqual(sluice.checkpoint.load({"n": 0}), {"n": 0})
        path = sluice.checkpoint.save({"n": 5})
        self.assertEqual(path, os.path.join(self.dir, "state.pkl"))
        sluice.checkpoint.save({"n": 6})
        self.assertEqual(sluice.checkpoint.load(), {"n": 6})
        self.assertEqual(os.listdir(self.dir), ["state.pkl"])  # no tmp
        old = signal.getsignal(signal.SIGUSR2)
        try:
            self.assertFalse(sluice.checkpoint.requested())
            os.kill(os.getpid(), signal.SIGUSR2)
            self.assertTrue(sluice.checkpoint.requested())
        finally:
            signal.signal(signal.SIGUSR2, old)
            sluice.checkpoint._state.update(requested=False,
                                            installed=False)
        with self.assertRaises(sluice.checkpoint.Checkpointed):
            try:
                sluice.checkpoint.stop()
            except Exception:
                self.fail("stop() must pass `except Exception`")

    def test_keyword(self):
        self.assertIn("--checkpoint", options.sbatch_args(
            options.check({"checkpoint": True}, "task()")))
        self.assertEqual(options.sbatch_args(
            options.check({"checkpoint": False}, "task()")), [])
        with self.assertRaisesRegex(ValueError, "checkpoint= is not "
                                    "available through the rest backend"):
            options.rest_job_desc({"checkpoint": True})
        self.assertEqual(options.rest_job_desc({"checkpoint": False}), {})


if __name__ == "__main__":
    unittest.main()
