"""The TRES table (schema 23): sacctmgr show tres, TRES a controller
registers (gres/gpu, gres/gpu:a100, license/matlab get ids from 1001 on,
as Slurm's), the roll-ups and sreport -T over them, and -T for the wckey,
QOS and job-size reports.

Records go into slurmdbd the way the controller sends them
(tests/perf/dbd_fill: a cluster registration whose TRES carry the GRES
and licenses, then finished jobs whose AllocTRES carry theirs); every
figure sreport prints is checked against sacct's AllocTRES x elapsed over
the same jobs.  No controller.
"""

import json
import os
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mariadb  # noqa: E402
from test_sreport_rollup import (U1, U2, HOUR, Data, _uid,  # noqa: E402
                                 _tres_counts, rollup, sreport)

pytestmark = pytest.mark.skipif(bool(mariadb.missing_tools()),
                                reason="MariaDB server not installed: %s"
                                % ", ".join(mariadb.missing_tools()))

FIXED = [("cpu", "", 1), ("mem", "", 2), ("energy", "", 3),
         ("node", "", 4), ("billing", "", 5), ("fs", "disk", 6),
         ("vmem", "", 7), ("pages", "", 8)]
REGISTERED = [("gres", "gpu", 1001), ("gres", "gpu:a100", 1002),
              ("license", "matlab", 1003)]
CLUSTER = {"cpu": 8, "gres/gpu": 4, "gres/gpu:a100": 2,
           "license/matlab": 3}


@pytest.fixture(scope="module")
def env(users):
    e = mariadb.AcctEnv(tag="trestab", nodes=1)
    try:
        e.start()
        for args in (["add", "cluster", "sluice"],
                     ["add", "account", "a1,a2"],
                     ["add", "user", U1, "account=a1"],
                     ["add", "user", U1, U2, "account=a2"]):
            assert e.sacctmgr("-i", *args).rc == 0
        e.fresh = show_tres(e)
        d = Data(e)
        y0 = d.y0
        d.fill(1000, 3, "-C", 8, "-K", "gres/gpu=4,gres/gpu:a100=2,"
               "license/matlab=3", "-b", y0 + 10 * HOUR, "-g", 3000, "-l",
               2400, "-c", 2, "-T", "gres/gpu=2,gres/gpu:a100=1",
               "-U", _uid(U1), "-a", "a1", "-Q", "normal", "-W", "wk1")
        d.cluster_from = y0 + 10 * HOUR
        d.fill(2000, 2, "-b", y0 + 11 * HOUR, "-g", 600, "-l", 5000,
               "-T", "gres/gpu=1,license/matlab=1", "-U", _uid(U2),
               "-a", "a2", "-Q", "gold", "-W", "wk2")
        d.fill(3000, 1, "-b", y0 + 12 * HOUR, "-l", 4000, "-U", _uid(U1),
               "-a", "a2", "-Q", "gold", "-W", "wk1")
        assert rollup(e).rc == 0
        e.data = d
    except BaseException:
        e.stop()
        raise
    yield e
    e.finish()


def show_tres(e, *args):
    r = e.sacctmgr("-P", "-n", "show", "tres", *args)
    assert r.rc == 0 and r.err == "", r
    return [tuple(ln.split("|")[:2]) + (int(ln.split("|")[2]),)
            for ln in r.out.splitlines()]


def _use(e):
    """{(account, user, qos_or_wckey..., tres): TRES-seconds} from
    sacct over every job sent."""
    r = e.sacct("-a", "-X", "-P", "-n", "-o",
                "JobIDRaw,User,Account,QOS,WCKey,AllocTRES,Start,End",
                "-j", ",".join(map(str, e.data.ids)))
    assert r.rc == 0, r
    rows = []
    for line in r.out.splitlines():
        _id, user, acct, qos, wckey, tres, st, en = line.split("|")
        secs = int(time.mktime(time.strptime(en, "%Y-%m-%dT%H:%M:%S"))) - \
            int(time.mktime(time.strptime(st, "%Y-%m-%dT%H:%M:%S")))
        for k, n in _tres_counts(tres).items():
            rows.append((acct, user, qos, wckey, k, n * secs))
    assert rows
    return rows


def _sum(rows, **want):
    keys = ("acct", "user", "qos", "wckey", "tres")
    return sum(r[5] for r in rows
               if all(r[keys.index(k)] == v for k, v in want.items()))


# ---- bad input first ----------------------------------------------------

def test_bad_input_changes_nothing(env):
    before = show_tres(env)
    for args, msg in ((["show", "tres", "where", "bogus=1"],
                       " Unknown condition: bogus=1\n Use keyword 'set' "
                       "to modify value\n"),
                      (["show", "tres", "bogus=1"],
                       " Unknown condition: bogus=1\n")):
        r = env.sacctmgr(*args)
        assert r.rc == 1 and r.err.startswith(msg) and r.out == "", r
    for args, msg in ((["-T", "bogus", "cluster", "utilization"],
                       "sreport: fatal: No valid TRES given\n"),
                      (["-T", ",", "cluster", "utilization"],
                       "sreport: fatal: No valid TRES given\n"),
                      (["-T", "gres/tpu", "cluster", "utilization"],
                       "No valid TRES given"),
                      (["-T", "cpu,mem", "job", "sizesbyaccount"],
                       " Job report only supports a single --tres type.\n"
                       " Generate a separate report for each TRES type.\n")):
        r = sreport(env, *args)
        assert r.rc == 1 and msg in r.err and r.out == "", (args, r)
    # a known one with an unknown one: the known one, and a warning
    r = sreport(env, "-P", "-n", "-T", "cpu,bogus", "cluster",
                "utilization")
    assert r.rc == 0 and "bogus" in r.err, r
    assert [ln.split("|")[1] for ln in r.out.splitlines()] == ["cpu"], r
    assert show_tres(env) == before


# ---- sacctmgr show tres ---------------------------------------------------

def test_show_tres_fixed_then_registered(env):
    assert env.fresh == FIXED
    assert show_tres(env) == FIXED + REGISTERED
    r = env.sacctmgr("show", "tres")
    assert r.rc == 0, r
    lines = r.out.splitlines()
    assert lines[0] == "    Type            Name     ID "
    assert lines[1] == "-------- --------------- ------ "
    assert lines[2] == "     cpu                      1 "
    assert lines[7] == "      fs            disk      6 "
    assert lines[11] == "    gres        gpu:a100   1002 "
    r = env.sacctmgr("-p", "show", "tres")
    assert r.out.splitlines()[0] == "Type|Name|ID|", r
    assert r.out.splitlines()[-1] == "license|matlab|1003|", r
    assert show_tres(env, "where", "type=gres") == REGISTERED[:2]
    assert show_tres(env, "id=2,1003") == [FIXED[1], REGISTERED[2]]
    assert show_tres(env, "name=cpu") == []     # cpu's name is ''
    r = env.sacctmgr("-n", "-P", "show", "tres", "format=id,type")
    assert r.out.splitlines()[:2] == ["1|cpu", "2|mem"], r
    r = env.sacctmgr("--json", "show", "tres")
    assert r.rc == 0, r
    doc = json.loads(r.out)
    got = [(t["type"], t["name"], t["id"]) for t in doc["TRES"]]
    assert got == FIXED + REGISTERED, doc
    # registering again: the same ids
    env.data.fill(9000, 1, "-C", 8, "-K", "license/matlab=3,gres/gpu=4",
                  "-b", int(time.time()) - 60, "-l", 10, "-U", _uid(U1),
                  "-a", "a1")
    env.data.ids.remove(9000)
    assert show_tres(env) == FIXED + REGISTERED


# ---- sreport -T -----------------------------------------------------------

def test_cluster_utilization_of_gres_and_licenses(env):
    rows = _use(env)
    secs = env.data.y0 + 24 * HOUR - env.data.cluster_from
    for tres in ("gres/gpu", "gres/gpu:a100", "license/matlab", "cpu"):
        r = sreport(env, "-t", "seconds", "-P", "-n", "-T", tres,
                    "cluster", "utilization")
        assert r.rc == 0 and r.err == "", r
        name, t, alloc, down, pdown, idle, plan, rep = r.out.split("|")
        assert t == tres and int(alloc) == _sum(rows, tres=tres), (r, rows)
        if tres != "cpu":
            assert int(rep) == CLUSTER[tres] * secs, r
        assert int(alloc) + int(down) + int(pdown) + int(idle) + \
            int(plan) == int(rep), r
    r = sreport(env, "-t", "seconds", "-P", "-n", "-T", "cpu,gres/gpu",
                "cluster", "utilization")
    assert [ln.split("|")[1] for ln in r.out.splitlines()] == \
        ["cpu", "gres/gpu"], r
    r = sreport(env, "-t", "seconds", "-P", "-n", "-T", "ALL", "cluster",
                "utilization")
    assert [ln.split("|")[1] for ln in r.out.splitlines()] == \
        ["cpu", "gres/gpu", "gres/gpu:a100", "license/matlab"], r


def test_account_and_user_reports_of_gres(env):
    rows = _use(env)
    r = sreport(env, "-t", "seconds", "-P", "-n", "-T", "gres/gpu",
                "cluster", "AccountUtilizationByUser")
    assert r.rc == 0 and r.err == "", r
    got = {}
    for line in r.out.splitlines():
        _c, acct, login, _p, tres, used = line.split("|")
        assert tres == "gres/gpu"
        got[(acct, login)] = int(used)
    assert got[("root", "")] == _sum(rows, tres="gres/gpu")
    for acct in ("a1", "a2"):
        assert got[(acct, "")] == _sum(rows, acct=acct, tres="gres/gpu")


def test_qos_and_wckey_reports_honour_T(env):
    rows = _use(env)
    r = sreport(env, "-t", "seconds", "-P", "-n", "-T",
                "gres/gpu,license/matlab", "cluster",
                "AccountUtilizationByQOS")
    assert r.rc == 0 and r.err == "", r
    got = {}
    for line in r.out.splitlines():
        _c, acct, qos, tres, used = line.split("|")
        got[(acct, qos, tres)] = int(used)
    for tres in ("gres/gpu", "license/matlab"):
        for acct, qos in (("a1", "normal"), ("a2", "gold")):
            want = _sum(rows, acct=acct, qos=qos, tres=tres)
            if want:
                assert got[(acct, qos, tres)] == want, (got, tres)
    r = sreport(env, "-t", "seconds", "-P", "-n", "-T", "gres/gpu",
                "cluster", "WCKeyUtilizationByUser")
    assert r.rc == 0 and r.err == "", r
    got = {}
    for line in r.out.splitlines():
        _c, wckey, login, _p, tres, used = line.split("|")
        assert tres == "gres/gpu"
        got[(wckey, login)] = int(used)
    for wk in ("wk1", "wk2"):
        assert got[(wk, "")] == _sum(rows, wckey=wk, tres="gres/gpu"), got
    r = sreport(env, "-t", "hours", "-T", "gres/gpu", "cluster",
                "WCKeyUtilizationByUser")
    assert "TRES Name" in r.out.splitlines()[4], r.out


def test_job_sizes_by_a_tres(env):
    r = sreport(env, "-t", "seconds", "-T", "gres/gpu", "job",
                "sizesbyaccount", "grouping=2")
    assert r.rc == 0 and r.err == "", r
    lines = r.out.splitlines()
    assert lines[2] == "TRES type is gres/gpu", r.out
    assert "0-1 TRES" in lines[5] and ">= 2 TRES" in lines[5], r.out
    rows = _use(env)
    r = sreport(env, "-t", "seconds", "-P", "-n", "-T", "gres/gpu", "job",
                "sizesbyaccount", "grouping=2")
    _c, acct, small, big, _pct = r.out.split("|")
    # the a1 jobs have 2 GPUs, a2's 1
    assert int(big) == _sum(rows, acct="a1", tres="gres/gpu"), r
    assert int(small) == _sum(rows, acct="a2", tres="gres/gpu"), r


# ---- upgrade ------------------------------------------------------------

def _answers(e):
    out = []
    for args in (("-T", "cpu,mem,node", "cluster", "utilization"),
                 ("cluster", "AccountUtilizationByUser"),
                 ("cluster", "AccountUtilizationByQOS"),
                 ("job", "sizesbyaccount")):
        r = sreport(e, "-t", "seconds", "-P", "-n", *args)
        assert r.rc == 0, r
        out.append(r.out)
    return out


def test_schema_23_upgrade_keeps_answers(env):
    """A database of schema 22 (no TRES table) is upgraded when slurmdbd
    starts: the fixed TRES are there, every answer as before, and the
    next registration gives the controller's TRES their ids."""
    before = _answers(env)
    env.db.sql("DROP TABLE tres_table; DELETE FROM schema_version WHERE "
               "version >= 23", db=env.db.db)
    env.restart_dbd()
    assert "to schema version 23" in env.dbd_log_text()
    assert show_tres(env) == FIXED
    assert _answers(env) == before
    env.db.sql("DELETE FROM schema_version WHERE version >= 23",
               db=env.db.db)
    env.restart_dbd()
    assert show_tres(env) == FIXED
    assert _answers(env) == before
