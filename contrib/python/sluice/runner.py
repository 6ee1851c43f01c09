"""The compute side: `python -m sluice run JOBDIR` inside the batch job.

Reads JOBDIR/meta.json, puts the submitter's module path on sys.path,
loads the function and this task's arguments, calls it, and writes a
result record (see serialize.py).  Exit status: 0 when the function
returned, 1 when it raised or could not be loaded.  In a --checkpoint job
the checkpoint signal (SIGUSR2) is handled (sluice.checkpoint) and a
function ending with sluice.checkpoint.stop() leaves no result: the job
is requeued and the function called again.
"""

import importlib
import json
import os
import pickle
import socket
import sys
import traceback

from . import checkpoint, serialize
from .task import Task

try:
    import cloudpickle
except ImportError:
    cloudpickle = None


class _Unpickler(pickle.Unpickler):
    """Replaces references to other jobs' results by their values."""

    def __init__(self, f, jobdir):
        super().__init__(f)
        self.jobdir = jobdir

    def persistent_load(self, pid):
        if isinstance(pid, tuple) and len(pid) == 2 and \
                pid[0] == serialize._ARRAY_TAG:
            return [self._one(path, job_id) for path, job_id in pid[1]]
        if not (isinstance(pid, tuple) and len(pid) == 3 and
                pid[0] == serialize._JOB_TAG):
            raise pickle.UnpicklingError("unknown reference %r" % (pid,))
        return self._one(pid[1], pid[2])

    def _one(self, path, job_id):
        try:
            with open(path, "rb") as f:
                rec = pickle.load(f)
        except OSError as e:
            raise RuntimeError("the result of job %s (an argument of this "
                               "task) is missing: %s" % (job_id, e))
        if not rec.get("ok"):
            raise RuntimeError("job %s (an argument of this task) failed: "
                               "%s: %s" % (job_id, rec.get("type"),
                                           rec.get("message")))
        return rec["value"]


def _write(path, rec):
    tmp = "%s.tmp.%d" % (path, os.getpid())
    with open(tmp, "wb") as f:
        f.write(rec)
    os.replace(tmp, path)


def _fail(kind, exc, host, extra=None):
    rec = {"ok": False, "kind": kind, "type": type(exc).__name__,
           "message": str(exc), "host": host,
           "traceback": "".join(traceback.format_exception(exc))}
    try:
        rec["exc"] = pickle.dumps(exc, protocol=pickle.HIGHEST_PROTOCOL)
        pickle.loads(rec["exc"])
    except Exception:
        rec["exc"] = None
    rec.update(extra or {})
    return pickle.dumps(rec, protocol=pickle.HIGHEST_PROTOCOL)


def _load_function(jobdir, meta):
    spec = meta["func"]
    if spec["by"] == "value":
        with open(os.path.join(jobdir, "func.pkl"), "rb") as f:
            return pickle.load(f)
    obj = importlib.import_module(spec["module"])
    for part in spec["qualname"].split("."):
        obj = getattr(obj, part)
    return obj.func if isinstance(obj, Task) else obj


def run(jobdir):
    host = socket.gethostname()
    with open(os.path.join(jobdir, "meta.json")) as f:
        meta = json.load(f)
    index = os.environ.get("SLURM_ARRAY_TASK_ID") if meta.get("array") else None
    rank = int(os.environ.get("SLURM_PROCID", "0") or 0)
    out = os.path.join(jobdir, serialize.result_name(index, rank))
    limit = meta.get("max_pickle_size") or serialize.DEFAULT_MAX_PICKLE
    paths = [p for p in meta.get("sys_path", []) if p]
    sys.path[:] = paths + [p for p in sys.path if p not in paths]
    try:
        func = _load_function(jobdir, meta)
    except Exception as e:
        spec = meta["func"]
        msg = ("cannot load %s.%s with %s (sys.path %s): %s: %s" % (
            spec["module"], spec["qualname"], sys.executable, paths,
            type(e).__name__, e))
        _write(out, _fail("import", RuntimeError(msg), host))
        print("sluice: " + msg, file=sys.stderr)
        return 1
    args_name = "args.pkl" if index is None else "args.%s.pkl" % index
    try:
        with open(os.path.join(jobdir, args_name), "rb") as f:
            args, kwargs = _Unpickler(f, jobdir).load()
    except Exception as e:
        _write(out, _fail("exception", e, host))
        traceback.print_exc()
        return 1
    if os.environ.get(checkpoint.ENV):      # a --checkpoint job
        checkpoint.install()
    try:
        value = func(*args, **kwargs)
    except checkpoint.Checkpointed:
        # checkpointed: no result; the controller requeues the job
        print("sluice: checkpointed in %s" % checkpoint.directory(),
              file=sys.stderr)
        return 0
    except BaseException as e:      # SystemExit and KeyboardInterrupt too
        _write(out, _fail("exception", e, host))
        traceback.print_exc()
        return 1
    try:
        dumps = cloudpickle.dumps if cloudpickle else pickle.dumps
        data = dumps({"ok": True, "value": value},
                     protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as e:
        _write(out, _fail("unpicklable", e, host))
        print("sluice: the result cannot be pickled: %s" % e, file=sys.stderr)
        return 1
    if len(data) > limit:
        _write(out, _fail("too_large", RuntimeError("result too large"), host,
                          {"size": len(data), "limit": limit}))
        print("sluice: the result is %d bytes pickled, over the limit of %d"
              % (len(data), limit), file=sys.stderr)
        return 1
    _write(out, data)
    return 0
