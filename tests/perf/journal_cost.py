#!/usr/bin/python3
"""The cost of durability: submit throughput with the journal's fdatasync
on versus off, at 1 and PAR parallel clients.

"Off" is SLUICE_JOURNAL_NOSYNC=1 in slurmctld's environment: the journal
records are still written (a slurmctld crash loses nothing), but not
fdatasync'd before the reply (a machine crash or power loss may lose
acknowledged changes).  There is no mode without a journal: the snapshot
alone would be rewritten per commit, which is what the journal replaced.
So the difference between the two is exactly what an acknowledged change
surviving a power cut costs.

Each round starts one fresh cluster per mode (nodes drained: the submit
path alone, no job runs), in the order on, off, on, off, ...; per cluster:

  rpc     N_RPC jobs by tests/submit_rpc (REQUEST_SUBMIT_BATCH_JOB, no
          sbatch process per job) from 1 thread, then from PAR threads
  sbatch  N_SUBMIT `sbatch --wrap true` from 1 client, then PAR clients
          (SBATCH=0 skips it: the sbatch process and munge dominate it)

Prints `name: value` lines per round, then the median of the rounds and
the cost (1 - on/off) per figure.  Env: ROUNDS (3) N_RPC (2000)
N_SUBMIT (500) PAR (8) SBATCH (1).  Run as root:
    SLUICE_BUILD_DIR=$PWD/build /usr/bin/python3 tests/perf/journal_cost.py
"""
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
from cluster import Cluster  # noqa: E402
import bench  # noqa: E402

ROUNDS = int(os.environ.get("ROUNDS", 3))
N_RPC = int(os.environ.get("N_RPC", 2000))
N_SUBMIT = int(os.environ.get("N_SUBMIT", 500))
PAR = int(os.environ.get("PAR", 8))
SBATCH = os.environ.get("SBATCH", "1") != "0"


def say(name, value):
    print("%s: %s" % (name, value), flush=True)


def sbatch_rate(c, n, par):
    t0 = time.perf_counter()
    done = bench.submit(c, n, par, ["--wrap", "true", "-o", "/dev/null"])
    return done / (time.perf_counter() - t0)


def one(mode):
    """Figures of one fresh cluster with the journal's sync on or off."""
    if mode == "off":
        os.environ["SLUICE_JOURNAL_NOSYNC"] = "1"
    else:
        os.environ.pop("SLUICE_JOURNAL_NOSYNC", None)
    c = Cluster(nodes=4, min_job_age=300, slurmd_timeout=300, debug="info",
                extra_conf="MaxJobCount=100000\n", tag="jcost-" + mode)
    c.jobdir = os.path.join(c.dir, "jobs")
    out = {}
    try:
        c.start()
        bench.drain(c)
        out["rpc_1"] = float(bench.submit_rpc(c, N_RPC, 1))
        out["rpc_%d" % PAR] = float(bench.submit_rpc(c, N_RPC, PAR))
        if SBATCH:
            out["sbatch_1"] = sbatch_rate(c, N_SUBMIT, 1)
            out["sbatch_%d" % PAR] = sbatch_rate(c, N_SUBMIT, PAR)
    finally:
        c.stop(cancel=False)
        c.cleanup()
        os.environ.pop("SLUICE_JOURNAL_NOSYNC", None)
    return out


def main():
    say("machine", "%d cpus, %s, load average %s" % (
        os.cpu_count(), os.uname().release,
        " ".join("%.1f" % x for x in os.getloadavg())))
    say("sizes", "ROUNDS=%d N_RPC=%d N_SUBMIT=%d PAR=%d" % (
        ROUNDS, N_RPC, N_SUBMIT, PAR))
    res = {"on": [], "off": []}
    for r in range(ROUNDS):
        for mode in ("on", "off"):
            f = one(mode)
            res[mode].append(f)
            for k, v in sorted(f.items()):
                say("round%d_journal_%s_%s_jobs_per_s" % (r + 1, mode, k),
                    "%.1f" % v)
            say("round%d_load" % (r + 1), "%.1f" % os.getloadavg()[0])
    keys = sorted(res["on"][0])
    for k in keys:
        on = statistics.median(x[k] for x in res["on"])
        off = statistics.median(x[k] for x in res["off"])
        say("median_%s_jobs_per_s" % k, "on %.1f, off %.1f, durability "
            "cost %.0f%%" % (on, off, 100.0 * (1 - on / off)))


if __name__ == "__main__":
    main()
