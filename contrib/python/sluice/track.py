"""Run tracking: values a task logs into its job's accounting record.

Inside a running task (the function a @task runs):

    import sluice
    sluice.log_param("lr", 0.01)
    for step in range(100):
        sluice.log_metric("loss", loss, step)
    sluice.log_artifact("model.pt")

Each call is one `scontrol track` (Sluice's extension of scontrol): the
controller takes the value only from the job's own processes (the job's
user, while it runs, from one of its nodes) and sends it to slurmdbd with
the job's accounting records.  `sacct -j JOB --metrics`, Job.metrics()
and GET /sluice/v1/job/JOB/metrics read them back, by job, kind, name and
step.

Bounds (the controller's): names of letters, digits, "_", "-", ".", "/"
and " ", up to 200 bytes; param values up to 1024 bytes without control
characters; metric values finite numbers, steps 0 .. 2**63-1; an artifact
is an existing file or directory (its absolute path and size are
recorded, not its content); at most 100,000 values a job, 100 a second
after a burst of 1,000.  A refused value raises TrackingError and is not
recorded.
"""

import math
import numbers
import os
import re
import shutil
import subprocess

from .errors import TrackingError

_NAME_RE = re.compile(r"^[A-Za-z0-9_./ -]{1,200}$")


def _scontrol():
    d = os.environ.get("SLUICE_BIN_DIR")
    if d:
        return os.path.join(d, "scontrol")
    p = shutil.which("scontrol")
    if not p:
        raise TrackingError("scontrol is not in PATH (set SLUICE_BIN_DIR)")
    return p


def _check_name(what, name):
    if not isinstance(name, str):
        raise TypeError("%s name must be a str, not %s"
                        % (what, type(name).__name__))
    if not _NAME_RE.match(name):
        raise TrackingError(
            "%s name %r: 1 to 200 letters, digits, '_', '-', '.', '/' or "
            "' '" % (what, name[:60]))


def _track(args):
    if not os.environ.get("SLURM_JOB_ID"):
        raise TrackingError("not inside a job: SLURM_JOB_ID is not set "
                            "(log_metric, log_param and log_artifact work "
                            "only in a running task)")
    try:
        p = subprocess.run([_scontrol(), "track"] + args,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise TrackingError("scontrol track: %s" % e)
    if p.returncode != 0:
        msg = p.stderr.decode(errors="replace").strip()
        msg = re.sub(r"^scontrol: error: track: ", "", msg)
        raise TrackingError(msg or "scontrol track failed (exit %d)"
                            % p.returncode)


def log_metric(name, value, step=0):
    """Record metric name = value at step (an int >= 0) for this job."""
    _check_name("metric", name)
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError("metric %s: value must be a number, not %s"
                        % (name, type(value).__name__))
    value = float(value)
    if not math.isfinite(value):
        raise TrackingError("metric %s: value %r is not a finite number"
                            % (name, value))
    if isinstance(step, bool) or not isinstance(step, numbers.Integral) \
            or not 0 <= step < 2 ** 63:
        raise TrackingError("metric %s: step %r must be an int from 0 to "
                            "2**63-1" % (name, step))
    _track(["metric=" + name, "value=" + repr(value), "step=%d" % step])


def log_param(name, value):
    """Record parameter name = str(value) for this job."""
    _check_name("param", name)
    text = value if isinstance(value, str) else repr(value)
    if len(text.encode()) > 1024:
        raise TrackingError("param %s: value is %d bytes, over the limit "
                            "of 1024" % (name, len(text.encode())))
    if re.search(r"[\x00-\x1f\x7f]", text):
        raise TrackingError("param %s: value has a control character"
                            % name)
    _track(["param=" + name, "value=" + text])


def log_artifact(path):
    """Record a file or directory this job produced (path and size)."""
    path = os.path.abspath(os.fspath(path))
    if not os.path.exists(path):
        raise TrackingError("artifact %s does not exist" % path)
    _track(["artifact=" + path])
