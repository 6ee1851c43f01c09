"""PrivateData=users,accounts,usage,jobs and account coordinators, as the
two unprivileged test users see them.

One cluster (1 node, own MariaDB), PrivateData=jobs,usage,users,accounts,
reservations in both slurm.conf and slurmdbd.conf.  Accounts: dept (teama below it)
and other.  A (sluice_u1) is in teama, B (sluice_u2) in other.  First B
is nobody to A: B sees only itself and cannot touch A's job or A's
limits.  Then B becomes coordinator of dept: it sees dept's and teama's
accounts and associations, A's job (squeue, sacct) and usage (sshare),
may hold, release and cancel A's jobs and change A's limits, and still
may not suspend them, change A's AdminLevel or anything under other.
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
PRIVATE = "PrivateData=jobs,usage,users,accounts,reservations"
RELOAD_RE = re.compile(r"assoc_mgr: \d+ associations.*generation (\d+)")


def _generation(e):
    return max([int(m.group(1)) for m in
                RELOAD_RE.finditer(e.c.log_text())] or [0])


def change(e, *args, user=None):
    """sacctmgr -i args; then wait until the controller has reloaded."""
    before = _generation(e)
    r = e.sacctmgr("-i", *args, user=user)
    assert r.rc == 0, r
    deadline = time.time() + 30
    while time.time() < deadline and _generation(e) <= before:
        time.sleep(0.1)
    assert _generation(e) > before, e.c.log_tails()
    return r


@pytest.fixture(scope="module")
def env(users):
    e = mariadb.AcctEnv(tag="private", nodes=1, dbd_extra=PRIVATE)
    e.c.extra_conf += ("\nAccountingStorageEnforce=associations\n"
                       "PriorityType=priority/multifactor\n" + PRIVATE +
                       "\n")
    try:
        e.start()
        for args in (("add", "cluster", "sluice"),
                     ("add", "account", "dept"),
                     ("add", "account", "teama", "parent=dept"),
                     ("add", "account", "other"),
                     ("add", "user", A, "account=teama"),
                     ("add", "user", B, "account=other")):
            r = e.sacctmgr("-i", *args)
            assert r.rc == 0, r
        e.start_cluster()
    except BaseException:
        e.stop()
        raise
    yield e
    e.finish()


def show(e, user, *args):
    r = e.sacctmgr("-n", "-P", "show", *args, user=user)
    assert r.rc == 0, r
    return [ln.split("|") for ln in r.out.splitlines()]


def squeue_ids(e, user):
    r = e.c.run(["squeue", "-h", "-o", "%i"], user=user)
    assert r.rc == 0, r
    return set(int(x) for x in r.out.split())


def test_strangers_see_only_themselves(env):
    c = env.c
    ja = c.sbatch(["-H", "-o", "/dev/null", "--wrap", "true"], user=A)
    jb = c.sbatch(["-H", "-o", "/dev/null", "--wrap", "true"], user=B)
    # users: only their own record and associations; no accounts
    assert show(env, A, "user", "format=user") == [[A]]
    assert show(env, B, "user", "format=user") == [[B]]
    assert show(env, A, "account", "format=account") == []
    assert show(env, A, "assoc", "format=account,user") == [["teama", A]]
    assert show(env, B, "user", "withassoc",
                "format=user,account") == [[B, "other"]]
    # root sees everything
    assert {A, B, "root"} <= {x[0] for x in show(env, None, "user",
                                                  "format=user")}
    assert [x[0] for x in show(env, None, "account", "format=account")] \
        == ["dept", "other", "root", "teama"]
    # jobs: own only (squeue, scontrol, sacct); A's job is not B's business
    assert squeue_ids(env, B) == {jb}
    r = c.run(["scontrol", "show", "job", str(ja)], user=B)
    assert r.rc != 0, r
    r = c.run(["scancel", str(ja)], user=B)
    assert r.rc != 0 and "Access/permission denied" in r.err, r
    # an update of another's job: Slurm's "Invalid user id"
    for cmd in (["scontrol", "release", str(ja)],
                ["scontrol", "update", "jobid=%d" % ja, "comment=x"]):
        r = c.run(cmd, user=B)
        assert r.rc != 0 and "Invalid user id" in r.err, (cmd, r)
    # limits: B may not touch A's
    r = env.sacctmgr("-i", "modify", "user", A, "set", "maxjobs=3", user=B)
    assert r.rc == 1 and "Access/permission denied" in r.err, r
    # sshare: own user lines only
    r = c.run([c.bins["sshare"], "-a", "-P", "-n", "-o", "Account,User"],
              user=B)
    assert r.rc == 0, r
    assert {ln.split("|")[1] for ln in r.out.splitlines()} - {""} == {B}, r
    for j in (ja, jb):
        c.run(["scancel", str(j)])


def test_coordinator_of_dept(env):
    c = env.c
    ja = c.sbatch(["-H", "-o", "/dev/null", "--wrap", "true"], user=A)
    change(env, "add", "coordinator", "account=dept", "names=" + B)
    # accounts it coordinates (and below); users: still only itself
    assert [x[0] for x in show(env, B, "account", "format=account")] == \
        ["dept", "teama"]
    assert show(env, B, "user", "format=user") == [[B]]
    assocs = show(env, B, "assoc", "format=account,user")
    assert sorted(map(tuple, assocs)) == [("dept", ""), ("other", B),
                                          ("teama", ""), ("teama", A)]
    assert show(env, A, "account", "format=account") == []
    # A's job: visible, holdable, releasable, cancellable; not suspendable
    deadline = time.time() + 20
    while time.time() < deadline and ja not in squeue_ids(env, B):
        time.sleep(0.2)
    assert ja in squeue_ids(env, B)
    r = c.run(["scontrol", "show", "job", str(ja)], user=B)
    assert r.rc == 0 and "UserId=%s(" % A in r.out, r
    r = c.run(["scontrol", "update", "jobid=%d" % ja, "comment=checked"],
              user=B)
    assert r.rc == 0, r
    assert c.show_job(ja)["Comment"] == "checked"
    r = c.run(["scontrol", "release", str(ja)], user=B)
    assert r.rc == 0, r
    c.wait_state(ja, "COMPLETED", timeout=60)
    jr = c.sbatch(["-o", "/dev/null", "--wrap", "sleep 300"], user=A)
    c.wait_state(jr, "RUNNING", timeout=60)
    r = c.run(["scontrol", "suspend", str(jr)], user=B)
    assert r.rc != 0 and "Access/permission denied" in r.err, r
    r = c.run(["scancel", str(jr)], user=B)
    assert r.rc == 0, r
    c.wait_state(jr, "CANCELLED", timeout=60)
    # sacct (PrivateData=jobs): A's jobs in dept's tree too
    deadline = time.time() + 30
    users = set()
    while time.time() < deadline and A not in users:
        r = env.sacct("-a", "-X", "-P", "-n", "-o", "User", user=B)
        users = set(r.out.split())
        time.sleep(0.3)
    assert A in users, r
    # sreport (PrivateData=usage): A's usage too; A sees only its own
    def topusage(user):
        r = c.run([c.bins["sreport"], "-P", "-n", "-t", "seconds", "user",
                   "topusage", "start=now-1hour", "end=now"], user=user)
        assert r.rc == 0, r
        return {ln.split("|")[1] for ln in r.out.splitlines()}
    deadline = time.time() + 30
    while time.time() < deadline and A not in topusage(B):
        time.sleep(0.5)
    assert A in topusage(B)
    assert topusage(A) == {A}
    # sshare (PrivateData=usage): A's line under teama
    r = c.run([c.bins["sshare"], "-a", "-P", "-n", "-o", "Account,User"],
              user=B)
    assert {ln.split("|")[1] for ln in r.out.splitlines()} - {""} == \
        {A, B}, r
    # limits below dept: yes; AdminLevel, or anything under other: no
    r = env.sacctmgr("-i", "modify", "user", A, "set", "maxjobs=3", user=B)
    assert r.rc == 0, r
    assert show(env, None, "assoc", "user=" + A, "format=user,maxjobs") == \
        [[A, "3"]]
    r = env.sacctmgr("-i", "modify", "user", A, "set", "adminlevel=Operator",
                     user=B)
    assert r.rc == 1 and "Access/permission denied" in r.err, r
    r = env.sacctmgr("-i", "modify", "account", "other", "set", "grpjobs=1",
                     user=B)
    assert r.rc == 1 and "Access/permission denied" in r.err, r
    assert show(env, None, "assoc", "account=other", "user=",
                "format=account,grpjobs") == [["other", ""]]
    # and A, not a coordinator, still may not
    r = env.sacctmgr("-i", "modify", "user", A, "set", "maxjobs=9", user=A)
    assert r.rc == 1 and "Access/permission denied" in r.err, r


def test_private_reservations_in_slurmdbd(env):
    """slurmdbd's PrivateData=reservations: as Slurm 22.05, only operators
    and administrators may list the reservation records (sacctmgr show
    reservation); a user (here even a coordinator) is refused.  And
    slurmctld's: each user sees only the reservations they may use."""
    c = env.c
    r = c.run(["scontrol", "create", "reservation", "ReservationName=pr1",
               "StartTime=now", "Duration=60", "Nodes=ALL", "Flags=OVERLAP",
               "Users=" + B])
    assert r.rc == 0, r
    deadline = time.time() + 60
    while time.time() < deadline:
        r = env.sacctmgr("-n", "-P", "show", "reservation", "format=name")
        if "pr1" in r.out.split():
            break
        time.sleep(0.5)
    assert r.rc == 0 and "pr1" in r.out.split(), r
    for user in (A, B):
        r = env.sacctmgr("show", "reservation", user=user)
        assert (r.rc, r.out, r.err) == (
            1, "", "sacctmgr: error: Access/permission denied\n"
            " Problem with query.\n"), r
    # slurmctld's PrivateData=reservations: a user sees the reservations
    # they may use, by Users= or by an account of theirs in Accounts=
    r = c.run(["scontrol", "create", "reservation", "ReservationName=pr2",
               "StartTime=now", "Duration=60", "Nodes=ALL", "Flags=OVERLAP",
               "Accounts=teama"])
    assert r.rc == 0, r
    names = lambda u: sorted(re.findall(  # noqa: E731
        r"ReservationName=(\S+)",
        c.run(["scontrol", "show", "reservation"], user=u).out))
    assert names(A) == ["pr2"]
    assert names(B) == ["pr1"]
    assert names(None) == ["pr1", "pr2"]
    for name in ("pr1", "pr2"):
        c.run(["scontrol", "delete", "reservation=" + name])
