#!/usr/bin/python3
"""Controller CPU per submit with many DOWN/DRAIN nodes.

Every acknowledged change is a journal commit, and each commit decides
whether the saved node states (DOWN/DRAIN nodes with their reasons)
changed.  This starts a cluster with 4 real nodes plus DRAINED extra nodes
that have no slurmd (drained with a reason, pinged only once: SlurmdTimeout
is long), then submits N_RPC jobs with tests/submit_rpc (1 thread, then
PAR threads) and prints the controller's CPU time per submit from /proc
(utime+stime: holds up on a busy machine), ROUNDS times each.

  DRAINED (1024) N_RPC (1000) PAR (8) ROUNDS (3)
  AUTH (munge; or slurm: AuthType=auth/slurm): with munge, munged's CPU
  per submit is printed too (it signs and checks for the controller)
  SLUICE_BUILD_DIR (./build; an optimised build gives figures worth quoting)

Run as root: /usr/bin/python3 tests/perf/bench_drained.py
"""
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
sys.path.insert(0, HERE)
from cluster import Cluster  # noqa: E402
from bench import say  # noqa: E402
from bench_queue import cpu_s, submit_rpc  # noqa: E402

DRAINED = int(os.environ.get("DRAINED", 1024))
N_RPC = int(os.environ.get("N_RPC", 1000))
PAR = int(os.environ.get("PAR", 8))
ROUNDS = int(os.environ.get("ROUNDS", 3))


def main():
    extra = ("MaxJobCount=%d\n" % (2 * ROUNDS * N_RPC + 1000) +
             "NodeName=d[1-%d] NodeAddr=127.0.0.1 CPUs=1 Port=1 "
             "State=DOWN\n" % DRAINED if DRAINED else "")
    c = Cluster(nodes=4, min_job_age=300, slurmd_timeout=3000, debug="info",
                extra_conf=extra, tag="benchd",
                auth=os.environ.get("AUTH", "munge"))
    try:
        c.start()
        if DRAINED:
            r = c.run(["scontrol", "update", "NodeName=d[1-%d]" % DRAINED,
                       "State=DRAIN", "Reason=bench"])
            if r.rc:
                raise RuntimeError("drain: %r" % r)
        r = c.run(["scontrol", "update", "NodeName=n[1-4]", "State=DRAIN",
                   "Reason=bench"])
        if r.rc:
            raise RuntimeError("drain: %r" % r)
        n = len(c.run(["sinfo", "-h", "-N", "-t", "drain,down", "-o", "%N"]).out.split())
        say("drained_or_down_nodes", n)
        say("auth", c.auth)
        time.sleep(1)
        for rnd in range(ROUNDS):
            say("load", " ".join(open("/proc/loadavg").read().split()[:3]))
            for par in (1, PAR):
                c0 = cpu_s(c.ctld.pid)
                m0 = cpu_s(c.munged.pid) if c.munged else 0
                rate = submit_rpc(c, N_RPC, par)
                c1 = cpu_s(c.ctld.pid)
                m1 = cpu_s(c.munged.pid) if c.munged else 0
                say("round%d_submit_%dthr" % (rnd, par),
                    "%.0f jobs/s  ctld_cpu_ms_per_submit %.3f  "
                    "munged_cpu_ms_per_submit %.3f" %
                    (rate, (c1 - c0) * 1000.0 / N_RPC,
                     (m1 - m0) * 1000.0 / N_RPC))
    finally:
        c.stop(cancel=False)
        c.cleanup()


if __name__ == "__main__":
    main()
