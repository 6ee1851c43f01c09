"""One row description per field: sacct, sshare, sstat, sreport and
sacctmgr show print their table, -p/-P and --json from the same field
rows (src/cli/cli_table.h).  For the same query, every value in the table
equals the -P value and the --json member, field by field; the default
layouts (header names, widths, justification) are Slurm 22.05's, as its
commands print them (captured from the oracle, shared/oracle).

One cluster for the file: accounting through slurmdbd, priority/multifactor
(sshare), two users in one account, a finished job with steps, a failed
one and one running (sstat).
"""

import json
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
PRIO = ("PriorityType=priority/multifactor\nPriorityWeightFairshare=10000\n"
        "PriorityDecayHalfLife=01:00:00\nJobAcctGatherFrequency=1")

# Slurm 22.05's default headers and dash lines (oracle captures).
ORACLE = {
    "sshare": (
        "Account                    User  RawShares  NormShares    RawUsage"
        "  EffectvUsage  FairShare \n"
        "-------------------- ---------- ---------- ----------- -----------"
        " ------------- ---------- "),
    "sshare -l": (
        "Account                    User  RawShares  NormShares    RawUsage"
        "   NormUsage  EffectvUsage  FairShare    LevelFS                 "
        "   GrpTRESMins                    TRESRunMins \n"
        "-------------------- ---------- ---------- ----------- -----------"
        " ----------- ------------- ---------- ---------- ----------------"
        "-------------- ------------------------------ "),
    "sacctmgr user": ("      User   Def Acct     Admin \n"
                      "---------- ---------- --------- "),
    "sacctmgr account": ("   Account                Descr                  Org \n"
                         "---------- -------------------- -------------------- "),
    "sacctmgr tres": ("    Type            Name     ID \n"
                      "-------- --------------- ------ "),
    "sacctmgr reservation": (
        "   Cluster            Name                           TRES      "
        "     TimeStart             TimeEnd UnusedWall \n"
        "---------- --------------- ------------------------------ ------"
        "------------- ------------------- ---------- "),
    "sacctmgr transaction": (
        "               Time               Action      Actor           "
        "     Where                 Info \n"
        "------------------- -------------------- ---------- -----------"
        "--------- -------------------- "),
    "sacctmgr resource": (
        "      Name     Server     Type  Count % Allocated ServerType \n"
        "---------- ---------- -------- ------ ----------- ---------- "),
    "sacctmgr wckey": ("     WCKey    Cluster       User \n"
                       "---------- ---------- ---------- "),
    "sacctmgr problem": (
        "   Cluster    Account       User                               "
        "   Problem \n"
        "---------- ---------- ---------- -------------------------------"
        "--------- "),
    "sacctmgr user withcoord": (
        "      User   Def Acct     Admin       Coord Accounts \n"
        "---------- ---------- --------- -------------------- "),
    "sacctmgr user withassoc": (
        "      User   Def Acct     Admin    Cluster    Account  Partition"
        "     Share   Priority MaxJobs MaxNodes  MaxCPUs MaxSubmit     Ma"
        "xWall  MaxCPUMins                  QOS   Def QOS \n"
        "---------- ---------- --------- ---------- ---------- ----------"
        " --------- ---------- ------- -------- -------- --------- ------"
        "----- ----------- -------------------- --------- "),
    "sacctmgr assoc%-20": ("Account              Use     Share \n"
                           "-------------------- --- --------- "),
    "sacctmgr assoc%0": ("   Account       User     Share \n"
                         "---------- ---------- --------- "),
    "sreport utilization": (
        "  Cluster Allocate     Down PLND Dow     Idle  Planned Reported \n"
        "--------- -------- -------- -------- -------- -------- -------- "),
    "sstat cut": ("JobID        Max     AveCPU   NTasks  MaxVMSizeNode \n"
                  "------------ --- ---------- -------- -------------- "),
}

# Every sacct field 22.05 also has: its default width in 22.05's table
# (negative: left-justified; positive where the name fills the column).
SACCT_2205_WIDTHS = [
    ("Account", 10), ("AdminComment", 15), ("AllocCPUS", 10),
    ("AllocNodes", 10), ("AllocTRES", 10), ("AssocID", 7), ("AveCPU", 10),
    ("AveCPUFreq", 10), ("AveDiskRead", 14), ("AveDiskWrite", 14),
    ("AvePages", 10), ("AveRSS", 10), ("AveVMSize", 10), ("Cluster", 10),
    ("Comment", 14), ("Constraints", 19), ("ConsumedEnergy", 14),
    ("ConsumedEnergyRaw", 17), ("CPUTime", 10), ("CPUTimeRAW", 10),
    ("DerivedExitCode", 15), ("Elapsed", 10), ("ElapsedRaw", 10),
    ("Eligible", 19), ("End", 19), ("ExitCode", 8), ("GID", 6), ("Group", 9),
    ("JobID", -12), ("JobIDRaw", -12), ("JobName", 10), ("MaxDiskRead", 12),
    ("MaxDiskReadNode", 15), ("MaxDiskReadTask", 15), ("MaxDiskWrite", 12),
    ("MaxDiskWriteNode", 16), ("MaxDiskWriteTask", 16), ("MaxPages", 8),
    ("MaxPagesNode", 12), ("MaxPagesTask", 14), ("MaxRSS", 10),
    ("MaxRSSNode", 10), ("MaxRSSTask", 10), ("MaxVMSize", 10),
    ("MaxVMSizeNode", 14), ("MaxVMSizeTask", 14), ("MinCPU", 10),
    ("MinCPUNode", 10), ("MinCPUTask", 10), ("NCPUS", 10), ("NNodes", 8),
    ("NodeList", 15), ("NTasks", 8), ("Partition", 10), ("Priority", 10),
    ("QOS", 10), ("Reason", 22), ("ReqCPUFreqGov", 13), ("ReqCPUFreqMax", 13),
    ("ReqCPUFreqMin", 13), ("ReqCPUS", 8), ("ReqMem", 10), ("ReqTRES", 10),
    ("Start", 19), ("State", 10), ("Submit", 19), ("SubmitLine", 20),
    ("Suspended", 10), ("SystemCPU", 10), ("Timelimit", 10), ("TimelimitRaw", 10),
    ("TotalCPU", 10), ("TRESUsageInAve", 14), ("TRESUsageInMax", 14),
    ("TRESUsageInMaxNode", 18), ("TRESUsageInMaxTask", 18),
    ("TRESUsageInMin", 14), ("TRESUsageInMinNode", 18),
    ("TRESUsageInMinTask", 18), ("TRESUsageInTot", 14),
    ("TRESUsageOutAve", 15), ("TRESUsageOutMax", 15),
    ("TRESUsageOutMaxNode", 19), ("TRESUsageOutMaxTask", 19),
    ("TRESUsageOutTot", 15), ("UID", 6), ("User", 9), ("UserCPU", 10),
    ("WCKey", 10), ("WorkDir", 20),
]

# sstat's fields in 22.05's order (sstat -e) with their widths; 22.05's
# Pids is not offered.
SSTAT_2205_WIDTHS = [
    ("AveCPU", 10), ("AveCPUFreq", 10), ("AveDiskRead", 12),
    ("AveDiskWrite", 12), ("AvePages", 10), ("AveRSS", 10), ("AveVMSize", 10),
    ("ConsumedEnergy", 14), ("ConsumedEnergyRaw", 17), ("JobID", -12),
    ("MaxDiskRead", 12), ("MaxDiskReadNode", 15), ("MaxDiskReadTask", 15),
    ("MaxDiskWrite", 12), ("MaxDiskWriteNode", 16), ("MaxDiskWriteTask", 16),
    ("MaxPages", 8), ("MaxPagesNode", 12), ("MaxPagesTask", 14),
    ("MaxRSS", 10), ("MaxRSSNode", 10), ("MaxRSSTask", 10), ("MaxVMSize", 10),
    ("MaxVMSizeNode", 14), ("MaxVMSizeTask", 14), ("MinCPU", 10),
    ("MinCPUNode", 10), ("MinCPUTask", 10), ("Nodelist", 20), ("NTasks", 8),
    ("ReqCPUFreq", 10), ("ReqCPUFreqMin", 13), ("ReqCPUFreqMax", 13),
    ("ReqCPUFreqGov", 13), ("TRESUsageInAve", 14), ("TRESUsageInMax", 14),
    ("TRESUsageInMaxNode", 18), ("TRESUsageInMaxTask", 18),
    ("TRESUsageInMin", 14), ("TRESUsageInMinNode", 18),
    ("TRESUsageInMinTask", 18), ("TRESUsageInTot", 14),
    ("TRESUsageOutAve", 15), ("TRESUsageOutMax", 15),
    ("TRESUsageOutMaxNode", 19), ("TRESUsageOutMaxTask", 19),
    ("TRESUsageOutMin", 15), ("TRESUsageOutMinNode", 19),
    ("TRESUsageOutMinTask", 19), ("TRESUsageOutTot", 15),
]


@pytest.fixture(scope="module")
def env(users):
    e = mariadb.AcctEnv(tag="outfields", nodes=2)
    e.c.extra_conf += "\n" + PRIO
    try:
        e.start()
        e.start_cluster()
        for args in (["add", "account", "physics"],
                     ["add", "user", A, B, "account=physics"]):
            r = e.sacctmgr("-i", *args)
            assert r.rc == 0, r
        c = e.c
        srun = c.bins["srun"]
        e.done = [
            c.sbatch(["-J", "steps", "-n", "2", "--wrap",
                      "%s hostname; %s -n1 false; exit 0" % (srun, srun)],
                     user=A),
            c.sbatch(["-J", "a_rather_long_job_name", "--wrap", "exit 3"],
                     user=B),
        ]
        e.running = c.sbatch(["-J", "runner", "-N", "1", "--wrap",
                              "%s sleep 300" % srun], user=A)
        for j in e.done:
            c.wait_done(j)
        c.wait_state(e.running, "RUNNING")
    except BaseException:
        e.stop()
        raise
    yield e
    e.stop()
    e.cleanup()


def run(e, cmd, *args, user=None):
    r = e.c.run([e.c.bins[cmd]] + list(args), user=user)
    assert r.rc == 0, r
    return r.out


def table_cells(out, widths):
    """The cells of a table printed with the given column widths
    (header and dash lines dropped)."""
    rows = []
    for line in out.splitlines()[2:]:
        cells, pos = [], 0
        for w in widths:
            cells.append(line[pos:pos + w].strip())
            pos += w + 1
        rows.append(cells)
    return rows


def parsable_cells(out):
    return [line.split("|") for line in out.splitlines()[1:]]


def until(pred, what, timeout=30):
    deadline = time.time() + timeout
    while True:
        v = pred()
        if v or time.time() > deadline:
            assert v, what
            return v
        time.sleep(0.5)


# ---------------------------------------------------------------------------


def test_sacct_table_parsable_json_agree(env):
    fields = ["JobIDRaw", "JobName", "Account", "Partition", "User",
              "State", "ExitCode", "NNodes", "NodeList", "Elapsed"]
    ids = ",".join(str(j) for j in env.done)
    fmt = ",".join("%s%%-30" % f for f in fields)
    until(lambda: len(parsable_cells(run(env, "sacct", "-P", "-j", ids,
                                         "-o", "State"))) >= 5,
          "sacct has both jobs and their steps")
    tab = table_cells(run(env, "sacct", "-j", ids, "-o", fmt), [30] * 10)
    par = parsable_cells(run(env, "sacct", "-P", "-j", ids, "-o",
                             ",".join(fields)))
    assert tab == par, (tab, par)
    doc = json.loads(run(env, "sacct", "--json", "-j", ids))
    jobs = {str(j["job_id"]): j for j in doc["jobs"]}
    seen = 0
    for row in par:
        r = dict(zip(fields, row))
        if "." in r["JobIDRaw"]:
            jid, sid = r["JobIDRaw"].split(".", 1)
            steps = {s["step"]["id"]["step"] if isinstance(
                s["step"]["id"], dict) else s["step"]["id"]: s
                for s in jobs[jid]["steps"]}
            s = steps.get(sid) or steps.get("%s.%s" % (jid, sid))
            assert s is not None, (r, list(steps))
            assert s["step"]["name"] == r["JobName"], (r, s)
            assert s["state"] == [r["State"]], (r, s)
            assert s["nodes"]["range"] == r["NodeList"], (r, s)
            assert str(s["nodes"]["count"]) == r["NNodes"], (r, s)
            continue
        j = jobs[r["JobIDRaw"]]
        seen += 1
        assert j["name"] == r["JobName"], (r, j)
        assert j["account"] == r["Account"], (r, j)
        assert j["partition"] == r["Partition"], (r, j)
        assert j["user"] == r["User"], (r, j)
        assert j["state"]["current"] == [r["State"]], (r, j)
        assert j["nodes"] == r["NodeList"], (r, j)
        rc, sig = r["ExitCode"].split(":")
        assert j["exit_code"]["return_code"]["number"] == int(rc), (r, j)
        h, m, s = (int(x) for x in r["Elapsed"].split("-")[-1].split(":"))
        assert j["time"]["elapsed"] == h * 3600 + m * 60 + s, (r, j)
    assert seen == 2


def test_sacct_default_layout_is_slurms(env):
    out = run(env, "sacct", "-X", "-j", str(env.done[1]))
    lines = out.splitlines()
    assert lines[0] == ("JobID           JobName  Partition    Account  "
                        "AllocCPUS      State ExitCode "), lines
    assert lines[2].split()[1] == "a_rather_+", lines


def test_sacct_widths_are_slurms(env):
    """The header and dash line of every field 22.05 has, as 22.05
    prints them."""
    want, dash = "", ""
    for name, w in SACCT_2205_WIDTHS:
        a = abs(w)
        want += (name[:a].ljust(a) if w < 0 else name[:a].rjust(a)) + " "
        dash += "-" * a + " "
    out = run(env, "sacct", "-X", "-j", str(env.done[0]), "-o",
              ",".join(n for n, _ in SACCT_2205_WIDTHS)).splitlines()
    assert out[0] == want
    assert out[1] == dash


def test_sshare_table_parsable_json_agree(env):
    fields = ["Account", "User", "RawShares", "RawUsage", "FairShare"]
    fmt = ",".join("%s%%-30" % f for f in fields)
    tab = table_cells(run(env, "sshare", "-a", "-o", fmt), [30] * 5)
    par = parsable_cells(run(env, "sshare", "-a", "-P", "-o",
                             ",".join(fields)))
    assert [[c.strip() for c in r] for r in par] == tab, (tab, par)
    assert {A, B} <= {r[1] for r in tab}, tab
    doc = json.loads(run(env, "sshare", "-a", "--json"))
    shares = doc["shares"]["shares"]
    assert len(shares) == len(par), (shares, par)
    for s, row in zip(shares, par):
        r = dict(zip(fields, row))
        assert s["name"] == (r["User"] or r["Account"].strip()), (r, s)
        if r["RawShares"] not in ("", "parent"):
            assert s["shares"]["number"] == int(r["RawShares"]), (r, s)
        assert s["usage"] == int(r["RawUsage"]), (r, s)
    tab = run(env, "sshare", "-a").splitlines()
    assert "\n".join(tab[:2]) == ORACLE["sshare"]
    tab = run(env, "sshare", "-a", "-l").splitlines()
    assert "\n".join(tab[:2]) == ORACLE["sshare -l"]


def test_sacctmgr_table_parsable_json_agree(env):
    tab = table_cells(run(env, "sacctmgr", "show", "user",
                          "format=user%-30,defaultaccount%-30,"
                          "adminlevel%-30"), [30] * 3)
    par = parsable_cells(run(env, "sacctmgr", "-P", "show", "user"))
    assert tab == par and len(par) == 3, (tab, par)
    doc = json.loads(run(env, "sacctmgr", "--json", "show", "user"))
    users = {u["name"]: u for u in doc["users"]}
    assert sorted(users) == sorted(r[0] for r in par)
    for name, acct, admin in par:
        assert users[name]["default"]["account"] == acct, users[name]
        assert users[name]["administrator_level"] == [admin], users[name]
    assert "\n".join(run(env, "sacctmgr", "show", "user").splitlines()[:2]) \
        == ORACLE["sacctmgr user"]
    assert "\n".join(run(env, "sacctmgr", "show", "account")
                     .splitlines()[:2]) == ORACLE["sacctmgr account"]
    for what in ("tres", "reservation", "transaction", "resource", "wckey",
                 "problem", "user withcoord", "user withassoc"):
        out = run(env, "sacctmgr", "show", *what.split())
        assert "\n".join(out.splitlines()[:2]) == \
            ORACLE["sacctmgr " + what], (what, out)
    # %-N left-justifies, %0 keeps the default width, as Slurm's
    out = run(env, "sacctmgr", "show", "assoc",
              "format=account%-20,user%3,share")
    assert "\n".join(out.splitlines()[:2]) == ORACLE["sacctmgr assoc%-20"]
    assert out.splitlines()[3].startswith("root                 ro+ "), out
    out = run(env, "sacctmgr", "show", "assoc",
              "format=account%0,user%0,share%0")
    assert "\n".join(out.splitlines()[:2]) == ORACLE["sacctmgr assoc%0"]


# sacctmgr show's columns and where the same value sits in --json (Slurm
# 25.05's data_parser v0.0.43), with how the table writes the JSON value.
def _num(v):
    return str(v["number"]) if v["set"] and not v["infinite"] else ""


def _wall(v):
    m = v["number"] if v["set"] and not v["infinite"] else None
    if m is None:
        return ""
    d, h, mi = m // 1440, m // 60 % 24, m % 60
    return ("%d-" % d if d else "") + "%02d:%02d:00" % (h, mi)


def _secs(s):
    d = s // 86400
    return ("%d-" % d if d else "") + "%02d:%02d:%02d" % (
        s // 3600 % 24, s // 60 % 60, s % 60)


def _tres(v):
    return ",".join("%s%s=%d" % (t["type"], "/" + t["name"] if t["name"]
                                 else "", t["count"]) for t in v)


def _same(v):
    return v


def _int(v):
    return str(v)


_ASSOC_LIMITS = [
    ("GrpJobs", "max/jobs/active", _num),
    ("GrpTRES", "max/tres/total", _tres),
    ("GrpSubmit", "max/jobs/total", _num),
    ("GrpWall", "max/per/account/wall_clock", _wall),
    ("GrpTRESMins", "max/tres/group/minutes", _tres),
    ("GrpTRESRunMins", "max/tres/group/active", _tres),
    ("MaxJobs", "max/jobs/per/count", _num),
    ("MaxTRES", "max/tres/per/job", _tres),
    ("MaxTRESPerNode", "max/tres/per/node", _tres),
    ("MaxSubmit", "max/jobs/per/submitted", _num),
    ("MaxWall", "max/jobs/per/wall_clock", _wall),
    ("MaxTRESMins", "max/tres/minutes/per/job", _tres),
]
SACCTMGR_JSON = {
    "account": ("accounts", "Account", [
        ("Account", "name", _same), ("Description", "description", _same),
        ("Organization", "organization", _same)]),
    "user": ("users", "User", [
        ("User", "name", _same), ("DefaultAccount", "default/account", _same),
        ("DefaultWCKey", "default/wckey", _same),
        ("AdminLevel", "administrator_level", lambda v: v[0])]),
    "assoc": ("associations", "ID", [
        ("ID", "id", _int), ("Cluster", "cluster", _same),
        ("Account", "account", _same), ("User", "user", _same),
        ("Partition", "partition", _same), ("Share", "shares_raw", _int),
        ("Priority", "priority", _num), ("QOS", "qos", ",".join),
        ("DefaultQOS", "default/qos", _same)] + _ASSOC_LIMITS),
    "qos": ("qos", "Name", [
        ("Name", "name", _same), ("Description", "description", _same),
        ("ID", "id", _int), ("Priority", "priority", _num),
        ("GraceTime", "limits/grace_time", _secs),
        ("Preempt", "preempt/list", ",".join),
        ("UsageFactor", "usage_factor", lambda v: "%f" % v["number"]),
        ("GrpJobs", "limits/max/active_jobs/count", _num),
        ("GrpSubmit", "limits/max/jobs/count", _num),
        ("GrpWall", "limits/max/wall_clock/per/qos", _wall),
        ("GrpTRES", "limits/max/tres/total", _tres),
        ("GrpTRESMins", "limits/max/tres/minutes/total", _tres),
        ("GrpTRESRunMins", "limits/max/tres/minutes/per/qos", _tres),
        ("MaxTRES", "limits/max/tres/per/job", _tres),
        ("MaxTRESMins", "limits/max/tres/minutes/per/job", _tres),
        ("MaxWall", "limits/max/wall_clock/per/job", _wall),
        ("MaxTRESPU", "limits/max/tres/per/user", _tres),
        ("MaxJobsPU", "limits/max/jobs/active_jobs/per/user", _num),
        ("MaxSubmitPU", "limits/max/jobs/per/user", _num)]),
    "cluster": ("clusters", "Cluster", [
        ("Cluster", "name", _same), ("ControlHost", "controller/host", _same),
        ("ControlPort", "controller/port", _int),
        ("RPC", "rpc_version", _int)]),
    "wckey": ("wckeys", "ID", [
        ("ID", "id", _int), ("WCKey", "name", _same),
        ("Cluster", "cluster", _same), ("User", "user", _same)]),
    "tres": ("TRES", "ID", [
        ("ID", "id", _int), ("Type", "type", _same),
        ("Name", "name", _same)]),
}


# What the table shows an association inherits from the accounts above it
# when it has none of its own (as Slurm 22.05 prints them); --json shows
# the association's own value (unset there).
INHERITED = ("MaxJobs", "MaxSubmit", "MaxWall", "Priority", "DefaultQOS",
             "MaxTRES", "MaxTRESPerNode", "MaxTRESMins")


def _at(doc, path):
    for k in path.split("/"):
        doc = doc[k]
    return doc


def test_sacctmgr_every_entity_table_parsable_json_agree(env):
    """For each entity with a JSON form: every column with a JSON place,
    printed as a table (wide columns), -P and --json, agree value by
    value, rows matched by their key."""
    for args in (
            ["add", "qos", "jq", "Priority=10", "GrpJobs=4", "GraceTime=30",
             "MaxWall=90", "GrpWall=3000", "MaxTRESPU=cpu=4",
             "GrpTRES=cpu=16,node=2", "MaxJobsPU=2", "MaxSubmitJobsPU=5",
             "UsageFactor=2", "Preempt=normal", "MaxTRESMins=cpu=600",
             "Description=json qos"],
            ["add", "account", "jsonacct", "Description=for json",
             "Organization=lab", "GrpJobs=7", "MaxWall=1-00:00:00",
             "GrpTRES=cpu=8", "MaxTRES=cpu=2,node=1", "MaxSubmit=9",
             "GrpTRESMins=cpu=1000", "Priority=3", "Fairshare=5"],
            ["add", "user", B, "account=jsonacct", "MaxJobs=3",
             "GrpSubmit=11", "GrpWall=120", "MaxTRESPerNode=cpu=1"],
            ["add", "wckey", "wk1", "user=" + B],
            ["add", "wckey", "wk2", "user=" + B]):
        r = env.sacctmgr("-i", *args)
        assert r.rc == 0, (args, r)
    for ent, (key, by, cols) in SACCTMGR_JSON.items():
        names = [c for c, _, _ in cols]
        fmt = "format=" + ",".join("%s%%-60" % c for c in names)
        tab = table_cells(run(env, "sacctmgr", "show", ent, fmt),
                          [60] * len(names))
        par = parsable_cells(run(env, "sacctmgr", "-P", "show", ent,
                                 "format=" + ",".join(names)))
        assert tab == par and par, (ent, tab, par)
        doc = json.loads(run(env, "sacctmgr", "--json", "show", ent))
        recs = doc[key]
        assert len(recs) == len(par), (ent, recs, par)
        path = dict((c, p) for c, p, _ in cols)[by]
        conv = dict((c, f) for c, _, f in cols)[by]
        by_key = {conv(_at(r, path)): r for r in recs}
        assert len(by_key) == len(recs), (ent, recs)
        checked = 0
        for row in par:
            rec = by_key[row[names.index(by)]]
            for (col, p, f), cell in zip(cols, row):
                v = f(_at(rec, p))
                if ent == "assoc" and col in INHERITED and v == "":
                    continue
                assert v == cell, (ent, col, cell, rec)
                checked += bool(cell)
        assert checked >= len(par), (ent, par)
    # the values set above are there, not only empty cells
    out = run(env, "sacctmgr", "-P", "-n", "show", "qos", "jq",
              "format=GrpJobs,MaxWall,MaxTRESPU,UsageFactor,GraceTime")
    assert out.strip() == "4|01:30:00|cpu=4|2.000000|00:00:30", out


def test_sreport_has_no_json(env):
    """Slurm 25.05's sreport has no --json/--yaml: refused as an unknown
    option, as Slurm's getopt does."""
    for opt in ("--json", "--yaml"):
        r = env.c.run([env.c.bins["sreport"], opt, "cluster",
                       "utilization"])
        assert r.rc == 1, r
        assert r.out == "", r
        assert r.err.endswith("unrecognized option '%s'\nTry \"sreport "
                              "--help\" for more information\n" % opt), r


def test_sstat_table_parsable_agree(env):
    jid = str(env.running)
    fields = ["JobID", "MaxRSS", "MaxRSSNode", "AveCPU", "NTasks"]
    fmt = ",".join("%s%%-30" % f for f in fields)
    until(lambda: parsable_cells(run(env, "sstat", "-a", "-P", "-j", jid)),
          "sstat shows the running step")
    tab = table_cells(run(env, "sstat", "-a", "-j", jid, "-o", fmt),
                      [30] * 5)
    par = parsable_cells(run(env, "sstat", "-a", "-P", "-j", jid, "-o",
                             ",".join(fields)))
    assert len(tab) == 1 and tab[0][0] == jid + ".0", tab
    # MaxRSS and AveCPU move while the step runs: the fixed ones agree
    assert [[r[0], r[2], r[4]] for r in tab] == \
        [[r[0], r[2], r[4]] for r in par], (tab, par)
    # Slurm's layout: headers cut without '+', names by unique prefix
    out = run(env, "sstat", "-a", "-j", jid, "-o",
              "JobID,MaxRSS%3,AveCPU,NT,MaxVMSizeNode")
    assert "\n".join(out.splitlines()[:2]) == ORACLE["sstat cut"]


def test_sstat_fields_and_widths_are_slurms(env):
    names = run(env, "sstat", "-e").split()
    assert names == [n for n, _ in SSTAT_2205_WIDTHS]
    want, dash = "", ""
    for name, w in SSTAT_2205_WIDTHS:
        a = abs(w)
        want += (name[:a].ljust(a) if w < 0 else name[:a].rjust(a)) + " "
        dash += "-" * a + " "
    out = run(env, "sstat", "-a", "-j", str(env.running), "-o",
              ",".join(names)).splitlines()
    assert out[:2] == [want, dash]
    assert out[2].split()[names.index("Nodelist")] in ("n1", "n2"), out


def test_sreport_table_parsable_agree(env):
    fields = ["Cluster", "Allocated", "Idle", "Reported"]
    tab = run(env, "sreport", "-n", "cluster", "utilization",
              "start=now-1days", "end=now+1days",
              "format=" + ",".join(fields)).splitlines()
    par = run(env, "sreport", "-n", "-P", "cluster", "utilization",
              "start=now-1days", "end=now+1days",
              "format=" + ",".join(fields)).splitlines()
    assert len(tab) == 1 and tab[0].split()[0] == "sluice", tab
    assert [line.split() for line in tab] == \
        [line.split("|") for line in par], (tab, par)
    out = run(env, "sreport", "cluster", "utilization").splitlines()
    assert "\n".join(out[4:6]) == ORACLE["sreport utilization"], out
    # an unknown column is reported, the others kept (exit 1)
    r = env.c.run([env.c.bins["sreport"], "cluster", "utilization",
                   "format=cluster,nosuch,idle"])
    assert r.rc == 1 and " Unknown field 'nosuch'" in r.err, r
    assert r.out.splitlines()[4].split() == ["Cluster", "Idle"], r.out


# ---- sdiag: one row per figure (src/cli/cli_diag.c) ----------------------

# sdiag's label of each figure and its member in --json (Slurm 25.05's
# stats_msg, the same document as slurmrestd's GET diag).
SDIAG = [
    ("Server thread count:", "server_thread_count"),
    ("Agent queue size:", "agent_queue_size"),
    ("Agent count:", "agent_count"),
    ("Agent thread count:", "agent_thread_count"),
    ("DBD Agent queue size:", "dbd_agent_queue_size"),
    ("Jobs submitted:", "jobs_submitted"),
    ("Jobs started:", "jobs_started"),
    ("Jobs completed:", "jobs_completed"),
    ("Jobs canceled:", "jobs_canceled"),
    ("Jobs failed:", "jobs_failed"),
    ("Jobs pending:", "jobs_pending"),
    ("Jobs running:", "jobs_running"),
    ("Total backfilled jobs (since last slurm start):", "bf_backfilled_jobs"),
    ("Total backfilled jobs (since last stats cycle start):",
     "bf_last_backfilled_jobs"),
]


# Slurm 22.05's sdiag lines up to the RPC lists, numbers and dates
# replaced by N (oracle, sched/backfill, no jobs yet).
ORACLE_SDIAG = """\
*******************************************************
sdiag output at D
Data since      D
*******************************************************
Server thread count:  N
Agent queue size:     N
Agent count:          N
Agent thread count:   N
DBD Agent queue size: N

Jobs submitted: N
Jobs started:   N
Jobs completed: N
Jobs canceled:  N
Jobs failed:    N

Job states ts:  D
Jobs pending:   N
Jobs running:   N

Main schedule statistics (microseconds):
\tLast cycle:   N
\tMax cycle:    N
\tTotal cycles: N
\tMean cycle:   N
\tMean depth cycle:  N
\tLast queue length: N

Backfilling stats
\tTotal backfilled jobs (since last slurm start): N
\tTotal backfilled jobs (since last stats cycle start): N
\tTotal backfilled heterogeneous job components: N
\tTotal cycles: N
\tLast cycle when: N/A
\tLast cycle: N
\tMax cycle:  N
\tLast depth cycle: N
\tLast depth cycle (try sched): N
\tLast queue length: N
\tLast table size: N

Latency for N calls to gettimeofday(): N microseconds

Remote Procedure Call statistics by message type
"""


def _sdiag_masked(out):
    import re
    out = re.sub(r"\w{3} \w{3} \d\d \d\d:\d\d:\d\d \d{4} \(\d+\)", "D", out)
    out = re.sub(r"\d+", "N", out)
    # 22.05 prints "Cycles per minute" only after a minute
    return "\n".join(ln for ln in out.split("\n")
                     if "Cycles per minute" not in ln)


def _sdiag_text(out):
    vals = {}
    for line in out.splitlines():
        if ":" in line and not line.startswith("\t" * 2):
            k, _, v = line.strip().rpartition(":")
            vals.setdefault(k + ":", v.strip())
    return vals


def test_sdiag_text_and_json_agree(env):
    # bad input first: Slurm's messages, nothing printed on stdout
    r = env.c.run([env.c.bins["sdiag"], "--bogus"])
    assert r.rc != 0 and "sdiag --help" in r.err and not r.out, r
    r = env.c.run([env.c.bins["sdiag"], "extra"])
    assert r.rc != 0 and "Unknown argument: extra" in r.err, r
    # the controller's counters move only with jobs: none start here
    doc = json.loads(run(env, "sdiag", "--json"))
    text = run(env, "sdiag")
    again = json.loads(run(env, "sdiag", "--json"))
    st, st2 = doc["statistics"], again["statistics"]
    vals = _sdiag_text(text)
    for label, key in SDIAG:
        assert st[key] == st2[key], key
        assert vals[label] == str(st[key]), (label, key, text)
    # every member Slurm 25.05's stats_msg has, with its shape
    for key in ("schedule_queue_length", "schedule_cycle_per_minute",
                "gettimeofday_latency", "bf_backfilled_het_jobs",
                "parts_packed", "pending_rpcs", "pending_rpcs_by_hostlist",
                "rpcs_by_message_type", "rpcs_by_user", "bf_exit",
                "schedule_exit", "req_time", "job_states_ts"):
        assert key in st, key
    assert "schedule_queue_len" not in st
    assert isinstance(st["pending_rpcs"], list)
    assert set(st["schedule_exit"]) == {
        "end_job_queue", "default_queue_depth", "max_job_start",
        "max_rpc_cnt", "max_sched_time", "licenses"}
    assert st["req_time"]["set"] and st["req_time"]["number"] > 0
    # the RPC lines are the JSON's rows (sdiag's own call counts between)
    lines = [ln for ln in text.split(
        "Remote Procedure Call statistics by message type\n")[1]
        .split("\n\n")[0].splitlines()]
    types = {r["message_type"] for r in st["rpcs_by_message_type"]}
    assert {ln.split("(")[0].strip() for ln in lines} == types | {
        "REQUEST_STATS_INFO"}
    counts = [r["count"] for r in st["rpcs_by_message_type"]]
    assert counts == sorted(counts, reverse=True)
    # -i sorts by id, in the text and the JSON alike
    ids = [r["type_id"] for r in json.loads(
        run(env, "sdiag", "-i", "--json"))["statistics"]
        ["rpcs_by_message_type"]]
    assert ids == sorted(ids)
    # Slurm 22.05's layout, line by line (this cluster has run jobs:
    # the backfill figures that 22.05 prints only then are left out)
    masked = _sdiag_masked(text)
    head = masked.split("Remote Procedure Call statistics by message "
                        "type\n")[0]
    keep = [ln for ln in head.split("\n")
            if not ln.startswith(("\tMean cycle: N", "\tDepth Mean",
                                  "\tQueue length mean", "\tMean table"))
            or "Mean cycle:   " in ln]
    want = ORACLE_SDIAG.split("Remote Procedure Call statistics by "
                              "message type\n")[0].split("\n")
    want = [ln.replace("Last cycle when: N/A", "Last cycle when: D")
            if "Last cycle when" in ln and "N/A" not in head else ln
            for ln in want]
    assert keep == want, (keep, want)
    y = run(env, "sdiag", "--yaml")
    assert "statistics:" in y and "jobs_submitted:" in y
