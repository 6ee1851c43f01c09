#!/usr/bin/python3
"""A large emulated cluster on one machine: NODES (4096) nodes, one slurmd
process each on 127.0.0.1, then QUEUE (100000) pending jobs (submitted
with tests/submit_rpc from PAR threads), and the query latencies with
that queue.  Prints `name: value` lines:

  up_s                    slurmd processes spawned until every node is idle
  slurmd_pss_mib_total    summed PSS of the slurmd processes (private +
                          their share of the shared pages)
  fill_s, fill_jobs_per_s queue filling (nodes drained: jobs stay pending)
  squeue / squeue -h -o '%i %T' / sinfo / sinfo -N / scontrol show job:
                          median ms (hyperfine, RUNS runs) and the
                          controller's CPU per call
  ctld_rss_mib, ctld_kib_per_job

Run as root: /usr/bin/python3 tests/perf/bench_big.py.  Needs kernel.pid_max
above 2 x NODES (two threads per slurmd) and ~1.2 MiB of memory per node.
SLUICE_BUILD_DIR selects the build (default ./build).
"""
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
sys.path.insert(0, HERE)
import cluster  # noqa: E402
from cluster import Cluster, kill_pids  # noqa: E402
from bench import median_ms, rss_mib, say  # noqa: E402
from bench_queue import cpu_s, submit_rpc  # noqa: E402

NODES = int(os.environ.get("NODES", 4096))
QUEUE = int(os.environ.get("QUEUE", 100000))
PAR = int(os.environ.get("PAR", 8))
RUNS = int(os.environ.get("RUNS", 5))


def low_free_ports(n, start=int(os.environ.get("PORT_MIN", 12000))):
    """n ports free now, below the ephemeral range (32768+): thousands of
    slurmds take over a minute to spawn, and a port picked in the
    ephemeral range meanwhile becomes some client's local port."""
    import socket
    ports, p = [], start
    while len(ports) < n and p < 32768:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            s.bind(("127.0.0.1", p))
            ports.append(p)
        except OSError:
            pass
        finally:
            s.close()
        p += 1
    if len(ports) < n:
        raise RuntimeError("not enough free ports below 32768")
    return ports


cluster.free_ports = low_free_ports


def pss_mib(pids):
    total = 0
    for p in pids:
        try:
            with open("/proc/%d/smaps_rollup" % p) as f:
                for line in f:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024.0


def main():
    c = Cluster(nodes=NODES, min_job_age=300, slurmd_timeout=300, debug="info",
                extra_conf="MaxJobCount=%d\n" % (QUEUE + 10000),
                tag="big")
    try:
        say("machine", "%d cpus, %s, load %s" % (
            os.cpu_count(), os.uname().release,
            " ".join(open("/proc/loadavg").read().split()[:3])))
        t0 = time.time()
        c.start(wait=False)
        say("spawned_s", "%.1f" % (time.time() - t0))
        c.wait_ready(timeout=1800)
        say("up_s", "%.1f (%d nodes, one slurmd each)" % (time.time() - t0, NODES))
        time.sleep(2)
        say("slurmd_pss_mib_total", "%.0f" % pss_mib([d.pid for d in c.slurmds.values()]))
        idle = float(rss_mib(c.ctld.pid))
        say("ctld_rss_idle_mib", idle)
        nl = "n[1-%d]" % NODES
        r = c.run(["scontrol", "update", "NodeName=" + nl, "State=DRAIN", "Reason=bench"])
        if r.rc:
            raise RuntimeError("drain: %r" % r)
        t0 = time.time()
        submit_rpc(c, QUEUE, PAR)
        took = time.time() - t0
        say("fill_s", "%.1f" % took)
        say("fill_jobs_per_s", "%.0f" % (QUEUE / took))
        n = len(c.run(["squeue", "-h", "-o", "%i"], timeout=600).out.split())
        say("pending", n)
        say("load", " ".join(open("/proc/loadavg").read().split()[:3]))
        for name, argv in (("squeue", ["squeue"]),
                           ("squeue_iT", ["squeue", "-h", "-o", "%i %T"]),
                           ("sinfo", ["sinfo"]),
                           ("sinfo_N", ["sinfo", "-N"]),
                           ("scontrol_show_job", ["scontrol", "show", "job", "100"])):
            c0 = cpu_s(c.ctld.pid)
            ms = median_ms(c, argv, runs=RUNS)
            c1 = cpu_s(c.ctld.pid)
            say("%s_median_ms" % name, "%s  ctld_cpu_ms_per_call %.1f" % (
                ms, (c1 - c0) * 1000.0 / (RUNS + 1)))
        rss = float(rss_mib(c.ctld.pid))
        say("ctld_rss_mib", rss)
        say("ctld_kib_per_job", "%.2f" % ((rss - idle) * 1024.0 / n))
    finally:
        t0 = time.time()
        # thousands of slurmds: SIGKILL them together (the fixture waits
        # for each one in turn)
        kill_pids([d.pid for d in c.slurmds.values() if d.alive()], grace=0)
        c.stop(cancel=False)
        c.cleanup()
        say("stop_s", "%.1f" % (time.time() - t0))


if __name__ == "__main__":
    main()
