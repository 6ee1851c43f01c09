"""Advanced reservations: scontrol create/update/delete/show reservation,
sinfo -T, jobs with --reservation, reserved nodes kept from other jobs,
backfill around a future reservation, state across a controller restart,
and the reservation records in slurmdbd (sacctmgr show reservation).

One cluster with accounting (2 nodes of 2 CPUs); the tests of this
module run in order and delete what they create.  Expected texts are
Slurm 22.05's (compared by hand against a real 22.05, see
/work/notes/resv.md).
"""

import os
import re
import signal
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cluster as cl  # noqa: E402
import mariadb  # noqa: E402

U1 = "sluice_u1"
U2 = "sluice_u2"

pytestmark = pytest.mark.skipif(bool(mariadb.missing_tools()),
                                reason="MariaDB server not installed: %s"
                                % ", ".join(mariadb.missing_tools()))

TS = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d"


@pytest.fixture(scope="module")
def env(users):
    e = mariadb.AcctEnv(tag="resv", nodes=2)
    e.c.extra_conf += ("\nSchedulerParameters=bf_interval=1,bf_resolution=1,"
                       "bf_window=60,sched_min_interval=0")
    try:
        e.start()
        e.start_cluster()
    except BaseException:
        e.stop()
        raise
    yield e
    e.finish()


def sc(c, *args, user=None):
    return c.run(["scontrol"] + list(args), user=user)


def wait_for(what, fn, timeout=30):
    deadline = time.time() + timeout
    got = None
    while time.time() < deadline:
        got = fn()
        if got:
            return got
        time.sleep(0.2)
    raise AssertionError("timed out waiting for %s (last: %r)" % (what, got))


def squeue(c, jid, fmt):
    return c.run(["squeue", "-h", "-j", str(jid), "-o", fmt]).out.strip()


def test_create_show_update_delete(env):
    c = env.c
    r = sc(c, "create", "reservation", "ReservationName=r1",
           "StartTime=now", "Duration=60", "Nodes=n1", "Users=root",
           "Flags=MAINT")
    assert (r.rc, r.out, r.err) == (0, "Reservation created: r1\n", "")
    r = sc(c, "show", "reservation", "r1")
    assert r.rc == 0
    m = re.fullmatch(
        r"ReservationName=r1 StartTime=(%s) EndTime=(%s) Duration=01:00:00\n"
        r"   Nodes=n1 NodeCnt=1 CoreCnt=2 Features=\(null\) "
        r"PartitionName=\(null\) Flags=MAINT,SPEC_NODES\n"
        r"   TRES=cpu=2\n"
        r"   Users=root Groups=\(null\) Accounts=\(null\) Licenses=\(null\) "
        r"State=ACTIVE BurstBuffer=\(null\) Watts=n/a\n"
        r"   MaxStartDelay=\(null\)\n\n" % (TS, TS), r.out)
    assert m, r.out
    start, end = m.groups()
    r = sc(c, "-o", "show", "reservation")
    assert r.out == (
        "ReservationName=r1 StartTime=%s EndTime=%s Duration=01:00:00 "
        "Nodes=n1 NodeCnt=1 CoreCnt=2 Features=(null) PartitionName=(null) "
        "Flags=MAINT,SPEC_NODES TRES=cpu=2 Users=root Groups=(null) "
        "Accounts=(null) Licenses=(null) State=ACTIVE BurstBuffer=(null) "
        "Watts=n/a MaxStartDelay=(null)\n" % (start, end))
    r = c.run(["sinfo", "-T"])
    assert r.out == (
        "RESV_NAME     STATE           START_TIME             END_TIME     "
        "DURATION  NODELIST\n"
        "r1           ACTIVE  %s  %s     01:00:00  n1\n" % (start, end)), r.out

    # refusals change nothing
    r = sc(c, "create", "reservation", "ReservationName=r1",
           "StartTime=now", "Duration=60", "Nodes=n2", "Users=root")
    assert (r.rc, r.out, r.err) == (
        1, "", "Error creating the reservation: Duplicate reservation name\n")
    r = sc(c, "create", "reservation", "ReservationName=r2",
           "StartTime=now", "Duration=60", "Nodes=n2", "Users=root",
           "Flags=BOGUS")
    assert (r.rc, r.err) == (1, "scontrol: error: Error parsing flags BOGUS."
                             "  No reservation created.\n")
    r = sc(c, "create", "reservation", "ReservationName=r2",
           "StartTime=now", "Duration=60", "Nodes=n2")
    assert (r.rc, r.err) == (1, "scontrol: error: Either Users/Groups and/or "
                             "Accounts must be specified.  No reservation "
                             "created.\n")
    r = sc(c, "create", "reservation", "ReservationName=r2",
           "StartTime=now", "Duration=60", "Nodes=n9", "Users=root")
    assert (r.rc, r.err) == (1, "Error creating the reservation: Invalid node "
                             "name specified\n")
    r = sc(c, "create", "reservation", "ReservationName=r2",
           "StartTime=now", "Duration=60", "Nodes=n2", "Users=nosuchuser")
    assert (r.rc, r.err) == (1, "Error creating the reservation: Invalid "
                             "user id\n")
    r = sc(c, "create", "reservation", "ReservationName=r2",
           "StartTime=garbage", "Duration=60", "Nodes=n2", "Users=root")
    assert r.rc == 1 and r.err.endswith(
        "scontrol: error: Invalid start time StartTime=garbage.  No "
        "reservation created.\n")
    assert "r2" not in sc(c, "show", "reservation").out

    # update: duration, users, flags added
    r = sc(c, "update", "ReservationName=r1", "Duration=30",
           "Users=root,%s" % U1, "Flags=IGNORE_JOBS")
    assert (r.rc, r.out, r.err) == (0, "Reservation updated.\n", "")
    rec = cl.parse_kv(sc(c, "show", "reservation", "r1").out)
    assert rec["Duration"] == "00:30:00"
    assert rec["Users"] == "root,%s" % U1
    assert rec["Flags"] == "MAINT,IGNORE_JOBS,SPEC_NODES"
    r = sc(c, "update", "ReservationName=zz", "Duration=30")
    assert (r.rc, r.err) == (1, "Error updating the reservation: Requested "
                             "reservation is invalid\nslurm_update error: "
                             "Requested reservation is invalid\n")
    r = sc(c, "update", "ReservationName=r1", "bogus=1")
    assert (r.rc, r.err) == (1, "scontrol: error: Unknown parameter bogus=1."
                             "  No reservation update.\nslurm_update error: "
                             "No error\n")

    r = sc(c, "delete", "ReservationName=r1")
    assert (r.rc, r.out, r.err) == (0, "", "")
    r = sc(c, "delete", "ReservationName=r1")
    assert (r.rc, r.err) == (1, "delete_reservation ReservationName=r1: "
                             "Requested reservation is invalid\n")
    r = sc(c, "show", "reservation", "r1")
    assert (r.rc, r.out) == (1, "Reservation r1 not found\n")
    r = sc(c, "show", "reservation")
    assert (r.rc, r.out) == (0, "No reservations in the system\n")
    assert c.run(["sinfo", "-T"]).out == "No reservations in the system\n"


def test_non_admin_refused(env):
    c = env.c
    r = sc(c, "create", "reservation", "ReservationName=u", "StartTime=now",
           "Duration=60", "Nodes=n2", "Users=%s" % U1, user=U1)
    assert (r.rc, r.err) == (1, "Error creating the reservation: Invalid "
                             "user id\n")
    assert sc(c, "show", "reservation").out == "No reservations in the system\n"


def test_maint_reservation_keeps_other_jobs_off(env):
    c = env.c
    r = sc(c, "create", "reservation", "ReservationName=m", "StartTime=now",
           "Duration=60", "Nodes=ALL", "Users=%s" % U1, "Flags=MAINT")
    assert r.out == "Reservation created: m\n", r
    # nodes show it (sinfo, scontrol show node)
    out = wait_for("maint nodes", lambda: (lambda o: o if "maint" in o else
                   None)(c.run(["sinfo", "-h", "-o", "%N %t"]).out))
    assert out == "n[1-2] maint\n"
    rec = cl.parse_kv(sc(c, "show", "node", "n1").out)
    assert rec["State"] == "IDLE+MAINTENANCE+RESERVED"

    other = c.sbatch(["-t", "5", "--wrap", "sleep 30"], user=U2)
    wait_for("reason", lambda: squeue(c, other, "%T %r") ==
             "PENDING ReqNodeNotAvail, Reserved for maintenance")
    mine = c.sbatch(["-t", "5", "-N", "2", "--reservation=m",
                     "--wrap", "sleep 30"], user=U1)
    c.wait_state(mine, "RUNNING", timeout=30)
    assert squeue(c, mine, "%v %N") == "m n[1-2]"
    r = c.run(["squeue", "-h", "-R", "m", "-o", "%i"])
    assert r.out == "%d\n" % mine
    # busy nodes of a MAINT reservation: "$" after the state
    assert c.run(["sinfo", "-h", "-o", "%N %t %T"]).out == \
        "n[1-2] mix$ mixed$\n"
    assert c.show_job(mine)["Reservation"] == "m"
    assert "Reservation=" not in sc(c, "show", "job", str(other)).out
    assert squeue(c, other, "%T %v") == "PENDING (null)"

    # scontrol update job Reservation=: checked as a submit, "" clears
    r = sc(c, "update", "jobid=%d" % other, "Reservation=m")
    assert (r.rc, r.err) == (1, "Access denied to requested reservation "
                             "for job %d\n" % other)
    r = sc(c, "update", "jobid=%d" % other, "Reservation=nope")
    assert (r.rc, r.err) == (1, "Requested reservation is invalid for job "
                             "%d\n" % other)
    held = c.sbatch(["-H", "--wrap", "true"], user=U1)
    r = sc(c, "update", "jobid=%d" % held, "Reservation=m")
    assert (r.rc, r.err) == (0, "")
    assert c.show_job(held)["Reservation"] == "m"
    r = sc(c, "update", "jobid=%d" % held, "Reservation=")
    assert "Reservation=" not in sc(c, "show", "job", str(held)).out
    c.run(["scancel", str(held)])
    r = c.run(["sbatch", "--reservation=m", "--wrap", "true"], user=U2)
    assert (r.rc, r.err) == (1, "sbatch: error: Batch job submission failed: "
                             "Access denied to requested reservation\n")
    r = c.run(["sbatch", "--reservation=nope", "--wrap", "true"], user=U1)
    assert (r.rc, r.err) == (1, "sbatch: error: Batch job submission failed: "
                             "Requested reservation is invalid\n")
    r = sc(c, "delete", "ReservationName=m")
    assert (r.rc, r.err) == (1, "delete_reservation ReservationName=m: "
                             "Requested reservation is in use\n")
    c.run(["scancel", str(mine)])
    c.wait_state(mine, ("CANCELLED",), timeout=30)
    wait_for("delete", lambda: sc(c, "delete", "ReservationName=m").rc == 0)
    c.wait_state(other, "RUNNING", timeout=30)
    c.run(["scancel", str(other)])
    c.wait_state(other, ("CANCELLED",), timeout=30)


def test_backfill_respects_future_reservation(env):
    c = env.c
    r = sc(c, "create", "reservation", "ReservationName=fut",
           "StartTime=now+120", "Duration=10", "Nodes=ALL", "Users=root")
    assert r.out == "Reservation created: fut\n", r
    end = cl.parse_kv(sc(c, "show", "reservation", "fut").out)["EndTime"]
    rec = cl.parse_kv(sc(c, "show", "reservation", "fut").out)
    assert rec["State"] == "INACTIVE"
    long_job = c.sbatch(["-t", "5", "--wrap", "sleep 30"], user=U1)
    short_job = c.sbatch(["-t", "1", "--wrap", "sleep 30"], user=U1)
    c.wait_state(short_job, "RUNNING", timeout=30)
    # the 5-minute job would run into the reservation: it waits, and its
    # planned start is when the reservation ends
    wait_for("long job planned after the reservation",
             lambda: squeue(c, long_job, "%T %S") >= "PENDING " + end)
    assert squeue(c, long_job, "%r") == \
        "ReqNodeNotAvail, Reserved for maintenance"
    c.run(["scancel", str(long_job), str(short_job)])
    assert sc(c, "delete", "ReservationName=fut").rc == 0


def test_state_survives_restart(env):
    c = env.c
    r = sc(c, "create", "reservation", "ReservationName=daily",
           "StartTime=now+3600", "Duration=30", "NodeCnt=1",
           "Accounts=root", "Flags=DAILY")
    assert r.out == "Reservation created: daily\n", r
    before = sc(c, "show", "reservation").out
    assert "PartitionName=debug Flags=DAILY\n" in before, before
    for sig in (signal.SIGKILL, signal.SIGTERM):   # journal, snapshot
        c.kill_ctld(sig)
        c.start_ctld()
        wait_for("controller", lambda: c.run(["squeue"], timeout=10).rc == 0)
        assert sc(c, "show", "reservation").out == before


def test_sacctmgr_show_reservation(env):
    c = env.c

    last = []

    def rows():
        r = env.sacctmgr("-n", "-P", "show", "reservation")
        last[:] = [r]
        return r.out if "|m|" in r.out and "|r1|" in r.out else None

    try:
        out = wait_for("reservation records in slurmdbd", rows)
    except AssertionError:
        raise AssertionError("sacctmgr: %r" % last)
    lines = out.splitlines()
    # started ones only (not the future "daily"), a row each, deleted
    # ones with the time they were deleted
    names = [l.split("|")[1] for l in lines]
    assert names == ["r1", "m"], out
    for l in lines:
        assert re.fullmatch(r"sluice\|\w+\|cpu=\d\|%s\|%s\|0\.000000" % (TS, TS),
                            l), l
    assert lines[0].split("|")[2] == "cpu=2"
    assert lines[1].split("|")[2] == "cpu=4"
    r = env.sacctmgr("show", "reservation")
    assert r.out.splitlines()[0] == (
        "   Cluster            Name                           TRES "
        "          TimeStart             TimeEnd UnusedWall ")
    r = env.sacctmgr("-n", "-P", "show", "reservation", "where", "name=m",
                     "format=name,tres")
    assert r.out == "m|cpu=4\n"
    assert sc(c, "delete", "ReservationName=daily").rc == 0


def test_backup_takes_over_reservations(new_cluster):
    """The backup controller recovers reservations from the shared
    StateSaveLocation (written to the journal before the create was
    acknowledged) and keeps enforcing them."""
    c = new_cluster(tag="resv-backup", nodes=1, backup_ctld=True,
                    extra_conf="SlurmctldTimeout=3")
    c.start_backup_ctld()
    wait_for("both controllers", lambda: c.run(["scontrol", "ping"]).out ==
             "Slurmctld(primary) at ctl1 is UP\n"
             "Slurmctld(backup) at ctl2 is UP\n")
    r = sc(c, "create", "reservation", "ReservationName=hb", "StartTime=now",
           "Duration=60", "Nodes=n1", "Users=root", "Flags=MAINT")
    assert r.out == "Reservation created: hb\n", r
    before = sc(c, "show", "reservation").out
    c.kill_ctld(signal.SIGKILL)
    wait_for("the backup answering", lambda: c.run(
        ["scontrol", "ping"]).out.endswith("ctl2 is UP\n") and
        sc(c, "show", "reservation").out == before, timeout=40)
    job = c.sbatch(["-t", "5", "--wrap", "true"], user=U1)
    wait_for("reason", lambda: squeue(c, job, "%T %r") ==
             "PENDING ReqNodeNotAvail, Reserved for maintenance")
    assert sc(c, "delete", "ReservationName=hb").rc == 0
    c.wait_state(job, ("COMPLETED",), timeout=30)
