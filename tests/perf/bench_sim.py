#!/usr/bin/python3
"""sluice-sim's speed: simulated seconds per wall second on a synthetic
SWF trace (a figure, not a test).

The trace (JOBS jobs, default 100,000) is made here, seeded, to the
shape the workload literature describes for parallel machines (Lublin &
Feitelson 2003, "The workload on parallel supercomputers"): many small
jobs and a tail of wide ones, sizes favouring powers of two, run times
log-uniform between a minute and a day, requested times 1-4x the run
time (users overestimate), Poisson arrivals at an offered load of LOAD
(default 0.85) of the cluster's CPUs.  The cluster is NODES nodes
(default 1,024) x 32 CPUs under select/cons_tres, sched/backfill with
Slurm's defaults, priority/multifactor with an age and size weight.

Prints the summary sluice-sim prints (utilisation, waits, backfill
share) and the speed: simulated seconds (first submission to last end)
/ wall seconds, with the load average at the time.

    SLUICE_BUILD_DIR=$PWD/build /usr/bin/python3 tests/perf/bench_sim.py
"""
import json
import math
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

BUILD = os.environ.get("SLUICE_BUILD_DIR", os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "build"))
JOBS = int(os.environ.get("JOBS", "100000"))
NODES = int(os.environ.get("NODES", "1024"))
LOAD = float(os.environ.get("LOAD", "0.85"))
CPN = 32


def job_cpus(rng):
    r = rng.random()
    if r < 0.25:                        # serial
        return 1
    if r < 0.55:                        # within a node, powers of two
        return 2 ** rng.randint(1, 5)
    if r < 0.90:                        # 2-16 nodes
        return CPN * 2 ** rng.randint(1, 4)
    return CPN * rng.randint(17, 64)    # wide


def make_trace(path, rng):
    jobs = []
    for i in range(JOBS):
        cpus = job_cpus(rng)
        run = int(math.exp(rng.uniform(math.log(60), math.log(86400))))
        req = min(int(run * rng.uniform(1.0, 4.0)) + 60, 2 * 86400)
        jobs.append((cpus, run, req))
    work = sum(c * r for c, r, _ in jobs) / len(jobs)
    gap = work / (NODES * CPN * LOAD)   # mean inter-arrival (s)
    t = 0.0
    with open(path, "w") as f:
        f.write("; synthetic trace, bench_sim.py (seed 33)\n")
        f.write("; MaxProcs: %d\n" % (NODES * CPN))
        for i, (cpus, run, req) in enumerate(jobs, 1):
            t += rng.expovariate(1.0 / gap)
            status = 0 if rng.random() < 0.03 else 1
            f.write("%d %d -1 %d %d -1 -1 %d %d -1 %d %d %d -1 1 -1 -1 -1\n"
                    % (i, int(t), run, cpus, cpus, req, status,
                       1 + i % 200, 1 + i % 10))


def main():
    sim = os.path.join(BUILD, "bin", "sluice-sim")
    rng = random.Random(33)
    with tempfile.TemporaryDirectory(prefix="bench_sim.") as d:
        conf = os.path.join(d, "slurm.conf")
        with open(conf, "w") as f:
            f.write("ClusterName=bench\nSlurmctldHost=localhost\n"
                    "SelectType=select/cons_tres\n"
                    "PriorityType=priority/multifactor\n"
                    "PriorityWeightAge=1000\nPriorityWeightJobSize=1000\n"
                    "NodeName=n[1-%d] CPUs=%d RealMemory=128000\n"
                    "PartitionName=batch Nodes=ALL Default=YES "
                    "MaxTime=INFINITE\n" % (NODES, CPN))
        trace = os.path.join(d, "trace.swf")
        make_trace(trace, rng)
        summary = os.path.join(d, "summary.json")
        load0 = os.getloadavg()[0]
        t0 = time.monotonic()
        subprocess.run([sim, "-f", conf, "-t", trace, "--summary", summary],
                       check=True)
        wall = time.monotonic() - t0
        load1 = os.getloadavg()[0]
        ru = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = ru.ru_utime + ru.ru_stime
        with open(summary) as f:
            s = json.load(f)
    # wall time on a shared machine is mostly waiting for a CPU: the CPU
    # time of the process is the figure that holds on a quiet one
    print("%d jobs on %d nodes x %d CPUs: %.0f simulated s (%.1f days) in "
          "%.1f s of wall time (process %.1f s, %.1f s of CPU): %.0fx real "
          "time by wall clock, %.0fx by CPU time; peak RSS %d MB; "
          "load average %.1f -> %.1f on %d CPUs"
          % (JOBS, NODES, CPN, s["sim_seconds"], s["sim_seconds"] / 86400,
             s["wall_seconds"], wall, cpu, s["speedup"],
             s["sim_seconds"] / cpu, ru.ru_maxrss // 1024, load0, load1,
             os.cpu_count()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
