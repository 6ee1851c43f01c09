"""sacct over many jobs with mixed outcomes (issue 6, "What it must show",
first bullet), through slurmdbd into a private MariaDB.

N job records (SLUICE_SACCT_JOBS, default 60; the issue's figure is 500)
cycle through: COMPLETED; FAILED by exit code and by signal (KILL, USR1);
CANCELLED while pending (held) and while running; one TIMEOUT (--time=1,
a minute, submitted first so the rest runs beside it); a small array with
a %throttle whose odd tasks fail; batch scripts that run two or three
srun steps, one of them failing.  The expected sacct output is computed
from what each job was made to do, then compared exactly:
`sacct -P -n -X -o JobIdRaw,State` and `sacct -P -n -o JobID,State,
ExitCode` (job, .batch and .N step rows), and times/usage are checked
(Submit <= Start <= End, Elapsed = End - Start, CPUTimeRAW = NCPUS x
ElapsedRaw, MaxRSS on .batch rows).

The fixtures and helpers are test_sacct.py's and mariadb.py's.
"""

import datetime
import os
import re
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mariadb  # noqa: E402
from test_sacct import U1, _uid, wait_sacct  # noqa: E402

pytestmark = pytest.mark.skipif(bool(mariadb.missing_tools()),
                                reason="MariaDB server not installed: %s"
                                % ", ".join(mariadb.missing_tools()))

N_JOBS = int(os.environ.get("SLUICE_SACCT_JOBS", "60"))

# One cycle of kinds; "array" is 4 records, the others one each.
CYCLE = ["ok", "exit", "sig9", "ok", "cancel_pend", "steps_ok", "exit",
         "cancel_run", "ok", "sigusr1", "steps_fail", "exit", "array",
         "ok", "cancel_pend", "exit"]
ARRAY_TASKS = 4


def _records(kind):
    return ARRAY_TASKS if kind == "array" else 1


def _plan(n):
    """The kinds to submit, N records in all (the TIMEOUT job first)."""
    kinds, have, i = ["timeout"], 1, 0
    while have < n:
        k = CYCLE[i % len(CYCLE)]
        i += 1
        if have + _records(k) > n:
            k = "ok"
        kinds.append(k)
        have += _records(k)
    return kinds


def _steps_script(c, fail_last):
    srun = c.bin("srun")
    if fail_last:
        body = ["%s true" % srun, "%s sh -c 'exit 4'" % srun]
    else:
        body = ["%s true" % srun, "%s sh -c 'exit 2'" % srun,
                "%s true" % srun]
    return "\n".join(["#!/bin/sh"] + body + [""])


def _iso(s):
    return datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%S")


def _elapsed(secs):
    d, rest = divmod(secs, 86400)
    h, rest = divmod(rest, 3600)
    m, s = divmod(rest, 60)
    return ("%d-" % d if d else "") + "%02d:%02d:%02d" % (h, m, s)


class Job:
    def __init__(self, kind, idx):
        self.kind = kind
        self.idx = idx
        self.id = None
        self.marker = None


def _submit(c, job, d):
    k, uid = job.kind, _uid(U1)
    args = ["-J", "v%d" % job.idx]
    if k == "timeout":
        args += ["--time=1", "--wrap", "sleep 300"]
    elif k == "ok":
        args += ["--wrap", "true"]
    elif k == "exit":
        job.code = 1 + job.idx % 254
        args += ["--wrap", "exit %d" % job.code]
    elif k == "sig9":
        args += ["--wrap", "kill -KILL $$"]
    elif k == "sigusr1":
        args += ["--wrap", "kill -USR1 $$"]
    elif k == "cancel_pend":
        args += ["-H", "--wrap", "true"]
    elif k == "cancel_run":
        job.marker = os.path.join(d, "running.%d" % job.idx)
        args += ["--wrap", "touch %s; sleep 300" % job.marker]
    elif k in ("steps_ok", "steps_fail"):
        path = c.write_file(U1, os.path.join(d, "steps%d.sh" % job.idx),
                            _steps_script(c, k == "steps_fail"), 0o755)
        args += ["-n1", path]
    elif k == "array":
        args += ["--array=1-%d%%2" % ARRAY_TASKS, "--wrap",
                 "exit $((SLURM_ARRAY_TASK_ID % 2))"]
    job.id = c.sbatch(args, user=U1, cwd=d)
    if k == "cancel_pend":
        r = c.run(["scancel", str(job.id)], user=U1)
        assert r.rc == 0, r
    job.cancel_state = "CANCELLED by %d" % uid


def _expect(job, tasks):
    """[(JobID, JobIdRaw, State, ExitCode, [(step, State, ExitCode)])]
    for one submitted job: what it was made to do."""
    k, j, cby = job.kind, str(job.id), job.cancel_state
    if k == "array":
        out = []
        for t in range(1, ARRAY_TASKS + 1):
            rc = t % 2
            st = "FAILED" if rc else "COMPLETED"
            ec = "%d:0" % rc
            out.append(("%s_%d" % (j, t), tasks[t], st, ec,
                        [("batch", st, ec)]))
        return out
    rows = {
        "timeout": ("TIMEOUT", "0:0", [("batch", "CANCELLED", "0:15")]),
        "ok": ("COMPLETED", "0:0", [("batch", "COMPLETED", "0:0")]),
        "sig9": ("FAILED", "0:9", [("batch", "FAILED", "0:9")]),
        "sigusr1": ("FAILED", "0:10", [("batch", "FAILED", "0:10")]),
        "cancel_pend": (cby, "0:0", []),
        "cancel_run": (cby, "0:0", [("batch", "CANCELLED", "0:15")]),
        "steps_ok": ("COMPLETED", "0:0", [
            ("batch", "COMPLETED", "0:0"), ("0", "COMPLETED", "0:0"),
            ("1", "FAILED", "2:0"), ("2", "COMPLETED", "0:0")]),
        "steps_fail": ("FAILED", "4:0", [
            ("batch", "FAILED", "4:0"), ("0", "COMPLETED", "0:0"),
            ("1", "FAILED", "4:0")]),
    }
    if k == "exit":
        ec = "%d:0" % job.code
        st, ec, steps = "FAILED", ec, [("batch", "FAILED", ec)]
    else:
        st, ec, steps = rows[k]
    return [(j, j, st, ec, steps)]


def _cancel_running(c, jobs):
    """scancel every cancel_run job whose script has started; returns
    the ones still waiting to start."""
    left = []
    for job in jobs:
        if os.path.exists(job.marker):
            r = c.run(["scancel", str(job.id)], user=U1)
            assert r.rc == 0, r
        else:
            left.append(job)
    return left


def _controller_view(c):
    """{raw id: (submit time, "A_T" or raw id, state)} from squeue."""
    r = c.run(["squeue", "-h", "-t", "all", "-o", "%A|%i|%V|%T"],
              timeout=60)
    assert r.rc == 0, r
    view = {}
    for line in r.out.splitlines():
        raw, jid, submit, state = line.split("|")
        view[raw] = (submit, jid, state)
    return view


@pytest.fixture(scope="module")
def volume(users):
    e = mariadb.AcctEnv(tag="sacctvol", nodes=3)
    try:
        e.start()
        e.start_cluster()
    except BaseException:
        e.stop()
        raise
    c = e.c
    d = c.workdir(U1)
    t0 = time.time()
    jobs = [Job(k, i) for i, k in enumerate(_plan(N_JOBS))]
    running = []
    for job in jobs:
        _submit(c, job, d)
        if job.kind == "cancel_run":
            running.append(job)
        if running:
            running = _cancel_running(c, running)
    deadline = time.time() + 120 + N_JOBS
    while running:
        assert time.time() < deadline, "not started: %s" % running
        running = _cancel_running(c, running)
        time.sleep(0.2)
    # everything ends; the TIMEOUT job last, a minute after it started
    ids = {str(j.id) for j in jobs}
    deadline = time.time() + 150 + N_JOBS
    view = {}
    while time.time() < deadline:
        view = _controller_view(c)
        busy = [raw for raw, (_, jid, st) in view.items()
                if jid.split("_")[0] in ids and st not in
                ("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT")]
        if not busy:
            break
        time.sleep(1)
    assert not busy, "jobs not done: %s" % busy[:20]
    e.jobs = jobs
    e.view = view
    e.run_secs = time.time() - t0
    yield e
    e.finish()


def _expected_rows(env):
    """All expected rows, ordered as Slurm 22.05's sacct orders jobs
    (checked on the oracle): by submit time (an array's tasks keep the
    array's), then as their records were made, i.e. by job id (a task
    gets its own id when it is split off the array), the array's own
    record (its last task) after the tasks split off it."""
    tasks_of = {}
    for raw, (_, jid, _) in env.view.items():
        if "_" in jid:
            base, t = jid.split("_")
            tasks_of.setdefault(base, {})[int(t)] = raw
    rows = []
    for job in env.jobs:
        rows += _expect(job, tasks_of.get(str(job.id), {}))
    for row in rows:
        assert row[1] in env.view, "task %s not known to the controller" \
            % row[0]
    rows.sort(key=lambda r: (env.view[r[1]][0],
                             r[0].split("_")[0] == r[1] and "_" in r[0],
                             int(r[1])))
    return rows


def _ids(env):
    return ",".join(str(j.id) for j in env.jobs)


def test_states_as_slurm_prints_them(volume):
    rows = _expected_rows(volume)
    assert len(rows) == N_JOBS
    want = {raw: st for _, raw, st, _, _ in rows}
    got = wait_sacct(volume, [r[1] for r in rows], want, timeout=120,
                     user=U1)
    assert got == want
    r = volume.sacct("-P", "-n", "-X", "-o", "JobIdRaw,State", "-j",
                     _ids(volume), user=U1)
    assert (r.rc, r.err) == (0, ""), r
    assert r.out == "".join("%s|%s\n" % (raw, st)
                            for _, raw, st, _, _ in rows)


def _blocks(text):
    """Job rows each with the step rows that follow it, as
    [(JobID, "job line\nstep lines\n...")]."""
    out = []
    for line in text.splitlines(keepends=True):
        jid = line.split("|")[0]
        if "." in jid and out:
            out[-1] = (out[-1][0], out[-1][1] + line)
        else:
            out.append((jid, line))
    return out


def test_exit_codes_and_steps(volume):
    rows = _expected_rows(volume)
    want = ""
    for jid, _, st, ec, steps in rows:
        want += "%s|%s|%s\n" % (jid, st, ec)
        want += "".join("%s.%s|%s|%s\n" % (jid, s, sst, sec)
                        for s, sst, sec in steps)
    deadline = time.time() + 60
    while True:
        r = volume.sacct("-P", "-n", "-o", "JobID,State,ExitCode", "-j",
                         _ids(volume), user=U1)
        assert (r.rc, r.err) == (0, ""), r
        if r.out == want or time.time() > deadline:
            break
        time.sleep(1)
    assert r.out.splitlines() == want.splitlines()
    assert len(_blocks(r.out)) == N_JOBS


def test_times_and_usage(volume):
    kinds = {}
    for job in volume.jobs:
        kinds[str(job.id)] = job.kind
    r = volume.sacct("-P", "-n", "-o", "JobID,JobIDRaw,Submit,Start,End,"
                     "Elapsed,ElapsedRaw,NCPUS,CPUTimeRAW,MaxRSS,State",
                     "-j", _ids(volume), user=U1)
    assert r.rc == 0, r
    jobs = {}
    for line in r.out.splitlines():
        jid, raw, sub, start, end, el, elraw, ncpus, cpuraw, rss, st = \
            line.split("|")
        base = jid.split(".")[0]
        if st.startswith("CANCELLED by") and kinds.get(base) == \
                "cancel_pend":
            # never started: Start = End, the moment it was cancelled
            # (as Slurm 22.05 prints it), no time used
            assert (start, el, elraw, cpuraw) == (end, "00:00:00", "0",
                                                  "0"), line
            assert _iso(sub) <= _iso(end), line
            continue
        s, b, e = _iso(sub), _iso(start), _iso(end)
        assert s <= b <= e, line
        secs = int((e - b).total_seconds())
        assert (el, elraw) == (_elapsed(secs), str(secs)), line
        if "." not in jid:
            assert cpuraw == str(int(ncpus) * secs), line
            jobs[jid] = (b, e)
            if kinds.get(base) == "timeout":
                assert 60 <= secs <= 120, line
        else:
            jb, je = jobs[base]
            assert jb <= b, line
            # a killed job ends when it is cancelled or hits its limit;
            # its batch step when the script has died (KillWait=3 later
            # at most, as in Slurm)
            slack = 5 if st == "CANCELLED" else 0
            assert (e - je).total_seconds() <= slack, line
            if jid.endswith(".batch"):
                # KB, or a bigger unit when it divides exactly (3072K
                # prints as 3M, as Slurm's sacct does)
                assert re.fullmatch(r"[1-9]\d*[KMG]", rss), line
