"""Default output layouts are Slurm's.

Headers are compared exactly; table rows column by column (widths,
justification); scontrol records key by key and line by line against what
a real Slurm prints (the key lists below were read off captured output of
`scontrol show job/node/partition`, squeue and sinfo; values differ, layout
must not).
"""

import re
import socket
import time

import pytest

import cluster as cl

SQUEUE_HEADER = ("             JOBID PARTITION     NAME     USER ST       TIME  NODES "
                 "NODELIST(REASON)")
# %.18i %.9P %.8j %.8u %.2t %.10M %.6D %R
SQUEUE_WIDTHS = [18, 9, 8, 8, 2, 10, 6]
SQUEUE_L_HEADER = ("             JOBID PARTITION     NAME     USER    STATE       TIME "
                   "TIME_LIMI  NODES NODELIST(REASON)")
SQUEUE_L_WIDTHS = [18, 9, 8, 8, 8, 10, 9, 6]
SINFO_HEADER = "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST"
SINFO_N_HEADER = "NODELIST   NODES PARTITION STATE "

JOB_KEYS = [
    ["JobId", "JobName"], ["UserId", "GroupId", "MCS_label"],
    ["Priority", "Nice", "Account", "QOS"], ["JobState", "Reason", "Dependency"],
    ["Requeue", "Restarts", "BatchFlag", "Reboot", "ExitCode"],
    ["RunTime", "TimeLimit", "TimeMin"], ["SubmitTime", "EligibleTime"],
    ["AccrueTime"], ["StartTime", "EndTime", "Deadline"],
    ["SuspendTime", "SecsPreSuspend", "LastSchedEval", "Scheduler"],
    ["Partition", "AllocNode:Sid"], ["ReqNodeList", "ExcNodeList"], ["NodeList"],
    ["BatchHost"],
    ["NumNodes", "NumCPUs", "NumTasks", "CPUs/Task", "ReqB:S:C:T"], ["TRES"],
    ["Socks/Node", "NtasksPerN:B:S:C", "CoreSpec"],
    ["MinCPUsNode", "MinMemoryNode", "MinTmpDiskNode"], ["Features", "DelayBoot"],
    ["OverSubscribe", "Contiguous", "Licenses", "Network"], ["Command"],
    ["WorkDir"], ["StdErr"], ["StdIn"], ["StdOut"], ["Power"],
]
JOB_KEYS_PENDING = [k for k in JOB_KEYS if k != ["BatchHost"]]

NODE_KEYS = [
    ["NodeName", "Arch", "CoresPerSocket"], ["CPUAlloc", "CPUEfctv", "CPUTot", "CPULoad"],
    ["AvailableFeatures"], ["ActiveFeatures"], ["Gres"],
    ["NodeAddr", "NodeHostName", "Port", "Version"], ["OS"],
    ["RealMemory", "AllocMem", "FreeMem", "Sockets", "Boards"],
    ["State", "ThreadsPerCore", "TmpDisk", "Weight", "Owner", "MCS_label"],
    ["Partitions"], ["BootTime", "SlurmdStartTime"], ["LastBusyTime"], ["CfgTRES"],
    ["AllocTRES"], ["CapWatts"], ["CurrentWatts", "AveWatts"],
    ["ExtSensorsJoules", "ExtSensorsWatts", "ExtSensorsTemp"],
]
# Keys newer Slurm releases print that 22.05 did not (allowed, not required).
NEWER_NODE_KEYS = {"ResumeAfterTime"}

PART_KEYS = [
    ["PartitionName"], ["AllowGroups", "AllowAccounts", "AllowQos"],
    ["AllocNodes", "Default", "QoS"],
    ["DefaultTime", "DisableRootJobs", "ExclusiveUser", "GraceTime", "Hidden"],
    ["MaxNodes", "MaxTime", "MinNodes", "LLN", "MaxCPUsPerNode"], ["Nodes"],
    ["PriorityJobFactor", "PriorityTier", "RootOnly", "ReqResv", "OverSubscribe"],
    ["OverTimeLimit", "PreemptMode"],
    ["State", "TotalCPUs", "TotalNodes", "SelectTypeParameters"], ["JobDefaults"],
    ["DefMemPerNode", "MaxMemPerNode"], ["TRES"],
]


def split_fixed(line, widths):
    """Cut a right-justified fixed-width row; returns (values, rest) or
    raises AssertionError naming the bad column."""
    vals, pos = [], 0
    for i, w in enumerate(widths):
        cell = line[pos:pos + w]
        assert len(cell) == w, "row too short at column %d: %r" % (i, line)
        v = cell.strip()
        assert cell == v.rjust(w), "column %d not right-justified to %d: %r in %r" % (
            i, w, cell, line)
        assert line[pos + w:pos + w + 1] == " ", "no separator after column %d: %r" % (i, line)
        vals.append(v)
        pos += w + 1
    return vals, line[pos:]


def check_keys(text, want, extra_ok=frozenset()):
    got = [[k for k in keys if k not in extra_ok] for keys in cl.keys_per_line(text)]
    got = [k for k in got if k]
    if want is NODE_KEYS:
        # Port= is printed only for a node whose port differs from SlurmdPort.
        got = [[k for k in keys if k != "Port"] for keys in got]
        want = [[k for k in keys if k != "Port"] for keys in want]
    assert got == want, "key layout differs:\n got  %s\n want %s\n--- output ---\n%s" % (
        got, want, text)
    for line in text.splitlines()[1:]:
        if line.strip():
            assert line.startswith("   ") and not line.startswith("    "), \
                "continuation lines are indented 3 spaces: %r" % line


@pytest.fixture(scope="module")
def idle(cluster):
    """Outputs captured while the cluster is idle and empty."""
    c = cluster
    return {
        "sinfo": c.run(["sinfo"]),
        "sinfo_N": c.run(["sinfo", "-N"]),
        "squeue": c.run(["squeue"]),
    }


def test_sinfo_idle_exact(idle):
    r = idle["sinfo"]
    assert (r.rc, r.err) == (0, ""), r
    assert r.out == (SINFO_HEADER + "\n"
                     "debug*       up   infinite      4   idle n[1-4]\n"), r


def test_sinfo_N_idle_exact(idle):
    r = idle["sinfo_N"]
    assert (r.rc, r.err) == (0, ""), r
    want = SINFO_N_HEADER + "\n" + "".join(
        "n%d             1    debug* idle  \n" % i for i in range(1, 5))
    assert r.out == want, r


def test_squeue_empty_exact(idle):
    r = idle["squeue"]
    assert (r.rc, r.out, r.err) == (0, SQUEUE_HEADER + "\n", ""), r


@pytest.fixture(scope="module")
def jobs(cluster, idle):
    c = cluster
    u = "sluice_u1"
    run1 = c.sbatch(["-J", "plain", "-N1", "-n2", "--wrap", "/usr/bin/sleep 300"], user=u)
    run2 = c.sbatch(["-J", "averylongjobname", "--wrap", "/usr/bin/sleep 300"], user="sluice_u2")
    c.wait_state(run1, "RUNNING", 30)
    c.wait_state(run2, "RUNNING", 30)
    # Finished before `wide` is queued: a pending job that cannot start
    # holds back lower-priority ones in FIFO order.
    done = c.sbatch(["-J", "ok", "--wrap", "true"], user=u)
    c.wait_done(done, 30)
    held = c.sbatch(["-J", "held", "--hold", "--wrap", "true"], user=u)
    wide = c.sbatch(["-J", "wide", "-n", "8", "--wrap", "true"], user=u)
    time.sleep(2)   # let the scheduler give `wide` its reason
    return {"run1": run1, "run2": run2, "held": held, "wide": wide, "done": done}


def test_squeue_default_layout(cluster, jobs):
    c = cluster
    r = c.run(["squeue"])
    assert (r.rc, r.err) == (0, ""), r
    lines = r.out.splitlines()
    assert lines[0] == SQUEUE_HEADER, r
    rows = {}
    for line in lines[1:]:
        vals, rest = split_fixed(line, SQUEUE_WIDTHS)
        rows[int(vals[0])] = vals + [rest]
    assert set(rows) == {jobs["run1"], jobs["run2"], jobs["held"], jobs["wide"]}, r
    ids_in_order = [int(l.split()[0]) for l in lines[1:]]
    states_in_order = [rows[j][4] for j in ids_in_order]
    assert states_in_order == sorted(states_in_order, key=lambda s: s != "PD"), \
        "pending jobs are listed before running ones: %s" % r.out

    jid, part, name, user, st, tm, nodes, nl = rows[jobs["run1"]]
    assert (part, name, user, st, nodes) == ("debug", "plain", "sluice_u", "R", "1"), rows
    assert re.fullmatch(r"\d+:\d\d", tm), tm
    assert re.fullmatch(r"n[1-4]", nl), nl
    assert rows[jobs["run2"]][2] == "averylon"           # names cut to 8
    assert rows[jobs["held"]][4:] == ["PD", "0:00", "1", "(JobHeldUser)"], rows
    assert rows[jobs["wide"]][4] == "PD"
    assert rows[jobs["wide"]][7] in ("(Resources)", "(Priority)"), rows


def test_squeue_long_layout(cluster, jobs):
    c = cluster
    r = c.run(["squeue", "-l"])
    assert (r.rc, r.err) == (0, ""), r
    lines = r.out.splitlines()
    # First line is the date, e.g. "Sun Nov 22 12:45:59 2026".
    assert re.fullmatch(r"\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}", lines[0]), lines[0]
    assert lines[1] == SQUEUE_L_HEADER, r
    for line in lines[2:]:
        vals, rest = split_fixed(line, SQUEUE_L_WIDTHS)
        assert vals[4] in ("PENDING", "RUNNING"), line
        assert vals[6] == "UNLIMITED", line


def test_squeue_format_options(cluster, jobs):
    c = cluster
    r = c.run(["squeue", "-h", "-o", "%i %T", "-j", str(jobs["held"])])
    assert (r.rc, r.out, r.err) == (0, "%d PENDING\n" % jobs["held"], ""), r
    r = c.run(["squeue", "-h", "-t", "all", "-o", "%i|%T|%j|%u", "-j", str(jobs["done"])])
    assert r.out == "%d|COMPLETED|ok|sluice_u1\n" % jobs["done"], r
    r = c.run(["squeue", "-O", "JobID,Name,State"])
    assert r.rc == 0, r
    assert r.out.splitlines()[0].split() == ["JOBID", "NAME", "STATE"], r


def test_sinfo_busy_layout(cluster, jobs):
    c = cluster
    r = c.run(["sinfo"])
    assert (r.rc, r.err) == (0, ""), r
    lines = r.out.splitlines()
    assert lines[0] == SINFO_HEADER
    total = 0
    for line in lines[1:]:
        m = re.fullmatch(r"(.{9}) (.{5}) (.{10}) (.{6}) (.{6}) (\S+)", line)
        assert m, "row does not fit %%9P %%.5a %%.10l %%.6D %%.6t %%N: %r" % line
        part, avail, limit, nodes, state, nl = m.groups()
        assert part == "debug*   " and avail == "   up" and limit == "  infinite", line
        assert nodes.strip().isdigit() and nodes == nodes.strip().rjust(6), line
        assert state.strip() in ("idle", "mix", "alloc"), line
        total += int(nodes)
    assert total == 4, r


def test_scontrol_show_job_running(cluster, jobs):
    r = cluster.run(["scontrol", "show", "job", str(jobs["run1"])])
    assert (r.rc, r.err) == (0, ""), r
    assert r.out.startswith("JobId=%d JobName=plain\n" % jobs["run1"]), r
    check_keys(r.out, JOB_KEYS)
    rec = cl.parse_kv(r.out)
    uid = cl.user_ids("sluice_u1")[0]
    assert rec["UserId"] == "sluice_u1(%d)" % uid
    assert rec["JobState"] == "RUNNING" and rec["Reason"] == "None"
    assert rec["NumCPUs"] == "2" and rec["NumTasks"] == "2" and rec["NumNodes"] == "1"
    assert rec["TimeLimit"] == "UNLIMITED" and rec["Partition"] == "debug"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", rec["SubmitTime"]), rec
    assert rec["StdOut"] == "%s/slurm-%d.out" % (cluster.workdir("sluice_u1"), jobs["run1"])
    assert r.out.endswith("\n\n"), "record ends with a blank line: %r" % r.out[-40:]


def test_scontrol_show_job_pending_held(cluster, jobs):
    r = cluster.run(["scontrol", "show", "job", str(jobs["held"])])
    assert (r.rc, r.err) == (0, ""), r
    check_keys(r.out, JOB_KEYS_PENDING)
    rec = cl.parse_kv(r.out)
    assert (rec["JobState"], rec["Reason"], rec["Priority"]) == ("PENDING", "JobHeldUser", "0")
    assert rec["StartTime"] == "Unknown" and rec["EligibleTime"] == "Unknown"


def test_scontrol_show_job_completed(cluster, jobs):
    r = cluster.run(["scontrol", "show", "job", str(jobs["done"])])
    assert (r.rc, r.err) == (0, ""), r
    check_keys(r.out, JOB_KEYS)
    rec = cl.parse_kv(r.out)
    assert (rec["JobState"], rec["ExitCode"]) == ("COMPLETED", "0:0")


def test_scontrol_oneliner(cluster, jobs):
    r = cluster.run(["scontrol", "-o", "show", "job", str(jobs["run1"])])
    assert r.rc == 0, r
    assert r.out.count("\n") == 1, r
    keys = [t.partition("=")[0] for t in r.out.split() if "=" in t]
    assert keys == [k for line in JOB_KEYS for k in line], keys


def test_scontrol_show_node(cluster, jobs):
    c = cluster
    r = c.run(["scontrol", "show", "node", "n4"])
    assert (r.rc, r.err) == (0, ""), r
    check_keys(r.out, NODE_KEYS, NEWER_NODE_KEYS)
    rec = cl.parse_kv(r.out)
    assert rec["NodeName"] == "n4" and rec["CPUTot"] == "2" and rec["RealMemory"] == "1000"
    assert rec["NodeAddr"] == "127.0.0.1" and rec["Partitions"] == "debug"
    r = c.run(["scontrol", "show", "node"])
    blocks = [b for b in r.out.split("\n\n") if b.strip()]
    assert [cl.parse_kv(b)["NodeName"] for b in blocks] == c.node_names
    allocs = {cl.parse_kv(b)["NodeName"]: int(cl.parse_kv(b)["CPUAlloc"]) for b in blocks}
    assert sum(allocs.values()) == 3, allocs       # plain (2) + averylongjobname (1)


def test_scontrol_show_partition(cluster):
    r = cluster.run(["scontrol", "show", "partition"])
    assert (r.rc, r.err) == (0, ""), r
    check_keys(r.out, PART_KEYS)
    rec = cl.parse_kv(r.out)
    assert (rec["PartitionName"], rec["Nodes"], rec["TotalCPUs"], rec["TotalNodes"]) == \
        ("debug", "n[1-4]", "8", "4")
    assert rec["Default"] == "YES" and rec["MaxTime"] == "UNLIMITED" and rec["State"] == "UP"


def test_version(cluster):
    for cmd in ("sbatch", "squeue", "sinfo", "scontrol", "scancel"):
        r = cluster.run([cmd, "--version"])
        assert (r.rc, r.out, r.err) == (0, "slurm 25.05.0\n", ""), r


def test_scontrol_ping(cluster):
    """SlurmctldHost=localhost is shown as this host's short name (as
    Slurm 22.05 does)."""
    host = socket.gethostname().split(".")[0]
    r = cluster.run(["scontrol", "ping"], user="sluice_u2")
    assert (r.rc, r.out, r.err) == (0, "Slurmctld(primary) at %s is UP\n" % host, ""), r


def test_sbatch_script_output_lines(cluster):
    """sbatch prints exactly one line; --parsable prints only the id."""
    c = cluster
    r = c.run(["sbatch", "--hold", "-J", "fmt", "--wrap", "true"], user="sluice_u1")
    assert r.rc == 0 and r.err == "", r
    assert re.fullmatch(r"Submitted batch job \d+\n", r.out), r
    jid = int(r.out.split()[-1])
    r = c.run(["squeue", "-h", "-j", str(jid), "-o", "%i|%j|%u|%T|%r"], user="sluice_u1")
    assert r.out == "%d|fmt|sluice_u1|PENDING|JobHeldUser\n" % jid, r
    c.run(["scancel", str(jid)], user="sluice_u1")
