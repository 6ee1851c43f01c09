"""sacct -S/-E windows answer exactly the jobs that were in the system
during the window (sacct(1): eligible, submitted by the window's end and
not ended before its start), whichever index slurmdbd reads them by.

Job records are written straight into a private MariaDB (no controller:
only their times matter): jobs ending exactly at S or one second
before, starting or submitted exactly at E or one second after, running
across the window, still running or pending from before it, held (never
eligible), cancelled before they started, and jobs of every span class
(schema v22's job_span: submit to end in [2^k - 1, 2^k + 1] seconds)
ending at S.  Then a sweep of windows over a few thousand jobs of random
lengths, each compared with the predicate computed here.
"""

import os
import random
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mariadb  # noqa: E402

pytestmark = pytest.mark.skipif(bool(mariadb.missing_tools()),
                                reason="MariaDB server not installed: %s"
                                % ", ".join(mariadb.missing_tools()))

DAY = 86400
NOW = int(time.time())
BASE = NOW - 60 * DAY          # the first record
S = NOW - 30 * DAY             # the edge window [S, E]
E = S + DAY

COLS = ("cluster,id_job,job_name,id_user,id_group,account,`partition`,"
        "state,time_submit,time_eligible,time_start,time_end,nodelist,"
        "tres_alloc,tres_req,work_dir")


class Job:
    def __init__(self, jid, submit, start=0, end=0, eligible=None,
                 want=None):
        self.jid = jid
        self.submit = submit
        self.eligible = submit if eligible is None else eligible
        self.start = start
        self.end = end
        self.want = want            # in [S, E]: True/False, None: unsaid

    def state(self):
        if self.end:
            return 3 if self.start else 4      # COMPLETED / CANCELLED
        return 1 if self.start else 0          # RUNNING / PENDING

    def row(self):
        return ("('sluice',%d,'w%d',0,0,'acct','debug',%d,%d,%d,%d,%d,"
                "'n1','cpu=1','cpu=1','/tmp')"
                % (self.jid, self.jid, self.state(), self.submit,
                   self.eligible, self.start, self.end))

    def in_window(self, s, e):
        """sacct(1)'s window, as slurmdbd answered before v22."""
        return (self.eligible != 0 and self.submit <= e and
                (self.end == 0 or self.end >= s))


def edge_jobs():
    j, n = [], [100]

    def add(*a, **kw):
        n[0] += 1
        j.append(Job(n[0], *a, **kw))

    add(S - 200, S - 100, S, want=True)            # ended exactly at S
    add(S - 200, S - 100, S - 1, want=False)       # a second before
    add(E - 10, E, E + 50, want=True)              # started exactly at E
    add(E, want=True)                              # submitted at E, pending
    add(E + 1, want=False)                         # a second after E
    add(E + 1, E + 2, E + 9, want=False)
    add(S - 5 * DAY, S - 4 * DAY, E + 2 * DAY, want=True)  # across it
    add(S - 20 * DAY, S - 19 * DAY, want=True)     # still running
    add(S - 3 * DAY, want=True)                    # pending since before
    add(S + 100, eligible=0, want=False)           # held, never eligible
    add(S - 1000, 0, S + 10, want=True)            # cancelled pending
    add(S - 1000, 0, S - 10, want=False)
    add(S + 5, S + 6, S, want=True)                # end before submit
    add(S + 10, S + 20, S + 30, want=True)         # inside it
    add(BASE, BASE + 1, NOW - DAY, want=True)      # 59 days long
    add(BASE, BASE + 1, S - 1, want=False)
    for k in range(1, 26):                         # every span class
        for span in (2 ** k - 1, 2 ** k, 2 ** k + 1):
            add(S - span, S - span, S, want=True)
            add(S - span - 1, S - span - 1, S - 1, want=False)
    return j


def random_jobs(rng, count):
    out = []
    for i in range(count):
        submit = rng.randint(BASE, NOW - 60)
        kind = rng.random()
        wait = rng.choice((0, 0, 1, 30, 600, 2 * DAY))
        span = rng.choice((1, 5, 60, 3599, 3600, DAY, 3 * DAY, 40 * DAY))
        start = submit + wait
        end = start + span
        if kind < 0.05:                            # still pending
            start = end = 0
        elif kind < 0.1 or end > NOW:              # still running
            end = 0
            start = min(start, NOW - 1)
        elif kind < 0.15:                          # cancelled pending
            start = 0
        out.append(Job(100000 + i, submit, start, end,
                       eligible=0 if kind > 0.98 else None))
    return out


@pytest.fixture(scope="module")
def env(users):
    e = mariadb.AcctEnv(tag="sacct-window", nodes=1)
    try:
        e.start()
    except BaseException:
        e.stop()
        raise
    jobs = edge_jobs() + random_jobs(random.Random(31), 3000)
    for k in range(0, len(jobs), 1000):
        e.db.sql("INSERT INTO job_table (%s) VALUES %s" % (
            COLS, ",".join(x.row() for x in jobs[k:k + 1000])),
            db=e.db.db)
    e.db.sql("ANALYZE TABLE job_table", db=e.db.db)
    e.jobs = jobs
    yield e
    e.finish()


def ts(t):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(t))


def window(env, s, e, *more):
    r = env.sacct("-a", "-X", "-P", "-n", "-o", "JobIDRaw", "-S", ts(s),
                  "-E", ts(e), *more)
    assert r.rc == 0 and r.err == "", r
    return [int(x) for x in r.out.split()]


def test_bad_window_refused(env):
    r = env.sacct("-a", "-X", "-S", "yesterday-ish", "-E", "now")
    assert r.rc != 0 and r.out == "", r
    assert "yesterday-ish" in r.err, r


def test_edges_of_the_window(env):
    got = set(window(env, S, E))
    for j in env.jobs:
        if j.want is not None:
            assert (j.jid in got) == j.want, (
                "job %d submit %d eligible %d start %d end %d: %s" % (
                    j.jid, j.submit - S, j.eligible, j.start - S if j.start
                    else 0, j.end - S if j.end else 0,
                    "missing" if j.want else "not in the window"))
    assert got == {j.jid for j in env.jobs if j.in_window(S, E)}


def test_rows_in_submit_order(env):
    ids = window(env, S, E)
    by_id = {j.jid: j for j in env.jobs}
    keys = [(by_id[i].submit, i) for i in ids]
    assert keys == sorted(keys) and len(ids) == len(set(ids))


def test_windows_sweep(env):
    """Windows of ten minutes to twenty days anywhere in the records'
    sixty days (the narrow ones read by span class, the wide ones by
    submit time): each the predicate's jobs, no more, no fewer."""
    rng = random.Random(22)
    for length in (600, 3600, DAY, 3 * DAY, 20 * DAY, 31 * DAY):
        for _ in range(3):
            s = rng.randint(BASE - DAY, NOW - length)
            want = {j.jid for j in env.jobs if j.in_window(s, s + length)}
            got = window(env, s, s + length)
            assert len(got) == len(set(got))
            assert set(got) == want, (length, s - BASE,
                                      sorted(set(got) ^ want)[:10])


def test_account_window_and_steps(env):
    """-A takes the same path; without -X the job rows are the same."""
    want = {j.jid for j in env.jobs if j.in_window(S, E)}
    assert set(window(env, S, E, "-A", "acct")) == want
    assert window(env, S, E, "-A", "other") == []
    r = env.sacct("-a", "-P", "-n", "-o", "JobIDRaw", "-S", ts(S), "-E",
                  ts(E))
    assert r.rc == 0, r
    assert set(int(x) for x in r.out.split() if "." not in x) == want
