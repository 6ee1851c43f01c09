"""@workflow: a function that calls tasks and returns when the DAG they
form has completed.

Inside a workflow a Job passed as an argument to another task becomes an
afterok dependency and its return value takes its place on the compute
side, so ordinary-looking code builds the graph:

    @workflow
    def pipeline(path):
        data = preprocess(path)          # job 1
        model = train(data)              # job 2, afterok:1
        return evaluate(model)           # job 3, afterok:2

    score = pipeline("/shared/data")     # waits for job 3, returns its value
    print(pipeline.last_run.text())      # the graph as text
    print(pipeline.last_run.dot())       # ... and as Graphviz dot

When a job fails, the jobs that cannot run any more are cancelled by the
controller (--kill-on-invalid-dep), the others finish, and the first
failure is raised (the remote exception, with its traceback).
"""

import contextvars
import functools

_current = contextvars.ContextVar("sluice_workflow", default=None)


def _record(handle, task, auto_deps, opts):
    run = _current.get()
    if run is not None:
        run._add(handle, task, auto_deps, opts)


_SHOWN = ("nodes", "ntasks", "ntasks_per_node", "cpus_per_task", "mem",
          "gpus", "gpus_per_node", "gpus_per_task", "time", "partition")


class WorkflowRun:
    """The jobs one call of a workflow submitted and their edges."""

    def __init__(self, name):
        self.name = name
        self.jobs = []            # handles, in submission order
        self.edges = []           # (from handle, to handle, kind)
        self._labels = {}

    def _add(self, handle, task, auto_deps, opts):
        self.jobs.append(handle)
        res = ", ".join("%s=%s" % (k, opts[k]) for k in _SHOWN if k in opts)
        self._labels[id(handle)] = res
        for j in auto_deps:
            self.edges.append((j, handle, "afterok"))
        for kind, j in task.dep_jobs:
            self.edges.append((j, handle, kind))

    def wait(self, timeout=None):
        for j in self.jobs:
            j.wait(timeout)

    def _key(self, h):
        return str(h.dependency_id)

    @staticmethod
    def _name(h):
        return h.name + ("[%d]" % len(h.tasks) if hasattr(h, "tasks") else "")

    def _state(self, h):
        try:
            return h.state()
        except Exception:
            return "?"

    def text(self, states=True):
        """One line per job: id, name, resources, what it waits for."""
        lines = ["workflow %s: %d jobs" % (self.name, len(self.jobs))]
        for h in self.jobs:
            ins = ["%s:%s" % (k, self._key(a)) for a, b, k in self.edges
                   if b is h]
            line = "  %s %s" % (self._key(h), self._name(h))
            if self._labels.get(id(h)):
                line += " [%s]" % self._labels[id(h)]
            if ins:
                line += " <- " + ", ".join(ins)
            if states:
                line += "  " + self._state(h)
            lines.append(line)
        return "\n".join(lines) + "\n"

    def dot(self):
        """The graph in Graphviz dot (render with `dot -Tsvg`)."""
        def esc(s):
            return s.replace("\\", "\\\\").replace('"', '\\"')
        out = ['digraph "%s" {' % esc(self.name), "  rankdir=LR;",
               "  node [shape=box];"]
        for h in self.jobs:
            label = "%s\\n%s" % (esc(self._name(h)), esc(self._key(h)))
            if self._labels.get(id(h)):
                label += "\\n" + esc(self._labels[id(h)])
            out.append('  "%s" [label="%s"];' % (esc(self._key(h)), label))
        for a, b, k in self.edges:
            out.append('  "%s" -> "%s" [label="%s"];' % (
                esc(self._key(a)), esc(self._key(b)), esc(k)))
        out.append("}")
        return "\n".join(out) + "\n"

    __str__ = text


def _resolve(value):
    """Jobs in a workflow's return value -> their results."""
    if hasattr(value, "_sluice_result_ref") or hasattr(value, "tasks"):
        return value.result()
    if isinstance(value, list):
        return [_resolve(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_resolve(v) for v in value)
    if isinstance(value, dict):
        return {k: _resolve(v) for k, v in value.items()}
    return value


class Workflow:
    """What @workflow makes.  Calling it runs the function (which submits
    tasks), waits for every job it submitted, and returns the function's
    return value with each Job in it replaced by that job's result.
    .last_run is the WorkflowRun (jobs, .text(), .dot())."""

    def __init__(self, func, timeout=None):
        self.func = func
        self.timeout = timeout
        self.last_run = None
        functools.update_wrapper(self, func)

    def __call__(self, *args, **kwargs):
        run = WorkflowRun(self.func.__name__)
        self.last_run = run
        tok = _current.set(run)
        try:
            ret = self.func(*args, **kwargs)
        finally:
            _current.reset(tok)
        run.wait(self.timeout)
        for h in run.jobs:            # the first failure, in order
            h.result(0)
        return _resolve(ret)


def workflow(func=None, *, timeout=None):
    """Decorator: @workflow or @workflow(timeout=seconds)."""
    if func is None:
        return lambda f: Workflow(f, timeout)
    return Workflow(func, timeout)
