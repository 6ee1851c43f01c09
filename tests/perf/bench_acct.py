#!/usr/bin/env python3
"""Accounting figures: how fast slurmdbd stores a burst of the
controller's records, and sacct's latency over many job records.

Brings up its own munged, MariaDB, slurmdbd, slurmctld and slurmd's
(tests/integration/mariadb.py), prints `name: value` lines, stops all of
it.  Run as root:

    SLUICE_BUILD_DIR=$PWD/build python3 tests/perf/bench_acct.py

BENCH_BURST_JOBS (2000; 0 skips the phase, whose slurmdbd restart frees
its port for a moment): jobs submitted while slurmdbd is stopped; their
records (one per job, plus the cluster registration) wait in the
controller's outbox and are timed from slurmdbd's start until the outbox
is empty.  BENCH_SACCT_JOBS (100000): finished job records (each with a
.batch step) sent to slurmdbd through its batch path (REQUEST_DBD_RECORDS,
1000 records a transaction, what the controller sends; tests/perf/dbd_fill)
for the sacct and sreport timings, spread over BENCH_SACCT_DAYS (30) days,
50 users and 10 accounts.  BENCH_FILL_SQL=1 writes them with SQL instead
(faster, not what slurmdbd does).  sacct is timed with the common filters
(a one-day -S/-E window three days back and one twenty days back, a
ten-minute one, -u, -A, -s, --name, -j); with
BENCH_EXPLAIN=1
(the default) slurmdbd logs its SQL (DebugFlags=DB_QUERY) and each query
a filter made is printed with MariaDB's EXPLAIN: the index it uses and
the rows it reads.  The issue's size: BENCH_SACCT_JOBS=1000000.

BENCH_KEEP_DB=DIR: MariaDB's directory is DIR and stays after the run;
a later run with the same BENCH_SACCT_JOBS finds the records there
(DIR/fill.txt: their count and the time they were written) and times
sacct over them at once, its windows placed as at the fill (a 1,000,000
job fill takes many minutes).  BENCH_BUFFER_POOL (1G): InnoDB's buffer
pool, as a site that keeps its job table in memory (the tests' 64M
holds a tenth of 1,000,000 jobs: every run then reads from disk).
BENCH_ONLY=name,name: only those sacct timings.

Archive and purge (BENCH_PURGE=1, the default): `sacctmgr archive dump
Jobs Steps PurgeJobAfter=<half the days>` over those records, timed:
records archived and purged per second (jobs and steps, counted in the
database before and after), the archive files' size, and meanwhile
`sacct -j` is run again and again to show that slurmdbd answers during
the purge (its median and longest time).
"""

import os
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))

import cluster as cl  # noqa: E402
import mariadb  # noqa: E402

BURST = int(os.environ.get("BENCH_BURST_JOBS", "2000"))
SACCT_JOBS = int(os.environ.get("BENCH_SACCT_JOBS", "100000"))
FILL_SQL = os.environ.get("BENCH_FILL_SQL") == "1"
DAYS = int(os.environ.get("BENCH_SACCT_DAYS", "30"))
EXPLAIN = os.environ.get("BENCH_EXPLAIN", "1") == "1"
PURGE = os.environ.get("BENCH_PURGE", "1") == "1"
SPAN_DAYS = DAYS
RUNS = int(os.environ.get("BENCH_RUNS", "7"))
KEEP_DB = os.environ.get("BENCH_KEEP_DB")
BUFFER_POOL = os.environ.get("BENCH_BUFFER_POOL", "1G")
ONLY = [n for n in os.environ.get("BENCH_ONLY", "").split(",") if n]


def say(name, value):
    print("%s: %s" % (name, value), flush=True)


def outbox_len(env):
    p = os.path.join(env.dir, "state", "acct_outbox")
    return os.path.getsize(p) if os.path.exists(p) else 0


def submit_held(c, n, par=8):
    def client(count):
        for _ in range(count):
            c.sbatch(["-H", "-J", "burst", "--wrap", "true"])
    th = [threading.Thread(target=client, args=(n // par + (i < n % par),))
          for i in range(par)]
    for t in th:
        t.start()
    for t in th:
        t.join()


def burst(env):
    env.stop_dbd()
    t0 = time.time()
    submit_held(env.c, BURST)
    say("burst_submit_jobs_per_s", "%.0f" % (BURST / (time.time() - t0)))
    say("burst_outbox_bytes", outbox_len(env))
    log_from = len(env.dbd_log_text())
    t0 = time.time()
    env.start_dbd(wait=False)
    while outbox_len(env) > 20:
        if time.time() - t0 > 600:
            raise SystemExit("outbox not drained after 600 s")
        time.sleep(0.02)
    dt = time.time() - t0
    # includes slurmdbd's start-up and the sender's retry pause
    say("burst_records", BURST)
    say("burst_drain_s", "%.2f" % dt)
    say("burst_records_per_s", "%.0f" % (BURST / dt))
    # slurmdbd's own rate: from its log, first to last stored batch
    import re
    from datetime import datetime
    stamps, total, first = [], 0, None
    for m in re.finditer(r"\[([\d\-T:.]+)\] debug:  Cluster \S+: stored "
                         r"(\d+) records", env.dbd_log_text()[log_from:]):
        stamps.append(datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S.%f"))
        total += int(m.group(2))
        first = int(m.group(2)) if first is None else first
    if len(stamps) > 1:
        total -= first          # stored before the first stamp
        span = (stamps[-1] - stamps[0]).total_seconds()
        say("dbd_store_batches", len(stamps))
        say("dbd_store_records_per_s", "%.0f (%d records over %.2f s, "
            "after the first batch)" % (total / span if span else 0, total,
                                      span))
    env.c.run(["scancel", "-u", "root"])


def fill(env, n):
    """n finished jobs with a .batch step each, written as SQL (the
    controller would take minutes to run them on 2 cores)."""
    global SPAN_DAYS
    gap = max(1, (DAYS * 86400 - 3600) // n)       # as fill_dbd
    base = int(time.time()) - 3600 - gap * n
    SPAN_DAYS = gap * n / 86400.0
    rows = []
    for i in range(n):
        jid = 1000000 + i
        t = base + i * gap
        rows.append("('sluice',%d,0,4294967294,'job%d',0,0,'acct','debug',"
                    "'normal',3,0,4294967294,0,0,%d,%d,%d,%d,60,'n1',1,1,1,"
                    "'cpu=1,node=1','cpu=1,node=1','/tmp',%d)"
                    % (jid, i % 50, t, t, t, t + 5, t))
    cols = ("cluster,id_job,id_array_job,id_array_task,job_name,id_user,"
            "id_group,account,`partition`,qos,state,reason,requid,exit_code,"
            "derived_ec,time_submit,time_eligible,time_start,time_end,"
            "timelimit,nodelist,nodes_alloc,cpus_alloc,cpus_req,tres_alloc,"
            "tres_req,work_dir,mod_time")
    for k in range(0, n, 2000):
        env.db.sql("INSERT INTO job_table (%s) VALUES %s" % (
            cols, ",".join(rows[k:k + 2000])), db=env.db.db)
    env.db.sql("INSERT INTO step_table (job_db_inx,id_step,step_name,"
               "time_start,time_end,state,exit_code,nodelist,nodes_alloc,"
               "tasks,tres_alloc) SELECT job_db_inx,-5,'batch',time_start,"
               "time_end,3,0,'n1',1,1,'cpu=1' FROM job_table WHERE "
               "id_job >= 1000000", db=env.db.db)
    # the optimizer's statistics as a site's (InnoDB recounts them in the
    # background after a bulk insert, perhaps during the first queries)
    env.db.sql("ANALYZE TABLE job_table, step_table", db=env.db.db)


def fill_dbd(env, n):
    """n finished jobs with a .batch step each through slurmdbd's batch
    path (dbd_fill), timed."""
    exe = os.path.join(os.path.dirname(env.c.bins["slurmctld"]), "..",
                       "tests", "dbd_fill")
    gap = max(1, (DAYS * 86400 - 3600) // n)       # evenly over the days
    # the last ends an hour ago (a whole-second gap may not fill DAYS:
    # 1,000,000 jobs 2 s apart span 23 days)
    base = int(time.time()) - 3600 - gap * n
    global SPAN_DAYS
    SPAN_DAYS = gap * n / 86400.0
    r = env.c.run([os.path.abspath(exe), "-b", str(base), "-g", str(gap),
                   str(n)], timeout=7200)
    if r.rc != 0:
        raise SystemExit("dbd_fill failed: %r" % (r,))
    for line in r.out.splitlines():
        k, v = line.split(":", 1)
        say(k, v.strip())


def median_ms(env, args, cmd="sacct"):
    """The median of RUNS runs (and their min, for say())."""
    times = []
    out = ""
    for _ in range(RUNS):
        t0 = time.time()
        r = env.c.run([env.c.bins[cmd]] + list(args), timeout=600)
        times.append((time.time() - t0) * 1000)
        if r.rc != 0:
            raise SystemExit("%s %s failed: %r" % (cmd, args, r))
        out = r.out
    global LAST_MIN
    LAST_MIN = min(times)
    return statistics.median(times), out.count("\n")


LAST_MIN = 0.0


def explain(env, log_from):
    """EXPLAIN each SELECT slurmdbd logged since log_from: table, the key
    MariaDB chose, the rows it expects to read."""
    import re
    text = env.dbd_log_text()[log_from:]
    seen = set()
    for m in re.finditer(r"DB_QUERY: ((?:SELECT|DELETE) .*)", text):
        q = m.group(1).strip()
        shape = re.sub(r"\d{6,}", "N", q)      # one of each, whatever the times
        if shape in seen:
            continue
        seen.add(shape)
        r = env.db.sql("EXPLAIN " + q, check=False, db=env.db.db)
        say("  sql", q[:300] + (" ..." if len(q) > 300 else ""))
        for row in r.stdout.splitlines():
            f = row.split("\t")
            # id select_type table type possible_keys key key_len ref
            # rows Extra
            if len(f) >= 10:
                say("  explain", "table=%s type=%s key=%s rows=%s %s" % (
                    f[2], f[3], f[5], f[8], f[9]))


def kept_fill():
    """(jobs, days, time) of a kept datadir's fill, or None."""
    try:
        with open(os.path.join(KEEP_DB, "fill.txt")) as f:
            n, days, t = f.read().split()
        return int(n), float(days), float(t)
    except (OSError, TypeError, ValueError):
        return None


def rollups_caught_up(env):
    """slurmdbd's roll-ups of the filled weeks would run during the
    timings (its one worker serves sacct between their chunks): start
    them two days back, as a site's that runs every hour, and wait until
    they reach the current hour (sreport's day is then rolled up)."""
    env.stop_dbd()
    env.db.sql("UPDATE rollup_table SET hour_last = (UNIX_TIMESTAMP() - "
               "2 * 86400) DIV 86400 * 86400, day_last = hour_last",
               db=env.db.db)
    env.start_dbd()
    t0 = time.time()
    while time.time() - t0 < 900:
        r = env.db.sql("SELECT hour_last >= UNIX_TIMESTAMP() DIV 3600 * "
                       "3600 FROM rollup_table", db=env.db.db)
        if r.stdout.split() == ["1"]:
            break
        time.sleep(1)
    say("rollup_catch_up_s", "%.1f" % (time.time() - t0))


def sacct_latency(env):
    global SPAN_DAYS
    kept = kept_fill() if KEEP_DB else None
    if kept and kept[0] == SACCT_JOBS:
        _, SPAN_DAYS, ref = kept
    else:
        ref = time.time()
        if FILL_SQL:
            fill(env, SACCT_JOBS)
        else:
            fill_dbd(env, SACCT_JOBS)
        if KEEP_DB:
            with open(os.path.join(KEEP_DB, "fill.txt"), "w") as f:
                f.write("%d %f %f\n" % (SACCT_JOBS, SPAN_DAYS, ref))
    rollups_caught_up(env)
    say("sacct_job_records", "%d over %.1f days (written %s)" % (
        SACCT_JOBS, SPAN_DAYS, time.strftime("%H:%M:%S",
                                             time.localtime(ref))))
    say("innodb_buffer_pool", env.db.buffer_pool)

    def at(ago):
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(ref - ago))
    day, day_end, ten_end = at(3 * 86400), at(2 * 86400), at(3 * 86400 - 600)
    old, old_end = at(20 * 86400), at(19 * 86400)
    short = ["-P", "-n", "-X", "-o", "JobIDRaw,State"]
    for name, args in (
            ("sacct_old_day_window_ms", ["-a"] + short + ["-S", old, "-E",
                                                          old_end]),
            ("sacct_ten_minute_window_ms", ["-a"] + short +
             ["-S", day, "-E", ten_end]),
            ("sacct_one_day_window_ms", ["-a"] + short + ["-S", day, "-E",
                                                          day_end]),
            ("sacct_all_X_P_ms", ["-a"] + short + ["-S", at(2 * 86400)]),
            ("sacct_all_default_ms", ["-a", "-S", at(2 * 86400)]),
            ("sacct_one_day_default_ms", ["-a", "-S", day, "-E", day_end]),
            ("sacct_user_ms", ["-u", "7"] + short + ["-S", at(7 * 86400)]),
            ("sacct_account_ms", ["-a", "-A", "acct"] + short +
             ["-S", day, "-E", day_end]),
            ("sacct_state_failed_ms", ["-a", "-s", "F"] + short +
             ["-S", at(7 * 86400)]),
            ("sacct_one_job_ms", short + ["-j", str(1000000 +
                                                    SACCT_JOBS // 2)]),
            ("sacct_job_list_ms", short + ["-j", ",".join(
                str(1000000 + SACCT_JOBS * k // 10) for k in range(10))]),
            ("sacct_name_ms", ["-a", "--name=job7"] + short +
             ["-S", at(2 * 86400)])):
        if ONLY and name not in ONLY:
            continue
        log_from = len(env.dbd_log_text())
        ms, lines = median_ms(env, args)
        say(name, "%.1f (%d lines; min %.1f of %d)" % (ms, lines, LAST_MIN,
                                                      RUNS))
        if EXPLAIN:
            explain(env, log_from)
    for name, args in (
            ("sreport_cluster_util_ms", ["-t", "seconds", "cluster",
                                         "utilization", "start=now-1days",
                                         "end=now"]),
            ("sreport_top_usage_ms", ["user", "topusage", "start=now-1days",
                                      "end=now"])):
        if ONLY and name not in ONLY:
            continue
        ms, lines = median_ms(env, args, cmd="sreport")
        say(name, "%.1f (%d lines)" % (ms, lines))


def count(env, table):
    r = env.db.sql("SELECT COUNT(*) FROM %s" % table, db=env.db.db)
    return int(r.stdout.split()[-1])


def purge(env):
    """ArchiveJobs + PurgeJobAfter over half the records, with sacct
    asked again and again meanwhile."""
    adir = os.path.join(env.dir, "archive")
    os.makedirs(adir, exist_ok=True)
    before = count(env, "job_table") + count(env, "step_table")
    half = max(1, int(SPAN_DAYS // 2))
    done = threading.Event()
    lat = []
    probe = [env.c.bins["sacct"], "-P", "-n", "-X", "-o", "JobIDRaw,State",
             "-j", str(1000000 + SACCT_JOBS - 1)]

    def asker():
        while not done.is_set():
            t0 = time.time()
            r = env.c.run(probe, timeout=600)
            lat.append(((time.time() - t0) * 1000, r.rc))
    th = threading.Thread(target=asker)
    log_from = len(env.dbd_log_text())
    t0 = time.time()
    th.start()
    r = env.c.run([env.c.bins["sacctmgr"], "-i", "archive", "dump", "Jobs",
                   "Steps", "Directory=" + adir,
                   "PurgeJobAfter=%ddays" % half,
                   "PurgeStepAfter=%ddays" % half], timeout=7200)
    dt = time.time() - t0
    done.set()
    th.join()
    if r.rc != 0:
        raise SystemExit("archive dump failed: %r" % (r,))
    after = count(env, "job_table") + count(env, "step_table")
    gone = before - after
    size = sum(os.path.getsize(os.path.join(adir, f))
               for f in os.listdir(adir))
    say("purge_records", "%d of %d (jobs and steps older than %d days)"
        % (gone, before, half))
    say("purge_s", "%.2f" % dt)
    say("purge_records_per_s", "%.0f" % (gone / dt if dt else 0))
    say("purge_archive_files", "%d, %d bytes" % (len(os.listdir(adir)),
                                                 size))
    ok = [ms for ms, rc in lat if rc == 0]
    say("purge_sacct_probes", "%d (%d failed), median %.1f ms, longest "
        "%.1f ms" % (len(lat), len(lat) - len(ok),
                     statistics.median(ok) if ok else 0,
                     max(ok) if ok else 0))
    if EXPLAIN:
        explain(env, log_from)


def main():
    if os.geteuid() != 0:
        raise SystemExit("run as root")
    cl.ensure_test_users()
    env = mariadb.AcctEnv(tag="bench-acct", nodes=1, min_job_age=3600,
                          dbd_extra="DebugFlags=DB_QUERY" if EXPLAIN else "")
    if KEEP_DB:
        os.makedirs(KEEP_DB, exist_ok=True)
    env.db = mariadb.MariaDB(KEEP_DB or env.db.dir, env.db.port,
                             buffer_pool=BUFFER_POOL)
    try:
        say("load", os.getloadavg())
        env.start()
        env.start_cluster()
        say("cpus", os.cpu_count())
        if BURST:
            burst(env)
        sacct_latency(env)
        if PURGE:
            purge(env)
    finally:
        env.stop()
        env.cleanup()


if __name__ == "__main__":
    main()
