"""sreport from slurmdbd's usage roll-ups (hourly, daily, monthly).

Past usage goes into slurmdbd the way the controller sends it (job and
node event records through REQUEST_DBD_RECORDS, by tests/perf/dbd_fill):
yesterday, the cluster's 8 CPUs from 09:16:40, jobs of two users in two
accounts over several hours (crossing hour boundaries, some eligible
10 minutes before they started, one still running), a node down for an
hour, every CPU down for an hour while a job runs, a MAINT reservation
(planned down).  `sacctmgr -i rollup` (the admin/testing aid: slurmdbd
otherwise rolls up at start and each hour) rolls it up; every figure sreport
prints is then checked against sums computed from what sacct shows of
the same jobs (Start/End/Eligible/AllocCPUS), over yesterday (the daily
roll-up, sreport's default window) and over hours (the hourly one).
Then: a record arriving late for a rolled-up hour counts at once and
after the next roll-up exactly once; removing the job records (as a job
purge would) leaves the roll-ups and sreport's figures; PurgeUsageAfter
removes roll-ups.  No controller: nothing here waits for jobs to run.
"""

import datetime
import os
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mariadb  # noqa: E402

pytestmark = pytest.mark.skipif(bool(mariadb.missing_tools()),
                                reason="MariaDB server not installed: %s"
                                % ", ".join(mariadb.missing_tools()))

U1, U2 = "sluice_u1", "sluice_u2"
FULL = os.environ.get("SLUICE_ROLLUP_FULL") == "1"
HOUR = 3600
CPUS = 8


def _uid(user):
    import pwd
    return pwd.getpwnam(user).pw_uid


def _y0():
    """Local midnight yesterday (epoch)."""
    d = datetime.date.today() - datetime.timedelta(days=1)
    return int(time.mktime(d.timetuple()))


def _iso(t):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(t))


class Data:
    """What was sent, and what sacct says of it."""

    def __init__(self, env):
        self.env = env
        self.y0 = _y0()
        self.cluster_from = self.y0 + 9 * HOUR + 1000
        self.down = [(self.y0 + 11 * HOUR + 900, self.y0 + 12 * HOUR + 900,
                      2)]
        self.maint = []       # MAINT reservations: planned down
        self.ids = []

    def fill(self, first, n, *args):
        exe = os.path.join(os.path.dirname(self.env.c.bins["slurmctld"]),
                           "..", "tests", "dbd_fill")
        r = self.env.c.run([os.path.abspath(exe)] + [str(a) for a in args]
                           + [str(n), str(first)], timeout=120)
        assert r.rc == 0, r
        self.ids += list(range(first, first + n))

    def jobs(self):
        """[(user, account, cpus, eligible, start, end or None)] from
        sacct."""
        sel = ["-j", ",".join(map(str, self.ids))]
        if len(self.ids) > 1000:      # too long for one argument
            sel = ["-S", _iso(self.cluster_from - 86400), "-E", "now"]
        r = self.env.sacct("-a", "-X", "-P", "-n", "-o",
                           "JobIDRaw,User,Account,AllocCPUS,Eligible,Start,"
                           "End", *sel, timeout=600)
        assert r.rc == 0, r
        out, ids = [], set(map(str, self.ids))
        for line in r.out.splitlines():
            _id, user, acct, cpus, el, st, en = line.split("|")
            if _id not in ids:
                continue
            ts = [int(time.mktime(time.strptime(v, "%Y-%m-%dT%H:%M:%S")))
                  if v not in ("Unknown", "None") else None
                  for v in (el, st, en)]
            out.append((user, acct, int(cpus), ts[0], ts[1], ts[2]))
        assert len(out) == len(self.ids), r
        return out

    def expect(self, ws, we):
        """Cluster figures and usage per (account, user) in [ws, we) of
        whole hours, as documented (doc/dev/accounting-schema.md): per
        hour allocated is capped at the reported time, down at what is
        left, planned at what is left after that."""
        now = time.time()
        jobs = self.jobs()
        fig = dict(alloc=0, down=0, pdown=0, plan=0, reported=0, idle=0)
        use = {}
        for hs in range(ws, we, HOUR):
            def ov(a, b):
                return max(0, min(b, hs + HOUR) - max(a, hs))
            alloc = plan = 0
            for user, acct, cpus, el, st, en in jobs:
                secs = cpus * ov(st, en if en else now)
                alloc += secs
                plan += cpus * ov(el, st)
                use[(acct, user)] = use.get((acct, user), 0) + secs
            down = sum(c * ov(a, b) for a, b, c in self.down)
            pdown = sum(c * ov(a, b) for a, b, c in self.maint)
            total = CPUS * ov(self.cluster_from, now)
            alloc = min(alloc, total)
            down = min(down, total - alloc)
            pdown = min(pdown, total - alloc - down)
            plan = min(plan, total - alloc - down - pdown)
            fig["alloc"] += alloc
            fig["down"] += down
            fig["pdown"] += pdown
            fig["plan"] += plan
            fig["reported"] += total
            fig["idle"] += total - alloc - down - pdown - plan
        fig["use"] = use
        return fig


@pytest.fixture(scope="module")
def env(users):
    e = mariadb.AcctEnv(tag="rollup", nodes=1)
    try:
        e.start()
        for args in (["add", "cluster", "sluice"],
                     ["add", "account", "a1,a2"],
                     ["add", "user", U1, "account=a1"],
                     ["add", "user", U1, U2, "account=a2"]):
            r = e.sacctmgr("-i", *args)
            assert r.rc == 0, r
        d = Data(e)
        y0, u1, u2 = d.y0, _uid(U1), _uid(U2)
        # the cluster's CPUs and the node down, then the jobs
        d.fill(1000, 4, "-C", CPUS, "-D", "%d,%d,%d" % d.down[0], "-b",
               y0 + 9 * HOUR + 1000, "-g", 3000, "-l", 2400, "-c", 2,
               "-U", u1, "-a", "a1")
        d.fill(2000, 3, "-b", y0 + 9 * HOUR + 2000, "-g", 4000, "-l", 5000,
               "-w", 600, "-U", u2, "-a", "a2")
        d.fill(3000, 1, "-b", y0 + 13 * HOUR + 100, "-r", "-U", u1,
               "-a", "a2")
        # 22:00-23:00 every CPU down (as a node drained while it still
        # runs a job) and a 4-CPU job for half of it
        d.down.append((y0 + 22 * HOUR, y0 + 23 * HOUR, CPUS))
        d.fill(5000, 1, "-D", "%d,%d,%d" % d.down[1], "-b", y0 + 22 * HOUR,
               "-l", 1800, "-c", 4, "-U", u2, "-a", "a2")
        # a MAINT reservation of 4 CPUs 16:00-17:30: planned down
        d.maint.append((y0 + 16 * HOUR, y0 + 17 * HOUR + 1800, 4))
        d.fill(6000, 1, "-M", "%d,%d,%d" % d.maint[0], "-b",
               y0 + 16 * HOUR + 600, "-l", 600, "-U", u1, "-a", "a1")
        e.data = d
    except BaseException:
        e.stop()
        raise
    yield e
    e.finish()


def sreport(env, *args, user=None):
    return env.c.run([env.c.bins["sreport"]] + list(args), user=user,
                     timeout=60)


def util(env, *window):
    r = sreport(env, "-t", "seconds", "-P", "-n", "cluster",
                "utilization", *window)
    assert r.rc == 0 and r.err == "", r
    if not r.out:
        return None
    name, alloc, down, pdown, idle, plan, reported = \
        r.out.strip().split("|")
    assert name == "sluice", r
    return {"alloc": int(alloc), "down": int(down), "pdown": int(pdown),
            "plan": int(plan), "reported": int(reported), "idle": int(idle)}


def by_user(env, *window):
    r = sreport(env, "-t", "seconds", "-P", "-n", "cluster",
                "UserUtilizationByAccount", *window)
    assert r.rc == 0 and r.err == "", r
    got = {}
    for line in r.out.splitlines():
        cluster, login, _proper, acct, used, energy = line.split("|")
        assert (cluster, energy) == ("sluice", "0"), r
        got[(acct, login)] = int(used)
    return got


def rollup(env, *args, user=None):
    return env.sacctmgr("-i", "rollup", *args, user=user, timeout=300)


def used_table(env, ws, we):
    """Which roll-up table slurmdbd's log says the last report over
    [ws, we) read."""
    import re
    m = re.findall(r"sreport sluice: \[%d, (\d+)\) from the (\w+) roll-ups"
                   % ws, env.dbd_log_text())
    return m[-1] if m else None


def check_window(env, ws, we, *window):
    want = env.data.expect(ws, we)
    got = util(env, *window)
    assert got == {k: want[k] for k in got}, (got, want)
    assert by_user(env, *window) == {k: v for k, v in want["use"].items()
                                     if v}
    return want


def test_rollup_needs_an_admin(env):
    r = rollup(env, user=U1)
    assert r.rc == 1 and "acct_storage_p_roll_usage: Access/permission " \
        "denied" in r.err, r
    r = env.sacctmgr("-i", "rollup", "bogus-time")
    assert r.rc == 1 and r.err == \
        "Invalid time specification (pos=0): bogus-time\n", r
    r = env.sacctmgr("-i", "rollup", "now", "now", "0", "1")
    assert r.rc == 1 and r.err == "too many arguments for rollup keyword\n"
    r = rollup(env)
    assert (r.rc, r.out, r.err) == (0, "", "sacctmgr: accounting_storage/"
                                    "slurmdbd: acct_storage_p_roll_usage: "
                                    "SUCCESS\n"), r


def test_yesterday_from_the_daily_rollup(env):
    """sreport's default window (yesterday) is a whole day: the daily
    roll-up; the figures are the sums of what sacct shows."""
    y0 = env.data.y0
    assert rollup(env).rc == 0
    want = check_window(env, y0, y0 + 24 * HOUR)
    assert used_table(env, y0, y0 + 24 * HOUR) == (str(y0 + 24 * HOUR),
                                                   "day")
    assert want["pdown"] == 4 * 5400
    assert want["alloc"] > 20000 and want["down"] == 2 * HOUR + 18000 and \
        want["plan"] == 3 * 600 and want["reported"] > 14 * CPUS * HOUR
    # AccountUtilizationByUser: accounts with their sums, users below
    r = sreport(env, "-t", "seconds", "-P", "-n", "cluster",
                "AccountUtilizationByUser")
    assert r.rc == 0, r
    use = want["use"]
    a1 = sum(v for (a, _), v in use.items() if a == "a1")
    a2 = sum(v for (a, _), v in use.items() if a == "a2")
    assert r.out.splitlines() == [
        "sluice|root|||%d|0" % (a1 + a2),
        "sluice|a1|||%d|0" % a1,
        "sluice|a1|%s||%d|0" % (U1, use[("a1", U1)]),
        "sluice|a2|||%d|0" % a2,
        "sluice|a2|%s||%d|0" % (U1, use[("a2", U1)]),
        "sluice|a2|%s||%d|0" % (U2, use[("a2", U2)])], r
    # user TopUsage in percent of the reported time, minutes, hourper
    top = max((U1, U2), key=lambda u: sum(
        v for (_, x), v in use.items() if x == u))
    tsecs = sum(v for (_, x), v in use.items() if x == top)
    r = sreport(env, "-t", "percent", "-P", "-n", "user", "topusage",
                "topcount=1", "group")
    assert r.out == "sluice|%s||%s|%.2f%%|0.00%%\n" % (
        top, "a1, a2" if top == U1 else "a2",
        tsecs * 100.0 / want["reported"]), r
    r = sreport(env, "-t", "minutes", "-P", "-n", "cluster", "utilization",
                "format=Cluster,Allocated,Reported")
    assert r.out == "sluice|%d|%d\n" % ((want["alloc"] + 30) // 60,
                                        (want["reported"] + 30) // 60), r
    r = sreport(env, "-t", "hourper", "-p", "-n", "cluster", "utilization",
                "format=Allocated,Down")
    assert r.out == "%d(%.2f%%)|%d(%.2f%%)|\n" % (
        (want["alloc"] + 1800) // 3600,
        want["alloc"] * 100.0 / want["reported"],
        (want["down"] + 1800) // 3600,
        want["down"] * 100.0 / want["reported"]), r


def test_hours_from_the_hourly_rollup(env):
    y0 = env.data.y0
    ws, we = y0 + 10 * HOUR, y0 + 13 * HOUR
    window = ("start=%s" % _iso(ws), "end=%s" % _iso(we))
    want = check_window(env, ws, we, *window)
    assert used_table(env, ws, we) == (str(we), "hour")
    assert want["down"] == 2 * HOUR and want["alloc"] > 0
    # Slurm rounds the window to hours (10:20 -> 10:00, 12:40 -> 13:00)
    assert util(env, "start=%s" % _iso(ws + 1200),
                "end=%s" % _iso(we - 1200)) == util(env, *window)
    # the job still running counts for every hour it ran
    got = util(env, "start=%s" % _iso(y0 + 19 * HOUR),
               "end=%s" % _iso(y0 + 22 * HOUR))
    assert got["alloc"] == 3 * HOUR and got["reported"] == 3 * CPUS * HOUR
    # an hour with more down and allocated than the cluster had: the
    # allocated time stays what the jobs used, down gets the rest
    got = util(env, "start=%s" % _iso(y0 + 22 * HOUR),
               "end=%s" % _iso(y0 + 23 * HOUR))
    assert got == {"alloc": HOUR + 4 * 1800, "down": CPUS * HOUR - HOUR -
                   4 * 1800, "pdown": 0, "plan": 0, "idle": 0,
                   "reported": CPUS * HOUR}, got


def test_late_record_and_reroll(env):
    """A job arriving for a rolled-up hour counts at once (the roll-up
    mark moves back, that part comes from the records) and, rolled up
    again, exactly once."""
    d = env.data
    y0 = d.y0
    ws, we = y0 + 10 * HOUR, y0 + 13 * HOUR
    window = ("start=%s" % _iso(ws), "end=%s" % _iso(we))
    before = util(env, *window)
    d.fill(4000, 1, "-b", y0 + 10 * HOUR + 1800, "-l", 3600, "-U",
           _uid(U2), "-a", "a1")
    got = check_window(env, ws, we, *window)
    assert got["alloc"] == before["alloc"] + 3600
    assert rollup(env).rc == 0
    check_window(env, ws, we, *window)
    check_window(env, y0, y0 + 24 * HOUR)
    assert rollup(env, _iso(y0)).rc == 0   # from yesterday again
    check_window(env, y0, y0 + 24 * HOUR)


def test_rollups_outlive_job_records_until_purge_usage(env):
    """Job records gone (as PurgeJobAfter would do): the roll-ups still
    give the same figures.  PurgeUsageAfter=<N>hours removes yesterday's
    (N: the whole hours since midnight, at most 12)."""
    y0 = env.data.y0
    since = time.time() - (y0 + 24 * HOUR)
    want = env.data.expect(y0, y0 + 24 * HOUR)
    ws, we = y0 + 10 * HOUR, y0 + 13 * HOUR
    window = ("start=%s" % _iso(ws), "end=%s" % _iso(we))
    hours = util(env, *window)
    env.db.sql("DELETE FROM job_table", db=env.db.db)
    assert util(env) == {k: want[k] for k in
                         ("alloc", "down", "pdown", "plan", "reported",
                          "idle")}
    assert util(env, *window) == hours
    if since < HOUR:
        pytest.skip("in the first hour after midnight no PurgeUsageAfter "
                    "in hours removes all of yesterday yet")
    purge_hours = min(12, int(since // HOUR))
    env.stop_dbd()
    env.dbd_extra = "PurgeUsageAfter=%dhours" % purge_hours
    env.write_dbd_conf()
    env.start_dbd()
    deadline = time.time() + 60
    while util(env) is not None and time.time() < deadline:
        time.sleep(0.5)
    assert util(env) is None
    assert util(env, *window) is None


def test_purge_job_step_and_event_records(env):
    """PurgeJobAfter/PurgeStepAfter/PurgeEventAfter=12hours: yesterday's
    finished jobs, their steps and ended node events leave the database
    at the next roll-up pass (logged); a job submitted today stays."""
    y0 = env.data.y0
    cut = int(time.time()) // HOUR * HOUR - 12 * HOUR
    env.data.fill(7000, 3, "-D", "%d,%d,%d" % (y0 + 2 * HOUR,
                                               y0 + 3 * HOUR, 1),
                  "-b", y0 + 2 * HOUR, "-g", 600, "-l", 300,
                  "-U", _uid(U1), "-a", "a1")
    env.data.fill(7100, 1, "-b", int(time.time()) - 60, "-l", 10,
                  "-U", _uid(U1), "-a", "a1")

    def count(table, col):
        r = env.db.sql("SELECT COUNT(*) FROM %s WHERE time_end != 0 AND "
                       "%s < %d" % (table, col, cut), db=env.db.db)
        return int(r.stdout.split()[0])

    assert count("job_table", "time_submit") == 3
    assert count("event_table", "time_start") > 0
    env.stop_dbd()
    env.dbd_extra = ("PurgeJobAfter=12hours\nPurgeStepAfter=12hours\n"
                     "PurgeEventAfter=12hours")
    env.write_dbd_conf()
    env.start_dbd()
    deadline = time.time() + 60
    while count("job_table", "time_submit") and time.time() < deadline:
        time.sleep(0.5)
    assert count("job_table", "time_submit") == 0
    assert count("step_table", "time_start") == 0
    assert count("event_table", "time_start") == 0
    r = env.sacct("-a", "-X", "-n", "-P", "-j", "7000,7001,7002,7100",
                  "-o", "JobIDRaw")
    assert r.rc == 0 and r.out.split() == ["7100"], r
    assert "PurgeJobAfter: 3 records purged" in env.dbd_log_text()


def _month_start(t, back=0):
    lt = time.localtime(t)
    y, m = lt.tm_year, lt.tm_mon - back
    while m < 1:
        y, m = y - 1, m + 12
    return int(time.mktime((y, m, 1, 0, 0, 0, 0, 0, -1)))


@pytest.mark.skipif(not FULL, reason="heavy: SLUICE_ROLLUP_FULL=1")
def test_crash_mid_rollup_and_months(users):
    """SLUICE_ROLLUP_FULL=1: 20,000 jobs since the first of last month;
    slurmdbd SIGKILLed in the middle of rolling them up; after a restart
    every hour is rolled up once (no gap, nothing twice) and sreport over
    last month (the monthly roll-up) and over yesterday equals the sums
    from sacct."""
    import signal
    e = mariadb.AcctEnv(tag="rollup-full", nodes=1)
    try:
        e.start()
        for args in (["add", "cluster", "sluice"], ["add", "account", "a1"],
                     ["add", "user", U1, U2, "account=a1"]):
            assert e.sacctmgr("-i", *args).rc == 0
        d = Data(e)
        m0 = _month_start(time.time(), 1)
        top = int(time.time()) // HOUR * HOUR
        n = int(os.environ.get("SLUICE_ROLLUP_FULL_JOBS", "20000"))
        d.cluster_from, d.down = m0, []
        d.fill(100000, n, "-C", CPUS, "-b", m0, "-g", (top - m0) // n,
               "-l", 900, "-U", "%d,%d" % (_uid(U1), _uid(U2)), "-a", "a1")
        e.data = d
        import subprocess
        p = subprocess.Popen([e.sacctmgr_bin(), "-i", "rollup"],
                             env=e.c.env_for(None, None, None),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        mid = None
        deadline = time.time() + 120
        while time.time() < deadline:
            r = e.db.sql("SELECT hour_last FROM rollup_table", db=e.db.db)
            h = int(r.stdout.split()[0]) if r.stdout.split() else 0
            if m0 < h < top:
                mid = h
                break
            time.sleep(0.05)
        e.stop_dbd(sig=signal.SIGKILL)
        p.communicate(timeout=60)
        assert mid, "the roll-up was not caught in the middle"
        e.start_dbd()
        assert rollup(e).rc == 0
        r = e.db.sql("SELECT COUNT(*), COUNT(DISTINCT time_start), "
                     "MIN(time_start), MAX(time_start) FROM "
                     "cluster_usage_hour_table WHERE id_tres=1", db=e.db.db)
        cnt, dist, lo, hi = map(int, r.stdout.split())
        assert (cnt, dist, lo, hi) == ((top - m0) // HOUR,) * 2 + \
            (m0, top - HOUR), r.stdout
        m1 = _month_start(time.time())
        check_window(e, m0, m1, "start=%s" % _iso(m0), "end=%s" % _iso(m1))
        assert used_table(e, m0, m1) == (str(m1), "month")
        check_window(e, d.y0, d.y0 + 24 * HOUR)
    finally:
        e.finish()


# ---- -T: every TRES the jobs and the cluster have ------------------------

MB = {"K": 1.0 / 1024, "M": 1, "G": 1024, "T": 1024 * 1024}


def _tres_counts(s):
    """"billing=3,cpu=2,mem=2G,node=1" -> {name: count} (mem in MB)."""
    out = {}
    for item in filter(None, s.split(",")):
        k, _, v = item.partition("=")
        if v and v[-1] in MB:
            out[k] = int(float(v[:-1]) * MB[v[-1]])
        else:
            out[k] = int(v)
    return out


@pytest.fixture(scope="module")
def tenv(users):
    e = mariadb.AcctEnv(tag="rolltres", nodes=1)
    try:
        e.start()
        for args in (["add", "cluster", "sluice"],
                     ["add", "account", "a1,a2"],
                     ["add", "user", U1, "account=a1"],
                     ["add", "user", U1, U2, "account=a2"]):
            assert e.sacctmgr("-i", *args).rc == 0
        d = Data(e)
        y0, u1, u2 = d.y0, _uid(U1), _uid(U2)
        d.fill(1000, 3, "-C", CPUS, "-K", "mem=32000M,node=8,billing=16",
               "-b", y0 + 10 * HOUR, "-g", 3000, "-l", 2400, "-c", 2,
               "-T", "mem=2G,billing=3", "-U", u1, "-a", "a1")
        d.cluster_from = y0 + 10 * HOUR
        d.fill(2000, 2, "-b", y0 + 11 * HOUR, "-g", 600, "-l", 5000,
               "-T", "mem=500M", "-U", u2, "-a", "a2")
        d.fill(3000, 1, "-b", y0 + 12 * HOUR, "-l", 4000, "-T",
               "billing=5", "-U", u1, "-a", "a2")
        assert rollup(e).rc == 0
        e.data = d
    except BaseException:
        e.stop()
        raise
    yield e
    e.finish()


def _tres_use(e):
    """{(account, user, tres): TRES-seconds} from sacct's AllocTRES and
    Start/End (all of yesterday's jobs)."""
    r = e.sacct("-a", "-X", "-P", "-n", "-o",
                "JobIDRaw,User,Account,AllocTRES,Start,End", "-j",
                ",".join(map(str, e.data.ids)))
    assert r.rc == 0, r
    use = {}
    for line in r.out.splitlines():
        _id, user, acct, tres, st, en = line.split("|")
        secs = int(time.mktime(time.strptime(en, "%Y-%m-%dT%H:%M:%S"))) - \
            int(time.mktime(time.strptime(st, "%Y-%m-%dT%H:%M:%S")))
        for k, n in _tres_counts(tres).items():
            use[(acct, user, k)] = use.get((acct, user, k), 0) + n * secs
    return use


def test_tres_bad_input(tenv):
    for args, msg in (
            # not registered by this cluster (test_tres_table.py: ones
            # that are)
            (["-T", "gres/gpu", "cluster", "utilization"],
             "sreport: fatal: No valid TRES given"),
            (["-T", "license/matlab", "user", "topusage"],
             "sreport: fatal: No valid TRES given"),
            (["-T", "bogus", "cluster", "utilization"],
             "sreport: fatal: No valid TRES given"),
            (["-T", ",", "cluster", "utilization"], "No valid TRES given"),
            (["-T", "mem,cpu", "job", "sizesbyaccount"],
             "Job report only supports a single --tres type")):
        r = sreport(tenv, *args)
        assert r.rc == 1 and msg in r.err and r.out == "", (args, r)


def test_tres_cluster_utilization(tenv):
    """One row per TRES with its name; allocated = sacct's AllocTRES x
    elapsed; reported = the cluster's count x the seconds it had it."""
    use = _tres_use(tenv)
    d = tenv.data
    y0 = d.y0
    r = sreport(tenv, "-t", "seconds", "-P", "-n", "-T",
                "cpu,mem,node,billing,energy", "cluster", "utilization")
    assert r.rc == 0 and r.err == "", r
    rows = [ln.split("|") for ln in r.out.splitlines()]
    # no energy row: the cluster reported none
    assert [x[1] for x in rows] == ["cpu", "mem", "node", "billing"], r
    r2 = sreport(tenv, "-t", "seconds", "-P", "-n", "--tres=ALL",
                 "cluster", "utilization")
    assert r2.out == r.out, (r2, r)
    secs = y0 + 24 * HOUR - d.cluster_from
    count = {"cpu": CPUS, "mem": 32000, "node": 8, "billing": 16}
    for name, tres, alloc, down, pdown, idle, plan, rep in rows:
        assert name == "sluice"
        assert int(alloc) == sum(v for (_, _, k), v in use.items()
                                 if k == tres), (tres, r.out, use)
        assert int(rep) == count[tres] * secs, (tres, r.out)
        assert int(alloc) + int(down) + int(pdown) + int(idle) + \
            int(plan) == int(rep)
    # the default layout with -T: a TRES Name column, TRES units
    r = sreport(tenv, "-t", "hours", "-T", "mem", "cluster", "utilization")
    lines = r.out.splitlines()
    assert lines[2] == "Usage reported in TRES Hours", r.out
    assert lines[4].split() == ["Cluster", "TRES", "Name", "Allocated",
                                "Down", "PLND", "Dow", "Idle", "Planned",
                                "Reported"] or "TRES Name" in lines[4], r.out
    # -T cpu alone: CPU units as without -T
    r = sreport(tenv, "-T", "cpu", "cluster", "utilization")
    assert r.out.splitlines()[2] == "Usage reported in CPU Minutes", r.out


def test_tres_account_and_user_reports(tenv):
    use = _tres_use(tenv)
    r = sreport(tenv, "-t", "seconds", "-P", "-n", "-T", "mem,billing",
                "cluster", "AccountUtilizationByUser")
    assert r.rc == 0 and r.err == "", r
    got = {}
    for line in r.out.splitlines():
        cluster, acct, login, _proper, tres, used = line.split("|")
        got[(acct, login, tres)] = int(used)
    for tres in ("mem", "billing"):
        for acct in ("a1", "a2"):
            want = sum(v for (a, _, k), v in use.items()
                       if a == acct and k == tres)
            assert got.get((acct, "", tres), 0) == want, (acct, tres, got)
            for user in (U1, U2):
                v = use.get((acct, user, tres), 0)
                if (acct, user, tres) in got or v:
                    assert got[(acct, user, tres)] == v, (acct, user, tres)
        assert got[("root", "", tres)] == sum(
            v for (_, _, k), v in use.items() if k == tres)
    # each account's rows: one per TRES, in -T's order
    lines = r.out.splitlines()
    assert lines[0].split("|")[4] == "mem" and \
        lines[1].split("|")[4] == "billing", r.out
    r = sreport(tenv, "-t", "seconds", "-P", "-n", "-T", "mem",
                "cluster", "UserUtilizationByAccount")
    assert r.rc == 0, r
    for line in r.out.splitlines():
        cluster, login, _proper, acct, tres, used = line.split("|")
        assert tres == "mem" and int(used) == use[(acct, login, "mem")]
    r = sreport(tenv, "-t", "seconds", "-P", "-n", "-T", "cpu,mem",
                "user", "topusage", "group")
    rows = [ln.split("|") for ln in r.out.splitlines()]
    assert [x[4] for x in rows] == ["cpu", "mem"] * (len(rows) // 2), r
    for cluster, login, _p, accts, tres, used in rows:
        assert int(used) == sum(v for (_, u, k), v in use.items()
                                if u == login and k == tres), (login, tres)


def test_tres_from_the_records_after_the_rollups(tenv):
    """The part of the window not rolled up comes from the job records:
    the TRES's count read from tres_alloc (mem with its unit)."""
    now = int(time.time())
    tenv.data.fill(4000, 1, "-b", now - 1200, "-r", "-T", "mem=1G",
                   "-U", _uid(U1), "-a", "a2")
    start = now // HOUR * HOUR - HOUR
    got = {}
    for tres in ("cpu", "mem"):
        r = sreport(tenv, "-t", "seconds", "-P", "-n", "-T", tres,
                    "cluster", "UserUtilizationByAccount",
                    "start=%s" % _iso(start), "end=now")
        assert r.rc == 0 and r.err == "", r
        rows = [ln.split("|") for ln in r.out.splitlines()]
        assert [(x[1], x[3], x[4]) for x in rows] == [(U1, "a2", tres)], r
        got[tres] = int(rows[0][5])
    assert 1190 <= got["cpu"] <= now + 60 - (now - 1200), got
    assert abs(got["mem"] - 1024 * got["cpu"]) <= 1024 * 3, got
