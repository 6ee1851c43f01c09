"""Handles on submitted work: Job (one job, or one task of an array) and
ArrayJob (what .map() returns)."""

import time

from . import errors, serialize
from .backends.base import JobStatus

_NEVER = "DependencyNeverSatisfied"


def _tail(text, n=20):
    return "\n".join(text.splitlines()[-n:])


class Job:
    """One submitted call.

    .job_id        the Slurm job id (int), or "JOBID_INDEX" for an item
                   of an array
    .state()       Slurm's state name: PENDING, RUNNING, COMPLETED, ...
    .wait(t)       block until the job ends (JobTimeout after t seconds);
                   returns the final state
    .result(t)     the function's return value (re-raises its exception
                   with the remote traceback as __cause__)
    .results(t)    every task's return value, by SLURM_PROCID (ntasks > 1)
    .cancel()      scancel
    .checkpoint()  scontrol checkpoint (a checkpoint=True task: it saves
                   with sluice.checkpoint and is requeued, then resumes)
    .stdout() / .stderr()   the job's output so far
    .usage()       accounting rows (sacct) of the job and its steps
    .metrics()     the values the task logged (sluice.log_metric, ...)
    """

    def __init__(self, cluster, job_id, jobdir, name, index=None, ntasks=1,
                 opts=None, array=None):
        self.cluster = cluster
        self.array_job_id = job_id
        self.index = index
        self.jobdir = jobdir
        self.name = name
        self.ntasks = ntasks
        self.options = dict(opts or {})
        self._array = array
        self._final = None
        self._fetched = {}        # result files read ahead (ArrayJob)

    # ---- identity ----------------------------------------------------------
    @property
    def job_id(self):
        if self.index is None:
            return self.array_job_id
        return "%d_%d" % (self.array_job_id, self.index)

    @property
    def dependency_id(self):
        return str(self.job_id)

    def __repr__(self):
        return "<sluice.Job %s %s>" % (self.job_id, self.name)

    def _sluice_result_ref(self):
        """(result path, job id) for a downstream task's runner."""
        return (self._path(serialize.result_name(self.index)),
                str(self.job_id))

    def _path(self, name):
        return self.cluster._join(self.jobdir, name)

    # ---- state -------------------------------------------------------------
    def status(self):
        """JobStatus (state, reason, exit_code)."""
        if self._final is not None:
            return self._final
        if self._array is not None:
            return self._array._status_of(self.index)
        st = self.cluster._backend.status(self.array_job_id).get(None)
        return self._settle(st)

    def _settle(self, st):
        if st is None:
            # gone from the controller and from accounting: the result
            # file tells whether it ran
            data = self.cluster._backend.read(
                self._path(serialize.result_name(self.index)))
            if data is None:
                return JobStatus("UNKNOWN")
            rec = serialize.load_record(data, self.jobdir)
            st = JobStatus("COMPLETED" if rec.get("ok") else "FAILED")
        if st.done or (st.state == "PENDING" and st.reason == _NEVER):
            self._final = st
        return st

    def state(self):
        return self.status().state

    def done(self):
        st = self.status()
        return st.done or st.reason == _NEVER

    def wait(self, timeout=None):
        """Wait until the job ends; returns its final state.  A job whose
        dependency can never be satisfied counts as ended."""
        deadline = None if timeout is None else time.time() + timeout
        delay = 0.1
        unknown = 0
        down_since = None
        while True:
            try:
                st = self.status()
                down_since = None
            except errors.ClusterUnreachable:
                # a controller restart or a network blip: keep waiting,
                # up to Cluster(unreachable_grace=...) seconds
                now = time.time()
                down_since = down_since or now
                if now - down_since > self.cluster.unreachable_grace:
                    raise
                st = JobStatus("UNKNOWN")
                unknown = 0
            if st.done or st.reason == _NEVER:
                return st.state
            if down_since is None:
                unknown = unknown + 1 if st.state == "UNKNOWN" else 0
            if unknown > 20:
                raise errors.JobFailed("job %s is unknown to the cluster "
                                       "and left no result" % self.job_id,
                                       self.job_id, "UNKNOWN")
            if deadline is not None and time.time() >= deadline:
                raise errors.JobTimeout("job %s still %s after %ss" % (
                    self.job_id, st.state, timeout))
            time.sleep(delay if deadline is None
                       else max(0.0, min(delay, deadline - time.time())))
            delay = min(delay * 1.5, self.cluster.poll_interval)

    # ---- results -----------------------------------------------------------
    def result(self, timeout=None):
        """The return value; raises what the function raised (remote
        traceback in __cause__), or JobFailed/JobCancelled/
        DependencyNeverSatisfied when the job ended without a result."""
        return self._result_of(0, timeout)

    def results(self, timeout=None):
        """[return value of each task] by SLURM_PROCID, for ntasks > 1."""
        self.wait(timeout)
        return [self._result_of(r, 0) for r in range(self.ntasks)]

    def _result_of(self, rank, timeout):
        self.wait(timeout)
        name = serialize.result_name(self.index, rank)
        path = self._path(name)
        data = self._fetched.pop(name, None)
        if data is None:
            data = self.cluster._backend.read(path)
        if data is not None:
            rec = serialize.load_record(data, path)
            if rec.get("ok"):
                return rec["value"]
            serialize.raise_record(rec, self.job_id)
        st = self.status()
        tail = _tail(self.stderr())
        if st.reason == _NEVER or (st.state == "CANCELLED" and
                                   "Dependency" in (st.reason or "")):
            raise errors.DependencyNeverSatisfied(
                "job %s never ran: a job it depends on did not end as its "
                "dependency requires" % self.job_id, self.job_id, st.state)
        if st.state == "CANCELLED":
            raise errors.JobCancelled("job %s was cancelled" % self.job_id,
                                      self.job_id, st.state, st.exit_code,
                                      tail)
        code = st.exit_code
        how = ""
        if code is None:
            ec = self.cluster._backend.exit_code(self.job_id)
            if ec:
                code = ec[0]
                how = (" (exit code %d, signal %d)" % ec if ec[1]
                       else " (exit code %d)" % ec[0])
        elif code is not None:
            how = " (exit code %s)" % code
        if st.state == "TIMEOUT":
            how += ": it reached its time limit (time=%s)" % \
                self.options.get("time", "the partition's")
        elif st.state == "OUT_OF_MEMORY":
            how += ": it ran out of memory (mem=%s)" % \
                self.options.get("mem", "the default")
        raise errors.JobFailed(
            "job %s ended %s%s without a result" % (self.job_id, st.state,
                                                    how),
            self.job_id, st.state, code, tail)

    # ---- control and output ------------------------------------------------
    def cancel(self):
        self.cluster._backend.cancel(self.job_id)

    def checkpoint(self):
        """Checkpoint the job (submitted with checkpoint=True): its
        function is told (sluice.checkpoint.requested()), saves, and the
        job is requeued; it resumes from what it saved.  SluiceError
        with the controller's reason when it cannot be."""
        self.cluster._backend.checkpoint(self.job_id)

    def _read_text(self, base):
        name = base if self.index is None else "%s.%d" % (base, self.index)
        data = self.cluster._backend.read(self._path(name))
        return "" if data is None else data.decode(errors="replace")

    def stdout(self):
        return self._read_text("stdout")

    def stderr(self):
        return self._read_text("stderr")

    def usage(self):
        """[{"JobID", "State", "Elapsed", "TotalCPU", "MaxRSS", ...}] of the
        job (first row) and its steps, from accounting."""
        rows = self.cluster._backend.usage(self.job_id)
        want = str(self.job_id)
        return [r for r in rows if r.get("JobID", "").split(".")[0] == want
                ] or rows

    def metrics(self, kind=None, name=None):
        """The values the task logged (log_metric, log_param,
        log_artifact), from accounting, by kind, name and step: dicts with
        job_id, kind, name, time and step/value (metric), value (param)
        or size (artifact).  kind/name select."""
        rows = self.cluster._backend.metrics(self.job_id)
        return [r for r in rows
                if (kind is None or r.get("kind") == kind) and
                (name is None or r.get("name") == name)]


class ArrayJob:
    """The job array of a .map(): one job id, one Job per item.

    .job_id          the array's job id (one line in squeue)
    len(a), a[i]     the item handles (Job, job_id "JOBID_i")
    .states()        [state of each item]
    .wait(t)         until every item ended
    .results(t, return_exceptions=False)
                     return values in item order; if some items failed,
                     raises ArrayErrors holding every value and error
                     (return_exceptions=True puts the exceptions in place)
    .cancel()        the whole array
    .metrics()       every item's logged values (each has array_task_id)
    """

    def __init__(self, cluster, job_id, jobdir, name, n, ntasks=1,
                 opts=None):
        self.cluster = cluster
        self.job_id = job_id
        self.jobdir = jobdir
        self.name = name
        self.options = dict(opts or {})
        self._status = {}
        self._polled = 0.0
        self.tasks = [Job(cluster, job_id, jobdir, name, i, ntasks, opts,
                          array=self) for i in range(n)]

    @property
    def dependency_id(self):
        return str(self.job_id)

    def __repr__(self):
        return "<sluice.ArrayJob %s %s[%d]>" % (self.job_id, self.name,
                                               len(self.tasks))

    def __len__(self):
        return len(self.tasks)

    def __getitem__(self, i):
        return self.tasks[i]

    def __iter__(self):
        return iter(self.tasks)

    def _poll(self):
        now = time.time()
        if now - self._polled > 0.05:
            self._status = self.cluster._backend.status(self.job_id)
            self._polled = now

    def _status_of(self, index):
        self._poll()
        return self.tasks[index]._settle(self._status.get(index))

    def states(self):
        self._polled = 0.0
        return [t.state() for t in self.tasks]

    def state(self):
        """One word for the array: the state all items share, else
        RUNNING/PENDING while any is active, else FAILED."""
        s = self.states()
        if len(set(s)) == 1:
            return s[0]
        for active in ("RUNNING", "PENDING"):
            if active in s:
                return active
        return "FAILED"

    def wait(self, timeout=None):
        deadline = None if timeout is None else time.time() + timeout
        for t in self.tasks:
            left = None if deadline is None else max(0.0,
                                                     deadline - time.time())
            t.wait(left)
        return self.states()

    def results(self, timeout=None, return_exceptions=False):
        self.wait(timeout)
        names = [serialize.result_name(t.index) for t in self.tasks]
        got = self.cluster._backend.read_many(self.jobdir, names)
        for t, n in zip(self.tasks, names):
            if got.get(n) is not None:
                t._fetched[n] = got[n]
        out, errs = [], {}
        for i, t in enumerate(self.tasks):
            try:
                out.append(t.result(0))
            except Exception as e:
                out.append(e)
                errs[i] = e
        if errs and not return_exceptions:
            raise errors.ArrayErrors(out, errs)
        return out

    result = results

    def cancel(self):
        self.cluster._backend.cancel(self.job_id)

    def usage(self):
        return self.cluster._backend.usage(self.job_id)

    def metrics(self, kind=None, name=None):
        """The values every item logged (see Job.metrics); an item's rows
        carry its index as array_task_id."""
        return Job.metrics(self, kind, name)
