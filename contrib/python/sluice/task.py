"""@task: a Python function that runs as a Slurm job when called."""

import functools

from . import options

DEPENDENCY_KINDS = ("after", "afterany", "afterburstbuffer", "aftercorr",
                    "afternotok", "afterok", "singleton")


def _dep_id(job):
    if hasattr(job, "dependency_id"):
        return job.dependency_id
    if isinstance(job, int) and not isinstance(job, bool) and job > 0:
        return str(job)
    if isinstance(job, str) and job.replace("_", "").isdigit():
        return job
    raise TypeError(".after(): %r is not a job (a Job, an ArrayJob, or a "
                    "job id)" % (job,))


class Task:
    """A function with job options.  Calling it submits one job and returns
    a Job; .map(items) submits one job array; .after(*jobs) and
    .options(**kw) return a copy with a dependency or more options."""

    def __init__(self, func, opts, deps=(), dep_jobs=()):
        self.func = func
        self.opts = opts
        self.deps = tuple(deps)           # ("afterok:12:13", ...)
        self.dep_jobs = tuple(dep_jobs)   # [(kind, handle)] for graphs
        functools.update_wrapper(self, func)

    def __repr__(self):
        return "<sluice.task %s.%s>" % (self.func.__module__,
                                        self.func.__qualname__)

    def __call__(self, *args, **kwargs):
        from .cluster import current
        return current()._submit(self, [(args, kwargs)], array=False)

    def map(self, items, throttle=None):
        """One job array, item i as task i.  A dict item is passed as
        keyword arguments, a tuple as positional arguments, anything else
        as the single argument.  throttle=N runs at most N at once
        (--array=0-M%N)."""
        from .cluster import current
        calls = []
        for it in items:
            if isinstance(it, dict):
                calls.append(((), it))
            elif isinstance(it, tuple):
                calls.append((it, {}))
            else:
                calls.append(((it,), {}))
        if not calls:
            raise ValueError("%s.map(): no items" % self.__name__)
        t = self
        if throttle is not None:
            t = self.options(throttle=throttle)
        return current()._submit(t, calls, array=True)

    def sweep(self, space, metric, mode="min", early_stop=None, trials=None,
              throttle=None, poll_interval=None, timeout=None, log=None):
        """A hyperparameter sweep: one job array, a trial per parameter
        dict of space (a dict of lists = the grid of every combination; a
        list of dicts; a sampler function f(i) or an iterator, with
        trials=N), each called as fn(**params) and logging metric with
        sluice.log_metric(metric, value, step).  mode "min" or "max".
        early_stop: None, True, a dict or a sweep.SuccessiveHalving
        (min_step, reduction): trials that fall behind at a rung are
        cancelled.  Waits for the sweep (JobTimeout after timeout s) and
        returns a sweep.Sweep: .best, .trials, .stopped, .report()."""
        from . import sweep
        return sweep.run(self, space, metric, mode, early_stop, trials,
                         throttle, poll_interval, timeout, log)

    def after(self, *jobs, kind="afterok", any_of=False, delay=None):
        """A copy that waits for jobs: kind is one of Slurm's dependency
        types (after, afterany, afterburstbuffer, aftercorr, afternotok,
        afterok, singleton).  Several .after() calls must all hold;
        any_of=True makes this one's jobs alternatives ("?").  delay=N
        (kind "after" only) starts it N minutes after they started
        (after:JOB+N)."""
        if kind not in DEPENDENCY_KINDS:
            raise ValueError(".after(kind=%r): expected one of %s"
                             % (kind, ", ".join(DEPENDENCY_KINDS)))
        if delay is not None and (kind != "after" or isinstance(delay, bool)
                                  or not isinstance(delay, int) or delay < 1):
            raise ValueError(".after(delay=%r): a positive number of minutes, "
                             "with kind=\"after\" only" % (delay,))
        if kind == "singleton":
            if jobs:
                raise ValueError(".after(kind=\"singleton\") takes no jobs")
            return Task(self.func, self.opts, self.deps + ("singleton",),
                        self.dep_jobs)
        if not jobs:
            raise ValueError(".after(): no jobs given")
        ids = [_dep_id(j) for j in jobs]
        if delay:
            ids = ["%s+%d" % (i, delay) for i in ids]
        if any_of:
            dep = "?".join("%s:%s" % (kind, i) for i in ids)
        else:
            dep = "%s:%s" % (kind, ":".join(ids))
        return Task(self.func, self.opts, self.deps + (dep,),
                    self.dep_jobs + tuple((kind, j) for j in jobs
                                          if hasattr(j, "dependency_id")))

    def options(self, **opts):
        """A copy with more (or other) job options."""
        new = options.check(opts, "%s.options()" % self.__name__)
        return Task(self.func, options.merge(self.opts, new), self.deps,
                    self.dep_jobs)

    def local(self, *args, **kwargs):
        """Call the function here, without Slurm (for tests)."""
        return self.func(*args, **kwargs)


def task(func=None, **opts):
    """Decorator: @task or @task(time="00:10:00", mem="4G", ...).

    Keywords (each maps to the sbatch option of the same name, with "_"
    for "-"): time, time_min, mem, mem_per_cpu, mem_per_gpu,
    cpus_per_task, cpus_per_gpu, gpus, gpus_per_node, gpus_per_task, gres,
    nodes, ntasks, ntasks_per_node, partition, account, qos, constraint,
    reservation, nodelist, exclude, job_name, comment, wckey, licenses,
    begin, deadline, nice, mail_type, mail_user, requeue, exclusive, hold,
    checkpoint (a resumable job: see sluice.checkpoint), throttle (for
    .map()); and environment={NAME: value},
    sbatch_options={option: value} (any other sbatch option),
    rest_options={property: value} (the rest backend's job_desc),
    max_pickle_size=bytes.  An unknown keyword raises TypeError."""
    checked = options.check(opts, "task()")
    if func is None:
        return lambda f: Task(f, checked)
    if not callable(func):
        raise TypeError("task() takes a function, not %r" % (func,))
    return Task(func, checked)
