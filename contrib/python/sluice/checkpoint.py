"""sluice.checkpoint: application checkpoints for resumable jobs.

A job submitted with --checkpoint (the task keyword checkpoint=True) has a
directory of its own that every run of it sees, SLURM_CHECKPOINT_DIR.
When it is checkpointed (`scontrol checkpoint <job>`, Job.checkpoint(), or
a preemption with PreemptMode=CHECKPOINT) its processes get SIGUSR2 (or
the job's --signal), have CheckpointWait seconds to save their state, and
the job is requeued; its next run resumes from what was saved.

    state = sluice.checkpoint.load({"step": 0})     # {"step": 0} at first
    while state["step"] < 1000:
        work(state)
        state["step"] += 1
        if sluice.checkpoint.requested():           # SIGUSR2 arrived
            sluice.checkpoint.save(state)
            sluice.checkpoint.stop()                # the job is requeued

save(obj, name="state")    pickle obj into the directory (atomically: a
                           crash while saving leaves the last save whole)
load(default=None, name="state")
                           what save() stored, or default
requested()                True once the checkpoint signal arrived
stop()                     end this run now; the controller requeues the
                           job (raises Checkpointed, which the task runner
                           lets through without writing a result)
directory()                SLURM_CHECKPOINT_DIR

The task runner installs the signal handler before the function is called;
other programs call requested() (or install()) early, since a process
that does not handle SIGUSR2 is ended by it.  Outside a --checkpoint job
every function but requested() raises NotCheckpointable.
"""

import os
import pickle
import signal

from .errors import SluiceError

ENV = "SLURM_CHECKPOINT_DIR"

_state = {"requested": False, "installed": False, "callbacks": []}


class NotCheckpointable(SluiceError):
    """The process does not run in a job submitted with --checkpoint."""


class Checkpointed(BaseException):
    """Raised by stop(): this run ends so that the job is requeued.  A
    BaseException, so that `except Exception` in the task does not stop
    it."""


def directory():
    d = os.environ.get(ENV)
    if not d:
        raise NotCheckpointable(
            "%s is not set: the job was not submitted with --checkpoint "
            "(task keyword checkpoint=True)" % ENV)
    return d


def _path(name):
    if not isinstance(name, str) or not name or "/" in name or \
            name.startswith("."):
        raise ValueError("checkpoint name %r: a plain file name is needed"
                         % (name,))
    return os.path.join(directory(), name + ".pkl")


def save(obj, name="state"):
    """Pickle obj into the checkpoint directory; returns the file's path.
    The file is replaced whole or not at all."""
    path = _path(name)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    tmp = "%s.tmp.%d" % (path, os.getpid())
    try:
        with open(tmp, "wb") as f:
            pickle.dump(obj, f, protocol=pickle.HIGHEST_PROTOCOL)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return path


def load(default=None, name="state"):
    """What save(name=name) stored last, or default when nothing was."""
    path = _path(name)
    try:
        with open(path, "rb") as f:
            return pickle.load(f)
    except FileNotFoundError:
        return default


def _handler(signum, frame):
    _state["requested"] = True
    for cb in list(_state["callbacks"]):
        cb()


def install(signum=signal.SIGUSR2, callback=None):
    """Handle the checkpoint signal: requested() turns True and callback
    (if any) is called from the handler.  Idempotent."""
    if callback is not None:
        _state["callbacks"].append(callback)
    if not _state["installed"]:
        signal.signal(signum, _handler)
        _state["installed"] = True


def requested():
    """True once the checkpoint signal arrived (installs the handler on
    first use)."""
    if not _state["installed"] and os.environ.get(ENV):
        install()
    return _state["requested"]


def stop():
    """End this run for the requeue (after save())."""
    directory()
    raise Checkpointed("checkpointed: the job is requeued")
