"""Archives: records written to ArchiveDir before Purge*After removes them,
and loaded back.

10,000 finished jobs of yesterday (each with its .batch step) go into
slurmdbd the way the controller sends them (tests/perf/dbd_fill), and one
of today.  `sacctmgr archive dump Jobs PurgeJobAfter=12hours` writes them
to one archive file and purges them; `sacctmgr archive load` puts every
row back (sacct shows exactly what it showed before); loading the same
file again, a file cut short, a non-admin, a bad purge value and a
directory that is not there are refused with nothing changed.  Then
slurmdbd.conf's ArchiveJobs=yes with PurgeJobAfter archives at the purge
pass by itself, and ArchiveScript is refused at start (Sluice archives
itself) instead of being skipped.  No controller: nothing here waits for
jobs to run.
"""

import datetime
import glob
import os
import pwd
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mariadb  # noqa: E402

pytestmark = pytest.mark.skipif(bool(mariadb.missing_tools()),
                                reason="MariaDB server not installed: %s"
                                % ", ".join(mariadb.missing_tools()))

U1 = "sluice_u1"
HOUR = 3600
N = 10000
FIRST = 10000
TODAY_ID = 30000


def _y0():
    d = datetime.date.today() - datetime.timedelta(days=1)
    return int(time.mktime(d.timetuple()))


def _iso(t):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(t))


@pytest.fixture(scope="module")
def env(users):
    e = mariadb.AcctEnv(tag="archive", nodes=1)
    try:
        e.start()
        for args in (["add", "cluster", "sluice"], ["add", "account", "a1"],
                     ["add", "user", U1, "account=a1"]):
            r = e.sacctmgr("-i", *args)
            assert r.rc == 0, r
        exe = os.path.abspath(os.path.join(
            os.path.dirname(e.c.bins["slurmctld"]), "..", "tests",
            "dbd_fill"))
        uid = pwd.getpwnam(U1).pw_uid
        y0 = _y0()
        for args in (["-b", y0 + 2 * HOUR, "-s", 6 * HOUR, "-l", 300,
                      "-U", uid, "-a", "a1", N, FIRST],
                     ["-b", int(time.time()) - 60, "-l", 10, "-U", uid,
                      "-a", "a1", 1, TODAY_ID]):
            r = e.c.run([exe] + [str(a) for a in args], timeout=300)
            assert r.rc == 0, r
        e.y0 = y0
        yield e
    finally:
        e.finish()


def _sacct(env):
    """Every job and step since yesterday, as sacct prints them."""
    r = env.sacct("-a", "-P", "-n", "-S", _iso(env.y0), "-E", "now", "-o",
                  "JobID,JobIDRaw,User,Account,AllocCPUS,Submit,Start,End,"
                  "State,ExitCode,NodeList", timeout=600)
    assert r.rc == 0, r
    return r.out.splitlines()


def _jobs(lines):
    return sorted({line.split("|")[1].split(".")[0] for line in lines})


def _db_count(env, table, where):
    r = env.db.sql("SELECT COUNT(*) FROM %s WHERE %s" % (table, where),
                   db=env.db.db)
    return int(r.stdout.split()[0])


def test_dump_purge_load_round_trip(env):
    before = _sacct(env)
    assert len(_jobs(before)) == N + 1
    arch = os.path.join(env.dir, "archive")
    os.makedirs(arch)

    r = env.sacctmgr("-i", "archive", "dump", "Directory=" + arch, "Jobs",
                     "PurgeJobAfter=12hours", timeout=600)
    assert r.rc == 0, r
    assert "jobacct_storage_p_archive: SUCCESS" in r.err, r
    files = glob.glob(os.path.join(arch, "sluice_job_archive_*"))
    assert len(files) == 1, os.listdir(arch)
    # named by the period it holds: yesterday's first job to the cut
    assert os.path.basename(files[0]).startswith(
        "sluice_job_archive_%s_" % _iso(env.y0 + 2 * HOUR)), files
    assert "PurgeJobAfter: %d records purged" % N in env.dbd_log_text()
    after = _sacct(env)
    assert _jobs(after) == [str(TODAY_ID)], after[:5]
    assert _db_count(env, "job_table", "id_job < %d" % TODAY_ID) == 0
    assert _db_count(env, "step_table", "job_db_inx NOT IN (SELECT "
                     "job_db_inx FROM job_table)") == 0

    # every row back, as sacct showed it before
    r = env.sacctmgr("archive", "load", "file=" + files[0], timeout=600)
    assert r.rc == 0, r
    assert r.out.strip() == "%d records loaded" % (2 * N), r
    assert _sacct(env) == before

    # again: refused, nothing twice
    r = env.sacctmgr("archive", "load", "file=" + files[0], timeout=600)
    assert r.rc == 1, r
    assert "Problem loading archive file" in r.err, r
    assert "loaded already" in r.err, r
    assert _sacct(env) == before

    # a file cut short: refused, nothing loaded
    with open(files[0], "rb") as f:
        data = f.read()
    cut = os.path.join(arch, "cut")
    with open(cut, "wb") as f:
        f.write(data[:len(data) * 2 // 3])
    env.db.sql("DELETE s FROM step_table s JOIN job_table j ON "
               "s.job_db_inx = j.job_db_inx WHERE j.id_job < %d; "
               "DELETE FROM job_table WHERE id_job < %d"
               % (TODAY_ID, TODAY_ID), db=env.db.db)
    r = env.sacctmgr("archive", "load", "file=" + cut, timeout=600)
    assert r.rc == 1, r
    assert "cut short" in r.err or "not a JSON object" in r.err, r
    assert _jobs(_sacct(env)) == [str(TODAY_ID)]
    r = env.sacctmgr("archive", "load", files[0], timeout=600)
    assert r.rc == 0, r
    assert _sacct(env) == before


def test_bad_requests_change_nothing(env):
    arch = os.path.join(env.dir, "archive2")
    os.makedirs(arch, exist_ok=True)
    before = _db_count(env, "job_table", "1")
    r = env.sacctmgr("-i", "archive", "dump", "Directory=" + arch, "Jobs",
                     "PurgeJobAfter=12hours", user=U1)
    assert r.rc == 1, r
    assert "Access/permission denied" in r.err, r
    r = env.sacctmgr("archive", "load", "file=/etc/hostname", user=U1)
    assert r.rc == 1 and "Access/permission denied" in r.err, r
    r = env.sacctmgr("-i", "archive", "dump", "Directory=" + arch, "Jobs",
                     "PurgeJobAfter=bogus")
    assert r.rc == 1, r
    assert r.err.strip() == "sacctmgr: error: Invalid purge string 'bogus'"
    r = env.sacctmgr("-i", "archive", "dump", "Directory=/nonexistent/dir",
                     "Jobs", "PurgeJobAfter=12hours")
    assert r.rc == 1, r
    assert r.err.startswith(" dump: Failed to stat /nonexistent/dir: No "
                            "such file or directory\n Note: For archive "
                            "dump, the directory must be on the calling "
                            "host."), r
    r = env.sacctmgr("archive", "load", "file=/nonexistent/file")
    assert r.rc == 1, r
    assert "Problem loading archive file: /nonexistent/file: No such file" \
        in r.err, r
    r = env.sacctmgr("archive")
    assert r.rc == 1, r
    assert "No valid entity in archive command" in r.err, r
    r = env.sacctmgr("-i", "archive", "dump", "Script=/bin/true")
    assert r.rc == 1 and "not supported" in r.err, r
    assert os.listdir(arch) == []
    assert _db_count(env, "job_table", "1") == before


def test_archive_at_purge_pass_and_script_refused(env):
    arch = os.path.join(env.dir, "archive3")
    os.makedirs(arch)
    env.stop_dbd()
    # sacctmgr's transaction records of two days ago go too (PurgeTXNAfter)
    env.db.sql("UPDATE txn_table SET time_stamp = time_stamp - 172800",
               db=env.db.db)
    txns = _db_count(env, "txn_table", "1")
    assert txns > 0
    env.dbd_extra = ("ArchiveDir=%s\nArchiveJobs=yes\nArchiveSteps=no\n"
                     "PurgeJobAfter=12hours\nArchiveTXN=yes\n"
                     "PurgeTXNAfter=12hours" % arch)
    env.write_dbd_conf()
    env.start_dbd()
    deadline = time.time() + 120
    while _db_count(env, "job_table", "id_job < %d" % TODAY_ID) and \
            time.time() < deadline:
        time.sleep(0.5)
    assert _db_count(env, "job_table", "id_job < %d" % TODAY_ID) == 0
    files = glob.glob(os.path.join(arch, "sluice_job_archive_*"))
    assert len(files) == 1, os.listdir(arch)
    assert "PurgeJobAfter: archived to %s" % files[0] in env.dbd_log_text()
    # the archive holds every job and step that went
    with open(files[0]) as f:
        lines = f.read().splitlines()
    assert lines[-1] == '{"rows":%d}' % (2 * N), lines[-1]
    txn_files = glob.glob(os.path.join(arch, "sluice_txn_archive_*"))
    assert len(txn_files) == 1, os.listdir(arch)
    assert _db_count(env, "txn_table", "1") == 0
    with open(txn_files[0]) as f:
        assert f.read().splitlines()[-1] == '{"rows":%d}' % txns

    env.stop_dbd()
    env.dbd_extra += "\nArchiveScript=/bin/true"
    env.write_dbd_conf()
    proc = env.start_dbd(wait=False)
    deadline = time.time() + 30
    while proc.alive() and time.time() < deadline:
        time.sleep(0.2)
    assert not proc.alive()
    out = env.c._tail(proc.out_path) + env.dbd_log_text()
    assert "ArchiveScript is not supported" in out, out[-2000:]
    assert "slurmdbd.conf:" in out, out[-2000:]
    env.dbd = None
    env.dbd_extra = ""
    env.write_dbd_conf()
    env.start_dbd()


def test_query_range_debug_flags_and_warned_keys(env):
    """MaxQueryTimeRange refuses a wider sacct window (not a query by job
    id); DebugFlags=DB_QUERY logs the statements; keys slurmdbd does not
    act on are logged as warnings at start, with their line."""
    env.stop_dbd()
    env.dbd_extra = ("MaxQueryTimeRange=1-00:00:00\n"
                     "DebugFlags=DB_QUERY,DB_JOB\nTCPTimeout=5")
    env.write_dbd_conf()
    env.start_dbd()
    try:
        r = env.sacct("-a", "-X", "-n", "-S", _iso(time.time() - 3 * 86400),
                      "-E", "now")
        assert r.rc == 1, r
        assert "Too wide of a date range in query" in r.err, r
        r = env.sacct("-a", "-X", "-n", "-P", "-o", "JobIDRaw", "-j",
                      str(TODAY_ID))
        assert r.rc == 0 and r.out.split() == [str(TODAY_ID)], r
        log = env.dbd_log_text()
        assert "DB_QUERY: SELECT" in log
        assert "warning: %s:" % env.dbd_conf in log
        assert "DebugFlags=DB_JOB is not acted on: slurmdbd logs " \
            "DB_ARCHIVE and DB_QUERY only" in log
        assert "TCPTimeout=5 is not acted on" in log
    finally:
        env.stop_dbd()
        env.dbd_extra = ""
        env.write_dbd_conf()
        env.start_dbd()
