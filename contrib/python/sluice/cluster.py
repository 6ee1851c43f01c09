"""Cluster: where tasks go, and the defaults they take there."""

import contextvars
import json
import os
import posixpath
import re
import shlex
import sys
import time
import uuid

from . import backends, errors, options, serialize
from .job import ArrayJob, Job
from .workflow import _record

_stack = contextvars.ContextVar("sluice_clusters", default=())
_default = []


def current():
    """The innermost Cluster entered with `with`, else a local Cluster
    made on first use (Sluice's commands found through PATH)."""
    s = _stack.get()
    if s:
        return s[-1]
    if not _default:
        _default.append(Cluster())
    return _default[0]


class Cluster:
    """A connection to a cluster and the defaults of the tasks sent there.

    backend_type  "local" (Slurm's commands on this host), "ssh" (the same
                  on hostname, through the ssh binary) or "rest"
                  (slurmrestd at url, with a JWT)
    hostname      the login node (ssh) or slurmrestd's host (rest)
    partition, account, qos   defaults for every task
    defaults      any other task keywords as defaults ({"time": "10"})
    bin_dir       where sbatch, squeue, ... are (default: PATH); on the
                  login node for ssh, on the nodes (for srun) for rest
    workdir       the directory of the per-job directories; it must be on
                  a filesystem the compute nodes see (default
                  ~/.sluice/jobs; ssh: shared_dir/jobs)
    python        the interpreter the compute side runs (default:
                  sys.executable; ssh: "python3")
    env           extra environment for the commands (e.g. SLURM_CONF)
    max_pickle_size   byte limit of pickled arguments and results
    poll_interval     seconds between two state checks at most
    command_timeout   seconds a command (or an HTTP request) may take
    unreachable_grace seconds wait() keeps polling a cluster that does
                      not answer (a controller restart) before raising
    ssh:  user, port, identity_file, ssh_options (list of -o values),
          shared_dir (a path on the login node's shared filesystem)
    rest: url ("http://host:6820"), token (JWT; default $SLURM_JWT, else
          `scontrol token` through bin_dir), api_version ("v0.0.43")

    As a context manager it is the cluster of the tasks called inside.
    """

    def __init__(self, backend_type="local", hostname=None, partition=None,
                 account=None, qos=None, *, defaults=None, bin_dir=None,
                 workdir=None, python=None, env=None,
                 max_pickle_size=serialize.DEFAULT_MAX_PICKLE,
                 poll_interval=1.0, command_timeout=60, unreachable_grace=300,
                 user=None, port=None,
                 identity_file=None, ssh_options=(), shared_dir=None,
                 url=None, token=None, api_version="v0.0.43"):
        self.backend_type = backend_type
        self.hostname = hostname
        self.defaults = options.check(options.merge(
            defaults or {}, {"partition": partition, "account": account,
                             "qos": qos}), "Cluster(defaults=...)")
        self.bin_dir = bin_dir
        self.python = python
        self.env = dict(env or {})
        if isinstance(max_pickle_size, bool) or \
                not isinstance(max_pickle_size, int) or max_pickle_size < 1:
            raise ValueError("max_pickle_size=%r: expected a positive "
                             "integer" % (max_pickle_size,))
        self.max_pickle_size = max_pickle_size
        self.poll_interval = poll_interval
        self.command_timeout = command_timeout
        self.unreachable_grace = unreachable_grace
        self.user, self.port = user, port
        self.identity_file = identity_file
        self.ssh_options = list(ssh_options)
        self.shared_dir = shared_dir
        self.url, self.token, self.api_version = url, token, api_version
        if backend_type == "ssh":
            if not hostname:
                raise ValueError("Cluster(backend_type=\"ssh\") needs "
                                 "hostname=")
            if not shared_dir:
                raise ValueError("Cluster(backend_type=\"ssh\") needs "
                                 "shared_dir=, a path on the login node "
                                 "that the compute nodes see")
            self.workdir = workdir or posixpath.join(shared_dir, "jobs")
        else:
            self.workdir = os.path.abspath(os.path.expanduser(
                workdir or "~/.sluice/jobs"))
        self._backend = backends.make(self)
        self._tokens = []

    def __repr__(self):
        return "<sluice.Cluster %s%s>" % (
            self.backend_type, " " + self.hostname if self.hostname else "")

    def __enter__(self):
        self._tokens.append(_stack.set(_stack.get() + (self,)))
        return self

    def __exit__(self, *exc):
        _stack.reset(self._tokens.pop())
        return False

    # ---- paths on the shared filesystem ----------------------------------
    def _join(self, *parts):
        return posixpath.join(*parts)

    def _new_jobdir(self, name):
        safe = re.sub(r"[^A-Za-z0-9_.-]", "_", name)[:40]
        return self._join(self.workdir, "%s-%s-%s" % (
            time.strftime("%Y%m%d-%H%M%S"), safe, uuid.uuid4().hex[:8]))

    def _sys_path(self):
        rb = self._backend.remote_sys_path
        if rb is not None:
            return rb
        out = []
        for p in sys.path:
            p = os.path.abspath(p or os.getcwd())
            if os.path.isdir(p) and p not in out:
                out.append(p)
        return out

    # ---- handles of earlier submissions ------------------------------------
    def attach(self, job_id, jobdir=None):
        """The Job (or ArrayJob) of a job submitted earlier through the SDK,
        e.g. by a process that has since exited.  The job directory is
        found through the controller (the job's StdOut) unless given."""
        if isinstance(job_id, bool) or not isinstance(job_id, int):
            raise TypeError("attach(): job_id must be an int, not %r"
                            % (job_id,))
        if jobdir is None:
            out = self._backend.stdout_path(job_id)
            if not out:
                raise errors.SluiceError(
                    "job %d: the controller does not know it (any more); "
                    "give attach(job_id, jobdir=...)" % job_id)
            jobdir = posixpath.dirname(out)
        data = self._backend.read(self._join(jobdir, "meta.json"))
        if data is None:
            raise errors.SluiceError("job %d: %s is not a sluice job "
                                     "directory (no meta.json)"
                                     % (job_id, jobdir))
        meta = json.loads(data)
        name, ntasks = meta.get("name") or "?", meta.get("ntasks", 1)
        if meta.get("array"):
            return ArrayJob(self, job_id, jobdir, name, meta.get("items", 1),
                            ntasks)
        return Job(self, job_id, jobdir, name, None, ntasks)

    # ---- submission --------------------------------------------------------
    def _submit(self, task, calls, array):
        """Stage the calls of task and queue them as one job (or one
        array); nothing stays queued or staged when this raises."""
        opts = options.merge(self.defaults, task.opts)
        limit = opts.get("max_pickle_size", self.max_pickle_size)
        name = opts.get("job_name") or task.func.__name__
        what = "%s()" % task.func.__qualname__
        by_value = getattr(self._backend, "code_by_value", False)
        spec, fdata = serialize.function_spec(task.func, by_value)
        files = {}
        if fdata is not None:
            if len(fdata) > limit:
                raise errors.PayloadTooLarge("the function %s" % what,
                                             len(fdata), limit)
            files["func.pkl"] = fdata
        found = []
        for i, (a, k) in enumerate(calls):
            data, jobs = serialize.dumps_args(
                a, k, what if not array else "item %d of %s.map()" % (i, what),
                limit)
            files["args.pkl" if not array else "args.%d.pkl" % i] = data
            found += jobs
        deps = list(task.deps)
        seen = set()
        auto = []
        for j in found:
            if j.dependency_id not in seen:
                seen.add(j.dependency_id)
                auto.append(j)
        if auto:
            deps.append("afterok:" + ":".join(j.dependency_id for j in auto))
        jobdir = self._new_jobdir(name)
        python = self._backend.python()
        ntasks = self._ntasks(opts)
        files["meta.json"] = serialize.meta_json(
            python, self._sys_path(), spec, limit, array,
            self._backend.sluice_dir(), name, len(calls), ntasks)
        script = self._script(task, opts, jobdir, python, ntasks)
        files["job.sh"] = script.encode()
        suffix = ".%a" if array else ""
        out = self._join(jobdir, "stdout" + suffix)
        err = self._join(jobdir, "stderr" + suffix)
        arr = None
        if array:
            arr = "0-%d" % (len(calls) - 1)
            if opts.get("throttle"):
                arr += "%%%d" % opts["throttle"]
        dep = ",".join(deps) if deps else None
        if self.backend_type == "rest":
            sb = None
            job = options.rest_job_desc(opts)
            job.update({"name": name, "standard_output": out,
                        "standard_error": err})
            if arr:
                job["array"] = arr
            if dep:
                job["dependency"] = dep
                flags = job.get("flags") or []
                if isinstance(flags, str):
                    flags = [f for f in flags.split(",") if f]
                job["flags"] = list(flags) + ["KILL_INVALID_DEPENDENCY"]
        else:
            job = None
            sb = options.sbatch_args(opts) + [
                "--job-name=" + name, "--output=" + out, "--error=" + err]
            if arr:
                sb.append("--array=" + arr)
            if dep:
                sb += ["--dependency=" + dep, "--kill-on-invalid-dep=yes"]
        self._backend.stage(jobdir, files)
        try:
            job_id = self._backend.submit(script, sb, job, jobdir)
        except BaseException:
            self._backend.unstage(jobdir)
            raise
        if array:
            handle = ArrayJob(self, job_id, jobdir, name, len(calls), ntasks,
                              opts)
        else:
            handle = Job(self, job_id, jobdir, name, None, ntasks, opts)
        _record(handle, task, auto, opts)
        return handle

    @staticmethod
    def _ntasks(opts):
        n = opts.get("ntasks")
        if n:
            return n
        per = opts.get("ntasks_per_node")
        nodes = opts.get("nodes")
        if per:
            if isinstance(nodes, str):
                nodes = int(nodes.split("-")[0])
            return per * (nodes or 1)
        return 1

    def _script(self, task, opts, jobdir, python, ntasks):
        q = shlex.quote
        lines = ["#!/bin/sh",
                 "# sluice: %s.%s staged in %s" % (
                     task.func.__module__, task.func.__qualname__,
                     jobdir.replace("\n", "?"))]
        for k, v in sorted(opts.get("environment", {}).items()):
            lines.append("export %s=%s" % (k, q(v)))
        if self.bin_dir:        # scontrol for sluice.log_metric & co
            lines.append("export SLUICE_BIN_DIR=%s" % q(self.bin_dir))
        lines += [
            "if ! command -v %s >/dev/null 2>&1; then" % q(python),
            "\tprintf 'sluice: the Python interpreter %%s is missing on "
            "%%s\\n' %s \"$(hostname)\" >&2" % q(python),
            "\texit 127",
            "fi"]
        boot = ("import sys; sys.path.insert(0, sys.argv[1]); "
                "from sluice.__main__ import main; "
                "sys.exit(main(['run', sys.argv[2]]))")
        run = "%s -c %s %s %s" % (q(python), q(boot),
                                  q(self._backend.sluice_dir()), q(jobdir))
        if ntasks > 1 or (opts.get("nodes") not in (None, 1, "1")):
            srun = self._join(self.bin_dir, "srun") if self.bin_dir else "srun"
            run = "%s %s" % (q(srun), run)
        lines.append("exec " + run)
        return "\n".join(lines) + "\n"
