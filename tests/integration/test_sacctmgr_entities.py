"""sacctmgr's entities beyond the association tree, as Slurm prints them
(layouts checked against Slurm 22.05): wckeys, resources (remote
licenses: pulled by the controller, shown by scontrol show licenses as
name@server with Remote=yes, usable with -L name@server:N),
transactions (every committed change: Time, Action, Actor, Where, Info),
modify job (DerivedExitCode=, Comment=: what sacct then shows), and the
refusals: a non-admin's change, an unknown entity, an unknown
condition."""

import json
import os
import re
import time

import pytest

import cluster as cl
import mariadb

pytestmark = pytest.mark.skipif(bool(mariadb.missing_tools()),
                                reason="MariaDB server not installed")


@pytest.fixture(scope="module")
def env(users):
    e = mariadb.AcctEnv(tag="entities", nodes=1)
    try:
        e.start()
        e.start_cluster()
    except BaseException:
        e.stop()
        raise
    yield e
    e.stop()


def mgr(e, *args, **kw):
    return e.sacctmgr(*args, **kw)


# ---- bad input first ----

def test_unknown_entity(env):
    r = mgr(env, "show", "frobs")
    assert r.rc == 1
    assert r.err.startswith("No valid entity in list command\n")
    assert '"RunAwayJobs", "Stats", "Transaction", "TRES", "User", or ' \
        '"WCKey"' in r.err


def test_json_bad_input(env):
    """--json takes the same refusals as the table: an unknown entity, a
    where clause naming no column, a command other than show; nothing is
    printed on stdout."""
    r = mgr(env, "--json", "show", "frobs")
    assert (r.rc, r.out) == (1, ""), r
    assert r.err.startswith("No valid entity in list command\n"), r
    r = mgr(env, "--json", "show", "user", "where", "bogus=1")
    assert (r.rc, r.out) == (1, ""), r
    assert r.err == (" Unknown condition: bogus=1\n Use keyword 'set' to "
                     "modify value\n"), r
    r = mgr(env, "--yaml", "show", "qos", "where", "colour=red")
    assert (r.rc, r.out) == (1, ""), r
    assert r.err.startswith(" Unknown condition: colour=red\n"), r
    r = mgr(env, "--json", "add", "account", "jx")
    assert (r.rc, r.out) == (1, ""), r
    assert "--json and --yaml apply to show, list and ping only" in r.err
    assert mgr(env, "-n", "-P", "show", "account", "jx").out == ""


def test_not_supported_refused(env):
    r = mgr(env, "show", "federations")
    assert r.rc == 1
    assert r.err == " sacctmgr show federations is not supported by " \
        "Sluice yet\n"


STATS_LINE = re.compile(r"\t(\S+)\s+\(\s*(\d+)\) count:(\d+)\s+"
                        r"ave_time:(\d+)\s+total_time:(\d+)$")


def stats(e, *args, user=None):
    """show stats: (header lines, {type: (id, count)}, {user: count})."""
    r = mgr(e, "show", "stats", *args, user=user)
    assert r.rc == 0 and r.err == "", r
    head, sections, cur = [], {}, None
    for line in r.out.splitlines():
        if line.startswith("Remote Procedure Call statistics by "):
            cur = sections.setdefault(line.split()[-1], [])
        elif cur is not None and line.startswith("\t"):
            m = STATS_LINE.match(line)
            assert m, line
            cur.append(m.groups())
        elif cur is None:
            head.append(line)
    return head, sections


def test_show_and_clear_stats(env, users):
    u = users[0].pw_name
    # Operators only, as Slurm (show says why, clear does not)
    r = mgr(env, "show", "stats", user=u)
    assert r.rc == 1 and r.out == "", r
    assert r.err == "sacctmgr: accounting_storage/slurmdbd: " \
        "acct_storage_p_get_stats: RC:2002 Your user doesn't have " \
        "privilege to perform this action\n", r
    r = mgr(env, "clear", "stats", user=u)
    assert (r.rc, r.out, r.err) == (1, "", ""), r
    r = mgr(env, "clear", "stats")
    assert (r.rc, r.out, r.err) == (0, "", ""), r
    for _ in range(3):
        assert mgr(env, "-n", "show", "qos", "format=name").rc == 0
    head, sec = stats(env)
    assert head[0] == head[4] == "*" * 67, head
    assert head[1].startswith("sacctmgr show stats output at "), head
    assert head[2].startswith("Data since                    "), head
    assert head[3] == "All statistics are in microseconds", head
    types = {t[0]: (int(t[1]), int(t[2])) for t in sec["type"]}
    # since the clear: the clear itself and the three lists (the
    # controller's own requests may come too); this show counts once it
    # is answered, as Slurm's
    assert types["REQUEST_DBD_CLEAR_STATS"] == (7102, 1), types
    assert types["REQUEST_DBD_ACCT"][1] >= 3, types
    assert "REQUEST_DBD_STATS" not in types, types
    counts = [int(t[2]) for t in sec["type"]]
    assert counts == sorted(counts, reverse=True), sec
    users_ = {t[0]: int(t[2]) for t in sec["user"]}
    assert users_["root"] >= 4 and sum(users_.values()) == sum(counts)
    # sorted by average or total time on request
    _, sec = stats(env, "ave_time")
    aves = [int(t[3]) for t in sec["type"]]
    assert aves == sorted(aves, reverse=True), sec
    assert ("REQUEST_DBD_STATS", "7100", "1") in \
        [t[:3] for t in sec["type"]], sec
    r = mgr(env, "show", "stats", "bogus")
    assert r.rc == 1 and r.err == " Unknown option: bogus\n", r


def test_unknown_condition(env):
    for ent in ("wckey", "resource", "transaction"):
        r = mgr(env, "show", ent, "where", "bogus=1")
        assert r.rc == 1, (ent, r)
        assert " Unknown condition: bogus=1" in r.err, (ent, r)


def test_non_admin_refused(env, users):
    u = users[0].pw_name
    r = mgr(env, "-i", "add", "resource", "nope", "server=s", "count=3",
            "type=license", user=u)
    assert r.rc == 1, r
    # what it would have added, then Slurm's refusal
    assert r.out.startswith(" Adding Resource(s)\n  nope@s\n"), r
    assert r.err == " Problem adding system resource: " \
        "Access/permission denied\n", r
    r = mgr(env, "-i", "modify", "resource", "where", "name=nope", "set",
            "count=3", user=u)
    assert r.rc == 1, r
    assert "Your user doesn't have privilege to perform this action" in \
        r.err, r
    r = mgr(env, "-n", "-P", "show", "resource", "format=name")
    assert "nope" not in r.out
    r = mgr(env, "-i", "delete", "wckey", "where", "name=x", user=u)
    assert r.rc == 1, r
    assert "privilege" in r.out + r.err, r


# ---- wckeys ----

def test_wckey_add_show_delete(env):
    r = mgr(env, "show", "wckey")
    assert r.rc == 0, r
    assert r.out == ("     WCKey    Cluster       User \n"
                     "---------- ---------- ---------- \n")
    r = mgr(env, "-i", "add", "wckey", "proj1", "user=root")
    assert r.rc == 0, r
    assert " Adding WCKey(s)\n" in r.out
    r = mgr(env, "show", "wckey")
    assert r.out.splitlines()[2] == "     proj1     sluice       root "
    r = mgr(env, "-i", "add", "wckey", "proj1", "user=root")
    assert r.rc == 1 and " Nothing new added." in r.out, r
    r = mgr(env, "--json", "show", "wckey")
    assert r.rc == 0, r
    doc = json.loads(r.out)
    assert [{k: w[k] for k in ("cluster", "name", "user", "flags")}
            for w in doc["wckeys"]] == [
        {"cluster": "sluice", "name": "proj1", "user": "root",
         "flags": []}]
    assert isinstance(doc["wckeys"][0]["id"], int)
    # an entity without Slurm's JSON form says so
    r = mgr(env, "--json", "show", "transaction")
    assert r.rc == 1
    assert "JSON output is not available for transactions" in r.err
    r = mgr(env, "-i", "delete", "wckey", "where", "name=proj1")
    assert r.rc == 0, r
    assert " Deleting WCKeys...\n" in r.out
    r = mgr(env, "-n", "show", "wckey")
    assert r.out == ""


def test_wckey_needs_known_user(env):
    r = mgr(env, "-i", "add", "wckey", "w2", "user=nosuchuser")
    assert r.rc == 1
    assert " User nosuchuser doesn't exist." in r.out + r.err


def test_modify_user_default_wckey(env):
    """DefaultWCKey= picks one of the user's wckeys (the first added is
    the default); a wckey the user does not have is refused in Slurm's
    words and nothing changes; the where form names the cluster."""
    def default():
        r = mgr(env, "-P", "-n", "show", "user", "root",
                "format=DefaultWCKey")
        assert r.rc == 0, r
        return r.out.strip()

    for w in ("wa", "wb"):
        assert mgr(env, "-i", "add", "wckey", w, "user=root").rc == 0
    try:
        assert default() == "wa"
        r = mgr(env, "-i", "modify", "user", "root", "set",
                "DefaultWCKey=wb")
        assert r.rc == 0, r
        assert default() == "wb"
        r = mgr(env, "-i", "modify", "user", "root", "set",
                "DefaultWCKey=nope")
        assert r.rc == 1, r
        assert " Can't modify because these users aren't associated " \
            "with new default wckey 'nope'...\n  root" in r.out + r.err, r
        assert default() == "wb"
        r = mgr(env, "-i", "modify", "user", "where", "name=root",
                "cluster=nosuch", "set", "DefaultWCKey=wa")
        assert default() == "wb", r
        r = mgr(env, "-i", "modify", "user", "where", "name=root",
                "cluster=sluice", "set", "defwckey=wa")
        assert r.rc == 0, r
        assert default() == "wa"
        doc = json.loads(mgr(env, "--json", "show", "user", "root").out)
        assert doc["users"][0]["default"]["wckey"] == "wa", doc
    finally:
        mgr(env, "-i", "delete", "wckey", "where", "name=wa,wb")


# ---- resources ----

RES_HDR = ("      Name     Server     Type  Count % Allocated ServerType \n"
           "---------- ---------- -------- ------ ----------- ---------- \n")


def test_resource_add_show_modify_delete(env):
    r = mgr(env, "show", "resource")
    assert r.rc == 0 and r.out == RES_HDR, r
    r = mgr(env, "-i", "add", "resource", "lic1", "server=srv",
            "count=100", "servertype=flex", "type=license",
            "cluster=sluice", "percentallowed=50")
    assert r.rc == 0, r
    assert r.out == (" Adding Resource(s)\n"
                     "  lic1@srv\n"
                     "   Cluster - sluice\t50%\n"
                     " Settings\n"
                     "  Name           = lic1\n"
                     "  Server         = srv\n"
                     "  Description    = lic1\n"
                     "  ServerType     = flex\n"
                     "  Count          = 100\n"
                     "  Type           = License\n"), r.out
    r = mgr(env, "show", "resource")
    assert r.out == RES_HDR + ("      lic1        srv  License    100    "
                               "      50       flex \n"), r.out
    r = mgr(env, "-P", "show", "resource", "withclusters")
    assert r.out == ("Name|Server|Type|Count|% Allocated|ServerType|"
                     "Cluster|% Allowed\n"
                     "lic1|srv|License|100|50|flex|sluice|50\n"), r.out
    r = mgr(env, "-i", "modify", "resource", "name=lic1", "server=srv",
            "set", "percentallowed=80", "where", "cluster=sluice")
    assert r.rc == 0, r
    assert r.out == (" Modified server resource ...\n"
                     "  Cluster - sluice\t- lic1@srv\n"), r.out
    r = mgr(env, "-n", "-P", "show", "resource", "lic1@srv",
            "format=name,count,allocated")
    assert r.out == "lic1|100|80\n"
    # more than the whole count: refused, nothing changed
    r = mgr(env, "-i", "modify", "resource", "lic1@srv", "set",
            "percentallowed=101")
    assert r.rc == 1
    r = mgr(env, "-i", "delete", "resource", "where", "name=lic1",
            "server=srv")
    assert r.rc == 0, r
    assert r.out == (" Deleting resource(s)...\n"
                     "  lic1@srv\n"
                     "  Cluster - sluice\t- lic1@srv\n"), r.out
    assert mgr(env, "show", "resource").out == RES_HDR


def test_resource_needs_type(env):
    r = mgr(env, "-i", "add", "resource", "x", "server=y", "count=1")
    assert r.rc == 1
    assert "Need to designate a resource type to initially add 'x'." in \
        r.out + r.err
    assert mgr(env, "-n", "show", "resource", "x").out == ""


# ---- transactions ----

def test_transactions_recorded(env):
    assert mgr(env, "-i", "add", "account", "txacct").rc == 0
    assert mgr(env, "-i", "modify", "account", "txacct", "set",
               "description=hello").rc == 0
    assert mgr(env, "-i", "delete", "account", "txacct").rc == 0
    r = mgr(env, "show", "transaction")
    assert r.rc == 0, r
    lines = r.out.splitlines()
    assert lines[0] == ("               Time               Action      "
                        "Actor                Where                 "
                        "Info ")
    r = mgr(env, "-n", "-P", "show", "transaction",
            "format=action,actor,where,info")
    rows = r.out.splitlines()
    assert "Add Accounts|root|txacct|" in rows
    assert "Modify Accounts|root|name='txacct'|description='hello'" in rows
    assert "Remove Accounts|root|name='txacct'|" in rows
    # a dry run (answered no) records nothing
    r = mgr(env, "add", "account", "nottx", input="n\n")
    assert "Changes Discarded" in r.out
    r = mgr(env, "-n", "-P", "show", "transaction", "format=where")
    assert "nottx" not in r.out


# ---- modify job ----

def test_modify_job_sacct(env, users):
    u = users[0].pw_name
    c = env.c
    jid = c.sbatch(["--wrap", "exit 3"], user=u)
    c.wait_done(jid)
    cl.wait_for(lambda: env.sacct("-n", "-X", "-j", str(jid),
                                  "-o", "state").out.strip() == "FAILED",
                what="the job's end in sacct")
    r = mgr(env, "-i", "modify", "job", "where", "jobid=%d" % jid, "set",
            "DerivedExitCode=5", "Comment=hello")
    assert r.rc == 0, r
    assert r.out.startswith(" Modified jobs...\n  %d submitted at " % jid)
    r = env.sacct("-n", "-P", "-X", "-j", str(jid), "-o",
                  "jobid,comment,derivedexitcode,exitcode")
    assert r.out == "%d|hello|0:5|3:0\n" % jid, r.out
    # the owner may too
    r = mgr(env, "-i", "modify", "job", "where", "jobid=%d" % jid, "set",
            "Comment=mine", user=u)
    assert r.rc == 0, r
    r = env.sacct("-n", "-P", "-X", "-j", str(jid), "-o", "comment")
    assert r.out == "mine\n"
    # another user may not: nothing changes
    r = mgr(env, "-i", "modify", "job", "where", "jobid=%d" % jid, "set",
            "Comment=theirs", user=users[1].pw_name)
    assert r.rc == 1
    assert " Nothing modified" in r.out
    r = env.sacct("-n", "-P", "-X", "-j", str(jid), "-o", "comment")
    assert r.out == "mine\n"
    # contrib/sjobexitmod drives the same
    tool = os.path.join(os.path.dirname(__file__), "..", "..", "contrib",
                        "sjobexitmod", "sjobexitmod")
    bindir = os.path.dirname(env.sacctmgr_bin())
    r = c.run([tool, "-e", "7", "-r", "fixed", str(jid)],
              env={"SACCTMGR": env.sacctmgr_bin(),
                   "SACCT": os.path.join(bindir, "sacct")})
    assert r.rc == 0, r
    r = env.sacct("-n", "-P", "-X", "-j", str(jid), "-o",
                  "comment,derivedexitcode")
    assert r.out == "fixed|0:7\n", r.out
    r = mgr(env, "-i", "modify", "job", "where", "jobid=%d" % jid, "set",
            "bogus=1")
    assert r.rc == 1
    assert " Unknown option: bogus=1" in r.err


# ---- remote licenses: pulled by the controller, used by jobs ----

def show_lic(env, name):
    r = env.c.run(["scontrol", "show", "licenses", name])
    return r.out


def test_remote_license_used_by_job(env, users):
    c, u = env.c, users[0].pw_name
    r = mgr(env, "-i", "add", "resource", "matlab", "server=flex1",
            "count=10", "type=license", "cluster=sluice",
            "percentallowed=50")
    assert r.rc == 0, r
    want = ("LicenseName=matlab@flex1\n"
            "    Total=5 Used=0 Free=5 Reserved=0 Remote=yes\n")
    cl.wait_for(lambda: show_lic(env, "matlab@flex1") == want,
                what="remote license in scontrol show licenses")
    jid = c.sbatch(["-L", "matlab@flex1:2", "--wrap", "sleep 30"], user=u)
    try:
        c.wait_state(jid, ["RUNNING"])
        assert show_lic(env, "matlab@flex1") == (
            "LicenseName=matlab@flex1\n"
            "    Total=5 Used=2 Free=3 Reserved=0 Remote=yes\n")
        r = c.run(["squeue", "-h", "-j", str(jid), "-o", "%W"])
        assert r.out.strip() == "matlab@flex1:2"
        # more than this cluster's share: refused at submit
        r = c.run(["sbatch", "-L", "matlab@flex1:6", "--wrap", "true"],
                  user=u)
        assert r.rc == 1
        assert "Invalid license specification" in r.err
        # a larger share reaches the controller; the job keeps its two
        assert mgr(env, "-i", "modify", "resource", "matlab@flex1", "set",
                   "percentallowed=100").rc == 0
        cl.wait_for(lambda: "Total=10 Used=2 Free=8" in
                    show_lic(env, "matlab@flex1"), what="new share")
    finally:
        c.run(["scancel", str(jid)])
    assert mgr(env, "-i", "delete", "resource", "matlab@flex1").rc == 0
    cl.wait_for(lambda: "matlab" not in c.run(
        ["scontrol", "show", "licenses"]).out, what="license gone")


# ---- runaway jobs ----

RUNAWAY_HDR = ("ID                 Name  Partition    Cluster      State "
               "         TimeSubmit           TimeStart             TimeEnd \n"
               "------------ ---------- ---------- ---------- ---------- "
               "------------------- ------------------- "
               "------------------- \n")


def test_runaway_jobs(env, users):
    c = env.c
    r = mgr(env, "show", "runawayjobs")
    assert r.rc == 0, r
    assert r.out == "Runaway Jobs: No runaway jobs found on cluster sluice\n"
    # a job the database thinks runs, the controller never heard of
    now = int(time.time())
    env.db.sql("INSERT INTO job_table (cluster, id_job, time_submit, "
               "time_eligible, time_start, job_name, id_user, id_group, "
               "`partition`, state, nodelist, tres_alloc, tres_req, "
               "work_dir) VALUES ('sluice', 777777, %d, %d, %d, 'ghost', "
               "0, 0, 'debug', 1, 'n1', '', '', '/tmp')"
               % (now - 100, now - 100, now - 90), db=env.db.db)
    # and one that runs for real: not a runaway
    jid = c.sbatch(["--wrap", "sleep 60"], user=users[0].pw_name)
    try:
        c.wait_state(jid, ["RUNNING"])
        cl.wait_for(lambda: env.sacct("-n", "-X", "-j", str(jid), "-o",
                                      "state").out.strip() == "RUNNING",
                    what="running job in sacct")
        r = mgr(env, "show", "runawayjobs", user=users[0].pw_name)
        assert r.rc == 1
        assert "You must have an AdminLevel>=Operator to fix runaway " \
            "jobs" in r.err
        r = mgr(env, "show", "runawayjobs", input="n\n")
        assert r.rc == 0, r
        lines = r.out.split("\n")
        assert lines[0].startswith("NOTE: Runaway jobs are jobs that "
                                   "don't exist in the controller")
        assert "\n".join(lines[1:3]) + "\n" == RUNAWAY_HDR
        assert lines[3].startswith("777777            ghost      debug "
                                   "    sluice    RUNNING ")
        assert lines[3].endswith("             Unknown ")
        assert lines[4] == ""          # the running job is not one
        assert "Would you like to fix these runaway jobs?" in r.out
        assert r.out.endswith("Changes Discarded\n")
        r = env.sacct("-n", "-P", "-X", "-j", "777777", "-o", "state")
        assert r.out == "RUNNING\n"
        r = mgr(env, "show", "runawayjobs", input="y\n")
        assert r.rc == 0, r
        r = env.sacct("-n", "-P", "-X", "-j", "777777", "-o",
                      "state,elapsed")
        assert r.out == "COMPLETED|00:00:00\n", r.out
        r = mgr(env, "show", "runawayjobs")
        assert r.out == ("Runaway Jobs: No runaway jobs found on cluster "
                         "sluice\n")
        r = env.sacct("-n", "-P", "-X", "-j", str(jid), "-o", "state")
        assert r.out == "RUNNING\n"
    finally:
        c.run(["scancel", str(jid)])


# ---- configuration ----

def test_show_configuration(env):
    r = mgr(env, "show", "configuration")
    assert r.rc == 0, r
    lines = r.out.split("\n")
    assert lines[0].startswith("Configuration data as of ")
    assert "AccountingStorageType  = accounting_storage/slurmdbd" in lines
    assert "AccountingStoragePort  = %d" % env.dbd_port in lines
    assert "AuthType               = auth/munge" in lines \
        or "AuthType               = auth/slurm" in lines
    i = lines.index("SlurmDBD configuration:")
    assert lines[i - 1] == ""
    dbd = lines[i + 1:]
    assert "DbdPort                = %d" % env.dbd_port in dbd
    assert "StorageLoc             = %s" % env.db.db in dbd
    assert "StorageType            = accounting_storage/mysql" in dbd
    assert "TrackWCKey             = No" in dbd
    assert "SLURMDBD_CONF          = %s" % env.dbd_conf in dbd


def test_schema_14_upgrade_in_place(env):
    """A database of schema version 13 (no transaction, wckey or
    resource tables) is upgraded in place when slurmdbd starts ("to
    schema version 14"), its records kept; the new entities work after.
    (Last: it restarts slurmdbd.)"""
    assert mgr(env, "-i", "add", "account", "keepme").rc == 0
    env.db.sql("DROP TABLE txn_table, wckey_table, res_table, "
               "res_clus_table; DELETE FROM schema_version WHERE "
               "version >= 14", db=env.db.db)
    env.restart_dbd()
    assert "to schema version 14" in env.dbd_log_text()
    r = mgr(env, "-n", "-P", "show", "account", "keepme", "format=account")
    assert r.out == "keepme\n"
    assert mgr(env, "-i", "add", "wckey", "after", "user=root").rc == 0
    r = mgr(env, "-n", "-P", "show", "transaction", "format=action,where")
    assert r.out == "Add WCKeys|after\n", r.out
