#!/usr/bin/env python3
"""Usage roll-up figures: how long slurmdbd takes to roll up many job
records, and sreport's latency from the roll-ups against computing from
the records.

Brings up its own munged, MariaDB and slurmdbd (no controller:
tests/integration/mariadb.py), fills BENCH_ROLLUP_JOBS (100000) finished
jobs (each with a .batch step) through slurmdbd's batch path
(tests/perf/dbd_fill, what the controller sends) spread over the
BENCH_ROLLUP_DAYS (7) days before the current hour (evenly, 5 minutes
and 1 CPU each) on a 128-CPU cluster,
then prints `name: value` lines:

- sreport over the whole span before any roll-up (computed from the
  job records, what sreport did before roll-ups existed);
- `sacctmgr -i rollup`: the first roll-up of every hour and day;
- `sacctmgr -i rollup START`: everything rolled up again;
- `sacctmgr -i rollup` with nothing to do;
- sreport over the same windows from the roll-ups (daily table for the
  whole days, hourly for a window of hours).

Run as root:  SLUICE_BUILD_DIR=$PWD/build python3 tests/perf/bench_rollup.py
"""

import datetime
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))

import cluster as cl  # noqa: E402
import mariadb  # noqa: E402

JOBS = int(os.environ.get("BENCH_ROLLUP_JOBS", "100000"))
DAYS = int(os.environ.get("BENCH_ROLLUP_DAYS", "7"))
RUNS = 5


def say(name, value):
    print("%s: %s" % (name, value), flush=True)


def iso(t):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(t))


def timed(env, argv):
    t0 = time.time()
    r = env.c.run(argv, timeout=3600)
    dt = time.time() - t0
    if r.rc != 0:
        raise SystemExit("%s failed: %r" % (argv, r))
    return dt, r


def median_ms(env, args):
    times, out = [], ""
    for _ in range(RUNS):
        dt, r = timed(env, [env.c.bins["sreport"]] + list(args))
        times.append(dt * 1000)
        out = r.out
    return statistics.median(times), out


def reports(env, prefix, days_win, hours_win):
    for name, args in (
            ("cluster_util_days", ["-t", "seconds", "-P", "-n", "cluster",
                                   "utilization"] + days_win),
            ("top_usage_days", ["-t", "seconds", "-P", "-n", "user",
                                "topusage"] + days_win),
            ("cluster_util_hours", ["-t", "seconds", "-P", "-n", "cluster",
                                    "utilization"] + hours_win)):
        ms, out = median_ms(env, args)
        say("%s_%s_ms" % (prefix, name), "%.1f" % ms)
        say("%s_%s_out" % (prefix, name),
            out.splitlines()[0] if out else "")


def main():
    if os.geteuid() != 0:
        raise SystemExit("run as root")
    cl.ensure_test_users()
    env = mariadb.AcctEnv(tag="bench-rollup", nodes=1)
    try:
        env.start()
        r = env.sacctmgr("-i", "add", "cluster", "sluice")
        assert r.rc == 0, r
        today = int(time.mktime(datetime.date.today().timetuple()))
        base = today - DAYS * 86400
        top = int(time.time()) // 3600 * 3600
        exe = os.path.abspath(os.path.join(
            os.path.dirname(env.c.bins["slurmctld"]), "..", "tests",
            "dbd_fill"))
        gap = max(1, (top - base - 600) // JOBS)
        dt, r = timed(env, [exe, "-C", "128", "-b", str(base), "-g",
                            str(gap), "-l", "300", "-c", "1", str(JOBS)])
        say("cpus", os.cpu_count())
        say("job_records", JOBS)
        say("span_hours", (top - base) // 3600)
        say("fill_s", "%.1f" % dt)
        days_win = ["start=%s" % iso(base), "end=%s" % iso(today)]
        hours_win = ["start=%s" % iso(today - 86400 + 5 * 3600),
                     "end=%s" % iso(today - 86400 + 17 * 3600)]
        reports(env, "records", days_win, hours_win)
        dt, _ = timed(env, [env.sacctmgr_bin(), "-i", "rollup"])
        say("rollup_first_s", "%.2f" % dt)
        dt, _ = timed(env, [env.sacctmgr_bin(), "-i", "rollup", iso(base)])
        say("rollup_again_s", "%.2f" % dt)
        dt, _ = timed(env, [env.sacctmgr_bin(), "-i", "rollup"])
        say("rollup_nothing_new_ms", "%.1f" % (dt * 1000))
        rows = env.db.sql("SELECT COUNT(*) FROM cluster_usage_hour_table",
                          db=env.db.db)
        say("hour_rows", rows.stdout.strip())
        reports(env, "rollups", days_win, hours_win)
    finally:
        env.stop()
        env.cleanup()


if __name__ == "__main__":
    main()
