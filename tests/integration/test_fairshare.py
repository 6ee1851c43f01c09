"""Fair-share, sshare, AdminLevel and PrivateData over accounting.

One cluster (1 node, priority/multifactor with only the fair-share
weight, PrivateData=usage in slurm.conf and jobs,usage in slurmdbd.conf)
and two users in one account.  User A runs a job first; then, with the
node busy, A and B each submit an equal job, A's first: B's starts
first, sshare shows A's usage and lower factor, the usage survives a
controller restart.  B sees only their own lines (sshare, sacct,
sreport) until made an accounting Operator, and may then cancel A's jobs
but still not reconfigure.
"""

import os
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mariadb  # noqa: E402

pytestmark = pytest.mark.skipif(bool(mariadb.missing_tools()),
                                reason="MariaDB server not installed: %s"
                                % ", ".join(mariadb.missing_tools()))

A, B = "sluice_u1", "sluice_u2"
PRIO = ("PriorityType=priority/multifactor\n"
        "PriorityWeightFairshare=10000\n"
        "PriorityWeightAge=0\nPriorityWeightJobSize=0\n"
        "PriorityWeightPartition=0\n"
        "PriorityDecayHalfLife=01:00:00\n"
        "PrivateData=usage")


@pytest.fixture(scope="module")
def env(users):
    e = mariadb.AcctEnv(tag="fairshare", nodes=1,
                        dbd_extra="PrivateData=jobs,usage")
    e.c.extra_conf += "\n" + PRIO
    try:
        e.start()
        e.start_cluster()
        for args in (["add", "account", "physics"],
                     ["add", "user", A, B, "account=physics"]):
            r = e.sacctmgr("-i", *args)
            assert r.rc == 0, r
        _wait_shares(e, lambda rows: {A, B} <= set(rows))
    except BaseException:
        e.stop()
        raise
    yield e
    e.stop()
    e.cleanup()


def sshare(e, *args, user=None):
    return e.c.run([e.c.bins["sshare"]] + list(args), user=user)


def _rows(e, user=None):
    """sshare -a -P -n: user lines as {user: (raw_usage, fairshare)}."""
    r = sshare(e, "-a", "-P", "-n", "-o", "Account,User,RawUsage,FairShare",
               user=user)
    assert r.rc == 0, r
    rows = {}
    for line in r.out.splitlines():
        acct, u, raw, fs = line.split("|")
        if u:
            rows[u] = (int(raw), float(fs))
    return rows


def _wait_shares(e, cond, timeout=30, user=None):
    deadline = time.time() + timeout
    rows = None
    while time.time() < deadline:
        rows = _rows(e, user)
        if cond(rows):
            return rows
        time.sleep(0.5)
    raise AssertionError("sshare never showed it: %r" % (rows,))


def _start(e, jid):
    r = e.sacct("-X", "-P", "-n", "-o", "Start", "-j", str(jid))
    return r.out.strip()


def _check_fair_tree(e):
    """sshare -l under Fair Tree (the default): B, unused, has LevelFS
    inf above A's; factors are ranks over the number of users, B's
    directly above A's."""
    r = sshare(e, "-a", "-l", "-P")
    assert r.rc == 0, r
    lines = r.out.splitlines()
    assert lines[0] == ("Account|User|RawShares|NormShares|RawUsage|"
                        "NormUsage|EffectvUsage|FairShare|LevelFS|"
                        "GrpTRESMins|TRESRunMins"), lines
    root = lines[1].split("|")
    # the root: NormShares 0, EffectvUsage 1, no NormUsage/FairShare/LevelFS
    assert root[:4] == ["root", "", "", "0.000000"], root
    assert root[5:9] == ["", "1.000000", "", ""], root
    rows = {}
    for ln in lines[1:]:
        f = ln.split("|")
        if f[1]:
            rows[f[1]] = f
        elif f[0] == " physics":
            acct = f
    n = len(rows)
    assert rows[B][8] == "inf", rows[B]
    lfs_a = float(rows[A][8])
    # physics: A used all of it, S = 1/2 among A and B: LevelFS 0.5
    assert rows[A][6] == "1.000000" and rows[A][3] == "0.500000", rows[A]
    assert lfs_a == 0.5, rows[A]
    assert acct[7] == "" and acct[8] not in ("", "inf"), acct
    ranks = {u: round(float(f[7]) * n) for u, f in rows.items()}
    for u, f in rows.items():
        assert abs(float(f[7]) - ranks[u] / n) < 1e-6, (u, f, n)
    assert ranks[B] == ranks[A] + 1, (ranks, n)
    # the long layout: LevelFS after FairShare, 10 wide
    r = sshare(e, "-l", "-A", "physics", "-u", A)
    assert r.out.splitlines()[0].startswith(
        "Account                    User  RawShares  NormShares    "
        "RawUsage   NormUsage  EffectvUsage  FairShare    LevelFS "), r
    line = [ln for ln in r.out.splitlines() if A in ln][0]
    assert line[104:114] == "  0.500000", line


def test_fairshare_orders_equal_jobs(env):
    c = env.c
    first = c.sbatch(["-A", "physics", "--exclusive", "--wrap", "sleep 3"],
                     user=A)
    c.wait_done(first, timeout=60)
    rows = _wait_shares(env, lambda r: r[A][0] > 0)
    assert rows[A][0] >= 3 * c.cpus - 1, rows        # CPUs x seconds
    assert rows[B][0] == 0, rows
    assert rows[A][1] < rows[B][1]
    _check_fair_tree(env)
    # The node busy; A submits before B.
    blocker = c.sbatch(["--exclusive", "--wrap", "sleep 3"])
    c.wait_state(blocker, "RUNNING")
    ja = c.sbatch(["-A", "physics", "--exclusive", "--wrap", "sleep 1"],
                  user=A)
    jb = c.sbatch(["-A", "physics", "--exclusive", "--wrap", "sleep 1"],
                  user=B)
    r = c.run(["sprio", "-n", "-h", "-o", "%i %f"])
    fs = dict(line.split() for line in r.out.splitlines())
    assert float(fs[str(ja)]) < float(fs[str(jb)]), r
    c.wait_done(ja, timeout=60)
    c.wait_done(jb, timeout=60)
    assert _start(env, jb) < _start(env, ja), (_start(env, jb),
                                              _start(env, ja))


def test_usage_survives_restart(env):
    c = env.c
    before = _rows(env)[A][0]
    assert before > 0
    assert c.kill_ctld() == 0
    c.start_ctld()
    c.wait_ready()
    rows = _wait_shares(env, lambda r: A in r)
    # decayed by at most a few seconds of a one-hour half-life
    assert before * 0.99 <= rows[A][0] <= before, (before, rows)
    assert rows[A][1] < 1.0


def test_private_usage_and_jobs(env):
    rows = _rows(env, user=B)
    assert set(rows) == {B}, rows
    r = env.sacct("-a", "-X", "-P", "-n", "-o", "User", "-S", "now-1hour",
                  user=B)
    assert r.rc == 0 and set(r.out.split()) == {B}, r
    r = env.c.run([env.c.bins["sreport"], "-P", "-n", "user", "topusage",
                   "start=now-1hour", "end=now"], user=B)
    assert r.rc == 0 and [ln.split("|")[1] for ln in r.out.splitlines()] \
        == [B], r
    r = env.c.run([env.c.bins["sreport"], "cluster", "utilization"], user=B)
    assert r.rc == 1 and "Access/permission denied" in r.err, r
    # root sees everyone
    assert {A, B} <= set(_rows(env))


def test_operator_controls_other_jobs(env):
    c = env.c
    held = c.sbatch(["-A", "physics", "-H", "--wrap", "true"], user=A)
    r = c.run(["scancel", str(held)], user=B)
    assert r.rc != 0 and "Access/permission denied" in r.err, r
    r = env.sacctmgr("-i", "modify", "user", B, "set", "adminlevel=Operator")
    assert r.rc == 0, r
    # The controller learns it: B sees A's usage now.
    _wait_shares(env, lambda rows: A in rows, user=B)
    r = c.run(["scancel", str(held)], user=B)
    assert r.rc == 0, r
    assert c.wait_state(held, "CANCELLED")
    r = c.run(["scontrol", "reconfigure"], user=B)
    assert r.rc != 0, r
    env.sacctmgr("-i", "modify", "user", B, "set", "adminlevel=None")


def test_sshare_layout(env):
    """Slurm's columns; without -a only the caller's user lines."""
    r = sshare(env)
    assert r.rc == 0, r
    lines = r.out.splitlines(True)
    assert lines[:2] == [
        "Account                    User  RawShares  NormShares    "
        "RawUsage  EffectvUsage  FairShare \n",
        "-------------------- ---------- ---------- ----------- "
        "----------- ------------- ---------- \n"]
    accts = [ln[:21].rstrip() for ln in lines[2:]]
    users = [ln[21:31].strip() for ln in lines[2:]]
    assert accts[0] == "root" and " physics" in accts, accts
    assert A not in users and B not in users, users
    r = sshare(env, "-A", "physics", "-a", "-P")
    assert r.out.splitlines()[0] == ("Account|User|RawShares|NormShares|"
                                     "RawUsage|EffectvUsage|FairShare")
    body = [ln.split("|")[:2] for ln in r.out.splitlines()[1:]]
    assert body == [[" physics", ""], ["  physics", A], ["  physics", B]]


def test_fairshare_parent_then_classic(env):
    """Fairshare=parent rows as 22.05 shows them; then the controller
    restarted with PriorityFlags=NO_FAIR_TREE computes the classic
    factor (and no LevelFS)."""
    for args in (["add", "account", "sub", "parent=physics",
                  "fairshare=parent"],
                 ["add", "user", B, "account=sub", "fairshare=parent"]):
        r = env.sacctmgr("-i", *args)
        assert r.rc == 0, r
    r = env.sacctmgr("-n", "-P", "show", "assoc", "format=account,user,share")
    assert "sub||parent" in r.out.split() and \
        "sub|%s|parent" % B in r.out.split(), r

    def rows():
        r = sshare(env, "-a", "-l", "-P", "-n")
        assert r.rc == 0, r
        return {(f[0].strip(), f[1]): f for f in
                (ln.split("|") for ln in r.out.splitlines())}

    deadline = time.time() + 30
    while ("sub", B) not in rows() and time.time() < deadline:
        time.sleep(0.5)
    got = rows()
    phys, sub, b_sub = got[("physics", "")], got[("sub", "")], \
        got[("sub", B)]
    # the account: its parent's NormShares, no LevelFS, no FairShare
    assert sub[2] == "parent" and sub[3] == phys[3], (sub, phys)
    assert sub[7] == "" and sub[8] == "", sub
    # the user: the values of physics, a FairShare, no LevelFS
    assert b_sub[2] == "parent" and b_sub[3] == phys[3], b_sub
    assert b_sub[7] != "" and b_sub[8] == "", b_sub
    # B's Fairshare=parent association is ranked among A and B with
    # physics' LevelFS: the factors follow the LevelFS order
    a, b = got[("physics", A)], got[("physics", B)]
    level = {"a": float(a[8]), "b": float(b[8]), "b_sub": float(phys[8])}
    fs = {"a": float(a[7]), "b": float(b[7]), "b_sub": float(b_sub[7])}
    assert len(set(level.values())) == 3, level
    assert sorted(level, key=level.get) == sorted(fs, key=fs.get), \
        (level, fs)

    c = env.c
    c.extra_conf += "\nPriorityFlags=NO_FAIR_TREE"
    c.write_conf()
    assert c.kill_ctld() == 0
    c.start_ctld()
    c.wait_ready()
    deadline = time.time() + 30
    while ("sub", B) not in rows() and time.time() < deadline:
        time.sleep(0.5)
    got = rows()
    a, phys = got[("physics", A)], got[("physics", "")]
    norm, eff, fs = float(a[3]), float(a[6]), float(a[7])
    assert abs(fs - 2 ** (-eff / norm)) < 1e-5, a
    # Slurm's classic effective usage: U + (parent's - U) x S/siblings'
    # (A and B have a share each under physics; sub's are B's)
    u = float(a[5])
    assert abs(eff - (u + (float(phys[6]) - u) * 1 / 2)) < 1e-5, (a, phys)
    # 22.05's classic sshare -l: no LevelFS column; FairShare on every
    # line, 2^(-1) for root
    r = sshare(env, "-a", "-l", "-P")
    lines = r.out.splitlines()
    assert lines[0] == ("Account|User|RawShares|NormShares|RawUsage|"
                        "NormUsage|EffectvUsage|FairShare|GrpTRESMins|"
                        "TRESRunMins"), lines[0]
    root = lines[1].split("|")
    assert root[:4] == ["root", "", "", "1.000000"], root
    assert root[6:8] == ["1.000000", "0.500000"], root
    assert phys[7] != "", phys
    r = sshare(env, "-a", "-n", "-P", "-o", "LevelFS")
    assert set(r.out.split()) == {"0.000000"}, r


def test_deleted_user_usage_stays_with_account(env):
    """As Slurm's: a deleted association's usage stays in its account's."""
    def usage():
        r = sshare(env, "-a", "-P", "-n", "-o", "Account,User,RawUsage")
        assert r.rc == 0, r
        return {(f[0].strip(), f[1]): int(f[2]) for f in
                (ln.split("|") for ln in r.out.splitlines())}

    before = usage()
    assert before[("physics", A)] > 0, before
    r = env.sacctmgr("-i", "delete", "user", A)
    assert r.rc == 0, r
    deadline = time.time() + 30
    after = usage()
    while ("physics", A) in after and time.time() < deadline:
        time.sleep(0.5)
        after = usage()
    assert ("physics", A) not in after, after
    # a few seconds of a one-hour half-life at most
    assert after[("physics", "")] >= before[("physics", "")] * 0.99, \
        (before, after)
    assert after[("root", "")] >= before[("root", "")] * 0.99
