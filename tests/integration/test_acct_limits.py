"""One user cannot stop accounting for everyone (issue 34, defect 1).

One cluster (1 node, own MariaDB and slurmdbd).  As the unprivileged test
users:

- every string one byte over its limit (src/common/acct_limits.c: names
  64 bytes, text 65,535, paths 4,096, the command line 1 MiB) is refused where it enters, with
  Slurm's "Pathname of a file, directory or other parameter too long",
  and nothing changes (no job, no update, no account);
- a job whose strings are exactly at their limits is accepted and its
  record reaches sacct whole;
- a record the database refuses for its content (the comment column is
  narrowed under slurmdbd's feet, as a record that got past the entry
  checks would be) is set aside: 1,000 other jobs submitted after it all
  reach sacct within a minute, and the refused one is reported by sdiag
  and "sacctmgr show problem" (to its owner and admins, not to others),
  kept with its job id and the database's error.
"""

import os
import re
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mariadb  # noqa: E402

pytestmark = pytest.mark.skipif(bool(mariadb.missing_tools()),
                                reason="MariaDB server not installed: %s"
                                % ", ".join(mariadb.missing_tools()))

A, B = "sluice_u1", "sluice_u2"
TOO_LONG = "Pathname of a file, directory or other parameter too long"
NAME, TEXT, PATH, LINE = 64, 65535, 4096, 1048576


@pytest.fixture(scope="module")
def env(users):
    e = mariadb.AcctEnv(tag="acctlim", nodes=1)
    # comments reach slurmdbd only with job_comment (as Slurm's)
    e.c.extra_conf += "\nAccountingStoreFlags=job_comment"
    try:
        e.start()
        r = e.sacctmgr("-i", "add", "cluster", "sluice")
        assert r.rc == 0, r
        e.start_cluster()
    except BaseException:
        e.stop()
        raise
    yield e
    e.finish()


def job_ids(e, user):
    r = e.c.run(["squeue", "-h", "-u", user, "-t", "all", "-o", "%i"])
    assert r.rc == 0, r
    return set(r.out.split())


def sacct_ids(e, user=None, since="now-1hour"):
    args = ["-X", "-n", "-P", "-a", "-S", since, "-o", "JobID"]
    r = e.sacct(*args, user=user)
    assert r.rc == 0, r
    return set(r.out.split())


def refused(r, start):
    assert r.rc != 0, r
    assert TOO_LONG in r.err, r
    assert r.err.startswith(start), r


# ---- one byte over each limit: refused at entry, nothing changed ----

@pytest.mark.parametrize("args,env_add", [
    (["-A", "a" * (NAME + 1)], None),
    ([], {"SBATCH_ACCOUNT": "b" * (NAME + 1)}),
    ([], {"SBATCH_JOB_NAME": "n" * (TEXT + 1)}),
    (["--comment", "c" * (TEXT + 1)], None),
    (["-o", "/tmp/" + "o" * (PATH - 4)], None),
    (["-e", "/tmp/" + "e" * (PATH - 4)], None),
    (["-D", "/tmp/" + "d" * (PATH - 4)], None),
    (["-C", "f" * (TEXT + 1)], None),
    (["-p", "p" * (NAME + 1)], None),
    (["--qos", "q" * (NAME + 1)], None),
    (["--wckey", "w" * (NAME + 1)], None),
    # the submit line (the command as typed) is over 1 MiB
    (["@script"] + ["x" * 120000] * 9, None),
], ids=["account", "account-env", "job-name", "comment", "output",
        "error", "chdir", "constraint", "partition", "qos", "wckey",
        "submit-line"])
def test_sbatch_over_limit_refused(env, args, env_add):
    before = job_ids(env, A)
    argv = ["sbatch", "-H"] + args
    if args and args[0] == "@script":
        script = os.path.join(env.c.workdir(A), "args.sh")
        with open(script, "w") as f:
            f.write("#!/bin/sh\ntrue\n")
        argv[2] = script
    else:
        argv += ["--wrap", "true"]
    r = env.c.run(argv, user=A, env=env_add)
    refused(r, "sbatch: error: ")
    assert "Batch job submission failed: " + TOO_LONG in r.err, r
    assert job_ids(env, A) == before


def test_srun_salloc_over_limit_refused(env):
    before = job_ids(env, A)
    r = env.c.run(["srun", "-J", "s" * (TEXT + 1), "true"], user=A)
    refused(r, "srun: error: ")
    r = env.c.run(["salloc", "-A", "a" * (NAME + 1), "true"], user=A)
    refused(r, "salloc: error: ")
    assert job_ids(env, A) == before


def test_step_name_over_limit_refused(env):
    """A step inside an allocation: its name (the command's) is checked
    too."""
    r = env.c.run(["salloc", "-N1", env.c.bin("srun"),
                   "/no/" + "s" * (TEXT + 1)], user=A, timeout=60)
    assert r.rc != 0, r
    assert TOO_LONG in r.err, r


def test_scontrol_update_over_limit_refused(env):
    jid = env.c.sbatch(["-H", "--comment", "short", "--wrap", "true"],
                       user=A)
    try:
        for kv in ("Comment=" + "c" * (TEXT + 1),
                   "JobName=" + "n" * (TEXT + 1),
                   "Account=" + "a" * (NAME + 1)):
            r = env.c.run(["scontrol", "update", "JobId=%d" % jid, kv],
                          user=A)
            # as Slurm's scontrol: "<error> for job <id>"
            refused(r, TOO_LONG + " for job %d" % jid)
        rec = env.c.show_job(jid)
        assert rec.get("Comment") == "short", rec
        assert rec.get("JobName") == "wrap", rec
    finally:
        env.c.run(["scancel", str(jid)], user=A)


def test_sacctmgr_over_limit_refused(env):
    """The administrator's names and texts have the same limits."""
    long_acct = "x" * (NAME + 1)
    for args in (("add", "account", long_acct),
                 ("add", "account", "ok1", "description=" +
                  "d" * (TEXT + 1)),
                 ("add", "user", "u" * (NAME + 1), "account=root")):
        r = env.sacctmgr("-i", *args)
        assert r.rc != 0, r
        assert TOO_LONG in r.out + r.err, r
    # the same names from a flat file (sacctmgr load)
    path = os.path.join(env.dir, "long.cfg")
    with open(path, "w") as f:
        f.write("Cluster - 'sluice'\nParent - 'root'\n"
                "Account - '%s':Description='d':Organization='o'\n"
                % long_acct)
    r = env.sacctmgr("-i", "load", "file=" + path)
    assert r.rc != 0, r
    assert TOO_LONG in r.out + r.err, r
    r = env.sacctmgr("-n", "-P", "show", "account", "format=account")
    assert r.rc == 0, r
    assert long_acct not in r.out and "ok1" not in r.out.split(), r


# ---- exactly at the limits: accepted, and the record reaches sacct ----

def test_at_limit_reaches_sacct(env):
    acct = "a" * NAME
    name = "n" * TEXT
    comment = "c" * TEXT
    script = os.path.join(env.c.workdir(A), "at_limit.sh")
    with open(script, "w") as f:
        f.write("#!/bin/sh\n#SBATCH --comment=%s\ntrue\n" % comment)
    os.chmod(script, 0o644)
    jid = env.c.sbatch(["-H", "-A", acct, script], user=A,
                       env={"SBATCH_JOB_NAME": name})
    try:
        deadline = time.time() + 30
        out = ""
        while time.time() < deadline:
            r = env.sacct("-j", str(jid), "-X", "-n", "-P", "-o",
                          "JobID,Account,JobName,Comment", user=A)
            assert r.rc == 0, r
            out = r.out.strip()
            if out:
                break
            time.sleep(0.5)
        assert out, "job %d never reached sacct" % jid
        assert out.split("|") == [str(jid), acct, name, comment]
    finally:
        env.c.run(["scancel", str(jid)], user=A)


def test_any_language_reaches_sacct(env):
    """A name in any language is stored as typed (the tables are utf8mb4);
    bytes that are not UTF-8 (a Latin-1 terminal) become '?' rather than
    have the record refused."""
    name = "j\u00f6b-\u65e5\u672c-\U0001f680"
    jid = env.c.sbatch(["-H", "-J", name, "--wrap", "true"], user=A)
    # (arguments are encoded with surrogateescape: "\udce9" is byte 0xe9)
    bad_id = env.c.sbatch(["-H", "-J", "b\udce9d\udcff", "--comment",
                           "caf\udce9", "--wrap", "true"], user=A)
    try:
        want = {str(jid): name + "|", str(bad_id): "b?d?|caf?"}
        got = {}
        deadline = time.time() + 30
        while time.time() < deadline and got != want:
            r = env.sacct("-j", "%d,%d" % (jid, bad_id), "-X", "-n", "-P",
                          "-o", "JobID,JobName,Comment", user=A)
            assert r.rc == 0, r
            got = {ln.split("|", 1)[0]: ln.split("|", 1)[1]
                   for ln in r.out.splitlines() if "|" in ln}
            time.sleep(0.5)
        assert got == want, (got, env.dbd_log_text()[-2000:])
    finally:
        env.c.run(["scancel", str(jid), str(bad_id)], user=A)


# ---- a record the database refuses: set aside, the rest flow on ----

def _sdiag_set_aside(e, user):
    r = e.c.run(["sdiag"], user=user)
    assert r.rc == 0, r
    m = re.search(r"DBD records set aside: (\d+)", r.out)
    return int(m.group(1)) if m else 0


def narrow_comment(env):
    """job_table.comment holds 10 characters (records still arriving may
    add a longer one between the two statements: try again)."""
    for _ in range(10):
        r = env.db.sql("UPDATE job_table SET comment=LEFT(comment, 10); "
                       "ALTER TABLE job_table MODIFY comment VARCHAR(10) "
                       "NULL", db=env.db.db, check=False)
        if r.returncode == 0:
            return
        time.sleep(0.5)
    raise AssertionError(r.stderr)


def test_poisoned_record_set_aside(env):
    start = time.strftime("%Y-%m-%dT%H:%M:%S")
    # A comment that passed the entry checks but that this database
    # refuses: what any record too long for its column did before.
    narrow_comment(env)
    poison = env.c.sbatch(["-H", "--comment", "p" * 40, "--wrap", "true"],
                          user=A)
    t0 = time.time()
    # 1,000 other jobs after it, from one shell as B
    # (not held: sacct lists jobs eligible in its window; they start in
    # an hour, so they do not load the machine)
    script = ("for i in $(seq 1000); do sbatch --begin=now+1hour -Q "
              "--wrap true || exit 1; done")
    r = env.c.run(["/bin/sh", "-c", script], user=B, timeout=600,
                  env={"PATH": os.path.dirname(env.c.bin("sbatch")) +
                       ":/usr/bin:/bin"})
    assert r.rc == 0, r
    t_submitted = time.time()
    want = None
    try:
        b_jobs = job_ids(env, B)
        assert len(b_jobs) >= 1000, len(b_jobs)
        seen = set()
        deadline = t_submitted + 60
        while time.time() < deadline:
            seen = sacct_ids(env, since=start)
            if b_jobs <= seen:
                break
            time.sleep(1)
        took = time.time() - t0
        missing = b_jobs - seen
        assert not missing, (
            "%d of B's %d jobs never reached sacct within a minute (%s)\n"
            "%s" % (len(missing), len(b_jobs), sorted(missing)[:5],
                    env.dbd_log_text()[-3000:]))
        print("1000 jobs after a poisoned record: all in sacct %.1f s "
              "after the poisoned submit, %.1f s after the last submit"
              % (took, time.time() - t_submitted))
        assert str(poison) not in seen

        # reported, not lost: sdiag, sacctmgr show problem, the log
        want = 1
        deadline = time.time() + 30
        while time.time() < deadline and _sdiag_set_aside(env, A) < want:
            time.sleep(0.5)
        assert _sdiag_set_aside(env, A) == want
        r = env.sacctmgr("-n", "-P", "show", "problem",
                         "format=Cluster,Account,User,JobID,Problem",
                         user=A)
        assert r.rc == 0, r
        rows = [ln.split("|") for ln in r.out.splitlines()]
        assert len(rows) == 1, rows
        assert rows[0][:4] == ["sluice", "", A, str(poison)], rows
        assert "Job %d record set aside: Data too long for column " \
               "'comment'" % poison in rows[0][4], rows
        # B sees nothing of A's record; root sees it
        r = env.sacctmgr("-n", "-P", "show", "problem", user=B)
        assert r.rc == 0 and r.out.strip() == "", r
        r = env.sacctmgr("-n", "-P", "show", "problem")
        assert r.rc == 0 and str(poison) in r.out, r
        assert re.search(r"error: Cluster sluice: job %d: record \d+ "
                         r"refused by the database: Data too long for "
                         r"column 'comment' at row 1 \(1406\): set aside"
                         % poison, env.dbd_log_text())
        kept = env.db.sql("SELECT id_job, db_errno, LENGTH(record) > 40 "
                          "FROM set_aside_table", db=env.db.db).stdout
        assert kept.split() == [str(poison), "1406", "1"], kept
    finally:
        env.c.run(["scancel", "-u", B])
        env.c.run(["scancel", str(poison)])
        env.db.sql("ALTER TABLE job_table MODIFY comment TEXT NULL",
                   db=env.db.db)


def test_poisoned_record_in_a_full_batch(env):
    """The worst case: slurmdbd was away, so the poisoned record leaves
    the outbox in one batch with 1,000 others; the batch is refused as a
    whole, stored record by record, and all 1,000 reach sacct within a
    minute of slurmdbd's return."""
    start = time.strftime("%Y-%m-%dT%H:%M:%S")
    before = job_ids(env, B)     # the cancelled jobs of the test above
    env.stop_dbd()
    narrow_comment(env)
    try:
        poison = env.c.sbatch(["-H", "--comment", "q" * 40, "--wrap",
                               "true"], user=A)
        script = ("for i in $(seq 1000); do sbatch --begin=now+1hour -Q "
                  "--wrap true || exit 1; done")
        r = env.c.run(["/bin/sh", "-c", script], user=B, timeout=600,
                      env={"PATH": os.path.dirname(env.c.bin("sbatch")) +
                           ":/usr/bin:/bin"})
        assert r.rc == 0, r
        b_jobs = job_ids(env, B) - before
        assert len(b_jobs) == 1000, len(b_jobs)
    finally:
        env.start_dbd()
    t0 = time.time()
    try:
        seen = set()
        while time.time() < t0 + 60:
            seen = sacct_ids(env, since=start)
            if b_jobs <= seen:
                break
            time.sleep(1)
        missing = b_jobs - seen
        assert not missing, (
            "%d of B's %d jobs never reached sacct within a minute\n%s"
            % (len(missing), len(b_jobs), env.dbd_log_text()[-3000:]))
        print("1000 jobs in one batch with a poisoned record: all in "
              "sacct %.1f s after slurmdbd came back" % (time.time() - t0))
        assert "storing its" in env.dbd_log_text()
        r = env.sacctmgr("-n", "-P", "show", "problem", "id=%d" % poison,
                         "format=JobID,Problem", user=A)
        assert r.rc == 0, r
        assert r.out.startswith("%d|Job %d record set aside: Data too "
                                "long for column 'comment'"
                                % (poison, poison)), r
    finally:
        env.c.run(["scancel", "-u", B])
        env.c.run(["scancel", str(poison)])
        env.db.sql("ALTER TABLE job_table MODIFY comment TEXT NULL",
                   db=env.db.db)


def test_poisoned_job_steps_kept(env):
    """A job whose record is set aside runs: its later records and its
    steps' are kept with it (its owner sees them in sacctmgr show
    problem), and the job after it is in sacct with its steps."""
    narrow_comment(env)
    try:
        poison = env.c.sbatch(["--comment", "r" * 40, "--wrap", "true"],
                              user=A)
        after = env.c.sbatch(["--wrap", "true"], user=A)
        deadline = time.time() + 60
        while time.time() < deadline and any(
                env.c.job_state(j) not in ("COMPLETED", "FAILED")
                for j in (poison, after)):
            time.sleep(0.5)
        steps = ""
        while time.time() < deadline:
            r = env.sacct("-j", str(after), "-n", "-P", "-o",
                          "JobID,State", user=A)
            steps = r.out
            if "%d.batch|COMPLETED" % after in steps and \
                    "%d|COMPLETED" % after in steps:
                break
            time.sleep(0.5)
        assert "%d.batch|COMPLETED" % after in steps, steps
        r = env.sacct("-j", str(poison), "-n", "-P", "-o", "JobID",
                      user=A)
        assert r.rc == 0 and r.out.strip() == "", r
        rows = []
        while time.time() < deadline:
            r = env.sacctmgr("-n", "-P", "show", "problem",
                             "id=%d" % poison, "format=Problem", user=A)
            assert r.rc == 0, r
            rows = r.out.splitlines()
            if any(ln.startswith("Step of job") for ln in rows):
                break
            time.sleep(0.5)
        # one row for the job (its last record), one per step record
        jobs = [ln for ln in rows if ln.startswith("Job ")]
        assert len(jobs) == 1 and jobs[0].startswith(
            "Job %d record set aside: Data too long" % poison), rows
        assert "Step of job %d record set aside: the record of its job "\
               "is set aside" % poison in rows, rows
        # and B sees none of them
        r = env.sacctmgr("-n", "-P", "show", "problem", "id=%d" % poison,
                         user=B)
        assert r.rc == 0 and r.out == "", r
    finally:
        env.db.sql("ALTER TABLE job_table MODIFY comment TEXT NULL",
                   db=env.db.db)


def test_upgrade_builds_columns_from_limits(env):
    """Schema version 10 gives every string column the type the limits
    table asks for, keeping the rows (a database of version 9 had the
    same sizes; here one column is narrowed to see it change back)."""
    q = "SELECT COUNT(*) FROM job_table"
    rows = env.db.sql(q, db=env.db.db).stdout
    env.db.sql("UPDATE job_table SET comment=LEFT(comment, 10); "
               "ALTER TABLE job_table MODIFY comment VARCHAR(10) NULL; "
               "DELETE FROM schema_version WHERE version >= 10",
               db=env.db.db)
    env.restart_dbd()
    assert "to schema version 10" in env.dbd_log_text()
    types = env.db.sql(
        "SELECT COLUMN_NAME, COLUMN_TYPE FROM information_schema.COLUMNS "
        "WHERE TABLE_SCHEMA='%s' AND TABLE_NAME='job_table' AND "
        "COLUMN_NAME IN ('account', 'comment', 'work_dir', 'job_name')"
        % env.db.db).stdout.split("\n")
    assert sorted(t for t in types if t) == [
        "account\tvarchar(64)", "comment\ttext", "job_name\ttext",
        "work_dir\ttext"]
    # (records of the jobs cancelled above may still arrive)
    assert int(env.db.sql(q, db=env.db.db).stdout) >= int(rows)
