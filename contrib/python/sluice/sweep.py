"""Hyperparameter sweeps: task.sweep(space, metric=..., mode="min",
early_stop=SuccessiveHalving(...)).

A sweep is one job array (one trial an item, its parameters as keyword
arguments), the metric each trial logs with sluice.log_metric(metric,
value, step), and scancel of the trials that fall behind: nothing but
arrays, run tracking and cancel.

Early stopping is asynchronous successive halving: rungs at steps
min_step, min_step*reduction, min_step*reduction**2, ...  A trial that
has logged a step at or past a rung is compared, at that rung (its
value at the last step it logged up to the rung), with every trial that
reached the rung; once at least `reduction` trials did, those outside
the best 1/reduction of them (at least one kept) are cancelled.  The
decision is taken again at every poll as more trials reach the rung, so
an early arrival that falls behind later arrivals is stopped then.
"""

import itertools
import math
import time

from . import errors


class SuccessiveHalving:
    """early_stop=SuccessiveHalving(min_step=1, reduction=2)."""

    def __init__(self, min_step=1, reduction=2, max_step=None):
        if isinstance(min_step, bool) or not isinstance(min_step, int) or \
                min_step < 1:
            raise ValueError("SuccessiveHalving(min_step=%r): a positive "
                             "int" % (min_step,))
        if isinstance(reduction, bool) or not isinstance(reduction, int) \
                or reduction < 2:
            raise ValueError("SuccessiveHalving(reduction=%r): an int >= 2"
                             % (reduction,))
        self.min_step, self.reduction, self.max_step = (min_step, reduction,
                                                        max_step)

    def rungs(self, top):
        r = self.min_step
        while r <= top and (self.max_step is None or r < self.max_step):
            yield r
            r *= self.reduction

    def __repr__(self):
        return "SuccessiveHalving(min_step=%d, reduction=%d)" % (
            self.min_step, self.reduction)


class Trial:
    """One item of the sweep: .index, .params, .job, .state, .value (the
    metric at its last logged step), .step, .history [(step, value)],
    .stopped_at (the rung it was cancelled at, or None)."""

    def __init__(self, index, params, job):
        self.index, self.params, self.job = index, params, job
        self.state = "PENDING"
        self.history = []
        self.stopped_at = None

    @property
    def value(self):
        return self.history[-1][1] if self.history else None

    @property
    def step(self):
        return self.history[-1][0] if self.history else None

    def value_at(self, step):
        v = None
        for s, x in self.history:
            if s > step:
                break
            v = x
        return v

    def __repr__(self):
        return "<Trial %d %s %s %s=%r>" % (self.index, self.params,
                                           self.state, "value", self.value)


class Sweep:
    """The outcome: .trials (in item order), .best (the trial that ended
    COMPLETED with the best final value), .stopped (trials cancelled by
    early stopping), .job (the ArrayJob), .report() (a text table)."""

    def __init__(self, job, trials, metric, mode):
        self.job, self.trials, self.metric, self.mode = (job, trials, metric,
                                                          mode)

    @property
    def stopped(self):
        return [t for t in self.trials if t.stopped_at is not None]

    @property
    def best(self):
        done = [t for t in self.trials
                if t.state == "COMPLETED" and t.value is not None]
        if not done:
            return None
        return (min if self.mode == "min" else max)(done,
                                                    key=lambda t: t.value)

    def report(self):
        best = self.best
        lines = ["%-5s %-10s %8s %14s  %s" % ("trial", "state", "step",
                                             self.metric, "params")]
        for t in self.trials:
            state = "STOPPED@%d" % t.stopped_at if t.stopped_at is not None \
                else t.state
            lines.append("%-5d %-10s %8s %14s  %s%s" % (
                t.index, state, "" if t.step is None else t.step,
                "" if t.value is None else "%.6g" % t.value, t.params,
                "  <- best" if t is best else ""))
        return "\n".join(lines)


def expand(space, trials=None):
    """The trials' parameter dicts: a dict of lists is a grid (every
    combination, in key order); a list of dicts is taken as is; a
    callable is called with the trial index `trials` times; an iterator
    gives up to `trials` dicts."""
    if isinstance(space, dict):
        keys = list(space)
        vals = []
        for k in keys:
            v = space[k]
            if isinstance(v, (str, bytes)) or not hasattr(v, "__iter__"):
                v = [v]
            vals.append(list(v))
        out = [dict(zip(keys, c)) for c in itertools.product(*vals)]
    elif isinstance(space, (list, tuple)):
        out = list(space)
    elif callable(space):
        if not trials:
            raise ValueError("sweep(): a sampler needs trials=N")
        out = [space(i) for i in range(trials)]
    elif hasattr(space, "__next__"):
        if not trials:
            raise ValueError("sweep(): an iterator needs trials=N")
        out = list(itertools.islice(space, trials))
    else:
        raise TypeError("sweep(): expected a dict (grid), a list of dicts, "
                        "a sampler function or an iterator, not %s"
                        % type(space).__name__)
    if trials is not None and isinstance(space, (dict, list, tuple)):
        out = out[:trials]
    for i, p in enumerate(out):
        if not isinstance(p, dict):
            raise TypeError("sweep(): trial %d is %r, not a dict of "
                            "keyword arguments" % (i, p))
    if not out:
        raise ValueError("sweep(): no trials")
    return out


def _early_stop(early_stop):
    if early_stop is None or early_stop is False:
        return None
    if early_stop is True:
        return SuccessiveHalving()
    if isinstance(early_stop, dict):
        return SuccessiveHalving(**early_stop)
    if isinstance(early_stop, SuccessiveHalving):
        return early_stop
    raise TypeError("sweep(early_stop=%r): None, True, a dict of "
                    "SuccessiveHalving's keywords or a SuccessiveHalving"
                    % (early_stop,))


def _better(mode):
    return (lambda a, b: a < b) if mode == "min" else (lambda a, b: a > b)


def _to_stop(trials, sh, mode):
    """Running trials outside the best 1/reduction at some rung."""
    out = {}
    top = max((t.step for t in trials if t.step is not None), default=0)
    for rung in sh.rungs(top):
        there = [t for t in trials if t.step is not None and t.step >= rung
                 and t.value_at(rung) is not None]
        if len(there) < sh.reduction:
            continue
        ranked = sorted(there, key=lambda t: t.value_at(rung),
                        reverse=(mode == "max"))
        keep = max(1, len(ranked) // sh.reduction)
        for t in ranked[keep:]:
            if t.state in ("RUNNING", "PENDING") and t.index not in out:
                out[t.index] = rung
    return out


def run(task, space, metric, mode="min", early_stop=None, trials=None,
        throttle=None, poll_interval=None, timeout=None, log=None):
    """Task.sweep's body (see Task.sweep)."""
    if mode not in ("min", "max"):
        raise ValueError("sweep(mode=%r): \"min\" or \"max\"" % (mode,))
    if not isinstance(metric, str) or not metric:
        raise ValueError("sweep(metric=%r): the name the trials log"
                         % (metric,))
    sh = _early_stop(early_stop)
    params = expand(space, trials)
    job = task.map(params, throttle=throttle)
    ts = [Trial(i, p, job[i]) for i, p in enumerate(params)]
    cluster = job.cluster
    poll = poll_interval or min(1.0, cluster.poll_interval)
    deadline = None if timeout is None else time.time() + timeout
    while True:
        states = job.states()
        rows = cluster._backend.metrics(job.job_id)
        hist = {}
        for r in rows:
            if r.get("kind") != "metric" or r.get("name") != metric:
                continue
            idx = r.get("array_task_id")
            v = r.get("value")
            if idx is None or not isinstance(v, (int, float)) or \
                    not math.isfinite(v):
                continue
            hist.setdefault(idx, {})[r.get("step", 0)] = float(v)
        for t, st in zip(ts, states):
            if t.stopped_at is None:
                t.state = st
            t.history = sorted(hist.get(t.index, {}).items())
        if sh:
            for idx, rung in _to_stop(ts, sh, mode).items():
                t = ts[idx]
                try:
                    t.job.cancel()
                except errors.SluiceError:
                    pass        # it ended meanwhile
                t.stopped_at = rung
                t.state = "CANCELLED"
                if log:
                    log("sweep %s: trial %d stopped at step %d (%s=%r)"
                        % (job.job_id, idx, rung, metric,
                           t.value_at(rung)))
        if all(t.stopped_at is not None or t.state in _TERMINAL
               for t in ts):
            break
        if deadline is not None and time.time() > deadline:
            raise errors.JobTimeout("sweep %s: not finished after %ss"
                                    % (job.job_id, timeout))
        time.sleep(poll)
    # the last values logged before the end reach slurmdbd shortly after
    _settle(cluster, job, ts, metric)
    return Sweep(job, ts, metric, mode)


_TERMINAL = {"COMPLETED", "CANCELLED", "FAILED", "TIMEOUT", "NODE_FAIL",
             "PREEMPTED", "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY"}


def _settle(cluster, job, ts, metric, wait=10.0):
    """Read the metrics again until every completed trial's last value is
    there (a trial's result says how many steps it logged only through
    the metric itself: wait until two reads agree)."""
    prev = None
    end = time.time() + wait
    while time.time() < end:
        rows = [r for r in cluster._backend.metrics(job.job_id)
                if r.get("kind") == "metric" and r.get("name") == metric]
        if prev is not None and len(rows) == prev:
            break
        prev = len(rows)
        time.sleep(1.0)
    hist = {}
    for r in rows:
        v = r.get("value")
        if isinstance(v, (int, float)):
            hist.setdefault(r.get("array_task_id"), {})[r.get("step", 0)] = \
                float(v)
    for t in ts:
        if hist.get(t.index):
            t.history = sorted(hist[t.index].items())
