"""A Cluster whose nodes are emulated: one node_emu process (built as
<build>/tests/node_emu, tests/perf/node_emu.c) serves every NodeName on its
own port instead of one slurmd per node.  Jobs do not run: a batch script
"runs" for its first `sleep N` (else ends at once) and is reported
complete, over the real protocol.  For the scale tests and benchmarks
(tests/integration/test_node_emu.py, tests/perf/bench_nodes.py).
"""

import os
import signal
import subprocess

import cluster as cl


def node_emu_path():
    build = os.environ.get("SLUICE_BUILD_DIR",
                           os.path.join(cl.REPO, "build"))
    return os.path.join(os.path.abspath(build), "tests", "node_emu")


class EmuCluster(cl.Cluster):
    """emu_procs node_emu processes share the nodes (a contiguous part
    each); emu_args are passed to each."""

    def __init__(self, emu_procs=1, emu_args=(), **kw):
        super().__init__(**kw)
        self.emu_procs = emu_procs
        self.emu_args = list(emu_args)
        self.emus = []

    def start_slurmd(self, node):
        return None      # no slurmd: start() then calls start_emu()

    def emu_log(self, i=0):
        return os.path.join(self.dir, "log", "node_emu-%d.log" % i)

    def start_emu(self):
        path = node_emu_path()
        if not os.access(path, os.X_OK):
            raise cl.ClusterError("%s missing (build tests/perf)" % path)
        names = self.node_names
        per = (len(names) + self.emu_procs - 1) // self.emu_procs
        for i in range(self.emu_procs):
            part = names[i * per:(i + 1) * per]
            if not part:
                break
            # n<a>..n<b> are contiguous: one range per process
            expr = "n[%s-%s]" % (part[0][1:], part[-1][1:])
            argv = [path, "-N", expr, "-L", self.emu_log(i)] + self.emu_args
            self.emus.append(self._spawn("node_emu-%d" % i, argv))
        return self.emus

    def start(self, wait=True):
        super().start(wait=False)
        self.start_emu()
        if wait:
            self.wait_ready()
        return self

    def stop_emu(self, wait=30.0):
        """SIGTERM every node_emu, wait for it; the exit codes."""
        rcs = []
        for d in self.emus:
            if d.alive():
                os.kill(d.pid, signal.SIGTERM)
        for d in self.emus:
            try:
                rcs.append(d.popen.wait(timeout=wait))
            except subprocess.TimeoutExpired:
                os.kill(d.pid, signal.SIGKILL)
                rcs.append(d.popen.wait(timeout=10))
            self._forget(d)
        self.emus = []
        return rcs

    def stop(self, cancel=True):
        try:
            self.stop_emu()
        finally:
            super().stop(cancel=False)

    def log_tails(self, n=40):
        text = super().log_tails(n)
        for i in range(max(1, self.emu_procs)):
            if os.path.exists(self.emu_log(i)):
                text += "\n--- %s ---\n%s" % (self.emu_log(i),
                                              self._tail(self.emu_log(i), n))
        return text
