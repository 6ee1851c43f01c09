"""Associations, QOS and limits (AccountingStorageEnforce) against a real
slurmdbd on a private MariaDB.

One environment for the module: cluster "sluice" with two 2-CPU nodes,
account "proj" with user sluice_u1 (sluice_u2 has no association),
enforcement on.  Tests run in order; each sets the limits it needs with
sacctmgr and waits for the controller to reload its association cache
(slurmdbd tells it after every committed change).
"""

import os
import re
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cluster as cl  # noqa: E402
import mariadb  # noqa: E402

pytestmark = pytest.mark.skipif(bool(mariadb.missing_tools()),
                                reason="MariaDB server not installed: %s"
                                % ", ".join(mariadb.missing_tools()))

U1, U2 = "sluice_u1", "sluice_u2"
RELOAD_RE = re.compile(r"assoc_mgr: \d+ associations.*generation (\d+)")


def reloads(env):
    return [int(m.group(1)) for m in RELOAD_RE.finditer(env.c.log_text())]


@pytest.fixture(scope="module")
def env(users):
    e = mariadb.AcctEnv(tag="assoc", nodes=2)
    e.c.extra_conf += ("\nAccountingStorageEnforce=associations,limits,"
                       "qos,safe\nPriorityType=priority/multifactor\n"
                       "PriorityWeightQOS=10000\nPriorityWeightAge=0\n"
                       "PriorityWeightFairshare=0\n")
    try:
        e.start()
        for args in (("add", "cluster", "sluice"),
                     ("add", "account", "proj", "cluster=sluice"),
                     ("add", "user", U1, "account=proj"),
                     ("add", "qos", "high", "priority=100")):
            r = e.sacctmgr("-i", *args)
            assert r.rc == 0, r
        e.start_cluster()
    except BaseException:
        e.stop()
        raise
    yield e
    e.finish()


def change(env, *args):
    """sacctmgr -i args, then wait until the controller has reloaded."""
    before = max(reloads(env) or [0])
    r = env.sacctmgr("-i", *args)
    assert r.rc == 0, r
    deadline = time.time() + 20
    while time.time() < deadline:
        if max(reloads(env) or [0]) > before:
            return r
        time.sleep(0.1)
    raise AssertionError("controller did not reload after sacctmgr %s\n%s"
                         % (args, env.c.log_tails()))


def sbatch(env, *args, user=U1):
    return env.c.run(["sbatch", "-o", "/dev/null"] + list(args) +
                     ["--wrap", "sleep 300"], user=user)


def job_id(r):
    m = re.fullmatch(r"Submitted batch job (\d+)\n", r.out)
    assert r.rc == 0 and m, r
    return int(m.group(1))


def cancel_all(env):
    env.c.run(["scancel", "-u", U1])
    deadline = time.time() + 30
    while time.time() < deadline:
        r = env.c.run(["squeue", "-h", "-u", U1, "-o", "%i"])
        if r.rc == 0 and not r.out.strip():
            return
        time.sleep(0.2)


def reason(env, jid, want, timeout=20):
    deadline = time.time() + timeout
    got = None
    while time.time() < deadline:
        got = env.c.show_job(jid).get("Reason")
        if got == want:
            return got
        time.sleep(0.2)
    return got


def test_user_without_association_is_rejected(env):
    r = sbatch(env, user=U2)
    assert r.rc == 1, r
    assert r.err == ("sbatch: error: Batch job submission failed: Invalid "
                     "account or account/partition combination specified\n")
    assert env.c.run(["squeue", "-h", "-u", U2]).out == ""
    r = sbatch(env, "-A", "nosuch")
    assert r.rc == 1 and "Invalid account" in r.err, r


def test_default_account_and_qos_filled(env):
    jid = job_id(sbatch(env))
    job = env.c.show_job(jid)
    assert job["Account"] == "proj" and job["QOS"] == "normal", job
    r = env.c.run(["squeue", "-h", "-j", str(jid), "-o", "%a %q"])
    assert r.out == "proj normal\n", r
    r = sbatch(env, "--qos=nosuch")
    assert r.rc == 1, r
    assert r.err.endswith("Invalid qos specification\n"), r
    cancel_all(env)
    # the account filled in is what slurmdbd records (sacct shows it)
    deadline = time.time() + 30
    while time.time() < deadline:
        r = env.sacct("-X", "-n", "-P", "-o", "JobIDRaw,Account,QOS",
                      "-j", str(jid))
        if r.out == "%d|proj|normal\n" % jid:
            break
        time.sleep(0.3)
    assert r.out == "%d|proj|normal\n" % jid, r


def test_max_jobs_keeps_third_pending(env):
    change(env, "modify", "user", U1, "set", "MaxJobs=2")
    ids = [job_id(sbatch(env)) for _ in range(3)]
    for jid in ids[:2]:
        env.c.wait_state(jid, "RUNNING", timeout=30)
    assert reason(env, ids[2], "AssocMaxJobsLimit") == "AssocMaxJobsLimit"
    assert env.c.job_state(ids[2]) == "PENDING"
    r = env.c.run(["squeue", "-h", "-j", str(ids[2]), "-o", "%r"])
    assert r.out == "AssocMaxJobsLimit\n", r
    # one ends: the third starts
    env.c.run(["scancel", str(ids[0])])
    env.c.wait_state(ids[2], "RUNNING", timeout=30)
    cancel_all(env)
    change(env, "modify", "user", U1, "set", "MaxJobs=-1")


def test_max_submit_rejects_at_submit(env):
    change(env, "modify", "user", U1, "set", "MaxSubmitJobs=2")
    ids = [job_id(sbatch(env)) for _ in range(2)]
    r = sbatch(env)
    assert r.rc == 1, r
    assert r.err == ("sbatch: error: AssocMaxSubmitJobLimit\n"
                     "sbatch: error: Batch job submission failed: Job "
                     "violates accounting/QOS policy (job submit limit, "
                     "user's size and/or time limits)\n"), r
    states = env.c.all_job_states()
    assert sorted(int(i) for i in states if states[i] in
                  ("PENDING", "RUNNING")) == ids
    cancel_all(env)
    change(env, "modify", "user", U1, "set", "MaxSubmitJobs=-1")


def prio(env, jid):
    r = env.c.run(["squeue", "-h", "-j", str(jid), "-o", "%Q"])
    assert r.rc == 0, r
    return int(r.out)


def test_qos_must_be_allowed_and_higher_priority_jumps_queue(env):
    r = sbatch(env, "--qos=high")
    assert r.rc == 1 and r.err.endswith("Invalid qos specification\n"), r
    change(env, "modify", "user", U1, "set", "qos=normal,high")
    fill = [job_id(sbatch(env)) for _ in range(4)]
    for jid in fill:
        env.c.wait_state(jid, "RUNNING", timeout=30)
    low = job_id(sbatch(env))
    high = job_id(sbatch(env, "--qos=high"))
    assert env.c.show_job(high)["QOS"] == "high"
    assert prio(env, high) > prio(env, low)
    r = env.c.run(["sprio", "-h", "--jobs=%d" % high, "-o", "%i %q"])
    assert r.out.split() == [str(high), "1.0000000"], r
    env.c.run(["scancel", str(fill[0])])
    env.c.wait_state(high, "RUNNING", timeout=30)
    assert env.c.job_state(low) == "PENDING"
    cancel_all(env)


def test_qos_user_limit_and_deny_on_limit(env):
    change(env, "modify", "qos", "high", "set", "MaxJobsPerUser=1")
    a = job_id(sbatch(env, "--qos=high"))
    b = job_id(sbatch(env, "--qos=high"))
    env.c.wait_state(a, "RUNNING", timeout=30)
    assert reason(env, b, "QOSMaxJobsPerUserLimit") == \
        "QOSMaxJobsPerUserLimit"
    cancel_all(env)
    change(env, "modify", "qos", "high", "set", "MaxJobsPerUser=-1",
           "MaxWall=10", "Flags=DenyOnLimit")
    r = sbatch(env, "--qos=high", "-t", "20")
    assert r.rc == 1, r
    assert r.err == ("sbatch: error: QOSMaxWallDurationPerJobLimit\n"
                     "sbatch: error: Batch job submission failed: Job "
                     "violates accounting/QOS policy (job submit limit, "
                     "user's size and/or time limits)\n"), r
    # no limit at all is over every MaxWall (issue 34, defect 3's class)
    for t in ("0", "UNLIMITED", "INFINITE"):
        r = sbatch(env, "--qos=high", "-t", t)
        assert (r.rc, r.err) == (1, "sbatch: error: QOSMaxWallDurationPerJobLimit\n"
                                 "sbatch: error: Batch job submission failed: "
                                 "Job violates accounting/QOS policy (job "
                                 "submit limit, user's size and/or time "
                                 "limits)\n"), (t, r)
    job_id(sbatch(env, "--qos=high", "-t", "5"))
    # no --time at all: the QOS's MaxWall becomes the job's limit, as
    # Slurm's acct policy does (the partition's is INFINITE)
    j = job_id(sbatch(env, "--qos=high"))
    assert env.c.show_job(j)["TimeLimit"] == "00:10:00"
    cancel_all(env)
    change(env, "modify", "qos", "high", "set", "MaxWall=-1", "Flags=-1")


def test_grp_cpu_limit_on_account(env):
    change(env, "modify", "account", "proj", "set", "GrpTRES=cpu=2")
    a = job_id(sbatch(env, "-n", "2"))
    b = job_id(sbatch(env))
    env.c.wait_state(a, "RUNNING", timeout=30)
    assert reason(env, b, "AssocGrpCpuLimit") == "AssocGrpCpuLimit"
    cancel_all(env)
    change(env, "modify", "account", "proj", "set", "GrpTRES=cpu=-1")


def squeue_reason(env, jid, want, timeout=20):
    """Poll squeue's %r for jid until it reads want; return what it read."""
    deadline = time.time() + timeout
    got = None
    while time.time() < deadline:
        r = env.c.run(["squeue", "-h", "-j", str(jid), "-o", "%T %r"])
        got = r.out.strip()
        if got == want:
            break
        time.sleep(0.2)
    return got


def test_max_tres_mins_and_grp_tres_run_mins(env):
    """MaxTRESMins is per job (CPUs x time limit); GrpTRESRunMins counts
    the remaining CPU-minutes of running jobs."""
    change(env, "modify", "user", U1, "set", "MaxTRESMins=cpu=20")
    a = job_id(sbatch(env, "-n", "2", "-t", "11"))
    b = job_id(sbatch(env, "-n", "2", "-t", "10"))
    assert squeue_reason(env, a, "PENDING AssocMaxCpuMinutesPerJobLimit") \
        == "PENDING AssocMaxCpuMinutesPerJobLimit"
    env.c.wait_state(b, "RUNNING", timeout=30)
    cancel_all(env)
    change(env, "modify", "user", U1, "set", "MaxTRESMins=cpu=-1")
    change(env, "modify", "account", "proj", "set", "GrpTRESRunMins=cpu=30")
    a = job_id(sbatch(env, "-t", "20"))
    env.c.wait_state(a, "RUNNING", timeout=30)
    # sshare -l: the limit is not GrpTRESMins (blank); TRESRunMins has
    # the running job's remaining 19-20 CPU-minutes
    r = env.c.run([env.c.bins["sshare"], "-l", "-P", "-n", "-A", "proj",
                   "-o", "Account,User,GrpTRESMins,TRESRunMins"])
    assert r.rc == 0, r
    acct = [ln for ln in r.out.splitlines() if ln.split("|")[1] == ""][0]
    assert re.fullmatch(r" proj\|\|\|cpu=(19|20),mem=\d+,energy=0,"
                        r"node=(19|20),billing=(19|20),fs/disk=0,vmem=0,"
                        r"pages=0", acct), r
    b = job_id(sbatch(env, "-t", "20"))
    assert squeue_reason(env, b, "PENDING AssocGrpCPURunMinutesLimit") \
        == "PENDING AssocGrpCPURunMinutesLimit"
    c = job_id(sbatch(env, "-t", "9"))      # 20 + 9 <= 30: fits
    env.c.wait_state(c, "RUNNING", timeout=30)
    env.c.run(["scancel", str(a)])
    env.c.wait_state(b, "RUNNING", timeout=30)
    cancel_all(env)
    change(env, "modify", "account", "proj", "set", "GrpTRESRunMins=cpu=-1")


def test_grp_tres_mins_from_usage_and_qos_deny(env):
    """GrpTRESMins counts the association's (fair-share) usage: a QOS
    with UsageFactor=100 makes a 1-second job use over a CPU-minute; the
    next job waits with AssocGrpCPUMinutesLimit until the limit grows.
    A DenyOnLimit QOS refuses a job over its MaxTRESMinsPerJob."""
    env.sacctmgr("-i", "add", "qos", "burn", "usagefactor=100")
    change(env, "modify", "user", U1, "set", "qos=normal,high,burn")
    change(env, "modify", "account", "proj", "set", "GrpTRESMins=cpu=1")
    r = env.c.run(["sbatch", "-o", "/dev/null", "-t", "1", "--qos=burn",
                   "--wrap", "sleep 1"], user=U1)
    first = job_id(r)
    env.c.wait_state(first, "COMPLETED", timeout=60)
    b = job_id(sbatch(env, "-t", "1"))
    assert squeue_reason(env, b, "PENDING AssocGrpCPUMinutesLimit") == \
        "PENDING AssocGrpCPUMinutesLimit"
    r = env.sacctmgr("-n", "-P", "show", "assoc", "where", "account=proj",
                     "user=", "format=Account,GrpTRESMins,GrpCPUMins")
    assert r.out == "proj|cpu=1|1\n", r
    r = env.c.run([env.c.bins["sshare"], "-l", "-P", "-n", "-A", "proj",
                   "-o", "Account,User,GrpTRESMins"])
    assert " proj||cpu=1" in r.out.splitlines(), r
    change(env, "modify", "account", "proj", "set", "GrpTRESMins=cpu=100000")
    env.c.wait_state(b, "RUNNING", timeout=30)
    cancel_all(env)
    change(env, "modify", "account", "proj", "set", "GrpTRESMins=cpu=-1")
    change(env, "modify", "qos", "burn", "set", "MaxTRESMinsPerJob=cpu=5",
           "Flags=DenyOnLimit")
    r = env.c.run(["sbatch", "-o", "/dev/null", "-t", "6", "--qos=burn",
                   "--wrap", "sleep 300"], user=U1)
    assert r.rc == 1, r
    assert r.err == ("sbatch: error: QOSMaxCpuMinutesPerJobLimit\n"
                     "sbatch: error: Batch job submission failed: Job "
                     "violates accounting/QOS policy (job submit limit, "
                     "user's size and/or time limits)\n"), r
    job_id(env.c.run(["sbatch", "-o", "/dev/null", "-t", "5", "--qos=burn",
                      "--wrap", "sleep 300"], user=U1))
    cancel_all(env)
    change(env, "modify", "user", U1, "set", "qos=normal,high")


@pytest.mark.skipif(os.environ.get("SLUICE_LIMITS_FULL") != "1",
                    reason="a minute long: SLUICE_LIMITS_FULL=1")
def test_running_job_ended_at_max_tres_mins(env):
    """A running job whose CPUs x minutes run reach MaxTRESMins (lowered
    after it started) ends as TIMEOUT, as Slurm's time-out check does."""
    jid = job_id(sbatch(env, "-n", "2", "-t", "10"))
    env.c.wait_state(jid, "RUNNING", timeout=30)
    change(env, "modify", "user", U1, "set", "MaxTRESMins=cpu=2")
    try:
        assert env.c.wait_state(jid, "TIMEOUT", timeout=150) == "TIMEOUT"
        r = env.c.run(["scontrol", "show", "job", str(jid)])
        assert "Reason=TimeLimit" in r.out, r
        assert "max tres minutes per job" in env.c.log_text()
    finally:
        cancel_all(env)
        change(env, "modify", "user", U1, "set", "MaxTRESMins=cpu=-1")


# ---- sacctmgr: what Slurm 22.05's printed for the same commands -----------

def test_sacctmgr_time_limits(env):
    r = env.sacctmgr("-i", "add", "account", "tacct", "fairshare=5",
                     "GrpJobs=3", "GrpTRES=cpu=4", "GrpTRESMins=cpu=100,"
                     "mem=2000", "GrpTRESRunMins=cpu=50", "GrpWall=10:00",
                     "MaxTRES=cpu=2", "MaxTRESMins=cpu=20,node=3",
                     "MaxTRESPerNode=cpu=1", "MaxWall=60", "Priority=3")
    assert r.rc == 0, r
    assert r.out.endswith(
        " Settings\n"
        "  Fairshare     = 5\n"
        "  GrpJobs       = 3\n"
        "  GrpTRES       = cpu=4\n"
        "  GrpTRESMins   = cpu=100,mem=2000M\n"
        "  GrpTRESRunMins= cpu=50\n"
        "  GrpWall       = 00:10:00\n"
        "  MaxTRES       = cpu=2\n"
        "  MaxTRESPerNode= cpu=1\n"
        "  MaxTRESMins   = cpu=20,node=3\n"
        "  MaxWall       = 01:00:00\n"
        "  Parent        = root\n"
        "  Priority      = 3\n"), r
    r = env.sacctmgr("-i", "add", "qos", "tq", "GrpTRESMins=cpu=100",
                     "GrpTRESRunMins=cpu=60", "MaxTRESMinsPerJob=cpu=30",
                     "GrpWall=5:00", "MaxTRESPerUser=cpu=3", "MaxWall=60")
    assert r.rc == 0, r
    assert r.out == (" Adding QOS(s)\n  tq\n Settings\n"
                     "  Description    = tq\n"
                     "  GrpTRESMins              = cpu=100\n"
                     "  GrpTRESRunMins           = cpu=60\n"
                     "  GrpWall                  = 00:05:00\n"
                     "  MaxTRESPerUser           = cpu=3\n"
                     "  MaxTRESMins              = cpu=30\n"
                     "  MaxWall                  = 01:00:00\n"), r
    # per TRES merge, as the other TRES limits
    r = env.sacctmgr("-i", "modify", "account", "tacct", "set",
                     "GrpTRESMins=cpu=200", "MaxTRESMins=node=4",
                     "GrpTRESRunMins=cpu=-1")
    assert r.rc == 0, r
    r = env.sacctmgr("-i", "modify", "qos", "tq", "set",
                     "GrpTRESMins=cpu=200", "MaxTRESMinsPerJob=node=4",
                     "GrpTRESRunMins=cpu=-1")
    assert r.rc == 0, r
    r = env.sacctmgr("show", "assoc", "where", "account=tacct")
    assert r.out.splitlines()[2] == (
        "    sluice      tacct                               5          3"
        "       3         cpu=4              00:10:00 cpu=200,mem=+      "
        "           cpu=2          cpu=1              01:00:00 cpu=20,nod"
        "e=4               normal                         "), r
    r = env.sacctmgr("-p", "show", "assoc", "where", "account=tacct",
                     "format=Account,GrpTRESMins,GrpTRESRunMins,MaxTRESMins,"
                     "GrpCPUMins,MaxCPUMins,GrpCPURunMins,GrpWall")
    assert r.out == ("Account|GrpTRESMins|GrpTRESRunMins|MaxTRESMins|"
                     "GrpCPUMins|MaxCPUMins|GrpCPURunMins|GrpWall|\n"
                     "tacct|cpu=200,mem=2000M||cpu=20,node=4|200|20||"
                     "00:10:00|\n"), r
    r = env.sacctmgr("show", "qos", "tq")
    assert r.out.splitlines()[2] == (
        "        tq          0   00:00:00                                "
        "    cluster                                                     "
        "   1.000000                     cpu=200                         "
        "           00:05:00                              cpu=30,node=4  "
        "  01:00:00         cpu=3                                        "
        "                                 "), r
    r = env.sacctmgr("-i", "modify", "account", "tacct", "set",
                     "GrpTRESMins=cpu=x")
    assert r.rc == 1, r
    # a user's association shows the Max* limits, Priority and DefaultQOS
    # it inherits (TRES per TRES), not the Grp* ones, as 22.05 prints them
    r = env.sacctmgr("-i", "add", "user", "root", "account=tacct",
                     "MaxTRESMinsPerJob=cpu=7", "MaxJobs=1")
    assert r.rc == 0, r
    r = env.sacctmgr("-p", "show", "assoc", "where", "account=tacct",
                     "format=account,user,priority,maxjobs,maxtres,"
                     "maxtrespernode,maxwall,maxtresmins,grpjobs,grptres,"
                     "grptresmins")
    assert r.out == (
        "Account|User|Priority|MaxJobs|MaxTRES|MaxTRESPerNode|MaxWall|"
        "MaxTRESMins|GrpJobs|GrpTRES|GrpTRESMins|\n"
        "tacct||3||cpu=2|cpu=1|01:00:00|cpu=20,node=4|3|cpu=4|"
        "cpu=200,mem=2000M|\n"
        "tacct|root|3|1|cpu=2|cpu=1|01:00:00|cpu=7,node=4||||\n"), r
    for args in (("delete", "account", "tacct"), ("delete", "qos", "tq")):
        r = env.sacctmgr("-i", *args)
        assert r.rc == 0, r


def test_sacctmgr_qos_settings(env):
    r = env.sacctmgr("-i", "add", "qos", "hq", "priority=100",
                     "preempt=normal", "usagefactor=2", "gracetime=120",
                     "maxjobsperuser=3", "maxsubmitjobsperuser=5",
                     "maxwall=1:00:00", "flags=DenyOnLimit",
                     "maxtresperuser=cpu=4,mem=2G", "grptres=cpu=8")
    assert r.rc == 0, r
    assert r.out == (" Adding QOS(s)\n  hq\n Settings\n"
                     "  Description    = hq\n"
                     "  Flags                    = DenyOnLimit\n"
                     "  GraceTime                = 120\n"
                     "  GrpTRES                  = cpu=8\n"
                     "  MaxJobsPerUser = 3\n"
                     "  MaxSubmitJobsPerUser     = 5\n"
                     "  MaxTRESPerUser           = cpu=4,mem=2G\n"
                     "  MaxWall                  = 01:00:00\n"
                     "  Preempt                  = normal\n"
                     "  Priority                 = 100\n"
                     "  UsageFactor              = 2.0000\n"), r
    r = env.sacctmgr("show", "qos", "hq", "format=Name,Priority,GraceTime,"
                     "Preempt,Flags,UsageFactor,GrpTRES,MaxTRESPU,MaxJobsPU,"
                     "MaxSubmitPU,MaxWall")
    assert r.out.splitlines()[2] == (
        "        hq        100   00:02:00     normal          DenyOnLimit"
        "    2.000000         cpu=8  cpu=4,mem=2G         3           5"
        "    01:00:00 "), r
    r = env.sacctmgr("-i", "modify", "qos", "hq", "set", "flags=Bogus")
    assert r.rc == 1 and r.err.startswith(
        " Unknown QOS flag used in:\n  'Bogus'\n"), r
    r = env.sacctmgr("-i", "modify", "qos", "where", "nme=hq", "set",
                     "priority=1")
    assert (r.rc, r.err) == (1, " Unknown condition: nme=hq\n Use keyword "
                             "'set' to modify SLURM_PRINT_VALUE\n"), r
    r = env.sacctmgr("-i", "modify", "qos", "where", "name=nosuch", "set",
                     "priority=1")
    assert (r.rc, r.out) == (1, " Nothing modified\n"), r
    r = env.sacctmgr("-i", "delete", "qos", "hq")
    assert r.rc == 0, r


def test_sacctmgr_association_limits(env):
    r = env.sacctmgr("-i", "modify", "user", U1, "set", "maxjobs=2",
                     "maxsubmitjobs=3", "grptres=cpu=4,node=2", "maxtres=cpu=2",
                     "maxtrespernode=cpu=1", "grpjobs=5", "grpsubmitjobs=6",
                     "grpwall=10:00", "maxwall=1:00:00", "fairshare=5",
                     "defaultqos=normal")
    assert r.rc == 0, r
    assert r.out == (" Modified user associations...\n"
                     "  C = sluice     A = proj                 U = sluice_u1\n")
    # a TRES limit changes per TRES: cpu goes, node stays
    r = env.sacctmgr("-i", "modify", "user", U1, "set", "grptres=cpu=-1")
    assert r.rc == 0, r
    r = env.sacctmgr("show", "assoc", "where", "user=" + U1,
                     "format=User,GrpTRES,MaxTRES,MaxTRESPerNode,GrpJobs,"
                     "GrpSubmit,GrpWall,MaxJobs,MaxSubmit,MaxWall,Share,QOS,"
                     "DefaultQOS")
    assert r.out.splitlines()[2] == (
        " sluice_u1        node=2         cpu=2          cpu=1       5"
        "         6    00:10:00       2         3    01:00:00         5"
        "          high,normal    normal "), r
    r = env.sacctmgr("-P", "-n", "show", "user", U1, "withassoc")
    assert r.out.startswith(U1 + "|proj|None|sluice|proj||5||2||2|3|"
                            "01:00:00||high,normal|normal"), r
    change(env, "modify", "user", U1, "set", "maxjobs=-1", "maxsubmitjobs=-1",
           "grptres=node=-1", "maxtres=cpu=-1", "maxtrespernode=cpu=-1",
           "grpjobs=-1", "grpsubmitjobs=-1", "grpwall=-1", "maxwall=-1")


def show_accounts(env):
    r = env.sacctmgr("-n", "-P", "show", "account", "format=account")
    return r.out.split()


def test_sacctmgr_coordinators(env):
    r = env.sacctmgr("-i", "add", "coordinator", "account=proj",
                     "names=" + U2)
    assert (r.rc, r.out, r.err) == (
        1, "", " You specified a non-existent user '%s'.\n" % U2), r
    r = env.sacctmgr("-i", "add", "coordinator", "names=" + U1)
    assert (r.rc, r.err) == (1, " You need to specify an account list "
                             "here.\n"), r
    r = env.sacctmgr("-i", "add", "coordinator", "account=proj",
                     "names=" + U1)
    assert (r.rc, r.out) == (0, " Adding Coordinator User(s)\n  %s\n To "
                             "Account(s) and all sub-accounts\n  proj\n"
                             % U1), r
    r = env.sacctmgr("-P", "show", "user", U1, "withcoord")
    assert r.out == ("User|Def Acct|Admin|Coord Accounts\n"
                     "%s|proj|None|proj\n" % U1), r
    # a coordinator adds sub-accounts and users below its account, and
    # nothing elsewhere
    r = env.sacctmgr("-i", "add", "account", "sub", "parent=proj", user=U1)
    assert r.rc == 0, r
    r = env.sacctmgr("-i", "add", "user", U2, "account=sub", user=U1)
    assert r.rc == 0, r
    r = env.sacctmgr("-i", "add", "account", "other", user=U1)
    assert r.rc == 1 and "Access/permission denied" in r.err, r
    # ... changes limits below its account (as Slurm's coordinators), not
    # AdminLevel
    r = env.sacctmgr("-i", "modify", "user", U2, "set", "maxjobs=1",
                     user=U1)
    assert (r.rc, r.out) == (0, " Modified user associations...\n"
                             "  C = sluice     A = sub                  "
                             "U = sluice_u2\n"), r
    r = env.sacctmgr("-i", "modify", "user", U2, "set",
                     "adminlevel=Operator", user=U1)
    assert r.rc == 1 and "Access/permission denied" in r.err, r
    assert show_accounts(env) == ["proj", "root", "sub"]
    for args in (("delete", "user", U2), ("delete", "account", "sub")):
        r = env.sacctmgr("-i", *args)
        assert r.rc == 0, r
    r = env.sacctmgr("-i", "delete", "coordinator", "names=" + U1,
                     "account=proj")
    assert (r.rc, r.out) == (0, " Removing Coordinators with user name\n"
                             "  %s\n From Account(s)\n  proj\n Removed "
                             "Coordinators (sub accounts not listed)...\n"
                             "  U = %s A = proj      \n" % (U1, U1)), r
    r = env.sacctmgr("-i", "delete", "coordinator", "names=" + U1,
                     "account=proj")
    assert r.rc == 1 and r.out.endswith(" Nothing removed\n"), r


def test_cache_used_while_slurmdbd_down(env):
    """The controller restarts with slurmdbd away: the saved cache still
    fills the default account and still refuses users without one."""
    env.stop_dbd()
    try:
        env.c.stop_daemon(env.c.ctld)
        env.c.start_ctld()
        env.c.wait_ready()
        jid = job_id(sbatch(env))
        assert env.c.show_job(jid)["Account"] == "proj"
        r = sbatch(env, user=U2)
        assert r.rc == 1 and "Invalid account" in r.err, r
        cancel_all(env)
    finally:
        env.start_dbd()


def test_reconfigure_changes_enforcement(env):
    """scontrol reconfigure reads AccountingStorageEnforce again."""
    saved = env.c.extra_conf
    env.c.extra_conf = saved.replace(
        "AccountingStorageEnforce=associations,limits,qos,safe",
        "AccountingStorageEnforce=none")
    try:
        env.c.write_conf()
        r = env.c.run(["scontrol", "reconfigure"])
        assert r.rc == 0, r
        jid = job_id(sbatch(env, user=U2))
        assert env.c.show_job(jid)["Account"] in ("", "(null)")
        env.c.run(["scancel", str(jid)])
    finally:
        env.c.extra_conf = saved
        env.c.write_conf()
        env.c.run(["scontrol", "reconfigure"])
    r = sbatch(env, user=U2)
    assert r.rc == 1 and "Invalid account" in r.err, r
