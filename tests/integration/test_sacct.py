"""sacct over jobs the controller recorded through slurmdbd into a
private MariaDB.

The first group shares one cluster: jobs with mixed outcomes
(COMPLETED, FAILED by exit code and by signal, CANCELLED, TIMEOUT,
held) and what sacct prints for them, checked against what Slurm prints
(shared/oracle/ref/sacct*.txt layouts).  The fault tests each bring up
their own cluster and break the path to the database while jobs run:
MariaDB stopped, slurmdbd SIGKILLed, slurmctld SIGKILLed with records
still in its outbox; every job must then arrive exactly once.
SLUICE_ACCT_FAULT_JOBS sets how many jobs those tests run (default 40).
"""

import os
import re
import signal
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mariadb  # noqa: E402

pytestmark = pytest.mark.skipif(bool(mariadb.missing_tools()),
                                reason="MariaDB server not installed: %s"
                                % ", ".join(mariadb.missing_tools()))

U1, U2 = "sluice_u1", "sluice_u2"
FAULT_JOBS = int(os.environ.get("SLUICE_ACCT_FAULT_JOBS", "40"))
HEADER = ("JobID           JobName  Partition    Account  AllocCPUS      "
          "State ExitCode \n"
          "------------ ---------- ---------- ---------- ---------- "
          "---------- -------- \n")


def _start_env(tag, nodes=2):
    e = mariadb.AcctEnv(tag=tag, nodes=nodes)
    try:
        e.start()
        e.start_cluster()
    except BaseException:
        e.stop()
        raise
    return e


def _uid(user):
    import pwd
    return pwd.getpwnam(user).pw_uid


def wait_sacct(env, ids, want, timeout=90, user=None):
    """Until `sacct -X -P -n -o JobIDRaw,State -j ids` gives want (a dict
    id -> state); returns the last dict seen."""
    deadline = time.time() + timeout
    got = None
    while time.time() < deadline:
        r = env.sacct("-X", "-P", "-n", "-o", "JobIDRaw,State", "-j",
                      ",".join(str(i) for i in ids), user=user)
        if r.rc == 0:
            got = dict(line.split("|", 1) for line in r.out.splitlines())
            if got == want:
                return got
        time.sleep(0.5)
    return got


# ---------------------------------------------------------------------------
# mixed outcomes on one shared cluster


@pytest.fixture(scope="module")
def mixed(users):
    e = _start_env("sacct")
    c = e.c
    jobs = {}
    # The time limit takes a minute: start it first.
    jobs["timeout"] = c.sbatch(["-J", "tlimit", "--time=1", "--wrap",
                                "sleep 300"], user=U1)
    # "ok" burns a little CPU, for TotalCPU
    jobs["ok"] = c.sbatch(["-J", "ok", "--wrap", "i=0; while [ $i -lt "
                           "200000 ]; do i=$((i+1)); done"], user=U1)
    jobs["fail"] = c.sbatch(["-J", "fails", "--wrap", "exit 3"], user=U1)
    jobs["signal"] = c.sbatch(["-J", "sig", "--wrap", "kill -9 $$"], user=U1)
    jobs["cancel"] = c.sbatch(["-J", "cancelme", "--wrap", "sleep 300"],
                              user=U1)
    jobs["held"] = c.sbatch(["-J", "held", "-H", "--wrap", "true"], user=U1)
    jobs["other"] = c.sbatch(["-J", "u2job", "--wrap", "true"], user=U2)
    c.wait_state(jobs["cancel"], "RUNNING")
    time.sleep(1)
    r = c.run(["scancel", str(jobs["cancel"])], user=U1)
    assert r.rc == 0, r
    for k in ("ok", "fail", "signal", "cancel", "other"):
        c.wait_done(jobs[k])
    c.wait_done(jobs["timeout"], timeout=150)
    e.jobs = jobs
    want = {str(jobs["ok"]): "COMPLETED", str(jobs["fail"]): "FAILED",
            str(jobs["signal"]): "FAILED",
            str(jobs["cancel"]): "CANCELLED by %d" % _uid(U1),
            str(jobs["timeout"]): "TIMEOUT", str(jobs["held"]): "PENDING",
            str(jobs["other"]): "COMPLETED"}
    got = wait_sacct(e, list(jobs.values()), want)
    assert got == want, got
    yield e
    e.finish()


def test_parsable_states_as_slurm_prints_them(mixed):
    """What Snakemake runs: one `id|STATE` line per job, no header."""
    j = mixed.jobs
    ids = [j["ok"], j["fail"], j["cancel"], j["timeout"]]
    r = mixed.sacct("-P", "-n", "-X", "-o", "JobIdRaw,State", "-j",
                    ",".join(map(str, ids)), user=U1)
    assert r.rc == 0, r
    assert r.err == ""
    assert r.out == ("%d|TIMEOUT\n%d|COMPLETED\n%d|FAILED\n"
                     "%d|CANCELLED by %d\n" % (
                         j["timeout"], j["ok"], j["fail"], j["cancel"],
                         _uid(U1)))
    # Snakemake's older form: -j once per job, --format spelled out.
    r = mixed.sacct("-P", "-n", "--format=JobIdRaw,State", "-j",
                    str(j["fail"]), user=U1)
    assert r.out == "%d|FAILED\n%d.batch|FAILED\n" % (j["fail"], j["fail"])


def test_exit_codes_and_steps(mixed):
    j = mixed.jobs
    # The fixture waited for the jobs' records; a cancelled job's end is
    # recorded before its batch step's (the stepd reports the step once
    # the script is dead), and records travel in batches up to 200 ms
    # apart: until then sacct shows the step closed by the job's end.
    deadline = time.time() + 30
    while True:
        r = mixed.sacct("-P", "-o", "JobID,JobName,State,ExitCode,"
                        "DerivedExitCode", "-j",
                        "%d,%d,%d,%d" % (j["fail"], j["signal"], j["cancel"],
                                         j["timeout"]), user=U1)
        if r.rc != 0 or time.time() > deadline or all(
                "%d.batch|batch|CANCELLED|0:15|" % k in r.out
                for k in (j["cancel"], j["timeout"])):
            break
        time.sleep(0.2)
    assert r.rc == 0, r
    lines = r.out.splitlines()
    assert lines[0] == "JobID|JobName|State|ExitCode|DerivedExitCode"
    rows = {ln.split("|")[0]: ln.split("|")[1:] for ln in lines[1:]}
    t, f, s, c = j["timeout"], j["fail"], j["signal"], j["cancel"]
    assert rows[str(f)] == ["fails", "FAILED", "3:0", "0:0"]
    assert rows["%d.batch" % f] == ["batch", "FAILED", "3:0", ""]
    assert rows[str(s)] == ["sig", "FAILED", "0:9", "0:0"]
    assert rows["%d.batch" % s] == ["batch", "FAILED", "0:9", ""]
    # A cancelled or timed-out job reads 0:0; its batch step the signal.
    assert rows[str(c)][1:3] == ["CANCELLED by %d" % _uid(U1), "0:0"]
    assert rows["%d.batch" % c][1:3] == ["CANCELLED", "0:15"]
    assert rows[str(t)][1:3] == ["TIMEOUT", "0:0"]
    assert rows["%d.batch" % t][1:3] == ["CANCELLED", "0:15"]


def test_times_and_usage(mixed):
    j = mixed.jobs
    r = mixed.sacct("-P", "-n", "-o", "JobID,Submit,Start,End,Elapsed,"
                    "ElapsedRaw,Timelimit,NNodes,NCPUS,NodeList,User,UID,"
                    "CPUTimeRAW,TotalCPU,MaxRSS", "-j",
                    "%d,%d" % (j["timeout"], j["held"]), user=U1)
    assert r.rc == 0, r
    rows = {ln.split("|")[0]: ln.split("|") for ln in r.out.splitlines()}
    t = rows[str(j["timeout"])]
    iso = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d"
    assert all(re.fullmatch(iso, x) for x in t[1:4]), t
    assert t[1] <= t[2] <= t[3]
    assert 60 <= int(t[5]) <= 90, t           # ran until its 1 min limit
    assert t[4] == "00:%02d:%02d" % divmod(int(t[5]), 60)
    assert t[6] == "00:01:00"
    assert t[7:10] == ["1", "1", t[9]] and re.fullmatch(r"n\d", t[9])
    assert t[10:12] == [U1, str(_uid(U1))]
    assert t[12] == t[5]                      # 1 CPU x elapsed
    b = rows["%d.batch" % j["timeout"]]
    assert b[10] == "" and re.fullmatch(r"\d+K", b[14]), b
    h = rows[str(j["held"])]
    assert h[2:5] == ["Unknown", "Unknown", "00:00:00"], h
    assert h[9] == "None assigned"


def test_job_total_cpu_with_and_without_steps(mixed):
    """A job row's TotalCPU is its steps' sum, also with -X (which does
    not print the steps)."""
    ok = mixed.jobs["ok"]
    r = mixed.sacct("-P", "-n", "-o", "JobID,TotalCPU", "-j", str(ok),
                    user=U1)
    rows = dict(ln.split("|") for ln in r.out.splitlines())
    assert rows[str(ok)] == rows["%d.batch" % ok], rows
    assert re.search(r"[1-9]", rows[str(ok)]), rows     # it used CPU
    r = mixed.sacct("-X", "-P", "-n", "-o", "JobID,TotalCPU", "-j", str(ok),
                    user=U1)
    assert r.out == "%d|%s\n" % (ok, rows[str(ok)]), r


def test_default_table_layout(mixed):
    j = mixed.jobs
    r = mixed.sacct("-j", str(j["fail"]), user=U1)
    assert r.rc == 0, r
    f = str(j["fail"])
    assert r.out == HEADER + (
        "%-12s %10s %10s %10s %10s %10s %8s \n" % (f, "fails", "debug", "",
                                                    "1", "FAILED", "3:0") +
        "%-12s %10s %10s %10s %10s %10s %8s \n" % (f + ".batch", "batch",
                                                    "", "", "1", "FAILED",
                                                    "3:0"))
    # A state longer than its column ends in '+'; a width fits it.
    r = mixed.sacct("-X", "-n", "-o", "State,State%20", "-j",
                    str(j["cancel"]), user=U1)
    assert r.out == "CANCELLED+ %20s \n" % ("CANCELLED by %d" % _uid(U1))
    r = mixed.sacct("-X", "-n", "-o", "JobName%-12,JobID%8", "-j",
                    str(j["ok"]), user=U1)
    assert r.out == "%-12s %8s \n" % ("ok", j["ok"])


def test_default_user_window_and_filters(mixed):
    j = mixed.jobs
    # A user sees only their own jobs; held jobs (never eligible) only
    # when asked for by id.
    r = mixed.sacct("-X", "-P", "-n", "-o", "JobIDRaw", user=U2)
    assert r.out.split() == [str(j["other"])]
    r = mixed.sacct("-X", "-P", "-n", "-o", "JobIDRaw", user=U1)
    mine = {str(v) for k, v in j.items() if k not in ("other", "held")}
    assert set(r.out.split()) == mine
    # root (and -a) sees everyone's
    r = mixed.sacct("-X", "-P", "-n", "-o", "JobIDRaw,User")
    assert "%d|%s" % (j["other"], U2) in r.out.splitlines()
    r = mixed.sacct("-a", "-X", "-P", "-n", "-o", "JobIDRaw", user=U2)
    assert str(j["ok"]) in r.out.split()
    r = mixed.sacct("-u", U2, "-X", "-P", "-n", "-o", "JobIDRaw")
    assert r.out.split() == [str(j["other"])]
    # states over a window
    r = mixed.sacct("-X", "-P", "-n", "-o", "JobIDRaw", "-s", "F,TO",
                    "-S", "now-1hour", user=U1)
    assert set(r.out.split()) == {str(j["fail"]), str(j["signal"]),
                                  str(j["timeout"])}
    r = mixed.sacct("-X", "-P", "-n", "-o", "JobIDRaw", "-s", "CD",
                    user=U1)
    assert r.out == ""                    # -s alone: the window is now
    r = mixed.sacct("-X", "-P", "-n", "-o", "JobIDRaw", "--name=fails,ok",
                    user=U1)
    assert set(r.out.split()) == {str(j["fail"]), str(j["ok"])}
    r = mixed.sacct("-X", "-P", "-n", "-o", "JobIDRaw", "-S", "now+1hour",
                    user=U1)
    assert r.out == ""
    r = mixed.sacct("-b", "-n", "-P", "-j", str(j["fail"]), user=U1)
    assert r.out == "%d|FAILED|3:0\n%d.batch|FAILED|3:0\n" % (j["fail"],
                                                               j["fail"])
    r = mixed.sacct("-n", "-P", "-o", "JobID", "-j", "%d.batch" % j["ok"],
                    user=U1)
    assert r.out == "%d.batch\n" % j["ok"]
    r = mixed.sacct("-p", "-n", "-X", "-o", "JobIDRaw,JobName", "-j",
                    str(j["ok"]), "--delimiter=:", user=U1)
    assert r.out == "%d:ok:\n" % j["ok"]


def test_client_forms(mixed):
    """The sacct lines workflow tools run (reference/clients.md)."""
    j = mixed.jobs
    ok, fail = j["ok"], j["fail"]
    # submitit: -j repeated, header kept, steps skipped by the client
    r = mixed.sacct("-o", "JobID,State,NodeList", "--parsable2", "-j",
                    str(ok), "-j", str(fail), user=U1)
    lines = r.out.splitlines()
    assert lines[0] == "JobID|State|NodeList"
    assert [ln.split("|")[:2] for ln in lines[1:] if "." not in
            ln.split("|")[0]] == [[str(ok), "COMPLETED"],
                                  [str(fail), "FAILED"]]
    # Toil: ids as one list, from the epoch
    r = mixed.sacct("-n", "-j", "%d,%d" % (ok, fail), "--format",
                    "JobIDRaw,State,ExitCode", "-P", "-S", "1970-01-01",
                    user=U1)
    assert r.out == ("%d|COMPLETED|0:0\n%d.batch|COMPLETED|0:0\n"
                     "%d|FAILED|3:0\n%d.batch|FAILED|3:0\n" % (
                         ok, ok, fail, fail))
    # snakemake-executor-plugin-slurm: by name over a window
    r = mixed.sacct("-X", "--parsable2", "--clusters", "all", "--noheader",
                    "--format=JobIdRaw,State", "--starttime",
                    time.strftime("%Y-%m-%dT00:00"), "--endtime", "now",
                    "--name", "fails", user=U1)
    assert r.out == "%d|FAILED\n" % fail
    r = mixed.sacct("-j", str(ok), "-n", "-X", "-o", "nodelist%-256",
                    user=U1)
    assert re.fullmatch(r"n\d +\n", r.out) and len(r.out) == 258
    r = mixed.sacct("-nu", U1, "-o", "Account%20", user=U1)
    assert r.rc == 0 and r.out.startswith(" " * 20 + " \n")
    # prometheus-slurm-exporter
    r = mixed.sacct("-a", "-X", "--format=Allocgres", "--state=RUNNING",
                    "--noheader", "--parsable2")
    assert (r.rc, r.err) == (0, "")


def test_bad_input(mixed):
    r = mixed.sacct("-j", "abc", user=U1)
    assert (r.rc, r.out) == (1, "")
    assert r.err == "sacct: fatal: Bad job/step specified: abc\n"
    r = mixed.sacct("-o", "JobID,Bogus", user=U1)
    assert r.rc == 1 and "Bogus" in r.err and r.out == ""
    r = mixed.sacct("-s", "NOTASTATE", user=U1)
    assert (r.rc, r.out, r.err) == (
        1, "", "sacct: fatal: unrecognized job state value 'NOTASTATE'\n")
    r = mixed.sacct("-u", "nosuchuser", user=U1)
    assert (r.rc, r.out, r.err) == (
        1, "", "sacct: error: Invalid user id: nosuchuser\n")
    r = mixed.sacct("--bogus", user=U1)
    assert r.rc == 1 and r.out == "" and r.err.endswith(
        "unrecognized option '--bogus'\n"), r
    r = mixed.sacct("-e")
    assert r.rc == 0 and "JobIDRaw" in r.out and "CPUTimeRAW" in r.out


def _mem(kb, unit):
    """A KB count as --units=unit prints it."""
    v = kb / 1024 ** "KMGTP".index(unit)
    return ("%d%s" % (v, unit)) if v == int(v) else ("%.2f%s" % (v, unit))


def test_filters_truncate_and_units(mixed):
    """-i/-I/-k/-K/-W/-C/-R select among the answer's jobs, -T cuts the
    times to the window, --units/--noconvert print memory as asked."""
    j = mixed.jobs
    allx = ("-X", "-P", "-n", "-o", "JobIDRaw", "-S", "now-1hour")
    mine = {str(v) for k, v in j.items() if k not in ("other", "held")}
    r = mixed.sacct(*allx, "-k", "1", user=U1)
    assert r.out.split() == [str(j["timeout"])], r
    r = mixed.sacct(*allx, "-k", "1", "-K", "2", user=U1)
    assert r.out.split() == [str(j["timeout"])], r
    r = mixed.sacct(*allx, "-k", "2", "-K", "5", user=U1)
    assert r.out == "", r
    r = mixed.sacct(*allx, "-i", "1", user=U1)
    assert set(r.out.split()) == mine, r
    r = mixed.sacct(*allx, "-i", "2-5", user=U1)
    assert r.out == "", r
    r = mixed.sacct(*allx, "-I", "1-1", user=U1)
    assert set(r.out.split()) == mine, r
    r = mixed.sacct(*allx, "-W", "nosuchwckey", user=U1)
    assert (r.rc, r.out) == (0, ""), r
    r = mixed.sacct(*allx, "-C", "nosuchfeature", user=U1)
    assert (r.rc, r.out) == (0, ""), r
    r = mixed.sacct("-X", "-P", "-n", "-o", "JobIDRaw", "-j",
                    "%d,%d" % (j["held"], j["ok"]), "-R", "JobHeldUser",
                    user=U1)
    assert r.out.split() == [str(j["held"])], r
    # -T: the timed-out job ran about a minute; a window inside its run
    r = mixed.sacct("-X", "-P", "-n", "-o", "Start,End", "-j",
                    str(j["timeout"]), user=U1)
    start, end = r.out.split()[0].split("|")
    t0 = time.mktime(time.strptime(start, "%Y-%m-%dT%H:%M:%S"))
    t1 = time.mktime(time.strptime(end, "%Y-%m-%dT%H:%M:%S"))
    assert t1 - t0 >= 40, r
    s = time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(t0 + 10))
    e = time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(t1 - 10))
    r = mixed.sacct("-X", "-P", "-n", "-o", "JobIDRaw,Start,End,Elapsed",
                    "-S", s, "-E", e, "-T", "--name=tlimit", user=U1)
    secs = int(t1 - t0 - 20)
    assert r.out == "%d|%s|%s|%02d:%02d:%02d\n" % (
        j["timeout"], s, e, secs // 3600, secs % 3600 // 60, secs % 60), r
    r = mixed.sacct("-X", "-P", "-n", "-o", "Start,End", "-S", s, "-E", e,
                    "--name=tlimit", user=U1)
    assert r.out == "%s|%s\n" % (start, end), r
    # memory: the batch step's MaxRSS as kept, and in M and G
    r = mixed.sacct("-P", "-n", "-o", "JobID,MaxRSS", "--noconvert", "-j",
                    str(j["ok"]), user=U1)
    rss = dict(line.split("|") for line in r.out.splitlines())
    kept = rss["%d.batch" % j["ok"]]
    assert re.fullmatch(r"\d+K", kept), r
    kb = int(kept[:-1])
    for unit in ("M", "G"):
        r = mixed.sacct("-P", "-n", "-o", "JobID,MaxRSS", "--units=" + unit,
                        "-j", str(j["ok"]), user=U1)
        got = dict(line.split("|") for line in r.out.splitlines())
        assert got["%d.batch" % j["ok"]] == _mem(kb, unit), r
    r = mixed.sacct("--units=X", user=U1)
    assert (r.rc, r.out, r.err) == (
        1, "", "sacct: error: Invalid unit type 'X'. Possible options are "
        "'KMGTP'\nsacct: fatal: Invalid unit type\n"), r
    for bad in (["-x", "1"], ["-c"], ["-f", "/tmp/x"], ["--whole-hetjob"]):
        r = mixed.sacct(*bad, user=U1)
        assert r.rc == 1 and "is not supported" in r.err, r


def _validate(doc, schema):
    """doc against v0.0.43's schema of that name in the spec slurmrestd
    compiles in (no member the schema does not list)."""
    import openapi
    openapi.validate(doc, schema, os.path.join(openapi.SPEC_DIR,
                                               "v0.0.43.json"))


def test_json_and_yaml(mixed):
    """--json / --yaml: Slurm 25.05's data_parser v0.0.43 document
    (openapi_slurmdbd_jobs_resp)."""
    import json
    import yaml
    j = mixed.jobs
    ids = "%d,%d,%d" % (j["ok"], j["fail"], j["signal"])
    r = mixed.sacct("--json", "-j", ids, user=U1)
    assert r.rc == 0 and r.err == "", r
    doc = json.loads(r.out)
    _validate(doc, "v0.0.43_openapi_slurmdbd_jobs_resp")
    assert doc["meta"]["plugin"]["data_parser"] == "data_parser/v0.0.43"
    assert doc["errors"] == [] and "last_update" not in doc
    jobs = {x["job_id"]: x for x in doc["jobs"]}
    assert sorted(jobs) == sorted([j["ok"], j["fail"], j["signal"]])
    ok, fail, sig = jobs[j["ok"]], jobs[j["fail"]], jobs[j["signal"]]
    assert ok["state"] == {"current": ["COMPLETED"], "reason": "None"}
    assert ok["exit_code"]["status"] == ["SUCCESS"]
    assert ok["exit_code"]["return_code"] == \
        {"set": True, "infinite": False, "number": 0}
    assert ok["user"] == U1 and ok["name"] == "ok"
    assert ok["association"]["user"] == U1
    assert ok["partition"] == "debug" and ok["cluster"] == "sluice"
    assert fail["exit_code"]["status"] == ["ERROR"]
    assert fail["exit_code"]["return_code"]["number"] == 3
    assert sig["exit_code"]["status"] == ["SIGNALED"]
    assert sig["exit_code"]["signal"]["id"]["number"] == 9
    step = fail["steps"][0]
    assert step["step"]["id"] == "%d.batch" % j["fail"]
    assert step["state"] == ["FAILED"]
    assert step["nodes"]["count"] == 1 and step["nodes"]["list"] == \
        [fail["nodes"]] and step["nodes"]["range"] == fail["nodes"]
    assert step["time"]["start"]["set"] and step["time"]["end"]["set"]
    assert ok["time"]["end"] >= ok["time"]["start"] >= \
        ok["time"]["submission"] > 0
    cpu = [t for t in ok["tres"]["allocated"] if t["type"] == "cpu"]
    assert cpu == [{"type": "cpu", "name": "", "id": 1, "count": 1}]
    # -X: no steps; YAML: the same document.
    r = mixed.sacct("--yaml", "-X", "-j", str(j["fail"]), user=U1)
    assert r.rc == 0, r
    y = yaml.safe_load(r.out)
    assert [x["job_id"] for x in y["jobs"]] == [j["fail"]]
    assert y["jobs"][0]["steps"] == []
    assert y["jobs"][0]["exit_code"] == fail["exit_code"]


def test_container_column(mixed):
    """sacct -o Container and --json's container member: the job's
    --container bundle as submitted (empty for a job without one)."""
    import json
    c = mixed.c
    oci = os.path.join(os.path.dirname(c.conf), "oci.conf")
    with open(oci, "w") as f:
        f.write('RunTimeRun="/bin/false %b"\n')
    os.chmod(oci, 0o644)
    bundle = os.path.join(c.workdir(U1), "bundle")
    try:
        jid = c.sbatch(["-H", "--container", bundle, "-o", "/dev/null",
                        "--wrap", "true"], user=U1)
    finally:
        os.unlink(oci)
    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            r = mixed.sacct("-X", "-P", "-n", "-o", "JobIDRaw,Container",
                            "-j", str(jid), user=U1)
            if r.rc == 0 and r.out.strip():
                break
            time.sleep(0.5)
        assert r.out == "%d|%s\n" % (jid, bundle), r
        r = mixed.sacct("-X", "-o", "Container", "-j", str(jid), user=U1)
        assert r.rc == 0, r
        assert r.out.splitlines()[0] == "%19s " % "Container", r
        r = mixed.sacct("--json", "-j", "%d,%d" % (jid, mixed.jobs["ok"]),
                        user=U1)
        assert r.rc == 0, r
        got = {x["job_id"]: x["container"] for x in json.loads(r.out)["jobs"]}
        assert got == {jid: bundle, mixed.jobs["ok"]: ""}, got
    finally:
        c.run(["scancel", str(jid)])


def test_pending_array_shows_its_tasks(mixed):
    """A pending array's record reads N_[1-5%2] (JobIDRaw N), as Slurm."""
    c = mixed.c
    a = c.sbatch(["-H", "--array=1-5%2", "--wrap", "true"], user=U1)
    try:
        want = {"%d_[1-5%%2]" % a: "%d|PENDING" % a}
        deadline = time.time() + 30
        got = None
        while time.time() < deadline:
            r = mixed.sacct("-X", "-P", "-n", "-o", "JobID,JobIDRaw,State",
                            "-j", str(a), user=U1)
            got = dict(ln.split("|", 1) for ln in r.out.splitlines())
            if got == want:
                break
            time.sleep(0.5)
        assert got == want
        r = mixed.sacct("--json", "-j", str(a), user=U1)
        import json
        arr = json.loads(r.out)["jobs"][0]["array"]
        assert (arr["job_id"], arr["task"], arr["task_id"]["set"]) == \
            (a, "0x3E", False)
    finally:
        c.run(["scancel", str(a)], user=U1)


def sreport(env, *args, user=None):
    return env.c.run([env.c.bins["sreport"]] + list(args), user=user,
                     timeout=60)


DASH80 = "-" * 80
UTIL_HEADER = ("  Cluster Allocate     Down PLND Dow     Idle  Planned "
               "Reported \n--------- -------- -------- -------- -------- "
               "-------- -------- \n")


def _acct_of(env, user):
    r = env.sacct("-X", "-P", "-n", "-o", "Account", "-u", user, "-j",
                  ",".join(str(i) for i in env.jobs.values()))
    return r.out.splitlines()[0]


def test_sreport_totals_equal_the_jobs(mixed):
    """sreport's CPU time per user and for the cluster is what the jobs
    sacct lists used (CPUTimeRAW = CPUs x elapsed)."""
    ids = ",".join(str(i) for i in mixed.jobs.values())
    r = mixed.sacct("-a", "-X", "-P", "-n", "-o", "User,CPUTimeRAW", "-j",
                    ids)
    assert r.rc == 0, r
    want = {}
    for line in r.out.splitlines():
        user, secs = line.split("|")
        want[user] = want.get(user, 0) + int(secs)
    assert want[U1] > 60 and want[U2] >= 0, want
    # one fixed window for every report below: with end=now each call's
    # reported time grows with the clock (the percentages then differ)
    end = time.time()
    window = ["start=" + time.strftime("%Y-%m-%dT%H:%M:%S",
                                       time.localtime(end - 6 * 3600)),
              "end=" + time.strftime("%Y-%m-%dT%H:%M:%S",
                                     time.localtime(end))]
    r = sreport(mixed, "-t", "seconds", "-P", "-n", "cluster",
                "UserUtilizationByAccount", *window)
    assert r.rc == 0 and r.err == "", r
    got = {}
    for line in r.out.splitlines():
        cluster, login, _proper, _acct, used, energy = line.split("|")
        assert (cluster, energy) == ("sluice", "0")
        got[login] = got.get(login, 0) + int(used)
    assert {u: s for u, s in got.items() if s} == \
        {u: s for u, s in want.items() if s}
    r = sreport(mixed, "-t", "seconds", "-P", "-n", "cluster",
                "utilization", *window)
    assert r.rc == 0, r
    cluster, alloc, down, pdown, idle, plan, reported = \
        r.out.strip().split("|")
    assert int(alloc) == sum(want.values())
    assert int(alloc) + int(down) + int(pdown) + int(idle) + int(plan) == \
        int(reported)
    # Percentages of the reported time; the first user's share.
    r = sreport(mixed, "-t", "percent", "-P", "-n", "user", "topusage",
                "topcount=1", *window)
    top = max(got, key=got.get)
    assert r.out == "sluice|%s||%s|%.2f%%|0.00%%\n" % (
        top, _acct_of(mixed, top), got[top] * 100.0 / int(reported)), r


def test_sreport_layout(mixed):
    """Yesterday's window by default; the layout of Slurm's sreport (the
    cluster did not exist yesterday, so no row)."""
    import datetime
    y = (datetime.date.today() - datetime.timedelta(days=1)).isoformat()
    r = sreport(mixed, "cluster", "utilization")
    assert r.rc == 0, r
    assert r.out == (DASH80 + "\nCluster Utilization %sT00:00:00 - "
                     "%sT23:59:59\nUsage reported in CPU Minutes\n" % (y, y)
                     + DASH80 + "\n" + UTIL_HEADER)
    r = sreport(mixed, "-t", "hourper", "user", "topusage",
                "start=2026-01-05T09:40", "end=2026-01-05T12:10")
    assert r.out.splitlines()[1:3] == [
        "Top 10 Users 2026-01-05T10:00:00 - 2026-01-05T11:59:59 "
        "(7200 secs)", "Usage reported in CPU Hours/Percentage of Total"]
    assert r.out.splitlines()[4] == (
        "  Cluster     Login     Proper Name         Account "
        "             Used            Energy ")


def test_sreport_bad_input(mixed):
    r = sreport(mixed, "cluster", "bogus")
    assert r.rc == 1 and r.out == "" and \
        r.err.startswith("Not valid report bogus\n"), r
    r = sreport(mixed, "nosuchtype")
    assert (r.rc, r.out, r.err) == (1, "", "invalid keyword: nosuchtype\n")
    r = sreport(mixed, "cluster", "utilization", "bogus=1")
    assert r.rc == 1 and " Unknown condition: bogus=1" in r.err
    r = sreport(mixed, "job", "sizesbyaccount", "grouping=10,5")
    assert r.rc == 1 and "Invalid grouping" in r.err


def test_node_events(mixed):
    c = mixed.c
    r = c.run(["scontrol", "update", "NodeName=n2", "State=DRAIN",
               "Reason=disk check"])
    assert r.rc == 0, r
    r = c.run(["scontrol", "update", "NodeName=n2", "State=RESUME"])
    assert r.rc == 0, r
    deadline = time.time() + 30
    rows = []
    while time.time() < deadline:
        rows = mixed.db.sql("SELECT node_name, reason, time_end > 0 FROM "
                            "event_table", db=mixed.db.db).stdout.split("\n")
        if "n2\tdisk check\t1" in rows:
            break
        time.sleep(0.5)
    assert "n2\tdisk check\t1" in rows


def _job_indexes(env):
    out = env.db.sql("SELECT DISTINCT INDEX_NAME FROM information_schema."
                     "STATISTICS WHERE TABLE_SCHEMA='%s' AND TABLE_NAME="
                     "'job_table'" % env.db.db, db=env.db.db).stdout
    return set(out.split())


def _window_answers(env):
    """What a user asks most: the default window, a -S/-E window, names
    and a state, each as a set of job ids."""
    out = []
    for args in ((), ("-S", "now-1hour", "-E", "now"),
                 ("--name=fails,ok",), ("--name=fails", "-S", "now-1hour"),
                 ("-s", "F", "-S", "now-1hour")):
        r = env.sacct("-X", "-P", "-n", "-o", "JobIDRaw", *args, user=U1)
        assert r.rc == 0, r
        out.append(set(r.out.split()))
    return out


def test_schema_21_upgrade_keeps_answers(mixed):
    """A database of schema version 20 (index job_name) is upgraded when
    slurmdbd starts: the name and end-time index replaces job_name,
    and sacct answers as before; a step interrupted after its indexes
    were made runs again without harm."""
    before = _window_answers(mixed)
    j = mixed.jobs
    assert before[2] == {str(j["fail"]), str(j["ok"])}, before
    assert before[3] == {str(j["fail"])}, before
    assert str(j["ok"]) in before[1], before
    mixed.db.sql("DROP INDEX job_name_end ON job_table; "
                 "CREATE INDEX job_name ON job_table (job_name(64)); "
                 "DELETE FROM schema_version WHERE version >= 21",
                 db=mixed.db.db)
    assert "job_name_end" not in _job_indexes(mixed)
    mixed.restart_dbd()
    assert "to schema version 21" in mixed.dbd_log_text()
    idx = _job_indexes(mixed)
    assert "job_name_end" in idx and "job_name" not in idx, idx
    assert _window_answers(mixed) == before
    # interrupted after its DDL (each statement commits on its own)
    mixed.db.sql("DELETE FROM schema_version WHERE version >= 21",
                 db=mixed.db.db)
    mixed.restart_dbd()
    assert _job_indexes(mixed) == idx
    assert _window_answers(mixed) == before


def _steps_and_spans(env):
    """Every job and step row (sacct -P) and the jobs whose span_cls is
    not what v22 computes."""
    r = env.sacct("-P", "-n", "-a", "-o", "JobID,State,Container", "-S",
                  "now-1day")
    assert r.rc == 0, r
    bad = env.db.sql("SELECT COUNT(*) FROM job_table WHERE span_cls != "
                     "IF(time_end = 0, 0, LENGTH(BIN(GREATEST(time_end - "
                     "time_submit, 0))))", db=env.db.db).stdout.split()
    return r.out, bad


def test_schema_22_upgrade_keeps_answers(mixed):
    """A database of schema version 21 (no step container, no span
    class) is upgraded when slurmdbd starts: every job's class is
    computed, the window index made, and sacct answers as before (steps
    without a container); run again after an interruption, no harm."""
    before = _window_answers(mixed)
    rows, bad = _steps_and_spans(mixed)
    assert bad == ["0"], bad
    mixed.db.sql("DROP INDEX IF EXISTS job_window ON job_table; "
                 "DROP INDEX IF EXISTS job_span ON job_table; ALTER TABLE "
                 "job_table DROP COLUMN span_cls; ALTER TABLE step_table "
                 "DROP COLUMN container; DELETE FROM schema_version WHERE "
                 "version >= 22", db=mixed.db.db)
    assert "job_window" not in _job_indexes(mixed)
    mixed.restart_dbd()
    assert "to schema version 22" in mixed.dbd_log_text()
    # the later step's covering index replaces v22's job_span
    idx = _job_indexes(mixed)
    assert "job_window" in idx and "job_span" not in idx, idx
    assert _window_answers(mixed) == before
    assert _steps_and_spans(mixed) == (rows, ["0"])
    mixed.db.sql("DELETE FROM schema_version WHERE version >= 22",
                 db=mixed.db.db)
    mixed.restart_dbd()
    assert _window_answers(mixed) == before
    assert _steps_and_spans(mixed) == (rows, ["0"])


def _last_version(env):
    return int(env.db.sql("SELECT MAX(version) FROM schema_version",
                          db=env.db.db).stdout.split()[0])


def test_schema_window_index_upgrade_keeps_answers(mixed):
    """A database with v22's job_span and not the step that makes the
    covering job_window (issue 31) is upgraded when slurmdbd starts:
    job_window replaces job_span and sacct answers as before; run again
    after an interruption (its DDL done, its version not written), no
    harm."""
    before = _window_answers(mixed)
    rows, _ = _steps_and_spans(mixed)
    last = _last_version(mixed)
    mixed.db.sql("DROP INDEX job_window ON job_table; CREATE INDEX job_span "
                 "ON job_table (cluster, span_cls, time_submit, time_end); "
                 "DELETE FROM schema_version WHERE version >= %d" % last,
                 db=mixed.db.db)
    mixed.restart_dbd()
    assert "to schema version %d" % last in mixed.dbd_log_text()
    idx = _job_indexes(mixed)
    assert "job_window" in idx and "job_span" not in idx, idx
    assert _window_answers(mixed) == before
    assert _steps_and_spans(mixed) == (rows, ["0"])
    mixed.db.sql("DELETE FROM schema_version WHERE version >= %d" % last,
                 db=mixed.db.db)
    mixed.restart_dbd()
    assert _job_indexes(mixed) == idx
    assert _window_answers(mixed) == before


# ---------------------------------------------------------------------------
# faults: nothing lost, nothing twice


def _submit_many(c, n, script="true"):
    return [c.sbatch(["-J", "f%d" % i, "--wrap", script], user=U1)
            for i in range(n)]


def _wait_all_done(c, ids, timeout=300):
    deadline = time.time() + timeout
    left = set(map(str, ids))
    while left and time.time() < deadline:
        st = c.all_job_states()
        left = {i for i in left if st.get(i) not in
                ("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT")}
        time.sleep(0.5)
    assert not left, "jobs not done: %s" % sorted(left)


def _db_counts(env):
    out = env.db.sql("SELECT COUNT(*), COUNT(DISTINCT id_job) FROM "
                     "job_table; SELECT COUNT(*) FROM step_table",
                     db=env.db.db).stdout.split()
    return [int(x) for x in out]


def _check_exactly_once(env, ids):
    want = {str(i): "COMPLETED" for i in ids}
    got = wait_sacct(env, ids, want, timeout=120)
    assert got == want
    jobs, distinct, steps = _db_counts(env)
    assert jobs == distinct == len(ids)
    assert steps == len(ids)


def _outbox_len(env):
    p = os.path.join(env.dir, "state", "acct_outbox")
    return os.path.getsize(p) if os.path.exists(p) else 0


def test_mariadb_stopped_while_jobs_run(users):
    env = _start_env("acct-mariadb")
    try:
        c = env.c
        ids = _submit_many(c, FAULT_JOBS // 2, "sleep 2")
        env.db.stop()
        ids += _submit_many(c, FAULT_JOBS - len(ids))
        _wait_all_done(c, ids)
        assert _outbox_len(env) > 20          # records wait on disk
        assert "records wait in the outbox" in c.log_text()
        env.db.start()
        _check_exactly_once(env, ids)
    finally:
        env.finish()


def test_slurmdbd_killed_while_jobs_run(users):
    env = _start_env("acct-dbdkill")
    try:
        c = env.c
        ids = _submit_many(c, FAULT_JOBS // 2, "sleep 2")
        env.stop_dbd(sig=signal.SIGKILL)
        ids += _submit_many(c, FAULT_JOBS - len(ids))
        _wait_all_done(c, ids)
        assert _outbox_len(env) > 20
        # sdiag shows the records waiting for slurmdbd
        m = re.search(r"^DBD Agent queue size: (\d+)$",
                      c.run(["sdiag"]).out, re.M)
        assert m and int(m.group(1)) > 0, c.run(["sdiag"]).out
        env.start_dbd()
        _check_exactly_once(env, ids)
        deadline = time.time() + 30
        while time.time() < deadline:
            m = re.search(r"^DBD Agent queue size: (\d+)$",
                          c.run(["sdiag"]).out, re.M)
            if m and m.group(1) == "0":
                break
            time.sleep(0.5)
        assert m and m.group(1) == "0", c.run(["sdiag"]).out
    finally:
        env.finish()


def test_slurmctld_killed_with_records_queued(users):
    env = _start_env("acct-ctldkill")
    try:
        c = env.c
        ids = _submit_many(c, FAULT_JOBS // 2)
        _wait_all_done(c, ids)
        # slurmdbd away: the rest stays in the outbox when the
        # controller dies in the middle of the stream.
        env.stop_dbd()
        more = _submit_many(c, FAULT_JOBS - len(ids), "sleep 1")
        time.sleep(0.5)
        c.kill_ctld(sig=signal.SIGKILL)
        assert _outbox_len(env) > 20
        c.start_ctld()
        deadline = time.time() + 60
        while c.run(["squeue"], timeout=10).rc != 0:
            assert time.time() < deadline and c.ctld.alive()
            time.sleep(0.2)
        ids += more
        _wait_all_done(c, ids)
        env.start_dbd()
        _check_exactly_once(env, ids)
        # the records of the first half were sent again (resync after
        # the restart) and stored once
        assert re.search(r"skipped [1-9]\d* already stored|stored \d+ "
                         "records", env.dbd_log_text())
    finally:
        env.finish()
