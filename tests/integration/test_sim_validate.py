"""sluice-sim against the real thing: short jobs of mixed sizes run on a
real local cluster (slurmctld, 8 slurmd, slurmdbd), their `sacct -P` rows
become a trace, and sluice-sim replays that trace with the same slurm.conf.
The simulated start of at least 95% of the jobs must match the real one
within the scheduler's granularity: bf_interval (1 s here) plus the 1 s
resolution of the times sacct prints.

SLUICE_SIM_VALIDATE_JOBS changes the number of jobs (default 100; the
figure in doc/simulator.md is of 150).  It runs with SLUICE_SLOW_TESTS=1
only: a few minutes of real jobs, and the bound is not met yet (the
known gap below), so the suite's budget goes to tests that can fail.
"""

import collections
import csv
import json
import os
import random
import subprocess
import time

import pytest

import mariadb

BF_INTERVAL = 1
TOLERANCE = BF_INTERVAL + 1
NODES = 8
JOBS = int(os.environ.get("SLUICE_SIM_VALIDATE_JOBS", "100"))
SIZES = (1, 1, 1, 1, 1, 2, 2, 2, 3, 4, 4, 8)
# Known gap (doc/simulator.md, "Validation"): sacct's times have a 1 s
# resolution, so two jobs ending in the same second are simultaneous to
# the simulator, which schedules once after both; the real controller
# ran a backfill pass between them (its passes fall on a sub-second
# phase) and started a different job on the first freed node.  From that
# job on the node sets differ and the divergence cascades through every
# later wide job (~25% match in 150 jobs).  The bound stays; the marker
# goes when the simulator (or the trace) resolves sub-second order.
KNOWN_GAP = pytest.mark.xfail(
    reason="sluice-sim cannot order job ends within one second of a "
    "sacct trace; see doc/simulator.md, Validation", strict=False)
FIELDS = ("JobID,JobIDRaw,Submit,Start,End,Elapsed,Timelimit,NCPUS,NNodes,"
          "ReqCPUS,Partition,Account,User,State,Priority,QOS")

pytestmark = [
    pytest.mark.skipif(
        os.environ.get("SLUICE_SLOW_TESTS") != "1",
        reason="slow (a few minutes of real jobs): SLUICE_SLOW_TESTS=1"),
    pytest.mark.skipif(bool(mariadb.missing_tools()),
                       reason="MariaDB server not installed: %s"
                       % ", ".join(mariadb.missing_tools()))]


def sim_path(c):
    return os.path.join(os.path.dirname(c.bin("slurmctld")), "sluice-sim")


@pytest.fixture(scope="module")
def env(users):
    e = mariadb.AcctEnv(tag="simval", nodes=NODES, cpus=1, debug="info")
    if not os.path.exists(sim_path(e.c)):
        e.c.cleanup()
        pytest.skip("sluice-sim not built: %s" % sim_path(e.c))
    e.c.extra_conf += ("\nSchedulerType=sched/backfill\n"
                       "SchedulerParameters=bf_interval=%d\n" % BF_INTERVAL)
    try:
        e.start()
        e.start_cluster()
    except BaseException:
        e.stop()
        raise
    yield e
    e.stop()


def submit_workload(c, rng):
    """JOBS jobs of 1-8 whole nodes sleeping 1-4 s, submitted over time by
    two users; returns their ids."""
    ids = []
    for i in range(JOBS):
        n = rng.choice(SIZES)
        secs = rng.randint(1, 4)
        limit = rng.choice((1, 1, 2, 5))
        user = ("sluice_u1", "sluice_u2")[i % 2]
        ids.append(c.sbatch(["-N", str(n), "-n", str(n), "-t", str(limit),
                             "-o", "/dev/null", "--wrap", "sleep %d" % secs],
                            user=user))
        if rng.random() < 0.3:
            time.sleep(rng.uniform(0.2, 1.5))
    return ids


def sacct_done(e, ids):
    """sacct -P rows of ids, once every one has ended in accounting."""
    want = set(str(i) for i in ids)
    deadline = time.time() + 120 + 4 * len(ids)
    while time.time() < deadline:
        r = e.sacct("-P", "-X", "-a", "-j", ",".join(sorted(want)),
                    "-o", FIELDS, timeout=60)
        assert r.rc == 0, r
        rows = list(csv.DictReader(r.out.splitlines(), delimiter="|"))
        ended = [x for x in rows if x["JobIDRaw"] in want
                 and x["State"] == "COMPLETED" and x["End"] != "Unknown"]
        if len(ended) == len(want):
            return r.out, ended
        time.sleep(1)
    raise AssertionError("accounting did not record all %d jobs" % len(ids))


@KNOWN_GAP
def test_simulated_starts_match_a_real_run(env, tmp_path):
    e = env
    c = e.c
    rng = random.Random(33)
    ids = submit_workload(c, rng)
    text, real = sacct_done(e, ids)
    trace = str(tmp_path / "real.sacct")
    with open(trace, "w") as f:
        f.write(text)
    out_csv, out_js = str(tmp_path / "sim.csv"), str(tmp_path / "sim.json")
    r = subprocess.run([sim_path(c), "-f", c.conf, "-t", trace,
                        "--trace-format", "sacct", "-o", out_csv,
                        "--summary", out_js, "--quiet"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    with open(out_csv) as f:
        sim = {row["JobID"]: row for row in csv.DictReader(f)}
    with open(out_js) as f:
        summary = json.load(f)
    assert summary["jobs"] == len(real)

    # Submit is the same on both sides, so a difference of waits is a
    # difference of start times, independent of the time zone sacct
    # printed in.
    def epoch(s):
        return int(time.mktime(time.strptime(s, "%Y-%m-%dT%H:%M:%S")))
    diffs, missing = [], []
    for x in real:
        s = sim.get(x["JobIDRaw"])
        if s is None:
            missing.append(x["JobIDRaw"])
            continue
        real_wait = epoch(x["Start"]) - epoch(x["Submit"])
        diffs.append((int(s["Wait"]) - real_wait, x["JobIDRaw"],
                      x["NNodes"], real_wait, s["Backfilled"]))
    assert not missing, "jobs missing from the simulation: %s" % missing
    ok = sum(1 for d in diffs if abs(d[0]) <= TOLERANCE)
    share = ok / len(diffs)
    hist = collections.Counter(max(-10, min(10, d[0])) for d in diffs)
    print("\nsim vs real start, %d jobs on %d nodes: %.1f%% within %d s; "
          "difference (sim - real, s, clipped to +-10): %s"
          % (len(diffs), NODES, 100 * share, TOLERANCE,
             dict(sorted(hist.items()))))
    worst = sorted(diffs, key=lambda d: -abs(d[0]))[:10]
    first = next((d for d in sorted(diffs, key=lambda d: int(d[1]))
                  if abs(d[0]) > TOLERANCE), None)
    assert share >= 0.95, (
        "only %.1f%% of simulated starts within %d s of the real ones; "
        "first off (diff, job, nodes, real wait, sim backfilled): %s; "
        "worst: %s" % (100 * share, TOLERANCE, first, worst))
