"""What goes into a job's directory, and how it comes back.

A call is staged as files in a per-job directory on a filesystem that the
submitting host (or the login node) and the compute nodes share:

    meta.json         python, sys.path, function, limits (runner reads it)
    func.pkl          the function: by reference (module, qualname) or, for
                      one defined in __main__ or a closure, by value
    args.pkl          (args, kwargs) of a single call
    args.<i>.pkl      the same for item i of a .map()
    job.sh            the batch script
    stdout[.<i>]      the job's output, stderr[.<i>] its errors
    result[.<i>][.r<rank>].pkl   what the runner sends back: a record
                      {"ok": True, "value": v} or {"ok": False, ...}

A Job handle among the arguments is pickled as a reference to its result
file: the runner loads that job's return value in its place (an ArrayJob:
the list of its items' values).
"""

import importlib
import io
import json
import pickle
import sys

from . import errors

try:
    import cloudpickle
except ImportError:        # by-value functions need it; by-reference do not
    cloudpickle = None

DEFAULT_MAX_PICKLE = 64 * 1024 * 1024
_Pickler = cloudpickle.CloudPickler if cloudpickle else pickle.Pickler
_JOB_TAG = "sluice.job-result"
_ARRAY_TAG = "sluice.array-results"


def result_name(index=None, rank=0):
    name = "result"
    if index is not None:
        name += ".%s" % index
    if rank:
        name += ".r%d" % rank
    return name + ".pkl"


class _ArgPickler(_Pickler):
    """Pickles Job handles as references to their result files and
    collects them (they become afterok dependencies)."""

    def __init__(self, f, jobs):
        super().__init__(f, protocol=pickle.HIGHEST_PROTOCOL)
        self._jobs = jobs

    def persistent_id(self, obj):
        ref = getattr(obj, "_sluice_result_ref", None)
        if ref is not None and callable(ref):
            self._jobs.append(obj)
            return (_JOB_TAG,) + ref()
        tasks = getattr(obj, "tasks", None)
        if tasks and getattr(obj, "dependency_id", None) and all(
                callable(getattr(t, "_sluice_result_ref", None))
                for t in tasks):
            self._jobs.append(obj)
            return (_ARRAY_TAG, [t._sluice_result_ref() for t in tasks])
        return None


def dumps_args(args, kwargs, what, limit):
    """Pickle (args, kwargs); returns (bytes, [Job handles found]).
    Names the argument that cannot be pickled, and refuses a pickle over
    limit bytes."""
    jobs = []
    buf = io.BytesIO()
    try:
        _ArgPickler(buf, jobs).dump((tuple(args), dict(kwargs)))
    except Exception as e:
        culprit = _find_unpicklable(args, kwargs)
        raise errors.SerializationError(
            "%s of %s cannot be pickled: %s: %s" % (
                culprit or "an argument", what, type(e).__name__, e)) from e
    data = buf.getvalue()
    if len(data) > limit:
        raise errors.PayloadTooLarge("the arguments of %s" % what,
                                     len(data), limit)
    return data, jobs


def _find_unpicklable(args, kwargs):
    for i, a in enumerate(args):
        try:
            _ArgPickler(io.BytesIO(), []).dump(a)
        except Exception:
            return "argument %d (%s)" % (i, type(a).__name__)
    for k, a in kwargs.items():
        try:
            _ArgPickler(io.BytesIO(), []).dump(a)
        except Exception:
            return "argument %r (%s)" % (k, type(a).__name__)
    return None


def function_spec(func, by_value=False):
    """How the compute side finds func: {"by": "ref", module, qualname} when
    it can import it by name, else {"by": "value"} with func.pkl bytes."""
    mod, qual = func.__module__, func.__qualname__
    if not by_value and mod != "__main__" and "<locals>" not in qual:
        try:
            obj = importlib.import_module(mod)
            for part in qual.split("."):
                obj = getattr(obj, part)
            from .task import Task
            if (obj.func if isinstance(obj, Task) else obj) is func:
                return {"by": "ref", "module": mod, "qualname": qual}, None
        except (ImportError, AttributeError):
            pass
    if cloudpickle is None:
        raise errors.SerializationError(
            "%s.%s is defined in __main__ or inside a function: sending it "
            "by value needs cloudpickle (Debian: python3-cloudpickle); or "
            "move it into an importable module" % (mod, qual))
    registered = False
    if by_value and mod not in ("__main__",) and mod in sys.modules:
        try:
            cloudpickle.register_pickle_by_value(sys.modules[mod])
            registered = True
        except (ValueError, AttributeError):
            pass
    try:
        data = cloudpickle.dumps(func, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as e:
        raise errors.SerializationError(
            "the function %s cannot be pickled: %s: %s"
            % (qual, type(e).__name__, e)) from e
    finally:
        if registered:
            cloudpickle.unregister_pickle_by_value(sys.modules[mod])
    return {"by": "value", "module": mod, "qualname": qual}, data


def meta_json(python, sys_path, spec, limit, array, sluice_dir, name="",
              items=1, ntasks=1):
    return json.dumps({"version": 1, "python": python, "sys_path": sys_path,
                       "func": spec, "max_pickle_size": limit,
                       "array": array, "sluice_dir": sluice_dir,
                       "name": name, "items": items, "ntasks": ntasks},
                      indent=1).encode()


def load_record(data, where):
    """Unpickle a result record; SerializationError if it is damaged or
    names a class this side cannot import."""
    try:
        return pickle.loads(data)
    except Exception as e:
        raise errors.SerializationError(
            "cannot unpickle the result in %s: %s: %s"
            % (where, type(e).__name__, e)) from e


def raise_record(rec, job_id):
    """Raise the exception a failed record describes."""
    kind = rec.get("kind")
    host = rec.get("host", "?")
    tb = rec.get("traceback", "")
    if kind == "import":
        raise errors.RemoteImportError(
            "job %s on %s: %s" % (job_id, host, rec.get("message")))
    if kind == "too_large":
        raise errors.PayloadTooLarge("the result of job %s" % job_id,
                                     rec["size"], rec["limit"])
    if kind == "unpicklable":
        raise errors.SerializationError(
            "job %s on %s: the result cannot be pickled: %s"
            % (job_id, host, rec.get("message")))
    exc = None
    if rec.get("exc") is not None:
        try:
            exc = pickle.loads(rec["exc"])
        except Exception:
            exc = None
    if not isinstance(exc, BaseException):
        exc = errors.RemoteError("job %s on %s raised %s: %s" % (
            job_id, host, rec.get("type"), rec.get("message")))
    exc.remote_traceback = tb
    raise exc from errors.RemoteTraceback(tb)
