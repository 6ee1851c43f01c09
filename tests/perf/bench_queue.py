#!/usr/bin/python3
"""How Sluice's figures depend on the queue: the same measurements with
1,000, 10,000 and 50,000 jobs pending (nodes drained, so nothing runs).

At each queue size (SIZES, default 1000,10000,50000; the queue is topped
up with tests/submit_rpc, jobs not held so every scheduling pass sees
them), prints `name: value` lines:

  rpc_submit_{1,PAR}thr   REQUEST_SUBMIT_BATCH_JOB from 1 and PAR threads of
                          one process (no sbatch process per job): jobs/s
                          (wall clock) and the controller's CPU time per
                          submit (utime+stime from /proc, holds up on a
                          busy machine)
  sbatch_1client          N_SBATCH x `sbatch --wrap=true`, one after the
                          other: jobs/s (wall) and controller CPU per job
  squeue, squeue_iT, sinfo, scontrol_show_job
                          median ms (hyperfine, RUNS runs) and the
                          controller's CPU per call
  ctld_rss_mib            controller resident memory
  ctld_kib_per_job        (RSS - RSS idle) / pending jobs

Sizes from the environment: SIZES N_RPC (1000) N_SBATCH (200) PAR (8)
RUNS (10) NODES (4).  AUTH=slurm runs the cluster with AuthType=auth/slurm
(default munge).  Run as root: /usr/bin/python3 tests/perf/bench_queue.py
SLUICE_BUILD_DIR selects the build (default ./build; an optimised build
gives the figures worth quoting).
"""
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
sys.path.insert(0, HERE)
from cluster import Cluster  # noqa: E402
from bench import drain, median_ms, rss_mib, say  # noqa: E402

SIZES = [int(x) for x in os.environ.get("SIZES", "1000,10000,50000").split(",")]
N_RPC = int(os.environ.get("N_RPC", 1000))
N_SBATCH = int(os.environ.get("N_SBATCH", 200))
PAR = int(os.environ.get("PAR", 8))
RUNS = int(os.environ.get("RUNS", 10))
NODES = int(os.environ.get("NODES", 4))
BUILD = os.environ.get("SLUICE_BUILD_DIR", os.path.join(HERE, "..", "..", "build"))
TICK = os.sysconf("SC_CLK_TCK")


def cpu_s(pid):
    """utime + stime of a process, seconds."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def submit_rpc(c, n, par):
    exe = os.path.join(BUILD, "tests", "submit_rpc")
    p = subprocess.run([exe, str(n), str(par)], env=dict(os.environ, **c.env_for()),
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("submit_rpc failed: %s %s" % (p.stdout, p.stderr))
    return float(p.stdout.split()[0])


def pending(c):
    return len(c.run(["squeue", "-h", "-t", "PD", "-o", "%i"], timeout=600).out.split())


def per_call(c, what, fn, n):
    """Run fn; say its figure and the controller's CPU ms per call."""
    pid = c.ctld.pid
    c0 = cpu_s(pid)
    fig = fn()
    c1 = cpu_s(pid)
    say(what, "%s  ctld_cpu_ms_per_call %.3f" % (fig, (c1 - c0) * 1000.0 / n))


def main():
    c = Cluster(nodes=NODES, min_job_age=300, slurmd_timeout=300, debug="info",
                extra_conf="MaxJobCount=%d\n" % (max(SIZES) + 20 * N_RPC + 10000),
                tag="benchq", auth=os.environ.get("AUTH", "munge"))
    try:
        c.start()
        say("sluice_version", c.run(["sbatch", "--version"]).out.strip())
        say("auth", c.auth)
        say("machine", "%d cpus, %s, load %s" % (os.cpu_count(), os.uname().release,
                                                  " ".join(open("/proc/loadavg").read().split()[:3])))
        time.sleep(1)
        idle = float(rss_mib(c.ctld.pid))
        say("ctld_rss_idle_mib", idle)
        drain(c)
        for size in SIZES:
            have = pending(c)
            if size > have:
                t0 = time.time()
                submit_rpc(c, size - have, PAR)
                say("fill_to_%d_s" % size, "%.1f" % (time.time() - t0))
            n = pending(c)
            say("pending", n)
            say("load", " ".join(open("/proc/loadavg").read().split()[:3]))
            per_call(c, "q%d_rpc_submit_1thr_jobs_per_s" % size,
                     lambda: "%.0f" % submit_rpc(c, N_RPC, 1), N_RPC)
            per_call(c, "q%d_rpc_submit_%dthr_jobs_per_s" % (size, PAR),
                     lambda: "%.0f" % submit_rpc(c, N_RPC, PAR), N_RPC)

            def sbatch_loop():
                t0 = time.time()
                for _ in range(N_SBATCH):
                    r = c.run(["sbatch", "--wrap=true"], cwd=c.dir)
                    if r.rc:
                        raise RuntimeError("sbatch: %r" % r)
                return "%.1f" % (N_SBATCH / (time.time() - t0))
            per_call(c, "q%d_sbatch_1client_jobs_per_s" % size, sbatch_loop, N_SBATCH)
            last = c.run(["squeue", "-h", "-o", "%i"], timeout=600).out.split()[-1]
            for name, argv in (("squeue", ["squeue"]),
                               ("squeue_iT", ["squeue", "-h", "-o", "%i %T"]),
                               ("sinfo", ["sinfo"]),
                               ("scontrol_show_job", ["scontrol", "show", "job", last])):
                per_call(c, "q%d_%s_median_ms" % (size, name),
                         lambda: median_ms(c, argv, runs=RUNS), RUNS + 1)
            rss = float(rss_mib(c.ctld.pid))
            n = pending(c)
            say("q%d_ctld_rss_mib" % size, rss)
            say("q%d_ctld_kib_per_job" % size, "%.2f" % ((rss - idle) * 1024.0 / n))
    finally:
        c.stop(cancel=False)
        c.cleanup()


if __name__ == "__main__":
    main()
