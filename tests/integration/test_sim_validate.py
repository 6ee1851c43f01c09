"""sluice-sim against the real thing: jobs of mixed sizes run on a real
local cluster (slurmctld, 8 slurmd, slurmdbd), their `sacct -P` rows
become a trace, and sluice-sim replays that trace with the same slurm.conf.
The simulated start of at least 95% of the jobs must match the real one
within the scheduler's granularity: bf_interval (1 s here) plus the 1 s
resolution of the times sacct prints.

SLUICE_SIM_VALIDATE_JOBS changes the number of jobs (default 100, about
7 min; the figures in doc/simulator.md are of 100 and 150), and
SLUICE_SIM_VALIDATE_KEEP=DIR keeps the trace, the replay and slurm.conf
there.  It runs with SLUICE_SLOW_TESTS=1 only: minutes of real jobs."""

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
LIMITS = (1, 1, 2, 5)           # minutes
# The run is made deterministic to the second (doc/simulator.md,
# "Validation"): sacct's times are whole seconds, so what happens within
# one second must not depend on its sub-second order.  The backfill
# timer fires 20 ms into the second (ctld/backfill.c; sluice-sim's
# passes likewise come before that second's events); submissions are
# sent early in a second (SUBMIT_PHASE: they reach the controller
# 0.1-0.3 s later at a load average of 10-16) and every job sleeps until
# END_PHASE past a whole second (its end reaches the controller 30-100 ms
# later), so a second's submissions and ends fall between two backfill
# passes, as in the simulator.  Sleeps of 5-20 s: the load delays a job
# by a fraction of a second, never by a whole one.
SUBMIT_PHASE = (0.05, 0.25)
END_PHASE = 0.50
JOB = ("/usr/bin/python3 -c 'import time; t = time.time(); "
       "time.sleep(int(t) + %d + " + str(END_PHASE) + " - t)'")
PRIORITY = ("PriorityType=priority/multifactor\n"
            "PriorityWeightJobSize=1000\n"
            "PriorityWeightAge=0\nPriorityWeightFairshare=0\n")
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
                       "SchedulerParameters=bf_interval=%d\n" % BF_INTERVAL
                       + PRIORITY)
    try:
        e.start()
        e.start_cluster()
    except BaseException:
        e.stop()
        raise
    yield e
    e.stop()


def _submit_phase(last):
    """Wait until the current second is in SUBMIT_PHASE and later than
    the second of the last submission: two submissions in one second
    are one instant to the simulator, and when the later one outranks
    the earlier, the controller's pass between them started the earlier
    one on nodes the simulator gives the later one."""
    lo, hi = SUBMIT_PHASE
    while True:
        now = time.time()
        ph = now % 1
        if int(now) > last and lo <= ph <= hi:
            return
        time.sleep((lo - ph) % 1 or 1)


def submit_workload(c, rng):
    """JOBS jobs of 1-8 whole nodes sleeping 5-20 s (ending at END_PHASE
    of a second), time limits of 1-5 min, priority by size, submitted
    over time by two users; returns their ids."""
    ids, last = [], 0
    for i in range(JOBS):
        n = rng.choice(SIZES)
        secs = rng.randint(5, 20)
        limit = rng.choice(LIMITS)
        user = ("sluice_u1", "sluice_u2")[i % 2]
        _submit_phase(last)
        last = int(time.time())
        ids.append(c.sbatch(["-N", str(n), "-n", str(n), "-t", str(limit),
                             "-o", "/dev/null", "--wrap", JOB % secs],
                            user=user))
        if rng.random() < 0.3:
            time.sleep(rng.uniform(0.5, 4))
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


def test_simulated_starts_match_a_real_run(env, tmp_path):
    e = env
    c = e.c
    rng = random.Random(33)
    ids = submit_workload(c, rng)
    text, real = sacct_done(e, ids)
    trace = str(tmp_path / "real.sacct")
    with open(trace, "w") as f:
        f.write(text)
    keep = os.environ.get("SLUICE_SIM_VALIDATE_KEEP")
    if keep:                    # the trace and the replay, to study
        os.makedirs(keep, exist_ok=True)
        with open(os.path.join(keep, "real.sacct"), "w") as f:
            f.write(text)
    out_csv, out_js = str(tmp_path / "sim.csv"), str(tmp_path / "sim.json")
    r = subprocess.run([sim_path(c), "-f", c.conf, "-t", trace,
                        "--trace-format", "sacct", "-o", out_csv,
                        "--summary", out_js, "--quiet"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    if keep:
        subprocess.run(["cp", out_csv, c.conf, keep])
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
    # the trace is no trivial one: a queue, backfill, simultaneous ends
    ends = collections.Counter(x["End"] for x in real)
    backfilled = sum(1 for x in sim.values() if x["Backfilled"] == "1")
    waits = sorted(d[3] for d in diffs)
    print("real waits: median %d s, max %d s; %d jobs backfilled in the "
          "replay; %d seconds with 2+ job ends"
          % (waits[len(waits) // 2], waits[-1], backfilled,
             sum(1 for n in ends.values() if n > 1)))
    assert backfilled >= len(diffs) // 5, backfilled
    assert waits[len(waits) // 2] >= 30, waits
    worst = sorted(diffs, key=lambda d: -abs(d[0]))[:10]
    first = next((d for d in sorted(diffs, key=lambda d: int(d[1]))
                  if abs(d[0]) > TOLERANCE), None)
    assert share >= 0.95, (
        "only %.1f%% of simulated starts within %d s of the real ones; "
        "first off (diff, job, nodes, real wait, sim backfilled): %s; "
        "worst: %s" % (100 * share, TOLERANCE, first, worst))
