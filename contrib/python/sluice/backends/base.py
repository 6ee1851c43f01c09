"""The interface every backend implements, and the parsing the command
backends (local, ssh) share."""

import re

from .. import errors

TERMINAL = {"COMPLETED", "CANCELLED", "FAILED", "TIMEOUT", "NODE_FAIL",
            "PREEMPTED", "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY",
            "REVOKED", "SPECIAL_EXIT"}

# What sbatch/squeue print when the controller cannot be reached.
_DOWN_RE = re.compile(r"Unable to contact slurm controller|Connection refused"
                      r"|Socket timed out|Zero Bytes were transmitted"
                      r"|Communication connection failure", re.I)
_AUTH_RE = re.compile(r"Authentication failure|Invalid authentication|"
                      r"Protocol authentication error|munge", re.I)


class JobStatus:
    """One job or array task: state, pending/failure reason, exit code."""

    __slots__ = ("state", "reason", "exit_code")

    def __init__(self, state, reason="", exit_code=None):
        self.state, self.reason, self.exit_code = state, reason, exit_code

    @property
    def done(self):
        return self.state in TERMINAL

    def __repr__(self):
        return "JobStatus(%r, %r, %r)" % (self.state, self.reason,
                                          self.exit_code)


class Backend:
    """What a Cluster asks of its transport.  Paths are paths on the
    shared filesystem as the compute nodes see them."""

    #: the module path recorded for the compute side (None: sys.path)
    remote_sys_path = None

    def stage(self, jobdir, files):
        """Create jobdir and write files ({name: bytes}) into it."""
        raise NotImplementedError

    def unstage(self, jobdir):
        """Remove a jobdir whose submission failed."""
        raise NotImplementedError

    def submit(self, script, args, job, jobdir):
        """Queue script with the sbatch args (command backends) or the
        job_desc dict (rest); returns the job id (int)."""
        raise NotImplementedError

    def status(self, job_id):
        """{array index or None: JobStatus}; {} when the job is unknown."""
        raise NotImplementedError

    def cancel(self, job_id):
        raise NotImplementedError

    def checkpoint(self, job_id):
        """Checkpoint a --checkpoint job (scontrol checkpoint): it saves
        its state and is requeued."""
        raise NotImplementedError

    def exit_code(self, job_id):
        """(exit status, signal) of an ended job as the controller has it,
        or None."""
        return None

    def stdout_path(self, job_id):
        """The job's standard output path as the controller has it, or
        None when it does not know the job."""
        raise NotImplementedError

    def read(self, path):
        """Bytes of a file under a jobdir, None if it does not exist."""
        raise NotImplementedError

    def read_many(self, jobdir, names):
        """{name: bytes or None} of several files of one jobdir (the ssh
        backend fetches them in one round trip)."""
        return {n: self.read(jobdir.rstrip("/") + "/" + n) for n in names}

    def usage(self, job_id):
        """Accounting rows of the job and its steps: [{field: value}]."""
        raise NotImplementedError

    def metrics(self, job_id):
        """The run tracking values of a job (every task of an array):
        [{"job_id", "array_job_id", "array_task_id", "kind", "name",
        "step", "value", "size", "time", ...}] as `sacct --metrics
        --json` shows them."""
        raise NotImplementedError

    def python(self):
        """The interpreter the compute side runs."""
        raise NotImplementedError

    def sluice_dir(self):
        """Directory holding the sluice package on the compute side."""
        raise NotImplementedError


def command_error(cmd, rc, err):
    """The exception for a failed command: ClusterUnreachable, AuthError
    or SubmitError, with the command's own message."""
    msg = "%s failed (exit %s): %s" % (cmd, rc, (err or "").strip())
    if _DOWN_RE.search(err or ""):
        return errors.ClusterUnreachable(msg)
    if _AUTH_RE.search(err or ""):
        return errors.AuthError(msg)
    return errors.SubmitError(msg)


def expand_indices(expr):
    """"0-9%2" / "1,3,5-7" -> [ints] (array task ids as squeue prints)."""
    expr = expr.split("%")[0].strip("[]")
    out = []
    for part in expr.split(","):
        if not part:
            continue
        m = re.match(r"^(\d+)(?:-(\d+))?(?::(\d+))?$", part)
        if not m:
            continue
        a = int(m.group(1))
        b = int(m.group(2) or a)
        step = int(m.group(3) or 1)
        out.extend(range(a, b + 1, step))
    return out


def parse_squeue(text):
    """`squeue -h -r -t all -o "%K|%T|%r"` lines -> {index|None: JobStatus}."""
    out = {}
    for line in text.splitlines():
        parts = line.split("|")
        if len(parts) < 3:
            continue
        idx, state, reason = parts[0].strip(), parts[1].strip(), parts[2]
        st = JobStatus(state, reason.strip())
        if idx in ("", "N/A"):
            out[None] = st
        else:
            for i in expand_indices(idx):
                out[i] = st
    return out


def parse_sacct_states(text, job_id):
    """`sacct -X -P -n -o JobID,State,ExitCode -j J` -> {index|None: st}.
    Rows of other jobs and malformed rows are skipped."""
    out = {}
    row_re = re.compile(r"^%s(?:_(\[?[\d,\-%%]+\]?))?$" % re.escape(str(job_id)))
    for line in text.splitlines():
        parts = line.split("|")
        if len(parts) < 3:
            continue
        m = row_re.match(parts[0])
        words = parts[1].split()
        if not m or not words:
            continue
        ec = None
        if re.match(r"^\d+:\d+$", parts[2]):
            ec = int(parts[2].split(":")[0])
        st = JobStatus(words[0], "", ec)
        if m.group(1):
            for i in expand_indices(m.group(1)):
                out[i] = st
        else:
            out[None] = st
    return out


USAGE_FIELDS = ("JobID", "JobName", "State", "ExitCode", "Elapsed",
                "TotalCPU", "CPUTime", "MaxRSS", "AllocCPUS", "AllocTRES",
                "NodeList", "Start", "End")


def parse_sacct_usage(text):
    rows = []
    for line in text.splitlines():
        parts = line.split("|")
        if len(parts) == len(USAGE_FIELDS):
            rows.append(dict(zip(USAGE_FIELDS, parts)))
    return rows
