"""Workload characterization keys on jobs (TrackWCKey=yes): --wckey and
the user's default (the first wckey added for a user, shown with Slurm's
leading '*'), refused when unknown under AccountingStorageEnforce=wckeys;
scontrol show job WCKey=, sacct WCKey/WCKeyID; and the sreport reports
over them (UserUtilizationByWckey, WCKeyUtilizationByUser, job
SizesByWckey, SizesByAccountAndWckey) and over QOS
(AccountUtilizationByQOS), whose sums equal sacct's CPU time."""

import json
import time

import pytest

import cluster as cl
import mariadb

pytestmark = pytest.mark.skipif(bool(mariadb.missing_tools()),
                                reason="MariaDB server not installed")

U1, U2 = "sluice_u1", "sluice_u2"


@pytest.fixture(scope="module")
def env(users):
    e = mariadb.AcctEnv(tag="wckey", nodes=2, dbd_extra="TrackWCKey=yes")
    e.c.extra_conf += ("\nTrackWCKey=yes\n"
                       "AccountingStorageEnforce=associations,wckeys")
    try:
        e.start()
        for args in (["add", "cluster", "sluice"], ["add", "account", "wa"], ["add", "account", "wb"],
                     ["add", "user", U1, "account=wa"],
                     ["add", "user", U1, "account=wb"],
                     ["add", "user", U2, "account=wa"],
                     ["add", "wckey", "alpha", "user=" + U1],
                     ["add", "wckey", "beta", "user=" + U1]):
            r = e.sacctmgr("-i", *args)
            assert r.rc == 0, r
        e.start_cluster()
    except BaseException:
        e.stop()
        raise
    yield e
    e.finish()


def users_uid(name):
    import pwd
    return pwd.getpwnam(name).pw_uid


def wckey_ids(env):
    r = env.sacctmgr("-n", "-P", "show", "wckey", "format=WCKey,User,ID")
    assert r.rc == 0, r
    return {tuple(l.split("|")[:2]): l.split("|")[2]
            for l in r.out.splitlines()}


def sacct_rows(env, jobs):
    """JobID -> (WCKey, WCKeyID, Account, QOS, CPUTimeRAW, AllocCPUS)."""
    ids = ",".join(str(j) for j in jobs)
    for _ in range(150):
        r = env.sacct("-X", "-n", "-P", "-a", "-j", ids, "-o",
                      "JobID,WCKey,WCKeyID,Account,QOS,CPUTimeRAW,"
                      "AllocCPUS,State")
        rows = {int(l.split("|")[0]): l.split("|")[1:]
                for l in r.out.splitlines()}
        if len(rows) == len(jobs) and all(
                v[6] == "COMPLETED" for v in rows.values()):
            return rows
        time.sleep(0.2)
    raise AssertionError("sacct never showed %s: %s" % (ids, r))


# ---- bad input first ----

def test_unknown_wckey_refused(env):
    c = env.c
    r = c.run(["sbatch", "--wckey=nope", "--wrap", "true"], user=U1)
    assert r.rc == 1, r
    assert r.err == "sbatch: error: Batch job submission failed: " \
        "Invalid wckey specification\n", r
    # another user's wckey is not this user's
    r = c.run(["sbatch", "--wckey=alpha", "--wrap", "true"], user=U2)
    assert r.err == "sbatch: error: Batch job submission failed: " \
        "Invalid wckey specification\n", r
    # no --wckey and no default: refused too under enforcement
    r = c.run(["sbatch", "--wrap", "true"], user=U2)
    assert r.err == "sbatch: error: Batch job submission failed: " \
        "Invalid wckey specification\n", r
    r = c.run(["srun", "--wckey=nope", "true"], user=U1)
    assert r.rc == 1 and "Invalid wckey specification" in r.err, r


def test_default_and_given_wckey_reach_sacct(env):
    c = env.c
    ids = wckey_ids(env)
    assert set(ids) == {("alpha", U1), ("beta", U1)}
    r = env.sacctmgr("-n", "-P", "show", "user", "where",
                     "name=%s,%s" % (U1, U2), "format=User,DefaultWCKey")
    assert r.out == "%s|alpha\n%s|\n" % (U1, U2), r
    r = env.sacctmgr("--json", "show", "user", "where", "name=" + U1)
    assert json.loads(r.out)["users"][0]["default"]["wckey"] == "alpha", r
    given = c.sbatch(["-H", "--wckey=beta", "--wrap", "true"], user=U1)
    default = c.sbatch(["-H", "--wrap", "true"], user=U1)
    # the default is the first wckey added, marked '*' (as Slurm)
    assert " WCKey=beta\n" in c.run(["scontrol", "show", "job",
                                     str(given)]).out
    show = c.run(["scontrol", "show", "job", str(default)]).out
    assert " QOS=normal WCKey=*alpha\n" in show, show
    r = c.run(["scontrol", "show", "assoc_mgr", "users=" + U1,
               "flags=users"])
    assert "UserName=%s(%d) DefAccount=wa DefWckey=alpha " % (
        U1, users_uid(U1)) in r.out, r
    r = c.run(["squeue", "-h", "-j", "%d,%d" % (given, default),
               "-o", "%i %w"])
    assert r.out.split("\n")[:2] == ["%d beta" % given,
                                     "%d *alpha" % default], r
    for j in (given, default):
        c.run(["scontrol", "release", str(j)])
    for j in (given, default):
        assert c.wait_done(j) == "COMPLETED"
    rows = sacct_rows(env, [given, default])
    assert rows[given][:2] == ["beta", ids[("beta", U1)]]
    assert rows[default][:2] == ["*alpha", ids[("alpha", U1)]]


def test_update_wckey_checked(env):
    c = env.c
    j = c.sbatch(["-H", "--wrap", "true"], user=U1)
    try:
        r = c.run(["scontrol", "update", "JobId=%d" % j, "WCKey=nope"],
                  user=U1)
        assert r.rc == 1 and "Invalid wckey specification" in r.err, r
        assert " WCKey=*alpha\n" in c.run(["scontrol", "show", "job",
                                           str(j)]).out
        r = c.run(["scontrol", "update", "JobId=%d" % j, "WCKey=beta"],
                  user=U1)
        assert r.rc == 0, r
        assert " WCKey=beta\n" in c.run(["scontrol", "show", "job",
                                         str(j)]).out
    finally:
        c.run(["scancel", str(j)])


def _iso(t):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(t))


def sreport(env, *args):
    r = env.c.run([env.c.bins["sreport"], "-t", "seconds", "-P", "-n"] +
                  list(args) + ["start=" + _iso(time.time() - 7200),
                                "end=" + _iso(time.time() + 3600)])
    assert r.rc == 0 and r.err == "", r
    return [l.split("|") for l in r.out.splitlines()]


def test_reports_sum_to_sacct(env):
    c = env.c
    jobs = []
    for args in (["-A", "wa", "--wckey=alpha", "-n", "2"],
                 ["-A", "wb", "--wckey=beta"],
                 ["-A", "wb", "--wckey=alpha", "-n", "3"]):
        jobs.append(c.sbatch(args + ["-o", "/dev/null", "--wrap",
                                     "sleep 2"], user=U1))
    for j in jobs:
        assert c.wait_done(j) == "COMPLETED"
    rows = sacct_rows(env, jobs)
    # every job of the module so far (the earlier test's too)
    r = env.sacct("-X", "-n", "-P", "-a", "-S", "now-2hours", "-o",
                  "WCKey,Account,QOS,CPUTimeRAW,AllocCPUS,State")
    want_w, want_aw, want_q, want_wsize = {}, {}, {}, {}
    for line in r.out.splitlines():
        w, a, q, cpu, ncpu, state = line.split("|")
        if state != "COMPLETED":
            continue
        w = w.lstrip("*")
        want_w[w] = want_w.get(w, 0) + int(cpu)
        want_aw[a + ":" + w] = want_aw.get(a + ":" + w, 0) + int(cpu)
        want_q[(a, q)] = want_q.get((a, q), 0) + int(cpu)
    assert sum(int(v[4]) for v in rows.values()) > 0

    got = {(l[1], l[3]): int(l[4])
           for l in sreport(env, "cluster", "UserUtilizationByWckey")}
    assert got == {(U1, w): s for w, s in want_w.items()}, got

    out = sreport(env, "cluster", "WCKeyUtilizationByUser")
    totals = {l[1]: int(l[4]) for l in out if l[2] == ""}
    users = {l[1]: int(l[4]) for l in out if l[2] == U1}
    assert totals == want_w == users, out
    # each wckey's total row comes before its users' rows
    assert [l[1] for l in out if l[2] == ""] == sorted(want_w)

    out = sreport(env, "cluster", "UserUtilizationByWckey", "wckeys=beta")
    assert [(l[3], int(l[4])) for l in out] == [("beta", want_w["beta"])]

    out = sreport(env, "cluster", "AccountUtilizationByQOS")
    qos = {(l[1].strip(), l[2]): int(l[3]) for l in out if l[2]}
    assert qos == want_q, out
    root = [l for l in out if l[1] == "root"]
    assert root and int(root[0][3]) == sum(want_q.values()), out

    out = sreport(env, "job", "SizesByWckey", "grouping=2")
    bins = {l[1]: [int(x) for x in l[2:4]] for l in out}
    assert {w: sum(b) for w, b in bins.items()} == want_w, out
    out = sreport(env, "job", "SizesByAccountAndWckey", "grouping=2")
    assert {l[1]: int(l[2]) + int(l[3]) for l in out} == want_aw, out


def test_report_names_in_errors(env):
    r = env.c.run([env.c.bins["sreport"], "cluster", "bogus"])
    assert r.rc == 1 and "\"AccountUtilizationByQOS\"" in r.err, r


def test_reservation_utilization(env):
    """Jobs record the reservation they ran in: sreport reservation
    Utilization gives each reservation's Allocated (its jobs' CPU time in
    it, as sacct's) and Idle (the rest of what it held)."""
    c = env.c
    r = c.run(["scontrol", "create", "reservation", "ReservationName=rw",
               "StartTime=now", "Duration=10", "Users=" + U1, "Nodes=n1"])
    assert r.rc == 0, r
    try:
        j = c.sbatch(["--reservation=rw", "-A", "wa", "--wckey=alpha",
                      "-n", "2", "-o", "/dev/null", "--wrap", "sleep 2"],
                     user=U1)
        assert c.wait_done(j) == "COMPLETED"
        cpu = int(sacct_rows(env, [j])[j][4])
        assert cpu >= 4

        def rows():
            return sreport(env, "reservation", "utilization",
                           "format=Cluster,Name,ReservationId,TresName,"
                           "TresCount,"
                           "Allocated,Idle,TresTime")
        # the reservation keeps holding its CPUs after the job: Idle grows
        cl.wait_for(lambda: [l for l in rows() if l[5] == str(cpu) and
                             int(l[6]) > 0],
                    timeout=30, what="the job's usage in the reservation")
        (line,) = [l for l in rows() if l[1] == "rw"]
        assert line[:2] == ["sluice", "rw"] and line[2].isdigit(), line
        assert line[3:5] == ["cpu", "2"], line
        alloc, idle, held = (int(x) for x in line[5:8])
        assert alloc == cpu and idle > 0 and alloc + idle == held, line
        # the default layout, as Slurm's
        r = env.c.run([env.c.bins["sreport"], "-P", "reservation",
                       "utilization"])
        assert r.rc == 0, r
        assert "Cluster|Name|Start|End|TRES Name|Allocated|Idle\n" in r.out
        assert "Usage reported in TRES Minutes\n" in r.out, r
    finally:
        c.run(["scontrol", "delete", "ReservationName=rw"])
